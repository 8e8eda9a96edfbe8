/*
 * scan_test.c - the scan family (`kernel: scan`): its defaults, every rule
 * with its message and place, the contract each strategy states, the
 * look-back's scratch (gen/scan.h, which the launcher allocates by) and
 * what each variant's source holds.  NVRTC compiles a sample of the
 * family's specs in tests/sample_test and its shipped specs in
 * tests/nvrtc_test.sh.
 */
#include "config.h"
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kgen.h"
#include "gen/scan.h"
#include "gen/util.h"
#include "spec_assert.h"

START_TEST(scan_minimal_spec_gets_every_default)
{
	kgen_spec *spec = load("kernel: scan\n");
	char *yaml = dump(spec);

	ck_assert_str_eq(yaml,
		"kernel: scan\n"
		"name: scan_sum_f32\n"
		"op: sum\n"
		"dtype: f32\n"
		"acc_dtype: f32\n"
		"threads: 256\n"
		"items_per_thread: 32\n"
		"load_width: 16\n"
		"axis: rows\n"
		"lanes: 32\n"  /* a dump has the keys that do not apply too */
		"out_dtype: f32\n"
		"staging: smem\n"
		"stages: 1\n"  /* staging: ring's: 3 there */
		"blocks_per_sm: 0\n"
		"cluster_size: 1\n"
		"mode: inclusive\n"
		"strategy: lookback\n"
		"block_scan: segments\n"
		"lookback_group: 32\n");
	free(yaml);
	kgen_spec_free(spec);
	/* Down the columns: bands of 128 bytes (8 lanes of 8 bf16: 64 columns), 8 rows a thread, the tile in
	 * shared memory (staging: smem, where it fits); no block_scan. */
	spec = load("kernel: scan\naxis: cols\ndtype: bf16\n");
	yaml = dump(spec);
	ck_assert_str_eq(yaml,
		"kernel: scan\n"
		"name: scan_cols_sum_bf16\n"
		"op: sum\n"
		"dtype: bf16\n"
		"acc_dtype: f32\n"
		"threads: 256\n"
		"items_per_thread: 8\n"
		"load_width: 16\n"
		"axis: cols\n"
		"lanes: 8\n"
		"out_dtype: f32\n"
		"staging: smem\n"
		"stages: 1\n"
		"blocks_per_sm: 0\n"
		"cluster_size: 1\n"
		"mode: inclusive\n"
		"strategy: lookback\n"
		"block_scan: warps\n"
		"lookback_group: 32\n");
	ck_assert_uint_eq(kgen_scan_tile(spec), 32 * 8);      /* rows a tile: 32 row groups of 8 */
	ck_assert_uint_eq(kgen_scan_tile_cols(spec), 8 * 8);  /* 8 lanes of 8 bf16 */
	free(yaml);
	kgen_spec_free(spec);
}
END_TEST

START_TEST(scan_types_follow_the_op)
{
	kgen_spec *spec = load("kernel: scan\ndtype: bf16\n");

	ASSERT_FIELD(spec, "acc_dtype", "f32");
	ASSERT_FIELD(spec, "out_dtype", "f32");
	ASSERT_FIELD(spec, "name", "scan_sum_bf16");
	kgen_spec_free(spec);
	spec = load("kernel: scan\ndtype: i32\nacc_dtype: i64\nmode: exclusive\n");
	ASSERT_FIELD(spec, "out_dtype", "i64");
	kgen_spec_free(spec);
	spec = load("kernel: scan\nop: max\ndtype: f16\nout_dtype: f16\n");
	ASSERT_FIELD(spec, "acc_dtype", "f32");
	ASSERT_FIELD(spec, "name", "scan_max_f16");
	kgen_spec_free(spec);
}
END_TEST

static const struct refusal refusals[] = {
	{ "pairs_are_not_scanned", "kernel: scan\nop: argmax\n",
	  "op: argmax keeps a value and its index: a scan of it (torch.cummax) is not there yet; use max or min", 2, 5,
	  "op: argmax" },
	{ "a_last_step_is_not_scanned", "kernel: scan\nop: mean\n",
	  "op: mean has a last step over the whole vector, which a prefix has not: scan with sum or sumsq and divide (or "
	  "take the root) yourself", 2, 5, "op: mean" },
	{ "a_last_step_is_not_scanned", "kernel: scan\nop: norm2\n",
	  "op: norm2 has a last step over the whole vector, which a prefix has not: scan with sum or sumsq and divide (or "
	  "take the root) yourself", 2, 5, "op: norm2" },
	{ "post_is_not_scanned", "kernel: scan\nop: custom\ncombine: a + b\nidentity: 0\npost: a * 2\n",
	  "post is the last step of a whole reduction: a scan stores each prefix as it is; drop it", 5, 7, "post: a * 2" },
	{ "custom_needs_combine", "kernel: scan\nop: custom\nidentity: 0\n",
	  "op: custom needs combine, an expression of a and b (a + b, fmaxf(a, b), ...)", 2, 5, "op: custom" },
	{ "nan_is_argmaxs", "kernel: scan\nnan: ignore\n",  /* a scan has no argmin or argmax: no nan key */
	  "nan does not apply to kernel: scan", 2, 1, "nan: ignore" },
	{ "threads_a_multiple_of_32", "kernel: scan\nthreads: 100\n",
	  "threads 100 is not a multiple of the warp size, 32", 2, 10, "threads: 100" },
	{ "a_tile_fits_shared_memory", "kernel: scan\ndtype: f64\nblock_scan: warps\nthreads: 1024\nitems_per_thread: 8\n",
	  "a tile of 1024 x 8 f64 accumulators, with the block scan's take 67848 bytes of shared memory, "
	  "over the 48 KB a block gets: use fewer threads or items_per_thread", 5, 19, "items_per_thread: 8" },
	{ "a_tile_fits_shared_memory", "kernel: scan\nblock_scan: hillis_steele\nthreads: 1024\nitems_per_thread: 12\n",
	  "a tile of 1024 x 12 f32 accumulators, with the block scan's take 58884 bytes of shared memory, "
	  "over the 48 KB a block gets: use fewer threads or items_per_thread", 4, 19, "items_per_thread: 12" },
	{ "a_group_is_the_look_back_s", "kernel: scan\nstrategy: block\nlookback_group: 8\n",
	  "lookback_group is the look-back's, and strategy: block has none: drop it", 3, 17, "lookback_group: 8" },
	{ "items_are_whole_loads", "kernel: scan\nitems_per_thread: 6\n",
	  "items_per_thread 6 is not a multiple of the 4 elements of one 16-byte load: use 4, 8, ...", 2, 19,
	  "items_per_thread: 6" },
	{ "a_load_is_whole_elements", "kernel: scan\ndtype: f64\nload_width: 4\n",
	  "load_width 4 is not a multiple of the element size (8 bytes for f64): use 8, 16, ... up to 32", 3, 13,
	  "load_width: 4" },
	{ "segments_are_the_look_back_s", "kernel: scan\nstrategy: block\nblock_scan: segments\n",
	  "block_scan: segments is the look-back's (a tile a block); strategy: block walks its tiles in one block: use "
	  "warps", 3, 13, "block_scan: segments" },
	{ "a_tile_fits_shared_memory", "kernel: scan\nblock_scan: segments\ndtype: f64\nitems_per_thread: 32\n",
	  "a tile of 256 x 32 f64 elements, with the block scan's take 65632 bytes of shared memory, over the 48 KB a "
	  "block gets: use fewer threads or items_per_thread", 4, 19, "items_per_thread: 32" },
	{ "blelloch_halves_a_tree", "kernel: scan\nblock_scan: blelloch\nthreads: 96\n",
	  "block_scan: blelloch halves a tree of the threads' totals: threads 96 is not a power of two", 2, 13,
	  "block_scan: blelloch" },
	{ "sixteen_bit_accumulators", "kernel: scan\ndtype: f16\nacc_dtype: f16\n",
	  "acc_dtype f16: 16-bit accumulators lose precision and have no atomics here; accumulate in f32 or f64", 3, 12,
	  "acc_dtype: f16" },
	{ "other_families_keys", "kernel: scan\ntile_m: 4\n", "tile_m does not apply to kernel: scan", 2, 1, "tile_m: 4" },
	{ "lanes_of_rows", "kernel: scan\nlanes: 4\n",
	  "lanes is the column scan's threads across a tile's columns, and axis: rows scans rows: drop it", 2, 8,
	  "lanes: 4" },
	{ "block_scan_of_columns", "kernel: scan\naxis: cols\nblock_scan: warps\n",
	  "block_scan is how a tile of a row is scanned; axis: cols scans each thread's rows in registers and the row "
	  "groups across a warp: drop it", 3, 13, "block_scan: warps" },
	{ "columns_by_a_block", "kernel: scan\naxis: cols\nstrategy: block\n",
	  "axis: cols scans down the columns with the look-back over tiles of rows; strategy: block is not there for "
	  "columns yet: use lookback", 3, 11, "strategy: block" },
	{ "row_groups_of_a_warp", "kernel: scan\naxis: cols\nlanes: 4\n",
	  "threads 256 / lanes 4 makes 64 row groups, whose totals a warp's lanes scan: at most 32; use lanes 8 or more",
	  3, 8, "lanes: 4" },
	{ "lanes_of_threads", "kernel: scan\naxis: cols\nlanes: 48\n",
	  "lanes 48 does not divide threads 256: a tile's threads are lanes across its columns times row groups down its "
	  "rows", 3, 8, "lanes: 48" },
	{ "columns_of_a_warp", "kernel: scan\naxis: cols\nlanes: 64\n",
	  "a tile's 256 columns (lanes 64 x 4 elements a load) give each of its 8 warps 32 to look back on, at most 16 "
	  "(their status words are a lane's registers): use lanes 32 or fewer", 3, 8, "lanes: 64" },
	{ "columns_of_warps", "kernel: scan\naxis: cols\ndtype: f64\nthreads: 192\nlanes: 64\nload_width: 8\n",
	  "a tile's 64 columns (lanes 64 x 1 elements a load) do not share evenly among the look-backs of its 6 warps: "
	  "use lanes a multiple of 6", 5, 8, "lanes: 64" },
	{ "staging_of_rows", "kernel: scan\nstaging: smem\n",
	  "staging is where the column scan's threads read a tile's rows from, and axis: rows scans rows: drop it", 2,
	  10, "staging: smem" },
	{ "blocks_of_registers", "kernel: scan\naxis: cols\nstaging: none\nblocks_per_sm: 2\n",
	  "blocks_per_sm is the launch bounds of staging: smem and ring, whose tiles are in shared memory; staging: none "
	  "keeps them in registers as ptxas sees fit: drop it", 4, 16, "blocks_per_sm: 2" },
	{ "blocks_of_registers_by_default", "kernel: scan\naxis: cols\nblocks_per_sm: 2\n",  /* f32: staging none */
	  "blocks_per_sm is the launch bounds of staging: smem and ring, whose tiles are in shared memory; staging: none "
	  "keeps them in registers as ptxas sees fit: drop it", 3, 16, "blocks_per_sm: 2" },
	{ "rows_copied_whole", "kernel: scan\naxis: cols\nstaging: smem\ndtype: f64\nload_width: 8\nthreads: 32\nlanes: 1\n",
	  "staging: smem copies each row of the tile's band whole, lanes 1 x load_width 8 bytes, which is not a "
	  "multiple of 16 bytes: use more lanes or a wider load", 3, 10, "staging: smem" },
	{ "a_staged_tile_fits_shared_memory", "kernel: scan\naxis: cols\nstaging: smem\nitems_per_thread: 16\n",
	  "a tile of 512 rows of 32 columns in f32 with the totals of its 32 row groups take 69904 bytes of shared "
	  "memory (staging: smem), over the 48 KB a block gets: use fewer items_per_thread, threads or lanes", 4, 19,
	  "items_per_thread: 16" },
	{ "totals_before_the_staged_tile",
	  "kernel: scan\naxis: cols\nstaging: smem\ndtype: f16\nload_width: 32\nthreads: 1024\nlanes: 32\nitems_per_thread: 1\n",
	  "the totals of 32 row groups of 512 columns in f32 take 65672 bytes of shared memory, over the 48 KB a block "
	  "gets: use fewer threads or lanes", 6, 10, "threads: 1024" },
	{ "modes", "kernel: scan\nmode: both\n", "mode: unknown value 'both': expected inclusive or exclusive", 2, 7,
	  "mode: both" },
	{ "clusters_are_the_columns", "kernel: scan\ncluster_size: 2\n",
	  "cluster_size is the column scan's tiles a cluster of blocks, and axis: rows scans rows: drop it", 2, 15,
	  "cluster_size: 2" },
	{ "a_ring_keeps_tiles_in_flight", "kernel: scan\naxis: cols\nstaging: ring\nstages: 1\n",
	  "staging: ring keeps tiles in flight while a block waits for what comes before its tile: stages must be 2 to "
	  "16, not 1", 4, 9, "stages: 1" },
	{ "a_ring_has_no_clusters", "kernel: scan\naxis: cols\nstaging: ring\ncluster_size: 2\n",
	  "cluster_size is the look-back's clusters of tiles; staging: ring's blocks read one another's status words in "
	  "L2: drop it", 4, 15, "cluster_size: 2" },
	{ "a_ring_groups_its_blocks", "kernel: scan\naxis: cols\nstaging: ring\nlookback_group: 8\n",
	  "lookback_group is the tiles a group of the look-back over tiles; staging: ring groups its blocks by how many "
	  "the GPU holds at once: drop it", 4, 17, "lookback_group: 8" },
	{ "a_ring_fits_an_sm", "kernel: scan\naxis: cols\nstaging: ring\nitems_per_thread: 8\nblocks_per_sm: 3\n",
	  "blocks_per_sm 3: an SM holds 2 blocks of 256 threads with 98304 bytes of stages and 12672 of their own at most",
	  5, 16, "blocks_per_sm: 3" },
	{ "a_rings_default_tile_fits_one_block_an_sm", "kernel: scan\naxis: cols\nstaging: ring\nblocks_per_sm: 2\n",
	  "blocks_per_sm 2: an SM holds 1 block of 256 threads with 196608 bytes of stages and 12672 of their own at most",
	  4, 16, "blocks_per_sm: 2" },
	{ "a_ring_copies_whole_pieces", "kernel: scan\naxis: cols\nstaging: ring\nload_width: 4\nlanes: 2\n",
	  "staging: ring copies each row of a tile's band whole, 2 columns of 4 bytes, which is not a multiple of 16 "
	  "bytes: use more lanes or a wider load", 5, 8, "lanes: 2" },
	{ "a_ring_fits_a_block", "kernel: scan\naxis: cols\nstaging: ring\nitems_per_thread: 32\n",
	  "3 stages of 512 rows of 64 columns in f32 take 393216 bytes of shared memory with the block's own 12672, over "
	  "the 227 KB an sm_90 block gets: use fewer stages, items_per_thread, threads or lanes", 4, 19,
	  "items_per_thread: 32" },
	{ "stages_are_the_rings", "kernel: scan\naxis: cols\nstages: 3\n",
	  "stages is staging: ring's tiles in flight, and this spec's staging is no ring: write staging: ring, or drop "
	  "stages", 3, 9, "stages: 3" },
	{ "stages_apply_before_their_range", "kernel: scan\nstages: 1\n",  /* where stages applies is said first */
	  "stages is the column scan's staging: ring's tiles in flight, and axis: rows scans rows: drop it", 2, 9,
	  "stages: 1" },
	{ "stages_are_the_column_scans", "kernel: scan\nstages: 3\n",  /* rows: no staging at all */
	  "stages is the column scan's staging: ring's tiles in flight, and axis: rows scans rows: drop it", 2, 9,
	  "stages: 3" },
	{ "portable_clusters", "kernel: scan\naxis: cols\ncluster_size: 3\n",
	  "cluster_size 3: 1 (no cluster), or a cluster of 2, 4 or 8 blocks (the portable sizes)", 3, 15,
	  "cluster_size: 3" },
};

/* staging: ring's defaults: a band of 64 columns (16 lanes of 16-byte loads of f32, of 8-byte loads of bf16;
 * f64: 32 columns, 256 bytes), tiles of 256 rows (16 rows a thread of 256; 8 of 512; fewer where the stages
 * would not fit), 3 stages, 2 blocks an
 * SM where they fit (bf16), else 1 (f32's 64 KB tiles; bf16's band of 128 columns
 * where its loads are asked to be 16 bytes). */
START_TEST(a_ring_gets_its_defaults)
{
	kgen_spec *f32 = load("kernel: scan\naxis: cols\nstaging: ring\n");
	kgen_spec *f32_512 = load("kernel: scan\naxis: cols\nstaging: ring\nthreads: 512\n");
	kgen_spec *f32_4 = load("kernel: scan\naxis: cols\nstaging: ring\nstages: 4\n");
	kgen_spec *f32_8 = load("kernel: scan\naxis: cols\nstaging: ring\nstages: 8\n");
	kgen_spec *bf16 = load("kernel: scan\naxis: cols\nstaging: ring\ndtype: bf16\n");
	kgen_spec *bf16_wide = load("kernel: scan\naxis: cols\nstaging: ring\ndtype: bf16\nload_width: 16\n");
	kgen_spec *f64 = load("kernel: scan\naxis: cols\nstaging: ring\ndtype: f64\n");

	ASSERT_FIELD(f32, "lanes", "16");
	ASSERT_FIELD(f32, "items_per_thread", "16");
	ASSERT_FIELD(f32, "stages", "3");
	ASSERT_FIELD(f32, "blocks_per_sm", "1");
	ck_assert_uint_eq(kgen_scan_tile(f32), 256);
	ck_assert_uint_eq(kgen_scan_tile_cols(f32), 64);
	ck_assert_int_eq(kgen_scan_ring_smem(f32), 3 * 256 * 64 * 4);
	ck_assert_int_eq(kgen_scan_ring_box_rows(f32), 256);  /* a tile is one box of the input's tensor map */
	ASSERT_FIELD(f32_4, "items_per_thread", "8");  /* 4 stages of 256 rows would not fit: 128 */
	ASSERT_FIELD(f32_8, "items_per_thread", "4");  /* 8 stages: 64 */
	ASSERT_FIELD(f32_512, "items_per_thread", "8");
	ck_assert_uint_eq(kgen_scan_tile(f32_512), 256);
	ASSERT_FIELD(f32_512, "blocks_per_sm", "1");
	ASSERT_FIELD(bf16, "load_width", "8");
	ck_assert_uint_eq(kgen_scan_tile_cols(bf16), 64);
	ck_assert_uint_eq(kgen_scan_tile(bf16), 256);
	ASSERT_FIELD(bf16, "blocks_per_sm", "2");
	ck_assert_uint_eq(kgen_scan_tile_cols(bf16_wide), 128);
	ASSERT_FIELD(bf16_wide, "blocks_per_sm", "1");
	ASSERT_FIELD(f64, "load_width", "16");
	ck_assert_uint_eq(kgen_scan_tile_cols(f64), 32);
	/* a band's words: 8 rounds of a word a column for each block and each group; none for one block */
	ck_assert_uint_eq(kgen_scan_ring_band_scratch(f32, 1), 0);
	ck_assert_uint_eq(kgen_scan_ring_band_scratch(f32, 264), 8ull * (264 + 16) * 64 * 16);
	ck_assert_uint_eq(kgen_scan_ring_blocks(f32, 1, 1ull << 20, 264), 264);
	ck_assert_uint_eq(kgen_scan_ring_blocks(f32, 16, 1ull << 20, 264), 16);
	ck_assert_uint_eq(kgen_scan_ring_blocks(f32, 200, 1ull << 20, 264), 1);   /* the bands alone fill it */
	ck_assert_uint_eq(kgen_scan_ring_blocks(f32, 1, 600, 264), 3);            /* no more than the tiles */
	ck_assert_uint_eq(kgen_scan_ring_blocks(f32, 1, 1ull << 20, 5000), 1024); /* at most KGEN_SCAN_RING_MOST */
	kgen_spec_free(f32);
	kgen_spec_free(f32_512);
	kgen_spec_free(f32_4);
	kgen_spec_free(f32_8);
	kgen_spec_free(bf16);
	kgen_spec_free(bf16_wide);
	kgen_spec_free(f64);
	/* TMA's boxes of a tile: at most 256 rows, a divisor of the tile's, each whole 128-byte pieces */
	{
		static const struct { const char *spec; long long rows; } boxes[] = {
			{ "items_per_thread: 8\n", 128 },                         /* 128 rows: one box */
			{ "items_per_thread: 16\nlanes: 8\n", 256 },              /* 512 rows of 128 bytes: two */
			{ "items_per_thread: 12\nlanes: 8\n", 192 },              /* 384 rows: two of 192 */
			{ "items_per_thread: 9\nlanes: 8\n", 144 },               /* 288 rows: two of 144 */
			{ "items_per_thread: 5\nthreads: 64\nlanes: 2\nload_width: 8\n", 160 },  /* rows of 16 bytes */
			{ "items_per_thread: 7\nthreads: 256\nlanes: 8\nload_width: 8\ndtype: f64\n", 224 },
		};
		size_t i;
		for (i = 0; i < sizeof boxes / sizeof *boxes; i++) {
			char text[256];
			kgen_spec *s;
			snprintf(text, sizeof text, "kernel: scan\naxis: cols\nstaging: ring\n%s", boxes[i].spec);
			s = load(text);
			ck_assert_msg(kgen_scan_ring_box_rows(s) == boxes[i].rows, "%s: %lld rows a box", boxes[i].spec,
			              kgen_scan_ring_box_rows(s));
			kgen_spec_free(s);
		}
	}
}
END_TEST

START_TEST(scan_refused)
{
	assert_refused(&refusals[_i]);
}
END_TEST

/* The generated file of yaml, which must generate. */
static char *
source_of(const char *yaml)
{
	kgen_spec *spec = load(yaml);
	kgen_error err;
	char *src = NULL;

	ck_assert_msg(kgen_generate(spec, &src, &err) == KGEN_OK, "%s", err.message);
	kgen_spec_free(spec);
	return src;
}

START_TEST(each_strategy_states_its_launch)
{
	char *src = source_of("kernel: scan\nblock_scan: warps\n");

	ck_assert_ptr_nonnull(strstr(src, "//   scan_sum_f32(in, out, n, in_pitch, out_pitch, scratch, row_scratch)  "
	                                  "<<<(tiles, rows), 256>>>\n"
	                                  "// where tiles = ceil(n / 8192), a block a tile of a row"));
	ck_assert_ptr_nonnull(strstr(src, "const Acc group = g > 0 ? before_group(s, g) : identity();"));
	ck_assert_ptr_nonnull(strstr(src, "running = combine(running, x);\n        tile[i] = running;"));
	ck_assert_ptr_null(strstr(src, "read_tile"));
	ck_assert_ptr_null(strstr(src, "bulk_load"));
	free(src);
	/* block_scan: segments: the tile as read (a TMA bulk copy on sm_90), warps along segments, results from
	 * registers in streaming stores; no padded tile, no thread scan, the launch bounds of as many blocks as
	 * shared memory holds (228 KB / 33 KB: 6 of 256 x 32 f32). */
	src = source_of("kernel: scan\nblock_scan: segments\nmode: exclusive\n");
	ck_assert_ptr_nonnull(strstr(src, "// 6 on sm_90 and sm_100 (228 KB)."));
	ck_assert_ptr_nonnull(strstr(src, "constexpr int SMEM = 32832;"));
	ck_assert_ptr_nonnull(strstr(src, "__launch_bounds__(THREADS, BLOCKS)"));
	ck_assert_ptr_nonnull(strstr(src, "#if __CUDA_ARCH__ >= 900  // the TMA unit reads a whole tile"));
	ck_assert_ptr_nonnull(strstr(src, "bulk_load(tile, in + first, BYTES, bar);"));
	ck_assert_ptr_nonnull(strstr(src, "store(r.e, e, v, n);\n            v = combine(v, x[e]);"));
	ck_assert_ptr_nonnull(strstr(src, "store_streaming(reinterpret_cast<Pack<Stored, VEC> *>(out + first + i), r);"));
	ck_assert_ptr_null(strstr(src, "padded("));
	ck_assert_ptr_null(strstr(src, "scan_items"));
	ck_assert_ptr_null(strstr(src, "OUT_VEC"));
	free(src);
	src = source_of("kernel: scan\nstrategy: block\nmode: exclusive\nop: min\ndtype: i64\n");
	ck_assert_ptr_nonnull(strstr(src, "//   scan_min_i64(in, out, n, in_pitch, out_pitch)  <<<(1, rows), 256>>>\n"
	                                  "// A block a row (in_pitch and out_pitch elements apart) walks its tiles of 4096 elements\n"
	                                  "// in order; rows at most 65535 a launch (kgen_scan() launches more in parts, in and out\n"
	                                  "// moved on by a part's rows).  Scratch: none."));
	ck_assert_ptr_null(strstr(src, "look_back"));
	ck_assert_ptr_nonnull(strstr(src, "tile[i] = running;\n        running = combine(running, x);"));
	ck_assert_ptr_nonnull(strstr(src, "out[0] is the identity"));
	free(src);
	/* Each block scan: its own block_exclusive(). */
	src = source_of("kernel: scan\nblock_scan: hillis_steele\n");
	ck_assert_ptr_nonnull(strstr(src, "__shared__ Acc buffer[2][THREADS];"));
	ck_assert_ptr_null(strstr(src, "warp_totals"));
	free(src);
	src = source_of("kernel: scan\nblock_scan: blelloch\n");
	ck_assert_ptr_nonnull(strstr(src, "tree[THREADS - 1] = identity();"));
	free(src);
	/* Down the columns: each thread's rows in registers (staging: none), or the tile copied whole into
	 * shared memory (staging: smem, the default where it fits: a TMA bulk copy a row), the launch bounds of
	 * as many blocks as shared memory and 40 + 5 K registers a thread leave (4 of 256 threads at the default
	 * band of 32 f32 columns, K = 4; 3 at 64 columns, K = 8; K twice for 8-byte accumulators), or as
	 * blocks_per_sm says. */
	src = source_of("kernel: scan\naxis: cols\nstaging: none\n");
	ck_assert_ptr_nonnull(strstr(src, "//   staging: none\n"));
	ck_assert_ptr_nonnull(strstr(src, "Pack<T, VEC> x[ITEMS];"));
	ck_assert_ptr_nonnull(strstr(src, "__launch_bounds__(THREADS)\n"));
	ck_assert_ptr_null(strstr(src, "bulk_load"));
	ck_assert_ptr_null(strstr(src, "BLOCKS"));
	free(src);
	/* The default of 4- and 8-byte elements: 12 rows a thread, a tile of 384 rows that 48 KB does not
	 * hold, so in registers; 8 rows a thread staged where items_per_thread or staging: smem says so, and
	 * for 2-byte elements. */
	src = source_of("kernel: scan\naxis: cols\n");
	ck_assert_ptr_nonnull(strstr(src, "//   lanes: 8\n"));
	ck_assert_ptr_nonnull(strstr(src, "//   items_per_thread: 12\n"));
	ck_assert_ptr_nonnull(strstr(src, "//   staging: none\n"));
	free(src);
	src = source_of("kernel: scan\naxis: cols\nitems_per_thread: 8\n");
	ck_assert_ptr_nonnull(strstr(src, "//   staging: smem\n"));
	ck_assert_ptr_nonnull(strstr(src, "constexpr int MOST_BLOCKS = 4;  // what 40 + 5 K registers a thread leave"));
	free(src);
	src = source_of("kernel: scan\naxis: cols\nstaging: smem\n");
	ck_assert_ptr_nonnull(strstr(src, "//   items_per_thread: 8\n"));
	free(src);
	src = source_of("kernel: scan\naxis: cols\ndtype: bf16\n");
	ck_assert_ptr_nonnull(strstr(src, "//   items_per_thread: 8\n"));
	ck_assert_ptr_nonnull(strstr(src, "//   staging: smem\n"));
	free(src);
	src = source_of("kernel: scan\naxis: cols\ndtype: f64\n");
	ck_assert_ptr_nonnull(strstr(src, "//   items_per_thread: 12\n"));
	free(src);
	/* cluster_size: a cluster of tiles looks back once (sm_90), its blocks meeting through distributed
	 * shared memory; 1 (the default) keeps a block a tile (the rows' scan has none: refusals[]). */
	src = source_of("kernel: scan\naxis: cols\ncluster_size: 4\n");
	ck_assert_ptr_nonnull(strstr(src, "constexpr int CLUSTER = 4;  // cluster_size"));
	ck_assert_ptr_nonnull(strstr(src, "__global__ void __cluster_dims__(CLUSTER, 1, 1) __launch_bounds__(THREADS)"));
	ck_assert_ptr_nonnull(strstr(src, "cluster_look_back(s, st, supers, rank, all, prefix);"));
	ck_assert_ptr_nonnull(strstr(src, "static __device__ __forceinline__ unsigned long long dsmem_load_u64("));
	ck_assert_ptr_nonnull(strstr(src, "// Needs: sm_90 or newer (cluster_size: 4)."));
	free(src);
	src = source_of("kernel: scan\naxis: cols\n");
	ck_assert_ptr_nonnull(strstr(src, "//   cluster_size: 1\n"));
	ck_assert_ptr_null(strstr(src, "__cluster_dims__"));
	ck_assert_ptr_null(strstr(src, "dsmem_load_u64"));
	free(src);
	/* 12 rows of 128 threads fit 48 KB: the default tile stays in registers all the same. */
	src = source_of("kernel: scan\naxis: cols\nthreads: 128\n");
	ck_assert_ptr_nonnull(strstr(src, "//   items_per_thread: 12\n"));
	ck_assert_ptr_nonnull(strstr(src, "//   staging: none\n"));
	free(src);
	/* Where the tile would not fit in 48 KB, or a row of the band is not whole 16-byte pieces, the
	 * default is staging: none, not a refusal. */
	src = source_of("kernel: scan\naxis: cols\nitems_per_thread: 16\n");
	ck_assert_ptr_nonnull(strstr(src, "//   staging: none\n"));
	free(src);
	src = source_of("kernel: scan\naxis: cols\ndtype: f64\nload_width: 8\nthreads: 32\nlanes: 1\n");
	ck_assert_ptr_nonnull(strstr(src, "//   staging: none\n"));
	free(src);
	src = source_of("kernel: scan\naxis: cols\nlanes: 16\nstaging: smem\n");
	ck_assert_ptr_nonnull(strstr(src, "__shared__ alignas(128) Pack<T, VEC> tile[ROWS][LANES];"));
	ck_assert_ptr_nonnull(strstr(src, "bulk_load(tile[r], in + (row0 + r) * in_pitch + col0, (unsigned)(COLS * sizeof(T)), bar);"));
	ck_assert_ptr_nonnull(strstr(src, "// 3 on sm_90 and sm_100 (228 KB)."));
	ck_assert_ptr_nonnull(strstr(src, "constexpr int MOST_BLOCKS = 3;  // what 40 + 5 K registers a thread leave"));
	ck_assert_ptr_nonnull(strstr(src, "__launch_bounds__(THREADS, BLOCKS)\n"));
	ck_assert_ptr_null(strstr(src, "Pack<T, VEC> x[ITEMS];"));
	free(src);
	src = source_of("kernel: scan\naxis: cols\nstaging: smem\nblocks_per_sm: 5\n");
	ck_assert_ptr_nonnull(strstr(src, "constexpr int MOST_BLOCKS = 5;  // blocks_per_sm"));
	ck_assert_ptr_nonnull(strstr(src, "// 5 on sm_90 and sm_100 (228 KB)."));
	free(src);
	/* A 16-bit result is stored through to_out. */
	src = source_of("kernel: scan\ndtype: bf16\nout_dtype: bf16\n");
	ck_assert_ptr_nonnull(strstr(src, "typedef unsigned short *Results;"));
	ck_assert_ptr_nonnull(strstr(src, "to_out(a)"));
	free(src);
}
END_TEST

START_TEST(the_lookback_scratch_is_a_status_word_a_tile_and_a_group)
{
	kgen_spec *spec = load("kernel: scan\nitems_per_thread: 8\n");

	ck_assert_uint_eq(kgen_scan_tile(spec), 2048);
	ck_assert_uint_eq(kgen_scan_tiles(spec, 0), 0);
	ck_assert_uint_eq(kgen_scan_tiles(spec, 2049), 2);
	ck_assert_uint_eq(kgen_scan_scratch_bytes(spec, 1, 2048), 0);  /* one tile: no look-back */
	ck_assert_uint_eq(kgen_scan_row_scratch(spec, 2048), 0);
	/* 16 bytes a word: the header, then a row's 2 tiles and 1 group. */
	ck_assert_uint_eq(kgen_scan_row_scratch(spec, 2049), 3 * 16);
	ck_assert_uint_eq(kgen_scan_scratch_bytes(spec, 1, 2049), (1 + 3) * 16);
	ck_assert_uint_eq(kgen_scan_scratch_bytes(spec, 1, 3ull * 2048), (1 + 4) * 16);
	ck_assert_uint_eq(kgen_scan_scratch_bytes(spec, 1, 33ull * 2048), (1 + 35) * 16);  /* 33 tiles, 2 groups of 32 */
	/* Rows: one header, then each row's words; past a grid's rows, the launches after take the same words. */
	ck_assert_uint_eq(kgen_scan_scratch_bytes(spec, 5, 2049), (1 + 5 * 3) * 16);
	ck_assert_uint_eq(kgen_scan_scratch_bytes(spec, 0, 2049), 0);
	ck_assert_uint_eq(kgen_scan_scratch_bytes(spec, 70000, 2049), (1 + 65535 * 3) * 16);
	ck_assert_uint_eq(kgen_scan_scratch_bytes(spec, 1000, 1ull << 60), ~0ull);  /* more than a device holds */
	kgen_spec_free(spec);
	spec = load("kernel: scan\nitems_per_thread: 8\nlookback_group: 8\n");
	ck_assert_uint_eq(kgen_scan_scratch_bytes(spec, 1, 9ull * 2048), (1 + 11) * 16);  /* 9 tiles, 2 groups of 8 */
	kgen_spec_free(spec);
	spec = load("kernel: scan\ndtype: f64\nthreads: 128\nitems_per_thread: 4\n");
	ck_assert_uint_eq(kgen_scan_scratch_bytes(spec, 1, 1000), (1 + 3) * 16);  /* two tiles of 512: an f64 fits a word too */
	kgen_spec_free(spec);
	spec = load("kernel: scan\nstrategy: block\n");
	ck_assert_uint_eq(kgen_scan_scratch_bytes(spec, 1, 1ull << 30), 0);
	kgen_spec_free(spec);
}
END_TEST

static Suite *
scan_suite(void)
{
	Suite *s = suite_create("scan");
	TCase *tc = tcase_create("scan");

	tcase_add_test(tc, scan_minimal_spec_gets_every_default);
	tcase_add_test(tc, scan_types_follow_the_op);
	tcase_add_loop_test(tc, scan_refused, 0, (int)KGEN_COUNT(refusals));
	tcase_add_test(tc, a_ring_gets_its_defaults);
	tcase_add_test(tc, each_strategy_states_its_launch);
	tcase_add_test(tc, the_lookback_scratch_is_a_status_word_a_tile_and_a_group);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(scan_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
