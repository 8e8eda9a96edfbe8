/* transpose.h - the transpose family: source and launch geometry. */
#ifndef KGEN_TRANSPOSE_H
#define KGEN_TRANSPOSE_H

#include "family.h"

/* Blocks for a rows x cols input: one per tile. */
unsigned long long kgen_transpose_grid(const struct kgen_spec *s, unsigned long long rows, unsigned long long cols);

/* Shared-memory bytes one block of a transpose spec needs; TMA kernels over
 * 48 KB take it as dynamic shared memory, up to what Hopper allows a block
 * (transpose_check.c). */
long long kgen_transpose_smem(const struct kgen_spec *s);
long long kgen_transpose_dynamic_smem(const struct kgen_spec *s);
#define KGEN_STATIC_SMEM (48 * 1024)
#define KGEN_MAX_DYNAMIC_SMEM 232448

/* The family's rules (transpose_check.c). */
kgen_status kgen_transpose_check(struct kgen_spec *s, kgen_error *err);

#endif
