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
{{/neg_inf}}
