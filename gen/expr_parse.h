/*
 * expr_parse.h - the expressions' syntax (expr_parse.c): text to a tree.
 *
 * An expression holds numbers (decimal, hex, floating, with exactly C's
 * suffixes), its key's names (map: x, i; combine: a, b; post: a, n;
 * identity: none; matmul's epilogue: v, acc, c, row, col), the functions of
 * KGEN_EXPR_FUNCS (sqrt, fabsf, min, fmaxf, isnan, __int_as_float, ...),
 * casts to C's arithmetic types ((float)x, (unsigned long long)i) and to
 * Acc, Index and Out (Out in post only: the other functions are generated
 * where it may not be declared), parentheses and C's unary, binary and ?:
 * operators but assignment, increment, comma, subscript and member access.
 * Nothing else: no ';', brace, newline, comment, '#', string or character
 * literal.
 *
 * What it promises: a tree that kgen_expr_parse_tree() returns KGEN_OK for
 * is one C expression of exactly that language, each node after its
 * operands, each number and cast with its C++ type, each node's place in
 * the text; a fault is the first one in the text, at its byte, with why.
 * It types nothing else: the operators' and calls' types, and the faults
 * they make, are expr_type.h's.  It reads the key table (spec.h) only.
 */
#ifndef KGEN_EXPR_PARSE_H
#define KGEN_EXPR_PARSE_H

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

/* A row of KGEN_EXPR_TYPES. */
struct kgen_expr_ctype {
	const char *name;
	int rank, bits, is_signed;
};
extern const struct kgen_expr_ctype kgen_expr_ctypes[KGEN_EXPR_ACC];

/* Is C++ type t (not Acc, Out or Index) floating? */
static inline int
kgen_expr_is_floating(int t)
{
	return kgen_expr_ctypes[t].rank >= kgen_expr_ctypes[KGEN_EXPR_FLOAT].rank;
}

/* The functions an expression may call: name, number of arguments, CUDA's
 * overloads (the set of expr_type.c's table that it takes), and what it
 * computes on the CPU (expr_eval.c's cpu_*: a name's variants alike, in
 * the type the overload resolves to).  NVRTC declares them all for device
 * code but the activations (gelu, gelu_tanh, sigmoid, silu), which
 * templates/expr/activations.cu defines where an expression uses them
 * (expr_emit.c). */
#define KGEN_EXPR_FUNCS(X) \
	X(abs, 1, abs, abs) X(fabs, 1, fp, abs) X(fabsf, 1, f, abs) X(llabs, 1, llabs, abs) \
	X(min, 2, minmax, min) X(max, 2, minmax, max) X(fmin, 2, fp, min) X(fminf, 2, f, min) \
	X(fmax, 2, fp, max) X(fmaxf, 2, f, max) X(fmod, 2, fp, fmod) X(fmodf, 2, f, fmod) \
	X(sqrt, 1, fp, sqrt) X(sqrtf, 1, f, sqrt) X(rsqrt, 1, fp, rsqrt) X(rsqrtf, 1, f, rsqrt) \
	X(cbrt, 1, fp, cbrt) X(cbrtf, 1, f, cbrt) X(exp, 1, fp, exp) X(expf, 1, f, exp) \
	X(exp2, 1, fp, exp2) X(exp2f, 1, f, exp2) X(expm1, 1, fp, expm1) X(expm1f, 1, f, expm1) \
	X(log, 1, fp, log) X(logf, 1, f, log) X(log2, 1, fp, log2) X(log2f, 1, f, log2) \
	X(log10, 1, fp, log10) X(log10f, 1, f, log10) X(log1p, 1, fp, log1p) X(log1pf, 1, f, log1p) \
	X(pow, 2, pow, pow) X(powf, 2, f, pow) X(hypot, 2, fp, hypot) X(hypotf, 2, f, hypot) \
	X(sin, 1, fp, sin) X(sinf, 1, f, sin) X(cos, 1, fp, cos) X(cosf, 1, f, cos) \
	X(tan, 1, fp, tan) X(tanf, 1, f, tan) X(tanh, 1, fp, tanh) X(tanhf, 1, f, tanh) \
	X(atan2, 2, fp, atan2) X(atan2f, 2, f, atan2) X(erf, 1, fp, erf) X(erff, 1, f, erf) \
	X(floor, 1, fp, floor) X(floorf, 1, f, floor) X(ceil, 1, fp, ceil) X(ceilf, 1, f, ceil) \
	X(round, 1, fp, round) X(roundf, 1, f, round) X(trunc, 1, fp, trunc) X(truncf, 1, f, trunc) \
	X(fma, 3, fp, fma) X(fmaf, 3, f, fma) X(copysign, 2, copysign, copysign) X(copysignf, 2, f, copysign) \
	X(isnan, 1, classify, isnan) X(isinf, 1, classify, isinf) X(isfinite, 1, classify, isfinite) \
	X(signbit, 1, classify, signbit) X(__int_as_float, 1, int_as_float, int_as_float) \
	X(__float_as_int, 1, float_as_int, float_as_int) \
	X(__longlong_as_double, 1, longlong_as_double, longlong_as_double) \
	X(__double_as_longlong, 1, double_as_longlong, double_as_longlong) \
	X(gelu, 1, fp, gelu) X(gelu_tanh, 1, fp, gelu_tanh) X(sigmoid, 1, fp, sigmoid) X(silu, 1, fp, silu)

/* A call node's `op`: KGEN_EXPR_FN_sqrt, ... */
enum kgen_expr_fn {
#define X(name, args, set, cpu) KGEN_EXPR_FN_##name,
	KGEN_EXPR_FUNCS(X)
#undef X
	KGEN_EXPR_FN_COUNT
};

/* A function's name and number of arguments (a row of KGEN_EXPR_FUNCS). */
struct kgen_expr_func {
	const char *name;
	int args;
};
extern const struct kgen_expr_func kgen_expr_funcs[KGEN_EXPR_FN_COUNT];

/* A node's `kind` (struct kgen_expr_node, spec.h). */
enum kgen_expr_kind { KGEN_N_NUM, KGEN_N_VAR, KGEN_N_UNARY, KGEN_N_BINARY, KGEN_N_COND, KGEN_N_CALL, KGEN_N_CAST };

/* A name's node `op`: the names of every key, in kgen_expr_var_names' order. */
enum kgen_expr_var { KGEN_V_X, KGEN_V_I, KGEN_V_A, KGEN_V_B, KGEN_V_N, KGEN_V_V, KGEN_V_ACC, KGEN_V_C, KGEN_V_ROW,
                     KGEN_V_COL, KGEN_V_BIAS, KGEN_V_RESIDUAL, KGEN_V_COUNT };

/* Names of the accumulator's type (combine's a and b; the epilogue's v, acc, c, bias and residual). */
#define KGEN_EXPR_IS_ACC_VAR(v) \
	((v) == KGEN_V_A || (v) == KGEN_V_B || (v) == KGEN_V_V || (v) == KGEN_V_ACC || (v) == KGEN_V_C || \
	 (v) == KGEN_V_BIAS || (v) == KGEN_V_RESIDUAL)

/* A binary operator's node `op`: its characters packed (c0 | c1 << 8), so
 * '+' is '+' and "<=" is kgen_expr_op("<="); a unary one's is its character. */
static inline int
kgen_expr_op(const char *op)
{
	return (unsigned char)op[0] | ((unsigned char)op[1] << 8);
}

/* Parse expression `text` of key k into e: its syntax, its names (those
 * key k declares) and its numbers' and casts' types.  On a fault, KGEN_ESPEC
 * with why set (n bytes) and *at the byte offset in text where it is.
 * kgen_expr_parse() (expr_type.h) adds the faults of types. */
kgen_status kgen_expr_parse_tree(enum kgen_key k, const char *text, struct kgen_expr *e, size_t *at, char *why,
                                 size_t n);

/* The names key k declares, for messages: "x and i", "a and b", "a and n",
 * "none (a constant)". */
const char *kgen_expr_names(enum kgen_key k);

/* Does expression text use the name `name` (an identifier token)? */
int kgen_expr_uses(const char *text, const char *name);

#endif
