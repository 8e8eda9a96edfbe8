/*
 * expr.h - the expressions of `op: custom` (map, combine, identity, post):
 * a small subset of C, parsed here so that what reaches the generated file
 * is known to be one expression of the names its function declares, and so
 * that `kgen run` can compute a reference on the CPU.
 *
 * An expression holds numbers (decimal, hex, floating, with C's suffixes),
 * its key's names (map: x, i; combine: a, b; post: a, n; identity: none),
 * the functions of expr.c's table (sqrt, fabsf, min, fmaxf, isnan,
 * __int_as_float, ...), casts to arithmetic types ((float)x, (Acc)x),
 * parentheses and C's unary, binary and ?: operators but assignment,
 * increment, comma, subscript and member access.  Nothing else: no ';',
 * brace, newline, comment, '#', string or character literal.
 */
#ifndef KGEN_EXPR_H
#define KGEN_EXPR_H

#include <stddef.h>
#include "spec.h"

#define KGEN_EXPR_NODES 128

/* A parsed expression. */
struct kgen_expr {
	int n, root;
	struct kgen_expr_node {
		int kind;        /* expr.c's node kinds */
		int op;          /* operator, function or variable */
		int a, b, c;     /* operands, -1 when absent */
		int is_float;    /* a number's or a cast's type */
		long double f;
		long long i;
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

/* Evaluate e with its names bound: x, i, a, b, n (those e's key declares). */
struct kgen_value kgen_expr_eval(const struct kgen_expr *e, struct kgen_value x, struct kgen_value i,
                                 struct kgen_value a, struct kgen_value b, struct kgen_value n);

/* Does expression text use the name `name` (an identifier token)? */
int kgen_expr_uses(const char *text, const char *name);

#endif
