/*
 * run_transpose.c - `kgen run` for `kernel: transpose`: at each --shape
 * (ROWSxCOLS, or BATCHxROWSxCOLS for a batch in one launch; rows of both
 * matrices --pad elements longer), random bits in, the output and its
 * padding poisoned, every element and the padding compared; with
 * --bench the median time against a device-to-device copy of the same bytes.
 */
#include "config.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "run.h"
#include "reference.h"
#include "timing.h"

/* One transpose input: `batch` matrices of random bits (rows --pad elements
 * longer than cols), on the host and the device, and an output buffer
 * (its rows --pad elements longer than the matrix's rows). */
struct tinput {
	int esize;
	unsigned long long rows, cols, batch, in_pitch, out_pitch;
	size_t in_bytes, out_bytes;
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
make_tinput(kgen_context *ctx, const struct run_opts *o, int esize, const unsigned long long shape[3],
            struct tinput *t, kgen_error *err)
{
	const struct kgen_cu *cu = ctx->cu;
	unsigned long long rows = shape[0], cols = shape[1], batch = shape[2], pad = (unsigned long long)o->pad;
	size_t in_bytes = (size_t)(batch * rows * (cols + pad)) * (size_t)esize, i;
	size_t out_bytes = (size_t)(batch * cols * (rows + pad)) * (size_t)esize;
	uint64_t st = o->seed ^ (rows * 0x9e3779b97f4a7c15ull) ^ cols ^ (batch << 40);

	if (t->host && t->esize == esize && t->rows == rows && t->cols == cols && t->batch == batch)
		return KGEN_OK;
	free_tinput(ctx, t);
	if (!(t->host = malloc(in_bytes + 8)) || !(t->back = malloc(out_bytes + 8)))
		return kgen_fail(err, KGEN_ENOMEM, "out of host memory for %zu + %zu bytes of matrices", in_bytes, out_bytes);
	for (i = 0; i < in_bytes; i += 8) {
		uint64_t r = kgen_splitmix64(&st);
		memcpy(t->host + i, &r, 8);
	}
	t->esize = esize;
	t->rows = rows;
	t->cols = cols;
	t->batch = batch;
	t->in_pitch = cols + pad;
	t->out_pitch = rows + pad;
	t->in_bytes = in_bytes;
	t->out_bytes = out_bytes;
	KGEN_CU(cu, err, cuMemAlloc, (&t->in, in_bytes));
	KGEN_CU(cu, err, cuMemAlloc, (&t->out, out_bytes));
	KGEN_CU(cu, err, cuMemcpyHtoD, (t->in, t->host, in_bytes));
	return KGEN_OK;
}

/* Count the elements of `back` (batch matrices of cols x rows) that are not
 * the transpose of `host` (rows x cols each), comparing every element's
 * bytes, and the padding of `back` that is no longer the 0xff poison; the
 * first bad one goes into msg.  Blocked, so that both are read from cache. */
static unsigned long long
transpose_errors(const struct tinput *t, char *msg, size_t len)
{
	unsigned long long b, r0, c0, r, c, bad = 0, rows = t->rows, cols = t->cols, ip = t->in_pitch, op = t->out_pitch;
	const unsigned char *in, *out;
	size_t e = (size_t)t->esize;

	for (b = 0; b < t->batch; b++) {
		in = t->host + (size_t)(b * rows * ip) * e;
		out = t->back + (size_t)(b * cols * op) * e;
		for (r0 = 0; r0 < rows; r0 += 64)
			for (c0 = 0; c0 < cols; c0 += 64)
				for (r = r0; r < r0 + 64 && r < rows; r++)
					for (c = c0; c < c0 + 64 && c < cols; c++)
						if (memcmp(in + (size_t)(r * ip + c) * e, out + (size_t)(c * op + r) * e, e) && !bad++)
							snprintf(msg, len, "out[%llu][%llu][%llu] is not in[%llu][%llu][%llu]", b, c, r, b, r,
							         c);
		for (c = 0; c < cols; c++)
			for (r = rows * e; r < op * e; r++)
				if (out[c * op * e + r] != 0xff && !bad++)
					snprintf(msg, len, "the padding of out[%llu][%llu] was written", b, c);
	}
	return bad;
}

/* One call on stream: the batch, pitched by --pad. */
static kgen_status
transpose_call(kgen_kernel *k, const struct tinput *t, CUstream stream, kgen_error *err)
{
	kgen_transpose_layout l = { t->batch, t->in_pitch, t->out_pitch, 0, 0 };

	return kgen_transpose_batched(k, t->in, t->out, t->rows, t->cols, &l, stream, err);
}

struct timed_call {
	kgen_kernel *k;
	const struct tinput *t;
};

static kgen_status
transpose_once(void *arg, int i, CUstream stream, kgen_error *err)
{
	struct timed_call *c = arg;

	(void)i;  /* one input, not rotated */
	return transpose_call(c->k, c->t, stream, err);
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
	for (j = 0; j < o->nshape && !st && !kgen_run_stopped(); j++) {
		unsigned long long rows = o->shape[j][0], cols = o->shape[j][1], batch = o->shape[j][2];
		char shape[80];
		double copy_ms = -1;
		size_t copy_bytes = 0;  /* what copy_ms copied: specs of other dtypes need their own */

		for (i = 0; i < nspecs && !st && !kgen_run_stopped(); i++) {
			kgen_spec *spec = specs[i].spec;
			int esize = spec->r.dtype->size;
			size_t bytes = (size_t)(batch * rows * cols) * (size_t)esize;  /* moved: read once, written once */
			char msg[1100] = "-";
			const char *verdict = "-";
			float ms = -1;

			if ((st = make_tinput(ctx, o, esize, o->shape[j], &t, err)) || (st = kgen_context_enter(ctx, err)))
				break;
			if (o->verify) {
				cu->cuMemsetD8Async(t.out, 0xff, t.out_bytes, NULL);
				st = transpose_call(specs[i].kernel, &t, NULL, err);
				if (!st && cu->cuCtxSynchronize())
					st = kgen_fail(err, KGEN_ECUDA, "the kernel failed (cuCtxSynchronize)");
				if (!st && cu->cuMemcpyDtoH(t.back, t.out, t.out_bytes))
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
						snprintf(msg + l, sizeof msg - l, "; %llu of %llu elements wrong", bad, batch * rows * cols);
						(*failures)++;
					} else {
						snprintf(msg, sizeof msg, "all %llu elements checked%s", batch * rows * cols,
						         o->pad ? " and the padding" : "");
					}
				}
			}
			if (!st && o->bench && strcmp(verdict, "rejected") && strcmp(verdict, "FAIL")) {
				struct timed_call call = { specs[i].kernel, &t };
				if ((st = kgen_gpu_warm_once(ctx, err)) ||
				    (st = kgen_median_ms(ctx, transpose_once, &call, o->runs, &ms, err)))
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
			if (batch > 1)
				snprintf(shape, sizeof shape, "%llux%llux%llu", batch, rows, cols);
			else
				snprintf(shape, sizeof shape, "%llux%llu", rows, cols);
			printf("%-48s %-12s %-8s", specs[i].path, shape, verdict);
			if (ms >= 0)
				printf(" %10.2f us %8.1f GB/s  copy %8.1f GB/s  kgen/copy %.3f", ms * 1e3,
				       2.0 * (double)bytes / (ms * 1e-3) / 1e9, 2.0 * (double)bytes / (copy_ms * 1e-3) / 1e9,
				       copy_ms / ms);
			printf("  %s\n", msg);
			if (tsv) {
				kgen_tsv_text(tsv, specs[i].path);
				fprintf(tsv, "\t%s\ttranspose\t%s\t%s\t%.3f\t%.1f\t-1\t-1\t%.3f\t%.1f\t%.3f\t0\t%s\t-1\n",
				        spec->r.dtype->name, shape, verdict, ms * 1e3,
				        ms > 0 ? 2.0 * (double)bytes / (ms * 1e-3) / 1e9 : -1, copy_ms * 1e3,
				        copy_ms > 0 ? 2.0 * (double)bytes / (copy_ms * 1e-3) / 1e9 : -1,
				        copy_ms > 0 && ms > 0 ? copy_ms / ms : -1,
				        kgen_timing_method_name(KGEN_TIME_PER_CALL));
			}
			fflush(stdout);
		}
	}
	free_tinput(ctx, &t);
	return st;
}


/* Every --shape, a batch of matrices with rows padded by --pad, fits the host's memory. */
static kgen_status
check(const struct run_opts *o, const kgen_spec *spec, kgen_error *err)
{
	unsigned long long size = (unsigned long long)spec->r.dtype->size, pad = (unsigned long long)o->pad;
	int j;

	for (j = 0; j < o->nshape; j++) {
		const unsigned long long *sh = o->shape[j];
		if (sh[0] > ~0ull - pad || sh[1] > ~0ull - pad || kgen_run_too_large(sh[2], sh[0], size) ||
		    kgen_run_too_large(sh[2] * sh[0], sh[1] + pad, size) || kgen_run_too_large(sh[2] * sh[1], sh[0] + pad, size))
			return kgen_fail(err, KGEN_EINVAL, "--shape %llux%llux%llu: the matrices of %s do not fit in memory",
			                 sh[2], sh[0], sh[1], spec->r.dtype->name);
	}
	return KGEN_OK;
}

const struct kgen_runner kgen_runner_transpose = { .check = check, .run = run };
