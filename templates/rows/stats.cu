//! The statistics of a row, a struct each, with how two partial ones
//! combine and how a warp shuffles them.  Shown are the op's.
{{#max}}
// The largest element seen; a NaN wins, as torch's max propagates it.
struct RowMax {
    float v;
};

static __device__ __forceinline__ RowMax combine(RowMax a, RowMax b)
{
#if __CUDA_ARCH__ >= 800
    float m;
    asm("max.NaN.f32 %0, %1, %2;" : "=f"(m) : "f"(a.v), "f"(b.v));
    return { m };
#else
    return { b.v > a.v || b.v != b.v ? b.v : a.v };
#endif
}

static __device__ __forceinline__ RowMax shfl_xor(RowMax a, int mask)
{
    return { __shfl_xor_sync(0xffffffffu, a.v, mask) };
}

{{/max}}
{{#sum}}
// A sum of the elements, or of their squares.
struct RowSum {
    float v;
};

static __device__ __forceinline__ RowSum combine(RowSum a, RowSum b)
{
    return { a.v + b.v };
}

static __device__ __forceinline__ RowSum shfl_xor(RowSum a, int mask)
{
    return { __shfl_xor_sync(0xffffffffu, a.v, mask) };
}

{{/sum}}
{{#max_sum}}
// A running max m and the sum s of exp(x - m) over the elements seen.  Two
// combine by rescaling each sum to the larger max; an empty one (m = -inf,
// s = 0) adds nothing, and a NaN or +inf makes the sum NaN, as in torch.
struct MaxSum {
    float m, s;
};

static __device__ __forceinline__ MaxSum combine(MaxSum a, MaxSum b)
{
    const float m = b.m > a.m || b.m != b.m ? b.m : a.m;
    const float sa = a.s == 0.0f ? 0.0f : a.s * exp_minus(a.m, m);
    const float sb = b.s == 0.0f ? 0.0f : b.s * exp_minus(b.m, m);
    return { m, sa + sb };
}

static __device__ __forceinline__ MaxSum shfl_xor(MaxSum a, int mask)
{
    return { __shfl_xor_sync(0xffffffffu, a.m, mask), __shfl_xor_sync(0xffffffffu, a.s, mask) };
}

// A batch of VECS loads added to t: its max, the running sum rescaled to
// it once, and one exp a new element.  Elements past the row's end are
// -inf and add nothing; a batch of them alone leaves t as it was.
template <int VECS>
static __device__ __forceinline__ MaxSum add_batch(MaxSum t, const float (&v)[VECS][VEC])
{
    float m = t.m;
#pragma unroll
    for (int k = 0; k < VECS; k++)
#pragma unroll
        for (int j = 0; j < VEC; j++)
            if (v[k][j] > m || v[k][j] != v[k][j])
                m = v[k][j];
    if (m == neg_inf())
        return t;
    float s = t.s == 0.0f ? 0.0f : t.s * exp_minus(t.m, m);
#pragma unroll
    for (int k = 0; k < VECS; k++)
#pragma unroll
        for (int j = 0; j < VEC; j++)
            s += exp_minus(v[k][j], m);
    return { m, s };
}

{{/max_sum}}
{{#moments}}
// The count of the elements seen, their mean and the sum of their squared
// deviations from it.  Two combine by Chan's formula: the mean moves to
// the pair's by each one's share, and m2 gains the squared distance
// between their means weighted by n_a n_b / n; an empty one adds nothing.
// (No cancellation: rows far from 0, or with an element far out, keep
// their variance.)
struct Moments {
    float n, mean, m2;
};

static __device__ __forceinline__ Moments combine(Moments a, Moments b)
{
    // The larger first (by n, then mean, then m2), so that both lanes of a
    // shuffle get the same bits.
    if (b.n > a.n || (b.n == a.n && (b.mean > a.mean || (b.mean == a.mean && b.m2 > a.m2)))) {
        const Moments c = a;
        a = b;
        b = c;
    }
    if (b.n == 0.0f)
        return a;
    const float n = a.n + b.n, d = b.mean - a.mean, f = b.n / n;
    return { n, a.mean + d * f, a.m2 + b.m2 + d * d * a.n * f };
}

static __device__ __forceinline__ Moments shfl_xor(Moments a, int mask)
{
    return { __shfl_xor_sync(0xffffffffu, a.n, mask), __shfl_xor_sync(0xffffffffu, a.mean, mask),
             __shfl_xor_sync(0xffffffffu, a.m2, mask) };
}
{{/moments}}
