/* acc.h - the op, type and block-reduction pieces every reduction family shares (acc.c). */
#ifndef KGEN_ACC_H
#define KGEN_ACC_H

#include "family.h"
#include "tpl.h"

/* Helpers rendered into placeholder "atomic", "warp_reduce" or
 * "block_reduce" of parent: atomic_combine(p, v), warp_reduce(v) and
 * block_reduce(v) (block_reduce, warp_tail, warp_tail_from, threads). */
kgen_status kgen_acc_atomic_helper(const struct kgen_spec *s, struct tpl_args *parent, kgen_error *err);
kgen_status kgen_acc_warp_reduce_helper(const struct kgen_spec *s, struct tpl_args *parent, kgen_error *err);
kgen_status kgen_acc_block_helper(const struct kgen_spec *s, struct tpl_args *parent, kgen_error *err);

/* The rules of block_reduce, warp_tail and warp_tail_from against threads
 * and the accumulator (check.c). */
kgen_status kgen_check_block_reduce(struct kgen_spec *s, kgen_error *err);

/* load_width against the element size and items_per_thread: whole
 * loads, each thread's items a whole number of them (check.c). */
kgen_status kgen_check_loads(struct kgen_spec *s, kgen_error *err);

/* load_width against the element size alone: a power of two, whole
 * elements (check.c). */
kgen_status kgen_check_load_width(struct kgen_spec *s, kgen_error *err);

#endif
