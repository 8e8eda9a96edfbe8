/*
 * jit_cost - what it costs to go from a spec to a launchable kernel:
 *   cold       generate + NVRTC compile + module load (disk cache off),
 *              once NVRTC is loaded (the first compile in a process pays
 *              for loading NVRTC itself; that is reported on its own);
 *   disk hit   generate + read the cubin from the disk cache + module load,
 *              in a fresh context (nothing in process);
 *   in-process kgen_kernel_build() again on the same context (a spec
 *              object), and kgen_kernel_build_yaml() again (the text);
 *   floor      NVRTC alone compiling an empty kernel (kgen_compile), the
 *              least a JIT build can cost, and cold's ratio to it;
 *   parallel   every spec built cold on a fresh context by one thread, then
 *              by one thread per core (NVRTC runs outside the context's
 *              lock), and the speedup.
 * Medians over the specs given.  Needs a GPU (module loads).
 *
 *   jit_cost SPEC...
 */
#include "config.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "kgen.h"

static double
now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

static int
cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double
median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cmp);
	return v[n / 2];
}

#define DIE(e) do { kgen_error_print(&(e), stderr); return 1; } while (0)

/* The whole file at path, NUL-terminated, or NULL. */
static char *
read_text(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *text = NULL;
	long n;

	if (f && fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (text = malloc((size_t)n + 1)) && fread(text, 1, (size_t)n, f) == (size_t)n)
		text[n] = '\0';
	else {
		free(text);
		text = NULL;
	}
	if (f)
		fclose(f);
	return text;
}

/* Building every spec on one context from several threads. */
struct builds {
	kgen_context *ctx;
	kgen_spec **specs;
	int n, next, failed;
	pthread_mutex_t lock;
};

static void *
build_some(void *arg)
{
	struct builds *b = arg;
	kgen_kernel *k;
	kgen_error err;
	int i;

	for (;;) {
		pthread_mutex_lock(&b->lock);
		i = b->next++;
		pthread_mutex_unlock(&b->lock);
		if (i >= b->n)
			return NULL;
		if (kgen_kernel_build(b->ctx, b->specs[i], &k, &err)) {
			kgen_error_print(&err, stderr);
			b->failed = 1;
		}
	}
}

/* Microseconds to build the n specs cold on a fresh context with `threads` threads. */
static double
build_all(kgen_spec **specs, int n, int threads, kgen_error *err)
{
	struct builds b = { NULL, specs, n, 0, 0, PTHREAD_MUTEX_INITIALIZER };
	pthread_t th[256];
	double t;
	int i, started = 0;

	if (kgen_context_create(0, &b.ctx, err))
		return -1;
	t = now_us();
	for (i = 0; i < threads; i++)
		if (pthread_create(&th[i], NULL, build_some, &b) == 0)
			started++;
	if (!started)
		build_some(&b);
	for (i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	t = now_us() - t;
	kgen_context_destroy(b.ctx);
	return b.failed ? -1 : t;
}

int
main(int argc, char **argv)
{
	char dir[] = "/tmp/kgen-jit-cost-XXXXXX";
	double cold[256], disk[256], hot[2000], hot_text[2000], first, t;
	kgen_context *ctx;
	kgen_kernel *k;
	kgen_spec *spec;
	kgen_error err;
	int i, n = argc - 1, r;

	if (n < 1 || n > 256) {
		fprintf(stderr, "usage: jit_cost SPEC...\n");
		return 2;
	}
	if (!mkdtemp(dir))
		return 3;
	setenv("KGEN_CACHE_DIR", dir, 1);

	/* Cold: the disk cache off, a fresh context per spec. */
	setenv("KGEN_CACHE", "0", 1);
	for (i = 0; i < n; i++) {
		if (kgen_spec_load_file(argv[i + 1], &spec, &err) || kgen_context_create(0, &ctx, &err))
			DIE(err);
		t = now_us();
		if (kgen_kernel_build(ctx, spec, &k, &err))
			DIE(err);
		cold[i] = now_us() - t;
		kgen_context_destroy(ctx);
		kgen_spec_free(spec);
	}
	first = cold[0];

	/* Fill the disk cache, then disk hits in fresh contexts. */
	setenv("KGEN_CACHE", "1", 1);
	for (i = 0; i < n; i++) {
		if (kgen_spec_load_file(argv[i + 1], &spec, &err) || kgen_context_create(0, &ctx, &err) ||
		    kgen_kernel_build(ctx, spec, &k, &err))
			DIE(err);
		kgen_context_destroy(ctx);
		if (kgen_context_create(0, &ctx, &err))
			DIE(err);
		t = now_us();
		if (kgen_kernel_build(ctx, spec, &k, &err))
			DIE(err);
		disk[i] = now_us() - t;
		/* In-process hits on the same context: the spec object, then its text. */
		if (i == 0) {
			char *text = read_text(argv[1]);
			if (!text)
				return 4;
			for (r = 0; r < 2000; r++) {
				t = now_us();
				if (kgen_kernel_build(ctx, spec, &k, &err))
					DIE(err);
				hot[r] = now_us() - t;
			}
			if (kgen_kernel_build_yaml(ctx, text, &k, &err))
				DIE(err);
			for (r = 0; r < 2000; r++) {
				t = now_us();
				if (kgen_kernel_build_yaml(ctx, text, &k, &err))
					DIE(err);
				hot_text[r] = now_us() - t;
			}
			free(text);
		}
		kgen_context_destroy(ctx);
		kgen_spec_free(spec);
	}
	printf("specs: %d\n", n);
	printf("first compile in the process (loads NVRTC): %.0f us\n", first);
	printf("cold (generate + NVRTC + load), median of the other %d: %.0f us (max %.0f)\n", n - 1,
	       n > 1 ? median(cold + 1, n - 1) : first, n > 1 ? (qsort(cold + 1, (size_t)(n - 1), sizeof *cold, cmp), cold[n - 1]) : first);
	printf("disk hit (generate + read cubin + load), median: %.0f us (max %.0f)\n", median(disk, n),
	       (qsort(disk, (size_t)n, sizeof *disk, cmp), disk[n - 1]));
	printf("in-process hit, median of 2000: %.2f us (spec object), %.2f us (text)\n", median(hot, 2000),
	       median(hot_text, 2000));

	/* The floor: NVRTC compiling an empty kernel, nothing of kgen's. */
	{
		static const char empty[] = "extern \"C\" __global__ void empty_kernel() {}\n";
		double floor_us[10];
		void *image;
		size_t size;
		for (r = 0; r < 10; r++) {
			t = now_us();
			if (kgen_compile(empty, "empty.cu", "sm_90", KGEN_IMAGE_CUBIN, &image, &size, NULL, &err))
				DIE(err);
			floor_us[r] = now_us() - t;
			free(image);
		}
		t = median(floor_us, 10);
		printf("floor: NVRTC compiling an empty kernel, median of 10: %.0f us; cold / floor: %.2f\n", t,
		       (n > 1 ? median(cold + 1, n - 1) : first) / t);
	}

	/* Parallel cold builds of every spec on one context. */
	{
		kgen_spec *specs[256];
		long cores = sysconf(_SC_NPROCESSORS_ONLN);
		double one, many;
		int threads = cores < 1 ? 1 : cores > 256 ? 256 : (int)cores;
		setenv("KGEN_CACHE", "0", 1);
		for (i = 0; i < n; i++)
			if (kgen_spec_load_file(argv[i + 1], &specs[i], &err))
				DIE(err);
		if ((one = build_all(specs, n, 1, &err)) < 0 || (many = build_all(specs, n, threads, &err)) < 0)
			DIE(err);
		printf("parallel: %d specs built cold on one context: %.0f us on 1 thread, %.0f us on %d threads "
		       "(%d cores): %.2fx\n", n, one, many, threads, (int)cores, one / many);
		for (i = 0; i < n; i++)
			kgen_spec_free(specs[i]);
	}
	{
		char cmd[64];
		snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
		if (system(cmd) != 0)
			return 3;
	}
	return 0;
}
