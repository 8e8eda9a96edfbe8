//! The spec's numbers.
constexpr int THREADS = {{threads}};
constexpr int VEC = {{vec}};  // elements per load ({{load_width}} bytes of x)
{{#cluster}}
// A kernel's blocks a cluster where the target has clusters (sm_90; the
// launcher takes the kernels of clusters there only).
#if __CUDA_ARCH__ >= 900
#define CLUSTER_DIMS(n) __cluster_dims__(n, 1, 1)
#else
#define CLUSTER_DIMS(n)
#endif
{{/cluster}}
// Bits of Rows::aligned: whose rows keep whole vectors aligned.
constexpr unsigned int X_ALIGNED = 1;
{{#y}}
constexpr unsigned int Y_ALIGNED = 2;
{{/y}}
{{#weight}}
constexpr unsigned int W_ALIGNED = 4;
{{/weight}}
{{#weight_regs}}

// Vectors of the weight (ARRAYS 2: and of the bias) a thread of a row
// over a cluster's blocks (LANES threads, NT a block) starts bringing into
// L1 before it uses them, where they are in global memory (FAR: not the
// copy a block holds in shared memory): 64 KB of them a block, at least
// one.  Their loads come after the stores of y before them, which the
// compiler cannot tell apart from them (kgen_rows refuses arrays that
// overlap; the pointers do not say so), so each would wait for L2:
// LayerNorm of 8192 x 262144 f32 ran at 0.78 of a copy without, 0.87
// with (bench/results/nvidia-h100/2026-12-06-rows-half).  None where the
// row is a block's or less: its weight stays in L1 from row to row, and
// the prefetches cost (f32 LayerNorm at 32768 x 4096: 0.83 of a copy with
// them, 0.99 without).
template <int LANES, int NT, int VECS, int ARRAYS, bool FAR>
static __device__ constexpr int weights_ahead()
{
    constexpr int BYTES = NT * VEC * (int)sizeof(W) * ARRAYS, AHEAD = 65536 / BYTES;
    return LANES <= NT || !FAR ? 0 : AHEAD < 1 ? 1 : AHEAD < VECS ? AHEAD : VECS;
}

// Start bringing vector i of a row's weight or bias (p, of n elements;
// null: none) into L1: one whole vector, where p is in global memory (a
// generic address in shared memory, the copy a staged block holds, makes
// it a no-op).
static __device__ __forceinline__ void prefetch_w(const W *p, Index i, Index n)
{
    if (p && (i + 1) * VEC <= n)
        asm volatile("prefetch.L1 [%0];" ::"l"(p + i * VEC));
}
{{/weight_regs}}
{{#neg_inf}}

// -inf: the max of no elements.
static __device__ __forceinline__ float neg_inf()
{
    return __uint_as_float(0xff800000u);
}

// exp(x - m) by the exponential unit: ex2.approx of (x - m) * log2(e).
// (Not x * log2(e) - m * log2(e) by one fma: m * log2(e) rounded is off by
// far more than 1 where |m| is large, 1e15 say.)
static __device__ __forceinline__ float exp_minus(float x, float m)
{
    float y;
    asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"((x - m) * 1.44269504f));
    return y;
}
{{#regs_neg_inf}}

// -inf as x stores it: what a row held in registers has past its end.
static __device__ __forceinline__ T x_neg_inf()
{
    return {{x_neg_inf}};
}
{{/regs_neg_inf}}
{{/neg_inf}}
