/*
 * rows_choose.c - the host's cost of one kgen_rows() call: the choice of
 * the kernel for the row length, the argument checks and the launch,
 * issued back to back.  For the fake driver only (tests/fake_cuda: its
 * launches record and return, so the figure is kgen's own host code plus
 * a nearly free launch); the arrays are made-up addresses, so it refuses
 * a real GPU.
 *
 *   rows_choose [SPEC_YAML [COLS [CALLS [REPS]]]]
 *
 * Prints the nanoseconds a call of each rep and their median.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "kgen.h"

static double
now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

static int
by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int
main(int argc, char **argv)
{
	const char *yaml = argc > 1 ? argv[1] : "kernel: rows\ndtype: bf16\n";
	unsigned long long cols = argc > 2 ? strtoull(argv[2], NULL, 0) : 32000;
	int calls = argc > 3 ? atoi(argv[3]) : 200000, reps = argc > 4 ? atoi(argv[4]) : 7, r, i;
	kgen_context *ctx;
	kgen_kernel *k;
	kgen_error err;
	struct kgen_rows_args a = { 0 };
	double ns[64];

	if (reps < 1 || reps > 64 || calls < 1) {
		fprintf(stderr, "usage: rows_choose [SPEC_YAML [COLS [CALLS [REPS (1-64)]]]]\n");
		return 2;
	}
	if (kgen_context_create(0, &ctx, &err) || kgen_kernel_build_yaml(ctx, yaml, &k, &err)) {
		fprintf(stderr, "rows_choose: %s\n", err.message);
		return 1;
	}
	if (strncmp(kgen_context_device_name(ctx), "Fake", 4)) {
		fprintf(stderr, "rows_choose: %s is not the fake driver's GPU (LD_LIBRARY_PATH=tests/fake_cuda)\n",
		        kgen_context_device_name(ctx));
		return 1;
	}
	a.x = 0x10000000;
	a.y = 0x20000000;
	a.rows = 1;
	a.cols = cols;
	printf("# %s, 1 x %llu, %d calls a rep\n", kgen_context_device_name(ctx), cols, calls);
	for (r = 0; r < reps; r++) {
		double t0 = now_ns();
		for (i = 0; i < calls; i++)
			if (kgen_rows(k, &a, NULL, &err)) {
				fprintf(stderr, "rows_choose: %s\n", err.message);
				return 1;
			}
		ns[r] = (now_ns() - t0) / calls;
		printf("rep %d: %.1f ns a call\n", r, ns[r]);
	}
	qsort(ns, (size_t)reps, sizeof ns[0], by_value);
	printf("median: %.1f ns a call\n", ns[reps / 2]);
	kgen_context_destroy(ctx);
	return 0;
}
