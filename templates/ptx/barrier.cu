//! Barriers of more than a block's __syncthreads() and less (sm_90): a
//! warpgroup's named barrier and the cluster-wide barrier.
{{#warpgroup_sync}}
// Wait until the warpgroup's 128 threads have all arrived here: named
// barrier `id` (1 + the warpgroup's index).  The id is in a register, so
// ptxas reserves all 16 barriers; ids as immediates behind a branch on the
// warpgroup measured slower (0.90 of cuBLAS against 0.92-0.94 at 8192^3 on
// an H100: bench/results/nvidia-h100/2026-11-25-wgmma-tma-store).
static __device__ __forceinline__ void warpgroup_sync(int id)
{
    asm volatile("bar.sync %0, 128;" :: "r"(id) : "memory");
}

{{/warpgroup_sync}}
{{#pair_arrive}}
// Tell the other of two warpgroups that this one is past a point: arrive at
// named barrier `id` of their 256 threads without waiting.
static __device__ __forceinline__ void pair_arrive(int id)
{
    asm volatile("bar.arrive %0, 256;" :: "r"(id) : "memory");
}

{{/pair_arrive}}
{{#pair_wait}}
// Wait at named barrier `id` until the other warpgroup has arrived there
// (pair_arrive).
static __device__ __forceinline__ void pair_wait(int id)
{
    asm volatile("bar.sync %0, 256;" :: "r"(id) : "memory");
}

{{/pair_wait}}
{{#cluster_sync}}
// Every thread of the cluster's blocks arrives (releasing its writes: the
// mbarriers' initialisation), then waits for all the others (acquiring theirs).
static __device__ __forceinline__ void cluster_sync()
{
    asm volatile("barrier.cluster.arrive.release;\n\tbarrier.cluster.wait.acquire;" ::: "memory");
}

{{/cluster_sync}}
