//! `kernel: transpose`, `method: tma`, `buffers` > 1: a persistent, pipelined TMA transpose.
{{header}}

// Elements are {{dtype}}.
typedef {{t_ctype}} T;

// Each block walks the tiles i = blockIdx.x, + gridDim.x, ... of all the
// batch's matrices (3-D tensor maps: {cols, rows, batch}); BUFFERS tiles
// are in flight at once.  THREADS threads move BATCH adjacent elements of
// one row each.
constexpr int TILE_ROWS = {{tile_rows}};
constexpr int TILE_COLS = {{tile_cols}};
constexpr int THREADS = {{threads}};
constexpr int BATCH = {{batch}};
constexpr int BUFFERS = {{buffers}};

{{ptx}}

{{swizzle_fn}}
// Ask the TMA unit for tile t (of all the batch's tiles, `tiles` per matrix)
// into `dst`; `bar` completes when it has landed.
static __device__ __forceinline__ void load_tile(const CUtensorMap *map, unsigned int t, unsigned int tiles_x,
                                                 unsigned int tiles, T *dst, unsigned long long *bar)
{
    const int z = t / tiles, x0 = t % tiles % tiles_x * TILE_COLS, y0 = t % tiles / tiles_x * TILE_ROWS;

    mbarrier_arrive_expect_tx(bar, TILE_ROWS * TILE_COLS * sizeof(T));
    {{load_copy}}
}

// Thread 0 keeps BUFFERS tile loads in flight; everyone transposes the tile
// that has landed into its own buffer, and thread 0 stores it with TMA and
// reloads the freed buffer with the block's tile BUFFERS ahead.  TMA clips
// the edges: a partial tile loads zeros past the matrix and stores nothing there.
extern "C" __global__ void __launch_bounds__(THREADS)
{{name}}(const __grid_constant__ CUtensorMap in_map, const __grid_constant__ CUtensorMap out_map,
    unsigned int rows, unsigned int cols, unsigned int batch)
{
    __shared__ alignas(1024) T tile[BUFFERS][TILE_ROWS * TILE_COLS];    // as loaded
    __shared__ alignas(1024) T tile_t[BUFFERS][TILE_COLS * TILE_ROWS];  // to store
    __shared__ alignas(8) unsigned long long loaded[BUFFERS];           // mbarriers
    const unsigned int tiles_x = (cols + TILE_COLS - 1) / TILE_COLS;
    const unsigned int tiles = tiles_x * ((rows + TILE_ROWS - 1) / TILE_ROWS);  // per matrix
    const unsigned int total = tiles * batch;
    const int tid = threadIdx.x;

    if (tid == 0) {
        for (int b = 0; b < BUFFERS; b++)
            mbarrier_init(&loaded[b], 1);
        fence_mbarrier_init();
        for (int b = 0; b < BUFFERS; b++)
            if (blockIdx.x + b * gridDim.x < total)
                load_tile(&in_map, blockIdx.x + b * gridDim.x, tiles_x, tiles, tile[b], &loaded[b]);
    }
    __syncthreads();

    {{walk}}
    unsigned int i = 0;
    for (unsigned int t = blockIdx.x; t < total; t += gridDim.x, i++) {
        const int buf = i % BUFFERS;
        const unsigned int parity = i / BUFFERS % 2;

        mbarrier_wait(&loaded[buf], parity);
        // The store that last used tile_t[buf] must have read it.
        if (tid == 0)
            bulk_wait_group_read<BUFFERS - 1>();
        __syncthreads();

        #pragma unroll
        for (int b = 0; b < BATCH; b++) {
            {{step}}
            tile_t[buf][{{store_index}}] = tile[buf][{{load_index}}];
        }

        // Make the writes visible to the TMA unit; after the barrier tile[buf] is free.
        fence_proxy_async_shared();
        __syncthreads();
        if (tid == 0) {
            const int z = t / tiles, x0 = t % tiles % tiles_x * TILE_COLS, y0 = t % tiles / tiles_x * TILE_ROWS;
            {{store_copy}}
            bulk_commit_group();
            if (t + BUFFERS * gridDim.x < total)
                load_tile(&in_map, t + BUFFERS * gridDim.x, tiles_x, tiles, tile[buf], &loaded[buf]);
        }
    }
    if (tid == 0)
        bulk_wait_group_read<0>();
}
