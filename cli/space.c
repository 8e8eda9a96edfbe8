/*
 * space.c - `kgen space SPACE.yaml`: a spec space expanded, validated and
 * (with --compile) compiled, the ground a tuner stands on (issue 9).
 *
 * A space is a spec whose values may be lists (`threads: [256, 512]`, flow
 * or block) or integer ranges (`1..32*2`: 1, 2, 4, ..., 32; `64..256+64`:
 * 64, 128, 192, 256; `1..4`: 1 to 4).  Every combination is one point: it
 * is loaded and validated as a spec of its own; the refused ones are
 * counted by reason, the accepted ones listed (--list), written as spec
 * files (--emit DIR) and compiled with NVRTC on N threads (--compile -j N).
 */
#include "config.h"
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <yaml.h>
#include "cli.h"
#include "space.h"
#include "gen/family.h"
#include "gen/parallel.h"
#include "gen/spec.h"
#include "gen/util.h"
#include "gen/yamlin.h"

#define MAX_KEYS 48
#define SPACE_DEPTH 2  /* the mapping and a list */
#define MAX_VALUES 256
#define MAX_POINTS 200000

struct axis {
	char *key;
	char *values[MAX_VALUES];
	int n;
};

struct space {
	struct axis axes[MAX_KEYS];
	int n;
};

static void
free_space(struct space *sp)
{
	int i, j;

	for (i = 0; i < sp->n; i++) {
		free(sp->axes[i].key);
		for (j = 0; j < sp->axes[i].n; j++)
			free(sp->axes[i].values[j]);
	}
}

static int
add_value(struct axis *a, const char *v)
{
	if (a->n == MAX_VALUES || !(a->values[a->n] = kgen_strdup(v)))
		return -1;
	a->n++;
	return 0;
}

/* Place err (already failed) at mark of the space's text. */
static void
place(kgen_error *err, const char *path, const char *text, size_t len, yaml_mark_t mark)
{
	kgen_error_at(err, path, text, len, (int)mark.line + 1, (int)mark.column + 1);
}

/* The bound on a range's ends and step: no key takes a larger number, and
 * within it no step of the walk below can overflow. */
#define RANGE_MAX (1LL << 40)

/* A decimal integer of at most RANGE_MAX in magnitude at *p, which moves
 * past it; 0 when there is none (or it is larger). */
static int
range_number(const char **p, long long *v)
{
	char *end;

	if (!(**p >= '0' && **p <= '9') && !(**p == '-' && (*p)[1] >= '0' && (*p)[1] <= '9'))
		return 0;
	errno = 0;
	*v = strtoll(*p, &end, 10);
	if (errno || *v > RANGE_MAX || *v < -RANGE_MAX)
		return 0;
	*p = end;
	return 1;
}

/* "A..B", "A..B*K" or "A..B+K" into the axis's values; 0 when v is no range. */
static int
add_range(struct axis *a, const char *v, kgen_error *err)
{
	long long from, to, step = 1, x;
	const char *p = v;
	char op = '+', buf[32];

	if (!range_number(&p, &from) || strncmp(p, "..", 2) != 0)
		return 0;
	p += 2;
	if (!range_number(&p, &to))
		return kgen_fail(err, KGEN_ESPEC, "%s: %s is not a range (A..B, A..B*K or A..B+K, each at most 2^40)",
		                 a->key, v), -1;
	if (*p && ((op = *p) != '*' && op != '+' ? 1 : (p++, !range_number(&p, &step) || *p)))
		return kgen_fail(err, KGEN_ESPEC, "%s: %s is not a range (A..B, A..B*K or A..B+K, each at most 2^40)",
		                 a->key, v), -1;
	if (from > to || step < (op == '*' ? 2 : 1) || (op == '*' && from < 1))
		return kgen_fail(err, KGEN_ESPEC, "%s: the range %s is empty or does not grow", a->key, v), -1;
	for (x = from; x <= to; x = op == '*' ? x * step : x + step) {
		snprintf(buf, sizeof buf, "%lld", x);
		if (add_value(a, buf))
			return kgen_fail(err, KGEN_ESPEC, "%s: more than %d values", a->key, MAX_VALUES), -1;
		if ((op == '*' && x > to / step) || (op == '+' && x > to - step))
			break;
	}
	return 1;
}

/* Read a space from text (len bytes, named path in errors): one mapping
 * of names to scalars or lists of scalars. */
static kgen_status
read_space(const char *text, size_t len, const char *path, struct space *sp, kgen_error *err)
{
	yaml_parser_t parser;
	yaml_event_t ev;
	kgen_status st;
	int depth = 0, done = 0, in_list = 0, r;
	struct axis *cur = NULL;
	char unknown[300] = "";  /* the first key no family has */
	yaml_mark_t unknown_at = { 0, 0, 0 };

	memset(sp, 0, sizeof *sp);
	if (len > KGEN_TEXT_MAX)
		return kgen_fail(err, KGEN_ESPEC, "%s: %zu bytes: a space is at most %zu MiB", path, len, KGEN_TEXT_MAX >> 20);
	/* Bounded first: nesting, one document, no tags, anchors or aliases. */
	if ((st = kgen_yaml_nesting(text, len, path, SPACE_DEPTH, "a space is a mapping of keys to values or lists", err)) ||
	    (st = kgen_yaml_plain(text, len, path, SPACE_DEPTH, "a space", err)))
		return st;
	if (!yaml_parser_initialize(&parser))
		return kgen_fail(err, KGEN_ENOMEM, "out of memory");
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	while (!done && !st) {
		if (!yaml_parser_parse(&parser, &ev)) {
			st = kgen_fail(err, KGEN_ESPEC, "YAML: %s", parser.problem ? parser.problem : "syntax error");
			place(err, path, text, len, parser.problem_mark);
			break;
		}
		switch (ev.type) {
		case YAML_STREAM_END_EVENT: done = 1; break;
		case YAML_MAPPING_START_EVENT:
			if (++depth > 1)
				st = kgen_fail(err, KGEN_ESPEC, "a space's values are scalars or lists of scalars");
			break;
		case YAML_MAPPING_END_EVENT: depth--; break;
		case YAML_SEQUENCE_START_EVENT:
			if (depth != 1 || !cur || in_list)
				st = kgen_fail(err, KGEN_ESPEC, "a list must be the value of a key");
			in_list = 1;
			break;
		case YAML_SEQUENCE_END_EVENT:
			if (cur && !cur->n)
				st = kgen_fail(err, KGEN_ESPEC, "%s: an empty list", cur->key);
			in_list = 0;
			cur = NULL;
			break;
		case YAML_SCALAR_EVENT: {
			const char *v = (const char *)ev.data.scalar.value;
			if (depth != 1) {
				st = kgen_fail(err, KGEN_ESPEC, "a space is a mapping of keys to values");
			} else if (!cur) {
				if (kgen_key_lookup(v) < 0 && !unknown[0]) {  /* no family's: said at the end, at its place */
					const char *near = kgen_key_nearest(v);
					snprintf(unknown, sizeof unknown, "unknown key '%.200s'%s%s%s", v, near ? " (did you mean '" : "",
					         near ? near : "", near ? "'?)" : "");
					unknown_at = ev.start_mark;
				}
				if (sp->n == MAX_KEYS || !(sp->axes[sp->n].key = kgen_strdup(v)))
					st = kgen_fail(err, KGEN_ESPEC, "more than %d keys", MAX_KEYS);
				else
					cur = &sp->axes[sp->n++];
			} else {
				if ((r = add_range(cur, v, err)) < 0)
					st = KGEN_ESPEC;
				else if (!r && add_value(cur, v))
					st = kgen_fail(err, KGEN_ESPEC, "%s: more than %d values", cur->key, MAX_VALUES);
				if (!in_list)
					cur = NULL;
			}
			break;
		}
		/* Aliases, tags and second documents: kgen_yaml_plain() refused them. */
		default: break;
		}
		if (st && err->line == 0 && ev.type != YAML_NO_EVENT && st != KGEN_ENOMEM)
			place(err, path, text, len, ev.start_mark);
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&parser);
	if (!st && unknown[0]) {  /* after the values' own errors (a range's), which the file's later lines may hold */
		st = kgen_fail(err, KGEN_ESPEC, "%s", unknown);
		place(err, path, text, len, unknown_at);
	}
	if (!st && !sp->n) {
		yaml_mark_t start = { 0, 0, 0 };
		st = kgen_fail(err, KGEN_ESPEC, "the space is empty");
		place(err, path, text, len, start);
	}
	return st;
}

/* Whether axis a of the point takes its key's default (a written default,
 * not a derived one). */
static int
at_default(const struct space *sp, const int *at, int a)
{
	long long kernel = 0;  /* the point's family: its kernel axis, else the default */
	char why[160];
	int i, k;

	for (i = 0; i < sp->n; i++)
		if (strcmp(sp->axes[i].key, "kernel") == 0 &&
		    kgen_spec_parse_value(KGEN_KEY_kernel, sp->axes[i].values[at[i]], &kernel, why, sizeof why) != KGEN_OK)
			return 0;
	if ((k = kgen_key_lookup_for(kernel, sp->axes[a].key)) < 0)
		return 0;
	return kgen_keys[k].def[0] && strcmp(kgen_keys[k].def, sp->axes[a].values[at[a]]) == 0;
}

/* Whether the spec holds the point's value of every key (those left out of
 * a lean point resolve to their written defaults, not to derived ones: op:
 * mean makes stages default to last_block, not atomic). */
static int
resolves_to(const struct space *sp, const int *at, const kgen_spec *spec)
{
	char buf[64];
	const char *v;
	int i;

	for (i = 0; i < sp->n; i++)
		if ((v = kgen_spec_get(spec, sp->axes[i].key, buf, sizeof buf)) && strcmp(v, sp->axes[i].values[at[i]]) != 0)
			return 0;
	return 1;
}

/* A space's value as one YAML scalar of a point's spec: plain when it is a
 * word (a number, a name), else double-quoted with every quote, backslash
 * and control character escaped, so that a value is only ever that key's
 * value (no newline adds a key, no '#' cuts it short). */
static void
yaml_value(strbuf *b, const char *v)
{
	const char *p;

	if (*v && strspn(v, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.+-") == strlen(v)) {
		sb_puts(b, v);
		return;
	}
	sb_puts(b, "\"");
	for (p = v; *p; p++) {
		unsigned char c = (unsigned char)*p;
		if (c == '"' || c == '\\')
			sb_printf(b, "\\%c", c);
		else if (c == '\n')
			sb_puts(b, "\\n");
		else if (c < 0x20 || c == 0x7f)
			sb_printf(b, "\\x%02x", c);
		else
			sb_printf(b, "%c", c);
	}
	sb_puts(b, "\"");
}

/* A value as a point's label shows it: control characters as '?'. */
static void
label_value(strbuf *b, const char *v)
{
	for (; *v; v++)
		sb_printf(b, "%c", (unsigned char)*v < 0x20 || *v == 0x7f ? '?' : *v);
}

/* One point's spec text: every key with the point's value, but with
 * `lean`, the keys of several values that take their defaults are left
 * out (the same spec, unless a key has no effect on this point, which a
 * spec must not say: `launch: stream` of a last_block point). */
static int
point_yaml(const struct space *sp, const int *at, int lean, strbuf *b)
{
	int i, left = 0;

	for (i = 0; i < sp->n; i++)
		if (lean && sp->axes[i].n > 1 && at_default(sp, at, i)) {
			left++;
		} else {
			sb_printf(b, "%s: ", sp->axes[i].key);
			yaml_value(b, sp->axes[i].values[at[i]]);
			sb_puts(b, "\n");
		}
	return left;
}

/* A refusal's reason with its numbers and quoted values taken out, so that
 * points refused for the same rule count together. */
static void
reason_of(const char *msg, char *out, size_t n)
{
	size_t used = 0;
	const char *p;
	int quote = 0;

	for (p = msg; *p && used + 2 < n; p++) {
		if (*p == '\'') {
			quote = !quote;
			if (quote)
				out[used++] = '_';
		} else if (!quote && (*p >= '0' && *p <= '9')) {
			if (!used || out[used - 1] != 'N')
				out[used++] = 'N';
		} else if (!quote) {
			out[used++] = *p;
		}
	}
	out[used] = '\0';
}

static void
count_refusal(struct kgen_points *pts, const char *message)
{
	char reason[256];
	int r;

	reason_of(message, reason, sizeof reason);
	for (r = 0; r < pts->nreasons && strcmp(pts->reasons[r].text, reason); r++)
		;
	if (r == pts->nreasons && pts->nreasons < KGEN_SPACE_REASONS) {
		snprintf(pts->reasons[r].text, sizeof pts->reasons[r].text, "%s", reason);
		snprintf(pts->reasons[r].example, sizeof pts->reasons[r].example, "%s", message);
		pts->nreasons++;
	}
	if (r < KGEN_SPACE_REASONS)
		pts->reasons[r].count++;
}

/* --set KEY=VALUE: the key's values become that one (a new key is added);
 * KEY= (--unset KEY) takes the key out. */
static kgen_status
apply_sets(struct space *sp, char **sets, int nsets, kgen_error *err)
{
	int i, a, j;

	for (i = 0; i < nsets; i++) {
		const char *eq = strchr(sets[i], '=');
		if (!eq || eq == sets[i])
			return kgen_fail(err, KGEN_EINVAL, "--set %s: expected KEY=VALUE", sets[i]);
		for (a = 0; a < sp->n && (strncmp(sp->axes[a].key, sets[i], (size_t)(eq - sets[i])) ||
		                           sp->axes[a].key[eq - sets[i]]); a++)
			;
		if (!eq[1]) {  /* KEY= (--unset KEY): the key leaves the space */
			if (a < sp->n) {
				struct axis gone = sp->axes[a];
				memmove(&sp->axes[a], &sp->axes[a + 1], (size_t)(sp->n - a - 1) * sizeof sp->axes[0]);
				sp->n--;
				free(gone.key);
				for (j = 0; j < gone.n; j++)
					free(gone.values[j]);
			}
			continue;
		}
		if (a == sp->n) {
			if (sp->n == MAX_KEYS || !(sp->axes[a].key = kgen_strdup(sets[i])))
				return kgen_fail(err, KGEN_ENOMEM, "out of memory");
			sp->axes[a].key[eq - sets[i]] = '\0';
			sp->n++;
		}
		for (j = 0; j < sp->axes[a].n; j++)
			free(sp->axes[a].values[j]);
		sp->axes[a].n = 0;
		if (add_value(&sp->axes[a], eq + 1))
			return kgen_fail(err, KGEN_ENOMEM, "out of memory");
	}
	return KGEN_OK;
}

kgen_status
kgen_space_expand(const char *path, char **sets, int nsets, struct kgen_points *pts, kgen_error *err)
{
	char *text;
	size_t len;
	kgen_status st;

	memset(pts, 0, sizeof *pts);
	if ((st = kgen_read_file(path, &text, &len, err)))
		return st;
	st = kgen_space_expand_text(text, len, path, sets, nsets, MAX_POINTS, pts, err);
	free(text);
	return st;
}

/* Point `at`'s spec, loaded as a check: its whole text, or when that is
 * refused the lean one (the varying keys at their defaults left out) where it
 * loads and resolves to the same point.  *text is the text kept (the caller
 * frees it; NULL when out of memory); KGEN_ESPEC leaves the first refusal in
 * *err. */
static kgen_status
load_point(const struct space *sp, const int *at, const char *name, char **text, kgen_error *err)
{
	strbuf b;
	kgen_spec *spec = NULL;
	char *ptext;
	kgen_status st;

	*text = NULL;
	sb_init(&b);
	point_yaml(sp, at, 0, &b);
	if (!(ptext = sb_take(&b)))
		return kgen_fail(err, KGEN_ENOMEM, "out of memory");
	st = kgen_spec_load_string(ptext, strlen(ptext), name, &spec, err);
	if (st == KGEN_ESPEC) {
		/* Refused: once more without the varying keys at their defaults. */
		kgen_error first = *err;
		sb_init(&b);
		if (point_yaml(sp, at, 1, &b)) {
			char *lean = sb_take(&b);
			if (!lean) {
				free(ptext);
				return kgen_fail(err, KGEN_ENOMEM, "out of memory");
			}
			if ((st = kgen_spec_load_string(lean, strlen(lean), name, &spec, err)) == KGEN_OK &&
			    !resolves_to(sp, at, spec)) {
				kgen_spec_free(spec);  /* a derived default differs: another point's spec */
				spec = NULL;
				st = KGEN_ESPEC;
			}
			if (st == KGEN_OK) {
				free(ptext);
				ptext = lean;
			} else {
				free(lean);
				if (st == KGEN_ESPEC)
					*err = first;  /* counted by the first reason */
			}
		} else {
			sb_free(&b);
		}
	}
	if (st == KGEN_OK)
		kgen_spec_free(spec);
	*text = ptext;
	return st;
}

/* Keep point `at` in pts: its spec text (taken, freed on failure) and its
 * label, KEY=VALUE for each key that varies. */
static kgen_status
add_point(struct kgen_points *pts, const struct space *sp, const int *at, char *ptext, kgen_error *err)
{
	struct kgen_point *v = realloc(pts->v, (size_t)(pts->n + 1) * sizeof *v);
	strbuf label;
	int i;

	if (!v) {
		free(ptext);
		return kgen_fail(err, KGEN_ENOMEM, "out of memory");
	}
	pts->v = v;
	sb_init(&label);
	for (i = 0; i < sp->n; i++)
		if (sp->axes[i].n > 1) {
			sb_printf(&label, "%s%s=", label.len ? " " : "", sp->axes[i].key);
			label_value(&label, sp->axes[i].values[at[i]]);
		}
	v[pts->n].yaml = ptext;
	v[pts->n].label = label.len ? sb_take(&label) : kgen_strdup("(the one point)");
	sb_free(&label);
	if (!v[pts->n].label) {
		free(ptext);
		return kgen_fail(err, KGEN_ENOMEM, "out of memory");
	}
	pts->n++;
	return KGEN_OK;
}

kgen_status
kgen_space_expand_text(const char *text, size_t len, const char *path, char **sets, int nsets, long long max_points,
                       struct kgen_points *pts, kgen_error *err)
{
	struct space sp;
	kgen_status st;
	long long points = 1, p;
	int at[MAX_KEYS], i;

	memset(pts, 0, sizeof *pts);
	if ((st = read_space(text, len, path, &sp, err))) {
		free_space(&sp);
		return st;
	}
	if ((st = apply_sets(&sp, sets, nsets, err)))
		goto out;
	for (i = 0; i < sp.n; i++)
		if ((points *= sp.axes[i].n) > max_points) {
			st = kgen_fail(err, KGEN_EINVAL, "%s has more than %lld points: narrow it", path, max_points);
			goto out;
		}
	pts->total = points;
	memset(at, 0, sizeof at);
	for (p = 0; p < points; p++) {
		char name[64], *ptext;

		snprintf(name, sizeof name, "point %lld", p + 1);
		st = load_point(&sp, at, name, &ptext, err);
		if (st == KGEN_OK) {
			st = add_point(pts, &sp, at, ptext, err);
		} else if (st == KGEN_ESPEC) {
			count_refusal(pts, err->message);
			free(ptext);
			st = KGEN_OK;
		} else {
			free(ptext);
		}
		if (st)
			goto out;
		for (i = sp.n - 1; i >= 0 && ++at[i] == sp.axes[i].n; i--)  /* the next point, last key fastest */
			at[i] = 0;
	}
out:
	free_space(&sp);
	if (st)
		kgen_points_free(pts);
	return st;
}

void
kgen_space_print_counts(const char *path, const struct kgen_points *pts, FILE *fp)
{
	int i;

	fprintf(fp, "%s: %lld point%s, %d accepted, %lld refused\n", path, pts->total, pts->total == 1 ? "" : "s",
	        pts->n, pts->total - pts->n);
	for (i = 0; i < pts->nreasons; i++)
		fprintf(fp, "  %6d refused: %s\n", pts->reasons[i].count, pts->reasons[i].example);
}

void
kgen_points_free(struct kgen_points *pts)
{
	int i;

	for (i = 0; i < pts->n; i++) {
		free(pts->v[i].yaml);
		free(pts->v[i].label);
	}
	free(pts->v);
	memset(pts, 0, sizeof *pts);
}

/* Compiling the accepted points on several threads. */
struct job {
	char **sources;
	char **names;
	char (*archs)[24];  /* each point's: --arch, or sm_90a for one that needs it (math: wgmma) */
	int n, failed;
	const char *arch;
	pthread_mutex_t lock;  /* failed, and stderr's reports */
};

static void
compile_point(void *arg, int i)
{
	struct job *j = arg;
	void *image = NULL;
	char *log = NULL;
	size_t size;
	kgen_error err;

	if (kgen_compile(j->sources[i], "point.cu", j->archs[i], KGEN_IMAGE_CUBIN, &image, &size, &log, &err) != KGEN_OK) {
		pthread_mutex_lock(&j->lock);
		j->failed++;
		fprintf(stderr, "%s: %s\n%s", j->names[i], err.message, log ? log : "");
		pthread_mutex_unlock(&j->lock);
	}
	free(image);
	free(log);
}

static void
usage(FILE *fp)
{
	fputs("usage: kgen space SPACE.yaml [--list] [--emit DIR] [--compile] [--arch sm_90] [-j N]\n"
	      "                  [--set KEY=VALUE]... [--unset KEY]...\n"
	      "Expand a spec space (values may be lists, [256, 512], or ranges, 1..32*2,\n"
	      "64..256+64, 1..4), validate every point as a spec, count the refused ones\n"
	      "by reason, and: --list print the accepted points; --emit DIR write each as\n"
	      "DIR/NNNNN.yaml (for kgen run); --compile compile them with NVRTC for ARCH on\n"
	      "N threads (default: 2); a point using what ARCH (default sm_90) lacks is\n"
	      "refused.  --set KEY=VALUE fixes a key at one value (KEY= or\n"
	      "--unset KEY takes it out).  Exit 0 when some point is accepted and every\n"
	      "accepted point compiles; 1 when no point is a valid spec.\n", fp);
}

/* kgen space's options. */
struct space_opts {
	char *sets[64];
	int nsets;
	const char *emit, *arch;
	char *space;  /* the space's file, which --emit may not overwrite */
	int list, compile, jobs;
};

/* Parse kgen space's command line into o: -1 to go on, else the exit status. */
static int
parse_space_options(int argc, char **argv, struct space_opts *o)
{
	static const struct option longopts[] = {
		{ "list", no_argument, NULL, 'l' }, { "emit", required_argument, NULL, 'e' },
		{ "compile", no_argument, NULL, 'c' }, { "arch", required_argument, NULL, 'a' },
		{ "jobs", required_argument, NULL, 'j' }, { "set", required_argument, NULL, 's' },
		{ "unset", required_argument, NULL, 'u' }, { "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 },
	};
	int c;

	*o = (struct space_opts){ .arch = "sm_90", .jobs = 2 };
	optind = 1;
	while ((c = getopt_long(argc, argv, "j:s:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'l': o->list = 1; break;
		case 'e': o->emit = optarg; break;
		case 'c': o->compile = 1; break;
		case 'a':
			if (kgen_arch_number(optarg) < 0)
				return kgen_cli_usage_error("space", KGEN_ARCH_UNKNOWN, optarg);
			o->arch = optarg;
			break;
		case 'j': {
			long long v;
			if (kgen_cli_integer("space", "-j", optarg, 1, 64, &v))
				return 2;
			o->jobs = (int)v;
			break;
		}
		case 's':
		case 'u':
			if (kgen_cli_add_set("space", c == 'u', optarg, optind < argc ? argv[optind] : NULL, o->sets, &o->nsets,
			                     (int)KGEN_COUNT(o->sets)))
				return 2;
			break;
		case 'h': usage(stdout); return 0;
		default: return kgen_cli_usage_error("space", NULL);  /* getopt has said what */
		}
	}
	if (optind == argc)
		return kgen_cli_usage_error("space", "no space given");
	if (optind != argc - 1)
		return kgen_cli_usage_error("space", "expected one space, got %d", argc - optind);
	return -1;
}

/* Point i: listed (--list), written as emit/NNNNN.yaml (--emit), generated
 * into job's sources (--compile). */
static kgen_status
visit_point(const struct space_opts *o, const struct kgen_points *pts, int i, struct job *job, kgen_error *err)
{
	kgen_status st;

	if (o->list)
		printf("%6d  %s\n", i + 1, pts->v[i].label);
	if (o->emit) {
		char path[4096];
		snprintf(path, sizeof path, "%s/%05d.yaml", o->emit, i + 1);
		if ((st = kgen_cli_not_an_input("--emit", path, &o->space, 1, "the space", err)) ||
		    (st = kgen_write_file(path, pts->v[i].yaml, strlen(pts->v[i].yaml), err)))
			return st;
	}
	if (o->compile) {
		kgen_spec *spec = NULL;
		char name[64], specific[24];
		snprintf(name, sizeof name, "point %d", i + 1);
		if ((st = kgen_spec_load_string(pts->v[i].yaml, strlen(pts->v[i].yaml), name, &spec, err)) ||
		    (st = kgen_generate(spec, &job->sources[job->n], err))) {
			kgen_spec_free(spec);
			return st;
		}
		snprintf(job->archs[job->n], sizeof job->archs[0], "%s",
		         kgen_spec_compile_arch(spec, o->arch, specific, sizeof specific));
		kgen_spec_free(spec);
		job->names[job->n++] = kgen_strdup(name);
	}
	return KGEN_OK;
}

/* --compile: the points' sources through NVRTC on o->jobs threads, timed;
 * 4 when one fails, else 0. */
static int
compile_points(const struct space_opts *o, struct job *job)
{
	time_t t0 = time(NULL);
	int threads = kgen_parallel_for(job->n, o->jobs, compile_point, job);

	printf("compiled %d of %d for %s on %d thread(s) in %lld s\n", job->n - job->failed, job->n, o->arch, threads,
	       (long long)(time(NULL) - t0));
	return job->failed ? 4 : 0;
}

static void
free_job(struct job *job)
{
	int i;

	for (i = 0; job->sources && i < job->n; i++) {
		free(job->sources[i]);
		free(job->names[i]);
	}
	free(job->sources);
	free(job->names);
	free(job->archs);
	pthread_mutex_destroy(&job->lock);
}

/* Refuse the accepted points whose features arch lacks (kgen_spec_check_arch:
 * method: tma on sm_80, wgmma on sm_90 without a), counted by reason as the
 * spec checks' refusals are. */
static kgen_status
refuse_for_arch(struct kgen_points *pts, const char *arch, kgen_error *err)
{
	kgen_spec *spec;
	kgen_error why;
	kgen_status st;
	int i, kept = 0;

	for (i = 0; i < pts->n; i++) {
		if ((st = kgen_spec_load_string(pts->v[i].yaml, strlen(pts->v[i].yaml), "point", &spec, err))) {
			/* the points not yet seen after the kept ones, each once, for kgen_points_free() */
			memmove(&pts->v[kept], &pts->v[i], (size_t)(pts->n - i) * sizeof *pts->v);
			pts->n = kept + (pts->n - i);
			return st;
		}
		st = kgen_spec_check_arch(spec, arch, &why);
		kgen_spec_free(spec);
		if (st == KGEN_OK) {
			pts->v[kept++] = pts->v[i];
			continue;
		}
		count_refusal(pts, why.message);
		free(pts->v[i].yaml);
		free(pts->v[i].label);
	}
	pts->n = kept;
	return KGEN_OK;
}

/* kgen space: parse, expand, visit each point, report the counts, compile. */
int
kgen_cmd_space(int argc, char **argv)
{
	struct space_opts o;
	struct kgen_points pts;
	struct job job;
	kgen_error err;
	int i, rc;

	if ((rc = parse_space_options(argc, argv, &o)) >= 0)
		return rc;
	rc = 0;
	o.space = argv[optind];
	if (kgen_space_expand(argv[optind], o.sets, o.nsets, &pts, &err))
		return kgen_report(&err);
	if (refuse_for_arch(&pts, o.arch, &err)) {
		kgen_points_free(&pts);
		return kgen_report(&err);
	}
	if (o.emit && mkdir(o.emit, 0777) != 0 && errno != EEXIST) {
		fprintf(stderr, "kgen space: cannot create %s: %s\n", o.emit, strerror(errno));
		kgen_points_free(&pts);
		return 3;
	}
	memset(&job, 0, sizeof job);
	job.arch = o.arch;
	pthread_mutex_init(&job.lock, NULL);
	if (o.compile && (!(job.sources = calloc((size_t)pts.n + 1, sizeof *job.sources)) ||
	                  !(job.names = calloc((size_t)pts.n + 1, sizeof *job.names)) ||
	                  !(job.archs = calloc((size_t)pts.n + 1, sizeof *job.archs)))) {
		rc = kgen_report((kgen_fail(&err, KGEN_ENOMEM, "out of memory"), &err));
		goto out;
	}
	for (i = 0; i < pts.n; i++)
		if (visit_point(&o, &pts, i, &job, &err)) {
			rc = kgen_report(&err);
			goto out;
		}
	kgen_space_print_counts(argv[optind], &pts, stdout);
	if (pts.n == 0) {
		fprintf(stderr, "kgen space: no point of %s is a valid spec (the reasons are above)\n", argv[optind]);
		rc = 1;
		goto out;
	}
	if (o.compile && job.n)
		rc = compile_points(&o, &job);
out:
	free_job(&job);
	kgen_points_free(&pts);
	return rc;
}
