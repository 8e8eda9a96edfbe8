//! Acc to bf16 bits, rounded to nearest even by one cvt (sm_80 and up: the
//! tensor-core kernels; NaN stays NaN).
static __device__ __forceinline__ Out to_out(Acc v)
{
    unsigned short h;
    asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(h) : "f"((float)v));
    return h;
}
