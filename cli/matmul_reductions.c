/*
 * matmul_reductions.c - the reference of kernel: matmul's row_reduce and
 * col_reduce (matmul_reductions.h): a line's values folded in as exact
 * doubles with each value's tolerance, so that a reduction's bound is the
 * sum (or the largest) of its values' bounds plus the rounding of adding
 * them in the kernel's order (logsumexp: the largest, plus the rounding of
 * its exponentials and logarithms).
 */
#include "config.h"
#include <math.h>
#include "matmul_reductions.h"

void
kgen_line_ref_start(struct kgen_line_ref *r)
{
	*r = (struct kgen_line_ref){ .max = -INFINITY, .min = INFINITY, .lse_max = -INFINITY };
}

void
kgen_line_ref_fold(struct kgen_line_ref *r, double want, double tol)
{
	if (isnan(want)) {
		r->nan = 1;
		return;
	}
	r->count++;
	r->sum += want;
	r->sum_tol += tol;
	r->abs_sum += fabs(want);
	r->sq += want * want;
	r->sq_tol += 2 * fabs(want) * tol + tol * tol;
	r->max = fmax(r->max, want);
	r->min = fmin(r->min, want);
	r->absmax = fmax(r->absmax, fabs(want));
	r->ext_tol = fmax(r->ext_tol, tol);
	if (isinf(want)) {  /* -inf adds exp(-inf) = 0, and its tolerance nothing */
		r->pos_inf |= want > 0;
		return;
	}
	r->lse_tol = fmax(r->lse_tol, tol);
	if (want > r->lse_max) {
		r->lse_sum = r->lse_sum * exp(r->lse_max - want) + 1;
		r->lse_max = want;
	} else
		r->lse_sum += exp(want - r->lse_max);
}

int
kgen_line_ref_ok(const struct kgen_line_ref *r, enum kgen_mm_reduce which, double eps, double got, double *want,
                 double *tol)
{
	double order = ((double)r->count + 2) * eps;

	switch (which) {
	case KGEN_MM_REDUCE_SUM:
		*want = r->sum;
		*tol = r->sum_tol + order * r->abs_sum;
		break;
	case KGEN_MM_REDUCE_SUMSQ:
		*want = r->sq;
		*tol = r->sq_tol + order * r->sq;
		break;
	case KGEN_MM_REDUCE_MAX:
		*want = r->max;
		*tol = r->ext_tol;
		break;
	case KGEN_MM_REDUCE_MIN:
		*want = r->min;
		*tol = r->ext_tol;
		break;
	case KGEN_MM_REDUCE_ABSMAX:
		*want = r->count ? r->absmax : 0;
		*tol = r->ext_tol;
		break;
	case KGEN_MM_REDUCE_LOGSUMEXP:  /* within the largest value's tolerance: d logsumexp = sum softmax(x) dx */
		*want = r->pos_inf ? INFINITY : r->lse_sum > 0 ? r->lse_max + log(r->lse_sum) : -INFINITY;
		*tol = r->lse_tol + order * (1 + fabs(*want));
		break;
	default:
		*want = NAN;
		*tol = 0;
		return 0;
	}
	if (r->nan) {
		*want = NAN;
		return isnan(got);
	}
	if (isinf(*want))  /* an empty line's max or min: exactly the identity */
		return got == *want;
	return fabs(got - *want) <= *tol + 1e-300;
}
