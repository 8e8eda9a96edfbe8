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
	CUdeviceptr residual;  /* the epilogue's residual matrix (also in ep), for its TMA map */
	long long ldr;
	CUdeviceptr partials;  /* split_reduce: kernel: split_k x m x n accumulators in the scratch */
	int read_c;            /* beta != 0 as the kernel holds it (ep's): store: tma's variants read C */
};

/* The blocks of kernel `step` the GPU holds at once: its SMs times the
 * blocks an SM holds (1 when the occupancy is not known, or the kernel,
 * built lazily, not yet). */
static inline unsigned long long
kgen_matmul_resident(const kgen_kernel *kn, int step)
{
	return (unsigned long long)kn->ctx->sm_count *
	       (unsigned long long)(kn->occupancy[step] > 0 ? kn->occupancy[step] : 1);
}

/* Whether TMA can load a call's A and B (k = 0 loads neither): both
 * 16-byte aligned, lda and ldb multiples of 16 bytes below 2^40 bytes. */
int kgen_matmul_tma_can_load(const kgen_kernel *kn, CUdeviceptr a, CUdeviceptr b, long long lda, long long ldb, int k);

/* The fields of unaligned: fallback's kernel past what the spec computes:
 * specs/matmul/best/mma_<dtype>.yaml's, which is the same for f16 and bf16. */
#define KGEN_MATMUL_FALLBACK_TILES \
	"math: mma\ntile_m: 128\ntile_n: 128\ntile_k: 64\nwarp_m: 64\nwarp_n: 64\nsmem_layout: swizzled\nstages: 3\n" \
	"store: pairs\n"

/* unaligned: fallback: kn's mma.sync kernel of the same computation, built
 * (through kgen_kernel_build_yaml) at its first call and kept. */
kgen_status kgen_matmul_fallback(kgen_kernel *kn, kgen_kernel **fallback, kgen_error *err);

/* unaligned: repack: each of A and B that TMA cannot load (not 16-byte
 * aligned, or its leading dimension not a multiple of 16 bytes) copied on
 * the stream by the spec's NAME_repack kernel into the kernel's own scratch
 * from byte `keep` (the call's partial sums go before it, in the same
 * buffer), its rows (A's m, or k where A is
 * column-major; B's k, or n where column-major) padded to 16-byte multiples,
 * and *a or *b and *lda or *ldb pointed at the copy.  The pad is never
 * read: the tensor maps' sizes stop at the copied width. */
kgen_status kgen_matmul_repack(kgen_kernel *kn, size_t keep, CUdeviceptr *a, CUdeviceptr *b, long long *lda,
                               long long *ldb, int m, int n, int k, CUstream stream, kgen_error *err);

/* Encode (or reuse) A's and B's tensor maps and launch the kernel. */
kgen_status kgen_matmul_wgmma_launch(kgen_kernel *kn, const struct kgen_wgmma_call *c, CUstream stream,
                                     kgen_error *err);

#endif
