// cub_user: cub::DeviceReduce::Sum called as a user's own program calls it,
// with an int count, to check kgen-cub's peer against (bench/cub/cub-peer.sh).
//
//   cub_user DTYPE N RUNS [L2_BYTES]      DTYPE: i32 or f32; N < 2^31
//
// Prints "user dtype=f32 n=... median_ms=... result=...".  Nothing is shared
// with kgen-cub: its own fill (ones), its own timing loop.  Temporary storage
// is allocated before timing; inputs smaller than 2 x L2 (default 64 MiB) are
// rotated among copies so every timed call reads device memory, as kgen does.
#include <cub/device/device_reduce.cuh>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CHECK(call)                                                                              \
    do {                                                                                         \
        cudaError_t e_ = (call);                                                                 \
        if (e_ != cudaSuccess) {                                                                 \
            std::fprintf(stderr, "cub_user: %s: %s\n", #call, cudaGetErrorString(e_));           \
            std::exit(5);                                                                        \
        }                                                                                        \
    } while (0)

template <typename T> __global__ void ones(T *p, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        p[i] = (T)1;
}

template <typename T> static int time_sum(const char *dtype, int n, int runs, size_t l2)
{
    size_t bytes = (size_t)n * sizeof(T);
    int copies = bytes >= 2 * l2 ? 1 : (int)std::min<size_t>(64, (2 * l2 + bytes - 1) / bytes);
    std::vector<T *> in(copies);
    T *out;
    for (auto &p : in) {
        CHECK(cudaMalloc(&p, bytes));
        ones<<<1024, 256>>>(p, n);
    }
    CHECK(cudaMalloc(&out, sizeof(T)));
    size_t temp_bytes = 0;
    void *temp = nullptr;
    CHECK(cub::DeviceReduce::Sum(temp, temp_bytes, in[0], out, n));
    CHECK(cudaMalloc(&temp, temp_bytes));
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    std::vector<float> ms(runs);
    for (int r = -3; r < runs; r++) {
        CHECK(cudaEventRecord(start));
        CHECK(cub::DeviceReduce::Sum(temp, temp_bytes, in[(r + 3) % copies], out, n));
        CHECK(cudaEventRecord(stop));
        CHECK(cudaEventSynchronize(stop));
        if (r >= 0)
            CHECK(cudaEventElapsedTime(&ms[r], start, stop));
    }
    std::sort(ms.begin(), ms.end());
    T result;
    CHECK(cudaMemcpy(&result, out, sizeof(T), cudaMemcpyDeviceToHost));
    std::printf("user dtype=%s n=%d median_ms=%.6f result=%.17g\n", dtype, n, ms[runs / 2], (double)result);
    return (double)result == (double)n ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        std::fprintf(stderr, "usage: cub_user i32|f32 N RUNS [L2_BYTES]\n");
        return 2;
    }
    long long n = std::atoll(argv[2]);
    int runs = std::max(1, std::atoi(argv[3]));
    size_t l2 = argc > 4 ? std::strtoull(argv[4], nullptr, 10) : 64u << 20;
    if (n < 1 || n >= (1ll << 31)) {
        std::fprintf(stderr, "cub_user: N is 1 to 2^31-1, not %s\n", argv[2]);
        return 2;
    }
    if (!std::strcmp(argv[1], "i32"))
        return time_sum<int>("i32", (int)n, runs, l2);
    if (!std::strcmp(argv[1], "f32"))
        return time_sum<float>("f32", (int)n, runs, l2);
    std::fprintf(stderr, "cub_user: DTYPE is i32 or f32, not %s\n", argv[1]);
    return 2;
}
