//! smem_layout: swizzled: where an element of an unpadded tile lies.
// Element (r, c) of a tile of COLS-element rows in shared memory, its row's
// 16-byte chunks XORed with bits of r: the 8 rows an ldmatrix matrix reads at
// one column, and 8 adjacent chunks of a row (or of 2 or 4 short rows) that
// cp.async writes, fall in the 8 different 16-byte chunks of the 128 bytes of
// banks.  A row of CHUNKS chunks XORs within 8 (CHUNKS a multiple of 8) or
// within itself (2 or 4), a line of 128 bytes holding 8 / SPAN rows.
template <int COLS>
static __device__ __forceinline__ int swizzle_at(int r, int c)
{
    constexpr int CHUNK = 16 / sizeof(T), CHUNKS = COLS / CHUNK, SPAN = CHUNKS < 8 ? CHUNKS : 8;
    static_assert(CHUNKS % 8 == 0 || CHUNKS == 2 || CHUNKS == 4, "a row of 2, 4 or a multiple of 8 chunks");
    const unsigned int u = (unsigned int)r, v = (unsigned int)c;
    return (int)(u * COLS + ((v / CHUNK) ^ (u / (8 / SPAN) % SPAN)) * CHUNK + v % CHUNK);
}
