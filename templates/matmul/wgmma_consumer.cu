//! math: wgmma: the consumer warpgroups' mainloop, the one every wgmma
//! kernel runs (wgmma_inline.cu's warpgroups, wgmma_specialized.cu's and
//! wgmma_cluster.cu's consumers).  For each of the block's tiles: zero the
//! accumulators; for each k tile, consumer_wait for its stage, multiply it
//! (one wgmma group, issued without waiting), wait until the group before
//! has finished and release that group's stage (the kernel's `release`:
//! consumer_release, and in wgmma_inline.cu thread 0's next load); drain the
//! last group, release its stage and store the tile.  `it` numbers the
//! block's loads across its tiles, as the producer does; the kernel
//! declares wg_row, the warpgroup's first row of the tile, and `release`;
//! with store: tma, the kernel's work function has READ_C (beta != 0: C
//! read and scaled) as its template parameter (wgmma_variants.cu).
float acc[MMA_M][TILE_N / 2];
{{#promote}}
float part[MMA_M][TILE_N / 2];  // fp8_accum: promote: one k tile's sums, from the tensor cores' fp8 accumulation
{{/promote}}
{{#scaled}}
const float scale = *ep.scale_a * *ep.scale_b;  // scale: tensor
{{/scaled}}
unsigned int it = 0;  // the block's next load to multiply
{{#tma}}
unsigned int stored = 0;  // the warpgroup's chunks of C handed to TMA so far
{{/tma}}
{{^cluster}}
{{#split}}
// split_k: the cluster's tiles, the block's share of each one's k.
for (int tile = blockIdx.x / SPLIT_K, pass = 0; tile < tiles; tile += step, pass++) {
{{/split}}
{{^split}}
{{^pingpong}}
for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
{{/pingpong}}
{{/split}}
{{#pingpong}}
// schedule: pingpong: warpgroup wg takes the block's turns wg, wg + 2, ... (turn q is tile blockIdx.x +
// q gridDim.x, whose loads the producer numbers from q k_tiles).  It multiplies in its turn once the
// other warpgroup has multiplied in the turn before (pair_wait on named barrier 4 + wg; it signals the
// other on 4 + (wg ^ 1)): the two take the stages in turn, each waiting within one phase of their
// mbarriers, and one stores while the other multiplies.
for (int turn = wg, tile = blockIdx.x + wg * gridDim.x; tile < tiles; turn += CONSUMERS, tile += CONSUMERS * gridDim.x) {
    it = (unsigned int)turn * (unsigned int)k_tiles;
{{/pingpong}}
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
{{#pingpong}}
    if (turn > 0)
        pair_wait(4 + wg);  // the other warpgroup has multiplied in the turn before
{{/pingpong}}
{{#residual_tma}}
    // The residual's first chunks go to the C buffers while the tile multiplies (in the first k tile,
    // behind its wgmmas; at once where k is 0).
    const bool through_buffers = r_tma && c_tma;  // the residual comes in where C's results leave
    const bool residual_first = through_buffers && threadIdx.x % 128 == 0;
    if (residual_first && k_tiles == 0)
        residual_first_chunks(&r_map, landed[threadIdx.x / 128 - 1], cs + (threadIdx.x / 128 - 1) * 2 * BUFFER, stored,
                              row0 + wg_row, col0);
{{/residual_tma}}
    for (int kt = 0; kt < k_tiles; kt++, it++) {
        consumer_wait(full, it);
{{^promote}}
        multiply_stage(acc, as + it % STAGES * A_STAGE, bs + it % STAGES * B_STAGE, wg_row);
{{/promote}}
{{#promote}}
        // fp8_accum: promote: the k tile's products summed from zero, then added to the f32 sums (the other
        // consumer warpgroup's wgmmas keep the tensor cores busy meanwhile).
        #pragma unroll
        for (int i = 0; i < MMA_M; i++)
            #pragma unroll
            for (int j = 0; j < TILE_N / 2; j++)
                part[i][j] = 0.0f;
        multiply_stage(part, as + it % STAGES * A_STAGE, bs + it % STAGES * B_STAGE, wg_row);
{{#block_scaled}}
        float scales[MMA_M][2];  // read while the k tile multiplies
        block_scales(scales, ep, m, k_tiles, kt, row0 + wg_row, col0);
{{/block_scaled}}
        wgmma_wait_group<0>();  // the k tile's sums are in, its stage read
        release(it);
{{^block_scaled}}
        #pragma unroll
        for (int i = 0; i < MMA_M; i++)
            #pragma unroll
            for (int j = 0; j < TILE_N / 2; j++)
                acc[i][j] += part[i][j];
{{/block_scaled}}
{{#block_scaled}}
        add_block_scaled(acc, part, scales);  // scale: block
{{/block_scaled}}
{{/promote}}
{{#residual_tma}}
        if (residual_first && kt == 0)
            residual_first_chunks(&r_map, landed[threadIdx.x / 128 - 1], cs + (threadIdx.x / 128 - 1) * 2 * BUFFER,
                                  stored, row0 + wg_row, col0);
{{/residual_tma}}
{{^promote}}
        wgmma_wait_group<1>();  // the group before this one has read its stage
        if (kt > 0)
            release(it - 1);
{{/promote}}
    }
{{^promote}}
    wgmma_wait_group<0>();  // the tile's last group has read its stage
    if (k_tiles > 0)
        release(it - 1);
{{/promote}}
{{#scaled}}
    #pragma unroll
    for (int i = 0; i < MMA_M; i++)
        #pragma unroll
        for (int j = 0; j < TILE_N / 2; j++)
            acc[i][j] *= scale;
{{/scaled}}
{{#pingpong}}
    if (tile + (int)gridDim.x < tiles)
        pair_arrive(4 + (wg ^ 1));  // the other warpgroup may multiply in the next turn
{{/pingpong}}
{{#split}}
    if (!gather_splits(acc, partials, &gathered, &freed, rank, (unsigned int)pass, tile + step >= tiles))
        continue;  // block 0 adds the sums and stores the tile
{{/split}}
{{#tma}}
{{^residual_tma}}
    store_tile_tma<READ_C>(&c_map, c_tma, cs + (threadIdx.x / 128 - 1) * 2 * BUFFER, &stored, c, acc, m, n, ldc,
                           row0 + wg_row, col0, ep);
{{/residual_tma}}
{{#residual_tma}}
    {
        unsigned char *const bufs = cs + (threadIdx.x / 128 - 1) * 2 * BUFFER;
        unsigned long long *const wg_landed = landed[threadIdx.x / 128 - 1];
        if (through_buffers)
            store_tile_tma<READ_C, true>(&c_map, c_tma, bufs, &stored, c, acc, m, n, ldc, row0 + wg_row, col0, ep,
                                         &r_map, wg_landed);
        else
            store_tile_tma<READ_C, false>(&c_map, c_tma, bufs, &stored, c, acc, m, n, ldc, row0 + wg_row, col0, ep,
                                          &r_map, wg_landed);
    }
{{/residual_tma}}
{{/tma}}
{{^tma}}
{{^partials}}
    store_tile(c, acc, m, n, ldc, row0 + wg_row, col0, ep);
{{/partials}}
{{#partials}}
    store_tile(c, partials, acc, m, n, ldc, row0 + wg_row, col0, ep);  // the block's sums, to its slice
{{/partials}}
{{/tma}}
}
{{#tma}}
if (threadIdx.x % 128 == 0)
    bulk_wait_group();  // the warpgroup's last stores done before the block's shared memory goes
{{/tma}}
