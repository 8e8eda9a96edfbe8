//! ldmatrix (sm_80), wrapped once: math: mma's fragments from shared memory.
{{#ldmatrix_x4}}
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

{{/ldmatrix_x4}}
