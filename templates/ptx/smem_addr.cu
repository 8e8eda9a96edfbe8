//! The address every PTX helper that touches shared memory takes (gen/ptx.h:
//! each PTX family in one file of templates/ptx/, one section a helper,
//! shown where a kernel calls it).
{{#smem}}
// Shared-memory address of a generic pointer, for the PTX below.
static __device__ __forceinline__ unsigned int smem(const void *p)
{
    return (unsigned int)__cvta_generic_to_shared(p);
}

{{/smem}}
