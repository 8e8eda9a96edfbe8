/*
 * roundtrip_test.c - every generated file's header loads back: the spec
 * block of the header comment ("// Spec, defaults filled in:", a line a
 * key), taken out of the file and read as YAML, is a spec the loader
 * accepts (what `kgen check` does), and generating from it gives the same
 * file byte for byte.  (Issue 48, item 4: the header of a simt matmul
 * printed `warp_m: 0`, which the loader refuses.)
 *
 *   tests/roundtrip_test          every spec under $top_srcdir/specs (but
 *                                 specs/plans: plans and spaces) and a few
 *                                 written here, whose expressions YAML must
 *                                 read quoted
 *   tests/roundtrip_test FILE...  these specs (tests/roundtrip_test.sh
 *                                 passes a sample from tests/sample_test)
 *
 * In process, without NVRTC: a few milliseconds a spec.
 */
#include "config.h"
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "kgen.h"
#include "gen/util.h"

static int specs, failures;

/* Specs whose expressions hold what plain YAML cannot (": ", a leading
 * indicator): the header must quote them. */
static const struct {
	const char *name, *yaml;
} written[] = {
	{ "colon.yaml", "kernel: reduce\nop: custom\ndtype: f32\nmap: x\ncombine: 'a < b ? b : a'\n"
	                "identity: 0\npost: 'n > 0 ? a : a'\n" },
	{ "indicator.yaml", "kernel: reduce\nop: custom\ndtype: f32\nmap: '!x'\ncombine: a + b\nidentity: 0\n" },
	{ "minus.yaml", "kernel: reduce\nop: custom\ndtype: i32\nmap: -x\ncombine: a + b\nidentity: -0\n" },
};

/* The header's spec block as YAML ("key: value" a line), or NULL. */
static char *
spec_block(const char *src)
{
	static const char head[] = "// Spec, defaults filled in:\n";
	const char *p = strstr(src, head), *end;
	strbuf b;

	if (!p)
		return NULL;
	sb_init(&b);
	for (p += strlen(head); strncmp(p, "//   ", 5) == 0; p = end + 1) {
		if (!(end = strchr(p, '\n')))
			break;
		sb_printf(&b, "%.*s\n", (int)(end - p - 5), p + 5);
	}
	return sb_take(&b);
}

/* One spec (yaml named `name`): generate, take the header's spec block,
 * load it under the same name and generate again. */
static void
round_trip(const char *name, const char *yaml, size_t len)
{
	kgen_spec *s = NULL, *back = NULL;
	char *src = NULL, *again = NULL, *block = NULL;
	kgen_error err;

	specs++;
	if (kgen_spec_load_string(yaml, len, name, &s, &err) || kgen_generate(s, &src, &err)) {
		fprintf(stderr, "FAIL: %s: ", name);
		kgen_error_print(&err, stderr);
		failures++;
		goto out;
	}
	if (!(block = spec_block(src)) || !*block) {
		fprintf(stderr, "FAIL: %s: no spec block in the generated header\n", name);
		failures++;
		goto out;
	}
	if (kgen_spec_load_string(block, strlen(block), name, &back, &err)) {
		fprintf(stderr, "FAIL: %s: the header's spec does not load back:\n", name);
		kgen_error_print(&err, stderr);
		fprintf(stderr, "the block:\n%s", block);
		failures++;
		goto out;
	}
	if (kgen_generate(back, &again, &err)) {
		fprintf(stderr, "FAIL: %s: the header's spec loads but does not generate: ", name);
		kgen_error_print(&err, stderr);
		failures++;
	} else if (strcmp(src, again) != 0) {
		fprintf(stderr, "FAIL: %s: the header's spec generates another file; the block:\n%s", name, block);
		failures++;
	}
out:
	kgen_spec_free(s);
	kgen_spec_free(back);
	free(src);
	free(again);
	free(block);
}

static void
round_trip_file(const char *path)
{
	char *text = NULL;
	size_t len = 0;
	kgen_error err;

	if (kgen_read_file(path, &text, &len, &err)) {
		fprintf(stderr, "FAIL: %s: cannot read it: %s\n", path, err.message);
		specs++;
		failures++;
		return;
	}
	round_trip(path, text, len);
	free(text);
}

/* Every .yaml under dir, in order; specs/plans holds plans and spaces. */
static void
walk(const char *dir)
{
	struct dirent **names;
	char path[4096];
	struct stat st;
	size_t l;
	int n, i;

	if ((n = scandir(dir, &names, NULL, alphasort)) < 0) {
		perror(dir);
		failures++;
		return;
	}
	for (i = 0; i < n; i++) {
		const char *e = names[i]->d_name;
		snprintf(path, sizeof path, "%s/%s", dir, e);
		l = strlen(path);
		if (e[0] != '.' && stat(path, &st) == 0) {
			if (S_ISDIR(st.st_mode) && !(l >= 12 && strcmp(path + l - 12, "/specs/plans") == 0))
				walk(path);
			else if (S_ISREG(st.st_mode) && strlen(e) > 5 && strcmp(e + strlen(e) - 5, ".yaml") == 0)
				round_trip_file(path);
		}
		free(names[i]);
	}
	free(names);
}

int
main(int argc, char **argv)
{
	const char *top = getenv("top_srcdir");
	char dir[4096];
	size_t i;
	int a;

	if (argc > 1) {
		for (a = 1; a < argc; a++)
			round_trip_file(argv[a]);
	} else {
		snprintf(dir, sizeof dir, "%s/specs", top ? top : ".");
		walk(dir);
		for (i = 0; i < KGEN_COUNT(written); i++)
			round_trip(written[i].name, written[i].yaml, strlen(written[i].yaml));
	}
	printf("%d specs, %d whose header does not load back or makes another file\n", specs, failures);
	return failures || !specs ? 1 : 0;
}
