//! Strategy `thread`, axis cols: seed 002's column_sums.
// One thread per column (seed 002's column_sums): thread `col` walks down
// its column.  Neighbouring threads read neighbouring elements of each
// row, so every load of a warp is coalesced.
extern "C" __global__ void __launch_bounds__(THREADS)
{{name}}(const T *__restrict__ in, Results out, Index rows, Index cols, Index pitch)
{
    const Index col = (Index)blockIdx.x * THREADS + threadIdx.x;

    if (col < cols) {
        Acc acc = identity();
        for (Index i = 0; i < rows; i++)
            acc = fold(acc, in[i * pitch + col], i);
        store(out, col, acc, rows);
    }
}
