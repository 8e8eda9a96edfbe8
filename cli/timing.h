/* timing.h - timing, the read probe and the CUB and cuBLAS peers of `kgen run --bench` (timing.c). */
#ifndef KGEN_TIMING_H
#define KGEN_TIMING_H

#include <signal.h>
#include "runtime/runtime.h"

/* The signals that stop kgen run (SIGINT, SIGTERM and SIGHUP: cli/run.c's
 * handler), which the peers' helpers run with blocked (kgen_stop_set: them
 * into *set, emptied first). */
enum { KGEN_STOP_SIGNALS = 3 };
extern const int kgen_stop_signals[KGEN_STOP_SIGNALS];
void kgen_stop_set(sigset_t *set);

/* The read-bandwidth probe of templates/bench/stream.cu, compiled once. */
struct probe {
	CUmodule module;
	CUfunction fn;
	CUdeviceptr sink;
};

/* What kgen_time_calls() times: call i of fn on `stream` (NULL: the
 * default stream), its i counting on across warm-up and samples (per-call
 * counts its samples from 0 again, as it always has) so that callers can
 * rotate among copies of their input; a graph's calls are captured, not run,
 * and its replays repeat their buffers. */
typedef kgen_status (*kgen_timed_fn)(void *arg, int i, CUstream stream, kgen_error *err);

/* How kgen_time_calls() times (bench/README.md says when to use which):
 *   per-call  R samples, each one call alone between two events on the
 *             default stream, after 3 warm-up calls (kgen_median_ms)
 *   events    7 samples, each a batch of calls back to back between two
 *             events, the batch doubled from R until it lasts 0.2 ms
 *             (at most 4096 calls)
 *   graph     that batch captured once in a CUDA graph on a stream of its
 *             own (after the warm-up, so that scratch exists), 7 replays
 *   cold      R samples, each one call after writing twice the L2 */
#define KGEN_TIMING_METHODS(X) \
	X(PER_CALL, "per-call") X(EVENTS, "events") X(GRAPH, "graph") X(COLD, "cold")
#define X(id, name) KGEN_TIME_##id,
enum kgen_timing_method { KGEN_TIMING_METHODS(X) KGEN_TIME_COUNT };
#undef X

/* The method named name, or -1. */
int kgen_timing_method_parse(const char *name);
const char *kgen_timing_method_name(enum kgen_timing_method m);

/* Milliseconds per call: the median, least and most of the samples, each
 * of `batch` calls. */
struct kgen_timing {
	float median_ms, min_ms, max_ms;
	int samples, batch;
};

/* Time fn with method m (see above); R is runs, at least 1.  The median of
 * per-call is its upper middle sample, as it always was, so that results
 * stay comparable; the others' is the true median.  Everything it creates
 * (events, stream, graph, flush buffer) is gone when it returns. */
kgen_status kgen_time_calls(kgen_context *ctx, enum kgen_timing_method m, kgen_timed_fn fn, void *arg, int runs,
                            struct kgen_timing *t, kgen_error *err);

/* Keep the GPU busy for about 0.2 s of copies, the first time a process
 * calls it (later calls return at once): timings then start at full clocks. */
kgen_status kgen_gpu_warm_once(kgen_context *ctx, kgen_error *err);

/* Compile and load the probe once. */
kgen_status kgen_probe_load(kgen_context *ctx, struct probe *p, kgen_error *err);

/* The median milliseconds of `runs` timed calls of fn, after 3 warm-up calls,
 * each between two CUDA events on the default stream (kgen_time_calls'
 * per-call). */
kgen_status kgen_median_ms(kgen_context *ctx, kgen_timed_fn fn, void *arg, int runs, float *ms, kgen_error *err);

/* A device-to-device copy of `bytes` (cuMemcpyDtoDAsync), timed twice; the
 * later median is kept (a first timing can read up to 11% low). */
kgen_status kgen_copy_ms(kgen_context *ctx, CUdeviceptr dst, CUdeviceptr src, size_t bytes, int runs, float *ms,
                         kgen_error *err);
/* The same, between two buffers of its own of `bytes` each (allocated,
 * timed, freed). */
kgen_status kgen_copy_apart_ms(kgen_context *ctx, size_t bytes, int runs, float *ms, kgen_error *err);

/* The read probe over `bytes` at in (4 blocks of 512 per SM). */
kgen_status kgen_probe_ms(kgen_context *ctx, struct probe *p, CUdeviceptr in, size_t bytes, int runs, float *ms,
                          kgen_error *err);

/* cub::DeviceReduce's median milliseconds for the spec's op and dtype at n,
 * timed with method m as kgen_time_calls() times kgen's kernels, through the
 * kgen-cub helper (`given`, else $KGEN_CUB, beside kgen, or installed), each
 * (method, op, dtype, n) measured once per process; -1 without it.
 * CUB is timed with 32-bit offsets (an int count) and 64-bit ones while n <
 * 2^31 and the faster is returned, its width in *offsets (may be NULL). */
double kgen_cub_ms(const char *given, enum kgen_timing_method m, int runs, const struct kgen_spec *s,
                   unsigned long long n, size_t l2, int *offsets);

/* cub::DeviceScan's median milliseconds for a kernel: scan spec's mode, op,
 * dtype and output type at n (kgen-cub's scan form: InclusiveSum or
 * ExclusiveSum for sum, InclusiveScan or ExclusiveScan for min and max,
 * from one input into one output, as kgen run times a scan), timed with
 * method m, the faster of CUB's 32- and 64-bit offsets while n < 2^31 (its
 * width in *offsets, which may be NULL; 0 without a time), once per
 * process; -1 without kgen-cub, for a scan it has not (an op other than
 * sum, min and max; types other than i32 or u32 into themselves or i64,
 * f32 into f32 or f64, i64 and f64 into themselves, f16 and bf16 into f32
 * or themselves, accumulated in the output's type, f32 for f16 and bf16),
 * or when its check of CUB's result fails (it says so on standard error). */
double kgen_cub_scan_ms(const char *given, enum kgen_timing_method m, int runs, const struct kgen_spec *s,
                        unsigned long long n, size_t l2, int *offsets);

/* The median milliseconds kgen-cub prints for an argument list (e.g.
 * "segmented sum f32 ROWS COLS RUNS L2"), once per process; -1 without it.
 * *offsets (when not NULL) gets the offsets width it names, 32 or 64, or 0. */
double kgen_cub_call(const char *given, const char *args, int *offsets);

/* What kgen-cublas (bench/matmul/cublas_gemm.cu, `kgen-cublas --help`) times:
 * cuBLASLt's C = alpha*A*B + beta*C with kgen's conventions: C row-major
 * m x n with row pitch ldc; A (m x k) and B (k x n) each "row" (element
 * (i,j) at i*ld + j) or "col" (at j*ld + i); leading dimensions in
 * elements, 0 for packed.  Fill it with designated initialisers; what is
 * left out is the default. */
struct kgen_cublas_job {
	unsigned long long m, n, k;
	const char *dtype;                 /* f32 (FP32 compute, no TF32), f64, f16 or bf16 (f32 accumulate); e4m3
	                                    * or e5m2 (cublasLtMatmul alone, per-tensor scales, A row-major and B
	                                    * column-major) */
	const char *b_dtype;               /* fp8: B's type where it differs (NULL: dtype) */
	const char *out_dtype;             /* C's type: NULL or dtype, or f32 for f16 and bf16; fp8: bf16 (NULL),
	                                    * f16 or f32 */
	int fast_accum;                    /* fp8: CUBLASLT_MATMUL_DESC_FAST_ACCUM (fp8_accum: fast) */
	const char *a_layout, *b_layout;   /* "row" (NULL too) or "col" */
	unsigned long long lda, ldb, ldc;  /* 0: packed */
	double alpha, beta;                /* set alpha: 0 is a real 0 here */
	int relu;                          /* cuBLASLt's fused epilogue, C = max(alpha*A*B + beta*C, 0) */
	int gelu_bias;                     /* or CUBLASLT_EPILOGUE_GELU_BIAS: C = gelu(alpha*A*B + beta*C + bias), the
	                                    * helper's own bias of n values of C's type, one a column of C */
	int runs;                          /* R, as kgen_time_calls takes it */
	int device;                        /* the CUDA device's ordinal */
	enum kgen_timing_method method;    /* timed as kgen_time_calls times kgen's kernels */
	int algos;                         /* 0 or 1: the heuristic's first algorithm (what a user gets); N:
	                                    * the fastest of its first N */
};

/* What it measured: the median milliseconds per call, TFLOPS (2mnk / time),
 * the largest error of its 64 sampled elements over their bound (below 1
 * passes) and the rank of the algorithm timed; -1 where not known.  The
 * helper times cublasGemmEx and cublasLtMatmul (only the latter with an
 * epilogue) and reports the faster; api names it. */
struct kgen_cublas_result {
	double median_ms, tflops, maxerr;
	int algo;
	char api[8];  /* the faster entry point, "gemmex" or "lt"; "" where the helper did not say */
};

/* Time the job with kgen-cublas (`given`, "" for none, else $KGEN_CUBLAS,
 * beside kgen, or installed in pkglibexecdir), started with an argument
 * vector (no shell), once per process per job: a second call returns the
 * first's result or error.  Errors as values: KGEN_EINVAL for a job it
 * refuses (before starting anything), KGEN_EIO without the helper,
 * KGEN_EVERIFY when cuBLAS's result fails the helper's check, KGEN_ECUDA
 * when CUDA or cuBLAS fails or has no algorithm for the job (err's message
 * is the helper's own); *r is then -1s, but for KGEN_EVERIFY, where it
 * holds what the helper measured. */
kgen_status kgen_cublas_time(const char *given, const struct kgen_cublas_job *job, struct kgen_cublas_result *r,
                             kgen_error *err);

#endif
