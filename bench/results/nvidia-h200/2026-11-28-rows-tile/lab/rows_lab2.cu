// rows_lab2.cu: issue 23 item 1, tall-thin rows, second run: kgen's own kernels
// (rows_gen.cu, generated from specs/reduce_axis/best/rows.yaml) against the
// coal kernels, each with four waves of blocks walking the rows a grid apart,
// one wave, and one pass (as many blocks as tiles, each loop taken once).
// From rows_lab.cu:  Hand-written variants of
// the sum of each row of a packed f32 matrix, each timed one call between
// events (median of RUNS) beside CUB's sum of the same bytes, every row
// checked against a double-precision host sum, the output poisoned first.
//
//   nvcc -O3 -arch=sm_90 -o rows_lab rows_lab.cu && ./rows_lab [RUNS]
//
//   lanes4     kgen's strategy auto kernel for rows of 3 to 32 vectors
//              (rows_by_lanes<4>: 4 threads a row, 4 loads in flight);
//              lanes16 for longer rows (16 threads a row)
//   lanes4x2   the same, two rows a thread at once (8 loads in flight)
//   coalN      the column kernel's read pattern: each warp load reads 32
//              consecutive vectors (whole rows of VPR vectors, VPR a power
//              of two up to 32), N loads in flight a thread; each load's
//              rows are reduced across their VPR lanes by shuffles
//   coalNrs    coalN with a reduce-scatter of the N loads' partials across
//              the row's lanes: log2(VPR) shuffle steps, each halving the
//              partials a lane holds, instead of log2(VPR) per load
#include <cub/device/device_reduce.cuh>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>

#define CHECK(call)                                                                  \
    do {                                                                             \
        cudaError_t e_ = (call);                                                     \
        if (e_ != cudaSuccess) {                                                     \
            std::fprintf(stderr, "%s: %s\n", #call, cudaGetErrorString(e_));         \
            std::exit(1);                                                            \
        }                                                                            \
    } while (0)

#include "rows_gen.cu"  // kgen specs/reduce_axis/best/rows.yaml: THREADS, VEC, Vec, Index, the kernels

// ---- coal: whole warp loads of 32 consecutive vectors. ----
// The matrix is rows * VPR vectors; warp w of the grid takes chunks of
// N * 32 vectors (N loads a lane, load u of lane l is vector chunk + u * 32 + l)
// a grid of warps apart.  Each load holds 32 / VPR rows' vectors.
template <int VPR, int N, bool RS>
__global__ void __launch_bounds__(THREADS) coal_kernel(const float *__restrict__ in, float *out, Index rows)
{
    const unsigned lane = threadIdx.x % 32;
    const Index warps = (Index)gridDim.x * (THREADS / 32);
    const Index total = rows * VPR;  // vectors
    const Vec *v = reinterpret_cast<const Vec *>(in);
    for (Index chunk = ((Index)blockIdx.x * (THREADS / 32) + threadIdx.x / 32) * (N * 32); chunk < total;
         chunk += warps * (N * 32)) {
        float p[N];
        Vec y[N];
        #pragma unroll
        for (int u = 0; u < N; u++)
            y[u] = chunk + u * 32 + lane < total ? v[chunk + u * 32 + lane] : Vec{};
        #pragma unroll
        for (int u = 0; u < N; u++)
            p[u] = (y[u].v[0] + y[u].v[1]) + (y[u].v[2] + y[u].v[3]);
        if (!RS || N < 2) {
            #pragma unroll
            for (int u = 0; u < N; u++) {
                #pragma unroll
                for (int o = VPR / 2; o > 0; o /= 2)
                    p[u] += __shfl_xor_sync(0xffffffffu, p[u], o);
                const Index row = (chunk + u * 32) / VPR + lane / VPR;
                if (lane % VPR == 0 && row < rows)
                    out[row] = p[u];
            }
        } else {
            // Reduce-scatter over the VPR lanes of a row: at distance d
            // (VPR/2, VPR/4, ...) while more than one partial is left, a lane
            // keeps half of its partials (the upper half if its bit d is set)
            // and adds its partner's copies of them; then plain butterflies.
            int m = N, base = 0, low = VPR;  // partials left, their first load, the last scatter distance
            #pragma unroll
            for (int d = VPR / 2; d > 0; d /= 2) {
                if (m > 1) {
                    const bool up = lane & d;
                    #pragma unroll
                    for (int j = 0; j < N / 2; j++)
                        if (j < m / 2) {
                            const float send = up ? p[j] : p[j + m / 2];
                            const float keep = up ? p[j + m / 2] : p[j];
                            p[j] = keep + __shfl_xor_sync(0xffffffffu, send, d);
                        }
                    base += up ? m / 2 : 0;
                    m /= 2;
                    low = d;
                } else {
                    p[0] += __shfl_xor_sync(0xffffffffu, p[0], d);
                }
            }
            // p[0..m) are the row totals of loads base..base+m; the lanes
            // whose bits below `low` are clear write them.
            if (lane % low == 0)
                #pragma unroll
                for (int j = 0; j < N; j++)
                    if (j < m) {
                        const Index row = (chunk + (base + j) * 32) / VPR + lane / VPR;
                        if (row < rows)
                            out[row] = p[j];
                    }
        }
    }
}

// ---- the harness ----
static std::vector<float> host_in;

static float median(std::vector<float> t)
{
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

template <typename Launch>
static float time_it(Launch launch, int runs)
{
    cudaEvent_t a, b;
    CHECK(cudaEventCreate(&a));
    CHECK(cudaEventCreate(&b));
    for (int i = 0; i < 3; i++)
        launch();
    CHECK(cudaDeviceSynchronize());
    std::vector<float> t;
    for (int i = 0; i < runs; i++) {
        float ms;
        CHECK(cudaEventRecord(a));
        launch();
        CHECK(cudaEventRecord(b));
        CHECK(cudaEventSynchronize(b));
        CHECK(cudaEventElapsedTime(&ms, a, b));
        t.push_back(ms * 1000.0f);
    }
    CHECK(cudaGetLastError());
    return median(t);
}

static int check(const float *d_out, Index rows, Index cols, const std::vector<double> &ref, const char *what)
{
    std::vector<float> got(rows);
    CHECK(cudaMemcpy(got.data(), d_out, rows * sizeof(float), cudaMemcpyDeviceToHost));
    Index bad = 0;
    for (Index r = 0; r < rows; r++) {
        double tol = 1e-5 * std::sqrt((double)cols) * 4 + 1e-6;
        if (!(std::fabs(got[r] - ref[r]) <= tol)) {
            if (bad < 3)
                std::printf("  %s: row %llu got %.7g expected %.7g\n", what, r, got[r], ref[r]);
            bad++;
        }
    }
    return bad == 0;
}

int main(int argc, char **argv)
{
    int runs = argc > 1 ? std::atoi(argv[1]) : 20;
    int dev = 0, sms;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, dev));
    std::printf("# %s, %d SMs, runs %d; kgen-variant/CUB (CUB: DeviceReduce::Sum of the same bytes), one call between events, median\n",
                prop.name, sms, runs);
    const Index shapes[][2] = { { 4194304, 64 }, { 2000000, 100 }, { 8388608, 32 }, { 2097152, 128 }, { 16777216, 16 }, { 1048576, 256 } };
    for (auto &sh : shapes) {
        const Index rows = sh[0], cols = sh[1], n = rows * cols;
        float *d_in, *d_out, *d_sum;
        CHECK(cudaMalloc(&d_in, n * sizeof(float)));
        CHECK(cudaMalloc(&d_out, rows * sizeof(float)));
        CHECK(cudaMalloc(&d_sum, sizeof(float)));
        host_in.resize(n);
        unsigned long long s = 0x9e3779b97f4a7c15ull ^ n;
        for (Index i = 0; i < n; i++) {
            s ^= s << 13; s ^= s >> 7; s ^= s << 17;
            host_in[i] = (float)((long long)(s % 129) - 64) / 16.0f;  // multiples of 1/16 in [-4, 4]
        }
        std::vector<double> ref(rows);
        for (Index r = 0; r < rows; r++) {
            double a = 0;
            for (Index c = 0; c < cols; c++)
                a += host_in[r * cols + c];
            ref[r] = a;
        }
        CHECK(cudaMemcpy(d_in, host_in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
        size_t tmp_bytes = 0;
        void *tmp = nullptr;
        CHECK(cub::DeviceReduce::Sum(tmp, tmp_bytes, d_in, d_sum, (int)n));
        CHECK(cudaMalloc(&tmp, tmp_bytes));
        auto cub_call = [&] { CHECK(cub::DeviceReduce::Sum(tmp, tmp_bytes, d_in, d_sum, (int)n)); };
        float cub_us = time_it(cub_call, runs);
        std::printf("%llux%llu  CUB %.1f us\n", rows, cols, cub_us);

        // waves > 0: that many waves of blocks (the rows walked a grid
        // apart); waves == 0: `pass` blocks, each loop taken once.
        auto run = [&](const char *name, auto kernel, auto args_launch, int waves, unsigned long long pass) {
            int occ = 0;
            CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, kernel, THREADS, 0));
            unsigned grid = waves ? (unsigned)(waves * occ * sms) : (unsigned)pass;
            if (waves && grid > pass)
                grid = (unsigned)pass;
            CHECK(cudaMemset(d_out, 0xff, rows * sizeof(float)));  // NaN
            args_launch(grid);
            CHECK(cudaDeviceSynchronize());
            CHECK(cudaGetLastError());
            int ok = check(d_out, rows, cols, ref, name);
            float us = time_it([&] { args_launch(grid); }, runs);
            CHECK(cudaMemset(d_out, 0xff, rows * sizeof(float)));
            args_launch(grid);
            CHECK(cudaDeviceSynchronize());
            ok = ok && check(d_out, rows, cols, ref, name);
            cudaFuncAttributes fa;
            CHECK(cudaFuncGetAttributes(&fa, kernel));
            char label[64];
            std::snprintf(label, sizeof label, "%s/%s", name, waves ? (waves == 1 ? "1wave" : waves == 4 ? "4waves" : "waves") : "pass");
            std::printf("  %-16s %8.1f us  kgen/CUB %.3f  %s  (occupancy %d blocks, %d regs, grid %u)\n", label, us,
                        cub_us / us, ok ? "ok" : "WRONG", occ, fa.numRegs, grid);
        };
        const Index vpr = (cols + VEC - 1) / VEC;
        if (vpr > 2 && vpr <= 32)
            for (int w : { 4, 1, 0 })
                run("kgen-lanes4", reduce_rows_sum_f32_lanes4,
                    [&](unsigned g) { reduce_rows_sum_f32_lanes4<<<g, THREADS>>>(d_in, d_out, rows, cols, cols); }, w,
                    (rows + THREADS / 4 - 1) / (THREADS / 4));
        if (vpr > 32 && vpr <= 512)
            for (int w : { 4, 1, 0 })
                run("kgen-lanes16", reduce_rows_sum_f32_lanes16,
                    [&](unsigned g) { reduce_rows_sum_f32_lanes16<<<g, THREADS>>>(d_in, d_out, rows, cols, cols); }, w,
                    (rows + THREADS / 16 - 1) / (THREADS / 16));
#define COAL(VPR_, N_, RS_, NAME_)                                                                                  \
        if (cols == VPR_ * 4)                                                                                       \
            for (int w : { 4, 0 })                                                                                  \
                run(NAME_, coal_kernel<VPR_, N_, RS_>,                                                              \
                    [&](unsigned g) { coal_kernel<VPR_, N_, RS_><<<g, THREADS>>>(d_in, d_out, rows); }, w,          \
                    (rows * VPR_ + (THREADS / 32) * N_ * 32 - 1) / ((THREADS / 32) * N_ * 32));
#define COALS(VPR_) COAL(VPR_, 4, true, "coal4rs") COAL(VPR_, 8, true, "coal8rs") COAL(VPR_, 8, false, "coal8")
        COALS(4) COALS(8) COALS(16) COALS(32)
        if (vpr > 2 && vpr <= 32)
            run("kgen-lanes4", reduce_rows_sum_f32_lanes4,
                [&](unsigned g) { reduce_rows_sum_f32_lanes4<<<g, THREADS>>>(d_in, d_out, rows, cols, cols); }, 4,
                (rows + THREADS / 4 - 1) / (THREADS / 4));
        cub_us = time_it(cub_call, runs);
        std::printf("  CUB again %.1f us\n", cub_us);
        CHECK(cudaFree(tmp));
        CHECK(cudaFree(d_in));
        CHECK(cudaFree(d_out));
        CHECK(cudaFree(d_sum));
    }
    return 0;
}
