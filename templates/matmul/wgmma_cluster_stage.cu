//! math: wgmma, cluster: 2x1 or 1x2: the producer's side of a stage of a
//! cluster of two blocks whose tiles share {{shared}}: each block loads its
//! own {{own}} and half of the shared {{shared}}, multicast into both blocks'
//! stages; a stage is free once the consumers of both blocks have released
//! it (wgmma_pipeline.cu).
// Ask the TMA unit for the k tile at k0 of A's rows from row0 and of B's
// columns from col0, into one stage's tiles of this block (its {{own}}) and
// of both blocks (this block's half of the shared {{shared}}, rank `rank`);
// `full` completes in each block when its {{own}} and both halves have landed.
// TMA fills what lies outside the matrices with zeros; a box that would start
// past them is not asked for (the rows or columns of C it would feed are not
// stored), and both blocks count the shared boxes alike.
static __device__ __forceinline__ void load_stage(const CUtensorMap *a_map, const CUtensorMap *b_map, unsigned char *as,
                                                  unsigned char *bs, unsigned long long *full, int m, int n, int row0,
                                                  int col0, int k0, unsigned int rank)
{
{{#a_k_major}}
{{#shares_a}}
    // A row-major: two boxes of TILE_M / 2 rows of 64 k, the second asked for when it starts in A.
    const int a_boxes = row0 + TILE_M / 2 < m ? 2 : 1;
{{/shares_a}}
{{^shares_a}}
    const int a_boxes = row0 < m;  // A row-major: one box of TILE_M rows of 64 k, if in A
{{/shares_a}}
{{/a_k_major}}
{{^a_k_major}}
    // A column-major: a box of 64 k rows of 64 m per 64 rows of the tile that start in A.
    const int a_boxes = row0 >= m ? 0 : (m - row0 + 63) / 64 < TILE_M / 64 ? (m - row0 + 63) / 64 : TILE_M / 64;
{{/a_k_major}}
{{#b_k_major}}
{{^shares_a}}
    // B column-major: two boxes of TILE_N / 2 rows (columns of B) of 64 k, the second asked for
    // when it starts in B.
    const int b_boxes = col0 + TILE_N / 2 < n ? 2 : 1;
{{/shares_a}}
{{#shares_a}}
    const int b_boxes = col0 < n;  // B column-major: one box of TILE_N rows of 64 k, if in B
{{/shares_a}}
{{/b_k_major}}
{{^b_k_major}}
    // B row-major: a box of 64 k rows of 64 n per 64 columns of the tile that start in B.
    const int b_boxes = col0 >= n ? 0 : (n - col0 + 63) / 64 < TILE_N / 64 ? (n - col0 + 63) / 64 : TILE_N / 64;
{{/b_k_major}}
    mbarrier_arrive_expect_tx(full, a_boxes * A_BOX + b_boxes * B_BOX);
{{#a_k_major}}
{{#shares_a}}
    if (rank < a_boxes)  // block `rank` loads box `rank` for both blocks
        tma_load_2d_multicast(as + rank * A_BOX, a_map, k0, row0 + rank * (TILE_M / 2), full, 0x3);
{{/shares_a}}
{{^shares_a}}
    if (a_boxes)
        tma_load_2d(as, a_map, k0, row0, full);
{{/shares_a}}
{{/a_k_major}}
{{^a_k_major}}
{{#shares_a}}
    for (int j = rank; j < a_boxes; j += 2)  // block `rank` loads every other box for both
        tma_load_2d_multicast(as + j * A_BOX, a_map, row0 + 64 * j, k0, full, 0x3);
{{/shares_a}}
{{^shares_a}}
    for (int j = 0; j < a_boxes; j++)
        tma_load_2d(as + j * A_BOX, a_map, row0 + 64 * j, k0, full);
{{/shares_a}}
{{/a_k_major}}
{{#b_k_major}}
{{^shares_a}}
    if (rank < b_boxes)  // block `rank` loads box `rank` for both blocks
        tma_load_2d_multicast(bs + rank * B_BOX, b_map, k0, col0 + rank * (TILE_N / 2), full, 0x3);
{{/shares_a}}
{{#shares_a}}
    if (b_boxes)
        tma_load_2d(bs, b_map, k0, col0, full);
{{/shares_a}}
{{/b_k_major}}
{{^b_k_major}}
{{^shares_a}}
    for (int j = rank; j < b_boxes; j += 2)  // block `rank` loads every other box for both
        tma_load_2d_multicast(bs + j * B_BOX, b_map, col0 + 64 * j, k0, full, 0x3);
{{/shares_a}}
{{#shares_a}}
    for (int j = 0; j < b_boxes; j++)
        tma_load_2d(bs + j * B_BOX, b_map, col0 + 64 * j, k0, full);
{{/shares_a}}
{{/b_k_major}}
}

// Where this block's tile of the cluster's tile pair `pair` starts: the
// pairs (CLUSTER_M x CLUSTER_N tiles) in the spec's order over C, as
// tile_origin walks tiles, then the block's tile of its pair (its rank).
static __device__ __forceinline__ void block_tile(int pair, int m, int n, unsigned int rank, int &row0, int &col0)
{
    const int pairs_m = (m + CLUSTER_M * TILE_M - 1) / (CLUSTER_M * TILE_M);
    const int pairs_n = (n + CLUSTER_N * TILE_N - 1) / (CLUSTER_N * TILE_N);

    tile_origin(pair, pairs_m * TILE_M, pairs_n * TILE_N, row0, col0);
{{#shares_a}}
    col0 = col0 * CLUSTER_N + (int)rank * TILE_N;  // the pair's tiles lie side by side
{{/shares_a}}
{{^shares_a}}
    row0 = row0 * CLUSTER_M + (int)rank * TILE_M;  // the pair's tiles lie one above the other
{{/shares_a}}
}

// Load number i of the block (the k tile at k0 of its tile at row0, col0)
// into stage i % STAGES, once both blocks' consumers have released the load
// before it there (i - STAGES): this block's multicast writes both.
static __device__ __forceinline__ void issue_load(unsigned int i, const CUtensorMap *a_map, const CUtensorMap *b_map,
                                                  unsigned char *as, unsigned char *bs, unsigned long long *full,
                                                  unsigned long long *empty, int m, int n, int row0, int col0, int k0,
                                                  unsigned int rank)
{
    const int s = i % STAGES;

    producer_acquire(empty, i);
    load_stage(a_map, b_map, as + s * A_STAGE, bs + s * B_STAGE, &full[s], m, n, row0, col0, k0, rank);
}
