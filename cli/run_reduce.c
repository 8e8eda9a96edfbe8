/*
 * run_reduce.c - `kgen run` for `kernel: reduce`: at each --n, seeded input,
 * the result poisoned, computed, compared with the CPU reference; with
 * --bench the median time (timed by --method, with its spread) against the
 * read-bandwidth probe and CUB timed the same way.
 */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "run.h"
#include "reference.h"
#include "timing.h"
#include "gen/op.h"

struct input {
	struct kgen_spec op;  /* the op-related fields the reference was made for */
	int dtype;
	unsigned long long n;
	void *host;
	CUdeviceptr base[64];
	int copies;
	struct reference ref;
};

static void
free_input(kgen_context *ctx, struct input *in)
{
	int c;

	for (c = 0; c < in->copies; c++)
		if (in->base[c])
			ctx->cu->cuMemFree(in->base[c]);
	free(in->host);
	memset(in, 0, sizeof *in);
}

/* Make the input for spec s at n (reusing the last one when it fits). */
static kgen_status
make_input(kgen_context *ctx, const struct run_opts *o, const struct kgen_spec *s, unsigned long long n, int copies,
           struct input *in, kgen_error *err)
{
	const struct kgen_cu *cu = ctx->cu;
	size_t esize = (size_t)kgen_spec_dtype(s)->size, bytes = (size_t)(n + (unsigned long long)o->offset) * esize;
	int c;

	if (in->host && in->dtype == s->dtype && in->op.op == s->op && in->n == n && in->copies >= copies) {
		if (!kgen_same_reference(&in->op, s)) {
			kgen_reference(s, (char *)in->host + (size_t)o->offset * esize, n, &in->ref);
			in->op = *s;
		}
		return KGEN_OK;
	}
	free_input(ctx, in);
	if (!(in->host = malloc(bytes ? bytes : 1)))
		return kgen_fail(err, KGEN_ENOMEM, "out of host memory for %zu bytes", bytes);
	if (kgen_fill_run(s, o, (char *)in->host + (size_t)o->offset * esize, n, o->seed ^ (n * 0x9e3779b97f4a7c15ull),
	                  err) != KGEN_OK) {
		free_input(ctx, in);
		return err->status;
	}
	memset(in->host, 0, (size_t)o->offset * esize);
	kgen_place_ends(s, o, (char *)in->host + (size_t)o->offset * esize, 0, n, 1);
	in->dtype = (int)s->dtype;
	in->op = *s;
	in->n = n;
	kgen_reference(s, (char *)in->host + (size_t)o->offset * esize, n, &in->ref);
	for (c = 0; c < copies; c++) {
		in->copies = c + 1;
		KGEN_CU(cu, err, cuMemAlloc, (&in->base[c], bytes ? bytes : 16));
		if (bytes)
			KGEN_CU(cu, err, cuMemcpyHtoD, (in->base[c], in->host, bytes));
	}
	return KGEN_OK;
}

/* One timed call: input copy i % copies. */
struct reduce_call {
	kgen_kernel *k;
	CUdeviceptr *in;
	int copies;
	unsigned long long n;
	CUdeviceptr out;
};

static kgen_status
reduce_once(void *arg, int i, CUstream stream, kgen_error *err)
{
	struct reduce_call *c = arg;

	if (kgen_op_is_pair(kgen_kernel_spec(c->k)))
		return kgen_reduce_arg(c->k, c->in[i % c->copies], c->n, c->out, c->out + 8, 0, 0, stream, err);
	return kgen_reduce(c->k, c->in[i % c->copies], c->n, c->out, 0, 0, stream, err);
}

static kgen_status
run(kgen_context *ctx, const struct run_opts *o, struct run_spec *specs, int nspecs, FILE *tsv, int *failures,
    kgen_error *err)
{
	struct input in;
	struct probe probe;
	kgen_status st = KGEN_OK;
	double ceiling_gbs = -1;     /* the read ceiling, measured on ceiling_bytes bytes */
	size_t ceiling_bytes = 0;
	int i, j, c;

	memset(&in, 0, sizeof in);
	memset(&probe, 0, sizeof probe);
	/* Sizes outside, specs inside: one input serves every spec of its dtype and op. */
	for (j = 0; j < o->nn && !st; j++) {
		for (i = 0; i < nspecs; i++) {
			kgen_spec *spec = specs[i].spec;
			kgen_kernel *k = specs[i].kernel;
			const char *path = specs[i].path;
			unsigned long long n = o->n[j];
			size_t esize = (size_t)kgen_spec_dtype(spec)->size, bytes = (size_t)n * esize;
			size_t asize = kgen_op_is_pair(spec) ? 16 : kgen_result_size(spec);  /* a pair: value, index at 8 */
			int copies = o->bench ? kgen_run_copies(ctx, o, bytes) : 1;
			unsigned char got[16];
			struct reduce_call one;
			char msg[1100] = "-";
			const char *verdict = "-";
			int untimed = 0;  /* rejected or failed: not timed */
			float ms = -1;
			double cub = -1, gbs = -1, spread = -1;
			struct kgen_timing tm;
			int cub_offsets = 0;
			CUdeviceptr out = 0, inptr;

			if ((st = make_input(ctx, o, spec, n, copies, &in, err)))
				break;
			if ((st = kgen_context_enter(ctx, err)))
				break;
			if (ctx->cu->cuMemAlloc(&out, 16)) {
				st = kgen_fail(err, KGEN_ECUDA, "cuMemAlloc() failed");
				break;
			}
			inptr = in.base[0] + (CUdeviceptr)((size_t)o->offset * esize);
			if (o->verify) {
				/* Poison the result, run, read back, compare. */
				ctx->cu->cuMemsetD8Async(out, 0xff, 16, NULL);
				one.k = k;
				one.in = &inptr;
				one.copies = 1;
				one.n = n;
				one.out = out;
				st = reduce_once(&one, 0, NULL, err);
				if (!st && ctx->cu->cuCtxSynchronize())
					st = kgen_fail(err, KGEN_ECUDA, "the kernel failed (cuCtxSynchronize)");
				if (!st && ctx->cu->cuMemcpyDtoH(got, out, asize))
					st = kgen_fail(err, KGEN_ECUDA, "cuMemcpyDtoH() failed");
				if (st == KGEN_EINVAL) {
					/* The spec cannot take this input (alignment, size): say so, go on. */
					snprintf(msg, sizeof msg, "%s", err->message);
					verdict = "rejected";
					untimed = 1;
					st = KGEN_OK;
				} else if (!st) {
					int ok = kgen_check_result(spec, got, n, &in.ref, msg, sizeof msg);
					verdict = ok ? "ok" : "FAIL";
					untimed = !ok;
					*failures += !ok;
				}
			}
			if (!st && o->bench && !untimed) {
				CUdeviceptr shifted[64];
				struct reduce_call call = { k, shifted, in.copies, n, out };
				for (c = 0; c < in.copies; c++)
					shifted[c] = in.base[c] + (CUdeviceptr)((size_t)o->offset * esize);
				if ((st = kgen_gpu_warm_once(ctx, err)) ||
				    (st = kgen_time_calls(ctx, (enum kgen_timing_method)o->method, reduce_once, &call, o->runs, &tm,
				                          err)))
					break;
				ms = tm.median_ms;
				spread = tm.median_ms > 0 ? (tm.max_ms - tm.min_ms) / tm.median_ms : 0;
				gbs = (double)bytes / (ms * 1e-3) / 1e9;
				if (bytes >= (64u << 20) && ceiling_bytes != bytes) {
					float pms;
					if ((st = kgen_probe_ms(ctx, &probe, in.base[0], bytes, o->runs, &pms, err)))
						break;
					ceiling_gbs = (double)(bytes / 16 * 16) / (pms * 1e-3) / 1e9;
					ceiling_bytes = bytes;
					printf("# read-bandwidth ceiling (16-byte loads, %zu MB): %.0f GB/s\n", bytes >> 20, ceiling_gbs);
				}
				if (spec->op <= KGEN_OP_PROD)  /* CUB's Sum, Min, Max and Reduce of a product */
					cub = kgen_cub_ms(o->cub, (enum kgen_timing_method)o->method, o->runs, spec, n, ctx->l2_bytes,
					                  &cub_offsets);
			}
			ctx->cu->cuMemFree(out);
			printf("%-48s n=%-11llu %-8s", path, n, verdict);
			if (ms >= 0) {
				printf(" %10.2f us", ms * 1e3);
				if (o->method != KGEN_TIME_PER_CALL) {  /* per-call's lines stay as they were */
					char pct[32];
					snprintf(pct, sizeof pct, "%.1f%%", 100 * spread);
					printf(" ±%-6s", pct);
				}
				printf(" %8.1f GB/s", gbs);
				if (ceiling_gbs > 0 && ceiling_bytes == bytes)
					printf(" %5.1f%%", 100 * gbs / ceiling_gbs);
				if (cub > 0)
					printf("  CUB/%d %10.2f us  kgen/CUB %.3f", cub_offsets, cub * 1e3, cub / ms);
			}
			printf("  %s\n", msg);
			if (tsv)
				fprintf(tsv, "%s\t%s\t%s\t%llu\t%s\t%.3f\t%.1f\t%.1f\t%.1f\t%.3f\t%.1f\t%.3f\t%d\t%s\t%.4f\n", path,
				        kgen_spec_dtype(spec)->name, kgen_ops[spec->op].name, n, verdict, ms * 1e3, gbs,
				        ceiling_bytes == bytes ? ceiling_gbs : -1,
				        ceiling_bytes == bytes && gbs > 0 ? 100 * gbs / ceiling_gbs : -1, cub * 1e3,
				        cub > 0 ? (double)bytes / (cub * 1e-3) / 1e9 : -1, cub > 0 && ms > 0 ? cub / ms : -1, cub_offsets,
				        kgen_timing_method_name((enum kgen_timing_method)o->method), spread);
			fflush(stdout);
		}
	}
	free_input(ctx, &in);
	if (probe.module) {
		ctx->cu->cuMemFree(probe.sink);
		ctx->cu->cuModuleUnload(probe.module);
	}
	return st;
}

/* Every --n fits the host's memory with the offset. */
static kgen_status
check(const struct run_opts *o, const kgen_spec *spec, kgen_error *err)
{
	unsigned long long size = (unsigned long long)kgen_spec_dtype(spec)->size;
	int j;

	for (j = 0; j < o->nn; j++)
		if (o->n[j] > ~0ull - (unsigned long long)o->offset ||
		    kgen_run_too_large(o->n[j] + (unsigned long long)o->offset, 1, size))
			return kgen_fail(err, KGEN_EINVAL, "--n %llu: %llu elements of %s do not fit in memory", o->n[j],
			                 o->n[j], kgen_spec_dtype(spec)->name);
	return KGEN_OK;
}

const struct kgen_runner kgen_runner_reduce = { .check = check, .run = run };
