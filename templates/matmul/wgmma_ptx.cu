//! math: wgmma: each PTX instruction of Hopper's pipeline wrapped once in a
//! named helper (sm_90a): TMA loads, mbarriers, wgmma's fences and groups,
//! shared-memory matrix descriptors and register reallocation.  The
//! kernels are written in these names.
// A tensor map as cuTensorMapEncodeTiled() writes it: 128 opaque bytes,
// passed by value as a __grid_constant__ parameter.
struct alignas(64) CUtensorMap {
    unsigned long long opaque[16];
};

// Shared-memory address of a generic pointer, for the PTX below.
static __device__ __forceinline__ unsigned int smem(const void *p)
{
    return (unsigned int)__cvta_generic_to_shared(p);
}

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

// Order this warpgroup's register accesses before the wgmmas that follow.
static __device__ __forceinline__ void wgmma_fence()
{
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
}

// Close the warpgroup's wgmmas issued so far into one group.
static __device__ __forceinline__ void wgmma_commit_group()
{
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
}

// Wait until at most PENDING of the warpgroup's wgmma groups are in flight.
template <int PENDING>
static __device__ __forceinline__ void wgmma_wait_group()
{
    asm volatile("wgmma.wait_group.sync.aligned %0;" :: "n"(PENDING) : "memory");
}

// Keep the compiler from moving accesses of an accumulator across the
// asynchronous wgmmas that write it.
static __device__ __forceinline__ void wgmma_fence_operand(float &r)
{
    asm volatile("" : "+f"(r) :: "memory");
}

// The descriptor of a 128-byte-swizzled matrix in shared memory starting at
// p: start address, leading and stride byte offsets (each >> 4), base
// offset 0 (the swizzle atoms are 1024-byte aligned) and the 128B swizzle
// mode (1) in bits 62-63.
static __device__ __forceinline__ unsigned long long smem_desc(const void *p, unsigned int lbo, unsigned int sbo)
{
    return (unsigned long long)((smem(p) & 0x3ffff) >> 4) | (unsigned long long)((lbo & 0x3ffff) >> 4) << 16 |
           (unsigned long long)((sbo & 0x3ffff) >> 4) << 32 | 1ull << 62;
}

// Register reallocation between the warpgroups (producer: warpgroup with two
// consumers): this warpgroup's threads give registers up to REGS ...
template <int REGS>
static __device__ __forceinline__ void setmaxnreg_dec()
{
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" :: "n"(REGS));
}

// ... or take them, up to REGS each, from those given up.
template <int REGS>
static __device__ __forceinline__ void setmaxnreg_inc()
{
    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" :: "n"(REGS));
}
