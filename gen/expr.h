/*
 * expr.h - the expressions of `op: custom` (map, combine, identity, post):
 * a small subset of C, parsed here so that what reaches the generated file
 * is known to be one expression of the names its function declares, and so
 * that `kgen run` can compute a reference on the CPU.
 *
 * An expression holds numbers (decimal, hex, floating, with exactly C's
 * suffixes), its key's names (map: x, i; combine: a, b; post: a, n;
 * identity: none), the functions of expr.c's table (sqrt, fabsf, min,
 * fmaxf, isnan, __int_as_float, ...), casts to C's arithmetic types
 * ((float)x, (unsigned long long)i) and to Acc, Index and Out (Out in post
 * only: the other functions are generated where it may not be declared),
 * parentheses and C's unary, binary and ?: operators but assignment,
 * increment, comma, subscript and member access.  Nothing else: no ';',
 * brace, newline, comment, '#', string or character literal.
 */
#ifndef KGEN_EXPR_H
#define KGEN_EXPR_H

#include <stddef.h>
#include "spec.h"

#define KGEN_EXPR_NODES 128

/* The type of a number or of a cast (a node's `type`).  char is signed, and
 * long 64 bits, as on CUDA's hosts; Acc, Out and Index are the spec's, which
 * the parser does not know: kgen_expr_eval() takes them from the spec. */
enum kgen_expr_type {
	KGEN_EXPR_BOOL, KGEN_EXPR_CHAR, KGEN_EXPR_UCHAR, KGEN_EXPR_SHORT, KGEN_EXPR_USHORT, KGEN_EXPR_INT,
	KGEN_EXPR_UINT, KGEN_EXPR_LLONG, KGEN_EXPR_ULLONG, KGEN_EXPR_FLOAT, KGEN_EXPR_DOUBLE, KGEN_EXPR_ACC,
	KGEN_EXPR_OUT, KGEN_EXPR_INDEX,
};

/* A parsed expression of key `key`; its nodes come after their operands. */
struct kgen_expr {
	int n, root;
	enum kgen_key key;
	struct kgen_expr_node {
		int kind;        /* expr.c's node kinds */
		int op;          /* operator, function or variable */
		int a, b, c;     /* operands, -1 when absent */
		int type;        /* a number's or a cast's type, an enum kgen_expr_type */
		long double f;   /* a floating number's value */
		long long i;     /* an integer number's bits */
	} node[KGEN_EXPR_NODES];
};

/* A value on the CPU: floating (f) or integer (i). */
struct kgen_value {
	int is_float;
	long double f;
	long long i;
};

/* Parse expression `text` of key k.  On a fault, KGEN_ESPEC with why set
 * and *at the byte offset in text where it is. */
kgen_status kgen_expr_parse(enum kgen_key k, const char *text, struct kgen_expr *e, size_t *at, char *why,
                            size_t n);

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

/* Does expression text use the name `name` (an identifier token)? */
int kgen_expr_uses(const char *text, const char *name);

#endif
