/*
 * expr_type.h - the expressions' C++ types (expr_type.c): every node of a
 * parsed tree (expr_parse.h) gets the type NVRTC gives it, with the spec's
 * types for x, i, n, a, b (the epilogue's v, acc, c, row, col) and the
 * Acc, Index and Out casts.
 *
 * What it promises: nothing it accepts is refused by NVRTC for its types.
 * An operator that takes integers (%, <<, &, ~, ...) is refused a floating
 * operand, and a call is refused where CUDA's overloads make it ambiguous
 * (sqrt(1), min(x, 0) of a float x), each at the operator or the function,
 * with what to write instead.  kgen_expr_parse() refuses what fails
 * whatever the spec's types; kgen_expr_check() the rest, with the spec's,
 * at the spec's line and column.
 */
#ifndef KGEN_EXPR_TYPE_H
#define KGEN_EXPR_TYPE_H

#include "expr_parse.h"

/* The types of the names and of the Acc, Out and Index casts (KGEN_EXPR_*). */
struct kgen_expr_typing {
	int x, index, acc, out;
};

/* The types of a checked spec's names and casts, as its generated file
 * declares them (f16 and bf16 elements are floats to the expressions, and
 * so is an f16 or bf16 Out). */
struct kgen_expr_typing kgen_expr_typing_of(const struct kgen_spec *s);

/* Every node's C++ type into type[0..e->n) (operands first, as they come in
 * e->node), with the names' and casts' types ty.  A node NVRTC would refuse
 * gets the type C's conversions would give (a floating type for an
 * ambiguous call of a floating-only function). */
void kgen_expr_types(const struct kgen_expr *e, const struct kgen_expr_typing *ty, int *type);

/* Parse expression `text` of key k (kgen_expr_parse_tree()), then type it
 * with every type the names and casts it uses can have: a fault of types
 * that every spec would have (sqrt(1), 1.5 % 2) is one; one that depends
 * on the spec's types (x % 2: an error where x is a float) is left to
 * kgen_expr_check().  On a fault, KGEN_ESPEC with why set and *at the byte
 * offset in text where it is. */
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

#endif
