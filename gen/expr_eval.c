/*
 * expr_eval.c - the expressions computed on the CPU (expr_eval.h), for
 * `kgen run`'s reference: each node in the C type expr_type.c gives it.
 */
#include "config.h"
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "expr_eval.h"

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
	const struct kgen_expr_ctype *c = &kgen_expr_ctypes[t];

	if (kgen_expr_is_floating(t))
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

/* ---- the functions' CPU computations (KGEN_EXPR_FUNCS' last column) ---- */

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
/* The activations (templates/expr/activations.cu), in long double. */
MATH1(gelu, 0.5L * a * (1 + erfl(a * 0.70710678118654752440L)))
MATH1(gelu_tanh, 0.5L * a * (1 + tanhl(0.79788456080286535588L * (a + 0.044715L * a * a * a))))
MATH1(sigmoid, 1 / (1 + expl(-a))) MATH1(silu, a / (1 + expl(-a)))
#undef MATH1
#undef MATH2

static struct val
cpu_fma(int t, struct val x, struct val y, struct val z)
{
	return fval(t, fmal(to_ld(conv(x, t)), to_ld(conv(y, t)), to_ld(conv(z, t))));
}

/* A function's CPU computation: of x, y, z (those it takes), as type t. */
typedef struct val cpu_fn(int t, struct val x, struct val y, struct val z);
static cpu_fn *const cpu_fns[KGEN_EXPR_FN_COUNT] = {
#define X(name, args, set, cpu) cpu_##cpu,
	KGEN_EXPR_FUNCS(X)
#undef X
};

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
	if (op == kgen_expr_op("<=")) return ival(C_INT, uns ? p <= q : sp <= sq);
	if (op == kgen_expr_op(">=")) return ival(C_INT, uns ? p >= q : sp >= sq);
	if (op == kgen_expr_op("==")) return ival(C_INT, p == q);
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
		return ival(t, op == kgen_expr_op("<<") || !negative ? 0 : ~0ull);
	if (op == kgen_expr_op("<<"))
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
	case KGEN_N_NUM: return is_flt(t) ? fround(t, x->f) : ival(t, (unsigned long long)x->i);
	case KGEN_N_VAR: return conv(vars[x->op], t);
	case KGEN_N_CAST:
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
	case KGEN_N_COND:
		return conv(truth(eval(e, x->a, vars, type)) ? eval(e, x->b, vars, type) : eval(e, x->c, vars, type), t);
	case KGEN_N_CALL:
		return cpu_fns[x->op](t, eval(e, x->a, vars, type), x->b >= 0 ? eval(e, x->b, vars, type) : none,
		                        x->c >= 0 ? eval(e, x->c, vars, type) : none);
	case KGEN_N_UNARY:
		a = eval(e, x->a, vars, type);
		switch (x->op) {
		case '-': return is_flt(t) ? fval(t, -a.f) : ival(t, 0 - a.u);
		case '!': return ival(C_INT, !truth(a));
		case '~': return is_flt(t) ? fval(t, NAN) : ival(t, ~a.u);  /* ~ of a float: NVRTC refuses it */
		default: return a;
		}
	default: break;
	}
	/* KGEN_N_BINARY; && and || short-circuit as in C. */
	a = eval(e, x->a, vars, type);
	if (x->op == kgen_expr_op("&&"))
		return ival(C_INT, truth(a) && truth(eval(e, x->b, vars, type)));
	if (x->op == kgen_expr_op("||"))
		return ival(C_INT, truth(a) || truth(eval(e, x->b, vars, type)));
	b = eval(e, x->b, vars, type);
	if (x->op == kgen_expr_op("<<") || x->op == kgen_expr_op(">>"))
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
		if (x->op == kgen_expr_op("<=")) return ival(C_INT, p <= q);
		if (x->op == kgen_expr_op(">=")) return ival(C_INT, p >= q);
		if (x->op == kgen_expr_op("==")) return ival(C_INT, p == q);
		if (x->op == kgen_expr_op("!=")) return ival(C_INT, p != q);
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
	struct kgen_expr_typing ty;
	struct val vars[KGEN_V_COUNT], r;
	int type[KGEN_EXPR_NODES], k;
	unsigned used = 0;

	if (s && s->dtype >= 0 && s->acc_dtype >= 0 && s->out_dtype >= 0) {  /* a checked spec */
		ty = kgen_expr_typing_of(s);  /* Out is float for f16 and bf16: `typedef float Out` */
	} else {
		ty.x = given[KGEN_V_X].is_float ? KGEN_EXPR_DOUBLE : KGEN_EXPR_LLONG;
		ty.index = KGEN_EXPR_ULLONG;
		ty.acc = ty.out = KGEN_EXPR_DOUBLE;
	}
	if (e->n <= 0 || e->root < 0 || e->root >= e->n)
		return out;
	/* Each node's C++ type as the evaluation's (an ambiguous call has C's
	 * conversions' type), and each name e reads, once, as its node's type:
	 * only those (the reference of op: custom evaluates two expressions an
	 * element; a + b reads 2 names of 10). */
	kgen_expr_types(e, &ty, type);
	for (k = 0; k < e->n; k++) {
		const struct kgen_expr_node *x = &e->node[k];
		type[k] = eval_type(type[k]);
		if (x->kind == KGEN_N_VAR && !(used & 1u << x->op)) {
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
	struct kgen_value given[KGEN_V_COUNT];

	memset(given, 0, sizeof given);
	given[KGEN_V_X] = x;
	given[KGEN_V_I] = i;
	given[KGEN_V_A] = a;
	given[KGEN_V_B] = b;
	given[KGEN_V_N] = n;
	return eval_with(e, s, given);
}

struct kgen_value
kgen_expr_eval_epilogue(const struct kgen_expr *e, const struct kgen_spec *s, const struct kgen_epilogue_at *at)
{
	struct kgen_value given[KGEN_V_COUNT];

	memset(given, 0, sizeof given);
	given[KGEN_V_V] = (struct kgen_value){ .is_float = 1, .f = at->v };
	given[KGEN_V_ACC] = (struct kgen_value){ .is_float = 1, .f = at->acc };
	given[KGEN_V_C] = (struct kgen_value){ .is_float = 1, .f = at->c };
	given[KGEN_V_BIAS] = (struct kgen_value){ .is_float = 1, .f = at->bias };
	given[KGEN_V_RESIDUAL] = (struct kgen_value){ .is_float = 1, .f = at->residual };
	given[KGEN_V_ROW] = (struct kgen_value){ .i = at->row };
	given[KGEN_V_COL] = (struct kgen_value){ .i = at->col };
	return eval_with(e, s, given);
}
