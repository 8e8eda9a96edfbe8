//! What both TMA transposes share: the tensor-map type and the shared-memory address helper.
// A tensor map as cuTensorMapEncodeTiled() writes it: 128 opaque bytes,
// passed by value as a __grid_constant__ parameter.
struct alignas(64) CUtensorMap {
    unsigned long long opaque[16];
};

// Shared-memory address of a generic pointer, for the PTX below.
static __device__ __forceinline__ unsigned int smem(const void *p)
{
    return (unsigned int)__cvta_generic_to_shared(p);
}
