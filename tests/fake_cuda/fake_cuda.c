/*
 * fake_cuda.c - a stand-in for libcuda.so.1, so that the host code of the
 * runtime and of `kgen run` (argument checks, sizes, scratch, launch
 * geometry, tensor maps, errors) is tested on machines without a GPU
 * (issue 12, item 9).  Built as tests/fake_cuda/libcuda.so.1; a test puts
 * that directory first on LD_LIBRARY_PATH and libkgen's dlopen() finds it.
 *
 * "Device" memory is host memory (a CUdeviceptr is the address), copies and
 * memsets happen, kernels do not run: each launch is recorded for the test
 * to read (fake_cuda_launches).  It reports one GPU, "Fake H200", sm_90,
 * 132 SMs, 60 MB of L2.  FAKE_CUDA_FAIL=NAME[:N] makes the N-th call (1 by
 * default) of entry point NAME fail with CUDA_ERROR_OUT_OF_MEMORY.  Events,
 * streams and graphs are counted while they live, a stream capture refuses
 * what the real driver refuses in a thread-local one (the default stream,
 * allocation, waiting), and elapsed times are set by the test, so that
 * kgen_time_calls is tested too.  FAKE_CUDA_DEVICES=N reports N GPUs (1 by
 * default; all alike, sharing one context), for the multi-GPU tests, which
 * also read a launch's whole parameter (fake_cuda_watch).
 * FAKE_CUDA_SIGNAL=NAME:N raises SIGTERM in the N-th call of NAME (of
 * those that ask: cuCtxSynchronize), for kgen run's stop between results.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <signal.h>
#include <cuda.h>
#include "fake_cuda.h"

#define API __attribute__((visibility("default")))

/* An H200's opt-in shared memory a block, or $FAKE_CUDA_SMEM_OPTIN bytes. */
static int
smem_optin(void)
{
	return getenv("FAKE_CUDA_SMEM_OPTIN") ? atoi(getenv("FAKE_CUDA_SMEM_OPTIN")) : 227 << 10;
}

static void forget_raised(CUfunction f);

/* What the test reads back. */
API struct fake_launch fake_cuda_launches[256];
API const int fake_cuda_launch_size = sizeof(struct fake_launch);  /* for ctypes mirrors */
API int fake_cuda_nlaunches;
API int fake_cuda_encodes;   /* cuTensorMapEncodeTiled calls */
API int fake_cuda_allocs;    /* live cuMemAlloc blocks */
API int fake_cuda_modules;   /* live modules (cuModuleLoadData) */
/* How many parameters the next launches have (kernelParams is not
 * terminated): the test sets it before a call whose arguments it reads. */
API int fake_cuda_nparams;
/* Timing (kgen_time_calls): live events, streams, graphs and executable
 * graphs; the stream being captured (NULL: none); graph launches. */
API int fake_cuda_events, fake_cuda_streams, fake_cuda_graphs, fake_cuda_execs;
API CUstream fake_cuda_capturing;
API int fake_cuda_graph_launches;
/* What cuEventElapsedTime reports: fake_cuda_elapsed_ms, plus
 * fake_cuda_elapsed_step times 0, 1, 2, 3, 4, 0, ... over the calls (so
 * that samples differ). */
API float fake_cuda_elapsed_ms = 1.0f, fake_cuda_elapsed_step;
API unsigned long long fake_cuda_memset_bytes;  /* written by cuMemsetD8Async */
API int fake_cuda_copies;                        /* cuMemcpyDtoDAsync calls */
/* Stream-ordered memory (cuMemAllocAsync): live blocks, and the stream of
 * the last alloc and of the last free; cuStreamWaitEvent calls, and the
 * stream that waited last. */
API int fake_cuda_async_allocs;
API CUstream fake_cuda_alloc_stream, fake_cuda_free_stream;
API int fake_cuda_waits;
API CUstream fake_cuda_waited;
/* A launch of the function named fake_cuda_watch, of fake_cuda_watch_nparams
 * parameters, copies the first 8 bytes of each into fake_cuda_watched_args
 * and the first 512 of parameter fake_cuda_watch_param (which must be that
 * long: a struct passed by value) into fake_cuda_watched; fake_cuda_watches
 * counts those launches. */
API char fake_cuda_watch[64];
API int fake_cuda_watch_nparams, fake_cuda_watch_param, fake_cuda_watches;
API unsigned long long fake_cuda_watched_args[12];
API unsigned char fake_cuda_watched[512];

static int
devices(void)
{
	const char *n = getenv("FAKE_CUDA_DEVICES");

	return n && atoi(n) > 0 ? atoi(n) : 1;
}

static int
failing(const char *name)
{
	static int calls[64];
	static const char *names[64];
	const char *want = getenv("FAKE_CUDA_FAIL"), *colon;
	int i, nth = 1;

	if (!want)
		return 0;
	colon = strchr(want, ':');
	if ((colon ? (size_t)(colon - want) : strlen(want)) != strlen(name) || strncmp(want, name, strlen(name)))
		return 0;
	if (colon)
		nth = atoi(colon + 1);
	for (i = 0; i < 64 && names[i] && names[i] != name; i++)
		;
	if (i == 64)
		return 0;
	names[i] = name;
	return ++calls[i] == nth;
}
#define FAIL_IF(name) do { if (failing(name)) return CUDA_ERROR_OUT_OF_MEMORY; } while (0)

/* The N-th call of $FAKE_CUDA_SIGNAL's NAME:N raises SIGTERM as it starts. */
static void
signalling(const char *name)
{
	static int calls;
	const char *want = getenv("FAKE_CUDA_SIGNAL"), *colon;

	if (!want || !(colon = strchr(want, ':')) || (size_t)(colon - want) != strlen(name) ||
	    strncmp(want, name, strlen(name)))
		return;
	if (++calls == atoi(colon + 1))
		raise(SIGTERM);
}

/* As the real driver: work needs the GPU's context current on the thread,
 * and each thread has its own current context (a plan's entries build on
 * threads of their own). */
static int ctx_token;
static _Thread_local CUcontext current;
#define NEED_CONTEXT() do { if (current != (CUcontext)&ctx_token) return CUDA_ERROR_INVALID_CONTEXT; } while (0)

/* As the real driver in a thread-local capture: work on the default stream,
 * allocation and waiting on the captured stream are refused. */
#define NO_CAPTURE() do { if (fake_cuda_capturing) return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED; } while (0)
#define NOT_DEFAULT_IN_CAPTURE(s) \
	do { if (fake_cuda_capturing && !(s)) return CUDA_ERROR_STREAM_CAPTURE_IMPLICIT; } while (0)

API CUresult CUDAAPI cuInit(unsigned int flags) { return CUDA_SUCCESS; }

/* NVRTC looks for the driver too and asks it for its private tables: none here. */
API CUresult CUDAAPI
cuGetExportTable(const void **table, const CUuuid *id)
{
	*table = NULL;
	return CUDA_ERROR_NOT_SUPPORTED;
}
API CUresult CUDAAPI cuDriverGetVersion(int *v) { *v = 13000; return CUDA_SUCCESS; }

API CUresult CUDAAPI
cuGetErrorName(CUresult r, const char **s)
{
	*s = r == CUDA_ERROR_OUT_OF_MEMORY ? "CUDA_ERROR_OUT_OF_MEMORY" : r ? "CUDA_ERROR_UNKNOWN" : "CUDA_SUCCESS";
	return CUDA_SUCCESS;
}

API CUresult CUDAAPI
cuGetErrorString(CUresult r, const char **s)
{
	*s = r == CUDA_ERROR_OUT_OF_MEMORY ? "out of memory (fake)" : "fake error";
	return CUDA_SUCCESS;
}

API CUresult CUDAAPI cuDeviceGet(CUdevice *d, int ordinal) { *d = ordinal; return ordinal >= 0 && ordinal < devices() ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE; }
API CUresult CUDAAPI cuDeviceGetCount(int *n) { *n = devices(); return CUDA_SUCCESS; }

API CUresult CUDAAPI
cuDeviceGetAttribute(int *v, CUdevice_attribute a, CUdevice d)
{
	switch (a) {
	case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: *v = 132; break;
	case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: *v = 9; break;
	case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: *v = 0; break;
	case CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE: *v = 60 << 20; break;
	case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN:  /* an H200's, or $FAKE_CUDA_SMEM_OPTIN bytes */
		*v = smem_optin();
		break;
	default: *v = 1024; break;
	}
	return CUDA_SUCCESS;
}

API CUresult CUDAAPI cuDeviceGetName(char *name, int len, CUdevice d) { snprintf(name, (size_t)len, "Fake H200"); return CUDA_SUCCESS; }

API CUresult CUDAAPI cuDevicePrimaryCtxRetain(CUcontext *c, CUdevice d) { FAIL_IF("cuDevicePrimaryCtxRetain"); *c = (CUcontext)&ctx_token; return CUDA_SUCCESS; }
API CUresult CUDAAPI cuDevicePrimaryCtxRelease(CUdevice d) { return CUDA_SUCCESS; }

API CUresult CUDAAPI cuCtxSetCurrent(CUcontext c) { current = c; return CUDA_SUCCESS; }
API CUresult CUDAAPI cuCtxGetCurrent(CUcontext *c) { *c = current; return CUDA_SUCCESS; }
API CUresult CUDAAPI cuCtxPushCurrent(CUcontext c) { current = c; return CUDA_SUCCESS; }
API CUresult CUDAAPI cuCtxPopCurrent(CUcontext *c) { if (c) *c = current; current = NULL; return CUDA_SUCCESS; }
API CUresult CUDAAPI cuCtxSynchronize(void) { signalling("cuCtxSynchronize"); NO_CAPTURE(); return CUDA_SUCCESS; }

/* A module: the kernels its image defines (the ".text.NAME" sections of a
 * cubin), so that cuModuleGetFunction finds those alone, as the driver
 * does; an image that is no 64-bit ELF file (PTX) answers every name. */
struct fake_module {
	int any;
	int n;
	char names[512][128];
	int nfns;      /* the functions handed out, freed with the module */
	char **fns;
};

static unsigned long long
rd(const unsigned char *p, int bytes)
{
	unsigned long long v = 0;

	while (bytes-- > 0)
		v = v << 8 | p[bytes];
	return v;
}

API CUresult CUDAAPI
cuModuleLoadData(CUmodule *m, const void *image)
{
	const unsigned char *img = image, *sh;
	struct fake_module *mod;
	int n, ent, i;

	NEED_CONTEXT();
	FAIL_IF("cuModuleLoadData");
	if (!(mod = calloc(1, sizeof *mod)))
		return CUDA_ERROR_OUT_OF_MEMORY;
	if (memcmp(img, "\177ELF", 4) != 0 || img[4] != 2) {
		mod->any = 1;
	} else {
		sh = img + rd(img + 0x28, 8);
		ent = (int)rd(img + 0x3a, 2);
		n = (int)rd(img + 0x3c, 2);
		const unsigned char *names = img + rd(sh + rd(img + 0x3e, 2) * ent + 0x18, 8);
		for (i = 0; i < n && mod->n < 512; i++) {
			const char *name = (const char *)names + rd(sh + i * ent, 4);
			if (strncmp(name, ".text.", 6) == 0)
				snprintf(mod->names[mod->n++], sizeof mod->names[0], "%s", name + 6);
		}
	}
	fake_cuda_modules++;
	*m = (CUmodule)mod;
	return CUDA_SUCCESS;
}

API CUresult CUDAAPI
cuModuleUnload(CUmodule m)
{
	struct fake_module *mod = (struct fake_module *)m;
	int i;

	fake_cuda_modules--;
	for (i = 0; mod && i < mod->nfns; i++) {
		forget_raised((CUfunction)mod->fns[i]);
		free(mod->fns[i]);
	}
	if (mod)
		free(mod->fns);
	free(mod);
	return CUDA_SUCCESS;
}

/* A function is its name, kept by its module (as the driver's functions
 * live as long as their module: freed by cuModuleUnload, so that the
 * sanitizer build's leak check sees what kgen itself leaks). */
API CUresult CUDAAPI
cuModuleGetFunction(CUfunction *f, CUmodule m, const char *name)
{
	struct fake_module *mod = (struct fake_module *)m;
	char *copy, **fns;
	int i, found = mod->any;

	for (i = 0; i < mod->n && !found; i++)
		found = strcmp(mod->names[i], name) == 0;
	if (!found)
		return CUDA_ERROR_NOT_FOUND;
	if (!(fns = realloc(mod->fns, (size_t)(mod->nfns + 1) * sizeof *fns)))
		return CUDA_ERROR_OUT_OF_MEMORY;
	mod->fns = fns;
	if (!(copy = strdup(name)))
		return CUDA_ERROR_OUT_OF_MEMORY;
	mod->fns[mod->nfns++] = copy;
	*f = (CUfunction)copy;
	return CUDA_SUCCESS;
}

/* Shared memory as the real driver has it: every function takes
 * FAKE_STATIC_SMEM bytes of static shared memory, and a launch may add at
 * most 48 KiB less that of dynamic shared memory unless the function's
 * CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES was raised (to at most
 * the opt-in limit less the static part), remembered by function here. */
#define FAKE_STATIC_SMEM 1024
static struct {
	CUfunction f;
	int max_dynamic;
} raised[1024];
static int nraised;
static pthread_mutex_t raised_lock = PTHREAD_MUTEX_INITIALIZER;

static int
max_dynamic(CUfunction f)
{
	int i, v = 48 * 1024 - FAKE_STATIC_SMEM;

	pthread_mutex_lock(&raised_lock);
	for (i = 0; i < nraised; i++)
		if (raised[i].f == f)
			v = raised[i].max_dynamic;
	pthread_mutex_unlock(&raised_lock);
	return v;
}

/* A function unloaded with its module is forgotten (its address may come back). */
static void
forget_raised(CUfunction f)
{
	int i;

	pthread_mutex_lock(&raised_lock);
	for (i = 0; i < nraised; i++)
		if (raised[i].f == f) {
			raised[i] = raised[--nraised];  /* a function is there once */
			break;
		}
	pthread_mutex_unlock(&raised_lock);
}

API CUresult CUDAAPI
cuFuncGetAttribute(int *v, CUfunction_attribute a, CUfunction f)
{
	*v = a == CU_FUNC_ATTRIBUTE_NUM_REGS ? 32 : a == CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK ? 1024
	   : a == CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES ? FAKE_STATIC_SMEM
	   : a == CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES ? max_dynamic(f) : 0;
	return CUDA_SUCCESS;
}

API CUresult CUDAAPI
cuFuncSetAttribute(CUfunction f, CUfunction_attribute a, int v)
{
	CUresult r = CUDA_SUCCESS;
	int i;

	if (a == CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED)  /* FAKE_CUDA_PORTABLE_ONLY: a GPU that refuses it */
		return v && getenv("FAKE_CUDA_PORTABLE_ONLY") ? CUDA_ERROR_NOT_SUPPORTED : CUDA_SUCCESS;
	if (a != CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES)
		return CUDA_SUCCESS;
	if (v < 0 || v > smem_optin() - FAKE_STATIC_SMEM)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&raised_lock);
	for (i = 0; i < nraised && raised[i].f != f; i++)
		;
	if (i == nraised && nraised == (int)(sizeof raised / sizeof raised[0]))
		r = CUDA_ERROR_OUT_OF_MEMORY;
	else {
		if (i == nraised)
			raised[nraised++].f = f;
		raised[i].max_dynamic = v;
	}
	pthread_mutex_unlock(&raised_lock);
	return r;
}

API CUresult CUDAAPI
cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
               unsigned smem, CUstream s, void **params, void **extra)
{
	struct fake_launch *l;
	int i;

	NEED_CONTEXT();
	FAIL_IF("cuLaunchKernel");
	NOT_DEFAULT_IN_CAPTURE(s);
	if (!gx || !gy || !gz || gy > 65535 || gz > 65535 || !bx || bx * by * bz > 1024)
		return CUDA_ERROR_INVALID_VALUE;
	if ((int)smem > max_dynamic(f))
		return CUDA_ERROR_INVALID_VALUE;
	l = &fake_cuda_launches[fake_cuda_nlaunches++ % 256];
	memset(l, 0, sizeof *l);
	snprintf(l->name, sizeof l->name, "%s", (const char *)f);
	l->grid[0] = gx, l->grid[1] = gy, l->grid[2] = gz;
	l->block[0] = bx, l->block[1] = by, l->block[2] = bz;
	l->smem = smem;
	l->stream = s;
	/* Parameters: kgen passes pointers to 4- or 8-byte values, or to 128-byte
	 * tensor maps; the first 8 bytes of each (a 4-byte value's upper half is
	 * whatever follows it: the test masks). */
	for (i = 0; params && i < fake_cuda_nparams && i < 12; i++)
		memcpy(&l->args[i], params[i], 8);
	l->nargs = i;
	if (fake_cuda_watch[0] && !strcmp(fake_cuda_watch, (const char *)f) && params) {
		for (i = 0; i < fake_cuda_watch_nparams && i < 12; i++)
			memcpy(&fake_cuda_watched_args[i], params[i], 8);
		memcpy(fake_cuda_watched, params[fake_cuda_watch_param], sizeof fake_cuda_watched);
		fake_cuda_watches++;
	}
	return CUDA_SUCCESS;
}

/* The launch above, with its configuration's attributes: programmatic
 * stream serialization, cluster dimensions and a cooperative launch (refused
 * past what the GPU holds at once) are recorded; any other attribute is
 * refused. */
API CUresult CUDAAPI
cuLaunchKernelEx(const CUlaunchConfig *c, CUfunction f, void **params, void **extra)
{
	CUresult r;
	int dependent = 0, cooperative = 0, per_sm;
	unsigned i, cluster[3] = { 0, 0, 0 };

	for (i = 0; i < c->numAttrs; i++) {
		if (c->attrs[i].id == CU_LAUNCH_ATTRIBUTE_COOPERATIVE) {
			cooperative = c->attrs[i].value.cooperative;
			continue;
		}
		if (c->attrs[i].id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION) {
			cluster[0] = c->attrs[i].value.clusterDim.x;
			cluster[1] = c->attrs[i].value.clusterDim.y;
			cluster[2] = c->attrs[i].value.clusterDim.z;
			if (c->gridDimX % cluster[0])
				return CUDA_ERROR_INVALID_CLUSTER_SIZE;
			continue;
		}
		if (c->attrs[i].id != CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION)
			return CUDA_ERROR_INVALID_VALUE;
		dependent = c->attrs[i].value.programmaticStreamSerializationAllowed;
	}
	FAIL_IF("cuLaunchKernelEx");
	/* a cooperative grid larger than the 132 SMs hold at cuOccupancyMaxActiveBlocksPerMultiprocessor's count */
	cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, f, (int)(c->blockDimX * c->blockDimY * c->blockDimZ),
	                                            c->sharedMemBytes);
	if (cooperative && (unsigned long long)c->gridDimX * c->gridDimY * c->gridDimZ > 132ull * (unsigned)per_sm)
		return CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE;
	r = cuLaunchKernel(f, c->gridDimX, c->gridDimY, c->gridDimZ, c->blockDimX, c->blockDimY, c->blockDimZ,
	                   c->sharedMemBytes, c->hStream, params, extra);
	if (r == CUDA_SUCCESS) {
		fake_cuda_launches[(fake_cuda_nlaunches - 1) % 256].dependent = dependent;
		memcpy(fake_cuda_launches[(fake_cuda_nlaunches - 1) % 256].cluster, cluster, sizeof cluster);
		fake_cuda_launches[(fake_cuda_nlaunches - 1) % 256].cooperative = cooperative;
	}
	return r;
}

API CUresult CUDAAPI
cuMemAlloc(CUdeviceptr *p, size_t n)
{
	void *m;

	NEED_CONTEXT();
	FAIL_IF("cuMemAlloc");
	NO_CAPTURE();
	if (!(m = aligned_alloc(256, (n + 255) / 256 * 256)))
		return CUDA_ERROR_OUT_OF_MEMORY;
	*p = (CUdeviceptr)(uintptr_t)m;
	fake_cuda_allocs++;
	return CUDA_SUCCESS;
}

/* As the real driver: stream-ordered allocation may be captured (it
 * becomes a graph node), and is not on the capture's default stream. */
API CUresult CUDAAPI
cuMemAllocAsync(CUdeviceptr *p, size_t n, CUstream s)
{
	void *m;

	NEED_CONTEXT();
	FAIL_IF("cuMemAllocAsync");
	NOT_DEFAULT_IN_CAPTURE(s);
	if (!(m = aligned_alloc(256, (n + 255) / 256 * 256)))
		return CUDA_ERROR_OUT_OF_MEMORY;
	*p = (CUdeviceptr)(uintptr_t)m;
	fake_cuda_async_allocs++;
	fake_cuda_alloc_stream = s;
	return CUDA_SUCCESS;
}

API CUresult CUDAAPI
cuMemFreeAsync(CUdeviceptr p, CUstream s)
{
	NEED_CONTEXT();
	if (!p)
		return CUDA_ERROR_INVALID_VALUE;
	free((void *)(uintptr_t)p);
	fake_cuda_async_allocs--;
	fake_cuda_free_stream = s;
	return CUDA_SUCCESS;
}

API CUresult CUDAAPI
cuStreamIsCapturing(CUstream s, CUstreamCaptureStatus *status)
{
	*status = fake_cuda_capturing && s == fake_cuda_capturing ? CU_STREAM_CAPTURE_STATUS_ACTIVE
	                                                          : CU_STREAM_CAPTURE_STATUS_NONE;
	return CUDA_SUCCESS;
}

API CUresult CUDAAPI
cuStreamWaitEvent(CUstream s, CUevent e, unsigned flags)
{
	if (!e)
		return CUDA_ERROR_INVALID_HANDLE;
	fake_cuda_waits++;
	fake_cuda_waited = s;
	return CUDA_SUCCESS;
}

/* Work is done at once: every event has completed. */
API CUresult CUDAAPI cuEventQuery(CUevent e) { return e ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE; }

API CUresult CUDAAPI cuMemFree(CUdeviceptr p) { if (p) { free((void *)(uintptr_t)p); fake_cuda_allocs--; } return CUDA_SUCCESS; }
API CUresult CUDAAPI cuMemcpyHtoD(CUdeviceptr d, const void *h, size_t n) { NEED_CONTEXT(); memcpy((void *)(uintptr_t)d, h, n); return CUDA_SUCCESS; }
API CUresult CUDAAPI cuMemcpyDtoH(void *h, CUdeviceptr d, size_t n) { NEED_CONTEXT(); memcpy(h, (void *)(uintptr_t)d, n); return CUDA_SUCCESS; }
API CUresult CUDAAPI cuMemcpyDtoDAsync(CUdeviceptr d, CUdeviceptr s, size_t n, CUstream st) { fake_cuda_copies++; memmove((void *)(uintptr_t)d, (void *)(uintptr_t)s, n); return CUDA_SUCCESS; }
API CUresult CUDAAPI
cuMemsetD8Async(CUdeviceptr d, unsigned char v, size_t n, CUstream s)
{
	NEED_CONTEXT();
	NOT_DEFAULT_IN_CAPTURE(s);
	memset((void *)(uintptr_t)d, v, n);
	fake_cuda_memset_bytes += n;
	return CUDA_SUCCESS;
}

API CUresult CUDAAPI
cuMemsetD32Async(CUdeviceptr d, unsigned int v, size_t n, CUstream s)
{
	size_t i;

	for (i = 0; i < n; i++)
		memcpy((char *)(uintptr_t)d + 4 * i, &v, 4);
	return CUDA_SUCCESS;
}

API CUresult CUDAAPI
cuMemsetD2D32Async(CUdeviceptr d, size_t pitch, unsigned int v, size_t width, size_t height, CUstream s)
{
	size_t r, i;

	NEED_CONTEXT();
	for (r = 0; r < height; r++)
		for (i = 0; i < width; i++)
			memcpy((char *)(uintptr_t)d + r * pitch + 4 * i, &v, 4);
	return CUDA_SUCCESS;
}

API CUresult CUDAAPI cuMemGetInfo(size_t *free_, size_t *total) { *free_ = (size_t)64 << 30; *total = (size_t)141 << 30; return CUDA_SUCCESS; }
API CUresult CUDAAPI cuStreamSynchronize(CUstream s) { NO_CAPTURE(); return CUDA_SUCCESS; }

/* An event, a stream, a graph or an executable graph is a malloc'd byte,
 * counted while it lives. */
static CUresult
make(void **p, int *live)
{
	if (!(*p = malloc(1)))
		return CUDA_ERROR_OUT_OF_MEMORY;
	(*live)++;
	return CUDA_SUCCESS;
}

static CUresult
unmake(void *p, int *live)
{
	if (!p)
		return CUDA_ERROR_INVALID_HANDLE;
	free(p);
	(*live)--;
	return CUDA_SUCCESS;
}

API CUresult CUDAAPI
cuEventCreate(CUevent *e, unsigned flags)
{
	FAIL_IF("cuEventCreate");
	return make((void **)e, &fake_cuda_events);
}

API CUresult CUDAAPI cuEventRecord(CUevent e, CUstream s) { NOT_DEFAULT_IN_CAPTURE(s); return CUDA_SUCCESS; }
API CUresult CUDAAPI cuEventSynchronize(CUevent e) { return CUDA_SUCCESS; }

API CUresult CUDAAPI
cuEventElapsedTime(float *ms, CUevent a, CUevent b)
{
	static int calls;

	*ms = fake_cuda_elapsed_ms + fake_cuda_elapsed_step * (float)(calls++ % 5);
	return CUDA_SUCCESS;
}

API CUresult CUDAAPI cuEventDestroy(CUevent e) { return unmake(e, &fake_cuda_events); }

/* Streams and graphs (kgen_time_calls' graph method): a capture records
 * nothing (launches in it are recorded as launches, with its stream);
 * launching the graph is counted, nothing runs. */
API CUresult CUDAAPI
cuStreamCreate(CUstream *s, unsigned flags)
{
	FAIL_IF("cuStreamCreate");
	return make((void **)s, &fake_cuda_streams);
}

API CUresult CUDAAPI cuStreamDestroy(CUstream s) { return unmake(s, &fake_cuda_streams); }

API CUresult CUDAAPI
cuStreamBeginCapture(CUstream s, CUstreamCaptureMode m)
{
	FAIL_IF("cuStreamBeginCapture");
	if (!s || fake_cuda_capturing)
		return CUDA_ERROR_ILLEGAL_STATE;
	fake_cuda_capturing = s;
	return CUDA_SUCCESS;
}

API CUresult CUDAAPI
cuStreamEndCapture(CUstream s, CUgraph *g)
{
	if (s != fake_cuda_capturing)
		return CUDA_ERROR_ILLEGAL_STATE;
	fake_cuda_capturing = NULL;
	return make((void **)g, &fake_cuda_graphs);
}

API CUresult CUDAAPI
cuGraphInstantiateWithFlags(CUgraphExec *e, CUgraph g, unsigned long long flags)
{
	FAIL_IF("cuGraphInstantiateWithFlags");
	return g ? make((void **)e, &fake_cuda_execs) : CUDA_ERROR_INVALID_VALUE;
}

API CUresult CUDAAPI
cuGraphLaunch(CUgraphExec e, CUstream s)
{
	FAIL_IF("cuGraphLaunch");
	if (!e)
		return CUDA_ERROR_INVALID_VALUE;
	fake_cuda_graph_launches++;
	return CUDA_SUCCESS;
}

API CUresult CUDAAPI cuGraphExecDestroy(CUgraphExec e) { return unmake(e, &fake_cuda_execs); }
API CUresult CUDAAPI cuGraphDestroy(CUgraph g) { return unmake(g, &fake_cuda_graphs); }

API struct fake_map fake_cuda_last_map, fake_cuda_prev_map;  /* the last map encoded, and the one before */

/* An element's bytes, by CUtensorMapDataType (0: a type kgen does not use). */
static unsigned
map_element(CUtensorMapDataType t)
{
	switch (t) {
	case CU_TENSOR_MAP_DATA_TYPE_UINT8: return 1;
	case CU_TENSOR_MAP_DATA_TYPE_UINT16: case CU_TENSOR_MAP_DATA_TYPE_FLOAT16:
	case CU_TENSOR_MAP_DATA_TYPE_BFLOAT16: return 2;
	case CU_TENSOR_MAP_DATA_TYPE_UINT32: case CU_TENSOR_MAP_DATA_TYPE_INT32:
	case CU_TENSOR_MAP_DATA_TYPE_FLOAT32: return 4;
	case CU_TENSOR_MAP_DATA_TYPE_UINT64: case CU_TENSOR_MAP_DATA_TYPE_INT64:
	case CU_TENSOR_MAP_DATA_TYPE_FLOAT64: return 8;
	default: return 0;
	}
}

API CUresult CUDAAPI
cuTensorMapEncodeTiled(CUtensorMap *map, CUtensorMapDataType t, cuuint32_t rank, void *addr, const cuuint64_t *dims,
                       const cuuint64_t *strides, const cuuint32_t *box, const cuuint32_t *estrides,
                       CUtensorMapInterleave il, CUtensorMapSwizzle sw, CUtensorMapL2promotion pr,
                       CUtensorMapFloatOOBfill oob)
{
	cuuint32_t i;

	FAIL_IF("cuTensorMapEncodeTiled");
	/* The driver's own rules, those kgen must keep. */
	if (rank < 1 || rank > 5 || (uintptr_t)addr % 16)
		return CUDA_ERROR_INVALID_VALUE;
	for (i = 0; i + 1 < rank; i++)
		if (strides[i] % 16)
			return CUDA_ERROR_INVALID_VALUE;
	for (i = 0; i < rank; i++)
		if (!box[i] || box[i] > 256 || !dims[i])
			return CUDA_ERROR_INVALID_VALUE;
	/* A swizzled box's inner dimension fits the swizzle's span. */
	if (!map_element(t) || (sw == CU_TENSOR_MAP_SWIZZLE_128B && box[0] * map_element(t) > 128) ||
	    (sw == CU_TENSOR_MAP_SWIZZLE_64B && box[0] * map_element(t) > 64) ||
	    (sw == CU_TENSOR_MAP_SWIZZLE_32B && box[0] * map_element(t) > 32))
		return CUDA_ERROR_INVALID_VALUE;
	fake_cuda_prev_map = fake_cuda_last_map;
	memset(&fake_cuda_last_map, 0, sizeof fake_cuda_last_map);
	fake_cuda_last_map.type = (int)t;
	fake_cuda_last_map.rank = (int)rank;
	fake_cuda_last_map.swizzle = (int)sw;
	fake_cuda_last_map.addr = (unsigned long long)(uintptr_t)addr;
	for (i = 0; i < rank; i++) {
		fake_cuda_last_map.box[i] = box[i];
		fake_cuda_last_map.dims[i] = dims[i];
		if (i + 1 < rank)
			fake_cuda_last_map.strides[i] = strides[i];
	}
	memset(map, 0, sizeof *map);
	memcpy(map, dims, rank * sizeof *dims);  /* readable by the test: dims first */
	fake_cuda_encodes++;
	return CUDA_SUCCESS;
}

/* Clusters the fake GPU holds at once: 60 (of its 132 SMs, as a GPU whose
 * GPCs leave some SMs out of pairs). */
API CUresult CUDAAPI
cuOccupancyMaxActiveClusters(int *n, CUfunction f, const CUlaunchConfig *c)
{
	unsigned i;

	for (i = 0; i < c->numAttrs; i++)
		if (c->attrs[i].id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION) {
			*n = 60;
			return CUDA_SUCCESS;
		}
	return CUDA_ERROR_INVALID_VALUE;
}

API CUresult CUDAAPI
cuOccupancyMaxActiveBlocksPerMultiprocessor(int *n, CUfunction f, int block, size_t smem)
{
	*n = block > 512 ? 1 : 2;
	return CUDA_SUCCESS;
}
