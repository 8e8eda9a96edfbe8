//! A float or double to Acc.
static __device__ __forceinline__ Acc {{fn}}({{ctype}} x)
{
    return (Acc)x;
}
