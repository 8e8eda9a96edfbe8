/*
 * reference.c - what `kgen run` checks results against: seeded random
 * inputs (values chosen so that every dtype holds them exactly) and the CPU
 * reference in higher precision, with the documented tolerance.
 */
#include "config.h"
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "reference.h"
#include "gen/op.h"
#include "gen/parallel.h"

/* ---- seeded random inputs ---- */

uint64_t
kgen_splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* float to IEEE half / bfloat16 bits, rounding to nearest even. */
static uint16_t
f32_to_f16(float f)
{
	uint32_t x, sign, mant;
	int exp;

	memcpy(&x, &f, 4);
	sign = (x >> 16) & 0x8000u;
	exp = (int)((x >> 23) & 0xff) - 127 + 15;
	mant = x & 0x7fffffu;
	if (exp >= 31)
		return (uint16_t)(sign | 0x7c00u);
	if (exp <= 0) {
		if (exp < -10)
			return (uint16_t)sign;
		mant |= 0x800000u;
		{
			uint32_t shift = (uint32_t)(14 - exp), half = 1u << (shift - 1), r = mant >> shift;
			uint32_t rem = mant & ((1u << shift) - 1);
			if (rem > half || (rem == half && (r & 1)))
				r++;
			return (uint16_t)(sign | r);
		}
	}
	{
		uint32_t r = ((uint32_t)exp << 10) | (mant >> 13), rem = mant & 0x1fffu;
		if (rem > 0x1000u || (rem == 0x1000u && (r & 1)))
			r++;
		return (uint16_t)(sign | r);
	}
}

static float
f16_to_f32(uint16_t h)
{
	uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exp = (h >> 10) & 0x1f, mant = h & 0x3ffu, x;
	float f;

	if (exp == 0) {
		f = ldexpf((float)mant, -24);
		return sign ? -f : f;
	}
	if (exp == 31)
		x = sign | 0x7f800000u | (mant << 13);
	else
		x = sign | ((exp - 15 + 127) << 23) | (mant << 13);
	memcpy(&f, &x, 4);
	return f;
}

static uint16_t
f32_to_bf16(float f)
{
	uint32_t x;

	memcpy(&x, &f, 4);
	x += 0x7fffu + ((x >> 16) & 1);
	return (uint16_t)(x >> 16);
}

static float
bf16_to_f32(uint16_t b)
{
	uint32_t x = (uint32_t)b << 16;
	float f;

	memcpy(&f, &x, 4);
	return f;
}

/* One input value for op, as a double (floats) or an integer. */
static double
draw(enum kgen_op op, int is_float, uint64_t *st, unsigned long long i, unsigned long long n)
{
	uint64_t r = kgen_splitmix64(st);
	unsigned long long every = n / 32 + 1;

	switch (op) {
	case KGEN_OP_ARGMIN: case KGEN_OP_ARGMAX:
		/* Few distinct values, so that the extremes tie many times: the lowest index must win. */
		return is_float ? (double)((int)(r % 257) - 128) / 8.0 : (double)((int)(r % 201) - 100);
	case KGEN_OP_ANY:
		/* Zeros, and at an odd n one element two thirds of the way in that is not: the answer is 0
		 * at even sizes and 1 at odd ones, so that neither a constant nor a kernel that reads only
		 * the first tiles passes them all (each row of a matrix of even rows is all zeros but one). */
		return (n & 1) && i == n - 1 - n / 3 ? (double)((int)(r % 7) + 1) : 0.0;
	case KGEN_OP_ALL:
		/* The converse: non-zero, but for that element at an odd n. */
		return (n & 1) && i == n - 1 - n / 3 ? 0.0 : (double)((int)(r % 7) + 1);
	case KGEN_OP_SUM:
		/* Floats: -1, 0 or 1, so that any order of any sum of up to 2^24 of them is exact in f32 and the
		 * check can ask for it bit for bit (exact_sum()): a dropped or repeated element shows. */
		return is_float ? (double)((int)(r % 3) - 1) : (double)((int)(r % 2001) - 1000);
	case KGEN_OP_MEAN: case KGEN_OP_SUMSQ: case KGEN_OP_NORM2: case KGEN_OP_COUNT_NONZERO:
	case KGEN_OP_CUSTOM:
		/* Multiples of 1/16 in [-4, 4] (integers in [-1000, 1000]): exact in every dtype. */
		return is_float ? (double)((int)(r % 129) - 64) / 16.0 : (double)((int)(r % 2001) - 1000);
	case KGEN_OP_PROD:
		/* Floats: 1 but for a few 2, 0.5 and -1, so the product is exact;
		 * integers: odd, so the product modulo 2^bits never becomes 0. */
		if (is_float)
			return i % every == every / 2 ? ((double[]){ 2.0, 0.5, -1.0 })[r % 3] : 1.0;
		return (double)(2 * (int)(r % 8) - 7);
	default:
		return is_float ? (double)((int64_t)(r % 2000001) - 1000000) / 64.0 : (double)((int64_t)(r % 2000000001) - 1000000000);
	}
}

/* Inputs and references of many elements are made a chunk at a time, the
 * chunks side by side on every CPU (kgen_parallel_for): at 2^30 elements a
 * single thread takes 5-7 s to fill an input and 8-25 s for its reference
 * (2 cores of an AMD EPYC), for every dtype and op of a `kgen run` or
 * `kgen tune`.  The chunks are fixed, so neither the input nor the
 * reference depends on how many threads made them. */
#define CHUNK KGEN_REFERENCE_CHUNK

static int
chunk_count(unsigned long long n)
{
	return (int)((n + CHUNK - 1) / CHUNK);
}

/* Every CPU, or this thread alone inside a pool (a reference of one row of many). */
static int
chunk_threads(void)
{
	return kgen_parallel_inside() ? 1 : 0;
}

struct fill_job {
	const struct kgen_spec *s;
	void *host;
	unsigned long long n;
	uint64_t seed;
};

/* Elements [k * CHUNK, (k + 1) * CHUNK) of the input: the sequence's state
 * before element i is seed + i * the splitmix64 increment, so a chunk starts
 * where a fill from element 0 would be. */
static void
fill_chunk(void *arg, int k)
{
	const struct fill_job *j = arg;
	const struct kgen_spec *s = j->s;
	int is_float = s->r.dtype->cls == DT_FLOAT || s->r.dtype->cls == DT_HALF || s->r.dtype->cls == DT_BHALF;
	unsigned long long i = (unsigned long long)k * CHUNK, end = i + CHUNK < j->n ? i + CHUNK : j->n;
	uint64_t st = j->seed + i * 0x9e3779b97f4a7c15ull;
	void *host = j->host;
	double v;

	for (; i < end; i++) {
		v = draw((enum kgen_op)s->op, is_float, &st, i, j->n);
		switch (s->dtype) {
		case KGEN_DT_I32: ((int32_t *)host)[i] = (int32_t)v; break;
		case KGEN_DT_U32: ((uint32_t *)host)[i] = (uint32_t)(int64_t)v; break;
		case KGEN_DT_I64: ((int64_t *)host)[i] = (int64_t)v; break;
		case KGEN_DT_F32: ((float *)host)[i] = (float)v; break;
		case KGEN_DT_F64: ((double *)host)[i] = v; break;
		case KGEN_DT_F16: ((uint16_t *)host)[i] = f32_to_f16((float)v); break;
		case KGEN_DT_BF16: ((uint16_t *)host)[i] = f32_to_bf16((float)v); break;
		}
	}
}

/* Fill host memory with n seeded values of the spec's dtype. */
void
kgen_fill_input(const struct kgen_spec *s, void *host, unsigned long long n, uint64_t seed)
{
	struct fill_job j = { s, host, n, seed };

	kgen_parallel_for(chunk_count(n), chunk_threads(), fill_chunk, &j);
}

void
kgen_place(const struct kgen_spec *s, void *host, unsigned long long i, int nan)
{
	int low = s->op == KGEN_OP_ARGMIN || s->op == KGEN_OP_MIN;
	double v = nan ? NAN : low ? -1e6 : 1e6;  /* outside every draw, exact in every dtype but bf16's 1e6 */

	switch (s->dtype) {
	case KGEN_DT_I32: if (!nan) ((int32_t *)host)[i] = (int32_t)v; break;
	case KGEN_DT_U32: if (!nan) ((uint32_t *)host)[i] = low ? 0u : 4000000000u; break;
	case KGEN_DT_I64: if (!nan) ((int64_t *)host)[i] = (int64_t)v; break;
	case KGEN_DT_F32: ((float *)host)[i] = (float)v; break;
	case KGEN_DT_F64: ((double *)host)[i] = v; break;
	case KGEN_DT_F16: ((uint16_t *)host)[i] = f32_to_f16(nan ? (float)v : low ? -60000.0f : 60000.0f); break;
	case KGEN_DT_BF16: ((uint16_t *)host)[i] = f32_to_bf16((float)v); break;
	}
}

int
kgen_fill_identity(const struct kgen_spec *s, void *host, unsigned long long n)
{
	int low = s->op == KGEN_OP_MAX || s->op == KGEN_OP_ARGMAX;  /* the identity is the lowest value */
	unsigned long long i;

	if (!low && s->op != KGEN_OP_MIN && s->op != KGEN_OP_ARGMIN)
		return -1;
	for (i = 0; i < n; i++)
		switch (s->dtype) {
		case KGEN_DT_I32: ((int32_t *)host)[i] = low ? INT32_MIN : INT32_MAX; break;
		case KGEN_DT_U32: ((uint32_t *)host)[i] = low ? 0u : UINT32_MAX; break;
		case KGEN_DT_I64: ((int64_t *)host)[i] = low ? INT64_MIN : INT64_MAX; break;
		case KGEN_DT_F32: ((float *)host)[i] = low ? -INFINITY : INFINITY; break;
		case KGEN_DT_F64: ((double *)host)[i] = low ? -INFINITY : INFINITY; break;
		case KGEN_DT_F16: ((uint16_t *)host)[i] = low ? 0xfc00u : 0x7c00u; break;
		case KGEN_DT_BF16: ((uint16_t *)host)[i] = low ? 0xff80u : 0x7f80u; break;
		}
	return 0;
}

size_t
kgen_result_size(const struct kgen_spec *s)
{
	return (size_t)(s->r.pair ? s->r.acc->size : s->r.out->size);
}

int
kgen_same_reference(const struct kgen_spec *a, const struct kgen_spec *b)
{
	int k;

	if (a->op != b->op || a->dtype != b->dtype || a->acc_dtype != b->acc_dtype || a->out_dtype != b->out_dtype ||
	    a->nan != b->nan)
		return 0;
	for (k = 0; k < (int)KGEN_COUNT(a->expr_text); k++)
		if (strcmp(a->expr_text[k], b->expr_text[k]) != 0)
			return 0;
	return 1;
}

/* ---- the CPU reference ---- */

static long double
element(const struct kgen_spec *s, const void *host, unsigned long long i)
{
	switch (s->dtype) {
	case KGEN_DT_I32: return ((const int32_t *)host)[i];
	case KGEN_DT_U32: return ((const uint32_t *)host)[i];
	case KGEN_DT_I64: return ((const int64_t *)host)[i];
	case KGEN_DT_F32: return ((const float *)host)[i];
	case KGEN_DT_F64: return ((const double *)host)[i];
	case KGEN_DT_F16: return f16_to_f32(((const uint16_t *)host)[i]);
	default: return bf16_to_f32(((const uint16_t *)host)[i]);
	}
}

static int64_t
int_element(const struct kgen_spec *s, const void *host, unsigned long long i)
{
	switch (s->dtype) {
	case KGEN_DT_I32: return ((const int32_t *)host)[i];
	case KGEN_DT_U32: return ((const uint32_t *)host)[i];
	default: return ((const int64_t *)host)[i];
	}
}

/* ---- ops with a last step, pairs and custom expressions ---- */

static int
is_float_dt(const struct kgen_dtype_info *d)
{
	return d->cls == DT_FLOAT || d->cls == DT_HALF || d->cls == DT_BHALF;
}

/* The ops the first reference (below) does not compute: their results go
 * through the spec's r.out type and the value path here. */
static int
general(const struct kgen_spec *s)
{
	return s->op > KGEN_OP_PROD || s->out_dtype != s->acc_dtype;
}

/* Element i as a kgen_value: floating for float dtypes. */
static struct kgen_value
value_of(const struct kgen_spec *s, const void *host, unsigned long long i)
{
	struct kgen_value v = { 0, 0, 0 };

	if (is_float_dt(s->r.dtype)) {
		v.is_float = 1;
		v.f = element(s, host, i);
	} else {
		v.i = int_element(s, host, i);
	}
	return v;
}

static struct kgen_value
as_acc(const struct kgen_spec *s, struct kgen_value v)
{
	const struct kgen_dtype_info *a = s->r.acc;

	if (a->cls == DT_FLOAT) {
		if (!v.is_float)
			v.f = (long double)v.i;
		v.is_float = 1;  /* kept in long double: the reference is the exact value, the tolerance bounds the rest */
	} else {
		if (v.is_float)
			v.i = (long long)v.f;
		v.is_float = 0;
		if (a->size == 4)
			v.i = a->cls == DT_UINT ? (long long)(uint32_t)v.i : (long long)(int32_t)v.i;
	}
	return v;
}

static void
general_init(const struct kgen_spec *s, struct reference *r)
{
	struct kgen_value none = { 0, 0, 0 };

	r->index = -1;
	r->acc.is_float = s->r.acc->cls == DT_FLOAT;
	/* The op's identity (its column of KGEN_OPS). */
	switch (kgen_op_info[s->op].identity) {
	case OP_ID_ONE: r->acc.i = 1; r->acc.f = 1; break;
	case OP_ID_LARGEST: r->acc.f = INFINITY; r->acc.i = INT64_MAX; break;
	case OP_ID_SMALLEST: r->acc.f = -INFINITY; r->acc.i = INT64_MIN; break;
	case OP_ID_EXPR:
		r->acc = as_acc(s, kgen_expr_eval(&s->r.expr[2], s, none, none, none, none, none));
		break;
	case OP_ID_ZERO: break;
	}
	/* The integer extremes in the accumulator's width (the identities of min and max). */
	{
		int low = kgen_op_info[s->op].identity == OP_ID_LARGEST, high = kgen_op_info[s->op].identity == OP_ID_SMALLEST;
		if (s->r.acc->cls == DT_UINT && (low || high))
			r->acc.i = low ? UINT32_MAX : 0;
		if (s->r.acc->size == 4 && s->r.acc->cls == DT_INT && (low || high))
			r->acc.i = low ? INT32_MAX : INT32_MIN;
	}
}

static void general_step(const struct kgen_spec *s, struct reference *r, const void *host, unsigned long long i);

/* One element; an integer accumulator wraps at its own width after each step, as the GPU's does. */
static void
general_add(const struct kgen_spec *s, struct reference *r, const void *host, unsigned long long i)
{
	general_step(s, r, host, i);
	if (!r->acc.is_float)
		r->acc = as_acc(s, r->acc);
}

static void
general_step(const struct kgen_spec *s, struct reference *r, const void *host, unsigned long long i)
{
	struct kgen_value x = value_of(s, host, i), none = { 0, 0, 0 }, idx = { 0, 0, (long long)r->count };
	long double f;
	int isflt = r->acc.is_float;

	/* An integer element in an integer accumulator's type first, as the
	 * kernel's to_acc() converts it ((Acc)x: an i32 -5 in a u32 min is
	 * 4294967291); custom's map takes the element as it is. */
	if (!isflt && !x.is_float && s->op != KGEN_OP_CUSTOM)
		x = as_acc(s, x);
	f = x.is_float ? x.f : (long double)x.i;

	r->count++;
	switch (s->op) {
	case KGEN_OP_PROD:
		if (isflt)
			r->acc.f *= f;
		else
			r->acc.i = (long long)((uint64_t)r->acc.i * (uint64_t)x.i);
		break;
	case KGEN_OP_MIN: case KGEN_OP_MAX: {  /* fmin and fmax: a NaN never wins */
		int max = s->op == KGEN_OP_MAX;
		if (isflt ? (max ? f > r->acc.f : f < r->acc.f) : (max ? x.i > r->acc.i : x.i < r->acc.i)) {
			r->acc.f = f;
			r->acc.i = x.i;
		}
		break;
	}
	case KGEN_OP_SUM: case KGEN_OP_MEAN: case KGEN_OP_SUMSQ: case KGEN_OP_NORM2: {
		long double t = s->op == KGEN_OP_MEAN || s->op == KGEN_OP_SUM ? f : f * f;
		if (isflt) {
			r->acc.f += t;
			r->abs_sum += fabsl(t);
			r->off_grid |= t * 16 != floorl(t * 16);
			r->off_int |= t != floorl(t);
		} else {
			r->acc.i = (long long)((uint64_t)r->acc.i + (uint64_t)(s->op == KGEN_OP_MEAN || s->op == KGEN_OP_SUM ? x.i
			                                                                                      : x.i * x.i));
		}
		break;
	}
	case KGEN_OP_AMAX:
		if (isflt) {
			if (fabsl(f) > r->acc.f)  /* fmax: a NaN never wins */
				r->acc.f = fabsl(f);
		} else if ((x.i < 0 ? -x.i : x.i) > r->acc.i) {
			r->acc.i = x.i < 0 ? -x.i : x.i;
		}
		break;
	case KGEN_OP_COUNT_NONZERO: r->acc.i += f != 0; break;
	case KGEN_OP_ANY: r->acc.i |= x.i != 0; break;
	case KGEN_OP_ALL: r->acc.i &= x.i != 0; break;
	case KGEN_OP_ARGMIN: case KGEN_OP_ARGMAX: {
		int max = s->op == KGEN_OP_ARGMAX, better;
		if (isflt && isnan(f)) {
			if (s->nan == KGEN_NAN_PROPAGATE && !r->nan_seen) {
				r->nan_seen = 1;
				r->acc.f = NAN;
				r->index = idx.i;
			}
			break;
		}
		if (r->nan_seen)
			break;
		better = isflt ? (max ? f > r->acc.f : f < r->acc.f) : (max ? x.i > r->acc.i : x.i < r->acc.i);
		if (better || r->index < 0) {
			if (isflt)
				r->acc.f = f;
			else
				r->acc.i = x.i;
			r->index = idx.i;
		}
		break;
	}
	default: {  /* custom: acc = combine(acc, map(x, i)), as the accumulator type */
		const struct kgen_expr *e = s->r.expr;
		struct kgen_value m = as_acc(s, kgen_expr_eval(&e[0], s, x, idx, none, none, none));
		r->abs_sum += m.is_float ? fabsl(m.f) : 0;
		r->acc = as_acc(s, kgen_expr_eval(&e[1], s, none, none, r->acc, m, none));
		break;
	}
	}
}

/* Float f stored to integer type out (i32, u32 or i64): truncated and, out
 * of range, saturated (NaN to 0), as the kernel's conversion (the GPU's
 * cvt.rzi) does. */
static long long
saturate(long double f, const struct kgen_dtype_info *out)
{
	int wide = out->size == 8;
	long double lo = out->cls == DT_UINT ? 0.0L : wide ? -0x1p63L : -0x1p31L;
	long double hi = out->cls == DT_UINT ? 0x1p32L : wide ? 0x1p63L : 0x1p31L;

	if (isnan(f))
		return 0;
	f = truncl(f);
	if (f <= lo)
		return out->cls == DT_UINT ? 0 : wide ? INT64_MIN : INT32_MIN;
	if (f >= hi)
		return out->cls == DT_UINT ? UINT32_MAX : wide ? INT64_MAX : INT32_MAX;
	return (long long)f;
}

/* The op's last step of the accumulated value a, before the output type. */
static struct kgen_value
general_last(const struct kgen_spec *s, const struct reference *r, struct kgen_value a)
{
	struct kgen_value none = { 0, 0, 0 }, n = { 0, 0, (long long)r->count }, v = a;

	switch (s->op) {
	case KGEN_OP_MEAN: v.f = (a.is_float ? a.f : (long double)a.i) / (long double)r->count; v.is_float = 1; break;
	case KGEN_OP_NORM2: v.f = sqrtl(a.is_float ? a.f : (long double)a.i); v.is_float = 1; break;
	case KGEN_OP_CUSTOM: v = kgen_expr_eval(&s->r.expr[3], s, none, none, a, none, n); break;
	default: break;
	}
	return v;
}

/* The result through the op's last step, as a long double (floats) or an integer. */
static struct kgen_value
general_post(const struct kgen_spec *s, const struct reference *r, struct kgen_value a)
{
	struct kgen_value v = general_last(s, r, a);
	const struct kgen_dtype_info *out = s->r.out;

	if (is_float_dt(out) && !v.is_float) {
		v.f = (long double)v.i;
		v.is_float = 1;
	} else if (!is_float_dt(out) && v.is_float) {
		v.i = saturate(v.f, out);
		v.is_float = 0;
	}
	if (!v.is_float && out->size == 4)
		v.i = out->cls == DT_UINT ? (long long)(uint32_t)v.i : (long long)(int32_t)v.i;
	return v;
}

static long double
eps_of(const struct kgen_dtype_info *d)
{
	return d->cls == DT_HALF ? 0x1p-10L : d->cls == DT_BHALF ? 0x1p-7L : d->size == 4 ? 0x1p-23L : 0x1p-52L;
}

static int
depth_of(unsigned long long n)
{
	int depth = 2;

	while (n > 1) {
		n = (n + 1) / 2;
		depth++;
	}
	return depth;
}

/* The device's result: value (in out's type) and, for pairs, index. */
static struct kgen_value
general_got(const struct kgen_spec *s, const unsigned char *got, long long *index)
{
	const struct kgen_dtype_info *out = s->r.out;
	struct kgen_value v = { 0, 0, 0 };
	uint16_t h;
	float f;
	double d;
	int32_t i32;
	int64_t i64;

	memcpy(&i64, got + 8, 8);
	*index = i64;
	switch (s->op == KGEN_OP_ARGMIN || s->op == KGEN_OP_ARGMAX ? s->acc_dtype : s->out_dtype) {
	case KGEN_DT_F32: memcpy(&f, got, 4); v.is_float = 1; v.f = f; break;
	case KGEN_DT_F64: memcpy(&d, got, 8); v.is_float = 1; v.f = d; break;
	case KGEN_DT_F16: memcpy(&h, got, 2); v.is_float = 1; v.f = f16_to_f32(h); break;
	case KGEN_DT_BF16: memcpy(&h, got, 2); v.is_float = 1; v.f = bf16_to_f32(h); break;
	case KGEN_DT_I64: memcpy(&i64, got, 8); v.i = i64; break;
	case KGEN_DT_U32: memcpy(&i32, got, 4); v.i = (uint32_t)i32; break;
	default: memcpy(&i32, got, 4); v.i = i32; break;
	}
	(void)out;
	return v;
}

/* A float accumulator stored to an integer result: got is right when it is
 * the saturated value of the last step's result moved by no more than the
 * accumulator's rounding moves it (the last step is taken before the
 * conversion, so a last step that is not monotone keeps want inside). */
static int
float_to_integer_check(const struct kgen_spec *s, const struct reference *r, long long got, long long want,
                       struct kgen_value acc, unsigned long long n, char *msg, size_t len)
{
	const struct kgen_dtype_info *out = s->r.out;
	long double tol = eps_of(s->r.acc) * (r->depth ? r->depth : depth_of(n)) * r->abs_sum;
	struct kgen_value mid, lo = acc, hi = acc;
	long long a, b;

	if (s->op == KGEN_OP_PROD)  /* a product's rounding is relative: each step's */
		tol += eps_of(s->r.acc) * (long double)(n + 2) * fabsl(acc.f);
	lo.f -= tol;
	hi.f += tol;
	mid = general_last(s, r, acc);
	lo = general_last(s, r, lo);
	hi = general_last(s, r, hi);
	if (mid.is_float && lo.is_float && hi.is_float) {
		tol = fmaxl(fabsl(hi.f - mid.f), fabsl(lo.f - mid.f));
		a = saturate(mid.f - tol, out);
		b = saturate(mid.f + tol, out);
	} else {  /* a custom post that makes an integer: the values it takes at the three */
		a = general_post(s, r, lo).i;
		b = general_post(s, r, hi).i;
		if (a > b) {
			long long t = a;
			a = b;
			b = t;
		}
		a = want < a ? want : a;
		b = want > b ? want : b;
	}
	if (msg)
		snprintf(msg, len, "got %lld, expected %lld (%lld to %lld with the accumulator's rounding)", got, want, a, b);
	return a <= got && got <= b;
}

/* Whether a float sum of r's elements is exact in the accumulator whatever
 * the order, so that every partial sum is: integers (the seeded data of a
 * sum are -1, 0 and 1) of sum |x| under 2^24 (f32's 24 bits hold every
 * integer below it; f64's 53, below 2^53), or multiples of 1/16 under 2^20
 * (2^49). */
static int
exact_sum(const struct kgen_spec *s, const struct reference *r)
{
	int f32 = s->r.acc->size == 4;

	if (!r->off_int)
		return r->abs_sum < (f32 ? 0x1p24L : 0x1p53L);
	return !r->off_grid && r->abs_sum < (f32 ? 0x1p20L : 0x1p49L);
}

/* Compare; describe in msg (when msg). */
static int
general_check(const struct kgen_spec *s, const unsigned char *got, unsigned long long n, const struct reference *r,
              char *msg, size_t len)
{
	long long index;
	struct kgen_value g = general_got(s, got, &index), want, hi, lo, acc = r->acc;
	long double tol = 0, tol_acc;
	int ok;

	if (s->op == KGEN_OP_ARGMIN || s->op == KGEN_OP_ARGMAX) {
		int none = r->index < 0;
		if (acc.is_float)
			ok = index == r->index && (none || (isnan(acc.f) ? isnan(g.f) : g.f == acc.f));
		else
			ok = index == r->index && (none || g.i == acc.i);
		if (msg && acc.is_float)
			snprintf(msg, len, "got %.9Lg at %lld, expected %.9Lg at %lld", g.f, index, none ? g.f : acc.f, r->index);
		else if (msg)
			snprintf(msg, len, "got %lld at %lld, expected %lld at %lld", g.i, index, none ? g.i : acc.i, r->index);
		return ok;
	}
	want = general_post(s, r, acc);
	if (!want.is_float && !acc.is_float) {
		if (msg)
			snprintf(msg, len, "got %lld, expected %lld", g.i, want.i);
		return g.i == want.i;
	}
	if (!want.is_float)
		return float_to_integer_check(s, r, g.i, want.i, acc, n, msg, len);
	/* A float result: the accumulator's rounding (a sum's bound; exact ops add
	 * nothing), carried through the last step, then the output's rounding. */
	tol_acc = acc.is_float ? eps_of(s->r.acc) * (r->depth ? r->depth : depth_of(n)) * r->abs_sum : 0;
	if (s->op == KGEN_OP_SUM && exact_sum(s, r))
		tol_acc = 0;
	hi = acc;
	lo = acc;
	hi.f += tol_acc;
	lo.f -= tol_acc;
	if (tol_acc > 0) {
		hi = general_post(s, r, hi);
		lo = general_post(s, r, lo);
		tol = fmaxl(fabsl(hi.f - want.f), fabsl(lo.f - want.f));
	}
	/* An element itself (min, max, amax) rounds to the output's type exactly
	 * as the reference rounds it below: no ulps to spare; else the last
	 * step's rounding and the output's. */
	if (!(tol_acc == 0 && (s->op == KGEN_OP_MIN || s->op == KGEN_OP_MAX || s->op == KGEN_OP_AMAX || s->op == KGEN_OP_SUM)))
		tol += 2 * eps_of(s->r.out) * fabsl(want.f);
	/* Beyond the output type's range the result is an infinity, as the GPU rounds it. */
	if (s->out_dtype == KGEN_DT_F16)
		want.f = f16_to_f32(f32_to_f16((float)want.f));
	else if (s->out_dtype == KGEN_DT_BF16)
		want.f = bf16_to_f32(f32_to_bf16((float)want.f));
	else if (s->out_dtype == KGEN_DT_F32 && fabsl(want.f) > FLT_MAX)
		want.f = want.f > 0 ? INFINITY : -INFINITY;
	ok = isnan(want.f) ? isnan(g.f) : g.f == want.f || fabsl(g.f - want.f) <= tol;
	if (msg)
		snprintf(msg, len, "got %.9Lg, expected %.9Lg, error %.3Lg %s tolerance %.3Lg", g.f, want.f,
		         fabsl(g.f - want.f), ok ? "<=" : ">", tol);
	return ok;
}

/* ---- the reference ---- */

/* The reference of no elements: the identity (integers in the accumulator's width). */
void
kgen_reference_init(const struct kgen_spec *s, struct reference *r)
{
	const struct kgen_dtype_info *acc = s->r.acc;

	memset(r, 0, sizeof *r);
	if (general(s)) {
		general_init(s, r);
		return;
	}
	if (acc->cls != DT_FLOAT) {		int is_signed = acc->cls == DT_INT, wide = acc->size == 8;
		r->exact = 1;
		switch (s->op) {
		case KGEN_OP_SUM: r->bits = 0; break;
		case KGEN_OP_PROD: r->bits = 1; break;
		case KGEN_OP_MIN:
			r->bits = (uint64_t)(is_signed ? (wide ? INT64_MAX : INT32_MAX) : (wide ? (int64_t)UINT64_MAX : UINT32_MAX));
			break;
		default: r->bits = (uint64_t)(is_signed ? (wide ? INT64_MIN : INT32_MIN) : 0); break;
		}
		return;
	}
	r->exact = s->op != KGEN_OP_SUM;
	r->value = s->op == KGEN_OP_PROD ? 1.0L : s->op == KGEN_OP_SUM ? 0.0L : s->op == KGEN_OP_MIN ? INFINITY : -INFINITY;
}

/* Fold element i of host into r.  Integers wrap in 64 bits (masked to the
 * accumulator's width by kgen_reference_finish()), in any order. */
void
kgen_reference_add(const struct kgen_spec *s, struct reference *r, const void *host, unsigned long long i)
{
	if (general(s)) {
		general_add(s, r, host, i);
		return;
	}
	if (s->r.acc->cls != DT_FLOAT) {
		int64_t x = int_element(s, host, i), best = (int64_t)r->bits;
		if (s->r.acc->size == 4)  /* the element in the accumulator's type first, as the kernel's (Acc)x */
			x = s->r.acc->cls == DT_UINT ? (int64_t)(uint32_t)x : (int64_t)(int32_t)x;
		if (s->r.acc->cls == DT_UINT)
			best = (int64_t)(uint32_t)r->bits;
		switch (s->op) {
		case KGEN_OP_SUM: r->bits += (uint64_t)x; break;
		case KGEN_OP_PROD: r->bits *= (uint64_t)x; break;
		case KGEN_OP_MIN: if (x < best) r->bits = (uint64_t)x; break;
		default: if (x > best) r->bits = (uint64_t)x; break;
		}
		return;
	}
	{
		long double x = element(s, host, i);
		switch (s->op) {
		case KGEN_OP_SUM:
			r->value += x;
			r->abs_sum += fabsl(x);
			{  /* x is an element of a float type of at most 64 bits (or an integer): exact in a double,
			    * whose floor is an SSE instruction where floorl sets the x87 control word twice */
				double d = (double)x;
				r->off_grid |= d * 16 != floor(d * 16);
				r->off_int |= d != floor(d);
			}
			break;
		case KGEN_OP_PROD: r->value *= x; break;
		case KGEN_OP_MIN: if (x < r->value) r->value = x; break;
		default: if (x > r->value) r->value = x; break;
		}
	}
}

void
kgen_reference_finish(const struct kgen_spec *s, struct reference *r)
{
	if (general(s))
		return;
	if (s->r.acc->cls != DT_FLOAT)
		r->bits &= s->r.acc->size == 8 ? ~0ull : 0xffffffffull;
}

void
kgen_reference_init_at(const struct kgen_spec *s, struct reference *r, unsigned long long i)
{
	kgen_reference_init(s, r);
	if (general(s))
		r->count = i;  /* the ops after prod count the elements; pairs take an element's index from it */
}

void
kgen_reference_merge(const struct kgen_spec *s, struct reference *a, const struct reference *b)
{
	if (general(s)) {
		int isflt = a->acc.is_float, max = s->op == KGEN_OP_MAX || s->op == KGEN_OP_ARGMAX;
		int better = isflt ? (max ? b->acc.f > a->acc.f : b->acc.f < a->acc.f)
		                   : (max ? b->acc.i > a->acc.i : b->acc.i < a->acc.i);

		a->count = b->count;  /* b started counting where a stopped */
		a->abs_sum += b->abs_sum;
		a->off_grid |= b->off_grid;
		a->off_int |= b->off_int;
		switch (s->op) {
		case KGEN_OP_PROD:
			if (isflt)
				a->acc.f *= b->acc.f;
			else
				a->acc.i = (long long)((uint64_t)a->acc.i * (uint64_t)b->acc.i);
			break;
		case KGEN_OP_MIN: case KGEN_OP_MAX:
			if (better)
				a->acc = b->acc;
			break;
		case KGEN_OP_SUM: case KGEN_OP_MEAN: case KGEN_OP_SUMSQ: case KGEN_OP_NORM2:
			if (isflt)
				a->acc.f += b->acc.f;
			else
				a->acc.i = (long long)((uint64_t)a->acc.i + (uint64_t)b->acc.i);
			break;
		case KGEN_OP_AMAX:
			if (isflt ? b->acc.f > a->acc.f : b->acc.i > a->acc.i)
				a->acc = b->acc;
			break;
		case KGEN_OP_COUNT_NONZERO: a->acc.i += b->acc.i; break;  /* as general_step counts */
		case KGEN_OP_ANY: a->acc.i |= b->acc.i; break;
		case KGEN_OP_ALL: a->acc.i &= b->acc.i; break;
		case KGEN_OP_ARGMIN: case KGEN_OP_ARGMAX:
			/* The first NaN, else the best value at its lowest index: a's on a tie. */
			if (!a->nan_seen && (b->nan_seen || (b->index >= 0 && (a->index < 0 || better)))) {
				a->acc = b->acc;
				a->index = b->index;
				a->nan_seen = b->nan_seen;
			}
			break;
		default: {  /* custom: combine(a, b) of the two parts, as the kernel combines partials */
			struct kgen_value none = { 0, 0, 0 };
			a->acc = as_acc(s, kgen_expr_eval(&s->r.expr[1], s, none, none, a->acc, b->acc, none));
			break;
		}
		}
		if (!a->acc.is_float)
			a->acc = as_acc(s, a->acc);
		return;
	}
	if (s->r.acc->cls != DT_FLOAT) {
		int64_t x = (int64_t)b->bits, best = (int64_t)a->bits;
		if (s->r.acc->cls == DT_UINT) {
			x = (int64_t)(uint32_t)b->bits;
			best = (int64_t)(uint32_t)a->bits;
		}
		switch (s->op) {
		case KGEN_OP_SUM: a->bits += b->bits; break;
		case KGEN_OP_PROD: a->bits *= b->bits; break;
		case KGEN_OP_MIN: if (x < best) a->bits = b->bits; break;
		default: if (x > best) a->bits = b->bits; break;
		}
		return;
	}
	a->abs_sum += b->abs_sum;
	a->off_grid |= b->off_grid;
	a->off_int |= b->off_int;
	switch (s->op) {
	case KGEN_OP_SUM: a->value += b->value; break;
	case KGEN_OP_PROD: a->value *= b->value; break;
	case KGEN_OP_MIN: if (b->value < a->value) a->value = b->value; break;
	default: if (b->value > a->value) a->value = b->value; break;
	}
}

struct reference_job {
	const struct kgen_spec *s;
	const void *host;
	unsigned long long n;
	struct reference *part;  /* a chunk's each */
};

static void
reference_chunk(void *arg, int k)
{
	const struct reference_job *j = arg;
	unsigned long long i = (unsigned long long)k * CHUNK, end = i + CHUNK < j->n ? i + CHUNK : j->n;
	struct reference *r = &j->part[k];

	kgen_reference_init_at(j->s, r, i);
	for (; i < end; i++)
		kgen_reference_add(j->s, r, j->host, i);
}

void
kgen_reference(const struct kgen_spec *s, const void *host, unsigned long long n, struct reference *r)
{
	struct reference_job j = { s, host, n, NULL };
	int k, chunks = chunk_count(n);
	unsigned long long i;

	if (chunks > 1 && (j.part = malloc((size_t)chunks * sizeof *j.part))) {
		kgen_parallel_for(chunks, chunk_threads(), reference_chunk, &j);
		*r = j.part[0];
		for (k = 1; k < chunks; k++)
			kgen_reference_merge(s, r, &j.part[k]);
		free(j.part);
	} else {
		kgen_reference_init(s, r);
		for (i = 0; i < n; i++)
			kgen_reference_add(s, r, host, i);
	}
	kgen_reference_finish(s, r);
}

/* The documented tolerance of a float sum: eps(acc) * (ceil(log2 n) + 2) * sum |x|;
 * none where every partial sum, in any order, is exact (exact_sum()), so
 * that a dropped or repeated element, tile or prefix is a wrong result. */
static long double
tolerance(const struct kgen_spec *s, unsigned long long n, const struct reference *r)
{
	long double eps = s->r.acc->size == 4 ? 0x1p-23L : 0x1p-52L;
	int depth = 2;

	if (s->op == KGEN_OP_SUM && exact_sum(s, r))
		return 0;
	while (n > 1) {
		n = (n + 1) / 2;
		depth++;
	}
	return eps * (r->depth ? r->depth : depth) * r->abs_sum;
}

/* The device's result as a long double (floats) or its bits (integers). */
static long double
got_value(const struct kgen_spec *s, const unsigned char *got, uint64_t *bits)
{
	const struct kgen_dtype_info *acc = s->r.acc;
	float f;
	double d;

	*bits = 0;
	if (acc->cls != DT_FLOAT) {
		memcpy(bits, got, (size_t)acc->size);
		return 0;
	}
	if (acc->size == 4) {
		memcpy(&f, got, 4);
		return f;
	}
	memcpy(&d, got, 8);
	return d;
}

int
kgen_result_ok(const struct kgen_spec *s, const unsigned char *got, unsigned long long n, const struct reference *r)
{
	uint64_t bits;
	long double g;

	if (general(s))
		return general_check(s, got, n, r, NULL, 0);
	g = got_value(s, got, &bits);

	if (s->r.acc->cls != DT_FLOAT)
		return bits == r->bits;
	if (isnan(r->value))  /* a NaN the input holds (--nan): any NaN back is right */
		return isnan(g);
	if (r->exact || isinf(r->value))
		return g == r->value;
	return fabsl(g - r->value) <= tolerance(s, n, r);
}

/* Compare the device's result with the reference; describe it in msg. */
int
kgen_check_result(const struct kgen_spec *s, const unsigned char *got, unsigned long long n, const struct reference *r, char *msg,
      size_t len)
{
	const struct kgen_dtype_info *acc = s->r.acc;
	long double g, err, tol;

	if (general(s))
		return general_check(s, got, n, r, msg, len);
	if (acc->cls != DT_FLOAT) {
		uint64_t bits = 0;
		memcpy(&bits, got, (size_t)acc->size);
		if (acc->cls == DT_INT) {
			long long gv = acc->size == 4 ? (long long)(int32_t)bits : (long long)bits;
			long long rv = acc->size == 4 ? (long long)(int32_t)r->bits : (long long)r->bits;
			snprintf(msg, len, "got %lld, expected %lld", gv, rv);
		} else {
			snprintf(msg, len, "got %llu, expected %llu", (unsigned long long)bits, (unsigned long long)r->bits);
		}
		return bits == r->bits;
	}
	if (acc->size == 4) {
		float f;
		memcpy(&f, got, 4);
		g = f;
	} else {
		double d;
		memcpy(&d, got, 8);
		g = d;
	}
	err = fabsl(g - r->value);
	if (isnan(r->value)) {  /* a NaN the input holds (--nan): any NaN back is right */
		snprintf(msg, len, "got %.9Lg, expected nan", g);
		return isnan(g);
	}
	if (r->exact || isinf(r->value)) {
		snprintf(msg, len, "got %.9Lg, expected %.9Lg (exact)", g, r->value);
		return g == r->value;
	}
	tol = tolerance(s, n, r);
	snprintf(msg, len, "got %.9Lg, expected %.9Lg, error %.3Lg <= tolerance %.3Lg", g, r->value, err, tol);
	if (!(err <= tol))
		snprintf(msg, len, "got %.9Lg, expected %.9Lg, error %.3Lg > tolerance %.3Lg", g, r->value, err, tol);
	return err <= tol;
}


/* An fp8 byte of `ebits` exponent bits (bias 2^(ebits-1) - 1) and `mbits`
 * mantissa bits as a double: e4m3 (OCP's E4M3FN: no infinities, S.1111.111
 * NaN) or e5m2 (IEEE-like: S.11111.00 infinity, the rest of that exponent
 * NaN); subnormals at exponent 0. */
static double
fp8_to_double(uint8_t b, int ebits, int mbits)
{
	int bias = (1 << (ebits - 1)) - 1, e = (b >> mbits) & ((1 << ebits) - 1), m = b & ((1 << mbits) - 1);
	double sign = b & 0x80 ? -1.0 : 1.0;

	if (ebits == 4 && e == 15 && m == 7)
		return NAN;
	if (ebits == 5 && e == 31)
		return m ? NAN : sign * INFINITY;
	if (e == 0)
		return sign * ldexp(m, 1 - bias - mbits);
	return sign * ldexp((1 << mbits) + m, e - bias - mbits);
}

/* v as that fp8 byte, rounded to nearest even; beyond the largest finite
 * value, saturated to it (e4m3: 448) or infinity (e5m2). */
static uint8_t
double_to_fp8(double v, int ebits, int mbits)
{
	int bias = (1 << (ebits - 1)) - 1, e;
	uint8_t sign = signbit(v) ? 0x80 : 0, most = ebits == 4 ? 0x7e : 0x7b;
	double a = fabs(v), q;
	long bits;

	if (isnan(v))
		return ebits == 4 ? 0x7f : 0x7e;
	if (a == 0)
		return sign;
	frexp(a, &e);
	e -= 1;  /* a = 1.f x 2^e */
	if (e < 1 - bias)  /* subnormal (a count of the smallest steps; 2^mbits of them is the smallest normal) */
		bits = lrint(ldexp(a, bias - 1 + mbits));
	else {
		q = nearbyint(ldexp(a, mbits - e));  /* 2^mbits to 2^(mbits + 1) */
		bits = ((long)(e + bias) << mbits) + (long)q - (1L << mbits);
	}
	if (isinf(a) || bits > most)
		return sign | (ebits == 4 ? most : 0x7c);
	return sign | (uint8_t)bits;
}

double
kgen_host_get(long long dtype, const void *host, size_t i)
{
	switch (dtype) {
	case KGEN_DT_F32: return ((const float *)host)[i];
	case KGEN_DT_F64: return ((const double *)host)[i];
	case KGEN_DT_F16: return f16_to_f32(((const uint16_t *)host)[i]);
	case KGEN_DT_BF16: return bf16_to_f32(((const uint16_t *)host)[i]);
	case KGEN_DT_E4M3: return fp8_to_double(((const uint8_t *)host)[i], 4, 3);
	case KGEN_DT_E5M2: return fp8_to_double(((const uint8_t *)host)[i], 5, 2);
	default: return 0;
	}
}

double
kgen_host_set(long long dtype, void *host, size_t i, double v)
{
	switch (dtype) {
	case KGEN_DT_F32: ((float *)host)[i] = (float)v; break;
	case KGEN_DT_F64: ((double *)host)[i] = v; break;
	case KGEN_DT_F16: ((uint16_t *)host)[i] = f32_to_f16((float)v); break;
	case KGEN_DT_BF16: ((uint16_t *)host)[i] = f32_to_bf16((float)v); break;
	case KGEN_DT_E4M3: ((uint8_t *)host)[i] = double_to_fp8(v, 4, 3); break;
	case KGEN_DT_E5M2: ((uint8_t *)host)[i] = double_to_fp8(v, 5, 2); break;
	default: return 0;
	}
	return kgen_host_get(dtype, host, i);
}
