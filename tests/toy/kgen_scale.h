/* kgen_scale.h - the toy family's public call: the lines a real family adds
 * to include/kgen.h (its launch function, KGEN_API, errors as values).
 * libkgen-toy exports it beside the whole of libkgen's API. */
#ifndef KGEN_TOY_KGEN_SCALE_H
#define KGEN_TOY_KGEN_SCALE_H

#include "kgen.h"

/* out[i] = in[i] * factor for i < n, on stream, with a `kernel: scale`
 * kernel: in and out device arrays of the spec's dtype, aligned to its
 * size (they may be the same array).  n = 0 launches nothing.  KGEN_EINVAL
 * for a kernel of another family, a NULL or misaligned array, or an n
 * whose grid does not fit in one launch. */
KGEN_API kgen_status kgen_scale(kgen_kernel *kernel, kgen_devptr in, kgen_devptr out, unsigned long long n,
                                kgen_stream stream, kgen_error *err);

#endif
