//! The TMA unit (sm_90), each PTX instruction wrapped once in a named helper
//! (as CuTe's copy_sm90_tma.hpp): the tensor map, the copies between global
//! and shared memory (1-D bulk copies for the rows a row kernel stages, 2-D
//! for matmul's operands and C, 3-D for a batch of transposes; _hint with an
//! L2 cache policy, multicast to a cluster), the fence that lets TMA read
//! what threads wrote, and the bulk groups that track the stores.  Loads complete on an mbarrier (mbarrier.cu); smem()
//! comes from smem_addr.cu.
{{#tensor_map}}
// A tensor map as cuTensorMapEncodeTiled() writes it: 128 opaque bytes,
// passed by value as a __grid_constant__ parameter.
struct alignas(64) CUtensorMap {
    unsigned long long opaque[16];
};

{{/tensor_map}}
{{#fence_proxy_async_shared}}
// Make this thread's writes to shared memory visible to the TMA unit (the async proxy).
static __device__ __forceinline__ void fence_proxy_async_shared()
{
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

{{/fence_proxy_async_shared}}
{{#l2_evict_first}}
// A policy that asks L2 to evict the bytes it is given first.
static __device__ __forceinline__ unsigned long long l2_evict_first()
{
    unsigned long long policy;
    asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(policy));
    return policy;
}

{{/l2_evict_first}}
{{#bulk_load}}
// TMA, no tensor map: `bytes` (a multiple of 16) from global src to shared
// dst, both 16-byte aligned, completing on bar.
static __device__ __forceinline__ void bulk_load(void *dst, const void *src, unsigned int bytes,
                                                 unsigned long long *bar)
{
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                 :: "r"(smem(dst)), "l"(src), "r"(bytes), "r"(smem(bar)) : "memory");
}

{{/bulk_load}}
{{#tma_load_2d}}
// TMA: the box at {x, y} of map (x the contiguous dimension) into shared dst,
// completing on bar.  Elements outside the matrix land as zeros.
static __device__ __forceinline__ void tma_load_2d(void *dst, const CUtensorMap *map, int x, int y,
                                                   unsigned long long *bar)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                 :: "r"(smem(dst)), "l"(map), "r"(x), "r"(y), "r"(smem(bar)) : "memory");
}

{{/tma_load_2d}}
{{#tma_prefetch_2d}}
// TMA: the box at {x, y} of map fetched into L2 (no shared memory, nothing to wait for), so that a load of it
// later finds it there.
static __device__ __forceinline__ void tma_prefetch_2d(const CUtensorMap *map, int x, int y)
{
    asm volatile("cp.async.bulk.prefetch.tensor.2d.L2.global [%0, {%1, %2}];" :: "l"(map), "r"(x), "r"(y) : "memory");
}

{{/tma_prefetch_2d}}
{{#tma_load_2d_multicast}}
// TMA multicast: the box at {x, y} of map into dst's offset in the shared
// memory of each block of the cluster in `blocks` (a bit per rank), each
// completing on the mbarrier at bar's offset in that block.
static __device__ __forceinline__ void tma_load_2d_multicast(void *dst, const CUtensorMap *map, int x, int y,
                                                             unsigned long long *bar, unsigned short blocks)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster"
                 " [%0], [%1, {%2, %3}], [%4], %5;"
                 :: "r"(smem(dst)), "l"(map), "r"(x), "r"(y), "r"(smem(bar)), "h"(blocks) : "memory");
}

{{/tma_load_2d_multicast}}
{{#tma_load_3d}}
// TMA: the box at {x, y, z} of map into shared dst, completing on bar.
static __device__ __forceinline__ void tma_load_3d(void *dst, const CUtensorMap *map, int x, int y, int z,
                                                   unsigned long long *bar)
{
    asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%2, %3, %4}], [%5];"
                 :: "r"(smem(dst)), "l"(map), "r"(x), "r"(y), "r"(z), "r"(smem(bar)) : "memory");
}

{{/tma_load_3d}}
{{#tma_load_3d_hint}}
// TMA: the box at {x, y, z} of map into shared dst, completing on bar,
// with an L2 cache policy (l2_evict_first()).
static __device__ __forceinline__ void tma_load_3d(void *dst, const CUtensorMap *map, int x, int y, int z,
                                                   unsigned long long *bar, unsigned long long policy)
{
    asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint"
                 " [%0], [%1, {%2, %3, %4}], [%5], %6;"
                 :: "r"(smem(dst)), "l"(map), "r"(x), "r"(y), "r"(z), "r"(smem(bar)), "l"(policy) : "memory");
}

{{/tma_load_3d_hint}}
{{#tma_store_2d}}
// TMA: the shared box at src to C at {x, y} (x the column), clipped at C's edges.
static __device__ __forceinline__ void tma_store_2d(const CUtensorMap *map, const void *src, int x, int y)
{
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%1, %2}], [%3];"
                 :: "l"(map), "r"(x), "r"(y), "r"(smem(src)) : "memory");
}

{{/tma_store_2d}}
{{#tma_store_3d}}
// TMA: shared src into the box at {x, y, z} of map, in the thread's bulk group.
static __device__ __forceinline__ void tma_store_3d(const CUtensorMap *map, int x, int y, int z, const void *src)
{
    asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.bulk_group [%0, {%1, %2, %3}], [%4];"
                 :: "l"(map), "r"(x), "r"(y), "r"(z), "r"(smem(src)) : "memory");
}

{{/tma_store_3d}}
{{#tma_store_3d_hint}}
// TMA: shared src into the box at {x, y, z} of map, in the thread's bulk
// group, with an L2 cache policy.
static __device__ __forceinline__ void tma_store_3d(const CUtensorMap *map, int x, int y, int z, const void *src,
                                                    unsigned long long policy)
{
    asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.bulk_group.L2::cache_hint [%0, {%1, %2, %3}], [%4], %5;"
                 :: "l"(map), "r"(x), "r"(y), "r"(z), "r"(smem(src)), "l"(policy) : "memory");
}

{{/tma_store_3d_hint}}
{{#bulk_commit_group}}
// Close this thread's TMA stores issued so far into one bulk group.
static __device__ __forceinline__ void bulk_commit_group()
{
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
}

{{/bulk_commit_group}}
{{#bulk_wait_group_read}}
// Wait until at most PENDING of this thread's bulk groups have still to read their shared memory.
template <int PENDING>
static __device__ __forceinline__ void bulk_wait_group_read()
{
    asm volatile("cp.async.bulk.wait_group.read %0;" :: "n"(PENDING) : "memory");
}

{{/bulk_wait_group_read}}
{{#bulk_wait_group}}
// Wait until this thread's bulk groups have all been done (written to global memory).
static __device__ __forceinline__ void bulk_wait_group()
{
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}

{{/bulk_wait_group}}
