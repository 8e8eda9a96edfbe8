//! LANES threads per row: the body of the kernels of strategy `warp` (and of `auto` for short rows).
// LANES threads per row, THREADS / LANES rows per block at a time: each
// thread combines its share of the row, then the row's lanes combine theirs
// with lanes_reduce().  The blocks walk the rows a grid apart, so that a
// few waves of blocks cover any number of rows.
template <int LANES>
static __device__ __forceinline__ void rows_by_lanes(const T *__restrict__ in, Results out, Index rows,
                                                     Index cols, Index pitch)
{
    constexpr int ROWS_PER_BLOCK = THREADS / LANES;
    const unsigned int lane = threadIdx.x % LANES;

    for (Index first = (Index)blockIdx.x * ROWS_PER_BLOCK; first < rows; first += (Index)gridDim.x * ROWS_PER_BLOCK) {
        const Index row = first + threadIdx.x / LANES;
        Acc acc = identity();

        if (row < rows)
            acc = reduce_span<LANES == 1 ? 1 : 4>(in + row * pitch, 0, cols, lane, LANES, acc);  // four loads in flight
        acc = lanes_reduce<LANES>(acc);  // every lane of the warp takes part
        if (lane == 0 && row < rows)
            store(out, row, acc, cols);
    }
}
