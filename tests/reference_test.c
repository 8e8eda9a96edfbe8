/*
 * reference_test.c - the CPU reference `kgen run --verify` trusts, checked
 * on the CPU against results computed by hand the way the generated C
 * computes them: integer accumulators wrap at their own width whatever the
 * output type, min and max start at the accumulator's extremes, argmin and
 * argmax take the lowest index and NumPy's NaN rules, custom expressions
 * are exact in floating point, out_dtype rounds (f16 overflows to inf), and
 * a float result stored to an integer type saturates as the GPU's cvt does;
 * and matmul's logsumexp of lines with infinities, NaN or no values.
 */
#include "config.h"
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kgen.h"
#include "cli/matmul_reductions.h"
#include "cli/reference.h"
#include "gen/parallel.h"
#include "spec_assert.h"

/* Does the reference of host[0..n) accept the device result got (16 bytes: value, index at 8)? */
static int
accepts(const kgen_spec *s, const void *host, unsigned long long n, const void *got)
{
	struct reference r;
	char msg[256];

	kgen_reference(s, host, n, &r);
	return kgen_check_result(s, got, n, &r, msg, sizeof msg);
}

START_TEST(integer_accumulators_wrap_at_their_width)
{
	kgen_spec *s = load("kernel: reduce\nop: prod\ndtype: i32\nout_dtype: i64\nstages: two_pass\n");
	int32_t x[40];
	unsigned char got[16] = { 0 };
	int32_t acc = 1;
	int64_t wide;
	int i;

	for (i = 0; i < 40; i++) {
		x[i] = 7 + 2 * i;
		acc = (int32_t)((uint32_t)acc * (uint32_t)x[i]);  /* the kernel's int Acc */
	}
	wide = acc;
	memcpy(got, &wide, 8);
	ck_assert(accepts(s, x, 40, got));
	wide = acc + 1ll;
	memcpy(got, &wide, 8);
	ck_assert(!accepts(s, x, 40, got));
	kgen_spec_free(s);
}
END_TEST

START_TEST(min_and_max_start_at_the_accumulators_extremes)
{
	kgen_spec *s = load("kernel: reduce\nop: min\ndtype: i32\nout_dtype: i64\nstages: two_pass\n");
	unsigned char got[16] = { 0 };
	int64_t v = INT32_MAX;

	memcpy(got, &v, 8);
	ck_assert(accepts(s, NULL, 0, got));  /* n = 0: the identity of an int accumulator */
	kgen_spec_free(s);
	s = load("kernel: reduce\nop: max\ndtype: u32\nout_dtype: i64\nstages: two_pass\n");
	v = 0;
	memcpy(got, &v, 8);
	ck_assert(accepts(s, NULL, 0, got));
	kgen_spec_free(s);
}
END_TEST

START_TEST(argmax_takes_the_lowest_index_and_the_first_nan)
{
	kgen_spec *s = load("kernel: reduce\nop: argmax\ndtype: f32\nstages: two_pass\n");
	float x[6] = { 1, 5, 2, 5, 0, 5 }, v = 5;
	unsigned char got[16];
	int64_t at = 1;

	memcpy(got, &v, 4);
	memcpy(got + 8, &at, 8);
	ck_assert(accepts(s, x, 6, got));
	at = 3;
	memcpy(got + 8, &at, 8);
	ck_assert(!accepts(s, x, 6, got));
	x[4] = NAN;
	x[5] = NAN;
	v = NAN;
	at = 4;
	memcpy(got, &v, 4);
	memcpy(got + 8, &at, 8);
	ck_assert(accepts(s, x, 6, got));
	kgen_spec_free(s);
	s = load("kernel: reduce\nop: argmax\ndtype: f32\nnan: ignore\nstages: two_pass\n");
	v = 5;
	at = 1;
	memcpy(got, &v, 4);
	memcpy(got + 8, &at, 8);
	ck_assert(accepts(s, x, 6, got));
	at = -1;  /* only NaNs: no index */
	memcpy(got + 8, &at, 8);
	ck_assert(accepts(s, x + 4, 2, got));
	kgen_spec_free(s);
}
END_TEST

/* A float accumulator stored to an integer out_dtype: truncated and
 * saturated as the kernel's conversion (cvt.rzi) does, a negative sum to 0
 * in u32, and any integer the accumulator's rounding can reach accepted. */
START_TEST(float_sums_to_integers_saturate_within_the_rounding)
{
	kgen_spec *s = load("kernel: reduce\nout_dtype: u32\nstages: two_pass\n");
	float x[4] = { -20.5f, -30.25f, -4.5f, 0.0f }, y[3] = { 1.0f, 1.0f, 1.0f }, z[2] = { 3e9f, 3e9f };
	unsigned char got[16] = { 0 };
	uint32_t u = 0;

	memcpy(got, &u, 4);
	ck_assert(accepts(s, x, 4, got));  /* -55.25: 0, not 4294967241 */
	u = 4294967241u;
	memcpy(got, &u, 4);
	ck_assert(!accepts(s, x, 4, got));
	u = UINT32_MAX;
	memcpy(got, &u, 4);
	ck_assert(accepts(s, z, 2, got));  /* over the range: UINT32_MAX */
	kgen_spec_free(s);
	/* 3 exactly; a float sum a rounding below it truncates to 2, as a GPU's may */
	s = load("kernel: reduce\nout_dtype: i32\nstages: two_pass\n");
	u = 3;
	memcpy(got, &u, 4);
	ck_assert(accepts(s, y, 3, got));
	u = 2;
	memcpy(got, &u, 4);
	ck_assert(accepts(s, y, 3, got));
	u = 1;
	memcpy(got, &u, 4);
	ck_assert(!accepts(s, y, 3, got));
	kgen_spec_free(s);
}
END_TEST

/* The same through a last step that is not monotone (|a| of a sum of 0 that
 * the rounding moves either way), a product's relative rounding, and i64's
 * saturation. */
START_TEST(float_to_integer_through_the_last_step)
{
	kgen_spec *s = load("kernel: reduce\nop: custom\ncombine: a + b\nidentity: 0\npost: fabsf(a)\nout_dtype: i32\n"
	                    "stages: two_pass\n");
	float x[2] = { 1e8f, -1e8f }, p[10], big[2] = { -1e19f, -1e19f };
	unsigned char got[16] = { 0 };
	int32_t i = 0;
	int64_t w;
	float prod = 1;
	int k;

	memcpy(got, &i, 4);
	ck_assert(accepts(s, x, 2, got));
	i = 1000;
	memcpy(got, &i, 4);
	ck_assert(!accepts(s, x, 2, got));
	kgen_spec_free(s);
	s = load("kernel: reduce\nop: prod\nout_dtype: i64\nstages: two_pass\n");
	for (k = 0; k < 10; k++) {
		p[k] = 13.37f;
		prod *= p[k];  /* rounded at each step, as a kernel's float product is */
	}
	w = (int64_t)prod;
	memcpy(got, &w, 8);
	ck_assert(accepts(s, p, 10, got));
	w = (int64_t)prod * 2;
	memcpy(got, &w, 8);
	ck_assert(!accepts(s, p, 10, got));
	kgen_spec_free(s);
	s = load("kernel: reduce\nout_dtype: i64\nstages: two_pass\n");
	w = INT64_MIN;
	memcpy(got, &w, 8);
	ck_assert(accepts(s, big, 2, got));
	kgen_spec_free(s);
}
END_TEST

START_TEST(custom_float_sums_are_exact)
{
	/* 2^24, then ones over three chunks: a float accumulator rounded at each
	 * step would stay at 2^24 (2^24 + 1 rounds back to it). */
	kgen_spec *s = load("kernel: reduce\nop: custom\ndtype: f32\ncombine: a + b\nidentity: 0\n");
	unsigned long long n = 2 * KGEN_REFERENCE_CHUNK + 4;
	float *x = malloc(n * sizeof *x), v = (float)((double)(1 << 24) + (double)(n - 1));
	unsigned char got[16] = { 0 };
	unsigned long long i;

	ck_assert(x != NULL && v != (float)(1 << 24));
	x[0] = (float)(1 << 24);
	for (i = 1; i < n; i++)
		x[i] = 1;
	memcpy(got, &v, 4);  /* the device's sum, rounded once to float */
	ck_assert(accepts(s, x, n, got));
	v = (float)(1 << 24);  /* the step-rounded sum is not it */
	memcpy(got, &v, 4);
	ck_assert(!accepts(s, x, n, got));
	free(x);
	kgen_spec_free(s);
}
END_TEST

START_TEST(f16_outputs_round_and_overflow)
{
	kgen_spec *s = load("kernel: reduce\nop: sum\ndtype: f32\nout_dtype: f16\n");
	float x[2] = { 60000, 60000 };
	unsigned char got[16] = { 0 };
	uint16_t inf = 0x7c00, big = 0x7bff;  /* +inf, 65504 */

	memcpy(got, &inf, 2);
	ck_assert(accepts(s, x, 2, got));
	memcpy(got, &big, 2);
	ck_assert(!accepts(s, x, 2, got));
	kgen_spec_free(s);
}
END_TEST

/* ---- inputs and references made a chunk at a time ---- */

#define CHUNK KGEN_REFERENCE_CHUNK

struct fill_job {
	const kgen_spec *s;
	void *host;
	unsigned long long n;
};

static void
fill_alone(void *arg, int i)
{
	struct fill_job *j = arg;

	(void)i;
	kgen_fill_input(j->s, j->host, j->n, 12345);  /* inside a pool: on this thread alone */
}

/* fp8 on the host (kgen run's matmul operands): every byte decodes and
 * encodes back to itself (NaNs to the type's NaN), the ends and the
 * subnormals are where OCP's formats put them, and rounding is to
 * nearest even with e4m3 saturating and e5m2 overflowing to infinity. */
START_TEST(fp8_round_trips_and_rounds_to_nearest_even)
{
	const long long types[2] = { KGEN_DT_E4M3, KGEN_DT_E5M2 };
	unsigned char b[1];
	int t, i;

	for (t = 0; t < 2; t++)
		for (i = 0; i < 256; i++) {
			double v;
			b[0] = (unsigned char)i;
			v = kgen_host_get(types[t], b, 0);
			if (isnan(v)) {
				ck_assert(isnan(kgen_host_set(types[t], b, 0, v)));
				continue;
			}
			kgen_host_set(types[t], b, 0, v);
			ck_assert_msg(b[0] == i || (v == 0 && b[0] == (i & 0x80)), "%s byte 0x%02x -> %g -> 0x%02x",
			              t ? "e5m2" : "e4m3", i, v, b[0]);
		}
	b[0] = 0x7e;
	ck_assert(kgen_host_get(KGEN_DT_E4M3, b, 0) == 448);
	b[0] = 0x7f;
	ck_assert(isnan(kgen_host_get(KGEN_DT_E4M3, b, 0)));
	b[0] = 0x01;
	ck_assert(kgen_host_get(KGEN_DT_E4M3, b, 0) == 0x1p-9);
	ck_assert(kgen_host_get(KGEN_DT_E5M2, b, 0) == 0x1p-16);
	b[0] = 0x7b;
	ck_assert(kgen_host_get(KGEN_DT_E5M2, b, 0) == 57344);
	b[0] = 0x7c;
	ck_assert(isinf(kgen_host_get(KGEN_DT_E5M2, b, 0)));
	ck_assert(kgen_host_set(KGEN_DT_E4M3, b, 0, 1e6) == 448);           /* saturates */
	ck_assert(isinf(kgen_host_set(KGEN_DT_E5M2, b, 0, 1e6)));          /* overflows */
	ck_assert(kgen_host_set(KGEN_DT_E4M3, b, 0, 1.0625) == 1.0);       /* halfway to 1.125: to even */
	ck_assert(kgen_host_set(KGEN_DT_E4M3, b, 0, 1.1875) == 1.25);      /* halfway to 1.25: to even */
	ck_assert(kgen_host_set(KGEN_DT_E4M3, b, 0, -0.3) == -0.3125);
	ck_assert(kgen_host_set(KGEN_DT_E4M3, b, 0, 0x1p-10) == 0);        /* half the least subnormal: to even */
	ck_assert(kgen_host_set(KGEN_DT_E4M3, b, 0, 0x1.8p-10) == 0x1p-9);
	ck_assert(kgen_host_set(KGEN_DT_E5M2, b, 0, 3.5) == 3.5);
	ck_assert(kgen_host_set(KGEN_DT_E5M2, b, 0, 3.75) == 4.0);
}
END_TEST

START_TEST(an_input_made_in_chunks_is_the_single_pass_sequence)
{
	kgen_spec *s = load("kernel: reduce\nop: sum\ndtype: f32\n");
	unsigned long long n = 2 * CHUNK + 7, i, wrong = 0;
	float *x = malloc(n * sizeof *x), *alone = malloc(n * sizeof *alone);
	struct fill_job j = { s, alone, n };
	uint64_t st = 12345;

	ck_assert(x && alone);
	kgen_fill_input(s, x, n, 12345);
	for (i = 0; i < n; i++) {
		/* op: sum in f32 draws -1, 0 or 1 (sums exact in any order), a number each */
		float want = (float)((int)(kgen_splitmix64(&st) % 3) - 1);
		wrong += x[i] != want;
	}
	ck_assert_msg(wrong == 0, "%llu of %llu elements are not the sequence's", wrong, n);
	ck_assert_int_eq(kgen_parallel_for(1, 1, fill_alone, &j), 1);
	ck_assert(memcmp(x, alone, n * sizeof *x) == 0);
	free(x);
	free(alone);
	kgen_spec_free(s);
}
END_TEST

static int
same_float(long double a, long double b)
{
	return a == b || (isnan(a) && isnan(b));
}

/* Every op, in the first reference's types and the general path's (the
 * ops after prod, an out_dtype, custom expressions): the merged reference
 * of three chunks is the element-by-element fold, field by field, with the
 * op's winners tied across the chunks' boundaries and NaNs in the later
 * chunks (custom: a sum of the elements and their indices in i32, a max
 * of squares in f32, a mean of halves in bf16). */
START_TEST(a_reference_in_chunks_is_the_element_by_element_fold)
{
	static const char *const specs[] = {
		"op: sum\ndtype: f32\n", "op: sum\ndtype: i32\n", "op: sum\ndtype: bf16\n", "op: prod\ndtype: i32\n",
		"op: prod\ndtype: f32\n", "op: min\ndtype: f32\n", "op: max\ndtype: i32\n", "op: min\ndtype: u32\n",
		"op: max\ndtype: bf16\n", "op: sum\ndtype: i32\nacc_dtype: i64\n", "op: sum\ndtype: f32\nout_dtype: i32\n",
		"op: max\ndtype: f32\nout_dtype: f16\n", "op: mean\ndtype: f32\n", "op: mean\ndtype: i32\n",
		"op: sumsq\ndtype: i32\n", "op: norm2\ndtype: f32\n", "op: amax\ndtype: f32\n", "op: amax\ndtype: i32\n",
		"op: count_nonzero\ndtype: f32\n", "op: any\ndtype: i32\n", "op: all\ndtype: i32\n",
		"op: argmin\ndtype: f32\n", "op: argmax\ndtype: i32\n", "op: argmax\ndtype: f32\nnan: ignore\n",
		"op: argmax\ndtype: f32\nnan: propagate\n", "op: min\ndtype: i32\nacc_dtype: u32\n",
		"op: max\ndtype: u32\nacc_dtype: i32\nout_dtype: i64\n", "op: amax\ndtype: u32\nacc_dtype: i32\n",
		"op: custom\ndtype: i32\nmap: x + (Acc)i\ncombine: a + b\nidentity: 0\n",
		"op: custom\ndtype: f32\nmap: x * x\ncombine: max(a, b)\nidentity: 0\n",
		"op: custom\ndtype: bf16\nmap: x / 2\ncombine: a + b\nidentity: 0\npost: a / (n + 1)\n",
	};
	unsigned long long n = 2 * CHUNK + 17, i;
	void *x = malloc(n * 8);
	size_t k;

	ck_assert(x != NULL);
	for (k = 0; k < sizeof specs / sizeof *specs; k++) {
		char yaml[256];
		kgen_spec *s;
		struct reference fold, merged;
		int is_float;

		snprintf(yaml, sizeof yaml, "kernel: reduce\n%s", specs[k]);
		s = load(yaml);
		is_float = s->r.dtype->cls == DT_FLOAT || s->r.dtype->cls == DT_HALF || s->r.dtype->cls == DT_BHALF;
		kgen_fill_input(s, x, n, 77 + k);
		/* the winner twice, in the second and third chunks; NaNs after it */
		kgen_place(s, x, CHUNK + 5, 0);
		kgen_place(s, x, 2 * CHUNK + 1, 0);
		if (is_float && s->op != KGEN_OP_SUM && s->op != KGEN_OP_PROD && s->op != KGEN_OP_MEAN &&
		    s->op != KGEN_OP_NORM2 && s->op != KGEN_OP_AMAX && s->op != KGEN_OP_COUNT_NONZERO) {
			kgen_place(s, x, CHUNK + 9, 1);
			kgen_place(s, x, 2 * CHUNK + 2, 1);
		}
		kgen_reference_init(s, &fold);
		for (i = 0; i < n; i++)
			kgen_reference_add(s, &fold, x, i);
		kgen_reference_finish(s, &fold);
		kgen_reference(s, x, n, &merged);
		ck_assert_msg(fold.exact == merged.exact && fold.bits == merged.bits && same_float(fold.value, merged.value) &&
		              same_float(fold.abs_sum, merged.abs_sum) && fold.acc.is_float == merged.acc.is_float &&
		              same_float(fold.acc.f, merged.acc.f) && fold.acc.i == merged.acc.i &&
		              fold.count == merged.count && fold.index == merged.index && fold.nan_seen == merged.nan_seen,
		              "%s: the merged reference (bits %llu value %Lg acc %Lg/%lld index %lld) is not the fold's "
		              "(bits %llu value %Lg acc %Lg/%lld index %lld)", yaml, (unsigned long long)merged.bits,
		              merged.value, merged.acc.f, merged.acc.i, merged.index, (unsigned long long)fold.bits,
		              fold.value, fold.acc.f, fold.acc.i, fold.index);
		if (s->op == KGEN_OP_ARGMIN || s->op == KGEN_OP_ARGMAX)  /* the cases are the ones meant */
			ck_assert_int_eq(merged.index, s->nan == KGEN_NAN_PROPAGATE && is_float ? (long long)CHUNK + 9
			                                                                         : (long long)CHUNK + 5);
		kgen_spec_free(s);
	}
	free(x);
}
END_TEST

/* The kernel converts each element to the accumulator's type first
 * (to_acc: (Acc)x), so an i32 -5 in a u32 min is 4294967291 and a u32
 * 4000000000 in an i32 max is negative; the reference does the same. */
START_TEST(an_integer_element_enters_the_accumulator_as_the_kernel_converts_it)
{
	kgen_spec *umin = load("kernel: reduce\nop: min\ndtype: i32\nacc_dtype: u32\n");
	kgen_spec *imax = load("kernel: reduce\nop: max\ndtype: u32\nacc_dtype: i32\nout_dtype: i64\n");
	int32_t x[3] = { 3, 2, -5 };
	uint32_t y[3] = { 5, 4000000000u, 1 };
	unsigned char got[16] = { 0 };
	uint32_t two = 2;
	int64_t five = 5;

	memcpy(got, &two, 4);
	ck_assert(accepts(umin, x, 3, got));
	memset(got, 0, sizeof got);
	memcpy(got, &five, 8);
	ck_assert(accepts(imax, y, 3, got));
	kgen_spec_free(umin);
	kgen_spec_free(imax);
}
END_TEST

/* matmul's reductions of the stored values (cli/matmul_reductions.c):
 * logsumexp of a line with -inf, +inf, NaN and no values, and its bound,
 * which a -inf value's own (infinite) tolerance does not widen. */
START_TEST(matmul_logsumexp_reference_of_infinite_and_empty_lines)
{
	struct kgen_line_ref r;
	const double eps = 0x1p-24;
	double want, tol;

	kgen_line_ref_start(&r);  /* no values: -inf, exactly */
	ck_assert(kgen_line_ref_ok(&r, KGEN_MM_REDUCE_LOGSUMEXP, eps, -INFINITY, &want, &tol));
	ck_assert(isinf(want) && want < 0);
	ck_assert(!kgen_line_ref_ok(&r, KGEN_MM_REDUCE_LOGSUMEXP, eps, 0.0, &want, &tol));
	kgen_line_ref_fold(&r, 3.0, 1e-6);
	kgen_line_ref_fold(&r, -INFINITY, INFINITY);  /* weighs nothing, its tolerance neither */
	ck_assert(kgen_line_ref_ok(&r, KGEN_MM_REDUCE_LOGSUMEXP, eps, 3.0, &want, &tol));
	ck_assert(want == 3.0 && tol < 1e-5);
	ck_assert(!kgen_line_ref_ok(&r, KGEN_MM_REDUCE_LOGSUMEXP, eps, 1e9, &want, &tol));
	kgen_line_ref_fold(&r, 3.0, 1e-6);  /* log(2 e^3) */
	ck_assert(kgen_line_ref_ok(&r, KGEN_MM_REDUCE_LOGSUMEXP, eps, 3.0 + log(2.0), &want, &tol));
	ck_assert(fabs(want - (3.0 + log(2.0))) < 1e-15);
	ck_assert(!kgen_line_ref_ok(&r, KGEN_MM_REDUCE_LOGSUMEXP, eps, 3.0, &want, &tol));
	kgen_line_ref_fold(&r, 1000.0, 0.0);  /* no overflow: 1000 + log(1 + 2 e^-997) */
	ck_assert(kgen_line_ref_ok(&r, KGEN_MM_REDUCE_LOGSUMEXP, eps, 1000.0, &want, &tol));
	kgen_line_ref_fold(&r, INFINITY, 0.0);
	ck_assert(kgen_line_ref_ok(&r, KGEN_MM_REDUCE_LOGSUMEXP, eps, INFINITY, &want, &tol));
	ck_assert(!kgen_line_ref_ok(&r, KGEN_MM_REDUCE_LOGSUMEXP, eps, 1000.0, &want, &tol));
	kgen_line_ref_fold(&r, NAN, 0.0);
	ck_assert(kgen_line_ref_ok(&r, KGEN_MM_REDUCE_LOGSUMEXP, eps, NAN, &want, &tol));
	ck_assert(!kgen_line_ref_ok(&r, KGEN_MM_REDUCE_LOGSUMEXP, eps, INFINITY, &want, &tol));
	kgen_line_ref_start(&r);  /* only -inf values: -inf */
	kgen_line_ref_fold(&r, -INFINITY, 0.0);
	kgen_line_ref_fold(&r, -INFINITY, 0.0);
	ck_assert(kgen_line_ref_ok(&r, KGEN_MM_REDUCE_LOGSUMEXP, eps, -INFINITY, &want, &tol));
	ck_assert(isinf(want) && want < 0);
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("reference");
	TCase *tc = tcase_create("reference");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, integer_accumulators_wrap_at_their_width);
	tcase_add_test(tc, min_and_max_start_at_the_accumulators_extremes);
	tcase_add_test(tc, argmax_takes_the_lowest_index_and_the_first_nan);
	tcase_add_test(tc, custom_float_sums_are_exact);
	tcase_add_test(tc, float_sums_to_integers_saturate_within_the_rounding);
	tcase_add_test(tc, float_to_integer_through_the_last_step);
	tcase_add_test(tc, f16_outputs_round_and_overflow);
	tcase_add_test(tc, fp8_round_trips_and_rounds_to_nearest_even);
	tcase_add_test(tc, an_input_made_in_chunks_is_the_single_pass_sequence);
	tcase_add_test(tc, a_reference_in_chunks_is_the_element_by_element_fold);
	tcase_add_test(tc, an_integer_element_enters_the_accumulator_as_the_kernel_converts_it);
	tcase_add_test(tc, matmul_logsumexp_reference_of_infinite_and_empty_lines);
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
