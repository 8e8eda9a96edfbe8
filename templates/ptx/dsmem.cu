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
