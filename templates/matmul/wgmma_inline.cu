//! math: wgmma, producer: none: every warpgroup multiplies; thread 0 also
//! issues the TMA loads, STAGES loads ahead of the multiplies (seed 002's
//! Hopper steps before warp specialisation).  A block per tile of C.
// TMA loads into STAGES 128B-swizzled stages; each of the CONSUMERS warpgroups multiplies its WG_M
// rows of the tile with wgmma, one stage's group in flight while the next is issued.
extern "C" __global__ void __launch_bounds__(THREADS, 1) {{name}}(
    {{params}}
{
    extern __shared__ unsigned char smem_raw[];
    __shared__ alignas(8) unsigned long long full[STAGES], empty[STAGES];  // a stage has landed; is free
    // STAGES tiles of A, then STAGES of B, 1024-byte aligned as the 128B swizzle repeats.
    unsigned char *const as = smem_raw + (1024 - smem(smem_raw) % 1024) % 1024;
    unsigned char *const bs = as + STAGES * A_STAGE;
    const int tiles = (m + TILE_M - 1) / TILE_M * ((n + TILE_N - 1) / TILE_N), k_tiles = (k + TILE_K - 1) / TILE_K;
    const int wg_row = threadIdx.x / 128 * WG_M;  // the warpgroup's rows of the tile

    if (threadIdx.x == 0) {
        for (int s = 0; s < STAGES; s++) {
            mbarrier_init(&full[s], 1);
            mbarrier_init(&empty[s], CONSUMERS);  // a warpgroup's release each
        }
        fence_mbarrier_init();
    }
    __syncthreads();
    // The block's loads, numbered over its tiles: load i is the k tile
    // i % k_tiles of the block's tile i / k_tiles.  STAGES in flight.
    const unsigned int loads = (tiles - blockIdx.x + gridDim.x - 1) / gridDim.x * k_tiles;
    unsigned int issued = 0;
    auto load = [&](unsigned int i) {
        int row0, col0;
        tile_origin(blockIdx.x + i / k_tiles * gridDim.x, m, n, row0, col0);
        issue_load(i, &a_map, &b_map, as, bs, full, empty, m, n, row0, col0, i % k_tiles * TILE_K);
    };
    if (threadIdx.x == 0)
        for (; issued < loads && issued < STAGES; issued++)
            load(issued);
    // Load i has been multiplied: release its stage; thread 0 fills it with load i + STAGES.
    auto release = [&](unsigned int i) {
        consumer_release(empty, i);
        if (threadIdx.x == 0 && issued < loads)
            load(issued++);
    };

    {{consumer}}
}
