/*
 * reduce_check.c - the rules of `kernel: reduce` between its fields, after
 * the shared ones (check.c) and its only-with table (reduce.c).
 */
#include "config.h"
#include "acc.h"
#include "op.h"
#include "reduce.h"

#define ERR(k, ...) kgen_spec_error(s, KGEN_KEY_##k, 1, err, __VA_ARGS__)

/* The block algorithm and the warp tail, when there is a block reduction. */
static kgen_status
check_block(struct kgen_spec *s, kgen_error *err)
{
	if (s->threads % 32)
		return ERR(threads, "threads %lld is not a multiple of the warp size, 32", s->threads);
	if (s->stages == KGEN_STAGES_ATOMIC && s->atomics != KGEN_ATOMICS_BLOCK)
		return KGEN_OK;  /* no block reduction */
	return kgen_check_block_reduce(s, err);
}

/* An op with a last step (a pair's two outputs, a post expression, a
 * conversion) ends in a kernel, not in atomics: a written stages: atomic is
 * refused (left unset, kgen_op_resolve() made it last_block). */
static kgen_status
check_stages(struct kgen_spec *s, kgen_error *err)
{
	if (s->stages != KGEN_STAGES_ATOMIC || !s->r.last_step)
		return KGEN_OK;
	return ERR(stages, "stages: atomic ends with atomics into *out, and op: %s %s: use stages: last_block or "
	           "two_pass", kgen_ops[s->op].name, kgen_op_last_step_why(s));
}

/* launch: pdl is about a second kernel; chain and stream take any stages. */
static kgen_status
check_launch(struct kgen_spec *s, kgen_error *err)
{
	if (s->launch != KGEN_LAUNCH_PDL || s->stages != KGEN_STAGES_LAST_BLOCK)
		return KGEN_OK;
	return ERR(launch, "launch: pdl has no effect with stages: last_block (one kernel): use launch: chain (the kernel "
	           "starts while the work before it runs) or stream, or stages: two_pass%s",
	           s->r.last_step ? "" : " or atomic");
}

/* Stages, atomics, grid policy. */
static kgen_status
check_grid(struct kgen_spec *s, kgen_error *err)
{
	if (s->blocks_per_sm == 0)
		s->blocks_per_sm = 2048 / s->threads;
	if (s->blocks_per_sm * s->threads > 2048)
		return ERR(blocks_per_sm, "blocks_per_sm %lld x threads %lld is more than the 2048 threads an SM holds",
		           s->blocks_per_sm, s->threads);
	if (s->index != 32 && s->index != 64)
		return ERR(index, "index must be 32 or 64, not %lld", s->index);
	return KGEN_OK;
}


kgen_status
kgen_reduce_check(struct kgen_spec *s, kgen_error *err)
{
	kgen_status st;

	if (s->threads < 0)
		s->threads = 512;
	if (s->items_per_thread < 0)
		s->items_per_thread = 8;
	if ((st = kgen_op_check(s, err)) || (st = check_stages(s, err)) || (st = kgen_check_loads(s, err)) || (st = check_block(s, err)) ||
	    (st = check_grid(s, err)) || (st = check_launch(s, err)))
		return st;
	if (!s->name)
		snprintf(s->name_text, sizeof s->name_text, "reduce_%s_%s", kgen_ops[s->op].name,
		         kgen_dtype_info[s->dtype].name);
	return KGEN_OK;
}

/* What the op decides before the only-with rows read it: an op with a last
 * step ends in a kernel, not in atomics (kgen_reduce_check refuses a
 * written stages: atomic); left unset, stages follows. */
kgen_status
kgen_reduce_resolve(struct kgen_spec *s, kgen_error *err)
{
	if (s->stages == KGEN_STAGES_ATOMIC && !KGEN_GIVEN(s, stages) && s->r.last_step) {
		s->stages = KGEN_STAGES_LAST_BLOCK;
		if (KGEN_GIVEN(s, atomics))
			return ERR(atomics, "atomics has no effect: op: %s %s, so it ends in a kernel (stages: last_block); "
			           "drop it", kgen_ops[s->op].name, kgen_op_last_step_why(s));
	}
	return KGEN_OK;
}
