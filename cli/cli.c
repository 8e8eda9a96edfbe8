/*
 * cli.c - what every command of kgen shares: the exit status of a
 * kgen_status (listed in usage() and kgen.1), a diagnostic on stderr, a
 * spec loaded with its --set and --unset overrides, and whether a file is
 * a size plan.  The commands themselves are in the table in kgen.c.
 */
#include "config.h"
#include <sys/stat.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kgen.h"
#include "cli.h"
#include "gen/spec.h"
#include "gen/util.h"

int
kgen_exit_status(kgen_status st)
{
	switch (st) {
	case KGEN_OK: return 0;
	case KGEN_ESPEC: return 1;
	case KGEN_EINVAL: return 2;
	case KGEN_EIO: return 3;
	case KGEN_ECOMPILE: return 4;
	case KGEN_ECUDA: return 5;
	case KGEN_EVERIFY: return 6;
	case KGEN_ENOMEM: return 7;
	default: return 70;
	}
}

const char *const kgen_gpu_commands[] = { "run", "tune", "info", NULL };

void
kgen_print_gpu_commands(FILE *fp, const char *prefix)
{
	int i;

	for (i = 0; kgen_gpu_commands[i]; i++) {
		const char *sep = i == 0 ? "" : prefix[0] || kgen_gpu_commands[i + 1] ? ", " : " and ";
		fprintf(fp, "%s%s%s", sep, prefix, kgen_gpu_commands[i]);
	}
}

int
kgen_report(const kgen_error *err)
{
	kgen_error_print(err, stderr);
	if (err->status == KGEN_ECUDA && strncmp(err->message, "no CUDA driver", 14) == 0) {
		fputs("kgen: running kernels (", stderr);
		kgen_print_gpu_commands(stderr, "kgen ");
		fputs(") needs an NVIDIA GPU and its driver;\n"
		      "kgen SPEC, check, compile, diff, space and keys work without one.\n", stderr);
	}
	return kgen_exit_status(err->status);
}

/* --unset KEY's "KEY=" strings: an override from here was an --unset. */
static char unset_pool[64][128];

/* Whether override `set` came from --unset (its "KEY=" is the pool's). */
static int
was_unset(const char *set)
{
	return set >= &unset_pool[0][0] && set < &unset_pool[0][0] + sizeof unset_pool;
}

/* Name the overrides that made a spec wrong, "--set threads=100 --set
 * dtype=f64": after the message when it has a line of the spec, else in
 * place of the file ("s.yaml (--set threads=100)"). */
static void
name_overrides(const char *path, char *const *sets, int nsets, kgen_error *err)
{
	char label[sizeof err->file] = "", shown[sizeof err->file];
	size_t used = 0;
	int i;

	/* Escaped, each into the room left so that no character is cut in two:
	 * a newline in an argument must not split the message, nor an escape
	 * sequence reach the terminal. */
	for (i = 0; i < nsets && used + 16 < sizeof label; i++) {
		char key[128];
		int unset = was_unset(sets[i]);
		used += (size_t)snprintf(label + used, sizeof label - used, "%s--%s ", i ? " " : "", unset ? "unset" : "set");
		if (unset)  /* "KEY=" shown as the KEY the user gave */
			snprintf(key, sizeof key, "%.*s", (int)strcspn(sets[i], "="), sets[i]);
		if (used + 9 < sizeof label)
			used += strlen(kgen_escape(unset ? key : sets[i], label + used, sizeof label - used, 0));
	}
	if (err->line > 0) {
		size_t len = strlen(err->message);
		snprintf(err->message + len, sizeof err->message - len, " (after %s)", label);
	} else {
		char file[sizeof err->file];
		snprintf(file, sizeof file, "%s (%s)", kgen_escape(path, shown, sizeof err->file / 2, 0), label);
		memcpy(err->file, file, sizeof err->file);
	}
}

/* Apply the --set overrides to *spec, validated together; on failure *spec
 * is freed and NULL. */
static kgen_status
apply_sets(const char *path, char *const *sets, int nsets, kgen_spec **spec, kgen_error *err)
{
	const char *keys[64], *values[64];
	char buf[64][96];
	kgen_status st;
	int i;

	for (i = 0; i < nsets && i < 64; i++) {
		char *eq = strchr(sets[i], '=');
		if (!eq || eq == sets[i] || (size_t)(eq - sets[i]) >= sizeof buf[i]) {
			kgen_spec_free(*spec);
			*spec = NULL;
			return kgen_fail(err, KGEN_EINVAL, "--set %s: expected KEY=VALUE", sets[i]);
		}
		snprintf(buf[i], sizeof buf[i], "%.*s", (int)(eq - sets[i]), sets[i]);
		keys[i] = buf[i];
		values[i] = eq + 1;
	}
	if (nsets && (st = kgen_spec_set_many(*spec, nsets, keys, values, err)) != KGEN_OK) {
		kgen_spec_free(*spec);
		*spec = NULL;
		name_overrides(path, sets, nsets, err);
		return st;
	}
	return KGEN_OK;
}

/* Load a spec and apply the --set overrides, validated together. */
kgen_status
kgen_cli_load(const char *path, char *const *sets, int nsets, kgen_spec **spec, kgen_error *err)
{
	kgen_status st;

	if ((st = kgen_spec_load_file(path, spec, err)) != KGEN_OK)
		return st;
	return apply_sets(path, sets, nsets, spec, err);
}

kgen_status
kgen_cli_load_entry(const char *path, int entry, char *const *sets, int nsets, kgen_spec **spec, kgen_error *err)
{
	kgen_plan *plan = NULL;
	kgen_status st;
	int n;

	*spec = NULL;
	if (!kgen_cli_is_plan(path)) {
		if ((st = kgen_spec_load_file(path, spec, err)) != KGEN_OK)  /* its own error first: a missing file */
			return st;
		kgen_spec_free(*spec);
		*spec = NULL;
		return kgen_fail(err, KGEN_EINVAL, "--entry %d: %s is one spec, not a size plan", entry, path);
	}
	if ((st = kgen_plan_load_file(path, &plan, err)) != KGEN_OK)
		return st;
	n = kgen_plan_count(plan);
	if (entry < 1 || entry > n)
		st = kgen_fail(err, KGEN_EINVAL, "--entry %d: %s has %d entr%s (1 to %d)", entry, path, n, n == 1 ? "y" : "ies", n);
	else
		st = kgen_spec_copy(kgen_plan_spec(plan, entry - 1, NULL), spec, err);
	kgen_plan_free(plan);
	if (st != KGEN_OK)
		return st;
	return apply_sets(path, sets, nsets, spec, err);
}

char *
kgen_cli_unset(const char *key)
{
	static int used;

	if (!key[0] || strchr(key, '=') || strlen(key) + 2 > sizeof unset_pool[0] || used == 64)
		return NULL;
	snprintf(unset_pool[used], sizeof unset_pool[0], "%s=", key);
	return unset_pool[used++];
}

int
kgen_cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	if (fmt) {
		fprintf(stderr, "kgen%s%s: ", cmd ? " " : "", cmd ? cmd : "");
		va_start(ap, fmt);
		vfprintf(stderr, fmt, ap);
		va_end(ap);
		fputc('\n', stderr);
	}
	fprintf(stderr, "Try 'kgen%s%s --help' for more information.\n", cmd ? " " : "", cmd ? cmd : "");
	return 2;
}

int
kgen_cli_stdin_once(const char *cmd, char *const *paths, int n)
{
	int i, seen = 0;

	for (i = 0; i < n; i++)
		if (strcmp(paths[i], "-") == 0 && seen++)
			return kgen_cli_usage_error(cmd, "- (standard input) is given twice, and can be read once");
	return 0;
}

/* The base of an option's number: 16 after 0x (a sign before it), else 10
 * (010 is ten, as atoi() read it, not octal). */
static int
number_base(const char *arg)
{
	const char *p = arg + (*arg == '-' || *arg == '+');

	return p[0] == '0' && (p[1] == 'x' || p[1] == 'X') ? 16 : 10;
}

int
kgen_cli_integer(const char *cmd, const char *option, const char *arg, long long lo, long long hi, long long *v)
{
	char shown[64], *end;

	errno = 0;
	*v = strtoll(arg, &end, number_base(arg));
	if (end == arg || *end || errno || *v < lo || *v > hi)
		return kgen_cli_usage_error(cmd, "%s %s: an integer from %lld to %lld", option,
		                            kgen_escape(arg, shown, sizeof shown, 0), lo, hi);
	return 0;
}

int
kgen_cli_unsigned(const char *cmd, const char *option, const char *arg, unsigned long long *v)
{
	char shown[64], *end;

	errno = 0;
	*v = strtoull(arg, &end, number_base(arg));
	if (end == arg || *end || errno || arg[0] == '-' || arg[0] == '+' || arg[0] == ' ')
		return kgen_cli_usage_error(cmd, "%s %s: an integer from 0 to %llu", option,
		                            kgen_escape(arg, shown, sizeof shown, 0), ~0ull);
	return 0;
}

int
kgen_cli_add_set(const char *cmd, int unset, char *arg, const char *next, char **sets, int *nsets, int max)
{
	char shown[96], key[96];
	size_t len = next ? strlen(next) : 0;
	struct stat st;

	if (!unset && (!strchr(arg, '=') || arg[0] == '=')) {
		/* `--set threads 256`: the value went to the operands.  The word
		 * after is offered as the value unless it is an option, a pair or
		 * a spec (a file, or a name ending in .yaml). */
		kgen_escape(arg, shown, sizeof shown, 0);
		if (arg[0] != '=' && len && next[0] != '-' && !strchr(next, '=') && stat(next, &st) != 0 &&
		    !(len > 5 && strcmp(next + len - 5, ".yaml") == 0) && !(len > 4 && strcmp(next + len - 4, ".yml") == 0))
			return kgen_cli_usage_error(cmd, "--set needs KEY=VALUE (got '%s'); did you mean --set %s=%s?", shown,
			                            shown, kgen_escape(next, key, sizeof key, 0));
		return kgen_cli_usage_error(cmd, "--set needs KEY=VALUE (got '%s'; KEY= unsets the key)", shown);
	}
	if (*nsets == max || !(sets[*nsets] = unset ? kgen_cli_unset(arg) : arg))
		return kgen_cli_usage_error(cmd, "--%s %s: %s", unset ? "unset" : "set", arg,
		                            *nsets == max ? "too many --set and --unset options"
		                                          : "expected a key (--unset threads)");
	(*nsets)++;
	return 0;
}

kgen_status
kgen_cli_spec_hash(const kgen_spec *s, char out[17], kgen_error *err)
{
	char *dump = NULL, *p;
	unsigned long long h = 0xcbf29ce484222325ull;

	if (kgen_spec_dump(s, &dump) != KGEN_OK)
		return kgen_fail(err, KGEN_ENOMEM, "out of memory");
	for (p = dump; *p; p++)
		h = (h ^ (unsigned char)*p) * 0x100000001b3ull;
	free(dump);
	snprintf(out, 17, "%016llx", h);
	return KGEN_OK;
}

int
kgen_cli_is_plan(const char *path)
{
	char *text;
	size_t len;
	int is;

	if (!path || strcmp(path, "-") == 0 || kgen_read_file(path, &text, &len, NULL) != KGEN_OK)
		return 0;
	is = kgen_plan_text_is_plan(text, len);
	free(text);
	return is;
}

/* The folder part of path into dir (".", when it has none) and its last
 * component; 0 when the folder's name does not fit. */
static int
split_path(const char *path, char *dir, size_t size, const char **base)
{
	const char *slash = strrchr(path, '/');
	size_t len = slash ? (size_t)(slash - path) + 1 : 1;

	if (len >= size)
		return 0;
	memcpy(dir, slash ? path : ".", len);
	dir[len] = '\0';
	*base = slash ? slash + 1 : path;
	return 1;
}

int
kgen_cli_same_file(const char *a, const char *b)
{
	char da[4096], db[4096];
	const char *ba, *bb;
	struct stat sa, sb;

	if (!a || !b || strcmp(a, "-") == 0 || strcmp(b, "-") == 0)
		return 0;
	if (stat(a, &sa) == 0 && stat(b, &sb) == 0)
		return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	/* One is not made yet: the same name in the same folder. */
	return split_path(a, da, sizeof da, &ba) && split_path(b, db, sizeof db, &bb) && strcmp(ba, bb) == 0 &&
	       *ba && stat(da, &sa) == 0 && stat(db, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

kgen_status
kgen_cli_not_an_input(const char *option, const char *out, char *const *inputs, int ninputs, const char *what,
                      kgen_error *err)
{
	char shown[256], other[256];
	struct stat st;
	int i;

	/* Standard output, a file not made yet, or something not a regular
	 * file (a FIFO, /dev/null, a terminal) truncates nothing. */
	if (!out || strcmp(out, "-") == 0 || stat(out, &st) != 0 || !S_ISREG(st.st_mode))
		return KGEN_OK;
	for (i = 0; i < ninputs; i++)
		if (kgen_cli_same_file(out, inputs[i]))
			return kgen_fail(err, KGEN_EINVAL, "%s %s is %s%s%s itself: writing it would destroy the input; choose "
			                 "another file", option, kgen_escape(out, shown, sizeof shown, 0), what,
			                 strcmp(inputs[i], out) ? " " : "",
			                 strcmp(inputs[i], out) ? kgen_escape(inputs[i], other, sizeof other, 0) : "");
	return KGEN_OK;
}
