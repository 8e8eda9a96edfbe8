//! Strategy `thread`, axis rows: seed 002's row_sums.
// One thread per row (seed 002's row_sums): thread `row` walks its row
// alone.  Neighbouring threads read addresses `pitch` elements apart, so
// no load of a warp is coalesced.
extern "C" __global__ void __launch_bounds__(THREADS)
{{name}}(const T *__restrict__ in, Results out, Index rows, Index cols, Index pitch)
{
    const Index row = (Index)blockIdx.x * THREADS + threadIdx.x;

    if (row < rows) {
        Acc acc = identity();
        for (Index i = 0; i < cols; i++)
            acc = fold(acc, in[row * pitch + i], i);
        store(out, row, acc, cols);
    }
}
