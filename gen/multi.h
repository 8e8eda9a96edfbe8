/*
 * multi.h - what a reduction over several GPUs (kgen_multi_*, runtime/multi.c)
 * needs from the generator.
 *
 * Each GPU reduces its own part of the data with kgen's kernel of a
 * "partial" spec: the spec's op without its last step, so that the result
 * is the accumulator (mean's sum, norm2's sum of squares, a custom op's
 * value before its post, a sum before its conversion to f16).  The
 * accumulators of every GPU are then combined, by NCCL when the op's
 * KGEN_OPS row says NCCL can (OP_MULTI_SUM, PROD, MIN, MAX), else gathered
 * by NCCL and combined by the kernel generated here, which also takes the
 * last step once, with the count of all the GPUs' elements.
 */
#ifndef KGEN_MULTI_H
#define KGEN_MULTI_H

#include "spec.h"

/* GPUs of one multi-GPU set, at most (the combine kernel's offsets). */
#define KGEN_MULTI_MAX 64

/* The spec each GPU runs: a copy of s with the last step taken off (op:
 * mean runs op: sum, norm2 sumsq, a post is dropped, out_dtype is the
 * accumulator's); *partial NULL when s itself ends in its accumulator (or
 * is argmin or argmax, whose value and index the combine kernel reads). */
kgen_status kgen_multi_partial_spec(const struct kgen_spec *s, struct kgen_spec **partial, kgen_error *err);

/* The combine kernel's name ("<spec's name>_multi") into buf. */
const char *kgen_multi_kernel_name(const struct kgen_spec *s, char *buf, size_t n);

/* The CUDA source of the combine kernel (templates/multi/). */
kgen_status kgen_multi_generate(const struct kgen_spec *s, char **source, kgen_error *err);

#endif
