/*
 * expr_eval.h - the expressions computed on the CPU (expr_eval.c), for
 * `kgen run`'s reference of op: custom and of a matmul epilogue.
 *
 * What it promises: the value the generated function computes for a tree
 * that kgen_expr_parse() (expr_type.h) accepted, up to the GPU's rounding:
 * every node has its C type (expr_type.h's), integers wrap at their C
 * type's width and follow its signedness, a float converted to an integer
 * saturates (NaN to 0, as the GPU's cvt), shifts past the width give what
 * the GPU's shl and shr give, and a division by 0 gives 0.  Floating values
 * are rounded to float or double where the text says so (a literal's type,
 * a cast); arithmetic, calls and implicit conversions stay in long double.
 */
#ifndef KGEN_EXPR_EVAL_H
#define KGEN_EXPR_EVAL_H

#include "expr_type.h"

/* A value on the CPU: floating (f) or integer (i). */
struct kgen_value {
	int is_float;
	long double f;
	long long i;
};

/* Evaluate e as the generated function computes it, with its names bound:
 * x, i, a, b, n (those e's key declares).  The types are spec s's: x is
 * the element's (float for f16 and bf16), i and n are Index, a and b Acc;
 * (Acc), (Out) and (Index) casts are its types, and the result is
 * converted to the function's: Acc, or Out for post.  Integers wrap at
 * their C type's width and follow its signedness (a float converted to an
 * integer saturates, NaN to 0, as the GPU's cvt); float and double results
 * are rounded to their type.  s may be NULL (or unchecked): then Acc and
 * Out are double, Index unsigned long long and x as given. */
struct kgen_value kgen_expr_eval(const struct kgen_expr *e, const struct kgen_spec *s, struct kgen_value x,
                                 struct kgen_value i, struct kgen_value a, struct kgen_value b,
                                 struct kgen_value n);

/* The names of a matmul epilogue at one element of C: v, acc, c and the
 * operands bias and residual (0 where the spec declares none) of the
 * spec's acc_dtype, row and col int. */
struct kgen_epilogue_at {
	double v, acc, c, bias, residual;
	long long row, col;
};

/* A matmul epilogue e as the generated function computes it at *at; the
 * result is of acc_dtype. */
struct kgen_value kgen_expr_eval_epilogue(const struct kgen_expr *e, const struct kgen_spec *s,
                                          const struct kgen_epilogue_at *at);

#endif
