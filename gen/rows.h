/* rows.h - the fused row family (`kernel: rows`): what its launcher and
 * its runner take from the generator, derived once. */
#ifndef KGEN_ROWS_H
#define KGEN_ROWS_H

#include "family.h"

/* strategy: auto's kernels that hold a row in registers, in launch order:
 * a row of up to lanes x vectors loads (of load_width bytes) takes the
 * first that holds it; lanes 0 is a block per row (threads lanes), lanes
 * above 32 several warps per row and threads / lanes rows a block.  Longer
 * rows take the online kernel.  cross_entropy streams its rows whatever
 * the kernel, so its auto has the kernels of fewer lanes than a block and
 * the online one. */
#define KGEN_ROWS_AUTO(X) \
	X(8, 4)   \
	X(32, 4)  \
	X(128, 4) \
	X(0, 4)   \
	X(0, 8)

struct kgen_rows_choice {
	int lanes;       /* threads per row; 0: the block's */
	int vectors;     /* loads each thread holds */
};

/* The kernels of a checked spec in launch-table order, as the contract
 * lists them (its steps): for strategy auto every row of KGEN_ROWS_AUTO
 * the op takes, then the online kernel (lanes -1, vectors the online
 * batch); for another strategy its one kernel.  Returns the count. */
int kgen_rows_kernels(const struct kgen_spec *s, struct kgen_rows_choice *out, int max);

/* The longest row, in loads of load_width bytes, that a kernel of choice c
 * holds (0: any: the online and the streaming cross_entropy kernels). */
unsigned long long kgen_rows_capacity(const struct kgen_spec *s, const struct kgen_rows_choice *c);

/* Rows one block of choice c takes at once. */
long long kgen_rows_per_block(const struct kgen_spec *s, const struct kgen_rows_choice *c);

/* The ops' outputs and inputs: does op write y (else a loss), read a weight, a bias, labels? */
int kgen_rows_writes_y(const struct kgen_spec *s);
int kgen_rows_has_weight(const struct kgen_spec *s);
int kgen_rows_has_bias(const struct kgen_spec *s);

#endif
