// Which side of the 64x64-tile transpose slows down at 32768^2: its reads
// (64 rows of 256 bytes a tile, tiles down a column of tiles) or its writes
// (the same, transposed)?  read_wide128 and read_wide256 read tiles of 64
// rows of 512 and 1024 bytes the same way.  Kernels over an N x N f32 matrix, 512 threads a
// 64 x 64 tile, blocks taking tiles down columns of tiles (best.yaml's
// order: cols), each timed between events alternating with a
// device-to-device copy of the same bytes (median of RUNS):
//   transpose   reads tile (tr, tc) by rows, writes it transposed (smem)
//   read_tiles  reads as transpose does, writes 16 KB contiguous a block
//   write_tiles reads 16 KB contiguous a block, writes as transpose does
//   tile_copy   reads and writes tile (tr, tc) by rows (no transpose)
//   linear      reads and writes 16 KB contiguous a block (a copy kernel)
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <algorithm>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

__device__ __forceinline__ void tile_of(int n, int &tr, int &tc)
{
    const int tiles = n / 64;
    tr = blockIdx.x % tiles;
    tc = blockIdx.x / tiles;
}

__global__ void __launch_bounds__(512) transpose(const float *__restrict__ in, float *__restrict__ out, int n)
{
    __shared__ float t[64][65];
    int tr, tc;
    tile_of(n, tr, tc);
    for (int v = threadIdx.x; v < 1024; v += 512) {
        const int r = v / 16, q = v % 16;
        const float4 x = __ldg(reinterpret_cast<const float4 *>(in + (size_t)(tr * 64 + r) * n + tc * 64) + q);
        t[r][4 * q] = x.x; t[r][4 * q + 1] = x.y; t[r][4 * q + 2] = x.z; t[r][4 * q + 3] = x.w;
    }
    __syncthreads();
    for (int v = threadIdx.x; v < 1024; v += 512) {
        const int c = v / 16, q = v % 16;
        const float4 y = make_float4(t[4 * q][c], t[4 * q + 1][c], t[4 * q + 2][c], t[4 * q + 3][c]);
        __stcg(reinterpret_cast<float4 *>(out + (size_t)(tc * 64 + c) * n + tr * 64) + q, y);
    }
}

__global__ void __launch_bounds__(512) read_tiles(const float *__restrict__ in, float *__restrict__ out, int n)
{
    int tr, tc;
    tile_of(n, tr, tc);
    for (int v = threadIdx.x; v < 1024; v += 512) {
        const int r = v / 16, q = v % 16;
        const float4 x = __ldg(reinterpret_cast<const float4 *>(in + (size_t)(tr * 64 + r) * n + tc * 64) + q);
        __stcg(reinterpret_cast<float4 *>(out + (size_t)blockIdx.x * 4096) + v, x);
    }
}

// read_tiles with tiles of 64 rows of W floats (W * 4 bytes a row), writing 64 W floats contiguous a block.
template <int W>
__global__ void __launch_bounds__(512) read_wide(const float *__restrict__ in, float *__restrict__ out, int n)
{
    const int tiles = n / 64, tr = blockIdx.x % tiles, tc = blockIdx.x / tiles;
    for (int v = threadIdx.x; v < 16 * W; v += 512) {
        const int r = v / (W / 4), q = v % (W / 4);
        const float4 x = __ldg(reinterpret_cast<const float4 *>(in + (size_t)(tr * 64 + r) * n + tc * W) + q);
        __stcg(reinterpret_cast<float4 *>(out + (size_t)blockIdx.x * 64 * W) + v, x);
    }
}

__global__ void __launch_bounds__(512) write_tiles(const float *__restrict__ in, float *__restrict__ out, int n)
{
    int tr, tc;
    tile_of(n, tr, tc);
    for (int v = threadIdx.x; v < 1024; v += 512) {
        const int c = v / 16, q = v % 16;
        const float4 x = __ldg(reinterpret_cast<const float4 *>(in + (size_t)blockIdx.x * 4096) + v);
        __stcg(reinterpret_cast<float4 *>(out + (size_t)(tc * 64 + c) * n + tr * 64) + q, x);
    }
}

__global__ void __launch_bounds__(512) tile_copy(const float *__restrict__ in, float *__restrict__ out, int n)
{
    int tr, tc;
    tile_of(n, tr, tc);
    for (int v = threadIdx.x; v < 1024; v += 512) {
        const int r = v / 16, q = v % 16;
        const size_t at = (size_t)(tr * 64 + r) * n + tc * 64;
        __stcg(reinterpret_cast<float4 *>(out + at) + q, __ldg(reinterpret_cast<const float4 *>(in + at) + q));
    }
}

__global__ void __launch_bounds__(512) linear(const float *__restrict__ in, float *__restrict__ out, int n)
{
    for (int v = threadIdx.x; v < 1024; v += 512)
        __stcg(reinterpret_cast<float4 *>(out + (size_t)blockIdx.x * 4096) + v,
               __ldg(reinterpret_cast<const float4 *>(in + (size_t)blockIdx.x * 4096) + v));
}

__global__ void sleep_kernel(long long cycles)
{
    const long long t0 = clock64();
    while (clock64() - t0 < cycles)
        ;
}

int main(int argc, char **argv)
{
    const int RUNS = 10;
    int sizes[] = {8192, 16384, 32768};
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    typedef void (*K)(const float *, float *, int);
    struct { const char *name; K k; int w; } ks[] = {{"transpose", transpose, 64}, {"read_tiles", read_tiles, 64},
                                                     {"read_wide128", read_wide<128>, 128}, {"read_wide256", read_wide<256>, 256},
                                                     {"write_tiles", write_tiles, 64}, {"tile_copy", tile_copy, 64},
                                                     {"linear", linear, 64}};
    for (int n : sizes) {
        const size_t bytes = (size_t)n * n * 4;
        float *in, *out, *cp;
        CK(cudaMalloc(&in, bytes)); CK(cudaMalloc(&out, bytes)); CK(cudaMalloc(&cp, bytes));
        CK(cudaMemset(in, 0, bytes));
        const unsigned blocks = (unsigned)((size_t)n / 64 * (n / 64));
        // transpose checked against a host transpose of a few rows
        {
            std::vector<float> h((size_t)n * 64);
            for (size_t i = 0; i < h.size(); i++) h[i] = (float)(i % 1000003);
            CK(cudaMemcpy(in, h.data(), h.size() * 4, cudaMemcpyHostToDevice));  // rows 0-63
            transpose<<<blocks, 512>>>(in, out, n);
            CK(cudaDeviceSynchronize());
            std::vector<float> col(64);
            int bad = 0;
            for (int j = 0; j < n; j += n / 16) {
                CK(cudaMemcpy(col.data(), out + (size_t)j * n, 64 * 4, cudaMemcpyDeviceToHost));
                for (int i = 0; i < 64; i++) bad += col[i] != h[(size_t)i * n + j];
            }
            printf("# %dx%d: transpose check %s\n", n, n, bad ? "FAIL" : "ok");
        }
        auto timed = [&](auto &&f) {
            sleep_kernel<<<1, 1>>>(200000);
            CK(cudaEventRecord(e0)); f(); CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1));
            float ms; CK(cudaEventElapsedTime(&ms, e0, e1)); return ms;
        };
        auto copy = [&] { CK(cudaMemcpyAsync(cp, in, bytes, cudaMemcpyDeviceToDevice)); };
        for (auto &k : ks) {
            const unsigned kb = (unsigned)((size_t)n / 64 * (n / k.w));
            auto call = [&] { k.k<<<kb, 512>>>(in, out, n); };
            for (int w = 0; w < 3; w++) { copy(); call(); }
            std::vector<float> c, t;
            for (int r = 0; r < RUNS; r++) { c.push_back(timed(copy)); t.push_back(timed(call)); }
            std::sort(c.begin(), c.end()); std::sort(t.begin(), t.end());
            printf("%-12s %5dx%-5d copy %.4f ms  kernel %.4f ms  copy/kernel %.3f  (%.1f GB/s)\n", k.name, n, n,
                   c[RUNS / 2], t[RUNS / 2], c[RUNS / 2] / t[RUNS / 2], 2.0 * bytes / (t[RUNS / 2] * 1e-3) / 1e9);
        }
        CK(cudaFree(in)); CK(cudaFree(out)); CK(cudaFree(cp));
    }
    return 0;
}
