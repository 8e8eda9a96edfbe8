/* transpose.h - the transpose family: source and launch geometry. */
#ifndef KGEN_TRANSPOSE_H
#define KGEN_TRANSPOSE_H

#include "spec.h"

/* Blocks for a rows x cols input: one per tile. */
unsigned long long kgen_transpose_grid(const struct kgen_spec *s, unsigned long long rows, unsigned long long cols);

/* Append the whole CUDA source for a transpose spec. */
kgen_status kgen_transpose_emit(const struct kgen_spec *s, strbuf *out, kgen_error *err);

#endif
