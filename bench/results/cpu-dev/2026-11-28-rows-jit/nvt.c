/* nvt FILE.cu... : NVRTC compile each file to an sm_90 cubin with kgen's options, R times, median ms. */
#include <nvrtc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e3 + t.tv_nsec / 1e6; }
static int cmp(const void *a, const void *b) { double x = *(double *)a, y = *(double *)b; return x < y ? -1 : x > y; }
int main(int argc, char **argv) {
	const char *o[] = { "--gpu-architecture=sm_90", "--std=c++17", "--device-as-default-execution-space", "--minimal", "--no-cache" };
	int R = atoi(getenv("RUNS") ? getenv("RUNS") : "5");
	for (int f = 1; f < argc; f++) {
		FILE *fp = fopen(argv[f], "rb"); fseek(fp, 0, SEEK_END); long n = ftell(fp); rewind(fp);
		char *src = malloc(n + 1); fread(src, 1, n, fp); src[n] = 0; fclose(fp);
		double t[64];
		for (int r = 0; r < R; r++) {
			nvrtcProgram p; double t0 = now();
			nvrtcCreateProgram(&p, src, "k.cu", 0, NULL, NULL);
			if (nvrtcCompileProgram(p, 5, o) != NVRTC_SUCCESS) { fprintf(stderr, "%s: compile failed\n", argv[f]); return 1; }
			size_t sz; nvrtcGetCUBINSize(p, &sz); t[r] = now() - t0; nvrtcDestroyProgram(&p);
		}
		qsort(t, R, sizeof t[0], cmp);
		printf("%8.1f ms  %s\n", t[R / 2], argv[f]);
	}
	return 0;
}
