//! mbarriers (sm_90), each PTX instruction wrapped once in a named helper
//! (as cutlass/arch/barrier.h's ClusterTransactionBarrier): what the TMA
//! pipelines of the transposes, math: mma's loads: tma and math: wgmma
//! share.  smem() comes from smem_addr.cu.
{{#mbarrier_init}}
// An mbarrier whose phase completes when `count` threads have arrived (and
// the bytes they expect have landed).
static __device__ __forceinline__ void mbarrier_init(unsigned long long *bar, unsigned int count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(smem(bar)), "r"(count) : "memory");
}

{{/mbarrier_init}}
{{#fence_mbarrier_init}}
// Make the mbarriers' initialisation visible to the TMA unit and the other threads.
static __device__ __forceinline__ void fence_mbarrier_init()
{
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}

{{/fence_mbarrier_init}}
{{#mbarrier_arrive_expect_tx}}
// Arrive on bar, expecting `bytes` more from TMA copies that complete on it.
static __device__ __forceinline__ void mbarrier_arrive_expect_tx(unsigned long long *bar, unsigned int bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(smem(bar)), "r"(bytes) : "memory");
}

{{/mbarrier_arrive_expect_tx}}
{{#mbarrier_arrive}}
// Arrive on bar.
static __device__ __forceinline__ void mbarrier_arrive(unsigned long long *bar)
{
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" :: "r"(smem(bar)) : "memory");
}

{{/mbarrier_arrive}}
{{#mbarrier_arrive_cluster}}
// Arrive on the mbarrier at bar's offset in the shared memory of the
// cluster's block `rank` (the other block's, say).  The arrival orders
// nothing but the warp's reads of a stage, which wgmma's wait has already
// finished, so it is the default .release.cta: .release.cluster made ptxas
// put a MEMBAR.ALL.GPU before every stage's release (a review of the SASS;
// ncu's top stall of this kernel was a memory barrier).
static __device__ __forceinline__ void mbarrier_arrive_cluster(unsigned long long *bar, unsigned int rank)
{
    asm volatile("{ .reg .b32 remote; mapa.shared::cluster.u32 remote, %0, %1;\n\t"
                 "mbarrier.arrive.shared::cluster.b64 _, [remote]; }"
                 :: "r"(smem(bar)), "r"(rank) : "memory");
}

{{/mbarrier_arrive_cluster}}
{{#mbarrier_wait}}
// Wait until the phase of bar with this parity has completed.
static __device__ __forceinline__ void mbarrier_wait(unsigned long long *bar, unsigned int parity)
{
    for (unsigned int done = 0; !done;)
        asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                     : "=r"(done) : "r"(smem(bar)), "r"(parity) : "memory");
}

{{/mbarrier_wait}}
