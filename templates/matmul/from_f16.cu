//! An f16 (its bits) to Acc.
static __device__ __forceinline__ Acc {{fn}}(unsigned short x)
{
    float f;
    asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(x));
    return (Acc)f;
}
