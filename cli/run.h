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

/* The most --n and --shape a command takes (issue 50's grid is 50 shapes). */
#define KGEN_RUN_MAX_SIZES 64

struct run_opts {
	unsigned long long n[KGEN_RUN_MAX_SIZES];         /* --n: vector sizes */
	unsigned long long shape[KGEN_RUN_MAX_SIZES][3];  /* --shape: rows, cols, batch (1 unless BxRxC) */
	int shape_parts[KGEN_RUN_MAX_SIZES];              /* how many numbers each --shape had: 2 or 3 (0: the default) */
	const char *zero_shape;           /* the first --shape with a part 0: each spec refuses it in its family's words */
	int nn, nshape;
	int n_given;                      /* --n given (nn is 1, 2^24, without it) */
	int verify, bench, runs, device, offset, pad, nsets;
	int extreme, nan;                 /* --extreme, --nan: KGEN_PLACE_* bits */
	int identity;                     /* --identity: every element the op's identity */
	int accuracy;                     /* --accuracy: matmul's largest error measured on real data, not checked */
	int method;                       /* --method: enum kgen_timing_method */
	unsigned long long seed;
	char *sets[64];
	const char *tsv, *cub;
	const char *cublas;                /* --cublas PATH: kgen-cublas, matmul's peer */
	const char *json;                 /* --json FILE: the --tsv rows as JSON lines */
	const char *devices;              /* --devices LIST: over several GPUs (run_multi.c) */
};

/* One spec given to `kgen run`, built. */
struct run_spec {
	kgen_spec *spec;     /* a plan's: its first entry's, owned by the plan */
	kgen_kernel *kernel;
	const char *path;
	kgen_plan *plan;     /* a size plan given in place of a spec */
};

/* What `kgen tune` asks of a family (cli/tune.c, which names no family):
 * at one size, a case made once for every point of a tuning (they all
 * compute the same), each point verified against it and then timed.  The
 * size is o->n[j] for a family sized by n, o->shape[j] (rows, cols, batch)
 * for one sized by rows and cols (struct kgen_family's size); o holds
 * --seed (the rest is kgen run's defaults: no --offset, --pad or
 * --identity).  A case is the family's own struct, behind void *. */
struct kgen_tuner {
	/* The case of size j: seeded input, copies of it that together exceed
	 * twice the L2 (timed calls rotate among them, as kgen run --bench's
	 * do), room for the output, and spec's CPU reference. */
	kgen_status (*prepare)(kgen_context *ctx, const struct run_opts *o, const kgen_spec *spec, int j, void **c,
	                       kgen_error *err);
	/* Run k once on the first copy, its output poisoned first, and compare
	 * with the reference: *ok, and in msg what is wrong.  KGEN_EINVAL: k
	 * cannot take this size (alignment, index width, grid): the point is
	 * left out there, no failure. */
	kgen_status (*verify)(kgen_context *ctx, void *c, kgen_kernel *k, int *ok, char *msg, size_t len,
	                      kgen_error *err);
	/* Call i of k on stream, reading copy i % copies: what
	 * kgen_time_calls() times (kgen_timed_fn). */
	kgen_status (*call)(void *c, kgen_kernel *k, int i, CUstream stream, kgen_error *err);
	void (*free)(kgen_context *ctx, void *c);
	/* Optional, for --against cub: the peer's name ("cub::DeviceReduce")
	 * and its median milliseconds per call at size j under method m (-1
	 * when it cannot be timed), the width of its offsets into *offsets. */
	const char *peer;
	double (*peer_ms)(kgen_context *ctx, const struct run_opts *o, const kgen_spec *spec, int j, int method,
	                  int *offsets);
	/* Optional: what the peer computes for spec, as the records' key names
	 * it (default "OP DTYPE", as for cub::DeviceReduce). */
	void (*peer_key)(const kgen_spec *spec, char *buf, size_t len);
	/* A family sized by n that kgen tune also sizes by --shape ROWSxCOLS
	 * when given shapes and no --n (a scan's rows, or its columns), as kgen
	 * run does: no size plan and no peer then. */
	int shapes;
};

struct kgen_runner {
	/* Optional: refuse, before the GPU is touched, sizes the spec cannot
	 * take on the host (inputs whose byte counts wrap). */
	kgen_status (*check)(const struct run_opts *o, const kgen_spec *spec, kgen_error *err);
	/* Verify and time specs[0..n) (all of the runner's family); count the
	 * results that did not verify in *failures.  An error stops the run. */
	kgen_status (*run)(kgen_context *ctx, const struct run_opts *o, struct run_spec *specs, int n, FILE *tsv,
	                   int *failures, kgen_error *err);
	/* kgen tune's hooks; NULL for a family kgen tune does not take. */
	const struct kgen_tuner *tune;
	int accuracy;  /* takes --accuracy (measures its error instead of checking) */
};

#define X(id, name, doc, stem) extern const struct kgen_runner kgen_runner_##stem;
KGEN_FAMILIES(X)
#undef X

/* The runner of a spec's family. */
const struct kgen_runner *kgen_runner_of(const kgen_spec *s);
/* The families kgen tune takes (their runners have tune hooks), "kernel:
 * reduce, reduce_axis or matmul"; with peer set, those that have a peer for
 * --against. */
const char *kgen_tune_families(int peer, char *buf, size_t len);

/* The input: n seeded values for the op (kgen_fill_input), or with
 * --identity the op's identity; an error for an op without one. */
kgen_status kgen_fill_run(const struct kgen_spec *s, const struct run_opts *o, void *host, unsigned long long n,
                          uint64_t seed, kgen_error *err);

/* --extreme and --nan: the op's winning value, then NaNs (a NaN placed
 * after wins the place), at the start and end of the n elements of host
 * at first, first + stride, ... */
void kgen_place_ends(const struct kgen_spec *s, const struct run_opts *o, void *host, unsigned long long first,
                     unsigned long long n, unsigned long long stride);

/* "ROWSxCOLS" or "BATCHxROWSxCOLS" (--shape), each part as
 * kgen_parse_count reads it and not 0, into shape {rows, cols, batch}
 * (batch 1 when not given); 0 on success, -1 for no such text, -2 when
 * it is one but a part is 0 (shape filled in: what sizes the family of
 * the spec says how the message words it). */
int kgen_parse_shape(const char *text, unsigned long long shape[3]);

/* count elements of `size` bytes each, times `times`, overflow size_t? */
int kgen_run_too_large(unsigned long long count, unsigned long long times, unsigned long long size);

/* Whether kgen run was asked to stop (SIGINT, SIGTERM or SIGHUP while it
 * gathers --tsv or --json rows): the runners start no further result, and
 * the rows so far are written (the signals: timing.h's kgen_stop_signals). */
int kgen_run_stopped(void);

/* Copies of an input of `bytes` that together exceed twice the L2, so that
 * timed calls rotated among them read device memory (1 to 64). */
int kgen_run_copies(const kgen_context *ctx, const struct run_opts *o, size_t bytes);

/* kgen run --devices: the specs over the GPUs of o->devices (run_multi.c);
 * the exit status. */
int kgen_run_multi(const struct run_opts *o, char **paths, int npaths);

/* "0,1,3" into devices (at most `most`): the count, or -1 with err. */
int kgen_parse_devices(const char *text, int *devices, int most, kgen_error *err);

#endif
