/* timing.h - timing, the read probe and the CUB peer of `kgen run --bench` (timing.c). */
#ifndef KGEN_TIMING_H
#define KGEN_TIMING_H

#include "runtime/runtime.h"

/* The read-bandwidth probe of templates/bench/stream.cu, compiled once. */
struct probe {
	CUmodule module;
	CUfunction fn;
	CUdeviceptr sink;
};

/* What kgen_median_ms() times: a reduction, the read probe, a transpose or a copy. */
enum timed_what { TIME_REDUCE, TIME_PROBE, TIME_TRANSPOSE, TIME_COPY };

struct timed {
	enum timed_what what;
	kgen_kernel *k;
	struct probe *p;
	CUdeviceptr *in;      /* `copies` inputs, used in turn */
	int copies;
	unsigned long long n; /* elements (reduce), bytes (probe, copy) */
	CUdeviceptr out;
	int blocks;           /* for the probe: 4 blocks of 512 per SM */
	unsigned long long rows, cols;
};

/* Compile and load the probe once. */
kgen_status kgen_probe_load(kgen_context *ctx, struct probe *p, kgen_error *err);

/* The median milliseconds of `runs` timed calls of t, after 3 warm-up calls. */
kgen_status kgen_median_ms(kgen_context *ctx, struct timed *t, int runs, float *ms, kgen_error *err);

/* cub::DeviceReduce's median milliseconds for the spec's op and dtype at n,
 * through the kgen-cub helper (`given`, else $KGEN_CUB, beside kgen, or
 * installed), each (op, dtype, n) measured once per process; -1 without it. */
double kgen_cub_ms(const char *given, int runs, const struct kgen_spec *s, unsigned long long n, size_t l2);

#endif
