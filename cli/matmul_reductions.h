/* matmul_reductions.h - the reference of kernel: matmul's reductions of
 * its stored values (row_reduce, col_reduce) for kgen run --verify: each
 * row's or column's exact values folded in with their tolerances, then a
 * kernel's result checked against the reduction's value and bound. */
#ifndef KGEN_CLI_MATMUL_REDUCTIONS_H
#define KGEN_CLI_MATMUL_REDUCTIONS_H

#include "gen/spec.h"

/* One row or column of the reference: the sums, the extremes, logsumexp
 * and their tolerances, of the values folded in. */
struct kgen_line_ref {
	double sum, sum_tol, abs_sum;  /* sum of the values, of their tolerances, of their magnitudes */
	double sq, sq_tol;             /* sum of their squares, and its tolerance */
	double max, min, absmax;       /* the extremes */
	double ext_tol;                /* the largest tolerance: an extreme's */
	double lse_max, lse_sum;       /* logsumexp: the largest finite value, the sum of exp(value - it) */
	double lse_tol;                /* the largest tolerance of a finite value (-inf weighs nothing) */
	int pos_inf;                   /* a value is +inf (logsumexp is) */
	int nan;                       /* a value is NaN */
	unsigned long long count;
};

void kgen_line_ref_start(struct kgen_line_ref *r);

/* A value of the line: want, within tol of the kernel's. */
void kgen_line_ref_fold(struct kgen_line_ref *r, double want, double tol);

/* 1 when got is reduction `which` of the line within its bound: the folded
 * tolerances, and for the sums (count + 2) eps of the magnitudes for the
 * order the kernel adds them in (eps: the accumulator's; logsumexp's:
 * (count + 2) eps of 1 + its magnitude, the exponentials' and logarithms'
 * roundings); NaN where a value is.  *want and *tol say what was expected. */
int kgen_line_ref_ok(const struct kgen_line_ref *r, enum kgen_mm_reduce which, double eps, double got, double *want,
                     double *tol);

#endif
