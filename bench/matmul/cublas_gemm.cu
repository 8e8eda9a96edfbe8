// kgen-cublas: time cuBLAS's C = alpha*A*B + beta*C for one shape, dtype and
// pair of layouts, as the peer that kgen's matmul is compared with.  Built
// with nvcc beside kgen-cub (configure's --disable-cub-helper skips both).
//
//   kgen-cublas [FLAG...] DTYPE M N K RUNS
//
// prints one line (the same family as kgen-cub's: a name, then key=value
// fields, median_ms among them):
//   "cublas dtype=bf16 out=bf16 m=4096 n=4096 k=4096 a=row b=row lda=4096
//    ldb=4096 ldc=4096 alpha=1 beta=0 epilogue=none algo=0 algos=1
//    workspace=33554432 api=lt median_ms=... tflops=... check=ok maxerr=..."
// (on one line; ` method=M` at its end but for per-call).  See usage() for
// the flags.
//
// Two APIs, both timed by default (--api=best) and the faster reported, api=
// naming it: cublasGemmEx (CUBLAS_GEMM_DEFAULT, the handle given the same
// workspace, as torch gives it) and cublasLtMatmul.  With an --epilogue only
// cublasLtMatmul runs: it is the one API that has a
// fused epilogue (--epilogue=relu, CUBLASLT_EPILOGUE_RELU, the peer of a kgen
// matmul with a ReLU `epilogue`; --epilogue=gelu_bias, CUBLASLT_EPILOGUE_GELU_BIAS
// with a bias vector of n values of C's type, the peer of `bias: col` and
// `epilogue: gelu(v + bias)`), so that the plain and the fused peer
// are the same library path; its algorithm is the first that
// cublasLtMatmulAlgoGetHeuristic proposes with a workspace (32 MiB by
// default), as torch chooses for its cublasLt calls.  --algos=N times the
// first N proposals and reports the fastest (algo= names its rank), cuBLAS
// at its best rather than as a user gets it.
//
// Types (CUBLAS_COMPUTE_*, never *_FAST_TF32, so f32 is true FP32 on the
// CUDA cores, no TF32; NVIDIA_TF32_OVERRIDE cannot turn TF32 on for it):
//   f32   A, B, C f32,             compute 32F, alpha/beta float
//   f64   A, B, C f64,             compute 64F, alpha/beta double
//   f16   A, B f16, C f16 or f32,  compute 32F (f32 accumulate), alpha/beta float
//   bf16  A, B bf16, C bf16 or f32, compute 32F, alpha/beta float
//   e4m3, e5m2  A, B fp8 (--b-dtype: B the other fp8 type), C bf16 (default), f16 or
//         f32, compute 32F; cublasLtMatmul alone, A row-major and B column-major (the
//         TN form fp8 takes), per-tensor scales (A_SCALE_POINTER, B_SCALE_POINTER: device
//         floats 0.5 and 0.25), CUBLASLT_MATMUL_DESC_FAST_ACCUM with --fast-accum; the
//         inputs are integers from -2 to 2 (exact in fp8, their sums exact in any
//         accumulation), as kgen run draws them
//
// kgen's convention: C is row-major M x N with row pitch ldc; A (M x K) and B
// (K x N) each row-major (element (i,j) at i*ld + j) or column-major (at
// j*ld + i).  cuBLAS is column-major, and a row-major C is the column-major
// N x M matrix C^T = B^T A^T; so cuBLAS computes that, with kgen's B as its
// first operand and kgen's A as its second: a row-major operand, read
// column-major, is already its transpose (op N), a column-major one needs op T.
//
// Method: inputs drawn uniformly in [-1, 1) (full mantissas, as torch.rand
// does: the power a GEMM draws depends on its data), the workspace and
// everything else allocated outside the timed region, one call checked
// against a double-precision dot product on the host at 64 sampled
// elements (the corners among them), then timed as kgen-cub times: 3 warm-up
// calls, then --method=per-call (the default: RUNS calls, each alone between
// two CUDA events), events (7 batches of calls back to back, each batch
// doubled from RUNS until it lasts 0.2 ms), graph (that batch in a CUDA graph,
// 7 replays) or cold (RUNS calls, each after writing twice the L2); the
// median per call.  Operands are not rotated among copies: a GEMM re-reads
// them from the L2 whatever one does.  With beta != 0 the timed calls keep
// accumulating into C (as a caller's in-place C = alpha*A*B + beta*C would).
//
// Exit status: 0, 1 (the check failed: the line says check=FAIL), 2 (usage),
// 4 (cuBLAS has no algorithm for this combination), 5 (a CUDA or cuBLAS
// error); errors are one line on standard error, "kgen-cublas: ...".
#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_fp8.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#define CHECK(call)                                                                              \
    do {                                                                                         \
        cudaError_t e_ = (call);                                                                 \
        if (e_ != cudaSuccess) {                                                                 \
            std::fprintf(stderr, "kgen-cublas: %s: %s\n", #call, cudaGetErrorString(e_));        \
            std::exit(5);                                                                        \
        }                                                                                        \
    } while (0)

#define CHECK_BLAS(call)                                                                          \
    do {                                                                                          \
        cublasStatus_t s_ = (call);                                                               \
        if (s_ != CUBLAS_STATUS_SUCCESS) {                                                        \
            std::fprintf(stderr, "kgen-cublas: %s: %s\n", #call, cublasLtGetStatusString(s_));    \
            std::exit(5);                                                                         \
        }                                                                                         \
    } while (0)

static void usage(FILE *f)
{
    std::fprintf(f,
        "usage: kgen-cublas [FLAG...] DTYPE M N K RUNS\n"
        "Times cuBLAS's C = alpha*A*B + beta*C (cublasGemmEx and cublasLtMatmul with the heuristic's first\n"
        "algorithm, both with a workspace), C row-major M x N, and prints one line for the faster:\n"
        "cublas dtype=... api=gemmex|lt median_ms=X tflops=Y ...\n"
        "DTYPE: f32 (FP32 compute, no TF32), f64, f16 or bf16 (both with f32 accumulate), e4m3 or e5m2\n"
        "  --out=DTYPE         C's type: DTYPE (default), or f32 for f16 and bf16; fp8: bf16 (default), f16, f32\n"
        "  --b-dtype=DTYPE     fp8: B's type where it differs from A's (e4m3 x e5m2)\n"
        "  --fast-accum        fp8: CUBLASLT_MATMUL_DESC_FAST_ACCUM (the tensor cores' own accumulation)\n"
        "  --a=row|col         A (M x K) row-major (default: (i,j) at i*lda + j) or column-major (j*lda + i)\n"
        "  --b=row|col         B (K x N) likewise\n"
        "  --lda=N --ldb=N --ldc=N   leading dimensions in elements (default 0: packed)\n"
        "  --alpha=X --beta=X  the scalars (default 1 and 0)\n"
        "  --epilogue=none|relu|gelu_bias   relu: cuBLASLt's fused CUBLASLT_EPILOGUE_RELU, C = max(alpha*A*B +\n"
        "                         beta*C, 0); gelu_bias: CUBLASLT_EPILOGUE_GELU_BIAS, C = gelu(alpha*A*B + beta*C +\n"
        "                         bias), bias n random values of C's type, one a column of C\n"
        "  --api=best|lt|gemmex   time both and report the faster (default; lt alone with an epilogue),\n"
        "                         or only cublasLtMatmul or cublasGemmEx (which has no epilogue)\n"
        "  --method=M          per-call (default), events, graph or cold: as kgen run --method M times\n"
        "  --algos=N           time the heuristic's first N algorithms, report the fastest (default 1)\n"
        "  --workspace=BYTES   cuBLASLt's workspace (default 33554432)\n"
        "  --device=N          the CUDA device (default 0)\n"
        "  --no-check          skip the check of 64 sampled elements against the host\n"
        "Exit: 0; 1 the check failed; 2 usage; 4 no cuBLAS algorithm for this; 5 CUDA or cuBLAS error.\n");
}

// ---- the types ----

// One kgen dtype as cuBLAS and the host see it.
struct Type {
    const char *name;
    cudaDataType_t cuda;
    size_t size;
    double unit;  // unit roundoff: half the distance from 1 to the next number
};
static const Type types[] = {
    {"f32", CUDA_R_32F, 4, 0x1p-24},
    {"f64", CUDA_R_64F, 8, 0x1p-53},
    {"f16", CUDA_R_16F, 2, 0x1p-11},
    {"bf16", CUDA_R_16BF, 2, 0x1p-8},
    {"e4m3", CUDA_R_8F_E4M3, 1, 0x1p-4},
    {"e5m2", CUDA_R_8F_E5M2, 1, 0x1p-3},
};

static bool is_fp8(const Type *t)
{
    return t->size == 1;
}

static const Type *type_of(const char *name)
{
    for (const Type &t : types)
        if (!std::strcmp(t.name, name))
            return &t;
    return nullptr;
}

// Element i of a device buffer of type t, copied to the host, as a double.
static double element(const Type *t, const std::vector<unsigned char> &host, size_t i)
{
    const unsigned char *p = host.data() + i * t->size;
    switch (t->cuda) {
    case CUDA_R_32F: { float v; std::memcpy(&v, p, 4); return v; }
    case CUDA_R_64F: { double v; std::memcpy(&v, p, 8); return v; }
    case CUDA_R_16F: { __half v; std::memcpy(&v, p, 2); return __half2float(v); }
    case CUDA_R_8F_E4M3: { __nv_fp8_e4m3 v; std::memcpy(&v, p, 1); return (float)v; }
    case CUDA_R_8F_E5M2: { __nv_fp8_e5m2 v; std::memcpy(&v, p, 1); return (float)v; }
    default: { __nv_bfloat16 v; std::memcpy(&v, p, 2); return __bfloat162float(v); }
    }
}

// A hash of element i and a seed (splitmix64's finaliser).
static __device__ unsigned long long hash_of(size_t i, unsigned long long seed)
{
    unsigned long long z = (i + seed) * 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

// Uniform values in [-1, 1) from the hash.
template <typename T> __global__ void fill(T *p, size_t n, unsigned long long seed)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        p[i] = (T)((double)(hash_of(i, seed) >> 11) * 0x1p-52 - 1.0);
}

// fp8: integers from -2 to 2 from the same hash (exact, and so are their sums).
template <typename T> __global__ void fill_small(T *p, size_t n, unsigned long long seed)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        p[i] = (T)(float)((int)(hash_of(i, seed) % 5) - 2);
}

static void fill_buffer(const Type *t, void *p, size_t n, unsigned long long seed)
{
    switch (t->cuda) {
    case CUDA_R_8F_E4M3: fill_small<<<1024, 256>>>((__nv_fp8_e4m3 *)p, n, seed); break;
    case CUDA_R_8F_E5M2: fill_small<<<1024, 256>>>((__nv_fp8_e5m2 *)p, n, seed); break;
    case CUDA_R_32F: fill<<<1024, 256>>>((float *)p, n, seed); break;
    case CUDA_R_64F: fill<<<1024, 256>>>((double *)p, n, seed); break;
    case CUDA_R_16F: fill<<<1024, 256>>>((__half *)p, n, seed); break;
    default: fill<<<1024, 256>>>((__nv_bfloat16 *)p, n, seed); break;
    }
    CHECK(cudaGetLastError());
}

// ---- timing, as kgen-cub times (bench/cub_reduce.cu, cli/timing.h) ----

#define METHODS(X) X(PER_CALL, "per-call") X(EVENTS, "events") X(GRAPH, "graph") X(COLD, "cold")
#define X(id, name) id,
enum Method { METHODS(X) };
#undef X
#define X(id, name) name,
static const char *const method_names[] = { METHODS(X) };
#undef X

// What one timing makes, released when it ends; call(stream) is one GEMM.
template <typename Call> struct Timer {
    Call &call;
    Method method;
    cudaStream_t stream = nullptr; // graph: a stream of its own; else the default stream
    cudaEvent_t a = nullptr, b = nullptr;
    cudaGraph_t graph = nullptr;
    cudaGraphExec_t exec = nullptr;
    void *flush = nullptr; // cold: twice the L2, written before each sample
    size_t flush_bytes = 0;

    Timer(Call &c, Method m) : call(c), method(m)
    {
        CHECK(cudaEventCreate(&a));
        CHECK(cudaEventCreate(&b));
        if (m == GRAPH) // the default stream cannot be captured
            CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
        if (m == COLD) {
            int dev, l2;
            CHECK(cudaGetDevice(&dev));
            CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
            flush_bytes = 2 * (size_t)l2;
            CHECK(cudaMalloc(&flush, flush_bytes));
        }
        CHECK(cudaDeviceSynchronize());
    }

    void calls(int count)
    {
        for (int i = 0; i < count; i++)
            call(stream);
    }

    // One sample, in milliseconds per call.
    float sample(int batch)
    {
        float ms;
        if (flush)
            CHECK(cudaMemsetAsync(flush, 0, flush_bytes, stream));
        CHECK(cudaEventRecord(a, stream));
        if (exec)
            CHECK(cudaGraphLaunch(exec, stream));
        else
            calls(batch);
        CHECK(cudaEventRecord(b, stream));
        CHECK(cudaEventSynchronize(b));
        CHECK(cudaEventElapsedTime(&ms, a, b));
        return ms / batch;
    }

    void capture(int batch)
    {
        CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
        calls(batch);
        CHECK(cudaStreamEndCapture(stream, &graph));
        CHECK(cudaGraphInstantiate(&exec, graph, 0));
        CHECK(cudaGraphLaunch(exec, stream));
        CHECK(cudaStreamSynchronize(stream));
    }

    // The median milliseconds per call after 3 warm-up calls; per-call's is
    // its upper middle sample, as kgen-cub's and kgen run's.
    float median_ms(int runs)
    {
        bool batched = method == EVENTS || method == GRAPH;
        int batch = 1, samples = batched ? 7 : runs;
        calls(3);
        if (batched)
            for (batch = runs; sample(batch) * batch < 0.2f && batch < 4096; batch = std::min(2 * batch, 4096))
                ;
        if (method == GRAPH)
            capture(batch);
        std::vector<float> ms(samples);
        for (float &x : ms)
            x = sample(batch);
        CHECK(cudaGetLastError());
        std::sort(ms.begin(), ms.end());
        return method == PER_CALL || samples % 2 ? ms[samples / 2] : (ms[samples / 2 - 1] + ms[samples / 2]) / 2;
    }

    ~Timer()
    {
        CHECK(cudaDeviceSynchronize());
        if (exec)
            CHECK(cudaGraphExecDestroy(exec));
        if (graph)
            CHECK(cudaGraphDestroy(graph));
        if (stream)
            CHECK(cudaStreamDestroy(stream));
        if (flush)
            CHECK(cudaFree(flush));
        CHECK(cudaEventDestroy(a));
        CHECK(cudaEventDestroy(b));
    }
};

// ---- the job ----

// Which cuBLAS entry points are timed: both (the faster reported), or one.
enum Api { BEST, LT, GEMMEX };
static const char *const api_names[] = { "best", "lt", "gemmex" };

struct Job {
    const Type *in = nullptr, *in_b = nullptr, *out = nullptr;  // A's, B's and C's types
    bool fast_accum = false;                                   // fp8: CUBLASLT_MATMUL_DESC_FAST_ACCUM
    unsigned long long m = 0, n = 0, k = 0, lda = 0, ldb = 0, ldc = 0;
    bool a_col = false, b_col = false, relu = false, gelu_bias = false, check = true;
    Api api = BEST;
    double alpha = 1, beta = 0;
    Method method = PER_CALL;
    int runs = 0, algos = 1, device = 0;
    size_t workspace = 32u << 20;
};

// Where element (i, j) of a matrix is, row- or column-major.
static size_t at(bool col, unsigned long long ld, unsigned long long i, unsigned long long j)
{
    return col ? j * ld + i : i * ld + j;
}

// The elements a matrix of `rows` x `cols` with leading dimension ld spans.
static size_t span(bool col, unsigned long long ld, unsigned long long rows, unsigned long long cols)
{
    if (!rows || !cols)
        return 1;
    return col ? (cols - 1) * ld + rows : (rows - 1) * ld + cols;
}

static std::vector<unsigned char> to_host(const void *p, size_t elems, const Type *t)
{
    std::vector<unsigned char> h(elems * t->size);
    CHECK(cudaMemcpy(h.data(), p, h.size(), cudaMemcpyDeviceToHost));
    return h;
}

// The largest error at 64 sampled elements of C (corners first) after one
// call, against a double-precision dot product of the host copies of A, B
// and the C before it, over the element's bound: (K + 2) units of the
// accumulator's roundoff times sum |alpha a b| + |beta c| (the worst case of
// a K-term dot product in any order, plus the scaling), plus one unit of
// C's own type times the result.  Below 1 is a pass.
static double check_error(const Job &j, const std::vector<unsigned char> &a, const std::vector<unsigned char> &b,
                          const std::vector<unsigned char> &c0, const std::vector<unsigned char> &c,
                          const std::vector<unsigned char> &bias, double scale)
{
    double acc_unit = j.in->cuda == CUDA_R_64F ? 0x1p-53 : 0x1p-24, worst = 0;
    for (int s = 0; s < 64; s++) {
        unsigned long long z = (s + 1) * 0x9e3779b97f4a7c15ull;
        z ^= z >> 29;
        unsigned long long i = s == 0 || s == 2 ? 0 : s == 1 || s == 3 ? j.m - 1 : z % j.m;
        unsigned long long col = s == 0 || s == 3 ? 0 : s == 1 || s == 2 ? j.n - 1 : (z >> 32) % j.n;
        double dot = 0, mag = 0;
        for (unsigned long long p = 0; p < j.k; p++) {
            double x = element(j.in, a, at(j.a_col, j.lda, i, p)), y = element(j.in_b, b, at(j.b_col, j.ldb, p, col));
            dot += x * y;
            mag += std::fabs(x * y);
        }
        dot *= scale;  // fp8: the per-tensor scales' product, else 1
        mag *= scale;
        size_t ci = at(false, j.ldc, i, col);
        double before = j.beta != 0 ? element(j.out, c0, ci) : 0;
        double want = j.alpha * dot + j.beta * before, got = element(j.out, c, ci), other = want;
        if (j.relu)
            want = other = std::max(want, 0.0);
        double bound = (j.k + 2) * acc_unit * (std::fabs(j.alpha) * mag + std::fabs(j.beta * before)) +
                       j.out->unit * std::fabs(want) + 1e-300;
        if (j.gelu_bias) {  // either GELU (the erf form, or the tanh one), of the value plus bias[col]
            double x = want + element(j.out, bias, col);
            want = 0.5 * x * std::erfc(-x / std::sqrt(2.0));
            other = 0.5 * x * (1 + std::tanh(0.79788456080286536 * (x + 0.044715 * x * x * x)));
            bound = 1.13 * (bound + 4 * acc_unit * std::fabs(x)) + j.out->unit * std::fabs(want);
        }
        double d = std::min(std::fabs(got - want), std::fabs(got - other));
        double e = std::isfinite(got) ? d / bound : INFINITY;
        if (!(e <= worst))
            worst = e;
    }
    return worst;
}

static const char *epilogue_name(const Job &j)
{
    return j.relu ? "relu" : j.gelu_bias ? "gelu_bias" : "none";
}

// The cuBLASLt call, its descriptors made once.
struct Gemm {
    cublasHandle_t h = nullptr; // cublasGemmEx's, where it runs
    cublasLtHandle_t lt = nullptr;
    cublasLtMatmulDesc_t desc = nullptr;
    cublasLtMatrixLayout_t la = nullptr, lb = nullptr, lc = nullptr;
    cublasLtMatmulPreference_t pref = nullptr;
    std::vector<cublasLtMatmulHeuristicResult_t> algos;
    const Job &job;
    const void *alpha, *beta;
    const void *a, *b;
    void *c, *work;
    const float *scales = nullptr;  // fp8: A's and B's per-tensor scales (device floats)
    size_t work_bytes;
    bool ex = false; // the call timed: cublasGemmEx, else cublasLtMatmul with algos[which]
    int which = 0;

    // cuBLAS's column-major C^T (N x M, ld ldc) = op(B') op(A'), where B'
    // is kgen's B buffer as cuBLAS reads it (N x K when B is row-major, op
    // N; K x N when column-major, op T) and A' kgen's A (K x M, op N; or
    // M x K, op T).
    // bias: with --epilogue=gelu_bias, n values of C's type, one a row of cuBLAS's C^T (a column of kgen's C).
    Gemm(const Job &j, const void *alpha_, const void *beta_, const void *a_, const void *b_, void *c_, void *w,
         const void *bias, const float *scales_)
        : job(j), alpha(alpha_), beta(beta_), a(a_), b(b_), c(c_), work(w), scales(scales_), work_bytes(j.workspace)
    {
        if (has_ex()) {
            CHECK_BLAS(cublasCreate(&h));
            if (work_bytes)
                CHECK_BLAS(cublasSetWorkspace(h, work, work_bytes));
        }
        if (has_lt())
            make_lt(bias);
    }

    bool has_ex() const { return job.api != LT && !job.relu && !job.gelu_bias && !is_fp8(job.in); }
    bool has_lt() const { return job.api != GEMMEX; }

    cublasOperation_t op_b() const { return job.b_col ? CUBLAS_OP_T : CUBLAS_OP_N; }
    cublasOperation_t op_a() const { return job.a_col ? CUBLAS_OP_T : CUBLAS_OP_N; }
    bool f64() const { return job.in->cuda == CUDA_R_64F; }

    void make_lt(const void *bias)
    {
        const Job &j = job;
        cublasOperation_t ta = op_b(), tb = op_a();
        cublasLtEpilogue_t epi = j.relu        ? CUBLASLT_EPILOGUE_RELU
                                 : j.gelu_bias ? CUBLASLT_EPILOGUE_GELU_BIAS
                                               : CUBLASLT_EPILOGUE_DEFAULT;
        CHECK_BLAS(cublasLtCreate(&lt));
        CHECK_BLAS(cublasLtMatmulDescCreate(&desc, f64() ? CUBLAS_COMPUTE_64F : CUBLAS_COMPUTE_32F,
                                            f64() ? CUDA_R_64F : CUDA_R_32F));
        CHECK_BLAS(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof ta));
        CHECK_BLAS(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof tb));
        CHECK_BLAS(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof epi));
        if (is_fp8(j.in)) { // cuBLAS's A is kgen's B: its scale is B's (256 bytes on, each scale aligned as cudaMalloc's)
            const float *sa = scales + 64, *sb = scales;
            int8_t fast = j.fast_accum;
            CHECK_BLAS(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, &sa, sizeof sa));
            CHECK_BLAS(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, &sb, sizeof sb));
            CHECK_BLAS(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_FAST_ACCUM, &fast, sizeof fast));
        }
        if (j.gelu_bias)
            CHECK_BLAS(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof bias));
        CHECK_BLAS(j.b_col ? cublasLtMatrixLayoutCreate(&la, j.in_b->cuda, j.k, j.n, j.ldb)
                           : cublasLtMatrixLayoutCreate(&la, j.in_b->cuda, j.n, j.k, j.ldb));
        CHECK_BLAS(j.a_col ? cublasLtMatrixLayoutCreate(&lb, j.in->cuda, j.m, j.k, j.lda)
                           : cublasLtMatrixLayoutCreate(&lb, j.in->cuda, j.k, j.m, j.lda));
        CHECK_BLAS(cublasLtMatrixLayoutCreate(&lc, j.out->cuda, j.n, j.m, j.ldc));
        CHECK_BLAS(cublasLtMatmulPreferenceCreate(&pref));
        CHECK_BLAS(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &work_bytes,
                                                        sizeof work_bytes));
        int found = 0;
        int asked = is_fp8(j.in) ? std::max(j.algos, 8) : j.algos; // fp8: room for those that do not run
        algos.resize(asked);
        cublasStatus_t s = cublasLtMatmulAlgoGetHeuristic(lt, desc, la, lb, lc, lc, pref, asked, algos.data(),
                                                          &found);
        if ((s != CUBLAS_STATUS_SUCCESS || found == 0) && job.api == BEST && has_ex()) {
            algos.clear(); // cublasGemmEx alone, then
            return;
        }
        if (s != CUBLAS_STATUS_SUCCESS || found == 0) {
            std::fprintf(stderr, "kgen-cublas: cuBLASLt has no algorithm for %s -> %s, a=%s b=%s, epilogue=%s (%s)\n",
                         j.in->name, j.out->name, j.a_col ? "col" : "row", j.b_col ? "col" : "row",
                         epilogue_name(j), cublasLtGetStatusString(s));
            std::exit(4);
        }
        algos.resize(found);
        // fp8: algorithms cublasLtMatmul refuses at run time (CUBLAS_STATUS_NOT_SUPPORTED) are left out, each
        // said on standard error; the heuristic's first that runs is the user's.  (Other types: none seen.)
        for (size_t i = 0; is_fp8(j.in) && i < algos.size();) {
            cublasStatus_t r = cublasLtMatmul(lt, desc, alpha, b, la, a, lb, beta, c, lc, c, lc, &algos[i].algo, work,
                                              work_bytes, nullptr);
            if (r == CUBLAS_STATUS_SUCCESS) {
                i++;
                continue;
            }
            std::fprintf(stderr, "kgen-cublas: note: cuBLASLt's algorithm %zu does not run here (%s): left out\n", i,
                         cublasLtGetStatusString(r));
            algos.erase(algos.begin() + (long)i);
        }
        if (algos.empty()) {
            std::fprintf(stderr, "kgen-cublas: none of cuBLASLt's %d proposed algorithms runs %s -> %s\n", found,
                         j.in->name, j.out->name);
            std::exit(4);
        }
        if ((int)algos.size() > j.algos)
            algos.resize(j.algos);
        CHECK(cudaDeviceSynchronize());
    }

    void operator()(cudaStream_t stream)
    {
        const Job &j = job;
        if (ex) {
            CHECK_BLAS(cublasSetStream(h, stream));
            CHECK_BLAS(cublasGemmEx(h, op_b(), op_a(), (int)j.n, (int)j.m, (int)j.k, alpha, b, j.in->cuda, (int)j.ldb,
                                    a, j.in->cuda, (int)j.lda, beta, c, j.out->cuda, (int)j.ldc,
                                    f64() ? CUBLAS_COMPUTE_64F : CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
            return;
        }
        CHECK_BLAS(cublasLtMatmul(lt, desc, alpha, b, la, a, lb, beta, c, lc, c, lc, &algos[which].algo, work,
                                  work_bytes, stream));
    }

    ~Gemm()
    {
        if (h)
            cublasDestroy(h);
        if (!lt)
            return;
        cublasLtMatmulPreferenceDestroy(pref);
        cublasLtMatrixLayoutDestroy(lc);
        cublasLtMatrixLayoutDestroy(lb);
        cublasLtMatrixLayoutDestroy(la);
        cublasLtMatmulDescDestroy(desc);
        cublasLtDestroy(lt);
    }
};

static int run(Job &j)
{
    size_t a_elems = span(j.a_col, j.lda, j.m, j.k), b_elems = span(j.b_col, j.ldb, j.k, j.n),
           c_elems = span(false, j.ldc, j.m, j.n);
    void *a, *b, *c, *work = nullptr, *bias = nullptr;
    float *scales = nullptr;
    const float scale_values[2] = { 0.5f, 0.25f };
    CHECK(cudaSetDevice(j.device));
    CHECK(cudaMalloc(&a, a_elems * j.in->size));
    CHECK(cudaMalloc(&b, b_elems * j.in_b->size));
    if (is_fp8(j.in)) { // A's scale, then B's 256 bytes on
        CHECK(cudaMalloc(&scales, 512));
        CHECK(cudaMemcpy(scales, &scale_values[0], 4, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(scales + 64, &scale_values[1], 4, cudaMemcpyHostToDevice));
    }
    CHECK(cudaMalloc(&c, c_elems * j.out->size));
    if (j.workspace)
        CHECK(cudaMalloc(&work, j.workspace));
    if (j.gelu_bias) {
        CHECK(cudaMalloc(&bias, j.n * j.out->size));
        fill_buffer(j.out, bias, j.n, 4);
    }
    fill_buffer(j.in, a, a_elems, 1);
    fill_buffer(j.in_b, b, b_elems, 2);
    fill_buffer(j.out, c, c_elems, 3);
    CHECK(cudaDeviceSynchronize());
    float fa = (float)j.alpha, fb = (float)j.beta;
    bool f64 = j.in->cuda == CUDA_R_64F;
    const void *alpha = f64 ? (const void *)&j.alpha : &fa, *beta = f64 ? (const void *)&j.beta : &fb;
    int rc = 0;
    {
        Gemm g(j, alpha, beta, a, b, c, work, bias, scales);
        // The candidates: cublasGemmEx (-1) where it runs, then each of cuBLASLt's algorithms.
        std::vector<int> cands;
        if (g.has_ex())
            cands.push_back(-1);
        for (int i = 0; g.has_lt() && i < (int)g.algos.size(); i++)
            cands.push_back(i);
        std::vector<unsigned char> ha, hb, hc0;
        if (j.check) {
            ha = to_host(a, a_elems, j.in);
            hb = to_host(b, b_elems, j.in_b);
            hc0 = to_host(c, c_elems, j.out);
        }
        double err = -1;
        float best = -1;
        int best_at = 0;
        for (int cand : cands) {
            g.ex = cand < 0;
            g.which = cand < 0 ? 0 : cand;
            if (j.check) { // each candidate checked on the C it starts from
                CHECK(cudaMemcpy(c, hc0.data(), hc0.size(), cudaMemcpyHostToDevice));
                g(nullptr);
                CHECK(cudaDeviceSynchronize());
                double e = check_error(j, ha, hb, hc0, to_host(c, c_elems, j.out),
                                       j.gelu_bias ? to_host(bias, j.n, j.out) : std::vector<unsigned char>(),
                                       scales ? (double)scale_values[0] * scale_values[1] : 1.0);
                err = std::isnan(e) || err < 0 || e > err ? e : err;
            }
            Timer<Gemm> t(g, j.method);
            float ms = t.median_ms(j.runs);
            if (best < 0 || ms < best)
                best = ms, best_at = cand;
        }
        double tflops = 2.0 * j.m * j.n * j.k / (best * 1e-3) / 1e12;
        std::printf("cublas dtype=%s out=%s m=%llu n=%llu k=%llu a=%s b=%s lda=%llu ldb=%llu ldc=%llu alpha=%.17g "
                    "beta=%.17g epilogue=%s algo=%d algos=%d workspace=%zu api=%s median_ms=%.6f tflops=%.3f "
                    "check=%s maxerr=%.3g%s%s\n",
                    j.in->name, j.out->name, j.m, j.n, j.k, j.a_col ? "col" : "row", j.b_col ? "col" : "row", j.lda,
                    j.ldb, j.ldc, j.alpha, j.beta, epilogue_name(j), best_at < 0 ? 0 : best_at,
                    (int)g.algos.size(), j.workspace, best_at < 0 ? "gemmex" : "lt", best, tflops,
                    !j.check ? "skipped" : err <= 1 ? "ok" : "FAIL", err,
                    j.method == PER_CALL ? "" : " method=", j.method == PER_CALL ? "" : method_names[j.method]);
        if (j.check && !(err <= 1))
            rc = 1;
    }
    CHECK(cudaFree(a));
    CHECK(cudaFree(b));
    CHECK(cudaFree(c));
    if (bias)
        CHECK(cudaFree(bias));
    if (scales)
        CHECK(cudaFree(scales));
    if (work)
        CHECK(cudaFree(work));
    return rc;
}

// ---- the command line ----

static bool number(const char *s, unsigned long long *v)
{
    char *end;
    if (!*s || *s == '-')
        return false;
    *v = std::strtoull(s, &end, 10);
    return !*end;
}

static bool real(const char *s, double *v)
{
    char *end;
    *v = std::strtod(s, &end);
    return *s && !*end && std::isfinite(*v);
}

// Flag `arg` into j; false (having said why) when it is wrong.
static bool flag(const char *arg, Job &j, const char **out_name, const char **b_name)
{
    const char *eq = std::strchr(arg, '=');
    std::string key = eq ? std::string(arg, eq - arg) : std::string(arg);
    const char *v = eq ? eq + 1 : "";
    unsigned long long u;
    if (key == "--out")
        *out_name = v;
    else if (key == "--b-dtype")
        *b_name = v;
    else if (key == "--fast-accum" && !eq)
        j.fast_accum = true;
    else if (key == "--a" || key == "--b") {
        if (std::strcmp(v, "row") && std::strcmp(v, "col")) {
            std::fprintf(stderr, "kgen-cublas: %s is row or col, not %s\n", key.c_str(), v);
            return false;
        }
        (key == "--a" ? j.a_col : j.b_col) = !std::strcmp(v, "col");
    } else if (key == "--lda" || key == "--ldb" || key == "--ldc") {
        if (!number(v, &u) || u > (1ull << 40)) {
            std::fprintf(stderr, "kgen-cublas: %s is a count of elements up to 2^40, not %s\n", key.c_str(), v);
            return false;
        }
        (key == "--lda" ? j.lda : key == "--ldb" ? j.ldb : j.ldc) = u;
    } else if (key == "--alpha" || key == "--beta") {
        if (!real(v, key == "--alpha" ? &j.alpha : &j.beta)) {
            std::fprintf(stderr, "kgen-cublas: %s is a finite number, not %s\n", key.c_str(), v);
            return false;
        }
    } else if (key == "--epilogue") {
        if (std::strcmp(v, "none") && std::strcmp(v, "relu") && std::strcmp(v, "gelu_bias")) {
            std::fprintf(stderr, "kgen-cublas: --epilogue is none, relu or gelu_bias, not %s\n", v);
            return false;
        }
        j.relu = !std::strcmp(v, "relu");
        j.gelu_bias = !std::strcmp(v, "gelu_bias");
    } else if (key == "--api") {
        int k = 0;
        while (k < 3 && std::strcmp(v, api_names[k]))
            k++;
        if (k == 3) {
            std::fprintf(stderr, "kgen-cublas: --api is best, lt or gemmex, not %s\n", v);
            return false;
        }
        j.api = (Api)k;
    } else if (key == "--method") {
        int m = 0;
        while (m < (int)(sizeof method_names / sizeof *method_names) && std::strcmp(v, method_names[m]))
            m++;
        if (m == (int)(sizeof method_names / sizeof *method_names)) {
            std::fprintf(stderr, "kgen-cublas: --method is per-call, events, graph or cold, not %s\n", v);
            return false;
        }
        j.method = (Method)m;
    } else if (key == "--algos" || key == "--device") {
        if (!number(v, &u) || u > 1000 || (key == "--algos" && u < 1)) {
            std::fprintf(stderr, "kgen-cublas: %s is %s, not %s\n", key.c_str(),
                         key == "--algos" ? "from 1 to 1000" : "a device number", v);
            return false;
        }
        (key == "--algos" ? j.algos : j.device) = (int)u;
    } else if (key == "--workspace") {
        if (!number(v, &u)) {
            std::fprintf(stderr, "kgen-cublas: --workspace is a count of bytes, not %s\n", v);
            return false;
        }
        j.workspace = u;
    } else if (key == "--no-check" && !eq)
        j.check = false;
    else {
        std::fprintf(stderr, "kgen-cublas: unknown flag %s (--help lists them)\n", arg);
        return false;
    }
    return true;
}

// The leading dimension given, or the packed one; false (having said why)
// when it is too small for the matrix.
static bool leading(const char *name, unsigned long long *ld, unsigned long long packed, const char *what)
{
    if (!*ld)
        *ld = packed;
    if (*ld < packed) {
        std::fprintf(stderr, "kgen-cublas: %s %llu is less than the %llu elements of %s\n", name, *ld, packed, what);
        return false;
    }
    return true;
}

int main(int argc, char **argv)
{
    Job j;
    const char *out_name = nullptr, *b_name = nullptr;
    int i = 1;
    for (; i < argc && !std::strncmp(argv[i], "--", 2); i++) {
        if (!std::strcmp(argv[i], "--help")) {
            usage(stdout);
            return 0;
        }
        if (!flag(argv[i], j, &out_name, &b_name))
            return 2;
    }
    if (argc - i != 5) {
        usage(stderr);
        return 2;
    }
    unsigned long long runs;
    if (!(j.in = type_of(argv[i]))) {
        std::fprintf(stderr, "kgen-cublas: DTYPE is f32, f64, f16, bf16, e4m3 or e5m2, not %s\n", argv[i]);
        return 2;
    }
    j.in_b = b_name ? type_of(b_name) : j.in;
    if (!j.in_b || (j.in_b != j.in && !(is_fp8(j.in) && is_fp8(j.in_b)))) {
        std::fprintf(stderr, "kgen-cublas: --b-dtype is %s%s, not %s\n", j.in->name, is_fp8(j.in) ? ", e4m3 or e5m2" : "",
                     b_name);
        return 2;
    }
    if (is_fp8(j.in)) {
        j.out = type_of(out_name ? out_name : "bf16");
        if (!j.out || is_fp8(j.out) || j.out->cuda == CUDA_R_64F) {
            std::fprintf(stderr, "kgen-cublas: --out of fp8 is bf16, f16 or f32, not %s\n", out_name);
            return 2;
        }
        if (j.a_col || !j.b_col || j.relu || j.gelu_bias || j.api == GEMMEX) {
            std::fprintf(stderr, "kgen-cublas: fp8 runs on cublasLtMatmul with --a=row --b=col and no epilogue\n");
            return 2;
        }
    } else if (j.fast_accum) {
        std::fprintf(stderr, "kgen-cublas: --fast-accum is fp8's\n");
        return 2;
    }
    j.out = j.out ? j.out : out_name ? type_of(out_name) : j.in;
    if (!j.out || (j.out != j.in && !is_fp8(j.in) && !(j.in->size == 2 && j.out->cuda == CUDA_R_32F))) {
        std::fprintf(stderr, "kgen-cublas: --out is %s%s, not %s\n", j.in->name, j.in->size == 2 ? " or f32" : "",
                     out_name);
        return 2;
    }
    if (!number(argv[i + 1], &j.m) || !number(argv[i + 2], &j.n) || !number(argv[i + 3], &j.k) || !j.m || !j.n ||
        !j.k || j.m > INT32_MAX || j.n > INT32_MAX || j.k > INT32_MAX) {
        std::fprintf(stderr, "kgen-cublas: M, N and K are counts from 1 to 2^31 - 1, not %s %s %s\n", argv[i + 1],
                     argv[i + 2], argv[i + 3]);
        return 2;
    }
    if (!number(argv[i + 4], &runs) || runs < 1 || runs > 100000) {
        std::fprintf(stderr, "kgen-cublas: RUNS is from 1 to 100000, not %s\n", argv[i + 4]);
        return 2;
    }
    j.runs = (int)runs;
    if (!leading("--lda", &j.lda, j.a_col ? j.m : j.k, j.a_col ? "a column of A" : "a row of A") ||
        !leading("--ldb", &j.ldb, j.b_col ? j.k : j.n, j.b_col ? "a column of B" : "a row of B") ||
        !leading("--ldc", &j.ldc, j.n, "a row of C"))
        return 2;
    if (j.api == GEMMEX && (j.relu || j.gelu_bias)) {
        std::fprintf(stderr, "kgen-cublas: --api=gemmex has no epilogue (%s is cuBLASLt's): --api=lt or best\n",
                     epilogue_name(j));
        return 2;
    }
    if (j.api != LT && std::max({ j.lda, j.ldb, j.ldc }) > INT32_MAX) {
        if (j.api == GEMMEX) {
            std::fprintf(stderr, "kgen-cublas: --api=gemmex takes leading dimensions up to 2^31 - 1\n");
            return 2;
        }
        j.api = LT; // cublasGemmEx's leading dimensions are ints
    }
    return run(j);
}
