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

{{tma_prelude}}

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
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(smem(&loaded)));
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();
    if (tid == 0) {
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
                     :: "r"(smem(&loaded)), "r"((unsigned int)(TILE_ROWS * TILE_COLS * sizeof(T))) : "memory");
        {{load_copy}}
    }
    for (unsigned int done = 0; !done;)
        asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
                     : "=r"(done) : "r"(smem(&loaded)) : "memory");

    {{walk}}
    #pragma unroll
    for (int b = 0; b < BATCH; b++) {
        {{step}}
        tile_t[{{store_index}}] = tile[{{load_index}}];
    }

    // Make the writes visible to the TMA unit, then store at the transposed place.
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (tid == 0) {
        {{store_copy}}
        asm volatile("cp.async.bulk.commit_group;" ::: "memory");
        asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
    }
}
