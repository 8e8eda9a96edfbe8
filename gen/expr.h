/*
 * expr.h - the expressions of `op: custom` (map, combine, identity, post):
 * a small subset of C, parsed here so that what reaches the generated file
 * is known to be one expression of the names its function declares, and so
 * that `kgen run` can compute a reference on the CPU.
 *
 * An expression holds numbers (decimal, hex, floating, with exactly C's
 * suffixes), its key's names (map: x, i; combine: a, b; post: a, n;
 * identity: none; matmul's epilogue: v, acc, c, row, col), the functions of expr.c's table (sqrt, fabsf, min,
 * fmaxf, isnan, __int_as_float, ...), casts to C's arithmetic types
 * ((float)x, (unsigned long long)i) and to Acc, Index and Out (Out in post
 * only: the other functions are generated where it may not be declared),
 * parentheses and C's unary, binary and ?: operators but assignment,
 * increment, comma, subscript and member access.  Nothing else: no ';',
 * brace, newline, comment, '#', string or character literal.
 *
 * And nothing NVRTC refuses: every node has the C++ type NVRTC gives it
 * (with the spec's types for x, i, n, a, b and the Acc, Index, Out casts),
 * so that an operator that takes integers (%, <<, &, ~, ...) is refused a
 * floating operand, and a call is refused where CUDA's overloads make it
 * ambiguous (sqrt(1), min(x, 0) of a float x).  kgen_expr_parse() refuses
 * what fails whatever the spec's types; kgen_expr_check() the rest, with
 * the spec's.
 */
#ifndef KGEN_EXPR_H
#define KGEN_EXPR_H

#include <stddef.h>
#include "spec.h"

/* C++'s arithmetic types, as NVRTC types a number, a cast and every other
 * node: ident, name, rank (integer conversion rank, bool 1 to long long
 * 6; float 7, double 8, long double 9), bits, signed.  char is signed and
 * long 64 bits, as on CUDA's hosts; long double is double in device code,
 * but another type to C++'s overloads. */
#define KGEN_EXPR_TYPES(X) \
	X(BOOL,    "bool",               1, 1,  0) \
	X(CHAR,    "char",               2, 8,  1) \
	X(SCHAR,   "signed char",        2, 8,  1) \
	X(UCHAR,   "unsigned char",      2, 8,  0) \
	X(SHORT,   "short",              3, 16, 1) \
	X(USHORT,  "unsigned short",     3, 16, 0) \
	X(INT,     "int",                4, 32, 1) \
	X(UINT,    "unsigned int",       4, 32, 0) \
	X(LONG,    "long",               5, 64, 1) \
	X(ULONG,   "unsigned long",      5, 64, 0) \
	X(LLONG,   "long long",          6, 64, 1) \
	X(ULLONG,  "unsigned long long", 6, 64, 0) \
	X(FLOAT,   "float",              7, 32, 1) \
	X(DOUBLE,  "double",             8, 64, 1) \
	X(LDOUBLE, "long double",        9, 64, 1)

/* The type of a number or of a cast (a node's `type`): one of C++'s, or
 * Acc, Out and Index, the spec's, which the parser does not know:
 * kgen_expr_check() and kgen_expr_eval() take them from the spec. */
enum kgen_expr_type {
#define X(id, ...) KGEN_EXPR_##id,
	KGEN_EXPR_TYPES(X)
#undef X
	KGEN_EXPR_ACC, KGEN_EXPR_OUT, KGEN_EXPR_INDEX,
};

/* struct kgen_expr, a parsed expression, is in spec.h: a checked spec keeps its own. */

/* A value on the CPU: floating (f) or integer (i). */
struct kgen_value {
	int is_float;
	long double f;
	long long i;
};

/* Parse expression `text` of key k.  On a fault, KGEN_ESPEC with why set
 * and *at the byte offset in text where it is.  A fault of types that
 * every spec would have (sqrt(1), 1.5 % 2) is one; one that depends on
 * the spec's types (x % 2: an error where x is a float) is left to
 * kgen_expr_check(). */
kgen_status kgen_expr_parse(enum kgen_key k, const char *text, struct kgen_expr *e, size_t *at, char *why,
                            size_t n);

/* Check every expression of spec s (op: custom; its types resolved) with
 * the spec's types, as NVRTC will compile them: KGEN_ESPEC at the
 * expression's line and the column of the fault (or "(at character N)"
 * for a value set through kgen_spec_set()), e.g. `map: % takes integers,
 * not float: use fmod(x, 2)`; KGEN_OK for another op. */
kgen_status kgen_expr_check(const struct kgen_spec *s, kgen_error *err);
/* The same, keeping each expression's tree in kept[] (map, combine,
 * identity, post): what kgen_spec_check() leaves in the spec's r.expr. */
kgen_status kgen_expr_check_keep(const struct kgen_spec *s, struct kgen_expr kept[4], kgen_error *err);

/* The same for one expression key k of any spec (epilogue, whatever the
 * op): KGEN_OK when it is empty. */
kgen_status kgen_expr_check_key(const struct kgen_spec *s, enum kgen_key k, kgen_error *err);

/* The names key k declares, for messages: "x and i", "a and b", "a and n",
 * "none (a constant)". */
const char *kgen_expr_names(enum kgen_key k);

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

/* A matmul epilogue e (of v, acc, c, row and col) as the generated
 * function computes it: v, acc and c of the spec's acc_dtype, row and col
 * int; the result is of acc_dtype. */
struct kgen_value kgen_expr_eval_epilogue(const struct kgen_expr *e, const struct kgen_spec *s, double v, double acc,
                                          double c, long long row, long long col);

/* Does expression text use the name `name` (an identifier token)? */
int kgen_expr_uses(const char *text, const char *name);

#endif
