//! kernel: scan, block_scan: warps: warp shuffles, then the warp totals.
constexpr int WARPS = THREADS / 32;

// Each thread's total as the combination of the totals of the threads
// before it (the identity for thread 0), and the block's total in *all:
// each warp scans its totals by shuffles, warp 0 scans the warp totals.
static __device__ __forceinline__ Acc block_exclusive(Acc total, Acc *all)
{
    __shared__ Acc warp_totals[WARPS];
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const Acc inclusive = warp_inclusive(total);
    Acc before = __shfl_up_sync(0xffffffffu, inclusive, 1);

    __syncthreads();  // the last tile's warp totals are read
    if (lane == 31)
        warp_totals[warp] = inclusive;
    __syncthreads();
    if (warp == 0) {
        const Acc w = warp_inclusive(lane < WARPS ? warp_totals[lane] : identity());
        if (lane < WARPS)
            warp_totals[lane] = w;
    }
    __syncthreads();
    *all = warp_totals[WARPS - 1];
    if (lane == 0)
        before = identity();
    return warp == 0 ? before : lane == 0 ? warp_totals[warp - 1] : combine(warp_totals[warp - 1], before);
}
