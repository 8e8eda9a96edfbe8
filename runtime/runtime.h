/* runtime.h - what the runtime's files share: the context and kernel structs. */
#ifndef KGEN_RUNTIME_H
#define KGEN_RUNTIME_H

#include <pthread.h>
#include <stdint.h>
#include "driver.h"
#include "gen/family.h"

#define KGEN_KERNEL_BUCKETS 64

struct kgen_kernel {
	struct kgen_kernel *next;   /* in the context's bucket */
	uint64_t hash;              /* of the spec's fields */
	struct kgen_spec spec;      /* a copy; text is NULL */
	kgen_context *ctx;
	/* One module of the whole file, or one per kernel: a spec of several
	 * kernels built on a machine of several CPUs compiles each apart,
	 * side by side (context.c). */
	CUmodule module[KGEN_MAX_STEPS];
	int nmodules;
	struct kgen_contract contract;  /* the family's launch contract */
	CUfunction fn[KGEN_MAX_STEPS];  /* the plan's kernels, in launch order (NULL: not built yet) */
	int occupancy[KGEN_MAX_STEPS];  /* blocks of each one SM holds (0: more shared memory than the GPU gives) */
	int clusters[KGEN_MAX_STEPS];   /* a kernel of clusters: how many the GPU holds at once (0: none) */
	CUdeviceptr scratch;        /* library-owned scratch, when the caller gives none */
	size_t scratch_bytes;
	/* Scratch it outgrew: kept, not freed, until the context is destroyed
	 * (a captured CUDA graph, or another stream's kernel, may still use
	 * it); scratch at least doubles as it grows, so these hold no more
	 * than it does. */
	struct kgen_retired {
		struct kgen_retired *next;
		CUdeviceptr ptr;
	} *retired;
	/* The family's own launch state (a TMA transpose's tensor maps), made
	 * by its launcher under the context's lock, freed with the kernel
	 * through its kgen_launcher's free_state; NULL until then. */
	void *state;
	kgen_build_times times;     /* where the build that made it spent its time (and its lazy kernels') */
	/* A spec whose kernels are alternatives (kgen_contract.apart: strategy
	 * auto's) is built lazily: the build keeps each kernel's source, and
	 * a kernel is compiled (or read from the disk cache) and loaded the
	 * first time a launch chooses it (kgen_kernel_step), so that a first
	 * call pays for one kernel, not sixteen.  fn[i] is published last
	 * (release), after module[i], occupancy[i] and clusters[i]. */
	int lazy;
	char *source[KGEN_MAX_STEPS];
	pthread_mutex_t step_lock;  /* one thread builds a lazy kernel's step; times */
	/* A size plan's kernel (kgen_kernel_build_plan) has no module of its
	 * own: n goes to sized[i], the first whose upto[i] >= n; a matmul
	 * plan's (by_shape) m, n and k to the first whose shape[i] bounds
	 * hold them. */
	int nsized, by_shape;
	struct kgen_kernel *sized[KGEN_PLAN_MAX];
	unsigned long long upto[KGEN_PLAN_MAX];
	unsigned long long shape[KGEN_PLAN_MAX][3];
};

/* A spec's text as kgen_kernel_build_yaml() was given it, and the kernel
 * it built: a call with the same text takes the kernel without parsing. */
struct kgen_text {
	struct kgen_text *next;
	uint64_t hash;
	size_t len;
	struct kgen_kernel *kernel;
	char text[];
};

struct kgen_context {
	const struct kgen_cu *cu;
	CUdevice dev;
	CUcontext cuctx;
	int sm_count, cc_major, cc_minor;
	int smem_optin;             /* the dynamic shared memory a block may ask for, in bytes */
	size_t l2_bytes;
	char name[256], arch[16];
	pthread_mutex_t lock;
	struct kgen_kernel *kernels[KGEN_KERNEL_BUCKETS];
	struct kgen_text *texts[KGEN_KERNEL_BUCKETS];  /* kgen_kernel_build_yaml()'s texts and their kernels */
	struct kgen_kernel *plans;  /* the size plans' kernels, linked by next */
};

/* What the runtime keeps per family beyond its launch calls: one per row
 * of KGEN_FAMILIES, kgen_launcher_STEM in runtime/STEM_launch.c. */
struct kgen_launcher {
	/* Free a kernel's launch state (kgen_kernel.state); NULL: free(). */
	void (*free_state)(void *state);
};
#define X(id, name, doc, stem) extern const struct kgen_launcher kgen_launcher_##stem;
KGEN_FAMILIES(X)
#undef X

/* Free k's family launch state, if any (context.c). */
void kgen_kernel_free_state(struct kgen_kernel *k);

/* The hash that keys the in-process cache: every field of the spec. */
uint64_t kgen_spec_hash(const struct kgen_spec *s);
int kgen_spec_same(const struct kgen_spec *a, const struct kgen_spec *b);

/* Step i of k ready to launch: KGEN_OK at once when it is loaded (an
 * acquire load), else it is built now (a lazy kernel's first launch of
 * it), the caller's current context left as it was (context.c). */
kgen_status kgen_kernel_step(kgen_kernel *k, int i, kgen_error *err);

/* Make the context current on this thread (the primary context). */
kgen_status kgen_context_enter(kgen_context *ctx, kgen_error *err);

/* The public calls leave the caller's current context as they found it:
 * save it first, restore it after (a no-op when it is ctx's own). */
CUcontext kgen_context_save(const kgen_context *ctx);
void kgen_context_restore(const kgen_context *ctx, CUcontext saved);

/* Launch f on a grid of gx x gy x gz blocks (each below 2^31, 65536, 65536) (launch.c). */
kgen_status kgen_launch_3d(const struct kgen_cu *cu, CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz,
                           long long block, unsigned int smem, void **args, CUstream stream, kgen_error *err);
/* Launch f on a 1-D grid. */
kgen_status kgen_launch(const struct kgen_cu *cu, CUfunction f, unsigned long long grid, long long block,
                        unsigned int smem, void **args, CUstream stream, kgen_error *err);
/* The same as a programmatic dependent launch (launch: pdl, chain): f may
 * start while the kernel before it runs, and waits for it in
 * griddepcontrol.wait. */
kgen_status kgen_launch_dependent(const struct kgen_cu *cu, CUfunction f, unsigned long long grid, long long block,
                                  unsigned int smem, void **args, CUstream stream, kgen_error *err);
/* f on a grid (gx, gy) whose blocks are all resident at once, or not
 * launched (a cooperative launch: the driver refuses a grid larger than the
 * GPU holds), for blocks that wait on one another (scan's staging: ring). */
kgen_status kgen_launch_cooperative(const struct kgen_cu *cu, CUfunction f, unsigned int gx, unsigned int gy,
                                    long long block, unsigned int smem, void **args, CUstream stream, kgen_error *err);
/* Either of the two, as a launcher chooses. */
typedef kgen_status kgen_launch_fn(const struct kgen_cu *cu, CUfunction f, unsigned long long grid, long long block,
                                   unsigned int smem, void **args, CUstream stream, kgen_error *err);
/* Grow the kernel's own scratch to at least bytes (and at least twice what
 * it was), zero-filled on the stream; the buffer it replaces is kept on
 * k->retired, not freed; refused (KGEN_EINVAL, saying why) while the stream
 * is being captured (launch.c). */
kgen_status kgen_own_scratch(kgen_kernel *k, size_t bytes, CUstream stream, kgen_error *err);
/* The kernel's spec is of family `id`, else an error naming the caller. */
kgen_status kgen_kernel_expect(const kgen_kernel *k, enum kgen_family_id id, const char *caller, kgen_error *err);
/* The outputs an op writes match the call: the plain one named caller
 * (kgen_reduce, kgen_reduce_axis), or its _arg form (arg). */
kgen_status kgen_expect_outputs(const kgen_kernel *k, int arg, kgen_devptr index, const char *caller,
                                kgen_error *err);

/* Zeroed memory aligned to align (a power of two), freed with free(): a
 * launch state that holds CUtensorMaps, which ask for more alignment than
 * calloc() gives (UBSan: 'misaligned address ... requires 128 byte
 * alignment'). */
void *kgen_zalloc_aligned(size_t align, size_t size);

/* k's launch state (kgen_kernel.state) with the context's lock taken: made
 * zeroed, size bytes aligned to align, the first time; NULL with the lock
 * released and *err set (KGEN_ENOMEM) where memory ran out.  The caller reads and
 * updates it, then calls kgen_kernel_state_unlock(k). */
void *kgen_kernel_state_lock(struct kgen_kernel *k, size_t align, size_t size, kgen_error *err);
void kgen_kernel_state_unlock(struct kgen_kernel *k);

/* One device buffer of a launch: its argument's name, where it starts and
 * how many bytes the launch reads or writes there (0: none). */
struct kgen_span {
	const char *name;
	kgen_devptr at;
	unsigned long long bytes;
};

/* Every launcher's overlap rule, in one place: the written spans (the
 * first nwritten of spans[]) may meet neither one another nor any span
 * read (the rest).  Spans that are only read may share memory.  The first
 * pair that meets is refused, named with both ranges. */
kgen_status kgen_refuse_overlaps(const char *who, const struct kgen_span *spans, int n, int nwritten,
                                 kgen_error *err);

/* NVRTC options besides the architecture, and NVRTC's version, for cache
 * keys; what is wrong with $KGEN_NVRTC_OPTIONS (KGEN_EINVAL), to check
 * before a key is used. */
const char *kgen_compile_options(void);
kgen_status kgen_compile_options_check(kgen_error *err);
const char *kgen_nvrtc_version(void);

/* Microseconds on the monotonic clock: the build's phase times (compile.c). */
double kgen_clock_us(void);

/* kgen_compile(), adding to *compile_us the time NVRTC compiled
 * (nvrtcCreateProgram, nvrtcCompileProgram) and to *image_us the time the
 * image took to fetch; either may be NULL. */
kgen_status kgen_compile_timed(const char *source, const char *name, const char *arch, kgen_image kind, void **image,
                               size_t *size, char **log, double *compile_us, double *image_us, kgen_error *err);

/* NVRTC's own report of one compile's phases (its --time option), in
 * milliseconds as NVRTC gives them (whole ones): the C++ front end, NVVM's
 * optimizer, and PTX to cubin (ptxas); -1 where the report has none. */
struct kgen_nvrtc_phases {
	double frontend_ms, nvvm_ms, ptxas_ms;
};

/* kgen_compile_timed() with NVRTC's --time report of it (a temporary file,
 * read and removed) into *ph. */
kgen_status kgen_compile_phases(const char *source, const char *name, const char *arch, kgen_image kind, void **image,
                                size_t *size, char **log, double *compile_us, struct kgen_nvrtc_phases *ph,
                                kgen_error *err);

#define KGEN_COMPILE_EXTRA_MAX 8  /* extra NVRTC options kgen_compile_with() takes, at most */

/* kgen_compile_timed() with the nextra options in extra after kgen's own,
 * which no kernel kgen runs is built with: tests/sample_test's
 * "-Ofc=max" (ptxas's fast compile), where only whether NVRTC takes the
 * source counts. */
kgen_status kgen_compile_with(const char *source, const char *name, const char *arch, const char *const *extra,
                              int nextra, kgen_image kind, void **image, size_t *size, char **log,
                              double *compile_us, double *image_us, kgen_error *err);

#endif
