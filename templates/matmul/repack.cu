//! unaligned: repack: the second kernel, launched before the first where A or B breaks TMA's rules.

// Copies `rows` rows of `width` elements, `ld` apart at src (aligned to an element will do), to dst
// (16-byte aligned) with rows `pitch` elements apart, pitch a multiple of 16 bytes: a thread writes 16
// bytes (PER elements) at a time, read one by one.  The pad past width is written as zeros; TMA never
// reads it.
extern "C" __global__ void __launch_bounds__(256) {{name}}(const T *__restrict__ src, long long ld, T *__restrict__ dst,
                                                           long long pitch, long long rows, long long width)
{
    constexpr int PER = 16 / sizeof(T);  // elements a 16-byte store
    const long long vectors = pitch / PER, total = rows * vectors;
    for (long long v = blockIdx.x * 256ll + threadIdx.x; v < total; v += gridDim.x * 256ll) {
        const long long row = v / vectors, col = v % vectors * PER;
        const T *from = src + row * ld + col;
        union {
            uint4 v;
            T e[PER];
        } out;
#pragma unroll
        for (int i = 0; i < PER; i++)
            out.e[i] = col + i < width ? from[i] : (T)0;
        *(uint4 *)(dst + row * pitch + col) = out.v;
    }
}
