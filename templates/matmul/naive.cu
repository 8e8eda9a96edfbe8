//! staging: none: one thread per element of C, reading its row of A and
//! its column of B straight from global memory (seed 002's first kernels).
// {{doc}}
extern "C" __global__ void __launch_bounds__({{bounds}}) {{name}}(const T *__restrict__ a, const T *__restrict__ b,
                                                               Out *__restrict__ c, int m, int n, int k, long long lda,
                                                               long long ldb, long long ldc, Acc alpha, Acc beta,
                                                               int aligned, Acc *partials)
{
    int row0, col0;
    tile_origin(m, n, row0, col0);
    const int row = row0 + {{row}}, col = col0 + {{col}};
    if (row >= m || col >= n)
        return;
    Acc acc = 0;
    for (int i = 0; i < k; i++)
        acc += to_acc(a[{{a_index}}]) * to_acc(b[{{b_index}}]);
    store_result(c, partials, m, n, ldc, row, col, acc, alpha, beta);
}
