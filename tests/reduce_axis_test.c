/*
 * reduce_axis_test.c - the matrix reduction family (`kernel: reduce_axis`):
 * its defaults, every rule with its exact message and place, the keys its
 * header lists, what each strategy emits, and its launcher's argument
 * errors (which need no GPU).
 */
#include "config.h"
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kgen.h"
#include "spec_assert.h"

static char *
generate(const char *yaml)
{
	kgen_spec *spec = load(yaml);
	kgen_error err;
	char *src = NULL;

	ck_assert_msg(kgen_generate(spec, &src, &err) == KGEN_OK, "generate: %s", err.message);
	kgen_spec_free(spec);
	return src;
}

/* ---- defaults ---- */

START_TEST(rows_default_to_auto)
{
	kgen_spec *s = load("kernel: reduce_axis\n");

	ASSERT_FIELD(s, "axis", "rows");
	ASSERT_FIELD(s, "strategy", "auto");
	ASSERT_FIELD(s, "split", "0");
	ASSERT_FIELD(s, "threads", "512");
	ASSERT_FIELD(s, "load_width", "16");
	ASSERT_FIELD(s, "op", "sum");
	ASSERT_FIELD(s, "acc_dtype", "f32");
	ASSERT_FIELD(s, "name", "reduce_rows_sum_f32");
	kgen_spec_free(s);
}
END_TEST

START_TEST(cols_default_to_auto)
{
	kgen_spec *s = load("kernel: reduce_axis\naxis: cols\ndtype: bf16\nop: max\n");

	ASSERT_FIELD(s, "strategy", "auto");
	ASSERT_FIELD(s, "acc_dtype", "f32");
	ASSERT_FIELD(s, "name", "reduce_cols_max_bf16");
	kgen_spec_free(s);
}
END_TEST

START_TEST(set_axis_rederives_the_name)
{
	kgen_spec *s = load("kernel: reduce_axis\n");
	kgen_error err;

	ck_assert_int_eq(kgen_spec_set(s, "axis", "cols", &err), KGEN_OK);
	ASSERT_FIELD(s, "name", "reduce_cols_sum_f32");
	kgen_spec_free(s);
}
END_TEST

/* ---- rules ---- */

START_TEST(tile_needs_cols)
{
	ASSERT_REJECTED_AT("kernel: reduce_axis\nstrategy: tile\n",
	                "strategy: tile walks down columns: use axis: cols, or strategy: block or warp for rows", 2, 11);
}
END_TEST

START_TEST(warp_and_block_need_rows)
{
	ASSERT_REJECTED_AT("kernel: reduce_axis\naxis: cols\nstrategy: warp\n",
	                "strategy: warp reduces along rows: use axis: rows, or strategy: tile (or thread) for columns", 3,
	                11);
	ASSERT_REJECTED_AT("kernel: reduce_axis\naxis: cols\nstrategy: block\n",
	                "strategy: block reduces along rows: use axis: rows, or strategy: tile (or thread) for columns", 3,
	                11);
}
END_TEST

START_TEST(lanes_only_with_warp)
{
	ASSERT_REJECTED_AT("kernel: reduce_axis\nlanes: 8\n", "lanes needs strategy: warp, not auto (auto chooses its own)",
	                2, 8);
	ASSERT_REJECTED_AT("kernel: reduce_axis\nstrategy: warp\nlanes: 12\n",
	                "lanes 12 is not a power of two: use 1, 2, 4, 8, 16 or 32", 3, 8);
}
END_TEST

START_TEST(split_only_with_block_tile_or_auto)
{
	ASSERT_REJECTED_AT("kernel: reduce_axis\nstrategy: warp\nsplit: 4\n",
	                "split needs strategy: block, tile or auto, not warp", 3, 8);
	ASSERT_REJECTED_AT("kernel: reduce_axis\naxis: cols\nstrategy: thread\nsplit: 4\n",
	                "split needs strategy: block, tile or auto, not thread", 4, 8);
}
END_TEST

START_TEST(load_width_not_with_thread)
{
	ASSERT_REJECTED_AT("kernel: reduce_axis\nstrategy: thread\nload_width: 16\n",
	                "load_width has no effect with strategy: thread (one element at a time, as in seed 002)", 3, 13);
	ASSERT_REJECTED_AT("kernel: reduce_axis\nload_width: 32\n",
	                "load_width 32 must be the element size (4 bytes for f32) times a power of two, at most 16", 2, 13);
	ASSERT_REJECTED_AT("kernel: reduce_axis\ndtype: f64\nload_width: 4\n",
	                "load_width 4 must be the element size (8 bytes for f64) times a power of two, at most 16", 3, 13);
}
END_TEST

START_TEST(block_reduce_only_with_a_block_reduction)
{
	ASSERT_REJECTED_AT("kernel: reduce_axis\nstrategy: warp\nblock_reduce: warps\n",
	                "block_reduce needs strategy: block or auto (the only ones with a block reduction)", 3, 15);
	ASSERT_REJECTED_AT("kernel: reduce_axis\naxis: cols\nstrategy: tile\nwarp_tail: shuffle\n",
	                "warp_tail needs strategy: block or auto (the only ones with a block reduction)", 4, 12);
	ASSERT_REJECTED_AT("kernel: reduce_axis\naxis: cols\nwarp_tail: shuffle\n",
	                "warp_tail needs axis: rows (columns are combined by row groups, not a block reduction)", 3, 12);
	ASSERT_REJECTED_AT("kernel: reduce_axis\nblock_reduce: warps\nwarp_tail_from: 32\n",
	                "warp_tail_from has no effect with block_reduce: warps; drop it", 3, 17);
	/* The shared block-reduction rules hold here too. */
	ASSERT_REJECTED_AT("kernel: reduce_axis\nblock_reduce: interleaved\nwarp_tail: shuffle\n",
	                "block_reduce: interleaved leaves its partials strided, so a warp cannot finish them: use "
	                "warp_tail: none, or block_reduce: sequential", 3, 12);
	ASSERT_REJECTED_AT("kernel: reduce_axis\nblock_reduce: sequential\nthreads: 96\n",
	                "block_reduce: sequential halves the block each step and needs a power-of-two block, not threads "
	                "96: use 64 or 128, or block_reduce: warps", 3, 10);
}
END_TEST

START_TEST(tile_needs_power_of_two_block_and_fits_shared_memory)
{
	ASSERT_REJECTED_AT("kernel: reduce_axis\naxis: cols\nthreads: 96\n",
	                "strategy: tile halves its row groups in a tree and needs a power-of-two block, not threads 96", 3,
	                10);
	ASSERT_REJECTED_AT("kernel: reduce_axis\naxis: cols\ndtype: bf16\nacc_dtype: f64\nthreads: 1024\n",
	                "strategy: tile combines 8 x 1024 accumulators of f64 in shared memory, 65536 bytes, over the 48 KB "
	                "a block gets: use fewer threads or a smaller load_width", 5, 10);
}
END_TEST

START_TEST(reduce_keys_do_not_apply)
{
	ASSERT_REJECTED_AT("kernel: reduce_axis\nstages: atomic\n", "stages does not apply to kernel: reduce_axis", 2, 1);
	ASSERT_REJECTED_AT("kernel: reduce\naxis: rows\n", "axis does not apply to kernel: reduce", 2, 1);
	ASSERT_REJECTED_AT("kernel: transpose\nsplit: 2\n", "split does not apply to kernel: transpose", 2, 1);
}
END_TEST

START_TEST(accumulator_rules_are_shared)
{
	ASSERT_REJECTED_AT("kernel: reduce_axis\ndtype: f32\nacc_dtype: i32\n",
	                "acc_dtype i32 cannot accumulate f32 elements: use f32 or f64", 3, 12);
}
END_TEST

/* ---- the generated source ---- */

START_TEST(header_lists_only_the_keys_that_apply)
{
	char *block = generate("kernel: reduce_axis\nstrategy: block\n");
	char *warp = generate("kernel: reduce_axis\nstrategy: warp\nlanes: 16\n");
	char *thread = generate("kernel: reduce_axis\nstrategy: thread\n");

	ck_assert_ptr_nonnull(strstr(block, "//   split: 0\n"));
	ck_assert_ptr_nonnull(strstr(block, "//   block_reduce: warps\n"));
	ck_assert_ptr_null(strstr(block, "//   lanes:"));
	ck_assert_ptr_null(strstr(block, "//   warp_tail_from:"));  /* block_reduce: warps */
	ck_assert_ptr_nonnull(strstr(warp, "//   lanes: 16\n"));
	ck_assert_ptr_null(strstr(warp, "//   split:"));
	ck_assert_ptr_null(strstr(warp, "//   block_reduce:"));
	ck_assert_ptr_null(strstr(thread, "//   load_width:"));
	free(block);
	free(warp);
	free(thread);
}
END_TEST

START_TEST(seed_kernels_are_the_posts)
{
	char *rows = generate("kernel: reduce_axis\nstrategy: thread\nthreads: 256\n");
	char *cols = generate("kernel: reduce_axis\naxis: cols\nstrategy: thread\nthreads: 256\n");

	ck_assert_ptr_nonnull(strstr(rows, "acc = fold(acc, in[row * pitch + i], i);"));
	ck_assert_ptr_nonnull(strstr(rows, "<<<grid, 256>>>"));
	ck_assert_ptr_nonnull(strstr(cols, "acc = fold(acc, in[i * pitch + col], i);"));
	ck_assert_ptr_null(strstr(rows, "reduce_span"));
	free(rows);
	free(cols);
}
END_TEST

START_TEST(strategies_emit_their_pieces)
{
	char *warp = generate("kernel: reduce_axis\nstrategy: warp\nlanes: 8\n");
	char *one = generate("kernel: reduce_axis\nstrategy: warp\nlanes: 1\n");
	char *scalar = generate("kernel: reduce_axis\nstrategy: block\nload_width: 4\n");
	char *tile = generate("kernel: reduce_axis\naxis: cols\nop: min\ndtype: i32\n");

	ck_assert_ptr_nonnull(strstr(warp, "rows_by_lanes<8>(in, out, rows, cols, pitch);"));
	ck_assert_ptr_nonnull(strstr(warp, "__shfl_xor_sync"));
	ck_assert_ptr_nonnull(strstr(warp, "const Vec *v = reinterpret_cast<const Vec *>(x + head);"));
	ck_assert_ptr_nonnull(strstr(one, "rows_by_lanes<1>(in, out, rows, cols, pitch);"));
	ck_assert_ptr_nonnull(strstr(scalar, "thread t of `count` takes every count-th element."));
	ck_assert_ptr_null(strstr(scalar, "const Index nvec"));
	ck_assert_ptr_nonnull(strstr(scalar, "block_reduce(acc)"));
	ck_assert_ptr_nonnull(strstr(tile, "combine_groups(acc, groups);"));
	ck_assert_ptr_nonnull(strstr(tile, "return b < a ? b : a;"));
	ck_assert_ptr_nonnull(strstr(tile, "reduce_cols_min_i32("));
	free(warp);
	free(one);
	free(scalar);
	free(tile);
}
END_TEST

START_TEST(auto_has_a_kernel_per_row_length)
{
	char *rows = generate("kernel: reduce_axis\n");
	char *cols = generate("kernel: reduce_axis\naxis: cols\n");
	char *tile = generate("kernel: reduce_axis\naxis: cols\nstrategy: tile\n");

	ck_assert_ptr_nonnull(strstr(rows, "//   reduce_rows_sum_f32_lanes1(in, out, rows, cols, pitch)  <<<grid, 512>>>  "
	                                   "when cols <= 8\n"));
	/* Rows of a few vectors: a vector a lane, 4 rows per thread (rows_by_vector). */
	ck_assert_ptr_nonnull(strstr(rows, "//   reduce_rows_sum_f32_lanes4x4(in, out, rows, cols, pitch)  <<<grid, 512>>>  "
	                                   "when cols <= 16\n"));
	ck_assert_ptr_nonnull(strstr(rows, "//   reduce_rows_sum_f32_lanes8x4(in, out, rows, cols, pitch)  <<<grid, 512>>>  "
	                                   "when cols <= 32\n"));
	ck_assert_ptr_nonnull(strstr(rows, "\nreduce_rows_sum_f32_lanes8x4(const T *__restrict__ in, Results out, Index rows, "
	                                   "Index cols, Index pitch)\n{\n    rows_by_vector<8, 4>(in, out, rows, cols, pitch);\n}\n"));
	ck_assert_ptr_nonnull(strstr(rows, "\nreduce_rows_sum_f32_lanes4(const T *__restrict__ in, Results out, Index rows, "
	                                   "Index cols, Index pitch)\n{\n    rows_by_lanes<4>(in, out, rows, cols, pitch);\n}\n"));
	ck_assert_ptr_nonnull(strstr(rows, "//   reduce_rows_sum_f32_lanes4(in, out, rows, cols, pitch)  <<<grid, 512>>>  "
	                                   "when cols <= 128\n"));
	ck_assert_ptr_nonnull(strstr(rows, "//   reduce_rows_sum_f32_lanes16(in, out, rows, cols, pitch)  <<<grid, 512>>>  "
	                                   "when cols <= 2048\n"));
	ck_assert_ptr_nonnull(strstr(rows, "reduce_rows_sum_f32_block(in, out, rows, cols, pitch, split, partials, "
	                                   "tickets)  <<<grid, 512>>>  for longer rows\n"));
	ck_assert_ptr_nonnull(strstr(rows, "\nreduce_rows_sum_f32_lanes16(const T *__restrict__ in"));
	ck_assert_ptr_nonnull(strstr(rows, "\nreduce_rows_sum_f32_block(const T *__restrict__ in"));
	/* For columns, auto is the tile kernel (the same source as strategy:
	 * tile's) and _block, the rows' kernel, for one column of pitch 1. */
	ck_assert_ptr_nonnull(strstr(cols, "//   reduce_cols_sum_f32_block(in, out, 1, rows, rows, split, partials, tickets)  "
	                                   "<<<grid, 512>>>  for one column of pitch 1\n"));
	ck_assert_ptr_nonnull(strstr(cols, "\nreduce_cols_sum_f32_block(const T *__restrict__ in"));
	ck_assert_ptr_null(strstr(tile, "_block"));
	{
		const char *a = strstr(cols, "// The columns are cut"), *b = strstr(tile, "// The columns are cut");
		const char *end = strstr(cols, "// Block b reduces part");
		ck_assert_ptr_nonnull(a);
		ck_assert_ptr_nonnull(b);
		ck_assert_ptr_nonnull(end);
		ck_assert_int_eq(strncmp(a, b, (size_t)(end - a) - 1), 0);  /* but the blank line before _block */
		ck_assert_int_eq(b[end - a - 1], '\0');
	}
	free(rows);
	free(cols);
	free(tile);
}
END_TEST

START_TEST(pairs_take_eight_lanes_and_chains)
{
	char *arg = generate("kernel: reduce_axis\nop: argmax\n");
	char *ign = generate("kernel: reduce_axis\nop: argmin\ndtype: bf16\nnan: ignore\n");
	char *sum = generate("kernel: reduce_axis\n");

	/* KGEN_AXIS_AUTO_ROWS_PAIRS: 8 lanes where a sum takes 16. */
	ck_assert_ptr_nonnull(strstr(arg, "//   reduce_rows_argmax_f32_lanes8(in, out, rows, cols, pitch)  <<<grid, 512>>>  "
	                                  "when cols <= 2048\n"));
	ck_assert_ptr_null(strstr(arg, "lanes16"));
	ck_assert_ptr_nonnull(strstr(arg, "\nreduce_rows_argmax_f32_lanes4x4(const T *__restrict__ in"));
	ck_assert_ptr_nonnull(strstr(arg, "\nreduce_rows_argmax_f32_lanes8(const T *__restrict__ in"));
	/* A chain per vector lane, of vector numbers, no index compare in the loop. */
	ck_assert_ptr_nonnull(strstr(arg, "part[k] = chain_fold(part[k], y.v[k], i);"));
	ck_assert_ptr_nonnull(strstr(arg, "acc = combine(acc, chain_end(part[k], base + head + k));"));
	ck_assert_ptr_nonnull(strstr(arg, "Acc chain_start(Index i0) { return { identity().v, (long long)i0 }; }"));
	ck_assert_ptr_nonnull(strstr(arg, "return !(v <= acc.v) & (acc.v == acc.v) ? Acc{ v, (long long)i } : acc;"));
	/* nan: ignore: a NaN marks a chain without a number, which ends as the identity. */
	ck_assert_ptr_nonnull(strstr(ign, "Acc chain_start(Index i0) { return { __uint_as_float(0x7fffffffu), (long long)i0 }; }"));
	ck_assert_ptr_nonnull(strstr(ign, "const float v = to_float(x);\n"
	                                  "    return (v < acc.v) | ((acc.v != acc.v) & (v == v)) ? Acc{ v, (long long)i } : acc;"));
	ck_assert_ptr_nonnull(strstr(ign, "return acc.v != acc.v ? identity() : Acc{ acc.v, (long long)(first + acc.i * VEC) };"));
	ck_assert_ptr_nonnull(strstr(sum, "lanes16"));
	ck_assert_ptr_null(strstr(sum, "chain_"));
	free(arg);
	free(ign);
	free(sum);
}
END_TEST

/* ---- the launcher, without a GPU ---- */

START_TEST(launcher_rejects_null_and_other_families)
{
	kgen_error err;
	size_t bytes = 1;

	memset(&err, 0, sizeof err);
	ck_assert_int_eq(kgen_reduce_axis(NULL, 0, 1, 1, 1, 0, 0, 0, NULL, &err), KGEN_EINVAL);
	ck_assert_str_eq(err.message, "kgen_reduce_axis: NULL kernel");
	ck_assert_int_eq(kgen_reduce_axis_scratch_size(NULL, 1, 1, &bytes, &err), KGEN_EINVAL);
	ck_assert_str_eq(err.message, "kgen_reduce_axis_scratch_size: NULL kernel");
	ck_assert_int_eq(kgen_reduce_axis_scratch_size(NULL, 1, 1, NULL, NULL), KGEN_EINVAL);
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("reduce_axis");
	TCase *tc = tcase_create("spec");

	tcase_add_test(tc, rows_default_to_auto);
	tcase_add_test(tc, cols_default_to_auto);
	tcase_add_test(tc, set_axis_rederives_the_name);
	tcase_add_test(tc, tile_needs_cols);
	tcase_add_test(tc, warp_and_block_need_rows);
	tcase_add_test(tc, lanes_only_with_warp);
	tcase_add_test(tc, split_only_with_block_tile_or_auto);
	tcase_add_test(tc, load_width_not_with_thread);
	tcase_add_test(tc, block_reduce_only_with_a_block_reduction);
	tcase_add_test(tc, tile_needs_power_of_two_block_and_fits_shared_memory);
	tcase_add_test(tc, reduce_keys_do_not_apply);
	tcase_add_test(tc, accumulator_rules_are_shared);
	suite_add_tcase(s, tc);
	tc = tcase_create("generate");
	tcase_add_test(tc, header_lists_only_the_keys_that_apply);
	tcase_add_test(tc, seed_kernels_are_the_posts);
	tcase_add_test(tc, strategies_emit_their_pieces);
	tcase_add_test(tc, auto_has_a_kernel_per_row_length);
	tcase_add_test(tc, pairs_take_eight_lanes_and_chains);
	suite_add_tcase(s, tc);
	tc = tcase_create("launch");
	tcase_add_test(tc, launcher_rejects_null_and_other_families);
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
