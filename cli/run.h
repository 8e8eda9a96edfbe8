/*
 * run.h - `kgen run`: the options every family's runner reads, and the
 * runners, one per row of KGEN_FAMILIES (cli/run_STEM.c defines
 * kgen_runner_STEM).  run.c parses the command line, builds the specs and
 * hands each runner the specs of its family.
 */
#ifndef KGEN_RUN_H
#define KGEN_RUN_H

#include <stdio.h>
#include "runtime/runtime.h"

struct run_opts {
	unsigned long long n[32];         /* --n: vector sizes */
	unsigned long long shape[32][3];  /* --shape: rows, cols, batch (1 unless BxRxC) */
	int shape_parts[32];              /* how many numbers each --shape had: 2 or 3 (0: the default) */
	int nn, nshape;
	int verify, bench, runs, device, offset, pad, nsets;
	int extreme, nan;                 /* --extreme, --nan: KGEN_PLACE_* bits */
	int identity;                     /* --identity: every element the op's identity */
	int method;                       /* --method: enum kgen_timing_method */
	unsigned long long seed;
	char *sets[64];
	const char *tsv, *cub;
	const char *json;                 /* --json FILE: the --tsv rows as JSON lines */
};

/* One spec given to `kgen run`, built. */
struct run_spec {
	kgen_spec *spec;     /* a plan's: its first entry's, owned by the plan */
	kgen_kernel *kernel;
	const char *path;
	kgen_plan *plan;     /* a size plan given in place of a spec */
};

struct kgen_runner {
	/* Optional: refuse, before the GPU is touched, sizes the spec cannot
	 * take on the host (inputs whose byte counts wrap). */
	kgen_status (*check)(const struct run_opts *o, const kgen_spec *spec, kgen_error *err);
	/* Verify and time specs[0..n) (all of the runner's family); count the
	 * results that did not verify in *failures.  An error stops the run. */
	kgen_status (*run)(kgen_context *ctx, const struct run_opts *o, struct run_spec *specs, int n, FILE *tsv,
	                   int *failures, kgen_error *err);
};

#define X(id, name, doc, stem) extern const struct kgen_runner kgen_runner_##stem;
KGEN_FAMILIES(X)
#undef X

/* The input: n seeded values for the op (kgen_fill_input), or with
 * --identity the op's identity; an error for an op without one. */
kgen_status kgen_fill_run(const struct kgen_spec *s, const struct run_opts *o, void *host, unsigned long long n,
                          uint64_t seed, kgen_error *err);

/* --extreme and --nan: the op's winning value, then NaNs (a NaN placed
 * after wins the place), at the start and end of the n elements of host
 * at first, first + stride, ... */
void kgen_place_ends(const struct kgen_spec *s, const struct run_opts *o, void *host, unsigned long long first,
                     unsigned long long n, unsigned long long stride);

/* count elements of `size` bytes each, times `times`, overflow size_t? */
int kgen_run_too_large(unsigned long long count, unsigned long long times, unsigned long long size);

/* Copies of an input of `bytes` that together exceed twice the L2, so that
 * timed calls rotated among them read device memory (1 to 64). */
int kgen_run_copies(const kgen_context *ctx, const struct run_opts *o, size_t bytes);

#endif
