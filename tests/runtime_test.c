/* runtime_test.c - the running half of the public API where it must not
 * need a GPU: a clear error when there is no CUDA driver (never a crash),
 * KGEN_EINVAL for NULL arguments, and cleanup that accepts NULL.  Linked
 * with libkgen.la, so only exported symbols are used.  On a machine with a
 * driver the no-driver expectations are relaxed, not skipped: the calls
 * must still agree with one another. */
#include "config.h"
#include <check.h>
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include "kgen.h"

static const char yaml[] = "kernel: reduce\nop: sum\ndtype: f32\nstages: atomic\n";

/* Whether this process can load the CUDA driver at all. */
static int
have_driver(void)
{
	void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);

	if (!lib)
		return 0;
	dlclose(lib);
	return 1;
}

START_TEST(test_context_no_driver)
{
	kgen_context *ctx = (kgen_context *)&ctx;  /* must be set to NULL on failure */
	kgen_error err;
	kgen_status st;

	memset(&err, 0, sizeof err);
	st = kgen_context_create(0, &ctx, &err);
	if (st == KGEN_OK) {
		ck_assert_ptr_nonnull(ctx);
		kgen_context_destroy(ctx);
		return;
	}
	ck_assert_int_eq(st, KGEN_ECUDA);
	ck_assert_int_eq(err.status, KGEN_ECUDA);
	ck_assert_ptr_null(ctx);
	ck_assert_int_eq(err.line, 0);
	if (!have_driver()) {
		ck_assert_msg(strstr(err.message, "libcuda.so.1") != NULL, "message: %s", err.message);
		ck_assert_msg(strncmp(err.message, "no CUDA driver", 14) == 0, "message: %s", err.message);
	}
}
END_TEST

START_TEST(test_context_twice)
{
	kgen_context *a = NULL, *b = NULL;
	kgen_error e1, e2;
	kgen_status s1, s2;

	memset(&e1, 0, sizeof e1);
	memset(&e2, 0, sizeof e2);
	s1 = kgen_context_create(0, &a, &e1);
	s2 = kgen_context_create(0, &b, &e2);
	ck_assert_int_eq(s1, s2);
	if (s1 != KGEN_OK) {
		ck_assert_str_eq(e1.message, e2.message);
		ck_assert_ptr_null(a);
		ck_assert_ptr_null(b);
	}
	kgen_context_destroy(a);
	kgen_context_destroy(b);
}
END_TEST

START_TEST(test_context_bad_arguments)
{
	kgen_context *ctx = NULL;
	kgen_error err;

	ck_assert_int_eq(kgen_context_create(0, NULL, &err), KGEN_EINVAL);
	ck_assert_int_eq(err.status, KGEN_EINVAL);
	ck_assert_ptr_nonnull(strstr(err.message, "NULL"));
	ck_assert_int_eq(kgen_context_create(0, NULL, NULL), KGEN_EINVAL);
	/* No such GPU: no driver, or a device number out of range. */
	ck_assert_int_ne(kgen_context_create(-1, &ctx, &err), KGEN_OK);
	ck_assert_ptr_null(ctx);
	ck_assert_int_ne(kgen_context_create(1 << 20, &ctx, &err), KGEN_OK);
	ck_assert_ptr_null(ctx);
	kgen_context_destroy(NULL);  /* a no-op */
}
END_TEST

START_TEST(test_build_null)
{
	kgen_spec *spec = NULL;
	kgen_kernel *k = NULL;
	kgen_error err;

	ck_assert_int_eq(kgen_spec_load_string(yaml, strlen(yaml), "t", &spec, &err), KGEN_OK);
	ck_assert_int_eq(kgen_kernel_build(NULL, spec, &k, &err), KGEN_EINVAL);
	ck_assert_int_eq(err.status, KGEN_EINVAL);
	ck_assert_str_eq(err.message, "kgen_kernel_build: NULL argument");
	ck_assert_ptr_null(k);
	ck_assert_int_eq(kgen_kernel_build(NULL, NULL, &k, &err), KGEN_EINVAL);
	ck_assert_int_eq(kgen_kernel_build(NULL, spec, NULL, &err), KGEN_EINVAL);
	ck_assert_int_eq(kgen_kernel_build(NULL, spec, &k, NULL), KGEN_EINVAL);
	kgen_spec_free(spec);
}
END_TEST

/* The getters take NULL and give NULL or 0, not a crash. */
START_TEST(test_getters_take_null)
{
	kgen_spec *spec = NULL;
	kgen_error err;
	char buf[64];

	ck_assert_ptr_null(kgen_spec_source(NULL));
	ck_assert_ptr_null(kgen_spec_get(NULL, "threads", buf, sizeof buf));
	ck_assert_ptr_null(kgen_kernel_spec(NULL));
	ck_assert_int_eq(kgen_kernel_blocks_per_sm(NULL), 0);
	ck_assert_ptr_null(kgen_context_device_name(NULL));
	ck_assert_ptr_null(kgen_context_arch(NULL));
	ck_assert_int_eq(kgen_context_sm_count(NULL), 0);
	ck_assert_uint_eq(kgen_context_l2_bytes(NULL), 0);
	ck_assert_int_eq(kgen_spec_load_string(yaml, strlen(yaml), "t", &spec, &err), KGEN_OK);
	ck_assert_str_eq(kgen_spec_source(spec), "t");
	ck_assert_ptr_null(kgen_spec_get(spec, NULL, buf, sizeof buf));
	ck_assert_ptr_null(kgen_spec_get(spec, "threads", NULL, 8));
	ck_assert_ptr_nonnull(kgen_spec_get(spec, "threads", buf, sizeof buf));
	kgen_spec_free(spec);
}
END_TEST

START_TEST(test_build_yaml_null)
{
	kgen_kernel *k = NULL;
	kgen_error err;

	ck_assert_int_eq(kgen_kernel_build_yaml(NULL, NULL, &k, &err), KGEN_EINVAL);
	ck_assert_str_eq(err.message, "kgen_kernel_build_yaml: NULL argument");
	/* A good spec is loaded, then refused for the NULL context (and freed: ASan checks). */
	ck_assert_int_eq(kgen_kernel_build_yaml(NULL, yaml, &k, &err), KGEN_EINVAL);
	ck_assert_str_eq(err.message, "kgen_kernel_build_yaml: NULL argument");
	ck_assert_int_eq(kgen_kernel_build_yaml(NULL, yaml, NULL, NULL), KGEN_EINVAL);
	ck_assert_ptr_null(k);
}
END_TEST

START_TEST(test_build_yaml_bad_spec)
{
	kgen_kernel *k = NULL;
	kgen_error err;

	/* The spec is checked before the context is needed: a wrong spec is
	 * KGEN_ESPEC with its place, even without a GPU. */
	ck_assert_int_eq(kgen_kernel_build_yaml(NULL, "kernel: reduce\nthreads: 100\n", &k, &err), KGEN_ESPEC);
	ck_assert_str_eq(err.file, "<yaml>");
	ck_assert_int_eq(err.line, 2);
	ck_assert_int_eq(err.column, 10);
	ck_assert_ptr_null(k);
}
END_TEST

START_TEST(test_reduce_null)
{
	kgen_error err;

	ck_assert_int_eq(kgen_reduce(NULL, 0x1000, 10, 0x2000, 0, 0, NULL, &err), KGEN_EINVAL);
	ck_assert_int_eq(err.status, KGEN_EINVAL);
	ck_assert_str_eq(err.message, "kgen_reduce: NULL kernel");
	ck_assert_int_eq(kgen_reduce(NULL, 0, 0, 0, 0, 0, NULL, NULL), KGEN_EINVAL);
}
END_TEST

START_TEST(test_scratch_size_null)
{
	size_t bytes = 123;
	kgen_error err;

	ck_assert_int_eq(kgen_reduce_scratch_size(NULL, 1000, &bytes, &err), KGEN_EINVAL);
	ck_assert_str_eq(err.message, "kgen_reduce_scratch_size: NULL argument");
	ck_assert_uint_eq(bytes, 123);
	ck_assert_int_eq(kgen_reduce_scratch_size(NULL, 1000, NULL, NULL), KGEN_EINVAL);
}
END_TEST

START_TEST(test_transpose_null)
{
	kgen_transpose_layout l = { 2, 0, 0, 0, 0 };
	kgen_error err;

	ck_assert_int_eq(kgen_transpose_batched(NULL, 0x1000, 0x2000, 4, 4, &l, NULL, &err), KGEN_EINVAL);
	ck_assert_str_eq(err.message, "kgen_transpose: NULL kernel");
	ck_assert_int_eq(kgen_transpose(NULL, 0x1000, 0x2000, 4, 4, NULL, NULL), KGEN_EINVAL);
}
END_TEST

/* The layout errors of kgen_transpose_batched(), found before any launch
 * (addresses are never touched).  Needs a GPU to build the kernels: on a
 * machine without one only the NULL-kernel test above applies. */
START_TEST(test_transpose_layout_errors)
{
	kgen_context *ctx = NULL;
	kgen_kernel *smem = NULL, *tma = NULL, *i32 = NULL;
	kgen_transpose_layout l;
	kgen_error err;

	if (kgen_context_create(0, &ctx, &err) != KGEN_OK)
		return;
	ck_assert_int_eq(kgen_kernel_build_yaml(ctx, "kernel: transpose\n", &smem, &err), KGEN_OK);
	ck_assert_int_eq(kgen_kernel_build_yaml(ctx, "kernel: transpose\nmethod: tma\n", &tma, &err), KGEN_OK);
	ck_assert_int_eq(kgen_kernel_build_yaml(ctx, "kernel: transpose\nindex: 32\n", &i32, &err), KGEN_OK);
	/* A pitch shorter than a row. */
	l = (kgen_transpose_layout){ 1, 99, 0, 0, 0 };
	ck_assert_int_eq(kgen_transpose_batched(smem, 0x100000, 0x200000, 64, 100, &l, NULL, &err), KGEN_EINVAL);
	ck_assert_str_eq(err.message, "kgen_transpose: a pitch shorter than a row (in_pitch 99 < cols 100 or out_pitch 0 "
	                 "< rows 64)");
	/* Output matrices that overlap one another. */
	l = (kgen_transpose_layout){ 3, 0, 0, 0, 100 * 64 - 1 };
	ck_assert_int_eq(kgen_transpose_batched(smem, 0x100000, 0x200000, 64, 100, &l, NULL, &err), KGEN_EINVAL);
	ck_assert_str_eq(err.message, "kgen_transpose: out_stride 6399 is shorter than one output matrix (6400 "
	                 "elements): the outputs would overlap");
	/* The batch's input reaching into its output: 3 x 64 x 100 f32 is 76800 bytes. */
	l = (kgen_transpose_layout){ 3, 0, 0, 0, 0 };
	ck_assert_int_eq(kgen_transpose_batched(smem, 0x100000, 0x100000 + 76784, 64, 100, &l, NULL, &err), KGEN_EINVAL);
	ck_assert_str_eq(err.message, "kgen_transpose: out [0x112bf0, +76800 bytes) overlaps in [0x100000, +76800 bytes): "
	                 "out must have memory of its own");
	/* Sizes whose byte counts wrap. */
	l = (kgen_transpose_layout){ 1ull << 40, 0, 0, 0, 0 };
	ck_assert_int_eq(kgen_transpose_batched(smem, 0x100000, 0x200000, 1ull << 20, 1ull << 10, &l, NULL, &err),
	                 KGEN_EINVAL);
	ck_assert_msg(strstr(err.message, "too large") != NULL, "message: %s", err.message);
	/* TMA: pitches and strides in multiples of 16 bytes. */
	l = (kgen_transpose_layout){ 1, 66, 0, 0, 0 };
	ck_assert_int_eq(kgen_transpose_batched(tma, 0x100000, 0x200000, 64, 64, &l, NULL, &err), KGEN_EINVAL);
	ck_assert_str_eq(err.message, "method: tma needs row pitches of a multiple of 16 bytes in `in` and `out`: 66 and "
	                 "64 elements of f32 are 264 and 256 bytes; use method: smem");
	l = (kgen_transpose_layout){ 2, 0, 0, 64 * 64 + 2, 0 };
	ck_assert_int_eq(kgen_transpose_batched(tma, 0x100000, 0x200000, 64, 64, &l, NULL, &err), KGEN_EINVAL);
	ck_assert_str_eq(err.message, "method: tma needs matrix strides of a multiple of 16 bytes: 4098 and 4096 "
	                 "elements of f32 are not; use method: smem");
	/* 32-bit indices: the last element of the batch must be below 2^31. */
	l = (kgen_transpose_layout){ 3, 0, 0, 0, 0 };
	ck_assert_int_eq(kgen_transpose_batched(i32, 0x100000, 0x1000000000ull, 1ull << 15, 1ull << 15, &l, NULL, &err),
	                 KGEN_EINVAL);
	ck_assert_str_eq(err.message, "32768 x 32768 elements (batch 3, with these pitches) are too many for index: 32; "
	                 "use index: 64");
	kgen_context_destroy(ctx);  /* and the kernels */
}
END_TEST

/* A plan's kernel: each n takes its entry's kernel and scratch. */
START_TEST(test_plan_kernel)
{
	static const char text[] = "plan:\n"
	                           "  - upto: 4096\n"
	                           "    spec: {kernel: reduce, threads: 1024, stages: atomic}\n"
	                           "  - spec: {kernel: reduce, threads: 256, stages: two_pass}\n";
	kgen_context *ctx = NULL;
	kgen_kernel *k = NULL, *small = NULL, *large = NULL;
	kgen_plan *plan = NULL;
	kgen_error err;
	size_t bytes = 1;
	char buf[32];

	ck_assert_int_eq(kgen_plan_load_string(text, strlen(text), "p.yaml", &plan, &err), KGEN_OK);
	ck_assert_int_eq(kgen_kernel_build_plan(NULL, plan, &k, &err), KGEN_EINVAL);
	if (kgen_context_create(0, &ctx, &err) != KGEN_OK) {
		kgen_plan_free(plan);
		return;
	}
	ck_assert_int_eq(kgen_kernel_build_plan(ctx, NULL, &k, &err), KGEN_EINVAL);
	ck_assert_int_eq(kgen_kernel_build_plan(ctx, plan, &k, &err), KGEN_OK);
	kgen_plan_free(plan);  /* the kernel outlives it */
	ck_assert_int_eq(kgen_kernel_build_yaml(ctx, "kernel: reduce\nthreads: 1024\nstages: atomic\n", &small, &err),
	                 KGEN_OK);
	ck_assert_int_eq(kgen_kernel_build_yaml(ctx, "kernel: reduce\nthreads: 256\nstages: two_pass\n", &large, &err),
	                 KGEN_OK);
	ck_assert_ptr_eq(kgen_kernel_for_n(k, 0), small);
	ck_assert_ptr_eq(kgen_kernel_for_n(k, 4096), small);
	ck_assert_ptr_eq(kgen_kernel_for_n(k, 4097), large);
	ck_assert_ptr_eq(kgen_kernel_for_n(small, 1ull << 40), small);  /* not a plan's: itself */
	ck_assert_ptr_null(kgen_kernel_for_n(NULL, 5));
	ck_assert_str_eq(kgen_spec_get(kgen_kernel_spec(k), "threads", buf, sizeof buf), "1024");
	/* Scratch: none for the one-pass atomic entry, partials for two passes. */
	ck_assert_int_eq(kgen_reduce_scratch_size(k, 4096, &bytes, &err), KGEN_OK);
	ck_assert_uint_eq(bytes, 0);
	ck_assert_int_eq(kgen_reduce_scratch_size(k, 1 << 20, &bytes, &err), KGEN_OK);
	ck_assert_uint_gt(bytes, 0);
	/* A plan's kernel is a reduce kernel: other families' calls refuse it. */
	ck_assert_int_eq(kgen_transpose(k, 0x100000, 0x200000, 4, 4, NULL, &err), KGEN_EINVAL);
	kgen_context_destroy(ctx);
}
END_TEST

static Suite *
runtime_suite(void)
{
	Suite *s = suite_create("runtime");
	TCase *tc = tcase_create("no driver");

	tcase_add_test(tc, test_context_no_driver);
	tcase_add_test(tc, test_context_twice);
	tcase_add_test(tc, test_context_bad_arguments);
	tcase_add_test(tc, test_getters_take_null);
	tcase_add_test(tc, test_build_null);
	tcase_add_test(tc, test_build_yaml_null);
	tcase_add_test(tc, test_build_yaml_bad_spec);
	tcase_add_test(tc, test_reduce_null);
	tcase_add_test(tc, test_scratch_size_null);
	tcase_add_test(tc, test_transpose_null);
	tcase_add_test(tc, test_transpose_layout_errors);
	tcase_add_test(tc, test_plan_kernel);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(runtime_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
