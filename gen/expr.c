/*
 * expr.c - parse, type and evaluate the expressions of `op: custom` (expr.h).
 *
 * A hand-written recursive descent over C's precedence levels: the
 * language is a dozen rules, and a parser generator would bring a build
 * dependency and give errors less precise than "at this character".  Then
 * every node gets the C++ type NVRTC gives it, with CUDA's overloads of
 * each function (probed from NVRTC), so that what kgen accepts NVRTC
 * compiles.
 */
#include "config.h"
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "expr.h"

enum { N_NUM, N_VAR, N_UNARY, N_BINARY, N_COND, N_CALL, N_CAST };
enum { V_X, V_I, V_A, V_B, V_N, V_V, V_ACC, V_C, V_ROW, V_COL, V_COUNT };

static const char *const var_names[] = { "x", "i", "a", "b", "n", "v", "acc", "c", "row", "col" };

/* The epilogue's names (matmul): the value, the accumulator and C's old
 * value, of the accumulator's type, and the element's row and column (int). */
#define EPILOGUE_VARS ((1u << V_V) | (1u << V_ACC) | (1u << V_C) | (1u << V_ROW) | (1u << V_COL))
/* Names of the accumulator's type. */
#define IS_ACC_VAR(v) ((v) == V_A || (v) == V_B || (v) == V_V || (v) == V_ACC || (v) == V_C)

/* C++'s arithmetic types (expr.h's table). */
static const struct ctype {
	const char *name;
	int rank, bits, is_signed;
} ctypes[] = {
#define X(id, name, rank, bits, is_signed) { name, rank, bits, is_signed },
	KGEN_EXPR_TYPES(X)
#undef X
};

/* CUDA's overloads of each function, as NVRTC declares them for device
 * code (NVRTC lists a function's candidates when none takes an argument of
 * a struct type; kgen's funcs table names its set): each row the result
 * type, then the parameters' (as many as the function takes). */
struct overload {
	signed char ret, param[3];
};

#define I_ KGEN_EXPR_INT
#define U_ KGEN_EXPR_UINT
#define L_ KGEN_EXPR_LONG
#define UL_ KGEN_EXPR_ULONG
#define LL_ KGEN_EXPR_LLONG
#define ULL_ KGEN_EXPR_ULLONG
#define F_ KGEN_EXPR_FLOAT
#define D_ KGEN_EXPR_DOUBLE
#define LD_ KGEN_EXPR_LDOUBLE
/* sqrt, fmin, fma, ...: float and double (an integer argument is ambiguous). */
static const struct overload ov_fp[] = { { F_, { F_, F_, F_ } }, { D_, { D_, D_, D_ } } };
/* sqrtf, fminf, fmaf, ...: C's function of floats (any argument converts). */
static const struct overload ov_f[] = { { F_, { F_, F_, F_ } } };
static const struct overload ov_abs[] = { { I_, { I_ } }, { L_, { L_ } }, { LL_, { LL_ } }, { F_, { F_ } },
	                                  { D_, { D_ } } };
static const struct overload ov_llabs[] = { { LL_, { LL_ } } };
/* min and max: the integers, signed and unsigned mixed, and the floating types. */
static const struct overload ov_minmax[] = {
	{ I_, { I_, I_ } }, { U_, { U_, U_ } }, { U_, { I_, U_ } }, { U_, { U_, I_ } },
	{ L_, { L_, L_ } }, { UL_, { UL_, UL_ } }, { UL_, { L_, UL_ } }, { UL_, { UL_, L_ } },
	{ LL_, { LL_, LL_ } }, { ULL_, { ULL_, ULL_ } }, { ULL_, { LL_, ULL_ } }, { ULL_, { ULL_, LL_ } },
	{ F_, { F_, F_ } }, { D_, { D_, D_ } }, { D_, { F_, D_ } }, { D_, { D_, F_ } },
};
static const struct overload ov_pow[] = { { D_, { D_, D_ } }, { F_, { F_, F_ } }, { F_, { F_, I_ } },
	                                  { D_, { D_, I_ } } };
static const struct overload ov_copysign[] = { { D_, { D_, D_ } }, { F_, { F_, F_ } }, { D_, { D_, F_ } },
	                                       { D_, { F_, D_ } } };
/* isnan, isinf, isfinite, signbit: an int of a floating argument. */
static const struct overload ov_classify[] = { { I_, { F_ } }, { I_, { D_ } }, { I_, { LD_ } } };
static const struct overload ov_int_as_float[] = { { F_, { I_ } } };
static const struct overload ov_float_as_int[] = { { I_, { F_ } } };
static const struct overload ov_longlong_as_double[] = { { D_, { LL_ } } };
static const struct overload ov_double_as_longlong[] = { { LL_, { D_ } } };
#undef I_
#undef U_
#undef L_
#undef UL_
#undef LL_
#undef ULL_
#undef F_
#undef D_
#undef LD_

/* The functions an expression may call: name, number of arguments, CUDA's
 * overloads (ov_*), and what it computes on the CPU (cpu_*, kgen_expr_eval():
 * a name's variants alike, in the type the overload resolves to).  NVRTC
 * declares them all for device code. */
#define EXPR_FUNCS(X) \
	X(abs, 1, abs, abs) X(fabs, 1, fp, abs) X(fabsf, 1, f, abs) X(llabs, 1, llabs, abs) \
	X(min, 2, minmax, min) X(max, 2, minmax, max) X(fmin, 2, fp, min) X(fminf, 2, f, min) \
	X(fmax, 2, fp, max) X(fmaxf, 2, f, max) X(fmod, 2, fp, fmod) X(fmodf, 2, f, fmod) \
	X(sqrt, 1, fp, sqrt) X(sqrtf, 1, f, sqrt) X(rsqrt, 1, fp, rsqrt) X(rsqrtf, 1, f, rsqrt) \
	X(cbrt, 1, fp, cbrt) X(cbrtf, 1, f, cbrt) X(exp, 1, fp, exp) X(expf, 1, f, exp) \
	X(exp2, 1, fp, exp2) X(exp2f, 1, f, exp2) X(expm1, 1, fp, expm1) X(expm1f, 1, f, expm1) \
	X(log, 1, fp, log) X(logf, 1, f, log) X(log2, 1, fp, log2) X(log2f, 1, f, log2) \
	X(log10, 1, fp, log10) X(log10f, 1, f, log10) X(log1p, 1, fp, log1p) X(log1pf, 1, f, log1p) \
	X(pow, 2, pow, pow) X(powf, 2, f, pow) X(hypot, 2, fp, hypot) X(hypotf, 2, f, hypot) \
	X(sin, 1, fp, sin) X(sinf, 1, f, sin) X(cos, 1, fp, cos) X(cosf, 1, f, cos) \
	X(tan, 1, fp, tan) X(tanf, 1, f, tan) X(tanh, 1, fp, tanh) X(tanhf, 1, f, tanh) \
	X(atan2, 2, fp, atan2) X(atan2f, 2, f, atan2) X(erf, 1, fp, erf) X(erff, 1, f, erf) \
	X(floor, 1, fp, floor) X(floorf, 1, f, floor) X(ceil, 1, fp, ceil) X(ceilf, 1, f, ceil) \
	X(round, 1, fp, round) X(roundf, 1, f, round) X(trunc, 1, fp, trunc) X(truncf, 1, f, trunc) \
	X(fma, 3, fp, fma) X(fmaf, 3, f, fma) X(copysign, 2, copysign, copysign) X(copysignf, 2, f, copysign) \
	X(isnan, 1, classify, isnan) X(isinf, 1, classify, isinf) X(isfinite, 1, classify, isfinite) \
	X(signbit, 1, classify, signbit) X(__int_as_float, 1, int_as_float, int_as_float) \
	X(__float_as_int, 1, float_as_int, float_as_int) \
	X(__longlong_as_double, 1, longlong_as_double, longlong_as_double) \
	X(__double_as_longlong, 1, double_as_longlong, double_as_longlong)

#define X(name, args, set, cpu) F_##name,
enum { EXPR_FUNCS(X) F_COUNT };
#undef X

/* A function's CPU computation: of x, y, z (those it takes), as type t. */
struct val;
typedef struct val cpu_fn(int t, struct val x, struct val y, struct val z);
#define X(name, args, set, cpu) static cpu_fn cpu_##cpu;
EXPR_FUNCS(X)
#undef X

static const struct func {
	const char *name;
	int args;
	const struct overload *ov;
	int n_ov;
	cpu_fn *cpu;
} funcs[] = {
#define X(name, args, set, cpu) { #name, args, ov_##set, (int)KGEN_COUNT(ov_##set), cpu_##cpu },
	EXPR_FUNCS(X)
#undef X
};

/* Arithmetic type names a cast may use (a type is one or more of these). */
static const char *const type_names[] = {
	"Acc", "Index", "Out", "bool", "char", "double", "float", "int", "long", "short", "signed", "unsigned",
};
enum { TN_ACC, TN_INDEX, TN_OUT, TN_BOOL, TN_CHAR, TN_DOUBLE, TN_FLOAT, TN_INT, TN_LONG, TN_SHORT, TN_SIGNED,
       TN_UNSIGNED, TN_COUNT };

/* The type that a cast's words make (count[w]: how many times word w is
 * written, in any order, as C allows), or -1 when they make none. */
static int
cast_type(const int *count)
{
	int words = 0, w, sign = count[TN_SIGNED] + count[TN_UNSIGNED], uns = count[TN_UNSIGNED];

	for (w = 0; w < TN_COUNT; w++)
		words += count[w];
	if (words == 1 && count[TN_ACC])
		return KGEN_EXPR_ACC;
	if (words == 1 && count[TN_INDEX])
		return KGEN_EXPR_INDEX;
	if (words == 1 && count[TN_OUT])
		return KGEN_EXPR_OUT;
	if (words == 1 && count[TN_BOOL])
		return KGEN_EXPR_BOOL;
	if (words == 1 && count[TN_FLOAT])
		return KGEN_EXPR_FLOAT;
	if (count[TN_DOUBLE] == 1 && words == 1 + count[TN_LONG] && count[TN_LONG] <= 1)
		return count[TN_LONG] ? KGEN_EXPR_LDOUBLE : KGEN_EXPR_DOUBLE;
	if (sign > 1)
		return -1;
	if (count[TN_CHAR] == 1 && words == 1 + sign)
		return uns ? KGEN_EXPR_UCHAR : count[TN_SIGNED] ? KGEN_EXPR_SCHAR : KGEN_EXPR_CHAR;
	if (count[TN_SHORT] == 1 && count[TN_INT] <= 1 && words == 1 + count[TN_INT] + sign)
		return uns ? KGEN_EXPR_USHORT : KGEN_EXPR_SHORT;
	if (count[TN_LONG] >= 1 && count[TN_LONG] <= 2 && count[TN_INT] <= 1 && words == count[TN_LONG] + count[TN_INT] + sign)
		return count[TN_LONG] == 1 ? (uns ? KGEN_EXPR_ULONG : KGEN_EXPR_LONG)
		                           : (uns ? KGEN_EXPR_ULLONG : KGEN_EXPR_LLONG);
	if (count[TN_INT] <= 1 && words == count[TN_INT] + sign && words >= 1)
		return uns ? KGEN_EXPR_UINT : KGEN_EXPR_INT;
	return -1;
}

/* Names an expression may not use, with why (what they are). */
static const char *const keyword_names[] = {
	"asm", "break", "case", "class", "const_cast", "continue", "default", "delete", "do", "else", "for", "goto",
	"if", "new", "operator", "reinterpret_cast", "return", "sizeof", "static_cast", "struct", "switch", "template",
	"this", "throw", "typedef", "while",
};

/* Two- and one-character operators, longest first. */
static const char *const operators[] = {
	"<<", ">>", "<=", ">=", "==", "!=", "&&", "||",
	"+", "-", "*", "/", "%", "<", ">", "&", "|", "^", "!", "~", "?", ":", "(", ")", ",",
};

struct parser {
	const char *text, *p;
	struct kgen_expr *e;
	unsigned vars;            /* the names this key declares, a bit per V_* */
	enum kgen_key k;
	const char *key;
	size_t at;                /* offset of the fault */
	char *why;
	size_t whylen;
	int failed, depth;
	/* the current token, and where the one before it ended */
	const char *tok;
	size_t len;
	int kind;                 /* 'n' number, 'i' identifier, 'o' operator, 0 end */
	const char *last_end;
};

static int fail(struct parser *ps, const char *where, const char *fmt, ...) KGEN_PRINTF(3, 4);

/* Record the first fault: where in the text, and why. */
static int
fail(struct parser *ps, const char *where, const char *fmt, ...)
{
	va_list ap;

	if (!ps->failed) {
		ps->failed = 1;
		ps->at = (size_t)(where - ps->text);
		va_start(ap, fmt);
		vsnprintf(ps->why, ps->whylen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* Is sfx (len letters of uUlLfF) one of C's suffixes?  A floating number
 * (a '.' or an exponent) takes f or l; an integer u, l or ll, u before or
 * after the l's, in either case (ll or LL, not lL). */
static int
suffix_ok(const char *sfx, size_t len, int floating)
{
	if (floating)
		return len == 0 || (len == 1 && strchr("fFlL", sfx[0]));
	if (len && (sfx[0] == 'u' || sfx[0] == 'U')) {
		sfx++;
		len--;
	} else if (len && (sfx[len - 1] == 'u' || sfx[len - 1] == 'U')) {
		len--;
	}
	return len == 0 || (len == 1 && (sfx[0] == 'l' || sfx[0] == 'L')) ||
	       (len == 2 && sfx[0] == sfx[1] && (sfx[0] == 'l' || sfx[0] == 'L'));
}

/* The end of the number that starts at p (a digit, or '.' and a digit) as
 * C++ reads it: one pp-number, of digits, letters, '_', '.' and a sign
 * after each e, E, p or P, checked as a whole once read ([lex.ppnumber]).
 * So 0xe+1 is one number to NVRTC (and a bad one), not 0xe + 1. */
static const char *
pp_number_end(const char *p)
{
	for (p++;;) {
		if (*p && strchr("eEpP", *p) && (p[1] == '+' || p[1] == '-'))
			p += 2;
		else if (isalnum((unsigned char)*p) || *p == '_' || *p == '.')
			p++;
		else
			return p;
	}
}

/* A number token: the whole pp-number, which must be one C number: digits
 * (hex, or decimal with a '.' and an exponent), then a suffix of C's. */
static void
number_token(struct parser *ps, const char *p)
{
	const char *q = p, *end = pp_number_end(p), *sign;
	int floating = 0;

	if (q[0] == '0' && (q[1] == 'x' || q[1] == 'X'))
		for (q += 2; isxdigit((unsigned char)*q); q++)
			;
	else {
		for (; isdigit((unsigned char)*q) || *q == '.'; q++)
			floating |= *q == '.';
		if ((*q == 'e' || *q == 'E') &&
		    (isdigit((unsigned char)q[1]) || ((q[1] == '+' || q[1] == '-') && isdigit((unsigned char)q[2])))) {
			floating = 1;
			for (q += 2; isdigit((unsigned char)*q); q++)
				;
		}
	}
	/* A sign that no exponent took: the text before it may be a number, but C++ reads on. */
	for (sign = q; sign < end && *sign != '+' && *sign != '-'; sign++)
		;
	if (sign < end) {
		if (strspn(q, "uUlLfF") < (size_t)(sign - q) || !suffix_ok(q, (size_t)(sign - q), floating))
			fail(ps, p, "'%.*s' is not a number", (int)(end - p), p);
		else if (sign + 1 < end)
			fail(ps, p, "'%.*s' is one number to C++ (a pp-number): write %.*s %c %.*s", (int)(end - p), p,
			     (int)(sign - p), p, *sign, (int)(end - sign - 1), sign + 1);
		else
			fail(ps, p, "'%.*s' is one number to C++ (a pp-number): put a space before the %c", (int)(end - p), p,
			     *sign);
		return;
	}
	if (strspn(q, "uUlLfF") < (size_t)(end - q)) {
		fail(ps, p, "'%.*s' is not a number", (int)(end - p), p);
		return;
	}
	if (!suffix_ok(q, (size_t)(end - q), floating)) {
		if (floating)
			fail(ps, p, "'%.*s': C has no suffix %.*s for a floating number: it takes f or l", (int)(end - p), p,
			     (int)(end - q), q);
		else if (end - q == 1 && (*q == 'f' || *q == 'F'))
			fail(ps, p, "'%.*s': C has no suffix %c for an integer: write %.*s.0%c", (int)(end - p), p, *q,
			     (int)(q - p), p, *q);
		else
			fail(ps, p, "'%.*s': C has no suffix %.*s for an integer: it takes u, l, ll, ul, ull, lu or llu "
			     "(either case)", (int)(end - p), p, (int)(end - q), q);
		return;
	}
	ps->kind = 'n';
	ps->len = (size_t)(end - p);
	ps->p = end;
}

/* The next token, or a fault for text an expression may not hold. */
static void
next(struct parser *ps)
{
	const char *p = ps->p;
	size_t i;

	ps->last_end = ps->tok ? ps->tok + ps->len : ps->text;
	while (*p == ' ' || *p == '\t')
		p++;
	ps->tok = p;
	ps->len = 0;
	ps->kind = 0;
	if (!*p)
		return;
	if (isdigit((unsigned char)*p) || (*p == '.' && isdigit((unsigned char)p[1]))) {
		number_token(ps, p);
		return;
	}
	if (isalpha((unsigned char)*p) || *p == '_') {
		const char *q = p;
		while (isalnum((unsigned char)*q) || *q == '_')
			q++;
		ps->kind = 'i';
		ps->len = (size_t)(q - p);
		ps->p = q;
		return;
	}
	switch (*p) {
	case ';': fail(ps, p, "';' ends a statement: an expression is one C expression, not statements"); return;
	case '{': case '}': fail(ps, p, "a brace would open or close a block: an expression has none"); return;
	case '\n': case '\r': fail(ps, p, "an expression is one line"); return;
	case '#': fail(ps, p, "'#' would start a preprocessor line"); return;
	case '"': fail(ps, p, "a string literal has no place in an expression"); return;
	case '\'': fail(ps, p, "a character literal has no place in an expression: write its number"); return;
	case '\\': fail(ps, p, "a backslash has no place in an expression"); return;
	case '[': case ']': fail(ps, p, "subscripts: each name is one value, not an array"); return;
	case '=':
		if (p[1] != '=') {
			fail(ps, p, "'=' assigns: an expression computes a value without assigning (use == to compare)");
			return;
		}
		break;
	case '/':
		if (p[1] == '/' || p[1] == '*') {
			fail(ps, p, "a comment has no place in an expression");
			return;
		}
		break;
	case '.': fail(ps, p, "'.': members are not part of an expression"); return;
	default: break;
	}
	if ((p[0] == '+' && p[1] == '+') || (p[0] == '-' && p[1] == '-')) {
		fail(ps, p, "'%.2s' assigns: an expression computes a value without assigning", p);
		return;
	}
	if (strchr("+-*/%&|^<>", p[0]) && p[1] == '=' && !(p[0] == '<' || p[0] == '>')) {
		fail(ps, p, "'%.2s' assigns: an expression computes a value without assigning", p);
		return;
	}
	if ((p[0] == '<' && p[1] == '<' && p[2] == '=') || (p[0] == '>' && p[1] == '>' && p[2] == '=')) {
		fail(ps, p, "'%.3s' assigns: an expression computes a value without assigning", p);
		return;
	}
	if (p[0] == '-' && p[1] == '>') {
		fail(ps, p, "'->': members are not part of an expression");
		return;
	}
	for (i = 0; i < KGEN_COUNT(operators); i++)
		if (strncmp(p, operators[i], strlen(operators[i])) == 0) {
			ps->kind = 'o';
			ps->len = strlen(operators[i]);
			ps->p = p + ps->len;
			return;
		}
	if ((unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7f)
		fail(ps, p, "a control or non-ASCII character has no place in an expression");
	else
		fail(ps, p, "'%.1s' has no place in an expression", p);
}

static int
is(struct parser *ps, const char *op)
{
	return ps->kind == 'o' && ps->len == strlen(op) && strncmp(ps->tok, op, ps->len) == 0;
}

static int
node(struct parser *ps, int kind, int op, int a, int b, int c)
{
	struct kgen_expr_node *x;

	if (ps->failed)
		return -1;
	if (ps->e->n >= KGEN_EXPR_NODES)
		return fail(ps, ps->tok, "the expression is too long (more than %s nodes)", "128");
	x = &ps->e->node[ps->e->n];
	memset(x, 0, sizeof *x);
	x->kind = kind;
	x->op = op;
	x->a = a;
	x->b = b;
	x->c = c;
	return ps->e->n++;
}

static int in_list(const char *tok, size_t len, const char *const *list, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strlen(list[i]) == len && strncmp(list[i], tok, len) == 0)
			return (int)i;
	return -1;
}

static int expr(struct parser *ps);
static int unary(struct parser *ps);

/* Node n's place in the text: from `at` to the end of the last token read,
 * a fault of it shown at op_at. */
static int
span(struct parser *ps, int n, const char *at, const char *op_at)
{
	if (n >= 0) {
		ps->e->node[n].at = (int)(at - ps->text);
		ps->e->node[n].end = (int)(ps->last_end - ps->text);
		ps->e->node[n].op_at = (int)(op_at - ps->text);
	}
	return n;
}

/* A floating number's type, float (f), long double (l) or double, which
 * must hold it: NVRTC refuses a number that its type would round to
 * infinity, or to 0 when it is not 0 ("floating constant is out of
 * range"). */
static int
float_type(struct parser *ps, const char *buf)
{
	int f = strpbrk(buf, "fF") != NULL, l = strpbrk(buf, "lL") != NULL, nonzero = 0;
	const char *type = f ? "float" : l ? "long double (a double on the GPU)" : "double", *d;
	double v = f ? strtof(buf, NULL) : strtod(buf, NULL);

	for (d = buf; *d && *d != 'e' && *d != 'E'; d++)
		nonzero |= *d >= '1' && *d <= '9';
	if (isinf(v))
		return fail(ps, ps->tok, "'%s' is too large for a %s: the largest is %s", buf, type,
		            f ? "3.4028235e38f" : "1.7976931348623157e308");
	if (v == 0 && nonzero)
		return fail(ps, ps->tok, "'%s' is too small for a %s, which would make it 0: write 0, or at least %s", buf,
		            type, f ? "1.4e-45f" : "4.9e-324");
	return f ? KGEN_EXPR_FLOAT : l ? KGEN_EXPR_LDOUBLE : KGEN_EXPR_DOUBLE;
}

/* An integer's type as C++ gives it: the first of its suffix's list that
 * holds it ([lex.icon]; a decimal one is signed unless it says u), long
 * being long long's size on CUDA's 64-bit hosts; -1 when none does. */
static int
int_type(unsigned long long u, int uns, int longs, int decimal)
{
	int list[6], n = 0, k;

	if (!uns) {
		if (!longs)
			list[n++] = KGEN_EXPR_INT;
		if (!longs && !decimal)
			list[n++] = KGEN_EXPR_UINT;
		if (longs < 2)
			list[n++] = KGEN_EXPR_LONG;
		if (longs < 2 && !decimal)
			list[n++] = KGEN_EXPR_ULONG;
		list[n++] = KGEN_EXPR_LLONG;
		if (!decimal)
			list[n++] = KGEN_EXPR_ULLONG;
	} else {
		if (!longs)
			list[n++] = KGEN_EXPR_UINT;
		if (longs < 2)
			list[n++] = KGEN_EXPR_ULONG;
		list[n++] = KGEN_EXPR_ULLONG;
	}
	for (k = 0; k < n; k++) {
		const struct ctype *c = &ctypes[list[k]];
		if (u <= (c->bits == 64 ? (c->is_signed ? 0x7fffffffffffffffull : ~0ull)
		                        : (c->is_signed ? 0x7fffffffull : 0xffffffffull)))
			return list[k];
	}
	return -1;
}

/* A number: its value, and its C++ type. */
static int
number(struct parser *ps)
{
	const char *at = ps->tok;
	char buf[64], *end;
	int n, t, is_float, uns, longs, decimal;
	unsigned long long u = 0;

	if (ps->len >= sizeof buf)
		return fail(ps, at, "a number of more than %s characters", "63");
	memcpy(buf, at, ps->len);
	buf[ps->len] = '\0';
	/* next() has checked the suffix: a floating number has a '.' or an exponent. */
	decimal = !(buf[0] == '0' && buf[1] != '\0' && buf[1] != '.');  /* not hex or octal */
	is_float = !(buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X')) && strpbrk(buf, ".eE") != NULL;
	if ((n = node(ps, N_NUM, 0, -1, -1, -1)) < 0)
		return -1;
	errno = 0;
	if (is_float)
		ps->e->node[n].f = strtold(buf, &end);
	else
		u = strtoull(buf, &end, 0);
	uns = strpbrk(end, "uU") != NULL;
	longs = (int)strspn(end + (*end == 'u' || *end == 'U'), "lL");
	end += strspn(end, "uUlLfF");
	if (*end)
		return fail(ps, at, "'%s' is not a number", buf);
	if (is_float) {
		if ((t = float_type(ps, buf)) < 0)
			return -1;
	} else {
		if (errno)
			return fail(ps, at, "'%s' is out of range", buf);
		if ((t = int_type(u, uns, longs, decimal)) < 0)
			return fail(ps, at, "'%s' is too large for long long: write %su", buf, buf);
		ps->e->node[n].i = (long long)u;
	}
	ps->e->node[n].type = t;
	next(ps);
	return span(ps, n, at, at);
}

/* A name: one of the key's variables, or a call of one of the functions. */
static int
name_or_call(struct parser *ps)
{
	const char *at = ps->tok;
	int v, f, args[3], nargs = 0;
	char name[64];

	snprintf(name, sizeof name, "%.*s", (int)(ps->len < 63 ? ps->len : 63), at);
	if ((v = in_list(at, ps->len, var_names, KGEN_COUNT(var_names))) >= 0) {
		if (!(ps->vars & (1u << v)))
			return fail(ps, at, "'%s' is not a name of %s, which has %s", name, ps->key, kgen_expr_names(ps->k));
		next(ps);
		return span(ps, node(ps, N_VAR, v, -1, -1, -1), at, at);
	}
	for (f = 0; f < F_COUNT; f++)
		if (strlen(funcs[f].name) == ps->len && strncmp(funcs[f].name, at, ps->len) == 0)
			break;
	if (f == F_COUNT) {
		if (in_list(at, ps->len, type_names, KGEN_COUNT(type_names)) >= 0)
			return fail(ps, at, "'%s' is a type: write a cast as (type)value", name);
		if (in_list(at, ps->len, keyword_names, KGEN_COUNT(keyword_names)) >= 0)
			return fail(ps, at, "'%s' is a C++ keyword an expression cannot use", name);
		return fail(ps, at, "unknown name '%s': an expression uses its own names and the functions "
		            "listed in docs/spec.md", name);
	}
	next(ps);
	if (!is(ps, "("))
		return fail(ps, ps->tok, "'%s' is a function: call it, as name(...)", funcs[f].name);
	next(ps);
	for (;;) {
		if (nargs == funcs[f].args)
			return fail(ps, ps->tok, "too many arguments to %s", funcs[f].name);
		if ((args[nargs++] = expr(ps)) < 0)
			return -1;
		if (is(ps, ")"))
			break;
		if (!is(ps, ","))
			return fail(ps, ps->tok, "expected ',' or ')' in the call of %s", funcs[f].name);
		next(ps);
	}
	if (nargs != funcs[f].args) {
		char msg[96];
		snprintf(msg, sizeof msg, "%s takes %d argument%s", funcs[f].name, funcs[f].args,
		         funcs[f].args > 1 ? "s" : "");
		return fail(ps, ps->tok, "%s", msg);
	}
	next(ps);
	return span(ps, node(ps, N_CALL, f, args[0], nargs > 1 ? args[1] : -1, nargs > 2 ? args[2] : -1), at, at);
}

/* After a '(': a cast (type words up to ')', which must make one C type,
 * then the value cast) or a parenthesised expression. */
static int
paren(struct parser *ps)
{
	const char *open = ps->tok;
	int n, v;

	next(ps);
	if (ps->kind == 'i' && in_list(ps->tok, ps->len, type_names, KGEN_COUNT(type_names)) >= 0) {
		int count[KGEN_COUNT(type_names)] = { 0 }, w, type;
		const char *first = ps->tok, *last = ps->tok + ps->len;
		while (ps->kind == 'i' && (w = in_list(ps->tok, ps->len, type_names, KGEN_COUNT(type_names))) >= 0) {
			if (w == TN_OUT && ps->k != KGEN_KEY_post)
				return fail(ps, ps->tok, "Out, the result type, is post's");
			count[w]++;
			last = ps->tok + ps->len;
			next(ps);
		}
		if ((type = cast_type(count)) < 0)
			return fail(ps, first, "'%.*s' is not a C type", (int)(last - first), first);
		if (!is(ps, ")"))
			return fail(ps, ps->tok, "expected ')' to end the cast");
		next(ps);
		if ((v = unary(ps)) < 0)
			return -1;
		if ((n = node(ps, N_CAST, 0, v, -1, -1)) >= 0)
			ps->e->node[n].type = type;
		return span(ps, n, open, open);
	}
	if ((n = expr(ps)) < 0)
		return -1;
	if (!is(ps, ")"))
		return fail(ps, ps->tok, "expected ')' to close a '('");
	next(ps);
	/* The parentheses are the value's text too: a message that casts it needs none more. */
	return span(ps, n, open, ps->text + ps->e->node[n].op_at);
}

/* A value: a number, a name or call, a cast or a parenthesised expression. */
static int
primary(struct parser *ps)
{
	const char *at = ps->tok;

	if (ps->failed)
		return -1;
	if (ps->kind == 'n')
		return number(ps);
	if (ps->kind == 'i')
		return name_or_call(ps);
	if (is(ps, "("))
		return paren(ps);
	if (ps->kind == 0)
		return fail(ps, at, "the expression ends where a value is expected");
	return fail(ps, at, "'%.*s' where a value is expected", (int)ps->len, at);
}

static int
unary(struct parser *ps)
{
	static const char *const ops[] = { "-", "+", "!", "~" };
	const char *at = ps->tok;
	size_t i;
	int a;

	if (ps->failed)
		return -1;
	for (i = 0; i < KGEN_COUNT(ops); i++)
		if (is(ps, ops[i])) {
			if (++ps->depth > 64)
				return fail(ps, ps->tok, "the expression nests more than %s levels deep", "64");
			next(ps);
			if ((a = unary(ps)) < 0)
				return -1;
			ps->depth--;
			return span(ps, node(ps, N_UNARY, ops[i][0], a, -1, -1), at, at);
		}
	return primary(ps);
}

/* Binary levels, loosest first: each a list of operators. */
static const char *const levels[][5] = {
	{ "||" }, { "&&" }, { "|" }, { "^" }, { "&" }, { "==", "!=" }, { "<", ">", "<=", ">=" }, { "<<", ">>" },
	{ "+", "-" }, { "*", "/", "%" },
};

/* The operator's code: its characters packed (c0 | c1 << 8). */
static int
op_code(const char *op)
{
	return (unsigned char)op[0] | ((unsigned char)op[1] << 8);
}

static int
binary(struct parser *ps, int level)
{
	int a, b, j, matched;

	if (level == (int)KGEN_COUNT(levels))
		return unary(ps);
	if ((a = binary(ps, level + 1)) < 0)
		return -1;
	do {
		matched = 0;
		for (j = 0; j < 5 && levels[level][j]; j++)
			if (is(ps, levels[level][j])) {
				int code = op_code(levels[level][j]);
				const char *op = ps->tok;
				next(ps);
				if ((b = binary(ps, level + 1)) < 0)
					return -1;
				if ((a = span(ps, node(ps, N_BINARY, code, a, b, -1), ps->text + ps->e->node[a].at, op)) < 0)
					return -1;
				matched = 1;
				break;
			}
	} while (matched && !ps->failed);
	return ps->failed ? -1 : a;
}

static int
expr(struct parser *ps)
{
	int c, a, b;

	if (++ps->depth > 64)
		return fail(ps, ps->tok, "the expression nests more than %s levels deep", "64");
	if ((c = binary(ps, 0)) < 0)
		return -1;
	if (is(ps, "?")) {
		const char *q = ps->tok;
		next(ps);
		if ((a = expr(ps)) < 0)
			return -1;
		if (!is(ps, ":"))
			return fail(ps, ps->tok, "expected ':' of the '?'");
		next(ps);
		if ((b = expr(ps)) < 0)
			return -1;
		c = span(ps, node(ps, N_COND, 0, c, a, b), ps->text + ps->e->node[c].at, q);
	}
	ps->depth--;
	return c;
}

static unsigned
key_vars(enum kgen_key k)
{
	switch (k) {
	case KGEN_KEY_map: return (1u << V_X) | (1u << V_I);
	case KGEN_KEY_combine: return (1u << V_A) | (1u << V_B);
	case KGEN_KEY_post: return (1u << V_A) | (1u << V_N);
	case KGEN_KEY_epilogue: return EPILOGUE_VARS;
	default: return 0;
	}
}

const char *
kgen_expr_names(enum kgen_key k)
{
	switch (k) {
	case KGEN_KEY_map: return "x and i";
	case KGEN_KEY_combine: return "a and b";
	case KGEN_KEY_post: return "a and n";
	case KGEN_KEY_epilogue: return "v, acc, c, row and col";
	default: return "none (a constant)";
	}
}

/* ---- types: each node's C++ type, as NVRTC gives it ----
 *
 * Numbers have their literal's type, casts theirs, names and the Acc, Out
 * and Index casts the spec's; operators follow C++'s promotions and usual
 * arithmetic conversions, and a call takes the overload that C++'s
 * overload resolution picks among CUDA's (ov_*).  Where NVRTC would stop,
 * so does kgen, at the operator or the function: an operator that takes
 * integers given a floating operand, a call with no best overload. */

/* The types of the names and of the Acc, Out and Index casts (KGEN_EXPR_*). */
struct typing {
	int x, index, acc, out;
};

/* The first fault met, node by node: where, and why. */
struct fault {
	const char *text;   /* the expression, whose operands a message quotes */
	int found;
	size_t at;
	char why[200];
};

static void found(struct fault *fl, int at, const char *fmt, ...) KGEN_PRINTF(3, 4);

/* Record a fault at text offset `at`, unless one came first (or fl is NULL: typing only). */
static void
found(struct fault *fl, int at, const char *fmt, ...)
{
	va_list ap;

	if (!fl || fl->found)
		return;
	fl->found = 1;
	fl->at = (size_t)at;
	va_start(ap, fmt);
	vsnprintf(fl->why, sizeof fl->why, fmt, ap);
	va_end(ap);
}

static int
is_fp(int t)
{
	return ctypes[t].rank >= ctypes[KGEN_EXPR_FLOAT].rank;
}

/* t after C++'s integral promotion: bool, char and short become int. */
static int
promote(int t)
{
	return ctypes[t].rank < ctypes[KGEN_EXPR_INT].rank ? KGEN_EXPR_INT : t;
}

/* The type of p op q after C++'s usual arithmetic conversions. */
static int
arith(int p, int q)
{
	int u, s;

	if (is_fp(p) || is_fp(q))
		return is_fp(p) && (!is_fp(q) || ctypes[p].rank >= ctypes[q].rank) ? p : q;
	p = promote(p);
	q = promote(q);
	if (p == q)
		return p;
	if (ctypes[p].is_signed == ctypes[q].is_signed)
		return ctypes[p].rank >= ctypes[q].rank ? p : q;
	u = ctypes[p].is_signed ? q : p;
	s = ctypes[p].is_signed ? p : q;
	if (ctypes[u].rank >= ctypes[s].rank)
		return u;
	if (ctypes[s].bits > ctypes[u].bits)
		return s;
	return s + 1;  /* the unsigned type of s's rank, after it in the table */
}

/* How well an argument of type a matches a parameter of type p: 0 exactly,
 * 1 by a promotion (bool, char or short to int; float to double), 2 by a
 * conversion (any other: every arithmetic type converts to every other). */
static int
match(int a, int p)
{
	if (a == p)
		return 0;
	if ((p == KGEN_EXPR_INT && ctypes[a].rank < ctypes[KGEN_EXPR_INT].rank) ||
	    (a == KGEN_EXPR_FLOAT && p == KGEN_EXPR_DOUBLE))
		return 1;
	return 2;
}

/* The overload of f that C++ calls with arguments of types args[]: the one
 * that matches each argument at least as well as every other overload, and
 * one argument better; -1 when none does (NVRTC: "more than one instance
 * of overloaded function matches the argument list"). */
static int
resolve(const struct func *f, const int *args)
{
	int i, j, k;

	for (i = 0; i < f->n_ov; i++) {
		for (j = 0; j < f->n_ov; j++) {
			int better = 0, worse = 0;
			if (j == i)
				continue;
			for (k = 0; k < f->args; k++) {
				int mi = match(args[k], f->ov[i].param[k]), mj = match(args[k], f->ov[j].param[k]);
				better |= mi < mj;
				worse |= mi > mj;
			}
			if (worse || !better)
				break;
		}
		if (j == f->n_ov)
			return i;
	}
	return -1;
}

/* Is text[at..end) one parenthesised whole, "(...)"? */
static int
parenthesised(const char *text, int at, int end)
{
	int depth = 0, i;

	if (end - at < 2 || text[at] != '(' || text[end - 1] != ')')
		return 0;
	for (i = at; i < end - 1; i++) {
		depth += text[i] == '(' ? 1 : text[i] == ')' ? -1 : 0;
		if (depth == 0)
			return 0;
	}
	return 1;
}

/* Node k's text for a message, cast to type t (-1: none, for a function's
 * argument): a cast takes an operand of a binary or ?: operator in
 * parentheses, an argument needs none of its own; more than 24 characters
 * are cut to 21 and "...". */
static void
operand_text(char *buf, size_t n, const struct kgen_expr *e, const char *text, int k, int t)
{
	const struct kgen_expr_node *x = &e->node[k];
	int at = x->at, len = x->end - x->at, whole = parenthesised(text, x->at, x->end);
	int wrap = t >= 0 && (x->kind == N_BINARY || x->kind == N_COND) && !whole;

	if (t < 0 && whole) {
		at++;
		len -= 2;
	}
	snprintf(buf, n, "%s%s%s%s%.*s%s%s", t >= 0 ? "(" : "", t >= 0 ? ctypes[t].name : "", t >= 0 ? ")" : "",
	         wrap ? "(" : "", len > 24 ? 21 : len, text + at, len > 24 ? "..." : "", wrap ? ")" : "");
}

/* A call of function f on argument nodes args[] (of types types[]) that
 * CUDA can resolve: some arguments cast to one type, the widest floating
 * type among them (double for long double), else their common type, long
 * long, float or double: the first that resolves, with as few casts as
 * will do.  Into buf, and how many casts it takes (-1: none found). */
static int
suggest_call(char *buf, size_t n, const struct kgen_expr *e, const char *text, int f, const int *args,
             const int *types)
{
	int targets[5], nt = 0, fmax = -1, common = types[0], wide = 0, k, j, cast[3], t[3], casts;
	size_t len;

	for (k = 0; k < funcs[f].args; k++) {
		if (is_fp(types[k]) && (fmax < 0 || ctypes[types[k]].rank > ctypes[fmax].rank))
			fmax = types[k];
		common = arith(common, types[k]);
		wide |= !is_fp(types[k]) && ctypes[types[k]].bits == 64;
	}
	if (fmax >= 0)
		targets[nt++] = fmax == KGEN_EXPR_LDOUBLE ? KGEN_EXPR_DOUBLE : fmax;
	else
		targets[nt++] = common;
	targets[nt++] = KGEN_EXPR_LLONG;
	targets[nt++] = wide ? KGEN_EXPR_DOUBLE : KGEN_EXPR_FLOAT;
	targets[nt++] = wide ? KGEN_EXPR_FLOAT : KGEN_EXPR_DOUBLE;
	for (j = 0; j < nt; j++) {
		for (k = 0; k < funcs[f].args; k++) {
			cast[k] = types[k] != targets[j];
			t[k] = targets[j];
		}
		if (resolve(&funcs[f], t) < 0)
			continue;
		/* As few casts as resolve: drop each, the last first, where the call still resolves without it. */
		for (k = funcs[f].args - 1; k >= 0; k--)
			if (cast[k]) {
				t[k] = types[k];
				if (resolve(&funcs[f], t) >= 0)
					cast[k] = 0;
				else
					t[k] = targets[j];
			}
		casts = 0;
		snprintf(buf, n, "%s(", funcs[f].name);
		for (k = 0; k < funcs[f].args; k++) {
			len = strlen(buf);
			if (k)
				snprintf(buf + len, n - len, ", ");
			len = strlen(buf);
			operand_text(buf + len, n - len, e, text, args[k], cast[k] ? targets[j] : -1);
			casts += cast[k];
		}
		len = strlen(buf);
		snprintf(buf + len, n - len, ")");
		return casts;
	}
	buf[0] = '\0';
	return -1;
}

/* The type of call node `at` (its arguments typed): its overload's
 * result; where CUDA has no best overload, a fault, and the type C's
 * conversions would give (floating for a floating-only function). */
static int
call_type(const struct kgen_expr *e, int at, const int *type, struct fault *fl)
{
	const struct kgen_expr_node *x = &e->node[at];
	const struct func *f = &funcs[x->op];
	int args[3] = { x->a, x->b, x->c }, types[3], k, o, t, casts, int_params = 0;
	char list[80] = "", call[120];
	size_t len;

	for (k = 0; k < f->args; k++)
		types[k] = type[args[k]];
	if ((o = resolve(f, types)) >= 0)
		return f->ov[o].ret;
	if (fl && !fl->found) {
		static const char *const what[3][3] = {
			{ "it" }, { "one side", "both" }, { "one argument", "two arguments", "all three" },
		};
		for (k = 0; k < f->args; k++) {
			len = strlen(list);
			snprintf(list + len, sizeof list - len, "%s%s", k ? ", " : "", ctypes[types[k]].name);
		}
		if ((casts = suggest_call(call, sizeof call, e, fl->text, x->op, args, types)) > 0)
			found(fl, x->op_at, "%s(%s) is ambiguous in CUDA: cast %s, %s", f->name, list,
			      what[f->args - 1][casts - 1], call);
		else
			found(fl, x->op_at, "%s(%s) is ambiguous in CUDA: cast the arguments", f->name, list);
	}
	t = types[0];
	for (k = 1; k < f->args; k++)
		t = arith(t, types[k]);
	for (o = 0; o < f->n_ov; o++)
		int_params |= !is_fp(f->ov[o].param[0]);
	return t == KGEN_EXPR_LDOUBLE || (!is_fp(t) && !int_params) ? KGEN_EXPR_DOUBLE : t;
}

static int
is_compare(int op)
{
	return op == '<' || op == '>' || op == op_code("<=") || op == op_code(">=") || op == op_code("==") ||
	       op == op_code("!=") || op == op_code("&&") || op == op_code("||");
}

static int
is_shift(int op)
{
	return op == op_code("<<") || op == op_code(">>");
}

/* Operators that take integers only: %, &, |, ^, << and >> (and unary ~). */
static int
takes_integers(int op)
{
	return op == '%' || op == '&' || op == '|' || op == '^' || is_shift(op);
}

/* The fault of operator node `at`, given floating operand k (of type t):
 * what to write instead, fmod for %, a conversion or the bits for the
 * others. */
static void
integer_fault(struct fault *fl, const struct kgen_expr *e, int at, int k, const int *type)
{
	const struct kgen_expr_node *x = &e->node[at];
	const char *bits = type[k] == KGEN_EXPR_FLOAT ? "__float_as_int" : "__double_as_longlong";
	int to = type[k] == KGEN_EXPR_FLOAT ? KGEN_EXPR_INT : KGEN_EXPR_LLONG, args[2] = { x->a, x->b };
	int types[2] = { type[x->a], x->b >= 0 ? type[x->b] : 0 };
	char op[3] = { (char)(x->op & 0xff), (char)(x->op >> 8), 0 }, conv[64], raw[64], call[120];

	if (!fl || fl->found)
		return;
	operand_text(conv, sizeof conv, e, fl->text, k, to);
	operand_text(raw, sizeof raw, e, fl->text, k, -1);
	if (x->kind == N_UNARY)
		found(fl, x->op_at, "~ takes an integer, not %s: convert it, ~%s, or take its bits, ~%s(%s)",
		      ctypes[type[k]].name, conv, bits, raw);
	else if (x->op == '%' && suggest_call(call, sizeof call, e, fl->text, F_fmod, args, types) >= 0)
		found(fl, x->op_at, "%% takes integers, not %s: use %s", ctypes[type[k]].name, call);
	else
		found(fl, x->op_at, "%s takes integers, not %s: convert %s, %s, or take its bits, %s(%s)", op,
		      ctypes[type[k]].name, x->b >= 0 && k == x->a ? "the left side" : x->b >= 0 ? "the right side" : "it",
		      conv, bits, raw);
}

/* Every node's C++ type (operands first, as they come in e->node) with the
 * names' and casts' types ty; the first fault into fl, if not NULL. */
static void
cxx_types(const struct kgen_expr *e, const struct typing *ty, int *type, struct fault *fl)
{
	int at;

	for (at = 0; at < e->n; at++) {
		const struct kgen_expr_node *x = &e->node[at];
		switch (x->kind) {
		case N_NUM: type[at] = x->type; break;
		case N_CAST:
			type[at] = x->type == KGEN_EXPR_ACC ? ty->acc : x->type == KGEN_EXPR_OUT ? ty->out
			         : x->type == KGEN_EXPR_INDEX ? ty->index : x->type;
			break;
		case N_VAR:
			type[at] = x->op == V_X ? ty->x : x->op == V_I || x->op == V_N ? ty->index
			         : x->op == V_ROW || x->op == V_COL ? KGEN_EXPR_INT : ty->acc;
			break;
		case N_UNARY:
			if (x->op == '~' && is_fp(type[x->a]))
				integer_fault(fl, e, at, x->a, type);
			type[at] = x->op == '!' ? KGEN_EXPR_BOOL : promote(type[x->a]);
			break;
		case N_COND:
			type[at] = type[x->b] == type[x->c] ? type[x->b] : arith(type[x->b], type[x->c]);
			break;
		case N_CALL: type[at] = call_type(e, at, type, fl); break;
		default:  /* N_BINARY */
			if (takes_integers(x->op) && (is_fp(type[x->a]) || is_fp(type[x->b])))
				integer_fault(fl, e, at, is_fp(type[x->a]) ? x->a : x->b, type);
			type[at] = is_compare(x->op) ? KGEN_EXPR_BOOL : is_shift(x->op) ? promote(type[x->a])
			         : arith(type[x->a], type[x->b]);
			break;
		}
	}
}

/* A spec type as C++'s (f16 and bf16 elements are floats to the expressions). */
static int
dtype_type(const struct kgen_dtype_info *d)
{
	switch (d->cls) {
	case DT_INT: return d->size == 8 ? KGEN_EXPR_LLONG : KGEN_EXPR_INT;
	case DT_UINT: return d->size == 8 ? KGEN_EXPR_ULLONG : KGEN_EXPR_UINT;
	case DT_FLOAT: return d->size == 8 ? KGEN_EXPR_DOUBLE : KGEN_EXPR_FLOAT;
	default: return KGEN_EXPR_FLOAT;
	}
}

/* The types of a checked spec's names and casts, as its generated file declares them. */
static struct typing
typing_of(const struct kgen_spec *s)
{
	struct typing ty = {
		.x = dtype_type(&kgen_dtype_info[s->dtype]),
		.index = s->index == 32 ? KGEN_EXPR_UINT : KGEN_EXPR_ULLONG,
		.acc = dtype_type(&kgen_dtype_info[s->acc_dtype]),
		.out = dtype_type(&kgen_dtype_info[s->out_dtype]),
	};
	return ty;
}

/* e's first fault with types ty, into fl: 1 when there is one. */
static int
type_fault(const struct kgen_expr *e, const char *text, const struct typing *ty, struct fault *fl)
{
	int type[KGEN_EXPR_NODES];

	memset(fl, 0, sizeof *fl);
	fl->text = text;
	cxx_types(e, ty, type, fl);
	return fl->found;
}

/* A fault e has whatever the spec: the same, at the same character, with
 * every type the names and casts it uses can have (an element or Acc or
 * Out of i32, u32, i64, f32 (f16, bf16) or f64; Index of 32 or 64 bits). */
static int
fault_of_every_spec(const struct kgen_expr *e, const char *text, struct fault *first)
{
	static const int types[] = { KGEN_EXPR_INT, KGEN_EXPR_UINT, KGEN_EXPR_LLONG, KGEN_EXPR_FLOAT, KGEN_EXPR_DOUBLE };
	static const int indexes[] = { KGEN_EXPR_UINT, KGEN_EXPR_ULLONG };
	struct fault fl;
	struct typing ty;
	int uses_x = 0, uses_index = 0, uses_acc = 0, uses_out = 0, at, ix, ii, ia, io, typings = 0;

	for (at = 0; at < e->n; at++) {
		const struct kgen_expr_node *x = &e->node[at];
		uses_x |= x->kind == N_VAR && x->op == V_X;
		uses_index |= (x->kind == N_VAR && (x->op == V_I || x->op == V_N)) ||
		              (x->kind == N_CAST && x->type == KGEN_EXPR_INDEX);
		uses_acc |= (x->kind == N_VAR && IS_ACC_VAR(x->op)) ||
		            (x->kind == N_CAST && x->type == KGEN_EXPR_ACC);
		uses_out |= x->kind == N_CAST && x->type == KGEN_EXPR_OUT;
	}
	for (ix = 0; ix < (uses_x ? 5 : 1); ix++)
		for (ii = 0; ii < (uses_index ? 2 : 1); ii++)
			for (ia = 0; ia < (uses_acc ? 5 : 1); ia++)
				for (io = 0; io < (uses_out ? 5 : 1); io++) {
					ty.x = types[ix];
					ty.index = indexes[ii];
					ty.acc = types[ia];
					ty.out = types[io];
					if (!type_fault(e, text, &ty, &fl))
						return 0;
					if (!typings++)
						*first = fl;
					else if (fl.at != first->at || strcmp(fl.why, first->why) != 0)
						return 0;
				}
	return 1;
}

kgen_status
kgen_expr_parse(enum kgen_key k, const char *text, struct kgen_expr *e, size_t *at, char *why, size_t n)
{
	struct parser ps;
	struct fault fl;

	memset(&ps, 0, sizeof ps);
	memset(e, 0, sizeof *e);
	ps.text = ps.p = text;
	ps.e = e;
	ps.vars = key_vars(k);
	ps.k = k;
	ps.key = kgen_keys[k].name;
	ps.why = why;
	ps.whylen = n;
	if (strlen(text) > KGEN_EXPR_MAX) {
		*at = KGEN_EXPR_MAX;
		snprintf(why, n, "the expression is longer than %d characters", KGEN_EXPR_MAX);
		return KGEN_ESPEC;
	}
	e->key = k;
	next(&ps);
	if (!ps.failed && ps.kind == 0)
		fail(&ps, text, "the expression is empty");
	e->root = expr(&ps);
	if (!ps.failed && ps.kind != 0) {
		if (is(&ps, ")"))
			fail(&ps, ps.tok, "')' closes no '('");
		else
			fail(&ps, ps.tok, "'%.*s' after a whole expression: expected an operator or the end", (int)ps.len,
			     ps.tok);
	}
	if (!ps.failed && fault_of_every_spec(e, text, &fl))
		fail(&ps, text + fl.at, "%s", fl.why);
	if (ps.failed) {
		*at = ps.at;
		return KGEN_ESPEC;
	}
	return KGEN_OK;
}

/* The column (1-based) of byte `at` of key k's value in the spec's text:
 * the value's column, then one a character, or more for a quoted value's
 * escapes ('' in single quotes, \t or \x41 in double quotes), as
 * gen/load.c counts the parse's faults. */
static int
value_column(const struct kgen_spec *s, enum kgen_key k, size_t at)
{
	const struct kgen_pos *pos = &s->pos[k];
	const char *p = s->text, *end = s->text + s->text_len;
	int line = 1, col = 1;
	char quote;
	size_t i;

	if (!p)
		return pos->vcol + (int)at;
	for (; p < end && line < pos->vline; p++)
		line += *p == '\n';
	for (; p < end && col < pos->vcol; p++)
		col += ((unsigned char)*p & 0xc0) != 0x80;
	while (p < end && ((unsigned char)*p & 0xc0) == 0x80)
		p++;
	if (p >= end || (*p != '\'' && *p != '"'))
		return pos->vcol + (int)at;  /* a plain value: a byte a column */
	quote = *p++;
	col = pos->vcol + 1;
	for (i = 0; i < at && p < end && *p != '\n'; i++) {
		int w = 1;
		if (quote == '\'' && p[0] == '\'' && p + 1 < end && p[1] == '\'')
			w = 2;
		else if (quote == '"' && p[0] == '\\' && p + 1 < end)
			w = p[1] == 'x' ? 4 : p[1] == 'u' ? 6 : p[1] == 'U' ? 10 : 2;
		p += w;
		col += w;
	}
	return col;
}

/* Check expression key k of s; its tree into *kept (when not NULL). */
static kgen_status
check_one(const struct kgen_spec *s, enum kgen_key k, struct kgen_expr *kept, kgen_error *err)
{
	const char *text = kgen_spec_expr_text(s, k), *name = kgen_keys[k].name;
	const struct kgen_pos *pos = &s->pos[k];
	struct kgen_expr e;
	struct typing ty;
	struct fault fl;
	char why[200];
	size_t at;
	kgen_status st;

	if (!text || !*text)
		return KGEN_OK;  /* not given: the family's rules say so */
	ty = typing_of(s);
	if (kgen_expr_parse(k, text, &e, &at, why, sizeof why) == KGEN_OK) {
		if (!type_fault(&e, text, &ty, &fl)) {
			if (kept)
				*kept = e;
			return KGEN_OK;
		}
		at = fl.at;
		snprintf(why, sizeof why, "%s", fl.why);
	}
	if (pos->line < 0)  /* set through kgen_spec_set(): no place in a file */
		return kgen_spec_error(s, k, 1, err, "%s: %s (at character %zu)", name, why, at + 1);
	st = kgen_spec_error(s, k, 1, err, "%s: %s", name, why);
	if (err && pos->line > 0 && err->line == pos->vline)
		err->column = value_column(s, k, at);
	return st;
}

kgen_status
kgen_expr_check_key(const struct kgen_spec *s, enum kgen_key k, kgen_error *err)
{
	return check_one(s, k, NULL, err);
}

kgen_status
kgen_expr_check_keep(const struct kgen_spec *s, struct kgen_expr kept[4], kgen_error *err)
{
	static const enum kgen_key keys[] = { KGEN_KEY_map, KGEN_KEY_combine, KGEN_KEY_identity, KGEN_KEY_post };
	kgen_status st;
	size_t i;

	if (s->op != KGEN_OP_CUSTOM)
		return KGEN_OK;
	for (i = 0; i < KGEN_COUNT(keys); i++)
		if ((st = check_one(s, keys[i], &kept[i], err)))
			return st;
	return KGEN_OK;
}

kgen_status
kgen_expr_check(const struct kgen_spec *s, kgen_error *err)
{
	struct kgen_expr kept[4];

	return kgen_expr_check_keep(s, kept, err);
}

int
kgen_expr_uses(const char *text, const char *name)
{
	size_t len = strlen(name);
	const char *p;

	for (p = text; (p = strstr(p, name)) != NULL; p += len)
		if ((p == text || !(isalnum((unsigned char)p[-1]) || p[-1] == '_' || p[-1] == '.')) &&
		    !(isalnum((unsigned char)p[len]) || p[len] == '_'))
			return 1;
	return 0;
}

/* ---- the CPU evaluation, for `kgen run`'s reference ----
 *
 * As the generated C computes it: every node has its C type, known before
 * any value (numbers by their suffix, names and Acc, Out, Index casts by the
 * spec, operators by C's conversions), so that (Acc)x / 2 divides integers
 * where Acc is an integer, (int)x wraps at 32 bits and 0xffffffffu + 1 is 0.
 * Values of types narrower than int are int once cast (C promotes them at
 * once).  Floating values are rounded to float or double where the text
 * says so (a literal's type, an explicit cast); arithmetic, calls and the
 * implicit conversions (to Acc, an operand's common type) stay in long
 * double: the reference is the exact value of what the GPU rounds, so that
 * a sum of millions of floats is not lost to rounding at each element, and
 * kgen run's tolerance bounds the GPU's rounding. */

/* The types a value has: int and the wider ones. */
enum { C_INT, C_UINT, C_LLONG, C_ULLONG, C_FLOAT, C_DOUBLE };

struct val {
	int t;
	long double f;          /* C_FLOAT, C_DOUBLE */
	unsigned long long u;   /* an integer's bits: C_INT sign-extended, C_UINT zero-extended */
};

static int
is_flt(int t)
{
	return t == C_FLOAT || t == C_DOUBLE;
}

static int
is_uns(int t)
{
	return t == C_UINT || t == C_ULLONG;
}

static int
width(int t)
{
	return t == C_INT || t == C_UINT || t == C_FLOAT ? 32 : 64;
}

/* The bits u as type t's: wrapped at its width, and extended. */
static unsigned long long
wrap(int t, unsigned long long u)
{
	if (t == C_UINT)
		return u & 0xffffffffull;
	if (t == C_INT)
		return u & 0x80000000ull ? u | ~0xffffffffull : u & 0xffffffffull;
	return u;
}

/* The signed value of 64 bits, without relying on an out-of-range conversion. */
static long long
sval(unsigned long long u)
{
	return u <= 0x7fffffffffffffffull ? (long long)u : -(long long)(~u) - 1;
}

static long double
to_ld(struct val v)
{
	if (is_flt(v.t))
		return v.f;
	return is_uns(v.t) ? (long double)v.u : (long double)sval(v.u);
}

static long double
round_to(int t, long double f)
{
	return t == C_FLOAT ? (long double)(float)f : (long double)(double)f;
}

static int
truth(struct val v)
{
	return is_flt(v.t) ? v.f != 0 : v.u != 0;
}

static struct val
fval(int t, long double f)
{
	struct val v = { t, f, 0 };
	return v;
}

/* A floating value as the text types it: rounded. */
static struct val
fround(int t, long double f)
{
	struct val v = { t, round_to(t, f), 0 };
	return v;
}

static struct val
ival(int t, unsigned long long u)
{
	struct val v = { t, 0, wrap(t, u) };
	return v;
}

/* v as type t, as C converts it.  A float to an integer is truncated and,
 * out of range, saturated (NaN to 0), as the GPU's cvt.rzi does. */
static struct val
conv(struct val v, int t)
{
	long double f, lo, hi;

	if (is_flt(t))
		return fval(t, to_ld(v));
	if (!is_flt(v.t))
		return ival(t, v.u);
	f = truncl(v.f);
	lo = t == C_INT ? -0x1p31L : t == C_LLONG ? -0x1p63L : 0;
	hi = t == C_INT ? 0x1p31L : t == C_UINT ? 0x1p32L : t == C_LLONG ? 0x1p63L : 0x1p64L;
	if (isnan(f))
		return ival(t, 0);
	if (f <= lo)
		return ival(t, lo == 0 ? 0 : 0ull - (unsigned long long)-lo);
	if (f >= hi)
		return ival(t, t == C_INT ? 0x7fffffffull : t == C_UINT ? 0xffffffffull : t == C_LLONG ? 0x7fffffffffffffffull
		                                                                                     : ~0ull);
	return ival(t, f < 0 ? 0ull - (unsigned long long)-f : (unsigned long long)f);
}

/* The type of a binary operation's operands after C's usual arithmetic
 * conversions (between int and the wider types: no narrower one remains). */
static int
common(int p, int q)
{
	if (is_flt(p) || is_flt(q))
		return p == C_DOUBLE || q == C_DOUBLE ? C_DOUBLE : C_FLOAT;
	if (width(p) != width(q))
		return width(p) > width(q) ? p : q;
	return is_uns(p) || is_uns(q) ? (width(p) == 64 ? C_ULLONG : C_UINT) : p;
}

/* The type the evaluation computes C++ type t in: the narrow integers as
 * int (C promotes them at once), long as long long, long double as double
 * (as device code does). */
static int
eval_type(int t)
{
	const struct ctype *c = &ctypes[t];

	if (is_fp(t))
		return t == KGEN_EXPR_FLOAT ? C_FLOAT : C_DOUBLE;
	if (c->bits < 32 || t == KGEN_EXPR_INT)
		return C_INT;
	if (c->bits == 32)
		return C_UINT;
	return c->is_signed ? C_LLONG : C_ULLONG;
}

static struct val eval(const struct kgen_expr *e, int at, const struct val *vars, const int *type);

/* v cast to a type narrower than int (char, short), as the int C promotes
 * it to at once: an integer wraps at the width, a float saturates. */
static struct val
narrow(struct val v, int bits, int is_signed)
{
	unsigned long long mask = (1ull << bits) - 1, sign = 1ull << (bits - 1);
	long long lo = is_signed ? -(long long)sign : 0, hi = is_signed ? (long long)sign - 1 : (long long)mask, i;

	if (is_flt(v.t)) {
		i = sval(conv(v, C_INT).u);
		return ival(C_INT, (unsigned long long)(i < lo ? lo : i > hi ? hi : i));
	}
	v.u &= mask;
	return ival(C_INT, is_signed && (v.u & sign) ? v.u | ~mask : v.u);
}

/* ---- the functions' CPU computations (EXPR_FUNCS' last column) ---- */

static struct val
cpu_abs(int t, struct val x, struct val y, struct val z)
{
	x = conv(x, t);
	if (is_flt(t))
		return fval(t, fabsl(x.f));
	return ival(t, !is_uns(t) && sval(x.u) < 0 ? 0 - x.u : x.u);
}

/* min and max of integers; of floats, fmin and fmax: a NaN loses. */
static struct val
min_max(int max, int t, struct val x, struct val y)
{
	int y_wins;

	x = conv(x, t);
	y = conv(y, t);
	if (is_flt(t))
		return fval(t, isnan(x.f) ? y.f : isnan(y.f) ? x.f : max ? fmaxl(x.f, y.f) : fminl(x.f, y.f));
	y_wins = is_uns(t) ? (max ? y.u > x.u : y.u < x.u) : (max ? sval(y.u) > sval(x.u) : sval(y.u) < sval(x.u));
	return y_wins ? y : x;
}

static struct val
cpu_min(int t, struct val x, struct val y, struct val z)
{
	return min_max(0, t, x, y);
}

static struct val
cpu_max(int t, struct val x, struct val y, struct val z)
{
	return min_max(1, t, x, y);
}

/* The classifications: of the argument as it is. */
static struct val cpu_isnan(int t, struct val x, struct val y, struct val z) { return ival(t, isnan(to_ld(x)) != 0); }
static struct val cpu_isinf(int t, struct val x, struct val y, struct val z) { return ival(t, isinf(to_ld(x)) != 0); }
static struct val cpu_isfinite(int t, struct val x, struct val y, struct val z) { return ival(t, isfinite(to_ld(x)) != 0); }
static struct val cpu_signbit(int t, struct val x, struct val y, struct val z) { return ival(t, signbit(to_ld(x)) != 0); }

/* The bit casts. */
static struct val
cpu_int_as_float(int t, struct val x, struct val y, struct val z)
{
	uint32_t u32 = (uint32_t)conv(x, C_INT).u;
	float f32;

	memcpy(&f32, &u32, 4);
	return fval(t, f32);
}

static struct val
cpu_float_as_int(int t, struct val x, struct val y, struct val z)
{
	float f32 = (float)conv(x, C_FLOAT).f;
	uint32_t u32;

	memcpy(&u32, &f32, 4);
	return ival(t, u32);
}

static struct val
cpu_longlong_as_double(int t, struct val x, struct val y, struct val z)
{
	unsigned long long u64 = conv(x, C_LLONG).u;
	double d;

	memcpy(&d, &u64, 8);
	return fval(t, d);
}

static struct val
cpu_double_as_longlong(int t, struct val x, struct val y, struct val z)
{
	double d = (double)conv(x, C_DOUBLE).f;
	unsigned long long u64;

	memcpy(&u64, &d, 8);
	return ival(t, u64);
}

/* The math functions: the arguments as the result's type, as C converts them. */
#define MATH1(name, expr) \
	static struct val cpu_##name(int t, struct val x, struct val y, struct val z) \
	{ long double a = to_ld(conv(x, t)); return fval(t, expr); }
#define MATH2(name, expr) \
	static struct val cpu_##name(int t, struct val x, struct val y, struct val z) \
	{ long double a = to_ld(conv(x, t)), b = to_ld(conv(y, t)); return fval(t, expr); }
MATH1(sqrt, sqrtl(a)) MATH1(rsqrt, 1 / sqrtl(a)) MATH1(cbrt, cbrtl(a))
MATH1(exp, expl(a)) MATH1(exp2, exp2l(a)) MATH1(expm1, expm1l(a))
MATH1(log, logl(a)) MATH1(log2, log2l(a)) MATH1(log10, log10l(a)) MATH1(log1p, log1pl(a))
MATH1(sin, sinl(a)) MATH1(cos, cosl(a)) MATH1(tan, tanl(a)) MATH1(tanh, tanhl(a)) MATH1(erf, erfl(a))
MATH1(floor, floorl(a)) MATH1(ceil, ceill(a)) MATH1(round, roundl(a)) MATH1(trunc, truncl(a))
MATH2(pow, powl(a, b)) MATH2(hypot, hypotl(a, b)) MATH2(atan2, atan2l(a, b)) MATH2(fmod, fmodl(a, b))
MATH2(copysign, copysignl(a, b))
#undef MATH1
#undef MATH2

static struct val
cpu_fma(int t, struct val x, struct val y, struct val z)
{
	return fval(t, fmal(to_ld(conv(x, t)), to_ld(conv(y, t)), to_ld(conv(z, t))));
}

/* x op y of integers of type t (the operands converted to it). */
static struct val
int_binary(int op, int t, struct val x, struct val y)
{
	unsigned long long p = x.u, q = y.u;
	long long sp = sval(p), sq = sval(q);
	int uns = is_uns(t);

	switch (op) {
	case '+': return ival(t, p + q);
	case '-': return ival(t, p - q);
	case '*': return ival(t, p * q);
	case '&': return ival(t, p & q);
	case '|': return ival(t, p | q);
	case '^': return ival(t, p ^ q);
	case '/': case '%':
		/* By 0: 0 (the GPU's result is unspecified); the most negative by -1 wraps. */
		if (q == 0)
			return ival(t, 0);
		if (uns)
			return ival(t, op == '/' ? p / q : p % q);
		if (sq == -1)
			return ival(t, op == '/' ? 0 - p : 0);
		return ival(t, (unsigned long long)(op == '/' ? sp / sq : sp % sq));
	case '<': return ival(C_INT, uns ? p < q : sp < sq);
	case '>': return ival(C_INT, uns ? p > q : sp > sq);
	default: break;
	}
	if (op == op_code("<=")) return ival(C_INT, uns ? p <= q : sp <= sq);
	if (op == op_code(">=")) return ival(C_INT, uns ? p >= q : sp >= sq);
	if (op == op_code("==")) return ival(C_INT, p == q);
	return ival(C_INT, p != q);  /* != */
}

/* x << y or x >> y, of type t (x's, promoted).  A count past the width
 * gives what the GPU's shl and shr give: 0, or the sign. */
static struct val
shift(int op, int t, struct val x, struct val y)
{
	long long n = is_uns(y.t) ? (y.u > 64 ? 64 : (long long)y.u) : sval(y.u);
	int negative = !is_uns(t) && sval(x.u) < 0;
	unsigned long long bits = t == C_INT || t == C_UINT ? x.u & 0xffffffffull : x.u;

	if (n < 0 || n >= width(t))
		return ival(t, op == op_code("<<") || !negative ? 0 : ~0ull);
	if (op == op_code("<<"))
		return ival(t, bits << n);
	return ival(t, negative ? ~(~x.u >> n) : bits >> n);
}

static struct val
eval(const struct kgen_expr *e, int at, const struct val *vars, const int *type)
{
	const struct kgen_expr_node *x = &e->node[at];
	struct val a, b, none = { C_INT, 0, 0 };
	int t = type[at];

	switch (x->kind) {
	case N_NUM: return is_flt(t) ? fround(t, x->f) : ival(t, (unsigned long long)x->i);
	case N_VAR: return conv(vars[x->op], t);
	case N_CAST:
		a = eval(e, x->a, vars, type);
		switch (x->type) {
		case KGEN_EXPR_BOOL: return ival(C_INT, truth(a));
		case KGEN_EXPR_CHAR: case KGEN_EXPR_SCHAR: return narrow(a, 8, 1);
		case KGEN_EXPR_UCHAR: return narrow(a, 8, 0);
		case KGEN_EXPR_SHORT: return narrow(a, 16, 1);
		case KGEN_EXPR_USHORT: return narrow(a, 16, 0);
		default: break;
		}
		a = conv(a, t);
		return is_flt(t) ? fround(t, a.f) : a;
	case N_COND:
		return conv(truth(eval(e, x->a, vars, type)) ? eval(e, x->b, vars, type) : eval(e, x->c, vars, type), t);
	case N_CALL:
		return funcs[x->op].cpu(t, eval(e, x->a, vars, type), x->b >= 0 ? eval(e, x->b, vars, type) : none,
		                        x->c >= 0 ? eval(e, x->c, vars, type) : none);
	case N_UNARY:
		a = eval(e, x->a, vars, type);
		switch (x->op) {
		case '-': return is_flt(t) ? fval(t, -a.f) : ival(t, 0 - a.u);
		case '!': return ival(C_INT, !truth(a));
		case '~': return is_flt(t) ? fval(t, NAN) : ival(t, ~a.u);  /* ~ of a float: NVRTC refuses it */
		default: return a;
		}
	default: break;
	}
	/* N_BINARY; && and || short-circuit as in C. */
	a = eval(e, x->a, vars, type);
	if (x->op == op_code("&&"))
		return ival(C_INT, truth(a) && truth(eval(e, x->b, vars, type)));
	if (x->op == op_code("||"))
		return ival(C_INT, truth(a) || truth(eval(e, x->b, vars, type)));
	b = eval(e, x->b, vars, type);
	if (x->op == op_code("<<") || x->op == op_code(">>"))
		return is_flt(a.t) || is_flt(b.t) ? (is_flt(t) ? fval(t, NAN) : ival(t, 0)) : shift(x->op, t, a, b);
	t = common(a.t, b.t);  /* the operands' type (a comparison's result is int) */
	a = conv(a, t);
	b = conv(b, t);
	if (is_flt(t)) {
		long double p = a.f, q = b.f;
		switch (x->op) {
		case '+': return fval(t, p + q);
		case '-': return fval(t, p - q);
		case '*': return fval(t, p * q);
		case '/': return fval(t, p / q);
		case '<': return ival(C_INT, p < q);
		case '>': return ival(C_INT, p > q);
		default: break;
		}
		if (x->op == op_code("<=")) return ival(C_INT, p <= q);
		if (x->op == op_code(">=")) return ival(C_INT, p >= q);
		if (x->op == op_code("==")) return ival(C_INT, p == q);
		if (x->op == op_code("!=")) return ival(C_INT, p != q);
		return fval(t, NAN);  /* % & | ^ of a float: NVRTC refuses them */
	}
	return int_binary(x->op, t, a, b);
}

/* A value from the caller, which has the type t: floating or integer. */
static struct val
from_value(struct kgen_value v, int t)
{
	struct val g = { C_LLONG, 0, (unsigned long long)v.i };

	if (v.is_float) {
		g.t = C_DOUBLE;
		g.f = v.f;  /* not rounded: conv() rounds it to t */
	}
	return conv(g, t);
}

/* e with its names bound to vars[V_*] (given as the caller's values). */
static struct kgen_value
eval_with(const struct kgen_expr *e, const struct kgen_spec *s, const struct kgen_value *given)
{
	struct kgen_value out = { 0, 0, 0 };
	struct typing ty;
	struct val vars[V_COUNT], r;
	int type[KGEN_EXPR_NODES], k;
	unsigned used = 0;

	if (s && s->dtype >= 0 && s->acc_dtype >= 0 && s->out_dtype >= 0) {  /* a checked spec */
		ty = typing_of(s);  /* Out is float for f16 and bf16: `typedef float Out` */
	} else {
		ty.x = given[V_X].is_float ? KGEN_EXPR_DOUBLE : KGEN_EXPR_LLONG;
		ty.index = KGEN_EXPR_ULLONG;
		ty.acc = ty.out = KGEN_EXPR_DOUBLE;
	}
	if (e->n <= 0 || e->root < 0 || e->root >= e->n)
		return out;
	/* Each node's C++ type as the evaluation's (an ambiguous call has C's
	 * conversions' type), and each name e reads, once, as its node's type:
	 * only those (the reference of op: custom evaluates two expressions an
	 * element; a + b reads 2 names of 10). */
	cxx_types(e, &ty, type, NULL);
	for (k = 0; k < e->n; k++) {
		const struct kgen_expr_node *x = &e->node[k];
		type[k] = eval_type(type[k]);
		if (x->kind == N_VAR && !(used & 1u << x->op)) {
			used |= 1u << x->op;
			vars[x->op] = from_value(given[x->op], type[k]);
		}
	}
	/* The function's return converts to Acc (Out for post). */
	r = conv(eval(e, e->root, vars, type), eval_type(e->key == KGEN_KEY_post ? ty.out : ty.acc));
	out.is_float = is_flt(r.t);
	if (out.is_float)
		out.f = r.f;
	else
		out.i = sval(r.u);
	return out;
}

struct kgen_value
kgen_expr_eval(const struct kgen_expr *e, const struct kgen_spec *s, struct kgen_value x, struct kgen_value i,
               struct kgen_value a, struct kgen_value b, struct kgen_value n)
{
	struct kgen_value given[V_COUNT];

	memset(given, 0, sizeof given);
	given[V_X] = x;
	given[V_I] = i;
	given[V_A] = a;
	given[V_B] = b;
	given[V_N] = n;
	return eval_with(e, s, given);
}

struct kgen_value
kgen_expr_eval_epilogue(const struct kgen_expr *e, const struct kgen_spec *s, double v, double acc, double c,
                        long long row, long long col)
{
	struct kgen_value given[V_COUNT];

	memset(given, 0, sizeof given);
	given[V_V] = (struct kgen_value){ .is_float = 1, .f = v };
	given[V_ACC] = (struct kgen_value){ .is_float = 1, .f = acc };
	given[V_C] = (struct kgen_value){ .is_float = 1, .f = c };
	given[V_ROW] = (struct kgen_value){ .i = row };
	given[V_COL] = (struct kgen_value){ .i = col };
	return eval_with(e, s, given);
}
