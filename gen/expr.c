/*
 * expr.c - parse and evaluate the expressions of `op: custom` (expr.h).
 *
 * A hand-written recursive descent over C's precedence levels: the
 * language is a dozen rules, and a parser generator would bring a build
 * dependency and give errors less precise than "at this character".
 */
#include "config.h"
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "expr.h"

enum { N_NUM, N_VAR, N_UNARY, N_BINARY, N_COND, N_CALL, N_CAST };
enum { V_X, V_I, V_A, V_B, V_N };

static const char *const var_names[] = { "x", "i", "a", "b", "n" };

/* The functions an expression may call: name, number of arguments.  The
 * CPU evaluation (call()) computes each by its name; NVRTC's headers
 * declare them all for device code. */
#define EXPR_FUNCS(X) \
	X(abs, 1) X(fabs, 1) X(fabsf, 1) X(llabs, 1) X(min, 2) X(max, 2) X(fmin, 2) X(fminf, 2) X(fmax, 2) \
	X(fmaxf, 2) X(sqrt, 1) X(sqrtf, 1) X(rsqrt, 1) X(rsqrtf, 1) X(cbrt, 1) X(cbrtf, 1) X(exp, 1) X(expf, 1) \
	X(exp2, 1) X(exp2f, 1) X(expm1, 1) X(expm1f, 1) X(log, 1) X(logf, 1) X(log2, 1) X(log2f, 1) X(log10, 1) \
	X(log10f, 1) X(log1p, 1) X(log1pf, 1) X(pow, 2) X(powf, 2) X(hypot, 2) X(hypotf, 2) X(sin, 1) X(sinf, 1) \
	X(cos, 1) X(cosf, 1) X(tan, 1) X(tanf, 1) X(tanh, 1) X(tanhf, 1) X(atan2, 2) X(atan2f, 2) X(erf, 1) \
	X(erff, 1) X(floor, 1) X(floorf, 1) X(ceil, 1) X(ceilf, 1) X(round, 1) X(roundf, 1) X(trunc, 1) X(truncf, 1) \
	X(fma, 3) X(fmaf, 3) X(copysign, 2) X(copysignf, 2) X(isnan, 1) X(isinf, 1) X(isfinite, 1) X(signbit, 1) \
	X(__int_as_float, 1) X(__float_as_int, 1) X(__longlong_as_double, 1) X(__double_as_longlong, 1)

#define X(name, args) F_##name,
enum { EXPR_FUNCS(X) F_COUNT };
#undef X

static const struct func {
	const char *name;
	int args;
} funcs[] = {
#define X(name, args) { #name, args },
	EXPR_FUNCS(X)
#undef X
};

/* Arithmetic type names a cast may use (a type is one or more of these). */
static const char *const type_names[] = {
	"Acc", "Index", "Out", "bool", "char", "double", "float", "int", "long", "short", "signed", "unsigned",
};

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
	const char *key;
	size_t at;                /* offset of the fault */
	char *why;
	size_t whylen;
	int failed, depth;
	/* the current token */
	const char *tok;
	size_t len;
	int kind;                 /* 'n' number, 'i' identifier, 'o' operator, 0 end */
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

/* The next token, or a fault for text an expression may not hold. */
static void
next(struct parser *ps)
{
	const char *p = ps->p;
	size_t i;

	while (*p == ' ' || *p == '\t')
		p++;
	ps->tok = p;
	ps->len = 0;
	ps->kind = 0;
	if (!*p)
		return;
	if (isdigit((unsigned char)*p) || (*p == '.' && isdigit((unsigned char)p[1]))) {
		const char *q = p;
		if (q[0] == '0' && (q[1] == 'x' || q[1] == 'X'))
			for (q += 2; isxdigit((unsigned char)*q); q++)
				;
		else {
			while (isdigit((unsigned char)*q) || *q == '.')
				q++;
			if ((*q == 'e' || *q == 'E') &&
			    (isdigit((unsigned char)q[1]) || ((q[1] == '+' || q[1] == '-') && isdigit((unsigned char)q[2]))))
				for (q += 2; isdigit((unsigned char)*q); q++)
					;
		}
		while (*q == 'u' || *q == 'U' || *q == 'l' || *q == 'L' || *q == 'f' || *q == 'F')
			q++;
		if (isalnum((unsigned char)*q) || *q == '_' || *q == '.') {
			fail(ps, p, "'%.*s' is not a number", (int)(q - p + 1), p);
			return;
		}
		ps->kind = 'n';
		ps->len = (size_t)(q - p);
		ps->p = q;
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
is_name(struct parser *ps, const char *name)
{
	return ps->kind == 'i' && ps->len == strlen(name) && strncmp(ps->tok, name, ps->len) == 0;
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

/* number, name, call, or ( expr ) */
static int
primary(struct parser *ps)
{
	const char *at = ps->tok;
	int n, v, f, args[3], nargs = 0;
	char name[64];

	if (ps->failed)
		return -1;
	if (ps->kind == 'n') {
		char buf[64], *end;
		int is_float;
		if (ps->len >= sizeof buf)
			return fail(ps, at, "a number of more than %s characters", "63");
		memcpy(buf, at, ps->len);
		buf[ps->len] = '\0';
		is_float = !(buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X')) &&
		           (strpbrk(buf, ".eE") != NULL || strpbrk(buf, "fF") != NULL);
		if ((n = node(ps, N_NUM, 0, -1, -1, -1)) < 0)
			return -1;
		ps->e->node[n].is_float = is_float;
		errno = 0;
		if (is_float)
			ps->e->node[n].f = strtold(buf, &end);
		else
			ps->e->node[n].i = (long long)strtoull(buf, &end, 0);
		while (*end == 'u' || *end == 'U' || *end == 'l' || *end == 'L' || *end == 'f' || *end == 'F')
			end++;
		if (*end || errno)
			return fail(ps, at, "'%s' is not a number", buf);
		next(ps);
		return n;
	}
	if (ps->kind == 'i') {
		snprintf(name, sizeof name, "%.*s", (int)(ps->len < 63 ? ps->len : 63), at);
		if ((v = in_list(at, ps->len, var_names, KGEN_COUNT(var_names))) >= 0) {
			if (!(ps->vars & (1u << v))) {
				char msg[160];
				snprintf(msg, sizeof msg, "'%s' is not a name of %s, which has %s", name, ps->key,
				         ps->vars == 0 ? "none (a constant)" :
				         ps->vars == ((1u << V_X) | (1u << V_I)) ? "x and i" :
				         ps->vars == ((1u << V_A) | (1u << V_B)) ? "a and b" : "a and n");
				return fail(ps, at, "%s", msg);
			}
			next(ps);
			return node(ps, N_VAR, v, -1, -1, -1);
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
		return node(ps, N_CALL, f, args[0], nargs > 1 ? args[1] : -1, nargs > 2 ? args[2] : -1);
	}
	if (is(ps, "(")) {
		next(ps);
		if (ps->kind == 'i' && in_list(ps->tok, ps->len, type_names, KGEN_COUNT(type_names)) >= 0) {
			/* A cast: type words up to ')'. */
			int is_float = 0;
			while (ps->kind == 'i' && in_list(ps->tok, ps->len, type_names, KGEN_COUNT(type_names)) >= 0) {
				is_float |= is_name(ps, "float") || is_name(ps, "double") || is_name(ps, "Acc") || is_name(ps, "Out");
				next(ps);
			}
			if (!is(ps, ")"))
				return fail(ps, ps->tok, "expected ')' to end the cast");
			next(ps);
			if ((v = unary(ps)) < 0)
				return -1;
			if ((n = node(ps, N_CAST, 0, v, -1, -1)) >= 0)
				ps->e->node[n].is_float = is_float;
			return n;
		}
		if ((n = expr(ps)) < 0)
			return -1;
		if (!is(ps, ")"))
			return fail(ps, ps->tok, "expected ')' to close a '('");
		next(ps);
		return n;
	}
	if (ps->kind == 0)
		return fail(ps, at, "the expression ends where a value is expected");
	return fail(ps, at, "'%.2s' where a value is expected", at);
}

static int
unary(struct parser *ps)
{
	static const char *const ops[] = { "-", "+", "!", "~" };
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
			return node(ps, N_UNARY, ops[i][0], a, -1, -1);
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
				next(ps);
				if ((b = binary(ps, level + 1)) < 0)
					return -1;
				if ((a = node(ps, N_BINARY, code, a, b, -1)) < 0)
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
		next(ps);
		if ((a = expr(ps)) < 0)
			return -1;
		if (!is(ps, ":"))
			return fail(ps, ps->tok, "expected ':' of the '?'");
		next(ps);
		if ((b = expr(ps)) < 0)
			return -1;
		c = node(ps, N_COND, 0, c, a, b);
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
	default: return 0;
	}
}

kgen_status
kgen_expr_parse(enum kgen_key k, const char *text, struct kgen_expr *e, size_t *at, char *why, size_t n)
{
	struct parser ps;

	memset(&ps, 0, sizeof ps);
	memset(e, 0, sizeof *e);
	ps.text = ps.p = text;
	ps.e = e;
	ps.vars = key_vars(k);
	ps.key = kgen_keys[k].name;
	ps.why = why;
	ps.whylen = n;
	if (strlen(text) > KGEN_EXPR_MAX) {
		*at = KGEN_EXPR_MAX;
		snprintf(why, n, "the expression is longer than %d characters", KGEN_EXPR_MAX);
		return KGEN_ESPEC;
	}
	next(&ps);
	if (!ps.failed && ps.kind == 0)
		fail(&ps, text, "the expression is empty");
	e->root = expr(&ps);
	if (!ps.failed && ps.kind != 0) {
		if (is(&ps, ")"))
			fail(&ps, ps.tok, "')' closes no '('");
		else
			fail(&ps, ps.tok, "'%.2s' after a whole expression: expected an operator or the end", ps.tok);
	}
	if (ps.failed) {
		*at = ps.at;
		return KGEN_ESPEC;
	}
	return KGEN_OK;
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

/* ---- the CPU evaluation, for `kgen run`'s reference ---- */

static long double
as_f(struct kgen_value v)
{
	return v.is_float ? v.f : (long double)v.i;
}

static struct kgen_value
fv(long double f)
{
	struct kgen_value v = { 1, f, 0 };
	return v;
}

static struct kgen_value
iv(long long i)
{
	struct kgen_value v = { 0, 0, i };
	return v;
}

static int
truth(struct kgen_value v)
{
	return v.is_float ? v.f != 0 : v.i != 0;
}

static struct kgen_value eval(const struct kgen_expr *e, int at, const struct kgen_value *vars);

static struct kgen_value
call(int f, struct kgen_value x, struct kgen_value y, struct kgen_value z)
{
	long double a = as_f(x), b = as_f(y);
	int fl = x.is_float || y.is_float;
	float f32;
	int bits;
	double d;
	long long ll;

	/* By what the function computes, its name's variants alike. */
	{
		const char *name = funcs[f].name;
		if (!strcmp(name, "abs") || !strcmp(name, "fabs") || !strcmp(name, "fabsf") || !strcmp(name, "llabs"))
			return x.is_float ? fv(fabsl(a)) : iv(x.i < 0 ? -x.i : x.i);
		if (!strcmp(name, "min") || !strcmp(name, "fmin") || !strcmp(name, "fminf"))
			return fl ? fv(isnan(a) ? b : isnan(b) ? a : fminl(a, b)) : iv(x.i < y.i ? x.i : y.i);
		if (!strcmp(name, "max") || !strcmp(name, "fmax") || !strcmp(name, "fmaxf"))
			return fl ? fv(isnan(a) ? b : isnan(b) ? a : fmaxl(a, b)) : iv(x.i > y.i ? x.i : y.i);
		if (!strncmp(name, "sqrt", 4)) return fv(sqrtl(a));
		if (!strncmp(name, "rsqrt", 5)) return fv(1 / sqrtl(a));
		if (!strncmp(name, "cbrt", 4)) return fv(cbrtl(a));
		if (!strncmp(name, "expm1", 5)) return fv(expm1l(a));
		if (!strncmp(name, "exp2", 4)) return fv(exp2l(a));
		if (!strncmp(name, "exp", 3)) return fv(expl(a));
		if (!strncmp(name, "log1p", 5)) return fv(log1pl(a));
		if (!strncmp(name, "log10", 5)) return fv(log10l(a));
		if (!strncmp(name, "log2", 4)) return fv(log2l(a));
		if (!strncmp(name, "log", 3)) return fv(logl(a));
		if (!strncmp(name, "pow", 3)) return fv(powl(a, b));
		if (!strncmp(name, "hypot", 5)) return fv(hypotl(a, b));
		if (!strncmp(name, "sin", 3)) return fv(sinl(a));
		if (!strncmp(name, "cos", 3)) return fv(cosl(a));
		if (!strncmp(name, "tanh", 4)) return fv(tanhl(a));
		if (!strncmp(name, "tan", 3)) return fv(tanl(a));
		if (!strncmp(name, "atan2", 5)) return fv(atan2l(a, b));
		if (!strncmp(name, "erf", 3)) return fv(erfl(a));
		if (!strncmp(name, "floor", 5)) return fv(floorl(a));
		if (!strncmp(name, "ceil", 4)) return fv(ceill(a));
		if (!strncmp(name, "round", 5)) return fv(roundl(a));
		if (!strncmp(name, "trunc", 5)) return fv(truncl(a));
		if (!strncmp(name, "fma", 3)) return fv(a * b + as_f(z));
		if (!strncmp(name, "copysign", 8)) return fv(copysignl(a, b));
		if (!strcmp(name, "isnan")) return iv(isnan(a) != 0);
		if (!strcmp(name, "isinf")) return iv(isinf(a) != 0);
		if (!strcmp(name, "isfinite")) return iv(isfinite(a) != 0);
		if (!strcmp(name, "signbit")) return iv(signbit(a) != 0);
		if (!strcmp(name, "__int_as_float")) {
			bits = (int)x.i;
			memcpy(&f32, &bits, 4);
			return fv(f32);
		}
		if (!strcmp(name, "__float_as_int")) {
			f32 = (float)a;
			memcpy(&bits, &f32, 4);
			return iv(bits);
		}
		if (!strcmp(name, "__longlong_as_double")) {
			ll = x.i;
			memcpy(&d, &ll, 8);
			return fv(d);
		}
		d = (double)a;
		memcpy(&ll, &d, 8);
		return iv(ll);
	}
}

static struct kgen_value
eval(const struct kgen_expr *e, int at, const struct kgen_value *vars)
{
	const struct kgen_expr_node *x = &e->node[at];
	struct kgen_value a, b, none = { 0, 0, 0 };

	switch (x->kind) {
	case N_NUM: return x->is_float ? fv(x->f) : iv(x->i);
	case N_VAR: return vars[x->op];
	case N_CAST:
		a = eval(e, x->a, vars);
		return x->is_float ? fv(as_f(a)) : iv(a.is_float ? (long long)a.f : a.i);
	case N_COND: return truth(eval(e, x->a, vars)) ? eval(e, x->b, vars) : eval(e, x->c, vars);
	case N_CALL:
		return call(x->op, eval(e, x->a, vars), x->b >= 0 ? eval(e, x->b, vars) : none,
		            x->c >= 0 ? eval(e, x->c, vars) : none);
	case N_UNARY:
		a = eval(e, x->a, vars);
		switch (x->op) {
		case '-': return a.is_float ? fv(-a.f) : iv((long long)(0ull - (unsigned long long)a.i));
		case '!': return iv(!truth(a));
		case '~': return iv(~a.i);
		default: return a;
		}
	default: break;
	}
	/* N_BINARY; && and || short-circuit as in C. */
	a = eval(e, x->a, vars);
	if (x->op == op_code("&&"))
		return iv(truth(a) && truth(eval(e, x->b, vars)));
	if (x->op == op_code("||"))
		return iv(truth(a) || truth(eval(e, x->b, vars)));
	b = eval(e, x->b, vars);
	if (a.is_float || b.is_float) {
		long double p = as_f(a), q = as_f(b);
		switch (x->op) {
		case '+': return fv(p + q);
		case '-': return fv(p - q);
		case '*': return fv(p * q);
		case '/': return fv(p / q);
		case '<': return iv(p < q);
		case '>': return iv(p > q);
		default: break;
		}
		if (x->op == op_code("<=")) return iv(p <= q);
		if (x->op == op_code(">=")) return iv(p >= q);
		if (x->op == op_code("==")) return iv(p == q);
		if (x->op == op_code("!=")) return iv(p != q);
		return fv(NAN);  /* % & | ^ << >> of a float: NVRTC refuses them */
	}
	switch (x->op) {
	case '+': return iv((long long)((unsigned long long)a.i + (unsigned long long)b.i));
	case '-': return iv((long long)((unsigned long long)a.i - (unsigned long long)b.i));
	case '*': return iv((long long)((unsigned long long)a.i * (unsigned long long)b.i));
	case '/': return iv(b.i ? a.i / b.i : 0);
	case '%': return iv(b.i ? a.i % b.i : 0);
	case '<': return iv(a.i < b.i);
	case '>': return iv(a.i > b.i);
	case '&': return iv(a.i & b.i);
	case '|': return iv(a.i | b.i);
	case '^': return iv(a.i ^ b.i);
	default: break;
	}
	if (x->op == op_code("<=")) return iv(a.i <= b.i);
	if (x->op == op_code(">=")) return iv(a.i >= b.i);
	if (x->op == op_code("==")) return iv(a.i == b.i);
	if (x->op == op_code("!=")) return iv(a.i != b.i);
	if (x->op == op_code("<<")) return iv((long long)((unsigned long long)a.i << (b.i & 63)));
	return iv(a.i >> (b.i & 63));
}

struct kgen_value
kgen_expr_eval(const struct kgen_expr *e, struct kgen_value x, struct kgen_value i, struct kgen_value a,
               struct kgen_value b, struct kgen_value n)
{
	struct kgen_value vars[5];

	vars[V_X] = x;
	vars[V_I] = i;
	vars[V_A] = a;
	vars[V_B] = b;
	vars[V_N] = n;
	return eval(e, e->root, vars);
}
