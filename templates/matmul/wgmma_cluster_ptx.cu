//! math: wgmma, cluster: 2x1 or 1x2: the PTX a cluster of two blocks needs
//! beside wgmma_ptx.cu's, wrapped once: the cluster-wide barrier, an
//! arrival on the other block's mbarrier and TMA's multicast.
// Every thread of both blocks arrives (releasing its writes: the mbarriers'
// initialisation), then waits for all the others (acquiring theirs).
static __device__ __forceinline__ void cluster_sync()
{
    asm volatile("barrier.cluster.arrive.release;\n\tbarrier.cluster.wait.acquire;" ::: "memory");
}

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

// TMA multicast: the box at {x, y} of map into dst's offset in the shared
// memory of each block of the cluster in `blocks` (a bit per rank), each
// completing on the mbarrier at bar's offset in that block.
static __device__ __forceinline__ void tma_load_2d_multicast(void *dst, const CUtensorMap *map, int x, int y,
                                                             unsigned long long *bar, unsigned short blocks)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster"
                 " [%0], [%1, {%2, %3}], [%4], %5;"
                 :: "r"(smem(dst)), "l"(map), "r"(x), "r"(y), "r"(smem(bar)), "h"(blocks) : "memory");
}
