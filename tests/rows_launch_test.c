/*
 * rows_launch_test.c - kgen_rows() (runtime/rows_launch.c) against the
 * fake CUDA driver (tests/fake_cuda; tests/fake_test.sh puts it first on
 * LD_LIBRARY_PATH): which kernel of strategy auto's contract a row length
 * takes, the grid and block the header comment states, the struct's first
 * field (x) as the fake records it, the stream, nothing launched for no
 * rows, and every refusal with its message.  Kernels do not run there.
 */
#include "config.h"
#include <check.h>
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include "kgen.h"
#include "fake_cuda/fake_cuda.h"

static struct fake_launch *launches;
static int *nlaunches, *nparams;
static kgen_context *ctx;

static void
setup(void)
{
	kgen_error err;
	void *fake;

	ck_assert_msg(kgen_context_create(0, &ctx, &err) == KGEN_OK, "%s", err.message);
	fake = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
	ck_assert_ptr_nonnull(fake);
	launches = dlsym(fake, "fake_cuda_launches");
	nlaunches = dlsym(fake, "fake_cuda_nlaunches");
	nparams = dlsym(fake, "fake_cuda_nparams");
	ck_assert_msg(launches && nlaunches && nparams, "libcuda.so.1 is not the fake: run tests/fake_test.sh");
	*nparams = 1;  /* the kernels' one argument, struct Rows */
}

static void
teardown(void)
{
	*nparams = 0;
	kgen_context_destroy(ctx);
}

static kgen_kernel *
build(const char *yaml)
{
	kgen_kernel *k = NULL;
	kgen_error err;

	ck_assert_msg(kgen_kernel_build_yaml(ctx, yaml, &k, &err) == KGEN_OK, "%s", err.message);
	return k;
}

static struct kgen_rows_args
args(unsigned long long rows, unsigned long long cols)
{
	struct kgen_rows_args a;

	memset(&a, 0, sizeof a);
	a.x = 0x10000000;
	a.y = 0x40000000;
	a.rows = rows;
	a.cols = cols;
	return a;
}

/* One launch of yaml at rows x cols: its kernel, grid and block. */
static const struct geometry {
	const char *yaml;
	unsigned long long rows, cols;
	const char *kernel;
	unsigned grid, block;
	unsigned long long x_pitch;  /* 0: cols */
	unsigned smem;               /* dynamic shared memory: a staged kernel's stages */
} geometries[] = {
	/* bf16 auto: 8 elements a load; 16 lanes x 2 loads to 256 columns, 8 rows a block of 128 (auto's warp kernels'
	 * blocks, KGEN_ROWS_WARP_THREADS, where the spec's threads are more) */
	{ "kernel: rows\ndtype: bf16\n", 1000, 256, "rows_softmax_bf16_exact16x2", 125, 128 },  /* rows of exactly its loads */
	{ "kernel: rows\ndtype: bf16\n", 1000, 255, "rows_softmax_bf16_lanes16x2", 125, 128 },
	{ "kernel: rows\ndtype: bf16\nthreads: 64\n", 1000, 256, "rows_softmax_bf16_exact16x2", 250, 64 },
	/* 257 to 512 columns: a warp a row, 2 loads a thread (softmax's and RMSNorm's; LayerNorm's 16 x 4), 4 rows */
	{ "kernel: rows\ndtype: bf16\n", 1000, 257, "rows_softmax_bf16_lanes32x2", 250, 128 },
	{ "kernel: rows\ndtype: bf16\n", 1000, 512, "rows_softmax_bf16_exact32x2", 250, 128 },
	{ "kernel: rows\ndtype: bf16\n", 1000, 512, "rows_softmax_bf16_lanes32x2", 250, 128, 513 },  /* rows unaligned */
	{ "kernel: rows\nop: layer_norm\ndtype: bf16\n", 1000, 512, "rows_layer_norm_bf16_exact16x4", 125, 128 },
	/* 513 to 1024 columns: a block of 128 threads a row, one load each (KGEN_ROWS_AUTO_BLOCKS), aligned or not, on
	 * sm_90 too; LayerNorm's staged, a warp a row (16 rows a block), at most the blocks 132 SMs hold (the fake says 2
	 * each) */
	{ "kernel: rows\ndtype: bf16\n", 1000, 513, "rows_softmax_bf16_block128x1", 1000, 128 },
	{ "kernel: rows\ndtype: bf16\n", 1000, 1024, "rows_softmax_bf16_block128x1", 1000, 128 },
	{ "kernel: rows\ndtype: bf16\n", 1000, 1024, "rows_softmax_bf16_block128x1", 1000, 128, 1025 },  /* rows unaligned */
	{ "kernel: rows\nop: rms_norm\ndtype: f16\n", 1000, 1000, "rows_rms_norm_f16_block128x1", 1000, 128 },
	{ "kernel: rows\nop: layer_norm\ndtype: bf16\n", 1000, 1024, "rows_layer_norm_bf16_staged32x4", 63, 512, 0,
	  2 * 512 * 4 * 16 + 2 * 1024 * 2 },
	{ "kernel: rows\nop: layer_norm\ndtype: bf16\n", 1000, 1024, "rows_layer_norm_bf16_lanes32x4", 250, 128, 1025 },
	/* 1025 to 2048: blocks of 192 and 256 threads, one load each (RMSNorm's 192 x 2, 256 x 2 and 384 x 2 to
	 * 6144), on sm_90 too; LayerNorm's staged two warps a row (8 rows a block) */
	{ "kernel: rows\ndtype: bf16\n", 1000, 1032, "rows_softmax_bf16_block192x1", 1000, 192 },
	{ "kernel: rows\ndtype: bf16\n", 1000, 1536, "rows_softmax_bf16_block192x1", 1000, 192 },
	{ "kernel: rows\ndtype: bf16\n", 1000, 1537, "rows_softmax_bf16_block256x1", 1000, 256 },
	{ "kernel: rows\ndtype: bf16\n", 1000, 2048, "rows_softmax_bf16_block256x1", 1000, 256 },
	{ "kernel: rows\nop: rms_norm\ndtype: bf16\n", 1000, 2056, "rows_rms_norm_bf16_block192x2", 1000, 192 },
	{ "kernel: rows\nop: rms_norm\ndtype: bf16\n", 1000, 4096, "rows_rms_norm_bf16_block256x2", 1000, 256 },
	{ "kernel: rows\nop: rms_norm\ndtype: bf16\n", 1000, 3073, "rows_rms_norm_bf16_block256x2", 1000, 256 },
	{ "kernel: rows\nop: rms_norm\ndtype: bf16\n", 1000, 4097, "rows_rms_norm_bf16_block384x2", 1000, 384 },
	{ "kernel: rows\nop: rms_norm\ndtype: bf16\n", 1000, 6144, "rows_rms_norm_bf16_block384x2", 1000, 384 },
	/* past them its staged kernels, wide (blocks of 1024, one an SM here), weight held beside the stages */
	{ "kernel: rows\nop: rms_norm\ndtype: bf16\n", 1000, 6152, "rows_rms_norm_bf16_staged256x4w", 132, 1024, 0,
	  2 * 1024 * 4 * 16 + 8192 * 2 },
	/* LayerNorm's wide staged blocks that hold a row of 1536, 2048, 3072 and 4096 exactly (16, 16, 8 and 4 rows a
	 * block of 1024, one an SM here) */
	{ "kernel: rows\nop: layer_norm\ndtype: bf16\n", 1000, 1536, "rows_layer_norm_bf16_staged64x3w", 63, 1024, 0,
	  2 * 1024 * 3 * 16 + 2 * 1536 * 2 },
	{ "kernel: rows\nop: layer_norm\ndtype: bf16\n", 1000, 2048, "rows_layer_norm_bf16_staged64x4w", 63, 1024, 0,
	  2 * 1024 * 4 * 16 + 2 * 2048 * 2 },
	{ "kernel: rows\nop: layer_norm\ndtype: bf16\n", 1000, 3000, "rows_layer_norm_bf16_staged128x3w", 125, 1024, 0,
	  2 * 1024 * 3 * 16 + 2 * 3072 * 2 },
	{ "kernel: rows\nop: layer_norm\ndtype: f16\n", 1000, 4096, "rows_layer_norm_f16_staged256x2w", 132, 1024, 0,
	  2 * 1024 * 2 * 16 + 2 * 4096 * 2 },
	/* longer rows on sm_90 (the fake's), x 16-byte aligned: staged, as many blocks as 132 SMs hold
	 * (the fake says 2 each), 4 rows a block of 128 lanes */
	{ "kernel: rows\ndtype: bf16\n", 1000, 2056, "rows_softmax_bf16_staged128x4", 250, 512, 0, 2 * 512 * 4 * 16 },
	{ "kernel: rows\ndtype: bf16\n", 1000, 4096, "rows_softmax_bf16_staged128x4", 250, 512, 0, 2 * 512 * 4 * 16 },
	{ "kernel: rows\ndtype: bf16\n", 1000, 16384, "rows_softmax_bf16_staged512x4", 264, 512, 0, 2 * 512 * 4 * 16 },
	{ "kernel: rows\ndtype: bf16\n", 1000, 32768, "rows_softmax_bf16_staged512x8", 264, 512, 0, 2 * 512 * 8 * 16 },
	/* longer: a row over a cluster of 2, 4 or 8 blocks, softmax's of half the threads x 16 loads (the norms' of
	 * 512 x 8), as many clusters as the GPU holds (the fake says 60), then the online kernel */
	{ "kernel: rows\ndtype: bf16\n", 1000, 32776, "rows_softmax_bf16_cluster2x16h", 120, 256, 0, 2 * 256 * 16 * 16 },
	{ "kernel: rows\ndtype: bf16\n", 1000, 65544, "rows_softmax_bf16_cluster4x16h", 240, 256, 0, 2 * 256 * 16 * 16 },
	{ "kernel: rows\ndtype: bf16\n", 1000, 262144, "rows_softmax_bf16_cluster8x16h", 480, 256, 0, 2 * 256 * 16 * 16 },
	{ "kernel: rows\ndtype: bf16\n", 7, 262144, "rows_softmax_bf16_cluster8x16h", 56, 256, 0, 2 * 256 * 16 * 16 },
	{ "kernel: rows\nop: rms_norm\ndtype: bf16\n", 7, 262144, "rows_rms_norm_bf16_cluster8x8", 56, 512, 0,
	  2 * 512 * 8 * 16 + 32768 * 2 },
	{ "kernel: rows\ndtype: bf16\n", 1000, 262152, "rows_softmax_bf16_online", 1000, 512 },
	{ "kernel: rows\ndtype: bf16\n", 1000, 32769, "rows_softmax_bf16_online", 1000, 512 },  /* rows not 16-byte aligned */
	{ "kernel: rows\ndtype: bf16\n", 1000, 65536, "rows_softmax_bf16_online", 1000, 512, 65540 },
	/* rows that do not keep 16-byte vectors aligned: the kernels that load them themselves */
	{ "kernel: rows\ndtype: bf16\n", 1000, 4096, "rows_softmax_bf16_lanes128x4", 250, 512, 4097 },
	{ "kernel: rows\ndtype: bf16\n", 1000, 16384, "rows_softmax_bf16_lanes256x8", 500, 512, 16388 },
	{ "kernel: rows\ndtype: bf16\n", 1000, 32768, "rows_softmax_bf16_block8", 1000, 512, 32769 },
	/* strategy: staged: a block per row here, at most the GPU's resident blocks */
	{ "kernel: rows\ndtype: bf16\nstrategy: staged\nlanes: 512\nvectors: 2\n", 100, 50, "rows_softmax_bf16", 100, 512, 0, 2 * 512 * 2 * 16 },
	{ "kernel: rows\ndtype: bf16\nstrategy: staged\nlanes: 256\nvectors: 2\n", 1001, 50, "rows_softmax_bf16", 264, 512, 0, 2 * 512 * 2 * 16 },
	/* 48 KB of stages, weight and bias (two rows of 128 lanes x 4 loads, two stages, 8 KB each of the
	 * weight and bias): with the kernel's own mbarriers above the 48 KB a launch may take unless the
	 * function's limit is raised, which the fake driver refuses as the real one does */
	{ "kernel: rows\nop: layer_norm\ndtype: bf16\nstrategy: staged\nthreads: 256\nlanes: 128\nvectors: 4\n", 1000, 4096,
	  "rows_layer_norm_bf16", 264, 256, 0, 2 * 256 * 4 * 16 + 2 * 4096 * 2 },
	/* a wide kernel (LayerNorm's from 8192 bf16 columns): blocks of 1024 threads, two rows of 512 lanes x 4
	 * loads a block, as many blocks as 132 SMs hold (the fake says 1 each of 1024 threads) */
	{ "kernel: rows\nop: layer_norm\ndtype: bf16\n", 1000, 16384, "rows_layer_norm_bf16_staged512x4w", 132, 1024, 0,
	  2 * 1024 * 4 * 16 + 2 * 16384 * 2 },
	/* f32: 4 elements a load */
	{ "kernel: rows\nop: rms_norm\n", 10, 128, "rows_rms_norm_f32_exact16x2", 2, 128 },  /* 8 rows a block */
	{ "kernel: rows\nop: rms_norm\n", 10, 1024, "rows_rms_norm_f32_block128x2", 10, 128 },
	{ "kernel: rows\nop: layer_norm\n", 10, 1000, "rows_layer_norm_f32_block128x2", 10, 128 },
	/* f32 to 8192 columns: blocks of 256 x 2, 512 x 2 and 512 x 4 loads a row, on sm_90 too */
	{ "kernel: rows\nop: layer_norm\n", 10, 2048, "rows_layer_norm_f32_block256x2", 10, 256 },
	{ "kernel: rows\n", 1000, 2052, "rows_softmax_f32_block512x2", 1000, 512 },
	{ "kernel: rows\n", 1000, 8192, "rows_softmax_f32_block512x4", 1000, 512 },
	{ "kernel: rows\n", 1000, 8196, "rows_softmax_f32_staged512x8", 264, 512, 0, 2 * 512 * 8 * 16 },
	{ "kernel: rows\nop: rms_norm\n", 10, 16388, "rows_rms_norm_f32_cluster2x8", 20, 512, 0, 2 * 512 * 8 * 16 + 16384 * 4 },
	/* softmax's f32 past 16384: a block of 1024 threads x 8 loads (one each of 132 SMs), then clusters of 2 and 4
	 * of them (as many as the fake says fit, 60), one stage */
	{ "kernel: rows\n", 1000, 16388, "rows_softmax_f32_staged1024x8w", 132, 1024, 0, 1024 * 8 * 16 },
	{ "kernel: rows\n", 1000, 32768, "rows_softmax_f32_staged1024x8w", 132, 1024, 0, 1024 * 8 * 16 },
	{ "kernel: rows\n", 100, 32772, "rows_softmax_f32_cluster2x8w", 120, 1024, 0, 1024 * 8 * 16 },
	{ "kernel: rows\n", 100, 65536, "rows_softmax_f32_cluster2x8w", 120, 1024, 0, 1024 * 8 * 16 },
	{ "kernel: rows\n", 100, 65540, "rows_softmax_f32_cluster4x8w", 240, 1024, 0, 1024 * 8 * 16 },
	{ "kernel: rows\n", 100, 131072, "rows_softmax_f32_cluster4x8w", 240, 1024, 0, 1024 * 8 * 16 },
	/* a spec of 256 threads: the wide kernels of 512, past 256 x 8 x 4 elements */
	{ "kernel: rows\nthreads: 256\n", 1000, 8196, "rows_softmax_f32_staged512x8w", 264, 512, 0, 2 * 512 * 8 * 16 },
	/* past 131072: a cluster of 8 blocks of 1024 threads x 8 loads (4-byte elements only), one stage */
	{ "kernel: rows\n", 7, 262144, "rows_softmax_f32_cluster8x8w", 56, 1024, 0, 1024 * 8 * 16 },
	{ "kernel: rows\n", 7, 131076, "rows_softmax_f32_cluster8x8w", 56, 1024, 0, 1024 * 8 * 16 },
	{ "kernel: rows\n", 7, 262148, "rows_softmax_f32_online", 7, 512 },
	/* the norms' f32 past 131072: a cluster of 16 blocks, the weight (and bias) held beside the stages: RMSNorm's
	 * of 1024 x 4 loads, two stages; LayerNorm's of 512 x 8, one; bf16's past 262144 the same (where 8 blocks
	 * would hold 64 elements a thread) */
	{ "kernel: rows\nop: rms_norm\n", 7, 131076, "rows_rms_norm_f32_cluster16x4w", 112, 1024, 0,
	  2 * 1024 * 4 * 16 + 16384 * 4 },
	{ "kernel: rows\nop: layer_norm\n", 100, 262144, "rows_layer_norm_f32_cluster16x8", 960, 512, 0,
	  512 * 8 * 16 + 2 * 16384 * 4 },
	{ "kernel: rows\nop: layer_norm\n", 7, 262148, "rows_layer_norm_f32_online", 7, 512 },
	{ "kernel: rows\nop: rms_norm\ndtype: bf16\n", 7, 262152, "rows_rms_norm_bf16_cluster16x4w", 112, 1024, 0,
	  2 * 1024 * 4 * 16 + 32768 * 2 },
	{ "kernel: rows\nop: layer_norm\nstrategy: cluster\ncluster_size: 16\nvectors: 4\n", 3, 1000, "rows_layer_norm_f32",
	  48, 512, 0, 2 * 512 * 4 * 16 + 2 * 8192 * 4 },
	/* cross_entropy's own table */
	{ "kernel: rows\nop: cross_entropy\ndtype: bf16\n", 1000, 512, "rows_cross_entropy_bf16_lanes8x1", 16, 512 },
	{ "kernel: rows\nop: cross_entropy\ndtype: bf16\n", 1000, 100000, "rows_cross_entropy_bf16_online", 1000, 512 },
	/* one kernel: warp, cluster */
	{ "kernel: rows\nstrategy: warp\nlanes: 8\nthreads: 128\n", 33, 100, "rows_softmax_f32", 3, 128 },
	{ "kernel: rows\nstrategy: cluster\ncluster_size: 4\n", 10, 5000, "rows_softmax_f32", 40, 512, 0, 2 * 512 * 4 * 16 },
	{ "kernel: rows\nstrategy: cluster\ncluster_size: 2\n", 1000, 100, "rows_softmax_f32", 120, 512, 0, 2 * 512 * 4 * 16 },
};

START_TEST(rows_launch_geometry)
{
	const struct geometry *g = &geometries[_i];
	kgen_kernel *k = build(g->yaml);
	struct kgen_rows_args a = args(g->rows, g->cols);
	kgen_error err;

	a.x_pitch = g->x_pitch;
	if (strstr(g->yaml, "cross_entropy")) {
		a.y = 0;
		a.labels = 0x50000000;
		a.loss = 0x60000000;
	}
	*nlaunches = 0;
	ck_assert_msg(kgen_rows(k, &a, (kgen_stream)0x1234, &err) == KGEN_OK, "%s", err.message);
	ck_assert_int_eq(*nlaunches, 1);
	ck_assert_str_eq(launches[0].name, g->kernel);
	ck_assert_uint_eq(launches[0].grid[0], g->grid);
	ck_assert_uint_eq(launches[0].block[0], g->block);
	ck_assert_uint_eq(launches[0].smem, g->smem);
	ck_assert_uint_eq(launches[0].args[0], 0x10000000);  /* struct Rows begins with x */
	ck_assert_ptr_eq(launches[0].stream, (void *)0x1234);
}
END_TEST

/* One kernel launched at several ranges of row lengths in turn, a staged one first and again: the kernel
 * list it makes at its first launch and keeps serves every later one (kernels cheap to build: the cache is
 * off here, and each is compiled at its first launch). */
/* A warp kernel's exact twin takes rows of exactly its loads only where x, y, the weight and the bias all keep
 * whole vectors aligned (their pitches too); else its generic kernel does. */
START_TEST(rows_exact_twin_only_where_every_array_keeps_vectors_aligned)
{
	static const struct {
		unsigned long long cols, x_pitch, y_pitch, weight, bias;
		const char *name;
	} cases[] = {
		{ 256, 0, 0, 0x20000000, 0x30000000, "rows_layer_norm_bf16_exact16x2" },
		{ 256, 264, 0, 0x20000000, 0x30000000, "rows_layer_norm_bf16_exact16x2" },  /* 528-byte pitch */
		{ 256, 0, 0, 0, 0, "rows_layer_norm_bf16_exact16x2" },                     /* no weight, no bias */
		{ 256, 257, 0, 0x20000000, 0x30000000, "rows_layer_norm_bf16_lanes16x2" },
		{ 256, 0, 260, 0x20000000, 0x30000000, "rows_layer_norm_bf16_lanes16x2" },
		{ 256, 0, 0, 0x20000002, 0x30000000, "rows_layer_norm_bf16_lanes16x2" },
		{ 256, 0, 0, 0x20000000, 0x30000008, "rows_layer_norm_bf16_lanes16x2" },
		{ 248, 0, 0, 0x20000000, 0x30000000, "rows_layer_norm_bf16_lanes16x2" },   /* whole vectors, not all */
		{ 512, 0, 0, 0x20000000, 0x30000000, "rows_layer_norm_bf16_exact16x4" },
		{ 512, 0, 0, 0x20000002, 0x30000002, "rows_layer_norm_bf16_lanes16x4" },
	};
	kgen_kernel *k = build("kernel: rows\nop: layer_norm\ndtype: bf16\n");
	kgen_error err;
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct kgen_rows_args a = args(1000, cases[i].cols);
		a.x_pitch = cases[i].x_pitch;
		a.y_pitch = cases[i].y_pitch;
		a.weight = cases[i].weight;
		a.bias = cases[i].bias;
		*nlaunches = 0;
		ck_assert_msg(kgen_rows(k, &a, NULL, &err) == KGEN_OK, "%s", err.message);
		ck_assert_int_eq(*nlaunches, 1);
		ck_assert_msg(!strcmp(launches[0].name, cases[i].name), "case %zu: %s, not %s", i, launches[0].name,
		              cases[i].name);
	}
}
END_TEST

START_TEST(rows_one_kernel_every_length)
{
	static const struct {
		unsigned long long cols;
		const char *name;
	} order[] = {
		{ 4096, "rows_softmax_bf16_staged128x4" }, { 256, "rows_softmax_bf16_exact16x2" },
		{ 1536, "rows_softmax_bf16_block192x1" },  { 513, "rows_softmax_bf16_block128x1" },
		{ 4096, "rows_softmax_bf16_staged128x4" }, { 512, "rows_softmax_bf16_exact32x2" },
		{ 200, "rows_softmax_bf16_lanes16x2" },    { 256, "rows_softmax_bf16_exact16x2" },
	};
	kgen_kernel *k = build("kernel: rows\ndtype: bf16\n");
	kgen_error err;
	size_t i;

	for (i = 0; i < sizeof order / sizeof order[0]; i++) {
		struct kgen_rows_args a = args(100, order[i].cols);
		*nlaunches = 0;
		ck_assert_msg(kgen_rows(k, &a, NULL, &err) == KGEN_OK, "%s", err.message);
		ck_assert_int_eq(*nlaunches, 1);
		ck_assert_str_eq(launches[0].name, order[i].name);
	}
}
END_TEST

/* A GPU whose blocks get less shared memory (99 KB, as sm_86's) loads auto's staged kernels that fit and
 * never launches the one that does not (512 x 8 loads: two stages of 64 KB): its rows go to the block's
 * kernel that loads them itself. */
START_TEST(rows_staged_kernel_too_large_is_left_out)
{
	kgen_kernel *k;
	struct kgen_rows_args a = args(1000, 32768);
	kgen_error err;

	teardown();
	setenv("FAKE_CUDA_SMEM_OPTIN", "101376", 1);
	setup();
	k = build("kernel: rows\ndtype: bf16\n");
	*nlaunches = 0;
	ck_assert_msg(kgen_rows(k, &a, NULL, &err) == KGEN_OK, "%s", err.message);
	ck_assert_int_eq(*nlaunches, 1);
	ck_assert_str_eq(launches[0].name, "rows_softmax_bf16_block8");
	ck_assert_uint_eq(launches[0].smem, 0);
	a = args(1000, 16384);  /* 2 x 32 KB: staged still */
	*nlaunches = 0;
	ck_assert_msg(kgen_rows(k, &a, NULL, &err) == KGEN_OK, "%s", err.message);
	ck_assert_str_eq(launches[0].name, "rows_softmax_bf16_staged512x4");
	/* f32 softmax past 16384: its wide staged block and clusters (128 KB each) all left out, the online
	 * kernel takes the rows */
	k = build("kernel: rows\n");
	a = args(100, 20000);
	*nlaunches = 0;
	ck_assert_msg(kgen_rows(k, &a, NULL, &err) == KGEN_OK, "%s", err.message);
	ck_assert_int_eq(*nlaunches, 1);
	ck_assert_str_eq(launches[0].name, "rows_softmax_f32_online");
	unsetenv("FAKE_CUDA_SMEM_OPTIN");
}
END_TEST

/* A GPU that refuses clusters of 16 blocks (FAKE_CUDA_PORTABLE_ONLY): auto's norms take the cluster of 8
 * listed after it for f32 rows past 131072; a spec of cluster_size 16 fails to build (its one kernel). */
START_TEST(rows_cluster16_refused)
{
	kgen_kernel *k;
	struct kgen_rows_args a = args(100, 200000);
	kgen_error err;

	teardown();
	setenv("FAKE_CUDA_PORTABLE_ONLY", "1", 1);
	setup();
	k = build("kernel: rows\nop: layer_norm\n");
	*nlaunches = 0;
	ck_assert_msg(kgen_rows(k, &a, NULL, &err) == KGEN_OK, "%s", err.message);
	ck_assert_int_eq(*nlaunches, 1);
	ck_assert_str_eq(launches[0].name, "rows_layer_norm_f32_cluster8x8w");
	ck_assert_uint_eq(launches[0].grid[0], 8 * 60);
	k = NULL;
	ck_assert_int_eq(kgen_kernel_build_yaml(ctx, "kernel: rows\nop: layer_norm\nstrategy: cluster\ncluster_size: 16\n"
	                                        "vectors: 4\n", &k, &err), KGEN_ECUDA);
	ck_assert_ptr_null(k);
	ck_assert_str_eq(err.message, "a cluster of 16 blocks is not portable, and this GPU refuses it (cuFuncSetAttribute, "
	                              "NON_PORTABLE_CLUSTER_SIZE_ALLOWED: CUDA_ERROR_UNKNOWN): use cluster_size 8 or less");
	unsetenv("FAKE_CUDA_PORTABLE_ONLY");
}
END_TEST

START_TEST(rows_no_rows_launch_nothing)
{
	kgen_kernel *k = build("kernel: rows\n");
	struct kgen_rows_args a = args(0, 100);
	kgen_error err;

	*nlaunches = 0;
	ck_assert_int_eq(kgen_rows(k, &a, NULL, &err), KGEN_OK);
	a = args(100, 0);
	ck_assert_int_eq(kgen_rows(k, &a, NULL, &err), KGEN_OK);
	ck_assert_int_eq(*nlaunches, 0);
}
END_TEST

/* A call that is refused, with its message. */
static void
refused(kgen_kernel *k, const struct kgen_rows_args *a, const char *message)
{
	kgen_error err;

	*nlaunches = 0;
	ck_assert_int_eq(kgen_rows(k, a, NULL, &err), KGEN_EINVAL);
	ck_assert_msg(strstr(err.message, message) != NULL, "'%s' does not say '%s'", err.message, message);
	ck_assert_int_eq(*nlaunches, 0);
}

START_TEST(rows_bad_calls_refused)
{
	kgen_kernel *k = build("kernel: rows\nop: layer_norm\ndtype: bf16\n");
	kgen_kernel *xent = build("kernel: rows\nop: cross_entropy\n");
	kgen_kernel *warp = build("kernel: rows\nstrategy: warp\nlanes: 4\nvectors: 1\n");
	kgen_kernel *sum = build("kernel: reduce\n");
	struct kgen_rows_args a = args(10, 100);
	kgen_error err;

	ck_assert_int_eq(kgen_rows(k, NULL, NULL, &err), KGEN_EINVAL);
	ck_assert_int_eq(kgen_rows(sum, &a, NULL, &err), KGEN_EINVAL);
	ck_assert_ptr_nonnull(strstr(err.message, "is a reduce kernel"));
	a.x = 0;
	refused(k, &a, "kgen_rows: x is NULL");
	a = args(10, 100);
	a.y = 0;
	refused(k, &a, "writes y, and y is NULL");
	a = args(10, 100);
	a.labels = 0x50000000;
	refused(k, &a, "takes no labels, loss or lse");
	a = args(10, 100);
	a.x_pitch = 99;
	refused(k, &a, "x_pitch 99 is less than cols 100");
	a = args(10, 100);
	a.x = 0x10000001;
	refused(k, &a, "not aligned to its element size");
	a = args(10, 100);
	a.y = a.x + 100;  /* inside x, not in place */
	refused(k, &a, "kgen_rows:");
	a = args(10, 100);
	a.y = a.x;
	a.weight = a.x + 64;  /* in place, but the weight lies in what y writes */
	refused(k, &a, "weight");
	a = args(10, 100);
	refused(xent, &a, "cross_entropy reads labels and writes loss");
	a.y = 0;
	a.labels = 0x50000000;
	a.loss = 0x60000000;
	a.cols = 0;
	refused(xent, &a, "0 classes");
	a.cols = 100;
	a.y = 0x40000000;
	refused(xent, &a, "takes no y");
	a = args(10, 129);  /* 4 lanes x 1 load of 4 floats: 16 columns */
	refused(warp, &a, "rows of 129 elements are longer than rows_softmax_f32 holds (16)");
	a = args(10, 100);
	a.y = a.x;  /* in place, same pitch and size: allowed */
	*nlaunches = 0;
	ck_assert_msg(kgen_rows(k, &a, NULL, &err) == KGEN_OK, "%s", err.message);
	ck_assert_int_eq(*nlaunches, 1);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("rows_launch");
	TCase *tc = tcase_create("rows_launch");
	SRunner *sr;
	int failed;

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, rows_launch_geometry, 0, (int)(sizeof geometries / sizeof geometries[0]));
	tcase_add_test(tc, rows_cluster16_refused);
	tcase_add_test(tc, rows_no_rows_launch_nothing);
	tcase_add_test(tc, rows_one_kernel_every_length);
	tcase_add_test(tc, rows_exact_twin_only_where_every_array_keeps_vectors_aligned);
	tcase_add_test(tc, rows_staged_kernel_too_large_is_left_out);
	tcase_add_test(tc, rows_bad_calls_refused);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
