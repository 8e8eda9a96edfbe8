//! A vector a lane and GROUPS rows a thread: strategy `auto`'s kernels for rows of a few vectors.
// LANES threads per row, each taking one vector of it (rows of up to LANES
// vectors), and GROUPS rows per thread: a block loads all of its
// THREADS / LANES * GROUPS rows before it combines any, so that a thread
// has GROUPS loads in flight where rows_by_lanes() would have one.  The
// elements after a row's last whole vector, and every element of a row that
// does not start on a {{align}}-byte boundary, go one at a time, so any pitch
// works.  The blocks walk the rows a grid apart.
template <int LANES, int GROUPS>
static __device__ __forceinline__ void rows_by_vector(const T *__restrict__ in, Results out, Index rows,
                                                      Index cols, Index pitch)
{
    constexpr int ROWS_PER_GROUP = THREADS / LANES;
    const unsigned int lane = threadIdx.x % LANES;

    for (Index first = (Index)blockIdx.x * ROWS_PER_GROUP * GROUPS; first < rows;
         first += (Index)gridDim.x * ROWS_PER_GROUP * GROUPS) {
        Vec y[GROUPS];
        bool loaded[GROUPS];

        #pragma unroll
        for (int g = 0; g < GROUPS; g++) {
            const Index row = first + g * ROWS_PER_GROUP + threadIdx.x / LANES;
            const T *x = in + row * pitch;

            loaded[g] = row < rows && reinterpret_cast<unsigned long long>(x) % {{align}} == 0 && lane < cols / VEC;
            if (loaded[g])
                y[g] = reinterpret_cast<const Vec *>(x)[lane];
        }
        // Each row's index, address and alignment again rather than kept from
        // the loads: registers, which decide how many blocks an SM holds.
        #pragma unroll
        for (int g = 0; g < GROUPS; g++) {
            const Index row = first + g * ROWS_PER_GROUP + threadIdx.x / LANES;
            Acc acc = identity();

            if (row < rows) {
                const T *x = in + row * pitch;
                const Index rest = reinterpret_cast<unsigned long long>(x) % {{align}} == 0 ? cols / VEC * VEC : 0;

                if (loaded[g])
                    #pragma unroll
                    for (int k = 0; k < VEC; k++)
                        acc = fold(acc, y[g].v[k], lane * VEC + k);
                #pragma unroll 1  // rolled: 40 registers where unrolled copies took 54
                for (Index i = rest + lane; i < cols; i += LANES)
                    acc = fold(acc, x[i], i);
            }
            acc = lanes_reduce<LANES>(acc);  // every lane of the warp takes part
            if (lane == 0 && row < rows)
                store(out, row, acc, cols);
        }
    }
}
