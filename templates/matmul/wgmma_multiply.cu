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
{{#block_scaled}}

// scale: block: the scales of k tile kt for this thread's rows, B's block's folded in.  A thread holds rows
// lane / 4 and lane / 4 + 8 of its warp's 16 in each 64-row block (wgmma's accumulator layout); rows past m
// take 0 (their sums are TMA's zeros).
static __device__ __forceinline__ void block_scales(float (&scales)[MMA_M][2], const Epilogue &ep, int m, int k_tiles,
                                                    int kt, int row0, int col0)
{
    const float sb = __ldg(ep.scale_b + (long long)(col0 / 128) * k_tiles + kt);
    const int r = row0 + threadIdx.x % 128 / 32 * 16 + threadIdx.x % 32 / 4;
#pragma unroll
    for (int i = 0; i < MMA_M; i++) {
        scales[i][0] = r + 64 * i < m ? sb * __ldg(ep.scale_a + (long long)kt * m + r + 64 * i) : 0.0f;
        scales[i][1] = r + 64 * i + 8 < m ? sb * __ldg(ep.scale_a + (long long)kt * m + r + 64 * i + 8) : 0.0f;
    }
}

// scale: block: a k tile's sums (part) added to acc, scaled: part[i][4g..4g+1] are the first row's,
// part[i][4g+2..4g+3] the second's.
static __device__ __forceinline__ void add_block_scaled(float (&acc)[MMA_M][TILE_N / 2],
                                                        const float (&part)[MMA_M][TILE_N / 2],
                                                        const float (&scales)[MMA_M][2])
{
#pragma unroll
    for (int i = 0; i < MMA_M; i++)
#pragma unroll
        for (int j = 0; j < TILE_N / 2; j += 4) {
            acc[i][j] += part[i][j] * scales[i][0];
            acc[i][j + 1] += part[i][j + 1] * scales[i][0];
            acc[i][j + 2] += part[i][j + 2] * scales[i][1];
            acc[i][j + 3] += part[i][j + 3] * scales[i][1];
        }
}
{{/block_scaled}}
