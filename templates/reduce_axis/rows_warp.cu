//! Strategy `warp`, axis rows: LANES threads per row.
// LANES threads per row, THREADS / LANES rows per block: each thread
// combines its share of the row, then the lanes of the row combine theirs{{lanes_doc}}
extern "C" __global__ void __launch_bounds__(THREADS)
{{name}}(const T *__restrict__ in, Acc *__restrict__ out, Index rows, Index cols, Index pitch)
{
    const unsigned int lane = threadIdx.x % LANES;
    const Index row = (Index)blockIdx.x * (THREADS / LANES) + threadIdx.x / LANES;
    Acc acc = identity();

    if (row < rows)
        acc = reduce_span(in + row * pitch, cols, lane, LANES, acc);
    {{lanes_reduce}}
    if (lane == 0 && row < rows)
        out[row] = acc;
}
