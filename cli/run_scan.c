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
 * kgen tune's hooks make the same case and check a point the same way.
 */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/reference.h"
#include "cli/run.h"
#include "cli/scan_check.h"
#include "cli/timing.h"
#include "gen/parallel.h"
#include "gen/scan.h"

/* One --n (a row) or --shape (rows of cols, in's rows pitch elements
 * apart, out's cols): the input on the host and the device, room for the
 * output. */
struct scase {
	unsigned long long n, rows, cols, pitch;
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
make_case(kgen_context *ctx, const struct run_opts *o, const kgen_spec *s, unsigned long long rows,
          unsigned long long cols, struct scase *c, kgen_error *err)
{
	const struct kgen_cu *cu = ctx->cu;
	size_t isize = (size_t)s->r.dtype->size, osize = (size_t)s->r.out->size, off = (size_t)o->offset * isize;
	unsigned long long r;
	kgen_status st;

	memset(c, 0, sizeof *c);
	c->rows = rows;
	c->cols = cols;
	c->pitch = rows > 1 ? cols + (unsigned long long)o->pad : cols;
	c->n = rows * cols;
	c->in_bytes = (size_t)(rows * c->pitch) * isize;
	c->out_bytes = (size_t)c->n * osize;
	if (!(c->host = malloc(c->in_bytes + 16)) || !(c->back = malloc(c->out_bytes + 16)))
		return kgen_fail(err, KGEN_ENOMEM, "out of host memory for %zu + %zu bytes", c->in_bytes, c->out_bytes);
	if ((st = kgen_fill_run(s, o, c->host, rows * c->pitch, o->seed ^ (c->n * 0x9e3779b97f4a7c15ull), err)))
		return st;
	if (s->axis == KGEN_AXIS_COLS)  /* at the ends of each column */
		for (r = 0; r < cols; r++)
			kgen_place_ends(s, o, c->host, r, rows, c->pitch);
	else
		for (r = 0; r < rows; r++)
			kgen_place_ends(s, o, c->host, r * c->pitch, cols, 1);
	KGEN_CU(cu, err, cuMemAlloc, (&c->in_alloc, c->in_bytes + off + 16));
	KGEN_CU(cu, err, cuMemAlloc, (&c->out, c->out_bytes + 16));
	c->in = c->in_alloc + off;
	if (c->n)
		KGEN_CU(cu, err, cuMemcpyHtoD, (c->in, c->host, c->in_bytes));
	return KGEN_OK;
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
	if (kgen_kernel_spec(t->k)->axis == KGEN_AXIS_COLS)
		return kgen_scan_cols(t->k, t->c->in, t->c->out, t->c->rows, t->c->cols, t->c->pitch, t->c->cols, 0, 0,
		                      stream, err);
	if (t->c->rows > 1)
		return kgen_scan_rows(t->k, t->c->in, t->c->out, t->c->rows, t->c->cols, t->c->pitch, t->c->cols, 0, 0,
		                      stream, err);
	return kgen_scan(t->k, t->c->in, t->c->out, t->c->n, 0, 0, stream, err);
}

/* One verified call: the verdict and what was found into msg. */
static kgen_status
verify(kgen_context *ctx, const kgen_spec *s, kgen_kernel *k, struct scase *c, const char **verdict, char *msg,
       size_t len, int *failures, kgen_error *err)
{
	const struct kgen_cu *cu = ctx->cu;
	struct timed one = { k, c };
	unsigned long long bad;
	kgen_status st;

	/* NaN for floats; for integers 0x80 bytes (INT32_MIN + ... and INT64_MIN + ...): not -1, which a prefix sum of
	 * the seeded elements reaches */
	KGEN_CU(cu, err, cuMemsetD8Async,
	        (c->out, s->r.out->cls == DT_FLOAT || s->r.out->cls == DT_HALF || s->r.out->cls == DT_BHALF ? 0xff : 0x80,
	         c->out_bytes + 16, NULL));
	if ((st = scan_once(&one, 0, NULL, err)) == KGEN_EINVAL) {
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
	if ((bad = kgen_scan_errors(s, &(struct kgen_scan_result){ c->host, c->back, c->rows, c->cols, c->pitch }, msg,
	                            len)) == ~0ull)
		return kgen_fail(err, KGEN_ENOMEM, "out of memory for the check's references");
	if (bad) {
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

/* The sizes kgen run takes a scan at: each --n (a vector), then each
 * --shape ROWSxCOLS (each row scanned, rows --pad elements longer in the
 * input); without --n, only the shapes given, and without either, 2^24. */
static int
sizes(const struct run_opts *o, unsigned long long rows[64], unsigned long long cols[64])
{
	int j, k = 0;

	if (o->n_given || !o->shape_parts[0])
		for (j = 0; j < o->nn; j++, k++)
			rows[k] = 1, cols[k] = o->n[j];
	if (o->shape_parts[0])
		for (j = 0; j < o->nshape; j++, k++)
			rows[k] = o->shape[j][0], cols[k] = o->shape[j][1];
	return k;
}

static kgen_status
run(kgen_context *ctx, const struct run_opts *o, struct run_spec *specs, int nspecs, FILE *tsv, int *failures,
    kgen_error *err)
{
	unsigned long long rows[64], cols[64];
	int i, j, nsizes = sizes(o, rows, cols);
	kgen_status st = KGEN_OK;

	for (j = 0; j < nsizes && !st && !kgen_run_stopped(); j++) {
		for (i = 0; i < nspecs && !st && !kgen_run_stopped(); i++) {
			kgen_spec *s = specs[i].spec;
			int down = s->axis == KGEN_AXIS_COLS, vector = rows[j] == 1 && !down;
			/* axis: cols at --n N: a column of N */
			unsigned long long nrows = down && rows[j] == 1 ? cols[j] : rows[j], ncols = down && rows[j] == 1 ? 1 : cols[j];
			struct scase c;
			struct timed call = { specs[i].kernel, &c };
			struct kgen_timing t = { -1, -1, -1, 0, 0 };
			const char *verdict = "-";
			char msg[1100] = "-", size[64];
			unsigned long long n = rows[j] * cols[j];
			double bytes = (double)n * (s->r.dtype->size + s->r.out->size);
			double cub = -1;
			float copy = -1;
			int cub_offsets = 0, timed = 0;

			if ((st = make_case(ctx, o, s, nrows, ncols, &c, err)) || (st = kgen_context_enter(ctx, err))) {
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
			/* CUB's scan of its own input (a vector's), in a process of its own (this
			 * one's buffers freed first), timed as the reductions' peer is: -1 without
			 * kgen-cub or for a scan it has not (op: custom, prod, ...) */
			if (timed && vector)
				cub = kgen_cub_scan_ms(o->cub, (enum kgen_timing_method)o->method, o->runs, s, n, ctx->l2_bytes,
				                       &cub_offsets);
			if (vector)
				snprintf(size, sizeof size, "n=%llu", n);
			else
				snprintf(size, sizeof size, "%llux%llu", nrows, ncols);
			printf("%-48s %-12s %-8s", specs[i].path, size, verdict);
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
				fprintf(tsv, "\t%s\t%s\t%s\t%s\t%.3f\t%.1f\t%.1f\t%.1f\t%.3f\t%.1f\t%.3f\t%d\t%s\t%.4f\n",
				        s->r.dtype->name, kgen_ops[s->op].name, vector ? size + 2 : size, verdict, t.median_ms * 1e3,
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

/* Every size, the input (with its rows' --pad) and the output, fits the
 * host's memory twice over; a --shape is ROWSxCOLS. */
static kgen_status
check(const struct run_opts *o, const kgen_spec *s, kgen_error *err)
{
	unsigned long long rows[64], cols[64];
	unsigned long long both = (unsigned long long)(s->r.dtype->size + s->r.out->size);
	int j, nsizes = sizes(o, rows, cols);

	for (j = 0; j < o->nshape && o->shape_parts[0]; j++)
		if (o->shape_parts[j] == 3)
			return kgen_fail(err, KGEN_EINVAL, "--shape %llux%llux%llu: a scan runs along each row of a ROWSxCOLS "
			                 "matrix, not a batch of them", o->shape[j][2], o->shape[j][0], o->shape[j][1]);
	for (j = 0; j < nsizes; j++)
		if (rows[j] > ~0ull / (cols[j] + (unsigned long long)o->pad + 1) ||
		    kgen_run_too_large(rows[j] * (cols[j] + (unsigned long long)o->pad), 2, both)) {
			if (rows[j] == 1)
				return kgen_fail(err, KGEN_EINVAL, "--n %llu: the input and the scan of %s do not fit in memory",
				                 cols[j], s->r.dtype->name);
			return kgen_fail(err, KGEN_EINVAL, "--shape %llux%llu: the input and the scan of %s do not fit in memory",
			                 rows[j], cols[j], s->r.dtype->name);
		}
	return KGEN_OK;
}

/* kgen tune at one n: the input as kgen run makes it (seeded by n, no
 * offset) and room for the output; a point's verification checks every
 * element against the reference of its own tiling's bound. */
static void
tune_free(kgen_context *ctx, void *arg)
{
	if (arg)
		free_case(ctx, arg);
	free(arg);
}

static kgen_status
tune_prepare(kgen_context *ctx, const struct run_opts *o, const kgen_spec *spec, int j, void **out, kgen_error *err)
{
	struct scase *c = calloc(1, sizeof *c);
	kgen_status st;

	*out = NULL;
	if (spec->axis == KGEN_AXIS_COLS && !o->nshape) {
		free(c);
		return kgen_fail(err, KGEN_EINVAL, "kgen tune sizes a scan down the columns (axis: cols) by its matrix: give "
		                 "--shape ROWSxCOLS, not --n");
	}
	if (!c)
		return kgen_fail(err, KGEN_ENOMEM, "out of memory");
	if ((st = o->nshape ? make_case(ctx, o, spec, o->shape[j][0], o->shape[j][1], c, err)  /* rows, or columns */
	                    : make_case(ctx, o, spec, 1, o->n[j], c, err))) {
		tune_free(ctx, c);
		return st;
	}
	*out = c;
	return KGEN_OK;
}

static kgen_status
tune_verify(kgen_context *ctx, void *arg, kgen_kernel *k, int *ok, char *msg, size_t len, kgen_error *err)
{
	const char *verdict = "-";
	int failures = 0;
	kgen_status st = verify(ctx, kgen_kernel_spec(k), k, arg, &verdict, msg, len, &failures, err);

	if (st)
		return st;
	if (strcmp(verdict, "rejected") == 0)  /* this n is not for this point (a grid's worth of tiles) */
		return kgen_fail(err, KGEN_EINVAL, "%s", msg);
	*ok = strcmp(verdict, "ok") == 0;
	return KGEN_OK;
}

static kgen_status
tune_call(void *arg, kgen_kernel *k, int i, CUstream stream, kgen_error *err)
{
	struct timed t = { k, arg };

	return scan_once(&t, i, stream, err);
}

/* cub::DeviceScan of the spec's mode, op and types at n. */
static double
tune_peer_ms(kgen_context *ctx, const struct run_opts *o, const kgen_spec *spec, int j, int method, int *offsets)
{
	return kgen_cub_scan_ms(o->cub, (enum kgen_timing_method)method, o->runs, spec, o->n[j], ctx->l2_bytes, offsets);
}

/* The records' name of what DeviceScan computes: "scan exclusive sum i32
 * i64" (a reduction of the same op and dtype is another peer's). */
static void
tune_peer_key(const kgen_spec *spec, char *buf, size_t len)
{
	snprintf(buf, len, "scan %s %s %s %s", kgen_scan_modes[spec->scan_mode].name, kgen_ops[spec->op].name,
	         spec->r.dtype->name, spec->r.out->name);
}

static const struct kgen_tuner tuner = {
	.prepare = tune_prepare, .verify = tune_verify, .call = tune_call, .free = tune_free,
	.peer = "cub::DeviceScan", .peer_ms = tune_peer_ms, .peer_key = tune_peer_key, .shapes = 1,
};

const struct kgen_runner kgen_runner_scan = { .check = check, .run = run, .tune = &tuner };
