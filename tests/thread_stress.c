/*
 * thread_stress.c - several threads building specs and plans in one
 * context at once, against the fake driver (tests/fake_cuda): every thread
 * asks for the same few kernels (so that builds race on the context's
 * kernel table and the disk cache) and a few of its own, and launches each
 * once (the rows spec at two row lengths).  Each build must succeed and
 * every thread must get the same kernel for the same spec.  Built with
 * -fsanitize=thread by `make check-sanitize`,
 * where a data race fails it; a plain build only checks the results.
 * Usage: thread_stress [THREADS [ROUNDS]] (default 8 and 3).
 */
#include "config.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kgen.h"

#define MAX_THREADS 32

static kgen_context *ctx;
static int rounds = 3;

/* Specs every thread builds: the context must hand all of them one kernel. */
static const char *const shared[] = {
	"kernel: reduce\nthreads: 256\n",
	"kernel: reduce\nop: argmax\nstages: two_pass\n",
	"kernel: reduce_axis\naxis: rows\n",
	"kernel: transpose\n",
	"kernel: rows\ndtype: bf16\n",
};
/* The rows spec's index above: each thread launches it at two row lengths, so that first launches race
 * on its kernel list (rows_launch.c's launch state) and on building its lazy kernels. */
#define ROWS_SPEC 4
static const char *const plan_yaml =
	"plan:\n"
	"  - upto: 4096\n    spec: {kernel: reduce, threads: 128, stages: last_block}\n"
	"  - spec: {kernel: reduce, threads: 512, stages: atomic}\n";

struct job {
	int id;
	kgen_kernel *got[sizeof shared / sizeof shared[0]];
	char failed[300];
};

static void *
work(void *arg)
{
	struct job *j = arg;
	kgen_error err;
	kgen_kernel *k;
	kgen_plan *plan = NULL;
	char own[96];
	int r, i;

	for (r = 0; r < rounds; r++) {
		for (i = 0; i < (int)(sizeof shared / sizeof shared[0]); i++) {
			if (kgen_kernel_build_yaml(ctx, shared[i], &k, &err) != KGEN_OK)
				goto fail;
			if (j->got[i] && j->got[i] != k) {
				snprintf(j->failed, sizeof j->failed, "spec %d built twice: two kernels", i);
				return NULL;
			}
			j->got[i] = k;
		}
		{
			struct kgen_rows_args a;
			memset(&a, 0, sizeof a);
			a.x = 0x10000000ull;
			a.y = 0x20000000ull;
			a.rows = 100;
			a.cols = (j->id + r) % 2 ? 256 : 1536;
			if (kgen_rows(j->got[ROWS_SPEC], &a, NULL, &err) != KGEN_OK)
				goto fail;
			a.cols = (j->id + r) % 2 ? 1536 : 256;
			if (kgen_rows(j->got[ROWS_SPEC], &a, NULL, &err) != KGEN_OK)
				goto fail;
		}
		snprintf(own, sizeof own, "kernel: reduce\nthreads: %d\nname: own_%d_%d\n", 32 * (1 + j->id % 8), j->id, r);
		if (kgen_kernel_build_yaml(ctx, own, &k, &err) != KGEN_OK ||
		    kgen_reduce(k, 0x10000000ull, 1000, 0x20000000ull, 0, 0, NULL, &err) != KGEN_OK)
			goto fail;
		if (kgen_plan_load_string(plan_yaml, strlen(plan_yaml), "stress plan", &plan, &err) != KGEN_OK ||
		    kgen_kernel_build_plan(ctx, plan, &k, &err) != KGEN_OK ||
		    kgen_reduce(k, 0x10000000ull, 100000, 0x20000000ull, 0, 0, NULL, &err) != KGEN_OK)
			goto fail;
		kgen_plan_free(plan);
		plan = NULL;
	}
	return NULL;
fail:
	kgen_plan_free(plan);
	snprintf(j->failed, sizeof j->failed, "%s", err.message);
	return NULL;
}

int
main(int argc, char **argv)
{
	int nthreads = argc > 1 ? atoi(argv[1]) : 8, i, bad = 0;
	pthread_t th[MAX_THREADS];
	struct job jobs[MAX_THREADS];
	kgen_error err;

	rounds = argc > 2 ? atoi(argv[2]) : 3;
	if (nthreads < 1 || nthreads > MAX_THREADS || rounds < 1) {
		fprintf(stderr, "usage: thread_stress [THREADS (1-%d) [ROUNDS]]\n", MAX_THREADS);
		return 2;
	}
	if (kgen_context_create(0, &ctx, &err) != KGEN_OK) {
		printf("SKIP: no context (%s): run under tests/fake_test.sh's LD_LIBRARY_PATH\n", err.message);
		return 77;
	}
	memset(jobs, 0, sizeof jobs);
	for (i = 0; i < nthreads; i++) {
		jobs[i].id = i;
		if (pthread_create(&th[i], NULL, work, &jobs[i]) != 0) {
			fprintf(stderr, "thread_stress: cannot start thread %d\n", i);
			return 99;
		}
	}
	for (i = 0; i < nthreads; i++)
		pthread_join(th[i], NULL);
	for (i = 0; i < nthreads; i++) {
		int s;
		if (jobs[i].failed[0]) {
			fprintf(stderr, "FAIL: thread %d: %s\n", i, jobs[i].failed);
			bad = 1;
		}
		for (s = 0; s < (int)(sizeof shared / sizeof shared[0]); s++)
			if (jobs[i].got[s] != jobs[0].got[s]) {
				fprintf(stderr, "FAIL: threads 0 and %d got two kernels for shared spec %d\n", i, s);
				bad = 1;
			}
	}
	kgen_context_destroy(ctx);
	if (!bad)
		printf("ok: %d threads x %d rounds built shared specs, their own and a plan in one context\n", nthreads,
		       rounds);
	return bad;
}
