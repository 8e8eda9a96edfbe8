//! math: wgmma: the instruction itself, wgmma.mma_async m64nNk16 with N the
//! tile's TILE_N and its TILE_N / 2 accumulator registers listed (the
//! emitter writes the lists).
// d (a 64 x TILE_N f32 block, this thread's TILE_N / 2 elements of it) += A (64 x 16)
// B (16 x TILE_N), both read from shared memory through their descriptors: A {{a_major}}
// ({{tnsp_a}}: {{a_why}}), B {{b_major}} ({{tnsp_b}}: {{b_why}}).  Asynchronous:
// d is not to be touched until wgmma_wait_group says the group has finished.
static __device__ __forceinline__ void wgmma(float (&d)[TILE_N / 2], unsigned long long a, unsigned long long b)
{
    asm volatile("{ .reg .pred p; setp.ne.b32 p, %{{scale_d}}, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n{{n}}k16.f32.{{ptx_type}}.{{ptx_type}}\n"
                 {{d_list}}
                 " %{{desc_a}}, %{{desc_b}}, p, 1, 1, {{tnsp_a}}, {{tnsp_b}}; }"
                 {{d_operands}}
                 : "l"(a), "l"(b), "r"(1));
}
