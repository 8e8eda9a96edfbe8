/*
 * op.h - what a reduction computes, apart from how the threads share the
 * work: the op's types (accumulator, result), its rules, and the C of its
 * functions (identity, combine, to_acc, store), shared by `kernel: reduce`
 * and `kernel: reduce_axis` (op.c).
 *
 * Every op is one shape: each element x (with its index i) is mapped to the
 * accumulator type, partial results are combined from the identity, and the
 * result of n elements goes through a last step to the output type.  The
 * named ops fill the shape from a table; op: custom from the spec's
 * expressions.  argmin and argmax accumulate a pair (value, index).
 */
#ifndef KGEN_OP_H
#define KGEN_OP_H

#include "family.h"
#include "tpl.h"

/* The keys of the op, which every reduction family has, and their rows of
 * a family's only-with table. */
#define KGEN_OP_KEYS \
	KGEN_KEY_out_dtype, KGEN_KEY_nan, KGEN_KEY_map, KGEN_KEY_combine, KGEN_KEY_identity, KGEN_KEY_post
#define KGEN_OP_ONLY_WITH \
	{ KGEN_KEY_acc_dtype, KGEN_KEY_acc_dtype, ~(KGEN_BIT(KGEN_DT_F16) | KGEN_BIT(KGEN_DT_BF16)), \
	  "acc_dtype {v}: 16-bit accumulators lose precision and have no atomics here; accumulate in f32 or f64" }, \
	{ KGEN_KEY_nan, KGEN_KEY_op, KGEN_BIT(KGEN_OP_ARGMIN) | KGEN_BIT(KGEN_OP_ARGMAX), \
	  "nan applies to op: argmin and argmax, not to {w}: drop it" }, \
	{ KGEN_KEY_map, KGEN_KEY_op, KGEN_BIT(KGEN_OP_CUSTOM), \
	  "map is an expression of op: custom, not of op: {w}: drop it, or use op: custom" }, \
	{ KGEN_KEY_combine, KGEN_KEY_op, KGEN_BIT(KGEN_OP_CUSTOM), \
	  "combine is an expression of op: custom, not of op: {w}: drop it, or use op: custom" }, \
	{ KGEN_KEY_identity, KGEN_KEY_op, KGEN_BIT(KGEN_OP_CUSTOM), \
	  "identity is an expression of op: custom, not of op: {w}: drop it, or use op: custom" }, \
	{ KGEN_KEY_post, KGEN_KEY_op, KGEN_BIT(KGEN_OP_CUSTOM), \
	  "post is an expression of op: custom, not of op: {w}: drop it, or use op: custom" }

/* Resolve what the only-with rules read and the op decides, before them
 * (check.c): acc_dtype and out_dtype, and, in a family with `stages`, the
 * stages of an op with a last step left unset: last_block (a written
 * `atomics` then has no effect, and is refused). */
kgen_status kgen_op_resolve(struct kgen_spec *s, kgen_error *err);

/* Resolve acc_dtype and out_dtype and check the op against the types (check). */
kgen_status kgen_op_check(struct kgen_spec *s, kgen_error *err);

/* Why an op with a last step has one, for messages: "writes a value and an
 * index", "has a last step (post)", "converts its result to out_dtype". */
const char *kgen_op_last_step_why(const struct kgen_spec *s);

/* Does the op accumulate a (value, index) pair?  argmin, argmax. */
int kgen_op_is_pair(const struct kgen_spec *s);

/* Does the result need a last step (a post expression, a type conversion
 * or a pair's two outputs)?  Such ops cannot end in atomics. */
int kgen_op_has_result_step(const struct kgen_spec *s);

/* Does to_acc() take the element's index (pairs, a map of i)? */
int kgen_op_uses_index(const struct kgen_spec *s);

/* Bytes of one accumulator (of a partial in scratch). */
int kgen_op_acc_bytes(const struct kgen_spec *s);

/* The result's type; for a pair, the value's (the index is i64). */
const struct kgen_dtype_info *kgen_op_out(const struct kgen_spec *s);

/* Is there a native atomic for the op on the accumulator?  Its call in
 * `call` (with p and v) when there is. */
int kgen_op_native_atomic(const struct kgen_spec *s, char *call, size_t n);

/* The name of the op's __reduce_*_sync, or NULL. */
const char *kgen_op_reduce_sync(const struct kgen_spec *s);

/* The identity, for places that need it as an expression. */
const char *kgen_op_identity(const struct kgen_spec *s);

/* Flags of kgen_op_render(). */
enum {
	KGEN_OP_STORE = 1,       /* store() even without a result step (reduce_axis: every kernel ends in it) */
	KGEN_OP_NO_COMBINE = 2,  /* no combine(): every element goes straight into a native atomic */
	/* What the kernels do with accumulators, for a pair's helpers: */
	KGEN_OP_SHFL_DOWN = 4,   /* __shfl_down_sync (warp_reduce) */
	KGEN_OP_SHFL_XOR = 8,    /* __shfl_xor_sync (lanes_reduce) */
	KGEN_OP_LDCG = 16,       /* __ldcg (the partials of a last block) */
	KGEN_OP_FOLD = 32,       /* fold(acc, x, i): a thread's elements, in index order */
	KGEN_OP_CHAINS = 64,     /* pairs: chain_start/fold/end, a chain per vector lane (needs VEC) */
};

/* The typedef of Acc (and of Out and the pair's helpers), then identity(),
 * combine(), to_acc() and, with a result step or KGEN_OP_STORE, store():
 * placeholders "op_types" and "op_functions" of parent. */
kgen_status kgen_op_render(const struct kgen_spec *s, int flags, struct tpl_args *parent, kgen_error *err);

#endif
