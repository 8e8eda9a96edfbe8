/*
 * run_reduce_axis.c - `kgen run` for `kernel: reduce_axis`: at each
 * --shape, a seeded random matrix (rows --pad elements longer than cols
 * when asked), every result poisoned, computed and compared with the CPU
 * reference of its row or column; with --bench the median time against
 * CUB's sum of the whole matrix (the same bytes: the bandwidth bar) and,
 * for rows, CUB's DeviceSegmentedReduce.
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
#include "gen/parallel.h"

/* One matrix on the host and the device, and the references of its rows
 * and of its columns (made when a spec asks for them). */
struct matrix {
	struct kgen_spec op;          /* the op-related fields of the references */
	long long dtype;
	unsigned long long rows, cols, pitch;
	size_t offset;                /* --offset: the matrix starts this many bytes into dev[c] */
	void *host;
	size_t bytes;
	CUdeviceptr dev[64];
	int copies;
	struct reference *ref[2];    /* by axis */
};

static void
free_matrix(kgen_context *ctx, struct matrix *m)
{
	int c;

	for (c = 0; c < m->copies; c++)
		ctx->cu->cuMemFree(m->dev[c]);
	free(m->host);
	free(m->ref[0]);
	free(m->ref[1]);
	memset(m, 0, sizeof *m);
}

static kgen_status
make_matrix(kgen_context *ctx, const struct run_opts *o, const struct kgen_spec *s, unsigned long long rows,
            unsigned long long cols, int copies, struct matrix *m, kgen_error *err)
{
	unsigned long long pitch = cols + (unsigned long long)o->pad, elems = rows * pitch;
	size_t esize = (size_t)s->r.dtype->size;
	int c;

	if (m->host && m->dtype == s->dtype && m->op.op == s->op && m->rows == rows && m->cols == cols &&
	    m->pitch == pitch && m->copies >= copies && m->offset == (size_t)o->offset * esize) {
		if (!kgen_same_reference(&m->op, s)) {  /* the same input, references of another op's types */
			free(m->ref[0]);
			free(m->ref[1]);
			m->ref[0] = m->ref[1] = NULL;
			m->op = *s;
		}
		return KGEN_OK;
	}
	free_matrix(ctx, m);
	if (rows && pitch > (size_t)-1 / esize / rows)
		return kgen_fail(err, KGEN_EINVAL, "a %llu x %llu matrix is too large", rows, cols);
	m->bytes = (size_t)elems * esize;
	if (!(m->host = malloc(m->bytes ? m->bytes : 1)))
		return kgen_fail(err, KGEN_ENOMEM, "out of host memory for %zu bytes", m->bytes);
	if (kgen_fill_run(s, o, m->host, elems, o->seed ^ (rows * 0x9e3779b97f4a7c15ull) ^ cols, err) != KGEN_OK) {
		free_matrix(ctx, m);
		return err->status;
	}
	{
		/* --extreme and --nan at both ends of every row and of every column. */
		unsigned long long r, col;
		for (r = 0; r < rows; r++)
			kgen_place_ends(s, o, m->host, r * pitch, cols, 1);
		for (col = 0; col < cols; col++)
			kgen_place_ends(s, o, m->host, col, rows, pitch);
	}
	m->dtype = s->dtype;
	m->op = *s;
	m->rows = rows;
	m->cols = cols;
	m->pitch = pitch;
	m->offset = (size_t)o->offset * esize;
	for (c = 0; c < copies; c++) {
		m->copies = c + 1;
		KGEN_CU(ctx->cu, err, cuMemAlloc, (&m->dev[c], m->bytes + m->offset ? m->bytes + m->offset : 16));
		if (m->bytes)
			KGEN_CU(ctx->cu, err, cuMemcpyHtoD, (m->dev[c] + m->offset, m->host, m->bytes));
	}
	return KGEN_OK;
}

/* The references of m's rows or columns in parts side by side (on every
 * CPU): a part is rows [k * per, (k + 1) * per) or those columns, each row's
 * or column's the fold one thread would make. */
struct axis_parts {
	const struct kgen_spec *s;
	const struct matrix *m;
	struct reference *ref;
	unsigned long long per;
};

/* Part k of n rows or columns: [*first, return value). */
static unsigned long long
part(const struct axis_parts *p, int k, unsigned long long n, unsigned long long *first)
{
	*first = (unsigned long long)k * p->per;
	return *first + p->per < n ? *first + p->per : n;
}

/* Row r of m. */
static const char *
row_of(const struct axis_parts *p, unsigned long long r)
{
	return (const char *)p->m->host + (size_t)(r * p->m->pitch) * (size_t)p->s->r.dtype->size;
}

static void
rows_part(void *arg, int k)
{
	const struct axis_parts *p = arg;
	unsigned long long r, end = part(p, k, p->m->rows, &r);

	for (; r < end; r++)
		kgen_reference(p->s, row_of(p, r), p->m->cols, &p->ref[r]);
}

/* Columns: row by row, so that the matrix is read in order. */
static void
cols_part(void *arg, int k)
{
	const struct axis_parts *p = arg;
	unsigned long long first, end = part(p, k, p->m->cols, &first), r, c;

	for (c = first; c < end; c++)
		kgen_reference_init(p->s, &p->ref[c]);
	for (r = 0; r < p->m->rows; r++) {
		const char *row = row_of(p, r);
		for (c = first; c < end; c++)
			kgen_reference_add(p->s, &p->ref[c], row, c);
	}
	for (c = first; c < end; c++)
		kgen_reference_finish(p->s, &p->ref[c]);
}

/* The references of every row or every column of m, made once: in up to
 * 256 parts, of at least 16 columns (a part reads whole cache lines). */
static kgen_status
references(const struct kgen_spec *s, struct matrix *m, int axis, kgen_error *err)
{
	unsigned long long n = axis == KGEN_AXIS_ROWS ? m->rows : m->cols;
	struct axis_parts p = { s, m, NULL, 0 };

	if (m->ref[axis])
		return KGEN_OK;
	if (!(p.ref = m->ref[axis] = calloc(n ? n : 1, sizeof *p.ref)))
		return kgen_fail(err, KGEN_ENOMEM, "out of host memory for %llu references", n);
	p.per = (n + 255) / 256;
	if (axis == KGEN_AXIS_COLS && p.per < 16)
		p.per = 16;
	if (n)
		kgen_parallel_for((int)((n + p.per - 1) / p.per), 0, axis == KGEN_AXIS_ROWS ? rows_part : cols_part, &p);
	return KGEN_OK;
}

/* Run once with the output poisoned; compare every result.  Returns the
 * number of wrong results, the first described in msg. */
/* Where a pair's indices start after the n values of spec s. */
static size_t
index_offset(const struct kgen_spec *s, unsigned long long n)
{
	return ((size_t)n * kgen_result_size(s) + 15) / 16 * 16;
}

/* The bytes of n results of spec s: the values, and a pair's indices after them. */
static size_t
result_bytes(const struct kgen_spec *s, unsigned long long n)
{
	return s->r.pair ? index_offset(s, n) + (size_t)n * 8 : (size_t)n * kgen_result_size(s);
}

/* The call on stream: kgen_reduce_axis, or kgen_reduce_axis_arg with the indices after the values. */
static kgen_status
launch(kgen_kernel *k, const struct matrix *m, CUdeviceptr in, CUdeviceptr out, CUstream stream, kgen_error *err)
{
	const struct kgen_spec *s = kgen_kernel_spec(k);
	unsigned long long n = s->axis == KGEN_AXIS_ROWS ? m->rows : m->cols;

	if (s->r.pair)
		return kgen_reduce_axis_arg(k, in, m->rows, m->cols, m->pitch, out, out + index_offset(s, n), 0, 0, stream,
		                            err);
	return kgen_reduce_axis(k, in, m->rows, m->cols, m->pitch, out, 0, 0, stream, err);
}

static kgen_status
verify(kgen_context *ctx, kgen_kernel *k, struct matrix *m, CUdeviceptr out, unsigned char *back,
       unsigned long long *bad, char *msg, size_t len, kgen_error *err)
{
	const struct kgen_spec *s = kgen_kernel_spec(k);
	int axis = (int)s->axis;
	unsigned long long n = axis == KGEN_AXIS_ROWS ? m->rows : m->cols, each = axis == KGEN_AXIS_ROWS ? m->cols : m->rows;
	size_t asize = kgen_result_size(s), bytes = result_bytes(s, n);
	unsigned char got[16];
	unsigned long long i;
	kgen_status st;

	*bad = 0;
	if ((st = references(s, m, axis, err)))
		return st;
	ctx->cu->cuMemsetD8Async(out, 0xff, bytes, NULL);
	if ((st = launch(k, m, m->dev[0] + m->offset, out, NULL, err)))
		return st;
	if (ctx->cu->cuCtxSynchronize())
		return kgen_fail(err, KGEN_ECUDA, "the kernel failed (cuCtxSynchronize)");
	if (n && ctx->cu->cuMemcpyDtoH(back, out, bytes))
		return kgen_fail(err, KGEN_ECUDA, "cuMemcpyDtoH() failed");
	for (i = 0; i < n; i++) {
		/* The result as the reference reads it: the value, a pair's index 8 bytes on. */
		memcpy(got, back + i * asize, asize);
		if (s->r.pair)
			memcpy(got + 8, back + index_offset(s, n) + i * 8, 8);
		if (!kgen_result_ok(s, got, each, &m->ref[axis][i]) && !(*bad)++) {
			int l = snprintf(msg, len, "%s %llu: ", axis == KGEN_AXIS_ROWS ? "row" : "column", i);
			kgen_check_result(s, got, each, &m->ref[axis][i], msg + l, len - (size_t)l);
		}
	}
	if (!*bad)
		snprintf(msg, len, "all %llu results checked", n);
	return KGEN_OK;
}

/* One timed call: matrix copy i % copies. */
struct axis_call {
	kgen_kernel *k;
	const struct matrix *m;
	CUdeviceptr out;
};

static kgen_status
axis_once(void *arg, int i, CUstream stream, kgen_error *err)
{
	struct axis_call *c = arg;

	return launch(c->k, c->m, c->m->dev[i % c->m->copies] + c->m->offset, c->out, stream, err);
}

static kgen_status
run(kgen_context *ctx, const struct run_opts *o, struct run_spec *specs, int nspecs, FILE *tsv, int *failures,
    kgen_error *err)
{
	struct matrix m;
	unsigned char *back = NULL;
	kgen_status st = KGEN_OK;
	int i, j;

	memset(&m, 0, sizeof m);
	for (j = 0; j < o->nshape && !st && !kgen_run_stopped(); j++) {
		unsigned long long rows = o->shape[j][0], cols = o->shape[j][1];

		for (i = 0; i < nspecs && !st && !kgen_run_stopped(); i++) {
			kgen_spec *spec = specs[i].spec;
			size_t esize = (size_t)spec->r.dtype->size;
			unsigned long long n = spec->axis == KGEN_AXIS_ROWS ? rows : cols;
			size_t in_bytes = (size_t)(rows * cols) * esize;
			size_t out_bytes = result_bytes(spec, n);
			int copies = o->bench ? kgen_run_copies(ctx, o, (size_t)(rows * (cols + (unsigned long long)o->pad)) * esize) : 1;
			char msg[1200] = "-", args[160];
			const char *verdict = "-";
			float ms = -1;
			double cub = -1, seg = -1;
			int cub_offsets = 0;
			unsigned long long bad = 0;
			CUdeviceptr out = 0;

			if ((st = make_matrix(ctx, o, spec, rows, cols, copies, &m, err)) || (st = kgen_context_enter(ctx, err)))
				break;
			free(back);
			if (!(back = malloc(out_bytes ? out_bytes : 1))) {
				st = kgen_fail(err, KGEN_ENOMEM, "out of host memory");
				break;
			}
			if (ctx->cu->cuMemAlloc(&out, out_bytes ? out_bytes : 16)) {
				st = kgen_fail(err, KGEN_ECUDA, "cuMemAlloc() failed");
				break;
			}
			if (o->verify) {
				st = verify(ctx, specs[i].kernel, &m, out, back, &bad, msg, sizeof msg, err);
				if (st == KGEN_EINVAL) {
					/* The spec cannot take this shape: say so, go on. */
					snprintf(msg, sizeof msg, "%s", err->message);
					verdict = "rejected";
					st = KGEN_OK;
				} else if (!st) {
					verdict = bad ? "FAIL" : "ok";
					if (bad) {
						size_t l = strlen(msg);
						snprintf(msg + l, sizeof msg - l, "; %llu of %llu results wrong", bad, n);
						(*failures)++;
					}
				}
			}
			if (!st && o->bench && strcmp(verdict, "rejected") && strcmp(verdict, "FAIL")) {
				struct axis_call call = { specs[i].kernel, &m, out };
				if ((st = kgen_gpu_warm_once(ctx, err)) || (st = kgen_median_ms(ctx, axis_once, &call, o->runs, &ms, err)))
					break;
				/* Matrices are timed per call (--method is for vectors), their CUB peer too:
				 * CUB's sum of the same bytes, the bandwidth bar of every op (each reads
				 * the matrix once), argmax and the expressions' included. */
				struct kgen_spec sum = *spec;

				sum.op = KGEN_OP_SUM;
				cub = kgen_cub_ms(o->cub, KGEN_TIME_PER_CALL, o->runs, &sum, rows * cols, ctx->l2_bytes, &cub_offsets);
				if (spec->axis == KGEN_AXIS_ROWS && !o->pad && spec->op <= KGEN_OP_PROD) {
					snprintf(args, sizeof args, "segmented %s %s %llu %llu %d %zu", kgen_ops[spec->op].name,
					         spec->r.dtype->name, rows, cols, o->runs, ctx->l2_bytes);
					seg = kgen_cub_call(o->cub, args, NULL);
				}
			}
			ctx->cu->cuMemFree(out);
			printf("%-48s %llux%llu %-4s %-8s", specs[i].path, rows, cols, kgen_axes[spec->axis].name, verdict);
			if (ms >= 0) {
				printf(" %10.2f us %8.1f GB/s", ms * 1e3, (double)(in_bytes + out_bytes) / (ms * 1e-3) / 1e9);
				if (cub > 0)
					printf("  CUB/%d sum %10.2f us  kgen/CUB %.3f", cub_offsets, cub * 1e3, cub / ms);
				if (seg > 0)
					printf("  segmented %10.2f us  kgen/seg %.3f", seg * 1e3, seg / ms);
			}
			printf("  %s\n", msg);
			if (tsv) {
				kgen_tsv_text(tsv, specs[i].path);
				fprintf(tsv, "\t%s\t%s/%s\t%llux%llu\t%s\t%.3f\t%.1f\t-1\t-1\t%.3f\t%.1f\t%.3f\t%d\t%s\t-1\n",
				        spec->r.dtype->name, kgen_ops[spec->op].name, kgen_axes[spec->axis].name, rows, cols,
				        verdict, ms * 1e3, ms > 0 ? (double)(in_bytes + out_bytes) / (ms * 1e-3) / 1e9 : -1, cub * 1e3,
				        cub > 0 ? (double)in_bytes / (cub * 1e-3) / 1e9 : -1, cub > 0 && ms > 0 ? cub / ms : -1, cub_offsets,
				        kgen_timing_method_name(KGEN_TIME_PER_CALL));
			}
			fflush(stdout);
		}
	}
	free(back);
	free_matrix(ctx, &m);
	return st;
}

/* Every --shape is one matrix, and with rows padded by --pad fits the host's memory. */
static kgen_status
check(const struct run_opts *o, const kgen_spec *spec, kgen_error *err)
{
	unsigned long long size = (unsigned long long)spec->r.dtype->size;
	int j;

	for (j = 0; j < o->nshape; j++)
		if (o->shape[j][2] != 1)
			return kgen_fail(err, KGEN_EINVAL, "--shape %llux%llux%llu: a batch of matrices is for transposes; "
			                 "a matrix reduction takes ROWSxCOLS", o->shape[j][2], o->shape[j][0], o->shape[j][1]);
		else if (o->shape[j][1] > ~0ull - (unsigned long long)o->pad ||
		    kgen_run_too_large(o->shape[j][0], o->shape[j][1] + (unsigned long long)o->pad, size))
			return kgen_fail(err, KGEN_EINVAL, "--shape %llux%llu: the matrix of %s does not fit in memory",
			                 o->shape[j][0], o->shape[j][1], spec->r.dtype->name);
	return KGEN_OK;
}

/* kgen tune at one shape: the matrix as kgen run makes it (seeded by the
 * shape, no --pad or --offset), its copies, and room for the results
 * (every point of a tuning reduces the same axis). */
struct tune_case {
	struct matrix m;
	CUdeviceptr out;
	unsigned char *back;
};

static void
tune_free(kgen_context *ctx, void *arg)
{
	struct tune_case *c = arg;

	if (!c)
		return;
	if (c->out)
		ctx->cu->cuMemFree(c->out);
	free(c->back);
	free_matrix(ctx, &c->m);
	free(c);
}

static kgen_status
tune_prepare(kgen_context *ctx, const struct run_opts *o, const kgen_spec *spec, int j, void **out, kgen_error *err)
{
	unsigned long long rows = o->shape[j][0], cols = o->shape[j][1];
	size_t esize = (size_t)spec->r.dtype->size;
	size_t bytes = result_bytes(spec, spec->axis == KGEN_AXIS_ROWS ? rows : cols);
	struct tune_case *c = calloc(1, sizeof *c);
	kgen_status st;

	*out = NULL;
	if (!c)
		return kgen_fail(err, KGEN_ENOMEM, "out of memory");
	st = make_matrix(ctx, o, spec, rows, cols, kgen_run_copies(ctx, o, (size_t)(rows * cols) * esize), &c->m, err);
	if (!st && !(c->back = malloc(bytes ? bytes : 1)))
		st = kgen_fail(err, KGEN_ENOMEM, "out of host memory for %zu bytes", bytes);
	if (!st && ctx->cu->cuMemAlloc(&c->out, bytes ? bytes : 16))
		st = kgen_fail(err, KGEN_ECUDA, "cannot allocate %zu bytes on the GPU", bytes);
	if (st) {
		tune_free(ctx, c);
		return st;
	}
	*out = c;
	return KGEN_OK;
}

/* Every row's or column's result against its reference. */
static kgen_status
tune_verify(kgen_context *ctx, void *arg, kgen_kernel *k, int *ok, char *msg, size_t len, kgen_error *err)
{
	struct tune_case *c = arg;
	const struct kgen_spec *s = kgen_kernel_spec(k);
	unsigned long long bad = 0, n = s->axis == KGEN_AXIS_ROWS ? c->m.rows : c->m.cols;
	kgen_status st = verify(ctx, k, &c->m, c->out, c->back, &bad, msg, len, err);

	*ok = !st && !bad;
	if (!st && bad) {
		size_t l = strlen(msg);
		snprintf(msg + l, len - l, "; %llu of %llu results wrong", bad, n);
	}
	return st;
}

static kgen_status
tune_call(void *arg, kgen_kernel *k, int i, CUstream stream, kgen_error *err)
{
	struct tune_case *c = arg;

	return launch(k, &c->m, c->m.dev[i % c->m.copies] + c->m.offset, c->out, stream, err);
}

static const struct kgen_tuner tuner = {
	.prepare = tune_prepare, .verify = tune_verify, .call = tune_call, .free = tune_free,
};

const struct kgen_runner kgen_runner_reduce_axis = { .check = check, .run = run, .tune = &tuner };
