/*
 * toy_launch_test.c - the toy family `kernel: scale` (tests/toy/) through
 * the runtime and the C API, against the fake CUDA driver
 * (tests/fake_cuda; tests/toy_test.sh puts it first on LD_LIBRARY_PATH):
 * kgen_kernel_build() builds its kernel through the launcher table's row
 * (tests/toy/scale_launch.c), kgen_scale() launches it on the grid its
 * header comment states with the caller's arguments, and the family
 * checks of the shared runtime (kgen_kernel_expect) hold both ways.
 * Kernels do not run there; what reaches the driver is checked.
 */
#include "config.h"
#include <check.h>
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include "kgen.h"
#include "kgen_scale.h"
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
	ck_assert_msg(launches && nlaunches && nparams, "libcuda.so.1 is not the fake: run tests/toy_test.sh");
	*nparams = 3;
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

/* One row: a spec, n, and the grid and block its header comment promises
 * (grid = ceil(n / (threads * stages))). */
static const struct geometry {
	const char *yaml;
	unsigned long long n;
	const char *name;
	unsigned grid, block;
} geometries[] = {
	{ "kernel: scale\n", 1000, "scale_f32", 2, 256 },                        /* 512 a block */
	{ "kernel: scale\nthreads: 128\nstages: 4\n", 1024, "scale_f32", 2, 128 },  /* exactly two blocks */
	{ "kernel: scale\nthreads: 128\nstages: 4\n", 1025, "scale_f32", 3, 128 },  /* one element more: a third */
	{ "kernel: scale\ndtype: i64\nthreads: 1024\nstages: 8\nfactor: -7\n", 1ull << 33, "scale_i64", 1u << 20, 1024 },
	{ "kernel: scale\ndtype: u32\nstages: 1\nname: times_three\n", 1, "times_three", 1, 256 },
};

/* Each row: one launch of the spec's kernel, its grid, block and the three arguments as given
 * (out 128 GiB above in: apart even for 2^33 i64 elements). */
START_TEST(launch_geometry_and_arguments)
{
	const struct geometry *g = &geometries[_i];
	kgen_kernel *k = build(g->yaml);
	const struct fake_launch *x;
	kgen_error err;
	int n0 = *nlaunches;

	ck_assert_msg(kgen_scale(k, 0x10000000ull, 0x2000000000ull, g->n, NULL, &err) == KGEN_OK, "%s", err.message);
	ck_assert_int_eq(*nlaunches, n0 + 1);
	x = &launches[n0 % 256];
	ck_assert_str_eq(x->name, g->name);
	ck_assert_uint_eq(x->grid[0], g->grid);
	ck_assert_uint_eq(x->grid[1], 1);
	ck_assert_uint_eq(x->block[0], g->block);
	ck_assert_uint_eq(x->smem, 0);
	ck_assert_uint_eq(x->args[0], 0x10000000ull);
	ck_assert_uint_eq(x->args[1], 0x2000000000ull);
	ck_assert_uint_eq(x->args[2], g->n);
}
END_TEST

/* The caller's stream, and nothing launched for n = 0. */
START_TEST(stream_and_empty_calls)
{
	kgen_kernel *k = build("kernel: scale\n");
	kgen_error err;
	int n0 = *nlaunches;

	ck_assert_int_eq(kgen_scale(k, 0, 0, 0, NULL, &err), KGEN_OK);
	ck_assert_int_eq(*nlaunches, n0);
	ck_assert_int_eq(kgen_scale(k, 0x1000, 0x1000, 10, (kgen_stream)0x5678, &err), KGEN_OK);  /* in place */
	ck_assert_int_eq(*nlaunches, n0 + 1);
	ck_assert_ptr_eq(launches[n0 % 256].stream, (void *)0x5678);
}
END_TEST

/* The same spec built twice is one kernel (the context's cache), and a
 * different factor another one. */
START_TEST(kernels_are_cached_by_spec)
{
	kgen_kernel *a = build("kernel: scale\nfactor: 5\n"), *b = build("factor: 5\nkernel: scale\n");
	kgen_kernel *c = build("kernel: scale\nfactor: 6\n");

	ck_assert_ptr_eq(a, b);
	ck_assert_ptr_ne(a, c);
	ck_assert_int_gt(kgen_kernel_blocks_per_sm(a), 0);
}
END_TEST

/* A size plan of the family (sized by n, so plans take it): each n
 * launches its entry's kernel, on that entry's grid. */
START_TEST(a_plan_launches_the_entry_for_n)
{
	static const char plan[] = "plan:\n"
	                           "  - upto: 1000\n    spec: {kernel: scale, dtype: i32, threads: 64, stages: 1}\n"
	                           "  - spec: {kernel: scale, dtype: i32}\n";
	kgen_plan *p = NULL;
	kgen_kernel *k = NULL;
	kgen_error err;
	int n0 = *nlaunches;

	ck_assert_msg(kgen_plan_load_string(plan, strlen(plan), "plan.yaml", &p, &err) == KGEN_OK, "%s", err.message);
	ck_assert_msg(kgen_kernel_build_plan(ctx, p, &k, &err) == KGEN_OK, "%s", err.message);
	kgen_plan_free(p);
	ck_assert_int_eq(kgen_scale(k, 0x1000, 0x2000, 1000, NULL, &err), KGEN_OK);
	ck_assert_int_eq(kgen_scale(k, 0x1000, 0x2000, 1001, NULL, &err), KGEN_OK);
	ck_assert_int_eq(*nlaunches, n0 + 2);
	ck_assert_uint_eq(launches[n0 % 256].grid[0], 16);      /* ceil(1000 / 64) */
	ck_assert_uint_eq(launches[n0 % 256].block[0], 64);
	ck_assert_uint_eq(launches[(n0 + 1) % 256].grid[0], 2);  /* ceil(1001 / 512) */
	ck_assert_uint_eq(launches[(n0 + 1) % 256].block[0], 256);
}
END_TEST

/* One row: a call that kgen_scale() or another family's call refuses, and its message. */
struct refused_call {
	const char *yaml;     /* the kernel's spec */
	int call;             /* 0: kgen_scale, 1: kgen_reduce */
	kgen_devptr in, out;
	unsigned long long n;
	const char *message;
};
static const struct refused_call refused[] = {
	{ NULL, 0, 0x1000, 0x2000, 10, "kgen_scale: NULL kernel" },
	{ "kernel: reduce\n", 0, 0x1000, 0x2000, 10, "kgen_scale: reduce_sum_f32 is a reduce kernel" },
	{ "kernel: scale\n", 1, 0x1000, 0x2000, 10, "kgen_reduce: scale_f32 is a scale kernel" },
	{ "kernel: scale\n", 0, 0, 0x2000, 10, "kgen_scale: in is NULL" },
	{ "kernel: scale\n", 0, 0x1000, 0, 10, "kgen_scale: out is NULL" },
	{ "kernel: scale\ndtype: f64\n", 0, 0x1000, 0x2004, 10,
	  "kgen_scale: out (0x2004) is not aligned to its 8-byte f64 elements" },
	{ "kernel: scale\ndtype: i32\n", 0, 0x1002, 0x2000, 10,
	  "kgen_scale: in (0x1002) is not aligned to its 4-byte i32 elements" },
	{ "kernel: scale\n", 0, 0x1000, 0x1010, 10,
	  "kgen_scale: out [0x1010, +40 bytes) overlaps in [0x1000, +40 bytes): out must have memory of its own" },
	{ "kernel: scale\nthreads: 32\nstages: 1\n", 0, 0x1000, 0x2000, 1ull << 40,
	  "kgen_scale: n = 1099511627776 needs 34359738368 blocks, more than a grid holds" },
};

/* Each row: KGEN_EINVAL with its message, nothing launched. */
START_TEST(refused_calls)
{
	const struct refused_call *r = &refused[_i];
	kgen_kernel *k = r->yaml ? build(r->yaml) : NULL;
	kgen_error err;
	int n0 = *nlaunches;
	kgen_status st = r->call ? kgen_reduce(k, r->in, r->n, r->out, 0, 0, NULL, &err)
	                         : kgen_scale(k, r->in, r->out, r->n, NULL, &err);

	ck_assert_int_eq(st, KGEN_EINVAL);
	ck_assert_str_eq(err.message, r->message);
	ck_assert_int_eq(*nlaunches, n0);
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("toy launch");
	TCase *tc = tcase_create("scale");

	tcase_set_timeout(tc, 120);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc, launch_geometry_and_arguments, 0, (int)(sizeof geometries / sizeof geometries[0]));
	tcase_add_test(tc, stream_and_empty_calls);
	tcase_add_test(tc, kernels_are_cached_by_spec);
	tcase_add_test(tc, a_plan_launches_the_entry_for_n);
	tcase_add_loop_test(tc, refused_calls, 0, (int)(sizeof refused / sizeof refused[0]));
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
