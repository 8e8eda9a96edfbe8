//! Acc to a float or double C.
static __device__ __forceinline__ Out to_out(Acc v)
{
    return (Out)v;
}
