/*
 * run_rows.c - `kgen run` and `kgen tune` for `kernel: rows`.  At each
 * --shape ROWSxCOLS: seeded x (rows --pad elements longer than cols), a
 * weight and bias for the norms, labels for cross_entropy (every seventh
 * row ignore_index -100); the outputs poisoned, one kgen_rows() call, and
 * every output compared with the reference in double
 * (cli/rows_reference.c).  --extreme makes the first rows the edge cases:
 * all -inf, a NaN, huge values, a constant row.  With --bench the median
 * time of a call, beside a device-to-device copy of the same bytes (half
 * of them copied: a copy reads and writes each), whose speed is the bar.
 */
#include "config.h"
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/reference.h"
#include "cli/rows_reference.h"
#include "cli/run.h"
#include "cli/timing.h"
#include "gen/parallel.h"
#include "gen/rows.h"

#define IGNORE_INDEX (-100)
#define POISON 0x7b  /* a byte whose f32, f16 and bf16 are large numbers, not NaN */

/* One matrix and its operands, on the host and the device. */
struct rcase {
	const struct kgen_spec *s;
	struct rows_host h;
	unsigned long long rows, cols, pitch;
	size_t xbytes, ybytes, wbytes, lbytes, lossbytes;
	int copies;
	unsigned char *x, *w, *b, *labels, *back, *back_lse;
	CUdeviceptr dx[64], dw, db, dlabels, dy, dloss, dlse;
};

static void
free_case(kgen_context *ctx, struct rcase *c)
{
	const struct kgen_cu *cu = ctx->cu;
	int i;

	for (i = 0; i < c->copies; i++)
		if (c->dx[i])
			cu->cuMemFree(c->dx[i]);
	if (c->dw)
		cu->cuMemFree(c->dw);
	if (c->db)
		cu->cuMemFree(c->db);
	if (c->dlabels)
		cu->cuMemFree(c->dlabels);
	if (c->dy)
		cu->cuMemFree(c->dy);
	if (c->dloss)
		cu->cuMemFree(c->dloss);
	if (c->dlse)
		cu->cuMemFree(c->dlse);
	free(c->x);
	free(c->w);
	free(c->b);
	free(c->labels);
	free(c->back);
	free(c->back_lse);
	memset(c, 0, sizeof *c);
}

static double
uniform(uint64_t *st, double lo, double hi)
{
	return lo + (hi - lo) * ((double)(kgen_splitmix64(st) >> 11) * 0x1p-53);
}

/* --extreme: row 0 all -inf, row 1 a NaN amid numbers, row 2 huge
 * values (exp of them, or of their differences, overflows without the max
 * taken first; their squares still fit the f32 statistics, as in torch,
 * whose f32 sums of squares of 1e30 would be inf too), row 3 one value
 * throughout. */
static void
edge_rows(const struct kgen_spec *s, struct rcase *c)
{
	double huge = s->dtype == KGEN_DT_F16 ? 30000 : 1e15;
	unsigned long long r, j;

	for (r = 0; r < 4 && r < c->rows; r++)
		for (j = 0; j < c->cols; j++) {
			size_t at = (size_t)(r * c->pitch + j);
			double v = kgen_host_get(s->dtype, c->x, at);
			if (r == 0)
				v = -INFINITY;
			else if (r == 1 && j == c->cols / 2)
				v = NAN;
			else if (r == 2)
				v = (j % 2 ? -huge : huge) * (1 - 0.001 * (double)(j % 7));
			else if (r == 3)
				v = 1.25;
			kgen_host_set(s->dtype, c->x, at, v);
		}
}

/* The seeded rows of x, a part of them a job (side by side): row r's
 * numbers come from its own splitmix64 sequence, so the matrix is the same
 * whatever the number of threads. */
struct fill_job {
	struct rcase *c;
	uint64_t seed;
	int parts;
};

static void
fill_part(void *arg, int p)
{
	struct fill_job *j = arg;
	struct rcase *c = j->c;
	unsigned long long per = c->rows / (unsigned long long)j->parts + 1, r, k;
	unsigned long long lo = per * (unsigned long long)p, hi = lo + per < c->rows ? lo + per : c->rows;

	for (r = lo; r < hi; r++) {
		uint64_t st = j->seed ^ (r * 0xd1b54a32d192ed03ull);
		for (k = 0; k < c->pitch; k++)
			kgen_host_set(c->s->dtype, c->x, (size_t)(r * c->pitch + k), k < c->cols ? uniform(&st, -4, 4) : NAN);
	}
}

static void
fill(const struct run_opts *o, struct rcase *c)
{
	const struct kgen_spec *s = c->s;
	uint64_t st = o->seed ^ (c->rows * 0x9e3779b97f4a7c15ull) ^ (c->cols * 0xbf58476d1ce4e5b9ull);
	struct fill_job job = { c, st, c->rows < 256 ? (int)(c->rows ? c->rows : 1) : 256 };
	unsigned long long r, j;

	kgen_parallel_for(job.parts, 0, fill_part, &job);
	if (kgen_rows_has_weight(s))
		for (j = 0; j < c->cols; j++) {
			kgen_host_set(s->weight_dtype, c->w, (size_t)j, uniform(&st, 0.5, 1.5));
			kgen_host_set(s->weight_dtype, c->b, (size_t)j, uniform(&st, -0.5, 0.5));
		}
	if (!kgen_rows_writes_y(s))
		for (r = 0; r < c->rows; r++) {
			long long label = r % 7 == 6 ? IGNORE_INDEX : (long long)(kgen_splitmix64(&st) % c->cols);
			if (s->label_dtype == KGEN_DT_I32) {
				int32_t v = (int32_t)label;
				memcpy(c->labels + r * 4, &v, 4);
			} else {
				int64_t v = label;
				memcpy(c->labels + r * 8, &v, 8);
			}
		}
	if (o->extreme)
		edge_rows(s, c);
}

#define ALLOC(p, n) (!((p) = malloc((size_t)(n) + 1)))

static kgen_status
make_case(kgen_context *ctx, const struct run_opts *o, const kgen_spec *s, unsigned long long rows,
          unsigned long long cols, int copies, struct rcase *c, kgen_error *err)
{
	const struct kgen_cu *cu = ctx->cu;
	int i;

	memset(c, 0, sizeof *c);
	c->s = s;
	c->rows = rows;
	c->cols = cols;
	c->pitch = cols + (unsigned long long)o->pad;
	c->copies = copies < 1 ? 1 : copies > 64 ? 64 : copies;
	c->xbytes = (size_t)(rows * c->pitch) * (size_t)s->r.dtype->size;
	c->ybytes = kgen_rows_writes_y(s) ? (size_t)(rows * c->pitch) * (size_t)s->r.out->size : 0;
	c->wbytes = kgen_rows_has_weight(s) ? (size_t)cols * (size_t)kgen_dtype_info[s->weight_dtype].size : 0;
	c->lbytes = kgen_rows_writes_y(s) ? 0 : (size_t)rows * (size_t)kgen_dtype_info[s->label_dtype].size;
	c->lossbytes = kgen_rows_writes_y(s) ? 0 : (size_t)rows * (size_t)s->r.out->size;
	if (ALLOC(c->x, c->xbytes) || ALLOC(c->w, c->wbytes) || ALLOC(c->b, c->wbytes) || ALLOC(c->labels, c->lbytes) ||
	    ALLOC(c->back, c->ybytes + c->lossbytes) || ALLOC(c->back_lse, rows * 4))
		return kgen_fail(err, KGEN_ENOMEM, "out of host memory for a %llux%llu matrix", rows, cols);
	fill(o, c);
	for (i = 0; i < c->copies; i++) {
		KGEN_CU(cu, err, cuMemAlloc, (&c->dx[i], c->xbytes + 16));
		KGEN_CU(cu, err, cuMemcpyHtoD, (c->dx[i], c->x, c->xbytes));
	}
	if (c->wbytes) {
		KGEN_CU(cu, err, cuMemAlloc, (&c->dw, c->wbytes));
		KGEN_CU(cu, err, cuMemAlloc, (&c->db, c->wbytes));
		KGEN_CU(cu, err, cuMemcpyHtoD, (c->dw, c->w, c->wbytes));
		KGEN_CU(cu, err, cuMemcpyHtoD, (c->db, c->b, c->wbytes));
	}
	if (c->lbytes) {
		KGEN_CU(cu, err, cuMemAlloc, (&c->dlabels, c->lbytes));
		KGEN_CU(cu, err, cuMemcpyHtoD, (c->dlabels, c->labels, c->lbytes));
		KGEN_CU(cu, err, cuMemAlloc, (&c->dloss, c->lossbytes));
		KGEN_CU(cu, err, cuMemAlloc, (&c->dlse, rows * 4));
	} else {
		KGEN_CU(cu, err, cuMemAlloc, (&c->dy, c->ybytes + 16));
	}
	c->h = (struct rows_host){ rows, cols, c->pitch, c->x, c->wbytes ? c->w : NULL, c->wbytes ? c->b : NULL,
	                           c->labels, IGNORE_INDEX, 1e-5 };
	return KGEN_OK;
}

/* Do specs a and b take the same case: the op and every type? */
static int
same_case(const struct kgen_spec *a, const struct kgen_spec *b)
{
	return a->row_op == b->row_op && a->dtype == b->dtype && a->out_dtype == b->out_dtype &&
	       a->weight_dtype == b->weight_dtype && a->label_dtype == b->label_dtype;
}

/* One call, on copy i % copies of x. */
static kgen_status
launch(kgen_kernel *k, const struct rcase *c, int i, CUstream stream, kgen_error *err)
{
	const struct kgen_spec *s = kgen_kernel_spec(k);
	struct kgen_rows_args a = { 0 };

	a.x = c->dx[i % c->copies];
	a.rows = c->rows;
	a.cols = c->cols;
	a.x_pitch = a.y_pitch = c->pitch;
	a.eps = c->h.eps;
	if (kgen_rows_writes_y(s)) {
		a.y = c->dy;
		a.weight = kgen_rows_has_weight(s) ? c->dw : 0;
		a.bias = kgen_rows_has_bias(s) ? c->db : 0;
	} else {
		a.labels = c->dlabels;
		a.loss = c->dloss;
		a.lse = c->dlse;
		a.ignore_index = IGNORE_INDEX;
	}
	return kgen_rows(k, &a, (kgen_stream)stream, err);
}

/* The rows compared side by side. */
struct compare_job {
	const struct rcase *c;
	unsigned long long bad[64], first_row[64];
	char first[64][200];
	int parts;
};

static void
compare_part(void *arg, int p)
{
	struct compare_job *j = arg;
	const struct rcase *c = j->c;
	const struct kgen_spec *s = c->s;
	unsigned long long per = c->rows / (unsigned long long)j->parts + 1, r, k;
	unsigned long long lo = per * (unsigned long long)p, hi = lo + per < c->rows ? lo + per : c->rows;
	double *y = kgen_rows_writes_y(s) ? malloc((size_t)c->cols * sizeof *y) : NULL, loss = 0, lse = 0;

	j->bad[p] = 0;
	if (kgen_rows_writes_y(s) && !y) {
		j->bad[p] = hi > lo ? hi - lo : 0;
		snprintf(j->first[p], sizeof j->first[p], "out of host memory");
		return;
	}
	for (r = lo; r < hi; r++) {
		kgen_rows_reference(s, &c->h, r, y, &loss, &lse);
		if (y) {
			/* log_softmax: x - shift, an error of the shift's size even where y is 0 */
			double scale = s->row_op == KGEN_ROW_LOG_SOFTMAX ? 1 : 0;
			if (s->row_op != KGEN_ROW_SOFTMAX)
				for (k = 0; k < c->cols; k++)
					if (isfinite(y[k]) && fabs(y[k]) > scale)
						scale = fabs(y[k]);
			for (k = 0; k < c->cols; k++) {
				double got = kgen_host_get(s->r.out - kgen_dtype_info, c->back, (size_t)(r * c->pitch + k));
				if (!kgen_rows_close(s, got, y[k], c->cols, scale) && !j->bad[p]++) {
					j->first_row[p] = r;
					snprintf(j->first[p], sizeof j->first[p], "y[%llu][%llu] = %.9g, expected %.9g", r, k, got, y[k]);
				}
			}
			/* the row's padding as poisoned: a store past the row's end shows */
			{
				size_t osize = (size_t)s->r.out->size, b;
				const unsigned char *pad = c->back + (size_t)(r * c->pitch + c->cols) * osize;
				for (b = 0; b < (size_t)(c->pitch - c->cols) * osize; b++)
					if (pad[b] != POISON) {
						if (!j->bad[p]++) {
							j->first_row[p] = r;
							snprintf(j->first[p], sizeof j->first[p], "y[%llu][%llu], in the row's padding, was written",
							         r, c->cols + b / osize);
						}
						break;
					}
			}
		} else {
			double got = kgen_host_get(s->r.out - kgen_dtype_info, c->back, (size_t)r), gl;
			float f;
			memcpy(&f, c->back_lse + r * 4, 4);
			gl = f;
			if ((!kgen_rows_close(s, got, loss, c->cols, fabs(lse)) ||
			     !kgen_rows_close_as(&kgen_dtype_info[KGEN_DT_F32], gl, lse, c->cols, 0)) && !j->bad[p]++) {
				j->first_row[p] = r;
				snprintf(j->first[p], sizeof j->first[p], "row %llu: loss %.9g, lse %.9g, expected %.9g, %.9g", r,
				         got, gl, loss, lse);
			}
		}
	}
	free(y);
}

/* Poison the outputs, call once, compare every output: *bad and the first in msg. */
static kgen_status
verify(kgen_context *ctx, kgen_kernel *k, struct rcase *c, unsigned long long *bad, char *msg, size_t len,
       kgen_error *err)
{
	const struct kgen_cu *cu = ctx->cu;
	const struct kgen_spec *s = kgen_kernel_spec(k);
	struct compare_job *j;
	kgen_status st;
	int p;

	*bad = 0;
	if (c->dy)
		KGEN_CU(cu, err, cuMemsetD8Async, (c->dy, POISON, c->ybytes, NULL));
	if (c->dloss) {
		KGEN_CU(cu, err, cuMemsetD8Async, (c->dloss, POISON, c->lossbytes, NULL));
		KGEN_CU(cu, err, cuMemsetD8Async, (c->dlse, POISON, c->rows * 4, NULL));
	}
	if ((st = launch(k, c, 0, NULL, err)))
		return st;
	if (cu->cuCtxSynchronize())
		return kgen_fail(err, KGEN_ECUDA, "the kernel failed (cuCtxSynchronize)");
	if (c->dy)
		KGEN_CU(cu, err, cuMemcpyDtoH, (c->back, c->dy, c->ybytes));
	else {
		KGEN_CU(cu, err, cuMemcpyDtoH, (c->back, c->dloss, c->lossbytes));
		KGEN_CU(cu, err, cuMemcpyDtoH, (c->back_lse, c->dlse, c->rows * 4));
	}
	if (!(j = calloc(1, sizeof *j)))
		return kgen_fail(err, KGEN_ENOMEM, "out of host memory");
	j->c = c;
	j->parts = c->rows < 64 ? (int)(c->rows ? c->rows : 1) : 64;
	kgen_parallel_for(j->parts, 0, compare_part, j);
	for (p = 0; p < j->parts; p++) {
		if (j->bad[p] && !*bad)
			snprintf(msg, len, "%s", j->first[p]);
		*bad += j->bad[p];
	}
	if (!*bad)
		snprintf(msg, len, "all %llu %s checked", kgen_rows_writes_y(s) ? c->rows * c->cols : c->rows,
		         kgen_rows_writes_y(s) ? "elements" : "losses and log-sum-exps");
	free(j);
	return KGEN_OK;
}

/* The bytes a call reads and writes once each: x, the weight and bias, the labels, y or the losses. */
static size_t
moved_bytes(const struct rcase *c)
{
	size_t esize = (size_t)c->s->r.dtype->size, osize = (size_t)c->s->r.out->size;
	size_t b = (size_t)(c->rows * c->cols) * esize;

	if (kgen_rows_writes_y(c->s))
		b += (size_t)(c->rows * c->cols) * osize + c->wbytes * (kgen_rows_has_bias(c->s) ? 2 : 1);
	else
		b += c->lbytes + c->lossbytes + (size_t)c->rows * 4;
	return b;
}

struct timed_call {
	kgen_kernel *k;
	const struct rcase *c;
};

static kgen_status
rows_once(void *arg, int i, CUstream stream, kgen_error *err)
{
	struct timed_call *t = arg;

	return launch(t->k, t->c, i, stream, err);
}

/* The copy of the same bytes: time it once per size, keep it. */
static kgen_status
copy_bar(kgen_context *ctx, const struct run_opts *o, size_t moved, size_t *last, float *ms, kgen_error *err)
{
	size_t half = moved / 2;
	kgen_status st;

	if (*last == moved)
		return KGEN_OK;
	if (!(st = kgen_copy_apart_ms(ctx, half, o->runs, ms, err))) {
		*last = moved;
		printf("# device-to-device copy of %zu MB (moving %zu MB, read + write): %.2f us, %.1f GB/s\n", half >> 20,
		       moved >> 20, *ms * 1e3, (double)moved / (*ms * 1e-3) / 1e9);
	}
	return st;
}

static void
report(FILE *tsv, const struct run_spec *rs, const struct rcase *c, const char *verdict, const char *msg, float ms,
       float copy_ms)
{
	const struct kgen_spec *s = rs->spec;
	double moved = (double)moved_bytes(c);
	char shape[64];

	snprintf(shape, sizeof shape, "%llux%llu", c->rows, c->cols);
	printf("%-48s %-14s %-13s %-8s", rs->path, shape, kgen_row_ops[s->row_op].name, verdict);
	if (ms >= 0)
		printf(" %10.2f us %8.1f GB/s  copy %8.1f GB/s  kgen/copy %.3f", ms * 1e3, moved / (ms * 1e-3) / 1e9,
		       copy_ms > 0 ? moved / (copy_ms * 1e-3) / 1e9 : -1, copy_ms > 0 ? copy_ms / ms : -1);
	printf("  %s\n", msg);
	if (tsv) {
		kgen_tsv_text(tsv, rs->path);
		fprintf(tsv, "\t%s\t%s\t%s\t%s\t%.3f\t%.1f\t-1\t-1\t%.3f\t%.1f\t%.3f\t0\t%s\t-1\n", s->r.dtype->name,
		        kgen_row_ops[s->row_op].name, shape, verdict, ms * 1e3, ms > 0 ? moved / (ms * 1e-3) / 1e9 : -1,
		        copy_ms * 1e3, copy_ms > 0 ? moved / (copy_ms * 1e-3) / 1e9 : -1,
		        copy_ms > 0 && ms > 0 ? copy_ms / ms : -1, kgen_timing_method_name(KGEN_TIME_PER_CALL));
	}
	fflush(stdout);
}

static kgen_status
run(kgen_context *ctx, const struct run_opts *o, struct run_spec *specs, int nspecs, FILE *tsv, int *failures,
    kgen_error *err)
{
	size_t copied = 0;
	float copy_ms = -1;
	struct rcase c;
	kgen_status st = KGEN_OK;
	int i, j;

	memset(&c, 0, sizeof c);
	for (j = 0; j < o->nshape && !st && !kgen_run_stopped(); j++) {
		for (i = 0; i < nspecs && !st && !kgen_run_stopped(); i++) {
			kgen_spec *spec = specs[i].spec;
			unsigned long long rows = o->shape[j][0], cols = o->shape[j][1], bad = 0;
			size_t xbytes = (size_t)(rows * (cols + (unsigned long long)o->pad)) * (size_t)spec->r.dtype->size;
			int copies = o->bench ? kgen_run_copies(ctx, o, xbytes) : 1;
			const char *verdict = "-";
			char msg[400] = "-";
			float ms = -1;

			if ((st = kgen_context_enter(ctx, err)))
				break;
			/* One case for the specs that compute the same at this shape (a sweep's points). */
			if (!c.s || c.rows != rows || c.cols != cols || !same_case(c.s, spec)) {
				free_case(ctx, &c);
				if ((st = make_case(ctx, o, spec, rows, cols, copies, &c, err)))
					break;
			}
			if (o->verify) {
				st = verify(ctx, specs[i].kernel, &c, &bad, msg, sizeof msg, err);
				if (st == KGEN_EINVAL) {  /* the spec cannot take this shape: say so, go on */
					snprintf(msg, sizeof msg, "%.300s", err->message);
					verdict = "rejected";
					st = KGEN_OK;
				} else if (!st) {
					verdict = bad ? "FAIL" : "ok";
					if (bad) {
						size_t l = strlen(msg);
						snprintf(msg + l, sizeof msg - l, "; %llu wrong", bad);
						(*failures)++;
					}
				}
			}
			if (!st && o->bench && strcmp(verdict, "rejected") && strcmp(verdict, "FAIL")) {
				struct timed_call call = { specs[i].kernel, &c };
				if (!(st = kgen_gpu_warm_once(ctx, err)) &&
				    (st = kgen_median_ms(ctx, rows_once, &call, o->runs, &ms, err)) == KGEN_EINVAL) {
					snprintf(msg, sizeof msg, "%.300s", err->message);  /* not verified first: refused here */
					verdict = "rejected";
					ms = -1;
					st = KGEN_OK;
				} else if (!st) {
					st = copy_bar(ctx, o, moved_bytes(&c), &copied, &copy_ms, err);
				}
			}
			if (!st)
				report(tsv, &specs[i], &c, verdict, msg, ms, copy_ms);
		}
	}
	free_case(ctx, &c);
	return st;
}

/* Every --shape is one matrix that fits the host's memory, twice (x and y). */
static kgen_status
check(const struct run_opts *o, const kgen_spec *spec, kgen_error *err)
{
	unsigned long long size = 8;  /* a double a row's element in the reference, a host copy back */
	int j;

	for (j = 0; j < o->nshape; j++)
		if (o->shape[j][2] != 1)
			return kgen_fail(err, KGEN_EINVAL, "--shape %llux%llux%llu: kernel: rows takes ROWSxCOLS, not a batch",
			                 o->shape[j][2], o->shape[j][0], o->shape[j][1]);
		else if (o->shape[j][1] > ~0ull - (unsigned long long)o->pad ||
		         kgen_run_too_large(o->shape[j][0], o->shape[j][1] + (unsigned long long)o->pad, 2 * size))
			return kgen_fail(err, KGEN_EINVAL, "--shape %llux%llu: the matrix of %s does not fit in memory",
			                 o->shape[j][0], o->shape[j][1], spec->r.dtype->name);
	return KGEN_OK;
}

/* kgen tune at one shape: the case as kgen run makes it, with copies. */
static kgen_status
tune_prepare(kgen_context *ctx, const struct run_opts *o, const kgen_spec *spec, int j, void **out, kgen_error *err)
{
	unsigned long long rows = o->shape[j][0], cols = o->shape[j][1];
	struct rcase *c = calloc(1, sizeof *c);
	kgen_status st;

	*out = NULL;
	if (!c)
		return kgen_fail(err, KGEN_ENOMEM, "out of memory");
	st = make_case(ctx, o, spec, rows, cols,
	               kgen_run_copies(ctx, o, (size_t)(rows * cols) * (size_t)spec->r.dtype->size), c, err);
	if (st) {
		free_case(ctx, c);
		free(c);
		return st;
	}
	*out = c;
	return KGEN_OK;
}

static kgen_status
tune_verify(kgen_context *ctx, void *arg, kgen_kernel *k, int *ok, char *msg, size_t len, kgen_error *err)
{
	unsigned long long bad = 0;
	kgen_status st = verify(ctx, k, arg, &bad, msg, len, err);

	*ok = !st && !bad;
	if (!st && bad) {
		size_t l = strlen(msg);
		snprintf(msg + l, len - l, "; %llu wrong", bad);
	}
	return st;
}

static kgen_status
tune_call(void *arg, kgen_kernel *k, int i, CUstream stream, kgen_error *err)
{
	return launch(k, arg, i, stream, err);
}

static void
tune_free(kgen_context *ctx, void *arg)
{
	if (arg) {
		free_case(ctx, arg);
		free(arg);
	}
}

static const struct kgen_tuner tuner = {
	.prepare = tune_prepare, .verify = tune_verify, .call = tune_call, .free = tune_free,
};

const struct kgen_runner kgen_runner_rows = { .check = check, .run = run, .tune = &tuner };
