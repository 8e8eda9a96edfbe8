// kgen-cub: time cub::DeviceReduce for one op, dtype and n, as the peer that
// `kgen run --bench` compares with.  Built with nvcc when configure finds it.
//
//   kgen-cub OP DTYPE N RUNS [L2_BYTES]
//
// Prints one line: "cub op=sum dtype=f32 n=... median_ms=... result=...".
// Temporary storage is allocated once, outside the timed region; inputs
// smaller than twice the L2 are rotated among copies so that every timed
// run reads from device memory.
#include <cub/device/device_reduce.cuh>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <algorithm>
#include <limits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <type_traits>
#include <vector>

#define CHECK(call)                                                                              \
    do {                                                                                         \
        cudaError_t e_ = (call);                                                                 \
        if (e_ != cudaSuccess) {                                                                 \
            std::fprintf(stderr, "kgen-cub: %s: %s\n", #call, cudaGetErrorString(e_));           \
            std::exit(5);                                                                        \
        }                                                                                        \
    } while (0)

// Inputs as kgen run draws them for sums: small multiples of 1/16 (or small integers).
template <typename T> __global__ void fill(T *p, unsigned long long n, unsigned long long seed)
{
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n;
         i += (unsigned long long)gridDim.x * blockDim.x) {
        unsigned long long z = (i + seed) * 0x9e3779b97f4a7c15ull;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z ^= z >> 31;
        int k = (int)(z % 129) - 64;
        if constexpr (std::is_integral_v<T>)
            p[i] = (T)k;
        else
            p[i] = (T)(k / 16.0f);
    }
}

template <typename T, typename Acc> struct ToAcc {
    __device__ Acc operator()(T x) const { return (Acc)x; }
};
struct Sum {
    template <typename T> __device__ T operator()(T a, T b) const { return a + b; }
};
struct Prod {
    template <typename T> __device__ T operator()(T a, T b) const { return a * b; }
};
struct Min {
    template <typename T> __device__ T operator()(T a, T b) const { return b < a ? b : a; }
};
struct Max {
    template <typename T> __device__ T operator()(T a, T b) const { return a < b ? b : a; }
};

template <typename T, typename Acc, typename Op>
static void run(const char *op_name, const char *dtype, unsigned long long n, int runs, size_t l2, Op op, Acc init)
{
    size_t bytes = n * sizeof(T);
    int copies = bytes >= 2 * l2 || bytes == 0 ? 1 : (int)std::min<size_t>(64, (2 * l2 + bytes - 1) / bytes);
    std::vector<T *> in(copies);
    Acc *out;
    CHECK(cudaMalloc(&out, sizeof(Acc)));
    for (int c = 0; c < copies; c++) {
        CHECK(cudaMalloc(&in[c], bytes ? bytes : 16));
        fill<<<1024, 256>>>(in[c], n, 12345);
    }
    CHECK(cudaGetLastError());
    // Sum of one type is cub::DeviceReduce::Sum; the rest go through
    // TransformReduce, which converts each element to the accumulator type.
    auto reduce = [&](void *t, size_t &tb, const T *src) {
        if constexpr (std::is_same_v<T, Acc> && std::is_same_v<Op, Sum>)
            return cub::DeviceReduce::Sum(t, tb, src, out, (int64_t)n);
        else
            return cub::DeviceReduce::TransformReduce(t, tb, src, out, (int64_t)n, op, ToAcc<T, Acc>(), init);
    };
    void *temp = nullptr;
    size_t temp_bytes = 0;
    CHECK(reduce(temp, temp_bytes, in[0]));
    CHECK(cudaMalloc(&temp, temp_bytes ? temp_bytes : 16));
    cudaEvent_t a, b;
    CHECK(cudaEventCreate(&a));
    CHECK(cudaEventCreate(&b));
    for (int w = 0; w < 3; w++)
        CHECK(reduce(temp, temp_bytes, in[w % copies]));
    std::vector<float> ms(runs);
    for (int r = 0; r < runs; r++) {
        CHECK(cudaEventRecord(a));
        CHECK(reduce(temp, temp_bytes, in[r % copies]));
        CHECK(cudaEventRecord(b));
        CHECK(cudaEventSynchronize(b));
        CHECK(cudaEventElapsedTime(&ms[r], a, b));
    }
    CHECK(cudaGetLastError());
    std::sort(ms.begin(), ms.end());
    Acc result;
    CHECK(cudaMemcpy(&result, out, sizeof(Acc), cudaMemcpyDeviceToHost));
    std::printf("cub op=%s dtype=%s n=%llu median_ms=%.6f result=%.17g\n", op_name, dtype, n, ms[runs / 2],
                (double)result);
    for (int c = 0; c < copies; c++)
        CHECK(cudaFree(in[c]));
    CHECK(cudaFree(out));
    CHECK(cudaFree(temp));
}

template <typename T, typename Acc>
static int dispatch_op(const char *op, const char *dtype, unsigned long long n, int runs, size_t l2)
{
    if (!std::strcmp(op, "sum"))
        run<T, Acc>(op, dtype, n, runs, l2, Sum(), (Acc)0);
    else if (!std::strcmp(op, "prod"))
        run<T, Acc>(op, dtype, n, runs, l2, Prod(), (Acc)1);
    else if (!std::strcmp(op, "min"))
        run<T, Acc>(op, dtype, n, runs, l2, Min(), std::numeric_limits<Acc>::max());
    else if (!std::strcmp(op, "max"))
        run<T, Acc>(op, dtype, n, runs, l2, Max(), std::numeric_limits<Acc>::lowest());
    else
        return 2;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        std::fprintf(stderr, "usage: kgen-cub OP DTYPE N RUNS [L2_BYTES]\n");
        return 2;
    }
    const char *op = argv[1], *dt = argv[2];
    unsigned long long n = std::strtoull(argv[3], nullptr, 10);
    int runs = std::atoi(argv[4]);
    size_t l2 = argc > 5 ? std::strtoull(argv[5], nullptr, 10) : 64u << 20;
    int rc = 2;
    if (runs < 1)
        runs = 1;
    if (!std::strcmp(dt, "i32")) rc = dispatch_op<int, int>(op, dt, n, runs, l2);
    else if (!std::strcmp(dt, "u32")) rc = dispatch_op<unsigned, unsigned>(op, dt, n, runs, l2);
    else if (!std::strcmp(dt, "i64")) rc = dispatch_op<long long, long long>(op, dt, n, runs, l2);
    else if (!std::strcmp(dt, "f32")) rc = dispatch_op<float, float>(op, dt, n, runs, l2);
    else if (!std::strcmp(dt, "f64")) rc = dispatch_op<double, double>(op, dt, n, runs, l2);
    else if (!std::strcmp(dt, "f16")) rc = dispatch_op<__half, float>(op, dt, n, runs, l2);
    else if (!std::strcmp(dt, "bf16")) rc = dispatch_op<__nv_bfloat16, float>(op, dt, n, runs, l2);
    if (rc)
        std::fprintf(stderr, "kgen-cub: unknown op %s or dtype %s\n", op, dt);
    return rc;
}
