/*
 * nccl.h - NCCL, loaded at run time with dlopen("libnccl.so.2") as
 * driver.h loads libcuda, so that kgen builds without NCCL and says why
 * a multi-GPU call cannot run on a machine without it.  Only what
 * kgen_multi_* (runtime/multi.c) calls is declared, with NCCL's own names
 * and values (nccl.h of NCCL 2.x, whose ABI keeps them); nccl.h itself is
 * never included.
 */
#ifndef KGEN_NCCL_H
#define KGEN_NCCL_H

#include <stddef.h>
#include "kgen.h"

typedef struct ncclComm *ncclComm_t;
typedef int ncclResult_t;                      /* ncclSuccess is 0 */
typedef enum { ncclSum = 0, ncclProd = 1, ncclMax = 2, ncclMin = 3 } ncclRedOp_t;
typedef enum {
	ncclInt8 = 0, ncclInt32 = 2, ncclUint32 = 3, ncclInt64 = 4, ncclFloat32 = 7, ncclFloat64 = 8
} ncclDataType_t;
typedef void *ncclStream;                      /* a cudaStream_t: a CUstream */

/* The entry points, declared for their types only (they are called
 * through the table). */
ncclResult_t ncclGetVersion(int *version);
const char *ncclGetErrorString(ncclResult_t result);
ncclResult_t ncclCommInitAll(ncclComm_t *comm, int ndev, const int *devlist);
ncclResult_t ncclCommDestroy(ncclComm_t comm);
ncclResult_t ncclAllReduce(const void *sendbuff, void *recvbuff, size_t count, ncclDataType_t datatype,
                           ncclRedOp_t op, ncclComm_t comm, ncclStream stream);
ncclResult_t ncclReduce(const void *sendbuff, void *recvbuff, size_t count, ncclDataType_t datatype, ncclRedOp_t op,
                        int root, ncclComm_t comm, ncclStream stream);
ncclResult_t ncclAllGather(const void *sendbuff, void *recvbuff, size_t sendcount, ncclDataType_t datatype,
                           ncclComm_t comm, ncclStream stream);
ncclResult_t ncclSend(const void *sendbuff, size_t count, ncclDataType_t datatype, int peer, ncclComm_t comm,
                      ncclStream stream);
ncclResult_t ncclRecv(void *recvbuff, size_t count, ncclDataType_t datatype, int peer, ncclComm_t comm,
                      ncclStream stream);
ncclResult_t ncclGroupStart(void);
ncclResult_t ncclGroupEnd(void);

#define KGEN_NCCL_FUNCS(X) \
	X(ncclGetVersion) X(ncclGetErrorString) X(ncclCommInitAll) X(ncclCommDestroy) \
	X(ncclAllReduce) X(ncclReduce) X(ncclAllGather) X(ncclSend) X(ncclRecv) \
	X(ncclGroupStart) X(ncclGroupEnd)

struct kgen_nccl {
#define X(f) __typeof__(&f) f;
	KGEN_NCCL_FUNCS(X)
#undef X
	int version;  /* NCCL_VERSION_CODE of the library loaded, e.g. 22809 */
};

/* Load NCCL once per process ($KGEN_NCCL_LIBRARY, default libnccl.so.2); the table on success, else KGEN_ECUDA
 * naming the library and why. */
kgen_status kgen_nccl_load(const struct kgen_nccl **nccl, kgen_error *err);

/* Fill err from a failed NCCL call: "ncclAllReduce(): invalid argument (run with NCCL_DEBUG=WARN ...)". */
kgen_status kgen_nccl_fail(const struct kgen_nccl *nccl, kgen_error *err, const char *call, ncclResult_t r);

/* Call an NCCL function through table `nc`; on failure fill err and return. */
#define KGEN_NCCL(nc, err, fn, args) \
	do { \
		ncclResult_t r_ = (nc)->fn args; \
		if (r_ != 0) \
			return kgen_nccl_fail((nc), (err), #fn, r_); \
	} while (0)

#endif
