/*
 * fake_test.c - the runtime's host code against a fake CUDA driver
 * (tests/fake_cuda/libcuda.so.1, put first on LD_LIBRARY_PATH by
 * tests/fake_test.sh): launch geometry and arguments, tensor maps encoded
 * once, library-owned scratch, driver failures reported as KGEN_ECUDA;
 * kgen_time_calls (cli/timing.c) with each method.  Kernels do not run
 * there; what kgen asks the driver for is checked.
 */
#define _GNU_SOURCE  /* RTLD_NEXT */
#include "config.h"
#include <check.h>
#include <dlfcn.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "kgen.h"
#include "cli/timing.h"
#include "fake_cuda/fake_cuda.h"
#include "gen/parallel.h"


static struct fake_launch *launches;
static int *nlaunches, *encodes, *nparams;
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
	encodes = dlsym(fake, "fake_cuda_encodes");
	nparams = dlsym(fake, "fake_cuda_nparams");
	ck_assert_msg(launches && nlaunches && encodes && nparams, "libcuda.so.1 is not the fake: run tests/fake_test.sh");
}

/* One of the fake driver's variables, by name. */
static void *
fake_var(const char *name)
{
	void *v = dlsym(dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD), name);

	ck_assert_msg(v != NULL, "the fake driver lacks %s", name);
	return v;
}

static void
teardown(void)
{
	kgen_context_destroy(ctx);
	unsetenv("FAKE_CUDA_FAIL");
}

static kgen_kernel *
build(const char *yaml)
{
	kgen_kernel *k = NULL;
	kgen_error err;

	ck_assert_msg(kgen_kernel_build_yaml(ctx, yaml, &k, &err) == KGEN_OK, "%s", err.message);
	return k;
}

static const struct fake_launch *
last(void)
{
	ck_assert_int_gt(*nlaunches, 0);
	return &launches[(*nlaunches - 1) % 256];
}

/* The launch `back` launches before the last (0: the last). */
static const struct fake_launch *
before_last(int back)
{
	ck_assert_int_gt(*nlaunches, back);
	return &launches[(*nlaunches - 1 - back) % 256];
}

START_TEST(context_reads_the_device)
{
	ck_assert_str_eq(kgen_context_device_name(ctx), "Fake H200");
	ck_assert_str_eq(kgen_context_arch(ctx), "sm_90");
	ck_assert_int_eq(kgen_context_sm_count(ctx), 132);
	ck_assert_uint_eq(kgen_context_l2_bytes(ctx), 60u << 20);
}
END_TEST

/* A batch of 70000 matrices: y and z of the grid, every argument as given. */
START_TEST(transpose_batch_geometry_and_arguments)
{
	kgen_kernel *k = build("kernel: transpose\n");  /* 32x32 tiles, 256 threads, 64-bit indices */
	kgen_transpose_layout l = { 70000, 208, 104, 100 * 208, 200 * 104 };
	const struct fake_launch *x;
	kgen_error err;
	int n0 = *nlaunches;

	*nparams = 9;
	ck_assert_int_eq(kgen_transpose_batched(k, 0x10000000ull, 0x800000000ull, 100, 200, &l, NULL, &err), KGEN_OK);
	ck_assert_int_eq(*nlaunches, n0 + 1);
	x = last();
	ck_assert_str_eq(x->name, "transpose_f32");
	ck_assert_uint_eq(x->grid[0], 4 * 7);       /* ceil(100/32) * ceil(200/32) tiles */
	ck_assert_uint_eq(x->grid[1], 65535);
	ck_assert_uint_eq(x->grid[2], 2);           /* 2 x 65535 >= 70000 */
	ck_assert_uint_eq(x->block[0], 256);
	ck_assert_uint_eq(x->args[0], 0x10000000ull);
	ck_assert_uint_eq(x->args[1], 0x800000000ull);
	ck_assert_uint_eq(x->args[2], 100);
	ck_assert_uint_eq(x->args[3], 200);
	ck_assert_uint_eq(x->args[4], 70000);
	ck_assert_uint_eq(x->args[5], 208);
	ck_assert_uint_eq(x->args[6], 104);
	ck_assert_uint_eq(x->args[7], 100 * 208);
	ck_assert_uint_eq(x->args[8], 200 * 104);
	*nparams = 0;
}
END_TEST

/* TMA: maps encoded on the first call, reused while pointers and layout stay. */
START_TEST(tma_maps_are_encoded_once)
{
	kgen_kernel *k = build("kernel: transpose\nmethod: tma\ntile_rows: 64\ntile_cols: 64\nbatch: 8\n");
	kgen_transpose_layout l = { 3, 0, 0, 0, 0 };
	kgen_error err;
	int e0 = *encodes;

	ck_assert_int_eq(kgen_transpose_batched(k, 0x10000000ull, 0x20000000ull, 256, 512, &l, NULL, &err), KGEN_OK);
	ck_assert_int_eq(*encodes, e0 + 2);
	ck_assert_int_eq(kgen_transpose_batched(k, 0x10000000ull, 0x20000000ull, 256, 512, &l, NULL, &err), KGEN_OK);
	ck_assert_int_eq(*encodes, e0 + 2);
	ck_assert_uint_eq(last()->grid[0], 4 * 8);
	ck_assert_uint_eq(last()->grid[1], 3);
	ck_assert_int_eq(kgen_transpose_batched(k, 0x10000000ull, 0x30000000ull, 256, 512, &l, NULL, &err), KGEN_OK);
	ck_assert_int_eq(*encodes, e0 + 4);
	l.out_pitch = 260;
	ck_assert_int_eq(kgen_transpose_batched(k, 0x10000000ull, 0x30000000ull, 256, 512, &l, NULL, &err), KGEN_OK);
	ck_assert_int_eq(*encodes, e0 + 6);
}
END_TEST

#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
/* aligned_alloc is this program's (the sanitizers' builds keep their own):
 * it fails while fail_aligned_alloc is set, else calls libc's.  A kernel's
 * launch state (kgen_kernel_state_lock) is its only user in the library. */
#define KGEN_TEST_ALIGNED_ALLOC 1
static int fail_aligned_alloc;

void *
aligned_alloc(size_t align, size_t size)
{
	static void *(*real)(size_t, size_t);

	if (fail_aligned_alloc)
		return NULL;
	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "aligned_alloc");
	return real ? real(align, size) : NULL;
}

/* A launch state that cannot be made: KGEN_ENOMEM, nothing launched, and the
 * context's lock released (the next call, with memory, takes it and runs). */
START_TEST(a_launch_state_out_of_memory_fails_and_unlocks)
{
	kgen_kernel *k = build("kernel: transpose\nmethod: tma\ntile_rows: 64\ntile_cols: 64\n");
	kgen_error err;
	int n0 = *nlaunches, e0 = *encodes;

	fail_aligned_alloc = 1;
	ck_assert_int_eq(kgen_transpose(k, 0x10000000ull, 0x20000000ull, 256, 512, NULL, &err), KGEN_ENOMEM);
	fail_aligned_alloc = 0;
	ck_assert_int_eq(err.status, KGEN_ENOMEM);
	ck_assert_ptr_nonnull(strstr(err.message, "out of memory"));
	ck_assert_int_eq(*nlaunches, n0);
	ck_assert_int_eq(*encodes, e0);
	ck_assert_int_eq(kgen_transpose(k, 0x10000000ull, 0x20000000ull, 256, 512, NULL, &err), KGEN_OK);
	ck_assert_int_eq(*nlaunches, n0 + 1);
	ck_assert_int_eq(*encodes, e0 + 2);
}
END_TEST
#endif

/* A cache directory kgen refuses (writable by others) is not used, the
 * build succeeds, and kgen_cache_problem() says why, once. */
/* math: wgmma (compiled for sm_90a on this sm_90 device): A's and B's
 * tensor maps encoded once, passed first; a block per tile, or one per
 * SM slot for a producer warpgroup; TMA's alignment refused first. */
/* schedule: pingpong: a consumer warpgroup stores whole tiles, so C's
 * tensor map boxes a tile's rows (not half of them), and the block has two
 * consumers' buffers of a whole tile's rows each. */
START_TEST(pingpong_boxes_whole_tiles)
{
	kgen_kernel *k = build("kernel: matmul\ndtype: bf16\nmath: wgmma\nproducer: warpgroup\nconsumers: 2\n"
	                       "tile_m: 128\ntile_n: 128\nstore: tma\nschedule: pingpong\n");
	const struct fake_map *map;
	kgen_error err;

	*nparams = 9;  /* a_map, b_map, c_map, c, m, n, k, ldc, ep: beta 0 and C by TMA, the kernel without c_tma */
	ck_assert_int_eq(kgen_matmul(k, 0x10000000ull, 0x20000000ull, 0x30000000ull, 1000, 3000, 264, 0, 0, 0, 1.0, 0.0, 0, 0,
	                             NULL, &err), KGEN_OK);
	ck_assert_str_eq(last()->name, "matmul_wgmma_bf16");
	ck_assert_uint_eq(last()->block[0], 384);
	ck_assert_uint_eq(last()->smem, 1024 + 4 * 256 * 128 + 2 * 2 * 128 * 128);  /* stages, then the buffers */
	map = fake_var("fake_cuda_last_map");
	ck_assert_uint_eq(map->box[1], 128);
	*nparams = 0;
}
END_TEST

/* kgen_matmul_with(): the epilogue's operands a spec declares are given,
 * aligned and apart from C (the residual may be C itself); a launch then
 * passes ep, alpha and beta first.  Nothing is launched on a refusal. */
START_TEST(matmul_operands_are_checked)
{
	kgen_kernel *k = build("kernel: matmul\ndtype: bf16\nmath: wgmma\nproducer: warpgroup\nconsumers: 2\n"
	                       "store: tma\nbias: col\nresidual: matrix\nepilogue: gelu(v + bias) + residual\n");
	kgen_kernel *plain = build("kernel: matmul\ndtype: bf16\n");
	struct kgen_matmul_operands ops = { .bias = 0x40000000ull, .residual = 0x50000000ull };
	const unsigned long long a = 0x10000000ull, b = 0x20000000ull, c = 0x30000000ull;
	kgen_error err;
	int n0;

	*nparams = 10;  /* C and the residual by TMA: a_map, b_map, c_map, r_map, c, m, n, k, ldc, ep */
	n0 = *nlaunches;
	ck_assert_int_eq(kgen_matmul_with(k, a, b, c, 256, 512, 64, 0, 0, 0, 2.0, 0.0, &ops, 0, 0, NULL, &err), KGEN_OK);
	ck_assert_int_eq(*nlaunches, n0 + 1);
	ck_assert_str_eq(last()->name, "matmul_wgmma_bf16");  /* the residual's rows (ldr = n) take TMA */
	ck_assert_uint_eq(last()->args[9], 0x40000000ull);    /* ep: alpha 2.0f, beta 0.0f */
	ck_assert_uint_eq(last()->args[4], c);
	*nparams = 12;  /* a_map, b_map, c_map, c_tma, r_map, r_tma, c, m, n, k, ldc, ep */
	ops.ldr = 513;  /* rows of 1026 bytes: read element by element */
	ck_assert_int_eq(kgen_matmul_with(k, a, b, c, 256, 512, 64, 0, 0, 0, 1.0, 0.0, &ops, 0, 0, NULL, &err), KGEN_OK);
	ck_assert_str_eq(last()->name, "matmul_wgmma_bf16_unaligned");
	ck_assert_uint_eq((unsigned)last()->args[3], 1);  /* c_tma */
	ck_assert_uint_eq((unsigned)last()->args[5], 0);  /* r_tma */
	ck_assert_int_eq(kgen_matmul_with(k, a, b, c, 256, 512, 64, 0, 0, 0, 1.0, 0.5, &ops, 0, 0, NULL, &err), KGEN_OK);
	ck_assert_str_eq(last()->name, "matmul_wgmma_bf16_beta_unaligned");
	ck_assert_uint_eq(last()->args[11], 0x3f0000003f800000ull);  /* ep: alpha 1.0f, beta 0.5f */
	*nparams = 10;
	ops.ldr = 0;
	ops.residual = c;  /* in place: C's pitch and type */
	ck_assert_int_eq(kgen_matmul_with(k, a, b, c, 256, 512, 64, 0, 0, 0, 1.0, 0.0, &ops, 0, 0, NULL, &err), KGEN_OK);
	ck_assert_int_eq(*nlaunches, n0 + 4);
	ck_assert_str_eq(last()->name, "matmul_wgmma_bf16");
	ck_assert_int_eq(kgen_matmul_with(k, a, b, c, 256, 512, 64, 0, 0, 0, 1.0, 1.0, &ops, 0, 0, NULL, &err), KGEN_OK);
	ck_assert_str_eq(last()->name, "matmul_wgmma_bf16_beta");
	ck_assert_uint_eq(last()->args[9], 0x3f8000003f800000ull);  /* ep: alpha 1.0f, beta 1.0f */
	n0 = *nlaunches;
	ck_assert_int_eq(kgen_matmul(k, a, b, c, 256, 512, 64, 0, 0, 0, 1.0, 0.0, 0, 0, NULL, &err), KGEN_EINVAL);
	ck_assert_str_eq(err.message, "kgen_matmul: the spec's epilogue reads bias (bias: col): pass its vector of n "
	                 "values in kgen_matmul_with()'s operands");
	ops.residual = 0;
	ck_assert_int_eq(kgen_matmul_with(k, a, b, c, 256, 512, 64, 0, 0, 0, 1.0, 0.0, &ops, 0, 0, NULL, &err),
	                 KGEN_EINVAL);
	ck_assert_str_eq(err.message, "kgen_matmul_with: the spec's epilogue reads residual (residual: matrix): pass the "
	                 "m x n matrix in kgen_matmul_with()'s operands");
	ops.residual = 0x50000001ull;
	ck_assert_int_eq(kgen_matmul_with(k, a, b, c, 256, 512, 64, 0, 0, 0, 1.0, 0.0, &ops, 0, 0, NULL, &err),
	                 KGEN_EINVAL);
	ck_assert_str_eq(err.message, "residual (0x50000001) is not aligned to its 2-byte bf16");
	ops.residual = 0x50000000ull;
	ops.ldr = 500;
	ck_assert_int_eq(kgen_matmul_with(k, a, b, c, 256, 512, 64, 0, 0, 0, 1.0, 0.0, &ops, 0, 0, NULL, &err),
	                 KGEN_EINVAL);
	ck_assert_str_eq(err.message, "ldr 500 is less than n 512: the residual's rows would overlap");
	ops.ldr = 0;
	ops.bias = c + 2 * 512 * 100;  /* inside C */
	ck_assert_int_eq(kgen_matmul_with(k, a, b, c, 256, 512, 64, 0, 0, 0, 1.0, 0.0, &ops, 0, 0, NULL, &err),
	                 KGEN_EINVAL);
	ck_assert_msg(strstr(err.message, "overlaps bias") != NULL, "%s", err.message);
	ops.bias = 0x40000000ull;
	ops.residual = c + 2;  /* C shifted by one element: not in place */
	ck_assert_int_eq(kgen_matmul_with(k, a, b, c, 256, 512, 64, 0, 0, 0, 1.0, 0.0, &ops, 0, 0, NULL, &err),
	                 KGEN_EINVAL);
	ck_assert_msg(strstr(err.message, "overlaps residual") != NULL, "%s", err.message);
	ck_assert_int_eq(kgen_matmul_with(plain, a, b, c, 64, 64, 64, 0, 0, 0, 1.0, 0.0, &ops, 0, 0, NULL, &err),
	                 KGEN_EINVAL);
	ck_assert_str_eq(err.message, "kgen_matmul_with: a bias is given but the spec declares none (bias: col or row)");
	{  /* the auxiliary output: given where the spec has aux, apart from C, of its own pitch */
		kgen_kernel *x = build("kernel: matmul\ndtype: bf16\nmath: wgmma\nproducer: warpgroup\nconsumers: 2\n"
		                       "store: tma\nbias: col\nepilogue: gelu(v + bias)\naux: v + bias\n");
		struct kgen_matmul_operands xo = { .bias = 0x40000000ull, .aux = 0x60000000ull };
		*nparams = 9;  /* a_map, b_map, c_map, c, m, n, k, ldc, ep */
		ck_assert_int_eq(kgen_matmul_with(x, a, b, c, 256, 512, 64, 0, 0, 0, 1.0, 0.0, &xo, 0, 0, NULL, &err), KGEN_OK);
		ck_assert_int_eq(*nlaunches, n0 + 1);
		xo.aux = 0;
		ck_assert_int_eq(kgen_matmul_with(x, a, b, c, 256, 512, 64, 0, 0, 0, 1.0, 0.0, &xo, 0, 0, NULL, &err),
		                 KGEN_EINVAL);
		ck_assert_str_eq(err.message, "kgen_matmul_with: the spec writes an auxiliary output (aux: v + bias): pass its "
		                 "m x n matrix in kgen_matmul_with()'s operands");
		xo.aux = c + 2 * 512 * 10;  /* inside C */
		ck_assert_int_eq(kgen_matmul_with(x, a, b, c, 256, 512, 64, 0, 0, 0, 1.0, 0.0, &xo, 0, 0, NULL, &err),
		                 KGEN_EINVAL);
		ck_assert_msg(strstr(err.message, "overlaps") != NULL, "%s", err.message);
		xo.aux = 0x60000000ull;
		xo.ldaux = 100;
		ck_assert_int_eq(kgen_matmul_with(x, a, b, c, 256, 512, 64, 0, 0, 0, 1.0, 0.0, &xo, 0, 0, NULL, &err),
		                 KGEN_EINVAL);
		ck_assert_str_eq(err.message, "ldaux 100 is less than n 512: the auxiliary output's rows would overlap");
		ck_assert_int_eq(*nlaunches, n0 + 1);
		n0 = *nlaunches;
	}
	ck_assert_int_eq(*nlaunches, n0);
	*nparams = 0;
}
END_TEST

/* row_reduce and col_reduce: each vector the spec names is given, aligned
 * and apart from C, and the call sets it to its reduction's identity (the
 * fake runs no kernel, so that is what it holds after): sums and absmax 0,
 * max and logsumexp -inf, min +inf; f64 ones too, whose high words are set
 * apart.  With
 * m or n 0 no kernel runs and the other line's vectors are identities. */
START_TEST(matmul_reductions_start_at_identities)
{
	kgen_kernel *k = build("kernel: matmul\nrow_reduce: sum, max\ncol_reduce: min, absmax\n");
	kgen_kernel *w = build("kernel: matmul\ndtype: f64\nrow_reduce: max\ncol_reduce: min, sumsq, logsumexp\n");
	const unsigned long long a = 0x10000000ull, b = 0x20000000ull, c = 0x30000000ull;
	static float rs[8], rm[8], cm[4], ca[4];
	static double dm[8], dn[4], dq[4], dl[4];
	struct kgen_matmul_operands o = { 0 };
	kgen_error err;
	int i, n0 = *nlaunches;

	memset(rs, 0xff, sizeof rs);
	memset(rm, 0xff, sizeof rm);
	memset(cm, 0xff, sizeof cm);
	memset(ca, 0xff, sizeof ca);
	o.row_reduce[KGEN_MATMUL_SUM] = (uintptr_t)rs;
	o.row_reduce[KGEN_MATMUL_MAX] = (uintptr_t)rm;
	o.col_reduce[KGEN_MATMUL_MIN] = (uintptr_t)cm;
	o.col_reduce[KGEN_MATMUL_ABSMAX] = (uintptr_t)ca;
	ck_assert_int_eq(kgen_matmul_with(k, a, b, c, 8, 4, 16, 0, 0, 0, 1.0, 0.0, &o, 0, 0, NULL, &err), KGEN_OK);
	ck_assert_int_eq(*nlaunches, n0 + 1);
	for (i = 0; i < 8; i++) {
		ck_assert_float_eq(rs[i], 0.0f);
		ck_assert(isinf(rm[i]) && rm[i] < 0);
	}
	for (i = 0; i < 4; i++) {
		ck_assert(isinf(cm[i]) && cm[i] > 0);
		ck_assert_float_eq(ca[i], 0.0f);
	}
	memset(cm, 0xff, sizeof cm);
	memset(rs, 0xff, sizeof rs);
	ck_assert_int_eq(kgen_matmul_with(k, a, b, c, 0, 4, 16, 0, 0, 0, 1.0, 0.0, &o, 0, 0, NULL, &err), KGEN_OK);
	ck_assert_int_eq(*nlaunches, n0 + 1);  /* m = 0: no kernel, the columns' reductions of nothing */
	ck_assert(isinf(cm[0]) && cm[3] > 0 && isnan(rs[0]));
	o.row_reduce[KGEN_MATMUL_SUM] = o.row_reduce[KGEN_MATMUL_MAX] = 0;  /* vectors of no values may be NULL */
	ck_assert_int_eq(kgen_matmul_with(k, a, b, c, 0, 4, 16, 0, 0, 0, 1.0, 0.0, &o, 0, 0, NULL, &err), KGEN_OK);
	o.row_reduce[KGEN_MATMUL_SUM] = (uintptr_t)rs;
	o.row_reduce[KGEN_MATMUL_MAX] = (uintptr_t)rm;
	o.row_reduce[KGEN_MATMUL_MAX] = 0;
	ck_assert_int_eq(kgen_matmul_with(k, a, b, c, 8, 4, 16, 0, 0, 0, 1.0, 0.0, &o, 0, 0, NULL, &err), KGEN_EINVAL);
	ck_assert_str_eq(err.message, "kgen_matmul_with: the spec reduces the stored values (row_reduce: max): pass "
	                 "row_reduce[max] in kgen_matmul_with()'s operands, a vector of m f32 values");
	o.row_reduce[KGEN_MATMUL_MAX] = (uintptr_t)rm;
	o.col_reduce[KGEN_MATMUL_SUM] = (uintptr_t)rs;
	ck_assert_int_eq(kgen_matmul_with(k, a, b, c, 8, 4, 16, 0, 0, 0, 1.0, 0.0, &o, 0, 0, NULL, &err), KGEN_EINVAL);
	ck_assert_str_eq(err.message,
	                 "kgen_matmul_with: col_reduce[sum] is given but the spec's col_reduce does not name sum");
	o.col_reduce[KGEN_MATMUL_SUM] = 0;
	o.row_reduce[KGEN_MATMUL_SUM] = (uintptr_t)rs + 2;
	ck_assert_int_eq(kgen_matmul_with(k, a, b, c, 8, 4, 16, 0, 0, 0, 1.0, 0.0, &o, 0, 0, NULL, &err), KGEN_EINVAL);
	ck_assert_msg(strstr(err.message, "row_reduce[sum] (0x") && strstr(err.message, "is not aligned to its 4-byte f32"),
	              "%s", err.message);
	o.row_reduce[KGEN_MATMUL_SUM] = c + 4 * 4;  /* inside C */
	ck_assert_int_eq(kgen_matmul_with(k, a, b, c, 8, 4, 16, 0, 0, 0, 1.0, 0.0, &o, 0, 0, NULL, &err), KGEN_EINVAL);
	ck_assert_msg(strstr(err.message, "row_reduce[sum]") != NULL && strstr(err.message, "overlaps") != NULL, "%s",
	              err.message);
	o.row_reduce[KGEN_MATMUL_SUM] = (uintptr_t)rm;  /* two vectors in one */
	ck_assert_int_eq(kgen_matmul_with(k, a, b, c, 8, 4, 16, 0, 0, 0, 1.0, 0.0, &o, 0, 0, NULL, &err), KGEN_EINVAL);
	ck_assert_msg(strstr(err.message, "overlaps") != NULL, "%s", err.message);
	ck_assert_int_eq(*nlaunches, n0 + 1);
	memset(&o, 0, sizeof o);
	memset(dm, 0xff, sizeof dm);
	memset(dn, 0xff, sizeof dn);
	memset(dq, 0xff, sizeof dq);
	memset(dl, 0xff, sizeof dl);
	o.row_reduce[KGEN_MATMUL_MAX] = (uintptr_t)dm;
	o.col_reduce[KGEN_MATMUL_MIN] = (uintptr_t)dn;
	o.col_reduce[KGEN_MATMUL_SUMSQ] = (uintptr_t)dq;
	o.col_reduce[KGEN_MATMUL_LOGSUMEXP] = (uintptr_t)dl;
	ck_assert_int_eq(kgen_matmul_with(w, a, b, c, 8, 4, 16, 0, 0, 0, 1.0, 0.0, &o, 0, 0, NULL, &err), KGEN_OK);
	for (i = 0; i < 8; i++)
		ck_assert(isinf(dm[i]) && dm[i] < 0);
	for (i = 0; i < 4; i++) {
		ck_assert(isinf(dn[i]) && dn[i] > 0);
		ck_assert(dq[i] == 0.0);
		ck_assert(isinf(dl[i]) && dl[i] < 0);
	}
}
END_TEST

/* math: wgmma without a cluster, A row-major: where m is below the tile,
 * A's box is m rows rounded up to 8 (the kernel expects those bytes), not a
 * tile of TMA's zero fill; from m = tile_m on, the tile's rows. */
START_TEST(wgmma_a_box_of_few_rows)
{
	kgen_kernel *k = build("kernel: matmul\ndtype: bf16\nmath: wgmma\nproducer: warpgroup\nconsumers: 2\n"
	                       "tile_n: 128\n");
	const struct fake_map *a = fake_var("fake_cuda_prev_map");
	static const unsigned long long m[] = { 1, 8, 9, 100, 127, 128, 1000 };
	static const unsigned rows[] = { 8, 8, 16, 104, 128, 128, 128 };
	kgen_error err;
	size_t i;

	for (i = 0; i < sizeof m / sizeof m[0]; i++) {
		ck_assert_int_eq(kgen_matmul(k, 0x10000000ull, 0x20000000ull, 0x30000000ull, m[i], 256, 512, 0, 0, 0, 1.0, 0.0,
		                             0, 0, NULL, &err), KGEN_OK);
		ck_assert_uint_eq(a->dims[1], m[i]);  /* A's map: dims {k, m} */
		ck_assert_uint_eq(a->box[1], rows[i]);
	}
}
END_TEST

/* fp8 (dtype e4m3, scale: tensor): A's and B's maps are of bytes (UINT8)
 * with boxes of 128 k, both K-major; the scales are asked for, aligned,
 * and refused on a spec that has none; K = 1000 (rows of 1000 bytes) is
 * copied by NAME_repack, rows of 1008. */
START_TEST(fp8_maps_and_scales)
{
	kgen_kernel *k = build("kernel: matmul\ndtype: e4m3\nproducer: warpgroup\n");
	kgen_kernel *plain = build("kernel: matmul\ndtype: e4m3\nproducer: warpgroup\nscale: none\n");
	kgen_kernel *block = build("kernel: matmul\ndtype: e4m3\nproducer: warpgroup\nscale: block\n");
	const struct fake_map *a = fake_var("fake_cuda_prev_map"), *b = fake_var("fake_cuda_last_map");
	struct kgen_matmul_operands ops = { .scale_a = 0x40000000ull, .scale_b = 0x40000100ull };
	kgen_error err;
	int n0 = *nlaunches;

	*nparams = 8;  /* a_map, b_map, c, m, n, k, ldc, ep */
	ck_assert_int_eq(kgen_matmul_with(k, 0x10000000ull, 0x20000000ull, 0x30000000ull, 256, 512, 4096, 0, 0, 0, 1.0,
	                                  0.0, &ops, 0, 0, NULL, &err), KGEN_OK);
	ck_assert_int_eq(*nlaunches, n0 + 1);
	ck_assert_int_eq(a->type, 0);                          /* CU_TENSOR_MAP_DATA_TYPE_UINT8 */
	ck_assert_int_eq(b->type, 0);
	ck_assert_uint_eq(a->box[0], 128);                     /* 128 of k: 128 bytes */
	ck_assert_uint_eq(b->box[0], 128);
	ck_assert_uint_eq(a->dims[0], 4096);                   /* K-major both: {k, rows} */
	ck_assert_uint_eq(b->dims[0], 4096);
	ck_assert_uint_eq(b->dims[1], 512);
	ck_assert_uint_eq(b->strides[0], 4096);                /* ldb = k bytes */
	ck_assert_uint_eq(last()->args[7], 0x3f800000ull);    /* ep: alpha 1.0f, beta 0.0f first */
	ck_assert_int_eq(kgen_matmul(k, 0x10000000ull, 0x20000000ull, 0x30000000ull, 256, 512, 4096, 0, 0, 0, 1.0, 0.0, 0,
	                             0, NULL, &err), KGEN_EINVAL);
	ck_assert_str_eq(err.message, "kgen_matmul: the spec scales its fp8 operands (scale: tensor): pass scale_a and "
	                 "scale_b in kgen_matmul_with()'s operands, each one f32 in device memory (or use scale: none)");
	ops.scale_b = 0x40000102ull;
	ck_assert_int_eq(kgen_matmul_with(k, 0x10000000ull, 0x20000000ull, 0x30000000ull, 256, 512, 4096, 0, 0, 0, 1.0,
	                                  0.0, &ops, 0, 0, NULL, &err), KGEN_EINVAL);
	ck_assert_str_eq(err.message, "scale_a (0x40000000) or scale_b (0x40000102) is not aligned to its 4-byte f32");
	ck_assert_int_eq(kgen_matmul_with(plain, 0x10000000ull, 0x20000000ull, 0x30000000ull, 256, 512, 4096, 0, 0, 0, 1.0,
	                                  0.0, &ops, 0, 0, NULL, &err), KGEN_EINVAL);
	ck_assert_str_eq(err.message, "kgen_matmul_with: scale_a or scale_b is given but the spec scales nothing (scale: "
	                 "tensor, of fp8 operands)");
	ck_assert_int_eq(*nlaunches, n0 + 1);                  /* nothing launched on a refusal */
	ck_assert_int_eq(kgen_matmul(block, 0x10000000ull, 0x20000000ull, 0x30000000ull, 256, 512, 4096, 0, 0, 0, 1.0, 0.0,
	                             0, 0, NULL, &err), KGEN_EINVAL);
	ck_assert_str_eq(err.message, "kgen_matmul: the spec scales its fp8 operands (scale: block): pass scale_a and "
	                 "scale_b in kgen_matmul_with()'s operands, ceil(k / 128) x m and ceil(n / 128) x ceil(k / 128) "
	                 "f32 in device memory (or use scale: none)");
	ck_assert_int_eq(kgen_matmul_with(block, 0x10000000ull, 0x20000000ull, 0x30000000ull, 256, 512, 4096, 0, 0, 0, 1.0,
	                                  0.0, &ops, 0, 0, NULL, &err), KGEN_EINVAL);  /* scale_b still misaligned */
	n0 = *nlaunches;
	*nparams = 6;  /* NAME_repack's src, ld, dst, pitch, rows, width */
	ck_assert_int_eq(kgen_matmul(plain, 0x10000000ull, 0x20000000ull, 0x30000000ull, 256, 512, 1000, 0, 0, 0, 1.0, 0.0,
	                             0, 0, NULL, &err), KGEN_OK);
	ck_assert_int_eq(*nlaunches, n0 + 3);                  /* A and B copied, then the kernel */
	ck_assert_uint_eq(a->strides[0], 1008);                /* the copies' rows: 1000 bytes padded to 1008 */
	ck_assert_uint_eq(b->strides[0], 1008);
}
END_TEST

/* math: wgmma, split_k: a persistent grid of clusters of split_k blocks,
 * as many as the GPU holds (the fake: 60) up to the tiles; block 0's room
 * for the other blocks' sums in its dynamic shared memory; no scratch. */
START_TEST(wgmma_split_k_launches_clusters)
{
	kgen_kernel *k = build("kernel: matmul\ndtype: bf16\nmath: wgmma\nproducer: warpgroup\ntile_m: 64\n"
	                       "tile_n: 64\nsplit_k: 4\nstages: 6\n");
	size_t scratch = 1;
	kgen_error err;

	*nparams = 8;  /* a_map, b_map, c, m, n, k, ldc, ep */
	ck_assert_int_eq(kgen_matmul_scratch_size(k, 64, 1024, 16384, &scratch, &err), KGEN_OK);
	ck_assert_uint_eq(scratch, 0);
	ck_assert_int_eq(kgen_matmul(k, 0x10000000ull, 0x20000000ull, 0x30000000ull, 64, 1024, 16384, 0, 0, 0, 1.0, 0.0,
	                             0, 0, NULL, &err), KGEN_OK);
	ck_assert_str_eq(last()->name, "matmul_wgmma_bf16");
	ck_assert_uint_eq(last()->grid[0], 4 * 16);      /* 16 tiles of 64 x 64, a cluster each */
	ck_assert_uint_eq(last()->cluster[0], 4);
	ck_assert_uint_eq(last()->cluster[1], 1);
	ck_assert_uint_eq(last()->block[0], 256);
	ck_assert_uint_eq(last()->smem, 1024 + 6 * 128 * 128 + 3 * 64 * 64 * 4);
	ck_assert_int_eq(kgen_matmul(k, 0x10000000ull, 0x20000000ull, 0x30000000ull, 8192, 8192, 512, 0, 0, 0, 1.0, 0.0,
	                             0, 0, NULL, &err), KGEN_OK);
	ck_assert_uint_eq(last()->grid[0], 4 * 60);      /* 16384 tiles: the 60 clusters the fake holds, looping */
}
END_TEST

/* math: wgmma, split_k with split_reduce: kernel: split_k blocks along z a
 * tile (no cluster), as many tiles along x as leave every block resident,
 * each block's sums to its slice of the scratch (split_k x m x n f32), then
 * NAME_reduce over them; the copies of operands TMA cannot load go in the
 * same buffer after the partials. */
START_TEST(wgmma_split_reduce_kernel_launches_slices)
{
	kgen_kernel *k = build("kernel: matmul\ndtype: bf16\nmath: wgmma\nproducer: warpgroup\ntile_m: 64\n"
	                       "tile_n: 64\nsplit_k: 8\nsplit_reduce: kernel\nstore: direct\nstages: 6\n");
	const struct fake_launch *x;
	size_t scratch = 0;
	kgen_error err;
	int n0;

	*nparams = 6;  /* NAME_reduce's partials, c, m, n, ldc, ep (the main kernel's first six: its partials unread) */
	ck_assert_int_eq(kgen_matmul_scratch_size(k, 64, 1024, 16384, &scratch, &err), KGEN_OK);
	ck_assert_uint_eq(scratch, 8ull * 64 * 1024 * 4);
	n0 = *nlaunches;
	ck_assert_int_eq(kgen_matmul(k, 0x10000000ull, 0x20000000ull, 0x30000000ull, 64, 1024, 16384, 0, 0, 0, 1.0, 0.0,
	                             0, 0, NULL, &err), KGEN_OK);
	ck_assert_int_eq(*nlaunches, n0 + 2);
	x = before_last(1);
	ck_assert_str_eq(x->name, "matmul_wgmma_bf16");
	ck_assert_uint_eq(x->grid[0], 16);               /* 16 tiles of 64 x 64 */
	ck_assert_uint_eq(x->grid[1], 1);
	ck_assert_uint_eq(x->grid[2], 8);                /* a block a share of k */
	ck_assert_uint_eq(x->cluster[0], 0);
	ck_assert_uint_eq(x->smem, 1024 + 6 * 128 * 128);  /* no room for the others' sums */
	ck_assert_str_eq(last()->name, "matmul_wgmma_bf16_reduce");
	ck_assert_uint_ne(last()->args[0], 0);           /* the partials, in the kernel's own scratch */
	ck_assert_uint_eq(last()->args[0] % 16, 0);
	ck_assert_uint_eq(last()->args[1], 0x30000000ull);
	ck_assert_uint_eq((unsigned)last()->args[2], 64);  /* m and n: ints */
	ck_assert_uint_eq((unsigned)last()->args[3], 1024);
	ck_assert_uint_eq(last()->grid[0], 64 * 1024 / 256);
	ck_assert_uint_eq(last()->block[0], 256);
	/* 8192 x 8192 tiles: as many along x as leave the 8 z blocks of each resident at once */
	ck_assert_int_eq(kgen_matmul(k, 0x10000000ull, 0x20000000ull, 0x30000000ull, 8192, 8192, 512, 0, 0, 0, 1.0, 0.0,
	                             0, 0, NULL, &err), KGEN_OK);
	x = before_last(1);
	ck_assert_uint_eq(x->grid[2], 8);
	ck_assert_uint_eq(x->grid[0], 132 * 2 / 8);      /* the fake's 132 SMs hold 2 blocks of 256 threads each */
	ck_assert_uint_eq(last()->grid[0], 132 * 8);     /* the sums: at most 8 blocks an SM, looping */
	/* K = 4097: A's rows copied into the buffer after the partials (64 x 1024 x 8 f32: 2 MB) */
	n0 = *nlaunches;
	ck_assert_int_eq(kgen_matmul(k, 0x10000000ull, 0x20000000ull, 0x30000000ull, 64, 1024, 4097, 0, 0, 0, 1.0, 0.0,
	                             0, 0, NULL, &err), KGEN_OK);
	ck_assert_int_eq(*nlaunches, n0 + 3);            /* A copied (B's 1024-element rows load), the kernel, the sums */
	ck_assert_str_eq(before_last(2)->name, "matmul_wgmma_bf16_repack");
	ck_assert_str_eq(last()->name, "matmul_wgmma_bf16_reduce");
	ck_assert_uint_eq(before_last(2)->args[2], last()->args[0] + 8ull * 64 * 1024 * 4);
	/* unaligned: fallback runs the mma.sync kernel (split_k 1), and refuse refuses: neither takes the partials'
	 * scratch, which the first call of these kernels would otherwise allocate for nothing */
	{
		kgen_kernel *f = build("kernel: matmul\ndtype: bf16\nmath: wgmma\nproducer: warpgroup\ntile_m: 64\n"
		                       "tile_n: 64\nsplit_k: 8\nsplit_reduce: kernel\nstore: direct\nunaligned: fallback\n");
		kgen_kernel *r = build("kernel: matmul\ndtype: bf16\nmath: wgmma\nproducer: warpgroup\ntile_m: 64\n"
		                       "tile_n: 64\nsplit_k: 8\nsplit_reduce: kernel\nstore: direct\nunaligned: refuse\n");
		int *live = fake_var("fake_cuda_allocs"), allocs = *live;

		ck_assert_int_eq(kgen_matmul(f, 0x10000000ull, 0x20000000ull, 0x30000000ull, 64, 1024, 4097, 0, 0, 0, 1.0,
		                             0.0, 0, 0, NULL, &err), KGEN_OK);
		ck_assert_str_eq(last()->name, "matmul_mma_bf16");
		ck_assert_int_eq(kgen_matmul(r, 0x10000000ull, 0x20000000ull, 0x30000000ull, 64, 1024, 4097, 0, 0, 0, 1.0,
		                             0.0, 0, 0, NULL, &err), KGEN_EINVAL);
		ck_assert_int_eq(*live, allocs);
	}
}
END_TEST

START_TEST(wgmma_encodes_maps_and_launches)
{
	kgen_kernel *k = build("kernel: matmul\ndtype: bf16\nmath: wgmma\n");
	kgen_kernel *p = build("kernel: matmul\ndtype: bf16\nmath: wgmma\nproducer: warpgroup\nconsumers: 2\n"
	                       "tile_n: 256\n");
	kgen_kernel *q = build("kernel: matmul\ndtype: bf16\nmath: wgmma\nproducer: warpgroup\nconsumers: 2\n"
	                       "tile_n: 256\ncluster: 2x1\n");
	kgen_kernel *r = build("kernel: matmul\ndtype: bf16\nmath: wgmma\nunaligned: refuse\n");
	kgen_kernel *f = build("kernel: matmul\ndtype: bf16\nmath: wgmma\nunaligned: fallback\n");
	const struct fake_map *amap = fake_var("fake_cuda_prev_map"), *bmap = fake_var("fake_cuda_last_map");
	const struct fake_launch *x;
	kgen_error err;
	int e0 = *encodes, n0 = *nlaunches;

	*nparams = 8;  /* a_map, b_map, c, m, n, k, ldc, ep */
	ck_assert_int_eq(kgen_matmul(k, 0x10000000ull, 0x20000000ull, 0x30000000ull, 1000, 3000, 264, 0, 0, 0, 1.0, 0.0, 0, 0,
	                             NULL, &err), KGEN_OK);
	ck_assert_int_eq(*encodes, e0 + 2);
	ck_assert_int_eq(*nlaunches, n0 + 1);
	x = last();
	ck_assert_str_eq(x->name, "matmul_wgmma_bf16");
	ck_assert_uint_eq(x->grid[0], 8 * 24);          /* ceil(1000/128) * ceil(3000/128) tiles */
	ck_assert_uint_eq(x->block[0], 128);
	ck_assert_uint_eq(x->smem, 1024 + 4 * 256 * 128);
	ck_assert_uint_eq(x->args[0], 264);              /* A row-major: dims {k, m} (the fake keeps dims first) */
	ck_assert_uint_eq(x->args[1], 3000);             /* B row-major: dims {n, k} */
	ck_assert_uint_eq(x->args[2], 0x30000000ull);
	ck_assert_uint_eq(x->args[3] & 0xffffffffu, 1000);
	ck_assert_uint_eq(x->args[6], 3000);             /* ldc */
	ck_assert_uint_eq(x->args[7], 0x3f800000ull);    /* ep: alpha 1.0f, then beta 0.0f */
	ck_assert_int_eq(kgen_matmul(k, 0x10000000ull, 0x20000000ull, 0x30000000ull, 1000, 3000, 264, 0, 0, 0, 1.0, 0.0, 0, 0,
	                             NULL, &err), KGEN_OK);
	ck_assert_int_eq(*encodes, e0 + 2);              /* the same call: the maps kept */
	ck_assert_int_eq(kgen_matmul(p, 0x10000000ull, 0x20000000ull, 0x30000000ull, 8192, 8192, 8192, 0, 0, 0, 1.0, 0.0, 0, 0,
	                             NULL, &err), KGEN_OK);
	ck_assert_uint_eq(last()->grid[0], 132 * 2);      /* persistent: the fake's 132 SMs x 2 blocks each */
	ck_assert_uint_eq(last()->block[0], 384);
	ck_assert_uint_eq(last()->cluster[0], 0);
	ck_assert_int_eq(kgen_matmul(q, 0x10000000ull, 0x20000000ull, 0x30000000ull, 8192, 8192, 8192, 0, 0, 0, 1.0, 0.0, 0, 0,
	                             NULL, &err), KGEN_OK);
	ck_assert_uint_eq(last()->grid[0], 2 * 60);       /* clusters: the fake holds 60 pairs at once */
	ck_assert_uint_eq(last()->cluster[0], 2);
	ck_assert_uint_eq(last()->cluster[1], 1);
	ck_assert_uint_eq(last()->block[0], 384);
	ck_assert_int_eq(kgen_matmul(q, 0x10000000ull, 0x20000000ull, 0x30000000ull, 300, 200, 64, 0, 0, 0, 1.0, 0.0, 0, 0,
	                             NULL, &err), KGEN_OK);
	ck_assert_uint_eq(last()->grid[0], 2 * 2);        /* ceil(300 / 256) * ceil(200 / 256) pairs of tiles */
	ck_assert_int_eq(kgen_matmul(k, 0x10000000ull, 0x20000000ull, 0x30000000ull, 7, 5, 0, 0, 0, 0, 1.0, 0.0, 0, 0, NULL,
	                             &err), KGEN_OK);    /* k = 0: no maps, C = beta C */
	ck_assert_int_eq(*encodes, e0 + 8);              /* p once, q at two shapes: 2 + 2 + 4 */
	/* Operands TMA cannot load: unaligned: repack (the default) copies each such operand into the kernel's
	 * scratch with rows of 16-byte multiples (A's 257 k to 264, B's 3001 n to 3008: 1000 x 264 bf16 is 528000
	 * bytes, B's copy 256-byte aligned after), a launch of NAME_repack each (src, ld, dst, pitch, rows,
	 * width), and runs the wgmma kernel on the copies; unaligned: fallback runs the mma.sync kernel of the
	 * same computation, built at the first such call; unaligned: refuse says why. */
	n0 = *nlaunches;
	*nparams = 6;  /* NAME_repack's src, ld, dst, pitch, rows, width (the wgmma kernel's first six) */
	ck_assert_int_eq(kgen_matmul(k, 0x10000000ull, 0x20000000ull, 0x30000000ull, 1000, 3001, 257, 0, 0, 0, 1.0, 0.0, 0, 0,
	                             NULL, &err), KGEN_OK);
	ck_assert_int_eq(*nlaunches, n0 + 3);
	x = before_last(2);                              /* A's copy */
	ck_assert_str_eq(x->name, "matmul_wgmma_bf16_repack");
	ck_assert_uint_eq(x->block[0], 256);
	ck_assert_uint_eq(x->args[0], 0x10000000ull);
	ck_assert_uint_eq(x->args[1], 257);              /* ld */
	ck_assert_uint_eq(x->args[2] % 256, 0);          /* dst */
	ck_assert_uint_eq(x->args[3], 264);              /* pitch */
	ck_assert_uint_eq(x->args[4], 1000);             /* rows */
	ck_assert_uint_eq(x->args[5], 257);              /* width */
	ck_assert_uint_eq(x->grid[0], (1000 * 33 + 255) / 256);
	ck_assert_str_eq(before_last(1)->name, "matmul_wgmma_bf16_repack");
	ck_assert_uint_eq(before_last(1)->args[0], 0x20000000ull);
	ck_assert_uint_eq(before_last(1)->args[1], 3001);
	ck_assert_uint_eq(before_last(1)->args[2], x->args[2] + 528128);  /* 528000 rounded up to 256 */
	ck_assert_uint_eq(before_last(1)->args[3], 3008);
	ck_assert_uint_eq(before_last(1)->args[4], 257);
	ck_assert_uint_eq(before_last(1)->grid[0], (257 * 376 + 255) / 256);
	ck_assert_str_eq(last()->name, "matmul_wgmma_bf16");
	ck_assert_int_eq(*encodes, e0 + 10);             /* the copies' maps */
	ck_assert_uint_eq(amap->dims[0], 257);           /* A: {k, m}, rows 528 bytes apart */
	ck_assert_uint_eq(amap->strides[0], 528);
	ck_assert_uint_eq(bmap->dims[0], 3001);          /* B: {n, k}, rows 6016 bytes apart */
	ck_assert_uint_eq(bmap->strides[0], 6016);
	n0 = *nlaunches;                                 /* only B's pitch breaks TMA's rules: only B is copied */
	ck_assert_int_eq(kgen_matmul(k, 0x10000000ull, 0x20000000ull, 0x30000000ull, 64, 64, 64, 0, 70, 0, 1.0, 0.0, 0, 0,
	                             NULL, &err), KGEN_OK);
	ck_assert_int_eq(*nlaunches, n0 + 2);
	ck_assert_uint_eq(before_last(1)->args[0], 0x20000000ull);
	ck_assert_uint_eq(before_last(1)->args[1], 70);
	ck_assert_uint_eq(before_last(1)->args[3], 64);
	ck_assert_uint_eq(before_last(1)->args[4], 64);
	n0 = *nlaunches;                                 /* a misaligned pointer: A copied, B as it is */
	ck_assert_int_eq(kgen_matmul(k, 0x10000002ull, 0x20000000ull, 0x30000000ull, 64, 64, 64, 0, 0, 0, 1.0, 0.0, 0, 0,
	                             NULL, &err), KGEN_OK);
	ck_assert_int_eq(*nlaunches, n0 + 2);
	ck_assert_uint_eq(before_last(1)->args[0], 0x10000002ull);
	ck_assert_uint_eq(before_last(1)->args[3], 64);
	ck_assert_str_eq(last()->name, "matmul_wgmma_bf16");
	{ /* A call that needs more room (1200 x 3001 x 257: 2179712 bytes of copies, over 1000 rows' 2074240): the
	   * buffer doubles to 4148480, and the one it outgrew stays allocated (a captured graph may hold it);
	   * 1900 rows (2549376 bytes) then fit in the same buffer. */
		int *live = fake_var("fake_cuda_allocs"), allocs = *live;
		unsigned long long first;
		ck_assert_int_eq(kgen_matmul(k, 0x10000000ull, 0x20000000ull, 0x30000000ull, 1000, 3001, 257, 0, 0, 0, 1.0,
		                             0.0, 0, 0, NULL, &err), KGEN_OK);
		first = before_last(2)->args[2];           /* A's copy in the buffer of the first large call */
		ck_assert_int_eq(kgen_matmul(k, 0x10000000ull, 0x20000000ull, 0x30000000ull, 1200, 3001, 257, 0, 0, 0, 1.0,
		                             0.0, 0, 0, NULL, &err), KGEN_OK);
		ck_assert_int_eq(*live, allocs + 1);      /* grown: 1200 x 264 + 257 x 3008 bf16, the old buffer kept */
		ck_assert_uint_ne(before_last(2)->args[2], first);
		first = before_last(2)->args[2];
		ck_assert_int_eq(kgen_matmul(k, 0x10000000ull, 0x20000000ull, 0x30000000ull, 1900, 3001, 257, 0, 0, 0, 1.0,
		                             0.0, 0, 0, NULL, &err), KGEN_OK);
		ck_assert_int_eq(*live, allocs + 1);      /* 1900 rows fit in twice the first buffer: no new one */
		ck_assert_uint_eq(before_last(2)->args[2], first);
	}
	e0 = *encodes;
	ck_assert_int_eq(kgen_matmul(f, 0x10000000ull, 0x20000000ull, 0x30000000ull, 1000, 3001, 257, 0, 0, 0, 1.0, 0.0, 0, 0,
	                             NULL, &err), KGEN_OK);
	ck_assert_str_eq(last()->name, "matmul_mma_bf16");
	ck_assert_uint_eq(last()->block[0], 128);
	ck_assert_uint_eq(last()->smem, 98304);          /* specs/matmul/best/mma_bf16.yaml's three stages */
	ck_assert_int_eq(*encodes, e0);                  /* no maps */
	ck_assert_int_eq(kgen_matmul(f, 0x10000002ull, 0x20000000ull, 0x30000000ull, 64, 64, 64, 0, 0, 0, 1.0, 0.0, 0, 0,
	                             NULL, &err), KGEN_OK);
	ck_assert_str_eq(last()->name, "matmul_mma_bf16");
	ck_assert_int_eq(kgen_matmul(r, 0x10000000ull, 0x20000000ull, 0x30000000ull, 1000, 3001, 257, 0, 0, 0, 1.0, 0.0, 0, 0,
	                             NULL, &err), KGEN_EINVAL);
	ck_assert_str_eq(err.message, "math: wgmma loads A and B with TMA, which needs row pitches of a multiple of 16 "
	                 "bytes: lda 257 and ldb 3001 of bf16 are 514 and 6002 bytes; make them multiples of 8 elements, "
	                 "or use math: mma (the spec's unaligned: refuse forbids aligned copies and the mma.sync fallback)");
	ck_assert_int_eq(kgen_matmul(r, 0x10000002ull, 0x20000000ull, 0x30000000ull, 64, 64, 64, 0, 0, 0, 1.0, 0.0, 0, 0,
	                             NULL, &err), KGEN_EINVAL);
	ck_assert_str_eq(err.message, "a (0x10000002) is not aligned to 16 bytes, as math: wgmma's TMA loads need (the "
	                 "spec's unaligned: refuse forbids aligned copies and the mma.sync fallback)");
	*nparams = 0;
}
END_TEST

/* math: mma with loads: tma launches as math: wgmma does: A's and B's
 * tensor maps (dims as the operands' layouts say), a block a tile, the
 * tiles' shared memory with 1024 bytes to align them and the mbarriers;
 * operands TMA cannot load run the cp.async fallback, or with unaligned:
 * refuse are refused with the way out (loads: cp_async). */
START_TEST(mma_tma_launch)
{
	kgen_kernel *k = build("kernel: matmul\ndtype: bf16\nmath: mma\ntile_k: 64\nsmem_layout: swizzled\nstages: 3\n"
	                       "loads: tma\n");
	kgen_kernel *col = build("kernel: matmul\ndtype: f16\nmath: mma\ntile_k: 64\nsmem_layout: swizzled\nstages: 2\n"
	                         "loads: tma\na_layout: col\nb_layout: col\nname: mma_tma_cols\n");
	kgen_kernel *r = build("kernel: matmul\ndtype: bf16\nmath: mma\ntile_k: 64\nsmem_layout: swizzled\nstages: 3\n"
	                       "loads: tma\nunaligned: refuse\n");
	kgen_kernel *f = build("kernel: matmul\ndtype: bf16\nmath: mma\ntile_k: 64\nsmem_layout: swizzled\nstages: 3\n"
	                       "loads: tma\nunaligned: fallback\n");
	const struct fake_launch *x;
	kgen_error err;
	int e0 = *encodes;

	*nparams = 8;
	ck_assert_int_eq(kgen_matmul(k, 0x10000000ull, 0x20000000ull, 0x30000000ull, 1000, 3000, 264, 0, 0, 0, 1.0, 0.0, 0, 0,
	                             NULL, &err), KGEN_OK);
	ck_assert_int_eq(*encodes, e0 + 2);
	x = last();
	ck_assert_str_eq(x->name, "matmul_mma_bf16");
	ck_assert_uint_eq(x->grid[0], 8 * 24);          /* ceil(1000/128) * ceil(3000/128) tiles, a block each */
	ck_assert_uint_eq(x->block[0], 128);
	ck_assert_uint_eq(x->smem, 3 * (128 * 64 + 64 * 128) * 2 + 1024 + 3 * 16);
	ck_assert_uint_eq(x->args[0], 264);              /* A row-major: dims {k, m} */
	ck_assert_uint_eq(x->args[1], 3000);             /* B row-major: dims {n, k} */
	ck_assert_uint_eq(x->args[2], 0x30000000ull);
	ck_assert_uint_eq(x->args[3] & 0xffffffffu, 1000);
	ck_assert_uint_eq(x->args[6], 3000);             /* ldc */
	ck_assert_int_eq(kgen_matmul(col, 0x10000000ull, 0x20000000ull, 0x30000000ull, 1000, 3000, 264, 0, 0, 0, 1.0, 0.0, 0,
	                             0, NULL, &err), KGEN_OK);
	ck_assert_uint_eq(last()->args[0], 1000);        /* A column-major: dims {m, k} */
	ck_assert_uint_eq(last()->args[1], 264);         /* B column-major: dims {k, n} */
	ck_assert_uint_eq(last()->smem, 2 * (64 * 128 + 128 * 64) * 2 + 1024 + 2 * 16);
	*nparams = 6;  /* NAME_repack's six parameters */
	ck_assert_int_eq(kgen_matmul(k, 0x10000000ull, 0x20000000ull, 0x30000000ull, 1000, 3001, 257, 0, 0, 0, 1.0, 0.0, 0, 0,
	                             NULL, &err), KGEN_OK);  /* unaligned: repack: the TMA kernel on aligned copies */
	ck_assert_str_eq(last()->name, "matmul_mma_bf16");
	ck_assert_uint_eq(last()->smem, 3 * (128 * 64 + 64 * 128) * 2 + 1024 + 3 * 16);
	ck_assert_str_eq(before_last(1)->name, "matmul_mma_bf16_repack");
	ck_assert_uint_eq(before_last(1)->args[3], 3008);
	ck_assert_int_eq(kgen_matmul(f, 0x10000000ull, 0x20000000ull, 0x30000000ull, 1000, 3001, 257, 0, 0, 0, 1.0, 0.0, 0, 0,
	                             NULL, &err), KGEN_OK);  /* unaligned: fallback: the cp.async kernel */
	ck_assert_str_eq(last()->name, "matmul_mma_bf16");
	ck_assert_uint_eq(last()->smem, 98304);
	ck_assert_int_eq(kgen_matmul(r, 0x10000000ull, 0x20000000ull, 0x30000000ull, 1000, 3001, 257, 0, 0, 0, 1.0, 0.0, 0, 0,
	                             NULL, &err), KGEN_EINVAL);
	ck_assert_str_eq(err.message, "loads: tma copies A's and B's tiles with TMA, which needs row pitches of a multiple of 16 "
	                 "bytes: lda 257 and ldb 3001 of bf16 are 514 and 6002 bytes; make them multiples of 8 elements, "
	                 "or use loads: cp_async (the spec's unaligned: refuse forbids aligned copies and the mma.sync fallback)");
	ck_assert_int_eq(kgen_matmul(r, 0x10000000ull, 0x20000008ull, 0x30000000ull, 64, 64, 64, 0, 0, 0, 1.0, 0.0, 0, 0,
	                             NULL, &err), KGEN_EINVAL);
	ck_assert_str_eq(err.message, "b (0x20000008) is not aligned to 16 bytes, as loads: tma's TMA loads need: use "
	                 "loads: cp_async (the spec's unaligned: refuse forbids aligned copies and the mma.sync fallback)");
	ck_assert_int_eq(kgen_matmul(k, 0x10000000ull, 0x20000000ull, 0x30000000ull, 7, 5, 0, 0, 0, 0, 1.0, 0.0, 0, 0, NULL,
	                             &err), KGEN_OK);    /* k = 0: no maps, C = beta C, a block a tile */
	ck_assert_uint_eq(last()->grid[0], 1);
	*nparams = 0;
}
END_TEST

/* schedule: stream_k: a grid of dp_tiles + sk_blocks blocks (the fake holds
 * 2 a block on 132 SMs: S = 264), scratch for two tiles of sums a stream-K
 * block and a ticket a shared tile, the tickets zeroed before each launch;
 * whole waves of tiles, and one k tile, launch a block a tile with no
 * scratch; the caller's scratch is checked and its tickets zeroed. */
START_TEST(stream_k_divides_the_launch)
{
	kgen_kernel *k = build("kernel: matmul\nstaging: smem\ntile_m: 64\ntile_n: 128\ntile_k: 16\nwarp_m: 32\n"
	                       "warp_n: 64\nthread_m: 8\nthread_n: 8\nload_width: 16\nstages: 3\nschedule: stream_k\n");
	unsigned long long *memset_bytes = fake_var("fake_cuda_memset_bytes"), m0;
	const unsigned long long sums = 2ull * 264 * 64 * 128 * 4, tickets = (2048 - 1584) * 4ull;
	unsigned char *scratch;
	kgen_error err;
	size_t bytes;

	ck_assert_int_eq(kgen_matmul_scratch_size(k, 4096, 4096, 4096, &bytes, &err), KGEN_OK);
	ck_assert_uint_eq(bytes, sums + tickets);       /* 2048 tiles: 1584 whole, 464 shared by 264 blocks */
	ck_assert_msg(kgen_matmul(k, 0x10000000ull, 0x20000000ull, 0x30000000ull, 4096, 4096, 4096, 0, 0, 0, 1.0, 0.0, 0, 0,
	                          NULL, &err) == KGEN_OK, "%s", err.message);
	ck_assert_str_eq(last()->name, "matmul_simt_f32");
	ck_assert_uint_eq(last()->grid[0], 1584 + 264);
	m0 = *memset_bytes;
	ck_assert_int_eq(kgen_matmul(k, 0x10000000ull, 0x20000000ull, 0x30000000ull, 4096, 4096, 4096, 0, 0, 0, 1.0, 0.0, 0,
	                             0, NULL, &err), KGEN_OK);
	ck_assert_uint_eq(*memset_bytes - m0, tickets);  /* the library's scratch kept; its tickets zeroed again */
	m0 = *memset_bytes;
	/* The fake's device memory is the host's; C11 takes a size that is a
	 * multiple of the alignment (ASan refuses another). */
	scratch = aligned_alloc(256, (sums + tickets + 255) / 256 * 256);
	memset(scratch + sums, 0xff, tickets);
	ck_assert_int_eq(kgen_matmul(k, 0x10000000ull, 0x20000000ull, 0x30000000ull, 4096, 4096, 4096, 0, 0, 0, 1.0, 0.0,
	                             (kgen_devptr)(uintptr_t)scratch, sums + tickets, NULL, &err), KGEN_OK);
	ck_assert_uint_eq(*memset_bytes - m0, tickets);
	ck_assert_uint_eq(scratch[sums], 0);
	ck_assert_uint_eq(scratch[sums + tickets - 1], 0);
	ck_assert_int_eq(kgen_matmul(k, 0x10000000ull, 0x20000000ull, 0x30000000ull, 4096, 4096, 4096, 0, 0, 0, 1.0, 0.0,
	                             (kgen_devptr)(uintptr_t)scratch, sums, NULL, &err), KGEN_EINVAL);
	free(scratch);
	ck_assert_str_eq(err.message, "scratch of 17301504 bytes is too small: 17303360 needed for a 4096 x 4096 C");
	ck_assert_int_eq(kgen_matmul_scratch_size(k, 4224, 4096, 4096, &bytes, &err), KGEN_OK);
	ck_assert_uint_eq(bytes, 0);                    /* 2112 tiles: 8 whole waves */
	m0 = *memset_bytes;
	ck_assert_int_eq(kgen_matmul(k, 0x10000000ull, 0x20000000ull, 0x30000000ull, 4224, 4096, 4096, 0, 0, 0, 1.0, 0.0, 0,
	                             0, NULL, &err), KGEN_OK);
	ck_assert_uint_eq(last()->grid[0], 2112);
	ck_assert_uint_eq(*memset_bytes - m0, 0);
	ck_assert_int_eq(kgen_matmul_scratch_size(k, 4096, 4096, 16, &bytes, &err), KGEN_OK);
	ck_assert_uint_eq(bytes, 0);                    /* one k tile */
	ck_assert_int_eq(kgen_matmul(k, 0x10000000ull, 0x20000000ull, 0x30000000ull, 7, 5, 0, 0, 0, 0, 1.0, 0.5, 0, 0, NULL,
	                             &err), KGEN_OK);
	ck_assert_uint_eq(last()->grid[0], 1);          /* k = 0: C = beta C, a block a tile */
}
END_TEST

/* store: tma: C's map passed third (dims {n, m}) with c_tma 1, encoded
 * once per C and shape (also with k = 0, which reads no A or B); C that
 * TMA cannot take (ldc not a multiple of 16 bytes, c misaligned): c_tma 0
 * and no map, and the kernel stores without it. */
START_TEST(wgmma_store_tma_passes_c_map)
{
	/* Narrow tiles (64 columns) compile in a fraction of the time of the
	 * shipped 256; C's map depends on tile_m / consumers and the out type. */
	kgen_kernel *t = build("kernel: matmul\ndtype: bf16\nmath: wgmma\nproducer: warpgroup\nconsumers: 2\n"
	                       "tile_n: 64\nstore: tma\n");
	kgen_kernel *f = build("kernel: matmul\ndtype: bf16\nmath: wgmma\nproducer: warpgroup\ntile_n: 64\n"
	                       "store: tma\nout_dtype: f32\n");
	kgen_kernel *c = build("kernel: matmul\ndtype: bf16\nmath: wgmma\nproducer: warpgroup\nconsumers: 2\n"
	                       "tile_n: 64\nstore: tma\ncluster: 1x2\n");
	const struct fake_map *map;
	const struct fake_launch *x;
	kgen_error err;
	int e0 = *encodes;

	*nparams = 9;  /* beta 0, C by TMA: a_map, b_map, c_map, c, m, n, k, ldc, ep */
	ck_assert_int_eq(kgen_matmul(t, 0x10000000ull, 0x20000000ull, 0x30000000ull, 1000, 3000, 264, 0, 0, 0, 1.0, 0.0, 0, 0,
	                             NULL, &err), KGEN_OK);
	ck_assert_int_eq(*encodes, e0 + 3);
	x = last();
	ck_assert_str_eq(x->name, "matmul_wgmma_bf16");
	ck_assert_uint_eq(x->smem, 1024 + 4 * 192 * 128 + 128 * 256);  /* 4 stages and two 8 KB buffers a consumer */
	ck_assert_uint_eq(x->args[0], 264);              /* A: dims {k, m} */
	ck_assert_uint_eq(x->args[1], 3000);             /* B: dims {n, k} */
	ck_assert_uint_eq(x->args[2], 3000);             /* C: dims {n, m} */
	ck_assert_uint_eq(x->args[3], 0x30000000ull);
	ck_assert_uint_eq(x->args[4] & 0xffffffffu, 1000);
	map = fake_var("fake_cuda_last_map");           /* C's, encoded last: bf16 rows of 128 bytes, a warpgroup's 64 */
	ck_assert_int_eq(map->type, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16);
	ck_assert_int_eq(map->swizzle, CU_TENSOR_MAP_SWIZZLE_128B);
	ck_assert_uint_eq(map->box[0], 64);
	ck_assert_uint_eq(map->box[1], 64);
	ck_assert_uint_eq(map->dims[1], 1000);
	ck_assert_uint_eq(map->strides[0], 3000 * 2);
	ck_assert_int_eq(kgen_matmul(t, 0x10000000ull, 0x20000000ull, 0x30000000ull, 1000, 3000, 264, 0, 0, 0, 1.0, 0.0, 0, 0,
	                             NULL, &err), KGEN_OK);
	ck_assert_int_eq(*encodes, e0 + 3);              /* the same call: all three kept */
	ck_assert_int_eq(kgen_matmul(t, 0x10000000ull, 0x20000000ull, 0x30000000ull, 7, 8, 0, 0, 0, 0, 1.0, 0.5, 0, 0,
	                             NULL, &err), KGEN_OK);
	ck_assert_int_eq(*encodes, e0 + 4);              /* k = 0: C's map alone, for C = beta C */
	ck_assert_str_eq(last()->name, "matmul_wgmma_bf16_beta");
	ck_assert_uint_eq(last()->args[2], 8);
	ck_assert_uint_eq(last()->args[8], 0x3f0000003f800000ull);  /* ep: alpha 1.0f, beta 0.5f */
	*nparams = 10;  /* C element by element: a_map, b_map, c_map, c_tma, c, m, n, k, ldc, ep */
	ck_assert_int_eq(kgen_matmul(t, 0x10000000ull, 0x20000000ull, 0x30000000ull, 1000, 3000, 264, 0, 0, 3001, 1.0, 0.0, 0,
	                             0, NULL, &err), KGEN_OK);
	ck_assert_int_eq(*encodes, e0 + 4);              /* A's and B's kept (k = 0 left them), and no C map */
	ck_assert_str_eq(last()->name, "matmul_wgmma_bf16_unaligned");
	ck_assert_uint_eq(last()->args[2], 0);           /* ldc 3001: 6002 bytes, no map */
	ck_assert_uint_eq(last()->args[3] & 0xffffffffu, 0);
	ck_assert_uint_eq(last()->args[8], 3001);
	ck_assert_int_eq(kgen_matmul(t, 0x10000000ull, 0x20000000ull, 0x30000008ull, 1000, 3000, 264, 0, 0, 0, 1.0, 2.0, 0, 0,
	                             NULL, &err), KGEN_OK);
	ck_assert_str_eq(last()->name, "matmul_wgmma_bf16_beta_unaligned");
	ck_assert_uint_eq(last()->args[3] & 0xffffffffu, 0);  /* c 8 bytes off 16 */
	*nparams = 9;
	ck_assert_int_eq(kgen_matmul(t, 0x10000000ull, 0x20000000ull, 0x30000100ull, 1000, 3000, 264, 0, 0, 0, 1.0, 0.0, 0, 0,
	                             NULL, &err), KGEN_OK);
	ck_assert_int_eq(*encodes, e0 + 5);              /* another C: its map encoded */
	ck_assert_str_eq(last()->name, "matmul_wgmma_bf16");
	ck_assert_uint_eq(last()->args[3], 0x30000100ull);
	ck_assert_int_eq(kgen_matmul(f, 0x10000000ull, 0x20000000ull, 0x30000000ull, 1000, 3000, 264, 0, 0, 0, 1.0, 0.0, 0, 0,
	                             NULL, &err), KGEN_OK);
	map = fake_var("fake_cuda_last_map");           /* f32 C, one consumer of 128 rows: 32 columns a row of 128 bytes */
	ck_assert_int_eq(map->type, CU_TENSOR_MAP_DATA_TYPE_FLOAT32);
	ck_assert_uint_eq(map->box[0], 32);
	ck_assert_uint_eq(map->box[1], 128);
	ck_assert_uint_eq(map->strides[0], 3000 * 4);
	/* In clusters: C's map passed the same way through cuLaunchKernelEx, the variant chosen the same way. */
	ck_assert_int_eq(kgen_matmul(c, 0x10000000ull, 0x20000000ull, 0x30000000ull, 1000, 3000, 264, 0, 0, 0, 1.0, 0.0, 0, 0,
	                             NULL, &err), KGEN_OK);
	x = last();
	ck_assert_str_eq(x->name, "matmul_wgmma_bf16");
	ck_assert_uint_eq(x->cluster[0], 2);
	ck_assert_uint_eq(x->smem, 1024 + 4 * 192 * 128 + 128 * 256);
	ck_assert_uint_eq(x->args[2], 3000);             /* C: dims {n, m} */
	ck_assert_uint_eq(x->args[3], 0x30000000ull);
	ck_assert_uint_eq(x->args[7], 3000);             /* ldc */
	*nparams = 10;
	ck_assert_int_eq(kgen_matmul(c, 0x10000000ull, 0x20000000ull, 0x30000000ull, 1000, 3000, 264, 0, 0, 3001, 1.0, 0.0, 0,
	                             0, NULL, &err), KGEN_OK);
	ck_assert_str_eq(last()->name, "matmul_wgmma_bf16_unaligned");
	ck_assert_uint_eq(last()->cluster[0], 2);
	ck_assert_uint_eq(last()->args[3] & 0xffffffffu, 0);  /* ldc 3001: no map */
	ck_assert_uint_eq(last()->args[8], 3001);
	*nparams = 0;
}
END_TEST

/* store: tma's four kernels (one for each beta and for whether TMA takes C)
 * and NAME_repack are built lazily: a build compiles none, a call compiles
 * the one it launches, at its first launch, and later calls find it. */
START_TEST(wgmma_variants_build_at_their_first_launch)
{
	kgen_kernel *t = build("kernel: matmul\ndtype: bf16\nmath: wgmma\nproducer: warpgroup\nconsumers: 2\n"
	                       "tile_n: 64\nstore: tma\nname: variants_probe\n");
	const unsigned long long a = 0x10000000ull, b = 0x20000000ull, c = 0x30000000ull;
	kgen_build_times bt;
	kgen_error err;

	setenv("KGEN_CACHE", "0", 1);
	ck_assert_int_eq(kgen_kernel_build_times(t, &bt, &err), KGEN_OK);
	ck_assert_int_eq(bt.modules, 0);
	*nparams = 9;
	ck_assert_int_eq(kgen_matmul(t, a, b, c, 256, 256, 64, 0, 0, 0, 1.0, 0.0, 0, 0, NULL, &err), KGEN_OK);
	ck_assert_str_eq(last()->name, "variants_probe");
	ck_assert_int_eq(kgen_kernel_build_times(t, &bt, &err), KGEN_OK);
	ck_assert_int_eq(bt.modules, 1);
	ck_assert_int_eq(kgen_matmul(t, a, b, c, 256, 256, 64, 0, 0, 0, 1.0, 0.0, 0, 0, NULL, &err), KGEN_OK);
	ck_assert_int_eq(kgen_kernel_build_times(t, &bt, &err), KGEN_OK);
	ck_assert_int_eq(bt.modules, 1);  /* found, not built again */
	ck_assert_int_eq(kgen_matmul(t, a, b, c, 256, 256, 64, 0, 0, 0, 1.0, -1.0, 0, 0, NULL, &err), KGEN_OK);
	ck_assert_str_eq(last()->name, "variants_probe_beta");
	ck_assert_int_eq(kgen_kernel_build_times(t, &bt, &err), KGEN_OK);
	ck_assert_int_eq(bt.modules, 2);
	*nparams = 10;
	ck_assert_int_eq(kgen_matmul(t, a, b, c, 256, 256, 64, 0, 0, 300, 1.0, 0.0, 0, 0, NULL, &err), KGEN_OK);
	ck_assert_str_eq(last()->name, "variants_probe_unaligned");
	ck_assert_int_eq(kgen_matmul(t, a, b, c + 2, 256, 256, 64, 0, 0, 0, 1.0, 1e-3, 0, 0, NULL, &err), KGEN_OK);
	ck_assert_str_eq(last()->name, "variants_probe_beta_unaligned");
	ck_assert_int_eq(kgen_kernel_build_times(t, &bt, &err), KGEN_OK);
	ck_assert_int_eq(bt.modules, 4);  /* NAME_repack not yet: no operand needed a copy */
	/* beta 1e-60 is 0 as the kernel's f32 holds it: C is not read */
	*nparams = 9;
	ck_assert_int_eq(kgen_matmul(t, a, b, c, 256, 256, 64, 0, 0, 0, 1.0, 1e-60, 0, 0, NULL, &err), KGEN_OK);
	ck_assert_str_eq(last()->name, "variants_probe");
	*nparams = 6;  /* NAME_repack's src, ld, dst, pitch, rows, width */
	ck_assert_int_eq(kgen_matmul(t, a, b, c, 256, 256, 63, 63, 0, 0, 1.0, 0.0, 0, 0, NULL, &err), KGEN_OK);
	ck_assert_str_eq(before_last(1)->name, "variants_probe_repack");
	ck_assert_str_eq(last()->name, "variants_probe");
	ck_assert_int_eq(kgen_kernel_build_times(t, &bt, &err), KGEN_OK);
	ck_assert_int_eq(bt.modules, 5);
	*nparams = 0;
}
END_TEST

START_TEST(a_refused_cache_directory_is_reported)
{
	char dir[] = "/tmp/kgen-fake-cache-XXXXXX";

	ck_assert_ptr_nonnull(mkdtemp(dir));
	ck_assert_int_eq(chmod(dir, 0777), 0);
	setenv("KGEN_CACHE", "1", 1);
	setenv("KGEN_CACHE_DIR", dir, 1);
	ck_assert_ptr_null(kgen_cache_problem());
	build("kernel: reduce\nthreads: 128\nname: cache_problem_probe\n");
	ck_assert_ptr_nonnull(kgen_cache_problem());
	ck_assert_msg(strstr(kgen_cache_problem(), "is writable by others (mode 777): not used") != NULL, "%s",
	              kgen_cache_problem());
	unsetenv("KGEN_CACHE_DIR");
	setenv("KGEN_CACHE", "0", 1);
	rmdir(dir);
}
END_TEST

/* Threads the library starts (pthread_create is this program's, which
 * counts and calls libc's): a warm plan rebuild starts none. */
static int threads_started;

int
pthread_create(pthread_t *th, const pthread_attr_t *attr, void *(*fn)(void *), void *arg)
{
	static int (*real)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);

	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "pthread_create");
	__atomic_add_fetch(&threads_started, 1, __ATOMIC_RELAXED);
	return real ? real(th, attr, fn, arg) : EAGAIN;
}

/* A build's phase times: a cold build compiles and writes the disk cache,
 * the same spec on a new context reads it instead, and the context's
 * own copy returns the first build's times. */
/* A text built once is found by its text the next time (kgen_kernel_build_yaml hashes it before it
 * parses); a text that differs is parsed, and finds the kernel of an equal spec; another spec builds. */
START_TEST(the_same_text_finds_its_kernel)
{
	static const char text[] = "kernel: reduce\nop: sum\ndtype: f32\n";
	int *modules = fake_var("fake_cuda_modules"), loaded;
	kgen_kernel *k = build(text), *again;
	char copy[sizeof text];

	loaded = *modules;
	memcpy(copy, text, sizeof text);  /* the same text at another address */
	ck_assert_ptr_eq(build(copy), k);
	ck_assert_ptr_eq(build(text), k);
	ck_assert_ptr_eq(build("kernel: reduce\nop: sum   # the same spec\ndtype: f32\n"), k);
	ck_assert_int_eq(*modules, loaded);
	again = build("kernel: reduce\nop: max\ndtype: f32\n");
	ck_assert_ptr_ne(again, k);
	ck_assert_int_gt(*modules, loaded);
	ck_assert_ptr_eq(build("kernel: reduce\nop: max\ndtype: f32\n"), again);
	ck_assert_ptr_eq(build(text), k);
}
END_TEST

START_TEST(build_times_say_where_a_build_went)
{
	char dir[] = "/tmp/kgen-fake-times-XXXXXX", cmd[64];
	const char *yaml = "kernel: reduce\nthreads: 128\nname: build_times_probe\n";
	kgen_build_times cold, hit, again;
	kgen_context *other;
	kgen_kernel *k, *k2;
	kgen_error err;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	setenv("KGEN_CACHE", "1", 1);
	setenv("KGEN_CACHE_DIR", dir, 1);
	setenv("KGEN_JIT_THREADS", "4", 1);  /* _init and the sum are launched in turn: one program even so */
	k = build(yaml);
	ck_assert_int_eq(kgen_kernel_build_times(k, &cold, &err), KGEN_OK);
	ck_assert_int_eq(cold.modules, 1);
	ck_assert_int_eq(cold.disk_hits, 0);
	ck_assert(cold.generate_us > 0 && cold.compile_us > 0 && cold.image_us > 0 && cold.cache_write_us > 0);
	ck_assert(cold.cache_read_us > 0 && cold.load_us > 0);
	ck_assert(cold.total_us >= cold.generate_us + cold.cache_read_us + cold.compile_us + cold.image_us +
	                           cold.cache_write_us + cold.load_us);
	ck_assert(build(yaml) == k);
	ck_assert_int_eq(kgen_kernel_build_times(k, &again, &err), KGEN_OK);
	ck_assert(memcmp(&again, &cold, sizeof cold) == 0);

	ck_assert_msg(kgen_context_create(0, &other, &err) == KGEN_OK, "%s", err.message);
	ck_assert_msg(kgen_kernel_build_yaml(other, yaml, &k2, &err) == KGEN_OK, "%s", err.message);
	ck_assert_int_eq(kgen_kernel_build_times(k2, &hit, &err), KGEN_OK);
	ck_assert_int_eq(hit.modules, 1);
	ck_assert_int_eq(hit.disk_hits, 1);
	ck_assert(hit.compile_us == 0 && hit.image_us == 0 && hit.cache_write_us == 0);
	ck_assert(hit.cache_read_us > 0 && hit.generate_us > 0 && hit.load_us > 0);
	kgen_context_destroy(other);

	ck_assert_int_eq(kgen_kernel_build_times(NULL, &hit, &err), KGEN_EINVAL);
	ck_assert_str_eq(err.message, "kgen_kernel_build_times: NULL argument");
	ck_assert_int_eq(kgen_kernel_build_times(k, NULL, NULL), KGEN_EINVAL);
	unsetenv("KGEN_CACHE_DIR");
	unsetenv("KGEN_JIT_THREADS");
	setenv("KGEN_CACHE", "0", 1);
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* A build on a pool's thread. */
struct nested {
	kgen_context *ctx;
	const char *yaml;
	kgen_kernel *k;
	kgen_status st;
	kgen_error err;
};

static void
build_nested(void *arg, int i)
{
	struct nested *n = arg;

	(void)i;
	n->st = kgen_kernel_build_yaml(n->ctx, n->yaml, &n->k, &n->err);
	if (n->st == KGEN_OK)
		n->st = kgen_kernel_prepare(n->k, &n->err);
}

/* A launch of the apart_rows spec below whose rows are cols long. */
static kgen_status
launch_apart(kgen_kernel *k, unsigned long long cols, kgen_error *err)
{
	return kgen_reduce_axis(k, 0x10000000ull, 1000, cols, cols, 0x800000000ull, 0x900000000ull, 1u << 24, NULL, err);
}

struct racer {
	kgen_kernel *k;
	kgen_status st;
	kgen_error err;
};

static void *
race_launch(void *arg)
{
	struct racer *r = arg;

	r->st = launch_apart(r->k, 2048, &r->err);
	return NULL;
}

/* A spec whose kernels are alternatives (strategy: auto reduce_axis rows)
 * is built lazily: the build compiles nothing, and a launch builds the
 * kernel it chooses the first time (a module each: the fake driver finds
 * a function only in the module whose cubin defines it; a disk cache
 * entry each), every kernel launched by the contract's choice as before.
 * kgen_kernel_prepare() builds the rest side by side (KGEN_JIT_THREADS);
 * a module load that fails fails it, the kernels loaded before kept.
 * KGEN_JIT_LAZY=0 builds them all at once: apart on more threads than
 * one, one program and module on one. */
START_TEST(a_spec_of_several_kernels_compiles_them_apart)
{
	char dir[] = "/tmp/kgen-fake-apart-XXXXXX", cmd[64];
	const char *yaml = "kernel: reduce_axis\naxis: rows\nthreads: 512\nload_width: 16\nname: apart_rows\n";
	static const struct {
		unsigned long long cols;
		const char *name;
	} picks[] = {
		{ 8, "apart_rows_lanes1" }, { 16, "apart_rows_lanes4x4" }, { 32, "apart_rows_lanes8x4" },
		{ 100, "apart_rows_lanes4" }, { 2048, "apart_rows_lanes16" }, { 100000, "apart_rows_block" },
	};
	int *modules = fake_var("fake_cuda_modules"), before = *modules, started = threads_started;
	kgen_build_times t;
	kgen_context *other;
	kgen_kernel *k, *k2;
	kgen_error err;
	size_t i;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	setenv("KGEN_CACHE", "1", 1);
	setenv("KGEN_CACHE_DIR", dir, 1);
	setenv("KGEN_JIT_THREADS", "3", 1);
	k = build(yaml);
	ck_assert_int_eq(kgen_kernel_build_times(k, &t, &err), KGEN_OK);
	ck_assert_int_eq(t.modules, 0);
	ck_assert(t.compile_us == 0 && t.generate_us > 0);
	ck_assert_int_eq(*modules, before);
	ck_assert_int_eq(threads_started, started);
	for (i = 0; i < sizeof picks / sizeof picks[0]; i++) {
		ck_assert_msg(launch_apart(k, picks[i].cols, &err) == KGEN_OK, "%s", err.message);
		ck_assert_str_eq(last()->name, picks[i].name);
		ck_assert_int_eq(*modules, before + (int)i + 1);  /* this kernel's, at its first launch */
		ck_assert_msg(launch_apart(k, picks[i].cols, &err) == KGEN_OK, "%s", err.message);
		ck_assert_int_eq(*modules, before + (int)i + 1);  /* and only then */
	}
	ck_assert_int_eq(kgen_kernel_build_times(k, &t, &err), KGEN_OK);
	ck_assert_int_eq(t.modules, 6);
	ck_assert_int_eq(t.disk_hits, 0);
	ck_assert(t.compile_us > 0 && t.load_us >= 0 && t.total_us >= t.compile_us);
	ck_assert_int_eq(kgen_kernel_prepare(k, &err), KGEN_OK);  /* all built: nothing to do */
	ck_assert_int_eq(*modules, before + 6);
	ck_assert_int_eq(threads_started, started);

	/* Another context finds each kernel's cubin on disk: prepared, all six side by side. */
	ck_assert_msg(kgen_context_create(0, &other, &err) == KGEN_OK, "%s", err.message);
	ck_assert_msg(kgen_kernel_build_yaml(other, yaml, &k2, &err) == KGEN_OK, "%s", err.message);
	ck_assert_msg(kgen_kernel_prepare(k2, &err) == KGEN_OK, "%s", err.message);
	ck_assert_int_gt(threads_started, started);
	ck_assert_int_eq(kgen_kernel_build_times(k2, &t, &err), KGEN_OK);
	ck_assert_int_eq(t.modules, 6);
	ck_assert_int_eq(t.disk_hits, 6);
	ck_assert_int_eq(*modules, before + 12);
	for (i = 0; i < sizeof picks / sizeof picks[0]; i++) {
		ck_assert_msg(launch_apart(k2, picks[i].cols, &err) == KGEN_OK, "%s", err.message);
		ck_assert_str_eq(last()->name, picks[i].name);
	}
	ck_assert_int_eq(*modules, before + 12);
	kgen_context_destroy(other);
	ck_assert_int_eq(*modules, before + 6);

	/* Two threads launch a kernel not built yet at once: it is built once. */
	ck_assert_msg(kgen_context_create(0, &other, &err) == KGEN_OK, "%s", err.message);
	ck_assert_msg(kgen_kernel_build_yaml(other, yaml, &k2, &err) == KGEN_OK, "%s", err.message);
	{
		struct racer r[2] = { { k2, KGEN_OK, { 0 } }, { k2, KGEN_OK, { 0 } } };
		pthread_t th[2];
		for (i = 0; i < 2; i++)
			ck_assert_int_eq(pthread_create(&th[i], NULL, race_launch, &r[i]), 0);
		for (i = 0; i < 2; i++) {
			ck_assert_int_eq(pthread_join(th[i], NULL), 0);
			ck_assert_msg(r[i].st == KGEN_OK, "%s", r[i].err.message);
		}
		ck_assert_int_eq(*modules, before + 7);
		ck_assert_int_eq(kgen_kernel_build_times(k2, &t, &err), KGEN_OK);
		ck_assert_int_eq(t.modules, 1);
	}
	kgen_context_destroy(other);
	ck_assert_int_eq(*modules, before + 6);

	/* The fourth load of a prepare fails: its error, the three loaded kept
	 * (and launched), the rest built at their first launch. */
	ck_assert_msg(kgen_context_create(0, &other, &err) == KGEN_OK, "%s", err.message);
	ck_assert_msg(kgen_kernel_build_yaml(other, yaml, &k2, &err) == KGEN_OK, "%s", err.message);
	setenv("FAKE_CUDA_FAIL", "cuModuleLoadData:4", 1);
	ck_assert_int_eq(kgen_kernel_prepare(k2, &err), KGEN_ECUDA);
	ck_assert_msg(strstr(err.message, "cuModuleLoadData"), "%s", err.message);
	unsetenv("FAKE_CUDA_FAIL");
	ck_assert_int_eq(*modules, before + 9);
	for (i = 0; i < sizeof picks / sizeof picks[0]; i++) {
		ck_assert_msg(launch_apart(k2, picks[i].cols, &err) == KGEN_OK, "%s", err.message);
		ck_assert_str_eq(last()->name, picks[i].name);
	}
	ck_assert_int_eq(*modules, before + 12);
	kgen_context_destroy(other);
	ck_assert_int_eq(*modules, before + 6);

	/* A launch whose kernel fails to load says so, and the next launch tries again. */
	ck_assert_msg(kgen_context_create(0, &other, &err) == KGEN_OK, "%s", err.message);
	ck_assert_msg(kgen_kernel_build_yaml(other, yaml, &k2, &err) == KGEN_OK, "%s", err.message);
	setenv("FAKE_CUDA_FAIL", "cuModuleLoadData:5", 1);  /* the fake counts the calls while it is set: 4 above */
	ck_assert_int_eq(launch_apart(k2, 2048, &err), KGEN_ECUDA);
	unsetenv("FAKE_CUDA_FAIL");
	ck_assert_int_eq(*modules, before + 6);
	ck_assert_msg(launch_apart(k2, 2048, &err) == KGEN_OK, "%s", err.message);
	ck_assert_int_eq(*modules, before + 7);
	kgen_context_destroy(other);

	/* Prepared on a pool's thread (kgen tune's points, a plan's entries):
	 * the kernels still apart, as the cache keys them (six disk hits), but
	 * on that thread, no pool of its own. */
	ck_assert_msg(kgen_context_create(0, &other, &err) == KGEN_OK, "%s", err.message);
	{
		struct nested n = { other, yaml, NULL, KGEN_OK, { 0 } };
		started = threads_started;
		kgen_parallel_for(1, 1, build_nested, &n);
		ck_assert_msg(n.st == KGEN_OK, "%s", n.err.message);
		ck_assert_int_eq(threads_started, started);
		ck_assert_int_eq(kgen_kernel_build_times(n.k, &t, &err), KGEN_OK);
		ck_assert_int_eq(t.modules, 6);
		ck_assert_int_eq(t.disk_hits, 6);
	}
	kgen_context_destroy(other);

	/* KGEN_JIT_LAZY=0: all six at the build, apart on three threads (disk hits) ... */
	setenv("KGEN_JIT_LAZY", "0", 1);
	ck_assert_msg(kgen_context_create(0, &other, &err) == KGEN_OK, "%s", err.message);
	ck_assert_msg(kgen_kernel_build_yaml(other, yaml, &k2, &err) == KGEN_OK, "%s", err.message);
	ck_assert_int_eq(kgen_kernel_build_times(k2, &t, &err), KGEN_OK);
	ck_assert_int_eq(t.modules, 6);
	ck_assert_int_eq(t.disk_hits, 6);
	ck_assert_int_eq(*modules, before + 12);
	ck_assert_int_eq(kgen_kernel_prepare(k2, &err), KGEN_OK);
	ck_assert_int_eq(*modules, before + 12);
	kgen_context_destroy(other);

	/* ... and on one thread, the whole file as one program and module, the same kernels. */
	setenv("KGEN_JIT_THREADS", "1", 1);
	ck_assert_msg(kgen_context_create(0, &other, &err) == KGEN_OK, "%s", err.message);
	ck_assert_msg(kgen_kernel_build_yaml(other, yaml, &k2, &err) == KGEN_OK, "%s", err.message);
	ck_assert_int_eq(kgen_kernel_build_times(k2, &t, &err), KGEN_OK);
	ck_assert_int_eq(t.modules, 1);
	ck_assert_int_eq(*modules, before + 7);
	for (i = 0; i < sizeof picks / sizeof picks[0]; i++) {
		ck_assert_msg(launch_apart(k2, picks[i].cols, &err) == KGEN_OK, "%s", err.message);
		ck_assert_str_eq(last()->name, picks[i].name);
	}
	kgen_context_destroy(other);
	ck_assert_int_eq(*modules, before + 6);

	unsetenv("KGEN_JIT_LAZY");
	unsetenv("KGEN_CACHE_DIR");
	unsetenv("KGEN_JIT_THREADS");
	setenv("KGEN_CACHE", "0", 1);
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* kernel: scan: strategy lookback launches a block a tile with its own
 * zero-filled scratch (whose header counts the launches on the device);
 * block one block; every bad call is refused before a launch. */
START_TEST(a_scan_launches_a_block_a_tile)
{
	kgen_kernel *k = build("kernel: scan\nitems_per_thread: 8\nname: fake_scan\n"), *b, *r;
	const unsigned long long in = 0x10000000ull, out = 0x20000000ull;
	int *live = fake_var("fake_cuda_allocs"), before = *nlaunches, allocs = *live;
	size_t bytes = 1;
	kgen_error err;

	ck_assert_int_eq(kgen_scan_scratch_size(k, 5000, &bytes, &err), KGEN_OK);
	ck_assert_uint_eq(bytes, 5 * 16);  /* 16-byte words: the header, three tiles and their group */
	ck_assert_int_eq(kgen_scan_scratch_size(k, 2048, &bytes, &err), KGEN_OK);
	ck_assert_uint_eq(bytes, 0);  /* one tile: nothing to look back on */
	*nparams = 7;
	ck_assert_msg(kgen_scan(k, in, out, 5000, 0, 0, (kgen_stream)0x77, &err) == KGEN_OK, "%s", err.message);
	ck_assert_str_eq(last()->name, "fake_scan");
	ck_assert_uint_eq(last()->grid[0], 3);
	ck_assert_uint_eq(last()->block[0], 256);
	ck_assert_ptr_eq(last()->stream, (void *)0x77);
	ck_assert_uint_eq(last()->args[0], in);
	ck_assert_uint_eq(last()->args[1], out);
	ck_assert_uint_eq(last()->args[2], 5000);
	ck_assert_uint_eq(last()->args[3], 5000);  /* a vector: one row, pitches n */
	ck_assert_uint_eq(last()->args[4], 5000);
	ck_assert_uint_ne(last()->args[5], 0);  /* its own scratch */
	ck_assert_uint_eq(last()->args[6], 64);  /* a row's words, after the header */
	ck_assert_int_eq(*live, allocs + 1);
	ck_assert_msg(kgen_scan(k, in, in, 5000, 0x30000000ull, 80, NULL, &err) == KGEN_OK, "%s", err.message);
	ck_assert_uint_eq(last()->args[5], 0x30000000ull);  /* the caller's, in place */
	ck_assert_int_eq(*nlaunches, before + 2);
	ck_assert_int_eq(kgen_scan(k, in, out, 0, 0, 0, NULL, &err), KGEN_OK);  /* n = 0: nothing */
	ck_assert_int_eq(*nlaunches, before + 2);

	b = build("kernel: scan\nstrategy: block\nname: fake_scan_block\n");
	ck_assert_int_eq(kgen_scan_scratch_size(b, 1u << 20, &bytes, &err), KGEN_OK);
	ck_assert_uint_eq(bytes, 0);
	*nparams = 5;
	ck_assert_msg(kgen_scan(b, in, out, 1u << 20, 0, 0, NULL, &err) == KGEN_OK, "%s", err.message);
	ck_assert_str_eq(last()->name, "fake_scan_block");
	ck_assert_uint_eq(last()->grid[0], 1);
	ck_assert_uint_eq(last()->grid[1], 1);
	*nparams = 0;

	ck_assert_int_eq(kgen_scan(k, 0, out, 10, 0, 0, NULL, &err), KGEN_EINVAL);
	ck_assert_str_eq(err.message, "kgen_scan: in is NULL");
	ck_assert_int_eq(kgen_scan(k, in + 2, out, 10, 0, 0, NULL, &err), KGEN_EINVAL);
	ck_assert_str_eq(err.message, "kgen_scan: in (0x10000002) is not aligned to its 4-byte f32 elements");
	ck_assert_int_eq(kgen_scan(k, in, in + 4, 10, 0, 0, NULL, &err), KGEN_EINVAL);
	ck_assert_msg(strstr(err.message, "overlap"), "%s", err.message);
	ck_assert_int_eq(kgen_scan(k, in, out, 5000, 0x30000000ull, 16, NULL, &err), KGEN_EINVAL);
	ck_assert_str_eq(err.message, "kgen_scan: scratch of 16 bytes is too small: 80 needed for 1 x 5000");
	ck_assert_int_eq(kgen_scan(k, in, out, 5000, 0x30000008ull, 80, NULL, &err), KGEN_EINVAL);
	ck_assert_str_eq(err.message, "kgen_scan: scratch (0x30000008) is not aligned to 16 bytes");
	r = build("kernel: reduce\nname: fake_scan_not\n");
	ck_assert_int_eq(kgen_scan(r, in, out, 10, 0, 0, NULL, &err), KGEN_EINVAL);
	ck_assert_msg(strstr(err.message, "kgen_scan: fake_scan_not is a reduce kernel"), "%s", err.message);
	ck_assert_int_eq(kgen_scan_scratch_size(k, 10, NULL, &err), KGEN_EINVAL);
	/* The scratch sizes refuse what the launches refuse (they answered 3.7e16 bytes for n = 2^64 - 1). */
	ck_assert_int_eq(kgen_scan_scratch_size(k, ~0ull, &bytes, &err), KGEN_EINVAL);
	ck_assert_msg(strstr(err.message, "kgen_scan_scratch_size: ") && strstr(err.message, "more than a"), "%s",
	              err.message);
	ck_assert_int_eq(kgen_scan_rows_scratch_size(k, 3, 1ull << 62, &bytes, &err), KGEN_EINVAL);
	ck_assert_msg(strstr(err.message, "more than a device holds"), "%s", err.message);
	{  /* wider out than in (i32 into i64; f16's f32): a size, not an overlap of a pretend in place */
		kgen_kernel *w = build("kernel: scan\ndtype: i32\nacc_dtype: i64\nname: fake_scan_wide_size\n");
		kgen_kernel *h = build("kernel: scan\ndtype: f16\nname: fake_scan_half_size\n");
		ck_assert_msg(kgen_scan_scratch_size(w, 100000, &bytes, &err) == KGEN_OK, "%s", err.message);
		ck_assert_msg(kgen_scan_rows_scratch_size(h, 3, 5000, &bytes, &err) == KGEN_OK, "%s", err.message);
	}
	ck_assert_int_eq(*nlaunches, before + 3);
	/* i32 into i64: out's elements are 8 bytes, and in place is refused (two sizes). */
	k = build("kernel: scan\ndtype: i32\nacc_dtype: i64\nname: fake_scan_wide\n");
	ck_assert_int_eq(kgen_scan(k, in, in, 10, 0, 0, NULL, &err), KGEN_EINVAL);
	ck_assert_msg(strstr(err.message, "overlap"), "%s", err.message);
	ck_assert_int_eq(kgen_scan(k, in, out + 4, 10, 0, 0, NULL, &err), KGEN_EINVAL);
	ck_assert_str_eq(err.message, "kgen_scan: out (0x20000004) is not aligned to its 8-byte i64 elements");
}
END_TEST

/* kernel: scan along rows: a block a tile of a row, grid (tiles, rows),
 * the pitches and a row's scratch passed; a launch per 65535 rows, each
 * from its first row's elements and scratch; bad pitches refused. */
START_TEST(a_row_scan_launches_a_row_of_tiles_a_grid_row)
{
	kgen_kernel *k = build("kernel: scan\nitems_per_thread: 8\nname: fake_scan_rows\n"), *b;
	const unsigned long long in = 0x10000000ull, out = 0x80000000ull, scratch = 0x40000000ull;
	int before = *nlaunches;
	size_t bytes = 1;
	kgen_error err;

	ck_assert_int_eq(kgen_scan_rows_scratch_size(k, 3, 5000, &bytes, &err), KGEN_OK);
	ck_assert_uint_eq(bytes, 16 + 3 * 64);  /* the header, then each row's words */
	*nparams = 7;
	ck_assert_msg(kgen_scan_rows(k, in, out, 3, 5000, 5008, 0, scratch, 16 + 3 * 64, NULL, &err) == KGEN_OK, "%s",
	              err.message);
	ck_assert_uint_eq(last()->grid[0], 3);  /* tiles of a row */
	ck_assert_uint_eq(last()->grid[1], 3);  /* rows */
	ck_assert_uint_eq(last()->args[3], 5008);
	ck_assert_uint_eq(last()->args[4], 5000);  /* 0: cols */
	ck_assert_uint_eq(last()->args[5], scratch);
	ck_assert_uint_eq(last()->args[6], 64);
	ck_assert_int_eq(kgen_scan_rows(k, in, out, 3, 5000, 5008, 0, scratch, 16 + 3 * 64 - 1, NULL, &err), KGEN_EINVAL);
	ck_assert_str_eq(err.message, "kgen_scan_rows: scratch of 207 bytes is too small: 208 needed for 3 x 5000");
	ck_assert_int_eq(kgen_scan_rows(k, in, out, 3, 5000, 4999, 0, 0, 0, NULL, &err), KGEN_EINVAL);
	ck_assert_str_eq(err.message, "kgen_scan_rows: a pitch of 4999 elements is shorter than a row of 5000");
	ck_assert_int_eq(kgen_scan_rows(k, in, in + 5000 * 4, 2, 5000, 0, 0, 0, 0, NULL, &err), KGEN_EINVAL);
	ck_assert_msg(strstr(err.message, "overlap"), "%s", err.message);  /* out starts in in's second row */
	ck_assert_int_eq(*nlaunches, before + 1);
	/* 70000 rows of two tiles: the scratch of a launch's rows, 65535, each launch on the same words (its
	 * marks greater than every launch's before it). */
	ck_assert_int_eq(kgen_scan_rows_scratch_size(k, 70000, 5000, &bytes, &err), KGEN_OK);
	ck_assert_uint_eq(bytes, 16 + 65535ull * 64);
	ck_assert_msg(kgen_scan_rows(k, in, out, 70000, 5000, 0, 0, 0x200000000ull, bytes, NULL, &err) == KGEN_OK, "%s",
	              err.message);
	ck_assert_int_eq(*nlaunches, before + 3);
	ck_assert_uint_eq(last()->grid[1], 70000 - 65535);
	ck_assert_uint_eq(last()->args[0], in + 65535ull * 5000 * 4);
	ck_assert_uint_eq(last()->args[5], 0x200000000ull);
	before += 2;

	/* 70000 rows of one tile: two launches, the second from row 65535. */
	b = build("kernel: scan\nstrategy: block\nname: fake_scan_rows_block\n");
	*nparams = 5;
	ck_assert_msg(kgen_scan_rows(b, in, out, 70000, 100, 128, 100, 0, 0, NULL, &err) == KGEN_OK, "%s", err.message);
	ck_assert_int_eq(*nlaunches, before + 3);
	ck_assert_uint_eq(last()->grid[0], 1);
	ck_assert_uint_eq(last()->grid[1], 70000 - 65535);
	ck_assert_uint_eq(last()->args[0], in + 65535ull * 128 * 4);
	ck_assert_uint_eq(last()->args[1], out + 65535ull * 100 * 4);
	*nparams = 0;
	ck_assert_int_eq(kgen_scan_rows(b, in, out, 0, 100, 0, 0, 0, 0, NULL, &err), KGEN_OK);  /* nothing */
	ck_assert_int_eq(*nlaunches, before + 3);
}
END_TEST

/* kernel: scan, axis: cols, staging: ring: a band's blocks as many as
 * the GPU holds beside the other bands' (the fake: 132 SMs, 2 blocks of 256
 * threads each), launched cooperatively with the stages' dynamic shared
 * memory; a band's words for its blocks and their groups, none where a band
 * has one block (then no cooperative launch); the scratch a caller asks for
 * is enough for whatever GPU launches it.  The input's tensor map (TMA's
 * boxes of a tile: a band's columns by its rows) wherever TMA takes the
 * input, none for a pitch or a start that is not 16-byte aligned. */
START_TEST(a_ring_column_scan_launches_resident_blocks_a_band)
{
	kgen_kernel *k = build("kernel: scan\naxis: cols\nstaging: ring\nitems_per_thread: 8\nname: fake_scan_ring\n");  /* 128 x 64 f32 tiles */
	const unsigned long long in = 0x10000000ull, out = 0x80000000ull, scratch = 0x200000000ull;
	const struct fake_map *map;
	int before = *nlaunches, e0 = *encodes;
	size_t bytes = 1;
	kgen_error err;

	/* 2^20 x 64: one band of 8192 tiles; 264 blocks in groups of 17 (16 groups): 8 rounds of (264 + 16) x 64 words. */
	ck_assert_int_eq(kgen_scan_cols_scratch_size(k, 1ull << 20, 64, &bytes, &err), KGEN_OK);
	ck_assert_uint_eq(bytes, 16 + 8ull * (1024 + 32) * 64 * 16);  /* sized for 1024 blocks, the most any GPU gets */
	*nparams = 8;
	ck_assert_msg(kgen_scan_cols(k, in, out, 1ull << 20, 64, 0, 0, scratch, bytes, NULL, &err) == KGEN_OK, "%s",
	              err.message);
	ck_assert_str_eq(last()->name, "fake_scan_ring");
	ck_assert_uint_eq(last()->grid[0], 264);
	ck_assert_uint_eq(last()->grid[1], 1);
	ck_assert_uint_eq(last()->block[0], 256);
	ck_assert_uint_eq(last()->smem, 3 * 128 * 64 * 4);  /* three stages of a tile */
	ck_assert_int_eq(last()->cooperative, 1);
	ck_assert_uint_eq(last()->args[6], scratch);
	ck_assert_uint_eq(last()->args[7], 8ull * (264 + 16) * 64 * 16);
	ck_assert_int_eq(*encodes, e0 + 1);
	map = fake_var("fake_cuda_last_map");
	ck_assert_int_eq(map->rank, 2);
	ck_assert_int_eq(map->type, CU_TENSOR_MAP_DATA_TYPE_UINT32);  /* the elements' bytes */
	ck_assert_uint_eq(map->dims[0], 64);
	ck_assert_uint_eq(map->dims[1], 1ull << 20);
	ck_assert_uint_eq(map->strides[0], 64 * 4);
	ck_assert_uint_eq(map->box[0], 64);
	ck_assert_uint_eq(map->box[1], 128);
	/* the same input and layout again: the map kept, not encoded again */
	ck_assert_msg(kgen_scan_cols(k, in, out, 1ull << 20, 64, 0, 0, scratch, bytes, NULL, &err) == KGEN_OK, "%s",
	              err.message);
	ck_assert_int_eq(*encodes, e0 + 1);
	/* 1000 x 100: 2 bands (the second partial), 8 tiles each: 8 blocks a band in groups of 3. */
	ck_assert_msg(kgen_scan_cols(k, in, out, 1000, 100, 0, 0, scratch, bytes, NULL, &err) == KGEN_OK, "%s", err.message);
	ck_assert_uint_eq(last()->grid[0], 8);
	ck_assert_uint_eq(last()->grid[1], 2);
	ck_assert_uint_eq(last()->args[7], 8ull * (8 + 3) * 64 * 16);
	ck_assert_int_eq(*encodes, e0 + 2);
	ck_assert_uint_eq(map->dims[0], 100);
	ck_assert_uint_eq(map->dims[1], 1000);
	/* another input of the same layout, then a pitch of 104 (416 bytes): each encoded anew, and the map
	 * the launch gets is the one for its own input */
	ck_assert_msg(kgen_scan_cols(k, in + 4096, out, 1000, 100, 0, 0, scratch, bytes, NULL, &err) == KGEN_OK, "%s",
	              err.message);
	ck_assert_int_eq(*encodes, e0 + 3);
	ck_assert_uint_eq(map->addr, in + 4096);
	ck_assert_msg(kgen_scan_cols(k, in + 4096, out, 1000, 100, 104, 0, scratch, bytes, NULL, &err) == KGEN_OK, "%s",
	              err.message);
	ck_assert_int_eq(*encodes, e0 + 4);
	ck_assert_uint_eq(map->strides[0], 104 * 4);
	ck_assert_msg(kgen_scan_cols(k, in, out, 1000, 100, 0, 0, scratch, bytes, NULL, &err) == KGEN_OK, "%s", err.message);
	ck_assert_int_eq(*encodes, e0 + 5);
	ck_assert_uint_eq(map->addr, in);
	/* rows 101 elements apart (404 bytes), or a start 4 bytes past 16: no map (each row copied apart) */
	ck_assert_msg(kgen_scan_cols(k, in, out, 1000, 100, 101, 0, scratch, bytes, NULL, &err) == KGEN_OK, "%s",
	              err.message);
	ck_assert_msg(kgen_scan_cols(k, in + 4, out, 1000, 100, 0, 0, scratch, bytes, NULL, &err) == KGEN_OK, "%s",
	              err.message);
	ck_assert_int_eq(*encodes, e0 + 5);
	/* 129 x 100000: 1563 bands, more than the GPU holds at once: a block a band, no words, no cooperative launch. */
	ck_assert_int_eq(kgen_scan_cols_scratch_size(k, 129, 100000, &bytes, &err), KGEN_OK);
	ck_assert_uint_eq(bytes, 0);
	ck_assert_msg(kgen_scan_cols(k, in, out, 129, 100000, 0, 0, 0, 0, NULL, &err) == KGEN_OK, "%s", err.message);
	ck_assert_uint_eq(last()->grid[0], 1);
	ck_assert_uint_eq(last()->grid[1], 1563);
	ck_assert_int_eq(last()->cooperative, 0);
	ck_assert_uint_eq(last()->args[7], 0);
	/* a caller's scratch one byte short of the words */
	*nparams = 0;
	ck_assert_int_eq(kgen_scan_cols(k, in, out, 1000, 100, 0, 0, scratch, 16 + 2 * 8 * 11 * 64 * 16 - 1, NULL, &err),
	                 KGEN_EINVAL);
	ck_assert_msg(strstr(err.message, "too small"), "%s", err.message);
	ck_assert_int_eq(*nlaunches, before + 9);
}
END_TEST

/* kernel: scan, axis: cols: a block a tile of rows of a band of columns,
 * grid (tiles, bands), the pitches and a band's words passed, one header
 * for all; a kernel of the other axis refused by each call. */
START_TEST(a_column_scan_launches_tiles_of_rows_by_bands)
{
	kgen_kernel *k = build("kernel: scan\naxis: cols\nitems_per_thread: 8\nname: fake_scan_cols\n");  /* tiles of 256 rows */
	kgen_kernel *rows = build("kernel: scan\nname: fake_scan_not_cols\n");
	const unsigned long long in = 0x10000000ull, out = 0x80000000ull, scratch = 0x200000000ull;
	int before = *nlaunches;
	size_t bytes = 1;
	kgen_error err;

	/* 1000 rows: 4 tiles of 256 (one group of 32); 100 columns: 4 bands of 32: (4 + 1) x 32 words a band. */
	ck_assert_int_eq(kgen_scan_cols_scratch_size(k, 1000, 100, &bytes, &err), KGEN_OK);
	ck_assert_uint_eq(bytes, 16 + 4 * 5 * 32 * 16);
	*nparams = 8;
	ck_assert_msg(kgen_scan_cols(k, in, out, 1000, 100, 104, 0, scratch, bytes, NULL, &err) == KGEN_OK, "%s",
	              err.message);
	ck_assert_str_eq(last()->name, "fake_scan_cols");
	ck_assert_uint_eq(last()->grid[0], 4);  /* tiles down the rows */
	ck_assert_uint_eq(last()->grid[1], 4);  /* bands across the columns */
	ck_assert_uint_eq(last()->block[0], 256);
	ck_assert_uint_eq(last()->args[2], 1000);
	ck_assert_uint_eq(last()->args[3], 100);
	ck_assert_uint_eq(last()->args[4], 104);
	ck_assert_uint_eq(last()->args[5], 100);  /* 0: cols */
	ck_assert_uint_eq(last()->args[6], scratch);
	ck_assert_uint_eq(last()->args[7], 5 * 32 * 16);  /* a band's words */
	*nparams = 0;
	ck_assert_int_eq(kgen_scan_cols(k, in, out, 1000, 100, 104, 0, scratch, bytes - 1, NULL, &err), KGEN_EINVAL);
	ck_assert_msg(strstr(err.message, "too small"), "%s", err.message);
	ck_assert_int_eq(kgen_scan_cols(k, in, out, 1000, 100, 99, 0, 0, 0, NULL, &err), KGEN_EINVAL);
	ck_assert_str_eq(err.message, "kgen_scan_cols: a pitch of 99 elements is shorter than a row of 100");
	ck_assert_int_eq(kgen_scan_cols(k, in, in + 4, 1000, 100, 0, 0, 0, 0, NULL, &err), KGEN_EINVAL);
	ck_assert_msg(strstr(err.message, "overlap"), "%s", err.message);
	ck_assert_int_eq(kgen_scan_cols(k, in, out, 256, 100, 0, 0, 0, 0, NULL, &err), KGEN_OK);  /* one tile: no scratch */
	ck_assert_int_eq(kgen_scan_cols_scratch_size(k, 256, 100, &bytes, &err), KGEN_OK);
	ck_assert_uint_eq(bytes, 0);
	ck_assert_int_eq(kgen_scan_cols(k, in, out, 0, 100, 0, 0, 0, 0, NULL, &err), KGEN_OK);  /* nothing */
	{	/* cluster_size 2: 1000 rows, 4 tiles of 256 (2 clusters); 1300 rows, 6 tiles (3); 1100, 5 tiles rounded up to 6 */
		kgen_kernel *c2 = build("kernel: scan\naxis: cols\nitems_per_thread: 8\ncluster_size: 2\nname: fake_scan_c2\n");
		static const unsigned long long heights[3] = { 1000, 1300, 1100 }, xs[3] = { 4, 6, 6 };
		int r;
		for (r = 0; r < 3; r++) {
			ck_assert_int_eq(kgen_scan_cols_scratch_size(c2, heights[r], 100, &bytes, &err), KGEN_OK);
			ck_assert_msg(kgen_scan_cols(c2, in, out, heights[r], 100, 0, 0, scratch, bytes, NULL, &err) == KGEN_OK, "%s",
			              err.message);
			ck_assert_uint_eq(last()->grid[0], xs[r]);
			ck_assert_uint_eq(last()->grid[1], 4);
		}
		before += 3;
	}
	ck_assert_int_eq(*nlaunches, before + 2);
	/* the other axis, each way */
	ck_assert_int_eq(kgen_scan_cols(rows, in, out, 1000, 100, 0, 0, 0, 0, NULL, &err), KGEN_EINVAL);
	ck_assert_str_eq(err.message, "kgen_scan_cols: fake_scan_not_cols scans along rows (axis: rows): call kgen_scan or "
	                              "kgen_scan_rows, or build a spec of axis: cols");
	ck_assert_int_eq(kgen_scan_rows(k, in, out, 3, 100, 0, 0, 0, 0, NULL, &err), KGEN_EINVAL);
	ck_assert_str_eq(err.message, "kgen_scan_rows: fake_scan_cols scans down columns (axis: cols): call kgen_scan_cols");
	ck_assert_int_eq(kgen_scan(k, in, out, 100, 0, 0, NULL, &err), KGEN_EINVAL);
	ck_assert_int_eq(*nlaunches, before + 2);
}
END_TEST

/* kgen_kernel_prepare: a NULL kernel is an error; a kernel of one kernel
 * (nothing lazy) and a size plan's (its entries') are built already. */
START_TEST(prepare_takes_any_kernel)
{
	kgen_kernel *k = build("kernel: reduce\nname: prepare_one\n");
	int *modules = fake_var("fake_cuda_modules"), before = *modules;
	kgen_error err;

	ck_assert_int_eq(kgen_kernel_prepare(NULL, &err), KGEN_EINVAL);
	ck_assert_str_eq(err.message, "kgen_kernel_prepare: NULL argument");
	ck_assert_int_eq(kgen_kernel_prepare(k, &err), KGEN_OK);
	ck_assert_int_eq(*modules, before);
}
END_TEST

/* A size plan's kernel: its entries' times, summed. */
START_TEST(a_plans_build_times_sum_its_entries)
{
	const char *plan = "plan:\n"
	                   "  - upto: 1000\n    spec: {kernel: reduce, threads: 128, name: plan_times_a}\n"
	                   "  - spec: {kernel: reduce, threads: 256, name: plan_times_b}\n";
	kgen_build_times t, a, b;
	kgen_plan *p;
	kgen_kernel *k;
	kgen_error err;

	ck_assert_msg(kgen_plan_load_string(plan, strlen(plan), "<plan>", &p, &err) == KGEN_OK, "%s", err.message);
	ck_assert_msg(kgen_kernel_build_plan(ctx, p, &k, &err) == KGEN_OK, "%s", err.message);
	kgen_plan_free(p);
	ck_assert_int_eq(kgen_kernel_build_times(k, &t, &err), KGEN_OK);
	ck_assert_int_eq(kgen_kernel_build_times(kgen_kernel_for_n(k, 10), &a, &err), KGEN_OK);
	ck_assert_int_eq(kgen_kernel_build_times(kgen_kernel_for_n(k, 100000), &b, &err), KGEN_OK);
	ck_assert_int_eq(t.modules, 2);
	ck_assert_int_eq(t.disk_hits, 0);
	ck_assert(t.compile_us == a.compile_us + b.compile_us && t.total_us == a.total_us + b.total_us);
}
END_TEST

/* A plan's entries build on threads of their own, as many as there are
 * entries and CPUs: each lands in its place, and a call of n launches the
 * entry whose range holds n. */
START_TEST(a_plans_entries_build_in_parallel_each_in_its_place)
{
	const char *plan = "plan:\n"
	                   "  - upto: 1000\n    spec: {kernel: reduce, threads: 128, name: parallel_a}\n"
	                   "  - upto: 10000\n    spec: {kernel: reduce, threads: 256, name: parallel_b}\n"
	                   "  - upto: 100000\n    spec: {kernel: reduce, threads: 512, name: parallel_c}\n"
	                   "  - upto: 1000000\n    spec: {kernel: reduce, threads: 1024, name: parallel_d}\n"
	                   "  - spec: {kernel: reduce, threads: 64, name: parallel_e}\n";
	static const char *const names[] = { "parallel_a", "parallel_b", "parallel_c", "parallel_d", "parallel_e" };
	const unsigned long long ns[] = { 10, 5000, 50000, 500000, 5000000 };
	const unsigned threads[] = { 128, 256, 512, 1024, 64 };
	float *out = aligned_alloc(16, 16);
	kgen_build_times t;
	kgen_plan *p;
	kgen_kernel *k;
	kgen_error err;
	int i;

	ck_assert_msg(kgen_plan_load_string(plan, strlen(plan), "<plan>", &p, &err) == KGEN_OK, "%s", err.message);
	ck_assert_msg(kgen_kernel_build_plan(ctx, p, &k, &err) == KGEN_OK, "%s", err.message);
	kgen_plan_free(p);
	ck_assert_int_eq(kgen_kernel_build_times(k, &t, &err), KGEN_OK);
	ck_assert_int_eq(t.modules, 5);  /* an entry's _init and sum, launched in turn, are one program */
	for (i = 0; i < 5; i++) {
		ck_assert_msg(kgen_reduce(k, 0x10000000ull, ns[i], (kgen_devptr)(uintptr_t)out, 0, 0, NULL, &err) == KGEN_OK,
		              "%s", err.message);
		ck_assert_str_eq(last()->name, names[i]);
		ck_assert_uint_eq(last()->block[0], threads[i]);
	}
	/* Built again on the same context: the same entries, found on the
	 * calling thread without a thread started. */
	{
		kgen_kernel *again;
		int started = threads_started;
		ck_assert_msg(kgen_plan_load_string(plan, strlen(plan), "<plan>", &p, &err) == KGEN_OK, "%s", err.message);
		ck_assert_msg(kgen_kernel_build_plan(ctx, p, &again, &err) == KGEN_OK, "%s", err.message);
		kgen_plan_free(p);
		ck_assert_int_eq(threads_started, started);
		for (i = 0; i < 5; i++)
			ck_assert_ptr_eq(kgen_kernel_for_n(again, ns[i]), kgen_kernel_for_n(k, ns[i]));
	}
	ck_assert_msg(sysconf(_SC_NPROCESSORS_ONLN) < 2 || threads_started > 0, "a cold plan of 5 entries started no thread");
	free(out);
}
END_TEST

/* A plan whose entry fails to build fails with that entry's error (the
 * fake's third module load fails; loads take the context's lock one at a
 * time), and builds once the driver recovers, the entries that were built
 * taken from the context. */
START_TEST(a_plan_with_a_failing_entry_reports_it)
{
	const char *plan = "plan:\n"
	                   "  - upto: 1000\n    spec: {kernel: reduce, threads: 128, name: failing_a}\n"
	                   "  - upto: 10000\n    spec: {kernel: reduce, threads: 256, name: failing_b}\n"
	                   "  - upto: 100000\n    spec: {kernel: reduce, threads: 512, name: failing_c}\n"
	                   "  - spec: {kernel: reduce, threads: 1024, name: failing_d}\n";
	kgen_plan *p;
	kgen_kernel *k = NULL;
	kgen_error err;

	ck_assert_msg(kgen_plan_load_string(plan, strlen(plan), "<plan>", &p, &err) == KGEN_OK, "%s", err.message);
	setenv("FAKE_CUDA_FAIL", "cuModuleLoadData:3", 1);
	ck_assert_int_eq(kgen_kernel_build_plan(ctx, p, &k, &err), KGEN_ECUDA);
	ck_assert_str_eq(err.message, "cuModuleLoadData(): CUDA_ERROR_OUT_OF_MEMORY: out of memory (fake)");
	ck_assert_ptr_null(k);
	unsetenv("FAKE_CUDA_FAIL");
	ck_assert_msg(kgen_kernel_build_plan(ctx, p, &k, &err) == KGEN_OK, "%s", err.message);
	kgen_plan_free(p);
	ck_assert_msg(kgen_reduce(k, 0x10000000ull, 50000, 0x20000000ull, 0, 0, NULL, &err) == KGEN_OK, "%s", err.message);
	ck_assert_str_eq(last()->name, "failing_c");
}
END_TEST

/* The driver's occupancy of a kernel's first launch (the fake's: 1 block an
 * SM above 512 threads, else 2; a two-pass sum's first kernel has `threads`
 * threads); a plan's first entry's. */
START_TEST(blocks_per_sm_is_the_drivers_occupancy)
{
	const char *plan = "plan:\n"
	                   "  - upto: 1000\n    spec: {kernel: reduce, stages: two_pass, threads: 1024, name: blocks_plan_a}\n"
	                   "  - spec: {kernel: reduce, stages: two_pass, threads: 256, name: blocks_plan_b}\n";
	kgen_plan *p;
	kgen_kernel *k;
	kgen_error err;

	ck_assert_int_eq(kgen_kernel_blocks_per_sm(build("kernel: reduce\nstages: two_pass\nthreads: 1024\n")), 1);
	ck_assert_int_eq(kgen_kernel_blocks_per_sm(build("kernel: reduce\nstages: two_pass\nthreads: 256\n")), 2);
	ck_assert_msg(kgen_plan_load_string(plan, strlen(plan), "<plan>", &p, &err) == KGEN_OK, "%s", err.message);
	ck_assert_msg(kgen_kernel_build_plan(ctx, p, &k, &err) == KGEN_OK, "%s", err.message);
	kgen_plan_free(p);
	ck_assert_int_eq(kgen_kernel_blocks_per_sm(k), 1);
	ck_assert_int_eq(kgen_kernel_blocks_per_sm(kgen_kernel_for_n(k, 100000)), 2);
}
END_TEST

/* A two-pass sum: both kernels, the second of one block, scratch the kernel owns. */
START_TEST(two_pass_reduce_launches_both_kernels)
{
	kgen_kernel *k = build("kernel: reduce\nstages: two_pass\nthreads: 256\n");
	kgen_error err;
	float *out = aligned_alloc(16, 16);
	int n0 = *nlaunches;

	size_t bytes = 0;

	ck_assert_int_eq(kgen_reduce(k, 0x10000000ull, 1u << 20, (kgen_devptr)(uintptr_t)out, 0, 0, NULL, &err), KGEN_OK);
	ck_assert_int_eq(*nlaunches, n0 + 2);
	ck_assert_str_eq(launches[n0 % 256].name, "reduce_sum_f32");
	ck_assert_str_eq(last()->name, "reduce_sum_f32_final");
	ck_assert_uint_eq(last()->grid[0], 1);
	/* Caller's scratch: the partials start 16 bytes in, past the slot a
	 * last_block entry of a plan keeps its ticket in. */
	ck_assert_int_eq(kgen_reduce_scratch_size(k, 1u << 20, &bytes, &err), KGEN_OK);
	ck_assert_uint_eq(bytes, 16 + (size_t)launches[n0 % 256].grid[0] * 4);
	*nparams = 3;
	n0 = *nlaunches;
	ck_assert_int_eq(kgen_reduce(k, 0x10000000ull, 1u << 20, (kgen_devptr)(uintptr_t)out, 0x30000000ull, bytes, NULL,
	                             &err), KGEN_OK);
	ck_assert_uint_eq(launches[n0 % 256].args[1], 0x30000010ull);  /* the main kernel's partials */
	ck_assert_uint_eq(last()->args[0], 0x30000010ull);             /* _final reads them there */
	*nparams = 0;
	free(out);
}
END_TEST

/* A two-pass sum's pass and final pass (kgen_contract.side_by_side) are
 * compiled a kernel a program where the build has more than one thread,
 * both loaded at the build (not lazily, as alternatives are) and launched
 * in turn; on one thread, one program and one module. */
START_TEST(two_pass_kernels_compile_side_by_side)
{
	int *modules = fake_var("fake_cuda_modules"), before, n0;
	float *out = aligned_alloc(16, 16);
	kgen_build_times t;
	const char *env = getenv("KGEN_JIT_THREADS");
	const char *plan = "plan:\n  - upto: 100000\n    spec: {kernel: reduce, stages: two_pass, threads: 256, name: plan_pass_a}\n"
	                   "  - spec: {kernel: reduce, stages: two_pass, threads: 512, name: plan_pass_b}\n";
	char *threads = env ? strdup(env) : NULL;
	kgen_plan *pl;
	kgen_kernel *k;
	kgen_error err;

	setenv("KGEN_CACHE", "0", 1);
	setenv("KGEN_JIT_THREADS", "2", 1);
	before = *modules;
	k = build("kernel: reduce\nstages: two_pass\nthreads: 256\nname: side_by_side_sum\n");
	ck_assert_int_eq(kgen_kernel_build_times(k, &t, &err), KGEN_OK);
	ck_assert_int_eq(t.modules, 2);
	ck_assert_int_eq(*modules, before + 2);
	ck_assert(t.compile_us > 0);
	n0 = *nlaunches;
	ck_assert_int_eq(kgen_reduce(k, 0x10000000ull, 1u << 20, (kgen_devptr)(uintptr_t)out, 0, 0, NULL, &err), KGEN_OK);
	ck_assert_int_eq(*nlaunches, n0 + 2);
	ck_assert_str_eq(launches[n0 % 256].name, "side_by_side_sum");
	ck_assert_str_eq(last()->name, "side_by_side_sum_final");
	ck_assert_int_eq(*modules, before + 2);  /* nothing built at the launch */

	setenv("KGEN_JIT_THREADS", "1", 1);
	k = build("kernel: reduce\nstages: two_pass\nthreads: 256\nname: one_program_sum\n");
	ck_assert_int_eq(kgen_kernel_build_times(k, &t, &err), KGEN_OK);
	ck_assert_int_eq(t.modules, 1);
	ck_assert_int_eq(*modules, before + 3);
	n0 = *nlaunches;
	ck_assert_int_eq(kgen_reduce(k, 0x10000000ull, 1u << 20, (kgen_devptr)(uintptr_t)out, 0, 0, NULL, &err), KGEN_OK);
	ck_assert_str_eq(launches[n0 % 256].name, "one_program_sum");
	ck_assert_str_eq(last()->name, "one_program_sum_final");

	/* A sum of atomics (a tiny _init, then the sum) stays one program on two threads. */
	setenv("KGEN_JIT_THREADS", "2", 1);
	k = build("kernel: reduce\nstages: atomic\nthreads: 256\nname: init_and_sum\n");
	ck_assert_int_eq(kgen_kernel_build_times(k, &t, &err), KGEN_OK);
	ck_assert_int_eq(t.modules, 1);
	/* A plan's entries build on a pool's threads, where the two would compile one after another: one program each. */
	ck_assert_msg(kgen_plan_load_string(plan, strlen(plan), "<plan>", &pl, &err) == KGEN_OK, "%s", err.message);
	ck_assert_msg(kgen_kernel_build_plan(ctx, pl, &k, &err) == KGEN_OK, "%s", err.message);
	kgen_plan_free(pl);
	ck_assert_int_eq(kgen_kernel_build_times(k, &t, &err), KGEN_OK);
	ck_assert_int_eq(t.modules, 2);
	n0 = *nlaunches;
	ck_assert_int_eq(kgen_reduce(k, 0x10000000ull, 1u << 20, (kgen_devptr)(uintptr_t)out, 0, 0, NULL, &err), KGEN_OK);
	ck_assert_str_eq(launches[n0 % 256].name, "plan_pass_b");
	ck_assert_str_eq(last()->name, "plan_pass_b_final");
	if (threads)
		setenv("KGEN_JIT_THREADS", threads, 1);
	else
		unsetenv("KGEN_JIT_THREADS");
	free(threads);
	free(out);
}
END_TEST

/* kgen_reduce_packed(): the call its kernel's family and its index slot
 * choose, with the arguments from their slots; errors in the slot's
 * kgen_error. */
START_TEST(packed_call_dispatches_by_family_and_index)
{
	kgen_kernel *sum = build("kernel: reduce\nstages: two_pass\nthreads: 256\n");
	kgen_kernel *arg = build("kernel: reduce\nop: argmax\n");
	kgen_kernel *rows = build("kernel: reduce_axis\naxis: rows\n");
	kgen_kernel *tr = build("kernel: transpose\n");
	kgen_error err;
	unsigned long long a[KGEN_PACKED_COUNT] = { 0 };
	int n0;

	a[KGEN_PACKED_ERROR] = (uintptr_t)&err;
	a[KGEN_PACKED_IN] = 0x10000000ull;
	a[KGEN_PACKED_OUT] = 0x20000000ull;
	a[KGEN_PACKED_N] = 1u << 20;
	a[KGEN_PACKED_KERNEL] = (uintptr_t)sum;
	n0 = *nlaunches;
	ck_assert_int_eq(kgen_reduce_packed(a), KGEN_OK);
	ck_assert_int_eq(*nlaunches, n0 + 2);
	ck_assert_str_eq(last()->name, "reduce_sum_f32_final");
	a[KGEN_PACKED_KERNEL] = (uintptr_t)arg;  /* no index: kgen_reduce, which refuses argmax */
	ck_assert_int_eq(kgen_reduce_packed(a), KGEN_EINVAL);
	ck_assert_ptr_nonnull(strstr(err.message, "kgen_reduce_arg"));
	a[KGEN_PACKED_INDEX] = 0x30000000ull;
	n0 = *nlaunches;
	ck_assert_int_eq(kgen_reduce_packed(a), KGEN_OK);
	ck_assert_int_eq(*nlaunches, n0 + 1);
	ck_assert_str_eq(last()->name, "reduce_argmax_f32");
	a[KGEN_PACKED_KERNEL] = (uintptr_t)rows;
	a[KGEN_PACKED_INDEX] = 0;
	a[KGEN_PACKED_N] = 100;
	a[KGEN_PACKED_COLS] = 64;
	a[KGEN_PACKED_PITCH] = 64;
	n0 = *nlaunches;
	ck_assert_int_eq(kgen_reduce_packed(a), KGEN_OK);
	ck_assert_int_gt(*nlaunches, n0);
	ck_assert_ptr_nonnull(strstr(last()->name, "reduce_rows_sum_f32"));
	a[KGEN_PACKED_PITCH] = 3;  /* under cols: kgen_reduce_axis's own error */
	ck_assert_int_eq(kgen_reduce_packed(a), KGEN_EINVAL);
	ck_assert_ptr_nonnull(strstr(err.message, "pitch"));
	a[KGEN_PACKED_KERNEL] = (uintptr_t)tr;
	ck_assert_int_eq(kgen_reduce_packed(a), KGEN_EINVAL);
	ck_assert_str_eq(err.message, "kgen_reduce_packed: transpose_f32 is a transpose kernel, not reduce or reduce_axis");
	a[KGEN_PACKED_KERNEL] = 0;
	ck_assert_int_eq(kgen_reduce_packed(a), KGEN_EINVAL);
	ck_assert_str_eq(err.message, "kgen_reduce_packed: NULL kernel");
	ck_assert_int_eq(kgen_reduce_packed(NULL), KGEN_EINVAL);
}
END_TEST

/* launch: pdl: the second kernel of two_pass (_final) and of atomic (the
 * main kernel after _init) is a programmatic dependent launch, with the
 * same geometry and arguments; the first kernel, and every kernel of
 * launch: stream, is launched plainly. */
START_TEST(pdl_launches_the_second_kernel_dependent)
{
	static const struct {
		const char *yaml, *first, *second;
		int first_dependent, dependent;
		unsigned grid;  /* the second's: _final one block, the main kernel 2^20 / (256 x 8) */
	} cases[] = {
		{ "kernel: reduce\nstages: two_pass\nlaunch: pdl\nthreads: 256\n", "reduce_sum_f32", "reduce_sum_f32_final", 0, 1, 1 },
		{ "kernel: reduce\nstages: atomic\nlaunch: pdl\nthreads: 256\n", "reduce_sum_f32_init", "reduce_sum_f32", 0, 1, 512 },
		{ "kernel: reduce\nstages: two_pass\nthreads: 256\n", "reduce_sum_f32", "reduce_sum_f32_final", 0, 0, 1 },
		{ "kernel: reduce\nstages: atomic\nthreads: 256\n", "reduce_sum_f32_init", "reduce_sum_f32", 0, 0, 512 },
		/* launch: chain: the first kernel too, after the work before it */
		{ "kernel: reduce\nstages: two_pass\nlaunch: chain\nthreads: 256\n", "reduce_sum_f32", "reduce_sum_f32_final", 1, 1, 1 },
		{ "kernel: reduce\nstages: atomic\nlaunch: chain\nthreads: 256\n", "reduce_sum_f32_init", "reduce_sum_f32", 1, 1, 512 },
	};
	float *out = aligned_alloc(16, 16);
	kgen_error err;
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		kgen_kernel *k = build(cases[i].yaml);
		int n0 = *nlaunches;
		ck_assert_int_eq(kgen_reduce(k, 0x10000000ull, 1u << 20, (kgen_devptr)(uintptr_t)out, 0, 0, NULL, &err), KGEN_OK);
		ck_assert_int_eq(*nlaunches, n0 + 2);
		ck_assert_str_eq(launches[n0 % 256].name, cases[i].first);
		ck_assert_int_eq(launches[n0 % 256].dependent, cases[i].first_dependent);
		ck_assert_str_eq(last()->name, cases[i].second);
		ck_assert_int_eq(last()->dependent, cases[i].dependent);
		ck_assert_uint_eq(last()->grid[0], cases[i].grid);
		ck_assert_uint_eq(last()->block[0], 256);
	}
	/* One kernel (last_block): chained or not. */
	for (i = 0; i < 2; i++) {
		kgen_kernel *k = build(i ? "kernel: reduce\nstages: last_block\nlaunch: chain\nthreads: 256\n"
		                           : "kernel: reduce\nstages: last_block\nthreads: 256\n");
		int n0 = *nlaunches;
		ck_assert_int_eq(kgen_reduce(k, 0x10000000ull, 1u << 20, (kgen_devptr)(uintptr_t)out, 0, 0, NULL, &err), KGEN_OK);
		ck_assert_int_eq(*nlaunches, n0 + 1);
		ck_assert_str_eq(last()->name, "reduce_sum_f32");
		ck_assert_int_eq(last()->dependent, (int)i);
	}
	free(out);
}
END_TEST

/* strategy warp and auto's _lanesN kernels: a block for every threads /
 * lanes rows (_lanesNxG: threads / N * G) when those rows hold 32 KiB or
 * more (KGEN_AXIS_PASS_BYTES), else four waves (the fake GPU: 132 SMs, two
 * 512-thread blocks each); rows of up to 4 and 8 vectors take _lanes4x4
 * and _lanes8x4 when they are aligned. */
START_TEST(lanes_kernels_take_a_block_a_tile_of_32_kib_rows)
{
	static const struct {
		const char *yaml, *suffix;
		unsigned long long rows, cols;
		unsigned grid;
	} cases[] = {
		{ "dtype: f32\n", "_lanes4", 4194304, 64, 32768 },      /* 128 rows of 256 bytes: 32 KiB */
		{ "dtype: f32\n", "_lanes4", 4194304, 63, 4 * 264 },    /* 31.5 KiB */
		{ "dtype: f32\n", "_lanes4", 4194304, 40, 4 * 264 },    /* 20 KiB */
		{ "dtype: f32\n", "_lanes8x4", 8388608, 32, 32768 },    /* 256 rows of 128 bytes */
		{ "dtype: f32\n", "_lanes4x4", 16777216, 16, 32768 },   /* 512 rows of 64 bytes */
		{ "dtype: f32\n", "_lanes4x4", 16777216, 12, 4 * 264 }, /* 24 KiB */
		{ "dtype: f32\n", "_lanes8x4", 1000, 20, 4 },
		{ "dtype: bf16\n", "_lanes8x4", 4194304, 64, 16384 },   /* 8 vectors of 8: 256 rows of 128 bytes */
		{ "dtype: bf16\n", "_lanes4", 4194304, 72, 4 * 264 },   /* 128 rows of 144 bytes */
		{ "dtype: f32\n", "_lanes16", 1048576, 256, 32768 },    /* 32 rows of 1 KiB */
		{ "dtype: f32\n", "_lanes4", 1000, 64, 8 },             /* fewer rows than four waves hold */
		{ "dtype: f32\nstrategy: warp\nlanes: 32\n", "", 1000000, 1024, 62500 },  /* 16 rows of 4 KiB */
		{ "dtype: f32\nstrategy: warp\nlanes: 32\n", "", 1000000, 100, 4 * 264 },
	};
	char yaml[256], name[64];
	kgen_error err;
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		kgen_kernel *k;
		snprintf(yaml, sizeof yaml, "kernel: reduce_axis\naxis: rows\nthreads: 512\nload_width: 16\n%s", cases[i].yaml);
		k = build(yaml);
		ck_assert_msg(kgen_reduce_axis(k, 0x10000000ull, cases[i].rows, cases[i].cols, cases[i].cols, 0x800000000ull, 0, 0,
		                               NULL, &err) == KGEN_OK, "%s", err.message);
		snprintf(name, sizeof name, "reduce_rows_sum_%s%s", strstr(cases[i].yaml, "bf16") ? "bf16" : "f32",
		         cases[i].suffix);
		ck_assert_str_eq(last()->name, name);
		ck_assert_msg(last()->grid[0] == cases[i].grid, "%llux%llu %s: grid %u, expected %u", cases[i].rows,
		              cases[i].cols, yaml, last()->grid[0], cases[i].grid);
	}
	/* Rows whose vectors are not all aligned (an odd pitch, or `in` off a
	 * 16-byte boundary) pass over _lanes8x4 to _lanes4, which peels each
	 * row's head; scratch needs no alignment to be told. */
	{
		kgen_kernel *k = build("kernel: reduce_axis\naxis: rows\nthreads: 512\nload_width: 16\n");
		size_t bytes = 1;

		ck_assert_int_eq(kgen_reduce_axis(k, 0x10000000ull, 5000, 32, 33, 0x800000000ull, 0, 0, NULL, &err), KGEN_OK);
		ck_assert_str_eq(last()->name, "reduce_rows_sum_f32_lanes4");
		ck_assert_int_eq(kgen_reduce_axis(k, 0x10000004ull, 5000, 32, 32, 0x800000000ull, 0, 0, NULL, &err), KGEN_OK);
		ck_assert_str_eq(last()->name, "reduce_rows_sum_f32_lanes4");
		ck_assert_int_eq(kgen_reduce_axis(k, 0x10000000ull, 5000, 32, 36, 0x800000000ull, 0, 0, NULL, &err), KGEN_OK);
		ck_assert_str_eq(last()->name, "reduce_rows_sum_f32_lanes8x4");
		ck_assert_int_eq(kgen_reduce_axis(k, 0x10000004ull, 1, 32, 33, 0x800000000ull, 0, 0, NULL, &err), KGEN_OK);
		ck_assert_str_eq(last()->name, "reduce_rows_sum_f32_lanes4");  /* one row, off the boundary */
		ck_assert_int_eq(kgen_reduce_axis_scratch_size(k, 5000, 32, &bytes, &err), KGEN_OK);
		ck_assert_uint_eq(bytes, 0);
	}
}
END_TEST

/* strategy: auto on columns: one column of pitch 1 is one run of elements,
 * launched as one row through _block (the fake GPU's 264 blocks at once:
 * split = 1000003 / (512 * 4 * 4) = 122, parts of four vectors a thread);
 * a pitch above 1 keeps the tile kernel (244 parts of eight rows a
 * thread), and kgen_reduce_axis_scratch_size() covers either. */
START_TEST(a_packed_column_is_reduced_as_one_row)
{
	kgen_kernel *k = build("kernel: reduce_axis\naxis: cols\nthreads: 512\nload_width: 16\n");
	kgen_kernel *tile = build("kernel: reduce_axis\naxis: cols\nstrategy: tile\nthreads: 512\nload_width: 16\n");
	size_t bytes = 0;
	kgen_error err;

	ck_assert_int_eq(kgen_reduce_axis_scratch_size(k, 1000003, 1, &bytes, &err), KGEN_OK);
	ck_assert_uint_eq(bytes, 16 + 244 * 4);  /* the tile kernel's, the larger */
	*nparams = 8;
	ck_assert_msg(kgen_reduce_axis(k, 0x10000000ull, 1000003, 1, 1, 0x800000000ull, 0x900000000ull, bytes, NULL,
	                               &err) == KGEN_OK, "%s", err.message);
	ck_assert_str_eq(last()->name, "reduce_cols_sum_f32_block");
	ck_assert_uint_eq(last()->grid[0], 122);
	/* in, out, then one row of 1000003 elements: rows 1, cols and pitch 1000003, split 122 */
	ck_assert_uint_eq(last()->args[0], 0x10000000ull);
	ck_assert_uint_eq(last()->args[1], 0x800000000ull);
	ck_assert_uint_eq(last()->args[2], 1);
	ck_assert_uint_eq(last()->args[3], 1000003);
	ck_assert_uint_eq(last()->args[4], 1000003);
	ck_assert_uint_eq((unsigned)last()->args[5], 122);
	ck_assert_uint_eq(last()->args[6], 0x900000000ull + 16);  /* partials, after the ticket */
	ck_assert_uint_eq(last()->args[7], 0x900000000ull);        /* tickets */
	*nparams = 0;
	/* Taller: the run's parts (eight waves, 8 * 264) pass the tile's (264),
	 * and the scratch asked for is the run's. */
	ck_assert_int_eq(kgen_reduce_axis_scratch_size(k, 100000000, 1, &bytes, &err), KGEN_OK);
	ck_assert_uint_eq(bytes, 16 + 2112 * 4);
	ck_assert_msg(kgen_reduce_axis(k, 0x10000000ull, 100000000, 1, 1, 0x800000000ull, 0x900000000ull, bytes, NULL,
	                               &err) == KGEN_OK, "%s", err.message);
	ck_assert_str_eq(last()->name, "reduce_cols_sum_f32_block");
	ck_assert_uint_eq(last()->grid[0], 2112);
	ck_assert_int_eq(kgen_reduce_axis(k, 0x10000000ull, 100000000, 1, 1, 0x800000000ull, 0x900000000ull, bytes - 1,
	                                  NULL, &err), KGEN_EINVAL);
	ck_assert_str_eq(err.message, "scratch of 8463 bytes is too small: 8464 needed for a 100000000 x 1 matrix");
	ck_assert_int_eq(kgen_reduce_axis_scratch_size(k, 1000003, 1, &bytes, &err), KGEN_OK);
	ck_assert_msg(kgen_reduce_axis(k, 0x10000000ull, 1000003, 1, 2, 0x800000000ull, 0x900000000ull, bytes, NULL,
	                               &err) == KGEN_OK, "%s", err.message);
	ck_assert_str_eq(last()->name, "reduce_cols_sum_f32");
	ck_assert_uint_eq(last()->grid[0], 244);
	/* Two columns, and strategy: tile, take the tile kernel. */
	ck_assert_int_eq(kgen_reduce_axis(k, 0x10000000ull, 1000003, 2, 2, 0x800000000ull, 0, 0, NULL, &err), KGEN_OK);
	ck_assert_str_eq(last()->name, "reduce_cols_sum_f32");
	ck_assert_int_eq(kgen_reduce_axis(tile, 0x10000000ull, 1000003, 1, 1, 0x800000000ull, 0, 0, NULL, &err), KGEN_OK);
	ck_assert_str_eq(last()->name, "reduce_cols_sum_f32");
	ck_assert_uint_eq(last()->grid[0], 244);
}
END_TEST

/* The tile kernel's column tiles narrow below a warp, to 8 lanes (128
 * bytes of a row), while a tile's last block would combine more than one
 * part a thread, the narrower tiles are whole and one wave holds them (the
 * fake GPU: 264 blocks at once). */
START_TEST(tall_columns_take_narrow_tiles)
{
	static const struct {
		unsigned long long rows, cols;
		unsigned lanes, tiles, split;
	} cases[] = {
		{ 1048576, 256, 8, 8, 33 },    /* 32 lanes: 2 tiles of 132 parts, 16 row groups */
		{ 4194304, 64, 8, 2, 132 },
		{ 2097152, 128, 8, 4, 66 },
		{ 2000000, 100, 32, 1, 264 },  /* 16 lanes: tiles of 64 columns, the second ragged */
		{ 16384, 16384, 32, 128, 2 },  /* 2 parts for 16 row groups */
		{ 1000, 256, 32, 2, 7 },       /* parts of eight rows a thread */
	};
	kgen_kernel *k = build("kernel: reduce_axis\naxis: cols\nthreads: 512\nload_width: 16\n");
	kgen_error err;
	size_t i;

	*nparams = 11;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const struct fake_launch *x;
		ck_assert_msg(kgen_reduce_axis(k, 0x10000000ull, cases[i].rows, cases[i].cols, cases[i].cols, 0x800000000ull, 0,
		                               0, NULL, &err) == KGEN_OK, "%s", err.message);
		x = last();
		ck_assert_msg((unsigned)x->args[5] == cases[i].lanes && (unsigned)x->args[6] == cases[i].tiles &&
		              (unsigned)x->args[7] == cases[i].split && x->grid[0] == cases[i].tiles * cases[i].split,
		              "%llux%llu: lanes %u, tiles %u, split %u, grid %u; expected %u, %u, %u", cases[i].rows,
		              cases[i].cols, (unsigned)x->args[5], (unsigned)x->args[6], (unsigned)x->args[7], x->grid[0],
		              cases[i].lanes, cases[i].tiles, cases[i].split);
	}
	*nparams = 0;
}
END_TEST

/* R4-4: every launcher refuses an output inside its input, or outputs that
 * share memory, through one check (runtime/launch.c) that names both
 * ranges; with stages: atomic the identity would overwrite an input element
 * before it is read.  Inputs alone may share memory (they are only read). */
START_TEST(reductions_refuse_overlapping_outputs)
{
	kgen_kernel *atomic = build("kernel: reduce\nstages: atomic\n");
	kgen_kernel *arg = build("kernel: reduce\nop: argmax\nstages: two_pass\n");
	kgen_kernel *rows = build("kernel: reduce_axis\naxis: rows\n");
	kgen_kernel *cols = build("kernel: reduce_axis\naxis: cols\nop: argmin\n");
	unsigned long long a[KGEN_PACKED_COUNT] = { 0 };
	unsigned char *scratch;
	kgen_error err;
	size_t bytes;

	ck_assert_int_eq(kgen_reduce(atomic, 0x10000000ull, 1000, 0x10000f9cull, 0, 0, NULL, &err), KGEN_EINVAL);
	ck_assert_str_eq(err.message, "kgen_reduce: out [0x10000f9c, +4 bytes) overlaps in [0x10000000, +4000 bytes): out "
	                 "must have memory of its own");
	ck_assert_int_eq(kgen_reduce(atomic, 0x10000000ull, 1000, 0x10000fa0ull, 0, 0, NULL, &err), KGEN_OK);
	ck_assert_int_eq(kgen_reduce(atomic, 0x10000004ull, 1000, 0x10000000ull, 0, 0, NULL, &err), KGEN_OK);
	ck_assert_int_eq(kgen_reduce(atomic, 0x10000000ull, 0, 0x10000000ull, 0, 0, NULL, &err), KGEN_OK);  /* n = 0 reads nothing */
	ck_assert_int_eq(kgen_reduce_arg(arg, 0x10000000ull, 1000, 0x20000000ull, 0x10000010ull, 0, 0, NULL, &err),
	                 KGEN_EINVAL);
	ck_assert_str_eq(err.message, "kgen_reduce_arg: index [0x10000010, +8 bytes) overlaps in [0x10000000, +4000 bytes): "
	                 "index must have memory of its own");
	ck_assert_int_eq(kgen_reduce_arg(arg, 0x10000000ull, 1000, 0x20000004ull, 0x20000000ull, 0, 0, NULL, &err),
	                 KGEN_EINVAL);
	ck_assert_str_eq(err.message, "kgen_reduce_arg: value [0x20000004, +4 bytes) overlaps index [0x20000000, +8 bytes): "
	                 "value must have memory of its own");
	ck_assert_int_eq(kgen_reduce_scratch_size(arg, 1000, &bytes, &err), KGEN_OK);
	ck_assert_uint_gt(bytes, 0);
	ck_assert_int_eq(kgen_reduce_arg(arg, 0x10000000ull, 1000, 0x20000000ull, 0x20000008ull, 0x10000100ull, bytes, NULL,
	                                 &err), KGEN_EINVAL);
	ck_assert_ptr_nonnull(strstr(err.message, "kgen_reduce_arg: scratch [0x10000100, "));
	ck_assert_ptr_nonnull(strstr(err.message, "overlaps in [0x10000000, +4000 bytes)"));
	/* The packed entry (Python's fast path) goes through the same check. */
	a[KGEN_PACKED_KERNEL] = (unsigned long long)(uintptr_t)atomic;
	a[KGEN_PACKED_ERROR] = (unsigned long long)(uintptr_t)&err;
	a[KGEN_PACKED_IN] = 0x10000000ull;
	a[KGEN_PACKED_N] = 1000;
	a[KGEN_PACKED_OUT] = 0x10000200ull;
	ck_assert_int_eq(kgen_reduce_packed(a), KGEN_EINVAL);
	ck_assert_ptr_nonnull(strstr(err.message, "kgen_reduce: out [0x10000200, +4 bytes) overlaps in"));
	/* Rows: 100 x 50 f32 at pitch 64; the last row ends at element 99 * 64 + 50. */
	ck_assert_int_eq(kgen_reduce_axis(rows, 0x10000000ull, 100, 50, 64, 0x10000000ull + (99 * 64 + 49) * 4, 0, 0, NULL,
	                                  &err), KGEN_EINVAL);
	ck_assert_str_eq(err.message, "kgen_reduce_axis: out [0x100063c4, +400 bytes) overlaps in [0x10000000, +25544 bytes): "
	                 "out must have memory of its own");
	ck_assert_int_eq(kgen_reduce_axis(rows, 0x10000000ull, 100, 50, 64, 0x10000000ull + 99 * 64 * 4 + 50 * 4, 0, 0,
	                                  NULL, &err), KGEN_OK);
	ck_assert_int_eq(kgen_reduce_axis_arg(cols, 0x10000000ull, 100, 50, 64, 0x20000000ull, 0x20000000ull + 48 * 4, 0, 0,
	                                      NULL, &err), KGEN_EINVAL);
	ck_assert_str_eq(err.message, "kgen_reduce_axis_arg: out [0x20000000, +200 bytes) overlaps index [0x200000c0, +400 "
	                 "bytes): out must have memory of its own");
	ck_assert_int_eq(kgen_reduce_axis_scratch_size(cols, 100000, 50, &bytes, &err), KGEN_OK);
	ck_assert_uint_gt(bytes, 0);
	/* The caller's scratch (the fake's device memory is the host's: the
	 * launch zeroes its tickets) over the matrix, then apart from it. */
	scratch = aligned_alloc(256, (bytes + 255) / 256 * 256);
	ck_assert_int_eq(kgen_reduce_axis_arg(cols, (kgen_devptr)(uintptr_t)scratch, 100000, 50, 50, 0x20000000ull,
	                                      0x30000000ull, (kgen_devptr)(uintptr_t)scratch, bytes, NULL, &err),
	                 KGEN_EINVAL);
	ck_assert_ptr_nonnull(strstr(err.message, "kgen_reduce_axis_arg: scratch ["));
	ck_assert_msg(kgen_reduce_axis_arg(cols, 0x10000000ull, 100000, 50, 50, 0x20000000ull, 0x30000000ull,
	                                   (kgen_devptr)(uintptr_t)scratch, bytes, NULL, &err) == KGEN_OK,
	              "a scratch apart from in, out and index: %s", err.message);
	free(scratch);
}
END_TEST

/* kgen_matmul's overlaps through the shared check: C inside A or B, the
 * caller's scratch over an operand; A and B may share memory (only read). */
START_TEST(matmul_refuses_overlaps)
{
	kgen_kernel *k = build("kernel: matmul\nstaging: smem\ntile_m: 64\ntile_n: 128\ntile_k: 16\nwarp_m: 32\n"
	                       "warp_n: 64\nthread_m: 8\nthread_n: 8\nload_width: 16\nstages: 3\nschedule: stream_k\n");
	unsigned char *scratch;
	kgen_error err;
	size_t bytes;

	/* 256 x 256 x 256 f32: each operand 262144 bytes. */
	ck_assert_int_eq(kgen_matmul(k, 0x10000000ull, 0x20000000ull, 0x10000000ull + 262140, 256, 256, 256, 0, 0, 0, 1.0,
	                             0.0, 0, 0, NULL, &err), KGEN_EINVAL);
	ck_assert_str_eq(err.message, "kgen_matmul: c [0x1003fffc, +262144 bytes) overlaps a [0x10000000, +262144 bytes): c "
	                 "must have memory of its own");
	ck_assert_int_eq(kgen_matmul(k, 0x10000000ull, 0x20000000ull, 0x20000000ull, 256, 256, 256, 0, 0, 0, 1.0, 0.0, 0, 0,
	                             NULL, &err), KGEN_EINVAL);
	ck_assert_ptr_nonnull(strstr(err.message, "kgen_matmul: c [0x20000000, +262144 bytes) overlaps b "));
	ck_assert_int_eq(kgen_matmul(k, 0x10000000ull, 0x10000000ull, 0x20000000ull, 256, 256, 256, 0, 0, 0, 1.0, 0.0, 0, 0,
	                             NULL, &err), KGEN_OK);  /* A and B one buffer: both only read */
	ck_assert_int_eq(kgen_matmul(k, 0x10000000ull, 0x20000000ull, 0x10000000ull, 7, 5, 0, 0, 0, 0, 1.0, 0.0, 0, 0, NULL,
	                             &err), KGEN_OK);  /* k = 0 reads neither A nor B */
	ck_assert_int_eq(kgen_matmul_scratch_size(k, 4096, 4096, 4096, &bytes, &err), KGEN_OK);
	ck_assert_uint_gt(bytes, 0);
	scratch = aligned_alloc(256, (bytes + 255) / 256 * 256);
	ck_assert_int_eq(kgen_matmul(k, (kgen_devptr)(uintptr_t)scratch + 4096, 0x20000000ull, 0x30000000ull, 4096, 4096,
	                             4096, 0, 0, 0, 1.0, 0.0, (kgen_devptr)(uintptr_t)scratch, bytes, NULL, &err),
	                 KGEN_EINVAL);
	ck_assert_ptr_nonnull(strstr(err.message, "kgen_matmul: scratch ["));
	ck_assert_ptr_nonnull(strstr(err.message, "overlaps a ["));
	ck_assert_msg(kgen_matmul(k, 0x10000000ull, 0x20000000ull, 0x30000000ull, 4096, 4096, 4096, 0, 0, 0, 1.0, 0.0,
	                          (kgen_devptr)(uintptr_t)scratch, bytes, NULL, &err) == KGEN_OK,
	              "a scratch apart from A, B and C: %s", err.message);  /* no false refusal */
	free(scratch);
}
END_TEST

/* Any element-aligned input is taken (the kernel peels the unaligned head);
 * a pointer inside an element is refused, naming the element type. */
START_TEST(reduce_takes_any_element_aligned_input)
{
	kgen_kernel *k = build("kernel: reduce\nload_width: 16\n");
	kgen_error err;
	int n0 = *nlaunches;

	ck_assert_int_eq(kgen_reduce(k, 0x10000004ull, 1000, 0x20000000ull, 0, 0, NULL, &err), KGEN_OK);
	ck_assert_int_eq(*nlaunches, n0 + 2);
	ck_assert_int_eq(kgen_reduce(k, 0x1000000cull, 1000, 0x20000000ull, 0, 0, NULL, &err), KGEN_OK);
	ck_assert_int_eq(kgen_reduce(k, 0x10000002ull, 1000, 0x20000000ull, 0, 0, NULL, &err), KGEN_EINVAL);
	ck_assert_str_eq(err.message, "in (0x10000002) is not aligned to its 4-byte f32 elements");
}
END_TEST

/* A driver failure is KGEN_ECUDA with the driver's words, never a crash. */
START_TEST(driver_failures_are_reported)
{
	kgen_kernel *k = build("kernel: reduce\nstages: two_pass\nthreads: 128\n");
	kgen_error err;

	setenv("FAKE_CUDA_FAIL", "cuMemAlloc", 1);
	ck_assert_int_eq(kgen_reduce(k, 0x10000000ull, 1u << 20, 0x20000000ull, 0, 0, NULL, &err), KGEN_ECUDA);
	ck_assert_str_eq(err.message, "cuMemAlloc(): CUDA_ERROR_OUT_OF_MEMORY: out of memory (fake)");
	setenv("FAKE_CUDA_FAIL", "cuLaunchKernel", 1);
	ck_assert_int_eq(kgen_transpose(build("kernel: transpose\n"), 0x10000000ull, 0x20000000ull, 64, 64, NULL, &err),
	                 KGEN_ECUDA);
	ck_assert_str_eq(err.message, "cuLaunchKernel(): CUDA_ERROR_OUT_OF_MEMORY: out of memory (fake)");
	setenv("FAKE_CUDA_FAIL", "cuModuleLoadData", 1);
	ck_assert_int_eq(kgen_kernel_build_yaml(ctx, "kernel: reduce\nop: max\n", &k, &err), KGEN_ECUDA);
	ck_assert_msg(strstr(err.message, "cuModuleLoadData") != NULL, "%s", err.message);
}
END_TEST

/* Every call leaves the caller's current context as it found it. */
START_TEST(the_callers_context_stays_current)
{
	void *fake = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
	int (*set)(void *) = (int (*)(void *))dlsym(fake, "cuCtxSetCurrent");
	int (*get)(void **) = (int (*)(void **))dlsym(fake, "cuCtxGetCurrent");
	static int theirs;
	kgen_context *other;
	kgen_kernel *k;
	kgen_error err;
	void *cur = NULL;

	ck_assert(set && get);
	set(&theirs);
	ck_assert_int_eq(kgen_context_create(0, &other, &err), KGEN_OK);
	get(&cur);
	ck_assert_ptr_eq(cur, &theirs);
	k = build("kernel: transpose\norder: cols\n");
	get(&cur);
	ck_assert_ptr_eq(cur, &theirs);
	ck_assert_int_eq(kgen_transpose(k, 0x10000000ull, 0x20000000ull, 64, 64, NULL, &err), KGEN_OK);
	get(&cur);
	ck_assert_ptr_eq(cur, &theirs);
	k = build("kernel: reduce\n");
	ck_assert_int_eq(kgen_reduce(k, 0x10000000ull, 1000, 0x20000000ull, 0, 0, NULL, &err), KGEN_OK);
	get(&cur);
	ck_assert_ptr_eq(cur, &theirs);
	k = build("kernel: reduce_axis\naxis: cols\n");
	ck_assert_int_eq(kgen_reduce_axis(k, 0x10000000ull, 100, 100, 100, 0x20000000ull, 0, 0, NULL, &err), KGEN_OK);
	get(&cur);
	ck_assert_ptr_eq(cur, &theirs);
	/* A first call that allocates the kernel's own scratch (a column sum split
	 * over blocks; a stream-K matmul) does so in kgen's context, not the
	 * caller's: the fake, as the driver, refuses an allocation without it. */
	k = build("kernel: reduce_axis\naxis: cols\nname: own_scratch_cols\n");
	ck_assert_msg(kgen_reduce_axis(k, 0x10000000ull, 1 << 20, 64, 64, 0x20000000ull, 0, 0, NULL, &err) == KGEN_OK, "%s",
	              err.message);
	get(&cur);
	ck_assert_ptr_eq(cur, &theirs);
	k = build("kernel: matmul\nstaging: smem\nthread_m: 8\nthread_n: 8\nschedule: stream_k\nname: own_scratch_mm\n");
	ck_assert_msg(kgen_matmul(k, 0x10000000ull, 0x20000000ull, 0x30000000ull, 1000, 1000, 1000, 0, 0, 0, 1.0, 0.0, 0, 0,
	                          NULL, &err) == KGEN_OK, "%s", err.message);
	get(&cur);
	ck_assert_ptr_eq(cur, &theirs);
	kgen_context_destroy(other);  /* its context released, the caller's current still */
	get(&cur);
	ck_assert_ptr_eq(cur, &theirs);
	set(NULL);
}
END_TEST

/* The C API's checks a caller meets first: each error names the function
 * called, an argument that cannot be right is KGEN_EINVAL, and a pitch of
 * 0 is a packed matrix's, as in every other call. */
START_TEST(api_errors_name_the_function_called)
{
	kgen_kernel *k = build("kernel: reduce\ndtype: f64\nstages: two_pass\n"), *kk = NULL;
	kgen_error err;
	size_t bytes;

	ck_assert_int_eq(kgen_reduce_scratch_size(k, 1 << 20, &bytes, &err), KGEN_OK);
	ck_assert_int_eq(kgen_reduce(k, 0x10000000ull, 1 << 20, 0x20000000ull, 0x30000004ull, bytes + 16, NULL, &err),
	                 KGEN_EINVAL);
	ck_assert_str_eq(err.message, "scratch (0x30000004) is not aligned to 16 bytes");
	ck_assert_int_eq(kgen_reduce(k, 0x10000000ull, ~0ull, 0x20000000ull, 0, 0, NULL, &err), KGEN_EINVAL);
	ck_assert_ptr_null(strstr(err.message, "use index: 64"));  /* it is index: 64 */
	ck_assert_int_eq(kgen_scan_scratch_size(k, 100, &bytes, &err), KGEN_EINVAL);
	ck_assert_ptr_nonnull(strstr(err.message, "kgen_scan_scratch_size"));
	ck_assert_int_eq(kgen_matmul_with(k, 0x10000000ull, 0x20000000ull, 0x30000000ull, 8, 8, 8, 0, 0, 0, 1.0, 0.0, NULL,
	                                  0, 0, NULL, &err), KGEN_EINVAL);
	ck_assert_ptr_nonnull(strstr(err.message, "kgen_matmul_with"));
	k = build("kernel: matmul\n");
	{
		struct kgen_matmul_operands ops = { .bias = 0x40000000ull };
		ck_assert_int_eq(kgen_matmul_with(k, 0x10000000ull, 0x20000000ull, 0x30000000ull, 8, 8, 8, 0, 0, 0, 1.0, 0.0,
		                                  &ops, 0, 0, NULL, &err), KGEN_EINVAL);
		ck_assert_str_eq(err.message, "kgen_matmul_with: a bias is given but the spec declares none (bias: col or row)");
	}
	ck_assert_int_eq(kgen_kernel_build_yaml(NULL, "kernel: reduce\n", &kk, &err), KGEN_EINVAL);
	ck_assert_str_eq(err.message, "kgen_kernel_build_yaml: NULL argument");
	ck_assert_ptr_null(kgen_multi_kernel_spec(NULL));
	k = build("kernel: reduce_axis\naxis: rows\n");
	ck_assert_msg(kgen_reduce_axis(k, 0x10000000ull, 10, 200, 0, 0x20000000ull, 0, 0, NULL, &err) == KGEN_OK, "%s",
	              err.message);
	{
		kgen_context *none = NULL;
		ck_assert_int_eq(kgen_context_create(-1, &none, &err), KGEN_EINVAL);
		ck_assert_ptr_null(none);
	}
}
END_TEST

/* ---- kgen_time_calls ---- */

/* What a timed function saw: its calls, those made while the fake driver
 * was capturing, the stream of the first and whether any other differed;
 * it fails at call fail_at (counted from 1; 0: never). */
struct seen {
	int calls, captured, mixed, fail_at;
	CUstream stream;
};

static kgen_status
timed(void *arg, int i, CUstream stream, kgen_error *err)
{
	struct seen *s = arg;

	(void)i;
	if (s->calls++ == 0)
		s->stream = stream;
	else if (stream != s->stream)
		s->mixed = 1;
	s->captured += *(CUstream *)fake_var("fake_cuda_capturing") != NULL;
	if (s->calls == s->fail_at)
		return kgen_fail(err, KGEN_ECUDA, "call %d failed", s->calls);
	return KGEN_OK;
}

/* The fake's live events, streams, graphs, executable graphs and allocations. */
struct live {
	int n[5];
};

static struct live
live_now(void)
{
	static const char *const names[] = {
		"fake_cuda_events", "fake_cuda_streams", "fake_cuda_graphs", "fake_cuda_execs", "fake_cuda_allocs",
	};
	struct live l;
	int i;

	for (i = 0; i < 5; i++)
		l.n[i] = *(int *)fake_var(names[i]);
	return l;
}

static void
assert_all_freed(struct live before)
{
	struct live after = live_now();
	int i;

	for (i = 0; i < 5; i++)
		ck_assert_int_eq(after.n[i], before.n[i]);
	ck_assert_ptr_null(*(CUstream *)fake_var("fake_cuda_capturing"));
}

/* Each method with 5 runs, the fake's samples 1, 1.25, ... 2 ms (at least
 * 0.2 ms: the batch stays at 5): the calls each makes, on which stream,
 * the graph's captures and replays, the cold flushes, times per call in
 * order, and nothing left behind. */
START_TEST(time_calls_with_each_method)
{
	static const struct {
		enum kgen_timing_method m;
		int calls, samples, batch, replays;
	} want[] = {
		{ KGEN_TIME_PER_CALL, 3 + 5, 5, 1, 0 },          /* warm-up, 5 samples of 1 */
		{ KGEN_TIME_EVENTS, 3 + 5 + 7 * 5, 7, 5, 0 },    /* warm-up, the batch tried, 7 samples of 5 */
		{ KGEN_TIME_GRAPH, 3 + 5 + 5, 7, 5, 1 + 7 },     /* warm-up, the batch tried, captured; 8 replays */
		{ KGEN_TIME_COLD, 3 + 5, 5, 1, 0 },
	};
	int *replays = fake_var("fake_cuda_graph_launches");
	unsigned long long *memset_bytes = fake_var("fake_cuda_memset_bytes");
	size_t i;

	*(float *)fake_var("fake_cuda_elapsed_step") = 0.25f;
	for (i = 0; i < sizeof want / sizeof want[0]; i++) {
		struct live before = live_now();
		struct seen s = { 0 };
		struct kgen_timing t;
		kgen_error err;
		int r0 = *replays;
		unsigned long long m0 = *memset_bytes;

		ck_assert_msg(kgen_time_calls(ctx, want[i].m, timed, &s, 5, &t, &err) == KGEN_OK, "%s", err.message);
		ck_assert_int_eq(s.calls, want[i].calls);
		ck_assert_int_eq(t.samples, want[i].samples);
		ck_assert_int_eq(t.batch, want[i].batch);
		ck_assert_int_eq(*replays - r0, want[i].replays);
		ck_assert_int_eq(s.mixed, 0);
		if (want[i].m == KGEN_TIME_GRAPH) {
			ck_assert_ptr_nonnull(s.stream);  /* a stream of its own: the default one cannot be captured */
			ck_assert_int_eq(s.captured, 5);
		} else {
			ck_assert_ptr_null(s.stream);
			ck_assert_int_eq(s.captured, 0);
		}
		ck_assert_uint_eq(*memset_bytes - m0, want[i].m == KGEN_TIME_COLD ? 5 * 2 * (60ull << 20) : 0);
		ck_assert(t.min_ms > 0 && t.min_ms < t.max_ms);
		ck_assert(t.min_ms <= t.median_ms && t.median_ms <= t.max_ms);
		ck_assert_float_eq_tol(t.min_ms, 1.0f / (float)t.batch, 1e-6f);
		ck_assert_float_eq_tol(t.max_ms, 2.0f / (float)t.batch, 1e-6f);
		assert_all_freed(before);
	}
}
END_TEST

/* Samples of 0.01 ms never reach 0.2 ms: the batch doubles from 5 to its
 * cap, 4096, and the time is per call. */
START_TEST(time_calls_batch_grows_to_its_cap)
{
	struct seen s = { 0 };
	struct kgen_timing t;
	kgen_error err;

	*(float *)fake_var("fake_cuda_elapsed_ms") = 0.01f;
	ck_assert_int_eq(kgen_time_calls(ctx, KGEN_TIME_EVENTS, timed, &s, 5, &t, &err), KGEN_OK);
	ck_assert_int_eq(t.batch, 4096);
	ck_assert_int_eq(s.calls, 3 + 5 * (1024 - 1) + 4096 + 7 * 4096);  /* 5, 10, ... 2560, then 4096 */
	ck_assert_float_eq_tol(t.median_ms, 0.01f / 4096, 1e-9f);
}
END_TEST

/* A failed call or driver call ends the timing with its error, a capture
 * under way is ended, and everything made is freed. */
START_TEST(time_calls_failures_free_everything)
{
	struct live before = live_now();
	struct seen s = { .fail_at = 3 + 5 + 2 };  /* the second call captured */
	struct kgen_timing t;
	kgen_error err;

	ck_assert_int_eq(kgen_time_calls(ctx, KGEN_TIME_GRAPH, timed, &s, 5, &t, &err), KGEN_ECUDA);
	ck_assert_str_eq(err.message, "call 10 failed");
	assert_all_freed(before);
	memset(&s, 0, sizeof s);
	setenv("FAKE_CUDA_FAIL", "cuGraphInstantiateWithFlags", 1);
	ck_assert_int_eq(kgen_time_calls(ctx, KGEN_TIME_GRAPH, timed, &s, 5, &t, &err), KGEN_ECUDA);
	ck_assert_str_eq(err.message, "cuGraphInstantiateWithFlags(): CUDA_ERROR_OUT_OF_MEMORY: out of memory (fake)");
	assert_all_freed(before);
	setenv("FAKE_CUDA_FAIL", "cuMemAlloc", 1);
	ck_assert_int_eq(kgen_time_calls(ctx, KGEN_TIME_COLD, timed, &s, 5, &t, &err), KGEN_ECUDA);
	assert_all_freed(before);
	unsetenv("FAKE_CUDA_FAIL");
	ck_assert_int_eq(kgen_time_calls(ctx, KGEN_TIME_EVENTS, timed, &s, 0, &t, &err), KGEN_EINVAL);
	ck_assert_int_eq(kgen_time_calls(ctx, KGEN_TIME_COUNT, timed, &s, 5, &t, &err), KGEN_EINVAL);
}
END_TEST

/* kgen_reduce in a graph: the warm-up allocates the two-pass kernel's
 * scratch before the capture (the fake, like the driver, refuses cuMemAlloc
 * in one), and every launch goes to the capture stream. */
struct reduce_timed {
	kgen_kernel *k;
	kgen_devptr out;
};

static kgen_status
reduce_timed(void *arg, int i, CUstream stream, kgen_error *err)
{
	struct reduce_timed *c = arg;

	(void)i;
	return kgen_reduce(c->k, 0x10000000ull, 1u << 20, c->out, 0, 0, (kgen_stream)stream, err);
}

START_TEST(time_calls_captures_kgen_reduce)
{
	float *out = aligned_alloc(16, 16);
	struct reduce_timed c = { build("kernel: reduce\nstages: two_pass\nthreads: 256\n"), (kgen_devptr)(uintptr_t)out };
	struct kgen_timing t;
	kgen_error err;
	int i, n0 = *nlaunches;

	ck_assert_msg(kgen_time_calls(ctx, KGEN_TIME_GRAPH, reduce_timed, &c, 4, &t, &err) == KGEN_OK, "%s", err.message);
	ck_assert_int_eq(*nlaunches - n0, 2 * (3 + 4 + 4));  /* two kernels a call: warm-up, the batch tried, captured */
	ck_assert_ptr_nonnull(launches[n0 % 256].stream);
	for (i = n0; i < *nlaunches; i++)
		ck_assert_ptr_eq(launches[i % 256].stream, launches[n0 % 256].stream);
	free(out);
}
END_TEST

/* The warm-up copies until the events add to 0.2 s, once per process: at
 * 10 ms a sample, two rounds of 3 + 16 copies; then nothing, and nothing
 * left allocated. */
START_TEST(gpu_warm_once_copies_once)
{
	int *copies = fake_var("fake_cuda_copies");
	struct live before = live_now();
	kgen_error err;
	int c0 = *copies;

	*(float *)fake_var("fake_cuda_elapsed_ms") = 10.0f;
	ck_assert_msg(kgen_gpu_warm_once(ctx, &err) == KGEN_OK, "%s", err.message);
	ck_assert_int_eq(*copies - c0, 2 * (3 + 16));
	ck_assert_int_eq(kgen_gpu_warm_once(ctx, &err), KGEN_OK);
	ck_assert_int_eq(*copies - c0, 2 * (3 + 16));
	assert_all_freed(before);
}
END_TEST

static Suite *
fake_suite(void)
{
	Suite *s = suite_create("fake driver");
	TCase *tc = tcase_create("runtime");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);  /* NVRTC compiles each kernel once */
	tcase_add_test(tc, context_reads_the_device);
	tcase_add_test(tc, reductions_refuse_overlapping_outputs);
	tcase_add_test(tc, matmul_refuses_overlaps);
	tcase_add_test(tc, transpose_batch_geometry_and_arguments);
	tcase_add_test(tc, tma_maps_are_encoded_once);
#ifdef KGEN_TEST_ALIGNED_ALLOC
	tcase_add_test(tc, a_launch_state_out_of_memory_fails_and_unlocks);
#endif
	tcase_add_test(tc, wgmma_encodes_maps_and_launches);
	tcase_add_test(tc, wgmma_split_k_launches_clusters);
	tcase_add_test(tc, wgmma_split_reduce_kernel_launches_slices);
	tcase_add_test(tc, wgmma_a_box_of_few_rows);
	tcase_add_test(tc, matmul_operands_are_checked);
	tcase_add_test(tc, fp8_maps_and_scales);
	tcase_add_test(tc, matmul_reductions_start_at_identities);
	tcase_add_test(tc, pingpong_boxes_whole_tiles);
	tcase_add_test(tc, wgmma_store_tma_passes_c_map);
	tcase_add_test(tc, wgmma_variants_build_at_their_first_launch);
	tcase_add_test(tc, mma_tma_launch);
	tcase_add_test(tc, stream_k_divides_the_launch);
	tcase_add_test(tc, a_refused_cache_directory_is_reported);
	tcase_add_test(tc, the_same_text_finds_its_kernel);
	tcase_add_test(tc, build_times_say_where_a_build_went);
	tcase_add_test(tc, prepare_takes_any_kernel);
	tcase_add_test(tc, a_scan_launches_a_block_a_tile);
	tcase_add_test(tc, a_row_scan_launches_a_row_of_tiles_a_grid_row);
	tcase_add_test(tc, a_column_scan_launches_tiles_of_rows_by_bands);
	tcase_add_test(tc, a_ring_column_scan_launches_resident_blocks_a_band);
	tcase_add_test(tc, a_spec_of_several_kernels_compiles_them_apart);
	tcase_add_test(tc, a_plans_build_times_sum_its_entries);
	tcase_add_test(tc, a_plans_entries_build_in_parallel_each_in_its_place);
	tcase_add_test(tc, a_plan_with_a_failing_entry_reports_it);
	tcase_add_test(tc, blocks_per_sm_is_the_drivers_occupancy);
	tcase_add_test(tc, two_pass_reduce_launches_both_kernels);
	tcase_add_test(tc, two_pass_kernels_compile_side_by_side);
	tcase_add_test(tc, packed_call_dispatches_by_family_and_index);
	tcase_add_test(tc, pdl_launches_the_second_kernel_dependent);
	tcase_add_test(tc, lanes_kernels_take_a_block_a_tile_of_32_kib_rows);
	tcase_add_test(tc, a_packed_column_is_reduced_as_one_row);
	tcase_add_test(tc, tall_columns_take_narrow_tiles);
	tcase_add_test(tc, reduce_takes_any_element_aligned_input);
	tcase_add_test(tc, driver_failures_are_reported);
	tcase_add_test(tc, the_callers_context_stays_current);
	tcase_add_test(tc, api_errors_name_the_function_called);
	tcase_add_test(tc, time_calls_with_each_method);
	tcase_add_test(tc, time_calls_batch_grows_to_its_cap);
	tcase_add_test(tc, time_calls_failures_free_everything);
	tcase_add_test(tc, time_calls_captures_kgen_reduce);
	tcase_add_test(tc, gpu_warm_once_copies_once);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(fake_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
