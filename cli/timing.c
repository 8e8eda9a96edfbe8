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
copy_once(void *arg, int i, kgen_error *err)
{
	struct copy_call *c = arg;

	KGEN_CU(c->cu, err, cuMemcpyDtoDAsync, (c->dst, c->src, c->bytes, NULL));
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
probe_once(void *arg, int i, kgen_error *err)
{
	struct probe_call *c = arg;
	void *args[] = { &c->in, &c->n16, &c->p->sink };

	KGEN_CU(c->cu, err, cuLaunchKernel, (c->p->fn, (unsigned)c->blocks, 1, 1, 512, 1, 1, 0, NULL, args, NULL));
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
		st = fn(arg, i, err);
	for (i = 0; i < runs && !st; i++) {
		CUresult r;
		cu->cuEventRecord(a, NULL);
		if ((st = fn(arg, i, err)))
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
double
kgen_cub_ms(const char *given, int runs, const struct kgen_spec *s, unsigned long long n, size_t l2, int *offsets)
{
	char args[160];

	snprintf(args, sizeof args, "%s %s %llu %d %zu", kgen_ops[s->op].name, kgen_spec_dtype(s)->name, n, runs, l2);
	return kgen_cub_call(given, args, offsets);
}
