/* rows_reference.h - kernel: rows on the CPU, in double: what `kgen run
 * --verify` and `kgen tune` compare each row's outputs with. */
#ifndef KGEN_ROWS_REFERENCE_H
#define KGEN_ROWS_REFERENCE_H

#include "gen/spec.h"

/* One matrix of a rows spec on the host, as the device got it. */
struct rows_host {
	unsigned long long rows, cols, pitch;  /* x's and y's pitch */
	const void *x;                         /* rows x pitch of dtype */
	const void *weight, *bias;             /* cols of weight_dtype, or NULL */
	const void *labels;                    /* rows of label_dtype */
	long long ignore_index;
	double eps;
};

/* Row r's outputs into y (cols doubles; softmax, log_softmax, the norms)
 * or *loss and *lse (cross_entropy), in double from the elements as
 * stored: NaN and infinities as torch gives them. */
void kgen_rows_reference(const struct kgen_spec *s, const struct rows_host *h, unsigned long long r, double *y,
                         double *loss, double *lse);

/* Does got (as stored in out_dtype, read back as a double) match want?
 * Within the output type's rounding plus the f32 statistics' error, of
 * want and of `scale` (0 for softmax, whose values do not cancel; else
 * the row's largest |want|); NaN matches NaN, an infinity itself. */
int kgen_rows_close(const struct kgen_spec *s, double got, double want, unsigned long long cols, double scale);
/* The same for an output of type out (cross_entropy's lse is f32 whatever the spec's out_dtype). */
int kgen_rows_close_as(const struct kgen_dtype_info *out, double got, double want, unsigned long long cols,
                       double scale);

#endif
