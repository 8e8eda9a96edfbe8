//! The activations an expression may call (GELU, SiLU, sigmoid), defined
//! where the spec's expressions use them; float and double alike, as CUDA's
//! math functions are (not static: an overload left unused draws no
//! warning).  expr_eval.c computes the same on the CPU.
{{#gelu}}
// GELU, the erf form: x * Phi(x) = 0.5 x (1 + erf(z)), z = x / sqrt(2), Phi the normal distribution's CDF.
// In float without a branch (CUDA's erff branches on |z| inside each call, so a tile's elements could not
// interleave in an epilogue): both pieces are computed and one is chosen.  Below |z| = 0.9, 1 + erf(z) =
// 1 + z P(z^2); above, erfc(|z|) = 2^Q(|z| - 2.45) (0 past |z| = 4, where it is below 2^-26), and 1 + erf(z)
// is 2 - erfc(|z|) for z > 0 and erfc(|z|) itself for z < 0 (the tail without 1 + erf's cancellation).  P and
// Q are least-squares fits (tools/fit_gelu.py): evaluated with fmaf and an exact exp2 on the CPU, x Phi(x) is
// within 1.4e-7 of its value for x >= 0 and 2.7e-6 for x < 0 where Phi(x) >= 2^-24 (the tail, where the
// value is small), within 4.4e-8 of it elsewhere; ex2.approx adds its 2^-22 to erfc.
__device__ __forceinline__ float gelu(float x)
{
    const float z = x * 0.70710678118654752f, a = fabsf(z), u = z * z;
    float p = -6.123287592e-04f;
    p = fmaf(p, u, 5.019129553e-03f);
    p = fmaf(p, u, -2.678451550e-02f);
    p = fmaf(p, u, 1.128232844e-01f);
    p = fmaf(p, u, -3.761254760e-01f);
    p = fmaf(p, u, 1.128379161e+00f);
    const float s = fminf(a, 4.0f) - 2.45f;
    float q = 2.323085875e-06f;
    q = fmaf(q, s, -2.012856889e-05f);
    q = fmaf(q, s, 1.185632882e-04f);
    q = fmaf(q, s, -6.406773024e-04f);
    q = fmaf(q, s, 3.279443398e-03f);
    q = fmaf(q, s, -1.630568319e-02f);
    q = fmaf(q, s, -1.359353209e+00f);
    q = fmaf(q, s, -7.586229883e+00f);
    q = fmaf(q, s, -1.088014179e+01f);
    const float erfc_a = exp2f(q), small = fmaf(z, p, 1.0f), large = z > 0.0f ? 2.0f - erfc_a : erfc_a;
    float one_plus_erf;  // selp, as asm, so that the compiler computes both pieces rather than branch to one
    asm("{\n\t.reg .pred p;\n\tsetp.lt.f32 p, %3, 0f3F666666;\n\tselp.f32 %0, %1, %2, p;\n\t}"  // a < 0.9
        : "=f"(one_plus_erf) : "f"(small), "f"(a < 4.0f ? large : z > 0.0f ? 2.0f : 0.0f), "f"(a));
    return 0.5f * x * one_plus_erf;
}
__device__ __forceinline__ double gelu(double x) { return 0.5 * x * (1.0 + erf(x * 0.70710678118654752)); }
{{/gelu}}
{{#gelu_tanh}}
// GELU, the tanh approximation: 0.5 x (1 + tanh(y)), y = sqrt(2 / pi) (x + 0.044715 x^3); the form cuBLASLt's
// GELU epilogues and torch's gelu(approximate="tanh") compute.  In float as x / (1 + e^-2y), since
// 1 + tanh(y) = 2 / (1 + e^-2y): one ex2.approx (__expf) and one rcp.approx, no branch, and no cancellation
// where tanh(y) nears -1 (e^-2y overflows to inf for very negative x, and x times its reciprocal 0 is 0).
__device__ __forceinline__ float gelu_tanh(float x)
{
    const float minus_2y = -x * fmaf(0.07135481627260025f * x, x, 1.5957691216057308f);
    return x * __fdividef(1.0f, 1.0f + __expf(minus_2y));
}
__device__ __forceinline__ double gelu_tanh(double x)
{
    return 0.5 * x * (1.0 + tanh(0.79788456080286536 * (x + 0.044715 * x * x * x)));
}
{{/gelu_tanh}}
{{#sigmoid}}
// The logistic function, 1 / (1 + e^-x); in float with ex2.approx and rcp.approx (no branch), 0 where e^-x
// overflows.
__device__ __forceinline__ float sigmoid(float x) { return __fdividef(1.0f, 1.0f + __expf(-x)); }
__device__ __forceinline__ double sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }
{{/sigmoid}}
{{#silu}}
// SiLU (swish): x * sigmoid(x), as x / (1 + e^-x); in float as sigmoid's.
__device__ __forceinline__ float silu(float x) { return x * __fdividef(1.0f, 1.0f + __expf(-x)); }
__device__ __forceinline__ double silu(double x) { return x / (1.0 + exp(-x)); }
{{/silu}}
