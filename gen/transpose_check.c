/*
 * transpose_check.c - the rules of `kernel: transpose` between its fields,
 * after the shared ones (check.c) and its only-with table (transpose.c).
 */
#include "config.h"
#include "transpose.h"

#define ERR(k, ...) kgen_spec_error(s, KGEN_KEY_##k, 1, err, __VA_ARGS__)

/* Shared-memory bytes a transpose block needs. */
long long
kgen_transpose_smem(const struct kgen_spec *s)
{
	long long size = kgen_dtype_info[s->dtype].size;

	if (s->method == KGEN_METHOD_TMA)
		return s->buffers * (2 * s->tile_rows * s->tile_cols * size + 8);
	return s->tile_rows * (s->tile_cols + s->pad) * size;
}

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

/* A batch that gives a whole number of warps, at most 1024 threads, for
 * the spec's tile (and that its method can use), nearest to the spec's; 0
 * when there is none. */
static long long
workable_batch(const struct kgen_spec *s)
{
	long long elems = s->tile_rows * s->tile_cols, vec = s->load_width / kgen_dtype_info[s->dtype].size, d, b;

	for (d = 0; d < 256; d++)
		for (b = s->batch - d; b <= s->batch + d; b += d ? 2 * d : 1)
			if (b >= 1 && b <= 256 && elems % b == 0 && (elems / b) % 32 == 0 && elems / b <= 1024 &&
			    (s->method == KGEN_METHOD_TMA ? s->tile_cols % b == 0 : vec >= 1 && b % vec == 0))
				return b;
	return 0;
}

kgen_status
kgen_transpose_check(struct kgen_spec *s, kgen_error *err)
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
	if (s->threads % 32 || s->threads > 1024) {
		/* Point at what the user wrote: threads, or else the batch or the tile that derived it. */
		enum kgen_key at = KGEN_GIVEN(s, threads) ? KGEN_KEY_threads : KGEN_GIVEN(s, batch) ? KGEN_KEY_batch
		                   : KGEN_GIVEN(s, tile_rows) ? KGEN_KEY_tile_rows : KGEN_GIVEN(s, tile_cols) ? KGEN_KEY_tile_cols
		                   : KGEN_KEY_threads;
		long long b = workable_batch(s);
		char advice[64];
		if (b)
			snprintf(advice, sizeof advice, "use batch: %lld", b);
		else
			snprintf(advice, sizeof advice, "change the tile");
		return kgen_spec_error(s, at, 1, err,
		                       "threads %lld (tile %lldx%lld / batch %lld) must be a multiple of 32 and at most "
		                       "1024: %s", s->threads, s->tile_rows, s->tile_cols, s->batch, advice);
	}
	if (s->method == KGEN_METHOD_SMEM) {
		if (!kgen_is_pow2(s->load_width) || s->load_width % dt->size || s->load_width > 16)
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
	if (s->method == KGEN_METHOD_SMEM && kgen_transpose_smem(s) > 48 * 1024)
		return ERR(tile_rows, "the %lldx%lld tile needs %lld bytes of shared memory, over the 48 KB of static "
		           "shared memory a block gets: use a smaller tile", s->tile_rows, s->tile_cols, kgen_transpose_smem(s));
	if (s->method == KGEN_METHOD_TMA && s->buffers > 1 && kgen_transpose_smem(s) > KGEN_STATIC_SMEM)
		return ERR(buffers, "%lld buffers of a %lldx%lld tile need %lld bytes of shared memory, over the 48 KB of "
		           "static shared memory pipelined kernels use: use fewer buffers or a smaller tile", s->buffers,
		           s->tile_rows, s->tile_cols, kgen_transpose_smem(s));
	if (s->method == KGEN_METHOD_TMA && kgen_transpose_smem(s) + 1024 > KGEN_MAX_DYNAMIC_SMEM)
		return ERR(tile_rows, "the %lldx%lld tile needs %lld bytes of shared memory (buffers %lld), over the "
		           "%d bytes a block can have on Hopper: use a smaller tile or fewer buffers", s->tile_rows,
		           s->tile_cols, kgen_transpose_smem(s), s->buffers, KGEN_MAX_DYNAMIC_SMEM);
	if (s->index != 32 && s->index != 64)
		return ERR(index, "index must be 32 or 64, not %lld", s->index);
	if (!s->name)
		snprintf(s->name_text, sizeof s->name_text, "transpose_%s", kgen_dtype_info[s->dtype].name);
	return KGEN_OK;
}

