/* acc.h - the op, type and block-reduction pieces every reduction family shares (acc.c). */
#ifndef KGEN_ACC_H
#define KGEN_ACC_H

#include "family.h"
#include "tpl.h"

/* C expressions for the spec's op on its accumulator type: the identity,
 * combine(a, b), and the body of to_acc(T x). */
const char *kgen_acc_identity(const struct kgen_spec *s);
const char *kgen_acc_combine(const struct kgen_spec *s);
const char *kgen_acc_to_acc(const struct kgen_spec *s);

/* Does the hardware have an atomic for the op on the accumulator type? */
int kgen_acc_native_atomic(const struct kgen_spec *s);

/* Helpers rendered into placeholder "atomic", "warp_reduce" or
 * "block_reduce" of parent: atomic_combine(p, v), warp_reduce(v) and
 * block_reduce(v) (block_reduce, warp_tail, warp_tail_from, threads). */
kgen_status kgen_acc_atomic_helper(const struct kgen_spec *s, struct tpl_args *parent, kgen_error *err);
kgen_status kgen_acc_warp_reduce_helper(const struct kgen_spec *s, struct tpl_args *parent, kgen_error *err);
kgen_status kgen_acc_block_helper(const struct kgen_spec *s, struct tpl_args *parent, kgen_error *err);

/* The rules of block_reduce, warp_tail and warp_tail_from against threads
 * and the accumulator (check.c). */
kgen_status kgen_check_block_reduce(struct kgen_spec *s, kgen_error *err);

#endif
