/*
 * op.c - the op of a reduction (op.h): its types, its rules, and the C of
 * identity(), combine(), to_acc() and store().
 */
#include "config.h"
#include <string.h>
#include "expr_emit.h"
#include "op.h"
#include "expr_type.h"
#include "tpl.h"

#define ERR(k, ...) kgen_spec_error(s, KGEN_KEY_##k, 1, err, __VA_ARGS__)

static int
is_float_class(const struct kgen_dtype_info *d)
{
	return d->cls == DT_FLOAT || d->cls == DT_HALF || d->cls == DT_BHALF;
}

int
kgen_op_is_pair(const struct kgen_spec *s)
{
	return kgen_op_info[s->op].pair;
}

/* The post step of the op, or NULL: an expression of a (the accumulator) and n. */
static const char *
post_expr(const struct kgen_spec *s, char *buf, size_t len)
{
	const struct kgen_dtype_info *out = &kgen_dtype_info[s->out_dtype];
	const char *c = out->cls == DT_HALF || out->cls == DT_BHALF ? "float" : out->ctype;

	switch (kgen_op_info[s->op].post) {
	case OP_POST_MEAN:
		snprintf(buf, len, "(%s)a / (%s)n", c, c);
		return buf;
	case OP_POST_NORM2:
		snprintf(buf, len, "%s((%s)a)", strcmp(c, "float") == 0 ? "sqrtf" : "sqrt", c);
		return buf;
	case OP_POST_EXPR:
		if (strcmp(kgen_spec_expr_text(s, KGEN_KEY_post), "a") != 0)
			return kgen_spec_expr_text(s, KGEN_KEY_post);
		return NULL;
	case OP_POST_NONE:
		break;
	}
	return NULL;
}

int
kgen_op_has_result_step(const struct kgen_spec *s)
{
	char buf[64];

	return kgen_op_is_pair(s) || post_expr(s, buf, sizeof buf) != NULL || s->out_dtype != s->acc_dtype;
}

int
kgen_op_uses_index(const struct kgen_spec *s)
{
	return kgen_op_is_pair(s) ||
	       (s->op == KGEN_OP_CUSTOM && kgen_expr_uses(kgen_spec_expr_text(s, KGEN_KEY_map), "i"));
}

int
kgen_op_acc_bytes(const struct kgen_spec *s)
{
	return kgen_op_is_pair(s) ? 16 : kgen_dtype_info[s->acc_dtype].size;
}

const struct kgen_dtype_info *
kgen_op_out(const struct kgen_spec *s)
{
	return &kgen_dtype_info[s->out_dtype];
}

const char *
kgen_op_reduce_sync(const struct kgen_spec *s)
{
	return kgen_op_is_pair(s) ? NULL : kgen_op_info[s->op].reduce_sync;
}

/* ---- types and rules ---- */

/* The accumulator an op takes by default. */
static enum kgen_dtype
default_acc(const struct kgen_spec *s)
{
	const struct kgen_dtype_info *in = &kgen_dtype_info[s->dtype];
	int half = in->cls == DT_HALF || in->cls == DT_BHALF, integer = !is_float_class(in);

	switch (s->op) {
	case KGEN_OP_MEAN: return integer ? KGEN_DT_I64 : half ? KGEN_DT_F32 : (enum kgen_dtype)s->dtype;
	case KGEN_OP_NORM2: return integer ? KGEN_DT_F64 : half ? KGEN_DT_F32 : (enum kgen_dtype)s->dtype;
	case KGEN_OP_COUNT_NONZERO: return KGEN_DT_I64;
	case KGEN_OP_ANY: case KGEN_OP_ALL: return KGEN_DT_I32;
	default: return half ? KGEN_DT_F32 : (enum kgen_dtype)s->dtype;
	}
}

static enum kgen_dtype
default_out(const struct kgen_spec *s)
{
	const struct kgen_dtype_info *acc = &kgen_dtype_info[s->acc_dtype];

	if (kgen_op_info[s->op].out == OP_OUT_FRACTION)
		return acc->cls == DT_FLOAT ? (enum kgen_dtype)s->acc_dtype : KGEN_DT_F64;
	return (enum kgen_dtype)s->acc_dtype;
}

const char *
kgen_op_last_step_why(const struct kgen_spec *s)
{
	char buf[64];

	return kgen_op_is_pair(s) ? "writes a value and an index" :
	       post_expr(s, buf, sizeof buf) ? "has a last step (post)" : "converts its result to out_dtype";
}

kgen_status
kgen_op_resolve(struct kgen_spec *s, kgen_error *err)
{
	if (s->acc_dtype < 0)
		s->acc_dtype = default_acc(s);
	if (s->out_dtype < 0)
		s->out_dtype = default_out(s);
	return KGEN_OK;
}

kgen_status
kgen_op_check(struct kgen_spec *s, kgen_error *err)
{
	const struct kgen_dtype_info *in = &kgen_dtype_info[s->dtype], *acc, *out;
	const char *op = kgen_ops[s->op].name;

	if (s->acc_dtype < 0)
		s->acc_dtype = default_acc(s);
	acc = &kgen_dtype_info[s->acc_dtype];
	if (s->out_dtype < 0)
		s->out_dtype = default_out(s);
	out = &kgen_dtype_info[s->out_dtype];

	/* op: custom needs combine and identity (the only-with rows keep the expressions to it). */
	if (s->op == KGEN_OP_CUSTOM) {
		if (!s->pos[KGEN_KEY_combine].line)
			return kgen_spec_error(s, KGEN_KEY_op, 1, err, "op: custom needs combine, an expression of a and b "
			                       "(a + b, fmaxf(a, b), ...)");
		if (!s->pos[KGEN_KEY_identity].line)
			return kgen_spec_error(s, KGEN_KEY_op, 1, err, "op: custom needs identity, the result of no elements "
			                       "(0 for a sum, -INFINITY's bits for a max: __int_as_float(0xff800000))");
	}
	KGEN_ASSERT(acc->cls != DT_HALF && acc->cls != DT_BHALF);  /* KGEN_OP_ONLY_WITH's row, or a derived default */
	if ((s->op == KGEN_OP_ANY || s->op == KGEN_OP_ALL) && is_float_class(in))
		return ERR(op, "op: %s is for integer elements, not %s: use count_nonzero, or op: custom", op, in->name);
	if ((s->op == KGEN_OP_ANY || s->op == KGEN_OP_ALL || s->op == KGEN_OP_COUNT_NONZERO) && is_float_class(acc))
		return ERR(acc_dtype, "op: %s counts in an integer accumulator, not %s", op, acc->name);
	if (kgen_op_is_pair(s)) {
		if (s->pos[KGEN_KEY_acc_dtype].line && s->acc_dtype != default_acc(s))
			return ERR(acc_dtype, "op: %s keeps each value as it is (%s): drop acc_dtype", op,
			           kgen_dtype_info[default_acc(s)].name);
		if (s->pos[KGEN_KEY_out_dtype].line && s->out_dtype != s->acc_dtype)
			return ERR(out_dtype, "op: %s writes the value as %s and the index as i64: drop out_dtype", op,
			           acc->name);
	} else if (s->op != KGEN_OP_CUSTOM && s->op != KGEN_OP_ANY && s->op != KGEN_OP_ALL &&
	           s->op != KGEN_OP_COUNT_NONZERO) {
		if (is_float_class(in) && acc->cls != DT_FLOAT)
			return ERR(acc_dtype, "acc_dtype %s cannot accumulate %s elements: use f32 or f64", acc->name, in->name);
		if (!is_float_class(in) && acc->cls != DT_FLOAT && acc->size < in->size)
			return ERR(acc_dtype, "acc_dtype %s is narrower than dtype %s", acc->name, in->name);
	}
	if ((s->op == KGEN_OP_MEAN || s->op == KGEN_OP_NORM2) && !is_float_class(out))
		return ERR(out_dtype, "op: %s gives a fraction: out_dtype must be a floating type, not %s", op, out->name);
	/* The expressions with the spec's types: what NVRTC would refuse (% of
	 * floats, ambiguous overloads) is the spec's error, at its place. */
	if (s->op == KGEN_OP_CUSTOM)
		return kgen_expr_check_keep(s, s->r.expr, err);
	return KGEN_OK;
}

/* ---- the C ---- */

/* The largest or smallest value of type d, or an infinity, as C. */
static const char *
extreme(const struct kgen_dtype_info *d, int largest)
{
	if (d->cls == DT_FLOAT)
		return d->size == 4 ? (largest ? "__uint_as_float(0x7f800000u)" : "__uint_as_float(0xff800000u)")
		                    : (largest ? "__longlong_as_double(0x7ff0000000000000ll)"
		                               : "-__longlong_as_double(0x7ff0000000000000ll)");
	if (d->cls == DT_UINT)
		return largest ? "0xffffffffu" : "0u";
	if (d->size == 8)
		return largest ? "0x7fffffffffffffffll" : "-0x7fffffffffffffffll - 1";
	return largest ? "0x7fffffff" : "-0x7fffffff - 1";
}

static const char *
zero(const struct kgen_dtype_info *d)
{
	return d->cls == DT_FLOAT ? (d->size == 4 ? "0.0f" : "0.0") : "0";
}

static const char *
one(const struct kgen_dtype_info *d)
{
	return d->cls == DT_FLOAT ? (d->size == 4 ? "1.0f" : "1.0") : "1";
}

const char *
kgen_op_identity(const struct kgen_spec *s)
{
	static _Thread_local char pair[96];
	const struct kgen_dtype_info *a = &kgen_dtype_info[s->acc_dtype];
	const char *v;

	switch (kgen_op_info[s->op].identity) {
	case OP_ID_ONE: return one(a);
	case OP_ID_EXPR: return kgen_spec_expr_text(s, KGEN_KEY_identity);
	case OP_ID_LARGEST: v = extreme(a, 1); break;
	case OP_ID_SMALLEST: v = extreme(a, 0); break;
	default: return zero(a);  /* sums, amax (of absolute values), count_nonzero, any */
	}
	if (!s->r.pair)
		return v;
	snprintf(pair, sizeof pair, "{ %s, NO_INDEX }", v);  /* a pair's index: none yet */
	return pair;
}

/* combine(a, b) of a scalar op. */
static const char *
combine_expr(const struct kgen_spec *s)
{
	const struct kgen_dtype_info *a = &kgen_dtype_info[s->acc_dtype];

	switch (s->op) {
	case KGEN_OP_PROD: return "a * b";
	case KGEN_OP_MIN: return a->cls != DT_FLOAT ? "b < a ? b : a" : a->size == 4 ? "fminf(a, b)" : "fmin(a, b)";
	case KGEN_OP_MAX: case KGEN_OP_AMAX:
		return a->cls != DT_FLOAT ? "a < b ? b : a" : a->size == 4 ? "fmaxf(a, b)" : "fmax(a, b)";
	case KGEN_OP_ANY: return "a | b";
	case KGEN_OP_ALL: return "a & b";
	case KGEN_OP_CUSTOM: return kgen_spec_expr_text(s, KGEN_KEY_combine);
	default: return "a + b";
	}
}

/* The map of a named op (of x, the element's value), or NULL: x as it is. */
static const char *
map_expr(const struct kgen_spec *s, char *buf, size_t len)
{
	const struct kgen_dtype_info *in = &kgen_dtype_info[s->dtype], *a = &kgen_dtype_info[s->acc_dtype];

	switch (s->op) {
	case KGEN_OP_SUMSQ: case KGEN_OP_NORM2:
		return in->cls == DT_FLOAT && s->acc_dtype == s->dtype ? "x * x" : "(Acc)x * (Acc)x";
	case KGEN_OP_AMAX:
		if (is_float_class(in))
			snprintf(buf, len, "%s(x)", a->size == 4 ? "fabsf" : "fabs");
		else if (in->cls == DT_UINT)
			return "x";
		else
			snprintf(buf, len, "x < 0 ? -(Acc)x : (Acc)x");
		return buf;
	case KGEN_OP_COUNT_NONZERO: case KGEN_OP_ANY: case KGEN_OP_ALL: return "x != 0";
	case KGEN_OP_CUSTOM: return kgen_spec_expr_text(s, KGEN_KEY_map);
	default: return NULL;
	}
}

/* to_acc()'s body: the element x of type T as its value, passed to
 * `what` (with ", i" when index). */
static void
convert(const struct kgen_spec *s, strbuf *b, const char *what, int index)
{
	const struct kgen_dtype_info *in = &kgen_dtype_info[s->dtype];
	const char *i = index ? ", i" : "";

	if (in->cls == DT_HALF)
		sb_printf(b, "float f; asm(\"cvt.f32.f16 %%0, %%1;\" : \"=f\"(f) : \"h\"(x)); return %s(f%s)", what, i);
	else if (in->cls == DT_BHALF)
		sb_printf(b, "return %s(__uint_as_float((unsigned int)x << 16)%s)", what, i);
	else
		sb_printf(b, "return %s(x%s)", what, i);
}

int
kgen_op_native_atomic(const struct kgen_spec *s, char *call, size_t n)
{
	const struct kgen_dtype_info *a = &kgen_dtype_info[s->acc_dtype];
	const char *fn = kgen_op_info[s->op].atomic;
	int add = fn && strcmp(fn, "atomicAdd") == 0;

	if (s->r.last_step || !fn)
		return 0;
	if (add && a->cls == DT_INT && a->size == 8) {
		snprintf(call, n, "atomicAdd(reinterpret_cast<unsigned long long *>(p), (unsigned long long)v)");
		return 1;
	}
	if (a->cls == DT_FLOAT && !add)
		return 0;  /* no float atomicMin/Max */
	if ((s->op == KGEN_OP_ANY || s->op == KGEN_OP_ALL) && a->size != 4)
		return 0;
	snprintf(call, n, "%s(p, v)", fn);
	return 1;
}

/* The conversion of a float to an f16 or bf16 output, as a helper. */
static void
half_out(const struct kgen_dtype_info *out, strbuf *b)
{
	if (out->cls == DT_HALF)
		sb_puts(b, "// A float as f16 bits, rounded to nearest even.\n"
		           "static __device__ __forceinline__ unsigned short to_out(float f)\n"
		           "{\n"
		           "    unsigned short h;\n"
		           "    asm(\"cvt.rn.f16.f32 %0, %1;\" : \"=h\"(h) : \"f\"(f));\n"
		           "    return h;\n"
		           "}");
	else
		sb_puts(b, "// A float as bf16 bits, rounded to nearest even (NaN stays NaN).\n"
		           "static __device__ __forceinline__ unsigned short to_out(float f)\n"
		           "{\n"
		           "    const unsigned int u = __float_as_uint(f);\n"
		           "    if (f != f)\n"
		           "        return 0x7fc0;\n"
		           "    return (unsigned short)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);\n"
		           "}");
}

/* The pair's struct, its shuffles and its L2 load. */
static void
pair_types(const struct kgen_spec *s, strbuf *b)
{
	const struct kgen_dtype_info *a = &kgen_dtype_info[s->acc_dtype];

	sb_printf(b, "// %s accumulates a value and its index.  NO_INDEX marks the identity: any\n"
	             "// element's index is lower, so it loses every tie.\n"
	             "struct Acc {\n"
	             "    %s v;\n"
	             "    long long i;\n"
	             "};\n"
	             "constexpr long long NO_INDEX = 0x7fffffffffffffffll;\n"
	             "// Where the results go: value[j] and index[j] (-1 where there was no element%s).\n"
	             "struct Results {\n"
	             "    %s *value;\n"
	             "    long long *index;\n"
	             "};", kgen_ops[s->op].name, a->ctype,
	          s->nan == KGEN_NAN_IGNORE && a->cls == DT_FLOAT ? " or only NaNs" : "", a->ctype);
}

static void
pair_helpers(strbuf *b, int flags)
{
	if (!(flags & (KGEN_OP_SHFL_DOWN | KGEN_OP_SHFL_XOR | KGEN_OP_LDCG)))
		return;
	sb_printf(b, "\n\n// The %s of a pair, a field at a time.", flags & KGEN_OP_LDCG ?
	          (flags & (KGEN_OP_SHFL_DOWN | KGEN_OP_SHFL_XOR) ? "warp shuffles and the L2 load" : "L2 load")
	          : "warp shuffles");
	if (flags & KGEN_OP_SHFL_DOWN)
		sb_puts(b, "\nstatic __device__ __forceinline__ Acc __shfl_down_sync(unsigned int mask, Acc a, int delta)\n"
		           "{\n"
		           "    return { __shfl_down_sync(mask, a.v, delta), __shfl_down_sync(mask, a.i, delta) };\n"
		           "}");
	if (flags & KGEN_OP_SHFL_XOR)
		sb_puts(b, "\nstatic __device__ __forceinline__ Acc __shfl_xor_sync(unsigned int mask, Acc a, int lane_mask)\n"
		           "{\n"
		           "    return { __shfl_xor_sync(mask, a.v, lane_mask), __shfl_xor_sync(mask, a.i, lane_mask) };\n"
		           "}");
	if (flags & KGEN_OP_LDCG)
		sb_puts(b, "\nstatic __device__ __forceinline__ Acc __ldcg(const Acc *p)\n"
		           "{\n"
		           "    return { __ldcg(&p->v), __ldcg(&p->i) };\n"
		           "}");
}

/* combine() of a pair: the better value, a NaN over numbers (propagate), the lower index on a tie. */
static void
pair_combine(const struct kgen_spec *s, strbuf *b)
{
	const struct kgen_dtype_info *a = &kgen_dtype_info[s->acc_dtype];
	const char *cmp = s->op == KGEN_OP_ARGMAX ? ">" : "<";

	/* Bitwise & and | on the comparisons: no short circuit, so no branches. */
	if (a->cls == DT_FLOAT && s->nan == KGEN_NAN_PROPAGATE)
		sb_printf(b, "// The %s value wins, and a NaN wins over any number; on a tie (two NaNs\n"
		             "// included) the lower index, so the result is the first %s (or NaN).\n"
		             "static __device__ __forceinline__ Acc combine(Acc a, Acc b)\n"
		             "{\n"
		             "    const bool a_nan = isnan(a.v), b_nan = isnan(b.v), lower = b.i < a.i;\n"
		             "    const bool b_wins = (b_nan & (!a_nan | lower)) | (!a_nan & ((b.v %s a.v) | ((b.v == a.v) & lower)));\n"
		             "    return b_wins ? b : a;\n"
		             "}", s->op == KGEN_OP_ARGMAX ? "larger" : "smaller",
		          s->op == KGEN_OP_ARGMAX ? "maximum" : "minimum", cmp);
	else
		sb_printf(b, "// The %s value wins; on a tie the lower index, so the result is the first %s.\n"
		             "static __device__ __forceinline__ Acc combine(Acc a, Acc b)\n"
		             "{\n"
		             "    return (b.v %s a.v) | ((b.v == a.v) & (b.i < a.i)) ? b : a;\n"
		             "}", s->op == KGEN_OP_ARGMAX ? "larger" : "smaller",
		          s->op == KGEN_OP_ARGMAX ? "maximum" : "minimum", cmp);
}

/* fold(acc, x, i): one more of a thread's elements, which it visits in
 * index order, so a tie keeps acc: cheaper than combine(). */
static void
fold(const struct kgen_spec *s, strbuf *b)
{
	const struct kgen_dtype_info *a = &kgen_dtype_info[s->acc_dtype];
	int max = s->op == KGEN_OP_ARGMAX;

	if (!s->r.pair) {
		sb_puts(b, "\n// Fold element x, at index i, into acc.\n"
		           "static __device__ __forceinline__ Acc fold(Acc acc, T x, Index i) { return combine(acc, to_acc(x, i)); }");
		return;
	}
	sb_printf(b, "\n// One more of a thread's elements, which come in index order: b replaces acc\n"
	             "// only when %s%s, so a tie keeps the lower index; and anything\n"
	             "// replaces the identity.\n"
	             "static __device__ __forceinline__ Acc fold(Acc acc, T x, Index i)\n"
	             "{\n"
	             "    const Acc b = to_acc(x, i);\n", max ? "larger" : "smaller",
	          a->cls == DT_FLOAT && s->nan == KGEN_NAN_PROPAGATE ? " (or the first NaN)" : "");
	if (a->cls == DT_FLOAT && s->nan == KGEN_NAN_PROPAGATE)
		sb_printf(b, "    return (!(b.v %s acc.v) & (acc.v == acc.v)) | (acc.i == NO_INDEX) ? b : acc;\n}", max ? "<=" : ">=");
	else
		sb_printf(b, "    return (b.v %s acc.v) | (acc.i == NO_INDEX) ? b : acc;\n}", max ? ">" : "<");
}

/* A pair's chains, one per vector lane, that rank by value alone: a chain
 * holds the number of the vector its best element came from (which only
 * rises along the chain), not the element's index, and starts from the
 * identity's value at the thread's first vector, so that neither the index
 * nor a compare against NO_INDEX is in the loop.  chain_end() makes the
 * index.  With nan: ignore a NaN value marks a chain without a number yet. */
static void
chains(const struct kgen_spec *s, strbuf *b)
{
	const struct kgen_dtype_info *in = &kgen_dtype_info[s->dtype], *a = &kgen_dtype_info[s->acc_dtype];
	int max = s->op == KGEN_OP_ARGMAX, half = in->cls == DT_HALF || in->cls == DT_BHALF;
	int ignore = a->cls == DT_FLOAT && s->nan == KGEN_NAN_IGNORE;
	int propagate = a->cls == DT_FLOAT && s->nan == KGEN_NAN_PROPAGATE;

	if (in->cls == DT_HALF)
		sb_puts(b, "\n// An element as a float.\n"
		           "static __device__ __forceinline__ float to_float(T x) { float f; asm(\"cvt.f32.f16 %0, %1;\" : \"=f\"(f) : \"h\"(x)); return f; }");
	else if (in->cls == DT_BHALF)
		sb_puts(b, "\n// An element as a float.\n"
		           "static __device__ __forceinline__ float to_float(T x) { return __uint_as_float((unsigned int)x << 16); }");
	sb_printf(b, "\n// A chain: one vector lane of a thread's vectors, which come in index order.\n"
	             "// It holds its best value and the number of the vector that value came from.\n"
	             "// It starts at the thread's first vector i0 with %s.\n"
	             "static __device__ __forceinline__ Acc chain_start(Index i0) { return { %s, (long long)i0 }; }\n"
	             "// Element %s of vector i replaces acc only when %s%s: no index compare.\n"
	             "static __device__ __forceinline__ Acc chain_fold(Acc acc, %s, Index i)\n"
	             "{\n",
	          ignore ? "a NaN: no number yet"
	                 : "the identity's value: a chain\n// with nothing better keeps its first element",
	          ignore ? "__uint_as_float(0x7fffffffu)" : "identity().v",
	          half ? "x" : "v", max ? "larger" : "smaller",
	          propagate ? " (or the first NaN)" : ignore ? " (or the first number)" : "", half ? "T x" : "T v");
	if (half)
		sb_puts(b, "    const float v = to_float(x);\n");
	if (propagate)
		sb_printf(b, "    return !(v %s acc.v) & (acc.v == acc.v) ? Acc{ v, (long long)i } : acc;\n}", max ? "<=" : ">=");
	else if (ignore)
		sb_printf(b, "    return (v %s acc.v) | ((acc.v != acc.v) & (v == v)) ? Acc{ v, (long long)i } : acc;\n}",
		          max ? ">" : "<");
	else
		sb_printf(b, "    return v %s acc.v ? Acc{ v, (long long)i } : acc;\n}", max ? ">" : "<");
	sb_printf(b, "\n// The chain's result, of the lane whose first element is at index `first`.\n"
	             "static __device__ __forceinline__ Acc chain_end(Acc acc, Index first)\n"
	             "{\n"
	             "    %s{ acc.v, (long long)(first + acc.i * VEC) };\n"
	             "}", ignore ? "return acc.v != acc.v ? identity() : Acc" : "return Acc");
}

/* The typedef of Acc, and of Out and Results where there is a result to
 * store (a pair's struct instead). */
static void
render_types(const struct kgen_spec *s, int flags, strbuf *t)
{
	const struct kgen_dtype_info *a = &kgen_dtype_info[s->acc_dtype], *out = s->r.out;

	if (s->r.pair) {
		pair_types(s, t);
		return;
	}
	sb_printf(t, "typedef %s Acc;", a->ctype);
	if (!s->r.last_step && !(flags & KGEN_OP_STORE))
		return;
	if (out->cls == DT_HALF || out->cls == DT_BHALF)
		sb_printf(t, "\ntypedef float Out;  // the result, stored as %s\n"
		             "typedef unsigned short *Results;  // where the results go: %s bits", out->name, out->name);
	else
		sb_printf(t, "\ntypedef %s Out;  // the result\n"
		             "typedef Out *Results;  // where the results go", out->ctype);
}

/* The op's comment, identity() and combine(). */
static void
render_combine(const struct kgen_spec *s, int flags, strbuf *f)
{
	if (s->op <= KGEN_OP_PROD)
		sb_printf(f, "// op: %s\n", kgen_ops[s->op].name);
	else
		sb_printf(f, "// op: %s, %s\n", kgen_ops[s->op].name, kgen_ops[s->op].doc);
	sb_printf(f, "static __device__ __forceinline__ Acc identity() { return %s; }\n", kgen_op_identity(s));
	if (s->r.pair)
		pair_combine(s, f);
	else if (!(flags & KGEN_OP_NO_COMBINE))
		sb_printf(f, "static __device__ __forceinline__ Acc combine(Acc a, Acc b) { return %s; }", combine_expr(s));
	else if (f->s && f->len)
		f->s[--f->len] = '\0';  /* the identity's line ends the block so far */
}

/* to_acc(): the element as the accumulator takes it (through pair() or
 * map() where the op has one). */
static void
render_to_acc(const struct kgen_spec *s, int flags, strbuf *f)
{
	const struct kgen_dtype_info *in = &kgen_dtype_info[s->dtype], *a = &kgen_dtype_info[s->acc_dtype];
	const char *v = in->cls == DT_HALF || in->cls == DT_BHALF ? "float" : in->ctype;
	int index = s->r.uses_index, ignore = s->nan == KGEN_NAN_IGNORE && a->cls == DT_FLOAT;
	const char *iparam = index ? ", Index i" : flags & KGEN_OP_STORE ? ", Index" : "";
	const char *map;
	char mbuf[64];

	map = map_expr(s, mbuf, sizeof mbuf);
	if (s->r.pair) {
		sb_printf(f, "\n// Each element with its index%s.\n"
		             "static __device__ __forceinline__ Acc pair(%s x, Index i) { return %s; }\n"
		             "static __device__ __forceinline__ Acc to_acc(T x, Index i) { ",
		          ignore ? "; a NaN is skipped (it becomes the identity)" : "",
		          v, ignore ? "isnan(x) ? identity() : Acc{ x, (long long)i }" : "{ x, (long long)i }");
		convert(s, f, "pair", 1);
	} else if (map) {
		sb_printf(f, "\n// Each element x%s as the accumulator takes it.\n"
		             "static __device__ __forceinline__ Acc map(%s x%s) { return %s; }\n"
		             "static __device__ __forceinline__ Acc to_acc(T x%s) { ",
		          index ? " (at index i)" : "", v, index ? ", Index i" : "", map, iparam);
		convert(s, f, "map", index);
	} else {
		sb_printf(f, "\nstatic __device__ __forceinline__ Acc to_acc(T x%s) { ", iparam);
		if (in->cls == DT_HALF)
			sb_puts(f, "float f; asm(\"cvt.f32.f16 %0, %1;\" : \"=f\"(f) : \"h\"(x)); return f");
		else if (in->cls == DT_BHALF)
			sb_puts(f, "return __uint_as_float((unsigned int)x << 16)");
		else
			sb_puts(f, s->dtype == s->acc_dtype ? "return x" : "return (Acc)x");
	}
	sb_puts(f, "; }");
}

/* store(): the result of n elements into out (after post() and to_out()
 * where the op has them). */
static void
render_store(const struct kgen_spec *s, int flags, strbuf *f)
{
	const struct kgen_dtype_info *out = s->r.out;
	int half_result = out->cls == DT_HALF || out->cls == DT_BHALF, step = s->r.last_step;
	const char *post;
	char pbuf[64];

	post = post_expr(s, pbuf, sizeof pbuf);
	if (half_result && step) {
		sb_puts(f, "\n");
		half_out(out, f);
	}
	if (s->r.pair) {
		sb_puts(f, "\n// The result of n elements: the value, and its index (-1 for none).\n"
		           "static __device__ __forceinline__ void store(Results out, Index j, Acc a, Index)\n"
		           "{\n"
		           "    out.value[j] = a.v;\n"
		           "    out.index[j] = a.i == NO_INDEX ? -1 : a.i;\n"
		           "}");
	} else if (post) {
		sb_printf(f, "\n// The result of n elements.\n"
		             "static __device__ __forceinline__ Out post(Acc a, Index n) { return %s; }\n"
		             "static __device__ __forceinline__ void store(Results out, Index j, Acc a, Index n) "
		             "{ out[j] = %s(post(a, n)); }", post, half_result ? "to_out" : "");
	} else if (step || (flags & KGEN_OP_STORE)) {
		sb_printf(f, "\n// The result of row, column or vector j.\n"
		             "static __device__ __forceinline__ void store(Results out, Index j, Acc a, Index) { out[j] = %s; }",
		          half_result ? "to_out(a)" : "a");
	}
}

kgen_status
kgen_op_render(const struct kgen_spec *s, int flags, struct tpl_args *parent, kgen_error *err)
{
	strbuf t, f;

	sb_init(&t);
	sb_init(&f);
	render_types(s, flags, &t);
	render_combine(s, flags, &f);
	render_to_acc(s, flags, &f);
	if (flags & KGEN_OP_FOLD)
		fold(s, &f);
	if ((flags & KGEN_OP_CHAINS) && s->r.pair)
		chains(s, &f);
	render_store(s, flags, &f);
	if (s->r.pair)
		pair_helpers(&f, flags);
	if (t.failed || f.failed) {
		sb_free(&t);
		sb_free(&f);
		return kgen_fail(err, KGEN_ENOMEM, "out of memory");
	}
	tpl_set(parent, "op_types", "%s", t.s);
	tpl_set(parent, "op_functions", "%s", f.s);
	sb_free(&t);
	sb_free(&f);
	return kgen_expr_render_activations(s, parent, "activations", err);
}
