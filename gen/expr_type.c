/*
 * expr_type.c - the expressions' C++ types (expr_type.h), as NVRTC gives
 * them, with CUDA's overloads of each function (probed from NVRTC), so
 * that what kgen accepts NVRTC compiles; and the check of a spec's
 * expressions with its types, reported at their place in the spec.
 */
#include "config.h"
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "expr_type.h"

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

/* The functions (KGEN_EXPR_FUNCS) with their overloads. */
static const struct func {
	const char *name;
	int args;
	const struct overload *ov;
	int n_ov;
} funcs[] = {
#define X(name, args, set, cpu) { #name, args, ov_##set, (int)KGEN_COUNT(ov_##set) },
	KGEN_EXPR_FUNCS(X)
#undef X
};

/* ---- types: each node's C++ type, as NVRTC gives it ----
 *
 * Numbers have their literal's type, casts theirs, names and the Acc, Out
 * and Index casts the spec's; operators follow C++'s promotions and usual
 * arithmetic conversions, and a call takes the overload that C++'s
 * overload resolution picks among CUDA's (ov_*).  Where NVRTC would stop,
 * so does kgen, at the operator or the function: an operator that takes
 * integers given a floating operand, a call with no best overload. */

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
	return kgen_expr_ctypes[t].rank >= kgen_expr_ctypes[KGEN_EXPR_FLOAT].rank;
}

/* t after C++'s integral promotion: bool, char and short become int. */
static int
promote(int t)
{
	return kgen_expr_ctypes[t].rank < kgen_expr_ctypes[KGEN_EXPR_INT].rank ? KGEN_EXPR_INT : t;
}

/* The type of p op q after C++'s usual arithmetic conversions. */
static int
arith(int p, int q)
{
	int u, s;

	if (is_fp(p) || is_fp(q))
		return is_fp(p) && (!is_fp(q) || kgen_expr_ctypes[p].rank >= kgen_expr_ctypes[q].rank) ? p : q;
	p = promote(p);
	q = promote(q);
	if (p == q)
		return p;
	if (kgen_expr_ctypes[p].is_signed == kgen_expr_ctypes[q].is_signed)
		return kgen_expr_ctypes[p].rank >= kgen_expr_ctypes[q].rank ? p : q;
	u = kgen_expr_ctypes[p].is_signed ? q : p;
	s = kgen_expr_ctypes[p].is_signed ? p : q;
	if (kgen_expr_ctypes[u].rank >= kgen_expr_ctypes[s].rank)
		return u;
	if (kgen_expr_ctypes[s].bits > kgen_expr_ctypes[u].bits)
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
	if ((p == KGEN_EXPR_INT && kgen_expr_ctypes[a].rank < kgen_expr_ctypes[KGEN_EXPR_INT].rank) ||
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
	int wrap = t >= 0 && (x->kind == KGEN_N_BINARY || x->kind == KGEN_N_COND) && !whole;

	if (t < 0 && whole) {
		at++;
		len -= 2;
	}
	snprintf(buf, n, "%s%s%s%s%.*s%s%s", t >= 0 ? "(" : "", t >= 0 ? kgen_expr_ctypes[t].name : "", t >= 0 ? ")" : "",
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
		if (is_fp(types[k]) && (fmax < 0 || kgen_expr_ctypes[types[k]].rank > kgen_expr_ctypes[fmax].rank))
			fmax = types[k];
		common = arith(common, types[k]);
		wide |= !is_fp(types[k]) && kgen_expr_ctypes[types[k]].bits == 64;
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
			snprintf(list + len, sizeof list - len, "%s%s", k ? ", " : "", kgen_expr_ctypes[types[k]].name);
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
	return op == '<' || op == '>' || op == kgen_expr_op("<=") || op == kgen_expr_op(">=") || op == kgen_expr_op("==") ||
	       op == kgen_expr_op("!=") || op == kgen_expr_op("&&") || op == kgen_expr_op("||");
}

static int
is_shift(int op)
{
	return op == kgen_expr_op("<<") || op == kgen_expr_op(">>");
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
	if (x->kind == KGEN_N_UNARY)
		found(fl, x->op_at, "~ takes an integer, not %s: convert it, ~%s, or take its bits, ~%s(%s)",
		      kgen_expr_ctypes[type[k]].name, conv, bits, raw);
	else if (x->op == '%' && suggest_call(call, sizeof call, e, fl->text, KGEN_EXPR_FN_fmod, args, types) >= 0)
		found(fl, x->op_at, "%% takes integers, not %s: use %s", kgen_expr_ctypes[type[k]].name, call);
	else
		found(fl, x->op_at, "%s takes integers, not %s: convert %s, %s, or take its bits, %s(%s)", op,
		      kgen_expr_ctypes[type[k]].name, x->b >= 0 && k == x->a ? "the left side" : x->b >= 0 ? "the right side" : "it",
		      conv, bits, raw);
}

/* Every node's C++ type (operands first, as they come in e->node) with the
 * names' and casts' types ty; the first fault into fl, if not NULL. */
static void
cxx_types(const struct kgen_expr *e, const struct kgen_expr_typing *ty, int *type, struct fault *fl)
{
	int at;

	for (at = 0; at < e->n; at++) {
		const struct kgen_expr_node *x = &e->node[at];
		switch (x->kind) {
		case KGEN_N_NUM: type[at] = x->type; break;
		case KGEN_N_CAST:
			type[at] = x->type == KGEN_EXPR_ACC ? ty->acc : x->type == KGEN_EXPR_OUT ? ty->out
			         : x->type == KGEN_EXPR_INDEX ? ty->index : x->type;
			break;
		case KGEN_N_VAR:
			type[at] = x->op == KGEN_V_X ? ty->x : x->op == KGEN_V_I || x->op == KGEN_V_N ? ty->index
			         : x->op == KGEN_V_ROW || x->op == KGEN_V_COL ? KGEN_EXPR_INT : ty->acc;
			break;
		case KGEN_N_UNARY:
			if (x->op == '~' && is_fp(type[x->a]))
				integer_fault(fl, e, at, x->a, type);
			type[at] = x->op == '!' ? KGEN_EXPR_BOOL : promote(type[x->a]);
			break;
		case KGEN_N_COND:
			type[at] = type[x->b] == type[x->c] ? type[x->b] : arith(type[x->b], type[x->c]);
			break;
		case KGEN_N_CALL: type[at] = call_type(e, at, type, fl); break;
		default:  /* KGEN_N_BINARY */
			if (takes_integers(x->op) && (is_fp(type[x->a]) || is_fp(type[x->b])))
				integer_fault(fl, e, at, is_fp(type[x->a]) ? x->a : x->b, type);
			type[at] = is_compare(x->op) ? KGEN_EXPR_BOOL : is_shift(x->op) ? promote(type[x->a])
			         : arith(type[x->a], type[x->b]);
			break;
		}
	}
}

void
kgen_expr_types(const struct kgen_expr *e, const struct kgen_expr_typing *ty, int *type)
{
	cxx_types(e, ty, type, NULL);
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

struct kgen_expr_typing
kgen_expr_typing_of(const struct kgen_spec *s)
{
	struct kgen_expr_typing ty = {
		.x = dtype_type(&kgen_dtype_info[s->dtype]),
		.index = s->index == 32 ? KGEN_EXPR_UINT : KGEN_EXPR_ULLONG,
		.acc = dtype_type(&kgen_dtype_info[s->acc_dtype]),
		.out = dtype_type(&kgen_dtype_info[s->out_dtype]),
	};
	return ty;
}

/* e's first fault with types ty, into fl: 1 when there is one. */
static int
type_fault(const struct kgen_expr *e, const char *text, const struct kgen_expr_typing *ty, struct fault *fl)
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
	struct kgen_expr_typing ty;
	int uses_x = 0, uses_index = 0, uses_acc = 0, uses_out = 0, at, ix, ii, ia, io, typings = 0;

	for (at = 0; at < e->n; at++) {
		const struct kgen_expr_node *x = &e->node[at];
		uses_x |= x->kind == KGEN_N_VAR && x->op == KGEN_V_X;
		uses_index |= (x->kind == KGEN_N_VAR && (x->op == KGEN_V_I || x->op == KGEN_V_N)) ||
		              (x->kind == KGEN_N_CAST && x->type == KGEN_EXPR_INDEX);
		uses_acc |= (x->kind == KGEN_N_VAR && KGEN_EXPR_IS_ACC_VAR(x->op)) ||
		            (x->kind == KGEN_N_CAST && x->type == KGEN_EXPR_ACC);
		uses_out |= x->kind == KGEN_N_CAST && x->type == KGEN_EXPR_OUT;
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
	struct fault fl;
	kgen_status st;

	if ((st = kgen_expr_parse_tree(k, text, e, at, why, n)) != KGEN_OK)
		return st;
	if (!fault_of_every_spec(e, text, &fl))
		return KGEN_OK;
	*at = fl.at;
	snprintf(why, n, "%s", fl.why);
	return KGEN_ESPEC;
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
	struct kgen_expr_typing ty;
	struct fault fl;
	char why[200];
	size_t at;
	kgen_status st;

	if (!text || !*text)
		return KGEN_OK;  /* not given: the family's rules say so */
	ty = kgen_expr_typing_of(s);
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
