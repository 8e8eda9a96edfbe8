/*
 * run_matmul.c - `kgen run` for `kernel: matmul`: at each --shape MxNxK,
 * seeded A and B in [-1, 1] (leading dimensions --pad elements longer than
 * packed), then two checks against an fp64 CPU reference: C = 0.75 A B with
 * C poisoned (NaN: beta 0 must not read it), and C = 0.75 A B + 0.5 C from a
 * random C.  Every element when M*N*K <= 2^31, else 16 whole rows and 16
 * whole columns.  With --bench the median time of C = A B and TFLOPS.
 */
#include "config.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "run.h"
#include "reference.h"
#include "matmul_reductions.h"
#include "gen/matmul_common.h"
#include "timing.h"
#include "gen/expr.h"
#include "gen/parallel.h"

#define FULL_CHECK_MAX (1ull << 31)  /* M*N*K up to which every element is checked */
#define SAMPLES 16                   /* else: rows and columns checked whole */
#define SAMPLE_BLOCK 32              /* and one element of each 32 x 32 block of C, at a place of its own */

/* Whether element (i, j) is the one checked in its SAMPLE_BLOCK block: a
 * hash of the block's place chooses it, so that every tile of C (no tile
 * is smaller than a block's side) has elements checked, at other places in
 * each, not only on the rows and columns a tile's edge may share. */
static int
block_sample(unsigned long long i, unsigned long long j)
{
	unsigned long long x = (i / SAMPLE_BLOCK) * 0x9e3779b97f4a7c15ull ^ (j / SAMPLE_BLOCK) * 0xc2b2ae3d27d4eb4full;

	x ^= x >> 29;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 32;
	return i % SAMPLE_BLOCK == x % SAMPLE_BLOCK && j % SAMPLE_BLOCK == (x >> 8) % SAMPLE_BLOCK;
}

/* One problem on the host and the device. */
struct problem {
	unsigned long long m, n, k, lda, ldb, ldc;
	long long dtype, b_dtype, out_dtype;  /* A's, B's (fp8 may mix e4m3 and e5m2) and C's types */
	int a_row, b_row;
	double scale;                  /* scale: tensor: *scale_a *scale_b (0.5 x 0.25), else 1 */
	float *sa, *sb;                /* scale: block: A's (kb x m) and B's (ceil(n / 128) x kb) scales, else NULL */
	unsigned long long kb;         /* scale: block: ceil(k / 128), the blocks of k */
	void *a, *b, *c0;              /* host: A, B and the random C of the beta check */
	size_t abytes, bbytes, cbytes;
	CUdeviceptr da, db, dc;
	/* The epilogue's operands the spec declares (else NULL and 0): a bias
	 * vector of m or n and an m x n residual of row pitch ldr. */
	long long bias_dtype, residual_dtype;
	int bias_by_row;
	unsigned long long ldr;
	void *bias, *residual;
	size_t bias_bytes, residual_bytes;
	size_t aux_bytes;              /* the auxiliary output (aux:), m x n of C's type, rows ops.ldaux apart */
	long long acc_dtype;           /* the reductions' type */
	long long row_reduce, col_reduce;  /* the spec's reductions, masks of enum kgen_mm_reduce */
	struct kgen_matmul_operands ops;
};

static unsigned long long
span(int row_major, unsigned long long rows, unsigned long long cols, unsigned long long ld)
{
	return row_major ? (rows - 1) * ld + cols : (cols - 1) * ld + rows;
}

static void
free_problem(kgen_context *ctx, struct problem *p)
{
	int i;

	if (p->da)
		ctx->cu->cuMemFree(p->da);
	if (p->db)
		ctx->cu->cuMemFree(p->db);
	if (p->dc)
		ctx->cu->cuMemFree(p->dc);
	if (p->ops.bias)
		ctx->cu->cuMemFree(p->ops.bias);
	if (p->ops.residual)
		ctx->cu->cuMemFree(p->ops.residual);
	if (p->ops.aux)
		ctx->cu->cuMemFree(p->ops.aux);
	if (p->ops.scale_a)  /* scale_b is its second float */
		ctx->cu->cuMemFree(p->ops.scale_a);
	for (i = 0; i < KGEN_MATMUL_REDUCTIONS; i++) {
		if (p->ops.row_reduce[i])
			ctx->cu->cuMemFree(p->ops.row_reduce[i]);
		if (p->ops.col_reduce[i])
			ctx->cu->cuMemFree(p->ops.col_reduce[i]);
	}
	free(p->bias);
	free(p->residual);
	free(p->sa);
	free(p->sb);
	free(p->a);
	free(p->b);
	free(p->c0);
	memset(p, 0, sizeof *p);
}

/* n seeded values in [-1, 1] of dtype into host (each rounded to it). */
static void
fill(long long dtype, void *host, size_t n, uint64_t seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		kgen_host_set(dtype, host, i, (double)(kgen_splitmix64(&seed) >> 11) * 0x1p-52 - 1.0);
}

/* n seeded fp8 operands, each an integer from -2 to 2: a k-term sum of
 * their products stays an integer below 2^13 in magnitude (k up to 2^20 or
 * so at random), which every accumulation of the tensor cores (fp8_accum:
 * fast keeps about 14 bits) adds exactly, so C is checked to f32's bound
 * whatever the mode; the modes' rounding on real data is measured apart. */
static void
fill_fp8(long long dtype, void *host, size_t n, uint64_t seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		kgen_host_set(dtype, host, i, (double)(long long)(kgen_splitmix64(&seed) % 5) - 2.0);
}

/* The epilogue's operands the spec declares, seeded in [-1, 1]: the bias
 * vector and the residual matrix (its rows --pad elements longer than n). */
static kgen_status
make_operands(kgen_context *ctx, const struct run_opts *o, const struct kgen_spec *s, struct problem *p,
              kgen_error *err)
{
	int r;

	p->bias_dtype = s->bias_dtype;
	p->residual_dtype = s->residual_dtype;
	p->bias_by_row = s->bias == KGEN_MM_BIAS_ROW;
	if (s->bias != KGEN_MM_BIAS_NONE) {
		size_t size = (size_t)kgen_dtype_info[s->bias_dtype].size, count = (size_t)(p->bias_by_row ? p->m : p->n);
		p->bias_bytes = count * size;
		if (!(p->bias = malloc(p->bias_bytes)))
			return kgen_fail(err, KGEN_ENOMEM, "out of host memory for the bias");
		fill(s->bias_dtype, p->bias, count, o->seed ^ 0xd);
		KGEN_CU(ctx->cu, err, cuMemAlloc, (&p->ops.bias, p->bias_bytes));
		KGEN_CU(ctx->cu, err, cuMemcpyHtoD, (p->ops.bias, p->bias, p->bias_bytes));
	}
	if (s->residual != KGEN_MM_RESIDUAL_NONE) {
		size_t size = (size_t)kgen_dtype_info[s->residual_dtype].size;
		p->ldr = p->n + (unsigned long long)o->pad;
		p->residual_bytes = (size_t)span(1, p->m, p->n, p->ldr) * size;
		if (!(p->residual = malloc(p->residual_bytes)))
			return kgen_fail(err, KGEN_ENOMEM, "out of host memory for the residual");
		fill(s->residual_dtype, p->residual, p->residual_bytes / size, o->seed ^ 0xe);
		KGEN_CU(ctx->cu, err, cuMemAlloc, (&p->ops.residual, p->residual_bytes));
		KGEN_CU(ctx->cu, err, cuMemcpyHtoD, (p->ops.residual, p->residual, p->residual_bytes));
		p->ops.ldr = p->ldr;
	}
	if (*kgen_spec_expr_text(s, KGEN_KEY_aux)) {  /* rows --pad elements longer than n, as C's */
		p->ops.ldaux = p->n + (unsigned long long)o->pad;
		p->aux_bytes = (size_t)span(1, p->m, p->n, p->ops.ldaux) * (size_t)kgen_dtype_info[s->out_dtype].size;
		KGEN_CU(ctx->cu, err, cuMemAlloc, (&p->ops.aux, p->aux_bytes));
	}
	p->scale = 1;
	if (kgen_matmul_block_scaled(s)) {  /* 0.5, 1 or 2 each: the scaled sums stay exact */
		unsigned long long na, nb, i;
		uint64_t seed = o->seed ^ 0x5;
		p->kb = (p->k + 127) / 128;
		na = p->kb * p->m;
		nb = (p->n + 127) / 128 * p->kb;
		if (!(p->sa = malloc((na ? na : 1) * sizeof *p->sa)) || !(p->sb = malloc((nb ? nb : 1) * sizeof *p->sb)))
			return kgen_fail(err, KGEN_ENOMEM, "out of host memory for the block scales");
		for (i = 0; i < na; i++)
			p->sa[i] = (float)(0.5 * (double)(1 << (kgen_splitmix64(&seed) % 3)));
		for (i = 0; i < nb; i++)
			p->sb[i] = (float)(0.5 * (double)(1 << (kgen_splitmix64(&seed) % 3)));
		KGEN_CU(ctx->cu, err, cuMemAlloc, (&p->ops.scale_a, (na + nb) * sizeof(float) + 256));
		p->ops.scale_b = p->ops.scale_a + (na * sizeof(float) + 255) / 256 * 256;
		if (na)
			KGEN_CU(ctx->cu, err, cuMemcpyHtoD, (p->ops.scale_a, p->sa, na * sizeof(float)));
		if (nb)
			KGEN_CU(ctx->cu, err, cuMemcpyHtoD, (p->ops.scale_b, p->sb, nb * sizeof(float)));
	} else if (kgen_matmul_scaled(s)) {  /* powers of two: the scaled products stay exact */
		const float scales[2] = { 0.5f, 0.25f };
		KGEN_CU(ctx->cu, err, cuMemAlloc, (&p->ops.scale_a, sizeof scales));
		KGEN_CU(ctx->cu, err, cuMemcpyHtoD, (p->ops.scale_a, scales, sizeof scales));
		p->ops.scale_b = p->ops.scale_a + sizeof(float);
		p->scale = (double)scales[0] * scales[1];
	}
	p->acc_dtype = s->acc_dtype;
	p->row_reduce = s->row_reduce > 0 ? s->row_reduce : 0;
	p->col_reduce = s->col_reduce > 0 ? s->col_reduce : 0;
	for (r = 1; r < KGEN_MM_REDUCE_COUNT; r++) {  /* the reductions' vectors, of the accumulator's type */
		size_t size = (size_t)kgen_dtype_info[s->acc_dtype].size;
		if (p->row_reduce & 1LL << r)
			KGEN_CU(ctx->cu, err, cuMemAlloc, (&p->ops.row_reduce[r - 1], (size_t)p->m * size));
		if (p->col_reduce & 1LL << r)
			KGEN_CU(ctx->cu, err, cuMemAlloc, (&p->ops.col_reduce[r - 1], (size_t)p->n * size));
	}
	return KGEN_OK;
}

static kgen_status
make_problem(kgen_context *ctx, const struct run_opts *o, const struct kgen_spec *s, const unsigned long long mnk[3],
             struct problem *p, kgen_error *err)
{
	size_t size = (size_t)s->r.dtype->size, osize = (size_t)kgen_dtype_info[s->out_dtype].size;
	unsigned long long pad = (unsigned long long)o->pad;

	memset(p, 0, sizeof *p);
	p->m = mnk[0];
	p->n = mnk[1];
	p->k = mnk[2];
	p->dtype = s->dtype;
	p->b_dtype = s->b_dtype;
	p->out_dtype = s->out_dtype;
	p->a_row = s->a_layout == KGEN_MM_ROW;
	p->b_row = s->b_layout == KGEN_MM_ROW;
	p->lda = (p->a_row ? p->k : p->m) + pad;
	p->ldb = (p->b_row ? p->n : p->k) + pad;
	p->ldc = p->n + pad;
	p->abytes = (size_t)span(p->a_row, p->m, p->k, p->lda) * size;
	p->bbytes = (size_t)span(p->b_row, p->k, p->n, p->ldb) * size;
	p->cbytes = (size_t)span(1, p->m, p->n, p->ldc) * osize;
	if (!(p->a = malloc(p->abytes)) || !(p->b = malloc(p->bbytes)) || !(p->c0 = malloc(p->cbytes)))
		return kgen_fail(err, KGEN_ENOMEM, "out of host memory for a %llux%llux%llu problem", p->m, p->n, p->k);
	if (kgen_matmul_fp8(s) && !o->accuracy) {
		fill_fp8(p->dtype, p->a, p->abytes / size, o->seed ^ 0xa);
		fill_fp8(p->b_dtype, p->b, p->bbytes / size, o->seed ^ 0xb);
	} else {
		fill(p->dtype, p->a, p->abytes / size, o->seed ^ 0xa);
		fill(p->b_dtype, p->b, p->bbytes / size, o->seed ^ 0xb);
	}
	fill(p->out_dtype, p->c0, p->cbytes / osize, o->seed ^ 0xc);
	KGEN_CU(ctx->cu, err, cuMemAlloc, (&p->da, p->abytes));
	KGEN_CU(ctx->cu, err, cuMemAlloc, (&p->db, p->bbytes));
	KGEN_CU(ctx->cu, err, cuMemAlloc, (&p->dc, p->cbytes));
	KGEN_CU(ctx->cu, err, cuMemcpyHtoD, (p->da, p->a, p->abytes));
	KGEN_CU(ctx->cu, err, cuMemcpyHtoD, (p->db, p->b, p->bbytes));
	return make_operands(ctx, o, s, p, err);
}

/* The epsilon of a float dtype: half its unit in the last place at 1. */
static double
eps_of(long long dtype)
{
	switch (dtype) {
	case KGEN_DT_F64: return 0x1p-53;
	case KGEN_DT_F16: return 0x1p-11;
	case KGEN_DT_BF16: return 0x1p-8;
	default: return 0x1p-24;
	}
}

/* One element's verdict: the reference (the epilogue applied) and its tolerance. */
struct verdict {
	const struct kgen_spec *s;
	const struct kgen_expr *epi;     /* NULL: the epilogue is v */
	double alpha, beta;
	double *ad, *bt;                 /* A (m x k) and B transposed (n x k) as doubles, each row k long */
	const struct kgen_expr *aux;     /* the auxiliary output's expression; NULL: none */
};

/* Rows of A and columns of B a part of host_operands converts. */
#define OPERAND_LINES 64

struct operands_job {
	const struct problem *p;
	struct verdict *v;
	int a_parts;  /* parts 0 to a_parts - 1: A's rows; the rest: B's columns */
};

/* Part i of host_operands: OPERAND_LINES rows of A, or OPERAND_LINES
 * columns of B read a row of B at a time (64 elements in a row of a
 * row-major B, each written to its own row of bt, which stay cached). */
static void
operands_part(void *arg, int i)
{
	const struct operands_job *job = arg;
	const struct problem *p = job->p;
	struct verdict *v = job->v;
	unsigned long long first, last, r, l;

	if (i < job->a_parts) {
		first = (unsigned long long)i * OPERAND_LINES;
		last = first + OPERAND_LINES < p->m ? first + OPERAND_LINES : p->m;
		for (r = first; r < last; r++)
			for (l = 0; l < p->k; l++)
				v->ad[r * p->k + l] =
				    kgen_host_get(p->dtype, p->a, (size_t)(p->a_row ? r * p->lda + l : l * p->lda + r));
		return;
	}
	first = (unsigned long long)(i - job->a_parts) * OPERAND_LINES;
	last = first + OPERAND_LINES < p->n ? first + OPERAND_LINES : p->n;
	for (l = 0; l < p->k; l++)
		for (r = first; r < last; r++)
			v->bt[r * p->k + l] =
			    kgen_host_get(p->b_dtype, p->b, (size_t)(p->b_row ? l * p->ldb + r : r * p->ldb + l));
}

/* A and B as doubles, a row of k per row of A and per column of B, so that
 * each element's dot product reads two contiguous rows (a column of a
 * row-major B read down its rows is a cache miss per element); on every CPU
 * (16384 x 16384 operands are 2^28 elements each). */
static kgen_status
host_operands(const struct problem *p, struct verdict *v, kgen_error *err)
{
	struct operands_job job = { p, v, (int)((p->m + OPERAND_LINES - 1) / OPERAND_LINES) };

	if (!(v->ad = malloc((size_t)(p->m * p->k) * sizeof *v->ad)) ||
	    !(v->bt = malloc((size_t)(p->n * p->k) * sizeof *v->bt))) {
		free(v->ad);
		v->ad = NULL;
		return kgen_fail(err, KGEN_ENOMEM, "out of host memory for the reference");
	}
	kgen_parallel_for(job.a_parts + (int)((p->n + OPERAND_LINES - 1) / OPERAND_LINES), 0, operands_part, &job);
	return KGEN_OK;
}

/* 1 when got is right at (i, j): C's element of expression e (the epilogue; NULL: v), or the auxiliary
 * output's (e: aux). */
static int
element_ok(const struct verdict *v, const struct kgen_expr *e, const struct problem *p, unsigned long long i,
           unsigned long long j, double got, double *want_out, double *tol_out)
{
	double dot = 0, mag = 0, old = 0, val, want, tol, operands = 0;
	unsigned long long l;

	const double *x = v->ad + i * p->k, *y = v->bt + j * p->k;

	if (p->sa) {  /* scale: block: each 128 of k scaled by its row's scale of A and its block's of B */
		unsigned long long l0;
		for (l0 = 0; l0 < p->k; l0 += 128) {
			double d = 0, g = 0, f = (double)p->sa[l0 / 128 * p->m + i] * p->sb[j / 128 * p->kb + l0 / 128];
			for (l = l0; l < p->k && l < l0 + 128; l++) {
				d += x[l] * y[l];
				g += fabs(x[l] * y[l]);
			}
			dot += f * d;
			mag += f * g;
		}
	} else {
		for (l = 0; l < p->k; l++) {
			dot += x[l] * y[l];
			mag += fabs(x[l] * y[l]);
		}
		dot *= p->scale;  /* acc: the scaled product (scale: tensor) */
		mag *= p->scale;
	}
	if (v->beta != 0)
		old = kgen_host_get(p->out_dtype, p->c0, (size_t)(i * p->ldc + j));
	val = v->alpha * dot + v->beta * old;
	want = val;
	if (e) {
		struct kgen_epilogue_at at = { .v = val, .acc = dot, .c = old, .row = (long long)i, .col = (long long)j };
		struct kgen_value r;
		if (p->bias)
			at.bias = kgen_host_get(p->bias_dtype, p->bias, (size_t)(p->bias_by_row ? i : j));
		if (p->residual)
			at.residual = kgen_host_get(p->residual_dtype, p->residual, (size_t)(i * p->ldr + j));
		operands = fabs(at.bias) + fabs(at.residual);
		r = kgen_expr_eval_epilogue(e, v->s, &at);
		want = r.is_float ? (double)r.f : (double)r.i;
	}
	/* The product's bound, carried through the epilogue (an activation's slope is at most 1.13: 2 covers it),
	 * the operands' sums in Acc, then C's rounding. */
	tol = ((double)p->k + 4) * eps_of(v->s->acc_dtype) * 2 * (fabs(v->alpha) * mag + fabs(v->beta * old)) +
	      4 * eps_of(v->s->acc_dtype) * (operands + fabs(val)) + 2 * eps_of(p->out_dtype) * fabs(want) + 1e-300;
	*want_out = want;
	*tol_out = tol;
	if (isnan(want))
		return isnan(got);
	return fabs(got - want) <= tol;
}

/* The reductions' vectors against the reference of the rows and columns
 * checked whole (every one, or the sampled ones). */
static kgen_status
check_reductions(kgen_context *ctx, const struct problem *p, const struct verdict *v, const struct kgen_line_ref *rows,
                 const struct kgen_line_ref *cols, int full, unsigned long long *checked, unsigned long long *bad,
                 char *msg, size_t len, kgen_error *err)
{
	size_t asize = (size_t)kgen_dtype_info[p->acc_dtype].size;
	double eps = eps_of(p->acc_dtype);
	void *got = malloc((size_t)(p->m > p->n ? p->m : p->n) * asize);
	int line, r;

	if (!got)
		return kgen_fail(err, KGEN_ENOMEM, "out of host memory for the reductions");
	for (line = 0; line < 2; line++)
		for (r = 1; r < KGEN_MM_REDUCE_COUNT; r++) {
			unsigned long long count = line ? p->n : p->m, step = (count + SAMPLES - 1) / SAMPLES, i;
			CUdeviceptr d = line ? p->ops.col_reduce[r - 1] : p->ops.row_reduce[r - 1];
			if (!d)
				continue;
			if (ctx->cu->cuMemcpyDtoH(got, d, (size_t)count * asize)) {
				free(got);
				return kgen_fail(err, KGEN_ECUDA, "cuMemcpyDtoH() failed");
			}
			for (i = 0; i < count; i++) {
				double x = kgen_host_get(p->acc_dtype, got, (size_t)i), want, tol;
				if (!full && i % step != 0 && i != count - 1)
					continue;  /* not a line checked whole */
				(*checked)++;
				if (!kgen_line_ref_ok(line ? &cols[i] : &rows[i], (enum kgen_mm_reduce)r, eps, x, &want, &tol) &&
				    !(*bad)++)
					snprintf(msg, len, "alpha %g beta %g: %s_reduce %s[%llu] = %.9g, want %.9g (tolerance %.3g)",
					         v->alpha, v->beta, line ? "col" : "row", kgen_mm_reduces[r].name, i, x, want, tol);
			}
		}
	free(got);
	return KGEN_OK;
}

/* Rows of C a part of the check takes. */
#define CHECK_ROWS 16

/* What a part of the check found: elements checked, wrong, the first wrong one described. */
struct check_part {
	unsigned long long checked, bad;
	char msg[256];
	double err, ref, over_tol;  /* --accuracy: the largest |C - reference|, |reference| and error / tolerance */
};

/* The check of C as it came back (back, back_aux), in parts of CHECK_ROWS rows. */
struct check_job {
	const struct problem *p;
	const struct verdict *v;
	const void *back, *back_aux;
	int full;  /* every element, else the sampled rows and columns */
	int measure;  /* --accuracy: the errors measured (check_part's err, ref, over_tol), none counted bad */
	int count;
	struct check_part *parts;
};

/* Rows [i0, i1) of C checked (every element, or the sampled ones: the
 * whole of SAMPLES rows, SAMPLES columns of the others, and an element of
 * each SAMPLE_BLOCK block: block_sample()) into *out; where
 * rows and cols are given, each checked element's reference folded into
 * its row's and its column's reductions. */
static void
check_lines(const struct check_job *job, unsigned long long i0, unsigned long long i1, struct kgen_line_ref *rows,
            struct kgen_line_ref *cols, struct check_part *out)
{
	const struct problem *p = job->p;
	const struct verdict *v = job->v;
	unsigned long long i, j;

	for (i = i0; i < i1; i++) {
		int whole_row = job->full || i % ((p->m + SAMPLES - 1) / SAMPLES) == 0 || i == p->m - 1;
		for (j = 0; j < p->n; j++) {
			double got, want, tol;
			if (!whole_row && j % ((p->n + SAMPLES - 1) / SAMPLES) != 0 && j != p->n - 1 && !block_sample(i, j))
				continue;
			got = kgen_host_get(p->out_dtype, job->back, (size_t)(i * p->ldc + j));
			out->checked++;
			if (job->measure) {
				element_ok(v, v->epi, p, i, j, got, &want, &tol);
				out->err = fmax(out->err, isnan(got) ? INFINITY : fabs(got - want));
				out->ref = fmax(out->ref, fabs(want));
				out->over_tol = fmax(out->over_tol, fabs(got - want) / tol);
				continue;
			}
			if (!element_ok(v, v->epi, p, i, j, got, &want, &tol) && !out->bad++)
				snprintf(out->msg, sizeof out->msg, "alpha %g beta %g: C[%llu][%llu] = %.9g, want %.9g (tolerance %.3g)",
				         v->alpha, v->beta, i, j, got, want, tol);
			if (rows) {  /* the value the reductions see: before C's rounding, which tol covers */
				kgen_line_ref_fold(&rows[i], want, tol);
				kgen_line_ref_fold(&cols[j], want, tol);
			}
			if (!v->aux)
				continue;
			got = kgen_host_get(p->out_dtype, job->back_aux, (size_t)(i * p->ops.ldaux + j));
			out->checked++;
			if (!element_ok(v, v->aux, p, i, j, got, &want, &tol) && !out->bad++)
				snprintf(out->msg, sizeof out->msg, "alpha %g beta %g: aux[%llu][%llu] = %.9g, want %.9g (tolerance %.3g)",
				         v->alpha, v->beta, i, j, got, want, tol);
		}
		/* C's row padding (ldc > n; the last row has none in the buffer) as it was: poisoned, or
		 * the old C of beta != 0: a store past the row's end shows */
		if (!job->measure && p->ldc > p->n && i + 1 < p->m) {
			size_t osize = (size_t)kgen_dtype_info[p->out_dtype].size, at = (size_t)(i * p->ldc + p->n) * osize, b;
			const unsigned char *got = (const unsigned char *)job->back + at;
			const unsigned char *was = v->beta == 0 ? NULL : (const unsigned char *)p->c0 + at;
			for (b = 0; b < (size_t)(p->ldc - p->n) * osize; b++)
				if (got[b] != (was ? was[b] : 0xff)) {
					if (!out->bad++)
						snprintf(out->msg, sizeof out->msg, "alpha %g beta %g: C[%llu][%llu], in the row's padding, "
						         "was written", v->alpha, v->beta, i, p->n + b / osize);
					break;
				}
		}
	}
}

/* Part i of the check, on a thread of kgen_parallel_for. */
static void
check_part(void *arg, int i)
{
	const struct check_job *job = arg;
	unsigned long long i0 = (unsigned long long)i * CHECK_ROWS;

	check_lines(job, i0, i0 + CHECK_ROWS < job->p->m ? i0 + CHECK_ROWS : job->p->m, NULL, NULL, &job->parts[i]);
}

/* One run of the kernel with alpha and beta, C first poisoned (beta 0) or
 * the random C; every element (or the sampled rows and columns) checked.
 * The wrong count into *bad, the first described in msg. */
static kgen_status
check_once(kgen_context *ctx, kgen_kernel *k, const struct problem *p, const struct verdict *v, int measure, void *back,
           void *back_aux, unsigned long long *bad, char *msg, size_t len, kgen_error *err)
{
	size_t osize = (size_t)kgen_dtype_info[p->out_dtype].size, asize = (size_t)kgen_dtype_info[p->acc_dtype].size;
	int full = p->m * p->n * p->k <= FULL_CHECK_MAX, r;
	unsigned long long i, j, checked = 0;
	struct kgen_line_ref *rows = NULL, *cols = NULL;
	struct check_job job = { p, v, back, back_aux, full, measure, (int)((p->m + CHECK_ROWS - 1) / CHECK_ROWS), NULL };
	struct check_part most = { 0, 0, "", 0, 0, 0 };
	kgen_status st;

	if (v->beta == 0)
		ctx->cu->cuMemsetD8Async(p->dc, 0xff, p->cbytes, NULL);
	else if (ctx->cu->cuMemcpyHtoD(p->dc, p->c0, p->cbytes))
		return kgen_fail(err, KGEN_ECUDA, "cuMemcpyHtoD() failed");
	if (p->ops.aux)  /* poisoned: an element not written shows */
		ctx->cu->cuMemsetD8Async(p->ops.aux, 0xff, p->aux_bytes, NULL);
	for (r = 0; r < KGEN_MATMUL_REDUCTIONS; r++) {  /* poisoned too: the call sets them to identities */
		if (p->ops.row_reduce[r])
			ctx->cu->cuMemsetD8Async(p->ops.row_reduce[r], 0xff, (size_t)p->m * asize, NULL);
		if (p->ops.col_reduce[r])
			ctx->cu->cuMemsetD8Async(p->ops.col_reduce[r], 0xff, (size_t)p->n * asize, NULL);
	}
	if ((st = kgen_matmul_with(k, p->da, p->db, p->dc, p->m, p->n, p->k, p->lda, p->ldb, p->ldc, v->alpha, v->beta,
	                           &p->ops, 0, 0, NULL, err)))
		return st;
	if (ctx->cu->cuCtxSynchronize())
		return kgen_fail(err, KGEN_ECUDA, "the kernel failed (cuCtxSynchronize)");
	if (ctx->cu->cuMemcpyDtoH(back, p->dc, p->cbytes))
		return kgen_fail(err, KGEN_ECUDA, "cuMemcpyDtoH() failed");
	if (p->ops.aux && ctx->cu->cuMemcpyDtoH(back_aux, p->ops.aux, p->aux_bytes))
		return kgen_fail(err, KGEN_ECUDA, "cuMemcpyDtoH() failed");
	if ((p->row_reduce || p->col_reduce) &&
	    (!(rows = malloc((size_t)p->m * sizeof *rows)) || !(cols = malloc((size_t)p->n * sizeof *cols)))) {
		free(rows);
		return kgen_fail(err, KGEN_ENOMEM, "out of host memory for the reductions' reference");
	}
	for (i = 0; rows && i < p->m; i++)
		kgen_line_ref_start(&rows[i]);
	for (j = 0; cols && j < p->n; j++)
		kgen_line_ref_start(&cols[j]);
	if (rows && !measure) {  /* the reductions fold every checked element of a column in row order: on one thread */
		struct check_part all = { 0, 0, "", 0, 0, 0 };
		check_lines(&job, 0, p->m, rows, cols, &all);
		checked += all.checked;
		*bad += all.bad;
		if (all.bad)
			snprintf(msg, len, "%s", all.msg);
	} else {
		if (job.count && !(job.parts = calloc((size_t)job.count, sizeof *job.parts)))
			return kgen_fail(err, KGEN_ENOMEM, "out of host memory for the check");
		kgen_parallel_for(job.count, 0, check_part, &job);
		for (r = 0; r < job.count; r++) {  /* in row order: the first wrong element's message */
			checked += job.parts[r].checked;
			most.err = fmax(most.err, job.parts[r].err);
			most.ref = fmax(most.ref, job.parts[r].ref);
			most.over_tol = fmax(most.over_tol, job.parts[r].over_tol);
			if (job.parts[r].bad && !*bad)
				snprintf(msg, len, "%s", job.parts[r].msg);
			*bad += job.parts[r].bad;
		}
		free(job.parts);
	}
	(void)osize;
	if (measure) {
		free(rows);
		free(cols);
		snprintf(msg, len, "%s %llu elements at alpha 0.75, A and B uniform in [-1, 1] as %s: largest |C - ref| %.4g, "
		         "%.4g of the largest |ref| (%.4g), %.3g x the f32 check's bound", full ? "all" : "sampled rows and "
		         "columns:", checked, kgen_dtype_info[p->dtype].name, most.err, most.err / most.ref, most.ref,
		         most.over_tol);
		return KGEN_OK;
	}
	if (rows) {
		st = check_reductions(ctx, p, v, rows, cols, full, &checked, bad, msg, len, err);
		free(rows);
		free(cols);
		if (st)
			return st;
	}
	if (!*bad)
		snprintf(msg, len, "%s %llu elements checked%s at alpha 0.75 with beta 0 (C poisoned) and 0.5; tolerance "
		         "(K + 4) eps(%s) |alpha| sum|ab| + C's rounding", full ? "all" : "sampled rows and columns:", checked,
		         p->row_reduce || p->col_reduce ? " (the reductions' values of those lines among them, poisoned first)"
		                                        : "", kgen_spec_acc(v->s)->name);
	return KGEN_OK;
}

static kgen_status
verify(kgen_context *ctx, kgen_kernel *k, const struct problem *p, int measure, unsigned long long *bad, char *msg,
       size_t len, kgen_error *err)
{
	const struct kgen_spec *s = kgen_kernel_spec(k);
	const char *text = kgen_spec_expr_text(s, KGEN_KEY_epilogue);
	struct kgen_expr e, aux;
	struct verdict v = { s, NULL, 0.75, 0, NULL, NULL, NULL };
	void *back, *back_aux = NULL;
	size_t at;
	char why[200];
	kgen_status st;

	*bad = 0;
	if (strcmp(text, "v") != 0) {
		if (kgen_expr_parse(KGEN_KEY_epilogue, text, &e, &at, why, sizeof why))
			return kgen_fail(err, KGEN_EINTERNAL, "epilogue: %s", why);
		v.epi = &e;
	}
	if (*kgen_spec_expr_text(s, KGEN_KEY_aux)) {
		if (kgen_expr_parse(KGEN_KEY_aux, kgen_spec_expr_text(s, KGEN_KEY_aux), &aux, &at, why, sizeof why))
			return kgen_fail(err, KGEN_EINTERNAL, "aux: %s", why);
		v.aux = &aux;
	}
	if (!(back = malloc(p->cbytes)) || (p->aux_bytes && !(back_aux = malloc(p->aux_bytes)))) {
		free(back);
		return kgen_fail(err, KGEN_ENOMEM, "out of host memory");
	}
	st = host_operands(p, &v, err);
	if (!st)
		st = check_once(ctx, k, p, &v, measure, back, back_aux, bad, msg, len, err);
	if (!st && !*bad && !measure) {
		v.beta = 0.5;
		st = check_once(ctx, k, p, &v, 0, back, back_aux, bad, msg, len, err);
	}
	free(back_aux);
	free(v.ad);
	free(v.bt);
	free(back);
	return st;
}

/* One timed call: C = A B. */
struct mm_call {
	kgen_kernel *k;
	const struct problem *p;
};

static kgen_status
mm_once(void *arg, int i, CUstream stream, kgen_error *err)
{
	struct mm_call *c = arg;
	const struct problem *p = c->p;

	(void)i;
	return kgen_matmul_with(c->k, p->da, p->db, p->dc, p->m, p->n, p->k, p->lda, p->ldb, p->ldc, 1.0, 0.0, &p->ops, 0, 0,
	                        stream, err);
}

/* Is the spec's epilogue a ReLU, which cuBLASLt fuses (CUBLASLT_EPILOGUE_RELU)? */
static int
epilogue_is_relu(const struct kgen_spec *s)
{
	static const char *const forms[] = { "v > 0 ? v : 0", "v > 0 ? v : 0.0f", "v > 0.0f ? v : 0.0f", "fmaxf(v, 0.0f)",
	                                     "fmax(v, 0.0)", "max(v, 0.0f)" };
	const char *text = kgen_spec_expr_text(s, KGEN_KEY_epilogue);
	size_t i;

	for (i = 0; text && i < sizeof forms / sizeof forms[0]; i++)
		if (strcmp(text, forms[i]) == 0)
			return 1;
	return 0;
}

/* Is the spec's epilogue GELU of v plus a bias vector by column of C's type,
 * what cuBLASLt fuses as CUBLASLT_EPILOGUE_GELU_BIAS (no aux, no residual)?
 * cuBLASLt computes GELU's tanh form; the erf form is timed beside it too. */
static int
epilogue_is_gelu_bias(const struct kgen_spec *s)
{
	static const char *const forms[] = { "gelu_tanh(v + bias)", "gelu_tanh(bias + v)", "gelu_tanh(v+bias)",
	                                     "gelu_tanh(bias+v)", "gelu(v + bias)", "gelu(bias + v)", "gelu(v+bias)",
	                                     "gelu(bias+v)" };
	const char *text = kgen_spec_expr_text(s, KGEN_KEY_epilogue);
	size_t i;

	if (s->bias != KGEN_MM_BIAS_COL || s->bias_dtype != s->out_dtype || s->residual != KGEN_MM_RESIDUAL_NONE ||
	    *kgen_spec_expr_text(s, KGEN_KEY_aux))
		return 0;
	for (i = 0; text && i < sizeof forms / sizeof forms[0]; i++)
		if (strcmp(text, forms[i]) == 0)
			return 1;
	return 0;
}

/* cuBLAS's median milliseconds for problem p, timed by kgen-cublas with
 * --method as kgen was: the faster of cublasGemmEx and cublasLtMatmul (api,
 * 8 bytes, names it), or with the fused ReLU, or GELU of a bias, when the
 * spec's epilogue is one (*fused names it), cublasLtMatmul's; -1 with a note
 * when there is no helper or it fails (kgen's own figures stand). */
static double
peer_ms(const struct run_opts *o, const kgen_spec *s, const struct problem *p, const char **fused, char *api)
{
	struct kgen_cublas_job job;
	struct kgen_cublas_result r;
	kgen_error err;
	const char *epi = kgen_spec_expr_text(s, KGEN_KEY_epilogue);
	int relu = epilogue_is_relu(s), gelu_bias = epilogue_is_gelu_bias(s);

	*fused = relu ? "+relu" : gelu_bias ? "+gelu_bias" : "";
	if (kgen_matmul_block_scaled(s))
		return -1;  /* the helper's cuBLASLt takes per-tensor scales */
	if (!relu && !gelu_bias && ((epi && strcmp(epi, "v") != 0) || *kgen_spec_expr_text(s, KGEN_KEY_aux)))
		return -1;  /* an epilogue cuBLAS has no form of */
	memset(&job, 0, sizeof job);
	job.m = p->m;
	job.n = p->n;
	job.k = p->k;
	job.dtype = s->r.dtype->name;
	job.b_dtype = kgen_dtype_info[p->b_dtype].name;
	job.out_dtype = kgen_dtype_info[p->out_dtype].name;
	job.fast_accum = kgen_matmul_fp8(s) && s->fp8_accum == KGEN_MM_FP8_FAST;
	job.a_layout = p->a_row ? "row" : "col";
	job.b_layout = p->b_row ? "row" : "col";
	job.lda = p->lda;
	job.ldb = p->ldb;
	job.ldc = p->ldc;
	job.alpha = 1.0;
	job.beta = 0.0;
	job.relu = relu;
	job.gelu_bias = gelu_bias;
	job.runs = o->runs;
	job.device = o->device;
	job.method = (enum kgen_timing_method)o->method;
	if (kgen_cublas_time(o->cublas, &job, &r, &err) != KGEN_OK) {
		if (err.status != KGEN_EIO)
			fprintf(stderr, "kgen: cuBLAS peer: %s\n", err.message);
		return -1;
	}
	snprintf(api, 8, "%s", r.api);
	return r.median_ms;
}

/* The bytes a call of p moves once each: A and B read, C written (beta 0,
 * as --bench times it); a device-to-device copy moving as many (reading
 * half, writing half) is the bar. */
static size_t
moved_bytes(const struct problem *p)
{
	size_t in = kgen_dtype_info[p->dtype].size, out = kgen_dtype_info[p->out_dtype].size;

	return (size_t)((p->m * p->k + p->k * p->n) * in + p->m * p->n * out);
}

/* The copy bar for p's bytes: timed once per byte count (kept in *last and
 * *ms), said on a # line; -1 in *ms if it could not be timed. */
static kgen_status
copy_bar(kgen_context *ctx, const struct run_opts *o, const struct problem *p, size_t *last, float *ms,
         kgen_error *err)
{
	size_t moved = moved_bytes(p);
	kgen_status st;

	if (*last == moved)
		return KGEN_OK;
	*ms = -1;
	if (!(st = kgen_copy_apart_ms(ctx, moved / 2, o->runs, ms, err))) {
		*last = moved;
		printf("# device-to-device copy of %.1f MB (moving A, B and C's %.1f MB, read + write): %.2f us, %.1f GB/s\n",
		       (double)(moved / 2) / (1 << 20), (double)moved / (1 << 20), *ms * 1e3, (double)moved / (*ms * 1e-3) / 1e9);
	}
	return st;
}

/* --shape MxNxK: M, N and K of shape j (the default 4096 cubed). */
static void
shape_of(const struct run_opts *o, int j, unsigned long long mnk[3])
{
	if (!o->shape_parts[j]) {
		mnk[0] = mnk[1] = mnk[2] = 4096;
		return;
	}
	mnk[0] = o->shape[j][2];  /* run.c reads BxRxC: M is its B, N its R, K its C */
	mnk[1] = o->shape[j][0];
	mnk[2] = o->shape[j][1];
}

static kgen_status
run(kgen_context *ctx, const struct run_opts *o, struct run_spec *specs, int nspecs, FILE *tsv, int *failures,
    kgen_error *err)
{
	struct problem p;
	kgen_status st = KGEN_OK;
	size_t copied = 0;  /* the byte count copy_ms is of */
	float copy_ms = -1;
	int i, j;

	memset(&p, 0, sizeof p);
	for (j = 0; j < o->nshape && !st && !kgen_run_stopped(); j++) {
		unsigned long long mnk[3];

		shape_of(o, j, mnk);
		for (i = 0; i < nspecs && !st && !kgen_run_stopped(); i++) {
			kgen_spec *spec = specs[i].spec;
			char msg[1200] = "-";
			const char *verdict = "-";
			float ms = -1;
			double cublas = -1, flops = 2.0 * (double)mnk[0] * (double)mnk[1] * (double)mnk[2];
			const char *fused = "";
			char api[8] = "";
			unsigned long long bad = 0;

			free_problem(ctx, &p);
			if ((st = make_problem(ctx, o, spec, mnk, &p, err)) || (st = kgen_context_enter(ctx, err)))
				break;
			if (o->verify) {
				st = verify(ctx, specs[i].kernel, &p, o->accuracy, &bad, msg, sizeof msg, err);
				if (st == KGEN_EINVAL) {
					snprintf(msg, sizeof msg, "%s", err->message);
					verdict = "rejected";
					st = KGEN_OK;
				} else if (!st) {
					verdict = bad ? "FAIL" : o->accuracy ? "measured" : "ok";
					if (bad) {
						size_t l = strlen(msg);
						snprintf(msg + l, sizeof msg - l, "; %llu elements wrong", bad);
						(*failures)++;
					}
				}
			}
			if (!st && o->bench && strcmp(verdict, "rejected") && strcmp(verdict, "FAIL")) {
				struct mm_call call = { specs[i].kernel, &p };
				struct kgen_timing tm;
				if ((st = kgen_gpu_warm_once(ctx, err)) ||
				    (st = kgen_time_calls(ctx, (enum kgen_timing_method)o->method, mm_once, &call, o->runs, &tm, err)))
					break;
				ms = tm.median_ms;
				cublas = peer_ms(o, spec, &p, &fused, api);
				if ((st = copy_bar(ctx, o, &p, &copied, &copy_ms, err)))
					break;
			}
			printf("%-48s %llux%llux%llu %-4s %-8s", specs[i].path, mnk[0], mnk[1], mnk[2],
			       spec->r.dtype->name, verdict);
			if (ms > 0) {
				printf(" %10.2f us %8.2f TFLOPS", ms * 1e3, flops / (ms * 1e-3) / 1e12);
				if (cublas > 0)
					printf("  cuBLAS%s %10.2f us %8.2f TFLOPS  kgen/cuBLAS %.3f%s%s", fused, cublas * 1e3,
					       flops / (cublas * 1e-3) / 1e12, cublas / ms, api[0] ? " by " : "",
					       !strcmp(api, "gemmex") ? "cublasGemmEx" : !strcmp(api, "lt") ? "cublasLtMatmul" : "");
			}
			if (ms > 0 && copy_ms > 0)
				printf("  of copy %.3f", copy_ms / ms);
			printf("  %s\n", msg);
			if (tsv) {  /* ceiling_gbs and pct_ceiling: the copy's GB/s moving the same bytes, and kgen's share of it */
				double moved = (double)moved_bytes(&p);
				int bar = ms > 0 && copy_ms > 0;
				kgen_tsv_text(tsv, specs[i].path);
				fprintf(tsv, "\t%s\tmatmul\t%llux%llux%llu\t%s\t%.3f\t%.3f\t%.1f\t%.1f\t%.3f\t-1\t%.3f\t0\t%s\t-1\n",
				        spec->r.dtype->name, mnk[0], mnk[1], mnk[2], verdict, ms * 1e3,
				        ms > 0 ? flops / (ms * 1e-3) / 1e12 : -1, bar ? moved / (copy_ms * 1e-3) / 1e9 : -1,
				        bar ? 100.0 * copy_ms / ms : -1, cublas * 1e3, cublas > 0 && ms > 0 ? cublas / ms : -1,
				        kgen_timing_method_name((enum kgen_timing_method)o->method));
				fflush(tsv);  /* a run stopped by a timeout keeps the shapes it finished */
			}
			fflush(stdout);
		}
	}
	free_problem(ctx, &p);
	return st;
}

/* Every --shape is MxNxK, and its matrices fit the host's memory. */
static kgen_status
check(const struct run_opts *o, const kgen_spec *spec, kgen_error *err)
{
	unsigned long long size = 8, mnk[3];
	int j;

	for (j = 0; j < o->nshape; j++) {
		if (o->shape_parts[j] == 2)
			return kgen_fail(err, KGEN_EINVAL, "--shape %llux%llu: a matmul takes MxNxK (three numbers: C is M x N, "
			                 "A M x K, B K x N)", o->shape[j][0], o->shape[j][1]);
		shape_of(o, j, mnk);
		if (mnk[0] > 0x7fffffffull || mnk[1] > 0x7fffffffull || mnk[2] > 0x7fffffffull ||
		    kgen_run_too_large(mnk[0], mnk[2] + (unsigned long long)o->pad, size) ||
		    kgen_run_too_large(mnk[2], mnk[1] + (unsigned long long)o->pad, size) ||
		    kgen_run_too_large(mnk[0], mnk[1] + (unsigned long long)o->pad, size))
			return kgen_fail(err, KGEN_EINVAL, "--shape %llux%llux%llu: the matrices of %s do not fit in memory",
			                 mnk[0], mnk[1], mnk[2], spec->r.dtype->name);
	}
	return KGEN_OK;
}

/* ---- kgen tune's hooks: the problem at shape j, shared by every point
 * (they compute alike: the same types, layouts and epilogue) ---- */

struct tune_case {
	struct problem p;
	struct mm_call call;
};

static kgen_status
tune_prepare(kgen_context *ctx, const struct run_opts *o, const kgen_spec *spec, int j, void **out, kgen_error *err)
{
	struct tune_case *c = calloc(1, sizeof *c);
	unsigned long long mnk[3];
	kgen_status st;

	if (!c)
		return kgen_fail(err, KGEN_ENOMEM, "out of host memory");
	shape_of(o, j, mnk);
	if ((st = make_problem(ctx, o, spec, mnk, &c->p, err))) {
		free_problem(ctx, &c->p);
		free(c);
		return st;
	}
	c->call.p = &c->p;
	*out = c;
	return KGEN_OK;
}

static kgen_status
tune_verify(kgen_context *ctx, void *arg, kgen_kernel *k, int *ok, char *msg, size_t len, kgen_error *err)
{
	struct tune_case *c = arg;
	unsigned long long bad = 0;
	kgen_status st = verify(ctx, k, &c->p, 0, &bad, msg, len, err);

	*ok = !st && !bad;
	return st;
}

static kgen_status
tune_call(void *arg, kgen_kernel *k, int i, CUstream stream, kgen_error *err)
{
	struct tune_case *c = arg;

	c->call.k = k;
	return mm_once(&c->call, i, stream, err);
}

static void
tune_free(kgen_context *ctx, void *arg)
{
	struct tune_case *c = arg;

	if (!c)
		return;
	free_problem(ctx, &c->p);
	free(c);
}

static const struct kgen_tuner tuner = {
	.prepare = tune_prepare, .verify = tune_verify, .call = tune_call, .free = tune_free,
};

const struct kgen_runner kgen_runner_matmul = { .check = check, .run = run, .tune = &tuner, .accuracy = 1 };
