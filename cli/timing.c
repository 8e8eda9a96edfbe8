/*
 * timing.c - how `kgen run --bench` times: CUDA events around each call,
 * warm-up, the median; the read-bandwidth probe; CUB through kgen-cub.
 */
#include "config.h"
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "gen/tpl.h"
#include "timing.h"

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

/* The copy and the probe, as kgen_median_ms() callbacks. */
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
	const struct kgen_cu *cu = ctx->cu;
	CUevent a = NULL, b = NULL;
	float *times;
	kgen_status st = KGEN_OK;
	int i;

	if (!(times = calloc((size_t)runs, sizeof *times)))
		return kgen_fail(err, KGEN_ENOMEM, "out of memory");
	if (cu->cuEventCreate(&a, 0) || cu->cuEventCreate(&b, 0)) {
		st = kgen_fail(err, KGEN_ECUDA, "cuEventCreate() failed");
		goto out;
	}
	for (i = 0; i < 3 && !st; i++)
		st = fn(arg, i, NULL, err);
	for (i = 0; i < runs && !st; i++) {
		CUresult r;
		cu->cuEventRecord(a, NULL);
		if ((st = fn(arg, i, NULL, err)))
			break;
		cu->cuEventRecord(b, NULL);
		if ((r = cu->cuEventSynchronize(b)) || (r = cu->cuEventElapsedTime(&times[i], a, b)))
			st = kgen_cu_fail(cu, err, "cuEventElapsedTime", r);
	}
	if (!st) {
		qsort(times, (size_t)runs, sizeof *times, cmp_float);
		*ms = times[runs / 2];
	}
out:
	if (a)
		cu->cuEventDestroy(a);
	if (b)
		cu->cuEventDestroy(b);
	free(times);
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

#define SAMPLES 7          /* events and graph: samples of a batch each */
#define SAMPLE_MS 0.2f     /* a batch lasts at least this long (events resolve ~0.5 us) */
#define MAX_BATCH 4096

/* `batch` calls back to back on stream, from call number `first`. */
static kgen_status
calls(kgen_timed_fn fn, void *arg, int first, int batch, CUstream stream, kgen_error *err)
{
	kgen_status st = KGEN_OK;
	int k;

	for (k = 0; k < batch && !st; k++)
		st = fn(arg, first + k, stream, err);
	return st;
}

/* The elapsed milliseconds between a and b, once b is reached. */
static kgen_status
elapsed(const struct kgen_cu *cu, CUevent a, CUevent b, float *ms, kgen_error *err)
{
	CUresult r;

	if ((r = cu->cuEventSynchronize(b)) || (r = cu->cuEventElapsedTime(ms, a, b)))
		return kgen_cu_fail(cu, err, "cuEventElapsedTime", r);
	return KGEN_OK;
}

kgen_status
kgen_time_calls(kgen_context *ctx, enum kgen_timing_method m, kgen_timed_fn fn, void *arg, int runs,
                struct kgen_timing *t, kgen_error *err)
{
	const struct kgen_cu *cu = ctx->cu;
	CUevent a = NULL, b = NULL;
	CUstream stream = NULL;
	CUgraph graph = NULL;
	CUgraphExec exec = NULL;
	CUdeviceptr flush = 0;
	size_t flush_bytes = 2 * ctx->l2_bytes;
	float ms[1024], x;
	int i, nsamples = m == KGEN_TIME_EVENTS || m == KGEN_TIME_GRAPH ? SAMPLES : runs < 1024 ? runs : 1024;
	int batch = m == KGEN_TIME_EVENTS || m == KGEN_TIME_GRAPH ? runs : 1;
	kgen_status st = KGEN_OK;

	memset(t, 0, sizeof *t);
	if (m == KGEN_TIME_PER_CALL) {
		st = kgen_median_ms(ctx, fn, arg, runs, &t->median_ms, err);
		t->min_ms = t->max_ms = t->median_ms;  /* kgen_median_ms keeps only the median */
		t->samples = runs;
		t->batch = 1;
		return st;
	}
	if (nsamples < 1)
		return kgen_fail(err, KGEN_EINVAL, "kgen_time_calls: runs must be positive");
	if (cu->cuEventCreate(&a, CU_EVENT_DEFAULT) || cu->cuEventCreate(&b, CU_EVENT_DEFAULT) ||
	    (m == KGEN_TIME_GRAPH && cu->cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING)) ||
	    (m == KGEN_TIME_COLD && cu->cuMemAlloc(&flush, flush_bytes))) {
		st = kgen_fail(err, KGEN_ECUDA, "cannot create the events, stream or L2 flush buffer for timing");
		goto out;
	}
	if ((st = calls(fn, arg, 0, 3, stream, err)))  /* warm up: scratch is allocated on the first call */
		goto out;
	if (m != KGEN_TIME_COLD)  /* a batch long enough to dwarf the events' resolution */
		for (;;) {
			cu->cuEventRecord(a, stream);
			if ((st = calls(fn, arg, 0, batch, stream, err)))
				goto out;
			cu->cuEventRecord(b, stream);
			if ((st = elapsed(cu, a, b, &x, err)))
				goto out;
			if (x >= SAMPLE_MS || batch >= MAX_BATCH)
				break;
			batch = batch * 2 > MAX_BATCH ? MAX_BATCH : batch * 2;
		}
	if (m == KGEN_TIME_GRAPH) {
		CUresult r;
		if ((r = cu->cuStreamBeginCapture(stream, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL))) {
			st = kgen_cu_fail(cu, err, "cuStreamBeginCapture", r);
			goto out;
		}
		st = calls(fn, arg, 0, batch, stream, err);
		r = cu->cuStreamEndCapture(stream, &graph);
		if (st)
			goto out;
		if (r || (r = cu->cuGraphInstantiateWithFlags(&exec, graph, 0)) || (r = cu->cuGraphLaunch(exec, stream)) ||
		    (r = cu->cuStreamSynchronize(stream))) {
			st = kgen_cu_fail(cu, err, "capturing the calls in a CUDA graph", r);
			goto out;
		}
	}
	for (i = 0; i < nsamples && !st; i++) {
		if (m == KGEN_TIME_COLD)
			cu->cuMemsetD8Async(flush, (unsigned char)i, flush_bytes, stream);
		cu->cuEventRecord(a, stream);
		if (m == KGEN_TIME_GRAPH)
			st = cu->cuGraphLaunch(exec, stream) ? kgen_fail(err, KGEN_ECUDA, "cuGraphLaunch() failed") : KGEN_OK;
		else
			st = calls(fn, arg, i, batch, stream, err);
		cu->cuEventRecord(b, stream);
		if (!st && !(st = elapsed(cu, a, b, &ms[i], err)))
			ms[i] /= (float)batch;
	}
	if (st)
		goto out;
	qsort(ms, (size_t)nsamples, sizeof *ms, cmp_float);
	t->median_ms = nsamples % 2 ? ms[nsamples / 2] : (ms[nsamples / 2 - 1] + ms[nsamples / 2]) / 2;
	t->min_ms = ms[0];
	t->max_ms = ms[nsamples - 1];
	t->samples = nsamples;
	t->batch = batch;
out:
	if (exec)
		cu->cuGraphExecDestroy(exec);
	if (graph)
		cu->cuGraphDestroy(graph);
	if (stream) {
		cu->cuStreamSynchronize(stream);
		cu->cuStreamDestroy(stream);
	}
	if (flush)
		cu->cuMemFree(flush);
	if (a)
		cu->cuEventDestroy(a);
	if (b)
		cu->cuEventDestroy(b);
	return st;
}

/* ---- CUB, through the kgen-cub helper ---- */

static const char *
find_cub(const char *given, char *buf, size_t len)
{
	char self[PATH_MAX];
	ssize_t n;
	char *slash;

	if (given)
		return given[0] ? given : NULL;
	if (getenv("KGEN_CUB"))
		return getenv("KGEN_CUB")[0] ? getenv("KGEN_CUB") : NULL;
	if ((n = readlink("/proc/self/exe", self, sizeof self - 1)) > 0) {
		self[n] = '\0';
		if ((slash = strrchr(self, '/'))) {
			*slash = '\0';
			snprintf(buf, len, "%s/kgen-cub", self);
			if (access(buf, X_OK) == 0)
				return buf;
		}
	}
	snprintf(buf, len, "%s/kgen-cub", KGEN_PKGLIBEXECDIR);
	return access(buf, X_OK) == 0 ? buf : NULL;
}

/* The median milliseconds kgen-cub prints for `args`, or -1, and (when
 * `offsets` is not NULL) the width of CUB's offsets it names, 32 or 64 (0
 * when it names none); each argument list is measured once per process. */
double
kgen_cub_call(const char *given, const char *args, int *offsets)
{
	static struct { char args[160]; double ms; int offsets; } seen[64];
	static int nseen;
	char path[PATH_MAX + 16], cmd[PATH_MAX + 256], line[512];
	const char *exe = find_cub(given, path, sizeof path);
	double ms = -1;
	int width = 0;
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
	snprintf(cmd, sizeof cmd, "'%s' %s", exe, args);
	fflush(stdout);
	if (!(fp = popen(cmd, "r")))
		return -1;
	while (fgets(line, sizeof line, fp)) {
		if ((p = strstr(line, "median_ms=")))
			ms = strtod(p + 10, NULL);
		if ((p = strstr(line, "offsets=")))
			width = atoi(p + 8);
	}
	if (pclose(fp) != 0)
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
 * its 32- and 64-bit offsets (kgen-cub's --offsets=best). */
static enum kgen_timing_method cub_method = KGEN_TIME_PER_CALL;

void
kgen_cub_method(enum kgen_timing_method m)
{
	cub_method = m;
}

double
kgen_cub_ms(const char *given, int runs, const struct kgen_spec *s, unsigned long long n, size_t l2, int *offsets)
{
	char args[160], method[32] = "";

	if (cub_method != KGEN_TIME_PER_CALL)  /* kgen-cub's default is per-call */
		snprintf(method, sizeof method, "--method=%s ", kgen_timing_method_name(cub_method));
	snprintf(args, sizeof args, "%s%s %s %llu %d %zu", method, kgen_ops[s->op].name, kgen_spec_dtype(s)->name, n, runs,
	         l2);
	return kgen_cub_call(given, args, offsets);
}
