/*
 * check.c - reject, before any code is emitted, the specs that cannot work,
 * and resolve the defaults that depend on other fields.  The rules every
 * family shares are here (its keys, its only-with table, the accumulator
 * types); each family's own rules are its `check` hook.  Each rule names
 * the field at fault, its value and what would work instead.
 */
#include "config.h"
#include <string.h>
#include "acc.h"
#include "op.h"

#define ERR(k, ...) kgen_spec_error(s, KGEN_KEY_##k, 1, err, __VA_ARGS__)

int
kgen_is_pow2(long long v)
{
	return v > 0 && (v & (v - 1)) == 0;
}

/* Loads: width and element size (acc.h). */
kgen_status
kgen_check_load_width(struct kgen_spec *s, kgen_error *err)
{
	const struct kgen_dtype_info *in = &kgen_dtype_info[s->dtype];

	if (!kgen_is_pow2(s->load_width))
		return ERR(load_width, "load_width %lld is not a power of two: use %d, %d, ... up to 32", s->load_width,
		           in->size, 2 * in->size);
	if (s->load_width % in->size)
		return ERR(load_width, "load_width %lld is not a multiple of the element size (%d bytes for %s): "
		           "use %d, %d, ... up to 32", s->load_width, in->size, in->name, in->size, 2 * in->size);
	return KGEN_OK;
}

/* Loads: width, element size, items per thread (acc.h). */
kgen_status
kgen_check_loads(struct kgen_spec *s, kgen_error *err)
{
	long long vec = s->load_width / kgen_dtype_info[s->dtype].size;
	kgen_status st;

	if ((st = kgen_check_load_width(s, err)))
		return st;
	if (s->items_per_thread % vec)
		return ERR(items_per_thread, "items_per_thread %lld is not a multiple of the %lld elements of one "
		           "%lld-byte load: use %lld, %lld, ...", s->items_per_thread, vec, s->load_width, vec, 2 * vec);
	return KGEN_OK;
}

/* The block algorithm and the warp tail (acc.h). */
kgen_status
kgen_check_block_reduce(struct kgen_spec *s, kgen_error *err)
{
	const struct kgen_dtype_info *acc = &kgen_dtype_info[s->acc_dtype];
	const char *br = kgen_block_reduces[s->block_reduce].name;

	if ((s->block_reduce != KGEN_BR_WARPS) && !kgen_is_pow2(s->threads))
		return ERR(threads, "block_reduce: %s halves the block each step and needs a power-of-two block, "
		           "not threads %lld: use %d or %d, or block_reduce: warps", br, s->threads,
		           1 << (31 - __builtin_clz((unsigned)s->threads)), 2 << (31 - __builtin_clz((unsigned)s->threads)));
	if (s->block_reduce == KGEN_BR_WARPS && (s->warp_tail == KGEN_WT_NONE || s->warp_tail == KGEN_WT_VOLATILE))
		return ERR(warp_tail, "block_reduce: warps reduces each warp in registers: warp_tail must be shuffle "
		           "or reduce_sync, not %s", kgen_warp_tails[s->warp_tail].name);
	if ((s->block_reduce != KGEN_BR_WARPS) && s->block_reduce != KGEN_BR_SEQUENTIAL && s->warp_tail != KGEN_WT_NONE)
		return ERR(warp_tail, "block_reduce: %s leaves its partials strided, so a warp cannot finish them: "
		           "use warp_tail: none, or block_reduce: sequential", br);
	if (s->warp_tail == KGEN_WT_REDUCE_SYNC) {
		if (!kgen_op_reduce_sync(s))
			return ERR(warp_tail, "warp_tail: reduce_sync: CUDA has __reduce_*_sync for add, min, max, and, or "
			           "and xor, none for op: %s; use warp_tail: shuffle", kgen_ops[s->op].name);
		if (acc->size != 4 || (acc->cls != DT_INT && acc->cls != DT_UINT))
			return ERR(warp_tail, "warp_tail: reduce_sync uses __reduce_%s_sync, which takes 32-bit integers, "
			           "not acc_dtype %s: use warp_tail: shuffle", kgen_op_reduce_sync(s), acc->name);
	}
	if (s->warp_tail == KGEN_WT_VOLATILE && s->r.pair)
		return ERR(warp_tail, "warp_tail: volatile copies single values through volatile shared memory, and "
		           "op: %s combines (value, index) pairs: use warp_tail: shuffle or none", kgen_ops[s->op].name);
	if (s->warp_tail_from != 32 && s->warp_tail_from != 64)
		return ERR(warp_tail_from, "warp_tail_from must be 32 or 64, not %lld", s->warp_tail_from);
	if ((s->block_reduce != KGEN_BR_WARPS) && s->warp_tail != KGEN_WT_NONE && s->threads < s->warp_tail_from)
		return ERR(threads, "threads %lld is fewer than warp_tail_from %lld: use warp_tail_from: 32, or %lld threads "
		           "or more", s->threads, s->warp_tail_from, s->warp_tail_from);
	return KGEN_OK;
}

/* Keys written in the spec must belong to its family. */
static kgen_status
check_family(struct kgen_spec *s, kgen_error *err)
{
	const struct kgen_family *f = kgen_family_of(s);
	int k;

	for (k = 0; k < KGEN_KEY_COUNT; k++)
		if (s->pos[k].line && !kgen_family_has_key(f, (enum kgen_key)k))
			return kgen_spec_error(s, (enum kgen_key)k, 0, err, "%s does not apply to kernel: %s",
			                       kgen_keys[k].name, kgen_families[s->kernel].name);
	return KGEN_OK;
}

/* The fp8 types go only in the keys a family lists (its fp8_keys: matmul's
 * operands, dtype and b_dtype): no other family has a kernel for them, and
 * C, the accumulator and the epilogue's operands of a matmul are wider. */
static kgen_status
check_fp8(struct kgen_spec *s, kgen_error *err)
{
	const struct kgen_family *f = kgen_family_of(s);
	int k;

	for (k = 0; k < KGEN_KEY_COUNT; k++) {
		long long v;

		if (kgen_keys[k].values != kgen_dtypes || !kgen_family_has_key(f, (enum kgen_key)k) ||
		    (v = kgen_spec_value(s, (enum kgen_key)k)) < 0 || kgen_dtype_info[v].cls != DT_FP8 ||
		    kgen_family_takes_fp8(f, (enum kgen_key)k))
			continue;
		if (f->fp8_keys)
			return kgen_spec_error(s, (enum kgen_key)k, 1, err, "%s %s: fp8 is a type of matmul's operands A and B "
			                       "(dtype, b_dtype); %s is f32, f64, f16 or bf16", kgen_keys[k].name,
			                       kgen_dtype_info[v].name, k == KGEN_KEY_out_dtype ? "C" :
			                       k == KGEN_KEY_acc_dtype ? "the accumulator" : "an epilogue operand");
		return kgen_spec_error(s, (enum kgen_key)k, 1, err, "%s %s: the fp8 types are operands of kernel: matmul "
		                       "(math: wgmma) only, not of kernel: %s", kgen_keys[k].name, kgen_dtype_info[v].name,
		                       kgen_families[s->kernel].name);
	}
	return KGEN_OK;
}

/* The spec's resolved view (spec.h), once its types are: the family's
 * rules may refine it, and kgen_op_check() keeps the parsed expressions. */
static void
resolve_view(struct kgen_spec *s, int has_op)
{
	struct kgen_resolved *r = &s->r;

	memset(r, 0, sizeof *r);
	r->dtype = &kgen_dtype_info[s->dtype];
	r->vec = s->load_width / r->dtype->size;
	if (!has_op)
		return;
	r->acc = &kgen_dtype_info[s->acc_dtype];
	r->out = kgen_op_out(s);
	r->pair = kgen_op_is_pair(s);
	r->last_step = kgen_op_has_result_step(s);
	r->uses_index = kgen_op_uses_index(s);
	r->acc_bytes = kgen_op_acc_bytes(s);
}

kgen_status
kgen_spec_check(struct kgen_spec *s, kgen_error *err)
{
	const struct kgen_family *f = kgen_family_of(s);
	int has_op = kgen_family_has_key(f, KGEN_KEY_op);
	kgen_status st;

	if ((st = check_family(s, err)) || (st = check_fp8(s, err)))
		return st;
	/* What the op derives (types, stages) before the only-with rules read it. */
	if (has_op && (st = kgen_op_resolve(s, err)))
		return st;
	resolve_view(s, has_op);
	if (f->resolve && (st = f->resolve(s, err)))
		return st;
	if ((st = kgen_check_only_with(s, err)))
		return st;
	return f->check(s, err);
}
