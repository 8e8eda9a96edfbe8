/*
 * run_scale.c - `kgen run` for the toy family `kernel: scale` (a real
 * family's cli/run_STEM.c): kgen_runner_scale, the row of cli/run.c's
 * runner table that tests/toy/rows.h's KGEN_FAMILIES row asks for.  At
 * each --n: seeded values of the spec's dtype in, the output poisoned,
 * one kgen_scale() call, every element compared with in[i] * factor
 * computed on the host in the element type; with --bench the median time
 * of a call (kgen_median_ms).  Built into tests/toy/kgen only.
 */
#include "config.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/run.h"
#include "cli/reference.h"
#include "cli/timing.h"
#include "kgen_scale.h"

/* n elements of one dtype: seeded on the host, copied to the device, and
 * room for the result there and back on the host. */
struct sinput {
	unsigned long long n;
	int dtype;
	size_t bytes;
	unsigned char *host, *back;
	CUdeviceptr in, out;
};

static void
free_sinput(kgen_context *ctx, struct sinput *t)
{
	if (t->in)
		ctx->cu->cuMemFree(t->in);
	if (t->out)
		ctx->cu->cuMemFree(t->out);
	free(t->host);
	free(t->back);
	memset(t, 0, sizeof *t);
}

/* Element i of the seeded input: integers from -1000 to 1000 (0 to 2000
 * unsigned), so that no product overflows; floats in [-1, 1). */
static void
draw(int dtype, unsigned char *host, size_t i, uint64_t *st)
{
	uint64_t r = kgen_splitmix64(st);
	double u = (double)(r >> 11) * 0x1p-52 - 1.0;
	int32_t i32 = (int32_t)(r % 2001) - 1000;
	uint32_t u32 = (uint32_t)(r % 2001);
	int64_t i64 = i32;
	float f32 = (float)u;

	switch (dtype) {
	case KGEN_DT_I32: memcpy(host + i * 4, &i32, 4); break;
	case KGEN_DT_U32: memcpy(host + i * 4, &u32, 4); break;
	case KGEN_DT_I64: memcpy(host + i * 8, &i64, 8); break;
	case KGEN_DT_F32: memcpy(host + i * 4, &f32, 4); break;
	default: memcpy(host + i * 8, &u, 8); break;  /* f64: the rule leaves no other */
	}
}

static kgen_status
make_sinput(kgen_context *ctx, const struct run_opts *o, const kgen_spec *spec, unsigned long long n, struct sinput *t,
            kgen_error *err)
{
	const struct kgen_cu *cu = ctx->cu;
	size_t bytes = (size_t)n * (size_t)spec->r.dtype->size, i;
	uint64_t st = o->seed ^ (n * 0x9e3779b97f4a7c15ull);

	if (t->host && t->n == n && t->dtype == (int)spec->dtype)
		return KGEN_OK;
	free_sinput(ctx, t);
	if (!(t->host = malloc(bytes + 8)) || !(t->back = malloc(bytes + 8)))
		return kgen_fail(err, KGEN_ENOMEM, "out of host memory for 2 x %zu bytes", bytes);
	for (i = 0; i < n; i++)
		draw((int)spec->dtype, t->host, i, &st);
	t->n = n;
	t->dtype = (int)spec->dtype;
	t->bytes = bytes;
	KGEN_CU(cu, err, cuMemAlloc, (&t->in, bytes + 8));
	KGEN_CU(cu, err, cuMemAlloc, (&t->out, bytes + 8));
	KGEN_CU(cu, err, cuMemcpyHtoD, (t->in, t->host, bytes));
	return KGEN_OK;
}

/* Element i of in times factor in the element type, as the kernel
 * computes it, into want (8 bytes); its text into text. */
static void
expect(const kgen_spec *s, const unsigned char *in, size_t i, unsigned char *want, char *text, size_t len)
{
	int32_t i32;
	uint32_t u32;
	int64_t i64;
	float f32;
	double f64;

	switch (s->dtype) {
	case KGEN_DT_I32: memcpy(&i32, in + i * 4, 4); i32 = (int32_t)(i32 * (int32_t)s->factor); memcpy(want, &i32, 4);
		snprintf(text, len, "%d", (int)i32); break;
	case KGEN_DT_U32: memcpy(&u32, in + i * 4, 4); u32 *= (uint32_t)s->factor; memcpy(want, &u32, 4);
		snprintf(text, len, "%u", (unsigned)u32); break;
	case KGEN_DT_I64: memcpy(&i64, in + i * 8, 8); i64 *= s->factor; memcpy(want, &i64, 8);
		snprintf(text, len, "%lld", (long long)i64); break;
	case KGEN_DT_F32: memcpy(&f32, in + i * 4, 4); f32 *= (float)s->factor; memcpy(want, &f32, 4);
		snprintf(text, len, "%.9g", (double)f32); break;
	default: memcpy(&f64, in + i * 8, 8); f64 *= (double)s->factor; memcpy(want, &f64, 8);
		snprintf(text, len, "%.17g", f64); break;
	}
}

/* The elements of t->back that are not in * factor, bit for bit; the
 * first into msg. */
static unsigned long long
scale_errors(const kgen_spec *s, const struct sinput *t, char *msg, size_t len)
{
	size_t e = (size_t)s->r.dtype->size, i;
	unsigned long long bad = 0;
	unsigned char want[8];
	char text[64];

	for (i = 0; i < t->n; i++) {
		expect(s, t->host, i, want, text, sizeof text);
		if (memcmp(want, t->back + i * e, e) && !bad++) {
			unsigned long long got = 0;
			memcpy(&got, t->back + i * e, e);
			snprintf(msg, len, "out[%zu] = 0x%0*llx, expected %s (in[%zu] * %lld)", i, (int)(2 * e), got, text, i,
			         s->factor);
		}
	}
	return bad;
}

struct timed_call {
	kgen_kernel *k;
	const struct sinput *t;
};

static kgen_status
scale_once(void *arg, int i, CUstream stream, kgen_error *err)
{
	struct timed_call *c = arg;

	(void)i;  /* one input, not rotated */
	return kgen_scale(c->k, c->t->in, c->t->out, c->t->n, stream, err);
}

/* Verify one spec at t's n: the verdict and what it found into msg. */
static kgen_status
verify(kgen_context *ctx, const kgen_spec *spec, kgen_kernel *k, const struct sinput *t, const char **verdict,
       char *msg, size_t len, int *failures, kgen_error *err)
{
	const struct kgen_cu *cu = ctx->cu;
	unsigned long long bad;
	kgen_status st;

	KGEN_CU(cu, err, cuMemsetD8Async, (t->out, 0xff, t->bytes, NULL));
	if ((st = kgen_scale(k, t->in, t->out, t->n, NULL, err)) == KGEN_EINVAL) {
		snprintf(msg, len, "%s", err->message);
		*verdict = "rejected";
		return KGEN_OK;
	}
	if (st)
		return st;
	if (cu->cuCtxSynchronize())
		return kgen_fail(err, KGEN_ECUDA, "the kernel failed (cuCtxSynchronize)");
	KGEN_CU(cu, err, cuMemcpyDtoH, (t->back, t->out, t->bytes));
	if ((bad = scale_errors(spec, t, msg, len))) {
		size_t l = strlen(msg);
		snprintf(msg + l, len - l, "; %llu of %llu elements wrong", bad, t->n);
		*verdict = "FAIL";
		(*failures)++;
	} else {
		snprintf(msg, len, "all %llu elements checked", t->n);
		*verdict = "ok";
	}
	return KGEN_OK;
}

static kgen_status
run(kgen_context *ctx, const struct run_opts *o, struct run_spec *specs, int nspecs, FILE *tsv, int *failures,
    kgen_error *err)
{
	struct sinput t;
	kgen_status st = KGEN_OK;
	int i, j;

	memset(&t, 0, sizeof t);
	for (j = 0; j < o->nn && !st; j++) {
		for (i = 0; i < nspecs && !st; i++) {
			kgen_spec *spec = specs[i].spec;
			struct timed_call call = { specs[i].kernel, &t };
			const char *verdict = "-";
			char msg[1100] = "-";
			double bytes = 2.0 * (double)o->n[j] * spec->r.dtype->size;  /* read once, written once */
			float ms = -1;

			if ((st = make_sinput(ctx, o, spec, o->n[j], &t, err)) || (st = kgen_context_enter(ctx, err)))
				break;
			if (o->verify && (st = verify(ctx, spec, specs[i].kernel, &t, &verdict, msg, sizeof msg, failures, err)))
				break;
			if (o->bench && strcmp(verdict, "rejected") && strcmp(verdict, "FAIL") &&
			    ((st = kgen_gpu_warm_once(ctx, err)) || (st = kgen_median_ms(ctx, scale_once, &call, o->runs, &ms, err))))
				break;
			printf("%-48s n=%-10llu %-8s", specs[i].path, o->n[j], verdict);
			if (ms >= 0)
				printf(" %10.2f us %8.1f GB/s", ms * 1e3, bytes / (ms * 1e-3) / 1e9);
			printf("  %s\n", msg);
			if (tsv) {  /* the path as a cell (kgen_tsv_text), so that any name stays in its row */
				kgen_tsv_text(tsv, specs[i].path);
				fprintf(tsv, "\t%s\tscale\t%llu\t%s\t%.3f\t%.1f\t-1\t-1\t-1\t-1\t-1\t0\tper-call\t-1\n",
				        spec->r.dtype->name, o->n[j], verdict, ms * 1e3, ms > 0 ? bytes / (ms * 1e-3) / 1e9 : -1);
			}
			fflush(stdout);
		}
	}
	free_sinput(ctx, &t);
	return st;
}

/* Every --n, the input and the output, fits the host's memory. */
static kgen_status
check(const struct run_opts *o, const kgen_spec *spec, kgen_error *err)
{
	int j;

	for (j = 0; j < o->nn; j++)
		if (kgen_run_too_large(o->n[j], 2, (unsigned long long)spec->r.dtype->size))
			return kgen_fail(err, KGEN_EINVAL, "--n %llu: two arrays of %s do not fit in memory", o->n[j],
			                 spec->r.dtype->name);
	return KGEN_OK;
}

const struct kgen_runner kgen_runner_scale = { .check = check, .run = run };
