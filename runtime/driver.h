/*
 * driver.h - the CUDA driver, loaded at run time with dlopen("libcuda.so.1"),
 * so that kgen runs (and says why it cannot launch) on machines without a
 * driver or GPU.  Each entry point is resolved by its real, versioned name:
 * cuda.h maps cuMemAlloc to cuMemAlloc_v2, and the table below is expanded
 * after that mapping.
 */
#ifndef KGEN_DRIVER_H
#define KGEN_DRIVER_H

#include <cuda.h>
#include "gen/util.h"

#define KGEN_CU_FUNCS(X) \
	X(cuInit) X(cuDriverGetVersion) X(cuGetErrorName) X(cuGetErrorString) \
	X(cuDeviceGet) X(cuDeviceGetCount) X(cuDeviceGetAttribute) X(cuDeviceGetName) \
	X(cuDevicePrimaryCtxRetain) X(cuDevicePrimaryCtxRelease) X(cuCtxSetCurrent) X(cuCtxGetCurrent) \
	X(cuCtxPushCurrent) X(cuCtxPopCurrent) X(cuCtxSynchronize) \
	X(cuModuleLoadData) X(cuModuleUnload) X(cuModuleGetFunction) X(cuFuncGetAttribute) \
	X(cuFuncSetAttribute) X(cuLaunchKernel) X(cuLaunchKernelEx) \
	X(cuMemAlloc) X(cuMemFree) X(cuMemcpyHtoD) X(cuMemcpyDtoH) X(cuMemcpyDtoDAsync) \
	X(cuMemsetD8Async) X(cuMemsetD32Async) X(cuMemsetD2D32Async) X(cuMemGetInfo) \
	X(cuStreamSynchronize) X(cuStreamIsCapturing) X(cuEventCreate) X(cuEventRecord) X(cuEventSynchronize) \
	X(cuEventElapsedTime) X(cuEventDestroy) X(cuTensorMapEncodeTiled) \
	X(cuOccupancyMaxActiveBlocksPerMultiprocessor) X(cuOccupancyMaxActiveClusters) \
	X(cuStreamCreate) X(cuStreamDestroy) X(cuStreamBeginCapture) X(cuStreamEndCapture) \
	X(cuGraphInstantiateWithFlags) X(cuGraphLaunch) X(cuGraphExecDestroy) X(cuGraphDestroy)

struct kgen_cu {
#define X(f) __typeof__(&f) f;
	KGEN_CU_FUNCS(X)
#undef X
};

/* Load the driver and call cuInit(0) once per process; the table on success. */
kgen_status kgen_cu_load(const struct kgen_cu **cu, kgen_error *err);

/* Look each of `count` names up in a dlopen()ed library, into *slots[i]
 * (a function pointer's storage); the first one missing is a KGEN_ECUDA
 * error "WHO lacks NAME: dlerror's words (HINT)".  libcuda's and libnccl's
 * loaders share it. */
kgen_status kgen_dl_resolve(void *lib, const char *const *names, void **const *slots, size_t count, const char *who,
                            const char *hint, kgen_error *err);

/* Fill err from a failed driver call: "cuModuleLoadData(): CUDA_ERROR_INVALID_PTX: ...". */
kgen_status kgen_cu_fail(const struct kgen_cu *cu, kgen_error *err, const char *call, CUresult r);

/* Call a driver function through table `cu`; on failure fill err and return. */
#define KGEN_CU(cu, err, fn, args) \
	do { \
		CUresult r_ = (cu)->fn args; \
		if (r_ != CUDA_SUCCESS) \
			return kgen_cu_fail((cu), (err), #fn, r_); \
	} while (0)

#endif
