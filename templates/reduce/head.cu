//! Any `in`: the elements before its first aligned address, for the vector loads.
// How many of x[0..n) lie before x's first {{align}}-byte boundary: the
// elements a vector load cannot take.
static __device__ __forceinline__ Index aligned_head(const T *x, Index n)
{
    const Index head = (0 - reinterpret_cast<unsigned long long>(x)) % {{align}} / sizeof(T);
    return head < n ? head : n;
}
