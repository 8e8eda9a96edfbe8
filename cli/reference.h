/* reference.h - seeded inputs and the CPU reference of `kgen run` (reference.c). */
#ifndef KGEN_REFERENCE_H
#define KGEN_REFERENCE_H

#include <stddef.h>
#include <stdint.h>
#include "gen/spec.h"

/* The reference result of a reduction. */
struct reference {
	int exact;            /* integers, min and max: bit-exact */
	uint64_t bits;        /* integers: the result in the accumulator's width */
	long double value;    /* floats */
	long double abs_sum;  /* floats: sum of |x|, for the tolerance */
};

/* The next number of a splitmix64 sequence. */
uint64_t kgen_splitmix64(uint64_t *state);

/* n seeded values of the spec's dtype, chosen for its op, into host. */
void kgen_fill_input(const struct kgen_spec *s, void *host, unsigned long long n, uint64_t seed);

/* The spec's reduction of host[0..n) on the CPU. */
void kgen_reference(const struct kgen_spec *s, const void *host, unsigned long long n, struct reference *r);

/* The same, a step at a time: the identity, fold in host[i], finish. */
void kgen_reference_init(const struct kgen_spec *s, struct reference *r);
void kgen_reference_add(const struct kgen_spec *s, struct reference *r, const void *host, unsigned long long i);
void kgen_reference_finish(const struct kgen_spec *s, struct reference *r);

/* kgen_check_result() without the message: 1 when got matches r. */
int kgen_result_ok(const struct kgen_spec *s, const unsigned char *got, unsigned long long n, const struct reference *r);

/* 1 when `got` (the device's acc_dtype result) matches r: integers, min and
 * max exactly; float sums within eps(acc) * (ceil(log2 n) + 2) * sum |x|.
 * msg describes both values either way. */
int kgen_check_result(const struct kgen_spec *s, const unsigned char *got, unsigned long long n,
                      const struct reference *r, char *msg, size_t len);

#endif
