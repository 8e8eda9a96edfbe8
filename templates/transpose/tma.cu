//! `kernel: transpose`, `method: tma`: TMA load, transpose in shared memory, TMA store.
{{header}}

// Elements are {{dtype}}.
typedef {{t_ctype}} T;

// A block moves one TILE_ROWS x TILE_COLS tile; THREADS threads move BATCH
// adjacent elements of one row each.
constexpr int TILE_ROWS = {{tile_rows}};
constexpr int TILE_COLS = {{tile_cols}};
constexpr int THREADS = {{threads}};
constexpr int BATCH = {{batch}};

{{ptx}}

{{swizzle_fn}}
// The tensor maps are 3-D ({cols, rows, batch}), so that one launch moves a
// batch of matrices: block (x, y, z) moves tile x of matrix z * gridDim.y + y.
// Thread 0 loads the tile with one TMA copy that completes on the mbarrier;
// everyone waits on it, transposes through shared memory, and thread 0
// stores the transposed tile with one TMA copy.  TMA clips the edges: a
// partial tile loads zeros past the matrix and stores nothing there.
extern "C" __global__ void __launch_bounds__(THREADS)
{{name}}(const __grid_constant__ CUtensorMap in_map, const __grid_constant__ CUtensorMap out_map,
    unsigned int rows, unsigned int cols, unsigned int batch)
{
    {{tiles_decl}}
    __shared__ alignas(8) unsigned long long loaded;           // mbarrier
    const unsigned int z = blockIdx.z * gridDim.y + blockIdx.y;  // this block's matrix
    if (z >= batch)
        return;
    {{tile_origin}}
    const int tid = threadIdx.x;

    if (tid == 0) {
        mbarrier_init(&loaded, 1);
        fence_mbarrier_init();
    }
    __syncthreads();
    if (tid == 0) {
        mbarrier_arrive_expect_tx(&loaded, TILE_ROWS * TILE_COLS * sizeof(T));
        {{load_copy}}
    }
    mbarrier_wait(&loaded, 0);

    {{walk}}
    #pragma unroll
    for (int b = 0; b < BATCH; b++) {
        {{step}}
        tile_t[{{store_index}}] = tile[{{load_index}}];
    }

    // Make the writes visible to the TMA unit, then store at the transposed place.
    fence_proxy_async_shared();
    __syncthreads();
    if (tid == 0) {
        {{store_copy}}
        bulk_commit_group();
        bulk_wait_group_read<0>();
    }
}
