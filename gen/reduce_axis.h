/* reduce_axis.h - the matrix reduction family (`kernel: reduce_axis`): what
 * its runtime launcher needs from the generator. */
#ifndef KGEN_REDUCE_AXIS_H
#define KGEN_REDUCE_AXIS_H

#include "family.h"

/* Elements per load: load_width / element size (1 for strategy: thread). */
long long kgen_reduce_axis_vec(const struct kgen_spec *s);

/* strategy: auto on rows: rows of up to `vectors` vectors (of load_width
 * bytes) take a kernel of `lanes` threads per row; longer rows take a block
 * per row (or several).  Chosen from the H200 sweeps (bench/sweep-axis.sh). */
#define KGEN_AXIS_AUTO_ROWS(X) \
	X(1, 2)   \
	X(4, 32)  \
	X(16, 512)

struct kgen_axis_choice {
	int lanes;
	long long vectors;
};
extern const struct kgen_axis_choice kgen_axis_choices[];  /* ended by lanes 0 */

#endif
