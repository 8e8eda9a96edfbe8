//! Acc to f16 bits, rounded to nearest even.
static __device__ __forceinline__ Out to_out(Acc v)
{
    unsigned short h;
    asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"((float)v));
    return h;
}
