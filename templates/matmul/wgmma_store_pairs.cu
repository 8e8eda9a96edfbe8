//! math: wgmma, store: pairs: a warpgroup's results to C two neighbouring
//! columns a store, without per-element checks, when its rows and columns
//! lie inside C and the pairs are aligned; element by element otherwise.
{{pair_result}}

// The warpgroup's results, rows from row0 and columns from col0, to C.
// Thread t of the warpgroup holds, in each 64-row block i and each 8 columns
// j, rows 16 (t / 32) + t % 32 / 4 and that + 8, columns 2 (t % 4) and the
// next: acc[i][4 j + e] is row + e / 2 * 8, column + e % 2.  Those two
// columns go as one OutPair when the warpgroup's WG_M x TILE_N lies inside
// C and every pair starts on a multiple of two elements (c and ldc even).
static __device__ __forceinline__ void store_tile(Out *c, float (&acc)[MMA_M][TILE_N / 2], int m, int n, long long ldc,
                                                  int row0, int col0, const Epilogue &ep)
{
    const int t = threadIdx.x % 128, r = t / 32 * 16 + t % 32 / 4, cc = t % 4 * 2;
    const bool inside = row0 + WG_M <= m && col0 + TILE_N <= n;
    const bool aligned = (unsigned long long)c % sizeof(OutPair) == 0 && ldc % 2 == 0;

    if (inside && aligned) {
#pragma unroll
        for (int i = 0; i < MMA_M; i++)
#pragma unroll
            for (int h = 0; h < 2; h++) {
                const int row = row0 + 64 * i + r + 8 * h;
                Out *const line = c + row * ldc + col0 + cc;
#pragma unroll
                for (int j = 0; j < TILE_N / 8; j++)
                    store_pair(line + 8 * j, row, col0 + 8 * j + cc, acc[i][4 * j + 2 * h], acc[i][4 * j + 2 * h + 1],
                               ep);
            }
        return;
    }
#pragma unroll
    for (int i = 0; i < MMA_M; i++)
#pragma unroll
        for (int j = 0; j < TILE_N / 8; j++)
#pragma unroll
            for (int e = 0; e < 4; e++) {
                const int row = row0 + 64 * i + r + e / 2 * 8, col = col0 + 8 * j + cc + e % 2;
                if (row < m && col < n)
                    store_result(c, nullptr, m, n, ldc, row, col, acc[i][4 * j + e], ep);
            }
}
