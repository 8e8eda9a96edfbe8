/* matmul_hopper.h - the launch of a `math: wgmma` matmul
 * (runtime/matmul_hopper_launch.c), called by kgen_matmul() once the
 * sizes, pointers, alpha and beta are checked and resolved. */
#ifndef KGEN_MATMUL_HOPPER_H
#define KGEN_MATMUL_HOPPER_H

#include "runtime.h"

/* One wgmma call: m, n and k (each below 2^31; m, n from 1), the leading
 * dimensions resolved, alpha and beta in the accumulator's type. */
struct kgen_wgmma_call {
	CUdeviceptr a, b, c;
	int m, n, k;
	long long lda, ldb, ldc;
	void *alpha, *beta;
};

/* Encode (or reuse) A's and B's tensor maps and launch the kernel. */
kgen_status kgen_matmul_wgmma_launch(kgen_kernel *kn, const struct kgen_wgmma_call *c, CUstream stream,
                                     kgen_error *err);

#endif
