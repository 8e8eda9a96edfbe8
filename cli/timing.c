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

static kgen_status
run_once(struct timed *t, int i, kgen_error *err)
{
	CUdeviceptr in = t->in[i % t->copies];
	const struct kgen_cu *cu = NULL;
	unsigned long long n16 = t->n / 16;
	void *args[] = { &in, &n16, t->p ? &t->p->sink : NULL };
	CUresult r;

	switch (t->what) {
	case TIME_REDUCE: return kgen_reduce(t->k, in, t->n, t->out, 0, 0, NULL, err);
	case TIME_TRANSPOSE: return kgen_transpose(t->k, in, t->out, t->rows, t->cols, NULL, err);
	default: break;
	}
	kgen_cu_load(&cu, NULL);
	if (t->what == TIME_COPY)
		r = cu->cuMemcpyDtoDAsync(t->out, in, t->n, NULL);
	else
		r = cu->cuLaunchKernel(t->p->fn, (unsigned)t->blocks, 1, 1, 512, 1, 1, 0, NULL, args, NULL);
	return r ? kgen_cu_fail(cu, err, t->what == TIME_COPY ? "cuMemcpyDtoDAsync" : "cuLaunchKernel", r) : KGEN_OK;
}

kgen_status
kgen_median_ms(kgen_context *ctx, struct timed *t, int runs, float *ms, kgen_error *err)
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
		st = run_once(t, i, err);
	for (i = 0; i < runs && !st; i++) {
		CUresult r;
		cu->cuEventRecord(a, NULL);
		if ((st = run_once(t, i, err)))
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

/* CUB's median milliseconds for the spec's op and dtype at n, or -1. */
static double
cub_measure(const char *given, int runs, const struct kgen_spec *s, unsigned long long n, size_t l2)
{
	char path[PATH_MAX + 16], cmd[PATH_MAX + 128], line[512];
	const char *exe = find_cub(given, path, sizeof path);
	double ms = -1;
	FILE *fp;
	char *p;

	if (!exe)
		return -1;
	snprintf(cmd, sizeof cmd, "'%s' %s %s %llu %d %zu", exe, kgen_ops[s->op].name, kgen_spec_dtype(s)->name, n, runs,
	         l2);
	fflush(stdout);
	if (!(fp = popen(cmd, "r")))
		return -1;
	while (fgets(line, sizeof line, fp))
		if ((p = strstr(line, "median_ms=")))
			ms = strtod(p + 10, NULL);
	if (pclose(fp) != 0)
		ms = -1;
	return ms;
}

/* The same, each (op, dtype, n) measured once per run. */
double
kgen_cub_ms(const char *given, int runs, const struct kgen_spec *s, unsigned long long n, size_t l2)
{
	static struct { long long op, dtype; unsigned long long n; double ms; } seen[64];
	static int nseen;
	int i;

	for (i = 0; i < nseen; i++)
		if (seen[i].op == s->op && seen[i].dtype == s->dtype && seen[i].n == n)
			return seen[i].ms;
	if (nseen == 64)
		nseen = 0;
	seen[nseen].op = s->op;
	seen[nseen].dtype = s->dtype;
	seen[nseen].n = n;
	return seen[nseen++].ms = cub_measure(given, runs, s, n, l2);
}

