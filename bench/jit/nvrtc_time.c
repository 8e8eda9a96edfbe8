/*
 * nvrtc_time FILE.cu... : NVRTC compiles each file to a cubin, RUNS times
 * (default 5, at most 64), and prints the median wall time in ms and the
 * file.  The options are kgen's of 2026-11-28 (--gpu-architecture=sm_90
 * --std=c++17 --device-as-default-execution-space --minimal --no-cache)
 * unless NVRTC_OPTIONS gives others, space-separated (--gpu-architecture
 * included).  No GPU needed: it times what a cold build pays NVRTC for a
 * source, e.g. a spec's generated text at two commits (tests/golden/).
 *
 *   cc -O2 -o nvrtc_time bench/jit/nvrtc_time.c -I/usr/local/cuda/include \
 *       -L/usr/local/cuda/lib64 -lnvrtc
 *   RUNS=3 ./nvrtc_time old_*.cu new_*.cu
 *
 * Moved here on 2026-12-02 from bench/results/cpu-dev/2026-11-28-rows-jit/
 * (nvt.c, the run that used it with its default options); NVRTC_OPTIONS, the
 * bound on RUNS and the error checks were added then.
 */
#include <nvrtc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_RUNS 64
#define MAX_OPTS 32

static double now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* The whole of a file, NUL-terminated, or NULL. */
static char *read_file(const char *path)
{
	FILE *fp = fopen(path, "rb");
	char *src = NULL;
	long n;
	if (!fp)
		return NULL;
	if (fseek(fp, 0, SEEK_END) == 0 && (n = ftell(fp)) >= 0 && fseek(fp, 0, SEEK_SET) == 0 &&
	    (src = malloc((size_t)n + 1)) && fread(src, 1, (size_t)n, fp) == (size_t)n)
		src[n] = 0;
	else {
		free(src);
		src = NULL;
	}
	fclose(fp);
	return src;
}

/* One compile of src to a cubin under opts: its wall time in ms, or -1. */
static double compile_ms(const char *src, int nopts, const char **opts)
{
	nvrtcProgram p;
	size_t size;
	double t0 = now_ms(), t;
	if (nvrtcCreateProgram(&p, src, "k.cu", 0, NULL, NULL) != NVRTC_SUCCESS)
		return -1;
	if (nvrtcCompileProgram(p, nopts, opts) != NVRTC_SUCCESS || nvrtcGetCUBINSize(p, &size) != NVRTC_SUCCESS) {
		nvrtcDestroyProgram(&p);
		return -1;
	}
	t = now_ms() - t0;
	nvrtcDestroyProgram(&p);
	return t;
}

int main(int argc, char **argv)
{
	const char *opts[MAX_OPTS] = { "--gpu-architecture=sm_90", "--std=c++17",
		"--device-as-default-execution-space", "--minimal", "--no-cache" };
	int nopts = 5, runs = getenv("RUNS") ? atoi(getenv("RUNS")) : 5;
	char *given = getenv("NVRTC_OPTIONS") ? strdup(getenv("NVRTC_OPTIONS")) : NULL;
	if (argc < 2 || runs < 1 || runs > MAX_RUNS) {
		fprintf(stderr, "usage: [RUNS=1..%d] [NVRTC_OPTIONS=...] nvrtc_time FILE.cu...\n", MAX_RUNS);
		return 2;
	}
	if (given) {
		nopts = 0;
		for (char *o = strtok(given, " "); o; o = strtok(NULL, " ")) {
			if (nopts == MAX_OPTS) {
				fprintf(stderr, "nvrtc_time: more than %d options\n", MAX_OPTS);
				return 2;
			}
			opts[nopts++] = o;
		}
	}
	for (int f = 1; f < argc; f++) {
		double t[MAX_RUNS];
		char *src = read_file(argv[f]);
		if (!src) {
			fprintf(stderr, "nvrtc_time: cannot read %s\n", argv[f]);
			return 1;
		}
		for (int r = 0; r < runs; r++) {
			if ((t[r] = compile_ms(src, nopts, opts)) < 0) {
				fprintf(stderr, "%s: compile failed\n", argv[f]);
				return 1;
			}
		}
		free(src);
		qsort(t, (size_t)runs, sizeof t[0], cmp_double);
		printf("%8.1f ms  %s\n", t[runs / 2], argv[f]);
	}
	free(given);
	return 0;
}
