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

// This thread's vectors of row `row` (of n elements: 0 for a group past
// the last row) into v: lane, lane + STRIDE, ...; `pad` past the end.
// EXACT: the row is the threads' vectors exactly, aligned (n unused).
template <int LANES, int VECS, bool EXACT = false>
static __device__ __forceinline__ void load_row(const Rows &a, Index row, int lane, Index n, Vec<T> (&v)[VECS], T pad)
{
    constexpr Index STRIDE = LANES < THREADS ? LANES : THREADS;  // from one of a thread's vectors to the next
    const T *x = a.x + row * a.x_pitch;
#pragma unroll
    for (int k = 0; k < VECS; k++)
        if constexpr (EXACT)
            v[k] = *reinterpret_cast<const Vec<T> *>(x + (k * (int)STRIDE + lane) * VEC);
        else
            load_raw(x, k * STRIDE + lane, n, a.aligned & X_ALIGNED, v[k], pad);
}
