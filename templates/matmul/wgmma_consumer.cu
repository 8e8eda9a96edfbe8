//! math: wgmma: the consumer warpgroups' mainloop, the one every wgmma
//! kernel runs (wgmma_inline.cu's warpgroups, wgmma_specialized.cu's and
//! wgmma_cluster.cu's consumers).  For each of the block's tiles: zero the
//! accumulators; for each k tile, consumer_wait for its stage, multiply it
//! (one wgmma group, issued without waiting), wait until the group before
//! has finished and release that group's stage (the kernel's `release`:
//! consumer_release, and in wgmma_inline.cu thread 0's next load); drain the
//! last group, release its stage and store the tile.  `it` numbers the
//! block's loads across its tiles, as the producer does; the kernel
//! declares wg_row, the warpgroup's first row of the tile, and `release`.
float acc[MMA_M][TILE_N / 2];
unsigned int it = 0;  // the block's next load to multiply
{{#tma}}
unsigned int stored = 0;  // the warpgroup's chunks of C handed to TMA so far
{{/tma}}
{{^cluster}}
for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    int row0, col0;
    tile_origin(tile, m, n, row0, col0);
{{/cluster}}
{{#cluster}}
for (int pair = blockIdx.x / 2; pair < pairs; pair += gridDim.x / 2) {
    int row0, col0;
    block_tile(pair, m, n, rank, row0, col0);
{{/cluster}}
    #pragma unroll
    for (int i = 0; i < MMA_M; i++)
        #pragma unroll
        for (int j = 0; j < TILE_N / 2; j++)
            acc[i][j] = 0.0f;
    for (int kt = 0; kt < k_tiles; kt++, it++) {
        consumer_wait(full, it);
        multiply_stage(acc, as + it % STAGES * A_STAGE, bs + it % STAGES * B_STAGE, wg_row);
        wgmma_wait_group<1>();  // the group before this one has read its stage
        if (kt > 0)
            release(it - 1);
    }
    wgmma_wait_group<0>();  // the tile's last group has read its stage
    if (k_tiles > 0)
        release(it - 1);
{{#tma}}
    store_tile_tma(&c_map, c_tma, cs + (threadIdx.x / 128 - 1) * 2 * BUFFER, &stored, c, acc, m, n, ldc,
                   row0 + wg_row, col0, ep);
{{/tma}}
{{^tma}}
    store_tile(c, acc, m, n, ldc, row0 + wg_row, col0, ep);
{{/tma}}
}
{{#tma}}
if (threadIdx.x % 128 == 0)
    bulk_wait_group();  // the warpgroup's last stores done before the block's shared memory goes
{{/tma}}
