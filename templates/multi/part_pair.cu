//! One GPU's partial of argmin or argmax (multi/file.cu): what its
//! kgen_reduce_arg or kgen_reduce_axis_arg wrote, indices first.
// Partial j of one GPU: its count indices (i64, -1 where it had no element
// or, with nan: ignore, no number), then its count values.  Its index is
// local: the elements (or rows) of the GPUs before it are added, so that
// combine()'s lowest-index rule on ties holds across GPUs.  An index of -1
// is the identity, which loses to everything.
static __device__ __forceinline__ Acc part(const unsigned char *p, Index count, Index j, long long offset)
{
    typedef decltype(Acc::v) Value;
    const long long i = reinterpret_cast<const long long *>(p)[j];
    const Value v = reinterpret_cast<const Value *>(p + count * 8)[j];

    return i < 0 ? identity() : Acc{ v, i + offset };
}
