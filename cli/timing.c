/*
 * timing.c - how `kgen run --bench` and `kgen tune` time: CUDA events around
 * each call, around batches of calls or around a graph's replay, or around
 * one call on a cold L2 (kgen_time_calls); the read-bandwidth probe; CUB
 * through kgen-cub and cuBLAS through kgen-cublas, timed the same way.
 */
#include "config.h"
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>
#include "gen/tpl.h"
#include "timing.h"

/* The signals that stop kgen run (timing.h). */
const int kgen_stop_signals[KGEN_STOP_SIGNALS] = { SIGINT, SIGTERM, SIGHUP };

void
kgen_stop_set(sigset_t *set)
{
	int i;

	sigemptyset(set);
	for (i = 0; i < KGEN_STOP_SIGNALS; i++)
		sigaddset(set, kgen_stop_signals[i]);
}

/* ---- timing ---- */

static int
cmp_float(const void *a, const void *b)
{
	float x = *(const float *)a, y = *(const float *)b;
	return x < y ? -1 : x > y;
}

kgen_status
kgen_probe_load(kgen_context *ctx, struct probe *p, kgen_error *err)
{
	const struct kgen_cu *cu = ctx->cu;
	void *image = NULL;
	size_t size;
	kgen_status st;

	if (p->fn)
		return KGEN_OK;
	if ((st = kgen_compile(kgen_template("bench/stream.cu"), "stream.cu", ctx->arch, KGEN_IMAGE_CUBIN, &image, &size,
	                       NULL, err)))
		return st;
	if ((st = kgen_context_enter(ctx, err)))
		goto out;
	if (cu->cuModuleLoadData(&p->module, image) || cu->cuModuleGetFunction(&p->fn, p->module, "kgen_stream_read") ||
	    cu->cuMemAlloc(&p->sink, 16))
		st = kgen_fail(err, KGEN_ECUDA, "cannot load the read-bandwidth probe");
out:
	free(image);
	return st;
}

/* The copy and the probe, as kgen_timed_fn callbacks. */
struct copy_call {
	const struct kgen_cu *cu;
	CUdeviceptr dst, src;
	size_t bytes;
};

static kgen_status
copy_once(void *arg, int i, CUstream stream, kgen_error *err)
{
	struct copy_call *c = arg;

	(void)i;
	KGEN_CU(c->cu, err, cuMemcpyDtoDAsync, (c->dst, c->src, c->bytes, stream));
	return KGEN_OK;
}

kgen_status
kgen_copy_ms(kgen_context *ctx, CUdeviceptr dst, CUdeviceptr src, size_t bytes, int runs, float *ms, kgen_error *err)
{
	struct copy_call c = { ctx->cu, dst, src, bytes };
	kgen_status st;

	if ((st = kgen_median_ms(ctx, copy_once, &c, runs, ms, err)))
		return st;
	return kgen_median_ms(ctx, copy_once, &c, runs, ms, err);
}

/* kgen_copy_ms() between two buffers of its own, `bytes` each, freed after
 * (timing.h). */
kgen_status
kgen_copy_apart_ms(kgen_context *ctx, size_t bytes, int runs, float *ms, kgen_error *err)
{
	const struct kgen_cu *cu = ctx->cu;
	CUdeviceptr a = 0, b = 0;
	kgen_status st;

	if (cu->cuMemAlloc(&a, bytes) || cu->cuMemAlloc(&b, bytes))
		st = kgen_fail(err, KGEN_ECUDA, "cannot allocate 2 x %zu bytes for the copy", bytes);
	else
		st = kgen_copy_ms(ctx, b, a, bytes, runs, ms, err);
	if (a)
		cu->cuMemFree(a);
	if (b)
		cu->cuMemFree(b);
	return st;
}

/* Keep the GPU copying for about WARM_MS of its time, once per process,
 * before the first timing: a GPU that has idled runs its first
 * milliseconds at low clocks, which once spread a tuning's first size by
 * 79%.  Batches of 64 MiB device-to-device copies, each timed. */
#define WARM_MS 200.0f
#define WARM_BYTES (64u << 20)

kgen_status
kgen_gpu_warm_once(kgen_context *ctx, kgen_error *err)
{
	static int warmed;
	struct copy_call c = { ctx->cu, 0, 0, WARM_BYTES / 2 };
	float spent = 0, ms;
	kgen_status st = KGEN_OK;
	int i;

	if (warmed)
		return KGEN_OK;
	if ((st = kgen_context_enter(ctx, err)))
		return st;
	KGEN_CU(ctx->cu, err, cuMemAlloc, (&c.src, WARM_BYTES));
	c.dst = c.src + WARM_BYTES / 2;
	for (i = 0; i < 1000 && spent < WARM_MS && !st; i++)
		if (!(st = kgen_median_ms(ctx, copy_once, &c, 16, &ms, err)))
			spent += 19 * ms;  /* 3 warm-up calls and 16 timed */
	ctx->cu->cuMemFree(c.src);
	warmed = !st;
	return st;
}

struct probe_call {
	const struct kgen_cu *cu;
	struct probe *p;
	CUdeviceptr in;
	unsigned long long n16;
	int blocks;
};

static kgen_status
probe_once(void *arg, int i, CUstream stream, kgen_error *err)
{
	struct probe_call *c = arg;
	void *args[] = { &c->in, &c->n16, &c->p->sink };

	(void)i;
	KGEN_CU(c->cu, err, cuLaunchKernel, (c->p->fn, (unsigned)c->blocks, 1, 1, 512, 1, 1, 0, stream, args, NULL));
	return KGEN_OK;
}

kgen_status
kgen_probe_ms(kgen_context *ctx, struct probe *p, CUdeviceptr in, size_t bytes, int runs, float *ms, kgen_error *err)
{
	struct probe_call c = { ctx->cu, p, in, bytes / 16, 4 * ctx->sm_count };
	kgen_status st;

	if ((st = kgen_probe_load(ctx, p, err)))
		return st;
	return kgen_median_ms(ctx, probe_once, &c, runs, ms, err);
}

kgen_status
kgen_median_ms(kgen_context *ctx, kgen_timed_fn fn, void *arg, int runs, float *ms, kgen_error *err)
{
	struct kgen_timing t;
	kgen_status st = kgen_time_calls(ctx, KGEN_TIME_PER_CALL, fn, arg, runs, &t, err);

	if (!st)
		*ms = t.median_ms;
	return st;
}

#define X(id, name) name,
static const char *const method_names[] = { KGEN_TIMING_METHODS(X) };
#undef X

int
kgen_timing_method_parse(const char *name)
{
	int i;

	for (i = 0; i < KGEN_TIME_COUNT; i++)
		if (strcmp(name, method_names[i]) == 0)
			return i;
	return -1;
}

const char *
kgen_timing_method_name(enum kgen_timing_method m)
{
	return (int)m >= 0 && m < KGEN_TIME_COUNT ? method_names[m] : "?";
}

#define WARM_UP 3          /* calls before any timing: the first allocates a kernel's scratch */
#define SAMPLES 7          /* events and graph: samples of a batch each */
#define SAMPLE_MS 0.2f     /* a batch lasts at least this long (events resolve ~0.5 us) */
#define MAX_BATCH 4096     /* bounds a sample's wait and the graph's size */

/* What one timing creates, all released by timer_close() whatever happened. */
struct timer {
	const struct kgen_cu *cu;
	CUevent a, b;
	CUstream stream;        /* graph: a non-blocking stream to capture; else NULL, the default stream */
	CUgraph graph;
	CUgraphExec exec;
	CUdeviceptr flush;      /* cold: twice the L2, written before each sample */
	size_t flush_bytes;
	float *ms;              /* per call, one per sample */
	int next;               /* the number of fn's next call */
};

static kgen_status
timer_open(struct timer *tm, kgen_context *ctx, enum kgen_timing_method m, int samples, kgen_error *err)
{
	const struct kgen_cu *cu = ctx->cu;

	memset(tm, 0, sizeof *tm);
	tm->cu = cu;
	if (!(tm->ms = calloc((size_t)samples, sizeof *tm->ms)))
		return kgen_fail(err, KGEN_ENOMEM, "out of memory for %d samples", samples);
	KGEN_CU(cu, err, cuEventCreate, (&tm->a, CU_EVENT_DEFAULT));
	KGEN_CU(cu, err, cuEventCreate, (&tm->b, CU_EVENT_DEFAULT));
	if (m == KGEN_TIME_GRAPH) {
		/* The default stream cannot be captured, so a stream of its own; it
		 * does not wait for the default stream, so that is finished first
		 * (the input's upload, the result's poisoning). */
		KGEN_CU(cu, err, cuCtxSynchronize, ());
		KGEN_CU(cu, err, cuStreamCreate, (&tm->stream, CU_STREAM_NON_BLOCKING));
	}
	if (m == KGEN_TIME_COLD) {
		tm->flush_bytes = 2 * ctx->l2_bytes;
		KGEN_CU(cu, err, cuMemAlloc, (&tm->flush, tm->flush_bytes ? tm->flush_bytes : 16));
	}
	return KGEN_OK;
}

static void
timer_close(struct timer *tm)
{
	const struct kgen_cu *cu = tm->cu;

	if (tm->stream)
		cu->cuStreamSynchronize(tm->stream);
	if (tm->exec)
		cu->cuGraphExecDestroy(tm->exec);
	if (tm->graph)
		cu->cuGraphDestroy(tm->graph);
	if (tm->stream)
		cu->cuStreamDestroy(tm->stream);
	if (tm->flush)
		cu->cuMemFree(tm->flush);
	if (tm->a)
		cu->cuEventDestroy(tm->a);
	if (tm->b)
		cu->cuEventDestroy(tm->b);
	free(tm->ms);
}

/* `count` calls of fn back to back on the timer's stream, numbered on. */
static kgen_status
calls(struct timer *tm, kgen_timed_fn fn, void *arg, int count, kgen_error *err)
{
	kgen_status st = KGEN_OK;
	int k;

	for (k = 0; k < count && !st; k++)
		st = fn(arg, tm->next++, tm->stream, err);
	return st;
}

/* One sample, in milliseconds per call: (cold: write the flush buffer, which
 * evicts every line of the input from the L2), an event, `batch` calls or
 * one replay of the graph that holds them, an event. */
static kgen_status
sample(struct timer *tm, kgen_timed_fn fn, void *arg, int batch, float *ms, kgen_error *err)
{
	const struct kgen_cu *cu = tm->cu;
	kgen_status st;

	if (tm->flush)
		KGEN_CU(cu, err, cuMemsetD8Async, (tm->flush, 0, tm->flush_bytes, tm->stream));
	KGEN_CU(cu, err, cuEventRecord, (tm->a, tm->stream));
	if (tm->exec)
		KGEN_CU(cu, err, cuGraphLaunch, (tm->exec, tm->stream));
	else if ((st = calls(tm, fn, arg, batch, err)))
		return st;
	KGEN_CU(cu, err, cuEventRecord, (tm->b, tm->stream));
	KGEN_CU(cu, err, cuEventSynchronize, (tm->b));
	KGEN_CU(cu, err, cuEventElapsedTime, (ms, tm->a, tm->b));
	*ms /= (float)batch;
	return KGEN_OK;
}

/* The batch of events and graph: `runs` calls, doubled until the batch lasts
 * SAMPLE_MS, far above the events' resolution and the gaps between launches
 * that the CPU leaves at small n, or holds MAX_BATCH. */
static kgen_status
pick_batch(struct timer *tm, kgen_timed_fn fn, void *arg, int runs, int *batch, kgen_error *err)
{
	kgen_status st;
	float ms;

	for (*batch = runs;; *batch = *batch > MAX_BATCH / 2 ? MAX_BATCH : 2 * *batch) {
		if ((st = sample(tm, fn, arg, *batch, &ms, err)))
			return st;
		if (ms * (float)*batch >= SAMPLE_MS || *batch >= MAX_BATCH)
			return KGEN_OK;
	}
}

/* Graph: `batch` calls captured from the timer's stream into a graph,
 * instantiated and replayed once (the first launch uploads it). */
static kgen_status
capture(struct timer *tm, kgen_timed_fn fn, void *arg, int batch, kgen_error *err)
{
	const struct kgen_cu *cu = tm->cu;
	kgen_status st;
	CUresult r;

	/* Thread-local: other threads' work stays out of the graph, and a call
	 * of this thread that cannot be captured (cuMemAlloc) fails at once. */
	KGEN_CU(cu, err, cuStreamBeginCapture, (tm->stream, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL));
	st = calls(tm, fn, arg, batch, err);
	r = cu->cuStreamEndCapture(tm->stream, &tm->graph);  /* also after a failed call: the stream works again */
	if (st)
		return st;
	if (r)
		return kgen_cu_fail(cu, err, "cuStreamEndCapture", r);
	KGEN_CU(cu, err, cuGraphInstantiateWithFlags, (&tm->exec, tm->graph, 0));
	KGEN_CU(cu, err, cuGraphLaunch, (tm->exec, tm->stream));
	KGEN_CU(cu, err, cuStreamSynchronize, (tm->stream));
	return KGEN_OK;
}

/* The median, least and most of n samples.  Per-call's median is its upper
 * middle sample, as kgen_median_ms's always was (results stay comparable). */
static void
summarize(float *ms, int n, enum kgen_timing_method m, int batch, struct kgen_timing *t)
{
	qsort(ms, (size_t)n, sizeof *ms, cmp_float);
	t->median_ms = m == KGEN_TIME_PER_CALL || n % 2 ? ms[n / 2] : (ms[n / 2 - 1] + ms[n / 2]) / 2;
	t->min_ms = ms[0];
	t->max_ms = ms[n - 1];
	t->samples = n;
	t->batch = batch;
}

kgen_status
kgen_time_calls(kgen_context *ctx, enum kgen_timing_method m, kgen_timed_fn fn, void *arg, int runs,
                struct kgen_timing *t, kgen_error *err)
{
	int batched = m == KGEN_TIME_EVENTS || m == KGEN_TIME_GRAPH;
	int i, batch = 1, samples = batched ? SAMPLES : runs;
	struct timer tm;
	kgen_status st;

	memset(t, 0, sizeof *t);
	if ((unsigned)m >= KGEN_TIME_COUNT || runs < 1)
		return kgen_fail(err, KGEN_EINVAL, "kgen_time_calls: method %d, %d runs (runs must be positive)", (int)m, runs);
	if ((st = kgen_context_enter(ctx, err)))
		return st;
	if ((st = timer_open(&tm, ctx, m, samples, err)) || (st = calls(&tm, fn, arg, WARM_UP, err)))
		goto out;
	if (m == KGEN_TIME_PER_CALL)
		tm.next = 0;  /* its samples are calls 0 to R - 1, as they always were */
	if (batched && (st = pick_batch(&tm, fn, arg, runs, &batch, err)))
		goto out;
	if (m == KGEN_TIME_GRAPH && (st = capture(&tm, fn, arg, batch, err)))
		goto out;
	for (i = 0; i < samples && !st; i++)
		st = sample(&tm, fn, arg, batch, &tm.ms[i], err);
	if (!st)
		summarize(tm.ms, samples, m, batch, t);
out:
	timer_close(&tm);
	return st;
}

/* ---- CUB, through the kgen-cub helper ---- */

/* The helper program `name` (kgen-cub, kgen-cublas): `given` ("" for
 * none), else $ENV ("" for none), else beside the running kgen, else in
 * pkglibexecdir; NULL when none can be run. */
static const char *
find_helper(const char *given, const char *env, const char *name, char *buf, size_t len)
{
	char self[PATH_MAX];
	ssize_t n;
	char *slash;

	if (given)
		return given[0] ? given : NULL;
	if (getenv(env))
		return getenv(env)[0] ? getenv(env) : NULL;
	if ((n = readlink("/proc/self/exe", self, sizeof self - 1)) > 0) {
		self[n] = '\0';
		if ((slash = strrchr(self, '/'))) {
			*slash = '\0';
			snprintf(buf, len, "%s/%s", self, name);
			if (access(buf, X_OK) == 0)
				return buf;
		}
	}
	snprintf(buf, len, "%s/%s", KGEN_PKGLIBEXECDIR, name);
	return access(buf, X_OK) == 0 ? buf : NULL;
}

static const char *
find_cub(const char *given, char *buf, size_t len)
{
	return find_helper(given, "KGEN_CUB", "kgen-cub", buf, len);
}

/* Start exe with args split at spaces (kgen's own words: numbers and
 * names) as its argument vector, no shell between, its standard output (and
 * its standard error too, with both) a pipe read through the FILE returned;
 * NULL when it cannot start. */
static FILE *
spawn_reader(const char *exe, const char *args, int both, pid_t *pid)
{
	extern char **environ;
	char words[512], *argv[32], *save = NULL, *w;
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	sigset_t mask;
	int fd[2], argc = 0, r;
	FILE *fp;

	snprintf(words, sizeof words, "%s", args);
	argv[argc++] = (char *)exe;
	for (w = strtok_r(words, " ", &save); w && argc < 31; w = strtok_r(NULL, " ", &save))
		argv[argc++] = w;
	argv[argc] = NULL;
	if (pipe(fd) != 0)
		return NULL;
	if (posix_spawn_file_actions_init(&fa) != 0) {
		close(fd[0]);
		close(fd[1]);
		return NULL;
	}
	posix_spawn_file_actions_addclose(&fa, fd[0]);
	posix_spawn_file_actions_adddup2(&fa, fd[1], 1);
	if (both)
		posix_spawn_file_actions_adddup2(&fa, fd[1], 2);
	posix_spawn_file_actions_addclose(&fa, fd[1]);
	/* SIGINT, SIGTERM and SIGHUP blocked in the helper: a Ctrl-C or a
	 * timeout(1) reaches kgen's whole process group, and kgen run finishes
	 * the result under way, its peer's figure too (cli/run.c); a helper
	 * left by a kgen gone ends with its measurement, at its pipe. */
	kgen_stop_set(&mask);
	if ((r = posix_spawnattr_init(&attr)) == 0) {
		posix_spawnattr_setsigmask(&attr, &mask);
		posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK);
		r = posix_spawn(pid, exe, &fa, &attr, argv, environ);
		posix_spawnattr_destroy(&attr);
	}
	posix_spawn_file_actions_destroy(&fa);
	close(fd[1]);
	if (r != 0 || !(fp = fdopen(fd[0], "r"))) {
		if (r == 0)
			waitpid(*pid, NULL, 0);
		close(fd[0]);
		return NULL;
	}
	return fp;
}

/* The median milliseconds kgen-cub prints for `args`, or -1, and (when
 * `offsets` is not NULL) the width of CUB's offsets it names, 32 or 64 (0
 * when it names none); each argument list is measured once per process. */
double
kgen_cub_call(const char *given, const char *args, int *offsets)
{
	static struct { char args[160]; double ms; int offsets; } seen[64];
	static int nseen;
	char path[PATH_MAX + 16], line[512];
	const char *exe = find_cub(given, path, sizeof path);
	double ms = -1;
	int width = 0, status;
	pid_t pid;
	FILE *fp;
	char *p;
	int i;

	if (offsets)
		*offsets = 0;
	for (i = 0; i < nseen; i++)
		if (strcmp(seen[i].args, args) == 0) {
			if (offsets)
				*offsets = seen[i].offsets;
			return seen[i].ms;
		}
	if (!exe)
		return -1;
	fflush(stdout);
	if (!(fp = spawn_reader(exe, args, 0, &pid)))
		return -1;
	while (fgets(line, sizeof line, fp)) {
		if ((p = strstr(line, "median_ms=")))
			ms = strtod(p + 10, NULL);
		if ((p = strstr(line, "offsets=")))
			width = atoi(p + 8);
	}
	fclose(fp);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
		ms = -1, width = 0;
	if (nseen == 64)
		nseen = 0;
	snprintf(seen[nseen].args, sizeof seen[nseen].args, "%s", args);
	seen[nseen].offsets = width;
	seen[nseen++].ms = ms;
	if (offsets)
		*offsets = width;
	return ms;
}

/* CUB's DeviceReduce for the spec's op and dtype at n, with the faster of
 * its 32- and 64-bit offsets (kgen-cub's --offsets=best), timed with m. */
double
kgen_cub_ms(const char *given, enum kgen_timing_method m, int runs, const struct kgen_spec *s, unsigned long long n,
            size_t l2, int *offsets)
{
	char args[160], method[32] = "";

	if (m != KGEN_TIME_PER_CALL)  /* kgen-cub's default; its command line stays as it was */
		snprintf(method, sizeof method, "--method=%s ", kgen_timing_method_name(m));
	snprintf(args, sizeof args, "%s%s %s %llu %d %zu", method, kgen_ops[s->op].name, s->r.dtype->name, n, runs,
	         l2);
	return kgen_cub_call(given, args, offsets);
}

/* The types of a scan kgen-cub times (bench/cub/cub_reduce.cu,
 * scan_types): DTYPE into OUT, accumulated in OUT (f32 for an f16 or bf16
 * output). */
static const char *const cub_scan_pairs[] = {
	"i32 i32", "i32 i64", "u32 u32", "u32 i64", "i64 i64", "f32 f32", "f32 f64", "f64 f64",
	"f16 f32", "f16 f16", "bf16 f32", "bf16 bf16",
};

/* Whether kgen-cub has cub::DeviceScan for the scan s: op sum, min or max,
 * its dtype, accumulator and output one of the helper's; its --out flag
 * into flag ("" where the output is the helper's default, DTYPE's own, f32
 * for f16 and bf16). */
static int
cub_scan_flag(const struct kgen_spec *s, char *flag, size_t len)
{
	const char *d = s->r.dtype->name, *o = s->r.out->name;
	int half_in = strcmp(d, "f16") == 0 || strcmp(d, "bf16") == 0;
	int half_out = strcmp(o, "f16") == 0 || strcmp(o, "bf16") == 0;
	char pair[32];
	size_t i;

	flag[0] = '\0';
	if ((s->op != KGEN_OP_SUM && s->op != KGEN_OP_MIN && s->op != KGEN_OP_MAX) ||
	    strcmp(s->r.acc->name, half_out ? "f32" : o) != 0)
		return 0;
	snprintf(pair, sizeof pair, "%s %s", d, o);
	for (i = 0; i < sizeof cub_scan_pairs / sizeof *cub_scan_pairs; i++)
		if (strcmp(cub_scan_pairs[i], pair) == 0) {
			if (strcmp(o, half_in ? "f32" : d) != 0)
				snprintf(flag, len, "--out=%s ", o);
			return 1;
		}
	return 0;
}

/* CUB's DeviceScan for the scan's mode, op, dtype and output at n, with the
 * faster of its 32- and 64-bit offsets, timed with m (kgen-cub's scan form:
 * it checks its result too, and fails, saying so, where it is off). */
double
kgen_cub_scan_ms(const char *given, enum kgen_timing_method m, int runs, const struct kgen_spec *s,
                 unsigned long long n, size_t l2, int *offsets)
{
	char args[160], method[32] = "", out[32];

	if (offsets)
		*offsets = 0;
	if (!cub_scan_flag(s, out, sizeof out))
		return -1;
	if (m != KGEN_TIME_PER_CALL)
		snprintf(method, sizeof method, "--method=%s ", kgen_timing_method_name(m));
	snprintf(args, sizeof args, "%s%sscan %s %s %s %llu %d %zu", method, out, kgen_scan_modes[s->scan_mode].name,
	         kgen_ops[s->op].name, s->r.dtype->name, n, runs, l2);
	return kgen_cub_call(given, args, offsets);
}

/* ---- cuBLAS, through the kgen-cublas helper ---- */

/* The helper's exit statuses (bench/matmul/cublas_gemm.cu) as kgen's. */
static kgen_status
cublas_exit_status(int code)
{
	switch (code) {
	case 1: return KGEN_EVERIFY;  /* its check against the host failed */
	case 2: return KGEN_EINVAL;   /* it refused its arguments */
	default: return KGEN_ECUDA;   /* 4: no cuBLAS algorithm; 5: a CUDA or cuBLAS error */
	}
}

/* The job's kgen-cublas argument list (flags only where they differ from
 * its defaults, so that the common call reads short), or KGEN_EINVAL. */
static kgen_status
cublas_args(const struct kgen_cublas_job *j, char *args, size_t len, kgen_error *err)
{
	static const char *const dtypes[] = { "f32", "f64", "f16", "bf16", "e4m3", "e5m2" };
	const char *a = j->a_layout ? j->a_layout : "row", *b = j->b_layout ? j->b_layout : "row";
	const char *out, *bt = j->b_dtype && j->b_dtype[0] ? j->b_dtype : j->dtype;
	int i, known = 0, narrow, wide, fp8;
	size_t at = 0;

	for (i = 0; j->dtype && i < 6; i++)
		known |= strcmp(j->dtype, dtypes[i]) == 0;
	if (!known)
		return kgen_fail(err, KGEN_EINVAL, "kgen_cublas_time: dtype is f32, f64, f16, bf16, e4m3 or e5m2, not %s",
		                 j->dtype ? j->dtype : "(none)");
	fp8 = j->dtype[0] == 'e';
	out = j->out_dtype && j->out_dtype[0] ? j->out_dtype : fp8 ? "bf16" : j->dtype;
	if (strcmp(bt, j->dtype) && (!fp8 || (strcmp(bt, "e4m3") && strcmp(bt, "e5m2"))))
		return kgen_fail(err, KGEN_EINVAL, "kgen_cublas_time: b_dtype is %s%s, not %s", j->dtype,
		                 fp8 ? ", e4m3 or e5m2" : "", bt);
	if (fp8 && strcmp(out, "bf16") && strcmp(out, "f16") && strcmp(out, "f32"))
		return kgen_fail(err, KGEN_EINVAL, "kgen_cublas_time: out_dtype of fp8 is bf16, f16 or f32, not %s", out);
	if (!fp8 && j->fast_accum)
		return kgen_fail(err, KGEN_EINVAL, "kgen_cublas_time: fast_accum is fp8's, not %s's", j->dtype);
	narrow = strcmp(j->dtype, "f16") == 0 || strcmp(j->dtype, "bf16") == 0;
	wide = narrow && strcmp(out, "f32") == 0;  /* f16 and bf16 may write f32 */
	if (!fp8 && strcmp(out, j->dtype) != 0 && !wide)
		return kgen_fail(err, KGEN_EINVAL, "kgen_cublas_time: out_dtype is %s%s, not %s", j->dtype,
		                 narrow ? " or f32" : "", out);
	if ((strcmp(a, "row") && strcmp(a, "col")) || (strcmp(b, "row") && strcmp(b, "col")))
		return kgen_fail(err, KGEN_EINVAL, "kgen_cublas_time: layouts are row or col, not a=%s b=%s", a, b);
	if (!j->m || !j->n || !j->k || j->m > INT_MAX || j->n > INT_MAX || j->k > INT_MAX)
		return kgen_fail(err, KGEN_EINVAL, "kgen_cublas_time: m, n and k are from 1 to 2^31 - 1, not %llu %llu %llu",
		                 j->m, j->n, j->k);
	if (j->runs < 1 || j->runs > 100000 || j->device < 0 || j->algos < 0 || j->algos > 1000 ||
	    (unsigned)j->method >= KGEN_TIME_COUNT)
		return kgen_fail(err, KGEN_EINVAL, "kgen_cublas_time: runs %d (1 to 100000), device %d, algos %d (0 to 1000), "
		                 "method %d", j->runs, j->device, j->algos, (int)j->method);
	if (!isfinite(j->alpha) || !isfinite(j->beta))
		return kgen_fail(err, KGEN_EINVAL, "kgen_cublas_time: alpha and beta are finite, not %g and %g", j->alpha,
		                 j->beta);
#define ADD(...) (at += (size_t)snprintf(args + at, at < len ? len - at : 0, __VA_ARGS__))
	if (strcmp(out, fp8 ? "bf16" : j->dtype))
		ADD("--out=%s ", out);
	if (strcmp(bt, j->dtype))
		ADD("--b-dtype=%s ", bt);
	if (j->fast_accum)
		ADD("--fast-accum ");
	if (strcmp(a, "row"))
		ADD("--a=%s ", a);
	if (strcmp(b, "row"))
		ADD("--b=%s ", b);
	if (j->lda)
		ADD("--lda=%llu ", j->lda);
	if (j->ldb)
		ADD("--ldb=%llu ", j->ldb);
	if (j->ldc)
		ADD("--ldc=%llu ", j->ldc);
	if (j->alpha != 1)
		ADD("--alpha=%.17g ", j->alpha);
	if (j->beta != 0)
		ADD("--beta=%.17g ", j->beta);
	if (j->relu)
		ADD("--epilogue=relu ");
	else if (j->gelu_bias)
		ADD("--epilogue=gelu_bias ");
	if (j->method != KGEN_TIME_PER_CALL)
		ADD("--method=%s ", kgen_timing_method_name(j->method));
	if (j->algos > 1)
		ADD("--algos=%d ", j->algos);
	if (j->device)
		ADD("--device=%d ", j->device);
	ADD("%s %llu %llu %llu %d", j->dtype, j->m, j->n, j->k, j->runs);
#undef ADD
	if (at >= len)
		return kgen_fail(err, KGEN_EINTERNAL, "kgen_cublas_time: the argument list is over %zu bytes", len);
	return KGEN_OK;
}

/* Run kgen-cublas once: its result line's fields into *r, or its last
 * "kgen-cublas: ..." line (or how it ended) into err. */
static kgen_status
cublas_spawn(const char *exe, const char *args, struct kgen_cublas_result *r, kgen_error *err)
{
	char line[1024], said[1024] = "", *p;
	int status, found = 0;
	pid_t pid;
	FILE *fp;

	fflush(stdout);
	if (!(fp = spawn_reader(exe, args, 1, &pid)))
		return kgen_fail(err, KGEN_EIO, "cannot start %s", exe);
	while (fgets(line, sizeof line, fp)) {
		line[strcspn(line, "\n")] = '\0';
		if (strncmp(line, "cublas ", 7) == 0) {
			found = 1;
			r->median_ms = (p = strstr(line, " median_ms=")) ? strtod(p + 11, NULL) : -1;
			r->tflops = (p = strstr(line, " tflops=")) ? strtod(p + 8, NULL) : -1;
			r->maxerr = (p = strstr(line, " maxerr=")) ? strtod(p + 8, NULL) : -1;
			r->algo = (p = strstr(line, " algo=")) ? atoi(p + 6) : -1;
			if ((p = strstr(line, " api=")))
				snprintf(r->api, sizeof r->api, "%.*s", (int)strcspn(p + 5, " "), p + 5);
		} else if (strncmp(line, "kgen-cublas: ", 13) == 0) {
			snprintf(said, sizeof said, "%s", line + 13);
		}
	}
	fclose(fp);
	if (waitpid(pid, &status, 0) != pid)
		return kgen_fail(err, KGEN_EIO, "%s: lost its exit status", exe);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 1 && found)
		return kgen_fail(err, KGEN_EVERIFY, "kgen-cublas %s: cuBLAS's result is off at a sampled element (%.3g of "
		                 "the error bound)", args, r->maxerr);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return kgen_fail(err, WIFEXITED(status) ? cublas_exit_status(WEXITSTATUS(status)) : KGEN_ECUDA,
		                 "kgen-cublas %s: %s", args, said[0] ? said : WIFEXITED(status) ? "failed" : "killed by a signal");
	if (!found || !(r->median_ms > 0))
		return kgen_fail(err, KGEN_EINTERNAL, "kgen-cublas %s printed no time", args);
	return KGEN_OK;
}

kgen_status
kgen_cublas_time(const char *given, const struct kgen_cublas_job *job, struct kgen_cublas_result *r, kgen_error *err)
{
	static struct { char args[320]; struct kgen_cublas_result r; kgen_error err; kgen_status st; } seen[32];
	static int nseen, next;
	char path[PATH_MAX + 16], args[320];
	const char *exe;
	kgen_status st;
	int i;

	r->median_ms = r->tflops = r->maxerr = -1;
	r->algo = -1;
	r->api[0] = '\0';
	if ((st = cublas_args(job, args, sizeof args, err)))
		return st;
	for (i = 0; i < nseen; i++)
		if (strcmp(seen[i].args, args) == 0) {
			*r = seen[i].r;
			if (seen[i].st && err)
				*err = seen[i].err;
			return seen[i].st;
		}
	if (!(exe = find_helper(given, "KGEN_CUBLAS", "kgen-cublas", path, sizeof path)))
		return kgen_fail(err, KGEN_EIO, "no kgen-cublas to time cuBLAS with (%s)",
		                 given ? "none given" : getenv("KGEN_CUBLAS") ? "KGEN_CUBLAS is empty"
		                 : "not beside kgen nor in " KGEN_PKGLIBEXECDIR "; configure builds it where nvcc and cuBLASLt are");
	st = cublas_spawn(exe, args, r, err);
	i = nseen < 32 ? nseen++ : next++ % 32;
	snprintf(seen[i].args, sizeof seen[i].args, "%s", args);
	seen[i].r = *r;
	seen[i].st = st;
	if (st && err)
		seen[i].err = *err;
	return st;
}
