//! strategy: cluster: the blocks of a cluster combine their statistics
//! through distributed shared memory.
// The rank of this block in its cluster (its part of the row).
static __device__ __forceinline__ unsigned int cluster_rank()
{
    unsigned int r;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
    return r;
}

// The statistic at p in the shared memory of the cluster's block `rank`.
template <class S>
static __device__ __forceinline__ S dsmem_read(const S *p, unsigned int rank)
{
    S v;
    float *f = reinterpret_cast<float *>(&v);
#pragma unroll
    for (int i = 0; i < (int)(sizeof(S) / sizeof(float)); i++)
        f[i] = dsmem_load(reinterpret_cast<const float *>(p) + i, rank);
    return v;
}

// v (each block's, the same in all its threads) combined over the
// cluster's blocks in rank order: each block leaves its own in its shared
// memory, and every thread reads all of them.
template <class S>
static __device__ __forceinline__ S cluster_reduce(S v)
{
    __shared__ S mine;
    if (threadIdx.x == 0)
        mine = v;
    cluster_sync();  // every block's is in place
    S all = dsmem_read(&mine, 0);
#pragma unroll
    for (unsigned int r = 1; r < CLUSTER; r++)
        all = combine(all, dsmem_read(&mine, r));
    cluster_sync();  // all are read before any block writes the next one, or exits
    return all;
}
