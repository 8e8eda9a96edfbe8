//! math: mma: each warp computes WARP_M x WARP_N of C as MMA_M x MMA_N
//! 16 x 8 accumulator tiles of mma.sync m16n8k16, its fragments loaded by
//! ldmatrix from tiles that keep A's and B's layouts in shared memory.
//! Rows are padded by 8 elements (16 bytes): a row is an odd number of
//! 16-byte chunks, so the 8 rows of each ldmatrix matrix fall in 8
//! different chunks of the 128 bytes of banks (no conflict).
// One tile's products: for each 16 of k, the warp's A fragments (16 x 16) and B
// fragments (16 x 8, two per ldmatrix), multiplied into acc.
static __device__ __forceinline__ void multiply_tile(const T *as, const T *bs, float (&acc)[MMA_M][MMA_N][4], int wm,
                                                     int wn, int lane)
{
#pragma unroll
    for (int kk = 0; kk < TILE_K; kk += 16) {
        unsigned int fa[MMA_M][4], fb[MMA_N][2];
#pragma unroll
        for (int i = 0; i < MMA_M; i++)
            {{a_load}}(fa[i], as + {{a_fragment}});
#pragma unroll
        for (int j = 0; j < MMA_N; j += 2) {
            unsigned int r[4];
            {{b_load}}(r, bs + {{b_fragment}});
            fb[j][0] = r[0];
            fb[j][1] = r[1];
            fb[j + 1][0] = r[2];
            fb[j + 1][1] = r[3];
        }
#pragma unroll
        for (int i = 0; i < MMA_M; i++)
#pragma unroll
            for (int j = 0; j < MMA_N; j++)
                mma_16816(acc[i][j], fa[i], fb[j]);
    }
}

// {{doc}}
extern "C" __global__ void __launch_bounds__(THREADS, 1) {{name}}(const T *__restrict__ a, const T *__restrict__ b,
                                                                  Out *__restrict__ c, int m, int n, int k,
                                                                  long long lda, long long ldb, long long ldc,
                                                                  Acc alpha, Acc beta, int aligned, Acc *partials)
{
    extern __shared__ __align__(128) unsigned char smem_tiles[];
    T *const as = reinterpret_cast<T *>(smem_tiles);  // STAGES tiles of A, A_TILE elements each
    T *const bs = as + STAGES * A_TILE;               // then STAGES tiles of B
    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    const int wm = warp / WARPS_N * WARP_M, wn = warp % WARPS_N * WARP_N;  // the warp's part of the tile
    int row0, col0, k0, k1;
    tile_origin(m, n, row0, col0);
    k_range(k, k0, k1);
    float acc[MMA_M][MMA_N][4];
#pragma unroll
    for (int i = 0; i < MMA_M; i++)
#pragma unroll
        for (int j = 0; j < MMA_N; j++)
#pragma unroll
            for (int e = 0; e < 4; e++)
                acc[i][j][e] = 0.0f;

    {{mainloop}}

    // Lane l holds rows l / 4 and l / 4 + 8, columns 2 (l % 4) and the next, of each 16 x 8 tile.
#pragma unroll
    for (int i = 0; i < MMA_M; i++)
#pragma unroll
        for (int j = 0; j < MMA_N; j++)
#pragma unroll
            for (int e = 0; e < 4; e++) {
                const int row = row0 + wm + i * 16 + lane / 4 + e / 2 * 8, col = col0 + wn + j * 8 + lane % 4 * 2 + e % 2;
                if (row < m && col < n)
                    store_result(c, partials, m, n, ldc, row, col, acc[i][j][e], alpha, beta);
            }
}
