//! unaligned: repack: the second kernel, launched before the first where A or B breaks TMA's rules.

// Copies `rows` rows of `width` elements, `ld` apart at src (2-byte aligned will do), to dst (16-byte
// aligned) with rows `pitch` elements apart, pitch a multiple of 8: a thread writes 8 elements (16 bytes)
// at a time, read one by one.  The pad past width is written as zeros; TMA never reads it.
extern "C" __global__ void __launch_bounds__(256) {{name}}(const T *__restrict__ src, long long ld, T *__restrict__ dst,
                                                           long long pitch, long long rows, long long width)
{
    static_assert(sizeof(T) == 2, "8 elements a 16-byte store");
    const long long vectors = pitch / 8, total = rows * vectors;
    for (long long v = blockIdx.x * 256ll + threadIdx.x; v < total; v += gridDim.x * 256ll) {
        const long long row = v / vectors, col = v % vectors * 8;
        const T *from = src + row * ld + col;
        unsigned int word[4];
#pragma unroll
        for (int i = 0; i < 4; i++) {
            const unsigned int lo = col + 2 * i < width ? from[2 * i] : 0u;
            const unsigned int hi = col + 2 * i + 1 < width ? from[2 * i + 1] : 0u;
            word[i] = lo | hi << 16;
        }
        *(uint4 *)(dst + row * pitch + col) = make_uint4(word[0], word[1], word[2], word[3]);
    }
}
