//! split_k above 1: the second kernel, one thread per element of C.

// Step 2: C = epilogue(alpha * (the SPLIT_K partial sums, added in order) + beta * C).
extern "C" __global__ void __launch_bounds__(256) {{name}}(const Acc *__restrict__ partials, Out *__restrict__ c, int m,
                                                           int n, long long ldc, const Epilogue ep)
{
    const long long total = (long long)m * n;
    for (long long e = blockIdx.x * 256ll + threadIdx.x; e < total; e += gridDim.x * 256ll) {
        Acc sum = partials[e];
#pragma unroll
        for (int s = 1; s < SPLIT_K; s++)
            sum += partials[s * total + e];
        store_c(c, ldc, (int)(e / n), (int)(e % n), sum, ep);
    }
}
