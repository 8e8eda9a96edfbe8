//! The whole generated file for `kernel: scan`.  The header comment, the
//! type and op definitions and the kernel (lookback.cu or block.cu) are
//! filled in by gen/scan.c.
{{header}}

// Elements are {{dtype}}, combined in {{acc_dtype}}; indices are 64-bit.
typedef {{t_ctype}} T;
{{op_types}}
typedef unsigned long long Index;

// {{threads}} threads per block, each scanning {{items}} adjacent elements of a tile.
constexpr int THREADS = {{threads}};
constexpr int ITEMS = {{items}};
constexpr int WARPS = THREADS / 32;
constexpr Index TILE = (Index)THREADS * ITEMS;
constexpr int TILE_WORDS = THREADS * ITEMS + THREADS * ITEMS / 32;  // padded()

{{op_functions}}

// A tile's elements in shared memory, one word skipped every 32 so that
// thread t reading its ITEMS adjacent elements (t * ITEMS + j) and the
// warps reading across the tile (j * THREADS + t) meet no bank twice.
static __device__ __forceinline__ constexpr int padded(int i) { return i + i / 32; }

// The tile's elements at `first` (n - first of them left) into shared memory
// as accumulators, read across the tile (coalesced); the identity past n.
static __device__ __forceinline__ void load_tile(Acc *tile, const T *__restrict__ in, Index first, Index n)
{
#pragma unroll
    for (int j = 0; j < ITEMS; j++) {
        const int i = j * THREADS + threadIdx.x;
        tile[padded(i)] = first + i < n ? to_acc(in[first + i], first + i) : identity();
    }
}

// The tile's results from shared memory to out, across the tile (coalesced).
static __device__ __forceinline__ void store_tile(Results out, const Acc *tile, Index first, Index n)
{
#pragma unroll
    for (int j = 0; j < ITEMS; j++) {
        const int i = j * THREADS + threadIdx.x;
        if (first + i < n)
            store(out, first + i, tile[padded(i)], n);
    }
}

// The inclusive scan of v across the warp's lanes (lane l gets lanes 0..l
// combined, in lane order): five shuffles up.
static __device__ __forceinline__ Acc warp_inclusive(Acc v)
{
    const int lane = threadIdx.x % 32;

#pragma unroll
    for (int d = 1; d < 32; d *= 2) {
        const Acc u = __shfl_up_sync(0xffffffffu, v, d);
        if (lane >= d)
            v = combine(u, v);
    }
    return v;
}

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

// Thread t's ITEMS adjacent elements of the tile in shared memory scanned
// in place from `running`, what comes before them: {{mode}}.
static __device__ __forceinline__ void scan_items(Acc *tile, Acc running)
{
#pragma unroll
    for (int j = 0; j < ITEMS; j++) {
        const int i = padded(threadIdx.x * ITEMS + j);
        const Acc x = tile[i];
{{#inclusive}}
        running = combine(running, x);
        tile[i] = running;
{{/inclusive}}
{{^inclusive}}
        tile[i] = running;
        running = combine(running, x);
{{/inclusive}}
    }
}

// The combination of thread t's ITEMS adjacent elements of the tile.
static __device__ __forceinline__ Acc items_total(const Acc *tile)
{
    Acc total = tile[padded(threadIdx.x * ITEMS)];

#pragma unroll
    for (int j = 1; j < ITEMS; j++)
        total = combine(total, tile[padded(threadIdx.x * ITEMS + j)]);
    return total;
}

{{kernel}}
