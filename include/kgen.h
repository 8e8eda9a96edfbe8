/*
 * kgen.h - turn a YAML kernel spec into CUDA C, compile it with NVRTC and run it.
 *
 * Every function that returns a kgen_status (but kgen_spec_dump(), which
 * takes none) fills, on failure, the caller's
 * kgen_error (when the pointer is not NULL) with what went wrong and, for
 * spec errors, where: file, line and column; the accessors return a value
 * (NULL or 0 for a NULL object).  The library never prints and never
 * exits; kgen_error_print() formats an error when the caller asks.
 * Strings and buffers it hands back through a char ** or void ** are
 * malloc()ed: free() them; a const char * returned belongs to the library
 * or to the object asked, and is not freed.
 */
#ifndef KGEN_H
#define KGEN_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define KGEN_VERSION "0.1.0"

#if defined(__GNUC__)
#define KGEN_API __attribute__((visibility("default")))
#else
#define KGEN_API
#endif

typedef enum kgen_status {
	KGEN_OK = 0,
	KGEN_ESPEC,     /* the spec is wrong: YAML syntax, unknown key, bad value, impossible combination */
	KGEN_EIO,       /* a file could not be read or written */
	KGEN_ECOMPILE,  /* NVRTC rejected the generated source (the log says why) */
	KGEN_ECUDA,     /* the CUDA driver is missing or failed */
	KGEN_EINVAL,    /* a bad argument to an API function */
	KGEN_ENOMEM,    /* out of host memory */
	KGEN_EVERIFY,   /* a kernel's result differs from the CPU reference */
	KGEN_EINTERNAL  /* a bug in kgen itself */
} kgen_status;

/* What went wrong, and where.  line and column are 1-based; 0 when the error
 * is not about a place in a spec. */
typedef struct kgen_error {
	kgen_status status;
	char file[256];          /* spec file name, "<stdin>" or the name given to a string */
	int line, column;
	char message[1024];
	char source_line[256];   /* the spec's text on that line, for a caret */
} kgen_error;

/* Print "file:line:column: error: message", the source line and a caret
 * under the column (or "kgen: error: message" when there is no place). */
KGEN_API void kgen_error_print(const kgen_error *err, FILE *fp);

/* The name of a status, e.g. "KGEN_ESPEC". */
KGEN_API const char *kgen_status_name(kgen_status status);

/* The library's version, e.g. "0.1.0". */
KGEN_API const char *kgen_version(void);

/* ---- Specs ---- */

typedef struct kgen_spec kgen_spec;

/* Load and validate a spec from a file ("-" reads standard input). */
KGEN_API kgen_status kgen_spec_load_file(const char *path, kgen_spec **spec, kgen_error *err);

/* Load and validate a spec from YAML text; name is used in error messages. */
KGEN_API kgen_status kgen_spec_load_string(const char *yaml, size_t len, const char *name,
                                  kgen_spec **spec, kgen_error *err);

/* Set one field as if the spec had said "key: value", then validate again.
 * A NULL or empty value unsets the key (as if the spec did not write it,
 * so that it takes its default; `kernel` cannot be unset).  On failure the
 * spec is left as it was. */
KGEN_API kgen_status kgen_spec_set(kgen_spec *spec, const char *key, const char *value, kgen_error *err);

/* Set several fields at once, then validate once (so that fields that
 * must change together can).  On failure the spec is left as it was. */
KGEN_API kgen_status kgen_spec_set_many(kgen_spec *spec, int n, const char *const *keys, const char *const *values,
                                        kgen_error *err);

/* The first problem this process met with the disk cache, or NULL: a
 * cache directory kgen refuses (another user's, or writable by others) is
 * not used, and every build compiles; the builds succeed, and this says
 * why they were slow.  Set once per process; the text stays valid. */
KGEN_API const char *kgen_cache_problem(void);

/* Whether the spec's kernels can be built for arch ("sm_80"): KGEN_ESPEC at
 * the key that needs a newer GPU (method: tma needs sm_90, warp_tail:
 * reduce_sync sm_80), KGEN_EINVAL for an arch that is not sm_NN, sm_NNa or
 * compute_NN, else KGEN_OK.  kgen_kernel_build() and `kgen compile`
 * check it before NVRTC. */
KGEN_API kgen_status kgen_spec_check_arch(const kgen_spec *spec, const char *arch, kgen_error *err);

/* The architecture to compile the spec for when arch is asked for, as
 * kgen_kernel_build() and `kgen compile` choose it: arch itself, or buf
 * (size bytes) holding its arch-specific form where the spec needs one
 * (math: wgmma on sm_90 compiles for sm_90a); NULL for a NULL spec or arch,
 * or where that form is needed and buf cannot hold it.  An architecture
 * the spec cannot run on comes back as itself (kgen_spec_check_arch() says
 * why). */
KGEN_API const char *kgen_spec_compile_arch(const kgen_spec *spec, const char *arch, char *buf, size_t size);

/* Every field of the spec, defaults resolved, as YAML: one "key: value" a
 * line, into *yaml (the caller frees it).  The one kgen_status function
 * without a kgen_error: KGEN_EINVAL for a NULL spec or yaml, KGEN_ENOMEM
 * out of memory, and nothing else can fail. */
KGEN_API kgen_status kgen_spec_dump(const kgen_spec *spec, char **yaml);

/* One field's value as text (defaults resolved); NULL for a key the spec's
 * family does not have (or a NULL spec, key or buf). */
KGEN_API const char *kgen_spec_get(const kgen_spec *spec, const char *key, char *buf, size_t size);

/* The file or name the spec was loaded from (NULL for a NULL spec). */
KGEN_API const char *kgen_spec_source(const kgen_spec *spec);

KGEN_API void kgen_spec_free(kgen_spec *spec);

/* A copy of the spec, its own to set and free (kgen_spec_free()): e.g. of
 * a plan's entry (kgen_plan_spec()) or a kernel's (kgen_kernel_spec()),
 * which belong to their plan or kernel.  Errors keep the original's file
 * name and, where it had its text, its source lines. */
KGEN_API kgen_status kgen_spec_copy(const kgen_spec *spec, kgen_spec **copy, kgen_error *err);

/* ---- Size plans ----
 *
 * A plan names, for each range of n, the spec whose kernel serves it, so
 * that one call takes the fastest kernel at every size.  It is a YAML file
 * (specs/plans/nvidia-h200/ has the H200's tuned ones; `kgen tune` writes them):
 *
 *   plan:
 *     - upto: 2^14          # n <= 16384 (suffixes k, M, G; 2^K; 2^K+E)
 *       spec:
 *         kernel: reduce
 *         threads: 1024
 *     - spec:               # the last entry: every larger n
 *         kernel: reduce
 *
 * Entries rise by n; every spec is a `kernel: reduce` spec of one op, one
 * set of types, nan and expressions.  Errors point at the plan's lines.
 *
 * A `kernel: matmul` plan picks by shape: each entry but the last bounds
 * any of m, n and k (m_upto: 128, n_upto: 2048, k_upto: ...), and a call
 * takes the first entry whose bounds hold (the last: every other shape). */

#define KGEN_PLAN_MAX 16  /* entries of a plan, at most */

typedef struct kgen_plan kgen_plan;

/* Load and validate a plan from a file, or from YAML text (name is used in
 * error messages). */
KGEN_API kgen_status kgen_plan_load_file(const char *path, kgen_plan **plan, kgen_error *err);
KGEN_API kgen_status kgen_plan_load_string(const char *yaml, size_t len, const char *name, kgen_plan **plan,
                                           kgen_error *err);

/* The number of entries; entry i's spec (owned by the plan) and, in *upto
 * (may be NULL), the largest n it serves (~0ull for the last); the entry
 * that serves n. */
KGEN_API int kgen_plan_count(const kgen_plan *plan);
KGEN_API const kgen_spec *kgen_plan_spec(const kgen_plan *plan, int i, unsigned long long *upto);
KGEN_API int kgen_plan_pick(const kgen_plan *plan, unsigned long long n);
/* A matmul plan's: entry i's bounds (m_upto, n_upto, k_upto; ~0ull where
 * unbounded) into upto (may be NULL), 1 where the plan picks by shape (0
 * for a plan by n); the first entry whose bounds m, n and k are within. */
KGEN_API int kgen_plan_shape(const kgen_plan *plan, int i, unsigned long long upto[3]);
KGEN_API int kgen_plan_pick_shape(const kgen_plan *plan, unsigned long long m, unsigned long long n,
                                  unsigned long long k);

KGEN_API void kgen_plan_free(kgen_plan *plan);

/* The plans kgen ships, tuned on one GPU model each: DIR/nvidia-<model>/
 * OP-DTYPE.yaml, DIR being dir, or where dir is NULL or "" $KGEN_PLANS_DIR
 * when set, else where make install put them, $(pkgdatadir)/plans
 * (kgen_plans_dir() says which; in the source tree they are specs/plans,
 * which KGEN_PLANS_DIR must name).
 * The model is the first word of the GPU's name with a digit in it, words
 * cut at spaces and '-' ("NVIDIA H100 80GB HBM3": nvidia-h100/), and a plan
 * serves it only when its header names a GPU of that model.  Into path, the
 * plan for op and dtype ("sum", "f32") on the GPU named gpu
 * (kgen_context_device_name()), or "" where there is none: another GPU
 * model, or an op or dtype not tuned there, whose full reductions take the
 * default spec.  KGEN_EINVAL for a NULL argument, an op or dtype of other
 * characters than letters, digits and '_', or a path longer than size. */
KGEN_API const char *kgen_plans_dir(void);
KGEN_API kgen_status kgen_plan_shipped_path(const char *dir, const char *gpu, const char *op, const char *dtype,
                                            char *path, size_t size, kgen_error *err);

/* ---- Generation and compilation ---- */

/* The CUDA C source for a spec: self-contained, deterministic. */
KGEN_API kgen_status kgen_generate(const kgen_spec *spec, char **source, kgen_error *err);

typedef enum kgen_image { KGEN_IMAGE_CUBIN, KGEN_IMAGE_PTX } kgen_image;

/* Compile CUDA source with NVRTC for arch (e.g. "sm_90"), with the options
 * kgen's generated files take (--minimal among them: no texture, surface or
 * device-runtime functions).  On success *image holds the cubin or the
 * NUL-terminated PTX and *size its length.  *log, when log is not NULL,
 * receives NVRTC's program log (possibly empty; the caller frees it) once
 * NVRTC has run, on success and on failure; NULL where the call failed
 * before (a NULL argument, an unknown or unsupported arch, bad
 * KGEN_NVRTC_OPTIONS: err says which). */
KGEN_API kgen_status kgen_compile(const char *source, const char *name, const char *arch, kgen_image kind,
                         void **image, size_t *size, char **log, kgen_error *err);

/* ---- Running kernels (libcuda.so.1 is loaded at run time) ----
 *
 * A context is one GPU, through its primary context, so device pointers
 * from the CUDA runtime (cudaMalloc) and from the driver API both work.
 * Kernels are built once: the context keeps every kernel it built
 * (in-process cache, keyed by the spec's fields), and compiled binaries are
 * kept on disk (in $KGEN_CACHE_DIR, default $XDG_CACHE_HOME/kgen; KGEN_CACHE=0
 * turns the disk cache off).  A context may be used from several threads;
 * launches of one kernel with library-owned scratch must not overlap.  A
 * kernel's own scratch grows at least twofold when a call needs more, and
 * the buffer it outgrew is kept until the context is destroyed, so a CUDA
 * graph captured with it stays valid.
 */

typedef struct kgen_context kgen_context;
typedef struct kgen_kernel kgen_kernel;
typedef unsigned long long kgen_devptr;  /* a device address (CUdeviceptr) */
typedef void *kgen_stream;               /* a CUstream or cudaStream_t; NULL is the default stream */

/* Open GPU number `device` (0 is the first). */
KGEN_API kgen_status kgen_context_create(int device, kgen_context **ctx, kgen_error *err);

/* Free every kernel, module and library-owned scratch of the context. */
KGEN_API void kgen_context_destroy(kgen_context *ctx);

/* The GPU's name, compute capability ("sm_90"), multiprocessor count and L2
 * bytes (NULL or 0 for a NULL context). */
KGEN_API const char *kgen_context_device_name(const kgen_context *ctx);
KGEN_API const char *kgen_context_arch(const kgen_context *ctx);
KGEN_API int kgen_context_sm_count(const kgen_context *ctx);
KGEN_API size_t kgen_context_l2_bytes(const kgen_context *ctx);

/* Build (or find already built) the kernels of a spec, compiled for the
 * context's GPU (sm_90 on Hopper).  The kernel belongs to the context and
 * stays valid until kgen_context_destroy().
 *
 * A spec of alternative kernels, one chosen per launch by the shape
 * (strategy: auto of the rows and reduce_axis families, up to 17 kernels),
 * is built lazily: the build generates each kernel's source, and a kernel
 * is compiled (or read from the disk cache) and loaded the first time a
 * launch chooses it, so that a first call costs one kernel's compile, not
 * all of them.  kgen_kernel_prepare() builds them all at once; so does
 * every build when $KGEN_JIT_LAZY is 0. */
KGEN_API kgen_status kgen_kernel_build(kgen_context *ctx, const kgen_spec *spec, kgen_kernel **kernel,
                                       kgen_error *err);

/* Build every kernel of a lazily built kernel (or of each entry of a size
 * plan's) not built yet, side by side on the CPUs ($KGEN_JIT_THREADS),
 * e.g. before capturing launches into a CUDA graph, or to pay for the JIT
 * up front; for any other kernel, nothing.  Thread-safe with launches. */
KGEN_API kgen_status kgen_kernel_prepare(kgen_kernel *kernel, kgen_error *err);

/* Build the kernels of every entry of a plan (on as many threads as there
 * are entries and online CPUs; the error, if any, the first failed
 * entry's), as one kernel: kgen_reduce(),
 * kgen_reduce_arg() and kgen_reduce_scratch_size() take the entry that
 * serves their n (scratch given by the caller must hold what that entry
 * needs), and kgen_kernel_spec() is the first entry's spec.  The plan may be
 * freed after the call; the kernel stays valid until kgen_context_destroy(). */
KGEN_API kgen_status kgen_kernel_build_plan(kgen_context *ctx, const kgen_plan *plan, kgen_kernel **kernel,
                                            kgen_error *err);

/* The kernel a plan's kernel launches for n (the kernel itself when it is
 * not a plan's), e.g. to ask for its spec. */
KGEN_API kgen_kernel *kgen_kernel_for_n(kgen_kernel *kernel, unsigned long long n);
/* The kernel a matmul plan's kernel launches for C = A B of m x n x k (the
 * kernel itself when it is not a plan's by shape); kgen_matmul() and
 * kgen_matmul_scratch_size() take a plan's kernel and ask this. */
KGEN_API kgen_kernel *kgen_kernel_for_shape(kgen_kernel *kernel, unsigned long long m, unsigned long long n,
                                            unsigned long long k);

/* The same from YAML text (the spec is loaded, validated and freed).  The
 * context keeps each text it built: the same text again returns the same
 * kernel without parsing (a hash and a compare of the text, well under a
 * microsecond); text that differs at all is parsed, and a spec equal to an
 * earlier one still finds its kernel. */
KGEN_API kgen_status kgen_kernel_build_yaml(kgen_context *ctx, const char *yaml, kgen_kernel **kernel,
                                            kgen_error *err);

/* Bytes of scratch memory kgen_reduce() needs for n elements (0 for one-pass
 * atomic specs).  Scratch supplied by the caller must be zero-filled before
 * its first use with this kernel; every launch leaves it ready for the next. */
KGEN_API kgen_status kgen_reduce_scratch_size(const kgen_kernel *kernel, unsigned long long n, size_t *bytes,
                                              kgen_error *err);

/* Reduce n elements at device address `in` into one value at device address
 * `out` (of the spec's out_dtype, which is acc_dtype unless the op says
 * otherwise), on `stream`.  Every stage the spec needs
 * (setting *out to the identity, the second pass, the last-block combine) is
 * launched here, asynchronously.  scratch == 0 lets the kernel allocate and
 * keep its own scratch (then launches must not overlap); otherwise scratch
 * must hold kgen_reduce_scratch_size() bytes.  `in` may start at any
 * element (aligned to its element size): the kernel takes the elements
 * before the first load_width boundary one at a time; n = 0 writes the
 * identity. */
KGEN_API kgen_status kgen_reduce(kgen_kernel *kernel, kgen_devptr in, unsigned long long n, kgen_devptr out,
                                 kgen_devptr scratch, size_t scratch_bytes, kgen_stream stream, kgen_error *err);

/* kgen_reduce() for op: argmin and argmax, which write the value (of the
 * spec's acc_dtype) to `value` and its index (an int64_t) to `index`: the
 * lowest index of the minimum or maximum; -1 for n = 0 (or, with nan:
 * ignore, no number).  The plain call refuses these ops, and this one the
 * others. */
KGEN_API kgen_status kgen_reduce_arg(kgen_kernel *kernel, kgen_devptr in, unsigned long long n, kgen_devptr value,
                                     kgen_devptr index, kgen_devptr scratch, size_t scratch_bytes, kgen_stream stream,
                                     kgen_error *err);

/* kernel: scan: bytes of scratch kgen_scan() needs for n elements (0 for
 * strategy: block and for n of one tile).  Scratch supplied by the caller
 * must be zero-filled before its first use; every launch leaves it ready
 * for the next (each launch counts itself in its header on the device, a
 * CUDA graph's replays included). */
KGEN_API kgen_status kgen_scan_scratch_size(const kgen_kernel *kernel, unsigned long long n, size_t *bytes,
                                            kgen_error *err);

/* kernel: scan: out[i] = in[0] op ... op in[i] (mode: inclusive), or in[0]
 * op ... op in[i - 1] with out[0] the op's identity (mode: exclusive), for
 * n elements at device address `in` (dtype) into `out` (out_dtype, which is
 * acc_dtype unless the spec says otherwise), on `stream`.  out may be in
 * itself (one element size) but no other part of it.  scratch == 0 lets
 * the kernel allocate and keep its own scratch (then launches must not
 * overlap); otherwise scratch must hold kgen_scan_scratch_size() bytes and
 * be used by one launch at a time.  Floats come out the same run after run
 * (the combination order is fixed by the tiling); n = 0 launches nothing. */
KGEN_API kgen_status kgen_scan(kgen_kernel *kernel, kgen_devptr in, kgen_devptr out, unsigned long long n,
                               kgen_devptr scratch, size_t scratch_bytes, kgen_stream stream, kgen_error *err);

/* kernel: scan along the rows of a matrix: each of `rows` rows of `cols`
 * elements scanned as kgen_scan() scans a vector, in one launch (one per
 * 65535 rows); a row of in starts in_pitch elements after the last, a row
 * of out out_pitch after (0: cols).  out may be in (one element size and
 * pitch) but no other part of it.  Scratch as kgen_scan()'s, of
 * kgen_scan_rows_scratch_size() bytes: one header word, then the status
 * words of the rows of a launch.  One scratch serves calls of any rows and
 * length (the header counts every launch on it). */
KGEN_API kgen_status kgen_scan_rows(kgen_kernel *kernel, kgen_devptr in, kgen_devptr out, unsigned long long rows,
                                    unsigned long long cols, unsigned long long in_pitch, unsigned long long out_pitch,
                                    kgen_devptr scratch, size_t scratch_bytes, kgen_stream stream, kgen_error *err);
KGEN_API kgen_status kgen_scan_rows_scratch_size(const kgen_kernel *kernel, unsigned long long rows,
                                                 unsigned long long cols, size_t *bytes, kgen_error *err);

/* kernel: scan, axis: cols: down each column of a rows x cols matrix,
 * out[r][c] = in[0][c] op ... op in[r][c] (mode: exclusive: to in[r - 1][c],
 * out[0][c] the identity), in one launch (a block a tile of rows of a band
 * of columns); a row of in starts in_pitch elements after the last, a row
 * of out out_pitch after (0: cols).  out may be in (one element size and
 * pitch) but no other part of it.  Scratch as kgen_scan()'s, of
 * kgen_scan_cols_scratch_size() bytes.  The kernel must be of axis: cols
 * (kgen_scan() and kgen_scan_rows() refuse it, this call the others). */
KGEN_API kgen_status kgen_scan_cols(kgen_kernel *kernel, kgen_devptr in, kgen_devptr out, unsigned long long rows,
                                    unsigned long long cols, unsigned long long in_pitch, unsigned long long out_pitch,
                                    kgen_devptr scratch, size_t scratch_bytes, kgen_stream stream, kgen_error *err);
KGEN_API kgen_status kgen_scan_cols_scratch_size(const kgen_kernel *kernel, unsigned long long rows,
                                                 unsigned long long cols, size_t *bytes, kgen_error *err);

/* kernel: rows: one call's operands.  Device addresses, 0 where the op
 * reads or writes none; pitches in elements (0: cols). */
struct kgen_rows_args {
	kgen_devptr x;             /* rows x cols of dtype, rows x_pitch elements apart */
	kgen_devptr y;             /* softmax, log_softmax, rms_norm, layer_norm: rows x cols of out_dtype,
	                            * y_pitch apart; may be x (same pitch and element size) */
	kgen_devptr weight;        /* rms_norm, layer_norm: cols of weight_dtype, or 0 (ones) */
	kgen_devptr bias;          /* layer_norm: cols of weight_dtype, or 0 (zeros) */
	kgen_devptr labels;        /* cross_entropy: rows class indices of label_dtype */
	kgen_devptr loss;          /* cross_entropy: rows losses of out_dtype (0 where the label is
	                            * ignore_index, NaN where it is outside 0..cols-1) */
	kgen_devptr lse;           /* cross_entropy: rows floats, each row's log-sum-exp, or 0 */
	unsigned long long rows, cols;
	unsigned long long x_pitch, y_pitch;
	double eps;                /* rms_norm, layer_norm: added to the mean square or the variance */
	long long ignore_index;    /* cross_entropy: the label of rows without a loss (torch's -100) */
};

/* The spec's op on each of a->rows rows of a->x (softmax, log_softmax,
 * rms_norm, layer_norm into a->y; cross_entropy into a->loss), on stream:
 * the kernel of the spec's strategy, or for strategy: auto the one its
 * contract gives rows of a->cols elements.  Refused with KGEN_EINVAL
 * before any launch: a NULL array the op needs or one it does not take,
 * a pitch below cols, an array not aligned to its element size, outputs
 * that overlap the inputs (y == x in place is allowed), rows longer than
 * the spec's kernel holds.  No rows (or no columns) launch nothing. */
KGEN_API kgen_status kgen_rows(kgen_kernel *kernel, const struct kgen_rows_args *args, kgen_stream stream,
                               kgen_error *err);

/* Bytes of scratch kgen_matmul() needs for m x n x k: 0 unless split_k > 1 or schedule: stream_k (where the
 * launch shares tiles out, which depends on the GPU it runs on) needs a workspace. */
KGEN_API kgen_status kgen_matmul_scratch_size(const kgen_kernel *kernel, unsigned long long m, unsigned long long n,
                                              unsigned long long k, size_t *bytes, kgen_error *err);

/* C = alpha * A B + beta * C, then the spec's epilogue; C row-major m x n with row pitch ldc (elements);
 * A m x k, B k x n, each row- or column-major as the spec's a_layout/b_layout say, with leading
 * dimension lda/ldb in elements (0 = packed).  Bad sizes, leading dimensions, alignment or overlap of C
 * with A or B are refused with KGEN_EINVAL before any launch. */
KGEN_API kgen_status kgen_matmul(kgen_kernel *kernel, kgen_devptr a, kgen_devptr b, kgen_devptr c,
                                 unsigned long long m, unsigned long long n, unsigned long long k,
                                 unsigned long long lda, unsigned long long ldb, unsigned long long ldc,
                                 double alpha, double beta, kgen_devptr scratch, size_t scratch_bytes,
                                 kgen_stream stream, kgen_error *err);

/* The epilogue's operands and auxiliary output of a kgen_matmul_with() call: each one the spec declares
 * is given (its elements of the spec's bias_dtype, residual_dtype or C's type, aligned to them), the
 * others are 0. */
/* The reductions of a matmul's stored values (keys row_reduce and col_reduce), as the slots of
 * struct kgen_matmul_operands' row_reduce[] and col_reduce[]. */
enum kgen_matmul_reduction {
	KGEN_MATMUL_SUM,     /* the sum of the values */
	KGEN_MATMUL_SUMSQ,   /* the sum of their squares */
	KGEN_MATMUL_MAX,     /* the largest (NaN if any is NaN) */
	KGEN_MATMUL_MIN,     /* the smallest (NaN if any is NaN) */
	KGEN_MATMUL_ABSMAX,  /* the largest magnitude (NaN if any is NaN) */
	KGEN_MATMUL_LOGSUMEXP, /* log(sum(exp(x))), without overflow (a softmax's: softmax(x) = exp(x - logsumexp));
	                        * -inf for a line of -inf values, +inf if any is +inf, NaN if any is NaN */
	KGEN_MATMUL_REDUCTIONS
};

struct kgen_matmul_operands {
	kgen_devptr bias;          /* bias: col, n values (bias[col]); bias: row, m values (bias[row]) */
	kgen_devptr residual;      /* residual: matrix, m x n row-major: residual[row * ldr + col]; may be c itself
	                            * (same pitch and type): each element's old value is read, by the thread that
	                            * writes it, before it is written (a tile's edge may read other elements of C
	                            * too, whose values it does not use) */
	unsigned long long ldr;    /* the residual's row pitch in elements, at least n (0 = n) */
	kgen_devptr aux;           /* aux: (an expression) the auxiliary output, m x n row-major of C's type, written:
	                            * aux[row * ldaux + col] */
	unsigned long long ldaux;  /* its row pitch in elements, at least n (0 = n) */
	/* row_reduce: for each reduction the spec names, a vector of m values of the accumulator type (f32;
	 * f64 with acc_dtype f64) at row_reduce[KGEN_MATMUL_SUM], ..., written: each row's reduction of the
	 * values stored in C (after the epilogue, before they are rounded to C's type).  The call sets each
	 * vector to its reduction's identity on the stream, then the kernels add to it with atomics (a sum's
	 * rounding depends on their order).  0 in the slots of the others. */
	kgen_devptr row_reduce[KGEN_MATMUL_REDUCTIONS];
	kgen_devptr col_reduce[KGEN_MATMUL_REDUCTIONS];  /* col_reduce: the same by column, n values each */
	/* scale: tensor (fp8 operands, its default): A's and B's scales, one f32 each in device memory, read by
	 * the kernel as it runs (so a scale computed on the stream before needs no copy to the host): C = alpha
	 * *scale_a *scale_b A B + beta C, then the epilogue (acc in it is the scaled product). */
	kgen_devptr scale_a, scale_b;
};

/* kgen_matmul() with the epilogue's operands (ops may be NULL for a spec that declares none): a spec
 * whose epilogue reads bias or residual, or whose fp8 operands are scaled (scale: tensor), is launched
 * through this call.  Missing, unaligned or
 * undeclared operands and operands overlapping C are refused with KGEN_EINVAL before any launch. */
KGEN_API kgen_status kgen_matmul_with(kgen_kernel *kernel, kgen_devptr a, kgen_devptr b, kgen_devptr c,
                                      unsigned long long m, unsigned long long n, unsigned long long k,
                                      unsigned long long lda, unsigned long long ldb, unsigned long long ldc,
                                      double alpha, double beta, const struct kgen_matmul_operands *ops,
                                      kgen_devptr scratch, size_t scratch_bytes, kgen_stream stream,
                                      kgen_error *err);

/* Transpose the rows x cols row-major matrix at device address `in` into
 * the cols x rows matrix at `out`, on `stream`.  Any rows and cols: the
 * shared-memory method bounds-checks its edge tiles; TMA clips them, and
 * needs 16-byte aligned matrices whose rows (in bytes) are multiples of 16
 * (a 1 x n or n x 1 transpose is a copy, done as one).  `in` and `out` must
 * not overlap. */
KGEN_API kgen_status kgen_transpose(kgen_kernel *kernel, kgen_devptr in, kgen_devptr out, unsigned long long rows,
                                    unsigned long long cols, kgen_stream stream, kgen_error *err);

/* Where the matrices of a batched or pitched transpose lie, in elements.
 * Matrix b of `in` starts at in + b * in_stride and its row r at
 * + r * in_pitch; matrix b of `out` (its transpose, cols x rows) at out +
 * b * out_stride and its row c at + c * out_pitch.  A zero means packed:
 * batch 1, in_pitch = cols, out_pitch = rows, in_stride = rows * in_pitch,
 * out_stride = cols * out_pitch. */
typedef struct kgen_transpose_layout {
	unsigned long long batch;
	unsigned long long in_pitch, out_pitch;
	unsigned long long in_stride, out_stride;
} kgen_transpose_layout;

/* kgen_transpose() of `layout->batch` matrices in one launch, with row
 * pitches and matrix strides (layout NULL: one packed matrix).  Pitches
 * must hold a row (in_pitch >= cols, out_pitch >= rows) and strides a
 * matrix; no element of `out` may overlap `in` or another of `out`
 * (checked by address ranges).  The shared-memory method takes any pitch
 * and stride (unaligned ones move element by element); TMA needs them in
 * multiples of 16 bytes.  A TMA kernel encodes its tensor maps once and
 * reuses them while the pointers and layout stay the same. */
KGEN_API kgen_status kgen_transpose_batched(kgen_kernel *kernel, kgen_devptr in, kgen_devptr out,
                                            unsigned long long rows, unsigned long long cols,
                                            const kgen_transpose_layout *layout, kgen_stream stream,
                                            kgen_error *err);

/* Bytes of scratch memory kgen_reduce_axis() needs for a rows x cols matrix
 * (0 when the launch needs none).  Scratch supplied by the caller must be
 * zero-filled before its first use with this kernel; every launch leaves
 * it zero again. */
KGEN_API kgen_status kgen_reduce_axis_scratch_size(const kgen_kernel *kernel, unsigned long long rows,
                                                   unsigned long long cols, size_t *bytes, kgen_error *err);

/* Reduce each row (axis: rows) or each column (axis: cols) of the rows x
 * cols row-major matrix at device address `in`, whose rows start `pitch`
 * elements apart (pitch >= cols; 0: cols, packed), into `out`: rows or cols values of the
 * spec's out_dtype, on `stream`.  `in` must be aligned to its element size
 * (vector loads start at each row's first aligned address); `out` to its
 * element size; they must not overlap.  scratch == 0 lets the kernel
 * allocate and keep its own (then launches must not overlap); otherwise it
 * must hold kgen_reduce_axis_scratch_size() bytes.  An empty axis gives the
 * identity (a sum of no elements is 0); no outputs launch nothing. */
KGEN_API kgen_status kgen_reduce_axis(kgen_kernel *kernel, kgen_devptr in, unsigned long long rows,
                                      unsigned long long cols, unsigned long long pitch, kgen_devptr out,
                                      kgen_devptr scratch, size_t scratch_bytes, kgen_stream stream, kgen_error *err);

/* kgen_reduce_axis() for op: argmin and argmax: value[j] and index[j]
 * (int64_t, the index within row or column j) for each row or column. */
KGEN_API kgen_status kgen_reduce_axis_arg(kgen_kernel *kernel, kgen_devptr in, unsigned long long rows,
                                          unsigned long long cols, unsigned long long pitch, kgen_devptr value,
                                          kgen_devptr index, kgen_devptr scratch, size_t scratch_bytes,
                                          kgen_stream stream, kgen_error *err);

/* kgen_reduce(), kgen_reduce_arg(), kgen_reduce_axis() or
 * kgen_reduce_axis_arg(), chosen by the kernel's family and by whether an
 * index is given, with every argument in one array: for a binding whose
 * cost grows with the arguments it converts (Python's ctypes takes about
 * 0.1 us an argument; the package keeps one array a thread and sets the
 * addresses that change).  The slots (KGEN_PACKED_*): */
enum {
	KGEN_PACKED_KERNEL,   /* kgen_kernel * */
	KGEN_PACKED_ERROR,    /* kgen_error *, or 0 */
	KGEN_PACKED_STREAM,   /* kgen_stream */
	KGEN_PACKED_IN,       /* in */
	KGEN_PACKED_OUT,      /* out, or value for argmin and argmax */
	KGEN_PACKED_INDEX,    /* index for argmin and argmax, else 0 */
	KGEN_PACKED_SCRATCH,  /* scratch */
	KGEN_PACKED_SCRATCH_BYTES,
	KGEN_PACKED_N,        /* n (reduce), rows (reduce_axis) */
	KGEN_PACKED_COLS,     /* reduce_axis: cols */
	KGEN_PACKED_PITCH,    /* reduce_axis: pitch */
	KGEN_PACKED_COUNT
};
KGEN_API kgen_status kgen_reduce_packed(const unsigned long long args[KGEN_PACKED_COUNT]);

/* The spec a kernel was built from (owned by the kernel; NULL for a NULL kernel). */
KGEN_API const kgen_spec *kgen_kernel_spec(const kgen_kernel *kernel);

/* The blocks of the kernel's first launch one multiprocessor holds at once,
 * as the driver's occupancy calculator gave them when the kernel was loaded
 * (for its block size and dynamic shared memory; a lazily built kernel's
 * first kernel is built to be asked); a size plan's kernel: its first
 * entry's; 0 for a NULL kernel or where the driver gave none. */
KGEN_API int kgen_kernel_blocks_per_sm(const kgen_kernel *kernel);

/* Where the build that made a kernel spent its time, in microseconds, on
 * the monotonic clock.  A build that found the kernel in the context
 * returns the same kernel, so these are always the first build's.  A spec
 * whose kernels are alternatives (strategy: auto rows) is compiled a
 * kernel a program, side by side, where KGEN_JIT_THREADS (default: the
 * online CPUs) is above 1: the phases of its programs are summed, so they
 * can add up to more than total_us, the wall time. */
typedef struct kgen_build_times {
	double generate_us;     /* the spec's CUDA C generated (kgen_generate) */
	double cache_read_us;   /* the disk cache looked up: a hit's whole read, or a miss */
	double compile_us;      /* nvrtcCreateProgram and nvrtcCompileProgram: front end, NVVM, ptxas */
	double image_us;        /* the cubin taken from NVRTC (nvrtcGetCUBINSize, nvrtcGetCUBIN) */
	double cache_write_us;  /* the cubin written to the disk cache */
	double load_us;         /* cuModuleLoadData, the kernels looked up and their attributes set */
	double total_us;        /* the whole kgen_kernel_build(), the phases above and the rest */
	int modules;            /* modules built: 1, one a kernel for a spec compiled apart, or a size
	                           plan's entries' (the times are their sums); a lazily built kernel's
	                           build counts none, and each of its kernels built since adds its own
	                           phases, module and total_us */
	int disk_hits;          /* of those, how many came from the disk cache, not NVRTC */
} kgen_build_times;

KGEN_API kgen_status kgen_kernel_build_times(const kgen_kernel *kernel, kgen_build_times *times, kgen_error *err);

/* ---- Several GPUs (libnccl.so.2 is loaded at run time) ----
 *
 * A reduction of data spread over the GPUs of one process: GPU i holds
 * n[i] elements (or rows[i] rows of a matrix whose columns are reduced),
 * reduces them with kgen's kernel on its own stream, and NCCL combines the
 * GPUs' partial results: a sum, product, min or max of the accumulators by
 * NCCL itself, the others (argmin, argmax, op: custom) gathered and
 * combined in GPU order by a small generated kernel, which also takes the
 * op's last step once (mean divides by every GPU's count; norm2's square
 * root; a post; the conversion to out_dtype).  argmin and argmax give the
 * global index: GPU i's local index plus the elements (rows) of the GPUs
 * before it, the lowest of the ties, NaNs as on one GPU.  The result goes
 * to every GPU (root KGEN_MULTI_ALL) or to GPU `root` only.  GPUs with no
 * elements give the op's identity, as n = 0 does on one GPU.
 *
 * Arrays of pointers, sizes and streams have one entry per GPU of the set,
 * in the order of kgen_multi_create's devices; `streams` NULL means each
 * GPU's default stream.  Every argument is checked before anything is
 * launched.  Calls are asynchronous: synchronise each stream before
 * reading the results.  A set runs one call at a time, and the launches
 * of one multi kernel must not overlap (it owns the partials' buffers).
 */
typedef struct kgen_multi kgen_multi;
typedef struct kgen_multi_kernel kgen_multi_kernel;

#define KGEN_MULTI_ALL (-1)  /* root: every GPU gets the result */

/* Open `count` GPUs (each listed once) and make their NCCL communicators
 * (ncclCommInitAll), kept for the life of the set.  KGEN_ECUDA names
 * libnccl.so.2 when NCCL cannot be loaded. */
KGEN_API kgen_status kgen_multi_create(const int *devices, int count, kgen_multi **m, kgen_error *err);

/* Destroy the communicators, the multi kernels and the GPUs' contexts. */
KGEN_API void kgen_multi_destroy(kgen_multi *m);

/* The number of GPUs, and GPU i's context (owned by the set; NULL outside 0..count-1). */
KGEN_API int kgen_multi_count(const kgen_multi *m);
KGEN_API kgen_context *kgen_multi_context(const kgen_multi *m, int i);

/* Build (or find already built) a spec's kernels on every GPU of the set:
 * a `kernel: reduce` spec, or a `kernel: reduce_axis` one with axis: cols.
 * The kernel belongs to the set. */
KGEN_API kgen_status kgen_multi_build(kgen_multi *m, const kgen_spec *spec, kgen_multi_kernel **kernel,
                                      kgen_error *err);

/* The kernel GPU i runs on its own part (the spec's op without its last
 * step: mean's sum, norm2's sum of squares), e.g. to time it alone. */
KGEN_API kgen_kernel *kgen_multi_local(const kgen_multi_kernel *kernel, int i);

/* The spec a multi kernel was built from (owned by the kernel). */
KGEN_API const kgen_spec *kgen_multi_kernel_spec(const kgen_multi_kernel *kernel);

/* Reduce GPU i's n[i] elements at in[i], for every i, into one value of
 * the spec's out_dtype at out[i] of every GPU (root KGEN_MULTI_ALL), or at
 * out[root] only (the others are not read). */
KGEN_API kgen_status kgen_multi_reduce(kgen_multi_kernel *kernel, const kgen_devptr *in, const unsigned long long *n,
                                       const kgen_devptr *out, int root, const kgen_stream *streams, kgen_error *err);

/* kgen_multi_reduce() for argmin and argmax: the value (acc_dtype) and the
 * global index (int64_t; -1 when no GPU had an element, or a number with
 * nan: ignore) at value[i] and index[i]. */
KGEN_API kgen_status kgen_multi_reduce_arg(kgen_multi_kernel *kernel, const kgen_devptr *in,
                                           const unsigned long long *n, const kgen_devptr *value,
                                           const kgen_devptr *index, int root, const kgen_stream *streams,
                                           kgen_error *err);

/* A reduce_axis (axis: cols) over a matrix whose rows are spread: GPU i
 * holds rows[i] x cols at in[i], rows `pitch` elements apart (0: cols),
 * the rows after GPU i - 1's.  The cols results, of the whole matrix's
 * columns, go to out[i] of every GPU or of root. */
KGEN_API kgen_status kgen_multi_reduce_axis(kgen_multi_kernel *kernel, const kgen_devptr *in,
                                            const unsigned long long *rows, unsigned long long cols,
                                            unsigned long long pitch, const kgen_devptr *out, int root,
                                            const kgen_stream *streams, kgen_error *err);

/* kgen_multi_reduce_axis() for argmin and argmax: value[i] and index[i]
 * hold cols values and cols global row indices. */
KGEN_API kgen_status kgen_multi_reduce_axis_arg(kgen_multi_kernel *kernel, const kgen_devptr *in,
                                                const unsigned long long *rows, unsigned long long cols,
                                                unsigned long long pitch, const kgen_devptr *value,
                                                const kgen_devptr *index, int root, const kgen_stream *streams,
                                                kgen_error *err);

#ifdef __cplusplus
}
#endif
#endif /* KGEN_H */
