/*
 * expr_parse.c - the expressions' syntax (expr_parse.h): text to a tree.
 *
 * A hand-written recursive descent over C's precedence levels: the
 * language is a dozen rules, and a parser generator would bring a build
 * dependency and give errors less precise than "at this character".
 * Numbers and casts get their C++ type here; every other node's type is
 * expr_type.c's.
 */
#include "config.h"
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "expr_parse.h"

static const char *const var_names[] = { "x", "i", "a", "b", "n", "v", "acc", "c", "row", "col", "bias",
	                                        "residual" };

/* The epilogue's names (matmul): the value, the accumulator and C's old
 * value, of the accumulator's type, the element's row and column (int),
 * and the operands bias and residual at the element, of the accumulator's
 * type (the matmul family's rules refuse one its spec does not declare). */
#define EPILOGUE_VARS ((1u << KGEN_V_V) | (1u << KGEN_V_ACC) | (1u << KGEN_V_C) | (1u << KGEN_V_ROW) | \
                       (1u << KGEN_V_COL) | (1u << KGEN_V_BIAS) | (1u << KGEN_V_RESIDUAL))

/* C++'s arithmetic types (KGEN_EXPR_TYPES). */
const struct kgen_expr_ctype kgen_expr_ctypes[KGEN_EXPR_ACC] = {
#define X(id, name, rank, bits, is_signed) { name, rank, bits, is_signed },
	KGEN_EXPR_TYPES(X)
#undef X
};

/* The functions' names and numbers of arguments (KGEN_EXPR_FUNCS). */
const struct kgen_expr_func kgen_expr_funcs[KGEN_EXPR_FN_COUNT] = {
#define X(name, args, set, cpu) { #name, args },
	KGEN_EXPR_FUNCS(X)
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
	unsigned vars;            /* the names this key declares, a bit per KGEN_V_* */
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

static int parse_fail(struct parser *ps, const char *where, const char *fmt, ...) KGEN_PRINTF(3, 4);

/* Record the first fault: where in the text, and why. */
static int
parse_fail(struct parser *ps, const char *where, const char *fmt, ...)
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
			parse_fail(ps, p, "'%.*s' is not a number", (int)(end - p), p);
		else if (sign + 1 < end)
			parse_fail(ps, p, "'%.*s' is one number to C++ (a pp-number): write %.*s %c %.*s", (int)(end - p), p,
			           (int)(sign - p), p, *sign, (int)(end - sign - 1), sign + 1);
		else
			parse_fail(ps, p, "'%.*s' is one number to C++ (a pp-number): put a space before the %c", (int)(end - p), p,
			           *sign);
		return;
	}
	if (strspn(q, "uUlLfF") < (size_t)(end - q)) {
		parse_fail(ps, p, "'%.*s' is not a number", (int)(end - p), p);
		return;
	}
	if (!suffix_ok(q, (size_t)(end - q), floating)) {
		if (floating)
			parse_fail(ps, p, "'%.*s': C has no suffix %.*s for a floating number: it takes f or l", (int)(end - p), p,
			           (int)(end - q), q);
		else if (end - q == 1 && (*q == 'f' || *q == 'F'))
			parse_fail(ps, p, "'%.*s': C has no suffix %c for an integer: write %.*s.0%c", (int)(end - p), p, *q,
			           (int)(q - p), p, *q);
		else
			parse_fail(ps, p, "'%.*s': C has no suffix %.*s for an integer: it takes u, l, ll, ul, ull, lu or llu "
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
	case ';': parse_fail(ps, p, "';' ends a statement: an expression is one C expression, not statements"); return;
	case '{': case '}': parse_fail(ps, p, "a brace would open or close a block: an expression has none"); return;
	case '\n': case '\r': parse_fail(ps, p, "an expression is one line"); return;
	case '#': parse_fail(ps, p, "'#' would start a preprocessor line"); return;
	case '"': parse_fail(ps, p, "a string literal has no place in an expression"); return;
	case '\'': parse_fail(ps, p, "a character literal has no place in an expression: write its number"); return;
	case '\\': parse_fail(ps, p, "a backslash has no place in an expression"); return;
	case '[': case ']': parse_fail(ps, p, "subscripts: each name is one value, not an array"); return;
	case '=':
		if (p[1] != '=') {
			parse_fail(ps, p, "'=' assigns: an expression computes a value without assigning (use == to compare)");
			return;
		}
		break;
	case '/':
		if (p[1] == '/' || p[1] == '*') {
			parse_fail(ps, p, "a comment has no place in an expression");
			return;
		}
		break;
	case '.': parse_fail(ps, p, "'.': members are not part of an expression"); return;
	default: break;
	}
	if ((p[0] == '+' && p[1] == '+') || (p[0] == '-' && p[1] == '-')) {
		parse_fail(ps, p, "'%.2s' assigns: an expression computes a value without assigning", p);
		return;
	}
	if (strchr("+-*/%&|^<>", p[0]) && p[1] == '=' && !(p[0] == '<' || p[0] == '>')) {
		parse_fail(ps, p, "'%.2s' assigns: an expression computes a value without assigning", p);
		return;
	}
	if ((p[0] == '<' && p[1] == '<' && p[2] == '=') || (p[0] == '>' && p[1] == '>' && p[2] == '=')) {
		parse_fail(ps, p, "'%.3s' assigns: an expression computes a value without assigning", p);
		return;
	}
	if (p[0] == '-' && p[1] == '>') {
		parse_fail(ps, p, "'->': members are not part of an expression");
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
		parse_fail(ps, p, "a control or non-ASCII character has no place in an expression");
	else
		parse_fail(ps, p, "'%.1s' has no place in an expression", p);
}

static int
is(struct parser *ps, const char *op)
{
	return ps->kind == 'o' && ps->len == strlen(op) && strncmp(ps->tok, op, ps->len) == 0;
}

static int
add_node(struct parser *ps, int kind, int op, int a, int b, int c)
{
	struct kgen_expr_node *x;

	if (ps->failed)
		return -1;
	if (ps->e->n >= KGEN_EXPR_NODES)
		return parse_fail(ps, ps->tok, "the expression is too long (more than %s nodes)", "128");
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

static int expression(struct parser *ps);
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
		return parse_fail(ps, ps->tok, "'%s' is too large for a %s: the largest is %s", buf, type,
		                  f ? "3.4028235e38f" : "1.7976931348623157e308");
	if (v == 0 && nonzero)
		return parse_fail(ps, ps->tok, "'%s' is too small for a %s, which would make it 0: write 0, or at least %s", buf,
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
		const struct kgen_expr_ctype *c = &kgen_expr_ctypes[list[k]];
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
		return parse_fail(ps, at, "a number of more than %s characters", "63");
	memcpy(buf, at, ps->len);
	buf[ps->len] = '\0';
	/* next() has checked the suffix: a floating number has a '.' or an exponent. */
	decimal = !(buf[0] == '0' && buf[1] != '\0' && buf[1] != '.');  /* not hex or octal */
	is_float = !(buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X')) && strpbrk(buf, ".eE") != NULL;
	if ((n = add_node(ps, KGEN_N_NUM, 0, -1, -1, -1)) < 0)
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
		return parse_fail(ps, at, "'%s' is not a number", buf);
	if (is_float) {
		if ((t = float_type(ps, buf)) < 0)
			return -1;
	} else {
		if (errno)
			return parse_fail(ps, at, "'%s' is out of range", buf);
		if ((t = int_type(u, uns, longs, decimal)) < 0)
			return parse_fail(ps, at, "'%s' is too large for long long: write %su", buf, buf);
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
			return parse_fail(ps, at, "'%s' is not a name of %s, which has %s", name, ps->key, kgen_expr_names(ps->k));
		next(ps);
		return span(ps, add_node(ps, KGEN_N_VAR, v, -1, -1, -1), at, at);
	}
	for (f = 0; f < KGEN_EXPR_FN_COUNT; f++)
		if (strlen(kgen_expr_funcs[f].name) == ps->len && strncmp(kgen_expr_funcs[f].name, at, ps->len) == 0)
			break;
	if (f == KGEN_EXPR_FN_COUNT) {
		if (in_list(at, ps->len, type_names, KGEN_COUNT(type_names)) >= 0)
			return parse_fail(ps, at, "'%s' is a type: write a cast as (type)value", name);
		if (in_list(at, ps->len, keyword_names, KGEN_COUNT(keyword_names)) >= 0)
			return parse_fail(ps, at, "'%s' is a C++ keyword an expression cannot use", name);
		/* The key's names listed, as for a name of another key's. */
		if (!ps->vars)
			return parse_fail(ps, at, "unknown name '%s': %s takes no names (a constant), only the functions "
			                  "listed in docs/spec.md", name, ps->key);
		return parse_fail(ps, at, "unknown name '%s': %s has %s, and the functions listed in docs/spec.md",
		                  name, ps->key, kgen_expr_names(ps->k));
	}
	next(ps);
	if (!is(ps, "("))
		return parse_fail(ps, ps->tok, "'%s' is a function: call it, as name(...)", kgen_expr_funcs[f].name);
	next(ps);
	for (;;) {
		if (nargs == kgen_expr_funcs[f].args)
			return parse_fail(ps, ps->tok, "too many arguments to %s", kgen_expr_funcs[f].name);
		if ((args[nargs++] = expression(ps)) < 0)
			return -1;
		if (is(ps, ")"))
			break;
		if (!is(ps, ","))
			return parse_fail(ps, ps->tok, "expected ',' or ')' in the call of %s", kgen_expr_funcs[f].name);
		next(ps);
	}
	if (nargs != kgen_expr_funcs[f].args) {
		char msg[96];
		snprintf(msg, sizeof msg, "%s takes %d argument%s", kgen_expr_funcs[f].name, kgen_expr_funcs[f].args,
		         kgen_expr_funcs[f].args > 1 ? "s" : "");
		return parse_fail(ps, ps->tok, "%s", msg);
	}
	next(ps);
	return span(ps, add_node(ps, KGEN_N_CALL, f, args[0], nargs > 1 ? args[1] : -1, nargs > 2 ? args[2] : -1), at, at);
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
				return parse_fail(ps, ps->tok, "Out, the result type, is post's");
			count[w]++;
			last = ps->tok + ps->len;
			next(ps);
		}
		if ((type = cast_type(count)) < 0)
			return parse_fail(ps, first, "'%.*s' is not a C type", (int)(last - first), first);
		if (!is(ps, ")"))
			return parse_fail(ps, ps->tok, "expected ')' to end the cast");
		next(ps);
		if ((v = unary(ps)) < 0)
			return -1;
		if ((n = add_node(ps, KGEN_N_CAST, 0, v, -1, -1)) >= 0)
			ps->e->node[n].type = type;
		return span(ps, n, open, open);
	}
	if ((n = expression(ps)) < 0)
		return -1;
	if (!is(ps, ")"))
		return parse_fail(ps, ps->tok, "expected ')' to close a '('");
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
		return parse_fail(ps, at, "the expression ends where a value is expected");
	return parse_fail(ps, at, "'%.*s' where a value is expected", (int)ps->len, at);
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
				return parse_fail(ps, ps->tok, "the expression nests more than %s levels deep", "64");
			next(ps);
			if ((a = unary(ps)) < 0)
				return -1;
			ps->depth--;
			return span(ps, add_node(ps, KGEN_N_UNARY, ops[i][0], a, -1, -1), at, at);
		}
	return primary(ps);
}

/* Binary levels, loosest first: each a list of operators. */
static const char *const levels[][5] = {
	{ "||" }, { "&&" }, { "|" }, { "^" }, { "&" }, { "==", "!=" }, { "<", ">", "<=", ">=" }, { "<<", ">>" },
	{ "+", "-" }, { "*", "/", "%" },
};

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
				int code = kgen_expr_op(levels[level][j]);
				const char *op = ps->tok;
				next(ps);
				if ((b = binary(ps, level + 1)) < 0)
					return -1;
				if ((a = span(ps, add_node(ps, KGEN_N_BINARY, code, a, b, -1), ps->text + ps->e->node[a].at, op)) < 0)
					return -1;
				matched = 1;
				break;
			}
	} while (matched && !ps->failed);
	return ps->failed ? -1 : a;
}

static int
expression(struct parser *ps)
{
	int c, a, b;

	if (++ps->depth > 64)
		return parse_fail(ps, ps->tok, "the expression nests more than %s levels deep", "64");
	if ((c = binary(ps, 0)) < 0)
		return -1;
	if (is(ps, "?")) {
		const char *q = ps->tok;
		next(ps);
		if ((a = expression(ps)) < 0)
			return -1;
		if (!is(ps, ":"))
			return parse_fail(ps, ps->tok, "expected ':' of the '?'");
		next(ps);
		if ((b = expression(ps)) < 0)
			return -1;
		c = span(ps, add_node(ps, KGEN_N_COND, 0, c, a, b), ps->text + ps->e->node[c].at, q);
	}
	ps->depth--;
	return c;
}

static unsigned
key_vars(enum kgen_key k)
{
	switch (k) {
	case KGEN_KEY_map: return (1u << KGEN_V_X) | (1u << KGEN_V_I);
	case KGEN_KEY_combine: return (1u << KGEN_V_A) | (1u << KGEN_V_B);
	case KGEN_KEY_post: return (1u << KGEN_V_A) | (1u << KGEN_V_N);
	case KGEN_KEY_epilogue: case KGEN_KEY_aux: return EPILOGUE_VARS;
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
	case KGEN_KEY_epilogue: case KGEN_KEY_aux: return "v, acc, c, row, col, bias and residual";
	default: return "none (a constant)";
	}
}

kgen_status
kgen_expr_parse_tree(enum kgen_key k, const char *text, struct kgen_expr *e, size_t *at, char *why, size_t n)
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
		parse_fail(&ps, text, "the expression is empty");
	e->root = expression(&ps);
	if (!ps.failed && ps.kind != 0) {
		if (is(&ps, ")"))
			parse_fail(&ps, ps.tok, "')' closes no '('");
		else
			parse_fail(&ps, ps.tok, "'%.*s' after a whole expression: expected an operator or the end",
			           (int)ps.len, ps.tok);
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
