/*
 * expr_type_test.c - the expressions' C++ types (gen/expr_type.h) alone:
 * kgen_expr_types() gives each node the type NVRTC would (promotions, the
 * usual arithmetic conversions, the overload a call resolves to, the
 * names' and casts' types from a typing); kgen_expr_typing_of() reads a
 * spec's types; kgen_expr_parse() refuses the faults of every spec and
 * leaves those of some specs to kgen_expr_check_key().  (tests/expr_test.c
 * holds the typer against NVRTC itself.)
 */
#include "config.h"
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gen/expr_type.h"

/* The type of text's root (key k) with typing ty. */
static int
root_type(enum kgen_key k, const char *text, const struct kgen_expr_typing *ty)
{
	struct kgen_expr e;
	int type[KGEN_EXPR_NODES];
	char why[200];
	size_t at;

	ck_assert_msg(kgen_expr_parse_tree(k, text, &e, &at, why, sizeof why) == KGEN_OK, "%s: %s", text, why);
	kgen_expr_types(&e, ty, type);
	return type[e.root];
}

#define ASSERT_TYPE(k, text, ty, want) do {                                                                 \
		int t_ = root_type((k), (text), (ty));                                                      \
		ck_assert_msg(t_ == (want), "%s: %s, not %s", (text), kgen_expr_ctypes[t_].name,             \
		              kgen_expr_ctypes[(want)].name);                                                \
	} while (0)

/* C++'s promotions and usual arithmetic conversions. */
START_TEST(operators_convert_as_cxx)
{
	const struct kgen_expr_typing i32 = { KGEN_EXPR_INT, KGEN_EXPR_ULLONG, KGEN_EXPR_INT, KGEN_EXPR_INT };
	const struct kgen_expr_typing f32 = { KGEN_EXPR_FLOAT, KGEN_EXPR_UINT, KGEN_EXPR_FLOAT, KGEN_EXPR_DOUBLE };

	ASSERT_TYPE(KGEN_KEY_map, "x + 1", &i32, KGEN_EXPR_INT);
	ASSERT_TYPE(KGEN_KEY_map, "x + 1u", &i32, KGEN_EXPR_UINT);
	ASSERT_TYPE(KGEN_KEY_map, "x + 1l", &i32, KGEN_EXPR_LONG);
	ASSERT_TYPE(KGEN_KEY_map, "x + i", &i32, KGEN_EXPR_ULLONG);
	ASSERT_TYPE(KGEN_KEY_map, "1u + 1ll", &i32, KGEN_EXPR_LLONG);      /* long long holds every unsigned */
	ASSERT_TYPE(KGEN_KEY_map, "1ul + 1ll", &i32, KGEN_EXPR_ULLONG);    /* as wide: the unsigned of long long */
	ASSERT_TYPE(KGEN_KEY_map, "(char)x + (short)x", &i32, KGEN_EXPR_INT);
	ASSERT_TYPE(KGEN_KEY_map, "-(unsigned char)x", &i32, KGEN_EXPR_INT);
	ASSERT_TYPE(KGEN_KEY_map, "!x", &i32, KGEN_EXPR_BOOL);
	ASSERT_TYPE(KGEN_KEY_map, "x < 1.5", &i32, KGEN_EXPR_BOOL);
	ASSERT_TYPE(KGEN_KEY_map, "(char)x << 40ll", &i32, KGEN_EXPR_INT); /* a shift: the left side's */
	ASSERT_TYPE(KGEN_KEY_map, "x + 1.5", &f32, KGEN_EXPR_DOUBLE);
	ASSERT_TYPE(KGEN_KEY_map, "x + 1.5f", &f32, KGEN_EXPR_FLOAT);
	ASSERT_TYPE(KGEN_KEY_map, "x + 1ll", &f32, KGEN_EXPR_FLOAT);
	ASSERT_TYPE(KGEN_KEY_map, "i ? x : 1.0l", &f32, KGEN_EXPR_LDOUBLE);
	ASSERT_TYPE(KGEN_KEY_map, "i ? i : i", &f32, KGEN_EXPR_UINT);
	ASSERT_TYPE(KGEN_KEY_map, "(Index)x", &f32, KGEN_EXPR_UINT);
	ASSERT_TYPE(KGEN_KEY_map, "(Acc)x", &i32, KGEN_EXPR_INT);
	ASSERT_TYPE(KGEN_KEY_post, "(Out)a / n", &f32, KGEN_EXPR_DOUBLE);
	ASSERT_TYPE(KGEN_KEY_combine, "a * b", &f32, KGEN_EXPR_FLOAT);
	ASSERT_TYPE(KGEN_KEY_epilogue, "row + col", &f32, KGEN_EXPR_INT);
	ASSERT_TYPE(KGEN_KEY_epilogue, "v + acc + c", &i32, KGEN_EXPR_INT);
}
END_TEST

/* A call takes the overload C++ picks among CUDA's. */
START_TEST(calls_resolve_their_overload)
{
	const struct kgen_expr_typing i32 = { KGEN_EXPR_INT, KGEN_EXPR_ULLONG, KGEN_EXPR_INT, KGEN_EXPR_INT };
	const struct kgen_expr_typing f32 = { KGEN_EXPR_FLOAT, KGEN_EXPR_ULLONG, KGEN_EXPR_FLOAT, KGEN_EXPR_FLOAT };

	ASSERT_TYPE(KGEN_KEY_map, "sqrt(x)", &f32, KGEN_EXPR_FLOAT);
	ASSERT_TYPE(KGEN_KEY_map, "sqrt((double)x)", &f32, KGEN_EXPR_DOUBLE);
	ASSERT_TYPE(KGEN_KEY_map, "sqrtf(x)", &i32, KGEN_EXPR_FLOAT);       /* C's function of floats */
	ASSERT_TYPE(KGEN_KEY_map, "min(x, 1u)", &i32, KGEN_EXPR_UINT);
	ASSERT_TYPE(KGEN_KEY_map, "min(x, 0.5f)", &f32, KGEN_EXPR_FLOAT);
	ASSERT_TYPE(KGEN_KEY_map, "max(x, 1.0)", &f32, KGEN_EXPR_DOUBLE);   /* max(float, double) */
	ASSERT_TYPE(KGEN_KEY_map, "pow(x, 2)", &f32, KGEN_EXPR_FLOAT);      /* pow(float, int) */
	ASSERT_TYPE(KGEN_KEY_map, "abs(x)", &i32, KGEN_EXPR_INT);
	ASSERT_TYPE(KGEN_KEY_map, "isnan(x)", &f32, KGEN_EXPR_INT);
	ASSERT_TYPE(KGEN_KEY_map, "__int_as_float(x)", &i32, KGEN_EXPR_FLOAT);
	ASSERT_TYPE(KGEN_KEY_map, "__double_as_longlong(x)", &f32, KGEN_EXPR_LLONG);
	/* No best overload: C's conversions' type, floating for a floating-only function. */
	ASSERT_TYPE(KGEN_KEY_map, "sqrt(x)", &i32, KGEN_EXPR_DOUBLE);
	ASSERT_TYPE(KGEN_KEY_map, "min(x, 0)", &f32, KGEN_EXPR_FLOAT);
}
END_TEST

/* A spec's types as its generated file declares them. */
START_TEST(typing_of_a_spec)
{
	struct kgen_spec s;
	struct kgen_expr_typing ty;

	memset(&s, 0, sizeof s);
	s.dtype = KGEN_DT_F16;
	s.acc_dtype = KGEN_DT_F32;
	s.out_dtype = KGEN_DT_BF16;
	s.index = 32;
	ty = kgen_expr_typing_of(&s);
	ck_assert_int_eq(ty.x, KGEN_EXPR_FLOAT);
	ck_assert_int_eq(ty.acc, KGEN_EXPR_FLOAT);
	ck_assert_int_eq(ty.out, KGEN_EXPR_FLOAT);
	ck_assert_int_eq(ty.index, KGEN_EXPR_UINT);
	s.dtype = KGEN_DT_U32;
	s.acc_dtype = KGEN_DT_I64;
	s.out_dtype = KGEN_DT_F64;
	s.index = 64;
	ty = kgen_expr_typing_of(&s);
	ck_assert_int_eq(ty.x, KGEN_EXPR_UINT);
	ck_assert_int_eq(ty.acc, KGEN_EXPR_LLONG);
	ck_assert_int_eq(ty.out, KGEN_EXPR_DOUBLE);
	ck_assert_int_eq(ty.index, KGEN_EXPR_ULLONG);
}
END_TEST

/* kgen_expr_parse(): the tree, then the faults every spec's types have
 * (at the operator or the function), not those of some. */
START_TEST(parse_refuses_faults_of_every_spec)
{
	static const struct { const char *text; size_t at; const char *why; } every[] = {
		{ "sqrt(1)", 0, "sqrt(int) is ambiguous in CUDA: cast it, sqrt((float)1)" },
		{ "x + 1.5 % 2", 8, "% takes integers, not double: use fmod(1.5, 2)" },
		{ "~2.0f", 0, "~ takes an integer, not float: convert it, ~(int)2.0f, or take its bits, "
		              "~__float_as_int(2.0f)" },
		{ "pow(1, 2)", 0, "pow(int, int) is ambiguous in CUDA: cast one side, pow((float)1, 2)" },
	};
	static const char *const some[] = { "x % 2", "min(x, 0)", "sqrt(x)", "x << 1", "~x" };
	struct kgen_expr e;
	char why[200];
	size_t k, at;

	for (k = 0; k < sizeof every / sizeof every[0]; k++) {
		ck_assert_msg(kgen_expr_parse(KGEN_KEY_map, every[k].text, &e, &at, why, sizeof why) == KGEN_ESPEC,
		              "%s: accepted", every[k].text);
		ck_assert_msg(strcmp(why, every[k].why) == 0, "%s: %s", every[k].text, why);
		ck_assert_msg(at == every[k].at, "%s: at %zu, not %zu", every[k].text, at, every[k].at);
	}
	for (k = 0; k < sizeof some / sizeof some[0]; k++)
		ck_assert_msg(kgen_expr_parse(KGEN_KEY_map, some[k], &e, &at, why, sizeof why) == KGEN_OK, "%s: %s",
		              some[k], why);
	/* The parser's own faults come through as they are. */
	ck_assert_int_eq(kgen_expr_parse(KGEN_KEY_map, "x;", &e, &at, why, sizeof why), KGEN_ESPEC);
	ck_assert_int_eq(at, 1);
}
END_TEST

/* kgen_expr_check_key(): the spec's types; a value set through
 * kgen_spec_set() (no place in a file) names its character. */
START_TEST(check_key_with_the_spec_s_types)
{
	struct kgen_spec s;
	kgen_error err;

	memset(&s, 0, sizeof s);
	s.dtype = KGEN_DT_F32;
	s.acc_dtype = KGEN_DT_F32;
	s.out_dtype = KGEN_DT_F32;
	s.index = 64;
	s.pos[KGEN_KEY_map].line = -1;
	snprintf(kgen_spec_expr(&s, KGEN_KEY_map), KGEN_EXPR_MAX + 1, "%s", "x % 2");
	ck_assert_int_eq(kgen_expr_check_key(&s, KGEN_KEY_map, &err), KGEN_ESPEC);
	ck_assert_str_eq(err.message, "map: % takes integers, not float: use fmod(x, 2) (at character 3)");
	s.dtype = s.acc_dtype = s.out_dtype = KGEN_DT_I32;
	ck_assert_int_eq(kgen_expr_check_key(&s, KGEN_KEY_map, &err), KGEN_OK);
	snprintf(kgen_spec_expr(&s, KGEN_KEY_map), KGEN_EXPR_MAX + 1, "%s", "");
	ck_assert_int_eq(kgen_expr_check_key(&s, KGEN_KEY_map, &err), KGEN_OK);  /* not given */
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("expr_type");
	TCase *tc = tcase_create("type");

	tcase_add_test(tc, operators_convert_as_cxx);
	tcase_add_test(tc, calls_resolve_their_overload);
	tcase_add_test(tc, typing_of_a_spec);
	tcase_add_test(tc, parse_refuses_faults_of_every_spec);
	tcase_add_test(tc, check_key_with_the_spec_s_types);
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
