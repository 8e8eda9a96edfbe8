//! split_k: 1: a block takes the whole k.
// The k range of the block's products: all of k.
static __device__ __forceinline__ void k_range(int k, int &k0, int &k1)
{
    k0 = 0;
    k1 = k;
}
