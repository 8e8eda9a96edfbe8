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
#include "cli.h"
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
	size_t esize = (size_t)s->r.dtype->size, bytes = (size_t)(n + (unsigned long long)o->offset) * esize;
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

	if (kgen_kernel_spec(c->k)->r.pair)
		return kgen_reduce_arg(c->k, c->in[i % c->copies], c->n, c->out, c->out + 8, 0, 0, stream, err);
	return kgen_reduce(c->k, c->in[i % c->copies], c->n, c->out, 0, 0, stream, err);
}

/* What one spec measured at one n, for its line and its TSV row. */
struct result {
	const char *verdict;  /* ok, FAIL, rejected, or - (not verified) */
	char msg[1100];       /* why, or "-" */
	int untimed;          /* rejected or failed: not timed */
	float ms;             /* the median time; -1: not timed */
	double spread, gbs, cub;
	int cub_offsets;
};

/* The read-bandwidth ceiling, measured on `bytes` bytes (gbs -1: not yet). */
struct ceiling {
	double gbs;
	size_t bytes;
};

/* Poison the result, make the call, read the result back and compare it
 * with the reference: *ok, and in msg what is wrong.  KGEN_EINVAL: the
 * spec cannot take this input (alignment, size), in err. */
static kgen_status
check_once(kgen_context *ctx, const kgen_spec *spec, struct reduce_call *one, const struct reference *ref, int *ok,
           char *msg, size_t len, kgen_error *err)
{
	size_t asize = spec->r.pair ? 16 : kgen_result_size(spec);  /* a pair: value, index at 8 */
	unsigned char got[16];
	kgen_status st;

	ctx->cu->cuMemsetD8Async(one->out, 0xff, 16, NULL);
	st = reduce_once(one, 0, NULL, err);
	if (!st && ctx->cu->cuCtxSynchronize())
		st = kgen_fail(err, KGEN_ECUDA, "the kernel failed (cuCtxSynchronize)");
	if (!st && ctx->cu->cuMemcpyDtoH(got, one->out, asize))
		st = kgen_fail(err, KGEN_ECUDA, "cuMemcpyDtoH() failed");
	if (!st)
		*ok = kgen_check_result(spec, got, one->n, ref, msg, len);
	return st;
}

/* check_once into r.  An input the spec cannot take is no error: r says
 * "rejected".  A wrong result counts in *failures. */
static kgen_status
verify(kgen_context *ctx, const kgen_spec *spec, struct reduce_call *one, const struct reference *ref,
       struct result *r, int *failures, kgen_error *err)
{
	int ok = 0;
	kgen_status st = check_once(ctx, spec, one, ref, &ok, r->msg, sizeof r->msg, err);

	if (st == KGEN_EINVAL) {
		/* The spec cannot take this input (alignment, size): say so, go on. */
		snprintf(r->msg, sizeof r->msg, "%s", err->message);
		r->verdict = "rejected";
		r->untimed = 1;
		st = KGEN_OK;
	} else if (!st) {
		r->verdict = ok ? "ok" : "FAIL";
		r->untimed = !ok;
		*failures += !ok;
	}
	return st;
}

/* The result's line on standard output, and its row of the TSV; the
 * ceiling counts where it was measured on these bytes. */
static void
print_result(const struct run_opts *o, FILE *tsv, const struct run_spec *rs, unsigned long long n, size_t bytes,
             const struct ceiling *c, const struct result *r)
{
	const kgen_spec *spec = rs->spec;
	double gbs = r->gbs, cub = r->cub;
	float ms = r->ms;

	printf("%-48s n=%-11llu %-8s", rs->path, n, r->verdict);
	if (ms >= 0) {
		printf(" %10.2f us", ms * 1e3);
		if (o->method != KGEN_TIME_PER_CALL) {  /* per-call's lines stay as they were */
			char pct[32];
			snprintf(pct, sizeof pct, "%.1f%%", 100 * r->spread);
			printf(" ±%-6s", pct);
		}
		printf(" %8.1f GB/s", gbs);
		if (c->gbs > 0 && c->bytes == bytes)
			printf(" %5.1f%%", 100 * gbs / c->gbs);
		if (cub > 0)
			printf("  CUB/%d %10.2f us  kgen/CUB %.3f", r->cub_offsets, cub * 1e3, cub / ms);
	}
	printf("  %s\n", r->msg);
	if (tsv) {
		kgen_tsv_text(tsv, rs->path);
		fprintf(tsv, "\t%s\t%s\t%llu\t%s\t%.3f\t%.1f\t%.1f\t%.1f\t%.3f\t%.1f\t%.3f\t%d\t%s\t%.4f\n",
		        spec->r.dtype->name, kgen_ops[spec->op].name, n, r->verdict, ms * 1e3, gbs,
		        c->bytes == bytes ? c->gbs : -1, c->bytes == bytes && gbs > 0 ? 100 * gbs / c->gbs : -1, cub * 1e3,
		        cub > 0 ? (double)bytes / (cub * 1e-3) / 1e9 : -1, cub > 0 && ms > 0 ? cub / ms : -1, r->cub_offsets,
		        kgen_timing_method_name((enum kgen_timing_method)o->method), r->spread);
	}
	fflush(stdout);
}

static kgen_status
run(kgen_context *ctx, const struct run_opts *o, struct run_spec *specs, int nspecs, FILE *tsv, int *failures,
    kgen_error *err)
{
	struct input in;
	struct probe probe;
	struct ceiling ceiling = { .gbs = -1, .bytes = 0 };
	kgen_status st = KGEN_OK;
	int i, j, c;

	memset(&in, 0, sizeof in);
	memset(&probe, 0, sizeof probe);
	/* Sizes outside, specs inside: one input serves every spec of its dtype and op. */
	for (j = 0; j < o->nn && !st && !kgen_run_stopped(); j++) {
		for (i = 0; i < nspecs && !kgen_run_stopped(); i++) {
			kgen_spec *spec = specs[i].spec;
			kgen_kernel *k = specs[i].kernel;
			unsigned long long n = o->n[j];
			size_t esize = (size_t)spec->r.dtype->size, bytes = (size_t)n * esize;
			int copies = o->bench ? kgen_run_copies(ctx, o, bytes) : 1;
			struct result r = { .verdict = "-", .msg = "-", .ms = -1, .spread = -1, .gbs = -1, .cub = -1 };
			struct kgen_timing tm;
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
				struct reduce_call one = { k, &inptr, 1, n, out };
				st = verify(ctx, spec, &one, &in.ref, &r, failures, err);
			}
			if (!st && o->bench && !r.untimed) {
				CUdeviceptr shifted[64];
				struct reduce_call call = { k, shifted, in.copies, n, out };
				for (c = 0; c < in.copies; c++)
					shifted[c] = in.base[c] + (CUdeviceptr)((size_t)o->offset * esize);
				if ((st = kgen_gpu_warm_once(ctx, err)) ||
				    (st = kgen_time_calls(ctx, (enum kgen_timing_method)o->method, reduce_once, &call, o->runs, &tm,
				                          err)))
					break;
				r.ms = tm.median_ms;
				r.spread = tm.median_ms > 0 ? (tm.max_ms - tm.min_ms) / tm.median_ms : 0;
				r.gbs = (double)bytes / (r.ms * 1e-3) / 1e9;
				if (bytes >= (64u << 20) && ceiling.bytes != bytes) {
					float pms;
					if ((st = kgen_probe_ms(ctx, &probe, in.base[0], bytes, o->runs, &pms, err)))
						break;
					ceiling.gbs = (double)(bytes / 16 * 16) / (pms * 1e-3) / 1e9;
					ceiling.bytes = bytes;
					printf("# read-bandwidth ceiling (16-byte loads, %zu MB): %.0f GB/s\n", bytes >> 20, ceiling.gbs);
				}
				if (spec->op <= KGEN_OP_PROD)  /* CUB's Sum, Min, Max and Reduce of a product */
					r.cub = kgen_cub_ms(o->cub, (enum kgen_timing_method)o->method, o->runs, spec, n, ctx->l2_bytes,
					                    &r.cub_offsets);
			}
			ctx->cu->cuMemFree(out);
			print_result(o, tsv, &specs[i], n, bytes, &ceiling, &r);
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
	unsigned long long size = (unsigned long long)spec->r.dtype->size;
	int j;

	for (j = 0; j < o->nn; j++)
		if (o->n[j] > ~0ull - (unsigned long long)o->offset ||
		    kgen_run_too_large(o->n[j] + (unsigned long long)o->offset, 1, size))
			return kgen_fail(err, KGEN_EINVAL, "--n %llu: %llu elements of %s do not fit in memory", o->n[j],
			                 o->n[j], spec->r.dtype->name);
	return KGEN_OK;
}

/* kgen tune at one n: the input as kgen run makes it (seeded by n, no
 * offset), its copies, a 16-byte result (a pair: value, index at 8). */
struct tune_case {
	struct input in;
	struct reduce_call call;
};

static void
tune_free(kgen_context *ctx, void *arg)
{
	struct tune_case *c = arg;

	if (!c)
		return;
	if (c->call.out)
		ctx->cu->cuMemFree(c->call.out);
	free_input(ctx, &c->in);
	free(c);
}

static kgen_status
tune_prepare(kgen_context *ctx, const struct run_opts *o, const kgen_spec *spec, int j, void **out, kgen_error *err)
{
	unsigned long long n = o->n[j];
	struct tune_case *c = calloc(1, sizeof *c);
	kgen_status st;

	*out = NULL;
	if (!c)
		return kgen_fail(err, KGEN_ENOMEM, "out of memory");
	if ((st = make_input(ctx, o, spec, n, kgen_run_copies(ctx, o, (size_t)n * (size_t)spec->r.dtype->size),
	                     &c->in, err)) ||
	    (ctx->cu->cuMemAlloc(&c->call.out, 16) && (st = kgen_fail(err, KGEN_ECUDA, "cannot allocate 16 bytes on the GPU")))) {
		tune_free(ctx, c);
		return st;
	}
	c->call.in = c->in.base;
	c->call.copies = c->in.copies;
	c->call.n = n;
	*out = c;
	return KGEN_OK;
}

static kgen_status
tune_verify(kgen_context *ctx, void *arg, kgen_kernel *k, int *ok, char *msg, size_t len, kgen_error *err)
{
	struct tune_case *c = arg;
	struct reduce_call one = c->call;

	one.k = k;
	one.copies = 1;
	return check_once(ctx, kgen_kernel_spec(k), &one, &c->in.ref, ok, msg, len, err);
}

static kgen_status
tune_call(void *arg, kgen_kernel *k, int i, CUstream stream, kgen_error *err)
{
	struct tune_case *c = arg;

	c->call.k = k;
	return reduce_once(&c->call, i, stream, err);
}

/* cub::DeviceReduce of the spec's op and dtype at n. */
static double
tune_peer_ms(kgen_context *ctx, const struct run_opts *o, const kgen_spec *spec, int j, int method, int *offsets)
{
	return kgen_cub_ms(o->cub, (enum kgen_timing_method)method, o->runs, spec, o->n[j], ctx->l2_bytes, offsets);
}

static const struct kgen_tuner tuner = {
	.prepare = tune_prepare, .verify = tune_verify, .call = tune_call, .free = tune_free,
	.peer = "cub::DeviceReduce", .peer_ms = tune_peer_ms,
};

const struct kgen_runner kgen_runner_reduce = { .check = check, .run = run, .tune = &tuner };
