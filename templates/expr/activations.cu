//! The activations an expression may call (GELU, SiLU, sigmoid), defined
//! where the spec's expressions use them; float and double alike, as CUDA's
//! math functions are (not static: an overload left unused draws no
//! warning).  expr_eval.c computes the same on the CPU.
{{#gelu}}
// GELU, the erf form: x * Phi(x), Phi the normal distribution's CDF.
__device__ __forceinline__ float gelu(float x) { return 0.5f * x * (1.0f + erff(x * 0.70710678118654752f)); }
__device__ __forceinline__ double gelu(double x) { return 0.5 * x * (1.0 + erf(x * 0.70710678118654752)); }
{{/gelu}}
{{#gelu_tanh}}
// GELU, the tanh approximation: 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3))).
__device__ __forceinline__ float gelu_tanh(float x)
{
    return 0.5f * x * (1.0f + tanhf(0.79788456080286536f * (x + 0.044715f * x * x * x)));
}
__device__ __forceinline__ double gelu_tanh(double x)
{
    return 0.5 * x * (1.0 + tanh(0.79788456080286536 * (x + 0.044715 * x * x * x)));
}
{{/gelu_tanh}}
{{#sigmoid}}
// The logistic function, 1 / (1 + e^-x).
__device__ __forceinline__ float sigmoid(float x) { return 1.0f / (1.0f + expf(-x)); }
__device__ __forceinline__ double sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }
{{/sigmoid}}
{{#silu}}
// SiLU (swish): x * sigmoid(x), as x / (1 + e^-x).
__device__ __forceinline__ float silu(float x) { return x / (1.0f + expf(-x)); }
__device__ __forceinline__ double silu(double x) { return x / (1.0 + exp(-x)); }
{{/silu}}
