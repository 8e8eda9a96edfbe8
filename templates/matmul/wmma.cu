//! math: wmma: each warp computes WARP_M x WARP_N of C as FRAGS_M x FRAGS_N
//! 16 x 16 accumulator fragments; the tiles in shared memory keep A's and
//! B's layouts (ld padded by 8 elements), which the fragment loads read.
// One tile's products: for each 16 of k, the warp's fragments of A and B, multiplied into acc.
static __device__ __forceinline__ void multiply_tile(const T *as, const T *bs, float (&acc)[FRAGS_M][FRAGS_N][8], int wm,
                                                     int wn)
{
#pragma unroll
    for (int kk = 0; kk < TILE_K; kk += 16) {
        unsigned int fa[FRAGS_M][A_REGS], fb[FRAGS_N][B_REGS];
#pragma unroll
        for (int i = 0; i < FRAGS_M; i++)
{{#a_row}}
            wmma_load_a(fa[i], as + (wm + i * 16) * A_LD + kk, A_LD);
{{/a_row}}
{{^a_row}}
            wmma_load_a(fa[i], as + kk * A_LD + wm + i * 16, A_LD);
{{/a_row}}
#pragma unroll
        for (int j = 0; j < FRAGS_N; j++)
{{#b_row}}
            wmma_load_b(fb[j], bs + kk * B_LD + wn + j * 16, B_LD);
{{/b_row}}
{{^b_row}}
            wmma_load_b(fb[j], bs + (wn + j * 16) * B_LD + kk, B_LD);
{{/b_row}}
#pragma unroll
        for (int i = 0; i < FRAGS_M; i++)
#pragma unroll
            for (int j = 0; j < FRAGS_N; j++)
                wmma_mma(acc[i][j], fa[i], fb[j]);
    }
}

// Each warp's WARP_M x WARP_N of the tile as 16 x 16 wmma fragments.
{{#min_blocks}}
extern "C" __global__ void __launch_bounds__(THREADS, MIN_BLOCKS) {{name}}(const T *__restrict__ a, const T *__restrict__ b,
{{/min_blocks}}
{{^min_blocks}}
{{#one_block}}
extern "C" __global__ void __launch_bounds__(THREADS, 1) {{name}}(const T *__restrict__ a, const T *__restrict__ b,
{{/one_block}}
{{^one_block}}
extern "C" __global__ void __launch_bounds__(THREADS) {{name}}(const T *__restrict__ a, const T *__restrict__ b,
{{/one_block}}
{{/min_blocks}}
                                                               Out *__restrict__ c, int m, int n, int k, long long lda,
                                                               long long ldb, long long ldc, const Epilogue ep,
                                                               int aligned, Acc *partials)
{
    extern __shared__ __align__(128) unsigned char smem_tiles[];
    T *const as = reinterpret_cast<T *>(smem_tiles);  // STAGES tiles of A, A_TILE elements each
    T *const bs = as + STAGES * A_TILE;               // then STAGES tiles of B
    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    const int wm = warp / WARPS_N * WARP_M, wn = warp % WARPS_N * WARP_N;  // the warp's part of the tile
    int row0, col0, k0, k1;
    tile_origin(m, n, row0, col0);
    k_range(k, k0, k1);
    float acc[FRAGS_M][FRAGS_N][8];
#pragma unroll
    for (int i = 0; i < FRAGS_M; i++)
#pragma unroll
        for (int j = 0; j < FRAGS_N; j++)
#pragma unroll
            for (int e = 0; e < 8; e++)
                acc[i][j][e] = 0.0f;

    {{mainloop}}

    // Each fragment through a 16 x 16 patch of shared memory of the warp's own
    // (the tiles are free once every warp is past them), then to C.
    __syncthreads();
    float *const patch = reinterpret_cast<float *>(smem_tiles) + warp * 256;
#pragma unroll
    for (int i = 0; i < FRAGS_M; i++)
#pragma unroll
        for (int j = 0; j < FRAGS_N; j++) {
            wmma_store(patch, acc[i][j], 16);
            __syncwarp();
            for (int e = lane; e < 256; e += 32) {
                const int row = row0 + wm + i * 16 + e / 16, col = col0 + wn + j * 16 + e % 16;
                if (row < m && col < n)
                    store_result(c, partials, m, n, ldc, row, col, patch[e], ep);
            }
            __syncwarp();
        }
}
