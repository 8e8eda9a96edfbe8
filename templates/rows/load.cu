//! A loader of one array's rows as floats ({{fn}}): x, or the weight and bias.
// Vector i of the row at p (its elements i * VEC to i * VEC + VEC - 1) as
// floats: one load when it lies whole inside the row's n elements and the
// row keeps its vectors aligned, else element by element; `pad` past the
// end (a value the row's statistics ignore: -inf for a max and a sum of
// exponentials, 0 for sums).
static __device__ __forceinline__ void {{fn}}(const {{type}} *__restrict__ p, Index i, Index n, bool aligned,
                                               float (&f)[VEC], float pad)
{
    const Index at = i * VEC;
    if (aligned && at + VEC <= n) {
        const Vec<{{type}}> w = *reinterpret_cast<const Vec<{{type}}> *>(p + at);
#pragma unroll
        for (int j = 0; j < VEC; j++)
            f[j] = {{to_float}}(w, j);
    } else {
#pragma unroll
        for (int j = 0; j < VEC; j++)
            f[j] = at + j < n ? {{to_float}}(p[at + j]) : pad;
    }
}
