//! The whole generated file for the toy family `kernel: scale`
//! (tests/toy/scale.c fills it in).
{{header}}

typedef {{ctype}} T;

extern "C" __global__ void __launch_bounds__({{threads}})
{{name}}(const T* __restrict__ in, T* __restrict__ out, unsigned long long n)
{
    unsigned long long i = ((unsigned long long)blockIdx.x * {{threads}} + threadIdx.x) * {{stages}};
    #pragma unroll
    for (int s = 0; s < {{stages}}; s++)
        if (i + s < n)
            out[i + s] = in[i + s] * (T)({{factor}});
}
