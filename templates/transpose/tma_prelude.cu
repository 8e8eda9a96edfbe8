//! What both TMA transposes share: the tensor-map type, and each PTX
//! instruction they use wrapped once in a named helper, so that the
//! kernels read in those names (as CUTLASS/CuTe's do).
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

// An mbarrier that completes when one thread has arrived and the bytes it
// expects have landed; the init is made visible to the TMA unit.
static __device__ __forceinline__ void mbarrier_init(unsigned long long *bar)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(smem(bar)));
}

static __device__ __forceinline__ void fence_mbarrier_init()
{
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}

// Arrive on bar, expecting `bytes` more from a TMA copy.
static __device__ __forceinline__ void mbarrier_arrive_expect_tx(unsigned long long *bar, unsigned int bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(smem(bar)), "r"(bytes) : "memory");
}

// Wait until the phase of bar with this parity has completed.
static __device__ __forceinline__ void mbarrier_wait(unsigned long long *bar, unsigned int parity)
{
    for (unsigned int done = 0; !done;)
        asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                     : "=r"(done) : "r"(smem(bar)), "r"(parity) : "memory");
}

// Make the threads' shared-memory writes visible to the TMA unit.
static __device__ __forceinline__ void fence_proxy_async_shared()
{
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

{{copy_helpers}}

// Close this thread's bulk group of TMA stores; wait until at most PENDING
// of its groups still read shared memory.
static __device__ __forceinline__ void bulk_commit_group()
{
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
}

template <int PENDING>
static __device__ __forceinline__ void bulk_wait_group_read()
{
    asm volatile("cp.async.bulk.wait_group.read %0;" :: "n"(PENDING) : "memory");
}
