/*
 * check.c - reject, before any code is emitted, the specs that cannot work,
 * and resolve the defaults that depend on other fields.  Each rule names
 * the field at fault, its value and what would work instead.
 */
#include "config.h"
#include <string.h>
#include "spec.h"

#define ERR(k, ...) kgen_spec_error(s, KGEN_KEY_##k, 1, err, __VA_ARGS__)
/* Was key k written in the spec (or set), as opposed to defaulted? */
#define GIVEN(k) (s->pos[KGEN_KEY_##k].line != 0)

static int
is_pow2(long long v)
{
	return v > 0 && (v & (v - 1)) == 0;
}

static int
is_tree(const struct kgen_spec *s)
{
	return s->block_reduce != KGEN_BR_WARPS;
}

/* The dtype rules: what may accumulate what. */
static kgen_status
check_types(struct kgen_spec *s, kgen_error *err)
{
	const struct kgen_dtype_info *in = &kgen_dtype_info[s->dtype], *acc;

	if (s->acc_dtype < 0)
		s->acc_dtype = in->cls == DT_HALF || in->cls == DT_BHALF ? KGEN_DT_F32 : s->dtype;
	acc = &kgen_dtype_info[s->acc_dtype];
	if (acc->cls == DT_HALF || acc->cls == DT_BHALF)
		return ERR(acc_dtype, "acc_dtype %s: 16-bit accumulators lose precision and have no atomics here; "
		           "accumulate in f32 or f64", acc->name);
	if ((in->cls == DT_FLOAT || in->cls == DT_HALF || in->cls == DT_BHALF) && acc->cls != DT_FLOAT)
		return ERR(acc_dtype, "acc_dtype %s cannot accumulate %s elements: use f32 or f64", acc->name, in->name);
	if ((in->cls == DT_INT || in->cls == DT_UINT) && acc->cls != DT_FLOAT && acc->size < in->size)
		return ERR(acc_dtype, "acc_dtype %s is narrower than dtype %s", acc->name, in->name);
	return KGEN_OK;
}

/* Loads: width, element size, items per thread. */
static kgen_status
check_loads(struct kgen_spec *s, kgen_error *err)
{
	const struct kgen_dtype_info *in = &kgen_dtype_info[s->dtype];
	long long vec;

	if (!is_pow2(s->load_width))
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
	if (s->stages == KGEN_STAGES_ATOMIC && s->atomics != KGEN_ATOMICS_BLOCK) {
		/* No block reduction: the fields about one would have no effect. */
		if (GIVEN(block_reduce))
			return ERR(block_reduce, "block_reduce has no effect with atomics: %s (no block reduction); drop it",
			           kgen_atomics[s->atomics].name);
		if (GIVEN(warp_tail))
			return ERR(warp_tail, "warp_tail has no effect with atomics: %s (no block reduction); drop it",
			           kgen_atomics[s->atomics].name);
		if (GIVEN(warp_tail_from))
			return ERR(warp_tail_from, "warp_tail_from has no effect with atomics: %s (no block reduction); "
			           "drop it", kgen_atomics[s->atomics].name);
		return KGEN_OK;
	}
	if (is_tree(s) && !is_pow2(s->threads))
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
	if (GIVEN(warp_tail_from) && (!is_tree(s) || s->warp_tail == KGEN_WT_NONE))
		return ERR(warp_tail_from, "warp_tail_from has no effect %s; drop it",
		           is_tree(s) ? "with warp_tail: none" : "with block_reduce: warps");
	if (is_tree(s) && s->warp_tail != KGEN_WT_NONE && s->threads < s->warp_tail_from)
		return ERR(threads, "threads %lld is fewer than warp_tail_from %lld", s->threads, s->warp_tail_from);
	return KGEN_OK;
}

/* Stages, atomics, grid policy. */
static kgen_status
check_grid(struct kgen_spec *s, kgen_error *err)
{
	if (s->stages != KGEN_STAGES_ATOMIC && GIVEN(atomics))
		return ERR(atomics, "atomics has no effect with stages: %s; drop it, or use stages: atomic",
		           kgen_stages[s->stages].name);
	if (s->grid == KGEN_GRID_TILE) {
		if (GIVEN(blocks_per_sm))
			return ERR(blocks_per_sm, "blocks_per_sm needs grid: persistent");
		if (s->unroll != 1)
			return ERR(unroll, "unroll %lld needs grid: persistent (a tile grid runs one tile per block)", s->unroll);
	}
	if (s->blocks_per_sm == 0)
		s->blocks_per_sm = 2048 / s->threads;
	if (s->blocks_per_sm * s->threads > 2048)
		return ERR(blocks_per_sm, "blocks_per_sm %lld x threads %lld is more than the 2048 threads an SM holds",
		           s->blocks_per_sm, s->threads);
	if (s->index != 32 && s->index != 64)
		return ERR(index, "index must be 32 or 64, not %lld", s->index);
	return KGEN_OK;
}

/* ---- transpose ---- */

/* Shared-memory bytes a transpose block needs. */
long long
kgen_transpose_smem(const struct kgen_spec *s)
{
	long long size = kgen_dtype_info[s->dtype].size;

	if (s->method == KGEN_METHOD_TMA)
		return s->buffers * (2 * s->tile_rows * s->tile_cols * size + 8);
	return s->tile_rows * (s->tile_cols + s->pad) * size;
}
#define transpose_smem kgen_transpose_smem

/* Dynamic shared-memory bytes of a one-tile TMA kernel whose tiles exceed
 * static shared memory (with 1024 bytes to align them); 0 otherwise. */
long long
kgen_transpose_dynamic_smem(const struct kgen_spec *s)
{
	long long tiles = 2 * s->tile_rows * s->tile_cols * kgen_dtype_info[s->dtype].size;

	if (s->method != KGEN_METHOD_TMA || s->buffers > 1 || tiles + 8 <= KGEN_STATIC_SMEM)
		return 0;
	return tiles + 1024;
}

static kgen_status
check_transpose(struct kgen_spec *s, kgen_error *err)
{
	const struct kgen_dtype_info *dt = &kgen_dtype_info[s->dtype];
	long long elems = s->tile_rows * s->tile_cols, vec, span;

	if (elems % s->batch)
		return ERR(batch, "batch %lld does not divide the %lldx%lld tile", s->batch, s->tile_rows, s->tile_cols);
	if (s->threads < 0)
		s->threads = elems / s->batch;
	if (s->threads * s->batch != elems)
		return ERR(threads, "threads %lld do not cover the %lldx%lld tile with batch %lld: %lld x %lld / %lld = "
		           "%lld threads are needed", s->threads, s->tile_rows, s->tile_cols, s->batch, s->tile_rows,
		           s->tile_cols, s->batch, elems / s->batch);
	if (s->threads % 32 || s->threads > 1024)
		/* Point at what the user wrote: threads, or else the batch that derived it. */
		return kgen_spec_error(s, GIVEN(threads) || !GIVEN(batch) ? KGEN_KEY_threads : KGEN_KEY_batch, 1, err,
		                       "threads %lld (tile %lldx%lld / batch %lld) must be a multiple of 32 and at most "
		                       "1024: change batch or the tile", s->threads, s->tile_rows, s->tile_cols, s->batch);
	if (s->method == KGEN_METHOD_SMEM) {
		if (GIVEN(walk))
			return ERR(walk, "walk needs method: tma (the shared-memory path pads instead)");
		if (GIVEN(cache_hint))
			return ERR(cache_hint, "cache_hint needs method: tma");
		if (GIVEN(l2_promotion))
			return ERR(l2_promotion, "l2_promotion needs method: tma");
		if (GIVEN(buffers))
			return ERR(buffers, "buffers needs method: tma (the shared-memory path moves one tile per block)");
		if (GIVEN(swizzle))
			return ERR(swizzle, "swizzle needs method: tma (the shared-memory path pads instead)");
		if (!is_pow2(s->load_width) || s->load_width % dt->size || s->load_width > 16)
			return ERR(load_width, "load_width %lld must be the element size (%d bytes for %s) times a power of "
			           "two, at most 16", s->load_width, dt->size, dt->name);
		vec = s->load_width / dt->size;
		if (s->tile_cols % vec || s->tile_rows % vec)
			return ERR(load_width, "load_width %lld (%lld elements) must divide tile_rows %lld and tile_cols %lld: "
			           "vectors run along the rows of the input and of the output", s->load_width, vec,
			           s->tile_rows, s->tile_cols);
		if (s->batch % vec)
			return ERR(batch, "batch %lld is not a multiple of the %lld elements of one %lld-byte load",
			           s->batch, vec, s->load_width);
	} else {
		if (GIVEN(load_width))
			return ERR(load_width, "load_width has no effect with method: tma (the TMA unit moves whole tiles)");
		if (GIVEN(index))
			return ERR(index, "index has no effect with method: tma (TMA coordinates are 32-bit)");
		if (GIVEN(pad))
			return ERR(pad, "pad has no effect with method: tma; use swizzle against bank conflicts");
		/* A swizzled box row must fill the swizzle span exactly: wider is
		 * invalid, and narrower rows (64 bytes under 128B) faulted on an H200. */
		span = s->swizzle == KGEN_SWIZZLE_NONE ? 0 : 16LL << s->swizzle;
		if (span && s->tile_cols * dt->size != span)
			return ERR(tile_cols, "tile_cols %lld is %lld bytes of %s, not the %lld bytes of the swizzle span "
			           "(a swizzled TMA box row must fill it): use tile_cols: %lld, or swizzle: %s",
			           s->tile_cols, s->tile_cols * dt->size, dt->name, span, span / dt->size,
			           s->tile_cols * dt->size == 32 ? "32B" : s->tile_cols * dt->size == 64 ? "64B" :
			           s->tile_cols * dt->size == 128 ? "128B" : "none");
		if (span && s->tile_rows * dt->size != span)
			return ERR(tile_rows, "tile_rows %lld is %lld bytes of %s, not the %lld bytes of the swizzle span "
			           "(the rows of the transposed box must fill it): use tile_rows: %lld", s->tile_rows,
			           s->tile_rows * dt->size, dt->name, span, span / dt->size);
		if (s->walk == KGEN_WALK_DIAGONAL) {
			if (span)
				return ERR(walk, "walk: diagonal avoids bank conflicts without a swizzle: use swizzle: none");
			if (s->tile_rows % 32 || s->tile_cols % 32 || 32 % s->batch)
				return ERR(walk, "walk: diagonal moves 32x32 sub-blocks, batch steps per warp: it needs "
				           "tile_rows and tile_cols multiples of 32 and a batch that divides 32");
		}
		if ((s->tile_cols * dt->size) % 16)
			return ERR(tile_cols, "tile_cols %lld is %lld bytes of %s: a TMA box row must be a multiple of 16 "
			           "bytes", s->tile_cols, s->tile_cols * dt->size, dt->name);
		if ((s->tile_rows * dt->size) % 16)
			return ERR(tile_rows, "tile_rows %lld is %lld bytes of %s: the transposed box's rows must be a "
			           "multiple of 16 bytes", s->tile_rows, s->tile_rows * dt->size, dt->name);
		if (s->tile_cols % s->batch)
			return ERR(batch, "batch %lld must divide tile_cols %lld: each thread moves batch adjacent elements "
			           "of one row", s->batch, s->tile_cols);
	}
	if (s->group > 1 && s->buffers > 1)
		return ERR(group, "group needs buffers: 1 (a pipelined block walks its own tiles)");
	if (s->method == KGEN_METHOD_SMEM && transpose_smem(s) > 48 * 1024)
		return ERR(tile_rows, "the %lldx%lld tile needs %lld bytes of shared memory, over the 48 KB of static "
		           "shared memory a block gets: use a smaller tile", s->tile_rows, s->tile_cols, transpose_smem(s));
	if (s->method == KGEN_METHOD_TMA && s->buffers > 1 && transpose_smem(s) > KGEN_STATIC_SMEM)
		return ERR(buffers, "%lld buffers of a %lldx%lld tile need %lld bytes of shared memory, over the 48 KB of "
		           "static shared memory pipelined kernels use: use fewer buffers or a smaller tile", s->buffers,
		           s->tile_rows, s->tile_cols, transpose_smem(s));
	if (s->method == KGEN_METHOD_TMA && transpose_smem(s) + 1024 > KGEN_MAX_DYNAMIC_SMEM)
		return ERR(tile_rows, "the %lldx%lld tile needs %lld bytes of shared memory (buffers %lld), over the "
		           "%d bytes a block can have on Hopper: use a smaller tile or fewer buffers", s->tile_rows,
		           s->tile_cols, transpose_smem(s), s->buffers, KGEN_MAX_DYNAMIC_SMEM);
	if (s->index != 32 && s->index != 64)
		return ERR(index, "index must be 32 or 64, not %lld", s->index);
	return KGEN_OK;
}

/* Keys written in the spec must belong to its family. */
static kgen_status
check_family(struct kgen_spec *s, kgen_error *err)
{
	int k;

	for (k = 0; k < KGEN_KEY_COUNT; k++)
		if (s->pos[k].line && !kgen_key_in_family(s, (enum kgen_key)k))
			return kgen_spec_error(s, (enum kgen_key)k, 0, err, "%s does not apply to kernel: %s",
			                       kgen_keys[k].name, kgen_families[s->kernel].name);
	return KGEN_OK;
}

kgen_status
kgen_spec_check(struct kgen_spec *s, kgen_error *err)
{
	kgen_status st;

	if ((st = check_family(s, err)))
		return st;
	if (s->kernel == KGEN_TRANSPOSE) {
		if ((st = check_transpose(s, err)))
			return st;
		if (!s->name)
			snprintf(s->name_text, sizeof s->name_text, "transpose_%s", kgen_dtype_info[s->dtype].name);
		return KGEN_OK;
	}
	if (s->threads < 0)
		s->threads = 512;
	if ((st = check_types(s, err)) || (st = check_loads(s, err)) || (st = check_block(s, err)) ||
	    (st = check_grid(s, err)))
		return st;
	if (!s->name)
		snprintf(s->name_text, sizeof s->name_text, "%s_%s_%s", kgen_families[s->kernel].name,
		         kgen_ops[s->op].name, kgen_dtype_info[s->dtype].name);
	return KGEN_OK;
}
