//! Block reduction: warps in registers, then one warp over the warp totals.
// The block's total, in thread 0: each warp reduces its 32 values in
// registers, then warp 0 reduces the {{warps}} warp totals.
static __device__ __forceinline__ Acc block_reduce(Acc v)
{
    constexpr int WARPS = THREADS / 32;
    __shared__ Acc warp_totals[WARPS];
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;

    v = warp_reduce(v);
    if (lane == 0)
        warp_totals[warp] = v;
    __syncthreads();
    if (warp == 0)
        v = warp_reduce(lane < WARPS ? warp_totals[lane] : identity());
    return v;
}
