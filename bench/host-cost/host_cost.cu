// host_cost: what one reduce call costs the host, kgen against CUB and
// against the launch floor (issue 9, item 4).
//
//   host_cost PLAN_YAML N CALLS REPS
//
// PLAN_YAML is a size plan of an f32 sum (specs/plans/nvidia-h200/sum-f32.yaml).  For
// each way below, on the default stream and on a stream of its own, REPS
// times: CALLS calls back to back, then one synchronize.  The ways take turns
// within each rep, so that a clock change touches all alike.  Printed per
// way, the medians over REPS, in microseconds per call:
//   issue_us     the host's time to issue the calls (before the synchronize):
//                the host cost of one call while the GPU keeps up
//   per_call_us  the same calls to the end of the synchronize
//
// The ways:
//   runtime_launch  empty<<<1, 128>>>(): the CUDA runtime's launch, the floor
//   driver_launch   cuLaunchKernel of the same empty kernel: the driver's floor
//   driver_set_ctx  cuCtxGetCurrent, cuCtxSetCurrent, then cuLaunchKernel
//   kgen_reduce     kgen_reduce() of the plan at N (the plan's kernel for N)
//   cub_sum         cub::DeviceReduce::Sum at N, its temporary storage
//                   allocated once beforehand, as a caller keeps it
// Every kgen and CUB result is checked against the host's sum.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda.h>
#include <cuda_runtime.h>
#include <cub/device/device_reduce.cuh>
#include "kgen.h"

#define CHECK(x)                                                                                                   \
    do {                                                                                                           \
        cudaError_t e_ = (x);                                                                                      \
        if (e_ != cudaSuccess) {                                                                                   \
            std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_));               \
            std::exit(1);                                                                                          \
        }                                                                                                          \
    } while (0)

__global__ void empty(int *p)
{
    if (p && threadIdx.x == 1000)
        *p = 0;
}

static double now_us()
{
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

enum Way { RUNTIME_LAUNCH, DRIVER_LAUNCH, DRIVER_SET_CTX, KGEN_REDUCE, CUB_SUM, WAYS };
static const char *const way_names[WAYS] = { "runtime_launch", "driver_launch", "driver_set_ctx", "kgen_reduce",
                                              "cub_sum" };

struct Setup {
    kgen_kernel *k;
    CUfunction fn;
    CUcontext cuctx;
    float *in, *out;
    unsigned long long n;
    void *temp;
    size_t temp_bytes;
};

static void issue(const Setup &s, Way w, cudaStream_t stream)
{
    int *nothing = nullptr;
    void *args[] = { &nothing };
    kgen_error err;

    switch (w) {
    case RUNTIME_LAUNCH:
        empty<<<1, 128, 0, stream>>>(nullptr);
        break;
    case DRIVER_LAUNCH:
        cuLaunchKernel(s.fn, 1, 1, 1, 128, 1, 1, 0, (CUstream)stream, args, nullptr);
        break;
    case DRIVER_SET_CTX: {
        CUcontext c;
        cuCtxGetCurrent(&c);
        cuCtxSetCurrent(s.cuctx);
        cuLaunchKernel(s.fn, 1, 1, 1, 128, 1, 1, 0, (CUstream)stream, args, nullptr);
        break;
    }
    case KGEN_REDUCE:
        if (kgen_reduce(s.k, (kgen_devptr)s.in, s.n, (kgen_devptr)s.out, 0, 0, (kgen_stream)stream, &err)) {
            kgen_error_print(&err, stderr);
            std::exit(1);
        }
        break;
    case CUB_SUM: {
        size_t tb = s.temp_bytes;
        CHECK(cub::DeviceReduce::Sum(s.temp, tb, s.in, s.out, (int)s.n, stream));
        break;
    }
    default:
        break;
    }
}

static void check_sum(const Setup &s, double want, const char *who)
{
    float got;
    CHECK(cudaMemcpy(&got, s.out, sizeof got, cudaMemcpyDeviceToHost));
    if (std::fabs(got - want) > 1e-3 * (std::fabs(want) + s.n)) {
        std::fprintf(stderr, "%s: sum %g, want %g\n", who, (double)got, want);
        std::exit(1);
    }
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        std::fprintf(stderr, "usage: host_cost PLAN_YAML N CALLS REPS\n");
        return 2;
    }
    Setup s = {};
    s.n = std::strtoull(argv[2], nullptr, 10);
    int calls = std::atoi(argv[3]), reps = std::atoi(argv[4]);
    if (s.n < 1 || s.n > (1ull << 30) || calls < 1 || reps < 1) {
        std::fprintf(stderr, "host_cost: N from 1 to 2^30, CALLS and REPS positive\n");
        return 2;
    }
    kgen_context *ctx;
    kgen_plan *plan;
    kgen_error err;
    CHECK(cudaSetDevice(0));
    CHECK(cudaFree(nullptr)); // the runtime's primary context, current from here on
    if (kgen_context_create(0, &ctx, &err) || kgen_plan_load_file(argv[1], &plan, &err) ||
        kgen_kernel_build_plan(ctx, plan, &s.k, &err)) {
        kgen_error_print(&err, stderr);
        return 1;
    }
    CHECK(cudaGetFuncBySymbol((cudaFunction_t *)&s.fn, (const void *)empty));
    cuCtxGetCurrent(&s.cuctx);

    std::vector<float> host(s.n);
    double want = 0;
    srand(7);
    for (unsigned long long i = 0; i < s.n; i++) {
        host[i] = (float)(rand() % 17) - 8.0f;
        want += host[i];
    }
    CHECK(cudaMalloc(&s.in, s.n * sizeof(float)));
    CHECK(cudaMalloc(&s.out, sizeof(float)));
    CHECK(cudaMemcpy(s.in, host.data(), s.n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cub::DeviceReduce::Sum(nullptr, s.temp_bytes, s.in, s.out, (int)s.n));
    CHECK(cudaMalloc(&s.temp, s.temp_bytes));

    cudaStream_t own;
    CHECK(cudaStreamCreateWithFlags(&own, cudaStreamNonBlocking));
    cudaStream_t streams[2] = { nullptr, own };
    const char *stream_names[2] = { "default", "own" };

    for (int st = 0; st < 2; st++) {
        std::vector<double> issue_us[WAYS], total_us[WAYS];
        for (int w = 0; w < WAYS; w++) { // warm up, and check each result once
            CHECK(cudaMemset(s.out, 0xff, sizeof(float)));
            for (int i = 0; i < 100; i++)
                issue(s, (Way)w, streams[st]);
            CHECK(cudaDeviceSynchronize());
            if (w == KGEN_REDUCE || w == CUB_SUM)
                check_sum(s, want, way_names[w]);
        }
        for (int r = 0; r < reps; r++)
            for (int w = 0; w < WAYS; w++) {
                double t0 = now_us();
                for (int i = 0; i < calls; i++)
                    issue(s, (Way)w, streams[st]);
                double t1 = now_us();
                CHECK(cudaStreamSynchronize(streams[st]));
                double t2 = now_us();
                issue_us[w].push_back((t1 - t0) / calls);
                total_us[w].push_back((t2 - t0) / calls);
            }
        CHECK(cudaGetLastError());
        for (int w = 0; w < WAYS; w++) {
            std::sort(issue_us[w].begin(), issue_us[w].end());
            std::sort(total_us[w].begin(), total_us[w].end());
            std::printf("way=%s stream=%s n=%llu calls=%d reps=%d issue_us=%.3f per_call_us=%.3f\n", way_names[w],
                        stream_names[st], s.n, calls, reps, issue_us[w][reps / 2], total_us[w][reps / 2]);
        }
        CHECK(cudaMemset(s.out, 0xff, sizeof(float)));
        issue(s, KGEN_REDUCE, streams[st]);
        CHECK(cudaDeviceSynchronize());
        check_sum(s, want, "kgen_reduce");
        CHECK(cudaMemset(s.out, 0xff, sizeof(float)));
        issue(s, CUB_SUM, streams[st]);
        CHECK(cudaDeviceSynchronize());
        check_sum(s, want, "cub_sum");
    }
    std::printf("verify=ok\n");
    kgen_plan_free(plan);
    kgen_context_destroy(ctx);
    return 0;
}
