//! The lanes of one row combine their values (the rows of strategies `warp` and `auto`).
// Butterfly over the LANES lanes of a row: after log2(LANES) shuffles every
// lane holds the row's total.  The whole warp takes part, rows in range or not.
template <int LANES>
static __device__ __forceinline__ Acc lanes_reduce(Acc v)
{
    #pragma unroll
    for (int offset = LANES / 2; offset > 0; offset /= 2)
        v = combine(v, __shfl_xor_sync(0xffffffffu, v, offset));
    return v;
}
