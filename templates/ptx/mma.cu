//! mma.sync (sm_80), wrapped once: m16n8k16 of f16 or bf16 (the spec's
//! dtype) accumulating in f32.
{{#mma_16816}}
// d (16 x 8, f32) += a (16 x 16, row) b (16 x 8, col).
static __device__ __forceinline__ void mma_16816(float (&d)[4], const unsigned int (&a)[4], const unsigned int (&b)[2])
{
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.{{ptx_type}}.{{ptx_type}}.f32 "
                 "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

{{/mma_16816}}
