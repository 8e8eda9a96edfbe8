//! What every PTX helper of the matmul kernels shares.
// Shared-memory address of a generic pointer, for the PTX below.
static __device__ __forceinline__ unsigned int smem(const void *p)
{
    return (unsigned int)__cvta_generic_to_shared(p);
}
