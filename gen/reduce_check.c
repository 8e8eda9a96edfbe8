/*
 * reduce_check.c - the rules of `kernel: reduce` between its fields, after
 * the shared ones (check.c) and its only-with table (reduce.c).
 */
#include "config.h"
#include "reduce.h"

#define ERR(k, ...) kgen_spec_error(s, KGEN_KEY_##k, 1, err, __VA_ARGS__)

static int
is_tree(const struct kgen_spec *s)
{
	return s->block_reduce != KGEN_BR_WARPS;
}

/* Loads: width, element size, items per thread. */
static kgen_status
check_loads(struct kgen_spec *s, kgen_error *err)
{
	const struct kgen_dtype_info *in = &kgen_dtype_info[s->dtype];
	long long vec;

	if (!kgen_is_pow2(s->load_width))
		return ERR(load_width, "load_width %lld is not a power of two: use %d, %d, ... up to 32", s->load_width,
		           in->size, 2 * in->size);
	if (s->load_width % in->size)
		return ERR(load_width, "load_width %lld is not a multiple of the element size (%d bytes for %s): "
		           "use %d, %d, ... up to 32", s->load_width, in->size, in->name, in->size, 2 * in->size);
	vec = s->load_width / in->size;
	if (s->items_per_thread % vec)
		return ERR(items_per_thread, "items_per_thread %lld is not a multiple of the %lld elements of one "
		           "%lld-byte load: use %lld, %lld, ...", s->items_per_thread, vec, s->load_width, vec, 2 * vec);
	return KGEN_OK;
}

/* The block algorithm and the warp tail. */
static kgen_status
check_block(struct kgen_spec *s, kgen_error *err)
{
	const struct kgen_dtype_info *acc = &kgen_dtype_info[s->acc_dtype];
	const char *br = kgen_block_reduces[s->block_reduce].name;

	if (s->threads % 32)
		return ERR(threads, "threads %lld is not a multiple of the warp size, 32", s->threads);
	if (s->stages == KGEN_STAGES_ATOMIC && s->atomics != KGEN_ATOMICS_BLOCK)
		return KGEN_OK;  /* no block reduction */
	if (is_tree(s) && !kgen_is_pow2(s->threads))
		return ERR(threads, "block_reduce: %s halves the block each step and needs a power-of-two block, "
		           "not threads %lld: use %d or %d, or block_reduce: warps", br, s->threads,
		           1 << (31 - __builtin_clz((unsigned)s->threads)), 2 << (31 - __builtin_clz((unsigned)s->threads)));
	if (s->block_reduce == KGEN_BR_WARPS && (s->warp_tail == KGEN_WT_NONE || s->warp_tail == KGEN_WT_VOLATILE))
		return ERR(warp_tail, "block_reduce: warps reduces each warp in registers: warp_tail must be shuffle "
		           "or reduce_sync, not %s", kgen_warp_tails[s->warp_tail].name);
	if (is_tree(s) && s->block_reduce != KGEN_BR_SEQUENTIAL && s->warp_tail != KGEN_WT_NONE)
		return ERR(warp_tail, "block_reduce: %s leaves its partials strided, so a warp cannot finish them: "
		           "use warp_tail: none, or block_reduce: sequential", br);
	if (s->warp_tail == KGEN_WT_REDUCE_SYNC) {
		if (acc->size != 4 || (acc->cls != DT_INT && acc->cls != DT_UINT))
			return ERR(warp_tail, "warp_tail: reduce_sync uses __reduce_%s_sync, which takes 32-bit integers, "
			           "not acc_dtype %s: use warp_tail: shuffle", s->op == KGEN_OP_PROD ? "mul" : kgen_ops[s->op].name,
			           acc->name);
		if (s->op == KGEN_OP_PROD)
			return ERR(warp_tail, "warp_tail: reduce_sync: there is no __reduce_mul_sync for op: prod; "
			           "use warp_tail: shuffle");
	}
	if (s->warp_tail_from != 32 && s->warp_tail_from != 64)
		return ERR(warp_tail_from, "warp_tail_from must be 32 or 64, not %lld", s->warp_tail_from);
	if (is_tree(s) && s->warp_tail != KGEN_WT_NONE && s->threads < s->warp_tail_from)
		return ERR(threads, "threads %lld is fewer than warp_tail_from %lld", s->threads, s->warp_tail_from);
	return KGEN_OK;
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
	if ((st = kgen_check_acc_types(s, err)) || (st = check_loads(s, err)) || (st = check_block(s, err)) ||
	    (st = check_grid(s, err)))
		return st;
	if (!s->name)
		snprintf(s->name_text, sizeof s->name_text, "reduce_%s_%s", kgen_ops[s->op].name,
		         kgen_dtype_info[s->dtype].name);
	return KGEN_OK;
}
