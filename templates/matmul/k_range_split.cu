//! split_k above 1: split blockIdx.z takes whole tiles of its share of k.
// The k range of split blockIdx.z: SPLIT_K shares of whole TILE_K tiles (the
// last may be empty: the block then writes zeros).
static __device__ __forceinline__ void k_range(int k, int &k0, int &k1)
{
    const long long per = ((k + TILE_K - 1) / TILE_K + SPLIT_K - 1) / SPLIT_K * (long long)TILE_K;
    const long long first = blockIdx.z * per;
    k0 = (int)(first < k ? first : k);
    k1 = (int)(first + per < k ? first + per : k);
}
