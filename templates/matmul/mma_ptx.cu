//! ldmatrix and mma.sync m16n8k16 ({{ptx_type}} in, f32 accumulate), wrapped
//! once (sm_80).
// Four 8 x 8 matrices of 16-bit elements from shared memory, lane l giving the
// shared-memory address (smem()) of row l % 8 of matrix l / 8; each lane gets
// its two elements of each (in the layout mma.sync's fragments take), each
// matrix transposed on the way when TRANS (for an operand whose k runs down
// its rows).
template <bool TRANS>
static __device__ __forceinline__ void ldmatrix_x4(unsigned int (&r)[4], unsigned int at)
{
    if (TRANS)
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
                     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(at));
    else
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(at));
}

// d (16 x 8, f32) += a (16 x 16, row) b (16 x 8, col).
static __device__ __forceinline__ void mma_16816(float (&d)[4], const unsigned int (&a)[4], const unsigned int (&b)[2])
{
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.{{ptx_type}}.{{ptx_type}}.f32 "
                 "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}
