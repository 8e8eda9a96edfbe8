//! math: wgmma, producer: warpgroup, cluster: 2x1 or 1x2: the warp-
//! specialised kernel of wgmma_specialized.cu launched in clusters of two
//! blocks that take neighbouring tiles and share one operand's loads by
//! TMA multicast.  Both blocks walk the same number of tile pairs, so each
//! takes part in every load the other waits on.
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
    // STAGES tiles of A, then STAGES of B, 1024-byte aligned as the 128B swizzle repeats
    // (at the same offsets in both blocks: a multicast writes the same offset in each).
    unsigned char *const as = smem_raw + (1024 - smem(smem_raw) % 1024) % 1024;
    unsigned char *const bs = as + STAGES * A_STAGE;
{{#tma}}
    unsigned char *const cs = bs + STAGES * B_STAGE;  // store: tma: two buffers of C a consumer warpgroup
{{/tma}}
    const int pairs = (m + CLUSTER_M * TILE_M - 1) / (CLUSTER_M * TILE_M) *
                      ((n + CLUSTER_N * TILE_N - 1) / (CLUSTER_N * TILE_N));
    const int k_tiles = (k + TILE_K - 1) / TILE_K;
    // The clusters are two blocks along x, so a block's rank in its cluster is
    // blockIdx.x % 2, which the compiler knows is the same in every thread
    // (%cluster_ctarank is not).
    const unsigned int rank = blockIdx.x % 2;

    if (threadIdx.x == 0) {
        for (int s = 0; s < STAGES; s++) {
            mbarrier_init(&full[s], 1);
            mbarrier_init(&empty[s], 2 * CONSUMERS);  // the consumer warpgroups of both blocks
        }
        fence_mbarrier_init();
    }
    cluster_sync();  // both blocks' mbarriers ready before either's loads or arrivals reach them

    if (threadIdx.x < 128) {
        // The producer: the block's loads, numbered over its tiles (issue_load),
        // its tile of each pair worked out once.
{{#setmaxnreg}}
        setmaxnreg_dec<{{producer_regs}}>();  // its registers go to the consumers
{{/setmaxnreg}}
        if (threadIdx.x == 0) {
            unsigned int i = 0;
            for (int pair = blockIdx.x / 2; pair < pairs; pair += gridDim.x / 2) {
                int row0, col0;
                block_tile(pair, m, n, rank, row0, col0);
                for (int kt = 0; kt < k_tiles; kt++, i++)
                    issue_load(i, &a_map, &b_map, as, bs, full, empty, m, n, row0, col0, kt * TILE_K, rank);
            }
        }
    } else {
{{#setmaxnreg}}
        setmaxnreg_inc<{{consumer_regs}}>();  // room for the accumulators
{{/setmaxnreg}}
        const int wg_row = (threadIdx.x / 128 - 1) * WG_M;  // the warpgroup's rows of the tile
        // The consumers: a stage they are done with is both producers' again.
        auto release = [&](unsigned int i) { consumer_release(empty, i, rank); };
        {{consumer}}
    }
    cluster_sync();  // the other block's last arrivals on this block's mbarriers have landed
}
