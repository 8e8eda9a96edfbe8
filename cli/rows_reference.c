/*
 * rows_reference.c - the fused row ops in double, row by row, from the
 * elements as the device reads them (kgen_host_get): max first, then
 * exp(x - max), as torch does, so that rows of -inf, +inf or NaN give what
 * torch gives (NaN), and a constant row normalises to 0 (plus the bias).
 */
#include "config.h"
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "cli/reference.h"
#include "cli/rows_reference.h"

static double
x_at(const struct kgen_spec *s, const struct rows_host *h, unsigned long long r, unsigned long long c)
{
	return kgen_host_get(s->dtype, h->x, (size_t)(r * h->pitch + c));
}

/* The row's max (a NaN wins) and the sum of exp(x - max); a row of -inf
 * alone has max -inf and sum NaN (exp(-inf - -inf)), as torch computes. */
static void
max_sum(const struct kgen_spec *s, const struct rows_host *h, unsigned long long r, double *max, double *sum)
{
	double m = -INFINITY, t = 0;
	unsigned long long c;

	for (c = 0; c < h->cols; c++) {
		double v = x_at(s, h, r, c);
		if (v > m || isnan(v))
			m = v;
		if (isnan(m))
			break;
	}
	for (c = 0; c < h->cols; c++)
		t += exp(x_at(s, h, r, c) - m);
	*max = m;
	*sum = t;
}

static double
w_at(const struct kgen_spec *s, const void *w, unsigned long long c, double none)
{
	return w ? kgen_host_get(s->weight_dtype, w, (size_t)c) : none;
}

static long long
label_at(const struct kgen_spec *s, const struct rows_host *h, unsigned long long r)
{
	if (s->label_dtype == KGEN_DT_I32) {
		int32_t v;
		memcpy(&v, (const unsigned char *)h->labels + r * 4, 4);
		return v;
	}
	int64_t v;
	memcpy(&v, (const unsigned char *)h->labels + r * 8, 8);
	return v;
}

void
kgen_rows_reference(const struct kgen_spec *s, const struct rows_host *h, unsigned long long r, double *y,
                    double *loss, double *lse)
{
	unsigned long long c, n = h->cols;
	double m, t, sum = 0, mean, var = 0, rstd;

	switch (s->row_op) {
	case KGEN_ROW_SOFTMAX:
	case KGEN_ROW_LOG_SOFTMAX:
		max_sum(s, h, r, &m, &t);
		for (c = 0; c < n; c++) {
			double v = x_at(s, h, r, c);
			/* (x - max) first: m + log(t) would lose log(t) beside a huge max */
			y[c] = s->row_op == KGEN_ROW_SOFTMAX ? exp(v - m) / t : (v - m) - log(t);
		}
		break;
	case KGEN_ROW_RMS_NORM:
		for (c = 0; c < n; c++) {
			double v = x_at(s, h, r, c);
			sum += v * v;
		}
		rstd = 1 / sqrt(sum / (double)n + h->eps);
		for (c = 0; c < n; c++)
			y[c] = x_at(s, h, r, c) * rstd * w_at(s, h->weight, c, 1);
		break;
	case KGEN_ROW_LAYER_NORM:
		for (c = 0; c < n; c++)
			sum += x_at(s, h, r, c);
		mean = sum / (double)n;
		for (c = 0; c < n; c++) {
			double d = x_at(s, h, r, c) - mean;
			var += d * d;
		}
		rstd = 1 / sqrt(var / (double)n + h->eps);
		for (c = 0; c < n; c++)
			y[c] = (x_at(s, h, r, c) - mean) * rstd * w_at(s, h->weight, c, 1) + w_at(s, h->bias, c, 0);
		break;
	default: {
		long long label = label_at(s, h, r);
		max_sum(s, h, r, &m, &t);
		*lse = m == -INFINITY ? -INFINITY : m + log(t);  /* torch.logsumexp of -inf alone is -inf */
		if (label == h->ignore_index)
			*loss = 0;
		else if (label < 0 || (unsigned long long)label >= n)
			*loss = NAN;
		else
			*loss = (m - x_at(s, h, r, (unsigned long long)label)) + log(t);
		break;
	}
	}
}

int
kgen_rows_close(const struct kgen_spec *s, double got, double want, unsigned long long cols, double scale)
{
	return kgen_rows_close_as(s->r.out, got, want, cols, scale);
}

int
kgen_rows_close_as(const struct kgen_dtype_info *out, double got, double want, unsigned long long cols, double scale)
{
	/* The output's rounding (half an ulp) and the f32 statistics' error,
	 * which grows with the row's length, relative to the value, and for
	 * values that cancel (a log-softmax, a norm) to the row's largest. */
	double rtol = out->cls == DT_HALF ? 0x1p-10 : out->cls == DT_BHALF ? 0x1p-7 : 0x1p-21;
	double tiny = out->cls == DT_HALF ? 0x1p-24 : 0x1p-126;
	double stats = 0x1p-22 * (log2((double)cols + 1) + 4);

	if (isnan(want) || isnan(got))
		return isnan(want) && isnan(got);
	if (isinf(want) || isinf(got))
		return want == got;
	return fabs(got - want) <= tiny + (rtol + stats) * (fabs(want) + scale);
}
