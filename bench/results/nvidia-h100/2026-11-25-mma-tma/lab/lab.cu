// Lab harness: hand-edited variants of the generated mma.sync bf16 kernel at M x N x K,
// each verified against cuBLAS's C (every element) and timed between events
// (median of RUNS), alternating with cuBLAS (cublasGemmEx, f32 compute).
#include <cuda.h>
#include <cuda_runtime.h>
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <stdio.h>
#include <stdlib.h>
#include <algorithm>
#include <vector>

namespace v0 {
#include "v0.cu"
}
namespace v1 {
#include "v1.cu"
}
namespace v2 {
#include "v2.cu"
}
namespace v3 {
#include "v3.cu"
}
namespace v4 {
#include "v4.cu"
}
namespace v5 {
#include "v5.cu"
}
namespace v6 {
#include "v6.cu"
}

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

__global__ void fill(unsigned short *p, long long n, unsigned int seed)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
        unsigned int h = (unsigned int)i * 2654435761u ^ seed;
        h ^= h >> 13; h *= 0x5bd1e995u; h ^= h >> 15;
        float f = (h & 0xffff) / 32768.0f - 1.0f;
        __nv_bfloat16 b = __float2bfloat16(f);
        p[i] = *reinterpret_cast<unsigned short *>(&b);
    }
}

__global__ void compare(const unsigned short *x, const unsigned short *ref, long long n, unsigned long long *bad)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
        float a = __uint_as_float((unsigned int)x[i] << 16), r = __uint_as_float((unsigned int)ref[i] << 16);
        if (!(fabsf(a - r) <= 0.02f * fabsf(r) + 0.25f))
            atomicAdd(bad, 1ull);
    }
}

typedef void (*launch_fn)(const unsigned short *, const unsigned short *, unsigned short *, int, int, int, cudaStream_t);
static CUtensorMap amap, bmap;

static void make_maps(const void *a, const void *b, int m, int n, int k)
{
    cuuint64_t adim[2] = {(cuuint64_t)k, (cuuint64_t)m}, astr[1] = {(cuuint64_t)k * 2};
    cuuint32_t abox[2] = {64, 128}, es[2] = {1, 1};
    cuuint64_t bdim[2] = {(cuuint64_t)n, (cuuint64_t)k}, bstr[1] = {(cuuint64_t)n * 2};
    cuuint32_t bbox[2] = {64, 64};
    CUresult r1 = cuTensorMapEncodeTiled(&amap, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, (void *)a, adim, astr, abox, es,
                                         CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                                         CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    CUresult r2 = cuTensorMapEncodeTiled(&bmap, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, (void *)b, bdim, bstr, bbox, es,
                                         CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                                         CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r1 || r2) { printf("tensor map %d %d\n", r1, r2); exit(1); }
}

template <typename K>
static void set_smem(K kernel, int bytes)
{
    CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
}

#define PLAIN(NS, BLOCKS_SMEM) \
static void run_##NS(const unsigned short *a, const unsigned short *b, unsigned short *c, int m, int n, int k, cudaStream_t s) \
{ \
    const int smem = BLOCKS_SMEM; \
    static bool once = (set_smem(NS::matmul_##NS, smem), true); (void)once; \
    dim3 grid(((m + NS::TILE_M - 1) / NS::TILE_M) * ((n + NS::TILE_N - 1) / NS::TILE_N)); \
    NS::matmul_##NS<<<grid, NS::THREADS, smem, s>>>(a, b, c, m, n, k, k, n, n, 1.0f, 0.0f, 3, nullptr); \
}
#define TMA(NS) \
static void run_##NS(const unsigned short *a, const unsigned short *b, unsigned short *c, int m, int n, int k, cudaStream_t s) \
{ \
    const int smem = 98304 + 1024 + 128; \
    static bool once = (set_smem(NS::matmul_##NS, smem), true); (void)once; \
    dim3 grid(((m + 127) / 128) * ((n + 127) / 128)); \
    NS::matmul_##NS<<<grid, 128, smem, s>>>(a, b, c, m, n, k, k, n, n, 1.0f, 0.0f, 3, nullptr, amap, bmap); \
}
PLAIN(v0, 98304)
PLAIN(v1, 98304)
TMA(v2)
TMA(v3)
PLAIN(v4, 98304 + 64)
PLAIN(v5, 65536 + 64)
PLAIN(v6, 98304 + 64)

struct Variant { const char *name; launch_fn fn; };

int main(int argc, char **argv)
{
    int m = argc > 1 ? atoi(argv[1]) : 8192, n = argc > 2 ? atoi(argv[2]) : 8192, k = argc > 3 ? atoi(argv[3]) : 8192;
    const int RUNS = 10, ROUNDS = argc > 4 ? atoi(argv[4]) : 2;
    unsigned short *a, *b, *c, *ref;
    unsigned long long *bad;
    CK(cudaMalloc(&a, (size_t)m * k * 2)); CK(cudaMalloc(&b, (size_t)k * n * 2));
    CK(cudaMalloc(&c, (size_t)m * n * 2)); CK(cudaMalloc(&ref, (size_t)m * n * 2));
    CK(cudaMalloc(&bad, 8));
    fill<<<1024, 256>>>(a, (long long)m * k, 1u); fill<<<1024, 256>>>(b, (long long)k * n, 2u);
    make_maps(a, b, m, n, k);
    cublasHandle_t h; cublasCreate(&h);
    const float one = 1.0f, zero = 0.0f;
    auto cublas = [&](unsigned short *out) {
        cublasStatus_t st = cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b, CUDA_R_16BF, n, a, CUDA_R_16BF, k,
                                         &zero, out, CUDA_R_16BF, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
        if (st) { printf("cublas %d\n", st); exit(1); }
    };
    cublas(ref);
    CK(cudaDeviceSynchronize());
    Variant vs[] = {{"v0 generated", run_v0}, {"v1 launch_bounds 2", run_v1}, {"v2 tma+syncthreads", run_v2}, {"v3 tma+empty mbarriers", run_v3},
                   {"v4 cp.async+mbarriers", run_v4}, {"v5 v4 k32 s4", run_v5}, {"v6 v4 128x256 k32 s4", run_v6}};
    const int NV = sizeof vs / sizeof vs[0];
    cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
    auto time = [&](auto &&call) {
        std::vector<float> t;
        for (int r = 0; r < RUNS + 2; r++) {
            cudaEventRecord(e0); call(); cudaEventRecord(e1); cudaEventSynchronize(e1);
            float ms; cudaEventElapsedTime(&ms, e0, e1);
            if (r >= 2) t.push_back(ms);
        }
        std::sort(t.begin(), t.end());
        return (t[RUNS / 2 - 1] + t[RUNS / 2]) / 2;
    };
    for (int v = 0; v < NV; v++) {
        CK(cudaMemset(c, 0xff, (size_t)m * n * 2)); CK(cudaMemset(bad, 0, 8));
        vs[v].fn(a, b, c, m, n, k, 0);
        CK(cudaGetLastError());
        compare<<<1024, 256>>>(c, ref, (long long)m * n, bad);
        unsigned long long nb; CK(cudaMemcpy(&nb, bad, 8, cudaMemcpyDeviceToHost));
        printf("verify %-26s %llu of %lld elements wrong\n", vs[v].name, nb, (long long)m * n);
    }
    const double flop = 2.0 * m * n * k;
    for (int round = 0; round < ROUNDS; round++) {
        float tc = time([&] { cublas(c); });
        printf("round %d  %dx%dx%d  cublas %.1f us %.1f TFLOPS\n", round, m, n, k, tc * 1e3, flop / tc / 1e9);
        for (int v = 0; v < NV; v++) {
            float tv = time([&] { vs[v].fn(a, b, c, m, n, k, 0); });
            float tc2 = time([&] { cublas(c); });
            printf("  %-26s %.1f us %.1f TFLOPS  kgen/cuBLAS %.3f (cublas beside it %.1f us)\n", vs[v].name, tv * 1e3,
                   flop / tv / 1e9, tc2 / tv, tc2 * 1e3);
        }
    }
    CK(cudaDeviceSynchronize());
    return 0;
}
