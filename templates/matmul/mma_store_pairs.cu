//! math: mma, store: pairs: a warp's results to C two neighbouring columns a
//! store, without per-element checks, when its rows and columns lie inside C
//! and the pairs are aligned; element by element (store_elements) otherwise.
{{pair_result}}

// The warp's WARP_M x WARP_N results, rows from row0 and columns from col0, to
// C.  Each lane's two columns of a row of an mma tile (see store_elements) go
// as one OutPair when the warp's tile lies inside C and every pair starts on a
// multiple of two elements (c and ldc even).
static __device__ __forceinline__ void store_warp(Out *c, const float (&acc)[MMA_M][MMA_N][4], int m, int n,
                                                  long long ldc, int row0, int col0, int lane, const Epilogue &ep)
{
    const int r = lane / 4, cc = lane % 4 * 2;
    const bool inside = row0 + WARP_M <= m && col0 + WARP_N <= n;
    const bool aligned = (unsigned long long)c % sizeof(OutPair) == 0 && ldc % 2 == 0;

    if (inside && aligned) {
#pragma unroll
        for (int i = 0; i < MMA_M; i++)
#pragma unroll
            for (int h = 0; h < 2; h++) {
                const int row = row0 + 16 * i + r + 8 * h;
                Out *const line = c + row * ldc + col0 + cc;
#pragma unroll
                for (int j = 0; j < MMA_N; j++)
                    store_pair(line + 8 * j, row, col0 + 8 * j + cc, acc[i][j][2 * h], acc[i][j][2 * h + 1], ep);
            }
        return;
    }
    store_elements(c, nullptr, acc, m, n, ldc, row0, col0, lane, ep);
}
