//! math: wgmma, cluster: 1x1: the producer's side of a stage, the TMA loads
//! into it (wgmma_multiply.cu multiplies it, wgmma_pipeline.cu passes it
//! between producer and consumers, wgmma_store_*.cu store the results).
// Ask the TMA unit for the k tile at k0 of A's rows from row0 and of B's
// columns from col0, into one stage's tiles; `full` completes when every
// byte has landed.  TMA fills what lies outside the matrices with zeros; a
// box that would start past them is not asked for (the rows or columns of C
// it would feed are not stored).
static __device__ __forceinline__ void load_stage(const CUtensorMap *a_map, const CUtensorMap *b_map, unsigned char *as,
                                                  unsigned char *bs, unsigned long long *full, int m, int n, int row0,
                                                  int col0, int k0)
{
{{#a_k_major}}
    // A row-major: one box of TILE_M rows of 64 k, or of A's m rows rounded up to 8 where m is less
    // (the host encodes that box: the stage's rows past it stay as they were, and C's rows they
    // would give are not stored).
    const int a_bytes = m < TILE_M ? (m + 7) / 8 * 8 * 128 : A_BOX;
{{/a_k_major}}
{{^a_k_major}}
    // A column-major: a box of 64 k rows of 64 m per 64 rows of the tile that start in A.
    const int a_boxes = (m - row0 + 63) / 64 < TILE_M / 64 ? (m - row0 + 63) / 64 : TILE_M / 64;
    const int a_bytes = a_boxes * A_BOX;
{{/a_k_major}}
{{#b_k_major}}
    const int b_boxes = 1;  // B column-major: one box of TILE_N rows (columns of B) of 64 k
{{/b_k_major}}
{{^b_k_major}}
    // B row-major: a box of 64 k rows of 64 n per 64 columns of the tile that start in B.
    const int b_boxes = (n - col0 + 63) / 64 < TILE_N / 64 ? (n - col0 + 63) / 64 : TILE_N / 64;
{{/b_k_major}}
    mbarrier_arrive_expect_tx(full, a_bytes + b_boxes * B_BOX);
{{#a_k_major}}
    tma_load_2d(as, a_map, k0, row0, full);
{{/a_k_major}}
{{^a_k_major}}
    for (int j = 0; j < a_boxes; j++)
        tma_load_2d(as + j * A_BOX, a_map, row0 + 64 * j, k0, full);
{{/a_k_major}}
{{#b_k_major}}
    tma_load_2d(bs, b_map, k0, col0, full);
{{/b_k_major}}
{{^b_k_major}}
    for (int j = 0; j < b_boxes; j++)
        tma_load_2d(bs + j * B_BOX, b_map, col0 + 64 * j, k0, full);
{{/b_k_major}}
}

// Load number i of the block (the k tile at k0 of its tile at row0, col0)
// into stage i % STAGES, once the consumers have released the load before it
// there (i - STAGES).
static __device__ __forceinline__ void issue_load(unsigned int i, const CUtensorMap *a_map, const CUtensorMap *b_map,
                                                  unsigned char *as, unsigned char *bs, unsigned long long *full,
                                                  unsigned long long *empty, int m, int n, int row0, int col0, int k0)
{
    const int s = i % STAGES;

    producer_acquire(empty, i);
    load_stage(a_map, b_map, as + s * A_STAGE, bs + s * B_STAGE, &full[s], m, n, row0, col0, k0);
}
