//! The read-bandwidth ceiling that `kgen run --bench` reports against.
// kgen's read-bandwidth probe: each thread streams 16-byte loads, grid-stride,
// eight independent loads in flight, and folds them into one word that is
// stored only when it equals an impossible key, so no load can be removed.
extern "C" __global__ void __launch_bounds__(512)
kgen_stream_read(const uint4 *__restrict__ in, unsigned long long n16, unsigned int *sink)
{
    const unsigned long long stride = (unsigned long long)gridDim.x * 512;
    unsigned long long i = (unsigned long long)blockIdx.x * 512 + threadIdx.x;
    unsigned int x = 0;

    for (; i + 7 * stride < n16; i += 8 * stride) {
        uint4 v[8];
        #pragma unroll
        for (int j = 0; j < 8; j++)
            v[j] = in[i + j * stride];
        #pragma unroll
        for (int j = 0; j < 8; j++)
            x ^= v[j].x ^ v[j].y ^ v[j].z ^ v[j].w;
    }
    for (; i < n16; i += stride) {
        const uint4 v = in[i];
        x ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    if (x == 0x9e3779b9u)
        *sink = x;
}
