/*
 * context.c - a GPU context, and kernels built from specs: generated,
 * compiled with NVRTC (or found in the disk cache), loaded, and kept in the
 * context so that building the same spec again costs a hash lookup.
 */
#define _GNU_SOURCE  /* sched_getaffinity, CPU_COUNT */
#include "config.h"
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "runtime.h"
#include "cache.h"
#include "gen/parallel.h"

/* Each family's launcher, by its row of KGEN_FAMILIES. */
static const struct kgen_launcher *const launchers[KGEN_FAMILY_COUNT] = {
#define X(id, name, doc, stem) [KGEN_##id] = &kgen_launcher_##stem,
	KGEN_FAMILIES(X)
#undef X
};

void
kgen_kernel_free_state(struct kgen_kernel *k)
{
	if (!k->state)
		return;
	if (launchers[k->spec.kernel]->free_state)
		launchers[k->spec.kernel]->free_state(k->state);
	else
		free(k->state);
	k->state = NULL;
}

uint64_t
kgen_spec_hash(const struct kgen_spec *s)
{
	uint64_t h = 0xcbf29ce484222325ull;
	const unsigned char *p;
	size_t i;
	int k;

	for (k = 0; k < KGEN_KEY_COUNT; k++) {
		long long v = kgen_spec_value(s, (enum kgen_key)k);
		p = (const unsigned char *)&v;
		for (i = 0; i < sizeof v; i++)
			h = (h ^ p[i]) * 0x100000001b3ull;
	}
	for (p = (const unsigned char *)s->name_text; *p; p++)
		h = (h ^ *p) * 0x100000001b3ull;
	for (k = 0; k < (int)KGEN_COUNT(s->expr_text); k++)  /* every expression: op: custom's and the epilogue */
		for (p = (const unsigned char *)s->expr_text[k]; *p; p++)
			h = (h ^ *p) * 0x100000001b3ull;
	return h;
}

int
kgen_spec_same(const struct kgen_spec *a, const struct kgen_spec *b)
{
	int k;

	for (k = 0; k < KGEN_KEY_COUNT; k++)
		if (kgen_spec_value(a, (enum kgen_key)k) != kgen_spec_value(b, (enum kgen_key)k))
			return 0;
	for (k = 0; k < (int)KGEN_COUNT(a->expr_text); k++)
		if (strcmp(a->expr_text[k], b->expr_text[k]) != 0)
			return 0;
	return strcmp(a->name_text, b->name_text) == 0;
}

/* Make ctx's context current; a call that finds it current already (an
 * application on the runtime's primary context) costs one cuCtxGetCurrent. */
kgen_status
kgen_context_enter(kgen_context *ctx, kgen_error *err)
{
	CUcontext c = NULL;

	if (ctx->cu->cuCtxGetCurrent(&c) == CUDA_SUCCESS && c == ctx->cuctx)
		return KGEN_OK;
	KGEN_CU(ctx->cu, err, cuCtxSetCurrent, (ctx->cuctx));
	return KGEN_OK;
}

CUcontext
kgen_context_save(const kgen_context *ctx)
{
	CUcontext c = NULL;

	if (ctx->cu->cuCtxGetCurrent(&c) != CUDA_SUCCESS)
		c = ctx->cuctx;  /* nothing to restore */
	return c;
}

void
kgen_context_restore(const kgen_context *ctx, CUcontext saved)
{
	if (saved != ctx->cuctx)
		ctx->cu->cuCtxSetCurrent(saved);
}

kgen_status
kgen_context_create(int device, kgen_context **out, kgen_error *err)
{
	const struct kgen_cu *cu;
	kgen_context *ctx;
	kgen_status st;
	int count = 0, l2 = 0;
	const char *call = "cuDeviceGet";  /* the driver call that failed, for the message */
	CUresult r;

	if (!out)
		return kgen_fail(err, KGEN_EINVAL, "kgen_context_create: NULL argument");
	*out = NULL;
	if (device < 0)
		return kgen_fail(err, KGEN_EINVAL, "kgen_context_create: device %d: GPUs are numbered from 0", device);
	if ((st = kgen_cu_load(&cu, err)) != KGEN_OK)
		return st;
	if ((r = cu->cuDeviceGetCount(&count)) != CUDA_SUCCESS)
		return kgen_cu_fail(cu, err, "cuDeviceGetCount", r);
	if (device >= count)
		return kgen_fail(err, KGEN_ECUDA, "no GPU number %d: this machine has %d", device, count);
	if (!(ctx = calloc(1, sizeof *ctx)))
		return kgen_fail(err, KGEN_ENOMEM, "out of memory");
	ctx->cu = cu;
	pthread_mutex_init(&ctx->lock, NULL);
	if ((r = cu->cuDeviceGet(&ctx->dev, device)) != CUDA_SUCCESS ||
	    (call = "cuDevicePrimaryCtxRetain", r = cu->cuDevicePrimaryCtxRetain(&ctx->cuctx, ctx->dev)) != CUDA_SUCCESS) {
		st = kgen_cu_fail(cu, err, call, r);
		pthread_mutex_destroy(&ctx->lock);
		free(ctx);
		return st;
	}
	/* Device attributes need no current context: the caller's stays current. */
	if ((call = "cuDeviceGetAttribute",
	     r = cu->cuDeviceGetAttribute(&ctx->sm_count, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, ctx->dev)) ||
	    (r = cu->cuDeviceGetAttribute(&ctx->cc_major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, ctx->dev)) ||
	    (r = cu->cuDeviceGetAttribute(&ctx->cc_minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, ctx->dev)) ||
	    (r = cu->cuDeviceGetAttribute(&l2, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, ctx->dev)) ||
	    (r = cu->cuDeviceGetAttribute(&ctx->smem_optin, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
	                                  ctx->dev)) ||
	    (call = "cuDeviceGetName", r = cu->cuDeviceGetName(ctx->name, sizeof ctx->name, ctx->dev))) {
		st = kgen_cu_fail(cu, err, call, r);
		kgen_context_destroy(ctx);
		return st;
	}
	ctx->l2_bytes = (size_t)l2;
	snprintf(ctx->arch, sizeof ctx->arch, "sm_%d%d", ctx->cc_major, ctx->cc_minor);
	*out = ctx;
	return KGEN_OK;
}

/* Unload k's modules. */
static void
unload(kgen_context *ctx, struct kgen_kernel *k)
{
	int i;

	for (i = 0; i < k->nmodules; i++)
		if (k->module[i])
			ctx->cu->cuModuleUnload(k->module[i]);
	k->nmodules = 0;
}

/* Free a kernel of the context's table: its modules, its kept sources. */
static void
free_kernel(kgen_context *ctx, struct kgen_kernel *k)
{
	int i;

	unload(ctx, k);
	for (i = 0; i < KGEN_MAX_STEPS; i++)
		free(k->source[i]);
	pthread_mutex_destroy(&k->step_lock);
	free(k->spec.file);
	free(k);
}

void
kgen_context_destroy(kgen_context *ctx)
{
	struct kgen_kernel *k, *next;
	CUcontext saved;
	int b;

	if (!ctx)
		return;
	saved = kgen_context_save(ctx);  /* the caller's, put back at the end as every call does */
	ctx->cu->cuCtxSetCurrent(ctx->cuctx);
	for (b = 0; b < KGEN_KERNEL_BUCKETS; b++)
		for (k = ctx->kernels[b]; k; k = next) {
			next = k->next;
			if (k->scratch)
				ctx->cu->cuMemFree(k->scratch);
			while (k->retired) {
				struct kgen_retired *r = k->retired;
				k->retired = r->next;
				ctx->cu->cuMemFree(r->ptr);
				free(r);
			}
			kgen_kernel_free_state(k);
			free_kernel(ctx, k);
		}
	for (k = ctx->plans; k; k = next) {
		next = k->next;
		free(k->spec.file);
		free(k);
	}
	for (b = 0; b < KGEN_KERNEL_BUCKETS; b++)
		while (ctx->texts[b]) {
			struct kgen_text *t = ctx->texts[b];
			ctx->texts[b] = t->next;
			free(t);
		}
	if (ctx->cuctx)
		ctx->cu->cuDevicePrimaryCtxRelease(ctx->dev);
	kgen_context_restore(ctx, saved);
	pthread_mutex_destroy(&ctx->lock);
	free(ctx);
}

const char *kgen_context_device_name(const kgen_context *ctx) { return ctx ? ctx->name : NULL; }
const char *kgen_context_arch(const kgen_context *ctx) { return ctx ? ctx->arch : NULL; }
int kgen_context_sm_count(const kgen_context *ctx) { return ctx ? ctx->sm_count : 0; }
size_t kgen_context_l2_bytes(const kgen_context *ctx) { return ctx ? ctx->l2_bytes : 0; }
const kgen_spec *kgen_kernel_spec(const kgen_kernel *kernel) { return kernel ? &kernel->spec : NULL; }

int
kgen_kernel_blocks_per_sm(const kgen_kernel *kernel)
{
	if (kernel && kernel->nsized)
		kernel = kernel->sized[0];
	/* A lazy kernel's first one is built to be counted; if it cannot be, 0. */
	if (kernel && kgen_kernel_step((kgen_kernel *)kernel, 0, NULL) != KGEN_OK)
		return 0;
	return kernel && kernel->occupancy[0] > 0 ? kernel->occupancy[0] : 0;
}

/* The first problem with the disk cache this process met (a directory
 * another user owns or may write, an entry that cannot be read): kept for
 * kgen_cache_problem(), so that a cache that is never used is said once,
 * not skipped in silence on every build. */
static char cache_problem[1024];
static pthread_mutex_t cache_problem_lock = PTHREAD_MUTEX_INITIALIZER;

static void
note_cache_problem(const char *message)
{
	pthread_mutex_lock(&cache_problem_lock);
	if (!cache_problem[0])
		snprintf(cache_problem, sizeof cache_problem, "%s", message);
	pthread_mutex_unlock(&cache_problem_lock);
}

const char *
kgen_cache_problem(void)
{
	const char *p;

	pthread_mutex_lock(&cache_problem_lock);
	p = cache_problem[0] ? cache_problem : NULL;
	pthread_mutex_unlock(&cache_problem_lock);
	return p;
}

/* The cubin for source: from the disk cache, or compiled and then cached;
 * the time of each step added to *t. */
static kgen_status
binary(kgen_context *ctx, const struct kgen_spec *spec, const char *source, const char *name, void **image,
       size_t *size, kgen_build_times *t, kgen_error *err)
{
	struct kgen_cache_key key;
	char dir[4096], *log = NULL, arch[24];
	kgen_status st;
	int cached = kgen_cache_enabled();
	double t0;

	if ((st = kgen_compile_options_check(err)) != KGEN_OK)
		return st;
	key.source = source;
	key.options = kgen_compile_options();
	key.arch = kgen_spec_compile_arch(spec, ctx->arch, arch, sizeof arch);  /* sm_90a for wgmma on sm_90 */
	key.nvrtc_version = kgen_nvrtc_version();
	key.kgen_version = KGEN_VERSION;
	key.name = name;
	if (cached && kgen_cache_dir(dir, sizeof dir, NULL) != KGEN_OK)
		cached = 0;
	if (cached) {
		kgen_error why;
		kgen_status got;
		t0 = kgen_clock_us();
		got = kgen_cache_get(dir, &key, image, size, &why);
		t->cache_read_us += kgen_clock_us() - t0;
		if (got == KGEN_OK && *image) {
			t->disk_hits++;
			return KGEN_OK;
		}
		if (got == KGEN_EIO)
			note_cache_problem(why.message);  /* a refused directory: built anyway, said once */
	}
	st = kgen_compile_timed(source, name, key.arch, KGEN_IMAGE_CUBIN, image, size, &log,
	                        &t->compile_us, &t->image_us, err);
	/* An error in an expression of the spec is the spec's, at its place. */
	if (st == KGEN_ECOMPILE && log && kgen_locate_log(spec, source, log, err) == KGEN_ESPEC)
		st = KGEN_ESPEC;
	else if (st == KGEN_ECOMPILE && err && log) {
		size_t len = strlen(err->message);
		snprintf(err->message + len, sizeof err->message - len, "\n%s", log);
	}
	free(log);
	if (st != KGEN_OK)
		return st;
	if (cached) {
		t0 = kgen_clock_us();
		kgen_cache_put(dir, &key, *image, *size, NULL);  /* a cache that cannot be written is no error */
		t->cache_write_us += kgen_clock_us() - t0;
	}
	return KGEN_OK;
}

/* k->clusters[i]: the clusters of step i's kernel f (its blocks a cluster
 * compiled in) the GPU holds at once, as cuOccupancyMaxActiveClusters
 * counts them; an optional step whose count fails or is 0 is never
 * launched (occupancy 0). */
static kgen_status
count_clusters(kgen_context *ctx, struct kgen_kernel *k, int i, CUfunction f, kgen_error *err)
{
	const struct kgen_step *st = &k->contract.step[i];
	CUlaunchAttribute attr;
	CUlaunchConfig config;
	CUresult r;

	memset(&attr, 0, sizeof attr);
	attr.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
	attr.value.clusterDim.x = (unsigned)st->cluster;
	attr.value.clusterDim.y = attr.value.clusterDim.z = 1;
	memset(&config, 0, sizeof config);
	config.gridDimX = (unsigned)st->cluster;  /* what the count reads: the cluster's shape, not the grid */
	config.gridDimY = config.gridDimZ = 1;
	config.blockDimX = (unsigned)st->block;
	config.blockDimY = config.blockDimZ = 1;
	config.sharedMemBytes = (unsigned)st->dynamic_smem;
	config.attrs = &attr;
	config.numAttrs = 1;
	r = ctx->cu->cuOccupancyMaxActiveClusters(&k->clusters[i], f, &config);
	if (r != CUDA_SUCCESS && !st->optional)
		return kgen_cu_fail(ctx->cu, err, "cuOccupancyMaxActiveClusters", r);
	if (r != CUDA_SUCCESS || k->clusters[i] < 1) {
		k->clusters[i] = 0;
		k->occupancy[i] = 0;
	}
	return KGEN_OK;
}

/* A spec's cluster of more than 8 blocks that the GPU refuses (cuFuncSetAttribute's result r). */
static kgen_status
refused_cluster(const struct kgen_cu *cu, int blocks, CUresult r, kgen_error *err)
{
	const char *name = NULL;

	if (cu->cuGetErrorName)
		cu->cuGetErrorName(r, &name);
	return kgen_fail(err, KGEN_ECUDA, "a cluster of %d blocks is not portable, and this GPU refuses it "
	                 "(cuFuncSetAttribute, NON_PORTABLE_CLUSTER_SIZE_ALLOWED: %s): use cluster_size 8 or less",
	                 blocks, name ? name : "an error");
}

/* Step i of k from module m: its function found, its dynamic shared
 * memory limit raised to what it takes (whenever it takes any: a launch
 * without the raise may have at most 48 KiB less the kernel's static shared
 * memory, so 48 KiB of stages beside a few mbarriers fail), its occupancy (and
 * clusters) counted; fn[i] set last, with release order, so that a
 * thread that sees it (kgen_kernel_step's acquire load) sees the rest. */
static kgen_status
load_step(kgen_context *ctx, struct kgen_kernel *k, int i, CUmodule m, kgen_error *err)
{
	const struct kgen_cu *cu = ctx->cu;
	const struct kgen_step *st = &k->contract.step[i];
	char name[96];
	kgen_status r;
	CUresult cr = CUDA_SUCCESS;
	CUfunction f;
	int refused;

	snprintf(name, sizeof name, "%s%s", kgen_spec_kernel_name(&k->spec), st->suffix);
	KGEN_CU(cu, err, cuModuleGetFunction, (&f, m, name));
	/* A cluster of more than 8 blocks (the portable most) is launched only where the GPU allows its size. */
	refused = st->cluster > 8 &&
	          (cr = cu->cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1)) != CUDA_SUCCESS;
	if (refused && !st->optional)
		return refused_cluster(cu, st->cluster, cr, err);
	if (st->optional && (refused || st->dynamic_smem > ctx->smem_optin ||
	                     (st->dynamic_smem > 0 &&
	                      cu->cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
	                                             (int)st->dynamic_smem) != CUDA_SUCCESS))) {
		k->occupancy[i] = 0;  /* a kernel for a larger GPU (a row family's staged one, a cluster of 16): never launched */
	} else {
		if (st->dynamic_smem > 0)
			KGEN_CU(cu, err, cuFuncSetAttribute, (f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)st->dynamic_smem));
		KGEN_CU(cu, err, cuOccupancyMaxActiveBlocksPerMultiprocessor,
		        (&k->occupancy[i], f, (int)st->block, (size_t)st->dynamic_smem));
		if (st->cluster > 1 && (r = count_clusters(ctx, k, i, f, err)) != KGEN_OK)
			return r;
	}
	/* Published last: a launch that finds k->fn[i] without the lock
	 * (kgen_kernel_step) reads the occupancy and cluster count set above. */
	__atomic_store_n(&k->fn[i], f, __ATOMIC_RELEASE);
	return KGEN_OK;
}

/* Load the images (one of the whole file, or one a kernel in launch
 * order) and find the plan's kernels. */
static kgen_status
load_modules(kgen_context *ctx, struct kgen_kernel *k, void *const *image, int nimages, kgen_error *err)
{
	kgen_status r;
	int i;

	for (i = 0; i < nimages; i++) {
		KGEN_CU(ctx->cu, err, cuModuleLoadData, (&k->module[i], image[i]));
		k->nmodules = i + 1;
	}
	for (i = 0; i < k->contract.nsteps; i++)
		if ((r = load_step(ctx, k, i, k->module[nimages == 1 ? 0 : i], err)) != KGEN_OK)
			return r;
	return KGEN_OK;
}

/* A spec's programs for NVRTC: its whole file, or each kernel's source
 * alone (kgen_step_source), compiled side by side. */
struct programs {
	kgen_context *ctx;
	const struct kgen_spec *spec;
	int n;
	char *source[KGEN_MAX_STEPS];
	char name[KGEN_MAX_STEPS][96];  /* NVRTC's and the disk cache's name: the kernel's */
	void *image[KGEN_MAX_STEPS];
	size_t size[KGEN_MAX_STEPS];
	kgen_build_times t[KGEN_MAX_STEPS];
	kgen_status st[KGEN_MAX_STEPS];
	kgen_error err[KGEN_MAX_STEPS];
};

static void
build_program(void *arg, int i)
{
	struct programs *p = arg;

	p->st[i] = binary(p->ctx, p->spec, p->source[i], p->name[i], &p->image[i], &p->size[i], &p->t[i], &p->err[i]);
}

/* The threads a build compiles a spec's kernels on: $KGEN_JIT_THREADS
 * (a positive number; anything else is ignored), else one per CPU this
 * process may run on (its affinity: a container's or taskset's share,
 * where the online CPUs may be many more).  With more than one, a
 * spec whose contract says its kernels are alternatives (kgen_contract.
 * apart), or launched in turn and each about as big (side_by_side: a
 * two-pass reduction), is compiled a kernel a program, side by side:
 * NVRTC compiles a program's kernels one after another, and apart they
 * compile to the same code (bench/jit/nvrtc_options --steps).  With one,
 * the whole file is one program, as the programs' repeated front ends
 * would only add time. */
static int
jit_threads(void)
{
	const char *env = getenv("KGEN_JIT_THREADS");
	char *end;
	long n;

	if (env && *env && (n = strtol(env, &end, 10)) > 0 && *end == '\0')
		return n < 256 ? (int)n : 256;
#ifdef CPU_COUNT
	{
		cpu_set_t set;
		if (sched_getaffinity(0, sizeof set, &set) == 0)
			n = CPU_COUNT(&set);
		else
			n = sysconf(_SC_NPROCESSORS_ONLN);
	}
#else
	n = sysconf(_SC_NPROCESSORS_ONLN);
#endif
	return n > 1 ? (n < 256 ? (int)n : 256) : 1;
}

/* Build times summed: a size plan's entries', a spec's programs'. */
static void
add_times(kgen_build_times *sum, const kgen_build_times *t)
{
	sum->generate_us += t->generate_us;
	sum->cache_read_us += t->cache_read_us;
	sum->compile_us += t->compile_us;
	sum->image_us += t->image_us;
	sum->cache_write_us += t->cache_write_us;
	sum->load_us += t->load_us;
	sum->total_us += t->total_us;
	sum->modules += t->modules;
	sum->disk_hits += t->disk_hits;
}

/* Whether a spec of alternative kernels is built lazily, a kernel at its
 * first launch (kgen_kernel.lazy): yes, unless $KGEN_JIT_LAZY is 0, which
 * builds them all at once, side by side (kgen_kernel_prepare does that
 * for one kernel). */
static int
jit_lazy(void)
{
	const char *env = getenv("KGEN_JIT_LAZY");

	return !(env && strcmp(env, "0") == 0);
}

/* Generate spec's source into p: the whole file as one program, or (split)
 * each kernel's source alone, named after it. */
static kgen_status
make_sources(const kgen_spec *spec, const struct kgen_contract *c, struct programs *p, int split, kgen_error *err)
{
	char *whole = NULL;
	kgen_status st;
	int i;

	if ((st = kgen_generate(spec, &whole, err)) != KGEN_OK)
		return st;
	if (!split) {
		p->source[0] = whole;
		snprintf(p->name[0], sizeof p->name[0], "%s", kgen_spec_kernel_name(spec));
		p->n = 1;
		return KGEN_OK;
	}
	for (i = 0; i < c->nsteps && st == KGEN_OK; i++) {
		st = kgen_step_source(spec, c, whole, i, &p->source[i], err);
		snprintf(p->name[i], sizeof p->name[i], "%s%s", kgen_spec_kernel_name(spec), c->step[i].suffix);
		p->n = i + 1;
	}
	free(whole);
	return st;
}

/* Make the cubins of p's first n sources (disk cache or NVRTC), each of
 * the programs' phase times added to *t. */
static kgen_status
build_sources(struct programs *p, int n, int threads, kgen_build_times *t, kgen_error *err)
{
	int i;

	/* Inside a pool already (a plan's entries, kgen tune's points): the
	 * kernels apart, as the cache keys them, but on this thread. */
	kgen_parallel_for(n, kgen_parallel_inside() ? 1 : threads, build_program, p);
	for (i = 0; i < n; i++)  /* binary() times the disk cache, NVRTC and the cubin */
		add_times(t, &p->t[i]);
	t->modules += n;
	for (i = 0; i < n; i++)  /* the first kernel's error, as a build of the whole file would report */
		if (p->st[i] != KGEN_OK) {
			if (err)
				*err = p->err[i];
			return p->st[i];
		}
	return KGEN_OK;
}

/* Generate spec's source and make its cubins (disk cache or NVRTC), each
 * of its programs' phase times added to *t; a lazy build (lazy) only
 * generates each kernel's source. */
static kgen_status
build_images(kgen_context *ctx, const kgen_spec *spec, const struct kgen_contract *c, struct programs *p, int lazy,
             kgen_build_times *t, kgen_error *err)
{
	kgen_status st;
	double t1;
	int threads = jit_threads();

	p->ctx = ctx;
	p->spec = spec;
	t1 = kgen_clock_us();
	/* Kernels launched in turn are split only where they will compile at
	 * once: on a pool's thread (a plan's entries) they would compile one
	 * after another, each program with a front end of its own. */
	st = make_sources(spec, c, p, lazy || (c->nsteps > 1 && threads > 1 &&
	                                       (c->apart || (c->side_by_side && !kgen_parallel_inside()))), err);
	t->generate_us = kgen_clock_us() - t1;
	if (st != KGEN_OK || lazy)
		return st;
	return build_sources(p, p->n, threads, t, err);
}

static void
free_programs(struct programs *p)
{
	int i;

	for (i = 0; i < p->n; i++) {
		free(p->source[i]);
		free(p->image[i]);
	}
}

/* The context's kernel of spec, or NULL (under the context's lock). */
static struct kgen_kernel *
lookup(kgen_context *ctx, const kgen_spec *spec, uint64_t h)
{
	struct kgen_kernel *k;

	for (k = ctx->kernels[h % KGEN_KERNEL_BUCKETS]; k; k = k->next)
		if (k->hash == h && kgen_spec_same(&k->spec, spec))
			return k;
	return NULL;
}

/* Generation and NVRTC run outside the context's lock, so that threads
 * build different specs at once (kgen tune); the second of two threads
 * that built the same spec keeps the first one's kernel. */
static kgen_status
kgen_kernel_build_body(kgen_context *ctx, const kgen_spec *spec, kgen_kernel **out, kgen_error *err)
{
	struct kgen_kernel *k = NULL, *found;
	struct kgen_contract contract;
	struct programs *p = NULL;
	uint64_t h;
	kgen_status st;
	kgen_build_times t = { 0 };
	double t0 = kgen_clock_us(), t1;
	int lazy, i;

	if (!ctx || !spec || !out)
		return kgen_fail(err, KGEN_EINVAL, "kgen_kernel_build: NULL argument");
	h = kgen_spec_hash(spec);
	pthread_mutex_lock(&ctx->lock);
	found = lookup(ctx, spec, h);
	pthread_mutex_unlock(&ctx->lock);
	if (found) {
		*out = found;
		return KGEN_OK;
	}
	if ((st = kgen_spec_check_arch(spec, ctx->arch, err)) || (st = kgen_context_enter(ctx, err)))
		return st;
	if (!(p = calloc(1, sizeof *p)))
		return kgen_fail(err, KGEN_ENOMEM, "out of memory");
	kgen_family_of(spec)->contract(spec, &contract);
	lazy = contract.apart && contract.nsteps > 1 && jit_lazy();
	if ((st = build_images(ctx, spec, &contract, p, lazy, &t, err))) {
		free_programs(p);
		free(p);
		return st;
	}
	pthread_mutex_lock(&ctx->lock);
	if ((found = lookup(ctx, spec, h))) {
		*out = found;
		st = KGEN_OK;
		goto done;
	}
	if (!(k = calloc(1, sizeof *k))) {
		st = kgen_fail(err, KGEN_ENOMEM, "out of memory");
		goto done;
	}
	k->spec = *spec;
	k->spec.text = NULL;
	k->spec.text_len = 0;
	k->spec.file = kgen_strdup(spec->file ? spec->file : "<spec>");
	k->hash = h;
	k->ctx = ctx;
	k->contract = contract;
	pthread_mutex_init(&k->step_lock, NULL);
	if (!k->spec.file) {
		st = kgen_fail(err, KGEN_ENOMEM, "out of memory");
		goto done;
	}
	t1 = kgen_clock_us();
	if (lazy) {  /* the sources kept, each kernel built at its first launch */
		k->lazy = 1;
		k->nmodules = contract.nsteps;
		for (i = 0; i < p->n; i++) {
			k->source[i] = p->source[i];
			p->source[i] = NULL;
		}
	} else if ((st = load_modules(ctx, k, p->image, p->n, err))) {
		goto done;
	}
	t.load_us = kgen_clock_us() - t1;
	t.total_us = kgen_clock_us() - t0;
	k->times = t;
	k->next = ctx->kernels[h % KGEN_KERNEL_BUCKETS];
	ctx->kernels[h % KGEN_KERNEL_BUCKETS] = k;
	*out = k;
	k = NULL;
done:
	if (k)
		free_kernel(ctx, k);
	free_programs(p);
	free(p);
	pthread_mutex_unlock(&ctx->lock);
	return st;
}

/* FNV-1a of n bytes, on from h. */
static uint64_t
fnv1a(uint64_t h, const void *bytes, size_t n)
{
	const unsigned char *p = bytes;

	while (n--)
		h = (h ^ *p++) * 0x100000001b3ull;
	return h;
}

/* The kernel an earlier call built from this very text, or NULL (under the context's lock). */
static struct kgen_kernel *
text_lookup(kgen_context *ctx, const char *yaml, size_t len, uint64_t h)
{
	struct kgen_text *t;

	for (t = ctx->texts[h % KGEN_KERNEL_BUCKETS]; t; t = t->next)
		if (t->hash == h && t->len == len && memcmp(t->text, yaml, len) == 0)
			return t->kernel;
	return NULL;
}

/* A text is hashed and looked up before it is parsed: a hit costs no
 * YAML, no checks and no spec hash (bench/jit/jit_cost's "text" hit).
 * Out of memory for the entry only means the next call parses again. */
kgen_status
kgen_kernel_build_yaml(kgen_context *ctx, const char *yaml, kgen_kernel **kernel, kgen_error *err)
{
	kgen_spec *spec;
	kgen_status st;
	struct kgen_text *t;
	size_t len;
	struct kgen_kernel *hit;
	uint64_t h;

	if (!yaml)
		return kgen_fail(err, KGEN_EINVAL, "kgen_kernel_build_yaml: NULL argument");
	len = strlen(yaml);
	h = fnv1a(0xcbf29ce484222325ull, yaml, len);
	if (ctx && kernel) {
		pthread_mutex_lock(&ctx->lock);
		hit = text_lookup(ctx, yaml, len, h);
		pthread_mutex_unlock(&ctx->lock);
		if (hit) {
			*kernel = hit;
			return KGEN_OK;
		}
	}
	/* The spec is checked first: its errors have their place without a context. */
	if ((st = kgen_spec_load_string(yaml, len, "<yaml>", &spec, err)) != KGEN_OK)
		return st;
	if (!ctx || !kernel) {
		kgen_spec_free(spec);
		return kgen_fail(err, KGEN_EINVAL, "kgen_kernel_build_yaml: NULL argument");
	}
	st = kgen_kernel_build(ctx, spec, kernel, err);
	kgen_spec_free(spec);
	if (st != KGEN_OK || len > ((size_t)-1) / 2)
		return st;
	pthread_mutex_lock(&ctx->lock);
	if (!text_lookup(ctx, yaml, len, h) && (t = malloc(sizeof *t + len + 1))) {
		t->hash = h;
		t->len = len;
		t->kernel = *kernel;
		memcpy(t->text, yaml, len + 1);
		t->next = ctx->texts[h % KGEN_KERNEL_BUCKETS];
		ctx->texts[h % KGEN_KERNEL_BUCKETS] = t;
	}
	pthread_mutex_unlock(&ctx->lock);
	return st;
}

/* The work above, leaving the caller's current context as it was. */
kgen_status
kgen_kernel_build(kgen_context *ctx, const kgen_spec *spec, kgen_kernel **out, kgen_error *err)
{
	CUcontext saved;
	kgen_status st;

	if (!ctx)
		return kgen_kernel_build_body(ctx, spec, out, err);
	saved = kgen_context_save(ctx);
	st = kgen_kernel_build_body(ctx, spec, out, err);
	kgen_context_restore(ctx, saved);
	return st;
}

/* Build step i of lazy k, under its step_lock: its cubin (disk cache or
 * NVRTC) unless the caller made it already (image), then its module. */
static kgen_status
load_lazy_step(struct kgen_kernel *k, int i, void *image, kgen_build_times *t, kgen_error *err)
{
	char name[96];
	void *own = NULL;
	size_t size = 0;
	kgen_status st;
	CUresult r;
	double t0;

	snprintf(name, sizeof name, "%s%s", kgen_spec_kernel_name(&k->spec), k->contract.step[i].suffix);
	if (!image && (st = binary(k->ctx, &k->spec, k->source[i], name, &own, &size, t, err)) != KGEN_OK)
		return st;
	if ((st = kgen_context_enter(k->ctx, err)) != KGEN_OK)
		goto out;
	t0 = kgen_clock_us();
	if ((r = k->ctx->cu->cuModuleLoadData(&k->module[i], image ? image : own)) != CUDA_SUCCESS) {
		k->module[i] = NULL;
		st = kgen_cu_fail(k->ctx->cu, err, "cuModuleLoadData", r);
		goto out;
	}
	if ((st = load_step(k->ctx, k, i, k->module[i], err)) != KGEN_OK) {
		k->ctx->cu->cuModuleUnload(k->module[i]);
		k->module[i] = NULL;
	}
	t->load_us += kgen_clock_us() - t0;
	t->modules++;
out:
	free(own);
	return st;
}

kgen_status
kgen_kernel_step(kgen_kernel *k, int i, kgen_error *err)
{
	kgen_build_times t = { 0 };
	kgen_status st = KGEN_OK;
	double t0;

	if (!k->lazy || __atomic_load_n(&k->fn[i], __ATOMIC_ACQUIRE))
		return KGEN_OK;
	pthread_mutex_lock(&k->step_lock);
	if (!k->fn[i]) {
		CUcontext saved = kgen_context_save(k->ctx);
		t0 = kgen_clock_us();
		st = load_lazy_step(k, i, NULL, &t, err);
		t.total_us = kgen_clock_us() - t0;
		add_times(&k->times, &t);
		kgen_context_restore(k->ctx, saved);
	}
	pthread_mutex_unlock(&k->step_lock);
	return st;
}

/* Every kernel of a lazy k not built yet: their cubins made side by side
 * (build_sources, the sources borrowed from k), then loaded in launch order. */
static kgen_status
prepare_body(struct kgen_kernel *k, kgen_error *err)
{
	struct programs *p;
	kgen_build_times t = { 0 };
	kgen_status st = KGEN_OK;
	double t0 = kgen_clock_us();
	int i, j, step[KGEN_MAX_STEPS];

	if (!(p = calloc(1, sizeof *p)))
		return kgen_fail(err, KGEN_ENOMEM, "out of memory");
	p->ctx = k->ctx;
	p->spec = &k->spec;
	pthread_mutex_lock(&k->step_lock);
	for (i = 0; i < k->contract.nsteps; i++)
		if (!k->fn[i]) {
			step[p->n] = i;
			p->source[p->n] = k->source[i];
			snprintf(p->name[p->n], sizeof p->name[p->n], "%s%s", kgen_spec_kernel_name(&k->spec),
			         k->contract.step[i].suffix);
			p->n++;
		}
	st = build_sources(p, p->n, jit_threads(), &t, err);
	t.modules = 0;  /* counted as each loads */
	for (j = 0; j < p->n && st == KGEN_OK; j++)
		st = load_lazy_step(k, step[j], p->image[j], &t, err);
	for (j = 0; j < p->n; j++)
		free(p->image[j]);  /* the sources are k's */
	t.total_us = kgen_clock_us() - t0;
	add_times(&k->times, &t);
	pthread_mutex_unlock(&k->step_lock);
	free(p);
	return st;
}

kgen_status
kgen_kernel_prepare(kgen_kernel *kernel, kgen_error *err)
{
	CUcontext saved;
	kgen_status st = KGEN_OK;
	int i;

	if (!kernel)
		return kgen_fail(err, KGEN_EINVAL, "kgen_kernel_prepare: NULL argument");
	for (i = 0; i < kernel->nsized && st == KGEN_OK; i++)  /* a size plan: its entries */
		st = kgen_kernel_prepare(kernel->sized[i], err);
	if (kernel->nsized || !kernel->lazy)
		return st;
	saved = kgen_context_save(kernel->ctx);
	st = prepare_body(kernel, err);
	kgen_context_restore(kernel->ctx, saved);
	return st;
}

/* A size plan's entries being built, each into its own slot. */
struct plan_build {
	kgen_context *ctx;
	const kgen_plan *plan;
	struct kgen_kernel *entry[KGEN_PLAN_MAX];
	unsigned long long upto[KGEN_PLAN_MAX];
	kgen_status st[KGEN_PLAN_MAX];
	kgen_error err[KGEN_PLAN_MAX];
};

/* Whether the context holds every entry's kernel. */
static int
built_already(kgen_context *ctx, const kgen_plan *plan, int n)
{
	const kgen_spec *spec;
	int i, all = 1;

	pthread_mutex_lock(&ctx->lock);
	for (i = 0; i < n && all; i++) {
		spec = kgen_plan_spec(plan, i, NULL);
		all = lookup(ctx, spec, kgen_spec_hash(spec)) != NULL;
	}
	pthread_mutex_unlock(&ctx->lock);
	return all;
}

static void
build_entry(void *arg, int i)
{
	struct plan_build *b = arg;

	b->st[i] = kgen_kernel_build(b->ctx, kgen_plan_spec(b->plan, i, &b->upto[i]), &b->entry[i], &b->err[i]);
}

kgen_status
kgen_kernel_build_plan(kgen_context *ctx, const kgen_plan *plan, kgen_kernel **out, kgen_error *err)
{
	struct kgen_kernel *k;
	struct plan_build *b;
	int i, n;

	if (!ctx || !plan || !out)
		return kgen_fail(err, KGEN_EINVAL, "kgen_kernel_build_plan: NULL argument");
	if (!(k = calloc(1, sizeof *k)) || !(b = calloc(1, sizeof *b))) {
		free(k);
		return kgen_fail(err, KGEN_ENOMEM, "out of memory");
	}
	b->ctx = ctx;
	b->plan = plan;
	/* The entries side by side, on as many threads as there are entries
	 * and online CPUs: a plan's cold build is several specs'.  A plan whose
	 * every entry this context has built already (a warm rebuild) takes
	 * them on the calling thread: a lookup each, no thread to start. */
	n = kgen_plan_count(plan);
	kgen_parallel_for(n, built_already(ctx, plan, n) ? 1 : 0, build_entry, b);
	for (i = 0; i < n; i++)
		if (b->st[i]) {  /* the first entry that failed, as a build one by one would report */
			kgen_status st = b->st[i];
			if (err)
				*err = b->err[i];
			free(b);
			free(k);
			return st;
		}
	for (i = 0; i < n; i++) {
		k->sized[i] = b->entry[i];
		k->upto[i] = b->upto[i];
		k->by_shape = kgen_plan_shape(plan, i, k->shape[i]);
	}
	k->nsized = n;
	free(b);
	for (i = 0; i < k->nsized; i++)
		add_times(&k->times, &k->sized[i]->times);
	k->spec = k->sized[0]->spec;
	k->spec.file = kgen_strdup(k->sized[0]->spec.file);
	k->hash = k->sized[0]->hash;
	k->ctx = ctx;
	k->contract = k->sized[0]->contract;
	if (!k->spec.file) {
		free(k);
		return kgen_fail(err, KGEN_ENOMEM, "out of memory");
	}
	pthread_mutex_lock(&ctx->lock);
	k->next = ctx->plans;
	ctx->plans = k;
	pthread_mutex_unlock(&ctx->lock);
	*out = k;
	return KGEN_OK;
}

kgen_status
kgen_kernel_build_times(const kgen_kernel *kernel, kgen_build_times *times, kgen_error *err)
{
	if (!kernel || !times)
		return kgen_fail(err, KGEN_EINVAL, "kgen_kernel_build_times: NULL argument");
	if (kernel->lazy) {  /* its kernels built since add to the times, under the lock */
		pthread_mutex_lock(&((struct kgen_kernel *)kernel)->step_lock);
		*times = kernel->times;
		pthread_mutex_unlock(&((struct kgen_kernel *)kernel)->step_lock);
	} else {
		*times = kernel->times;
	}
	return KGEN_OK;
}

kgen_kernel *
kgen_kernel_for_n(kgen_kernel *k, unsigned long long n)
{
	int i;

	if (!k || !k->nsized)
		return k;
	for (i = 0; i < k->nsized - 1 && n > k->upto[i]; i++)
		;
	return k->sized[i];
}

kgen_kernel *
kgen_kernel_for_shape(kgen_kernel *k, unsigned long long m, unsigned long long n, unsigned long long kk)
{
	int i;

	if (!k || !k->nsized || !k->by_shape)
		return k;
	for (i = 0; i < k->nsized - 1; i++)
		if (m <= k->shape[i][0] && n <= k->shape[i][1] && kk <= k->shape[i][2])
			break;
	return k->sized[i];
}
