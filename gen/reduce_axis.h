/* reduce_axis.h - the matrix reduction family (`kernel: reduce_axis`): what
 * its runtime launcher needs from the generator. */
#ifndef KGEN_REDUCE_AXIS_H
#define KGEN_REDUCE_AXIS_H

#include "family.h"

/* Elements per load: load_width / element size (1 for strategy: thread). */
long long kgen_reduce_axis_vec(const struct kgen_spec *s);

#endif
