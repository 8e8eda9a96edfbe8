//! TMA loads and mbarriers (sm_90), each PTX instruction wrapped once in a
//! named helper: what math: wgmma's kernels and math: mma's loads: tma
//! share.  smem() comes from smem_addr.cu.
// A tensor map as cuTensorMapEncodeTiled() writes it: 128 opaque bytes,
// passed by value as a __grid_constant__ parameter.
struct alignas(64) CUtensorMap {
    unsigned long long opaque[16];
};

// An mbarrier whose phase completes when `count` threads have arrived (and
// the bytes they expect have landed).
static __device__ __forceinline__ void mbarrier_init(unsigned long long *bar, unsigned int count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(smem(bar)), "r"(count) : "memory");
}

// Make the mbarriers' initialisation visible to the TMA unit and the other threads.
static __device__ __forceinline__ void fence_mbarrier_init()
{
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}

// Arrive on bar, expecting `bytes` more from TMA copies that complete on it.
static __device__ __forceinline__ void mbarrier_arrive_expect_tx(unsigned long long *bar, unsigned int bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(smem(bar)), "r"(bytes) : "memory");
}

// Arrive on bar.
static __device__ __forceinline__ void mbarrier_arrive(unsigned long long *bar)
{
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" :: "r"(smem(bar)) : "memory");
}

// Wait until the phase of bar with this parity has completed.
static __device__ __forceinline__ void mbarrier_wait(unsigned long long *bar, unsigned int parity)
{
    for (unsigned int done = 0; !done;)
        asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                     : "=r"(done) : "r"(smem(bar)), "r"(parity) : "memory");
}

// TMA: the box at {x, y} of map (x the contiguous dimension) into shared dst,
// completing on bar.  Elements outside the matrix land as zeros.
static __device__ __forceinline__ void tma_load_2d(void *dst, const CUtensorMap *map, int x, int y,
                                                   unsigned long long *bar)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                 :: "r"(smem(dst)), "l"(map), "r"(x), "r"(y), "r"(smem(bar)) : "memory");
}
