//! math: wgmma, split_k above 1: the SPLIT_K blocks of a cluster multiply
//! the same tiles, each its share of k, and block 0 of the cluster adds
//! their sums and stores each tile.  The others send their accumulators
//! into block 0's shared memory (st.async, completing on its mbarrier
//! `gathered`); block 0 adds them to its own in rank order, so every run
//! rounds alike, and frees the room for the next tile's (an arrival on
//! each other block's mbarrier `freed`).
// A consumer thread's accumulators of the cluster's tile number `pass`
// (0, 1, ...; `last`: the cluster has no tile after it).  In block 0,
// added to the other blocks' in rank order once they have landed in
// `partials` (rank r's from partials + (r - 1) * PARTIAL_FLOATS, a
// thread's four floats at a time, 16 bytes after the thread before's);
// elsewhere, sent there once block 0 has read the tile before's.  True in
// block 0, which stores the tile.
static __device__ __forceinline__ bool gather_splits(float (&acc)[MMA_M][TILE_N / 2], float *partials,
                                                     unsigned long long *gathered, unsigned long long *freed,
                                                     unsigned int rank, unsigned int pass, bool last)
{
    constexpr int QUADS = MMA_M * TILE_N / 8;  // a thread's accumulators, four at a time
    const int t = threadIdx.x - 128;           // the thread among the consumers

    if (rank != 0) {
        float *const mine = partials + (rank - 1) * PARTIAL_FLOATS;
        if (pass > 0)
            mbarrier_wait(freed, (pass - 1) % 2);  // block 0 has added the tile before's
#pragma unroll
        for (int q = 0; q < QUADS; q++) {
            const float *a = &acc[q / (TILE_N / 8)][q % (TILE_N / 8) * 4];
            dsmem_store_async_v4(mine + (q * CONSUMERS * 128 + t) * 4, make_float4(a[0], a[1], a[2], a[3]), gathered,
                                 0);
        }
        return false;
    }
    mbarrier_wait(gathered, pass % 2);  // every other block's sums have landed
    for (int r = 1; r < SPLIT_K; r++)
#pragma unroll
        for (int q = 0; q < QUADS; q++) {
            const float4 v = *(const float4 *)(partials + (r - 1) * PARTIAL_FLOATS + (q * CONSUMERS * 128 + t) * 4);
            float(&a)[TILE_N / 2] = acc[q / (TILE_N / 8)];
            const int j = q % (TILE_N / 8) * 4;
            a[j] += v.x, a[j + 1] += v.y, a[j + 2] += v.z, a[j + 3] += v.w;
        }
    if (!last) {
        if (t == 0)  // the next tile's sums, as bytes
            mbarrier_arrive_expect_tx(gathered, (SPLIT_K - 1) * PARTIAL_FLOATS * 4);
        warpgroup_sync(1 + (int)threadIdx.x / 128);  // the warpgroup has read its sums
        if (threadIdx.x % 128 == 0)
            for (int r = 1; r < SPLIT_K; r++)
                mbarrier_arrive_cluster(freed, r);
    }
    return true;
}
