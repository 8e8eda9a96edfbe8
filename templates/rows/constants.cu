//! The spec's numbers.
constexpr int THREADS = {{threads}};
constexpr int VEC = {{vec}};  // elements per load ({{load_width}} bytes of x)
{{#regs}}
constexpr int CLUSTER = {{cluster}};  // blocks that share a row
{{/regs}}
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

// 2^x by the exponential unit (ex2.approx): exp(x - m) is
// ex2(x * LOG2E - m * LOG2E), one fused multiply-add and one ex2.
constexpr float LOG2E = 1.44269504f;

static __device__ __forceinline__ float ex2(float x)
{
    float y;
    asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
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
