/* cache_bench.c - what a disk hit costs: the time of kgen_cache_get() for a
 * 20 KB cubin with a 10 KB source, median of many runs (the file is in the
 * page cache after the first).
 *
 *   make bench/cache/cache_bench && ./bench/cache/cache_bench [runs] [image bytes]
 *
 * It works in a fresh directory under /tmp (or $KGEN_CACHE_DIR) and removes
 * its entry at the end. */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "runtime/cache.h"

static double
now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int
main(int argc, char **argv)
{
	int runs = argc > 1 ? atoi(argv[1]) : 2000;
	size_t size = argc > 2 ? (size_t)atol(argv[2]) : 20 * 1024, i;
	char tmpl[] = "/tmp/kgen-cache-bench.XXXXXX", *source;
	const char *dir = getenv("KGEN_CACHE_DIR");
	struct kgen_cache_key key = { 0 };
	unsigned char *image;
	double *t, put;
	kgen_error err;
	void *img;
	size_t n;
	int r;

	if (runs < 1 || !(image = malloc(size)) || !(source = malloc(10 * 1024 + 1)) || !(t = malloc(runs * sizeof *t)))
		return 1;
	if (!dir || !*dir) {
		if (!(dir = mkdtemp(tmpl))) {
			perror("mkdtemp");
			return 1;
		}
	}
	for (i = 0; i < size; i++)
		image[i] = (unsigned char)(i * 2654435761u >> 24);
	for (i = 0; i < 10 * 1024; i++)
		source[i] = "abcdefghijklmnopqrstuvwxyz {};\n"[i % 31];
	source[10 * 1024] = '\0';
	key.source = source;
	key.options = "--gpu-architecture=sm_90 --std=c++17 --device-as-default-execution-space";
	key.arch = "sm_90";
	key.nvrtc_version = "12.4";
	key.kgen_version = KGEN_VERSION;
	key.name = "bench";

	put = now_us();
	if (kgen_cache_put(dir, &key, image, size, &err) != KGEN_OK) {
		fprintf(stderr, "cache_bench: %s\n", err.message);
		return 1;
	}
	put = now_us() - put;
	for (r = 0; r < runs; r++) {
		t[r] = now_us();
		if (kgen_cache_get(dir, &key, &img, &n, &err) != KGEN_OK || !img || n != size) {
			fprintf(stderr, "cache_bench: run %d missed\n", r);
			return 1;
		}
		t[r] = now_us() - t[r];
		free(img);
	}
	qsort(t, runs, sizeof *t, cmp_double);
	printf("cache hit, %zu-byte image, %zu-byte source, %d runs in %s:\n", size, strlen(source), runs, dir);
	printf("  min %.1f us  median %.1f us  p90 %.1f us  max %.1f us  (first put %.1f us)\n", t[0], t[runs / 2],
	       t[runs * 9 / 10], t[runs - 1], put);
	kgen_cache_clear(dir, NULL, NULL);
	if (dir == tmpl)
		rmdir(tmpl);
	free(t);
	free(source);
	free(image);
	return 0;
}
