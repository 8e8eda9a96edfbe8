/* reference.h - seeded inputs and the CPU reference of `kgen run` (reference.c). */
#ifndef KGEN_REFERENCE_H
#define KGEN_REFERENCE_H

#include <stddef.h>
#include <stdint.h>
#include "gen/spec.h"
#include "gen/expr.h"

/* The reference result of a reduction. */
struct reference {
	int exact;            /* integers, min and max: bit-exact */
	uint64_t bits;        /* integers: the result in the accumulator's width */
	long double value;    /* floats */
	long double abs_sum;  /* floats: sum of |x| (of the mapped values), for the tolerance */
	/* The float tolerance's depth, eps(acc) * depth * abs_sum: 0 for
	 * ceil(log2 n) + 2 (a reduction's tree); a scan sets its own chain's. */
	int depth;
	/* A float sum: an element was not a multiple of 1/16 (the seeded data
	 * are), so the sum is not known to be exact in the accumulator. */
	int off_grid;
	int off_int;          /* and an element was not an integer */
	/* The ops after prod (op.h): the accumulator, the elements so far, a
	 * pair's index (-1: none) and whether a NaN won. */
	struct kgen_value acc;
	unsigned long long count;
	long long index;
	int nan_seen;
};

/* The next number of a splitmix64 sequence. */
uint64_t kgen_splitmix64(uint64_t *state);

/* Inputs and references of more elements are made this many at a time, the
 * chunks side by side; the same whatever the number of threads.  (Set
 * before this header only by tests/reference_test, whose copy of
 * cli/reference.c takes a small one, so that its inputs of a few chunks
 * are small.) */
#ifndef KGEN_REFERENCE_CHUNK
#define KGEN_REFERENCE_CHUNK (1ull << 20)
#endif

/* n seeded values of the spec's dtype, chosen for its op, into host: the
 * splitmix64 sequence from seed, a number an element. */
void kgen_fill_input(const struct kgen_spec *s, void *host, unsigned long long n, uint64_t seed);

/* Where --extreme and --nan put their values. */
enum { KGEN_PLACE_START = 1, KGEN_PLACE_END = 2 };

/* Set element i of host to the op's winning value (larger than any drawn
 * for argmax and max, smaller for argmin and min: ties where placed twice),
 * or to a NaN (nan set; float dtypes only). */
void kgen_place(const struct kgen_spec *s, void *host, unsigned long long i, int nan);

/* Set host[0..n) to the op's identity, the dtype's lowest value for max
 * and argmax (-inf for floats), its highest for min and argmin: every
 * element ties with the identity.  -1 for other ops. */
int kgen_fill_identity(const struct kgen_spec *s, void *host, unsigned long long n);

/* Bytes of one result the device writes: the output type's (for argmin
 * and argmax the value's; the int64 index goes to its own array). */
size_t kgen_result_size(const struct kgen_spec *s);

/* Do specs a and b compute the same reference (op, types, nan, expressions)? */
int kgen_same_reference(const struct kgen_spec *a, const struct kgen_spec *b);

/* The spec's reduction of host[0..n) on the CPU, a chunk at a time side by
 * side, the chunks' references merged in order (the same as folding every
 * element in order, but for the rounding of a float sum in long double;
 * op: custom's parts are merged by its combine, as the kernel merges its
 * partials, which docs/spec.md asks to be associative with identity()
 * neutral). */
void kgen_reference(const struct kgen_spec *s, const void *host, unsigned long long n, struct reference *r);

/* The same, a step at a time: the identity, fold in host[i], finish. */
void kgen_reference_init(const struct kgen_spec *s, struct reference *r);
void kgen_reference_add(const struct kgen_spec *s, struct reference *r, const void *host, unsigned long long i);
void kgen_reference_finish(const struct kgen_spec *s, struct reference *r);

/* The identity as the reference of the elements from index i on (a part
 * of a line: the ops after prod count elements from i). */
void kgen_reference_init_at(const struct kgen_spec *s, struct reference *r, unsigned long long i);

/* Fold b, the reference of the elements after a's, into a (neither
 * finished): what folding b's elements into a one by one gives, but for
 * the rounding of a long double sum (and for op: custom, whatever its
 * combine's lack of associativity changes). */
void kgen_reference_merge(const struct kgen_spec *s, struct reference *a, const struct reference *b);

/* kgen_check_result() without the message: 1 when got matches r. */
int kgen_result_ok(const struct kgen_spec *s, const unsigned char *got, unsigned long long n, const struct reference *r);

/* 1 when `got` (the device's acc_dtype result; for the ops after prod its
 * out_dtype result, and for argmin/argmax the value with the int64 index 8
 * bytes on) matches r: integers, min and max exactly; float sums within
 * eps(acc) * (ceil(log2 n) + 2) * sum |x|, carried through a last step (mean,
 * norm2, post) and the output's rounding.  msg describes both values either
 * way. */
int kgen_check_result(const struct kgen_spec *s, const unsigned char *got, unsigned long long n,
                      const struct reference *r, char *msg, size_t len);

/* Element i of a float array of dtype (f32, f64, f16, bf16, e4m3, e5m2) as
 * a double; set it to v rounded to nearest even (fp8: beyond its largest
 * finite value e4m3 saturates, e5m2 becomes infinite), returning what was
 * stored. */
double kgen_host_get(long long dtype, const void *host, size_t i);
double kgen_host_set(long long dtype, void *host, size_t i, double v);

#endif
