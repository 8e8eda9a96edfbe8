//! split_k: 1: a block's result goes to C at once.
// A result of the block: to C.
static __device__ __forceinline__ void store_result(Out *c, Acc *partials, int m, int n, long long ldc, int row, int col,
                                                    Acc acc, const Epilogue &ep)
{
    store_c(c, ldc, row, col, acc, ep);
}
