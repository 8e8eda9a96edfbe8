/* reduce_jit.c - JIT a one-pass f32 sum from a YAML string and run it on
 * memory from the CUDA runtime API (kgen uses the same primary context).
 *   cc reduce_jit.c $(pkg-config --cflags --libs kgen) -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <kgen.h>

static const char spec[] = "kernel: reduce\nop: sum\ndtype: f32\nthreads: 512\n"
                           "items_per_thread: 16\nload_width: 16\nstages: atomic\n";

int
main(void)
{
	enum { N = 1000003 };
	float *host = malloc(N * sizeof *host), *in = NULL, *out = NULL, got = -1, want = 0;
	kgen_context *ctx = NULL;
	kgen_kernel *k;
	kgen_error err = { 0 };
	cudaError_t ce = cudaSuccess;
	int i, ok = 0;

	/* Multiples of 1/16 summing to less than 2^20: every partial sum is exact in f32. */
	for (i = 0; host && i < N; i++)
		want += host[i] = (float)(i % 17) / 16;
	if (!host || kgen_context_create(0, &ctx, &err) || kgen_kernel_build_yaml(ctx, spec, &k, &err) ||
	    (ce = cudaMalloc((void **)&in, N * sizeof *in)) || (ce = cudaMalloc((void **)&out, sizeof *out)) ||
	    (ce = cudaMemcpy(in, host, N * sizeof *in, cudaMemcpyHostToDevice)) ||
	    kgen_reduce(k, (kgen_devptr)in, N, (kgen_devptr)out, 0, 0, NULL, &err) ||
	    (ce = cudaMemcpy(&got, out, sizeof got, cudaMemcpyDeviceToHost))) {
		if (err.status)
			kgen_error_print(&err, stderr);
		else
			fprintf(stderr, "reduce_jit: %s\n", host ? cudaGetErrorString(ce) : "out of memory");
	} else {
		ok = got == want;
		printf("%s: sum of %d floats = %.4f, host %.4f: %s\n", kgen_context_device_name(ctx), N, got, want,
		       ok ? "ok" : "WRONG");
	}
	cudaFree(in);
	cudaFree(out);
	kgen_context_destroy(ctx);
	free(host);
	return !ok;
}
