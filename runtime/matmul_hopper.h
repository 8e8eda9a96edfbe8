/* matmul_hopper.h - the launch of a `math: wgmma` matmul
 * (runtime/matmul_hopper_launch.c), called by kgen_matmul() once the
 * sizes, pointers and the epilogue's arguments are checked and resolved. */
#ifndef KGEN_MATMUL_HOPPER_H
#define KGEN_MATMUL_HOPPER_H

#include "runtime.h"

/* One wgmma call: m, n and k (each below 2^31; m, n from 1), the leading
 * dimensions resolved, the kernel's argument ep (struct Epilogue: alpha
 * and beta in the accumulator's type, the operands), C's tiles
 * (kgen_matmul_tiles). */
struct kgen_wgmma_call {
	CUdeviceptr a, b, c;
	int m, n, k;
	long long lda, ldb, ldc;
	void *ep;
	unsigned long long tiles;
};

/* The blocks of the kernel the GPU holds at once: its SMs times the
 * blocks an SM holds (1 when the occupancy is not known). */
static inline unsigned long long
kgen_matmul_resident(const kgen_kernel *kn)
{
	return (unsigned long long)kn->ctx->sm_count * (unsigned long long)(kn->occupancy[0] > 0 ? kn->occupancy[0] : 1);
}

/* Encode (or reuse) A's and B's tensor maps and launch the kernel. */
kgen_status kgen_matmul_wgmma_launch(kgen_kernel *kn, const struct kgen_wgmma_call *c, CUstream stream,
                                     kgen_error *err);

#endif
