/*
 * toy_test.c - a family added from files under tests/toy/ only: the toy
 * `kernel: scale` (tests/toy/scale.c, its template, and its table rows in
 * tests/toy/rows.h, which this program's generator is built with).  It
 * goes through the shared code as any family does: the loader finds its
 * keys (its `stages` an integer, where reduce's is an enum), the validator
 * runs its rules, the header comment lists its keys and launch, the
 * generator renders its template, and NVRTC compiles the result; size
 * plans take it.  The layers past the generator: tests/toy_launch_test.c
 * (the launcher and the C API), tests/toy_test.sh (`kgen run --verify`),
 * python/tests/test_toy.py (Python), each against the fake driver.
 */
#include "config.h"
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kgen.h"
#include "spec_assert.h"

static char *
generate(const char *yaml)
{
	kgen_spec *spec = load(yaml);
	kgen_error err;
	char *src = NULL;

	ck_assert_msg(kgen_generate(spec, &src, &err) == KGEN_OK, "generate: %s", err.message);
	kgen_spec_free(spec);
	return src;
}

START_TEST(defaults_resolve)
{
	kgen_spec *s = load("kernel: scale\n");

	ASSERT_FIELD(s, "stages", "2");
	ASSERT_FIELD(s, "factor", "3");
	ASSERT_FIELD(s, "threads", "256");
	ASSERT_FIELD(s, "name", "scale_f32");
	kgen_spec_free(s);
}
END_TEST

/* One name, two keys: the spec's family decides which, wherever `kernel:` is written. */
START_TEST(stages_is_the_familys_own)
{
	kgen_spec *s = load("kernel: scale\nstages: 4\n");
	kgen_spec *t = load("stages: 8\nkernel: scale\n");
	kgen_spec *r = load("kernel: reduce\nstages: two_pass\n");

	ASSERT_FIELD(s, "stages", "4");
	ASSERT_FIELD(t, "stages", "8");
	ASSERT_FIELD(r, "stages", "two_pass");
	kgen_spec_free(s);
	kgen_spec_free(t);
	kgen_spec_free(r);
}
END_TEST

static const struct refusal refusals[] = {
	{ "reduce_stages_stay_an_enum", "kernel: reduce\nstages: 4\n", "stages: unknown value '4': expected two_pass, atomic or last_block", 2, 9, "stages: 4" },
	{ "scale_stages_is_an_integer", "kernel: scale\nstages: atomic\n",
	  "stages: 'atomic' is not a decimal integer: expected an integer from 1 to 8", 2, 9, "stages: atomic" },
	{ "scale_stages_range", "kernel: scale\nstages: 9\n", "stages: 9 is out of range: expected an integer from 1 to 8", 2, 9, "stages: 9" },
	{ "reduce_keys_do_not_apply", "kernel: scale\nop: sum\n", "op does not apply to kernel: scale", 2, 1, "op: sum" },
	{ "scale_keys_do_not_apply", "kernel: reduce\nfactor: 2\n", "factor does not apply to kernel: reduce", 2, 1,
	  "factor: 2" },
	{ "unsigned_factor", "kernel: scale\ndtype: u32\nfactor: -2\n", "factor -2 is negative and dtype u32 is unsigned", 3,
	  9, "factor: -2" },
	{ "no_halves", "kernel: scale\ndtype: bf16\n",
	  "kernel: scale multiplies in the element type: use i32, u32, i64, f32 or f64, not bf16", 2, 8, "dtype: bf16" },
	{ "warp_multiple", "kernel: scale\nthreads: 100\n", "threads 100 is not a multiple of the warp size, 32", 2, 10,
	  "threads: 100" },
};

/* Each row of refusals. */
START_TEST(refused_scale_specs)
{
	assert_refused(&refusals[_i]);
}
END_TEST

/* Size plans take the family (it is sized by n); every entry computes
 * what the first does: the family's `computes` keys, factor among them. */
START_TEST(plans_take_the_family)
{
	static const char ok[] = "plan:\n  - upto: 2^10\n    spec: {kernel: scale, threads: 64}\n"
	                         "  - spec: {kernel: scale, stages: 8}\n";
	static const char other[] = "plan:\n  - upto: 2^10\n    spec: {kernel: scale}\n"
	                            "  - spec: {kernel: scale, factor: 5}\n";
	kgen_plan *p = NULL;
	kgen_error err;

	ck_assert_msg(kgen_plan_load_string(ok, strlen(ok), "ok.yaml", &p, &err) == KGEN_OK, "%s", err.message);
	ck_assert_int_eq(kgen_plan_count(p), 2);
	kgen_plan_free(p);
	ck_assert_int_eq(kgen_plan_load_string(other, strlen(other), "other.yaml", &p, &err), KGEN_ESPEC);
	ck_assert_str_eq(err.message, "entry 2 has factor: 5, the first entry factor: 3: every spec of a plan must compute "
	                              "the same (kernel, dtype, factor)");
	ck_assert_int_eq(err.line, 4);
}
END_TEST

START_TEST(set_looks_up_the_new_family)
{
	kgen_spec *s = load("kernel: reduce\n");
	const char *keys[] = { "stages", "kernel" }, *values[] = { "5", "scale" };
	kgen_error err;

	ck_assert_msg(kgen_spec_set_many(s, 2, keys, values, &err) == KGEN_OK, "%s", err.message);
	ASSERT_FIELD(s, "kernel", "scale");
	ASSERT_FIELD(s, "stages", "5");
	ck_assert_int_eq(kgen_spec_set(s, "stages", "two_pass", &err), KGEN_ESPEC);
	ck_assert_msg(strstr(err.message, "stages: 'two_pass' is not a decimal integer"), "%s", err.message);
	kgen_spec_free(s);
}
END_TEST

START_TEST(dump_names_the_key)
{
	kgen_spec *s = load("kernel: scale\nstages: 4\nfactor: -7\n");
	char *yaml = NULL;

	ck_assert_int_eq(kgen_spec_dump(s, &yaml), KGEN_OK);
	ck_assert_str_eq(yaml, "kernel: scale\nname: scale_f32\ndtype: f32\nthreads: 256\nstages: 4\nfactor: -7\n");
	free(yaml);
	kgen_spec_free(s);
}
END_TEST

START_TEST(header_and_kernel)
{
	char *src = generate("kernel: scale\ndtype: i64\nstages: 4\nfactor: -7\n");

	ck_assert_msg(strstr(src, "// scale_i64: a vector of i64 times -7, generated by kgen"), "%s", src);
	ck_assert_msg(strstr(src, "//   stages: 4\n"), "%s", src);
	ck_assert_msg(strstr(src, "//   factor: -7\n"), "%s", src);
	ck_assert_msg(strstr(src, "//   scale_i64(in, out, n)  <<<grid, 256>>>"), "%s", src);
	ck_assert_msg(strstr(src, "// grid = ceil(n / 1024): each thread scales 4 elements.\n"), "%s", src);
	ck_assert_msg(strstr(src, "typedef long long T;\n"), "%s", src);
	ck_assert_msg(strstr(src, "for (int s = 0; s < 4; s++)"), "%s", src);
	ck_assert_msg(strstr(src, "out[i + s] = in[i + s] * (T)(-7);"), "%s", src);
	ck_assert_msg(!strstr(src, "{{"), "a placeholder left: %s", src);
	free(src);
}
END_TEST

START_TEST(nvrtc_compiles_it)
{
	char *src = generate("kernel: scale\ndtype: f64\nstages: 3\n"), *log = NULL;
	void *ptx = NULL;
	size_t size = 0;
	kgen_error err;
	kgen_status st = kgen_compile(src, "scale.cu", "sm_80", KGEN_IMAGE_PTX, &ptx, &size, &log, &err);

	ck_assert_msg(st == KGEN_OK, "%s\n%s", err.message, log ? log : "");
	ck_assert_msg(strstr(ptx, ".entry scale_f64("), "no kernel scale_f64 in the PTX");
	free(ptx);
	free(log);
	free(src);
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("toy");
	TCase *tc = tcase_create("scale");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, defaults_resolve);
	tcase_add_test(tc, stages_is_the_familys_own);
	tcase_add_loop_test(tc, refused_scale_specs, 0, (int)(sizeof refusals / sizeof refusals[0]));
	tcase_add_test(tc, set_looks_up_the_new_family);
	tcase_add_test(tc, plans_take_the_family);
	tcase_add_test(tc, dump_names_the_key);
	tcase_add_test(tc, header_and_kernel);
	tcase_add_test(tc, nvrtc_compiles_it);
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
