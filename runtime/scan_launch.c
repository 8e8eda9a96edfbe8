/*
 * scan_launch.c - kernel: scan's launcher: kgen_scan() of a vector and
 * kgen_scan_rows() of a matrix's rows, and their scratch sizes
 * (include/kgen.h).  strategy: lookback launches a block a tile of a row
 * with the look-back's status words in the scratch, whose header counts
 * the launches on the device, so that the words never need clearing
 * between launches, whatever their rows and lengths, a CUDA graph's
 * replays included (gen/scan.c's contract); strategy: block launches a
 * block a row.  kgen_scan_cols() scans down the columns (axis: cols): a
 * block a tile of rows of a band of columns, the bands a grid dimension.
 */
#include "config.h"
#include <stdint.h>
#include <string.h>
#include "runtime.h"
#include "gen/scan.h"

/* staging: ring's launch state (kgen_kernel.state): the input's tensor map
 * for the last input and layout it ran on, encoded once and reused while
 * they do not change (under the context's lock), as a TMA transpose's
 * maps are.  Plain memory: the kernel frees it with free(). */
struct kgen_scan_ring_map {
	int valid;
	kgen_devptr in;
	unsigned long long rows, cols, in_pitch;
	CUtensorMap map;
};

const struct kgen_launcher kgen_launcher_scan = { .free_state = NULL };

static kgen_status packed_sizes(const struct kgen_spec *s, const char *who, unsigned long long rows,
                                unsigned long long cols, kgen_error *err);

/* The scratch of rows of cols elements along rows, its errors in who's
 * name: kgen_scan_scratch_size() (one row) and kgen_scan_rows_scratch_size(). */
static kgen_status
rows_scratch(const kgen_kernel *k, unsigned long long rows, unsigned long long cols, const char *who, size_t *bytes,
             kgen_error *err)
{
	kgen_status st;
	unsigned long long need;

	if (!bytes)
		return kgen_fail(err, KGEN_EINVAL, "%s: NULL argument", who);
	k = kgen_kernel_for_n((kgen_kernel *)k, cols);
	if ((st = kgen_kernel_expect(k, KGEN_SCAN, who, err)))
		return st;
	if (k->spec.axis == KGEN_AXIS_COLS)
		return kgen_fail(err, KGEN_EINVAL, "%s: %s scans down columns (axis: cols): ask kgen_scan_cols_scratch_size",
		                 who, kgen_spec_kernel_name(&k->spec));
	if ((st = packed_sizes(&k->spec, who, rows, cols, err)))
		return st;  /* what the launch would refuse: its rows' size */
	need = kgen_scan_scratch_bytes(&k->spec, rows, cols);
	if (need > (1ull << 62))
		return kgen_fail(err, KGEN_EINVAL, "%s: %llu rows of %llu bytes of scratch is more than a device holds", who,
		                 rows, kgen_scan_row_scratch(&k->spec, cols));
	*bytes = (size_t)need;
	return KGEN_OK;
}

kgen_status
kgen_scan_rows_scratch_size(const kgen_kernel *k, unsigned long long rows, unsigned long long cols, size_t *bytes,
                            kgen_error *err)
{
	return rows_scratch(k, rows, cols, "kgen_scan_rows_scratch_size", bytes, err);
}

kgen_status
kgen_scan_scratch_size(const kgen_kernel *k, unsigned long long n, size_t *bytes, kgen_error *err)
{
	return rows_scratch(k, 1, n, "kgen_scan_scratch_size", bytes, err);
}

/* One call's operands: rows x cols, each row `pitch` elements after the
 * last (in and out). */
struct call {
	kgen_devptr in, out, scratch;
	unsigned long long rows, cols, in_pitch, out_pitch;
	size_t scratch_bytes;
};

/* The bytes from a matrix's first element to past its last. */
static unsigned long long
span_bytes(unsigned long long rows, unsigned long long cols, unsigned long long pitch, unsigned long long size)
{
	return ((rows - 1) * pitch + cols) * size;
}

/* Bands of cols columns (axis: cols): ceil(cols / a tile's columns). */
static unsigned long long
bands_of(const struct kgen_spec *s, unsigned long long cols)
{
	unsigned long long band = kgen_scan_tile_cols(s);

	return cols / band + (cols % band != 0);
}

static kgen_status check_sizes(const struct kgen_spec *s, const char *who, const struct call *c, kgen_error *err);

/* The operands' rules, before anything is launched: along rows (tiles of a
 * row) or down the columns (tiles of the rows by bands of the columns). */
static kgen_status
check_call(const struct kgen_spec *s, const char *who, const struct call *c, kgen_error *err)
{
	unsigned long long isize = (unsigned long long)s->r.dtype->size, osize = (unsigned long long)s->r.out->size;
	struct kgen_span spans[2];
	kgen_status st;

	if (!c->in || !c->out)
		return kgen_fail(err, KGEN_EINVAL, "%s: %s is NULL", who, c->in ? "out" : "in");
	if (c->in % isize)
		return kgen_fail(err, KGEN_EINVAL, "%s: in (0x%llx) is not aligned to its %llu-byte %s elements", who, c->in,
		                 isize, s->r.dtype->name);
	if (c->out % osize)
		return kgen_fail(err, KGEN_EINVAL, "%s: out (0x%llx) is not aligned to its %llu-byte %s elements", who,
		                 c->out, osize, s->r.out->name);
	if ((st = check_sizes(s, who, c, err)))
		return st;
	/* In place (out == in, one element size and pitch) is fine: a tile is
	 * read whole before it is written, and no tile reads another's elements. */
	if (c->out == c->in && isize == osize && c->in_pitch == c->out_pitch)
		return KGEN_OK;
	spans[0] = (struct kgen_span){ "out", c->out, span_bytes(c->rows, c->cols, c->out_pitch, osize) };
	spans[1] = (struct kgen_span){ "in", c->in, span_bytes(c->rows, c->cols, c->in_pitch, isize) };
	return kgen_refuse_overlaps(who, spans, 2, 1, err);
}

/* The sizes' rules of a call: pitches, what a device and a grid hold. */
static kgen_status
check_sizes(const struct kgen_spec *s, const char *who, const struct call *c, kgen_error *err)
{
	unsigned long long isize = (unsigned long long)s->r.dtype->size, osize = (unsigned long long)s->r.out->size;
	int down = s->axis == KGEN_AXIS_COLS;
	unsigned long long tiles = kgen_scan_tiles(s, down ? c->rows : c->cols), big = isize > osize ? isize : osize;

	if (c->in_pitch < c->cols || c->out_pitch < c->cols)
		return kgen_fail(err, KGEN_EINVAL, "%s: a pitch of %llu elements is shorter than a row of %llu", who,
		                 c->in_pitch < c->cols ? c->in_pitch : c->out_pitch, c->cols);
	if (c->cols > (1ull << 62) / big || c->in_pitch > (1ull << 62) / big / c->rows ||
	    c->out_pitch > (1ull << 62) / big / c->rows)
		return kgen_fail(err, KGEN_EINVAL, "%s: %llu x %llu elements (pitches %llu and %llu) are more than a device "
		                 "holds", who, c->rows, c->cols, c->in_pitch, c->out_pitch);
	if (down && (tiles > 0x7fffffffull || bands_of(s, c->cols) > KGEN_SCAN_GRID_ROWS))
		return kgen_fail(err, KGEN_EINVAL, "%s: %llu x %llu needs %llu x %llu tiles of %llu x %llu, more than a grid "
		                 "holds", who, c->rows, c->cols, tiles, bands_of(s, c->cols), kgen_scan_tile(s),
		                 kgen_scan_tile_cols(s));
	if (tiles > 0x7fffffffull)
		return kgen_fail(err, KGEN_EINVAL, "%s: n = %llu needs %llu tiles of %llu, more than a grid holds", who,
		                 c->cols, tiles, kgen_scan_tile(s));
	return KGEN_OK;
}

/* check_sizes() of packed rows x cols, for the scratch-size calls. */
static kgen_status
packed_sizes(const struct kgen_spec *s, const char *who, unsigned long long rows, unsigned long long cols,
             kgen_error *err)
{
	struct call c = { .rows = rows ? rows : 1, .cols = cols, .in_pitch = cols, .out_pitch = cols };

	return cols ? check_sizes(s, who, &c, err) : KGEN_OK;
}

/* The scratch: the caller's (checked) or the kernel's own. */
static kgen_status
take_scratch(kgen_kernel *k, const char *who, struct call *c, unsigned long long need, CUstream stream,
             kgen_error *err)
{
	const struct kgen_spec *s = &k->spec;
	kgen_status st;

	if (!need)
		return KGEN_OK;
	if (!c->scratch) {
		if ((st = kgen_own_scratch(k, (size_t)need, stream, err)))
			return st;
		c->scratch = k->scratch;
		return KGEN_OK;
	}
	if (c->scratch % 16)
		return kgen_fail(err, KGEN_EINVAL, "%s: scratch (0x%llx) is not aligned to 16 bytes", who, c->scratch);
	if (c->scratch_bytes < need)
		return kgen_fail(err, KGEN_EINVAL, "%s: scratch of %zu bytes is too small: %llu needed for %llu x %llu", who,
		                 c->scratch_bytes, need, c->rows, c->cols);
	{
		const struct kgen_span spans[] = {
			{ "scratch", c->scratch, need },
			{ "out", c->out, span_bytes(c->rows, c->cols, c->out_pitch, (unsigned long long)s->r.out->size) },
			{ "in", c->in, span_bytes(c->rows, c->cols, c->in_pitch, (unsigned long long)s->r.dtype->size) },
		};
		return kgen_refuse_overlaps(who, spans, c->out == c->in ? 2 : 3, 2, err);  /* in place: out is in */
	}
}

static kgen_status
scan_body(kgen_kernel *k, const char *who, struct call *c, CUstream stream, kgen_error *err)
{
	const struct kgen_spec *s = &k->spec;
	unsigned long long tiles = kgen_scan_tiles(s, c->cols), row_scratch = kgen_scan_row_scratch(s, c->cols);
	unsigned long long isize = (unsigned long long)s->r.dtype->size, osize = (unsigned long long)s->r.out->size;
	unsigned long long r;
	kgen_status st;

	if (!c->rows || !c->cols)
		return KGEN_OK;
	if ((st = check_call(s, who, c, err)) || (st = kgen_context_enter(k->ctx, err)) ||
	    (st = take_scratch(k, who, c, kgen_scan_scratch_bytes(s, c->rows, c->cols), stream, err)))
		return st;
	for (r = 0; r < c->rows; r += KGEN_SCAN_GRID_ROWS) {  /* a launch a grid's worth of rows, on the same words */
		unsigned long long rows = c->rows - r < KGEN_SCAN_GRID_ROWS ? c->rows - r : KGEN_SCAN_GRID_ROWS;
		kgen_devptr in = c->in + r * c->in_pitch * isize, out = c->out + r * c->out_pitch * osize;

		if (s->scan_strategy == KGEN_SCAN_STRATEGY_BLOCK) {
			void *args[5] = { &in, &out, &c->cols, &c->in_pitch, &c->out_pitch };
			st = kgen_launch_3d(k->ctx->cu, k->fn[0], 1, (unsigned)rows, 1, s->threads, 0, args, stream, err);
		} else {
			void *args[7] = { &in, &out, &c->cols, &c->in_pitch, &c->out_pitch, &c->scratch, &row_scratch };
			st = kgen_launch_3d(k->ctx->cu, k->fn[0], (unsigned)tiles, (unsigned)rows, 1, s->threads, 0, args, stream,
			                    err);
		}
		if (st)
			return st;
	}
	return KGEN_OK;
}

/* The work above, leaving the caller's current context as it was. */
static kgen_status
scan_call(kgen_kernel *k, const char *who, struct call *c, kgen_stream stream, kgen_error *err)
{
	CUcontext saved;
	kgen_status st;

	k = kgen_kernel_for_n(k, c->cols);  /* a size plan's (the family is sized by n): the entry for a row's n */
	if ((st = kgen_kernel_expect(k, KGEN_SCAN, who, err)))
		return st;
	if (k->spec.axis == KGEN_AXIS_COLS)
		return kgen_fail(err, KGEN_EINVAL, "%s: %s scans down columns (axis: cols): call kgen_scan_cols", who,
		                 kgen_spec_kernel_name(&k->spec));
	saved = kgen_context_save(k->ctx);
	st = scan_body(k, who, c, (CUstream)stream, err);
	kgen_context_restore(k->ctx, saved);
	return st;
}

kgen_status
kgen_scan(kgen_kernel *k, kgen_devptr in, kgen_devptr out, unsigned long long n, kgen_devptr scratch,
          size_t scratch_bytes, kgen_stream stream, kgen_error *err)
{
	struct call c = { in, out, scratch, 1, n, n, n, scratch_bytes };

	return scan_call(k, "kgen_scan", &c, stream, err);
}

kgen_status
kgen_scan_rows(kgen_kernel *k, kgen_devptr in, kgen_devptr out, unsigned long long rows, unsigned long long cols,
               unsigned long long in_pitch, unsigned long long out_pitch, kgen_devptr scratch, size_t scratch_bytes,
               kgen_stream stream, kgen_error *err)
{
	struct call c = { in, out, scratch, rows, cols, in_pitch ? in_pitch : cols, out_pitch ? out_pitch : cols,
	                  scratch_bytes };

	return scan_call(k, "kgen_scan_rows", &c, stream, err);
}

/* ---- down the columns (axis: cols) ---- */

static kgen_status
expect_columns(kgen_kernel *k, const char *who, kgen_error *err)
{
	kgen_status st;

	if ((st = kgen_kernel_expect(k, KGEN_SCAN, who, err)))
		return st;
	if (k->spec.axis != KGEN_AXIS_COLS)
		return kgen_fail(err, KGEN_EINVAL, "%s: %s scans along rows (axis: rows): call kgen_scan or kgen_scan_rows, "
		                 "or build a spec of axis: cols", who, kgen_spec_kernel_name(&k->spec));
	return KGEN_OK;
}

kgen_status
kgen_scan_cols_scratch_size(const kgen_kernel *k, unsigned long long rows, unsigned long long cols, size_t *bytes,
                            kgen_error *err)
{
	kgen_status st;
	unsigned long long need;

	if (!bytes)
		return kgen_fail(err, KGEN_EINVAL, "kgen_scan_cols_scratch_size: NULL argument");
	k = kgen_kernel_for_n((kgen_kernel *)k, rows);
	if ((st = expect_columns((kgen_kernel *)k, "kgen_scan_cols_scratch_size", err)))
		return st;
	if (kgen_scan_tiles(&k->spec, rows) > 0x7fffffffull || bands_of(&k->spec, cols) > KGEN_SCAN_GRID_ROWS)
		return kgen_fail(err, KGEN_EINVAL, "kgen_scan_cols_scratch_size: %llu x %llu needs more tiles than a grid "
		                 "holds", rows, cols);
	need = kgen_scan_scratch_bytes(&k->spec, bands_of(&k->spec, cols), rows);
	if (need > (1ull << 62))
		return kgen_fail(err, KGEN_EINVAL, "kgen_scan_cols_scratch_size: %llu x %llu is more than a device holds", rows,
		                 cols);
	*bytes = (size_t)need;
	return KGEN_OK;
}

/* staging: ring: in's tensor map for TMA's boxes of a tile, cols x rows
 * elements of the dtype's size (only bytes are copied), rows in_pitch
 * apart, a box a band's columns by gen/scan.c's box rows, zeros outside. */
static kgen_status
ring_encode(const kgen_kernel *k, const struct call *c, CUtensorMap *map, kgen_error *err)
{
	const struct kgen_spec *s = &k->spec;
	const unsigned long long size = (unsigned long long)s->r.dtype->size;
	const CUtensorMapDataType type = size == 1 ? CU_TENSOR_MAP_DATA_TYPE_UINT8 : size == 2 ? CU_TENSOR_MAP_DATA_TYPE_UINT16
	                                 : size == 4 ? CU_TENSOR_MAP_DATA_TYPE_UINT32 : CU_TENSOR_MAP_DATA_TYPE_INT64;
	cuuint64_t dims[2] = { c->cols, c->rows }, strides[1] = { c->in_pitch * size };
	cuuint32_t box[2] = { (cuuint32_t)kgen_scan_tile_cols(s), (cuuint32_t)kgen_scan_ring_box_rows(s) };
	cuuint32_t estrides[2] = { 1, 1 };

	KGEN_CU(k->ctx->cu, err, cuTensorMapEncodeTiled,
	        (map, type, 2, (void *)(uintptr_t)c->in, dims, strides, box, estrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
	         CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
	return KGEN_OK;
}

/* ring_encode()'s map for this call: the kernel's own (kgen_scan_ring_map)
 * where the input and its layout are those it was encoded for, else encoded
 * now and kept; *mapped 0 (and no map) where the kernel's tile is not whole
 * boxes or TMA cannot take the input: in not 16-byte aligned, a pitch not
 * whole 16-byte pieces or past 2^40 bytes, rows or columns past a box's int
 * coordinate.  The kernel then copies each row of a tile apart. */
static kgen_status
ring_map(kgen_kernel *k, const struct call *c, CUtensorMap *map, int *mapped, kgen_error *err)
{
	const struct kgen_spec *s = &k->spec;
	const unsigned long long size = (unsigned long long)s->r.dtype->size;
	struct kgen_scan_ring_map *m;
	kgen_status st = KGEN_OK;

	memset(map, 0, sizeof *map);
	*mapped = 0;
	if (!kgen_scan_ring_box_rows(s) || c->in % 16 || c->in_pitch * size % 16 || c->in_pitch * size >= (1ull << 40) ||
	    c->rows + kgen_scan_tile(s) > 0x7fffffffull || c->cols + kgen_scan_tile_cols(s) > 0x7fffffffull)
		return KGEN_OK;
	if (!(m = kgen_kernel_state_lock(k, _Alignof(struct kgen_scan_ring_map), sizeof *m, err)))
		return KGEN_ENOMEM;
	if (!m->valid || m->in != c->in || m->rows != c->rows || m->cols != c->cols || m->in_pitch != c->in_pitch) {
		m->valid = 0;
		if (!(st = ring_encode(k, c, &m->map, err))) {
			m->in = c->in, m->rows = c->rows, m->cols = c->cols, m->in_pitch = c->in_pitch;
			m->valid = 1;
		}
	}
	if (!st) {
		*map = m->map;
		*mapped = 1;
	}
	kgen_kernel_state_unlock(k);
	return st;
}

/* staging: ring: a band's blocks as many as the GPU holds at once beside
 * the other bands' (the kernel's occupancy on each SM), the grid (blocks,
 * bands), launched cooperatively (all resident, as they wait on one
 * another); its status words only where a band has more than one block. */
static kgen_status
ring_body(kgen_kernel *k, struct call *c, CUstream stream, kgen_error *err)
{
	static const char who[] = "kgen_scan_cols";
	const struct kgen_spec *s = &k->spec;
	unsigned long long bands = bands_of(s, c->cols), resident, blocks, band_scratch, tiles;
	CUtensorMap in_map;
	int mapped;
	kgen_status st;

	if ((st = check_call(s, who, c, err)) || (st = kgen_context_enter(k->ctx, err)) ||
	    (st = kgen_kernel_step(k, 0, err)))
		return st;
	resident = (unsigned long long)k->ctx->sm_count * (unsigned long long)(k->occupancy[0] > 0 ? k->occupancy[0] : 1);
	blocks = kgen_scan_ring_blocks(s, bands, c->rows, resident);
	band_scratch = kgen_scan_ring_band_scratch(s, blocks);
	tiles = kgen_scan_tiles(s, c->rows);
	/* the rounds a status word's mark counts (one block a band counts them in an int) */
	if ((tiles + blocks - 1) / blocks > KGEN_SCAN_RING_MOST_ROUNDS)
		return kgen_fail(err, KGEN_EINVAL, "%s: %llu rows take %llu rounds of %llu blocks, more than the kernel "
		                 "counts (%llu: a status word's mark)", who, c->rows, (tiles + blocks - 1) / blocks, blocks,
		                 KGEN_SCAN_RING_MOST_ROUNDS);
	if ((band_scratch && (st = take_scratch(k, who, c, KGEN_SCAN_WORD_BYTES + bands * band_scratch, stream, err))) ||
	    (st = ring_map(k, c, &in_map, &mapped, err)))
		return st;
	{
		void *args[10] = { &c->in, &c->out, &c->rows, &c->cols, &c->in_pitch, &c->out_pitch, &c->scratch,
		                   &band_scratch, &in_map, &mapped };
		unsigned int smem = (unsigned)k->contract.step[0].dynamic_smem;
		/* a band's blocks wait on one another: all of them resident, or no launch */
		if (blocks > 1)
			return kgen_launch_cooperative(k->ctx->cu, k->fn[0], (unsigned)blocks, (unsigned)bands, s->threads, smem,
			                               args, stream, err);
		return kgen_launch_3d(k->ctx->cu, k->fn[0], 1, (unsigned)bands, 1, s->threads, smem, args, stream, err);
	}
}

static kgen_status
cols_body(kgen_kernel *k, struct call *c, CUstream stream, kgen_error *err)
{
	static const char who[] = "kgen_scan_cols";
	const struct kgen_spec *s = &k->spec;
	unsigned long long tiles = kgen_scan_tiles(s, c->rows), bands = bands_of(s, c->cols);
	unsigned long long band_scratch = kgen_scan_row_scratch(s, c->rows);
	kgen_status st;

	if (!c->rows || !c->cols)
		return KGEN_OK;
	if (s->staging == KGEN_STAGING_RING)
		return ring_body(k, c, stream, err);
	if ((st = check_call(s, who, c, err)) || (st = kgen_context_enter(k->ctx, err)) ||
	    (st = take_scratch(k, who, c, kgen_scan_scratch_bytes(s, bands, c->rows), stream, err)))
		return st;
	{
		void *args[8] = { &c->in, &c->out, &c->rows, &c->cols, &c->in_pitch, &c->out_pitch, &c->scratch,
		                  &band_scratch };
		/* cluster_size: the tiles rounded up to whole clusters (those past the last read and write nothing) */
		unsigned long long x = (tiles + (unsigned long long)s->cluster_size - 1) / s->cluster_size * s->cluster_size;
		return kgen_launch_3d(k->ctx->cu, k->fn[0], (unsigned)x, (unsigned)bands, 1, s->threads, 0, args, stream, err);
	}
}

kgen_status
kgen_scan_cols(kgen_kernel *k, kgen_devptr in, kgen_devptr out, unsigned long long rows, unsigned long long cols,
               unsigned long long in_pitch, unsigned long long out_pitch, kgen_devptr scratch, size_t scratch_bytes,
               kgen_stream stream, kgen_error *err)
{
	struct call c = { in, out, scratch, rows, cols, in_pitch ? in_pitch : cols, out_pitch ? out_pitch : cols,
	                  scratch_bytes };
	CUcontext saved;
	kgen_status st;

	k = kgen_kernel_for_n(k, rows);  /* a size plan's entry for the columns' length */
	if ((st = expect_columns(k, "kgen_scan_cols", err)))
		return st;
	saved = kgen_context_save(k->ctx);
	st = cols_body(k, &c, (CUstream)stream, err);
	kgen_context_restore(k->ctx, saved);
	return st;
}
