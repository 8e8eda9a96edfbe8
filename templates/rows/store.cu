//! The writer of y's rows.
// f as vector i of the row at p, inside its n elements: one store when the
// vector is whole and the row aligned (EXACT: it is), else element by
// element.
template <bool EXACT = false>
static __device__ __forceinline__ void store_y(Out *__restrict__ p, Index i, Index n, bool aligned,
                                               const float (&f)[VEC])
{
    const Index at = i * VEC;
    if (EXACT || (aligned && at + VEC <= n)) {
        Vec<Out> w;
#pragma unroll
        for (int j = 0; j < VEC; j++)
            w.v[j] = to_out(f[j]);
        *reinterpret_cast<Vec<Out> *>(p + at) = w;
    } else {
#pragma unroll
        for (int j = 0; j < VEC; j++)
            if (at + j < n)
                p[at + j] = to_out(f[j]);
    }
}
