/*
 * fake_cuda.h - what the fake CUDA driver (fake_cuda.c) records of a launch,
 * shared by it and the C tests that read its records.  python/tests/fakecuda.py
 * mirrors struct fake_launch with ctypes and checks its size against
 * fake_cuda_launch_size, so a field added here fails there loudly.
 */
#ifndef FAKE_CUDA_H
#define FAKE_CUDA_H

struct fake_launch {
	char name[64];
	unsigned grid[3], block[3], smem;
	unsigned long long args[12];  /* the first 8 bytes of each parameter */
	int nargs;
	void *stream;                 /* the CUstream */
	int dependent;                /* cuLaunchKernelEx with programmatic stream serialization */
	unsigned cluster[3];          /* cuLaunchKernelEx's cluster dimensions (0: none) */
	int cooperative;              /* cuLaunchKernelEx with CU_LAUNCH_ATTRIBUTE_COOPERATIVE */
};

/* The last tensor map cuTensorMapEncodeTiled made (fake_cuda_last_map), and
 * the one before it (fake_cuda_prev_map: A's where A's and B's are made). */
struct fake_map {
	int type, rank, swizzle;      /* CUtensorMapDataType, CUtensorMapSwizzle */
	unsigned box[5];
	unsigned long long dims[5], strides[4];
	unsigned long long addr;      /* the tensor's start */
};

#endif
