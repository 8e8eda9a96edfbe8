/* reduce_axis.h - the matrix reduction family (`kernel: reduce_axis`): what
 * its runtime launcher needs from the generator. */
#ifndef KGEN_REDUCE_AXIS_H
#define KGEN_REDUCE_AXIS_H

#include "family.h"

/* Elements per load: load_width / element size (1 for strategy: thread). */
long long kgen_reduce_axis_vec(const struct kgen_spec *s);

/* strategy: auto on rows: rows of up to `vectors` vectors (of load_width
 * bytes) take a kernel of `lanes` threads per row; longer rows take a block
 * per row (or several).  Chosen from the H200 sweeps (bench/sweeps/sweep-axis.sh). */
#define KGEN_AXIS_AUTO_ROWS(X) \
	X(1, 2)   \
	X(4, 32)  \
	X(16, 512)

/* The same for argmin/argmax, whose compares and wider shuffles make a lane's
 * share of a row worth more than a shorter butterfly: 8 lanes on 256 f32
 * columns took 266 us against 16 lanes' 297 (H200, bench/results/nvidia-h200/ops.md). */
#define KGEN_AXIS_AUTO_ROWS_PAIRS(X) \
	X(1, 2)   \
	X(4, 32)  \
	X(8, 512)

struct kgen_axis_choice {
	int lanes;
	long long vectors;
};

/* The spec's table of the above, ended by lanes 0. */
const struct kgen_axis_choice *kgen_axis_choices(const struct kgen_spec *s);

#endif
