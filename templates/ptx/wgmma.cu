//! wgmma (sm_90a), each PTX instruction wrapped once in a named helper:
//! the fences and groups of the asynchronous multiplies, the shared-memory
//! matrix descriptor and the multiply itself, wgmma.mma_async m64nNk16
//! (m64nNk32 of fp8) with N the tile's columns and its N / 2 accumulator
//! registers listed (gen/ptx.c writes the lists).  smem() comes from
//! smem_addr.cu.
{{#wgmma_fence}}
// Order this warpgroup's register accesses before the wgmmas that follow.
static __device__ __forceinline__ void wgmma_fence()
{
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
}

{{/wgmma_fence}}
{{#wgmma_commit_group}}
// Close the warpgroup's wgmmas issued so far into one group.
static __device__ __forceinline__ void wgmma_commit_group()
{
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
}

{{/wgmma_commit_group}}
{{#wgmma_wait_group}}
// Wait until at most PENDING of the warpgroup's wgmma groups are in flight.
template <int PENDING>
static __device__ __forceinline__ void wgmma_wait_group()
{
    asm volatile("wgmma.wait_group.sync.aligned %0;" :: "n"(PENDING) : "memory");
}

{{/wgmma_wait_group}}
{{#wgmma_fence_operand}}
// Keep the compiler from moving accesses of an accumulator across the
// asynchronous wgmmas that write it.
static __device__ __forceinline__ void wgmma_fence_operand(float &r)
{
    asm volatile("" : "+f"(r) :: "memory");
}

{{/wgmma_fence_operand}}
{{#smem_desc}}
// The descriptor of a 128-byte-swizzled matrix in shared memory starting at
// p: start address, leading and stride byte offsets (each >> 4), base
// offset 0 (the swizzle atoms are 1024-byte aligned) and the 128B swizzle
// mode (1) in bits 62-63.
static __device__ __forceinline__ unsigned long long smem_desc(const void *p, unsigned int lbo, unsigned int sbo)
{
    return (unsigned long long)((smem(p) & 0x3ffff) >> 4) | (unsigned long long)((lbo & 0x3ffff) >> 4) << 16 |
           (unsigned long long)((sbo & 0x3ffff) >> 4) << 32 | 1ull << 62;
}

{{/smem_desc}}
{{#wgmma}}
{{#transposes}}
// d (a 64 x TILE_N f32 block, this thread's TILE_N / 2 elements of it) += A (64 x {{k}})
// B ({{k}} x TILE_N), both read from shared memory through their descriptors: A {{a_major}}
// ({{tnsp_a}}: {{a_why}}), B {{b_major}} ({{tnsp_b}}: {{b_why}}).  Asynchronous:
// d is not to be touched until wgmma_wait_group says the group has finished.
{{/transposes}}
{{^transposes}}
// d (a 64 x TILE_N f32 block, this thread's TILE_N / 2 elements of it) += A (64 x {{k}}, {{ptx_type}})
// B ({{k}} x TILE_N, {{ptx_type_b}}), both K-major in shared memory (fp8 has no transposed
// form), read through their descriptors.  Asynchronous: d is not to be touched until
// wgmma_wait_group says the group has finished.
{{/transposes}}
static __device__ __forceinline__ void wgmma(float (&d)[TILE_N / 2], unsigned long long a, unsigned long long b)
{
    asm volatile("{ .reg .pred p; setp.ne.b32 p, %{{scale_d}}, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n{{n}}k{{k}}.f32.{{ptx_type}}.{{ptx_type_b}}\n"
                 {{d_list}}
{{#transposes}}
                 " %{{desc_a}}, %{{desc_b}}, p, 1, 1, {{tnsp_a}}, {{tnsp_b}}; }"
{{/transposes}}
{{^transposes}}
                 " %{{desc_a}}, %{{desc_b}}, p, 1, 1; }"
{{/transposes}}
                 {{d_operands}}
                 : "l"(a), "l"(b), "r"(1));
}

{{/wgmma}}
