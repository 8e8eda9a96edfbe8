/*
 * rows_test.c - the fused row family (`kernel: rows`): its defaults, every
 * rule with its message and place, the kernels each strategy's contract
 * lists and their capacities (gen/rows.h, which the launcher chooses by),
 * and what each variant's source holds.
 */
#include "config.h"
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kgen.h"
#include "gen/rows.h"
#include "gen/util.h"
#include "spec_assert.h"

START_TEST(rows_minimal_spec_gets_every_default)
{
	kgen_spec *spec = load("kernel: rows\n");
	char *yaml = dump(spec);  /* every key of the family; the header shows those that apply */

	ck_assert_str_eq(yaml,
		"kernel: rows\n"
		"name: rows_softmax_f32\n"
		"dtype: f32\n"
		"threads: 512\n"
		"load_width: 16\n"
		"lanes: 32\n"
		"out_dtype: f32\n"
		"op: softmax\n"
		"strategy: auto\n"
		"vectors: 4\n"
		"cluster_size: 2\n"
		"weight_dtype: f32\n"
		"label_dtype: i64\n");
	free(yaml);
	kgen_spec_free(spec);
}
END_TEST

START_TEST(rows_types_default_to_dtype)
{
	kgen_spec *spec = load("kernel: rows\nop: layer_norm\ndtype: bf16\n");

	ASSERT_FIELD(spec, "out_dtype", "bf16");
	ASSERT_FIELD(spec, "weight_dtype", "bf16");
	ASSERT_FIELD(spec, "name", "rows_layer_norm_bf16");
	kgen_spec_free(spec);
	spec = load("kernel: rows\nop: cross_entropy\ndtype: f16\nout_dtype: f32\n");
	ASSERT_FIELD(spec, "label_dtype", "i64");
	ASSERT_FIELD(spec, "out_dtype", "f32");
	kgen_spec_free(spec);
	spec = load("kernel: rows\nstrategy: warp\n");
	ASSERT_FIELD(spec, "threads", "256");
	ASSERT_FIELD(spec, "lanes", "32");
	ASSERT_FIELD(spec, "vectors", "4");
	kgen_spec_free(spec);
}
END_TEST

static const struct refusal refusals[] = {
	{ "dtype_is_a_float", "kernel: rows\ndtype: i32\n",
	  "kernel: rows reads f32, f16 or bf16 elements, not i32 (its statistics are f32)", 2, 8, "dtype: i32" },
	{ "dtype_is_a_float", "kernel: rows\ndtype: f64\n",
	  "kernel: rows reads f32, f16 or bf16 elements, not f64 (its statistics are f32)", 2, 8, "dtype: f64" },
	{ "out_dtype_is_a_float", "kernel: rows\nout_dtype: i64\n",
	  "out_dtype i64: kernel: rows writes f32, f16 or bf16", 2, 12, "out_dtype: i64" },
	{ "weight_dtype_is_a_float", "kernel: rows\nop: rms_norm\nweight_dtype: f64\n",
	  "weight_dtype f64: the weight and bias are f32, f16 or bf16", 3, 15, "weight_dtype: f64" },
	{ "labels_are_i32_or_i64", "kernel: rows\nop: cross_entropy\nlabel_dtype: f32\n",
	  "label_dtype f32: labels are i32 or i64 (torch's are i64)", 3, 14, "label_dtype: f32" },
	{ "labels_are_i32_or_i64", "kernel: rows\nop: cross_entropy\nlabel_dtype: u32\n",
	  "label_dtype u32: labels are i32 or i64 (torch's are i64)", 3, 14, "label_dtype: u32" },
	{ "threads_a_multiple_of_32", "kernel: rows\nthreads: 100\n",
	  "threads 100 is not a multiple of the warp size, 32", 2, 10, "threads: 100" },
	{ "load_width_at_most_16", "kernel: rows\nload_width: 32\n",
	  "load_width 32 must be the element size (4 bytes for f32) times a power of two, at most 16", 2, 13,
	  "load_width: 32" },
	{ "load_width_of_elements", "kernel: rows\ndtype: bf16\nload_width: 6\n",
	  "load_width 6 must be the element size (2 bytes for bf16) times a power of two, at most 16", 3, 13,
	  "load_width: 6" },
	{ "lanes_a_power_of_two", "kernel: rows\nstrategy: warp\nlanes: 12\n",
	  "lanes 12 is not a power of two: use 1, 2, 4, 8, 16 or 32", 3, 8, "lanes: 12" },
	{ "cluster_sizes", "kernel: rows\nstrategy: cluster\ncluster_size: 12\n",
	  "cluster_size 12: a cluster of 2, 4 or 8 blocks (the portable sizes), or 16 (sm_90, where the GPU allows it)", 3, 15, "cluster_size: 12" },
	{ "vectors_fit_registers", "kernel: rows\nstrategy: block\nvectors: 32\n",
	  "vectors 32 of 16 bytes are 512 bytes of the row a thread, over the 256 (64 registers) that stay in "
	  "registers: use at most 16, or strategy: online for long rows", 3, 10, "vectors: 32" },
	{ "staged_not_for_cross_entropy", "kernel: rows\nop: cross_entropy\nstrategy: staged\n",
	  "strategy: staged holds rows in registers; op: cross_entropy streams them: use auto, warp, block or online",
	  3, 11, "strategy: staged" },
	{ "cluster_not_for_cross_entropy", "kernel: rows\nop: cross_entropy\nstrategy: cluster\n",
	  "strategy: cluster holds rows in registers; op: cross_entropy streams them: use auto, warp, block or online",
	  3, 11, "strategy: cluster" },
	{ "cluster_copies_16_bytes", "kernel: rows\nstrategy: cluster\nload_width: 8\n",
	  "load_width 8: strategy: cluster copies rows in 16-byte vectors (load_width: 16)", 3, 13, "load_width: 8" },
	{ "staged_copies_16_bytes", "kernel: rows\nstrategy: staged\ndtype: bf16\nload_width: 8\nvectors: 4\n",
	  "load_width 8: strategy: staged copies rows in 16-byte vectors (load_width: 16)", 4, 13, "load_width: 8" },
	{ "vectors_fit_registers", "kernel: rows\nstrategy: warp\ndtype: bf16\nvectors: 17\n",
	  "vectors 17 of 16 bytes are 272 bytes of the row a thread, over the 256 (64 registers) that stay in "
	  "registers: use at most 16, or strategy: online for long rows", 4, 10, "vectors: 17" },
	{ "vectors_fit_registers", "kernel: rows\nstrategy: online\nvectors: 32\n",
	  "vectors 32 of 4 elements are 128 floats a thread, over the 64 that stay in registers: use at most 16", 3,
	  10, "vectors: 32" },
	{ "stages_fit_shared_memory", "kernel: rows\nstrategy: staged\nthreads: 1024\nlanes: 1024\nvectors: 16\n",
	  "vectors 16: a stage of threads x vectors x 16 bytes (262144) is over the 204800 bytes of shared memory it "
	  "may take: use fewer", 5, 10, "vectors: 16" },
	{ "staged_lanes_whole_warps", "kernel: rows\nstrategy: staged\nlanes: 16\n",
	  "lanes 16: strategy: staged gives a row whole warps and a block whole rows: a power of two from 32 to "
	  "threads (512) that divides it", 3, 8, "lanes: 16" },
	{ "staged_lanes_within_block", "kernel: rows\nstrategy: staged\nthreads: 256\nlanes: 512\n",
	  "lanes 512: strategy: staged gives a row whole warps and a block whole rows: a power of two from 32 to "
	  "threads (256) that divides it", 4, 8, "lanes: 512" },
	{ "staged_lanes_divide_block", "kernel: rows\nstrategy: staged\nthreads: 192\nlanes: 128\n",
	  "lanes 128: strategy: staged gives a row whole warps and a block whole rows: a power of two from 32 to "
	  "threads (192) that divides it", 4, 8, "lanes: 128" },
	{ "warp_lanes_within_a_warp", "kernel: rows\nstrategy: warp\nlanes: 64\n",
	  "lanes 64: strategy: warp shares a warp among rows: use at most 32 (strategy: staged takes more)", 3, 8,
	  "lanes: 64" },
	{ "lanes_only_with_warp", "kernel: rows\nlanes: 8\n",
	  "lanes needs strategy: warp or staged, not auto (a block or a cluster per row; auto chooses its own)", 2, 8,
	  "lanes: 8" },
	{ "vectors_not_with_auto", "kernel: rows\nvectors: 8\n",
	  "vectors needs strategy: warp, block, cluster, staged or online (auto chooses its own)", 2, 10, "vectors: 8" },
	{ "cluster_size_only_with_cluster", "kernel: rows\nstrategy: block\ncluster_size: 4\n",
	  "cluster_size needs strategy: cluster, not block", 3, 15, "cluster_size: 4" },
	{ "weight_only_for_norms", "kernel: rows\nweight_dtype: f32\n",
	  "weight_dtype needs op: rms_norm or layer_norm (op: softmax has no weight)", 2, 15, "weight_dtype: f32" },
	{ "labels_only_for_cross_entropy", "kernel: rows\nop: layer_norm\nlabel_dtype: i32\n",
	  "label_dtype needs op: cross_entropy (op: layer_norm has no labels)", 3, 14, "label_dtype: i32" },
	{ "ops_of_the_family", "kernel: rows\nop: sum\n",
	  "op: unknown value 'sum': expected softmax, log_softmax, rms_norm, layer_norm or cross_entropy", 2, 5,
	  "op: sum" },
	{ "reduce_axis_keys_refused", "kernel: rows\naxis: rows\n", "axis does not apply to kernel: rows", 2, 1,
	  "axis: rows" },
};

START_TEST(rows_refused)
{
	assert_refused(&refusals[_i]);
}
END_TEST

/* The contract of yaml: its kernels' suffixes, space-separated. */
static void
kernels_of_all(const char *yaml, char *buf, size_t n, int twins)
{
	kgen_spec *spec = load(yaml);
	const struct kgen_family *f = kgen_family_of(spec);
	struct kgen_contract c;
	size_t at = 0;
	int i;

	f->contract(spec, &c);
	buf[0] = '\0';
	for (i = 0; i < c.nsteps; i++)
		if (twins || strncmp(c.step[i].suffix, "_exact", 6))
			at += (size_t)snprintf(buf + at, n - at, "%s%s", at ? " " : "",
			                       c.step[i].suffix[0] ? c.step[i].suffix : "-");
	kgen_spec_free(spec);
}

/* The kernels but the warp kernels' exact twins (rows_auto_has_exact_twins has those). */
static void
kernels_of(const char *yaml, char *buf, size_t n)
{
	kernels_of_all(yaml, buf, n, 0);
}

static char *source_of(const char *yaml);

/* Every warp kernel of strategy auto that writes rows comes after its twin for rows of exactly its loads, which
 * the launcher takes where every array keeps its vectors aligned (rows_launch_test); cross_entropy streams (no
 * twin); strategy warp keeps one kernel, the exact path inside it. */
START_TEST(rows_auto_has_exact_twins)
{
	char k[320];
	kgen_spec *spec;
	struct kgen_rows_choice c[KGEN_MAX_STEPS];
	int n, i;

	kernels_of_all("kernel: rows\n", k, sizeof k, 1);
	ck_assert_ptr_nonnull(strstr(k, "_exact16x2 _lanes16x2 _exact32x2 _lanes32x2 _exact32x4 _lanes32x4 _block128x2 "));
	kernels_of_all("kernel: rows\nop: layer_norm\ndtype: bf16\n", k, sizeof k, 1);
	ck_assert_ptr_nonnull(strstr(k, "_exact16x2 _lanes16x2 _exact16x4 _lanes16x4 _exact32x4 _lanes32x4 _lanes128x4 "));
	kernels_of_all("kernel: rows\nop: cross_entropy\n", k, sizeof k, 1);
	ck_assert_ptr_null(strstr(k, "_exact"));
	kernels_of_all("kernel: rows\nstrategy: warp\n", k, sizeof k, 1);
	ck_assert_str_eq(k, "-");
	spec = load("kernel: rows\nop: layer_norm\ndtype: bf16\n");
	n = kgen_rows_kernels(spec, c, KGEN_MAX_STEPS);
	for (i = 0; i < n; i++)
		if (c[i].exact) {
			ck_assert_int_lt(i + 1, n);
			ck_assert_int_eq(c[i + 1].exact, 0);  /* its generic kernel next, alike but for that */
			ck_assert_int_eq(c[i].lanes, c[i + 1].lanes);
			ck_assert_int_eq(c[i].vectors, c[i + 1].vectors);
			ck_assert_int_eq(kgen_rows_block(spec, &c[i]), kgen_rows_block(spec, &c[i + 1]));
			ck_assert_uint_eq(c[i].upto, c[i + 1].upto);
		}
	kgen_spec_free(spec);
	/* the twin's source: the exact path alone; the generic kernel without it */
	{
		char *src = source_of("kernel: rows\nop: rms_norm\ndtype: bf16\n");
		const char *twin = strstr(src, "rows_rms_norm_bf16_exact16x2(const Rows a)");
		const char *generic = strstr(src, "rows_rms_norm_bf16_lanes16x2(const Rows a)");
		ck_assert_ptr_nonnull(twin);
		ck_assert_ptr_nonnull(generic);
		ck_assert_ptr_nonnull(strstr(twin, "rms_norm_row<16, 2, true>(a, row < a.rows ? row : first, lane, row < a.rows);"));
		ck_assert_ptr_nonnull(strstr(generic, "rms_norm_row<16, 2>(a, row < a.rows ? row : first, lane, row < a.rows);"));
		ck_assert_ptr_null(strstr(src, "a.cols == (Index)"));  /* no branch inside auto's kernels */
		ck_assert_ptr_nonnull(strstr(src, "rows_rms_norm_bf16_exact16x2(a (struct Rows, by value))  <<<grid, 128>>>  "
		                                 "when cols == 256, every array aligned"));
		free(src);
	}
}
END_TEST

START_TEST(rows_auto_lists_its_kernels_by_row_length)
{
	char k[256];

	/* f32: rows of up to 1024, 2048, 4096 and 8192 elements take blocks of 128 x 2, 256 x 2, 512 x 2 and 512 x 4
	 * loads (KGEN_ROWS_AUTO_BLOCKS), ahead of the staged kernels too, which start past them; softmax's then a block
	 * of twice the threads (16385 to 32768) and clusters of 2, 4 and 8 blocks of twice the threads (the clusters of
	 * 512 threads they hold no more than are left out) */
	kernels_of("kernel: rows\n", k, sizeof k);
	ck_assert_str_eq(k, "_lanes16x2 _lanes32x2 _lanes32x4 _block128x2 _block256x2 _block512x2 _block512x4 _block8 "
	                    "_online _staged512x8 _staged1024x8w _cluster2x8w _cluster4x8w _cluster8x8w");
	/* the norms keep clusters of the spec's threads to 131072 f32 elements, then 16 blocks of twice them, 4 loads
	 * each (their weight held beside the stages, where 8 blocks of 8 loads have no room for it), and those 8 where
	 * a GPU refuses clusters of 16 */
	kernels_of("kernel: rows\nop: rms_norm\n", k, sizeof k);
	ck_assert_ptr_nonnull(strstr(k, "_online _staged1024x4w _cluster2x8 _cluster4x8 _cluster8x8 _cluster16x4w _cluster8x8w"));
	/* bf16: blocks of 128, 192 and 256 threads, a load each (the row held exactly), in place of the warp a row of
	 * 32 x 4 loads and of two warps (register and staged); no wide staged block or cluster (a thread's 64 bf16 are
	 * more floats than half of its registers), but clusters of half the threads, 16 loads each */
	kernels_of("kernel: rows\ndtype: bf16\n", k, sizeof k);
	ck_assert_str_eq(k, "_lanes16x2 _lanes32x2 _block128x1 _block192x1 _block256x1 _lanes128x4 _lanes128x8 "
	                    "_lanes256x8 _block8 _online _staged128x4 _staged256x4 _staged512x4 _staged512x8 "
	                    "_cluster2x16h _cluster4x16h _cluster8x16h");
	/* other threads than 512 (not measured halved): the spec's clusters */
	kernels_of("kernel: rows\ndtype: bf16\nthreads: 256\n", k, sizeof k);
	ck_assert_ptr_nonnull(strstr(k, " _cluster2x8 _cluster4x8 _cluster8x8"));
	ck_assert_ptr_null(strstr(k, "16h"));
	kernels_of("kernel: rows\ndtype: bf16\nthreads: 1024\n", k, sizeof k);
	ck_assert_ptr_nonnull(strstr(k, " _cluster2x8 _cluster4x8 _cluster8x8"));
	ck_assert_ptr_null(strstr(k, "16h"));
	/* staged kernels copy 16-byte vectors: none at a narrower load_width; the blocks' loads fill their rows (the
	 * last, 512 x 8, is the block of 8 loads that followed it) */
	kernels_of("kernel: rows\nload_width: 8\n", k, sizeof k);
	ck_assert_str_eq(k, "_lanes16x2 _lanes32x2 _lanes32x4 _block128x4 _block256x4 _block512x4 _block512x8 _online");
	/* 1024 threads: a stage of 1024 x 8 x 16 bytes twice is over 200 KB, once is not */
	kernels_of("kernel: rows\nthreads: 1024\n", k, sizeof k);
	ck_assert_ptr_nonnull(strstr(k, "_block128x2 _block256x2 _block512x2 _block512x4 _block8 "));
	ck_assert_ptr_nonnull(strstr(k, "_online _staged1024x4 _staged1024x8 _cluster2x8 _cluster4x8 _cluster8x8"));
	ck_assert_ptr_null(strstr(k, "_cluster8x8w"));  /* twice 1024 threads is more than a block has */
	/* cross_entropy streams: its own table, then a block per row */
	kernels_of("kernel: rows\nop: cross_entropy\n", k, sizeof k);
	ck_assert_str_eq(k, "_lanes8x1 _lanes8x4 _lanes16x4 _lanes64x4 _online");
	/* 128 threads: no kernels of 128 or 256 lanes beside the block's own */
	kernels_of("kernel: rows\nthreads: 128\n", k, sizeof k);
	ck_assert_str_eq(k, "_lanes16x2 _lanes32x2 _lanes32x4 _block128x2 _block8 _online _staged128x4 _staged128x8 "
	                    "_staged256x8w _cluster2x8w _cluster4x8w _cluster8x8w");
	/* 64 lanes do not divide 96 threads; a block of 128 is more than the spec's: staged from 513 elements */
	kernels_of("kernel: rows\nthreads: 96\n", k, sizeof k);
	ck_assert_str_eq(k, "_lanes16x2 _lanes32x2 _lanes32x4 _block8 _online _staged96x4 _staged96x8 _staged192x8w "
	                    "_cluster2x8w _cluster4x8w _cluster8x8w");
	kernels_of("kernel: rows\nstrategy: warp\n", k, sizeof k);
	ck_assert_str_eq(k, "-");
	/* each op its own staged kernels, the norms' wide (blocks of twice the threads) at some lengths:
	 * RMSNorm's 32 x 4, 128 x 2 and from 256 x 4 on, LayerNorm's from 256 x 4 on (gen/rows.h's table); bf16
	 * RMSNorm's past its blocks of one and two loads a thread (6144 elements), or where the spec's 128 threads
	 * leave it only the block of 128, past 1024 */
	kernels_of("kernel: rows\nop: rms_norm\ndtype: bf16\n", k, sizeof k);
	ck_assert_ptr_nonnull(strstr(k, "_lanes32x2 _block128x1 _block192x1 _block256x1 _block192x2 _block256x2 "
	                               "_block384x2 _lanes128x8 "));
	ck_assert_ptr_nonnull(strstr(k, "_online _staged256x4w _staged512x4w _staged1024x4w _cluster2x8 _cluster4x8 "
	                               "_cluster8x8"));
	/* 192 threads: the blocks of 192 but none of 256 or 384, staged past 3072 (the 192 x 2 block's); 160 threads:
	 * none of 192 either, staged past 1024 */
	kernels_of("kernel: rows\nop: rms_norm\ndtype: bf16\nthreads: 192\n", k, sizeof k);
	ck_assert_ptr_nonnull(strstr(k, "_block128x1 _block192x1 _block192x2 "));
	ck_assert_ptr_null(strstr(k, "_block256"));
	ck_assert_ptr_null(strstr(k, "_staged128x2w"));  /* 1025-2048: the blocks of 192 hold them */
	kernels_of("kernel: rows\nop: rms_norm\ndtype: bf16\nthreads: 160\n", k, sizeof k);
	ck_assert_ptr_null(strstr(k, "_block192"));
	/* a narrower load: the same blocks, more loads each (192 x 2 of 8 bytes holds 1536 bf16) */
	kernels_of("kernel: rows\ndtype: bf16\nload_width: 8\n", k, sizeof k);
	ck_assert_ptr_nonnull(strstr(k, "_block128x2 _block192x2 _block256x2 "));
	/* f16 as bf16; f32 log-softmax as softmax, its wide kernels too */
	kernels_of("kernel: rows\ndtype: f16\n", k, sizeof k);
	ck_assert_ptr_nonnull(strstr(k, "_block128x1 _block192x1 _block256x1 _lanes128x4 "));
	kernels_of("kernel: rows\nop: log_softmax\n", k, sizeof k);
	ck_assert_ptr_nonnull(strstr(k, "_online _staged512x8 _staged1024x8w _cluster2x8w _cluster4x8w _cluster8x8w"));
	kernels_of("kernel: rows\nop: rms_norm\ndtype: bf16\nthreads: 128\n", k, sizeof k);
	ck_assert_str_eq(k, "_lanes16x2 _lanes32x2 _block128x1 _block8 _online _staged128x2w _staged256x4w _cluster2x8 "
	                    "_cluster4x8 _cluster8x8 _cluster16x4w");
	/* LayerNorm's 16 x 4, the others' 32 x 2; bf16 LayerNorm takes no block of 128 (f32's does) */
	kernels_of("kernel: rows\nop: layer_norm\ndtype: bf16\n", k, sizeof k);
	ck_assert_ptr_nonnull(strstr(k, "_lanes16x2 _lanes16x4 _lanes32x4 _lanes128x4 "));
	kernels_of("kernel: rows\nop: layer_norm\n", k, sizeof k);
	ck_assert_ptr_nonnull(strstr(k, "_lanes32x4 _block128x2 _block256x2 _block512x2 _block512x4 _block8 _online "
	                               "_staged1024x4w _cluster2x8 _cluster4x8 _cluster8x8 _cluster16x8 _cluster8x8w"));
	kernels_of("kernel: rows\nop: layer_norm\ndtype: bf16\n", k, sizeof k);
	ck_assert_ptr_nonnull(strstr(k, "_online _staged32x4 _staged64x3w _staged64x4w _staged128x3w _staged256x2w "
	                               "_staged256x4w _staged512x4w _staged1024x4w _cluster2x8 _cluster4x8 _cluster8x8"));
	/* where twice the threads is over 1024, the wide entries take the spec's own blocks */
	kernels_of("kernel: rows\nop: layer_norm\ndtype: bf16\nthreads: 1024\n", k, sizeof k);
	ck_assert_ptr_nonnull(strstr(k, "_online _staged32x4 _staged64x3 _staged64x4 _staged128x3 _staged256x2 "
	                               "_staged256x4 _staged512x4 _staged1024x4 _cluster2x8"));
	/* blocks of 256: a wide entry of 512 lanes would be the block's own row: the 512 x 4 one takes it */
	kernels_of("kernel: rows\nop: rms_norm\ndtype: bf16\nthreads: 256\n", k, sizeof k);
	ck_assert_ptr_nonnull(strstr(k, "_block256x2 _lanes128x8 _block8 _online _staged256x4w _staged512x4w "
	                               "_cluster2x8"));
	/* cross_entropy streams: no block of 128 */
	kernels_of("kernel: rows\nop: cross_entropy\ndtype: bf16\n", k, sizeof k);
	ck_assert_ptr_null(strstr(k, "_block128"));
}
END_TEST


START_TEST(rows_capacities_follow_lanes_vectors_and_cluster)
{
	kgen_spec *spec = load("kernel: rows\nstrategy: cluster\ncluster_size: 8\nthreads: 1024\nvectors: 4\ndtype: bf16\n");
	struct kgen_rows_choice c[KGEN_MAX_STEPS];

	ck_assert_int_eq(kgen_rows_kernels(spec, c, KGEN_MAX_STEPS), 1);
	ck_assert_uint_eq(kgen_rows_capacity(spec, &c[0]), 8ull * 1024 * 4);  /* loads: 262144 bf16 */
	kgen_spec_free(spec);
	spec = load("kernel: rows\nstrategy: warp\nlanes: 16\nvectors: 2\n");
	ck_assert_int_eq(kgen_rows_kernels(spec, c, KGEN_MAX_STEPS), 1);
	ck_assert_uint_eq(kgen_rows_capacity(spec, &c[0]), 32);
	ck_assert_int_eq(kgen_rows_per_block(spec, &c[0]), 256 / 16);
	kgen_spec_free(spec);
	spec = load("kernel: rows\nstrategy: online\n");
	ck_assert_int_eq(kgen_rows_kernels(spec, c, KGEN_MAX_STEPS), 1);
	ck_assert_uint_eq(kgen_rows_capacity(spec, &c[0]), 0);  /* any row */
	kgen_spec_free(spec);
	spec = load("kernel: rows\nop: cross_entropy\nstrategy: block\n");
	ck_assert_uint_eq(kgen_rows_kernels(spec, c, KGEN_MAX_STEPS), 1);
	ck_assert_uint_eq(kgen_rows_capacity(spec, &c[0]), 0);  /* it streams */
	kgen_spec_free(spec);
}
END_TEST

/* The generated source of yaml (kgen_generate), to be freed. */
static char *
source_of(const char *yaml)
{
	kgen_spec *spec = load(yaml);
	char *src = NULL;
	kgen_error err;

	ck_assert_msg(kgen_generate(spec, &src, &err) == KGEN_OK, "%s", err.message);
	kgen_spec_free(spec);
	return src;
}

START_TEST(rows_sources_hold_what_each_variant_needs)
{
	char *src = source_of("kernel: rows\nop: softmax\nstrategy: cluster\ncluster_size: 4\n");

	ck_assert_ptr_nonnull(strstr(src, "#define CLUSTER_DIMS(n) __cluster_dims__(n, 1, 1)"));
	ck_assert_ptr_nonnull(strstr(src, "CLUSTER_DIMS(4) __launch_bounds__(512, 1)"));
	ck_assert_ptr_nonnull(strstr(src, "staged_rows<2048, 4, 512, 2>(a);"));  /* a row over 4 blocks of 512 threads */
	ck_assert_ptr_nonnull(strstr(src, "<<<grid, 512, 65536>>>"));         /* 2 stages of 512 x 4 x 16 bytes */
	ck_assert_ptr_nonnull(strstr(src, "v = cluster_reduce<LANES / NT>(v);"));
	ck_assert_ptr_nonnull(strstr(src, "exchange_init();"));
	ck_assert_ptr_nonnull(strstr(src, "st.async.shared::cluster.mbarrier::complete_tx::bytes.f32"));
	ck_assert_ptr_nonnull(strstr(src, "mapa.shared::cluster"));
	ck_assert_ptr_nonnull(strstr(src, "// Needs: sm_90 or newer (strategy: cluster)."));
	ck_assert_ptr_null(strstr(src, "struct Moments"));
	free(src);
	src = source_of("kernel: rows\nop: layer_norm\nstrategy: online\ndtype: bf16\nweight_dtype: f32\n");
	/* each batch's moments merged by Chan's formula, the larger first (the same bits in both lanes of a shuffle) */
	ck_assert_ptr_nonnull(strstr(src, "struct Moments"));
	ck_assert_ptr_nonnull(strstr(src, "t = combine(t, Moments{ count, mean, m2 });"));
	ck_assert_ptr_nonnull(strstr(src, "if (b.n > a.n || (b.n == a.n && (b.mean > a.mean || (b.mean == a.mean && b.m2 > a.m2)))) {"));
	ck_assert_ptr_nonnull(strstr(src, "typedef float W;"));
	ck_assert_ptr_nonnull(strstr(src, "layer_norm_online<THREADS, 4>(a, row, threadIdx.x)"));
	ck_assert_ptr_null(strstr(src, "CLUSTER"));  /* no row over a cluster */
	ck_assert_ptr_null(strstr(src, "mapa"));
	free(src);
	/* a warp kernel's path for rows of exactly its loads: 16 x 2 x 8 bf16 elements, every array aligned (the
	 * weight's too for the norms), which loads its weight and bias with the row (at most 32 bytes of each) */
	src = source_of("kernel: rows\nop: layer_norm\ndtype: bf16\nstrategy: warp\nlanes: 16\nvectors: 2\n");
	ck_assert_ptr_nonnull(strstr(src, "if (a.cols == (Index)16 * 2 * VEC && (a.aligned & (X_ALIGNED | Y_ALIGNED | "
	                                 "W_ALIGNED)) == (X_ALIGNED | Y_ALIGNED | W_ALIGNED)) {"));
	ck_assert_ptr_nonnull(strstr(src, "layer_norm_row<16, 2, true>(a, row < a.rows ? row : first, lane, row < a.rows);"));
	ck_assert_ptr_nonnull(strstr(src, "layer_norm_row<16, 2>(a, row < a.rows ? row : first, lane, row < a.rows);"));
	ck_assert_ptr_nonnull(strstr(src, "return LANES <= 32 && VECS * VEC * (int)sizeof(W) <= 32;"));
	ck_assert_ptr_nonnull(strstr(src, "load_w_early<LANES, VECS, EXACT>(a.bias, lane, n, early, be);"));
	free(src);
	src = source_of("kernel: rows\nop: softmax\nstrategy: warp\nlanes: 32\nvectors: 2\n");
	ck_assert_ptr_nonnull(strstr(src, "if (a.cols == (Index)32 * 2 * VEC && (a.aligned & (X_ALIGNED | Y_ALIGNED)) == "
	                                 "(X_ALIGNED | Y_ALIGNED)) {"));
	ck_assert_ptr_null(strstr(src, "load_w_early"));  /* no weight */
	free(src);
	src = source_of("kernel: rows\nop: rms_norm\nstrategy: block\n");
	ck_assert_ptr_null(strstr(src, "a.cols == (Index)"));  /* a block a row: no exact path */
	free(src);
	src = source_of("kernel: rows\nop: cross_entropy\nlabel_dtype: i32\nstrategy: warp\nlanes: 8\n");
	ck_assert_ptr_nonnull(strstr(src, "typedef int Label;"));
	ck_assert_ptr_nonnull(strstr(src, "struct MaxSum"));
	ck_assert_ptr_null(strstr(src, "store_y"));  /* it writes losses, no rows */
	ck_assert_ptr_null(strstr(src, "Y_ALIGNED"));
	ck_assert_ptr_null(strstr(src, "a.cols == (Index)"));  /* streams its rows: no exact path */
	free(src);
	src = source_of("kernel: rows\nop: log_softmax\nstrategy: block\n");
	ck_assert_ptr_nonnull(strstr(src, "log_softmax_row<512, 4>"));
	ck_assert_ptr_nonnull(strstr(src, "const float shift = m.v + logf(s.v);"));
	ck_assert_ptr_null(strstr(src, "struct MaxSum"));  /* two reductions of a float: no exponentials in them */
	ck_assert_ptr_null(strstr(src, "float e[VECS][VEC];"));  /* log-softmax keeps no exponentials */
	ck_assert_ptr_null(strstr(src, "bulk_load"));     /* no staged kernel */
	free(src);
	src = source_of("kernel: rows\nop: rms_norm\nstrategy: staged\nlanes: 256\nvectors: 4\n");
	ck_assert_ptr_nonnull(strstr(src, "// Needs: sm_90 or newer (strategy: staged)."));
	ck_assert_ptr_nonnull(strstr(src, "<<<grid, 512, 81920>>>"));  /* 2 stages of 512 x 4 x 16 bytes, 4096 f32 weights */
	ck_assert_ptr_nonnull(strstr(src, "staged_rows<256, 4, 512, 2, true>(a);"));  /* the weight held too */
	ck_assert_ptr_nonnull(strstr(src, "__launch_bounds__(512, 2)"));
	ck_assert_ptr_nonnull(strstr(src, "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes"));
	ck_assert_ptr_nonnull(strstr(src, "rms_norm_held<LANES, VECS, THREADS, true, EXACT>(a, row, lane, n, v);"));  /* rms_norm_row's */
	ck_assert_ptr_null(strstr(src, "a.cols == (Index)"));  /* no warp kernel, so no exact path */
	ck_assert_ptr_nonnull(strstr(src, "load_staged<LANES, VECS, NT>(a, stage + (s * GROUPS + group) * ROOM, from, whole, row, "
	                                 "lane, n, v, T());"));
	ck_assert_ptr_null(strstr(src, "cluster_rank"));  /* no clusters, so none of their helpers */
	free(src);
	/* the norms' weight (and bias) copied once a block beside the stages where they fit: 2 x 32 KB + 16384 bf16 */
	src = source_of("kernel: rows\nop: rms_norm\ndtype: bf16\nstrategy: staged\nlanes: 512\nvectors: 4\n");
	ck_assert_ptr_nonnull(strstr(src, "<<<grid, 512, 98304>>>"));
	ck_assert_ptr_nonnull(strstr(src, "2 stages of the block's rows, then the weight."));
	ck_assert_ptr_nonnull(strstr(src, "bulk_load(held, a.weight + wfrom, wbytes, &weights);"));
	ck_assert_ptr_nonnull(strstr(src, "rms_norm_held<LANES, VECS, NT, !HOLD>(b, row, lane, n, v);"));
	ck_assert_ptr_null(strstr(src, "a.bias ? 2 * wbytes"));
	free(src);
	src = source_of("kernel: rows\nop: layer_norm\ndtype: bf16\nstrategy: staged\nlanes: 128\nvectors: 4\n");
	ck_assert_ptr_nonnull(strstr(src, "<<<grid, 512, 81920>>>"));  /* 64 KB of stages, 8 KB of weight, 8 of bias */
	ck_assert_ptr_nonnull(strstr(src, "bulk_load(held + ROOM * VEC, a.bias + wfrom, wbytes, &weights);"));
	free(src);
	/* one stage where only one leaves them room (two blocks an SM: 2 x 32 KB of stages and 2 x 32 KB do not
	 * fit in 110 KB, 32 KB and 2 x 32 KB do) */
	src = source_of("kernel: rows\nop: layer_norm\ndtype: bf16\nstrategy: staged\nlanes: 512\nvectors: 4\n");
	ck_assert_ptr_nonnull(strstr(src, "<<<grid, 512, 98304>>>"));
	ck_assert_ptr_nonnull(strstr(src, "staged_rows<512, 4, 512, 1, true>(a);"));
	free(src);
	/* where even that does not fit (a stage of 128 KB and 2 x 128 KB), read from global memory */
	src = source_of("kernel: rows\nop: layer_norm\ndtype: bf16\nstrategy: staged\nthreads: 1024\nlanes: 1024\n"
	                "vectors: 8\n");
	ck_assert_ptr_nonnull(strstr(src, "<<<grid, 1024, 131072>>>"));
	ck_assert_ptr_null(strstr(src, "bulk_load(held"));
	ck_assert_ptr_nonnull(strstr(src, "layer_norm_held<LANES, VECS, NT>(a, row, lane, n, v);"));
	ck_assert_ptr_nonnull(strstr(src, "staged_rows<1024, 8, 1024, 1>(a);"));  /* no HOLD where no kernel holds them */
	free(src);
	/* auto's staged kernels and their helpers only where the target is sm_90 */
	src = source_of("kernel: rows\nop: softmax\n");
	ck_assert_ptr_nonnull(strstr(src, "#if __CUDA_ARCH__ >= 900\n// Shared-memory address"));
	ck_assert_ptr_nonnull(strstr(src, "instead on sm_90 when 8192 < cols <= 16384"));  /* past the blocks */
	ck_assert_ptr_nonnull(strstr(src, "rows_softmax_f32_block128x2(a (struct Rows, by value))  <<<grid, 128>>>  "
	                                 "when cols <= 1024"));
	ck_assert_ptr_nonnull(strstr(src, "// _blockNxV: a block of N threads per row, grid = rows"));
	ck_assert_ptr_nonnull(strstr(src, "extern \"C\" __global__ void __launch_bounds__(128)\nrows_softmax_f32_block128x2("));
	ck_assert_ptr_nonnull(strstr(src, "    constexpr int GROUPS = 128 / 128;"));
	ck_assert_ptr_nonnull(strstr(src, "__launch_bounds__(128)\nrows_softmax_f32_lanes32x4("));  /* a warp kernel's block */
	ck_assert_ptr_nonnull(strstr(src, "rows_softmax_f32_lanes32x4(a (struct Rows, by value))  <<<grid, 128>>>  "
	                                 "when cols <= 512"));
	/* each warp kernel's grid by its own block (lanes128x4 runs 512 threads: 4 rows a block) */
	ck_assert_ptr_nonnull(strstr(src, "// _lanesNxV: N threads per row of its block's B, grid = ceil(rows / (B / N))"));
	ck_assert_ptr_nonnull(strstr(src, "rows_softmax_f32_staged512x8(a (struct Rows, by value))  <<<grid, 512, 131072>>>"));
	ck_assert_ptr_nonnull(strstr(src, "x_neg_inf());\n        __syncthreads();"));
	ck_assert_ptr_nonnull(strstr(src, "o[j] = e[k][j] * scale;"));  /* one exponential an element */
	ck_assert_ptr_nonnull(strstr(src, "rows_softmax_f32_cluster4x8w(a (struct Rows, by value))  <<<grid, 1024, 131072>>>  "
	                                 "instead on sm_90 when 65536 < cols <= 131072"));
	ck_assert_ptr_null(strstr(src, "rows_softmax_f32_cluster8x8("));  /* holds no more than the one before */
	ck_assert_ptr_nonnull(strstr(src, "// Scratch: none.  x and y are read or written"));
	free(src);
	/* the header names the arrays each op has, and cross-entropy's rows stream through: any length */
	src = source_of("kernel: rows\nop: rms_norm\n");
	ck_assert_ptr_nonnull(strstr(src, "// Scratch: none.  x, y and the weight are read or written"));
	ck_assert_ptr_nonnull(strstr(src, "typedef float W;  // the weight (f32)"));
	free(src);
	src = source_of("kernel: rows\nop: layer_norm\n");
	ck_assert_ptr_nonnull(strstr(src, "// Scratch: none.  x, y, the weight and bias are read or written"));
	ck_assert_ptr_nonnull(strstr(src, "typedef float W;  // the weight and bias (f32)"));
	free(src);
	src = source_of("kernel: rows\nop: cross_entropy\nstrategy: warp\n");
	ck_assert_ptr_nonnull(strstr(src, "rows a grid apart; rows of any length."));
	ck_assert_ptr_null(strstr(src, "rows of up to 0 elements"));
	free(src);
	/* a cluster's blocks hold their parts of the weight: 2 x 64 KB of stages and 512 x 8 x 8 bf16 */
	src = source_of("kernel: rows\nop: rms_norm\ndtype: bf16\nstrategy: cluster\ncluster_size: 8\nvectors: 8\n");
	ck_assert_ptr_nonnull(strstr(src, "<<<grid, 512, 196608>>>"));
	ck_assert_ptr_nonnull(strstr(src, "staged_rows<4096, 8, 512, 2, true>(a);"));
	ck_assert_ptr_nonnull(strstr(src, "b.weight = held - wfrom;"));
	ck_assert_ptr_nonnull(strstr(src, "rows of up to 262144 elements"));
	free(src);
	/* the weight and bias do not fit beside two stages of 64 KB: one stage */
	src = source_of("kernel: rows\nop: layer_norm\ndtype: bf16\nstrategy: cluster\ncluster_size: 2\nvectors: 8\n");
	ck_assert_ptr_nonnull(strstr(src, "<<<grid, 512, 196608>>>"));
	ck_assert_ptr_nonnull(strstr(src, "staged_rows<1024, 8, 512, 1, true>(a);"));
	free(src);
}
END_TEST

/* Softmax's clusters of half the spec's threads (bf16), the stage on whole 128-byte lines, and the norms'
 * weight prefetched into L1 only by a row over a cluster's blocks whose weight is not held in shared memory. */
/* bf16 by pairs of a 32-bit word in the norms (x and the weight), not in softmax, log-softmax or
 * cross-entropy (where the pairs measured slower, bench/results/nvidia-h100/2026-12-07-rows-twins), and never
 * for f16 or f32. */
START_TEST(rows_bf16_pairs_only_in_the_norms)
{
	static const struct {
		const char *yaml;
		int x_pairs, w_pairs;
	} cases[] = {
		{ "kernel: rows\nop: rms_norm\ndtype: bf16\n", 1, 1 },
		{ "kernel: rows\nop: layer_norm\ndtype: bf16\nweight_dtype: f32\n", 1, 0 },
		{ "kernel: rows\nop: layer_norm\ndtype: f16\nweight_dtype: bf16\n", 0, 1 },
		{ "kernel: rows\nop: softmax\ndtype: bf16\n", 0, 0 },
		{ "kernel: rows\nop: log_softmax\ndtype: bf16\n", 0, 0 },
		{ "kernel: rows\nop: cross_entropy\ndtype: bf16\n", 0, 0 },
		{ "kernel: rows\nop: rms_norm\ndtype: f32\n", 0, 0 },
	};
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *src = source_of(cases[i].yaml);
		const char *x = strstr(src, "Acc x_to_float(const Vec<T> &w, int j)");
		const char *w = strstr(src, "Acc w_to_float(const Vec<W> &w, int j)");
		const char *pair = "reinterpret_cast<const unsigned int *>(w.v)[j / 2]";

		ck_assert_msg(x != NULL, "case %zu: no x_to_float(v, j)", i);
		ck_assert_int_eq(strstr(x, pair) != NULL && (!w || strstr(x, pair) < w), cases[i].x_pairs);
		ck_assert_int_eq(w && strstr(w, pair) != NULL, cases[i].w_pairs);
		free(src);
	}
}
END_TEST

START_TEST(rows_half_clusters_and_far_weights)
{
	kgen_spec *spec = load("kernel: rows\ndtype: bf16\n");
	struct kgen_rows_choice c[KGEN_MAX_STEPS];
	int n = kgen_rows_kernels(spec, c, KGEN_MAX_STEPS), i, half = 0;
	char *src;

	for (i = 0; i < n; i++) {
		if (c[i].cluster < 2)
			continue;
		half++;
		ck_assert_int_eq(kgen_rows_block(spec, &c[i]), 256);
		ck_assert_int_eq(c[i].vectors, 16);
		ck_assert_uint_eq(kgen_rows_capacity(spec, &c[i]), (unsigned long long)c[i].cluster * 256 * 16);
		ck_assert_int_eq(kgen_rows_smem(spec, &c[i]), 2 * 256 * 16 * 16);  /* two stages of the block's part */
	}
	ck_assert_int_eq(half, 3);
	kgen_spec_free(spec);
	src = source_of("kernel: rows\ndtype: bf16\n");
	ck_assert_ptr_nonnull(strstr(src, "rows_softmax_bf16_cluster2x16h(a (struct Rows, by value))  <<<grid, 256, 131072>>>"));
	ck_assert_ptr_nonnull(strstr(src, "CLUSTER_DIMS(8) __launch_bounds__(256, 1)\nrows_softmax_bf16_cluster8x16h(const Rows a)"));
	ck_assert_ptr_nonnull(strstr(src, "staged_rows<2048, 16, 256, 2>(a);"));  /* 8 blocks of 256 threads, 16 x 8 bf16 each */
	ck_assert_ptr_nonnull(strstr(src, "extern __shared__ __align__(128) Vec<T> stage[];"));
	ck_assert_ptr_null(strstr(src, "prefetch"));  /* no weight */
	free(src);
	/* f32 LayerNorm past 131072: 16 blocks of 1024 x 4 loads a row hold the weight and bias beside their stage
	 * (FAR false); the 8 blocks of 1024 x 8 after them (where a GPU refuses clusters of 16) hold none, so they
	 * prefetch them; the blocks a row (LANES = NT) take no prefetch */
	src = source_of("kernel: rows\nop: layer_norm\n");
	ck_assert_ptr_nonnull(strstr(src, "asm volatile(\"prefetch.L1 [%0];\" ::\"l\"(p + i * VEC));"));
	ck_assert_ptr_nonnull(strstr(src, "return LANES <= NT || !FAR ? 0 : AHEAD < 1 ? 1 : AHEAD < VECS ? AHEAD : VECS;"));
	ck_assert_ptr_nonnull(strstr(src, "layer_norm_held<LANES, VECS, NT, !HOLD>(b, row, lane, n, v);"));
	ck_assert_ptr_nonnull(strstr(src, "staged_rows<8192, 8, 1024, 1, false>(a);"));  /* _cluster8x8w: not held */
	ck_assert_ptr_nonnull(strstr(src, "CLUSTER_DIMS(16) __launch_bounds__(512, 1)\nrows_layer_norm_f32_cluster16x8(const Rows a)"));
	ck_assert_ptr_nonnull(strstr(src, "staged_rows<8192, 8, 512, 1, true>(a);"));  /* 1 stage, the weight and bias held */
	free(src);
}
END_TEST

/* A wide kernel's block, its rows a block, its stages and its launch bounds, in the contract and the source. */
START_TEST(rows_wide_kernels_take_twice_the_threads)
{
	kgen_spec *spec = load("kernel: rows\nop: layer_norm\ndtype: bf16\n");
	struct kgen_rows_choice c[KGEN_MAX_STEPS];
	int n = kgen_rows_kernels(spec, c, KGEN_MAX_STEPS), i, wide = 0;
	char *src;

	for (i = 0; i < n; i++) {
		if (c[i].lanes > 0 && c[i].lanes <= 32 && !c[i].stages) {  /* a warp kernel: blocks of 128 */
			ck_assert_int_eq(kgen_rows_block(spec, &c[i]), KGEN_ROWS_WARP_THREADS);
			continue;
		}
		if (!c[i].threads)
			continue;
		wide++;
		ck_assert_int_eq(kgen_rows_block(spec, &c[i]), 1024);
		ck_assert_int_eq(c[i].stages > 0, 1);
		if (c[i].lanes == 512) {  /* two rows of 512 x 4 loads: 2 stages of 64 KB, 16384 bf16 of weight and bias */
			ck_assert_int_eq(kgen_rows_per_block(spec, &c[i]), 2);
			ck_assert_int_eq(kgen_rows_smem(spec, &c[i]), 2 * 1024 * 4 * 16 + 2 * 16384 * 2);
			ck_assert_uint_eq(kgen_rows_capacity(spec, &c[i]), 2048);
		}
	}
	ck_assert_int_eq(wide, 7);  /* 64 x 3, 64 x 4, 128 x 3, 256 x 2, 256 x 4, 512 x 4 and 1024 x 4 (its cluster of 16: the spec's 512 x 8) */
	kgen_spec_free(spec);
	src = source_of("kernel: rows\nop: layer_norm\ndtype: bf16\n");
	ck_assert_ptr_nonnull(strstr(src, "rows_layer_norm_bf16_staged512x4w(a (struct Rows, by value))  <<<grid, 1024, 196608>>>  "
	                                 "instead on sm_90 when 8192 < cols <= 16384"));
	ck_assert_ptr_nonnull(strstr(src, "__launch_bounds__(1024, 1)\nrows_layer_norm_bf16_staged512x4w(const Rows a)"));
	ck_assert_ptr_nonnull(strstr(src, "staged_rows<512, 4, 1024, 2, true>(a);"));
	ck_assert_ptr_nonnull(strstr(src, "rows_layer_norm_bf16_staged256x2w(a (struct Rows, by value))  <<<grid, 1024, 81920>>>  "
	                                 "instead on sm_90 when 3072 < cols <= 4096"));
	ck_assert_ptr_nonnull(strstr(src, "__launch_bounds__(1024, 1)\nrows_layer_norm_bf16_staged256x2w(const Rows a)"));
	ck_assert_ptr_null(strstr(src, "rows_layer_norm_bf16_staged128x4("));  /* 3073-4096: the wide 256 x 2 */
	free(src);
	src = source_of("kernel: rows\nop: softmax\ndtype: bf16\n");
	ck_assert_ptr_null(strstr(src, "<<<grid, 1024"));  /* softmax measured no faster wide */
	free(src);
}
END_TEST

static Suite *
rows_suite(void)
{
	Suite *s = suite_create("rows");
	TCase *tc = tcase_create("rows");

	tcase_add_test(tc, rows_minimal_spec_gets_every_default);
	tcase_add_test(tc, rows_types_default_to_dtype);
	tcase_add_loop_test(tc, rows_refused, 0, (int)KGEN_COUNT(refusals));
	tcase_add_test(tc, rows_auto_lists_its_kernels_by_row_length);
	tcase_add_test(tc, rows_auto_has_exact_twins);
	tcase_add_test(tc, rows_capacities_follow_lanes_vectors_and_cluster);
	tcase_add_test(tc, rows_sources_hold_what_each_variant_needs);
	tcase_add_test(tc, rows_wide_kernels_take_twice_the_threads);
	tcase_add_test(tc, rows_half_clusters_and_far_weights);
	tcase_add_test(tc, rows_bf16_pairs_only_in_the_norms);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(rows_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
