//! math: wgmma: each PTX instruction of Hopper's pipeline wrapped once in a
//! named helper (sm_90a): wgmma's fences and groups, shared-memory matrix
//! descriptors and register reallocation (TMA and mbarriers: tma_ptx.cu).
//! The kernels are written in these names.
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
