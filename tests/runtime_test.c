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

START_TEST(test_build_yaml_null)
{
	kgen_kernel *k = NULL;
	kgen_error err;

	ck_assert_int_eq(kgen_kernel_build_yaml(NULL, NULL, &k, &err), KGEN_EINVAL);
	ck_assert_str_eq(err.message, "kgen_kernel_build_yaml: NULL argument");
	/* A good spec is loaded, then refused for the NULL context (and freed: ASan checks). */
	ck_assert_int_eq(kgen_kernel_build_yaml(NULL, yaml, &k, &err), KGEN_EINVAL);
	ck_assert_str_eq(err.message, "kgen_kernel_build: NULL argument");
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

static Suite *
runtime_suite(void)
{
	Suite *s = suite_create("runtime");
	TCase *tc = tcase_create("no driver");

	tcase_add_test(tc, test_context_no_driver);
	tcase_add_test(tc, test_context_twice);
	tcase_add_test(tc, test_context_bad_arguments);
	tcase_add_test(tc, test_build_null);
	tcase_add_test(tc, test_build_yaml_null);
	tcase_add_test(tc, test_build_yaml_bad_spec);
	tcase_add_test(tc, test_reduce_null);
	tcase_add_test(tc, test_scratch_size_null);
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
