//! Acc to bf16 bits, rounded to nearest even (NaN stays NaN).
static __device__ __forceinline__ Out to_out(Acc v)
{
    const float f = (float)v;
    const unsigned int u = __float_as_uint(f);
    if (f != f)
        return 0x7fc0;
    return (unsigned short)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}
