//! A bf16 (its bits) to Acc: the high half of a float.
static __device__ __forceinline__ Acc {{fn}}(unsigned short x)
{
    return (Acc)__uint_as_float((unsigned int)x << 16);
}
