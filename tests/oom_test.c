/*
 * oom_test.c - out of memory, at every allocation: for every spec under
 * specs/ and every N, the N-th allocation made while loading, checking,
 * dumping and generating it (kgen's own and libyaml's) fails.  Each run must
 * end in KGEN_ENOMEM with "out of memory" in the message, or succeed with
 * exactly what the unhindered run made: never another status, a crash, or
 * a different file.  (Issue 12, item 5.)
 *
 * malloc, calloc and realloc are replaced in this program, so the library
 * linked into it and libyaml call these; they count down and fail once.
 * Needs glibc (__libc_malloc and friends); skips (77) elsewhere.
 */
#include "config.h"
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "kgen.h"
#include "gen/util.h"

#if !defined(__GLIBC__) || defined(__SANITIZE_ADDRESS__)
int
main(void)
{
#ifdef __SANITIZE_ADDRESS__
	/* AddressSanitizer owns malloc in this build: replacing it breaks the
	 * sanitizer's own start-up.  The plain build runs the sweep. */
	puts("SKIP: the allocation-failure sweep replaces malloc, which AddressSanitizer owns in this build "
	     "(configure --enable-sanitizers); the plain build runs it");
#else
	puts("SKIP: the allocation-failure sweep needs glibc");
#endif
	return 77;
}
#else

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);

static long countdown = -1;  /* allocations left before one fails; -1: none fails */
static int injected;         /* the failure happened */

static int
fail_now(void)
{
	if (countdown < 0)
		return 0;
	if (countdown-- == 0) {
		injected = 1;
		return 1;
	}
	return 0;
}

void *
malloc(size_t n)
{
	return fail_now() ? NULL : __libc_malloc(n);
}

void *
calloc(size_t n, size_t size)
{
	return fail_now() ? NULL : __libc_calloc(n, size);
}

void *
realloc(void *p, size_t n)
{
	return fail_now() ? NULL : __libc_realloc(p, n);
}

/* Load, dump and generate: the status, and the dump and source on success. */
static kgen_status
run(const char *text, const char *name, char **dump, char **source, kgen_error *err)
{
	kgen_spec *spec = NULL;
	kgen_status st;

	*dump = *source = NULL;
	if ((st = kgen_spec_load_string(text, strlen(text), name, &spec, err)) != KGEN_OK)
		return st;
	if (kgen_spec_dump(spec, dump) != KGEN_OK) {
		kgen_spec_free(spec);
		return KGEN_ENOMEM;  /* kgen_spec_dump's only failure */
	}
	st = kgen_generate(spec, source, err);
	kgen_spec_free(spec);
	return st;
}

static int failures, specs;
static long runs;

/* The sweep over one spec file. */
static void
sweep(const char *path)
{
	char *text = NULL, *dump0, *src0, *dump, *src;
	size_t len;
	kgen_error err;
	kgen_status st0, st;
	long n;

	if (kgen_read_file(path, &text, &len, &err) != KGEN_OK) {
		fprintf(stderr, "FAIL: %s\n", err.message);
		failures++;
		return;
	}
	specs++;
	st0 = run(text, path, &dump0, &src0, &err);
	for (n = 0;; n++) {
		countdown = n;
		injected = 0;
		st = run(text, path, &dump, &src, &err);
		countdown = -1;
		runs++;
		if (!injected) {  /* allocation n was never made: every one has failed once */
			free(dump);
			free(src);
			break;
		}
		if (st == KGEN_ENOMEM ? !strstr(err.message, "out of memory") || err.status != KGEN_ENOMEM
		                      : st != st0 || (st == KGEN_OK && (strcmp(dump, dump0) || strcmp(src, src0)))) {
			fprintf(stderr, "FAIL: %s: allocation %ld failed: %s (%s: %s), expected KGEN_ENOMEM or the "
			        "unhindered result (%s)\n", path, n, kgen_status_name(st), err.file, err.message,
			        kgen_status_name(st0));
			failures++;
		}
		free(dump);
		free(src);
	}
	printf("%s: %ld allocations, each made to fail once: %s\n", path, n,
	       st0 == KGEN_OK ? "generated" : kgen_status_name(st0));
	free(dump0);
	free(src0);
	free(text);
}

static void
walk(const char *dir)
{
	struct dirent **names;
	char path[4096];
	struct stat st;
	int n, i;

	if ((n = scandir(dir, &names, NULL, alphasort)) < 0)
		return;
	for (i = 0; i < n; i++) {
		const char *e = names[i]->d_name;
		snprintf(path, sizeof path, "%s/%s", dir, e);
		if (e[0] != '.' && stat(path, &st) == 0) {
			if (S_ISDIR(st.st_mode))
				walk(path);
			else if (strlen(e) > 5 && strcmp(e + strlen(e) - 5, ".yaml") == 0)
				sweep(path);
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
	int i;

	if (argc > 1) {
		for (i = 1; i < argc; i++)
			sweep(argv[i]);
	} else {
		snprintf(dir, sizeof dir, "%s/specs", top ? top : ".");
		walk(dir);
	}
	printf("%d specs, %ld runs, %d failures\n", specs, runs, failures);
	return failures || !specs ? 1 : 0;
}
#endif
