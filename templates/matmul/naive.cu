//! staging: none: one thread per element of C, reading its row of A and
//! its column of B straight from global memory (seed 002's first kernels).
{{#rows}}
// Consecutive threads take consecutive rows of C: a warp reads 32 rows of A (uncoalesced)
// and one element of B, and writes a column of C.
{{/rows}}
{{^rows}}
// Consecutive threads take consecutive columns of C: a warp reads one element of A
// and 32 adjacent elements of a row of B (coalesced), and writes 32 adjacent elements of C.
{{/rows}}
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
    int row0, col0;
    tile_origin(m, n, row0, col0);
{{#rows}}
    const int row = row0 + (int)threadIdx.x % TILE_M, col = col0 + (int)threadIdx.x / TILE_M;
{{/rows}}
{{^rows}}
    const int row = row0 + (int)threadIdx.x / TILE_N, col = col0 + (int)threadIdx.x % TILE_N;
{{/rows}}
    if (row >= m || col >= n)
        return;
    Acc acc = 0;
    for (int i = 0; i < k; i++)
{{#a_row}}
{{#b_row}}
        acc += to_acc(a[row * lda + i]) * to_acc(b[i * ldb + col]);
{{/b_row}}
{{^b_row}}
        acc += to_acc(a[row * lda + i]) * to_acc(b[col * ldb + i]);
{{/b_row}}
{{/a_row}}
{{^a_row}}
{{#b_row}}
        acc += to_acc(a[i * lda + row]) * to_acc(b[i * ldb + col]);
{{/b_row}}
{{^b_row}}
        acc += to_acc(a[i * lda + row]) * to_acc(b[col * ldb + i]);
{{/b_row}}
{{/a_row}}
    store_result(c, partials, m, n, ldc, row, col, acc, ep);
}
