/* reduce.h - the reduction family: source and launch geometry. */
#ifndef KGEN_REDUCE_H
#define KGEN_REDUCE_H

#include "family.h"

/* Elements one block reduces per tile: threads * items_per_thread. */
unsigned long long kgen_reduce_tile(const struct kgen_spec *s);

/* Blocks of the main kernel for n elements on a GPU of sm_count SMs. */
unsigned long long kgen_reduce_grid(const struct kgen_spec *s, unsigned long long n, int sm_count);

/* Bytes of scratch memory a launch needs (partials, ticket); 0 for atomics. */
size_t kgen_reduce_scratch(const struct kgen_spec *s, unsigned long long n, int sm_count);

/* The largest n the spec's index type allows. */
unsigned long long kgen_reduce_max_n(const struct kgen_spec *s);

/* The family's rules (reduce_check.c). */
kgen_status kgen_reduce_check(struct kgen_spec *s, kgen_error *err);
/* Derived defaults the only-with rows read (family.h resolve). */
kgen_status kgen_reduce_resolve(struct kgen_spec *s, kgen_error *err);

#endif
