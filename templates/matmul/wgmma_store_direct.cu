//! math: wgmma, store: direct: a warpgroup's results to C one element at a
//! time, each checked against m and n.
// The warpgroup's results, rows from row0 and columns from col0, to C.
// Thread t of the warpgroup holds, in each 64-row block i and each 8 columns
// j, rows 16 (t / 32) + t % 32 / 4 and that + 8, columns 2 (t % 4) and the
// next: acc[i][4 j + e] is row + e / 2 * 8, column + e % 2.
{{^partials}}
static __device__ __forceinline__ void store_tile(Out *c, float (&acc)[MMA_M][TILE_N / 2], int m, int n, long long ldc,
                                                  int row0, int col0, const Epilogue &ep)
{
{{/partials}}
{{#partials}}
// split_reduce: kernel: store_result() writes each to the block's slice of the partials instead.
static __device__ __forceinline__ void store_tile(Out *c, Acc *partials, float (&acc)[MMA_M][TILE_N / 2], int m, int n,
                                                  long long ldc, int row0, int col0, const Epilogue &ep)
{
{{/partials}}
    const int t = threadIdx.x % 128, r = t / 32 * 16 + t % 32 / 4, cc = t % 4 * 2;

#pragma unroll
    for (int i = 0; i < MMA_M; i++)
#pragma unroll
        for (int j = 0; j < TILE_N / 8; j++)
#pragma unroll
            for (int e = 0; e < 4; e++) {
                const int row = row0 + 64 * i + r + e / 2 * 8, col = col0 + 8 * j + cc + e % 2;
                if (row < m && col < n)
{{^partials}}
                    store_result(c, nullptr, m, n, ldc, row, col, acc[i][4 * j + e], ep);
{{/partials}}
{{#partials}}
                    store_result(c, partials, m, n, ldc, row, col, acc[i][4 * j + e], ep);
{{/partials}}
            }
}
