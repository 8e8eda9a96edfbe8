/*
 * expr_test.c - op: custom's expressions against NVRTC (gen/expr_type.c): what
 * NVRTC refuses, kgen refuses, at the character at fault, saying what to
 * write instead (a C++ pp-number such as 0xe+1; %, <<, &, ~ of a floating
 * operand; a call CUDA's overloads make ambiguous, sqrt(1), min(x, 0) of a
 * float x; a float literal its type cannot hold); what it says to write,
 * and the neighbours of each fault, are accepted and compiled by NVRTC
 * (kgen_compile() for sm_90: no GPU needed); and the type checker agrees
 * with NVRTC on every function of the table and every operator that takes
 * integers, for every pair of C++'s arithmetic types.
 */
#include "config.h"
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kgen.h"
#include "gen/expr.h"
#include "gen/family.h"
#include "spec_assert.h"

/* The lines of a spec of op: custom before key k's: its types, then the
 * keys it needs besides k. */
static const char *
rest_of(const char *key)
{
	return strcmp(key, "combine") == 0 ? "identity: 0\n" : strcmp(key, "identity") == 0 ? "combine: a + b\n"
	                                                                                  : "combine: a + b\nidentity: 0\n";
}

/* A spec of op: custom with types (its lines: dtype, acc_dtype, index) and `key: value` on its last line. */
static const char *
custom(const char *types, const char *key, const char *value, int *line)
{
	static char yaml[1024];
	const char *c;

	snprintf(yaml, sizeof yaml, "kernel: reduce\nop: custom\n%s%s%s: %s\n", types, rest_of(key), key, value);
	*line = 0;
	for (c = yaml; *c; c++)
		*line += *c == '\n';
	return yaml;
}

/* The error of yaml, refused for an expression: by the loader (a fault
 * whatever the spec's types), or else by kgen_expr_check() with its types. */
static kgen_error
refusal(const char *what, const char *yaml)
{
	kgen_spec *spec = NULL;
	kgen_error err;
	kgen_status st;

	memset(&err, 0, sizeof err);
	st = kgen_spec_load_string(yaml, strlen(yaml), "t.yaml", &spec, &err);
	if (st == KGEN_OK) {
		st = kgen_expr_check((const struct kgen_spec *)spec, &err);
		kgen_spec_free(spec);
	}
	ck_assert_msg(st == KGEN_ESPEC, "%s: %s, not KGEN_ESPEC", what, kgen_status_name(st));
	ck_assert_msg(strcmp(err.file, "t.yaml") == 0, "%s: err.file '%s', not 't.yaml'", what, err.file);
	return err;
}

/* yaml is accepted, checked with its types, generated and compiled by NVRTC. */
static void
assert_compiles(const char *what, const char *yaml)
{
	kgen_spec *spec = NULL;
	kgen_error err;
	char *src = NULL, *log = NULL;
	void *image = NULL;
	size_t size;

	ck_assert_msg(kgen_spec_load_string(yaml, strlen(yaml), "t.yaml", &spec, &err) == KGEN_OK, "%s: %s", what,
	              err.message);
	ck_assert_msg(kgen_expr_check((const struct kgen_spec *)spec, &err) == KGEN_OK, "%s: %s", what, err.message);
	ck_assert_int_eq(kgen_generate(spec, &src, &err), KGEN_OK);
	ck_assert_msg(kgen_compile(src, "e.cu", "sm_90", KGEN_IMAGE_CUBIN, &image, &size, &log, &err) == KGEN_OK,
	              "%s: NVRTC: %s\n%s", what, err.message, log ? log : "");
	free(src);
	free(log);
	free(image);
	kgen_spec_free(spec);
}

/* ---- faults NVRTC would find: refused where they are, with what to write instead ---- */

struct fault_case {
	const char *test;      /* what the row checks */
	const char *types;     /* the spec's type lines */
	const char *key;
	const char *value;     /* as written in the YAML */
	const char *message;
	int column;
	const char *instead;   /* what the message says to write (accepted, compiled), or NULL */
};

#define F32 "dtype: f32\n"
#define F64 "dtype: f64\n"
#define I32 "dtype: i32\n"
#define U32 "dtype: u32\n"
#define I64 "dtype: i64\n"

static const struct fault_case faults[] = {
	/* C++ reads a number as one pp-number: digits, letters, '.', and a sign after e, E, p or P. */
	{ "pp_number", F32, "map", "'0xe+1'", "map: '0xe+1' is one number to C++ (a pp-number): write 0xe + 1", 7,
	  "0xe + 1" },
	{ "pp_number", F32, "map", "'x * 0x1E-1'", "map: '0x1E-1' is one number to C++ (a pp-number): write 0x1E - 1",
	  11, "x * 0x1E - 1" },
	{ "pp_number", F32, "map", "'0xe+'", "map: '0xe+' is one number to C++ (a pp-number): put a space before the +",
	  7, NULL },
	{ "pp_number", F32, "map", "'0xe+x'", "map: '0xe+x' is one number to C++ (a pp-number): write 0xe + x", 7,
	  "0xe + x" },
	{ "pp_number", F32, "map", "'1e+'", "map: '1e+' is not a number", 7, NULL },
	/* Operators that take integers, given a floating operand (NVRTC: "expression must have integral ... type"). */
	{ "modulo_of_a_float", F32, "map", "x % 2", "map: % takes integers, not float: use fmod(x, 2)", 8,
	  "fmod(x, 2)" },
	{ "modulo_of_a_float", F32, "combine", "a % b", "combine: % takes integers, not float: use fmod(a, b)", 12,
	  "fmod(a, b)" },
	{ "modulo_of_a_float", I32, "map", "'x % 1.5'", "map: % takes integers, not double: use fmod(x, 1.5)", 9,
	  "fmod(x, 1.5)" },
	{ "modulo_of_a_float", I32, "map", "'1.5 % 2'", "map: % takes integers, not double: use fmod(1.5, 2)", 11,
	  "fmod(1.5, 2)" },
	{ "bits_of_a_float", F32, "map", "'x << 1'", "map: << takes integers, not float: convert the left side, (int)x, "
	  "or take its bits, __float_as_int(x)", 9, "(int)x << 1" },
	{ "bits_of_a_float", F64, "map", "'x & 1'", "map: & takes integers, not double: convert the left side, "
	  "(long long)x, or take its bits, __double_as_longlong(x)", 9, "__double_as_longlong(x) & 1" },
	{ "bits_of_a_float", I32, "map", "'x ^ (x + 1.0f)'", "map: ^ takes integers, not float: convert the right side, "
	  "(int)(x + 1.0f), or take its bits, __float_as_int(x + 1.0f)", 9, "x ^ (int)(x + 1.0f)" },
	{ "bits_of_a_float", F32, "map", "'~x'", "map: ~ takes an integer, not float: convert it, ~(int)x, or take its "
	  "bits, ~__float_as_int(x)", 7, "~(int)x" },
	/* Calls CUDA's overloads make ambiguous (NVRTC: "more than one instance of overloaded function"). */
	{ "ambiguous_call", F32, "map", "'min(x, 0)'",
	  "map: min(float, int) is ambiguous in CUDA: cast one side, min(x, (float)0)", 7, "min(x, (float)0)" },
	{ "ambiguous_call", F32, "map", "'sqrt(1)'", "map: sqrt(int) is ambiguous in CUDA: cast it, sqrt((float)1)", 7,
	  "sqrt((float)1)" },
	{ "ambiguous_call", F32, "map", "'isnan(1)'", "map: isnan(int) is ambiguous in CUDA: cast it, isnan((float)1)",
	  7, "isnan((float)1)" },
	{ "ambiguous_call", I32, "map", "'x + sqrt(x)'",
	  "map: sqrt(int) is ambiguous in CUDA: cast it, sqrt((float)x)", 11, "x + sqrt((float)x)" },
	{ "ambiguous_call", F32, "map", "'isnan(i) ? 0 : x'",
	  "map: isnan(unsigned long long) is ambiguous in CUDA: cast it, isnan((double)i)", 7,
	  "isnan((double)i) ? 0 : x" },
	{ "ambiguous_call", F32, "map", "'min(i, 1)'",
	  "map: min(unsigned long long, int) is ambiguous in CUDA: cast one side, min(i, (unsigned long long)1)", 7,
	  "min(i, (unsigned long long)1)" },
	{ "ambiguous_call", U32, "map", "'abs(x)'",
	  "map: abs(unsigned int) is ambiguous in CUDA: cast it, abs((long long)x)", 7, "abs((long long)x)" },
	{ "ambiguous_call", F32, "map", "'pow(x, 2.0)'",
	  "map: pow(float, double) is ambiguous in CUDA: cast one side, pow((double)x, 2.0)", 7, "pow((double)x, 2.0)" },
	{ "ambiguous_call", F32, "map", "'pow(1, 2)'",
	  "map: pow(int, int) is ambiguous in CUDA: cast one side, pow((float)1, 2)", 7, "pow((float)1, 2)" },
	{ "ambiguous_call", F32, "map", "'max((long)x, 1ll)'", "map: max(long, long long) is ambiguous in CUDA: cast "
	  "one side, max((long long)(long)x, 1ll)", 7, "max((long long)(long)x, 1ll)" },
	{ "ambiguous_call", F32, "map", "'fma(1, 2, 3)'",
	  "map: fma(int, int, int) is ambiguous in CUDA: cast one argument, fma((float)1, 2, 3)", 7,
	  "fma((float)1, 2, 3)" },
	{ "ambiguous_call", F32, "map", "'sqrt(1.0l)'",
	  "map: sqrt(long double) is ambiguous in CUDA: cast it, sqrt((double)1.0l)", 7, "sqrt((double)1.0l)" },
	{ "ambiguous_call", I32, "combine", "'fmin(a, 1)'",
	  "combine: fmin(int, int) is ambiguous in CUDA: cast one side, fmin((float)a, 1)", 11, "fmin((float)a, 1)" },
	{ "ambiguous_call", I64, "post", "'sqrt(a / n)'",
	  "post: sqrt(unsigned long long) is ambiguous in CUDA: cast it, sqrt((double)(a / n))", 8,
	  "sqrt((double)(a / n))" },
	/* A float literal its type would round to infinity, or to 0 (NVRTC: "floating constant is out of range"). */
	{ "float_out_of_range", F32, "map", "'x + 1e39f'",
	  "map: '1e39f' is too large for a float: the largest is 3.4028235e38f", 11, "x + 1e38f" },
	{ "float_out_of_range", F32, "map", "'x + 1e-50f'",
	  "map: '1e-50f' is too small for a float, which would make it 0: write 0, or at least 1.4e-45f", 11,
	  "x + 1.4e-45f" },
	{ "float_out_of_range", F64, "map", "'x * 1e999'",
	  "map: '1e999' is too large for a double: the largest is 1.7976931348623157e308", 11, NULL },
	/* The column of a fault in a quoted value counts its escapes as written. */
	{ "column_counts_escapes", F32, "map", "\"x\\t% 2\"", "map: % takes integers, not float: use fmod(x, 2)", 10,
	  NULL },
	{ "column_counts_escapes", F32, "map", "\"x\\x20% 2\"", "map: % takes integers, not float: use fmod(x, 2)",
	  12, NULL },
};

START_TEST(fault_refused_where_it_is)
{
	const struct fault_case *c = &faults[_i];
	char what[256];
	int line;
	const char *yaml = custom(c->types, c->key, c->value, &line);
	kgen_error e;

	snprintf(what, sizeof what, "%s: %s: %s", c->test, c->key, c->value);
	e = refusal(what, yaml);
	ck_assert_msg(strcmp(e.message, c->message) == 0, "%s: the message is\n  %s\nnot\n  %s", what, e.message,
	              c->message);
	ck_assert_msg(e.line == line, "%s: line %d, not %d", what, e.line, line);
	ck_assert_msg(e.column == c->column, "%s: column %d, not %d", what, e.column, c->column);
}
END_TEST

/* What the message says to write is accepted, and compiles. */
START_TEST(what_the_message_says_compiles)
{
	const struct fault_case *c = &faults[_i];
	char what[256], quoted[256];
	int line;

	if (!c->instead)
		return;
	snprintf(what, sizeof what, "%s: %s: %s instead of %s", c->test, c->key, c->instead, c->value);
	snprintf(quoted, sizeof quoted, "'%s'", c->instead);
	assert_compiles(what, custom(c->types, c->key, quoted, &line));
}
END_TEST

/* The neighbours of the faults, accepted and compiled: a floating % is
 * fmod, a min of one type, an integer %, numbers apart; and what is a
 * fault for one spec's types is none for another's. */
START_TEST(neighbours_compile)
{
	static const char *const ok[][3] = {
		{ F32, "map", "fmod(x, 2.0f)" },
		{ F32, "map", "min(x, 0.0f)" },
		{ F32, "map", "(int)x % 2" },
		{ F32, "map", "0xe + 1" },
		{ F32, "map", "1e+1 + x" },
		{ F32, "map", "x + 3.4028235e38f + 1.4e-45f" },
		{ I32, "map", "x % 2 + (x << 1) + (x & 1) + ~x" },
		{ I32, "map", "min(x, 0)" },
		{ U32, "map", "min(x, 0)" },
		{ F32 "index: 32\n", "map", "min(i, 1) + x" },
		{ F64, "map", "sqrt(x) + pow(x, 2) + isnan(x)" },
		{ I64, "map", "llabs(x) + abs(x)" },
		{ F32, "combine", "fmaxf(a, b)" },
		{ F32, "post", "sqrt(a / n)" },
	};
	char what[256], quoted[256];
	size_t k;
	int line;

	for (k = 0; k < KGEN_COUNT(ok); k++) {
		snprintf(what, sizeof what, "%s%s: %s", ok[k][0], ok[k][1], ok[k][2]);
		snprintf(quoted, sizeof quoted, "'%s'", ok[k][2]);
		assert_compiles(what, custom(ok[k][0], ok[k][1], quoted, &line));
	}
}
END_TEST

/* A fault of the spec's types in a value set through kgen_spec_set(),
 * which has no place in the file: the character, as the parser's own
 * faults say it. */
START_TEST(set_value_names_its_character)
{
	int line;
	const char *yaml = custom(F32, "map", "x", &line);
	kgen_spec *spec = load(yaml);
	kgen_error err;
	kgen_status st;

	st = kgen_spec_set(spec, "map", "x % 2", &err);
	if (st == KGEN_OK)
		st = kgen_expr_check((const struct kgen_spec *)spec, &err);
	ck_assert_int_eq(st, KGEN_ESPEC);
	ck_assert_str_eq(err.message, "map: % takes integers, not float: use fmod(x, 2) (at character 3)");
	ck_assert_int_eq(err.line, 0);
	kgen_spec_free(spec);
}
END_TEST

/* kgen_expr_check() has nothing to check in another op. */
START_TEST(other_ops_pass)
{
	kgen_spec *spec = load("kernel: reduce\nop: max\ndtype: i32\n");
	kgen_error err;

	ck_assert_int_eq(kgen_expr_check((const struct kgen_spec *)spec, &err), KGEN_OK);
	kgen_spec_free(spec);
}
END_TEST

/* ---- the type checker against NVRTC, every type of every argument ---- */

static const char *const cxx_types[] = {
	"bool", "char", "signed char", "unsigned char", "short", "unsigned short", "int", "unsigned int", "long",
	"unsigned long", "long long", "unsigned long long", "float", "double", "long double",
};

/* The probes: NVRTC source (a function of parameters of the types) and the
 * same as an expression of casts; compiled 90 at a time (NVRTC stops at 100
 * errors), each probe's verdict the one for its line. */
struct probes {
	char (*cu)[160];
	char (*expr)[160];
	int n, cap;
};

static void
probe(struct probes *p, const char *call, int nargs, const int *t)
{
	char params[128] = "", args[96] = "", casts[128] = "";
	int k;

	if (p->n == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 1024;
		p->cu = realloc(p->cu, (size_t)p->cap * sizeof *p->cu);
		p->expr = realloc(p->expr, (size_t)p->cap * sizeof *p->expr);
		ck_assert(p->cu && p->expr);
	}
	for (k = 0; k < nargs; k++) {
		snprintf(params + strlen(params), sizeof params - strlen(params), "%s%s p%d", k ? ", " : "",
		         cxx_types[t[k]], k);
		snprintf(args + strlen(args), sizeof args - strlen(args), "%sp%d", k ? ", " : "", k);
		snprintf(casts + strlen(casts), sizeof casts - strlen(casts), "%s(%s)x", k ? ", " : "", cxx_types[t[k]]);
	}
	if (call[0] == '@') {  /* an operator: "@%" is p0 % p1, "@~" is ~p0 */
		if (nargs == 1)
			snprintf(p->expr[p->n], sizeof p->expr[0], "%s(%s)x", call + 1, cxx_types[t[0]]);
		else
			snprintf(p->expr[p->n], sizeof p->expr[0], "(%s)x %s (%s)x", cxx_types[t[0]], call + 1, cxx_types[t[1]]);
		snprintf(p->cu[p->n], sizeof p->cu[0], "__device__ void f%d(%s) { (void)(%s%s%s); }\n", p->n, params,
		         nargs == 1 ? call + 1 : "p0 ", nargs == 1 ? "p0" : call + 1, nargs == 1 ? "" : " p1");
	} else {
		snprintf(p->expr[p->n], sizeof p->expr[0], "%s(%s)", call, casts);
		snprintf(p->cu[p->n], sizeof p->cu[0], "__device__ void f%d(%s) { (void)%s(%s); }\n", p->n, params, call,
		         args);
	}
	p->n++;
}

START_TEST(checker_agrees_with_nvrtc)
{
	static const char *const calls[][2] = {
		{ "abs", "1" }, { "fabs", "1" }, { "fabsf", "1" }, { "llabs", "1" }, { "sqrt", "1" }, { "rsqrtf", "1" },
		{ "exp2", "1" }, { "log1p", "1" }, { "erf", "1" }, { "round", "1" }, { "isnan", "1" }, { "signbit", "1" },
		{ "__int_as_float", "1" }, { "__double_as_longlong", "1" },
		{ "min", "2" }, { "max", "2" }, { "fmin", "2" }, { "fmaxf", "2" }, { "fmod", "2" }, { "pow", "2" },
		{ "powf", "2" }, { "hypot", "2" }, { "atan2", "2" }, { "copysign", "2" },
		{ "fma", "3" }, { "fmaf", "3" },
		{ "@%", "2" }, { "@<<", "2" }, { "@&", "2" }, { "@|", "2" }, { "@^", "2" }, { "@~", "1" },
	};
	/* Three arguments: a type of each kind, not all fifteen cubed. */
	static const int few[] = { 0, 3, 6, 7, 10, 11, 12, 13, 14 };
	const int nt = (int)KGEN_COUNT(cxx_types), nf = (int)KGEN_COUNT(few);
	struct probes p = { NULL, NULL, 0, 0 };
	int c, a, b, d, t[3], from, disagree = 0;

	for (c = 0; c < (int)KGEN_COUNT(calls); c++) {
		int nargs = atoi(calls[c][1]);
		if (nargs == 1)
			for (a = 0; a < nt; a++) {
				t[0] = a;
				probe(&p, calls[c][0], 1, t);
			}
		else if (nargs == 2)
			for (a = 0; a < nt * nt; a++) {
				t[0] = a / nt;
				t[1] = a % nt;
				probe(&p, calls[c][0], 2, t);
			}
		else
			for (a = 0; a < nf; a++)
				for (b = 0; b < nf; b++)
					for (d = 0; d < nf; d++) {
						t[0] = few[a];
						t[1] = few[b];
						t[2] = few[d];
						probe(&p, calls[c][0], 3, t);
					}
	}
	for (from = 0; from < p.n; from += 90) {
		char *src = NULL, *log = NULL, *at;
		size_t len = 0, size;
		void *image = NULL;
		kgen_error err;
		int k, to = from + 90 < p.n ? from + 90 : p.n, refused[90] = { 0 };
		for (k = from; k < to; k++)
			len += strlen(p.cu[k]);
		src = malloc(len + 1);
		ck_assert_ptr_nonnull(src);
		src[0] = '\0';
		for (k = from, len = 0; k < to; k++) {
			strcpy(src + len, p.cu[k]);
			len += strlen(p.cu[k]);
		}
		kgen_compile(src, "probe.cu", "sm_90", KGEN_IMAGE_PTX, &image, &size, &log, &err);
		for (at = log; at && (at = strstr(at, "probe.cu(")); at++) {
			int l = atoi(at + 9);
			if (strstr(at, "): error") == strchr(at, ')') && l >= 1 && l <= to - from)
				refused[l - 1] = 1;
		}
		ck_assert_msg(!strstr(log ? log : "", "Error limit"), "NVRTC stopped at its error limit");
		for (k = from; k < to; k++) {
			struct kgen_expr e;
			char why[256];
			size_t fault;
			int kgen_refuses = kgen_expr_parse(KGEN_KEY_map, p.expr[k], &e, &fault, why, sizeof why) != KGEN_OK;
			if (kgen_refuses != refused[k - from] && disagree++ < 10)
				fprintf(stderr, "%s: kgen %s it%s%s, NVRTC %s it\n", p.expr[k], kgen_refuses ? "refuses" : "accepts",
				        kgen_refuses ? ": " : "", kgen_refuses ? why : "", refused[k - from] ? "refuses" : "compiles");
		}
		free(src);
		free(log);
		free(image);
	}
	ck_assert_msg(disagree == 0, "kgen and NVRTC disagree on %d of %d calls and operators", disagree, p.n);
	free(p.cu);
	free(p.expr);
}
END_TEST

/* An NVRTC error inside an expression (none that kgen accepts is known to
 * give one: the type checker agrees with NVRTC) is still reported at the
 * spec's line and column (gen/locate.c): a log in NVRTC's form, pointing
 * at the generated combine(), lands on the combine's value, at the caret's
 * character, one further when the value is quoted. */
START_TEST(an_nvrtc_error_in_an_expression_is_placed_in_the_spec)
{
	static const struct { const char *combine; int column; } cases[] = {
		{ "a + b * b", 14 },
		{ "'a + b * b'", 15 },
	};
	size_t i;

	for (i = 0; i < KGEN_COUNT(cases); i++) {
		char yaml[256], log[1024], *src = NULL;
		const char *fn, *line;
		kgen_spec *s = NULL;
		kgen_error err;
		int n = 1, col;

		snprintf(yaml, sizeof yaml, "kernel: reduce\nop: custom\ndtype: f32\nmap: x * x\ncombine: %s\nidentity: 0\n",
		         cases[i].combine);
		ck_assert_int_eq(kgen_spec_load_string(yaml, strlen(yaml), "e.yaml", &s, &err), KGEN_OK);
		ck_assert_int_eq(kgen_generate(s, &src, &err), KGEN_OK);
		ck_assert_ptr_nonnull(fn = strstr(src, " Acc combine(Acc a, Acc b) { return "));
		for (line = src; line < fn; line++)
			n += *line == '\n';
		for (line = fn; line > src && line[-1] != '\n'; line--)
			;
		/* The caret under "b * b", as NVRTC draws it below the source line. */
		col = (int)(strstr(fn, "b * b") - line);
		snprintf(log, sizeof log, "reduce_custom_f32.cu(%d): error: something NVRTC refuses\n  %.*s\n  %*s^\n\n"
		         "1 error detected in the compilation of \"reduce_custom_f32.cu\".\n",
		         n, (int)(strchr(fn, '\n') - line), line, col, "");
		ck_assert_int_eq(kgen_locate_log(s, src, log, &err), KGEN_ESPEC);
		ck_assert_str_eq(err.message, "combine: NVRTC: something NVRTC refuses");
		ck_assert_int_eq(err.line, 5);
		ck_assert_int_eq(err.column, cases[i].column);
		free(src);
		kgen_spec_free(s);
	}
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("expr");
	TCase *tc = tcase_create("faults");

	tcase_add_loop_test(tc, fault_refused_where_it_is, 0, (int)KGEN_COUNT(faults));
	tcase_add_test(tc, set_value_names_its_character);
	tcase_add_test(tc, other_ops_pass);
	tcase_add_test(tc, an_nvrtc_error_in_an_expression_is_placed_in_the_spec);
	suite_add_tcase(s, tc);
	tc = tcase_create("nvrtc");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, what_the_message_says_compiles, 0, (int)KGEN_COUNT(faults));
	tcase_add_test(tc, neighbours_compile);
	tcase_add_test(tc, checker_agrees_with_nvrtc);
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
