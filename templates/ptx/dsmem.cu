//! Distributed shared memory (sm_90): another block of the cluster's
//! shared memory.
{{#dsmem_load}}
// The float at p in the shared memory of the cluster's block `rank` (p is
// this block's address of the same variable): mapa, then ld.shared::cluster.
static __device__ __forceinline__ float dsmem_load(const float *p, unsigned int rank)
{
    unsigned int remote;
    float v;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(smem(p)), "r"(rank));
    asm volatile("ld.shared::cluster.f32 %0, [%1];" : "=f"(v) : "r"(remote) : "memory");
    return v;
}

{{/dsmem_load}}
{{#dsmem_store_async}}
// Store v at p in the shared memory of the cluster's block `rank` (p and
// bar are this block's addresses of the same variables), completing as
// bytes on that block's mbarrier bar: st.async, which orders nothing else
// (a block's global stores need not drain first, as a release would).
static __device__ __forceinline__ void dsmem_store_async(float *p, float v, unsigned long long *bar, unsigned int rank)
{
    unsigned int remote, remote_bar;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(smem(p)), "r"(rank));
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote_bar) : "r"(smem(bar)), "r"(rank));
    asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.f32 [%0], %1, [%2];"
                 :: "r"(remote), "f"(v), "r"(remote_bar) : "memory");
}

{{/dsmem_store_async}}
{{#dsmem_store_async_v4}}
// Store the four floats v at p (16-byte aligned) in the shared memory of the
// cluster's block `rank`, completing as 16 bytes on that block's mbarrier
// bar (p and bar are this block's addresses of the same variables).
static __device__ __forceinline__ void dsmem_store_async_v4(float *p, float4 v, unsigned long long *bar,
                                                            unsigned int rank)
{
    unsigned int remote, remote_bar;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(smem(p)), "r"(rank));
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote_bar) : "r"(smem(bar)), "r"(rank));
    asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.v4.f32 [%0], {%1, %2, %3, %4}, [%5];"
                 :: "r"(remote), "f"(v.x), "f"(v.y), "f"(v.z), "f"(v.w), "r"(remote_bar) : "memory");
}

{{/dsmem_store_async_v4}}
{{#dsmem_load_u64}}
// The 8 bytes at p in the shared memory of the cluster's block `rank` (p is
// this block's address of the same variable).
static __device__ __forceinline__ unsigned long long dsmem_load_u64(const unsigned long long *p, unsigned int rank)
{
    unsigned int remote;
    unsigned long long v;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(smem(p)), "r"(rank));
    asm volatile("ld.shared::cluster.u64 %0, [%1];" : "=l"(v) : "r"(remote) : "memory");
    return v;
}

{{/dsmem_load_u64}}
{{#dsmem_store_u64}}
// Store v at p in the shared memory of the cluster's block `rank` (p is this
// block's address of the same variable); that block reads it after the
// cluster's next barrier (cluster_sync()).
static __device__ __forceinline__ void dsmem_store_u64(unsigned long long *p, unsigned long long v, unsigned int rank)
{
    unsigned int remote;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(smem(p)), "r"(rank));
    asm volatile("st.shared::cluster.u64 [%0], %1;" :: "r"(remote), "l"(v) : "memory");
}

{{/dsmem_store_u64}}
