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

{{block_scan}}
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
