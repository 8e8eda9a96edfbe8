/*
 * run_scan.c - `kgen run` for kernel: scan: at each --n, seeded input (as
 * for a reduction with the same op, --offset elements into its
 * allocation, --extreme and --nan placed), the output poisoned, one
 * kgen_scan() call, and every output element compared with the CPU
 * reference of its prefix (cli/reference.c, folded element by element:
 * integers, min and max exactly, floats within eps(acc) times the depth of
 * the kernel's combination chain, the tiles before the element's included,
 * times the sum of |x| up to it).  --bench times the call (--method), a
 * device-to-device copy of as many bytes as it reads and writes, twice,
 * the later kept, and cub::DeviceScan of the same mode, op, types and n
 * (through kgen-cub, timed the same way; it checks its own result).
 */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/reference.h"
#include "cli/run.h"
#include "cli/timing.h"
#include "gen/scan.h"

/* One --n: the input on the host and the device, room for the output. */
struct scase {
	unsigned long long n;
	size_t in_bytes, out_bytes;
	unsigned char *host, *back;
	CUdeviceptr in_alloc, in, out;
};

static void
free_case(kgen_context *ctx, struct scase *c)
{
	if (c->in_alloc)
		ctx->cu->cuMemFree(c->in_alloc);
	if (c->out)
		ctx->cu->cuMemFree(c->out);
	free(c->host);
	free(c->back);
	memset(c, 0, sizeof *c);
}

static kgen_status
make_case(kgen_context *ctx, const struct run_opts *o, const kgen_spec *s, unsigned long long n, struct scase *c,
          kgen_error *err)
{
	const struct kgen_cu *cu = ctx->cu;
	size_t isize = (size_t)s->r.dtype->size, osize = (size_t)s->r.out->size, off = (size_t)o->offset * isize;
	kgen_status st;

	memset(c, 0, sizeof *c);
	c->n = n;
	c->in_bytes = (size_t)n * isize;
	c->out_bytes = (size_t)n * osize;
	if (!(c->host = malloc(c->in_bytes + 16)) || !(c->back = malloc(c->out_bytes + 16)))
		return kgen_fail(err, KGEN_ENOMEM, "out of host memory for %zu + %zu bytes", c->in_bytes, c->out_bytes);
	if ((st = kgen_fill_run(s, o, c->host, n, o->seed ^ (n * 0x9e3779b97f4a7c15ull), err)))
		return st;
	kgen_place_ends(s, o, c->host, 0, n, 1);
	KGEN_CU(cu, err, cuMemAlloc, (&c->in_alloc, c->in_bytes + off + 16));
	KGEN_CU(cu, err, cuMemAlloc, (&c->out, c->out_bytes + 16));
	c->in = c->in_alloc + off;
	if (n)
		KGEN_CU(cu, err, cuMemcpyHtoD, (c->in, c->host, c->in_bytes));
	return KGEN_OK;
}

/* The depth of the kernel's combination chain for element i: its thread's
 * items, the block scan's steps (warps: five shuffles in a warp and five
 * over the warp totals; hillis_steele: log2(threads); blelloch: an up-sweep
 * and a down-sweep, twice that), five shuffles over the tile's group
 * mates and five for a group's total, and a step for each group of 32
 * tiles before it (a group's prefix is a left-to-right chain of the group
 * totals; strategy: block carries one across the tiles, a step each). */
static int
depth_at(const kgen_spec *s, unsigned long long i)
{
	unsigned long long tiles = i / kgen_scan_tile(s);
	unsigned long long chain = s->scan_strategy == KGEN_SCAN_STRATEGY_BLOCK ? tiles : tiles / 32 + 10;
	int log2_threads = 0, block, depth;

	while ((1ll << log2_threads) < s->threads)
		log2_threads++;
	block = s->block_scan == KGEN_BS_BLELLOCH ? 2 * log2_threads : s->block_scan == KGEN_BS_WARPS ? 10 : log2_threads;
	depth = (int)s->items_per_thread + block + 4;
	return chain > 0x3fffffffull ? 0x7fffffff : depth + (int)chain;
}

/* Every element of c->back against its prefix's reference: the number
 * wrong, the first described in msg. */
static unsigned long long
scan_errors(const kgen_spec *s, const struct scase *c, char *msg, size_t len)
{
	size_t osize = (size_t)s->r.out->size;
	int inclusive = s->scan_mode == KGEN_SCAN_INCLUSIVE;
	unsigned long long i, bad = 0;
	struct reference run, at;
	char what[300];

	kgen_reference_init(s, &run);
	for (i = 0; i < c->n; i++) {
		if (inclusive)
			kgen_reference_add(s, &run, c->host, i);
		at = run;
		kgen_reference_finish(s, &at);
		at.depth = depth_at(s, i);
		/* The message only for the first wrong element: a check without one for the others. */
		if (!kgen_result_ok(s, c->back + i * osize, inclusive ? i + 1 : i, &at) && !bad++) {
			kgen_check_result(s, c->back + i * osize, inclusive ? i + 1 : i, &at, what, sizeof what);
			snprintf(msg, len, "out[%llu]: %s", i, what);
		}
		if (!inclusive)
			kgen_reference_add(s, &run, c->host, i);
	}
	return bad;
}

struct timed {
	kgen_kernel *k;
	const struct scase *c;
};

static kgen_status
scan_once(void *arg, int i, CUstream stream, kgen_error *err)
{
	struct timed *t = arg;

	(void)i;  /* one input: a scan of n elements reads them once and writes as many */
	return kgen_scan(t->k, t->c->in, t->c->out, t->c->n, 0, 0, stream, err);
}

/* One verified call: the verdict and what was found into msg. */
static kgen_status
verify(kgen_context *ctx, const kgen_spec *s, kgen_kernel *k, struct scase *c, const char **verdict, char *msg,
       size_t len, int *failures, kgen_error *err)
{
	const struct kgen_cu *cu = ctx->cu;
	unsigned long long bad;
	kgen_status st;

	KGEN_CU(cu, err, cuMemsetD8Async, (c->out, 0xff, c->out_bytes + 16, NULL));  /* NaN, or -1 */
	if ((st = kgen_scan(k, c->in, c->out, c->n, 0, 0, NULL, err)) == KGEN_EINVAL) {
		snprintf(msg, len, "%s", err->message);
		*verdict = "rejected";
		return KGEN_OK;
	}
	if (st)
		return st;
	if (cu->cuCtxSynchronize())
		return kgen_fail(err, KGEN_ECUDA, "the kernel failed (cuCtxSynchronize)");
	if (c->out_bytes)
		KGEN_CU(cu, err, cuMemcpyDtoH, (c->back, c->out, c->out_bytes));
	if ((bad = scan_errors(s, c, msg, len))) {
		size_t l = strlen(msg);
		snprintf(msg + l, len - l, "; %llu of %llu elements wrong", bad, c->n);
		*verdict = "FAIL";
		(*failures)++;
	} else {
		snprintf(msg, len, "all %llu elements checked", c->n);
		*verdict = "ok";
	}
	return KGEN_OK;
}

static kgen_status
run(kgen_context *ctx, const struct run_opts *o, struct run_spec *specs, int nspecs, FILE *tsv, int *failures,
    kgen_error *err)
{
	kgen_status st = KGEN_OK;
	int i, j;

	for (j = 0; j < o->nn && !st; j++) {
		for (i = 0; i < nspecs && !st; i++) {
			kgen_spec *s = specs[i].spec;
			struct scase c;
			struct timed call = { specs[i].kernel, &c };
			struct kgen_timing t = { -1, -1, -1, 0, 0 };
			const char *verdict = "-";
			char msg[1100] = "-";
			double bytes = (double)o->n[j] * (s->r.dtype->size + s->r.out->size);
			double cub = -1;
			float copy = -1;
			int cub_offsets = 0, timed = 0;

			if ((st = make_case(ctx, o, s, o->n[j], &c, err)) || (st = kgen_context_enter(ctx, err))) {
				free_case(ctx, &c);
				break;
			}
			if (o->verify)
				st = verify(ctx, s, specs[i].kernel, &c, &verdict, msg, sizeof msg, failures, err);
			if (!st && o->bench && c.n && strcmp(verdict, "rejected") && strcmp(verdict, "FAIL") &&
			    !(st = kgen_gpu_warm_once(ctx, err)) &&
			    !(st = kgen_time_calls(ctx, (enum kgen_timing_method)o->method, scan_once, &call, o->runs, &t, err)))
				timed = 1;
			free_case(ctx, &c);
			/* the same bytes read and written: a copy of half of them each way, between
			 * buffers of its own (in and out differ in size when the types do) */
			if (!st && timed)
				st = kgen_copy_apart_ms(ctx, (size_t)(bytes / 2) / 16 * 16, o->runs, &copy, err);
			if (st)
				break;
			/* CUB's scan of its own input, in a process of its own (this one's buffers
			 * freed first), timed as the reductions' peer is: -1 without kgen-cub or for
			 * a scan it has not (op: custom, prod, ...) */
			if (timed)
				cub = kgen_cub_scan_ms(o->cub, (enum kgen_timing_method)o->method, o->runs, s, o->n[j],
				                       ctx->l2_bytes, &cub_offsets);
			printf("%-48s n=%-10llu %-8s", specs[i].path, o->n[j], verdict);
			if (t.median_ms >= 0) {
				printf(" %10.2f us %8.1f GB/s  copy %8.1f GB/s  of copy %.3f", t.median_ms * 1e3,
				       bytes / (t.median_ms * 1e-3) / 1e9, copy > 0 ? bytes / (copy * 1e-3) / 1e9 : -1,
				       copy > 0 ? copy / t.median_ms : -1);
				if (cub > 0)
					printf("  CUB/%d %10.2f us  kgen/CUB %.3f", cub_offsets, cub * 1e3, cub / t.median_ms);
			}
			printf("  %s\n", msg);
			if (tsv) {  /* copy's GB/s in ceiling_gbs, the fraction of it in pct_ceiling; CUB's GB/s of the same bytes */
				kgen_tsv_text(tsv, specs[i].path);
				fprintf(tsv, "\t%s\t%s\t%llu\t%s\t%.3f\t%.1f\t%.1f\t%.1f\t%.3f\t%.1f\t%.3f\t%d\t%s\t%.4f\n",
				        s->r.dtype->name, kgen_ops[s->op].name, o->n[j], verdict, t.median_ms * 1e3,
				        t.median_ms > 0 ? bytes / (t.median_ms * 1e-3) / 1e9 : -1,
				        copy > 0 ? bytes / (copy * 1e-3) / 1e9 : -1,
				        copy > 0 && t.median_ms > 0 ? 100.0 * copy / t.median_ms : -1, cub > 0 ? cub * 1e3 : -1,
				        cub > 0 ? bytes / (cub * 1e-3) / 1e9 : -1, cub > 0 && t.median_ms > 0 ? cub / t.median_ms : -1,
				        cub_offsets, kgen_timing_method_name((enum kgen_timing_method)o->method),
				        t.median_ms > 0 ? (t.max_ms - t.min_ms) / t.median_ms : -1);
			}
			fflush(stdout);
		}
	}
	return st;
}

/* Every --n, the input and the output, fits the host's memory twice over. */
static kgen_status
check(const struct run_opts *o, const kgen_spec *s, kgen_error *err)
{
	int j;

	for (j = 0; j < o->nn; j++)
		if (kgen_run_too_large(o->n[j], 2, (unsigned long long)(s->r.dtype->size + s->r.out->size)))
			return kgen_fail(err, KGEN_EINVAL, "--n %llu: the input and the scan of %s do not fit in memory", o->n[j],
			                 s->r.dtype->name);
	return KGEN_OK;
}

const struct kgen_runner kgen_runner_scan = { .check = check, .run = run };
