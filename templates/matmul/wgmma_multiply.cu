//! math: wgmma: the wgmmas that read one stage (every wgmma kernel's
//! consumers, wgmma_consumer.cu, call it).
// One stage's wgmmas, as one group: for each {{k_step}} of k, the warpgroup's MMA_M
// blocks of 64 rows (its rows of A from wg_row) times all of B's TILE_N
// columns, into acc.  The descriptors:
{{#a_k_major}}
//   A K-major, k{{k_step}} steps 32 bytes apart;
{{/a_k_major}}
{{^a_k_major}}
//   A M-major, 64-row blocks a box apart (LBO), k16 steps 2048 bytes;
{{/a_k_major}}
{{#b_k_major}}
//   B K-major, k{{k_step}} steps 32 bytes apart.
{{/b_k_major}}
{{^b_k_major}}
//   B N-major, 64-column blocks a box apart (LBO), k16 steps 2048 bytes.
{{/b_k_major}}
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
    for (int kk = 0; kk < TILE_K / {{k_step}}; kk++) {
{{#b_k_major}}
        const unsigned long long b = smem_desc(bs + kk * 32, B_LBO, B_SBO);
{{/b_k_major}}
{{^b_k_major}}
        const unsigned long long b = smem_desc(bs + kk * 2048, B_LBO, B_SBO);
{{/b_k_major}}
#pragma unroll
        for (int i = 0; i < MMA_M; i++)
{{#a_k_major}}
            wgmma(acc[i], smem_desc(as + (wg_row + 64 * i) * 128 + kk * 32, A_LBO, A_SBO), b);
{{/a_k_major}}
{{^a_k_major}}
            wgmma(acc[i], smem_desc(as + (wg_row / 64 + i) * A_BOX + kk * 2048, A_LBO, A_SBO), b);
{{/a_k_major}}
    }
    wgmma_commit_group();
#pragma unroll
    for (int i = 0; i < MMA_M; i++)
#pragma unroll
        for (int j = 0; j < TILE_N / 2; j++)
            wgmma_fence_operand(acc[i][j]);
}
