//! The reduction of one statistic over the threads that share a row.
// v combined over the LANES threads that share a row, every one of them
// getting the result: butterfly shuffles within a warp, then (more than a
// warp: a row's warps, NT / LANES rows a block of NT threads: THREADS but
// in a wide staged kernel) each warp's result through shared memory,
// combined in the row's warp order by every thread.
{{#cluster}}
// LANES above NT is a row over LANES / NT blocks of a cluster:
// then the blocks combine theirs (cluster_reduce()).
{{/cluster}}
template <int LANES, int NT = THREADS, class S>
static __device__ __forceinline__ S row_reduce(S v)
{
    constexpr int BLOCK = LANES < NT ? LANES : NT;  // the row's threads in this block

#pragma unroll
    for (int mask = (BLOCK < 32 ? BLOCK : 32) / 2; mask > 0; mask /= 2)
        v = combine(v, shfl_xor(v, mask));
    if constexpr (BLOCK > 32) {
        __shared__ S warps[NT / 32];
        const S *row = warps + threadIdx.x / BLOCK * (BLOCK / 32);  // this row's warps
        __syncthreads();  // the last call's results are read
        if (threadIdx.x % 32 == 0)
            warps[threadIdx.x / 32] = v;
        __syncthreads();
        v = row[0];
#pragma unroll
        for (int w = 1; w < BLOCK / 32; w++)
            v = combine(v, row[w]);
    }
{{#cluster}}
#if __CUDA_ARCH__ >= 900
    if constexpr (LANES > NT)
        v = cluster_reduce<LANES / NT>(v);
#endif
{{/cluster}}
    return v;
}
