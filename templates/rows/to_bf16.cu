//! A float to the bf16 output.
// A float as bf16 bits, rounded to nearest even (NaN stays NaN): one cvt
// on sm_80 and newer.
static __device__ __forceinline__ Out to_out(float f)
{
#if __CUDA_ARCH__ >= 800
    unsigned short h;
    asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(h) : "f"(f));
    return h;
#else
    const unsigned int u = __float_as_uint(f);
    if (f != f)
        return 0x7fc0;
    return (unsigned short)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
#endif
}
