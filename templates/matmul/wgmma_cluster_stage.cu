//! math: wgmma, cluster: 2x1 or 1x2: the stage helpers of a cluster of two
//! blocks whose tiles share {{shared}}: each block loads its own {{own}} and
//! half of the shared {{shared}}, multicast into both blocks' stages, and a
//! stage is free once the consumers of both blocks have released it.
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
    {{a_boxes}}
    {{b_boxes}}
    mbarrier_arrive_expect_tx(full, a_boxes * A_BOX + b_boxes * B_BOX);
    {{a_copy}}
    {{b_copy}}
}

// Where this block's tile of the cluster's tile pair `pair` starts: the
// pairs (CLUSTER_M x CLUSTER_N tiles) in the spec's order over C, as
// tile_origin walks tiles, then the block's tile of its pair (its rank).
static __device__ __forceinline__ void block_tile(int pair, int m, int n, unsigned int rank, int &row0, int &col0)
{
    const int pairs_m = (m + CLUSTER_M * TILE_M - 1) / (CLUSTER_M * TILE_M);
    const int pairs_n = (n + CLUSTER_N * TILE_N - 1) / (CLUSTER_N * TILE_N);

    tile_origin(pair, pairs_m * TILE_M, pairs_n * TILE_N, row0, col0);
    {{pair_tile}}
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

    if (i >= STAGES)
        mbarrier_wait(&empty[s], (i / STAGES - 1) % 2);
    load_stage(a_map, b_map, as + s * A_STAGE, bs + s * B_STAGE, &full[s], m, n, row0, col0, k0, rank);
}

{{multiply_stage}}

// This warpgroup is done with a stage: its arrivals in this block and in
// the other (rank ^ 1), two of the 2 * CONSUMERS in each that free the stage
// for either block's next load.  One thread arrives for the warpgroup, as
// CUTLASS's TMA pipeline does: its wgmma_wait_group has waited for the
// warpgroup's wgmmas, which are one operation of all four warps.
static __device__ __forceinline__ void release_stage(unsigned long long *empty, unsigned int rank)
{
    if (threadIdx.x % 128 == 0) {
        mbarrier_arrive(empty);
        mbarrier_arrive_cluster(empty, rank ^ 1);
    }
}

{{store_tile}}
