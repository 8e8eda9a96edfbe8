//! row_reduce and col_reduce: what the reductions of the stored values
//! share: an infinity, NaN-propagating max and min, logsumexp's merge,
//! and their atomics (each where a reduction uses it).
// A thread's partials of one row's and one column's reductions, and their member functions (below).
struct RowPartials;
struct ColPartials;

{{#inf}}
// The largest Acc (the identity of a min; its negation, of a max).
static __device__ __forceinline__ Acc acc_inf()
{
    return sizeof(Acc) == 4 ? (Acc)__int_as_float(0x7f800000) : (Acc)__longlong_as_double(0x7ff0000000000000ll);
}

{{/inf}}
{{#max}}
// The larger of a partial and a value, a NaN winning (as torch.amax's does): one max.NaN of floats (sm_80).
static __device__ __forceinline__ Acc max_nan(Acc a, Acc b)
{
#if __CUDA_ARCH__ >= 800
    if constexpr (sizeof(Acc) == 4) {
        float r;
        asm("max.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"((float)a), "f"((float)b));
        return r;
    }
#endif
    return b > a || b != b ? b : a;
}

{{/max}}
{{#min}}
// The smaller of a partial and a value, a NaN winning (as torch.amin's does): one min.NaN of floats (sm_80).
static __device__ __forceinline__ Acc min_nan(Acc a, Acc b)
{
#if __CUDA_ARCH__ >= 800
    if constexpr (sizeof(Acc) == 4) {
        float r;
        asm("min.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"((float)a), "f"((float)b));
        return r;
    }
#endif
    return b < a || b != b ? b : a;
}

{{/min}}
{{#bits}}
// An Acc's bits, unsigned and signed.
template <int BYTES> struct AccBits;
template <> struct AccBits<4> { typedef unsigned int T; typedef int S; };
template <> struct AccBits<8> { typedef unsigned long long T; typedef long long S; };
typedef AccBits<sizeof(Acc)>::T Bits;
typedef AccBits<sizeof(Acc)>::S SignedBits;

union AccOrBits {
    Acc value;
    Bits bits;
};
{{/bits}}
{{#extreme}}

// *p = max_nan(*p, x) (below: min_nan) by one atomic of x's bits as an integer, which no thread waits for
// (there is no atomic max of floats): floats of the sign bit clear order as signed integers, those of it set
// in reverse as unsigned ones, so a max takes a signed max of the first and an unsigned min of the second
// (a min the other way round).  A NaN becomes the NaN that wins both: all ones but the sign (a max) or all
// ones (a min).  *p starts at the identity, -inf (a max) or +inf (a min).
static __device__ __forceinline__ void atomic_extreme(Acc *p, Acc x, bool below)
{
    AccOrBits v;
    v.value = x;
    if (x != x)
        v.bits = below ? ~(Bits)0 : ~(Bits)0 >> 1;
    SignedBits *const as_signed = reinterpret_cast<SignedBits *>(p);
    Bits *const as_unsigned = reinterpret_cast<Bits *>(p);
    const bool negative = v.bits >> (8 * sizeof(Bits) - 1);
    if (!below && !negative)
        atomicMax(as_signed, (SignedBits)v.bits);
    else if (!below)
        atomicMin(as_unsigned, v.bits);
    else if (!negative)
        atomicMin(as_signed, (SignedBits)v.bits);
    else
        atomicMax(as_unsigned, v.bits);
}
{{/extreme}}
{{#lse}}

// A line's logsumexp partials, m (the largest value) and s (the sum of exp(x - m)), merged with another's:
// the larger m kept, each sum scaled to it.  A NaN wins (m and s NaN); +inf makes (+inf, 1); two lines of
// -inf values, or none, make (-inf, 0).  Any (-inf, s) commits -inf.
static __device__ __forceinline__ void lse_merge(Acc &m, Acc &s, Acc m2, Acc s2)
{
    const Acc hi = max_nan(m, m2);
    if (hi == acc_inf() || hi == -acc_inf()) {
        m = hi, s = hi > 0 ? (Acc)1 : (Acc)0;
        return;
    }
    s = s * exp(m - hi) + s2 * exp(m2 - hi);
    m = hi;
}

// One value x folded into a line's logsumexp partials (m, s): one exponential and no branch, as it runs for
// every value stored.  The larger of x and m becomes m, the sum scaled to it; x equal to m adds 1 (also two
// infinities of one sign, where x - m is NaN), a NaN makes s NaN.
static __device__ __forceinline__ void lse_fold(Acc &m, Acc &s, Acc x)
{
    const Acc e = x == m ? (Acc)1 : exp(-fabs(x - m));
    s = x > m ? s * e + (Acc)1 : s + e;
    m = max_nan(m, x);
}

// log(exp(a) + exp(b)), without overflow: the larger plus log1p of the smaller's exp(lo - hi).
static __device__ __forceinline__ Acc logaddexp(Acc a, Acc b)
{
    const Acc hi = max_nan(a, b), lo = a < b ? a : b;
    if (hi == acc_inf() || hi == -acc_inf())
        return hi;
    return hi + log1p(exp(lo - hi));
}

// *p = logaddexp(*p, x) by a compare-and-swap of the bits, again until no other thread came between
// (there is no atomic of it); *p starts at -inf, the empty line's.  Not inlined: the kernels that fold each
// value in on its own call it once a value, and a loop at each of their stores made ptxas take minutes.
static __device__ __noinline__ void atomic_logaddexp(Acc *p, Acc x)
{
    AccOrBits seen, want;
    seen.value = *(volatile Acc *)p;
    for (;;) {
        want.value = logaddexp(seen.value, x);
        if (want.bits == seen.bits)
            return;
        const Bits was = atomicCAS(reinterpret_cast<Bits *>(p), seen.bits, want.bits);
        if (was == seen.bits)
            return;
        seen.bits = was;
    }
}
{{/lse}}
