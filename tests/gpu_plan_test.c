/*
 * gpu_plan_test.c - a size plan whose entries take turns on one GPU: a
 * last_block entry (its ticket, or no ticket for a lone block), a two_pass
 * entry (its partials), another last_block entry and an atomic entry, at
 * rising, falling and alternating n.  Each result of random i32 data is
 * checked exactly against the host's sum, the output poisoned first.  Once
 * with one scratch buffer that the caller sizes for every n
 * (kgen_reduce_scratch_size) and hands to every call, which the plan's
 * entries then share, and once with the kernels' own scratch.  Without a
 * GPU it skips (exit 77).
 */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kgen.h"
#include "runtime/runtime.h"

static const char plan_text[] =
	"plan:\n"
	"  - upto: 8192\n"      /* one block (n <= 1024 x 4): no ticket; more: the ticket at the start */
	"    spec: {kernel: reduce, dtype: i32, threads: 256, items_per_thread: 4, stages: last_block}\n"
	"  - upto: 1048576\n"   /* partials 16 bytes in: the ticket above stays 0 */
	"    spec: {kernel: reduce, dtype: i32, threads: 128, items_per_thread: 4, load_width: 4, stages: two_pass}\n"
	"  - upto: 4194304\n"
	"    spec: {kernel: reduce, dtype: i32, threads: 512, items_per_thread: 16, stages: last_block}\n"
	"  - spec: {kernel: reduce, dtype: i32, threads: 512, items_per_thread: 16, stages: atomic}\n";

/* Rising, falling and alternating between the entries. */
static const unsigned long long sizes[] = {
	1, 1000, 1024, 1025, 5000, 8192, 8193, 100003, 1048576, 4000, 1048577, 3000000, 5000, 4194305, 700,
	8000, 6000000, 1048576, 4194304, 8192, 1000, 8193,
};
#define NSIZES (sizeof sizes / sizeof sizes[0])
#define MAXN 6000000ull

static int failures;

static void
fail(const char *what, const kgen_error *err)
{
	fprintf(stderr, "FAIL: %s: %s\n", what, err ? err->message : "");
	failures++;
}

int
main(void)
{
	const struct kgen_cu *cu;
	kgen_context *ctx;
	kgen_plan *plan;
	kgen_kernel *k;
	kgen_error err;
	CUdeviceptr in, out, scratch = 0;
	size_t most = 0, bytes;
	unsigned *host, want, got, poison = 0xdeadbeefu;
	unsigned long long i, s;
	int pass;

	if (kgen_context_create(0, &ctx, &err) != KGEN_OK) {
		printf("SKIP: no GPU: %s\n", err.message);
		return 77;
	}
	/* The test's own allocations and copies need the context current. */
	if (kgen_cu_load(&cu, &err) || kgen_context_enter(ctx, &err) || kgen_plan_load_string(plan_text, sizeof plan_text - 1, "gpu_plan_test", &plan,
	                                                       &err) || kgen_kernel_build_plan(ctx, plan, &k, &err)) {
		fail("setup", &err);
		return 1;
	}
	if (!(host = malloc(MAXN * sizeof *host)))
		return 1;
	srand(9);
	for (i = 0; i < MAXN; i++)
		host[i] = (unsigned)rand() * 2654435761u;  /* the whole i32 range: sums wrap, as the GPU's do */
	for (s = 0; s < NSIZES; s++) {
		if (kgen_reduce_scratch_size(k, sizes[s], &bytes, &err))
			fail("kgen_reduce_scratch_size", &err);
		if (bytes > most)
			most = bytes;
	}
	if (cu->cuMemAlloc(&in, MAXN * sizeof *host) || cu->cuMemAlloc(&out, 4) || cu->cuMemAlloc(&scratch, most) ||
	    cu->cuMemcpyHtoD(in, host, MAXN * sizeof *host) || cu->cuMemsetD8Async(scratch, 0, most, NULL)) {
		fail("allocating", NULL);
		return 1;
	}
	for (pass = 0; pass < 2; pass++) {  /* 0: the caller's scratch, 1: the kernels' own */
		for (s = 0; s < NSIZES; s++) {
			for (want = 0, i = 0; i < sizes[s]; i++)
				want += host[i];
			got = 0;
			if (cu->cuMemcpyHtoD(out, &poison, 4) ||
			    kgen_reduce(k, in, sizes[s], out, pass ? 0 : scratch, pass ? 0 : most, NULL, &err) ||
			    cu->cuMemcpyDtoH(&got, out, 4)) {
				fail("kgen_reduce", &err);
				continue;
			}
			printf("%s %s scratch n=%llu sum=%d want=%d\n", got == want ? "ok" : "FAIL", pass ? "own" : "caller's",
			       sizes[s], (int)got, (int)want);
			failures += got != want;
		}
	}
	cu->cuMemFree(in);
	cu->cuMemFree(out);
	cu->cuMemFree(scratch);
	free(host);
	kgen_plan_free(plan);
	kgen_context_destroy(ctx);
	return failures ? 1 : 0;
}
