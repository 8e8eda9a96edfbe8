//! loads: tma: where an element of a tile lies as TMA lands it.
// Element (r, c) of a tile of ROWS rows in shared memory as TMA lands it with
// CU_TENSOR_MAP_SWIZZLE_128B: boxes of ROWS rows of BOX elements (128 bytes),
// one after another along c, each row's 16-byte chunks XORed with r % 8, so
// that the 8 rows an ldmatrix matrix reads at one column fall in the 8
// different 16-byte chunks of the 128 bytes of banks.
template <int ROWS>
static __device__ __forceinline__ int swizzle_tma(int r, int c)
{
    constexpr int CHUNK = 16 / sizeof(T);
    const unsigned int u = (unsigned int)r, v = (unsigned int)c;
    return (int)(v / BOX * (ROWS * BOX) + u * BOX + ((v % BOX / CHUNK) ^ (u % 8)) * CHUNK + v % CHUNK);
}
