/*
 * reduce_test.c - the vector reduction family (`kernel: reduce`): its
 * defaults and what it derives (acc_dtype, name, blocks_per_sm, stages),
 * and every rule of gen/reduce_check.c, with the shared block-reduction
 * rules (gen/check.c) as reduce applies them, each with its exact message,
 * line, column and source line.
 */
#include "config.h"
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kgen.h"
#include "gen/util.h"
#include "spec_assert.h"

/* ---- defaults ---- */

START_TEST(minimal_spec_gets_every_default)
{
	kgen_spec *spec = load("kernel: reduce\n");
	char *yaml = dump(spec);

	ck_assert_str_eq(yaml,
		"kernel: reduce\n"
		"name: reduce_sum_f32\n"
		"op: sum\n"
		"dtype: f32\n"
		"acc_dtype: f32\n"
		"threads: 512\n"
		"items_per_thread: 8\n"
		"load_width: 16\n"
		"layout: strided\n"
		"unroll: 1\n"
		"grid: tile\n"
		"blocks_per_sm: 4\n"
		"stages: atomic\n"
		"atomics: block\n"
		"launch: stream\n"
		"block_reduce: warps\n"
		"warp_tail: shuffle\n"
		"warp_tail_from: 64\n"
		"index: 64\n"
		"out_dtype: f32\n");
	free(yaml);
	kgen_spec_free(spec);
}
END_TEST

START_TEST(dump_shows_resolved_defaults)
{
	kgen_spec *spec = load("kernel: reduce\ndtype: bf16\nop: min\nstages: last_block\nblock_reduce: sequential\n"
	                       "warp_tail: volatile\nwarp_tail_from: 32\ngrid: persistent\nunroll: 2\n");
	char *yaml = dump(spec);

	ck_assert_str_eq(yaml,
		"kernel: reduce\n"
		"name: reduce_min_bf16\n"
		"op: min\n"
		"dtype: bf16\n"
		"acc_dtype: f32\n"
		"threads: 512\n"
		"items_per_thread: 8\n"
		"load_width: 16\n"
		"layout: strided\n"
		"unroll: 2\n"
		"grid: persistent\n"
		"blocks_per_sm: 4\n"
		"stages: last_block\n"
		"atomics: block\n"
		"launch: stream\n"
		"block_reduce: sequential\n"
		"warp_tail: volatile\n"
		"warp_tail_from: 32\n"
		"index: 64\n"
		"out_dtype: f32\n");
	free(yaml);
	kgen_spec_free(spec);
}
END_TEST

START_TEST(half_precision_accumulates_in_f32)
{
	kgen_spec *spec = load("kernel: reduce\ndtype: f16\n");

	ASSERT_FIELD(spec, "acc_dtype", "f32");
	kgen_spec_free(spec);
	spec = load("kernel: reduce\ndtype: bf16\n");
	ASSERT_FIELD(spec, "acc_dtype", "f32");
	kgen_spec_free(spec);
}
END_TEST

START_TEST(acc_dtype_defaults_to_dtype)
{
	kgen_spec *spec = load("kernel: reduce\ndtype: i64\n");

	ASSERT_FIELD(spec, "acc_dtype", "i64");
	kgen_spec_free(spec);
}
END_TEST

START_TEST(name_defaults_to_kernel_op_dtype)
{
	kgen_spec *spec = load("kernel: reduce\nop: max\ndtype: u32\n");

	ASSERT_FIELD(spec, "name", "reduce_max_u32");
	kgen_spec_free(spec);
}
END_TEST

START_TEST(blocks_per_sm_defaults_to_2048_over_threads)
{
	kgen_spec *spec = load("kernel: reduce\nthreads: 256\ngrid: persistent\n");

	ASSERT_FIELD(spec, "blocks_per_sm", "8");
	kgen_spec_free(spec);
	spec = load("kernel: reduce\nthreads: 1024\n");
	ASSERT_FIELD(spec, "blocks_per_sm", "2");
	kgen_spec_free(spec);
}
END_TEST

START_TEST(blocks_per_sm_given_is_kept)
{
	kgen_spec *spec = load("kernel: reduce\nthreads: 256\ngrid: persistent\nblocks_per_sm: 3\n");

	ASSERT_FIELD(spec, "blocks_per_sm", "3");
	kgen_spec_free(spec);
}
END_TEST

START_TEST(set_threads_rederives_blocks_per_sm)
{
	kgen_spec *spec = load("kernel: reduce\ngrid: persistent\n");
	kgen_error err;

	ASSERT_FIELD(spec, "blocks_per_sm", "4");
	ck_assert_int_eq(kgen_spec_set(spec, "threads", "128", &err), KGEN_OK);
	ASSERT_FIELD(spec, "blocks_per_sm", "16");
	kgen_spec_free(spec);
}
END_TEST

START_TEST(op_with_result_step_defaults_to_last_block)
{
	static const char *const cases[][2] = {
		{ "kernel: reduce\nop: mean\n", "last_block" },
		{ "kernel: reduce\nop: norm2\ndtype: i32\n", "last_block" },
		{ "kernel: reduce\nop: argmax\n", "last_block" },
		{ "kernel: reduce\nop: sum\nout_dtype: f64\n", "last_block" },
		{ "kernel: reduce\nop: custom\ncombine: a + b\nidentity: 0\npost: sqrt(a)\n", "last_block" },
		{ "kernel: reduce\nop: mean\nstages: two_pass\n", "two_pass" },
		/* No result step: the default stays atomic. */
		{ "kernel: reduce\nop: sumsq\n", "atomic" },
		{ "kernel: reduce\nop: count_nonzero\n", "atomic" },
		{ "kernel: reduce\nop: custom\ncombine: a + b\nidentity: 0\npost: a\n", "atomic" },
	};
	size_t k;

	for (k = 0; k < KGEN_COUNT(cases); k++) {
		kgen_spec *spec = load(cases[k][0]);
		ASSERT_FIELD(spec, "stages", cases[k][1]);
		kgen_spec_free(spec);
	}
}
END_TEST

/* ---- every rule of reduce, in its order ---- */

/* Specs of kernel: reduce that are refused: each row as one of
 * ASSERT_REJECTED. */
static const struct refusal reduce_refusals[] = {
	{ "check_rejects_transpose_key_in_reduce_spec", "kernel: reduce\nmethod: tma\n",
	  "method does not apply to kernel: reduce", 2, 1, "method: tma" },
	/* Keys of the other family are rejected wherever `kernel:` is written. */
	{ "check_rejects_transpose_key_in_reduce_spec", "tile_rows: 64\nkernel: reduce\n",
	  "tile_rows does not apply to kernel: reduce", 1, 1, "tile_rows: 64" },
	{ "check_rejects_load_width_below_element_size", "kernel: reduce\ndtype: f64\nload_width: 4\n",
	  "load_width 4 is not a multiple of the element size (8 bytes for f64): use 8, 16, ... up to 32", 3, 13,
	  "load_width: 4" },
	/* 12 is a multiple of 4: the message must not say otherwise. */
	{ "check_rejects_load_width_not_power_of_two", "kernel: reduce\nload_width: 12\nitems_per_thread: 12\n",
	  "load_width 12 is not a power of two: use 4, 8, ... up to 32", 2, 13, "load_width: 12" },
	{ "check_rejects_load_width_not_power_of_two", "kernel: reduce\ndtype: f16\nload_width: 6\n",
	  "load_width 6 is not a power of two: use 2, 4, ... up to 32", 3, 13, "load_width: 6" },
	{ "check_rejects_items_not_multiple_of_vector", "kernel: reduce\nitems_per_thread: 6\n",
	  "items_per_thread 6 is not a multiple of the 4 elements of one 16-byte load: use 4, 8, ...", 2, 19,
	  "items_per_thread: 6" },
	{ "check_rejects_threads_not_multiple_of_32", "kernel: reduce\nthreads: 100\n",
	  "threads 100 is not a multiple of the warp size, 32", 2, 10, "threads: 100" },
	{ "check_rejects_block_reduce_without_block_reduction",
	  "kernel: reduce\natomics: element\nblock_reduce: sequential\n",
	  "block_reduce has no effect with atomics: element (no block reduction); drop it", 3, 15,
	  "block_reduce: sequential" },
	{ "check_rejects_warp_tail_without_block_reduction", "kernel: reduce\natomics: thread\nwarp_tail: shuffle\n",
	  "warp_tail has no effect with atomics: thread (no block reduction); drop it", 3, 12, "warp_tail: shuffle" },
	{ "check_rejects_warp_tail_from_without_block_reduction",
	  "kernel: reduce\natomics: element\nwarp_tail_from: 32\n",
	  "warp_tail_from has no effect with atomics: element (no block reduction); drop it", 3, 17,
	  "warp_tail_from: 32" },
	{ "check_rejects_tree_on_non_power_of_two_block",
	  "kernel: reduce\nthreads: 96\nblock_reduce: sequential\nwarp_tail: none\n",
	  "block_reduce: sequential halves the block each step and needs a power-of-two block, not threads 96: "
	  "use 64 or 128, or block_reduce: warps", 2, 10, "threads: 96" },
	{ "check_rejects_warps_with_shared_memory_tail", "kernel: reduce\nblock_reduce: warps\nwarp_tail: volatile\n",
	  "block_reduce: warps reduces each warp in registers: warp_tail must be shuffle or reduce_sync, not volatile",
	  3, 12, "warp_tail: volatile" },
	{ "check_rejects_warp_tail_after_strided_tree",
	  "kernel: reduce\nblock_reduce: interleaved\nwarp_tail: shuffle\n",
	  "block_reduce: interleaved leaves its partials strided, so a warp cannot finish them: "
	  "use warp_tail: none, or block_reduce: sequential", 3, 12, "warp_tail: shuffle" },
	/* warp_tail is left at its default, shuffle: the error points at `kernel:`. */
	{ "check_error_on_defaulted_key_points_at_kernel",
	  "# comment\nblock_reduce: interleaved_divergent\nkernel:   reduce\n",
	  "block_reduce: interleaved_divergent leaves its partials strided, so a warp cannot finish them: "
	  "use warp_tail: none, or block_reduce: sequential", 3, 1, "kernel:   reduce" },
	{ "check_rejects_reduce_sync_on_non_32_bit_integers", "kernel: reduce\nwarp_tail: reduce_sync\n",
	  "warp_tail: reduce_sync uses __reduce_add_sync, which takes 32-bit integers, not acc_dtype f32: "
	  "use warp_tail: shuffle", 2, 12, "warp_tail: reduce_sync" },
	{ "check_rejects_reduce_sync_on_non_32_bit_integers",
	  "kernel: reduce\nop: max\ndtype: i64\nwarp_tail: reduce_sync\n",
	  "warp_tail: reduce_sync uses __reduce_max_sync, which takes 32-bit integers, not acc_dtype i64: "
	  "use warp_tail: shuffle", 4, 12, "warp_tail: reduce_sync" },
	{ "check_rejects_reduce_sync_on_non_32_bit_integers",
	  "kernel: reduce\nop: count_nonzero\ndtype: i32\nwarp_tail: reduce_sync\n",
	  "warp_tail: reduce_sync uses __reduce_add_sync, which takes 32-bit integers, not acc_dtype i64: "
	  "use warp_tail: shuffle", 4, 12, "warp_tail: reduce_sync" },
	{ "check_rejects_reduce_sync_for_prod", "kernel: reduce\nop: prod\ndtype: i32\nwarp_tail: reduce_sync\n",
	  "warp_tail: reduce_sync: CUDA has __reduce_*_sync for add, min, max, and, or and xor, none for "
	  "op: prod; use warp_tail: shuffle", 4, 12, "warp_tail: reduce_sync" },
	{ "check_rejects_reduce_sync_for_prod", "kernel: reduce\nop: argmax\ndtype: i32\nwarp_tail: reduce_sync\n",
	  "warp_tail: reduce_sync: CUDA has __reduce_*_sync for add, min, max, and, or and xor, none for "
	  "op: argmax; use warp_tail: shuffle", 4, 12, "warp_tail: reduce_sync" },
	{ "check_rejects_warp_tail_from_not_32_or_64",
	  "kernel: reduce\nblock_reduce: sequential\nwarp_tail: volatile\nwarp_tail_from: 48\n",
	  "warp_tail_from must be 32 or 64, not 48", 4, 17, "warp_tail_from: 48" },
	{ "check_rejects_warp_tail_from_with_warps", "kernel: reduce\nwarp_tail_from: 32\n",
	  "warp_tail_from has no effect with block_reduce: warps; drop it", 2, 17, "warp_tail_from: 32" },
	{ "check_rejects_warp_tail_from_without_warp_tail",
	  "kernel: reduce\nblock_reduce: sequential\nwarp_tail: none\nwarp_tail_from: 32\n",
	  "warp_tail_from has no effect with warp_tail: none; drop it", 4, 17, "warp_tail_from: 32" },
	{ "check_rejects_threads_fewer_than_warp_tail_from",
	  "kernel: reduce\nthreads: 32\nblock_reduce: sequential\nwarp_tail: volatile\n",
	  "threads 32 is fewer than warp_tail_from 64: use warp_tail_from: 32, or 64 threads or more", 2, 10,
	  "threads: 32" },
	{ "check_rejects_atomics_without_atomic_stage", "kernel: reduce\nstages: two_pass\natomics: block\n",
	  "atomics has no effect with stages: two_pass; drop it, or use stages: atomic", 3, 10, "atomics: block" },
	{ "check_rejects_blocks_per_sm_on_tile_grid", "kernel: reduce\nblocks_per_sm: 2\n",
	  "blocks_per_sm needs grid: persistent", 2, 16, "blocks_per_sm: 2" },
	{ "check_rejects_unroll_on_tile_grid", "kernel: reduce\nunroll: 2\n",
	  "unroll 2 needs grid: persistent (a tile grid runs one tile per block)", 2, 9, "unroll: 2" },
	{ "check_rejects_more_threads_than_an_sm_holds",
	  "kernel: reduce\ngrid: persistent\nthreads: 512\nblocks_per_sm: 8\n",
	  "blocks_per_sm 8 x threads 512 is more than the 2048 threads an SM holds", 4, 16, "blocks_per_sm: 8" },
	{ "check_rejects_index_not_32_or_64", "kernel: reduce\nindex: 48\n", "index must be 32 or 64, not 48", 2, 8,
	  "index: 48" },
	/* An op with a result step (a pair, post, an out_dtype conversion) cannot
	 * end in atomics: stages: atomic is refused, and left out it becomes
	 * last_block. */
	{ "op_with_result_step_refuses_atomic_stage", "kernel: reduce\nop: mean\nstages: atomic\n",
	  "stages: atomic ends with atomics into *out, and op: mean has a last step (post): use stages: "
	  "last_block or two_pass", 3, 9, "stages: atomic" },
	{ "op_with_result_step_refuses_atomic_stage", "kernel: reduce\nop: argmax\nstages: atomic\n",
	  "stages: atomic ends with atomics into *out, and op: argmax writes a value and an index: use "
	  "stages: last_block or two_pass", 3, 9, "stages: atomic" },
	{ "op_with_result_step_refuses_atomic_stage", "kernel: reduce\nop: sum\nout_dtype: f64\nstages: atomic\n",
	  "stages: atomic ends with atomics into *out, and op: sum converts its result to out_dtype: use "
	  "stages: last_block or two_pass", 4, 9, "stages: atomic" },
	{ "op_with_result_step_refuses_atomic_stage",
	  "kernel: reduce\nop: custom\ncombine: a + b\nidentity: 0\npost: a / n\nstages: atomic\n",
	  "stages: atomic ends with atomics into *out, and op: custom has a last step (post): use stages: "
	  "last_block or two_pass", 6, 9, "stages: atomic" },
};

/* Each row of reduce_refusals. */
START_TEST(refused_reduce_specs)
{
	assert_refused(&reduce_refusals[_i]);
}
END_TEST

/* Where stages are derived (last_block for an op with a last step), a
 * written atomics has no effect: refused at it, before the only-with rules
 * that read atomics (block_reduce's). */
START_TEST(op_with_result_step_refuses_atomics)
{
	kgen_spec *spec;
	kgen_error err;

	ASSERT_REJECTED("kernel: reduce\nop: mean\natomics: element\n",
	                "atomics has no effect: op: mean has a last step (post), so it ends in a kernel "
	                "(stages: last_block); drop it", 3, 10, "atomics: element");
	ASSERT_REJECTED("kernel: reduce\nop: mean\ndtype: i32\natomics: block\nblock_reduce: sequential\n",
	                "atomics has no effect: op: mean has a last step (post), so it ends in a kernel "
	                "(stages: last_block); drop it", 4, 10, "atomics: block");
	ASSERT_REJECTED("kernel: reduce\nop: argmax\natomics: thread\nblock_reduce: sequential\n",
	                "atomics has no effect: op: argmax writes a value and an index, so it ends in a kernel "
	                "(stages: last_block); drop it", 3, 10, "atomics: thread");
	ASSERT_REJECTED("kernel: reduce\nop: sum\nout_dtype: f64\natomics: element\n",
	                "atomics has no effect: op: sum converts its result to out_dtype, so it ends in a kernel "
	                "(stages: last_block); drop it", 4, 10, "atomics: element");
	ASSERT_REJECTED("kernel: reduce\nop: custom\ncombine: a + b\nidentity: 0\npost: a / n\natomics: element\n",
	                "atomics has no effect: op: custom has a last step (post), so it ends in a kernel "
	                "(stages: last_block); drop it", 6, 10, "atomics: element");
	/* With stages written, the only-with rule speaks. */
	ASSERT_REJECTED("kernel: reduce\nop: mean\nstages: two_pass\natomics: element\n",
	                "atomics has no effect with stages: two_pass; drop it, or use stages: atomic", 4, 10,
	                "atomics: element");
	/* Without a last step, atomics stays. */
	spec = load("kernel: reduce\nop: sumsq\natomics: element\n");
	ASSERT_FIELD(spec, "stages", "atomic");
	ASSERT_FIELD(spec, "atomics", "element");
	/* The op set afterwards: the error points at the atomics written. */
	ck_assert_int_eq(kgen_spec_set(spec, "op", "norm2", &err), KGEN_ESPEC);
	ck_assert_str_eq(err.message, "atomics has no effect: op: norm2 has a last step (post), so it ends in a kernel "
	                 "(stages: last_block); drop it");
	ck_assert_int_eq(err.line, 3);
	ck_assert_int_eq(err.column, 10);
	ASSERT_FIELD(spec, "op", "sumsq");
	kgen_spec_free(spec);
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("reduce");
	TCase *tc = tcase_create("defaults");

	tcase_add_test(tc, minimal_spec_gets_every_default);
	tcase_add_test(tc, dump_shows_resolved_defaults);
	tcase_add_test(tc, half_precision_accumulates_in_f32);
	tcase_add_test(tc, acc_dtype_defaults_to_dtype);
	tcase_add_test(tc, name_defaults_to_kernel_op_dtype);
	tcase_add_test(tc, blocks_per_sm_defaults_to_2048_over_threads);
	tcase_add_test(tc, blocks_per_sm_given_is_kept);
	tcase_add_test(tc, set_threads_rederives_blocks_per_sm);
	tcase_add_test(tc, op_with_result_step_defaults_to_last_block);
	suite_add_tcase(s, tc);
	tc = tcase_create("check");
	tcase_add_loop_test(tc, refused_reduce_specs, 0, (int)KGEN_COUNT(reduce_refusals));
	tcase_add_test(tc, op_with_result_step_refuses_atomics);
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
