//! Reduce the 32 values of a warp; lane 0 gets the total.
// The total of the warp's 32 values, in lane 0: {{how}}.
static __device__ __forceinline__ Acc warp_reduce(Acc v)
{
    {{body}}
}
