//! math: wgmma: the wgmmas that read one stage (both stage helpers,
//! wgmma_stage.cu and wgmma_cluster_stage.cu, take it).
// One stage's wgmmas, as one group: for each 16 of k, the warpgroup's MMA_M
// blocks of 64 rows (its rows of A from wg_row) times all of B's TILE_N
// columns, into acc.  The descriptors:
//   A {{a_layout_doc}};
//   B {{b_layout_doc}}.
static __device__ __forceinline__ void multiply_stage(float (&acc)[MMA_M][TILE_N / 2], const unsigned char *as,
                                                      const unsigned char *bs, int wg_row)
{
#pragma unroll
    for (int i = 0; i < MMA_M; i++)
#pragma unroll
        for (int j = 0; j < TILE_N / 2; j++)
            wgmma_fence_operand(acc[i][j]);
    wgmma_fence();
#pragma unroll
    for (int kk = 0; kk < TILE_K / 16; kk++) {
        const unsigned long long b = smem_desc(bs + {{b_step}}, B_LBO, B_SBO);
#pragma unroll
        for (int i = 0; i < MMA_M; i++)
            wgmma(acc[i], smem_desc(as + {{a_step}}, A_LBO, A_SBO), b);
    }
    wgmma_commit_group();
#pragma unroll
    for (int i = 0; i < MMA_M; i++)
#pragma unroll
        for (int j = 0; j < TILE_N / 2; j++)
            wgmma_fence_operand(acc[i][j]);
}
