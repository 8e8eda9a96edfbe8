// kgen-cub: time cub::DeviceReduce for one op, dtype and n, as the peer that
// `kgen run --bench` compares with, and cub::DeviceScan, the peer of a scan.
// Built with nvcc when configure finds it.
//
//   kgen-cub [--offsets=best|32|64] [--method=M] OP DTYPE N RUNS [L2_BYTES]
//   kgen-cub [--method=M] segmented OP DTYPE ROWS COLS RUNS [L2_BYTES]
//   kgen-cub [--offsets=best|32|64] [--method=M] [--out=DTYPE] scan inclusive|exclusive OP DTYPE N RUNS [L2_BYTES]
//
// The first form prints one line:
//   "cub op=sum dtype=f32 n=... offsets=32 median_ms=... ms32=... ms64=... result=...".
// A user with fewer than 2^31 elements calls CUB with an int count, which
// selects its 32-bit offsets; with more, with a 64-bit count.  CUB's two paths
// differ in speed (the 64-bit one measured ~3.5% slower for i32 sums at 2^30
// on an H100), so the peer must be the one a user gets at their best:
// --offsets=best (the default) times both while n < 2^31 and reports the
// faster as median_ms, naming it in offsets=; 32 or 64 times that one only
// (32 is refused from 2^31 up).  ms32 and ms64 are what was timed (-1: not).
// The second times cub::DeviceSegmentedReduce over a row-major ROWS x COLS
// matrix, one result per row (segment r is [r*COLS, (r+1)*COLS)), the peer of
// a reduction along the last axis, and prints one line:
//   "cub segmented op=sum dtype=f32 rows=... cols=... offsets=32|64 median_ms=... result0=..."
// where offsets is the width of the segment offsets (32 while ROWS*COLS < 2^31)
// and result0 is the first row's result.
// The third times cub::DeviceScan (InclusiveSum or ExclusiveSum for sum,
// InclusiveScan or ExclusiveScan with CUB's minimum or maximum for min and
// max) over n elements into n outputs of --out's type (default: DTYPE, f32
// for f16 and bf16; i32 and u32 may write i64, f32 may write f64, f16 and
// bf16 their own type, torch.cumsum's i32 -> i64 among them), accumulating
// in that type (f32 for an f16 or bf16 output), offsets as the first form's.
// It checks 64 sampled outputs of the call it reports against the host's
// prefix of the input read back (see check_scan) and prints one line:
//   "cub scan mode=inclusive op=sum dtype=i32 out=i64 n=... offsets=32 median_ms=... ms32=... ms64=...
//    last=... check=ok checked=64 wrong=0" (one line)
// where last is out[n - 1]; a check that fails says so (check=FAIL, and a
// "kgen-cub: ..." line on standard error) and exits 1.  Like `kgen run` for
// a scan, it reads one input and writes one output, no copies rotated.
// OP is sum, prod, min or max (a scan's: sum, min or max); DTYPE is i32,
// u32, i64, f32, f64, f16 or bf16 (f16 and bf16 accumulate and write f32;
// scans: see --out).  L2_BYTES defaults to 64 MiB.  Temporary storage is
// allocated once, outside the timed region; reductions' inputs smaller than
// twice the L2 are rotated among copies so that every timed run reads from
// device memory.  3 warm-up calls, then RUNS calls, each timed alone with
// CUDA events; the median is printed.  --method=M (per-call, the default,
// events, graph or cold: see Method) times as `kgen run --method M` times
// kgen's kernels, and adds " method=M" at the end of the line.
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_reduce.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <algorithm>
#include <cmath>
#include <limits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

// CUB's own minimum and maximum, for a scan: its DeviceScan tunings (sm_80,
// sm_90) are for the ops it knows (cub::detail::basic_binary_op_t: plus,
// minimum, maximum), and a functor of ours would take its generic policy,
// not what a user who passes CUB's gets.  cuda::minimum<> and maximum<>
// since CCCL 2.8 (CUDA 12.9; cub::Min and cub::Max are gone from CCCL 3),
// cub::Min and cub::Max before.
#if CUB_VERSION >= 200800
#include <cuda/functional>
using CubMin = cuda::minimum<>;
using CubMax = cuda::maximum<>;
#else
using CubMin = cub::Min;
using CubMax = cub::Max;
#endif

#define CHECK(call)                                                                              \
    do {                                                                                         \
        cudaError_t e_ = (call);                                                                 \
        if (e_ != cudaSuccess) {                                                                 \
            std::fprintf(stderr, "kgen-cub: %s: %s\n", #call, cudaGetErrorString(e_));           \
            std::exit(5);                                                                        \
        }                                                                                        \
    } while (0)

// Inputs drawn as kgen run draws them (cli/reference.c, draw()) for each op:
// sums: multiples of 1/16 in [-4, 4], integers in [-1000, 1000]; products: 1
// but for a few 2, 0.5 and -1 (odd integers in [-7, 7]); min and max: wide
// values (multiples of 1/64 up to ~15625, integers up to 10^9).
enum Draw { DRAW_SUM, DRAW_PROD, DRAW_WIDE };

template <typename T> __global__ void fill(T *p, unsigned long long n, unsigned long long seed, Draw d)
{
    unsigned long long every = n / 32 + 1;
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n;
         i += (unsigned long long)gridDim.x * blockDim.x) {
        unsigned long long z = (i + seed) * 0x9e3779b97f4a7c15ull;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z ^= z >> 31;
        double v;
        if constexpr (std::is_integral_v<T>)
            v = d == DRAW_SUM    ? (double)((int)(z % 2001) - 1000)
                : d == DRAW_PROD ? (double)(2 * (int)(z % 8) - 7)
                                 : (double)((long long)(z % 2000000001) - 1000000000);
        else
            v = d == DRAW_SUM    ? ((int)(z % 129) - 64) / 16.0
                : d == DRAW_PROD ? (i % every == every / 2 ? (z % 3 == 0 ? 2.0 : z % 3 == 1 ? 0.5 : -1.0) : 1.0)
                                 : ((long long)(z % 2000001) - 1000000) / 64.0;
        if constexpr (std::is_integral_v<T>)
            p[i] = (T)(long long)v;
        else
            p[i] = (T)v;
    }
}

// Each element as the accumulator takes it; on the host too (a scan's check).
template <typename T, typename Acc> struct ToAcc {
    __host__ __device__ Acc operator()(T x) const { return (Acc)x; }
};
struct Sum {
    template <typename T> __device__ T operator()(T a, T b) const { return a + b; }
};
struct Prod {
    template <typename T> __device__ T operator()(T a, T b) const { return a * b; }
};
// Min and Max fold a scan's prefix on the host too.
struct Min {
    template <typename T> __host__ __device__ T operator()(T a, T b) const { return b < a ? b : a; }
};
struct Max {
    template <typename T> __host__ __device__ T operator()(T a, T b) const { return a < b ? b : a; }
};

// Which offsets to time: both while n < 2^31 (the faster is the peer), or one.
enum Offsets { OFF_BEST, OFF_32, OFF_64 };

// The op's input draw (see fill).
template <typename Op> static Draw draw_for()
{
    return std::is_same_v<Op, Sum> ? DRAW_SUM : std::is_same_v<Op, Prod> ? DRAW_PROD : DRAW_WIDE;
}

// How to time (--method=, as `kgen run --method`; cli/timing.h): per-call,
// RUNS samples of one call alone between two events (the default); events, 7
// samples of a batch of calls back to back between two events, the batch
// doubled from RUNS until it lasts 0.2 ms (at most 4096 calls); graph, that
// batch captured once in a CUDA graph on a stream of its own, 7 replays;
// cold, RUNS samples of one call, each after writing twice the L2.  Times are
// per call.
#define METHODS(X) X(PER_CALL, "per-call") X(EVENTS, "events") X(GRAPH, "graph") X(COLD, "cold")
#define X(id, name) id,
enum Method { METHODS(X) };
#undef X
#define X(id, name) name,
static const char *const method_names[] = { METHODS(X) };
#undef X
static Method method = PER_CALL;
static cudaStream_t stream = nullptr; // where the calls go: graph's capture stream, else the default stream

// One reduction of n elements with CUB's Off-sized count: Sum of one type is
// cub::DeviceReduce::Sum; the rest go through TransformReduce, which converts
// each element to the accumulator type.
template <typename Off, typename T, typename Acc, typename Op>
static cudaError_t reduce_call(void *t, size_t &tb, const T *src, Acc *out, unsigned long long n, Op op, Acc init)
{
    if constexpr (std::is_same_v<T, Acc> && std::is_same_v<Op, Sum>)
        return cub::DeviceReduce::Sum(t, tb, src, out, (Off)n, stream);
    else
        return cub::DeviceReduce::TransformReduce(t, tb, src, out, (Off)n, op, ToAcc<T, Acc>(), init, stream);
}

// What one timing makes, released when it ends; call(temp, temp_bytes, i)
// is call number i (the input copies rotate by it).
struct Timer {
    void *temp = nullptr; // CUB's temporary storage, allocated before the first call
    size_t temp_bytes = 0;
    cudaEvent_t a = nullptr, b = nullptr;
    cudaGraph_t graph = nullptr;
    cudaGraphExec_t exec = nullptr;
    void *flush = nullptr; // cold: twice the L2, written before each sample
    size_t flush_bytes = 0;
    int next = 0; // the number of the next call

    template <typename Call> void calls(Call &call, int count)
    {
        for (int k = 0; k < count; k++)
            CHECK(call(temp, temp_bytes, next++));
    }

    // One sample, in milliseconds per call: (cold: write the flush buffer,
    // which evicts the input from the L2), an event, `batch` calls or one
    // replay of the graph that holds them, an event.
    template <typename Call> float sample(Call &call, int batch)
    {
        float ms;
        if (flush)
            CHECK(cudaMemsetAsync(flush, 0, flush_bytes, stream));
        CHECK(cudaEventRecord(a, stream));
        if (exec)
            CHECK(cudaGraphLaunch(exec, stream));
        else
            calls(call, batch);
        CHECK(cudaEventRecord(b, stream));
        CHECK(cudaEventSynchronize(b));
        CHECK(cudaEventElapsedTime(&ms, a, b));
        return ms / batch;
    }

    // Graph: `batch` calls captured from the stream, instantiated, replayed
    // once (the first launch uploads the graph).
    template <typename Call> void capture(Call &call, int batch)
    {
        CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
        calls(call, batch);
        CHECK(cudaStreamEndCapture(stream, &graph));
        CHECK(cudaGraphInstantiate(&exec, graph, 0));
        CHECK(cudaGraphLaunch(exec, stream));
        CHECK(cudaStreamSynchronize(stream));
    }

    ~Timer()
    {
        if (stream)
            CHECK(cudaStreamSynchronize(stream));
        if (exec)
            CHECK(cudaGraphExecDestroy(exec));
        if (graph)
            CHECK(cudaGraphDestroy(graph));
        if (stream)
            CHECK(cudaStreamDestroy(stream));
        stream = nullptr;
        if (flush)
            CHECK(cudaFree(flush));
        if (temp)
            CHECK(cudaFree(temp));
        if (a)
            CHECK(cudaEventDestroy(a));
        if (b)
            CHECK(cudaEventDestroy(b));
    }
};

// The median milliseconds per call of `call`, timed as `method` says, after
// 3 warm-up calls.  Per-call's median is its upper middle sample, as it
// always was (results stay comparable); the others' is the true median.
template <typename Call> static float median_ms(Call call, int runs, size_t l2)
{
    Timer t;
    bool batched = method == EVENTS || method == GRAPH;
    int batch = 1, samples = batched ? 7 : runs;
    CHECK(call(t.temp, t.temp_bytes, 0)); // the size query
    CHECK(cudaMalloc(&t.temp, t.temp_bytes ? t.temp_bytes : 16));
    CHECK(cudaEventCreate(&t.a));
    CHECK(cudaEventCreate(&t.b));
    if (method == GRAPH) // the default stream cannot be captured
        CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    if (method == COLD) {
        t.flush_bytes = 2 * l2;
        CHECK(cudaMalloc(&t.flush, t.flush_bytes));
    }
    CHECK(cudaDeviceSynchronize()); // the inputs' fill: graph's stream does not wait for the default stream
    t.calls(call, 3);
    if (method == PER_CALL)
        t.next = 0; // its samples are calls 0 to RUNS - 1, as they always were
    if (batched) // a batch long enough to dwarf the events' resolution and the gaps between launches
        for (batch = runs; t.sample(call, batch) * batch < 0.2f && batch < 4096; batch = std::min(2 * batch, 4096))
            ;
    if (method == GRAPH)
        t.capture(call, batch);
    std::vector<float> ms(samples);
    for (float &x : ms)
        x = t.sample(call, batch);
    CHECK(cudaGetLastError());
    std::sort(ms.begin(), ms.end());
    return method == PER_CALL || samples % 2 ? ms[samples / 2] : (ms[samples / 2 - 1] + ms[samples / 2]) / 2;
}

// " method=NAME" at the end of a line, but for the default (its lines stay as they were).
static std::string method_tag()
{
    return method == PER_CALL ? std::string() : std::string(" method=") + method_names[method];
}

template <typename T, typename Acc, typename Op>
static void run(const char *op_name, const char *dtype, unsigned long long n, int runs, size_t l2, Offsets offsets,
                Op op, Acc init)
{
    size_t bytes = n * sizeof(T);
    int copies = bytes >= 2 * l2 || bytes == 0 ? 1 : (int)std::min<size_t>(64, (2 * l2 + bytes - 1) / bytes);
    std::vector<T *> in(copies);
    Acc *out;
    CHECK(cudaMalloc(&out, sizeof(Acc)));
    for (int c = 0; c < copies; c++) {
        CHECK(cudaMalloc(&in[c], bytes ? bytes : 16));
        fill<<<1024, 256>>>(in[c], n, 12345, draw_for<Op>());
    }
    CHECK(cudaGetLastError());
    bool fits32 = n < (1ull << 31);
    float ms32 = -1, ms64 = -1;
    if (fits32 && offsets != OFF_64)
        ms32 = median_ms([&](void *t, size_t &tb, int r) { return reduce_call<int>(t, tb, in[r % copies], out, n, op, init); },
                         runs, l2);
    if (offsets != OFF_32)
        ms64 = median_ms(
            [&](void *t, size_t &tb, int r) { return reduce_call<int64_t>(t, tb, in[r % copies], out, n, op, init); },
            runs, l2);
    bool use32 = ms32 >= 0 && (ms64 < 0 || ms32 <= ms64);
    Acc result;
    CHECK(cudaMemcpy(&result, out, sizeof(Acc), cudaMemcpyDeviceToHost));
    std::printf("cub op=%s dtype=%s n=%llu offsets=%d median_ms=%.6f ms32=%.6f ms64=%.6f result=%.17g%s\n", op_name,
                dtype, n, use32 ? 32 : 64, use32 ? ms32 : ms64, ms32, ms64, (double)result, method_tag().c_str());
    for (int c = 0; c < copies; c++)
        CHECK(cudaFree(in[c]));
    CHECK(cudaFree(out));
}

// Segment r of a row-major matrix starts at r * cols; Off is int or long long.
template <typename Off> struct RowStart {
    Off cols;
    __host__ __device__ Off operator()(Off r) const { return r * cols; }
};

// One call of cub::DeviceSegmentedReduce over rows segments of cols elements,
// with begin offsets r * cols from a counting iterator (no offsets array in
// memory) and end offsets the same iterator shifted by one.
template <typename T, typename Acc, typename Off, typename Op>
static cudaError_t segmented_call(void *t, size_t &tb, const T *src, Acc *out, unsigned long long rows,
                                  unsigned long long cols, Op op, Acc init)
{
    auto begin = thrust::make_transform_iterator(thrust::make_counting_iterator<Off>(0), RowStart<Off>{(Off)cols});
    auto end = begin + 1;
    // Sum of one type is cub::DeviceSegmentedReduce::Sum; the rest go through
    // Reduce, f16 and bf16 through an iterator that converts each element to
    // the accumulator type (there is no segmented TransformReduce).
    if constexpr (std::is_same_v<T, Acc> && std::is_same_v<Op, Sum>)
        return cub::DeviceSegmentedReduce::Sum(t, tb, src, out, (int64_t)rows, begin, end, stream);
    else if constexpr (std::is_same_v<T, Acc>)
        return cub::DeviceSegmentedReduce::Reduce(t, tb, src, out, (int64_t)rows, begin, end, op, init, stream);
    else
        return cub::DeviceSegmentedReduce::Reduce(t, tb, thrust::make_transform_iterator(src, ToAcc<T, Acc>()), out,
                                                  (int64_t)rows, begin, end, op, init, stream);
}

// The segmented form: one result per row of a rows x cols matrix, timed as run() does.
template <typename T, typename Acc, typename Op>
static void run_segmented(const char *op_name, const char *dtype, unsigned long long rows, unsigned long long cols,
                          int runs, size_t l2, Op op, Acc init)
{
    unsigned long long n = rows * cols;
    bool off64 = n >= (1ull << 31);
    size_t bytes = n * sizeof(T);
    int copies = bytes >= 2 * l2 || bytes == 0 ? 1 : (int)std::min<size_t>(64, (2 * l2 + bytes - 1) / bytes);
    std::vector<T *> in(copies);
    Acc *out;
    CHECK(cudaMalloc(&out, rows ? rows * sizeof(Acc) : 16));
    for (int c = 0; c < copies; c++) {
        CHECK(cudaMalloc(&in[c], bytes ? bytes : 16));
        fill<<<1024, 256>>>(in[c], n, 12345, draw_for<Op>());
    }
    CHECK(cudaGetLastError());
    float ms = median_ms(
        [&](void *t, size_t &tb, int r) {
            const T *src = in[r % copies];
            return off64 ? segmented_call<T, Acc, long long>(t, tb, src, out, rows, cols, op, init)
                         : segmented_call<T, Acc, int>(t, tb, src, out, rows, cols, op, init);
        },
        runs, l2);
    double result0 = std::numeric_limits<double>::quiet_NaN();
    if (rows) {
        Acc r0;
        CHECK(cudaMemcpy(&r0, out, sizeof(Acc), cudaMemcpyDeviceToHost));
        result0 = (double)r0;
    }
    std::printf("cub segmented op=%s dtype=%s rows=%llu cols=%llu offsets=%d median_ms=%.6f result0=%.17g%s\n",
                op_name, dtype, rows, cols, off64 ? 64 : 32, ms, result0, method_tag().c_str());
    for (int c = 0; c < copies; c++)
        CHECK(cudaFree(in[c]));
    CHECK(cudaFree(out));
}

// ---- scans: cub::DeviceScan ----

// One scan of n elements with CUB's Off-sized count, from `in` (the elements,
// or an iterator that converts each to the accumulator type) into out: sum
// is InclusiveSum or ExclusiveSum (init 0), min and max InclusiveScan or
// ExclusiveScan (from init, the op's identity) with CUB's own op.
template <typename Off, typename In, typename Out, typename Acc, typename Op>
static cudaError_t scan_from(void *t, size_t &tb, In in, Out *out, unsigned long long n, bool inclusive, Op, Acc init)
{
    if constexpr (std::is_same_v<Op, Sum>)
        return inclusive ? cub::DeviceScan::InclusiveSum(t, tb, in, out, (Off)n, stream)
                         : cub::DeviceScan::ExclusiveSum(t, tb, in, out, (Off)n, stream);
    else {
        using CubOp = std::conditional_t<std::is_same_v<Op, Min>, CubMin, CubMax>;
        return inclusive ? cub::DeviceScan::InclusiveScan(t, tb, in, out, CubOp{}, (Off)n, stream)
                         : cub::DeviceScan::ExclusiveScan(t, tb, in, out, CubOp{}, init, (Off)n, stream);
    }
}

// The elements themselves where they are of the accumulator type (what a
// user passes), else through ToAcc, so that CUB accumulates in Acc (an
// i32 sum into i64 adds in i64; f16 and bf16 add in f32).
template <typename Off, typename T, typename Acc, typename Out, typename Op>
static cudaError_t scan_call(void *t, size_t &tb, const T *src, Out *out, unsigned long long n, bool inclusive, Op op,
                             Acc init)
{
    if constexpr (std::is_same_v<T, Acc>)
        return scan_from<Off>(t, tb, src, out, n, inclusive, op, init);
    else
        return scan_from<Off>(t, tb, thrust::make_transform_iterator(src, ToAcc<T, Acc>()), out, n, inclusive, op,
                              init);
}

// One call alone on the default stream, with temporary storage of its own
// (the timings' is gone), finished when it returns.
template <typename Call> static void call_once(Call call)
{
    void *t = nullptr;
    size_t tb = 0;
    CHECK(call(t, tb, 0)); // the size query
    CHECK(cudaMalloc(&t, tb ? tb : 16));
    CHECK(call(t, tb, 0));
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaFree(t));
}

// A value as a double, f16 and bf16 included (their conversions run on the host too).
template <typename T> static double to_double(T x)
{
    if constexpr (std::is_same_v<T, __half>)
        return (double)__half2float(x);
    else if constexpr (std::is_same_v<T, __nv_bfloat16>)
        return (double)__bfloat162float(x);
    else
        return (double)x;
}

// An output's rounding from the accumulator: f16's and bf16's unit
// roundoff, none where the output is the accumulator's type.
template <typename Out> static double out_rounding()
{
    return std::is_same_v<Out, __half>          ? std::ldexp(1.0, -11)
           : std::is_same_v<Out, __nv_bfloat16> ? std::ldexp(1.0, -8)
                                                : 0;
}

// The host's running prefix: integers and min and max in the accumulator
// type, exactly as CUB should (integer sums wrap, in unsigned arithmetic:
// no undefined overflow here); float sums in double, with the sum of |x|
// for the bound.
template <typename Acc, typename Op> struct Prefix {
    static constexpr bool float_sum = std::is_floating_point_v<Acc> && std::is_same_v<Op, Sum>;
    std::conditional_t<float_sum, double, Acc> value;
    double abs = 0;

    void add(Acc x)
    {
        if constexpr (float_sum) {
            value += (double)x;
            abs += std::fabs((double)x);
        } else if constexpr (std::is_same_v<Op, Sum>) {
            using U = std::make_unsigned_t<Acc>;
            value = (Acc)((U)value + (U)x);
        } else
            value = Op()(value, x);
    }
};

// What check_scan found: how many sampled outputs it checked and how many
// were off, the first of those described in `what`.
struct ScanCheck {
    int checked = 0, wrong = 0;
    char what[256] = "";
};

// Up to 64 sampled indices of n, ascending: the first four and the last
// two (the identity of an exclusive scan, the ends of the look-back's
// chain), and one in each of 58 equal parts at a seeded place in it.
static std::vector<unsigned long long> scan_samples(unsigned long long n)
{
    std::vector<unsigned long long> at;
    for (unsigned long long i = 0; i < 4 && i < n; i++)
        at.push_back(i);
    for (unsigned long long k = 0, part = n / 58 ? n / 58 : 1; k < 58 && k * part < n; k++) {
        unsigned long long z = (k + 1) * 0x9e3779b97f4a7c15ull;
        z = (z ^ (z >> 31)) * 0xbf58476d1ce4e5b9ull;
        at.push_back(std::min(n - 1, k * part + (z ^ (z >> 29)) % part));
    }
    for (unsigned long long i = n < 2 ? 0 : n - 2; i < n; i++)
        at.push_back(i);
    std::sort(at.begin(), at.end());
    at.erase(std::unique(at.begin(), at.end()), at.end());
    return at;
}

// out[i] at each sampled i against the prefix of the input read back from
// the device (in chunks of 2^22 elements, folded in order on the host):
// integers, min and max exactly; float sums within eps(acc) * (64 + c / 64)
// * the sum of |x| over the c elements combined, plus the output's rounding
// of the prefix: any order of additions whose chain is at most that deep,
// CUB's tiles (of 64 elements or more, each a step of the look-back's
// chain) and the scans inside them, rounds within it.  The draws (see fill)
// make every sum exact in practice; the bound is for any order CUB adds in.
template <typename T, typename Acc, typename Out, typename Op>
static ScanCheck check_scan(const T *in, const Out *out, unsigned long long n, bool inclusive, Op, Acc init)
{
    const unsigned long long chunk = 1ull << 22;
    std::vector<unsigned long long> at = scan_samples(n);
    std::vector<T> buf((size_t)std::min(n, chunk));
    Prefix<Acc, Op> p{};
    ScanCheck r;
    size_t s = 0;

    p.value = init;
    // out[i] against the prefix p of the first `count` elements.
    auto check = [&](unsigned long long i, unsigned long long count) {
        Out got;
        bool ok;
        double want = (double)p.value, bound = 0;
        CHECK(cudaMemcpy(&got, out + i, sizeof got, cudaMemcpyDeviceToHost));
        if constexpr (Prefix<Acc, Op>::float_sum) {
            bound = std::numeric_limits<Acc>::epsilon() * (64.0 + (double)(count / 64)) * p.abs +
                    out_rounding<Out>() * std::fabs(want);
            ok = std::fabs(to_double(got) - want) <= bound;
        } else if constexpr (std::is_integral_v<Acc>)
            ok = got == (Out)p.value;
        else
            ok = to_double(got) == want; // min and max pick an element, which the output holds exactly
        r.checked++;
        if (!ok && !r.wrong++)
            std::snprintf(r.what, sizeof r.what,
                          "out[%llu] is %.17g, the host's prefix of %llu elements %.17g (bound %.3g)", i,
                          to_double(got), count, want, bound);
    };
    for (unsigned long long start = 0; start < n && s < at.size(); start += chunk) {
        unsigned long long len = std::min(chunk, n - start);
        CHECK(cudaMemcpy(buf.data(), in + start, len * sizeof(T), cudaMemcpyDeviceToHost));
        for (unsigned long long k = 0; k < len && s < at.size(); k++) {
            unsigned long long i = start + k;
            if (!inclusive && at[s] == i)
                check(at[s++], i);
            p.add(ToAcc<T, Acc>()(buf[k]));
            if (inclusive && s < at.size() && at[s] == i)
                check(at[s++], i + 1);
        }
    }
    return r;
}

// The scan form: timed as run() times a reduction, but from one input into
// one output, no copies rotated (as `kgen run` times a scan: at small n
// both stay in the L2, for kgen's kernel and CUB's alike); then the call
// reported made once more, into an output poisoned first, and checked.
// Returns 0, or 1 when the check fails.
template <typename T, typename Acc, typename Out, typename Op>
static int run_scan(const char *op_name, const char *dtype, const char *out_name, unsigned long long n, bool inclusive,
                    int runs, size_t l2, Offsets offsets, Op op, Acc init)
{
    T *in;
    Out *out;
    CHECK(cudaMalloc(&in, n ? n * sizeof(T) : 16));
    CHECK(cudaMalloc(&out, n ? n * sizeof(Out) : 16));
    fill<<<1024, 256>>>(in, n, 12345, draw_for<Op>());
    CHECK(cudaGetLastError());
    bool fits32 = n < (1ull << 31);
    float ms32 = -1, ms64 = -1;
    if (fits32 && offsets != OFF_64)
        ms32 = median_ms(
            [&](void *t, size_t &tb, int) { return scan_call<int>(t, tb, in, out, n, inclusive, op, init); }, runs,
            l2);
    if (offsets != OFF_32)
        ms64 = median_ms(
            [&](void *t, size_t &tb, int) { return scan_call<int64_t>(t, tb, in, out, n, inclusive, op, init); }, runs,
            l2);
    bool use32 = ms32 >= 0 && (ms64 < 0 || ms32 <= ms64);
    CHECK(cudaMemset(out, 0xff, n ? n * sizeof(Out) : 16)); // NaN, or -1: what no scan writes everywhere
    if (use32)
        call_once([&](void *t, size_t &tb, int) { return scan_call<int>(t, tb, in, out, n, inclusive, op, init); });
    else
        call_once([&](void *t, size_t &tb, int) { return scan_call<int64_t>(t, tb, in, out, n, inclusive, op, init); });
    ScanCheck c = check_scan<T, Acc, Out>(in, out, n, inclusive, op, init);
    double last = std::numeric_limits<double>::quiet_NaN();
    if (n) {
        Out l;
        CHECK(cudaMemcpy(&l, out + (n - 1), sizeof l, cudaMemcpyDeviceToHost));
        last = to_double(l);
    }
    std::printf("cub scan mode=%s op=%s dtype=%s out=%s n=%llu offsets=%d median_ms=%.6f ms32=%.6f ms64=%.6f "
                "last=%.17g check=%s checked=%d wrong=%d%s\n",
                inclusive ? "inclusive" : "exclusive", op_name, dtype, out_name, n, use32 ? 32 : 64,
                use32 ? ms32 : ms64, ms32, ms64, last, c.wrong ? "FAIL" : "ok", c.checked, c.wrong,
                method_tag().c_str());
    if (c.wrong)
        std::fprintf(stderr, "kgen-cub: cub::DeviceScan's %s; %d of %d sampled outputs off\n", c.what, c.wrong,
                     c.checked);
    CHECK(cudaFree(in));
    CHECK(cudaFree(out));
    return c.wrong ? 1 : 0;
}

// What to time: a whole reduction of n elements, or one per row of rows x
// cols, or a scan of n elements (inclusive or not) into --out's type.
struct Job {
    bool segmented, scan, inclusive;
    unsigned long long n, rows, cols;
    int runs;
    size_t l2;
    Offsets offsets;
};

template <typename T, typename Acc, typename Op>
static void run_job(const char *op_name, const char *dtype, const Job &j, Op op, Acc init)
{
    if (j.segmented)
        run_segmented<T, Acc>(op_name, dtype, j.rows, j.cols, j.runs, j.l2, op, init);
    else
        run<T, Acc>(op_name, dtype, j.n, j.runs, j.l2, j.offsets, op, init);
}

template <typename T, typename Acc>
static int dispatch_op(const char *op, const char *dtype, const Job &j)
{
    if (!std::strcmp(op, "sum"))
        run_job<T, Acc>(op, dtype, j, Sum(), (Acc)0);
    else if (!std::strcmp(op, "prod"))
        run_job<T, Acc>(op, dtype, j, Prod(), (Acc)1);
    else if (!std::strcmp(op, "min"))
        run_job<T, Acc>(op, dtype, j, Min(), std::numeric_limits<Acc>::max());
    else if (!std::strcmp(op, "max"))
        run_job<T, Acc>(op, dtype, j, Max(), std::numeric_limits<Acc>::lowest());
    else
        return 2;
    return 0;
}

// A scan of T into Out, accumulated in Out (f32 for an f16 or bf16
// output): sum, min or max (the identity, +-infinity for floats, is an
// exclusive scan's first output); 2 for another op.
template <typename T, typename Out>
static int dispatch_scan(const char *op, const char *dtype, const char *out, const Job &j)
{
    using Acc = std::conditional_t<std::is_same_v<Out, __half> || std::is_same_v<Out, __nv_bfloat16>, float, Out>;
    using L = std::numeric_limits<Acc>;
    if (!std::strcmp(op, "sum"))
        return run_scan<T, Acc, Out>(op, dtype, out, j.n, j.inclusive, j.runs, j.l2, j.offsets, Sum(), (Acc)0);
    if (!std::strcmp(op, "min"))
        return run_scan<T, Acc, Out>(op, dtype, out, j.n, j.inclusive, j.runs, j.l2, j.offsets, Min(),
                                     L::has_infinity ? L::infinity() : L::max());
    if (!std::strcmp(op, "max"))
        return run_scan<T, Acc, Out>(op, dtype, out, j.n, j.inclusive, j.runs, j.l2, j.offsets, Max(),
                                     L::has_infinity ? -L::infinity() : L::lowest());
    std::fprintf(stderr, "kgen-cub: a scan's op is sum, min or max, not %s\n", op);
    return 2;
}

// The scan's DTYPE and --out (out; NULL: DTYPE, f32 for f16 and bf16): the
// pairs it takes, each its own instantiation; 2 for another.
static int scan_types(const char *op, const char *dt, const char *out, const Job &j)
{
    bool half = !std::strcmp(dt, "f16") || !std::strcmp(dt, "bf16");
    std::string o = out ? out : half ? "f32" : dt;
#define PAIR(D, O, TD, TO)                                                                                     \
    if (!std::strcmp(dt, D) && o == O)                                                                         \
        return dispatch_scan<TD, TO>(op, dt, o.c_str(), j);
    PAIR("i32", "i32", int, int) PAIR("i32", "i64", int, long long)
    PAIR("u32", "u32", unsigned, unsigned) PAIR("u32", "i64", unsigned, long long)
    PAIR("i64", "i64", long long, long long)
    PAIR("f32", "f32", float, float) PAIR("f32", "f64", float, double)
    PAIR("f64", "f64", double, double)
    PAIR("f16", "f32", __half, float) PAIR("f16", "f16", __half, __half)
    PAIR("bf16", "f32", __nv_bfloat16, float) PAIR("bf16", "bf16", __nv_bfloat16, __nv_bfloat16)
#undef PAIR
    std::fprintf(stderr, "kgen-cub: no scan of %s into %s (i32 and u32 into themselves or i64, i64 into i64, f32 into "
                         "f32 or f64, f64 into f64, f16 and bf16 into f32 or themselves)\n", dt, o.c_str());
    return 2;
}

int main(int argc, char **argv)
{
    Job j = {};
    const char *out = nullptr; // --out: a scan's output type
    j.offsets = OFF_BEST;
    // Flags first, in any order.
    while (argc > 1 && !std::strncmp(argv[1], "--", 2)) {
        if (!std::strncmp(argv[1], "--offsets=", 10)) {
            const char *v = argv[1] + 10;
            if (!std::strcmp(v, "32"))
                j.offsets = OFF_32;
            else if (!std::strcmp(v, "64"))
                j.offsets = OFF_64;
            else if (std::strcmp(v, "best")) {
                std::fprintf(stderr, "kgen-cub: --offsets is best, 32 or 64, not %s\n", v);
                return 2;
            }
        } else if (!std::strncmp(argv[1], "--method=", 9)) {
            const char *v = argv[1] + 9;
            int m = 0;
            while (m < (int)(sizeof method_names / sizeof *method_names) && std::strcmp(v, method_names[m]))
                m++;
            if (m == (int)(sizeof method_names / sizeof *method_names)) {
                std::fprintf(stderr, "kgen-cub: --method is per-call, events, graph or cold, not %s\n", v);
                return 2;
            }
            method = (Method)m;
        } else if (!std::strncmp(argv[1], "--out=", 6)) {
            out = argv[1] + 6;
        } else {
            std::fprintf(stderr, "kgen-cub: unknown flag %s\n", argv[1]);
            return 2;
        }
        argv++, argc--;
    }
    // "segmented" and "scan" are not ops, so the forms cannot be confused.
    bool seg = argc > 1 && !std::strcmp(argv[1], "segmented");
    bool scan = argc > 1 && !std::strcmp(argv[1], "scan");
    if (argc < (seg || scan ? 7 : 5)) {
        std::fprintf(stderr, "usage: kgen-cub [--offsets=best|32|64] [--method=M] OP DTYPE N RUNS [L2_BYTES]\n"
                             "       kgen-cub [--method=M] segmented OP DTYPE ROWS COLS RUNS [L2_BYTES]\n"
                             "       kgen-cub [--offsets=best|32|64] [--method=M] [--out=DTYPE] scan "
                             "inclusive|exclusive OP DTYPE N RUNS [L2_BYTES]\n"
                             "M: per-call (the default), events, graph or cold\n");
        return 2;
    }
    if (out && !scan) {
        std::fprintf(stderr, "kgen-cub: --out is for a scan\n");
        return 2;
    }
    if (scan && std::strcmp(argv[2], "inclusive") && std::strcmp(argv[2], "exclusive")) {
        std::fprintf(stderr, "kgen-cub: a scan is inclusive or exclusive, not %s\n", argv[2]);
        return 2;
    }
    int skip = seg ? 1 : scan ? 2 : 0; // "segmented", or "scan" and its mode
    char **arg = argv + skip;          // OP, DTYPE, then N or ROWS COLS, RUNS, L2_BYTES
    int nargs = argc - skip;
    const char *op = arg[1], *dt = arg[2];
    j.segmented = seg;
    j.scan = scan;
    j.inclusive = scan && !std::strcmp(argv[2], "inclusive");
    if (seg) {
        j.rows = std::strtoull(arg[3], nullptr, 10);
        j.cols = std::strtoull(arg[4], nullptr, 10);
        j.n = j.rows * j.cols;
        arg++, nargs--;
    } else {
        j.n = std::strtoull(arg[3], nullptr, 10);
        if (j.offsets == OFF_32 && j.n >= (1ull << 31)) {
            std::fprintf(stderr, "kgen-cub: --offsets=32 needs n < 2^31, not %llu\n", j.n);
            return 2;
        }
    }
    j.runs = std::atoi(arg[4]);
    j.l2 = nargs > 5 ? std::strtoull(arg[5], nullptr, 10) : 64u << 20;
    int rc = 2;
    if (j.runs < 1)
        j.runs = 1;
    if (scan)
        return scan_types(op, dt, out, j); // its refusals say what they refuse
    if (!std::strcmp(dt, "i32")) rc = dispatch_op<int, int>(op, dt, j);
    else if (!std::strcmp(dt, "u32")) rc = dispatch_op<unsigned, unsigned>(op, dt, j);
    else if (!std::strcmp(dt, "i64")) rc = dispatch_op<long long, long long>(op, dt, j);
    else if (!std::strcmp(dt, "f32")) rc = dispatch_op<float, float>(op, dt, j);
    else if (!std::strcmp(dt, "f64")) rc = dispatch_op<double, double>(op, dt, j);
    else if (!std::strcmp(dt, "f16")) rc = dispatch_op<__half, float>(op, dt, j);
    else if (!std::strcmp(dt, "bf16")) rc = dispatch_op<__nv_bfloat16, float>(op, dt, j);
    if (rc)
        std::fprintf(stderr, "kgen-cub: unknown op %s or dtype %s\n", op, dt);
    return rc;
}
