/*
 * transpose_test.c - the matrix transpose family (`kernel: transpose`): its
 * defaults (threads from the tile and the batch, the name), the specs under
 * specs/transpose/, the keys each method takes, and every rule of
 * gen/transpose_check.c with its exact message, line, column and source
 * line.
 */
#include "config.h"
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kgen.h"
#include "gen/util.h"
#include "spec_assert.h"

/* ---- defaults and good specs ---- */

START_TEST(transpose_minimal_spec_gets_every_default)
{
	kgen_spec *spec = load("kernel: transpose\n");
	char *yaml = dump(spec);

	/* threads = tile_rows * tile_cols / batch = 32 * 32 / 4; reduce keys are not shown. */
	ck_assert_str_eq(yaml,
		"kernel: transpose\n"
		"name: transpose_f32\n"
		"dtype: f32\n"
		"threads: 256\n"
		"load_width: 16\n"
		"index: 64\n"
		"method: smem\n"
		"tile_rows: 32\n"
		"tile_cols: 32\n"
		"batch: 4\n"
		"swizzle: none\n"
		"walk: rows\n"
		"buffers: 1\n"
		"cache_hint: none\n"
		"l2_promotion: 128B\n"
		"order: rows\n"
		"group: 8\n"
		"load_hint: none\n"
		"store_hint: none\n"
		"pad: 1\n");
	free(yaml);
	kgen_spec_free(spec);
}
END_TEST

START_TEST(transpose_threads_default_to_tile_over_batch)
{
	kgen_spec *spec = load("kernel: transpose\nmethod: tma\ntile_rows: 64\ntile_cols: 64\nbatch: 16\n");

	ASSERT_FIELD(spec, "threads", "256");
	kgen_spec_free(spec);
	spec = load("kernel: transpose\nmethod: tma\ndtype: f64\ntile_rows: 16\ntile_cols: 64\nbatch: 1\n");
	ASSERT_FIELD(spec, "threads", "1024");
	ASSERT_FIELD(spec, "name", "transpose_f64");
	kgen_spec_free(spec);
	/* Given threads that cover the tile are kept. */
	spec = load("kernel: transpose\nthreads: 256\n");
	ASSERT_FIELD(spec, "threads", "256");
	kgen_spec_free(spec);
}
END_TEST

START_TEST(transpose_name_defaults_to_transpose_dtype)
{
	kgen_spec *spec = load("kernel: transpose\ndtype: bf16\nload_width: 8\n");

	ASSERT_FIELD(spec, "name", "transpose_bf16");
	kgen_spec_free(spec);
	spec = load("kernel: transpose\nname: my_t\n");
	ASSERT_FIELD(spec, "name", "my_t");
	kgen_spec_free(spec);
}
END_TEST

START_TEST(transpose_spec_files_load)
{
	static const char *const files[] = {
		"specs/transpose/tma-post/01-naive.yaml", "specs/transpose/tma-post/02-swizzle-128b.yaml",
		"specs/transpose/tma-post/03-batched.yaml", "specs/transpose/smem-padded.yaml",
	};
	static const char *const threads[] = { "1024", "1024", "128", "256" };
	static const char *const swizzles[] = { "none", "128B", "128B", "none" };
	size_t i;

	for (i = 0; i < sizeof files / sizeof files[0]; i++) {
		kgen_spec *spec = NULL;
		kgen_error err;

		ck_assert_msg(kgen_spec_load_file(srcpath(files[i]), &spec, &err) == KGEN_OK, "%s: %s", files[i],
		              err.message);
		ASSERT_FIELD(spec, "kernel", "transpose");
		ASSERT_FIELD(spec, "threads", threads[i]);
		ASSERT_FIELD(spec, "swizzle", swizzles[i]);
		ASSERT_FIELD(spec, "name", "transpose_f32");
		kgen_spec_free(spec);
	}
}
END_TEST

START_TEST(transpose_tma_tuning_keys_are_accepted)
{
	kgen_spec *spec = load("kernel: transpose\nmethod: tma\ntile_rows: 32\ntile_cols: 64\nbatch: 16\n"
	                       "walk: diagonal\nbuffers: 2\ncache_hint: evict_first\nl2_promotion: 256B\n");

	ASSERT_FIELD(spec, "walk", "diagonal");
	ASSERT_FIELD(spec, "buffers", "2");
	ASSERT_FIELD(spec, "cache_hint", "evict_first");
	ASSERT_FIELD(spec, "l2_promotion", "256B");
	kgen_spec_free(spec);
	spec = load("kernel: transpose\nmethod: tma\norder: grouped\ngroup: 4\n");
	ASSERT_FIELD(spec, "order", "grouped");
	ASSERT_FIELD(spec, "group", "4");
	kgen_spec_free(spec);
	spec = load("kernel: transpose\nmethod: tma\norder: cols\n");
	ASSERT_FIELD(spec, "order", "cols");
	kgen_spec_free(spec);
}
END_TEST

START_TEST(transpose_smem_hints_and_order_are_accepted)
{
	static const char *const loads[] = { "none", "nc", "cg", "cs", "lu" };
	static const char *const stores[] = { "none", "cs", "cg", "wt" };
	char yaml[160];
	kgen_spec *spec;
	int i, j;

	for (i = 0; i < 5; i++)
		for (j = 0; j < 4; j++) {
			snprintf(yaml, sizeof yaml, "kernel: transpose\norder: cols\nload_hint: %s\nstore_hint: %s\n", loads[i],
			         stores[j]);
			spec = load(yaml);
			ASSERT_FIELD(spec, "load_hint", loads[i]);
			ASSERT_FIELD(spec, "store_hint", stores[j]);
			ASSERT_FIELD(spec, "order", "cols");
			kgen_spec_free(spec);
		}
}
END_TEST

/* ---- every rule of transpose, in its order ---- */

/* Specs of kernel: transpose that are refused: each row as one of
 * ASSERT_REJECTED. */
static const struct refusal transpose_refusals[] = {
	{ "check_rejects_reduce_key_in_transpose_spec", "kernel: transpose\nop: sum\n",
	  "op does not apply to kernel: transpose", 2, 1, "op: sum" },
	{ "check_rejects_reduce_key_in_transpose_spec", "kernel: transpose\ntile_rows: 32\nitems_per_thread: 8\n",
	  "items_per_thread does not apply to kernel: transpose", 3, 1, "items_per_thread: 8" },
	{ "check_transpose_rejects_batch_not_dividing_tile",
	  "kernel: transpose\ntile_rows: 32\ntile_cols: 32\nbatch: 3\n", "batch 3 does not divide the 32x32 tile", 4, 8,
	  "batch: 3" },
	{ "check_transpose_rejects_threads_not_covering_tile", "kernel: transpose\nthreads: 128\n",
	  "threads 128 do not cover the 32x32 tile with batch 4: 32 x 32 / 4 = 256 threads are needed", 2, 10,
	  "threads: 128" },
	/* Derived threads: the error points at the batch that derived them. */
	{ "check_transpose_rejects_threads_not_multiple_of_32",
	  "kernel: transpose\ntile_rows: 32\ntile_cols: 32\nbatch: 64\n",
	  "threads 16 (tile 32x32 / batch 64) must be a multiple of 32 and at most 1024: use batch: 32", 4, 8,
	  "batch: 64" },
	{ "check_transpose_rejects_threads_not_multiple_of_32",
	  "kernel: transpose\ntile_rows: 10\ntile_cols: 10\nbatch: 1\nthreads: 100\nload_width: 4\n",
	  "threads 100 (tile 10x10 / batch 1) must be a multiple of 32 and at most 1024: change the tile", 5, 10,
	  "threads: 100" },
	{ "check_transpose_rejects_more_than_1024_threads",
	  "kernel: transpose\ntile_rows: 64\ntile_cols: 64\nbatch: 1\n",
	  "threads 4096 (tile 64x64 / batch 1) must be a multiple of 32 and at most 1024: use batch: 4", 4, 8,
	  "batch: 1" },
	{ "check_transpose_smem_rejects_tma_keys", "kernel: transpose\nwalk: rows\n",
	  "walk needs method: tma (the shared-memory path pads instead)", 2, 7, "walk: rows" },
	{ "check_transpose_smem_rejects_tma_keys", "kernel: transpose\nmethod: smem\ncache_hint: none\n",
	  "cache_hint needs method: tma", 3, 13, "cache_hint: none" },
	{ "check_transpose_smem_rejects_tma_keys", "kernel: transpose\nl2_promotion: 64B\n",
	  "l2_promotion needs method: tma", 2, 15, "l2_promotion: 64B" },
	{ "check_transpose_smem_rejects_tma_keys", "kernel: transpose\nbuffers: 2\n",
	  "buffers needs method: tma (the shared-memory path moves one tile per block)", 2, 10, "buffers: 2" },
	{ "check_transpose_smem_rejects_tma_keys", "kernel: transpose\nswizzle: 128B\n",
	  "swizzle needs method: tma (the shared-memory path pads instead)", 2, 10, "swizzle: 128B" },
	{ "check_transpose_smem_rejects_bad_load_width", "kernel: transpose\nload_width: 32\n",
	  "load_width 32 must be the element size (4 bytes for f32) times a power of two, at most 16", 2, 13,
	  "load_width: 32" },
	{ "check_transpose_smem_rejects_bad_load_width", "kernel: transpose\ndtype: f64\nload_width: 4\n",
	  "load_width 4 must be the element size (8 bytes for f64) times a power of two, at most 16", 3, 13,
	  "load_width: 4" },
	{ "check_transpose_smem_rejects_bad_load_width", "kernel: transpose\ndtype: f16\nload_width: 6\n",
	  "load_width 6 must be the element size (2 bytes for f16) times a power of two, at most 16", 3, 13,
	  "load_width: 6" },
	{ "check_transpose_smem_rejects_vector_not_dividing_tile",
	  "kernel: transpose\ntile_rows: 32\ntile_cols: 6\nbatch: 2\n",
	  "load_width 16 (4 elements) must divide tile_rows 32 and tile_cols 6: vectors run along the rows "
	  "of the input and of the output", 1, 1, "kernel: transpose" },
	{ "check_transpose_smem_rejects_vector_not_dividing_tile",
	  "kernel: transpose\ntile_rows: 6\ntile_cols: 32\nbatch: 2\nload_width: 16\n",
	  "load_width 16 (4 elements) must divide tile_rows 6 and tile_cols 32: vectors run along the rows "
	  "of the input and of the output", 5, 13, "load_width: 16" },
	{ "check_transpose_smem_rejects_batch_not_multiple_of_vector", "kernel: transpose\nbatch: 2\n",
	  "batch 2 is not a multiple of the 4 elements of one 16-byte load", 2, 8, "batch: 2" },
	{ "check_transpose_tma_rejects_load_width", "kernel: transpose\nmethod: tma\nload_width: 16\n",
	  "load_width has no effect with method: tma (the TMA unit moves whole tiles)", 3, 13, "load_width: 16" },
	{ "check_transpose_tma_rejects_pad", "kernel: transpose\nmethod: tma\npad: 1\n",
	  "pad has no effect with method: tma; use swizzle against bank conflicts", 3, 6, "pad: 1" },
	{ "check_transpose_tma_rejects_box_row_not_filling_swizzle_span",
	  "kernel: transpose\nmethod: tma\ntile_rows: 16\ntile_cols: 16\nbatch: 1\nswizzle: 128B\n",
	  "tile_cols 16 is 64 bytes of f32, not the 128 bytes of the swizzle span (a swizzled TMA box row "
	  "must fill it): use tile_cols: 32, or swizzle: 64B", 4, 12, "tile_cols: 16" },
	{ "check_transpose_tma_rejects_box_row_not_filling_swizzle_span",
	  "kernel: transpose\nmethod: tma\ntile_rows: 8\ntile_cols: 64\nbatch: 1\nswizzle: 32B\n",
	  "tile_cols 64 is 256 bytes of f32, not the 32 bytes of the swizzle span (a swizzled TMA box row "
	  "must fill it): use tile_cols: 8, or swizzle: none", 4, 12, "tile_cols: 64" },
	{ "check_transpose_tma_rejects_transposed_row_not_filling_swizzle_span",
	  "kernel: transpose\nmethod: tma\ntile_rows: 64\ntile_cols: 32\nbatch: 2\nswizzle: 128B\n",
	  "tile_rows 64 is 256 bytes of f32, not the 128 bytes of the swizzle span (the rows of the "
	  "transposed box must fill it): use tile_rows: 32", 3, 12, "tile_rows: 64" },
	{ "check_transpose_tma_rejects_diagonal_walk_with_swizzle",
	  "kernel: transpose\nmethod: tma\nbatch: 1\nswizzle: 128B\nwalk: diagonal\n",
	  "walk: diagonal avoids bank conflicts without a swizzle: use swizzle: none", 5, 7, "walk: diagonal" },
	{ "check_transpose_tma_rejects_diagonal_walk_off_32x32",
	  "kernel: transpose\nmethod: tma\ntile_rows: 16\ntile_cols: 64\nbatch: 1\nwalk: diagonal\n",
	  "walk: diagonal moves 32x32 sub-blocks, batch steps per warp: it needs tile_rows and tile_cols "
	  "multiples of 32 and a batch that divides 32", 6, 7, "walk: diagonal" },
	{ "check_transpose_tma_rejects_diagonal_walk_off_32x32",
	  "kernel: transpose\nmethod: tma\ntile_rows: 64\ntile_cols: 64\nbatch: 64\nwalk: diagonal\n",
	  "walk: diagonal moves 32x32 sub-blocks, batch steps per warp: it needs tile_rows and tile_cols "
	  "multiples of 32 and a batch that divides 32", 6, 7, "walk: diagonal" },
	{ "check_transpose_tma_rejects_box_row_not_16_bytes",
	  "kernel: transpose\nmethod: tma\ntile_rows: 64\ntile_cols: 2\nbatch: 1\n",
	  "tile_cols 2 is 8 bytes of f32: a TMA box row must be a multiple of 16 bytes", 4, 12, "tile_cols: 2" },
	{ "check_transpose_tma_rejects_transposed_row_not_16_bytes",
	  "kernel: transpose\nmethod: tma\ntile_rows: 2\ntile_cols: 64\nbatch: 1\n",
	  "tile_rows 2 is 8 bytes of f32: the transposed box's rows must be a multiple of 16 bytes", 3, 12,
	  "tile_rows: 2" },
	{ "check_transpose_tma_rejects_batch_not_dividing_tile_cols",
	  "kernel: transpose\nmethod: tma\ntile_rows: 64\ntile_cols: 32\nbatch: 64\n",
	  "batch 64 must divide tile_cols 32: each thread moves batch adjacent elements of one row", 5, 8,
	  "batch: 64" },
	{ "check_transpose_rejects_order_with_buffers", "kernel: transpose\nmethod: tma\nbuffers: 2\norder: cols\n",
	  "order needs buffers: 1 (a pipelined block walks its own tiles)", 4, 8, "order: cols" },
	{ "check_transpose_rejects_order_with_buffers",
	  "kernel: transpose\nmethod: tma\nbuffers: 2\norder: grouped\ngroup: 4\n",
	  "order needs buffers: 1 (a pipelined block walks its own tiles)", 4, 8, "order: grouped" },
	{ "check_transpose_rejects_hilbert", "kernel: transpose\norder: hilbert\n",
	  "order: hilbert is matmul's; a transpose takes rows, cols or grouped", 2, 8, "order: hilbert" },
	{ "check_transpose_rejects_hilbert", "kernel: transpose\nmethod: tma\norder: hilbert\ngroup: 4\n",
	  "order: hilbert is matmul's; a transpose takes rows, cols or grouped", 3, 8, "order: hilbert" },
	{ "check_transpose_rejects_group_without_grouped_order", "kernel: transpose\nmethod: tma\ngroup: 4\n",
	  "group needs order: grouped, not rows", 3, 8, "group: 4" },
	{ "check_transpose_rejects_group_without_grouped_order", "kernel: transpose\norder: cols\ngroup: 4\n",
	  "group needs order: grouped, not cols", 3, 8, "group: 4" },
	{ "check_transpose_rejects_hints_with_tma", "kernel: transpose\nmethod: tma\nstore_hint: cs\n",
	  "store_hint needs method: smem (TMA copies take cache_hint)", 3, 13, "store_hint: cs" },
	{ "check_transpose_rejects_hints_with_tma", "kernel: transpose\nmethod: tma\nload_hint: nc\n",
	  "load_hint needs method: smem (TMA copies take cache_hint)", 3, 12, "load_hint: nc" },
	{ "check_transpose_rejects_hints_with_tma", "kernel: transpose\nstore_hint: wb\n",
	  "store_hint: unknown value 'wb' (did you mean 'wt'?): expected none, cs, cg or wt", 2, 13, "store_hint: wb" },
	/* 128 rows of 128 + 1 floats: 66048 bytes. */
	{ "check_transpose_smem_rejects_tile_over_48_kb",
	  "kernel: transpose\nmethod: smem\ntile_rows: 128\ntile_cols: 128\nbatch: 16\n",
	  "the 128x128 tile needs 66048 bytes of shared memory, over the 48 KB of static shared memory a "
	  "block gets: use a smaller tile", 3, 12, "tile_rows: 128" },
	/* Two 128x128 f64 tiles and an mbarrier: 262152 bytes, over any block's
	 * shared memory on Hopper even as dynamic shared memory. */
	{ "check_transpose_tma_rejects_tile_over_227_kb",
	  "kernel: transpose\nmethod: tma\ndtype: f64\ntile_rows: 128\ntile_cols: 128\nbatch: 16\n",
	  "the 128x128 tile needs 262152 bytes of shared memory (buffers 1), over the 232448 bytes a block "
	  "can have on Hopper: use a smaller tile or fewer buffers", 4, 12, "tile_rows: 128" },
	/* Pipelined kernels keep their buffers in static shared memory (48 KB). */
	{ "check_transpose_pipelined_tiles_fit_static_shared_memory",
	  "kernel: transpose\nmethod: tma\ntile_rows: 64\ntile_cols: 64\nbatch: 16\nbuffers: 2\n",
	  "2 buffers of a 64x64 tile need 65552 bytes of shared memory, over the 48 KB of static shared "
	  "memory pipelined kernels use: use fewer buffers or a smaller tile", 6, 10, "buffers: 2" },
	{ "check_transpose_rejects_index_not_32_or_64", "kernel: transpose\nindex: 40\n",
	  "index must be 32 or 64, not 40", 2, 8, "index: 40" },
};

/* Each row of transpose_refusals. */
START_TEST(refused_transpose_specs)
{
	assert_refused(&transpose_refusals[_i]);
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("transpose");
	TCase *tc = tcase_create("defaults");

	tcase_add_test(tc, transpose_minimal_spec_gets_every_default);
	tcase_add_test(tc, transpose_threads_default_to_tile_over_batch);
	tcase_add_test(tc, transpose_name_defaults_to_transpose_dtype);
	tcase_add_test(tc, transpose_spec_files_load);
	tcase_add_test(tc, transpose_tma_tuning_keys_are_accepted);
	tcase_add_test(tc, transpose_smem_hints_and_order_are_accepted);
	suite_add_tcase(s, tc);
	tc = tcase_create("check");
	tcase_add_loop_test(tc, refused_transpose_specs, 0, (int)KGEN_COUNT(transpose_refusals));
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
