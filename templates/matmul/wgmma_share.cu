//! math: wgmma, split_k above 1: a block's share of a tile's k tiles (the
//! cluster's block `rank` with split_reduce: cluster, blockIdx.z with
//! split_reduce: kernel).
// The k tiles of split `rank`: a share of ceil(k_tiles / SPLIT_K) each, from *first.
static __device__ __forceinline__ int split_k_tiles(int k_tiles, unsigned int rank, int *first)
{
    const int share = (k_tiles + SPLIT_K - 1) / SPLIT_K, from = (int)rank * share;

    *first = from;
    return from >= k_tiles ? 0 : k_tiles - from < share ? k_tiles - from : share;
}
