//! split_k above 1: a block's sums go to its split's slice of the partials,
//! which the _reduce kernel adds in split order (deterministic).
// A partial sum of the block: to slice blockIdx.z of `partials` (m x n Acc each).
static __device__ __forceinline__ void store_result(Out *c, Acc *partials, int m, int n, long long ldc, int row, int col,
                                                    Acc acc, const Epilogue &ep)
{
    partials[((long long)blockIdx.z * m + row) * n + col] = acc;
}
