//! The writer of y's rows.
// f as vector i of the row at p, inside its n elements: one store when the
// vector is whole and the row aligned, else element by element.
{{#exact}}
// EXACT: the vector is whole and aligned (the exact path of kernel_regs.cu).
template <bool EXACT = false>
{{/exact}}
static __device__ __forceinline__ void store_y(Out *__restrict__ p, Index i, Index n, bool aligned,
                                               const float (&f)[VEC])
{
    const Index at = i * VEC;
{{#exact}}
    if (EXACT || (aligned && at + VEC <= n)) {
{{/exact}}
{{^exact}}
    if (aligned && at + VEC <= n) {
{{/exact}}
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
