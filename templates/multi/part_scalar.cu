//! One GPU's partial of an op whose accumulator is one value (multi/file.cu).
// Partial j of one GPU: its accumulator (the offset is for pairs).
static __device__ __forceinline__ Acc part(const unsigned char *p, Index, Index j, long long)
{
    return reinterpret_cast<const Acc *>(p)[j];
}
