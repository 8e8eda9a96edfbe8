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
