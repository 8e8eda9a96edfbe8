//! The TMA copies with an L2 cache policy, for `cache_hint: evict_first`
//! (the prelude's {{copy_helpers}}; tma_copy.cu without a hint).
// A policy that asks L2 to evict the bytes it is given first.
static __device__ __forceinline__ unsigned long long l2_evict_first()
{
    unsigned long long policy;
    asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(policy));
    return policy;
}

// TMA: the box at {x, y, z} of map into shared dst, completing on bar,
// with an L2 cache policy (l2_evict_first()).
static __device__ __forceinline__ void tma_load_3d(void *dst, const CUtensorMap *map, int x, int y, int z,
                                                   unsigned long long *bar, unsigned long long policy)
{
    asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint"
                 " [%0], [%1, {%2, %3, %4}], [%5], %6;"
                 :: "r"(smem(dst)), "l"(map), "r"(x), "r"(y), "r"(z), "r"(smem(bar)), "l"(policy) : "memory");
}

// TMA: shared src into the box at {x, y, z} of map, in the thread's bulk
// group, with an L2 cache policy.
static __device__ __forceinline__ void tma_store_3d(const CUtensorMap *map, int x, int y, int z, const void *src,
                                                    unsigned long long policy)
{
    asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.bulk_group.L2::cache_hint [%0, {%1, %2, %3}], [%4], %5;"
                 :: "l"(map), "r"(x), "r"(y), "r"(z), "r"(smem(src)), "l"(policy) : "memory");
}
