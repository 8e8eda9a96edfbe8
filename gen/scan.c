/*
 * scan.c - the family `kernel: scan`: the inclusive or exclusive prefix of
 * a vector under an op (sum, min, max, prod, the others without a last
 * step, op: custom), out[i] = x[0] op x[1] op ... op x[i].  Its keys, its
 * rules, its launch contract and its emitter (templates/scan/).
 *
 * A block takes a tile of threads * items_per_thread elements through
 * shared memory: read across the tile (coalesced), each thread combines
 * its items_per_thread adjacent ones, the block scans the threads' totals
 * (block_scan: warp shuffles, then the warp totals; or the scan posts'
 * Hillis-Steele or Blelloch trees in shared memory), and each thread scans its items
 * from its prefix.  strategy: lookback gives each tile a block, which
 * publishes its total, looks back on the tiles before it and publishes its
 * prefix (one pass over the vector); strategy: block walks the tiles in one
 * block.  Both combine in an order fixed by the tiling, so float results
 * are the same run after run.
 */
#include "config.h"
#include <string.h>
#include "acc.h"
#include "family.h"
#include "op.h"
#include "ptx.h"
#include "scan.h"
#include "tpl.h"
#include "util.h"

#define ERR(k, ...) kgen_spec_error(s, KGEN_KEY_##k, 1, err, __VA_ARGS__)
#define TRY(e) do { if ((st = (e)) != KGEN_OK) goto out; } while (0)

/* The column scan's row groups' totals of the band's columns, padded, and the mark. */
static long long
column_sums_bytes(const struct kgen_spec *s)
{
	return (s->threads / s->lanes) * ((long long)kgen_scan_tile_cols(s) + 1) * s->r.acc_bytes + 8;
}

/* staging: ring: threads that share a column's status words (columns_ring.cu's PARTS). */
static long long
ring_parts(const struct kgen_spec *s)
{
	long long cols = (long long)kgen_scan_tile_cols(s);

	return s->threads / cols >= 4 ? 4 : s->threads / cols >= 1 ? s->threads / cols : 1;
}

/* staging: ring's static shared memory (columns_ring.cu): two tiles' row
 * groups' totals and totals, the words' folds, the carry, prefix and
 * mates, the stages' mbarriers and the mark. */
static long long
ring_static_bytes(const struct kgen_spec *s)
{
	long long cols = (long long)kgen_scan_tile_cols(s), groups = s->threads / s->lanes;

	long long bytes = (2 * groups * cols + 2 * cols + 3 * ring_parts(s) * cols + 3 * cols) * s->r.acc_bytes +
	                  (s->mm_stages + 1) * 8;

	return (bytes + 127) / 128 * 128;  /* the stages after them 128-byte aligned */
}

long long
kgen_scan_ring_smem(const struct kgen_spec *s)
{
	return s->mm_stages * (long long)kgen_scan_tile(s) * (long long)kgen_scan_tile_cols(s) * s->r.dtype->size;
}

/* The most rows TMA's box takes (cuTensorMapEncodeTiled's boxDim[1]). */
#define BOX_MOST 256

long long
kgen_scan_ring_box_rows(const struct kgen_spec *s)
{
	long long rows = (long long)kgen_scan_tile(s), row_bytes = (long long)kgen_scan_tile_cols(s) * s->r.dtype->size;

	/* a tile's boxes each start a stage's 128-byte piece (TMA's shared-memory alignment): the most rows
	 * dividing the tile that make whole pieces */
	for (long long box = rows < BOX_MOST ? rows : BOX_MOST; box > 0; box--)
		if (rows % box == 0 && box * row_bytes % 128 == 0)
			return box;
	return 0;
}

/* The shared memory a block takes: the tile's elements as accumulators,
 * padded (templates/scan/file.cu), and its block scan's (block_*.cu). */
static long long
smem_bytes(const struct kgen_spec *s)
{
	if (s->axis == KGEN_AXIS_COLS && s->staging == KGEN_STAGING_SMEM)  /* the tile as read, aligned, its mbarrier */
		return column_sums_bytes(s) + (long long)kgen_scan_tile(s) * s->lanes * s->load_width + 128 + 8;
	if (s->axis == KGEN_AXIS_COLS)
		return column_sums_bytes(s);
	if (s->block_scan == KGEN_BS_SEGMENTS)  /* the tile as read, the warps' totals, the mbarrier and the mark, aligned */
		return s->threads * s->items_per_thread * s->r.dtype->size + s->threads / 32 * s->r.acc_bytes + 32;
	long long words = s->threads * s->items_per_thread;
	long long scan = s->block_scan == KGEN_BS_HILLIS_STEELE ? 2 * s->threads
	                 : s->block_scan == KGEN_BS_BLELLOCH    ? s->threads
	                                                         : s->threads / 32;
	return (words + words / 32 + scan + 1) * s->r.acc_bytes;  /* and the block's prefix */
}

unsigned long long
kgen_scan_tile(const struct kgen_spec *s)
{
	if (s->axis == KGEN_AXIS_COLS)  /* rows: the row groups' items */
		return (unsigned long long)(s->threads / s->lanes) * (unsigned long long)s->items_per_thread;
	return (unsigned long long)s->threads * (unsigned long long)s->items_per_thread;
}

unsigned long long
kgen_scan_tile_cols(const struct kgen_spec *s)
{
	if (s->axis == KGEN_AXIS_COLS)
		return (unsigned long long)s->lanes * (unsigned long long)(s->load_width / s->r.dtype->size);
	return 1;
}

unsigned long long
kgen_scan_tiles(const struct kgen_spec *s, unsigned long long n)
{
	unsigned long long tile = kgen_scan_tile(s);

	return n / tile + (n % tile != 0);
}

unsigned long long
kgen_scan_row_scratch(const struct kgen_spec *s, unsigned long long n)
{
	unsigned long long tiles = kgen_scan_tiles(s, n);
	unsigned long long groups = (tiles + (unsigned long long)s->lookback_group - 1) / (unsigned long long)s->lookback_group;

	if (s->scan_strategy == KGEN_SCAN_STRATEGY_BLOCK || tiles <= 1)
		return 0;
	return (tiles + groups) * kgen_scan_tile_cols(s) * KGEN_SCAN_WORD_BYTES;  /* the tiles', then the groups' */
}

unsigned long long
kgen_scan_ring_blocks(const struct kgen_spec *s, unsigned long long bands, unsigned long long rows,
                      unsigned long long resident)
{
	unsigned long long tiles = kgen_scan_tiles(s, rows), blocks;

	resident = resident < KGEN_SCAN_RING_MOST ? resident : KGEN_SCAN_RING_MOST;
	blocks = bands ? resident / bands : 0;
	blocks = blocks < tiles ? blocks : tiles;
	return blocks >= 2 ? blocks : 1;
}

unsigned long long
kgen_scan_ring_band_scratch(const struct kgen_spec *s, unsigned long long blocks)
{
	unsigned long long m = 1, groups;

	if (blocks < 2)
		return 0;
	while (m * m < blocks)
		m++;
	groups = (blocks + m - 1) / m;
	return KGEN_SCAN_RING_ROUNDS * (blocks + groups) * kgen_scan_tile_cols(s) * KGEN_SCAN_WORD_BYTES;
}

unsigned long long
kgen_scan_scratch_bytes(const struct kgen_spec *s, unsigned long long rows, unsigned long long n)
{
	unsigned long long row = kgen_scan_row_scratch(s, n);

	if (s->axis == KGEN_AXIS_COLS && s->staging == KGEN_STAGING_RING) {  /* rows: the bands; n: their rows */
		row = kgen_scan_ring_band_scratch(s, kgen_scan_ring_blocks(s, rows, n, KGEN_SCAN_RING_MOST));
		return row && rows ? KGEN_SCAN_WORD_BYTES + rows * row : 0;
	}

	if (!row || !rows)
		return 0;
	rows = rows < KGEN_SCAN_GRID_ROWS ? rows : KGEN_SCAN_GRID_ROWS;
	if (rows > ((1ull << 62) - KGEN_SCAN_WORD_BYTES) / row)
		return ~0ull;  /* more than a device holds: the launcher refuses it */
	return KGEN_SCAN_WORD_BYTES + rows * row;  /* the header, then the rows' words */
}

/* Blocks an SM for block_scan: segments' launch bounds: as many as 228 KB
 * of shared memory holds (an H100's or H200's, 1 KB of it a block's own),
 * at most 2048 threads and 32 blocks; ptxas then keeps the registers to
 * what that many blocks leave. */
static long long
segment_blocks(const struct kgen_spec *s)
{
	long long blocks = 228 * 1024 / (smem_bytes(s) + 1024);

	blocks = blocks < 2048 / s->threads ? blocks : 2048 / s->threads;
	blocks = blocks < 32 ? blocks : 32;
	return blocks > 1 ? blocks : 1;
}

/* staging: smem's cap on the blocks an SM (columns.cu's MOST_BLOCKS):
 * blocks_per_sm, else as many as 40 + 5 K registers a thread leave, K the
 * band's columns a warp looks back on, twice for 8-byte accumulators
 * (ptxas wants 66, 91-94 and 146-148 for K 4, 8 and 16 of f32). */
static long long
staged_most_blocks(const struct kgen_spec *s)
{
	long long k = (long long)kgen_scan_tile_cols(s) / (s->threads / 32);
	long long words = s->r.acc_bytes > 4 ? s->r.acc_bytes / 4 : 1;

	return s->mm_blocks_per_sm ? s->mm_blocks_per_sm : 65536 / (s->threads * (40 + 5 * k * words));
}

/* ---- rules ---- */

/* axis: cols: a tile's threads, whole warps of lanes across its columns
 * times row groups down its rows (both column scans). */
static kgen_status
check_tile_threads(const struct kgen_spec *s, kgen_error *err)
{
	if (s->threads % 32)
		return ERR(threads, "threads %lld is not a multiple of the warp size, 32", s->threads);
	if (s->threads % s->lanes)
		return ERR(lanes, "lanes %lld does not divide threads %lld: a tile's threads are lanes across its columns "
		           "times row groups down its rows", s->lanes, s->threads);
	return KGEN_OK;
}

/* axis: cols, staging: ring: persistent blocks, each walking its share of
 * a band's tiles through `stages` shared-memory stages that TMA fills ahead.
 * By default a band of 64 columns (16 lanes of 4-element loads; f64 32
 * columns of 16-byte loads), tiles of 256 rows (16 rows a thread of 256
 * threads: 64 KB of f32, one box of the input's tensor map), 3 stages and
 * as many blocks an SM as fit, at most 2 (f32 and f64 1, bf16 and f16 2):
 * on an H100, f32 at 2^20 x 64, 256, 512, 1024 and 2048 columns and 2^22 x
 * 64, 0.01-0.09 of a copy ahead of tiles of 128 rows and 2 blocks an SM,
 * the same at 16384 x 16384, 0.12-0.31 behind at 3000 x 130
 * (bench/results/nvidia-h100/2026-12-07-scan-cols-ring-maps, run-3). */
static kgen_status
check_ring(struct kgen_spec *s, long long vec, kgen_error *err)
{
	long long cols, size = s->r.dtype->size, fit;
	kgen_status st;

	/* Four elements a load by default where 16 bytes would be more (8 bytes of bf16 or f16) and 16 lanes: a
	 * band of 64 columns and stages of 128 rows, as f32's, where 16-byte loads of bf16 made a band of 128
	 * columns, stages of 32 KB and room for one block an SM: 0.17 and 0.45 of a copy at 2^20 x 64 and
	 * 2^20 x 1024 on an H100, these 0.51 and 0.60 (bench/results/nvidia-h100/2026-12-07-scan-cols-ring-kgen). */
	int narrow = !s->pos[KGEN_KEY_load_width].line && size < 4 && s->load_width > 4 * size;

	if (narrow) {
		s->load_width = 4 * size;
		vec = 4;
	}
	if (!s->pos[KGEN_KEY_lanes].line)  /* else 256 bytes of columns: 64 of f32, 32 of f64 */
		s->lanes = narrow ? 16 : 256 / s->load_width > 1 ? 256 / s->load_width : 1;
	if ((st = check_tile_threads(s, err)))
		return st;
	if (!s->pos[KGEN_KEY_mm_stages].line)
		s->mm_stages = 3;
	if (s->items_per_thread < 0) {  /* tiles of 256 rows (a box of the input's tensor map), fewer where the stages would not fit */
		s->items_per_thread = s->threads / s->lanes < 256 ? 256 / (s->threads / s->lanes) : 1;
		while (s->items_per_thread > 1 && kgen_scan_ring_smem(s) + ring_static_bytes(s) > 227 * 1024)
			s->items_per_thread /= 2;
	}
	if (s->cluster_size > 1)
		return ERR(cluster_size, "cluster_size is the look-back's clusters of tiles; staging: ring's blocks read one "
		           "another's status words in L2: drop it");
	cols = s->lanes * vec;
	if (cols * size % 16)
		return ERR(lanes, "staging: ring copies each row of a tile's band whole, %lld columns of %lld bytes, which is "
		           "not a multiple of 16 bytes: use more lanes or a wider load", cols, size);
	if (ring_static_bytes(s) > 48 * 1024)
		return ERR(threads, "the row groups' totals and the status folds of a tile of %lld columns in %s take %lld "
		           "bytes of shared memory, over the 48 KB a block's static arrays get: use fewer threads or lanes",
		           cols, s->r.acc->name, ring_static_bytes(s));
	if (kgen_scan_ring_smem(s) + ring_static_bytes(s) > 227 * 1024)
		return ERR(items_per_thread, "%lld stages of %llu rows of %lld columns in %s take %lld bytes of shared "
		           "memory with the block's own %lld, over the 227 KB an sm_90 block gets: use fewer stages, "
		           "items_per_thread, threads or lanes", s->mm_stages, kgen_scan_tile(s), cols, s->r.dtype->name,
		           kgen_scan_ring_smem(s), ring_static_bytes(s));
	/* The blocks an SM (the launch bounds): 2 by default, as many as its 2048 threads and 228 KB hold (1 KB of
	 * it a block's own). */
	fit = 228 * 1024 / (kgen_scan_ring_smem(s) + ring_static_bytes(s) + 1024);
	fit = fit < 2048 / s->threads ? fit : 2048 / s->threads;
	if (!s->mm_blocks_per_sm)
		s->mm_blocks_per_sm = fit < 2 ? 1 : 2;
	else if (s->mm_blocks_per_sm > fit)
		return ERR(mm_blocks_per_sm, "blocks_per_sm %lld: an SM holds %lld block%s of %lld threads with %lld bytes "
		           "of stages and %lld of their own at most", s->mm_blocks_per_sm, fit > 1 ? fit : 1, fit > 1 ? "s" : "",
		           s->threads, kgen_scan_ring_smem(s), ring_static_bytes(s));
	if (!s->name)
		snprintf(s->name_text, sizeof s->name_text, "scan_cols_%s_%s", kgen_ops[s->op].name, s->r.dtype->name);
	return KGEN_OK;
}

/* axis: cols: a tile of rows of a band of lanes x load_width bytes of
 * columns, the look-back over tiles down each column. */
static kgen_status
check_columns(struct kgen_spec *s, kgen_error *err)
{
	long long vec, cols, warps = s->threads / 32;
	kgen_status st;
	int wide_default;

	if (s->scan_strategy != KGEN_SCAN_STRATEGY_LOOKBACK)
		return ERR(scan_strategy, "axis: cols scans down the columns with the look-back over tiles of rows; "
		           "strategy: %s is not there for columns yet: use lookback",
		           kgen_scan_strategies[s->scan_strategy].name);
	if ((st = kgen_check_load_width(s, err)))
		return st;
	vec = s->load_width / s->r.dtype->size;
	if (s->staging == KGEN_STAGING_RING)
		return check_ring(s, vec, err);
	/* A band of 128 bytes of columns (32 of f32, 64 of bf16: 4 and 8 a warp
	 * to look back on at 256 threads), a row group a warp at most, and the
	 * tile in shared memory where it fits: the fewer columns a tile, the
	 * fewer registers its look-back takes, the more tiles an SM holds.
	 * 2^20 x 64 f32 on an H200 (bench/scan/cols_sweep.py, 2026-12-05): 0.37
	 * of a copy, where 64 columns in registers moved 0.23 and 32 columns in
	 * registers 0.32. */
	if (!s->pos[KGEN_KEY_lanes].line) {
		s->lanes = 128 / s->load_width > 1 ? 128 / s->load_width : 1;
		if (s->lanes < s->threads / 32)
			s->lanes = s->threads / 32;
	}
	/* The tile by default: for 4- and 8-byte elements 12 rows a thread in
	 * registers (tiles of 384 rows of 32 f32 columns): with the bands side
	 * by side, 2^20 x 64 and 2^20 x 1024 f32 at 0.56 and 0.78 of a copy on
	 * an H100, where 8 rows staged in shared memory gave 0.45 and 0.63 and
	 * 8 in registers 0.45 and 0.69 (bench/results/nvidia-h100/
	 * 2026-12-05-scan-cols-interleave); for narrower elements, or where
	 * staging: smem is asked for, 8 rows (64 bf16 columns a band: 12 rows
	 * in registers would take 216 of a thread's registers).  staging: smem
	 * wherever the tile fits, but for the default tile of wider elements. */
	wide_default = s->r.dtype->size >= 4 && s->items_per_thread < 0 &&
	               !(s->pos[KGEN_KEY_staging].line && s->staging == KGEN_STAGING_SMEM);
	if (s->items_per_thread < 0)
		s->items_per_thread = wide_default ? 12 : 8;
	if (!s->pos[KGEN_KEY_staging].line) {
		s->staging = KGEN_STAGING_SMEM;
		if (wide_default || s->lanes * s->load_width % 16 || smem_bytes(s) > 48 * 1024)
			s->staging = KGEN_STAGING_NONE;
	}
	if (s->staging == KGEN_STAGING_SMEM && s->lanes * s->load_width % 16)
		return ERR(staging, "staging: smem copies each row of the tile's band whole, lanes %lld x load_width %lld "
		           "bytes, which is not a multiple of 16 bytes: use more lanes or a wider load", s->lanes,
		           s->load_width);
	if (s->mm_blocks_per_sm && s->staging != KGEN_STAGING_SMEM)
		return ERR(mm_blocks_per_sm, "blocks_per_sm is the launch bounds of staging: smem and ring, whose tiles "
		           "are in shared memory; staging: none keeps them in registers as ptxas sees fit: drop it");
	if ((st = check_tile_threads(s, err)))
		return st;
	if (s->threads / s->lanes > 32)
		return ERR(lanes, "threads %lld / lanes %lld makes %lld row groups, whose totals a warp's lanes scan: at "
		           "most 32; use lanes %lld or more", s->threads, s->lanes, s->threads / s->lanes, s->threads / 32);
	cols = s->lanes * vec;
	if (cols % warps) {
		long long m = 1;
		while (m * vec % warps)
			m++;
		return ERR(lanes, "a tile's %lld columns (lanes %lld x %lld elements a load) do not share evenly among the "
		           "look-backs of its %lld warps: use lanes a multiple of %lld", cols, s->lanes, vec, warps, m);
	}
	if (cols / warps > 16)  /* a warp's words are registers: 16 columns of 16 bytes, 64 registers a lane */
		return ERR(lanes, "a tile's %lld columns (lanes %lld x %lld elements a load) give each of its %lld warps %lld "
		           "to look back on, at most 16 (their status words are a lane's registers): use lanes %lld or fewer",
		           cols, s->lanes, vec, warps, cols / warps, 16 * warps / vec > 0 ? 16 * warps / vec : 1);
	if (column_sums_bytes(s) > 48 * 1024)
		return ERR(threads, "the totals of %lld row groups of %lld columns in %s take %lld bytes of shared memory, "
		           "over the 48 KB a block gets: use fewer threads or lanes", s->threads / s->lanes, cols,
		           s->r.acc->name, column_sums_bytes(s));
	if (smem_bytes(s) > 48 * 1024)  /* staging: smem's tile */
		return ERR(items_per_thread, "a tile of %llu rows of %lld columns in %s with the totals of its %lld row "
		           "groups take %lld bytes of shared memory (staging: smem), over the 48 KB a block gets: use "
		           "fewer items_per_thread, threads or lanes", kgen_scan_tile(s), cols, s->r.dtype->name,
		           s->threads / s->lanes, smem_bytes(s));
	if (!s->name)
		snprintf(s->name_text, sizeof s->name_text, "scan_cols_%s_%s", kgen_ops[s->op].name, s->r.dtype->name);
	return KGEN_OK;
}

static kgen_status
check(struct kgen_spec *s, kgen_error *err)
{
	const char *op = kgen_ops[s->op].name;
	kgen_status st;

	if (s->threads < 0)
		s->threads = 256;
	if (!s->pos[KGEN_KEY_cluster_size].line)
		s->cluster_size = 1;  /* a block a tile (the key's default, 2, is kernel: rows') */
	if ((st = kgen_op_check(s, err)))
		return st;
	if (s->op == KGEN_OP_CUSTOM && strcmp(kgen_spec_expr_text(s, KGEN_KEY_post), "a") != 0)
		return kgen_spec_error(s, KGEN_KEY_post, 1, err, "post is the last step of a whole reduction: a scan "
		                       "stores each prefix as it is; drop it");
	if (s->axis == KGEN_AXIS_COLS)
		return check_columns(s, err);
	if (!s->pos[KGEN_KEY_block_scan].line && s->scan_strategy == KGEN_SCAN_STRATEGY_LOOKBACK)
		s->block_scan = KGEN_BS_SEGMENTS;  /* the look-back's default (H200, 2^28 f32: 0.86 of a copy against warps' 0.77) */
	if (s->items_per_thread < 0) {  /* 128 bytes of accumulators a thread: 32 x 256 f32 a tile (H200, 2026-12-02) */
		long long bytes = s->r.acc_bytes;
		if (s->block_scan == KGEN_BS_SEGMENTS && s->r.dtype->size > bytes)
			bytes = s->r.dtype->size;  /* segments keeps the elements: 128 bytes of them where they are wider */
		s->items_per_thread = 128 / bytes;
	}
	if ((st = kgen_check_loads(s, err)))
		return st;
	if (s->threads % 32)
		return ERR(threads, "threads %lld is not a multiple of the warp size, 32", s->threads);
	KGEN_ASSERT(s->threads / 32 <= 32);  /* the key's range: warp 0 scans the warp totals */
	if (s->block_scan == KGEN_BS_SEGMENTS && s->scan_strategy != KGEN_SCAN_STRATEGY_LOOKBACK)
		return ERR(block_scan, "block_scan: segments is the look-back's (a tile a block); strategy: %s walks its "
		           "tiles in one block: use warps", kgen_scan_strategies[s->scan_strategy].name);
	if (s->block_scan == KGEN_BS_BLELLOCH && !kgen_is_pow2(s->threads))
		return ERR(block_scan, "block_scan: blelloch halves a tree of the threads' totals: threads %lld is not a "
		           "power of two", s->threads);
	if (smem_bytes(s) > 48 * 1024)
		return ERR(items_per_thread, "a tile of %lld x %lld %s %s, with the block scan's take %lld bytes of "
		           "shared memory, over the 48 KB a block gets: use fewer threads or items_per_thread", s->threads,
		           s->items_per_thread, s->block_scan == KGEN_BS_SEGMENTS ? s->r.dtype->name : s->r.acc->name,
		           s->block_scan == KGEN_BS_SEGMENTS ? "elements" : "accumulators", smem_bytes(s));
	if (!s->name)
		snprintf(s->name_text, sizeof s->name_text, "scan_%s_%s", op, s->r.dtype->name);
	return KGEN_OK;
}

/* ---- the launch contract ---- */

static void
contract(const struct kgen_spec *s, struct kgen_contract *p)
{
	unsigned long long tile = kgen_scan_tile(s);
	const char *mode = kgen_scan_modes[s->scan_mode].name;

	memset(p, 0, sizeof *p);
	kgen_contract_printf(p->title, sizeof p->title, "the %s %s scan of %s", mode, kgen_ops[s->op].name,
	                     s->r.dtype->name);
	kgen_contract_printf(p->heading, sizeof p->heading, "Kernel (extern \"C\"), for rows of n elements (a vector: one):");
	if (s->scan_strategy == KGEN_SCAN_STRATEGY_BLOCK) {
		kgen_contract_step(p, "", "in, out, n, in_pitch, out_pitch", "(1, rows)", s->threads);
		kgen_contract_note(p, "// A block a row (in_pitch and out_pitch elements apart) walks its tiles of %llu elements\n"
		                   "// in order; rows at most %llu a launch (kgen_scan() launches more in parts, in and out\n"
		                   "// moved on by a part's rows).  Scratch: none.\n", tile, KGEN_SCAN_GRID_ROWS);
	} else if (s->axis == KGEN_AXIS_COLS && s->staging == KGEN_STAGING_RING) {
		struct kgen_step *st;
		kgen_contract_printf(p->heading, sizeof p->heading, "Kernel (extern \"C\"), down each column of a rows x cols matrix:");
		st = kgen_contract_step(p, "", "in, out, rows, cols, in_pitch, out_pitch, scratch, band_scratch, in_map, mapped",
		                        "(blocks, bands)", s->threads);
		st->dynamic_smem = kgen_scan_ring_smem(s);
		kgen_contract_printf(st->note, sizeof st->note, "(dynamic shared memory:\n"
		                     "//   raise CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES first)");
		kgen_contract_note(p, "// where bands = ceil(cols / %llu), a band of %llu columns, and blocks its blocks: every block of\n"
		                   "// the grid resident at once (blocks x bands at most the SMs times the kernel's occupancy), or\n"
		                   "// blocks = 1 (each block walks its band alone).  Block b of a band takes its tiles of %llu rows\n"
		                   "// b, b + blocks, ...  Scratch (blocks > 1), 16-byte aligned: a 16-byte header (the launches done\n"
		                   "// on it), then each band's band_scratch bytes: %llu rounds of a 16-byte status word a column of\n"
		                   "// each block and of each group of m blocks (m the least with m * m >= blocks); zeros before\n"
		                   "// the first launch, no clearing between launches, one launch at a time.\n",
		                   kgen_scan_tile_cols(s), kgen_scan_tile_cols(s), kgen_scan_tile(s), KGEN_SCAN_RING_ROUNDS);
		if (kgen_scan_ring_box_rows(s))
			kgen_contract_note(p, "// in_map (mapped 1): in's tensor map, cols x rows of its type's size, rows in_pitch apart,\n"
			                   "// box %llu x %lld, no swizzle, zeros outside; mapped 0: each row copied (in_map unread).\n",
			                   kgen_scan_tile_cols(s), kgen_scan_ring_box_rows(s));
		else
			kgen_contract_note(p, "// in_map, mapped: unused (a tile is not whole boxes): pass mapped 0.\n");
		kgen_contract_note(p, "// out[r][c] %s (out_dtype %s); out may be in\n"
		                   "// (the same type and pitch) but no other part of it.\n",
		                   s->scan_mode == KGEN_SCAN_INCLUSIVE ? "combines in[0][c] to in[r][c]"
		                                                        : "combines in[0][c] to in[r - 1][c]; out[0][c] is the identity",
		                   s->r.out->name);
		return;
	} else if (s->axis == KGEN_AXIS_COLS) {
		kgen_contract_printf(p->heading, sizeof p->heading, "Kernel (extern \"C\"), down each column of a rows x cols matrix:");
		kgen_contract_step(p, "", "in, out, rows, cols, in_pitch, out_pitch, scratch, band_scratch", "(tiles, bands)",
		                   s->threads);
		kgen_contract_note(p, "// where tiles = ceil(rows / %llu) and bands = ceil(cols / %llu): a block a tile of %llu rows of a\n"
		                   "// band of %llu columns (rows in_pitch and out_pitch elements apart).  Scratch, 16-byte aligned:\n"
		                   "// a 16-byte header (the launches done on it), then each band's band_scratch bytes: a 16-byte\n"
		                   "// status word a column of a tile, then one a column of a group of %lld tiles; zeros before\n"
		                   "// the first launch, no clearing between launches (each counts itself in the header, a CUDA\n"
		                   "// graph's replays too), one launch at a time.\n",
		                   tile, kgen_scan_tile_cols(s), tile, kgen_scan_tile_cols(s), s->lookback_group);
		if (s->cluster_size > 1)
			kgen_contract_note(p, "// cluster_size %lld: the grid's x is tiles rounded up to a multiple of %lld (clusters of as\n"
			                   "// many blocks; a tile past the last reads and writes nothing).\n",
			                   s->cluster_size, s->cluster_size);
		kgen_contract_note(p, "// out[r][c] %s (out_dtype %s); out may be in\n"
		                   "// (the same type and pitch) but no other part of it.\n",
		                   s->scan_mode == KGEN_SCAN_INCLUSIVE ? "combines in[0][c] to in[r][c]"
		                                                        : "combines in[0][c] to in[r - 1][c]; out[0][c] is the identity",
		                   s->r.out->name);
		return;
	} else {
		kgen_contract_step(p, "", "in, out, n, in_pitch, out_pitch, scratch, row_scratch", "(tiles, rows)",
		                   s->threads);
		kgen_contract_note(p, "// where tiles = ceil(n / %llu), a block a tile of a row (rows in_pitch and out_pitch elements\n"
		                   "// apart).  Scratch, 16-byte aligned: a 16-byte header (the launches done on it), then each\n"
		                   "// row's row_scratch bytes: a 16-byte status word a tile, then one a group of %lld tiles;\n"
		                   "// zeros before the first launch, no clearing between launches whatever their rows and n\n"
		                   "// (each counts itself in the header, a CUDA graph's replays too), one launch at a time.\n"
		                   "// rows at most %llu a launch: kgen_scan() launches more in parts (in and out moved on by a\n"
		                   "// part's rows), on the same scratch.\n",
		                   tile, s->lookback_group, KGEN_SCAN_GRID_ROWS);
	}
	kgen_contract_note(p, "// out[i] %s (out_dtype %s); out may be in (the same type) but no other part of it.\n",
	                   s->scan_mode == KGEN_SCAN_INCLUSIVE ? "combines in[0] to in[i]"
	                                                        : "combines in[0] to in[i - 1]; out[0] is the identity",
	                   s->r.out->name);
}

/* ---- the C ---- */

static kgen_status
emit(const struct kgen_spec *s, const char *header, strbuf *out, kgen_error *err)
{
	struct tpl_args file, k;
	kgen_status st = KGEN_OK;
	int inclusive = s->scan_mode == KGEN_SCAN_INCLUSIVE, columns = s->axis == KGEN_AXIS_COLS;
	int segments = !columns && s->block_scan == KGEN_BS_SEGMENTS;
	int staged = columns && s->staging == KGEN_STAGING_SMEM;  /* the column scan's tile in shared memory */
	int ring = columns && s->staging == KGEN_STAGING_RING;    /* its tiles through a ring of stages */
	int clustered = columns && s->cluster_size > 1;          /* its tiles in clusters of blocks */
	/* Elements a load and results a store: load_width bytes of each, the
	 * stores no more results than a load's elements (items_per_thread is
	 * a multiple of those, check()), at least one. */
	long long vec = s->load_width / s->r.dtype->size;
	long long out_vec = s->load_width / s->r.out->size;

	out_vec = out_vec < 1 ? 1 : out_vec > vec ? vec : out_vec;

	tpl_init(&file);
	tpl_init(&k);
	tpl_set(&file, "header", "%s", header);
	tpl_set(&file, "dtype", "%s", s->r.dtype->name);
	tpl_set(&file, "acc_dtype", "%s", s->r.acc->name);
	tpl_set(&file, "t_ctype", "%s", s->r.dtype->ctype);
	tpl_set(&file, "threads", "%lld", s->threads);
	tpl_set(&file, "items", "%lld", s->items_per_thread);
	tpl_set(&file, "load_width", "%lld", s->load_width);
	tpl_set(&file, "vec", "%lld", vec);
	tpl_show(&file, "segments", segments);
	tpl_show(&file, "columns", columns);
	tpl_show(&file, "tile_words", !segments && !columns);  /* a row's tile in shared memory as accumulators */
	tpl_show(&file, "smem_tile", segments || staged);  /* a tile copied whole: the launch bounds' blocks, the TMA */
	tpl_show(&file, "segments_blocks", segments);
	tpl_show(&file, "staged", staged);
	if (staged && s->mm_blocks_per_sm)
		tpl_set(&k, "most_blocks", "%lld;  // blocks_per_sm", s->mm_blocks_per_sm);
	else if (staged)
		tpl_set(&k, "most_blocks", "%lld;  // what 40 + 5 K registers a thread leave (K twice for 8-byte accumulators)",
		        staged_most_blocks(s));
	tpl_show(&file, "sm90_helpers", segments || staged || clustered || ring);
	if (segments || staged || clustered || ring) {  /* sm_90's helpers: the TMA's copies, a cluster's barrier and memory */
		struct kgen_ptx ptx = { 0 };
		if (segments || staged || ring)
			ptx.uses |= KGEN_PTX_BIT(smem) | KGEN_PTX_BIT(mbarrier_init) | KGEN_PTX_BIT(fence_mbarrier_init) |
			            KGEN_PTX_BIT(mbarrier_arrive_expect_tx) | KGEN_PTX_BIT(mbarrier_wait) | KGEN_PTX_BIT(bulk_load);
		if (ring)  /* a stage whose tile the threads read themselves completes its phase at once; boxes of a map */
			ptx.uses |= KGEN_PTX_BIT(mbarrier_arrive) | KGEN_PTX_BIT(tensor_map) | KGEN_PTX_BIT(tma_load_2d);
		if (clustered)
			ptx.uses |= KGEN_PTX_BIT(smem) | KGEN_PTX_BIT(cluster_sync) | KGEN_PTX_BIT(dsmem_load_u64) |
			            KGEN_PTX_BIT(dsmem_store_u64);
		tpl_set(&file, "sm90_why", "%s%s%s", ring ? "the TMA unit fills the ring's stages (issue)"
		        : segments || staged ? "the TMA unit reads a whole tile (read_tile)" : "",
		        (segments || staged) && clustered ? "; " : "",
		        clustered ? "a cluster's blocks meet (cluster_look_back)" : "");
		TRY(kgen_ptx_render_into(&file, "ptx", &ptx, err));
	}
	if (segments || staged) {
		long long blocks = segment_blocks(s);
		if (staged && blocks > staged_most_blocks(s))  /* columns.cu's MOST_BLOCKS */
			blocks = staged_most_blocks(s) > 1 ? staged_most_blocks(s) : 1;
		tpl_set(&file, "blocks", "%lld", blocks);
		tpl_set(&file, "smem", "%lld", smem_bytes(s));
	} else if (!columns) {
		tpl_set(&file, "out_vec", "%lld", out_vec);
		tpl_set(&file, "mode", "%s", inclusive ? "inclusive, each element's own included"
		                                       : "exclusive, each element's own left out");
	}
	if (s->scan_strategy == KGEN_SCAN_STRATEGY_LOOKBACK) {
		struct tpl_args status;
		tpl_init(&status);
		tpl_set(&status, "group", "%lld", s->lookback_group);
		tpl_show(&status, "tiles", !ring);  /* the look-back over tiles' words (ring: rounds of its own) */
		st = tpl_render_into(&k, "status", "scan/status.cu", &status, err);
		tpl_free(&status);
		if (st)
			goto out;
		tpl_show(&k, "inclusive", inclusive);
		if (ring) {
			tpl_set(&k, "lanes", "%lld", s->lanes);
			tpl_set(&k, "stages", "%lld", s->mm_stages);
			tpl_set(&k, "blocks", "%lld", s->mm_blocks_per_sm);
			tpl_set(&k, "rounds", "%llu", KGEN_SCAN_RING_ROUNDS);
			tpl_set(&k, "box_rows", "%lld", kgen_scan_ring_box_rows(s));
		} else if (columns) {
			tpl_set(&k, "lanes", "%lld", s->lanes);
			tpl_show(&k, "staged", staged);
			tpl_set(&k, "bounds", "%s", staged ? "THREADS, BLOCKS" : "THREADS");  /* BLOCKS: file.cu */
			tpl_show(&k, "cluster", clustered);
			tpl_set(&k, "cluster_size", "%lld", s->cluster_size);
			tpl_set(&k, "cluster_dims", "%s", clustered ? "__cluster_dims__(CLUSTER, 1, 1) " : "");
			tpl_set(&k, "chain", "%s", clustered ? "supers" : "tiles");  /* the look-back's links */
		} else {
			tpl_show(&k, "segments", segments);
			if (segments)  /* every op but custom's combine commutes (docs/spec.md: associative, a the earlier) */
				tpl_show(&k, "commutes", s->op != KGEN_OP_CUSTOM);
		}
	}
	tpl_show(&file, "inclusive", inclusive);
	/* the warps' block scan and the look-back scan across a warp's lanes */
	tpl_show(&file, "warp_inclusive", !ring && (s->block_scan == KGEN_BS_WARPS || s->scan_strategy == KGEN_SCAN_STRATEGY_LOOKBACK));
	TRY(kgen_op_render(s, KGEN_OP_STORE, &file, err));
	{
		static const char *const block_scans[KGEN_BS_COUNT] = {
			[KGEN_BS_HILLIS_STEELE] = "scan/block_hillis_steele.cu",
			[KGEN_BS_BLELLOCH] = "scan/block_blelloch.cu",
			[KGEN_BS_WARPS] = "scan/block_warps.cu",
		};
		struct tpl_args none;
		tpl_init(&none);
		if (segments || columns)  /* each warp scans its segment (lookback.cu), or its columns (columns.cu) */
			tpl_set(&file, "block_scan", "%s", "");
		else
			st = tpl_render_into(&file, "block_scan", block_scans[s->block_scan], &none, err);
		tpl_free(&none);
		if (st)
			goto out;
	}
	tpl_set(&k, "name", "%s", kgen_spec_kernel_name(s));
	TRY(tpl_render_into(&file, "kernel", s->scan_strategy == KGEN_SCAN_STRATEGY_BLOCK ? "scan/block.cu"
	                                     : ring                                       ? "scan/columns_ring.cu"
	                                     : columns                                    ? "scan/columns.cu"
	                                                                                  : "scan/lookback.cu", &k, err));
	st = tpl_render(out, "scan/file.cu", &file, err);
out:
	tpl_free(&file);
	tpl_free(&k);
	return st;
}

/* ---- the family ---- */

/* Derived here: block_scan (segments with strategy: lookback, warps with
 * block), lanes (axis: cols: a 128-byte band), items_per_thread */
static const struct kgen_key_default defaults[] = {
	{ KGEN_KEY_block_scan, "" },
	{ KGEN_KEY_lanes, "" },
	{ KGEN_KEY_cluster_size, "1" },
	{ KGEN_KEY_staging, "" },   /* smem or none, by the element's size */
	{ KGEN_KEY_mm_stages, "" },  /* staging: ring's 3; none elsewhere */
	{ KGEN_KEY_COUNT, NULL },
};

/* The ops a scan takes (kgen keys scan lists these) */
#define ALL_OPS ((1ull << KGEN_OP_COUNT) - 1)

static const struct kgen_only_with only_with[] = {
	{ KGEN_KEY_op, KGEN_KEY_op, ALL_OPS & ~(KGEN_BIT(KGEN_OP_ARGMIN) | KGEN_BIT(KGEN_OP_ARGMAX)),
	  "op: {v} keeps a value and its index: a scan of it (torch.cummax) is not there yet; use max or min" },
	{ KGEN_KEY_op, KGEN_KEY_op, ALL_OPS & ~(KGEN_BIT(KGEN_OP_MEAN) | KGEN_BIT(KGEN_OP_NORM2)),
	  "op: {v} has a last step over the whole vector, which a prefix has not: scan with sum or sumsq and divide (or "
	  "take the root) yourself" },
	KGEN_OP_ONLY_WITH,
	{ KGEN_KEY_lookback_group, KGEN_KEY_scan_strategy, KGEN_BIT(KGEN_SCAN_STRATEGY_LOOKBACK),
	  "lookback_group is the look-back's, and strategy: {w} has none: drop it" },
	{ KGEN_KEY_block_scan, KGEN_KEY_axis, KGEN_BIT(KGEN_AXIS_ROWS),
	  "block_scan is how a tile of a row is scanned; axis: {w} scans each thread's rows in registers and the row "
	  "groups across a warp: drop it" },
	{ KGEN_KEY_mm_blocks_per_sm, KGEN_KEY_axis, KGEN_BIT(KGEN_AXIS_COLS),
	  "blocks_per_sm bounds the registers of the column scan's staging: smem, and axis: {w} scans rows: drop it" },
	{ KGEN_KEY_mm_blocks_per_sm, KGEN_KEY_staging, KGEN_BIT(KGEN_STAGING_SMEM) | KGEN_BIT(KGEN_STAGING_RING),
	  "blocks_per_sm is the launch bounds of staging: smem and ring, whose tiles are in shared memory; staging: {w} "
	  "keeps them in registers as ptxas sees fit: drop it" },
	{ KGEN_KEY_lookback_group, KGEN_KEY_staging, KGEN_BIT(KGEN_STAGING_NONE) | KGEN_BIT(KGEN_STAGING_SMEM),
	  "lookback_group is the tiles a group of the look-back over tiles; staging: {w} groups its blocks by how many "
	  "the GPU holds at once: drop it" },
	{ KGEN_KEY_mm_stages, KGEN_KEY_axis, KGEN_BIT(KGEN_AXIS_COLS),
	  "stages is the column scan's staging: ring's tiles in flight, and axis: {w} scans rows: drop it" },
	/* (staging's own default, smem or none by the type, is resolved after these rules: not named here) */
	{ KGEN_KEY_mm_stages, KGEN_KEY_staging, KGEN_BIT(KGEN_STAGING_RING),
	  "stages is staging: ring's tiles in flight, and this spec's staging is no ring: write staging: ring, or "
	  "drop stages" },
	/* what the family takes of stages' range (kgen keys scan lists it), after where stages applies at all */
	{ KGEN_KEY_mm_stages, KGEN_KEY_mm_stages, KGEN_BITS_FROM_TO(2, 16),
	  "staging: ring keeps tiles in flight while a block waits for what comes before its tile: stages must be 2 to "
	  "16, not {v}" },
	{ KGEN_KEY_staging, KGEN_KEY_axis, KGEN_BIT(KGEN_AXIS_COLS),
	  "staging is where the column scan's threads read a tile's rows from, and axis: {w} scans rows: drop it" },
	{ KGEN_KEY_lanes, KGEN_KEY_axis, KGEN_BIT(KGEN_AXIS_COLS),
	  "lanes is the column scan's threads across a tile's columns, and axis: {w} scans rows: drop it" },
	{ KGEN_KEY_cluster_size, KGEN_KEY_axis, KGEN_BIT(KGEN_AXIS_COLS),
	  "cluster_size is the column scan's tiles a cluster of blocks, and axis: {w} scans rows: drop it" },
	{ KGEN_KEY_cluster_size, KGEN_KEY_cluster_size, KGEN_BIT(1) | KGEN_BIT(2) | KGEN_BIT(4) | KGEN_BIT(8),
	  "cluster_size {v}: 1 (no cluster), or a cluster of 2, 4 or 8 blocks (the portable sizes)" },
	{ KGEN_KEY_COUNT, KGEN_KEY_COUNT, 0, NULL },
};

static const enum kgen_key keys[] = {
	KGEN_KEY_kernel, KGEN_KEY_name, KGEN_KEY_op, KGEN_KEY_dtype, KGEN_KEY_acc_dtype, KGEN_KEY_scan_mode,
	KGEN_KEY_axis, KGEN_KEY_scan_strategy, KGEN_KEY_block_scan, KGEN_KEY_threads, KGEN_KEY_items_per_thread,
	KGEN_KEY_load_width, KGEN_KEY_lanes, KGEN_KEY_staging, KGEN_KEY_mm_stages, KGEN_KEY_mm_blocks_per_sm,
	KGEN_KEY_lookback_group,
	KGEN_KEY_cluster_size,
	KGEN_KEY_out_dtype, KGEN_KEY_map, KGEN_KEY_combine, KGEN_KEY_identity, KGEN_KEY_post,  /* KGEN_OP_KEYS but nan */
	KGEN_KEY_COUNT,
};

/* What a spec computes (family.h): plans' entries and tunings' points agree on it. */
static const enum kgen_key computes[] = {
	KGEN_KEY_op, KGEN_KEY_dtype, KGEN_KEY_acc_dtype, KGEN_KEY_out_dtype, KGEN_KEY_map, KGEN_KEY_combine,
	KGEN_KEY_identity, KGEN_KEY_scan_mode, KGEN_KEY_axis, KGEN_KEY_COUNT,
};

/* The GPUs a key value needs (family.h). */
static const struct kgen_arch_need arch_needs[] = {
	{ KGEN_KEY_cluster_size, KGEN_BIT(2) | KGEN_BIT(4) | KGEN_BIT(8), 90,
	  "thread block clusters, distributed shared memory", "cluster_size: 1", 0 },
	{ KGEN_KEY_staging, KGEN_BIT(KGEN_STAGING_RING), 90, "TMA bulk copies into a ring of stages, mbarriers",
	  "staging: smem", 0 },
	{ .min_sm = 0 },
};

const struct kgen_family kgen_family_scan = {
	.name = "scan",
	.size = KGEN_SIZE_N,
	.keys = keys,
	.computes = computes,
	.only_with = only_with,
	.defaults = defaults,
	.arch_needs = arch_needs,
	.check = check,
	.contract = contract,
	.emit = emit,
};
