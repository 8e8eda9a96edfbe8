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
#include <stdint.h>
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
		return KGEN_EXPR_DOUBLE;  /* long double is double in device code */
	if (sign > 1)
		return -1;
	if (count[TN_CHAR] == 1 && words == 1 + sign)
		return uns ? KGEN_EXPR_UCHAR : KGEN_EXPR_CHAR;
	if (count[TN_SHORT] == 1 && count[TN_INT] <= 1 && words == 1 + count[TN_INT] + sign)
		return uns ? KGEN_EXPR_USHORT : KGEN_EXPR_SHORT;
	if (count[TN_LONG] >= 1 && count[TN_LONG] <= 2 && count[TN_INT] <= 1 && words == count[TN_LONG] + count[TN_INT] + sign)
		return uns ? KGEN_EXPR_ULLONG : KGEN_EXPR_LLONG;
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
		const char *q = p, *end;
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
		/* The token goes on while it could be one: the suffix is what follows the digits. */
		for (end = q; isalnum((unsigned char)*end) || *end == '_' || *end == '.'; end++)
			;
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

/* A number: its value, and its C type as C gives an integer constant
 * (the first of its list that holds it) or a floating one (f: float). */
static int
number(struct parser *ps)
{
	const char *at = ps->tok;
	char buf[64], *end;
	int n, is_float, uns, longs, decimal;
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
	if (errno)
		return fail(ps, at, "'%s' is out of range", buf);
	if (is_float) {
		ps->e->node[n].type = strpbrk(buf, "fF") ? KGEN_EXPR_FLOAT : KGEN_EXPR_DOUBLE;
	} else {
		/* C's type of an integer constant: the first of its list that holds it
		 * (long is long long's size on CUDA's 64-bit hosts). */
		ps->e->node[n].i = (long long)u;
		if (!uns && !longs && u <= 0x7fffffffu)
			ps->e->node[n].type = KGEN_EXPR_INT;
		else if (!longs && (uns || !decimal) && u <= 0xffffffffu)
			ps->e->node[n].type = KGEN_EXPR_UINT;
		else if (!uns && u <= 0x7fffffffffffffffull)
			ps->e->node[n].type = KGEN_EXPR_LLONG;
		else if (uns || !decimal)
			ps->e->node[n].type = KGEN_EXPR_ULLONG;
		else
			return fail(ps, at, "'%s' is too large for long long: write %su", buf, buf);
	}
	next(ps);
	return n;
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

/* After a '(': a cast (type words up to ')', which must make one C type,
 * then the value cast) or a parenthesised expression. */
static int
paren(struct parser *ps)
{
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
		return n;
	}
	if ((n = expr(ps)) < 0)
		return -1;
	if (!is(ps, ")"))
		return fail(ps, ps->tok, "expected ')' to close a '('");
	next(ps);
	return n;
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

const char *
kgen_expr_names(enum kgen_key k)
{
	switch (k) {
	case KGEN_KEY_map: return "x and i";
	case KGEN_KEY_combine: return "a and b";
	case KGEN_KEY_post: return "a and n";
	default: return "none (a constant)";
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

/* The types of the names and of Acc, Out and Index. */
struct types {
	int x, index, acc, out;
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

/* Type t of the spec as a value's type (f16 and bf16 are float). */
static int
dtype_type(const struct kgen_dtype_info *d)
{
	switch (d->cls) {
	case DT_INT: return d->size == 8 ? C_LLONG : C_INT;
	case DT_UINT: return d->size == 8 ? C_ULLONG : C_UINT;
	case DT_FLOAT: return d->size == 8 ? C_DOUBLE : C_FLOAT;
	default: return C_FLOAT;
	}
}

/* A cast's or a number's type as a value's: narrower than int is int. */
static int
node_type(int type, const struct types *ty)
{
	switch (type) {
	case KGEN_EXPR_UINT: return C_UINT;
	case KGEN_EXPR_LLONG: return C_LLONG;
	case KGEN_EXPR_ULLONG: return C_ULLONG;
	case KGEN_EXPR_FLOAT: return C_FLOAT;
	case KGEN_EXPR_DOUBLE: return C_DOUBLE;
	case KGEN_EXPR_ACC: return ty->acc;
	case KGEN_EXPR_OUT: return ty->out;
	case KGEN_EXPR_INDEX: return ty->index;
	default: return C_INT;  /* bool, char, short, int */
	}
}

static int
is_compare(int op)
{
	return op == '<' || op == '>' || op == op_code("<=") || op == op_code(">=") || op == op_code("==") ||
	       op == op_code("!=") || op == op_code("&&") || op == op_code("||");
}

/* The type of a call of function f with arguments of types at[]: as CUDA's
 * overloads give it (sqrt of a float is a float; of an integer, a double). */
static int
call_type(int f, const int *at, int nargs)
{
	const char *name = funcs[f].name;
	size_t len = strlen(name);
	int k, all_float = 1;

	if (!strcmp(name, "isnan") || !strcmp(name, "isinf") || !strcmp(name, "isfinite") || !strcmp(name, "signbit") ||
	    !strcmp(name, "__float_as_int"))
		return C_INT;
	if (!strcmp(name, "__int_as_float"))
		return C_FLOAT;
	if (!strcmp(name, "__longlong_as_double"))
		return C_DOUBLE;
	if (!strcmp(name, "__double_as_longlong") || !strcmp(name, "llabs"))
		return C_LLONG;
	if (!strcmp(name, "abs"))
		return at[0];
	if (!strcmp(name, "min") || !strcmp(name, "max"))
		return common(at[0], at[1]);
	if (name[len - 1] == 'f' && strcmp(name, "erf") != 0)
		return C_FLOAT;  /* sqrtf, fmaxf, erff, ... */
	for (k = 0; k < nargs; k++)
		all_float &= at[k] == C_FLOAT;
	return all_float ? C_FLOAT : C_DOUBLE;
}

/* Every node's type, operands first (they come first in e->node). */
static void
types_of(const struct kgen_expr *e, const struct types *ty, int *type)
{
	static const int var_type_key[] = { 0, 1, 2, 2, 1 };  /* x: x, i and n: Index, a and b: Acc */
	int at;

	for (at = 0; at < e->n; at++) {
		const struct kgen_expr_node *x = &e->node[at];
		int args[3];
		switch (x->kind) {
		case N_NUM: case N_CAST: type[at] = node_type(x->type, ty); break;
		case N_VAR: type[at] = var_type_key[x->op] == 0 ? ty->x : var_type_key[x->op] == 1 ? ty->index : ty->acc; break;
		case N_UNARY: type[at] = x->op == '!' ? C_INT : type[x->a]; break;
		case N_COND: type[at] = common(type[x->b], type[x->c]); break;
		case N_CALL:
			args[0] = type[x->a];
			args[1] = x->b >= 0 ? type[x->b] : C_INT;
			args[2] = x->c >= 0 ? type[x->c] : C_INT;
			type[at] = call_type(x->op, args, funcs[x->op].args);
			break;
		default:  /* N_BINARY */
			type[at] = is_compare(x->op) ? C_INT :
			           x->op == op_code("<<") || x->op == op_code(">>") ? type[x->a] : common(type[x->a], type[x->b]);
			break;
		}
	}
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

/* Function f of x, y, z, as type t. */
static struct val
call(int f, int t, struct val x, struct val y, struct val z)
{
	const char *name = funcs[f].name;
	long double a = to_ld(x), b;
	float f32;
	uint32_t u32;
	double d;
	unsigned long long u64;

	/* By what the function computes, its name's variants alike. */
	if (!strcmp(name, "abs") || !strcmp(name, "fabs") || !strcmp(name, "fabsf") || !strcmp(name, "llabs")) {
		x = conv(x, t);
		if (is_flt(t))
			return fval(t, fabsl(x.f));
		return ival(t, !is_uns(t) && sval(x.u) < 0 ? 0 - x.u : x.u);
	}
	if (!strcmp(name, "min") || !strcmp(name, "fmin") || !strcmp(name, "fminf") || !strcmp(name, "max") ||
	    !strcmp(name, "fmax") || !strcmp(name, "fmaxf")) {
		int max = name[0] == 'm' ? name[1] == 'a' : name[2] == 'a', y_wins;
		x = conv(x, t);
		y = conv(y, t);
		if (is_flt(t))  /* fmin and fmax: a NaN loses */
			return fval(t, isnan(x.f) ? y.f : isnan(y.f) ? x.f : max ? fmaxl(x.f, y.f) : fminl(x.f, y.f));
		y_wins = is_uns(t) ? (max ? y.u > x.u : y.u < x.u) : (max ? sval(y.u) > sval(x.u) : sval(y.u) < sval(x.u));
		return y_wins ? y : x;
	}
	if (!strcmp(name, "isnan")) return ival(t, isnan(a) != 0);
	if (!strcmp(name, "isinf")) return ival(t, isinf(a) != 0);
	if (!strcmp(name, "isfinite")) return ival(t, isfinite(a) != 0);
	if (!strcmp(name, "signbit")) return ival(t, signbit(a) != 0);
	if (!strcmp(name, "__int_as_float")) {
		u32 = (uint32_t)conv(x, C_INT).u;
		memcpy(&f32, &u32, 4);
		return fval(t, f32);
	}
	if (!strcmp(name, "__float_as_int")) {
		f32 = (float)conv(x, C_FLOAT).f;
		memcpy(&u32, &f32, 4);
		return ival(t, u32);
	}
	if (!strcmp(name, "__longlong_as_double")) {
		u64 = conv(x, C_LLONG).u;
		memcpy(&d, &u64, 8);
		return fval(t, d);
	}
	if (!strcmp(name, "__double_as_longlong")) {
		d = (double)conv(x, C_DOUBLE).f;
		memcpy(&u64, &d, 8);
		return ival(t, u64);
	}
	/* The math functions: the arguments as the result's type, as C converts them. */
	a = to_ld(conv(x, t));
	b = to_ld(conv(y, t));
	if (!strncmp(name, "sqrt", 4)) return fval(t, sqrtl(a));
	if (!strncmp(name, "rsqrt", 5)) return fval(t, 1 / sqrtl(a));
	if (!strncmp(name, "cbrt", 4)) return fval(t, cbrtl(a));
	if (!strncmp(name, "expm1", 5)) return fval(t, expm1l(a));
	if (!strncmp(name, "exp2", 4)) return fval(t, exp2l(a));
	if (!strncmp(name, "exp", 3)) return fval(t, expl(a));
	if (!strncmp(name, "log1p", 5)) return fval(t, log1pl(a));
	if (!strncmp(name, "log10", 5)) return fval(t, log10l(a));
	if (!strncmp(name, "log2", 4)) return fval(t, log2l(a));
	if (!strncmp(name, "log", 3)) return fval(t, logl(a));
	if (!strncmp(name, "pow", 3)) return fval(t, powl(a, b));
	if (!strncmp(name, "hypot", 5)) return fval(t, hypotl(a, b));
	if (!strncmp(name, "sin", 3)) return fval(t, sinl(a));
	if (!strncmp(name, "cos", 3)) return fval(t, cosl(a));
	if (!strncmp(name, "tanh", 4)) return fval(t, tanhl(a));
	if (!strncmp(name, "tan", 3)) return fval(t, tanl(a));
	if (!strncmp(name, "atan2", 5)) return fval(t, atan2l(a, b));
	if (!strncmp(name, "erf", 3)) return fval(t, erfl(a));
	if (!strncmp(name, "floor", 5)) return fval(t, floorl(a));
	if (!strncmp(name, "ceil", 4)) return fval(t, ceill(a));
	if (!strncmp(name, "round", 5)) return fval(t, roundl(a));
	if (!strncmp(name, "trunc", 5)) return fval(t, truncl(a));
	if (!strncmp(name, "fma", 3)) return fval(t, fmal(a, b, to_ld(conv(z, t))));
	return fval(t, copysignl(a, b));  /* copysign, copysignf */
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
		case KGEN_EXPR_CHAR: return narrow(a, 8, 1);
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
		return call(x->op, t, eval(e, x->a, vars, type), x->b >= 0 ? eval(e, x->b, vars, type) : none,
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

struct kgen_value
kgen_expr_eval(const struct kgen_expr *e, const struct kgen_spec *s, struct kgen_value x, struct kgen_value i,
               struct kgen_value a, struct kgen_value b, struct kgen_value n)
{
	struct kgen_value out = { 0, 0, 0 };
	struct types ty;
	struct val vars[5], r;
	int type[KGEN_EXPR_NODES];

	if (s && s->dtype >= 0 && s->acc_dtype >= 0 && s->out_dtype >= 0) {  /* a checked spec */
		ty.x = dtype_type(&kgen_dtype_info[s->dtype]);
		ty.index = s->index == 32 ? C_UINT : C_ULLONG;
		ty.acc = dtype_type(&kgen_dtype_info[s->acc_dtype]);
		ty.out = dtype_type(&kgen_dtype_info[s->out_dtype]);  /* float for f16 and bf16: `typedef float Out` */
	} else {
		ty.x = x.is_float ? C_DOUBLE : C_LLONG;
		ty.index = C_ULLONG;
		ty.acc = ty.out = C_DOUBLE;
	}
	if (e->n <= 0 || e->root < 0 || e->root >= e->n)
		return out;
	vars[V_X] = from_value(x, ty.x);
	vars[V_I] = from_value(i, ty.index);
	vars[V_A] = from_value(a, ty.acc);
	vars[V_B] = from_value(b, ty.acc);
	vars[V_N] = from_value(n, ty.index);
	types_of(e, &ty, type);
	/* The function's return converts to Acc (Out for post). */
	r = conv(eval(e, e->root, vars, type), e->key == KGEN_KEY_post ? ty.out : ty.acc);
	out.is_float = is_flt(r.t);
	if (out.is_float)
		out.f = r.f;
	else
		out.i = sval(r.u);
	return out;
}
