//! math: mma: a warp's results to C element by element, each checked against
//! m and n (store: direct; store: pairs where the warp's tile is not whole
//! inside C or its pairs are not aligned).

// The warp's WARP_M x WARP_N results, rows from row0 and columns from col0, to
// C one element at a time, those inside C.  Lane l holds, in each 16 x 8 mma
// tile (i, j), rows l / 4 and l / 4 + 8, columns 2 (l % 4) and the next:
// acc[i][j][e] is row + e / 2 * 8, column + e % 2.
static __device__ __forceinline__ void store_elements(Out *c, Acc *partials, const float (&acc)[MMA_M][MMA_N][4], int m,
                                                      int n, long long ldc, int row0, int col0, int lane,
                                                      const Epilogue &ep)
{
#pragma unroll
    for (int i = 0; i < MMA_M; i++)
#pragma unroll
        for (int j = 0; j < MMA_N; j++)
#pragma unroll
            for (int e = 0; e < 4; e++) {
                const int row = row0 + 16 * i + lane / 4 + e / 2 * 8, col = col0 + 8 * j + lane % 4 * 2 + e % 2;
                if (row < m && col < n)
                    store_result(c, partials, m, n, ldc, row, col, acc[i][j][e], ep);
            }
}
