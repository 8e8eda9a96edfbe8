//! The TMA copies (the prelude's {{copy_helpers}} when the spec has no
//! cache_hint; tma_hint.cu when it has: an unused static helper is an
//! NVRTC warning, so only one of the two is in a file).
// TMA: the box at {x, y, z} of map into shared dst, completing on bar.
static __device__ __forceinline__ void tma_load_3d(void *dst, const CUtensorMap *map, int x, int y, int z,
                                                   unsigned long long *bar)
{
    asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%2, %3, %4}], [%5];"
                 :: "r"(smem(dst)), "l"(map), "r"(x), "r"(y), "r"(z), "r"(smem(bar)) : "memory");
}

// TMA: shared src into the box at {x, y, z} of map, in the thread's bulk group.
static __device__ __forceinline__ void tma_store_3d(const CUtensorMap *map, int x, int y, int z, const void *src)
{
    asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.bulk_group [%0, {%1, %2, %3}], [%4];"
                 :: "l"(map), "r"(x), "r"(y), "r"(z), "r"(smem(src)) : "memory");
}
