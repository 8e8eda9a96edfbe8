/* reduce_axis.h - the matrix reduction family (`kernel: reduce_axis`): what
 * its runtime launcher needs from the generator. */
#ifndef KGEN_REDUCE_AXIS_H
#define KGEN_REDUCE_AXIS_H

#include "family.h"

/* Elements per load: load_width / element size (1 for strategy: thread). */
long long kgen_reduce_axis_vec(const struct kgen_spec *s);

/* strategy: auto on rows: rows of up to `vectors` vectors (of load_width
 * bytes) take a kernel of `lanes` threads per row, each thread taking
 * `groups` rows at once; longer rows take a block per row (or several).
 * groups 1 is rows_by_lanes() (chosen from the H200 sweeps,
 * bench/sweeps/sweep-axis.sh); above 1 rows_by_vector(), a vector a lane,
 * for rows of a few vectors: on an H200, 16777216x16 and 8388608x32 f32
 * read at 0.936-0.964 of CUB's sum of the same bytes that way, against
 * 0.645-0.778 with rows_by_lanes<4> (bench/results/nvidia-h200/2026-11-28-rows-tile). */
#define KGEN_AXIS_AUTO_ROWS(X) \
	X(1, 2, 1)   \
	X(4, 4, 4)   \
	X(8, 8, 4)   \
	X(4, 32, 1)  \
	X(16, 512, 1)

/* The same for argmin/argmax, whose compares and wider shuffles make a lane's
 * share of a row worth more than a shorter butterfly: 8 lanes on 256 f32
 * columns took 266 us against 16 lanes' 297 (H200, bench/results/nvidia-h200/ops.md). */
#define KGEN_AXIS_AUTO_ROWS_PAIRS(X) \
	X(1, 2, 1)   \
	X(4, 4, 4)   \
	X(8, 8, 4)   \
	X(4, 32, 1)  \
	X(8, 512, 1)

/* strategy warp (and auto's _lanesN kernels): a launch takes a block for
 * each threads / lanes * groups rows when those rows hold this many bytes or more,
 * else four waves of blocks walking the rows a grid apart.  On an H200 one
 * pass read 4194304x64 f32 rows at 0.949 of CUB's sum of the same bytes
 * against four waves' 0.925, and 1048576x256 at 0.991 against 0.974, but
 * 8388608x32 (16 KiB a block) at 0.715 against 0.770
 * (bench/results/nvidia-h200/2026-11-28-rows-tile). */
#define KGEN_AXIS_PASS_BYTES 32768ull

struct kgen_axis_choice {
	int lanes;
	long long vectors;
	int groups;
};

/* The spec's table of the above, ended by lanes 0. */
const struct kgen_axis_choice *kgen_axis_choices(const struct kgen_spec *s);

#endif
