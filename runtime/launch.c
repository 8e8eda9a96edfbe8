/* launch.c - what every family's launcher shares: launching one kernel,
 * the kernel's own scratch, checking a kernel's family. */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "runtime.h"
#include "gen/op.h"

/* Grow the kernel's own scratch, zero-filled (the ticket starts at 0).  The
 * old buffer is retired, not freed: a CUDA graph captured with it, or a
 * kernel on another stream, may still read it. */
kgen_status
kgen_own_scratch(kgen_kernel *k, size_t bytes, CUstream stream, kgen_error *err)
{
	const struct kgen_cu *cu = k->ctx->cu;
	struct kgen_retired *old = NULL;
	CUdeviceptr p;
	CUresult r;

	if (k->scratch_bytes >= bytes)
		return KGEN_OK;
	{  /* a stream capture cannot allocate: say so, rather than the driver's error */
		CUstreamCaptureStatus capture = CU_STREAM_CAPTURE_STATUS_NONE;
		KGEN_CU(cu, err, cuStreamIsCapturing, (stream, &capture));
		if (capture != CU_STREAM_CAPTURE_STATUS_NONE)
			return kgen_fail(err, KGEN_EINVAL, "%s needs %zu bytes of its own scratch, which a stream capture cannot "
			                 "allocate: make a call of this shape (or a larger one) before capturing",
			                 kgen_spec_kernel_name(&k->spec), bytes);
	}
	if (k->scratch && bytes < 2 * k->scratch_bytes)
		bytes = 2 * k->scratch_bytes;
	if (k->scratch && !(old = malloc(sizeof *old)))
		return kgen_fail(err, KGEN_ENOMEM, "out of memory");
	if ((r = cu->cuMemAlloc(&p, bytes)) != CUDA_SUCCESS) {
		free(old);
		return kgen_cu_fail(cu, err, "cuMemAlloc", r);
	}
	if (old) {
		old->ptr = k->scratch;
		old->next = k->retired;
		k->retired = old;
	}
	k->scratch = p;
	k->scratch_bytes = bytes;
	KGEN_CU(cu, err, cuMemsetD8Async, (k->scratch, 0, bytes, stream));
	return KGEN_OK;
}

kgen_status
kgen_launch(const struct kgen_cu *cu, CUfunction f, unsigned long long grid, long long block, unsigned int smem,
            void **args, CUstream stream, kgen_error *err)
{
	KGEN_CU(cu, err, cuLaunchKernel, (f, (unsigned)grid, 1, 1, (unsigned)block, 1, 1, smem, stream, args, NULL));
	return KGEN_OK;
}

/* A launch of a grid (gx, gy) with one attribute, through cuLaunchKernelEx. */
static kgen_status
launch_ex(const struct kgen_cu *cu, CUfunction f, unsigned int gx, unsigned int gy, long long block,
          unsigned int smem, void **args, CUstream stream, CUlaunchAttribute *attr, kgen_error *err)
{
	CUlaunchConfig config;

	memset(&config, 0, sizeof config);
	config.gridDimX = gx;
	config.gridDimY = gy;
	config.gridDimZ = 1;
	config.blockDimX = (unsigned)block;
	config.blockDimY = config.blockDimZ = 1;
	config.sharedMemBytes = smem;
	config.hStream = stream;
	config.attrs = attr;
	config.numAttrs = 1;
	KGEN_CU(cu, err, cuLaunchKernelEx, (&config, f, args, NULL));
	return KGEN_OK;
}

/* A programmatic dependent launch (sm_90): f may start while the kernel
 * before it on the stream runs; its griddepcontrol.wait waits for that one. */
kgen_status
kgen_launch_dependent(const struct kgen_cu *cu, CUfunction f, unsigned long long grid, long long block,
                      unsigned int smem, void **args, CUstream stream, kgen_error *err)
{
	CUlaunchAttribute attr;

	memset(&attr, 0, sizeof attr);
	attr.id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
	attr.value.programmaticStreamSerializationAllowed = 1;
	return launch_ex(cu, f, (unsigned)grid, 1, block, smem, args, stream, &attr, err);
}

/* A cooperative launch: every block of the grid resident at once, or the
 * driver refuses it (staging: ring's blocks wait on one another). */
kgen_status
kgen_launch_cooperative(const struct kgen_cu *cu, CUfunction f, unsigned int gx, unsigned int gy, long long block,
                        unsigned int smem, void **args, CUstream stream, kgen_error *err)
{
	CUlaunchAttribute attr;

	memset(&attr, 0, sizeof attr);
	attr.id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
	attr.value.cooperative = 1;
	return launch_ex(cu, f, gx, gy, block, smem, args, stream, &attr, err);
}

kgen_status
kgen_launch_3d(const struct kgen_cu *cu, CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz, long long block,
               unsigned int smem, void **args, CUstream stream, kgen_error *err)
{
	KGEN_CU(cu, err, cuLaunchKernel, (f, gx, gy, gz, (unsigned)block, 1, 1, smem, stream, args, NULL));
	return KGEN_OK;
}

kgen_status
kgen_kernel_expect(const kgen_kernel *k, enum kgen_family_id id, const char *caller, kgen_error *err)
{
	if (!k)
		return kgen_fail(err, KGEN_EINVAL, "%s: NULL kernel", caller);
	if (k->spec.kernel != id)
		return kgen_fail(err, KGEN_EINVAL, "%s: %s is a %s kernel", caller, kgen_spec_kernel_name(&k->spec),
		                 kgen_families[k->spec.kernel].name);
	return KGEN_OK;
}


/* A pair's op writes a value and an index (the _arg calls: arg), any other
 * op one result (the plain calls); caller is the plain call's name. */
kgen_status
kgen_expect_outputs(const kgen_kernel *k, int arg, kgen_devptr index, const char *caller, kgen_error *err)
{
	int pair = k->spec.r.pair;

	if (pair && !arg)
		return kgen_fail(err, KGEN_EINVAL, "%s: op: %s writes a value and an index: call %s_arg()", caller,
		                 kgen_ops[k->spec.op].name, caller);
	if (!pair && arg)
		return kgen_fail(err, KGEN_EINVAL, "%s_arg: op: %s writes one result, not an index: call %s()", caller,
		                 kgen_ops[k->spec.op].name, caller);
	if (pair && !index)
		return kgen_fail(err, KGEN_EINVAL, "%s_arg: index is NULL", caller);
	return KGEN_OK;
}

/* Do two spans share a byte?  An empty span meets nothing; a span that
 * would run past the end of the address space is taken to its end. */
static int
spans_meet(const struct kgen_span *a, const struct kgen_span *b)
{
	unsigned long long a_end = a->bytes > ~0ull - a->at ? ~0ull : a->at + a->bytes;
	unsigned long long b_end = b->bytes > ~0ull - b->at ? ~0ull : b->at + b->bytes;

	return a->bytes && b->bytes && a->at < b_end && b->at < a_end;
}

kgen_status
kgen_refuse_overlaps(const char *who, const struct kgen_span *spans, int n, int nwritten, kgen_error *err)
{
	int i, j;

	for (i = 0; i < nwritten; i++)
		for (j = 0; j < n; j++) {
			const struct kgen_span *w = &spans[i], *o = &spans[j];
			if (j <= i || !spans_meet(w, o))  /* j < i: checked as (j, i) */
				continue;
			return kgen_fail(err, KGEN_EINVAL, "%s: %s [0x%llx, +%llu bytes) overlaps %s [0x%llx, +%llu bytes): "
			                 "%s must have memory of its own", who, w->name, w->at, w->bytes, o->name, o->at,
			                 o->bytes, w->name);
		}
	return KGEN_OK;
}

void *
kgen_zalloc_aligned(size_t align, size_t size)
{
	size_t whole = (size + align - 1) / align * align;  /* C11: a multiple of the alignment */
	void *p = aligned_alloc(align, whole);

	if (p)
		memset(p, 0, whole);
	return p;
}

void *
kgen_kernel_state_lock(struct kgen_kernel *k, size_t align, size_t size, kgen_error *err)
{
	pthread_mutex_lock(&k->ctx->lock);
	if (!k->state && !(k->state = kgen_zalloc_aligned(align, size))) {
		pthread_mutex_unlock(&k->ctx->lock);
		kgen_fail(err, KGEN_ENOMEM, "out of memory");
		return NULL;
	}
	return k->state;
}

void
kgen_kernel_state_unlock(struct kgen_kernel *k)
{
	pthread_mutex_unlock(&k->ctx->lock);
}
