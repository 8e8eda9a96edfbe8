/*
 * sample_test.c - the whole spec language, not only the specs in specs/:
 * for every family, a fixed-seed random sample of the specs the validator
 * accepts (random keys of the family, random values from each key's table
 * or range), each generated and compiled with NVRTC for sm_90 without a
 * warning, and then every value of every enum key of the family, and the
 * ends of every integer key's range, in at least one accepted spec where
 * the key applies (a value no spec can use is a bug in the language).
 *
 *   tests/sample_test               the test (make check; no GPU needed)
 *   tests/sample_test --emit DIR N  write N accepted specs per family to DIR
 *                                   as YAML, for tests/gpu_verify.sh to run
 *
 * Every name a generated file declares at file scope (types, constants,
 * helpers, template parameters) must be one that `name:` refuses, so that
 * no spec's kernel can collide with kgen's own code.
 *
 * KGEN_SAMPLES (default 20; `make check-full` sets 256) is the number of
 * random accepted specs per family; KGEN_SAMPLE_PTXAS=full builds every
 * one at ptxas's full optimisation (see fast_ptxas).  Past the random
 * sample, the values it missed are covered by a few specs chosen from 256
 * draws and from searches for each value (sample()), so that the small
 * sample of `make check` covers every value the large one does.  The specs
 * are drawn, generated and checked in order (the sample is the same on
 * every machine), then compiled by one worker process per core (KGEN_JOBS
 * overrides), with a progress line; a source that an earlier spec
 * generated too is compiled once.
 */
#include "config.h"
#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "gen/family.h"
#include "runtime/runtime.h"

static unsigned long long rng = 20261122;

static unsigned long long
next(void)
{
	unsigned long long z = (rng += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* The values a sample draws for key k, as YAML text: every enum value; for
 * integers the ends of the range, the powers of two in it and a few others. */
static int
candidates(enum kgen_key k, char out[][24], int max)
{
	static const long long others[] = { 3, 6, 12, 24, 48, 96, 100 };
	const struct kgen_key_info *key = &kgen_keys[k];
	const struct kgen_enum *e;
	long long v;
	int n = 0;
	size_t i;

	if (key->type == KT_ENUM) {
		for (e = key->values; e->name && n < max; e++)
			snprintf(out[n++], sizeof out[0], "%s", e->name);
		return n;
	}
	if (key->type == KT_SET) {  /* none, each name alone, and a few sets of several */
		static const char *const several[] = { "sum, max", "max, absmax, sumsq", "sum, sumsq, max, min",
		                                       "max, logsumexp, sum" };
		for (e = key->values; e->name && n < max; e++)
			snprintf(out[n++], sizeof out[0], "%s", e->name);
		for (i = 0; i < KGEN_COUNT(several) && n < max; i++)
			snprintf(out[n++], sizeof out[0], "'%s'", several[i]);
		return n;
	}
	if (key->type == KT_NAME) {
		snprintf(out[n++], sizeof out[0], "sampled_kernel");
		return n;
	}
	if (key->type == KT_EXPR) {
		/* Expressions every element and accumulator type takes. */
		static const char *const map[] = { "x", "x * x", "(Acc)x + (Acc)i", "x != 0", "(Acc)fabs((double)x)" };
		static const char *const combine[] = { "a + b", "'a < b ? b : a'", "max(a, b)", "a * b" };
		static const char *const identity[] = { "0", "1", "(Acc)0" };
		static const char *const post[] = { "a", "(Out)a", "a / (n + 1)", "'n > 0 ? a : a'" };
		/* matmul's, with and without its operands (a spec refuses one that
		 * reads an operand it does not declare, or leaves one unread). */
		static const char *const epilogue[] = { "v", "gelu(v)", "v + bias", "silu(v + bias) + residual",
		                                        "gelu_tanh(v) * residual", "'v > 0 ? v : 0.1f * v'",
		                                        "sigmoid(acc + bias) + c" };
		static const char *const aux[] = { "v", "v + bias", "acc * 2 - residual" };
		const char *const *list = k == KGEN_KEY_map ? map : k == KGEN_KEY_combine ? combine :
		                          k == KGEN_KEY_identity ? identity : k == KGEN_KEY_epilogue ? epilogue :
		                          k == KGEN_KEY_aux ? aux : post;
		size_t count = k == KGEN_KEY_map ? KGEN_COUNT(map) : k == KGEN_KEY_combine ? KGEN_COUNT(combine) :
		               k == KGEN_KEY_identity ? KGEN_COUNT(identity) : k == KGEN_KEY_epilogue ? KGEN_COUNT(epilogue) :
		               k == KGEN_KEY_aux ? KGEN_COUNT(aux) : KGEN_COUNT(post);
		for (i = 0; i < count && n < max; i++)
			snprintf(out[n++], sizeof out[0], "%s", list[i]);
		return n;
	}
	snprintf(out[n++], sizeof out[0], "%lld", key->min);
	snprintf(out[n++], sizeof out[0], "%lld", key->max);
	for (v = 1; v <= key->max && n < max; v *= 2)
		if (v > key->min && v < key->max)
			snprintf(out[n++], sizeof out[0], "%lld", v);
	for (i = 0; i < KGEN_COUNT(others) && n < max; i++)
		if (others[i] > key->min && others[i] < key->max && (others[i] & (others[i] - 1)))
			snprintf(out[n++], sizeof out[0], "%lld", others[i]);
	return n;
}

/* Which (key, value) pairs an accepted spec has used where the key applies. */
struct coverage {
	char seen[KGEN_KEY_COUNT][64];
	char values[KGEN_KEY_COUNT][64][24];
	int nvalues[KGEN_KEY_COUNT];
};

static void
cover(struct coverage *c, const kgen_spec *s)
{
	char buf[96];
	int k, i;

	for (k = 0; k < KGEN_KEY_COUNT; k++) {
		if (!kgen_key_applies(s, (enum kgen_key)k))
			continue;
		kgen_spec_format_value(s, (enum kgen_key)k, buf, sizeof buf);
		for (i = 0; i < c->nvalues[k]; i++)
			if (strcmp(c->values[k][i], buf) == 0)
				c->seen[k][i] = 1;
	}
}

/* A random spec of family f as YAML: `kernel:` and up to six of its keys. */
static void
draw(const struct kgen_family *f, char *yaml, size_t len)
{
	char vals[64][24];
	const enum kgen_key *p;
	int nkeys = 0, pick, i, n, used[KGEN_KEY_COUNT] = { 0 };
	size_t at;

	for (p = f->keys; *p != KGEN_KEY_COUNT; p++)
		nkeys++;
	at = (size_t)snprintf(yaml, len, "kernel: %s\n", f->name);
	pick = (int)(next() % 7);
	for (i = 0; i < pick; i++) {
		enum kgen_key k = f->keys[next() % (unsigned long long)nkeys];
		if (used[k] || k == KGEN_KEY_kernel)
			continue;
		used[k] = 1;
		n = candidates(k, vals, 64);
		at += (size_t)snprintf(yaml + at, len - at, "%s: %s\n", kgen_keys[k].name, vals[next() % (unsigned)n]);
	}
}

/* A spec as (key, value) pairs, in the order written. */
struct pairs {
	int n;
	enum kgen_key key[KGEN_KEY_COUNT];
	char value[KGEN_KEY_COUNT][24];
};

static void
to_yaml(const struct kgen_family *f, const struct pairs *p, char *yaml, size_t len)
{
	size_t at = (size_t)snprintf(yaml, len, "kernel: %s\n", f->name);
	int i;

	for (i = 0; i < p->n; i++)
		at += (size_t)snprintf(yaml + at, len - at, "%s: %s\n", kgen_keys[p->key[i]].name, p->value[i]);
}

/* Set key k in p to a random candidate (adding it when absent). */
static void
redraw(struct pairs *p, enum kgen_key k)
{
	char vals[64][24];
	int i, n = candidates(k, vals, 64);

	for (i = 0; i < p->n && p->key[i] != k; i++)
		;
	if (i == p->n) {
		p->key[p->n++] = k;
	}
	snprintf(p->value[i], sizeof p->value[i], "%s", vals[next() % (unsigned)n]);
}

/* Follow the error's advice: the messages name what would work ("use
 * axis: cols", "needs method: tma", "needs stages 2 to 4"); set one such
 * KEY: VALUE (or KEY to the range's low end) of the family,
 * other than key k, three times in four.  1 when p changed. */
/* Key `name` of family f (kgen_key_lookup_for), or -1. */
static int
lookup(const struct kgen_family *f, const char *name)
{
	long long id;
	char why[128];

	if (kgen_spec_parse_value(KGEN_KEY_kernel, f->name, &id, why, sizeof why) != KGEN_OK)
		return -1;
	return kgen_key_lookup_for(id, name);
}

static int
follow(const struct kgen_family *f, enum kgen_key k, const char *msg, struct pairs *p)
{
	char keys[16][48], vals[16][24], why[128];
	const char *c;
	long long parsed;
	int n = 0, i, kk;

	for (c = msg; *c && n < 16; c++) {
		long long lo, hi;
		/* "KEY: VALUE", or a range "KEY LO to HI" (then LO) */
		int got = (c == msg || c[-1] == ' ') &&
		          (sscanf(c, "%47[a-z_0-9]: %23[A-Za-z0-9_]", keys[n], vals[n]) == 2 ||
		           (sscanf(c, "%47[a-z_0-9] %lld to %lld", keys[n], &lo, &hi) == 3 &&
		            snprintf(vals[n], sizeof vals[n], "%lld", lo) > 0));
		if (got &&
		    (kk = lookup(f, keys[n])) >= 0 && kk != (int)k && kk != KGEN_KEY_kernel &&
		    kgen_family_has_key(f, (enum kgen_key)kk) &&
		    kgen_spec_parse_value((enum kgen_key)kk, vals[n], &parsed, why, sizeof why) == KGEN_OK)
			n++;
	}
	if (!n || next() % 4 == 0)
		return 0;
	i = (int)(next() % (unsigned)n);
	kk = lookup(f, keys[i]);
	for (n = 0; n < p->n && p->key[n] != (enum kgen_key)kk; n++)
		;
	if (n == p->n)
		p->key[p->n++] = (enum kgen_key)kk;
	snprintf(p->value[n], sizeof p->value[n], "%s", vals[i]);
	return 1;
}

/* Is msg an only-with refusal of key k ("KEY needs OTHER: VALUE ..."),
 * which no value of k itself can mend? */
static int
only_with(enum kgen_key k, const char *msg)
{
	size_t len = strlen(kgen_keys[k].name);

	return strncmp(msg, kgen_keys[k].name, len) == 0 && strncmp(msg + len, " needs ", 7) == 0;
}

/* A spec of family f that holds key k = value v (seed's first pair), found
 * by repair: start from the seed, and while the validator refuses, redraw
 * the key it blames (the key on the error's line, or the key its message
 * starts with), or a random key of the family when it blames k itself.
 * NULL if none is found in 100 steps (a search that long has wandered off:
 * a new one from the seed finds more, in less time, than longer ones). */
static kgen_spec *
repair(const struct kgen_family *f, const struct pairs *seed, char *yaml, size_t len)
{
	struct pairs p = *seed;
	enum kgen_key k = seed->key[0];
	kgen_error err;
	kgen_spec *s = NULL;
	int nkeys = 0, step, i;
	const enum kgen_key *q;

	for (q = f->keys; *q != KGEN_KEY_COUNT; q++)
		nkeys++;
	for (step = 0; step < 100; step++) {
		enum kgen_key blame = KGEN_KEY_COUNT;
		char word[64];
		to_yaml(f, &p, yaml, len);
		if (kgen_spec_load_string(yaml, strlen(yaml), "sample.yaml", &s, &err) == KGEN_OK)
			return s;
		if (follow(f, k, err.message, &p))
			continue;
		if (err.line >= 2 && err.line - 2 < p.n)
			blame = p.key[err.line - 2];
		else if (sscanf(err.message, "%63[a-z_0-9]", word) == 1 && lookup(f, word) >= 0)
			blame = (enum kgen_key)lookup(f, word);
		if (blame == k || blame == KGEN_KEY_kernel || blame == KGEN_KEY_COUNT || !kgen_family_has_key(f, blame) ||
		    next() % 4 == 0)
			blame = f->keys[next() % (unsigned long long)nkeys];
		if (blame == k || blame == KGEN_KEY_kernel)
			continue;
		for (i = 0; i < p.n && p.key[i] != blame; i++)
			;
		if (i < p.n && (strstr(err.message, "drop it") || only_with(blame, err.message))) {
			/* A key that has no effect here, or does not apply: take it out. */
			memmove(&p.key[i], &p.key[i + 1], (size_t)(p.n - i - 1) * sizeof p.key[0]);
			memmove(p.value[i], p.value[i + 1], (size_t)(p.n - i - 1) * sizeof p.value[0]);
			p.n--;
			continue;
		}
		redraw(&p, blame);
	}
	return NULL;
}

/* The file-scope declarations of generated code: sub-match `group` of each
 * pattern is the declared name. */
static const struct {
	const char *re;
	int group;
} declaration[] = {
	{ "^static __device__[^(=;]*[ *&]([A-Za-z_][A-Za-z0-9_]*)[(]", 1 },
	{ "^struct (__align__[(][0-9]+[)] |alignas[(][0-9]+[)] )?([A-Za-z_][A-Za-z0-9_]*)", 2 },
	{ "^typedef [^;]*[ *]([A-Za-z_][A-Za-z0-9_]*);", 1 },
	{ "^constexpr [^=]* ([A-Za-z_][A-Za-z0-9_]*) =", 1 },
	{ "^template <(int|typename|class|bool) ([A-Za-z_][A-Za-z0-9_]*)>", 2 },
};

/* Does `name: NAME` fail to load in family's specs, as a name taken? */
static int
refused(const char *family, const char *name)
{
	char yaml[256];
	kgen_spec *s = NULL;
	kgen_error err;

	snprintf(yaml, sizeof yaml, "kernel: %s\nname: %s\n", family, name);
	if (kgen_spec_load_string(yaml, strlen(yaml), "name.yaml", &s, &err) == KGEN_OK) {
		kgen_spec_free(s);
		return 0;
	}
	return strstr(err.message, "expected a C identifier of your own") != NULL;
}

/* Each name src declares at file scope, checked once: 1 for each that a
 * spec could take as its name. */
static int
names_taken(const char *family, const char *src, const char *yaml)
{
	static char seen[512][64];
	static int nseen;
	static regex_t re[KGEN_COUNT(declaration)];
	static int ready;
	regmatch_t m[4];
	const char *p;
	char name[64];
	size_t i, len;
	int bad = 0, j;

	if (!ready) {
		for (i = 0; i < KGEN_COUNT(declaration); i++)
			if (regcomp(&re[i], declaration[i].re, REG_EXTENDED | REG_NEWLINE)) {
				fprintf(stderr, "FAIL: regcomp %s\n", declaration[i].re);
				exit(99);
			}
		ready = 1;
	}
	for (i = 0; i < KGEN_COUNT(declaration); i++)
		for (p = src; regexec(&re[i], p, 4, m, p == src ? 0 : REG_NOTBOL) == 0; p += m[0].rm_eo) {
			len = (size_t)(m[declaration[i].group].rm_eo - m[declaration[i].group].rm_so);
			if (len >= sizeof name)
				continue;
			memcpy(name, p + m[declaration[i].group].rm_so, len);
			name[len] = '\0';
			for (j = 0; j < nseen && strcmp(seen[j], name); j++)
				;
			if (j < nseen)
				continue;
			if (nseen < 512)
				snprintf(seen[nseen++], sizeof seen[0], "%s", name);
			if (!refused(family, name)) {
				fprintf(stderr, "FAIL: generated code declares %s, which `name:` accepts\n---\n%s---\n", name, yaml);
				bad = 1;
			}
		}
	return bad;
}

/* The accepted specs to compile: generated source and the spec's YAML. */
struct job {
	char *src;
	char *yaml;
	char arch[24];  /* sm_90, or sm_90a for a spec whose kernels need it (math: wgmma) */
	unsigned long long hash;
};
static struct job *jobs;
static int njobs, capjobs, nsame;

/* FNV-1a of a generated source: two specs that generate the same text (a
 * value the generator does not use, a key set to its default) are compiled
 * once. */
static unsigned long long
source_hash(const char *src)
{
	unsigned long long h = 0xcbf29ce484222325ull;

	while (*src)
		h = (h ^ (unsigned char)*src++) * 0x100000001b3ull;
	return h;
}

/* The runtime compiles a spec's kernels apart (kgen_step_source): each
 * kernel's source must hold that kernel alone, and all of the file but the
 * other kernels; 1 when it does not. */
static int
steps_apart(const kgen_spec *s, const char *src, const char *yaml)
{
	struct kgen_contract p;
	kgen_error err;
	char *one, name[128], *at;
	size_t kept = 0, whole = strlen(src);
	int i, bad = 0;

	kgen_family_of(s)->contract(s, &p);
	for (i = 0; i < p.nsteps && !bad; i++) {
		if (kgen_step_source(s, &p, src, i, &one, &err) != KGEN_OK) {
			fprintf(stderr, "FAIL: kernel %d apart: %s\n---\n%s---\n", i, err.message, yaml);
			return 1;
		}
		snprintf(name, sizeof name, "%s%s(", kgen_spec_kernel_name(s), p.step[i].suffix);
		at = strstr(one, "extern \"C\" __global__");
		if (!at || strstr(at + 1, "extern \"C\" __global__") || !(at = strstr(at, name)) ||
		    (at[-1] != ' ' && at[-1] != '\n') || strncmp(one, src, 200) != 0) {
			fprintf(stderr, "FAIL: kernel %d apart is not that kernel alone:\n%s\n---\n%s---\n", i, one, yaml);
			bad = 1;
		}
		kept += strlen(one);
		free(one);
	}
	/* Each part is the shared text and its kernel: together they hold
	 * the whole file's kernels once and its shared text nsteps times. */
	if (!bad && p.nsteps > 1 && kept <= whole) {
		fprintf(stderr, "FAIL: %d kernels apart hold %zu bytes, the file %zu\n---\n%s---\n", p.nsteps, kept, whole,
		        yaml);
		bad = 1;
	}
	return bad;
}

/* Generate one accepted spec, check the names it declares, and queue its
 * source for compile_all(); the failures found so far. */
static int
queue(const kgen_spec *s, const char *yaml)
{
	kgen_error err;
	char *src = NULL, arch[24], target[24];
	unsigned long long hash;
	int bad, i;

	if (kgen_generate(s, &src, &err) != KGEN_OK) {
		fprintf(stderr, "FAIL: generate: %s\n---\n%s---\n", err.message, yaml);
		return 1;
	}
	bad = names_taken(kgen_family_of(s)->name, src, yaml);
	bad += steps_apart(s, src, yaml);
	snprintf(target, sizeof target, "%s", kgen_spec_compile_arch(s, "sm_90", arch, sizeof arch));
	hash = source_hash(src);
	for (i = 0; i < njobs; i++)
		if (jobs[i].hash == hash && strcmp(jobs[i].arch, target) == 0 && strcmp(jobs[i].src, src) == 0) {
			nsame++;
			free(src);
			return bad;
		}
	if (njobs == capjobs) {
		capjobs = capjobs ? 2 * capjobs : 256;
		if (!(jobs = realloc(jobs, (size_t)capjobs * sizeof *jobs))) {
			perror("sample_test");
			exit(99);
		}
	}
	jobs[njobs].src = src;
	jobs[njobs].hash = hash;
	snprintf(jobs[njobs].arch, sizeof jobs[njobs].arch, "%s", target);
	if (!(jobs[njobs++].yaml = strdup(yaml))) {
		perror("sample_test");
		exit(99);
	}
	return bad;
}

/* Write a whole message to stderr in one write(2), so that the workers'
 * reports do not interleave. */
static void
report(const char *what, const char *detail, const char *yaml)
{
	size_t len = strlen(what) + strlen(detail) + strlen(yaml) + 32;
	char *msg = malloc(len);

	if (!msg)
		return;
	snprintf(msg, len, "FAIL: %s%s\n---\n%s---\n", what, detail, yaml);
	if (write(2, msg, strlen(msg)) < 0)
		perror("sample_test: write");
	free(msg);
}

/* ptxas's fast compile, for the specs whose check needs no optimiser:
 * every spec but the sm_90a (wgmma) ones.  What the sample asks, whether
 * NVRTC takes the source without a word, the front end and ptxas's parse
 * answer alike at any level (the syntax, types, instructions and resources),
 * and -Ofc=max spends an eighth of the time on the blocktiled matmuls.  An
 * sm_90a kernel's check is the optimiser's: only at full optimisation does
 * ptxas say rightly whether it serializes the wgmma (at every -Ofc level
 * it says so of every wgmma kernel).  KGEN_SAMPLE_PTXAS=full (make
 * check-full) builds every spec fully; an NVRTC without -Ofc does. */
static const char *const fast_ptxas[] = { "-Ofc=max" };
static int use_fast_ptxas;

/* Whether this NVRTC takes -Ofc=max (12.8 and later), tried on a kernel. */
static int
probe_fast_ptxas(void)
{
	const char *env = getenv("KGEN_SAMPLE_PTXAS");
	void *image = NULL;
	char *log = NULL;
	size_t size = 0;
	kgen_error err;
	int ok;

	if (env && strcmp(env, "full") == 0)
		return 0;
	/* Taken, and silently: a word in the log would fail every spec. */
	ok = kgen_compile_with("__global__ void probe(int *p) { *p = 1; }", "probe.cu", "sm_90", fast_ptxas, 1,
	                       KGEN_IMAGE_CUBIN, &image, &size, &log, NULL, NULL, &err) == KGEN_OK && (!log || !log[0]);
	free(image);
	free(log);
	return ok;
}

/* Compile one queued source with NVRTC for sm_90 (sm_90a where the spec
 * needs it); 0 when NVRTC took it silently. */
static int
compile(const struct job *j)
{
	int fast = use_fast_ptxas && j->arch[strlen(j->arch) - 1] != 'a';
	kgen_error err;
	char *log = NULL, what[sizeof err.message + 16];
	void *image = NULL;
	size_t size = 0;
	int bad = 0;

	if (kgen_compile_with(j->src, "sample.cu", j->arch, fast_ptxas, fast, KGEN_IMAGE_CUBIN, &image, &size, &log, NULL,
	                      NULL, &err) != KGEN_OK) {
		snprintf(what, sizeof what, "NVRTC: %s\n", err.message);
		report(what, log ? log : "", j->yaml);
		bad = 1;
	} else if (log && log[0]) {
		report("NVRTC warns:\n", log, j->yaml);
		bad = 1;
	}
	free(log);
	free(image);
	return bad;
}

/* Compile every queued job in `workers` forked processes, each taking the
 * next job number from a pipe they share (a read of one int from a pipe
 * written an int at a time is whole), last queued first: the matmul specs,
 * the slowest to compile, are queued last, and started first they do not
 * leave one core busy at the end while the other idles.  Each worker tells
 * the parent through another pipe, one byte per job ('.' clean, 'F'
 * failed).  The parent prints progress and returns the failures (a worker
 * that dies counts as one). */
static int
compile_all(void)
{
	const char *env = getenv("KGEN_JOBS");
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	int workers = env ? atoi(env) : cores > 0 ? (int)cores : 1;
	int fd[2], work[2], w, j, done = 0, fails = 0, shown = 0, status;
	pid_t pid[64];
	char c;
	ssize_t r;

	if (workers < 1)
		workers = 1;
	if (workers > 64)
		workers = 64;
	if (workers > njobs)
		workers = njobs ? njobs : 1;
	if (pipe(fd)) {
		perror("sample_test: pipe");
		exit(99);
	}
	/* The job numbers, njobs - 1 down to 0; a pipe holds 64 KiB, 16384 of them. */
	if (njobs > 16384 || pipe(work)) {
		perror("sample_test: the pipe of jobs");
		exit(99);
	}
	for (j = njobs - 1; j >= 0; j--)
		if (write(work[1], &j, sizeof j) != sizeof j) {
			perror("sample_test: the pipe of jobs");
			exit(99);
		}
	close(work[1]);
	fflush(NULL);
	for (w = 0; w < workers; w++) {
		if ((pid[w] = fork()) < 0) {
			perror("sample_test: fork");
			exit(99);
		}
		if (pid[w] == 0) {
			close(fd[0]);
			while (read(work[0], &j, sizeof j) == sizeof j) {
				c = compile(&jobs[j]) ? 'F' : '.';
				if (write(fd[1], &c, 1) != 1)
					_exit(99);
			}
			_exit(0);
		}
	}
	close(fd[1]);
	printf("compiling %d specs with NVRTC in %d processes (%d more generated a source already queued; ptxas %s)\n",
	       njobs, workers, nsame, use_fast_ptxas ? "-Ofc=max but for sm_90a" : "at full optimisation");
	fflush(stdout);
	while ((r = read(fd[0], &c, 1)) != 0) {
		if (r < 0) {
			if (errno == EINTR)
				continue;
			perror("sample_test: read");
			exit(99);
		}
		done++;
		fails += c == 'F';
		if (done * 10 / njobs > shown) {
			shown = done * 10 / njobs;
			printf("  %d of %d compiled%s\n", done, njobs, fails ? " (with failures)" : "");
			fflush(stdout);
		}
	}
	close(fd[0]);
	close(work[0]);
	for (w = 0; w < workers; w++)
		if (waitpid(pid[w], &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
			fprintf(stderr, "FAIL: compile worker %d of %d did not finish (status %d)\n", w, workers, status);
			fails++;
		}
	if (done != njobs) {
		fprintf(stderr, "FAIL: %d of %d specs compiled\n", done, njobs);
		fails++;
	}
	for (j = 0; j < njobs; j++) {
		free(jobs[j].src);
		free(jobs[j].yaml);
	}
	free(jobs);
	return fails;
}

/* Values the language lists but always refuses, each with its own message
 * (spec_test, matmul_test, rows_test and scan_test check them): 16-bit
 * accumulators; fp8 anywhere but a matmul's dtype and b_dtype; integer
 * types of a matmul (and of its bias and residual);
 * order: hilbert of a transpose;
 * a rows kernel's types other than f32, f16 and bf16, and labels other
 * than i32 and i64; a scan's ops with a last step or a pair (mean, norm2,
 * argmin, argmax) and so nan, which only those take. */
static int
never(const struct kgen_family *f, int k, const char *v)
{
	int integer = strcmp(v, "i32") == 0 || strcmp(v, "u32") == 0 || strcmp(v, "i64") == 0;
	int fp8 = strcmp(v, "e4m3") == 0 || strcmp(v, "e5m2") == 0;

	if (fp8 && kgen_keys[k].values == kgen_dtypes)  /* matmul's operands alone (spec_test, matmul_test) */
		return strcmp(f->name, "matmul") != 0 || (k != KGEN_KEY_dtype && k != KGEN_KEY_b_dtype);
	if (k == KGEN_KEY_b_dtype)  /* B's own type is fp8 beside fp8 */
		return !fp8;

	if (strcmp(f->name, "matmul") == 0 && integer &&
	    (k == KGEN_KEY_dtype || k == KGEN_KEY_acc_dtype || k == KGEN_KEY_out_dtype || k == KGEN_KEY_bias_dtype ||
	     k == KGEN_KEY_residual_dtype))
		return 1;
	if (strcmp(f->name, "rows") == 0) {
		int floating = strcmp(v, "f32") == 0 || strcmp(v, "f16") == 0 || strcmp(v, "bf16") == 0;
		if (k == KGEN_KEY_dtype || k == KGEN_KEY_out_dtype || k == KGEN_KEY_weight_dtype)
			return !floating;
		if (k == KGEN_KEY_label_dtype)
			return !integer || strcmp(v, "u32") == 0;
	}
	if (strcmp(f->name, "matmul") == 0 && k == KGEN_KEY_staging)  /* staging: ring is the column scan's */
		return strcmp(v, "ring") == 0;
	if (strcmp(f->name, "scan") == 0 && k == KGEN_KEY_op)
		return strcmp(v, "mean") == 0 || strcmp(v, "norm2") == 0 || strcmp(v, "argmin") == 0 ||
		       strcmp(v, "argmax") == 0;
	if (strcmp(f->name, "scan") == 0 && k == KGEN_KEY_nan)
		return 1;
	if (strcmp(f->name, "transpose") == 0 && k == KGEN_KEY_order && strcmp(v, "hilbert") == 0)
		return 1;  /* matmul's: transpose_test checks the refusal */
	return k == KGEN_KEY_acc_dtype && (strcmp(v, "f16") == 0 || strcmp(v, "bf16") == 0);
}

/* The start of a search for a spec with key k = v: that pair and, with
 * `extra`, for up to four other keys of f (from a random one on, in the
 * family's order), a value of the key that no spec has covered yet, so that
 * one spec covers several (the search redraws any the validator refuses).
 * The first EXTRA_TRIES searches for a value take extras, the rest that
 * value alone (a rare value is found more easily alone). */
enum { EXTRA_TRIES = 3 };

static void
seed_uncovered(const struct kgen_family *f, const struct coverage *c, enum kgen_key k, const char *v, int extra,
               struct pairs *p)
{
	int nkeys = 0, at, j, i;

	memset(p, 0, sizeof *p);
	p->key[0] = k;
	snprintf(p->value[p->n++], sizeof p->value[0], "%s", v);
	while (f->keys[nkeys] != KGEN_KEY_COUNT)
		nkeys++;
	at = (int)(next() % (unsigned)nkeys);
	for (j = 0; extra && j < nkeys && p->n < 5; j++) {
		enum kgen_key kk = f->keys[(at + j) % nkeys];
		if (kk == k || kk == KGEN_KEY_kernel || kk == KGEN_KEY_name)
			continue;
		for (i = 0; i < c->nvalues[kk]; i++)
			if (!c->seen[kk][i] && !never(f, kk, c->values[kk][i])) {
				p->key[p->n] = kk;
				snprintf(p->value[p->n++], sizeof p->value[0], "%s", c->values[kk][i]);
				break;
			}
	}
}

/* Load yaml; the spec when the validator accepts it. */
static kgen_spec *
accept(const char *yaml)
{
	kgen_spec *s = NULL;
	kgen_error err;

	if (kgen_spec_load_string(yaml, strlen(yaml), "sample.yaml", &s, &err) != KGEN_OK)
		return NULL;
	return s;
}

/* Specs generated but not compiled yet: those that cover values the
 * sample missed, from which pick() compiles a few that cover them all. */
struct pool {
	int n, cap;
	kgen_spec **spec;
	char **yaml;
};

static void
pool_add(struct pool *p, kgen_spec *s, const char *yaml)
{
	if (p->n == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 256;
		if (!(p->spec = realloc(p->spec, (size_t)p->cap * sizeof *p->spec)) ||
		    !(p->yaml = realloc(p->yaml, (size_t)p->cap * sizeof *p->yaml))) {
			perror("sample_test");
			exit(99);
		}
	}
	p->spec[p->n] = s;
	if (!(p->yaml[p->n++] = strdup(yaml))) {
		perror("sample_test");
		exit(99);
	}
}

/* How many values s covers that c has not: the (key, value) pairs. */
static int
gain(const struct coverage *c, const kgen_spec *s)
{
	char buf[96];
	int k, i, n = 0;

	for (k = 0; k < KGEN_KEY_COUNT; k++) {
		if (!c->nvalues[k] || !kgen_key_applies(s, (enum kgen_key)k))
			continue;
		kgen_spec_format_value(s, (enum kgen_key)k, buf, sizeof buf);
		for (i = 0; i < c->nvalues[k]; i++)
			n += !c->seen[k][i] && strcmp(c->values[k][i], buf) == 0;
	}
	return n;
}

/* Compile a few specs of the pool that cover every value it covers and c
 * does not: the one that covers the most, then again (a greedy set cover);
 * the pool is emptied.  The failures queue() finds. */
static int
pick(struct coverage *c, struct pool *p)
{
	int fails = 0, best, most, g, i;

	for (;;) {
		for (best = -1, most = 0, i = 0; i < p->n; i++)
			if (p->spec[i] && (g = gain(c, p->spec[i])) > most) {
				most = g;
				best = i;
			}
		if (best < 0)
			break;
		cover(c, p->spec[best]);
		fails += queue(p->spec[best], p->yaml[best]);
		kgen_spec_free(p->spec[best]);
		p->spec[best] = NULL;
	}
	for (i = 0; i < p->n; i++) {
		kgen_spec_free(p->spec[i]);
		free(p->yaml[i]);
	}
	free(p->spec);
	free(p->yaml);
	memset(p, 0, sizeof *p);
	return fails;
}

/* Sample family f: `want` accepted specs, each queued for compiling, or
 * written to emit_dir.  Then what the sample missed: the draws go on to
 * DRAWS accepted specs (the sample of `make check-full`), and each value
 * none of them has is searched for (below); of all these specs, only a few
 * that cover every value they cover are compiled (pick()), so that a small
 * sample covers what a large one does at the cost of generating it.
 * Returns the failures found so far (compile_all() finds the rest). */
enum { DRAWS = 256 };

static int
sample(const struct kgen_family *f, int want, const char *emit_dir)
{
	static struct coverage c, reach;
	static struct pool pool;
	char yaml[1024], path[4096], seen_yaml[DRAWS][1024];
	const enum kgen_key *p;
	int got = 0, tries = 0, fails = 0, nseen = 0, draws = emit_dir ? want : DRAWS, accepted = 0, i, k, v, dup;
	kgen_spec *s;

	memset(&c, 0, sizeof c);
	for (p = f->keys; *p != KGEN_KEY_COUNT; p++)
		c.nvalues[*p] = *p == KGEN_KEY_kernel || *p == KGEN_KEY_name ? 0 : candidates(*p, c.values[*p], 64);
	while (accepted < draws && tries++ < 200 * draws) {
		draw(f, yaml, sizeof yaml);
		if (!(s = accept(yaml)))
			continue;
		for (dup = 0, i = 0; i < nseen && !dup; i++)
			dup = strcmp(seen_yaml[i], yaml) == 0;
		if (dup || nseen == DRAWS) {
			kgen_spec_free(s);
			if (nseen == DRAWS)
				break;
			continue;
		}
		snprintf(seen_yaml[nseen++], sizeof seen_yaml[0], "%s", yaml);
		accepted++;
		if (got == want) {
			/* Past the sample: to the pool; compiled only if pick() takes it. */
			pool_add(&pool, s, yaml);
			continue;
		}
		cover(&c, s);
		if (emit_dir) {
			FILE *fp;
			snprintf(path, sizeof path, "%s/%s-%03d.yaml", emit_dir, f->name, got);
			if (!(fp = fopen(path, "w")) || fputs(yaml, fp) < 0 || fclose(fp)) {
				perror(path);
				exit(99);
			}
		} else {
			fails += queue(s, yaml);
		}
		kgen_spec_free(s);
		got++;
	}
	if (emit_dir)
		return 0;
	if (got < want) {
		fprintf(stderr, "FAIL: %s: only %d of %d random specs accepted in %d tries\n", f->name, got, want, tries);
		fails++;
	}
	/* What the sample and the pool reach between them. */
	reach = c;
	for (i = 0; i < pool.n; i++)
		cover(&reach, pool.spec[i]);
	/* Coverage: each value neither has, forced into random specs: up to
	 * 40 searches, 300 for an enum value (it must be found, and one several
	 * rules away, such as store: tma or loads: tma, may need many), each
	 * after EXTRA_TRIES that carry other values not reached yet.  A spec
	 * found goes to the pool when it reaches something new. */
	for (k = 0; k < KGEN_KEY_COUNT; k++)
		for (v = 0; v < reach.nvalues[k]; v++) {
			if (reach.seen[k][v] || never(f, k, reach.values[k][v]))
				continue;
			for (tries = 0; tries < (kgen_keys[k].type == KT_ENUM ? 300 : 40) + EXTRA_TRIES && !reach.seen[k][v];
			     tries++) {
				struct pairs seed;
				seed_uncovered(f, &reach, (enum kgen_key)k, reach.values[k][v], tries < EXTRA_TRIES, &seed);
				if (!(s = repair(f, &seed, yaml, sizeof yaml)))
					continue;
				if (gain(&reach, s)) {
					cover(&reach, s);
					pool_add(&pool, s, yaml);
				} else {
					kgen_spec_free(s);
				}
			}
			if (!reach.seen[k][v] && kgen_keys[k].type == KT_ENUM) {
				fprintf(stderr, "FAIL: %s: no accepted spec has %s: %s\n", f->name, kgen_keys[k].name,
				        reach.values[k][v]);
				fails++;
			}
		}
	fails += pick(&c, &pool);
	printf("%s: %d random specs accepted and generated; every enum value of its keys covered%s\n",
	       f->name, got, fails ? " (with failures)" : "");
	return fails;
}

int
main(int argc, char **argv)
{
	const char *env = getenv("KGEN_SAMPLES"), *emit = NULL;
	int want = env ? atoi(env) : 20, fails = 0, f;

	if (argc == 4 && strcmp(argv[1], "--emit") == 0) {
		emit = argv[2];
		want = atoi(argv[3]);
	} else if (argc != 1) {
		fprintf(stderr, "usage: sample_test [--emit DIR N]\n");
		return 2;
	}
	if (want < 1 || want > 256) {
		fprintf(stderr, "sample_test: %d specs per family: expected 1 to 256\n", want);
		return 2;
	}
	for (f = 0; f < KGEN_FAMILY_COUNT; f++)
		fails += sample(kgen_family((enum kgen_family_id)f), want, emit);
	if (!emit) {
		use_fast_ptxas = probe_fast_ptxas();
		fails += compile_all();
		printf("%s\n", fails ? "FAIL" : "every spec compiled without a warning");
	}
	return fails ? 1 : 0;
}
