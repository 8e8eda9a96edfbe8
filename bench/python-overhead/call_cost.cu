// call_cost: what one kgen_reduce() call costs from C at a small n, the
// baseline of the Python package's overhead (bench/python-overhead/py-overhead.sh).
//
//   call_cost SPEC_YAML N CALLS REPS
//
// Builds the spec, fills N f32 elements, then REPS times: CALLS calls of
// kgen_reduce() back to back on the default stream, then one synchronize.
// Prints the median over REPS of the wall time per call, and of the time per
// call spent issuing them (before the synchronize), in microseconds:
//   "c n=1024 calls=2000 per_call_us=X issue_us=Y"
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>
#include "kgen.h"

static double now_us()
{
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        std::fprintf(stderr, "usage: call_cost SPEC_YAML N CALLS REPS\n");
        return 2;
    }
    unsigned long long n = std::strtoull(argv[2], nullptr, 10);
    int calls = std::atoi(argv[3]), reps = std::atoi(argv[4]);
    kgen_context *ctx;
    kgen_kernel *k;
    kgen_error err;
    if (kgen_context_create(0, &ctx, &err) || kgen_kernel_build_yaml(ctx, argv[1], &k, &err)) {
        kgen_error_print(&err, stderr);
        return 1;
    }
    std::vector<float> host(n);
    for (unsigned long long i = 0; i < n; i++)
        host[i] = (float)(i % 17) - 8.0f;
    float *in, *out;
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&out, sizeof(float));
    cudaMemcpy(in, host.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    for (int i = 0; i < 100; i++)
        if (kgen_reduce(k, (kgen_devptr)in, n, (kgen_devptr)out, 0, 0, nullptr, &err)) {
            kgen_error_print(&err, stderr);
            return 1;
        }
    cudaDeviceSynchronize();
    std::vector<double> total(reps), issue(reps);
    for (int r = 0; r < reps; r++) {
        double t0 = now_us();
        for (int i = 0; i < calls; i++)
            kgen_reduce(k, (kgen_devptr)in, n, (kgen_devptr)out, 0, 0, nullptr, &err);
        double t1 = now_us();
        cudaDeviceSynchronize();
        double t2 = now_us();
        total[r] = (t2 - t0) / calls;
        issue[r] = (t1 - t0) / calls;
    }
    std::sort(total.begin(), total.end());
    std::sort(issue.begin(), issue.end());
    float sum;
    cudaMemcpy(&sum, out, sizeof sum, cudaMemcpyDeviceToHost);
    std::printf("c n=%llu calls=%d per_call_us=%.3f issue_us=%.3f sum=%g\n", n, calls, total[reps / 2],
                issue[reps / 2], (double)sum);
    return 0;
}
