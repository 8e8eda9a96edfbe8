/*
 * expr_eval_test.c - the expressions computed on the CPU (gen/expr_eval.h)
 * alone, on trees from kgen_expr_parse() and specs whose types are set by
 * hand (no loader): the value is the generated C's, in each node's C type
 * (wrapping, saturating float conversions, the GPU's shifts and division
 * by 0), returned as the function's type (Acc, Out for post); without a
 * spec, Acc and Out are double; and a matmul epilogue of its five names.
 * (tests/spec_test.c evaluates through loaded specs, cli's reference
 * through whole reductions.)
 */
#include "config.h"
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gen/expr_eval.h"

static const struct kgen_value none = { 0, 0, 0 };

static struct kgen_value
iv(long long i)
{
	struct kgen_value v = { 0, 0, i };
	return v;
}

static struct kgen_value
fv(long double f)
{
	struct kgen_value v = { 1, f, 0 };
	return v;
}

/* A spec of these types, as the checker resolves them. */
static struct kgen_spec
typed(enum kgen_dtype dtype, enum kgen_dtype acc, enum kgen_dtype out, int index)
{
	struct kgen_spec s;

	memset(&s, 0, sizeof s);
	s.dtype = dtype;
	s.acc_dtype = acc;
	s.out_dtype = out;
	s.index = index;
	return s;
}

/* text of key k evaluated in s (NULL: no spec) with x, i, a, b and n bound. */
static struct kgen_value
eval(const struct kgen_spec *s, enum kgen_key k, const char *text, struct kgen_value x, struct kgen_value i,
     struct kgen_value a, struct kgen_value b, struct kgen_value n)
{
	struct kgen_expr e;
	char why[200];
	size_t at;

	ck_assert_msg(kgen_expr_parse(k, text, &e, &at, why, sizeof why) == KGEN_OK, "%s: %s", text, why);
	return kgen_expr_eval(&e, s, x, i, a, b, n);
}

#define ASSERT_INT(v, want, text) do {                                                                   \
		struct kgen_value v_ = (v);                                                                \
		ck_assert_msg(!v_.is_float, "%s is floating", (text));                                     \
		ck_assert_msg(v_.i == (long long)(want), "%s: %lld, not %lld", (text), v_.i, (long long)(want)); \
	} while (0)
#define ASSERT_FLOAT(v, want, text) do {                                                                 \
		struct kgen_value v_ = (v);                                                                \
		ck_assert_msg(v_.is_float, "%s is an integer", (text));                                    \
		ck_assert_msg(v_.f == (long double)(want), "%s: %Lg, not %Lg", (text), v_.f, (long double)(want)); \
	} while (0)
#define MAP(s, text, x) eval((s), KGEN_KEY_map, (text), (x), iv(0), none, none, none)
/* An epilogue at v, acc, c, row and col, without operands. */
#define EPI(e, s, v_, acc_, c_, row_, col_) \
	kgen_expr_eval_epilogue((e), (s), &(struct kgen_epilogue_at){ .v = (v_), .acc = (acc_), .c = (c_), \
	                                                              .row = (row_), .col = (col_) })

/* Integers wrap at their type's width and keep its signedness. */
START_TEST(integers_wrap)
{
	struct kgen_spec i32 = typed(KGEN_DT_I32, KGEN_DT_I32, KGEN_DT_I32, 64);
	struct kgen_spec i64 = typed(KGEN_DT_I64, KGEN_DT_I64, KGEN_DT_I64, 64);
	struct kgen_spec u32 = typed(KGEN_DT_U32, KGEN_DT_I64, KGEN_DT_I64, 64);

	ASSERT_INT(MAP(&i32, "x + 1", iv(0x7fffffff)), -0x80000000ll, "x + 1");
	ASSERT_INT(MAP(&i64, "x + 1", iv(0x7fffffff)), 0x80000000ll, "x + 1 (i64)");
	ASSERT_INT(MAP(&i64, "0xffffffffu + 1", iv(0)), 0, "0xffffffffu + 1");
	ASSERT_INT(MAP(&u32, "x - 1", iv(0)), 0xffffffffll, "x - 1 (u32)");
	ASSERT_INT(MAP(&u32, "x > -1", iv(5)), 0, "x > -1 (u32: -1 is the largest)");
	ASSERT_INT(MAP(&i64, "(Acc)x / 2", iv(7)), 3, "(Acc)x / 2");
	ASSERT_INT(MAP(&i64, "(short)x", iv(40000)), -25536, "(short)x");
	/* The result converts to Acc: i32 wraps it. */
	ASSERT_INT(MAP(&i32, "(long long)x * 4", iv(0x40000001)), 4, "(long long)x * 4 as i32");
}
END_TEST

/* Division by 0 gives 0; the most negative by -1 wraps; shifts past the
 * width give the GPU's 0 or sign. */
START_TEST(the_gpu_s_edges)
{
	struct kgen_spec i32 = typed(KGEN_DT_I32, KGEN_DT_I32, KGEN_DT_I32, 64);

	ASSERT_INT(MAP(&i32, "x / 0", iv(7)), 0, "x / 0");
	ASSERT_INT(MAP(&i32, "x % 0", iv(7)), 0, "x % 0");
	ASSERT_INT(MAP(&i32, "x / -1", iv(-0x80000000ll)), -0x80000000ll, "INT_MIN / -1");
	ASSERT_INT(MAP(&i32, "x % -1", iv(-0x80000000ll)), 0, "INT_MIN % -1");
	ASSERT_INT(MAP(&i32, "x % 3", iv(-7)), -1, "-7 % 3");
	ASSERT_INT(MAP(&i32, "x << 31", iv(1)), -0x80000000ll, "1 << 31");
	ASSERT_INT(MAP(&i32, "x << 32", iv(1)), 0, "1 << 32");
	ASSERT_INT(MAP(&i32, "x >> 40", iv(-8)), -1, "-8 >> 40");
	ASSERT_INT(MAP(&i32, "x >> 1", iv(-8)), -4, "-8 >> 1");
	ASSERT_INT(MAP(&i32, "(unsigned)x >> 1", iv(-8)), 0x7ffffffcll, "(unsigned)-8 >> 1");
}
END_TEST

/* A float to an integer: truncated, saturated, NaN to 0; a float literal
 * or cast rounds to float, the arithmetic stays exact. */
START_TEST(floats_round_where_the_text_says)
{
	struct kgen_spec f32_i64 = typed(KGEN_DT_F32, KGEN_DT_I64, KGEN_DT_I64, 64);
	struct kgen_spec f64 = typed(KGEN_DT_F64, KGEN_DT_F64, KGEN_DT_F64, 64);
	struct kgen_spec f32 = typed(KGEN_DT_F32, KGEN_DT_F32, KGEN_DT_F32, 64);

	ASSERT_INT(MAP(&f32_i64, "(int)x", fv(-2.9)), -2, "(int)-2.9");
	ASSERT_INT(MAP(&f32_i64, "(int)x", fv(1e10)), 0x7fffffff, "(int)1e10");
	ASSERT_INT(MAP(&f32_i64, "(unsigned)x", fv(-1)), 0, "(unsigned)-1.0");
	ASSERT_INT(MAP(&f32_i64, "(int)x", fv(NAN)), 0, "(int)NaN");
	ASSERT_FLOAT(MAP(&f64, "x + 0.1f", fv(0)), (float)0.1, "0.1f");
	ASSERT_FLOAT(MAP(&f64, "(float)x", fv(0.1)), (float)0.1, "(float)0.1");
	ASSERT_FLOAT(MAP(&f32, "x / 3", fv(1)), 1.0L / 3.0L, "x / 3 (exact)");
	ASSERT_FLOAT(MAP(&f32, "fmaxf(x, 2.0f)", fv(NAN)), 2, "fmaxf(NaN, 2): a NaN loses");
	ASSERT_INT(MAP(&f32_i64, "isnan(x)", fv(NAN)), 1, "isnan(NaN)");
	ASSERT_FLOAT(MAP(&f32, "__int_as_float(0x3f800000)", fv(0)), 1, "__int_as_float");
	ASSERT_INT(MAP(&f32_i64, "__float_as_int(x)", fv(1)), 0x3f800000, "__float_as_int(1.0f)");
	ASSERT_FLOAT(MAP(&f64, "sqrt(x) + pow(x, 2)", fv(4)), 18, "sqrt(4) + pow(4, 2)");
}
END_TEST

/* The names each key binds, and the function's type: post returns Out. */
START_TEST(keys_bind_their_names)
{
	struct kgen_spec i32_f64 = typed(KGEN_DT_I32, KGEN_DT_I64, KGEN_DT_F64, 32);
	struct kgen_spec idx32 = typed(KGEN_DT_I64, KGEN_DT_I64, KGEN_DT_I64, 32);

	ASSERT_INT(eval(&i32_f64, KGEN_KEY_combine, "a * 10 + b", none, none, iv(3), iv(4), none), 34, "combine");
	ASSERT_FLOAT(eval(&i32_f64, KGEN_KEY_post, "(Out)a / n", none, none, iv(7), none, iv(2)), 3.5, "post");
	ASSERT_FLOAT(eval(&i32_f64, KGEN_KEY_post, "a / n", none, none, iv(7), none, iv(2)), 3, "post of integers");
	ASSERT_INT(eval(&i32_f64, KGEN_KEY_identity, "-1", none, none, none, none, none), -1, "identity");
	/* Index is 32 bits: i wraps as an unsigned int. */
	ASSERT_INT(eval(&idx32, KGEN_KEY_map, "i + 1", none, iv(0xffffffffll), none, none, none), 0, "i + 1");
	ASSERT_INT(eval(&idx32, KGEN_KEY_map, "x * i", iv(3), iv(5), none, none, none), 15, "x * i");
}
END_TEST

/* Without a spec: Acc and Out are double, Index unsigned long long, x as given. */
START_TEST(without_a_spec)
{
	ASSERT_FLOAT(MAP(NULL, "x / 2", iv(5)), 2, "x / 2 of an integer x");
	ASSERT_FLOAT(MAP(NULL, "x / 2", fv(5)), 2.5, "x / 2 of a floating x");
	ASSERT_FLOAT(eval(NULL, KGEN_KEY_map, "i - 1", none, iv(0), none, none, none), 18446744073709551615.0L,
	             "i - 1: unsigned long long");
}
END_TEST

/* The epilogue: v, acc and c of acc_dtype, row and col int. */
START_TEST(epilogue)
{
	struct kgen_spec f32 = typed(KGEN_DT_F16, KGEN_DT_F32, KGEN_DT_F16, 64);
	struct kgen_spec f64 = typed(KGEN_DT_F64, KGEN_DT_F64, KGEN_DT_F64, 64);
	struct kgen_expr e;
	char why[200];
	size_t at;

	ck_assert_int_eq(kgen_expr_parse(KGEN_KEY_epilogue, "v * 2 + acc - c + row * 10 + col", &e, &at, why,
	                                 sizeof why), KGEN_OK);
	ASSERT_FLOAT(EPI(&e, &f64, 1.5, 0.25, 1, 3, 4), 3 + 0.25 - 1 + 30 + 4, "epilogue");
	ck_assert_int_eq(kgen_expr_parse(KGEN_KEY_epilogue, "v > 0 ? v : 0.1 * v", &e, &at, why, sizeof why),
	                 KGEN_OK);
	/* 0.1 is a double, so 0.1 * v is; the conversion to Acc (f32) is implicit: exact. */
	ASSERT_FLOAT(EPI(&e, &f32, -1, 0, 0, 0, 0), 0.1 * -1.0, "leaky relu, f32");
	ck_assert_int_eq(kgen_expr_parse(KGEN_KEY_epilogue, "row / 2 + col / 2", &e, &at, why, sizeof why), KGEN_OK);
	ASSERT_FLOAT(EPI(&e, &f64, 0, 0, 0, 3, 3), 2, "row / 2: int");
	/* The operands, of the accumulator's type. */
	ck_assert_int_eq(kgen_expr_parse(KGEN_KEY_epilogue, "v + bias * 2 - residual", &e, &at, why, sizeof why),
	                 KGEN_OK);
	{
		struct kgen_epilogue_at in = { .v = 1, .bias = 0.25, .residual = 4, .row = 1, .col = 2 };
		ASSERT_FLOAT(kgen_expr_eval_epilogue(&e, &f64, &in), 1 + 0.5 - 4, "v + bias * 2 - residual");
	}
}
END_TEST

/* The activations kgen defines (templates/expr/activations.cu): their
 * values in the call's type, within a few ulps of double. */
START_TEST(activations)
{
	struct kgen_spec f64 = typed(KGEN_DT_F64, KGEN_DT_F64, KGEN_DT_F64, 64);
	struct kgen_spec f32 = typed(KGEN_DT_F16, KGEN_DT_F32, KGEN_DT_F16, 64);
	static const struct {
		const char *text;
		double x, want;
	} cases[] = {
		{ "gelu(x)", 1, 0.8413447460685429 },       /* x Phi(x) */
		{ "gelu(x)", -3, -0.0040496940948902836 },
		{ "gelu_tanh(x)", 1, 0.8411919906082768 },  /* 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3))) */
		{ "sigmoid(x)", 0, 0.5 },
		{ "sigmoid(x)", 2, 0.8807970779778823 },
		{ "silu(x)", 2, 1.7615941559557646 },       /* x sigmoid(x) */
		{ "silu(x)", -40, -1.699341702116636e-16 },
	};
	struct kgen_expr e;
	char why[200];
	size_t at, k;

	for (k = 0; k < sizeof cases / sizeof *cases; k++) {
		struct kgen_value v = MAP(&f64, cases[k].text, fv(cases[k].x));
		ck_assert_msg(v.is_float && fabsl(v.f - cases[k].want) <= 1e-13 * fabs(cases[k].want), "%s at %g: %.17Lg",
		              cases[k].text, cases[k].x, v.f);
	}
	/* In an f32 epilogue, of v and acc (Acc, evaluated as the other epilogues are). */
	ck_assert_int_eq(kgen_expr_parse(KGEN_KEY_epilogue, "gelu(v) + silu(acc)", &e, &at, why, sizeof why), KGEN_OK);
	{
		struct kgen_value v = EPI(&e, &f32, 1, 2, 0, 0, 0);
		ck_assert_msg(v.is_float && fabsl(v.f - (0.8413447460685429 + 1.7615941559557646)) < 1e-6,
		              "gelu(v) + silu(acc), f32: %.17Lg", v.f);
	}
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("expr_eval");
	TCase *tc = tcase_create("eval");

	tcase_add_test(tc, integers_wrap);
	tcase_add_test(tc, the_gpu_s_edges);
	tcase_add_test(tc, floats_round_where_the_text_says);
	tcase_add_test(tc, keys_bind_their_names);
	tcase_add_test(tc, without_a_spec);
	tcase_add_test(tc, epilogue);
	tcase_add_test(tc, activations);
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
