//! x's vectors as stored: what the kernels that hold a row keep in
//! registers (16-bit elements take half the registers of floats).
// Vector i of the row at p as stored: one load when it lies whole inside
// the row's n elements and the row keeps its vectors aligned, else element
// by element; `pad` past the end.
static __device__ __forceinline__ void load_raw(const T *__restrict__ p, Index i, Index n, bool aligned, Vec<T> &w,
                                                T pad)
{
    const Index at = i * VEC;
    if (aligned && at + VEC <= n) {
        w = *reinterpret_cast<const Vec<T> *>(p + at);
    } else {
#pragma unroll
        for (int j = 0; j < VEC; j++)
            w.v[j] = at + j < n ? p[at + j] : pad;
    }
}
