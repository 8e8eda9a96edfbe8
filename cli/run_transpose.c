/*
 * run_transpose.c - `kgen run` for `kernel: transpose`: at each --shape,
 * random bits in, the output poisoned, every element compared; with
 * --bench the median time against a device-to-device copy of the same bytes.
 */
#include "config.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "run.h"
#include "reference.h"
#include "timing.h"

/* One transpose input: random bits, on the host and the device, and an output buffer. */
struct tinput {
	int esize;
	unsigned long long rows, cols;
	unsigned char *host, *back;
	CUdeviceptr in, out;
};

static void
free_tinput(kgen_context *ctx, struct tinput *t)
{
	if (t->in)
		ctx->cu->cuMemFree(t->in);
	if (t->out)
		ctx->cu->cuMemFree(t->out);
	free(t->host);
	free(t->back);
	memset(t, 0, sizeof *t);
}

static kgen_status
make_tinput(kgen_context *ctx, const struct run_opts *o, int esize, unsigned long long rows, unsigned long long cols,
            struct tinput *t, kgen_error *err)
{
	const struct kgen_cu *cu = ctx->cu;
	size_t bytes = (size_t)(rows * cols) * (size_t)esize, i;
	uint64_t st = o->seed ^ (rows * 0x9e3779b97f4a7c15ull) ^ cols;

	if (t->host && t->esize == esize && t->rows == rows && t->cols == cols)
		return KGEN_OK;
	free_tinput(ctx, t);
	if (!(t->host = malloc(bytes + 8)) || !(t->back = malloc(bytes + 8)))
		return kgen_fail(err, KGEN_ENOMEM, "out of host memory for two %zu-byte matrices", bytes);
	for (i = 0; i < bytes; i += 8) {
		uint64_t r = kgen_splitmix64(&st);
		memcpy(t->host + i, &r, 8);
	}
	t->esize = esize;
	t->rows = rows;
	t->cols = cols;
	KGEN_CU(cu, err, cuMemAlloc, (&t->in, bytes));
	KGEN_CU(cu, err, cuMemAlloc, (&t->out, bytes));
	KGEN_CU(cu, err, cuMemcpyHtoD, (t->in, t->host, bytes));
	return KGEN_OK;
}

/* Count the elements of `back` (cols x rows) that are not the transpose of
 * `host` (rows x cols), comparing every element's bytes; the first bad one
 * goes into msg.  Blocked, so that both matrices are read from cache. */
static unsigned long long
transpose_errors(const struct tinput *t, char *msg, size_t len)
{
	unsigned long long r0, c0, r, c, bad = 0, rows = t->rows, cols = t->cols;

	/* Elements compared as integers of their size: every bit counts. */
#define SAME(type) (((const type *)t->host)[r * cols + c] == ((const type *)t->back)[c * rows + r])
	for (r0 = 0; r0 < rows; r0 += 64)
		for (c0 = 0; c0 < cols; c0 += 64)
			for (r = r0; r < r0 + 64 && r < rows; r++)
				for (c = c0; c < c0 + 64 && c < cols; c++)
					if (!(t->esize == 2 ? SAME(uint16_t) : t->esize == 4 ? SAME(uint32_t) : SAME(uint64_t)) &&
					    !bad++)
						snprintf(msg, len, "out[%llu][%llu] is not in[%llu][%llu]", c, r, r, c);
#undef SAME
	return bad;
}

/* One timed call. */
struct transpose_call {
	kgen_kernel *k;
	CUdeviceptr in, out;
	unsigned long long rows, cols;
};

static kgen_status
transpose_once(void *arg, int i, kgen_error *err)
{
	struct transpose_call *c = arg;

	return kgen_transpose(c->k, c->in, c->out, c->rows, c->cols, NULL, err);
}

static kgen_status
run(kgen_context *ctx, const struct run_opts *o, struct run_spec *specs, int nspecs, FILE *tsv, int *failures,
    kgen_error *err)
{
	const struct kgen_cu *cu = ctx->cu;
	struct tinput t;
	kgen_status st = KGEN_OK;
	int i, j;

	memset(&t, 0, sizeof t);
	for (j = 0; j < o->nshape && !st; j++) {
		unsigned long long rows = o->shape[j][0], cols = o->shape[j][1];
		double copy_ms = -1;
		size_t copy_bytes = 0;  /* what copy_ms copied: specs of other dtypes need their own */

		for (i = 0; i < nspecs && !st; i++) {
			kgen_spec *spec = specs[i].spec;
			int esize = kgen_spec_dtype(spec)->size;
			size_t bytes = (size_t)(rows * cols) * (size_t)esize;
			char msg[1100] = "-";
			const char *verdict = "-";
			float ms = -1;

			if ((st = make_tinput(ctx, o, esize, rows, cols, &t, err)) || (st = kgen_context_enter(ctx, err)))
				break;
			if (o->verify) {
				cu->cuMemsetD8Async(t.out, 0xff, bytes, NULL);
				st = kgen_transpose(specs[i].kernel, t.in, t.out, rows, cols, NULL, err);
				if (!st && cu->cuCtxSynchronize())
					st = kgen_fail(err, KGEN_ECUDA, "the kernel failed (cuCtxSynchronize)");
				if (!st && cu->cuMemcpyDtoH(t.back, t.out, bytes))
					st = kgen_fail(err, KGEN_ECUDA, "cuMemcpyDtoH() failed");
				if (st == KGEN_EINVAL) {
					snprintf(msg, sizeof msg, "%s", err->message);
					verdict = "rejected";
					st = KGEN_OK;
				} else if (!st) {
					unsigned long long bad = transpose_errors(&t, msg, sizeof msg);
					verdict = bad ? "FAIL" : "ok";
					if (bad) {
						size_t l = strlen(msg);
						snprintf(msg + l, sizeof msg - l, "; %llu of %llu elements wrong", bad, rows * cols);
						(*failures)++;
					} else {
						snprintf(msg, sizeof msg, "all %llu elements checked", rows * cols);
					}
				}
			}
			if (!st && o->bench && strcmp(verdict, "rejected") && strcmp(verdict, "FAIL")) {
				struct transpose_call call = { specs[i].kernel, t.in, t.out, rows, cols };
				if ((st = kgen_median_ms(ctx, transpose_once, &call, o->runs, &ms, err)))
					break;
				if (copy_bytes != bytes) {
					float cms;
					if ((st = kgen_copy_ms(ctx, t.out, t.in, bytes, o->runs, &cms, err)))
						break;
					copy_ms = cms;
					copy_bytes = bytes;
					printf("# device-to-device copy of %zu MB: %.2f us, %.1f GB/s (read + write)\n", bytes >> 20,
					       cms * 1e3, 2.0 * (double)bytes / (cms * 1e-3) / 1e9);
				}
			}
			printf("%-48s %llux%llu  %-8s", specs[i].path, rows, cols, verdict);
			if (ms >= 0)
				printf(" %10.2f us %8.1f GB/s  copy %8.1f GB/s  kgen/copy %.3f", ms * 1e3,
				       2.0 * (double)bytes / (ms * 1e-3) / 1e9, 2.0 * (double)bytes / (copy_ms * 1e-3) / 1e9,
				       copy_ms / ms);
			printf("  %s\n", msg);
			if (tsv)
				fprintf(tsv, "%s\t%s\ttranspose\t%llux%llu\t%s\t%.3f\t%.1f\t-1\t-1\t%.3f\t%.1f\t%.3f\t0\n", specs[i].path,
				        kgen_spec_dtype(spec)->name, rows, cols, verdict, ms * 1e3,
				        ms > 0 ? 2.0 * (double)bytes / (ms * 1e-3) / 1e9 : -1, copy_ms * 1e3,
				        copy_ms > 0 ? 2.0 * (double)bytes / (copy_ms * 1e-3) / 1e9 : -1,
				        copy_ms > 0 && ms > 0 ? copy_ms / ms : -1);
			fflush(stdout);
		}
	}
	free_tinput(ctx, &t);
	return st;
}


/* Every --shape fits the host's memory. */
static kgen_status
check(const struct run_opts *o, const kgen_spec *spec, kgen_error *err)
{
	int j;

	for (j = 0; j < o->nshape; j++)
		if (kgen_run_too_large(o->shape[j][0], o->shape[j][1], (unsigned long long)kgen_spec_dtype(spec)->size))
			return kgen_fail(err, KGEN_EINVAL, "--shape %llux%llu: the matrix of %s does not fit in memory",
			                 o->shape[j][0], o->shape[j][1], kgen_spec_dtype(spec)->name);
	return KGEN_OK;
}

const struct kgen_runner kgen_runner_transpose = { .check = check, .run = run };
