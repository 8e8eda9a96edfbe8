/*
 * reference.c - what `kgen run` checks results against: seeded random
 * inputs (values chosen so that every dtype holds them exactly) and the CPU
 * reference in higher precision, with the documented tolerance.
 */
#include "config.h"
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "reference.h"

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
	case KGEN_OP_SUM:
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

/* Fill host memory with n seeded values of the spec's dtype. */
void
kgen_fill_input(const struct kgen_spec *s, void *host, unsigned long long n, uint64_t seed)
{
	const struct kgen_dtype_info *dt = kgen_spec_dtype(s);
	int is_float = dt->cls == DT_FLOAT || dt->cls == DT_HALF || dt->cls == DT_BHALF;
	uint64_t st = seed;
	unsigned long long i;
	double v;

	for (i = 0; i < n; i++) {
		v = draw((enum kgen_op)s->op, is_float, &st, i, n);
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

/* The reference of no elements: the identity (integers in the accumulator's width). */
void
kgen_reference_init(const struct kgen_spec *s, struct reference *r)
{
	const struct kgen_dtype_info *acc = kgen_spec_acc(s);

	memset(r, 0, sizeof *r);
	if (acc->cls != DT_FLOAT) {
		int is_signed = acc->cls == DT_INT, wide = acc->size == 8;
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
	if (kgen_spec_acc(s)->cls != DT_FLOAT) {
		int64_t x = int_element(s, host, i), best = (int64_t)r->bits;
		if (kgen_spec_acc(s)->cls == DT_UINT)
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
		case KGEN_OP_SUM: r->value += x; r->abs_sum += fabsl(x); break;
		case KGEN_OP_PROD: r->value *= x; break;
		case KGEN_OP_MIN: if (x < r->value) r->value = x; break;
		default: if (x > r->value) r->value = x; break;
		}
	}
}

void
kgen_reference_finish(const struct kgen_spec *s, struct reference *r)
{
	if (kgen_spec_acc(s)->cls != DT_FLOAT)
		r->bits &= kgen_spec_acc(s)->size == 8 ? ~0ull : 0xffffffffull;
}

void
kgen_reference(const struct kgen_spec *s, const void *host, unsigned long long n, struct reference *r)
{
	unsigned long long i;

	kgen_reference_init(s, r);
	for (i = 0; i < n; i++)
		kgen_reference_add(s, r, host, i);
	kgen_reference_finish(s, r);
}

/* The documented tolerance of a float sum: eps(acc) * (ceil(log2 n) + 2) * sum |x|. */
static long double
tolerance(const struct kgen_spec *s, unsigned long long n, const struct reference *r)
{
	long double eps = kgen_spec_acc(s)->size == 4 ? 0x1p-23L : 0x1p-52L;
	int depth = 2;

	while (n > 1) {
		n = (n + 1) / 2;
		depth++;
	}
	return eps * depth * r->abs_sum;
}

/* The device's result as a long double (floats) or its bits (integers). */
static long double
got_value(const struct kgen_spec *s, const unsigned char *got, uint64_t *bits)
{
	const struct kgen_dtype_info *acc = kgen_spec_acc(s);
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
	long double g = got_value(s, got, &bits);

	if (kgen_spec_acc(s)->cls != DT_FLOAT)
		return bits == r->bits;
	if (r->exact)
		return g == r->value;
	return fabsl(g - r->value) <= tolerance(s, n, r);
}

/* Compare the device's result with the reference; describe it in msg. */
int
kgen_check_result(const struct kgen_spec *s, const unsigned char *got, unsigned long long n, const struct reference *r, char *msg,
      size_t len)
{
	const struct kgen_dtype_info *acc = kgen_spec_acc(s);
	long double g, err, tol;

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
	if (r->exact) {
		snprintf(msg, len, "got %.9Lg, expected %.9Lg (exact)", g, r->value);
		return g == r->value;
	}
	tol = tolerance(s, n, r);
	snprintf(msg, len, "got %.9Lg, expected %.9Lg, error %.3Lg <= tolerance %.3Lg", g, r->value, err, tol);
	if (!(err <= tol))
		snprintf(msg, len, "got %.9Lg, expected %.9Lg, error %.3Lg > tolerance %.3Lg", g, r->value, err, tol);
	return err <= tol;
}

