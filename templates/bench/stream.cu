//! The read-bandwidth ceiling that `kgen run --bench` reports against.
// kgen's read-bandwidth probe: each thread streams 16-byte loads, grid-stride,
// four in flight, and folds them into one word that is stored only when it
// equals an impossible key, so no load can be optimised away.
extern "C" __global__ void __launch_bounds__(512)
kgen_stream_read(const uint4 *__restrict__ in, unsigned long long n16, unsigned int *sink)
{
    unsigned int x = 0;
    const unsigned long long stride = (unsigned long long)gridDim.x * 512;

    #pragma unroll 4
    for (unsigned long long i = (unsigned long long)blockIdx.x * 512 + threadIdx.x; i < n16; i += stride) {
        const uint4 v = in[i];
        x ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    if (x == 0x9e3779b9u)
        *sink = x;
}
