//! math: wgmma, producer: warpgroup: warp specialisation.  Warpgroup 0
//! issues the TMA loads (one thread), the CONSUMERS warpgroups after it
//! multiply; full and empty mbarriers per stage pass each stage between
//! them (wgmma_pipeline.cu).  The grid is persistent: each block loops over
//! the tiles blockIdx.x, + gridDim.x, ..., its producer running ahead across
//! tiles; with split_k, each cluster of SPLIT_K blocks loops over tiles
//! blockIdx.x / SPLIT_K, + gridDim.x / SPLIT_K, ..., every block its share
//! of their k (wgmma_split.cu adds the shares).
// A producer warpgroup keeps STAGES TMA loads in flight; CONSUMERS warpgroups multiply
// WG_M rows of each tile with wgmma and store them while the producer loads the next tile.
{{#variants}}
// The kernels' work (wgmma_variants.cu: a kernel for each beta and each way C leaves), READ_C: beta != 0.
template <bool READ_C>
static __device__ __forceinline__ void wgmma_work(
    {{params}}
{{/variants}}
{{^variants}}
extern "C" __global__ void __launch_bounds__(THREADS, 1) {{name}}(
    {{params}}
{{/variants}}
{
    extern __shared__ unsigned char smem_raw[];
    __shared__ alignas(8) unsigned long long full[STAGES], empty[STAGES];  // a stage has landed; is free
{{#split}}
    __shared__ alignas(8) unsigned long long gathered, freed;  // block 0: the others' sums have landed; read
{{/split}}
{{#residual_tma}}
    __shared__ alignas(8) unsigned long long landed[CONSUMERS][2];  // a chunk of the residual is in a C buffer
{{/residual_tma}}
    // STAGES tiles of A, then STAGES of B, 1024-byte aligned as the 128B swizzle repeats.
    unsigned char *const as = smem_raw + (1024 - smem(smem_raw) % 1024) % 1024;
    unsigned char *const bs = as + STAGES * A_STAGE;
{{#tma}}
    unsigned char *const cs = bs + STAGES * B_STAGE;  // store: tma: two buffers of C a consumer warpgroup
{{/tma}}
{{#split}}
{{#tma}}
    float *const partials = (float *)(cs + CONSUMERS * 2 * BUFFER);  // block 0: the other blocks' sums
{{/tma}}
{{^tma}}
    float *const partials = (float *)(bs + STAGES * B_STAGE);  // block 0: the other blocks' sums
{{/tma}}
    // The clusters are SPLIT_K blocks along x: a block's rank is blockIdx.x % SPLIT_K, its first
    // tile blockIdx.x / SPLIT_K, its k tiles of each from k_first.
    const unsigned int rank = blockIdx.x % SPLIT_K;
    const int tiles = (m + TILE_M - 1) / TILE_M * ((n + TILE_N - 1) / TILE_N), step = gridDim.x / SPLIT_K;
    int k_first;
    const int k_tiles = split_k_tiles((k + TILE_K - 1) / TILE_K, rank, &k_first);
{{/split}}
{{^split}}
{{^partials}}
    const int tiles = (m + TILE_M - 1) / TILE_M * ((n + TILE_N - 1) / TILE_N), k_tiles = (k + TILE_K - 1) / TILE_K;
{{/partials}}
{{#partials}}
    // split_reduce: kernel: block (x, 0, z) takes tiles blockIdx.x, + gridDim.x, ..., the z-th share of
    // each one's k tiles from k_first; its sums go to slice z of the partials.
    const int tiles = (m + TILE_M - 1) / TILE_M * ((n + TILE_N - 1) / TILE_N);
    int k_first;
    const int k_tiles = split_k_tiles((k + TILE_K - 1) / TILE_K, blockIdx.z, &k_first);
{{/partials}}
{{/split}}

    if (threadIdx.x == 0) {
        for (int s = 0; s < STAGES; s++) {
            mbarrier_init(&full[s], 1);
{{^pingpong}}
            mbarrier_init(&empty[s], CONSUMERS);  // a consumer warpgroup's release each
{{/pingpong}}
{{#pingpong}}
            mbarrier_init(&empty[s], 1);  // the release of the warpgroup whose tile it holds
{{/pingpong}}
        }
{{#residual_tma}}
        for (int w = 0; w < CONSUMERS; w++)
            mbarrier_init(&landed[w][0], 1), mbarrier_init(&landed[w][1], 1);
{{/residual_tma}}
{{#split}}
        mbarrier_init(&gathered, 1);
        mbarrier_init(&freed, CONSUMERS);  // block 0's consumer warpgroups have read this block's sums
        if (rank == 0)  // the other blocks' sums of the first tile, as bytes
            mbarrier_arrive_expect_tx(&gathered, (SPLIT_K - 1) * PARTIAL_FLOATS * 4);
{{/split}}
        fence_mbarrier_init();
    }
{{#split}}
    cluster_sync();  // block 0's mbarrier ready before the others' sums reach it
{{/split}}
{{^split}}
    __syncthreads();
{{/split}}

    if (threadIdx.x < 128) {
        // The producer: the block's loads, numbered over its tiles (issue_load),
        // each tile's origin worked out once.
{{#setmaxnreg}}
        setmaxnreg_dec<{{producer_regs}}>();  // its registers go to the consumers
{{/setmaxnreg}}
        if (threadIdx.x == 0) {
            unsigned int i = 0;
{{^split}}
            for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
                int row0, col0;
                tile_origin(tile, m, n, row0, col0);
                for (int kt = 0; kt < k_tiles; kt++, i++)
{{^partials}}
                    issue_load(i, &a_map, &b_map, as, bs, full, empty, m, n, row0, col0, kt * TILE_K);
{{/partials}}
{{#partials}}
                    issue_load(i, &a_map, &b_map, as, bs, full, empty, m, n, row0, col0, (k_first + kt) * TILE_K);
{{/partials}}
            }
{{/split}}
{{#split}}
            for (int tile = blockIdx.x / SPLIT_K; tile < tiles; tile += step) {
                int row0, col0;
                tile_origin(tile, m, n, row0, col0);
                for (int kt = 0; kt < k_tiles; kt++, i++)
                    issue_load(i, &a_map, &b_map, as, bs, full, empty, m, n, row0, col0, (k_first + kt) * TILE_K);
            }
{{/split}}
        }
        return;
    }
{{#setmaxnreg}}
    setmaxnreg_inc<{{consumer_regs}}>();  // room for the accumulators
{{/setmaxnreg}}
{{^pingpong}}
    const int wg_row = (threadIdx.x / 128 - 1) * WG_M;  // the warpgroup's rows of the tile
{{/pingpong}}
{{#pingpong}}
    const int wg = threadIdx.x / 128 - 1, wg_row = 0;  // the warpgroup, which takes whole tiles
{{/pingpong}}
    // The consumers: a stage they are done with is the producer's again.
    auto release = [&](unsigned int i) { consumer_release(empty, i); };
    {{consumer}}
}
