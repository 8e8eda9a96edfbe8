//! A row over a cluster's blocks (sm_90): they exchange their statistics
//! through distributed shared memory.
#if __CUDA_ARCH__ >= 900
// The rank of this block in its cluster (its part of the row).
static __device__ __forceinline__ unsigned int cluster_rank()
{
    unsigned int r;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
    return r;
}

// Each block's statistic of a call goes into its slot in every block's
// shared memory, by stores that complete on the receiver's mbarrier (no
// cluster barrier, which would wait for the block's global stores to
// drain): two sets of slots, the calls alternating between them.
constexpr int MOST_BLOCKS = 16;               // the largest cluster (of 16: non-portable, sm_90)
__shared__ float exchange[2][MOST_BLOCKS][2];  // [set][block][word of the statistic]
__shared__ unsigned long long exchanged[2];   // a set's slots are full
__shared__ unsigned int exchanges;            // the block's calls so far

// Ready the block's slots (thread 0, before the cluster's first barrier,
// after which the others may store into them).
static __device__ __forceinline__ void exchange_init()
{
    exchanges = 0;
    mbarrier_init(&exchanged[0], 1);
    mbarrier_init(&exchanged[1], 1);
}

// v (each block's, the same in all its threads) combined over the
// cluster's BLOCKS blocks in rank order.  A block stores into a set again
// two calls later, once every block has its statistic of the call
// between, which each sends after its threads have read the set.
template <int BLOCKS, class S>
static __device__ __forceinline__ S cluster_reduce(S v)
{
    constexpr int WORDS = sizeof(S) / sizeof(float);
    static_assert(WORDS <= 2 && BLOCKS <= MOST_BLOCKS, "a statistic of at most 2 floats, at most 16 blocks");
    const unsigned int call = exchanges, set = call % 2;

    __syncthreads();  // every thread has the count (and has read this set's last call)
    if (threadIdx.x == 0) {
        const float *f = reinterpret_cast<const float *>(&v);
        const unsigned int me = cluster_rank();
        exchanges = call + 1;
        mbarrier_arrive_expect_tx(&exchanged[set], BLOCKS * sizeof(S));
        for (unsigned int r = 0; r < BLOCKS; r++)
#pragma unroll
            for (int w = 0; w < WORDS; w++)
                dsmem_store_async(&exchange[set][me][w], f[w], &exchanged[set], r);
    }
    mbarrier_wait(&exchanged[set], call / 2 % 2);
    S all = *reinterpret_cast<const S *>(exchange[set][0]);
#pragma unroll
    for (int r = 1; r < BLOCKS; r++)
        all = combine(all, *reinterpret_cast<const S *>(exchange[set][r]));
    return all;
}
#endif
