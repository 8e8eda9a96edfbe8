/*
 * spec_test.c - the spec loader (gen/load.c), the validator (gen/check.c)
 * and the spec API of kgen.h: values and defaults of good specs, and for
 * bad ones the exact message, line, column and source line of the error.
 */
#include "config.h"
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "kgen.h"
#include "gen/spec.h"
#include "gen/reduce.h"
#include "gen/transpose.h"
#include "spec_assert.h"

/* ---- helpers ---- */

static char *
dump(const kgen_spec *spec)
{
	char *yaml = NULL;

	ck_assert_int_eq(kgen_spec_dump(spec, &yaml), KGEN_OK);
	ck_assert_ptr_nonnull(yaml);
	return yaml;
}

static char *
srcpath(const char *rel)
{
	const char *top = getenv("top_srcdir");
	static char buf[4096];

	snprintf(buf, sizeof buf, "%s/%s", top ? top : TOP_SRCDIR, rel);
	return buf;
}

/* What kgen_error_print() writes for err. */
static char *
print_error(const kgen_error *err)
{
	FILE *fp = tmpfile();
	static char buf[4096];
	size_t n;

	ck_assert_ptr_nonnull(fp);
	kgen_error_print(err, fp);
	rewind(fp);
	n = fread(buf, 1, sizeof buf - 1, fp);
	buf[n] = '\0';
	fclose(fp);
	return buf;
}

/* ---- good specs ---- */

START_TEST(file_spec_values_are_loaded)
{
	kgen_spec *spec = NULL;
	kgen_error err;
	const char *path = srcpath("specs/reduce_vec4.yaml");

	ck_assert_int_eq(kgen_spec_load_file(path, &spec, &err), KGEN_OK);
	ck_assert_str_eq(kgen_spec_source(spec), path);
	ASSERT_FIELD(spec, "kernel", "reduce");
	ASSERT_FIELD(spec, "op", "sum");
	ASSERT_FIELD(spec, "dtype", "f32");
	ASSERT_FIELD(spec, "threads", "512");
	ASSERT_FIELD(spec, "items_per_thread", "16");
	ASSERT_FIELD(spec, "load_width", "16");
	ASSERT_FIELD(spec, "stages", "atomic");
	ASSERT_FIELD(spec, "block_reduce", "warps");
	ASSERT_FIELD(spec, "warp_tail", "shuffle");
	kgen_spec_free(spec);
}
END_TEST

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
		"block_reduce: warps\n"
		"warp_tail: shuffle\n"
		"warp_tail_from: 64\n"
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

START_TEST(name_given_is_kept)
{
	kgen_spec *spec = load("kernel: reduce\nname: my_sum2\n");

	ASSERT_FIELD(spec, "name", "my_sum2");
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

START_TEST(comments_and_quoted_values_are_accepted)
{
	kgen_spec *spec = load("# a comment\nkernel: reduce   # trailing\nthreads: '256'\nop: \"min\"\n");

	ASSERT_FIELD(spec, "threads", "256");
	ASSERT_FIELD(spec, "op", "min");
	kgen_spec_free(spec);
}
END_TEST

/* ---- bad YAML and bad keys or values (gen/load.c) ---- */

START_TEST(yaml_syntax_error_has_libyaml_position)
{
	ASSERT_REJECTED("kernel: reduce\nop: sum: min\n",
	                "YAML: mapping values are not allowed in this context", 2, 8, "op: sum: min");
}
END_TEST

START_TEST(yaml_parser_error_includes_context)
{
	ASSERT_REJECTED("kernel: reduce\nop: [sum\nthreads: 64\n",
	                "YAML: did not find expected ',' or ']' while parsing a flow sequence", 3, 8, "threads: 64");
}
END_TEST

START_TEST(empty_spec_is_rejected)
{
	ASSERT_REJECTED("", "the spec is empty: expected at least 'kernel: reduce'", 1, 1, "");
	ASSERT_REJECTED("# only a comment\n", "the spec is empty: expected at least 'kernel: reduce'", 1, 1,
	                "# only a comment");
}
END_TEST

START_TEST(list_root_is_rejected)
{
	ASSERT_REJECTED("\n- kernel\n- reduce\n", "a spec is a mapping of keys to values, not a list", 2, 1, "- kernel");
}
END_TEST

START_TEST(scalar_root_is_rejected)
{
	ASSERT_REJECTED("reduce\n", "a spec is a mapping of keys to values, not a scalar", 1, 1, "reduce");
}
END_TEST

START_TEST(missing_kernel_is_rejected)
{
	ASSERT_REJECTED("op: sum\nthreads: 64\n", "missing key 'kernel': expected reduce, transpose or reduce_axis", 1, 1, "op: sum");
}
END_TEST

START_TEST(unknown_key_suggests_nearest)
{
	ASSERT_REJECTED("kernel: reduce\nthread: 256\n", "unknown key 'thread' (did you mean 'threads'?)", 2, 1,
	                "thread: 256");
}
END_TEST

START_TEST(unknown_key_prefix_suggests_key)
{
	ASSERT_REJECTED("kernel: reduce\n  # c\nitems: 4\n", "unknown key 'items' (did you mean 'items_per_thread'?)", 3, 1,
	                "items: 4");
}
END_TEST

START_TEST(unknown_key_far_from_any_has_no_suggestion)
{
	ASSERT_REJECTED("kernel: reduce\nzzzzzzzzzz: 1\n", "unknown key 'zzzzzzzzzz'", 2, 1, "zzzzzzzzzz: 1");
}
END_TEST

START_TEST(non_scalar_key_is_rejected)
{
	ASSERT_REJECTED("kernel: reduce\n[a, b]: 1\n", "a key must be a plain name, not a list", 2, 1, "[a, b]: 1");
}
END_TEST

START_TEST(duplicate_key_names_first_line)
{
	ASSERT_REJECTED("kernel: reduce\nop: sum\nthreads: 64\nop: min\n", "duplicate key 'op' (first given on line 2)", 4, 1,
	                "op: min");
}
END_TEST

START_TEST(list_value_is_rejected)
{
	ASSERT_REJECTED("kernel: reduce\nop: [sum, min]\n", "op: expected a single value, not a list", 2, 5,
	                "op: [sum, min]");
}
END_TEST

/* ---- hostile YAML (issue 12, items 6 and 7) ---- */

static double
seconds(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Load n bytes made by repeating `unit` after `head`, which must be
 * accepted (want KGEN_OK) or refused (KGEN_ESPEC); the error, and the time
 * it took in *took. */
static kgen_error
load_big(const char *head, const char *unit, size_t n, kgen_status want, double *took)
{
	size_t h = strlen(head), u = strlen(unit), at;
	char *text = malloc(n + 1);
	kgen_spec *spec = NULL;
	kgen_error err;
	double t0;

	ck_assert_ptr_nonnull(text);
	memcpy(text, head, h);
	for (at = h; at + u <= n; at += u)
		memcpy(text + at, unit, u);
	text[at] = '\0';
	memset(&err, 0, sizeof err);
	t0 = seconds();
	ck_assert_int_eq(kgen_spec_load_string(text, at, "big.yaml", &spec, &err), want);
	*took = seconds() - t0;
	kgen_spec_free(spec);
	free(text);
	return err;
}

START_TEST(deep_flow_nesting_is_refused_in_linear_time)
{
	double took;
	kgen_error e = load_big("", "[", 80000, KGEN_ESPEC, &took);

	/* libyaml alone took 11 s on this input: quadratic in the depth. */
	ck_assert_str_eq(e.message, "YAML nested more than 8 levels deep: a spec is one mapping of keys to single values");
	ck_assert_int_eq(e.line, 1);
	ck_assert_int_eq(e.column, 9);
	ck_assert_msg(took < 1.0, "took %.2f s", took);
	e = load_big("kernel: reduce\nop: ", "{", 80000, KGEN_ESPEC, &took);
	ck_assert_int_eq(e.line, 2);
	ck_assert_int_eq(e.column, 13);
	ck_assert_msg(took < 1.0, "took %.2f s", took);
	/* Brackets in a comment do not count. */
	kgen_spec_free(load("kernel: reduce # [[[[[[[[[[[[[[[[ see the post\n"));
}
END_TEST

/* Any input up to 10 MB is accepted or refused in under a second. */
START_TEST(ten_megabytes_in_under_a_second)
{
	static const struct { const char *head, *unit; kgen_status want; } inputs[] = {
		{ "kernel: reduce\n", "zz: 1\n", KGEN_ESPEC },                 /* keys after keys */
		{ "kernel: reduce\n", "x: [a, b]\n", KGEN_ESPEC },             /* lists after lists */
		{ "", "- ", KGEN_ESPEC },                                       /* nested block lists */
		{ "kernel: reduce\nname: ", "a", KGEN_ESPEC },                  /* one long scalar */
		{ "kernel: reduce\n", "[a]: b\n", KGEN_ESPEC },                /* flow keys */
		{ "kernel: reduce\n", "# [[[[[[[[[[[[\n", KGEN_OK },            /* comments */
		{ "kernel: reduce\nop: \"", "\\u00e9", KGEN_ESPEC },          /* one long quoted scalar */
		{ "", "---\n", KGEN_ESPEC },                                     /* documents */
	};
	size_t i;
	double took;

	for (i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
		kgen_error e = load_big(inputs[i].head, inputs[i].unit, 10u << 20, inputs[i].want, &took);
		ck_assert_msg(took < 1.0, "input %zu took %.2f s (%s)", i, took, e.message);
	}
}
END_TEST

START_TEST(integers_are_plain_decimals)
{
	ASSERT_REJECTED("kernel: reduce\nthreads: +0256\n",
	                "threads: '+0256' is not a decimal integer: expected an integer from 32 to 1024", 2, 10,
	                "threads: +0256");
	ASSERT_REJECTED("kernel: reduce\nthreads: \" 256\"\n",
	                "threads: ' 256' is not a decimal integer: expected an integer from 32 to 1024", 2, 10,
	                "threads: \" 256\"");
	ASSERT_REJECTED("kernel: reduce\nthreads: +256\n",
	                "threads: '+256' is not a decimal integer: expected an integer from 32 to 1024", 2, 10,
	                "threads: +256");
	ASSERT_REJECTED("kernel: reduce\nthreads: -32\n", "threads: -32 is out of range: expected an integer from 32 to 1024",
	                2, 10, "threads: -32");
	kgen_spec_free(load("kernel: reduce_axis\nsplit: 0\n"));
}
END_TEST

/* Reader errors (bad UTF-8, control characters) at their own place, and no
 * control character reaches the terminal through a message or the source line. */
START_TEST(reader_errors_are_placed_and_control_characters_escaped)
{
	ASSERT_REJECTED("kernel: reduce\nop: \033[31mred\n", "YAML: control characters are not allowed", 2, 5,
	                "op: ?[31mred");
	ASSERT_REJECTED("kernel: reduce\nop: caf\xe9\n", "YAML: incomplete UTF-8 octet sequence", 2, 8, "op: caf\xe9");
	ASSERT_REJECTED("kernel: reduce\nop: \"a\\tb\\u001b[2J\"\n",
	                "op: unknown value 'a\\x09b\\x1b[2J': expected sum, min, max, prod, mean, sumsq, norm2, amax, count_nonzero, any, all, argmin, argmax or custom", 2, 5,
	                "op: \"a\\tb\\u001b[2J\"");
	ASSERT_REJECTED("kernel: reduce\nop: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n",
	                "op: unknown value 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...': expected sum, min, max, prod, mean, sumsq, norm2, amax, count_nonzero, any, all, argmin, argmax or custom", 2, 5,
	                "op: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
}
END_TEST

/* A name that would collide in the generated file is refused at the spec
 * (issue 8, item 5), not left to NVRTC; names that only meet locals compile. */
START_TEST(names_cannot_collide)
{
	static const char *const bad[][2] = {
		{ "combine", "is a name kgen's generated code declares" }, { "T", "is a name kgen's generated code declares" },
		{ "THREADS", "is a name kgen's generated code declares" }, { "load_vec", "is a name kgen's generated code declares" },
		{ "int", "is a C++ keyword" }, { "class", "is a C++ keyword" },
		{ "threadIdx", "is a CUDA built-in or a function its headers declare" },
		{ "atomicAdd", "is a CUDA built-in or a function its headers declare" },
		{ "printf", "is a CUDA built-in or a function its headers declare" },
		{ "main", "is a CUDA built-in or a function its headers declare" },
		{ "__x", "is reserved to the compiler (it begins with __ or _ and a capital)" },
		{ "_Foo", "is reserved to the compiler (it begins with __ or _ and a capital)" },
	};
	static const char *const families[] = { "reduce", "transpose", "reduce_axis" };
	static const char *const locals[] = { "tile", "tid", "in", "out", "rows", "cols", "n", "partials", "scratch" };
	char yaml[128], want[256];
	size_t i, f;

	for (i = 0; i < KGEN_COUNT(bad); i++) {
		kgen_error e;
		snprintf(yaml, sizeof yaml, "kernel: reduce\nname: %s\n", bad[i][0]);
		e = reject(yaml);
		snprintf(want, sizeof want, "name: '%s' %s: expected a C identifier of your own (no keyword, CUDA built-in or "
		         "name kgen declares)", bad[i][0], bad[i][1]);
		ck_assert_str_eq(e.message, want);
		ck_assert_int_eq(e.line, 2);
		ck_assert_int_eq(e.column, 7);
	}
	for (f = 0; f < KGEN_COUNT(families); f++)
		for (i = 0; i < KGEN_COUNT(locals); i++) {
			kgen_spec *spec;
			kgen_error err;
			char *src = NULL, *log = NULL;
			void *image = NULL;
			size_t size;
			snprintf(yaml, sizeof yaml, "kernel: %s\nname: %s\n", families[f], locals[i]);
			spec = load(yaml);
			ck_assert_int_eq(kgen_generate(spec, &src, &err), KGEN_OK);
			ck_assert_msg(kgen_compile(src, "n.cu", "sm_90", KGEN_IMAGE_CUBIN, &image, &size, &log, &err) == KGEN_OK,
			              "%s named %s: %s\n%s", families[f], locals[i], err.message, log ? log : "");
			free(src);
			free(log);
			free(image);
			kgen_spec_free(spec);
		}
}
END_TEST

START_TEST(second_document_is_refused)
{
	ASSERT_REJECTED("kernel: reduce\n---\nop: garbage\n",
	                "a second YAML document: a spec is one document (drop the second '---' and what follows)", 2, 1,
	                "---");
}
END_TEST

START_TEST(tags_and_aliases_are_refused_where_written)
{
	ASSERT_REJECTED("kernel: reduce\nop: !!str sum\n",
	                "op: YAML tags (tag:yaml.org,2002:str) are not used in a spec: write the value alone", 2, 5,
	                "op: !!str sum");
	ASSERT_REJECTED("kernel: reduce\n!!str op: sum\n",
	                "YAML tags (tag:yaml.org,2002:str) are not used in a spec: write the name alone", 2, 1,
	                "!!str op: sum");
	/* At the alias, not at the anchor it names. */
	ASSERT_REJECTED("kernel: reduce\nop: &x sum\nname: *x\n", "name: expected a single value, not an alias", 3, 7,
	                "name: *x");
}
END_TEST

START_TEST(mapping_value_is_rejected)
{
	ASSERT_REJECTED("kernel: reduce\nop:\n  sum: 1\n", "op: expected a single value, not a mapping", 3, 3, "  sum: 1");
}
END_TEST

START_TEST(bad_enum_value_suggests_nearest)
{
	ASSERT_REJECTED("kernel: reduce\nop: summ\n",
	                "op: unknown value 'summ' (did you mean 'sum'?): expected sum, min, max, prod, mean, sumsq, norm2, amax, count_nonzero, any, all, argmin, argmax or custom", 2, 5, "op: summ");
}
END_TEST

START_TEST(bad_enum_value_far_from_any_lists_allowed)
{
	ASSERT_REJECTED("kernel: reduce\nstages: whatever_else\n",
	                "stages: unknown value 'whatever_else': expected two_pass, atomic or last_block", 2, 9,
	                "stages: whatever_else");
}
END_TEST

START_TEST(bad_kernel_family_is_rejected)
{
	ASSERT_REJECTED("kernel: scan\n", "kernel: unknown value 'scan': expected reduce, transpose or reduce_axis", 1, 9, "kernel: scan");
}
END_TEST

START_TEST(non_integer_is_rejected)
{
	ASSERT_REJECTED("kernel: reduce\nthreads: 25x\n",
	                "threads: '25x' is not a decimal integer: expected an integer from 32 to 1024", 2, 10, "threads: 25x");
}
END_TEST

START_TEST(leading_zero_is_not_decimal)
{
	ASSERT_REJECTED("kernel: reduce\nthreads: 0256\n",
	                "threads: '0256' is not a decimal integer: expected an integer from 32 to 1024", 2, 10,
	                "threads: 0256");
}
END_TEST

START_TEST(out_of_range_integer_is_rejected)
{
	ASSERT_REJECTED("kernel: reduce\nthreads: 2048\n",
	                "threads: 2048 is out of range: expected an integer from 32 to 1024", 2, 10, "threads: 2048");
	ASSERT_REJECTED("kernel: reduce\nitems_per_thread: 0\n",
	                "items_per_thread: 0 is out of range: expected an integer from 1 to 64", 2, 19,
	                "items_per_thread: 0");
}
END_TEST

START_TEST(bad_name_is_rejected)
{
	ASSERT_REJECTED("kernel: reduce\nname: 1sum\n",
	                "name: '1sum' is not a C identifier of at most 47 characters: expected a C identifier of your own "
	                "(no keyword, CUDA built-in or name kgen declares)", 2, 7,
	                "name: 1sum");
}
END_TEST

/* ---- every rule of gen/check.c, in its order ---- */

START_TEST(check_rejects_16_bit_accumulator)
{
	ASSERT_REJECTED("kernel: reduce\ndtype: f32\nacc_dtype: f16\n",
	                "acc_dtype f16: 16-bit accumulators lose precision and have no atomics here; accumulate in f32 or f64",
	                3, 12, "acc_dtype: f16");
}
END_TEST

START_TEST(check_rejects_integer_accumulator_for_floats)
{
	ASSERT_REJECTED("kernel: reduce\nacc_dtype: i32\n", "acc_dtype i32 cannot accumulate f32 elements: use f32 or f64",
	                2, 12, "acc_dtype: i32");
}
END_TEST

START_TEST(check_rejects_narrower_integer_accumulator)
{
	ASSERT_REJECTED("kernel: reduce\ndtype: i64\nacc_dtype: i32\n", "acc_dtype i32 is narrower than dtype i64", 3, 12,
	                "acc_dtype: i32");
}
END_TEST

START_TEST(check_rejects_load_width_below_element_size)
{
	ASSERT_REJECTED("kernel: reduce\ndtype: f64\nload_width: 4\n",
	                "load_width 4 is not a multiple of the element size (8 bytes for f64): use 8, 16, ... up to 32", 3,
	                13, "load_width: 4");
}
END_TEST

START_TEST(check_rejects_load_width_not_power_of_two)
{
	/* 12 is a multiple of 4: the message must not say otherwise. */
	ASSERT_REJECTED("kernel: reduce\nload_width: 12\nitems_per_thread: 12\n",
	                "load_width 12 is not a power of two: use 4, 8, ... up to 32", 2, 13, "load_width: 12");
	ASSERT_REJECTED("kernel: reduce\ndtype: f16\nload_width: 6\n",
	                "load_width 6 is not a power of two: use 2, 4, ... up to 32", 3, 13, "load_width: 6");
}
END_TEST

START_TEST(check_rejects_items_not_multiple_of_vector)
{
	ASSERT_REJECTED("kernel: reduce\nitems_per_thread: 6\n",
	                "items_per_thread 6 is not a multiple of the 4 elements of one 16-byte load: use 4, 8, ...", 2, 19,
	                "items_per_thread: 6");
}
END_TEST

START_TEST(check_rejects_threads_not_multiple_of_32)
{
	ASSERT_REJECTED("kernel: reduce\nthreads: 100\n", "threads 100 is not a multiple of the warp size, 32", 2, 10,
	                "threads: 100");
}
END_TEST

START_TEST(check_rejects_block_reduce_without_block_reduction)
{
	ASSERT_REJECTED("kernel: reduce\natomics: element\nblock_reduce: sequential\n",
	                "block_reduce has no effect with atomics: element (no block reduction); drop it", 3, 15,
	                "block_reduce: sequential");
}
END_TEST

START_TEST(check_rejects_warp_tail_without_block_reduction)
{
	ASSERT_REJECTED("kernel: reduce\natomics: thread\nwarp_tail: shuffle\n",
	                "warp_tail has no effect with atomics: thread (no block reduction); drop it", 3, 12,
	                "warp_tail: shuffle");
}
END_TEST

START_TEST(check_rejects_warp_tail_from_without_block_reduction)
{
	ASSERT_REJECTED("kernel: reduce\natomics: element\nwarp_tail_from: 32\n",
	                "warp_tail_from has no effect with atomics: element (no block reduction); drop it", 3, 17,
	                "warp_tail_from: 32");
}
END_TEST

START_TEST(check_rejects_tree_on_non_power_of_two_block)
{
	ASSERT_REJECTED("kernel: reduce\nthreads: 96\nblock_reduce: sequential\nwarp_tail: none\n",
	                "block_reduce: sequential halves the block each step and needs a power-of-two block, not threads 96: "
	                "use 64 or 128, or block_reduce: warps", 2, 10, "threads: 96");
}
END_TEST

START_TEST(check_rejects_warps_with_shared_memory_tail)
{
	ASSERT_REJECTED("kernel: reduce\nblock_reduce: warps\nwarp_tail: volatile\n",
	                "block_reduce: warps reduces each warp in registers: warp_tail must be shuffle or reduce_sync, not volatile",
	                3, 12, "warp_tail: volatile");
}
END_TEST

START_TEST(check_rejects_warp_tail_after_strided_tree)
{
	ASSERT_REJECTED("kernel: reduce\nblock_reduce: interleaved\nwarp_tail: shuffle\n",
	                "block_reduce: interleaved leaves its partials strided, so a warp cannot finish them: "
	                "use warp_tail: none, or block_reduce: sequential", 3, 12, "warp_tail: shuffle");
}
END_TEST

START_TEST(check_error_on_defaulted_key_points_at_kernel)
{
	/* warp_tail is left at its default, shuffle: the error points at `kernel:`. */
	ASSERT_REJECTED("# comment\nblock_reduce: interleaved_divergent\nkernel:   reduce\n",
	                "block_reduce: interleaved_divergent leaves its partials strided, so a warp cannot finish them: "
	                "use warp_tail: none, or block_reduce: sequential", 3, 1, "kernel:   reduce");
}
END_TEST

START_TEST(check_rejects_reduce_sync_on_non_32_bit_integers)
{
	ASSERT_REJECTED("kernel: reduce\nwarp_tail: reduce_sync\n",
	                "warp_tail: reduce_sync uses __reduce_add_sync, which takes 32-bit integers, not acc_dtype f32: "
	                "use warp_tail: shuffle", 2, 12, "warp_tail: reduce_sync");
	ASSERT_REJECTED("kernel: reduce\nop: max\ndtype: i64\nwarp_tail: reduce_sync\n",
	                "warp_tail: reduce_sync uses __reduce_max_sync, which takes 32-bit integers, not acc_dtype i64: "
	                "use warp_tail: shuffle", 4, 12, "warp_tail: reduce_sync");
	ASSERT_REJECTED("kernel: reduce\nop: count_nonzero\ndtype: i32\nwarp_tail: reduce_sync\n",
	                "warp_tail: reduce_sync uses __reduce_add_sync, which takes 32-bit integers, not acc_dtype i64: "
	                "use warp_tail: shuffle", 4, 12, "warp_tail: reduce_sync");
}
END_TEST

START_TEST(check_rejects_reduce_sync_for_prod)
{
	ASSERT_REJECTED("kernel: reduce\nop: prod\ndtype: i32\nwarp_tail: reduce_sync\n",
	                "warp_tail: reduce_sync: CUDA has __reduce_*_sync for add, min, max, and, or and xor, none for "
	                "op: prod; use warp_tail: shuffle", 4, 12, "warp_tail: reduce_sync");
	ASSERT_REJECTED("kernel: reduce\nop: argmax\ndtype: i32\nwarp_tail: reduce_sync\n",
	                "warp_tail: reduce_sync: CUDA has __reduce_*_sync for add, min, max, and, or and xor, none for "
	                "op: argmax; use warp_tail: shuffle", 4, 12, "warp_tail: reduce_sync");
}
END_TEST

START_TEST(check_rejects_warp_tail_from_not_32_or_64)
{
	ASSERT_REJECTED("kernel: reduce\nblock_reduce: sequential\nwarp_tail: volatile\nwarp_tail_from: 48\n",
	                "warp_tail_from must be 32 or 64, not 48", 4, 17, "warp_tail_from: 48");
}
END_TEST

START_TEST(check_rejects_warp_tail_from_with_warps)
{
	ASSERT_REJECTED("kernel: reduce\nwarp_tail_from: 32\n",
	                "warp_tail_from has no effect with block_reduce: warps; drop it", 2, 17, "warp_tail_from: 32");
}
END_TEST

START_TEST(check_rejects_warp_tail_from_without_warp_tail)
{
	ASSERT_REJECTED("kernel: reduce\nblock_reduce: sequential\nwarp_tail: none\nwarp_tail_from: 32\n",
	                "warp_tail_from has no effect with warp_tail: none; drop it", 4, 17, "warp_tail_from: 32");
}
END_TEST

START_TEST(check_rejects_threads_fewer_than_warp_tail_from)
{
	ASSERT_REJECTED("kernel: reduce\nthreads: 32\nblock_reduce: sequential\nwarp_tail: volatile\n",
	                "threads 32 is fewer than warp_tail_from 64", 2, 10, "threads: 32");
}
END_TEST

START_TEST(check_rejects_atomics_without_atomic_stage)
{
	ASSERT_REJECTED("kernel: reduce\nstages: two_pass\natomics: block\n",
	                "atomics has no effect with stages: two_pass; drop it, or use stages: atomic", 3, 10,
	                "atomics: block");
}
END_TEST

START_TEST(check_rejects_blocks_per_sm_on_tile_grid)
{
	ASSERT_REJECTED("kernel: reduce\nblocks_per_sm: 2\n", "blocks_per_sm needs grid: persistent", 2, 16,
	                "blocks_per_sm: 2");
}
END_TEST

START_TEST(check_rejects_unroll_on_tile_grid)
{
	ASSERT_REJECTED("kernel: reduce\nunroll: 2\n",
	                "unroll 2 needs grid: persistent (a tile grid runs one tile per block)", 2, 9, "unroll: 2");
}
END_TEST

START_TEST(check_rejects_more_threads_than_an_sm_holds)
{
	ASSERT_REJECTED("kernel: reduce\ngrid: persistent\nthreads: 512\nblocks_per_sm: 8\n",
	                "blocks_per_sm 8 x threads 512 is more than the 2048 threads an SM holds", 4, 16,
	                "blocks_per_sm: 8");
}
END_TEST

START_TEST(check_rejects_index_not_32_or_64)
{
	ASSERT_REJECTED("kernel: reduce\nindex: 48\n", "index must be 32 or 64, not 48", 2, 8, "index: 48");
}
END_TEST

/* ---- launch geometry at the ends of the sizes ---- */

START_TEST(grids_do_not_wrap_near_2_to_64)
{
	kgen_spec *r = load("kernel: reduce\nthreads: 512\nitems_per_thread: 16\n");
	kgen_spec *t = load("kernel: transpose\n");

	/* ceil(n / 8192) without n + 8191 wrapping to a tiny grid. */
	ck_assert_uint_eq(kgen_reduce_grid(r, ~0ull, 132), ~0ull / 8192 + 1);
	ck_assert_uint_eq(kgen_reduce_grid(r, 8192, 132), 1);
	ck_assert_uint_eq(kgen_reduce_grid(r, 8193, 132), 2);
	ck_assert_uint_eq(kgen_reduce_grid(r, 0, 132), 1);
	ck_assert_uint_eq(kgen_transpose_grid(t, ~0ull, ~0ull), ~0ull);
	ck_assert_uint_eq(kgen_transpose_grid(t, 33, 65), 2 * 3);
	kgen_spec_free(r);
	kgen_spec_free(t);
}
END_TEST

/* ---- kgen_spec_set ---- */

START_TEST(set_changes_a_field)
{
	kgen_spec *spec = load("kernel: reduce\n");
	kgen_error err;

	ck_assert_int_eq(kgen_spec_set(spec, "threads", "256", &err), KGEN_OK);
	ASSERT_FIELD(spec, "threads", "256");
	kgen_spec_free(spec);
}
END_TEST

START_TEST(set_unknown_key_suggests_nearest)
{
	kgen_spec *spec = load("kernel: reduce\n");
	kgen_error err;

	ck_assert_int_eq(kgen_spec_set(spec, "thread", "256", &err), KGEN_ESPEC);
	ck_assert_int_eq(err.status, KGEN_ESPEC);
	ck_assert_str_eq(err.message, "unknown key 'thread' (did you mean 'threads'?)");
	ck_assert_int_eq(err.line, 0);
	kgen_spec_free(spec);
}
END_TEST

START_TEST(set_bad_value_leaves_spec_unchanged)
{
	kgen_spec *spec = load("kernel: reduce\nthreads: 128\n");
	char *before = dump(spec), *after;
	kgen_error err;

	ck_assert_int_eq(kgen_spec_set(spec, "threads", "abc", &err), KGEN_ESPEC);
	ck_assert_str_eq(err.message, "threads: 'abc' is not a decimal integer: expected an integer from 32 to 1024");
	after = dump(spec);
	ck_assert_str_eq(after, before);
	free(after);
	free(before);
	kgen_spec_free(spec);
}
END_TEST

START_TEST(set_impossible_combination_leaves_spec_unchanged)
{
	kgen_spec *spec = load("kernel: reduce\nblock_reduce: sequential\nwarp_tail: none\n");
	char *before = dump(spec), *after;
	kgen_error err;

	ck_assert_int_eq(kgen_spec_set(spec, "threads", "96", &err), KGEN_ESPEC);
	ck_assert_str_eq(err.message, "block_reduce: sequential halves the block each step and needs a power-of-two "
	                 "block, not threads 96: use 64 or 128, or block_reduce: warps");
	/* threads was set, not written in the file: the error has no line. */
	ck_assert_int_eq(err.line, 0);
	ck_assert_str_eq(err.file, "t.yaml");
	after = dump(spec);
	ck_assert_str_eq(after, before);
	free(after);
	free(before);
	kgen_spec_free(spec);
}
END_TEST

START_TEST(set_error_on_written_field_keeps_its_position)
{
	kgen_spec *spec = load("kernel: reduce\nwarp_tail: volatile\nblock_reduce: sequential\n");
	kgen_error err;

	ck_assert_int_eq(kgen_spec_set(spec, "block_reduce", "warps", &err), KGEN_ESPEC);
	ck_assert_str_eq(err.message, "block_reduce: warps reduces each warp in registers: warp_tail must be shuffle "
	                 "or reduce_sync, not volatile");
	ck_assert_int_eq(err.line, 2);
	ck_assert_int_eq(err.column, 12);
	ck_assert_str_eq(err.source_line, "warp_tail: volatile");
	ASSERT_FIELD(spec, "block_reduce", "sequential");
	kgen_spec_free(spec);
}
END_TEST

START_TEST(set_dtype_rederives_acc_dtype_and_name)
{
	kgen_spec *spec = load("kernel: reduce\n");
	kgen_error err;

	ck_assert_int_eq(kgen_spec_set(spec, "dtype", "f16", &err), KGEN_OK);
	ASSERT_FIELD(spec, "acc_dtype", "f32");
	ASSERT_FIELD(spec, "name", "reduce_sum_f16");
	ck_assert_int_eq(kgen_spec_set(spec, "dtype", "f64", &err), KGEN_OK);
	ASSERT_FIELD(spec, "acc_dtype", "f64");
	ASSERT_FIELD(spec, "name", "reduce_sum_f64");
	kgen_spec_free(spec);
}
END_TEST

START_TEST(set_keeps_fields_written_in_the_spec)
{
	kgen_spec *spec = load("kernel: reduce\nacc_dtype: f64\n");
	kgen_error err;

	ck_assert_int_eq(kgen_spec_set(spec, "dtype", "f16", &err), KGEN_OK);
	ASSERT_FIELD(spec, "acc_dtype", "f64");
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

START_TEST(set_earlier_set_survives_later_set)
{
	kgen_spec *spec = load("kernel: reduce\n");
	kgen_error err;

	ck_assert_int_eq(kgen_spec_set(spec, "acc_dtype", "f64", &err), KGEN_OK);
	ck_assert_int_eq(kgen_spec_set(spec, "dtype", "f16", &err), KGEN_OK);
	ASSERT_FIELD(spec, "acc_dtype", "f64");
	kgen_spec_free(spec);
}
END_TEST

/* ---- the transpose family: good specs ---- */

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

/* ---- check_family ---- */

START_TEST(check_rejects_reduce_key_in_transpose_spec)
{
	ASSERT_REJECTED("kernel: transpose\nop: sum\n", "op does not apply to kernel: transpose", 2, 1, "op: sum");
	ASSERT_REJECTED("kernel: transpose\ntile_rows: 32\nitems_per_thread: 8\n",
	                "items_per_thread does not apply to kernel: transpose", 3, 1, "items_per_thread: 8");
}
END_TEST

START_TEST(check_rejects_transpose_key_in_reduce_spec)
{
	ASSERT_REJECTED("kernel: reduce\nmethod: tma\n", "method does not apply to kernel: reduce", 2, 1, "method: tma");
	/* Keys of the other family are rejected wherever `kernel:` is written. */
	ASSERT_REJECTED("tile_rows: 64\nkernel: reduce\n", "tile_rows does not apply to kernel: reduce", 1, 1,
	                "tile_rows: 64");
}
END_TEST

/* ---- every rule of check_transpose, in its order ---- */

START_TEST(check_transpose_rejects_batch_not_dividing_tile)
{
	ASSERT_REJECTED("kernel: transpose\ntile_rows: 32\ntile_cols: 32\nbatch: 3\n",
	                "batch 3 does not divide the 32x32 tile", 4, 8, "batch: 3");
}
END_TEST

START_TEST(check_transpose_rejects_threads_not_covering_tile)
{
	ASSERT_REJECTED("kernel: transpose\nthreads: 128\n",
	                "threads 128 do not cover the 32x32 tile with batch 4: 32 x 32 / 4 = 256 threads are needed", 2, 10,
	                "threads: 128");
}
END_TEST

START_TEST(check_transpose_rejects_threads_not_multiple_of_32)
{
	/* Derived threads: the error points at the batch that derived them. */
	ASSERT_REJECTED("kernel: transpose\ntile_rows: 32\ntile_cols: 32\nbatch: 64\n",
	                "threads 16 (tile 32x32 / batch 64) must be a multiple of 32 and at most 1024: use batch: 32",
	                4, 8, "batch: 64");
	ASSERT_REJECTED("kernel: transpose\ntile_rows: 10\ntile_cols: 10\nbatch: 1\nthreads: 100\nload_width: 4\n",
	                "threads 100 (tile 10x10 / batch 1) must be a multiple of 32 and at most 1024: change the tile",
	                5, 10, "threads: 100");
}
END_TEST

START_TEST(check_transpose_rejects_more_than_1024_threads)
{
	ASSERT_REJECTED("kernel: transpose\ntile_rows: 64\ntile_cols: 64\nbatch: 1\n",
	                "threads 4096 (tile 64x64 / batch 1) must be a multiple of 32 and at most 1024: use batch: 4",
	                4, 8, "batch: 1");
}
END_TEST

START_TEST(check_transpose_smem_rejects_tma_keys)
{
	ASSERT_REJECTED("kernel: transpose\nwalk: rows\n", "walk needs method: tma (the shared-memory path pads instead)",
	                2, 7, "walk: rows");
	ASSERT_REJECTED("kernel: transpose\nmethod: smem\ncache_hint: none\n", "cache_hint needs method: tma", 3, 13,
	                "cache_hint: none");
	ASSERT_REJECTED("kernel: transpose\nl2_promotion: 64B\n", "l2_promotion needs method: tma", 2, 15,
	                "l2_promotion: 64B");
	ASSERT_REJECTED("kernel: transpose\nbuffers: 2\n",
	                "buffers needs method: tma (the shared-memory path moves one tile per block)", 2, 10, "buffers: 2");
	ASSERT_REJECTED("kernel: transpose\nswizzle: 128B\n",
	                "swizzle needs method: tma (the shared-memory path pads instead)", 2, 10, "swizzle: 128B");
}
END_TEST

START_TEST(check_transpose_smem_rejects_bad_load_width)
{
	ASSERT_REJECTED("kernel: transpose\nload_width: 32\n",
	                "load_width 32 must be the element size (4 bytes for f32) times a power of two, at most 16", 2, 13,
	                "load_width: 32");
	ASSERT_REJECTED("kernel: transpose\ndtype: f64\nload_width: 4\n",
	                "load_width 4 must be the element size (8 bytes for f64) times a power of two, at most 16", 3, 13,
	                "load_width: 4");
	ASSERT_REJECTED("kernel: transpose\ndtype: f16\nload_width: 6\n",
	                "load_width 6 must be the element size (2 bytes for f16) times a power of two, at most 16", 3, 13,
	                "load_width: 6");
}
END_TEST

START_TEST(check_transpose_smem_rejects_vector_not_dividing_tile)
{
	ASSERT_REJECTED("kernel: transpose\ntile_rows: 32\ntile_cols: 6\nbatch: 2\n",
	                "load_width 16 (4 elements) must divide tile_rows 32 and tile_cols 6: vectors run along the rows "
	                "of the input and of the output", 1, 1, "kernel: transpose");
	ASSERT_REJECTED("kernel: transpose\ntile_rows: 6\ntile_cols: 32\nbatch: 2\nload_width: 16\n",
	                "load_width 16 (4 elements) must divide tile_rows 6 and tile_cols 32: vectors run along the rows "
	                "of the input and of the output", 5, 13, "load_width: 16");
}
END_TEST

START_TEST(check_transpose_smem_rejects_batch_not_multiple_of_vector)
{
	ASSERT_REJECTED("kernel: transpose\nbatch: 2\n",
	                "batch 2 is not a multiple of the 4 elements of one 16-byte load", 2, 8, "batch: 2");
}
END_TEST

START_TEST(check_transpose_tma_rejects_load_width)
{
	ASSERT_REJECTED("kernel: transpose\nmethod: tma\nload_width: 16\n",
	                "load_width has no effect with method: tma (the TMA unit moves whole tiles)", 3, 13,
	                "load_width: 16");
}
END_TEST

START_TEST(check_transpose_tma_rejects_pad)
{
	ASSERT_REJECTED("kernel: transpose\nmethod: tma\npad: 1\n",
	                "pad has no effect with method: tma; use swizzle against bank conflicts", 3, 6, "pad: 1");
}
END_TEST

START_TEST(check_transpose_tma_rejects_box_row_not_filling_swizzle_span)
{
	ASSERT_REJECTED("kernel: transpose\nmethod: tma\ntile_rows: 16\ntile_cols: 16\nbatch: 1\nswizzle: 128B\n",
	                "tile_cols 16 is 64 bytes of f32, not the 128 bytes of the swizzle span (a swizzled TMA box row "
	                "must fill it): use tile_cols: 32, or swizzle: 64B", 4, 12, "tile_cols: 16");
	ASSERT_REJECTED("kernel: transpose\nmethod: tma\ntile_rows: 8\ntile_cols: 64\nbatch: 1\nswizzle: 32B\n",
	                "tile_cols 64 is 256 bytes of f32, not the 32 bytes of the swizzle span (a swizzled TMA box row "
	                "must fill it): use tile_cols: 8, or swizzle: none", 4, 12, "tile_cols: 64");
}
END_TEST

START_TEST(check_transpose_tma_rejects_transposed_row_not_filling_swizzle_span)
{
	ASSERT_REJECTED("kernel: transpose\nmethod: tma\ntile_rows: 64\ntile_cols: 32\nbatch: 2\nswizzle: 128B\n",
	                "tile_rows 64 is 256 bytes of f32, not the 128 bytes of the swizzle span (the rows of the "
	                "transposed box must fill it): use tile_rows: 32", 3, 12, "tile_rows: 64");
}
END_TEST

START_TEST(check_transpose_tma_rejects_diagonal_walk_with_swizzle)
{
	ASSERT_REJECTED("kernel: transpose\nmethod: tma\nbatch: 1\nswizzle: 128B\nwalk: diagonal\n",
	                "walk: diagonal avoids bank conflicts without a swizzle: use swizzle: none", 5, 7, "walk: diagonal");
}
END_TEST

START_TEST(check_transpose_tma_rejects_diagonal_walk_off_32x32)
{
	ASSERT_REJECTED("kernel: transpose\nmethod: tma\ntile_rows: 16\ntile_cols: 64\nbatch: 1\nwalk: diagonal\n",
	                "walk: diagonal moves 32x32 sub-blocks, batch steps per warp: it needs tile_rows and tile_cols "
	                "multiples of 32 and a batch that divides 32", 6, 7, "walk: diagonal");
	ASSERT_REJECTED("kernel: transpose\nmethod: tma\ntile_rows: 64\ntile_cols: 64\nbatch: 64\nwalk: diagonal\n",
	                "walk: diagonal moves 32x32 sub-blocks, batch steps per warp: it needs tile_rows and tile_cols "
	                "multiples of 32 and a batch that divides 32", 6, 7, "walk: diagonal");
}
END_TEST

START_TEST(check_transpose_tma_rejects_box_row_not_16_bytes)
{
	ASSERT_REJECTED("kernel: transpose\nmethod: tma\ntile_rows: 64\ntile_cols: 2\nbatch: 1\n",
	                "tile_cols 2 is 8 bytes of f32: a TMA box row must be a multiple of 16 bytes", 4, 12,
	                "tile_cols: 2");
}
END_TEST

START_TEST(check_transpose_tma_rejects_transposed_row_not_16_bytes)
{
	ASSERT_REJECTED("kernel: transpose\nmethod: tma\ntile_rows: 2\ntile_cols: 64\nbatch: 1\n",
	                "tile_rows 2 is 8 bytes of f32: the transposed box's rows must be a multiple of 16 bytes", 3, 12,
	                "tile_rows: 2");
}
END_TEST

START_TEST(check_transpose_tma_rejects_batch_not_dividing_tile_cols)
{
	ASSERT_REJECTED("kernel: transpose\nmethod: tma\ntile_rows: 64\ntile_cols: 32\nbatch: 64\n",
	                "batch 64 must divide tile_cols 32: each thread moves batch adjacent elements of one row", 5, 8,
	                "batch: 64");
}
END_TEST

START_TEST(check_transpose_rejects_order_with_buffers)
{
	ASSERT_REJECTED("kernel: transpose\nmethod: tma\nbuffers: 2\norder: cols\n",
	                "order needs buffers: 1 (a pipelined block walks its own tiles)", 4, 8, "order: cols");
	ASSERT_REJECTED("kernel: transpose\nmethod: tma\nbuffers: 2\norder: grouped\ngroup: 4\n",
	                "order needs buffers: 1 (a pipelined block walks its own tiles)", 4, 8, "order: grouped");
}
END_TEST

START_TEST(check_transpose_rejects_group_without_grouped_order)
{
	ASSERT_REJECTED("kernel: transpose\nmethod: tma\ngroup: 4\n", "group needs order: grouped, not rows", 3, 8,
	                "group: 4");
	ASSERT_REJECTED("kernel: transpose\norder: cols\ngroup: 4\n", "group needs order: grouped, not cols", 3, 8,
	                "group: 4");
}
END_TEST

START_TEST(check_transpose_rejects_hints_with_tma)
{
	ASSERT_REJECTED("kernel: transpose\nmethod: tma\nstore_hint: cs\n",
	                "store_hint needs method: smem (TMA copies take cache_hint)", 3, 13, "store_hint: cs");
	ASSERT_REJECTED("kernel: transpose\nmethod: tma\nload_hint: nc\n",
	                "load_hint needs method: smem (TMA copies take cache_hint)", 3, 12, "load_hint: nc");
	ASSERT_REJECTED("kernel: transpose\nstore_hint: wb\n",
	                "store_hint: unknown value 'wb' (did you mean 'wt'?): expected none, cs, cg or wt", 2, 13,
	                "store_hint: wb");
}
END_TEST

START_TEST(check_transpose_smem_rejects_tile_over_48_kb)
{
	/* 128 rows of 128 + 1 floats: 66048 bytes. */
	ASSERT_REJECTED("kernel: transpose\nmethod: smem\ntile_rows: 128\ntile_cols: 128\nbatch: 16\n",
	                "the 128x128 tile needs 66048 bytes of shared memory, over the 48 KB of static shared memory a "
	                "block gets: use a smaller tile", 3, 12, "tile_rows: 128");
}
END_TEST

START_TEST(check_transpose_tma_rejects_tile_over_227_kb)
{
	/* Two 128x128 f64 tiles and an mbarrier: 262152 bytes, over any block's
	 * shared memory on Hopper even as dynamic shared memory. */
	ASSERT_REJECTED("kernel: transpose\nmethod: tma\ndtype: f64\ntile_rows: 128\ntile_cols: 128\nbatch: 16\n",
	                "the 128x128 tile needs 262152 bytes of shared memory (buffers 1), over the 232448 bytes a block "
	                "can have on Hopper: use a smaller tile or fewer buffers", 4, 12, "tile_rows: 128");
}
END_TEST

START_TEST(check_transpose_pipelined_tiles_fit_static_shared_memory)
{
	/* Pipelined kernels keep their buffers in static shared memory (48 KB). */
	ASSERT_REJECTED("kernel: transpose\nmethod: tma\ntile_rows: 64\ntile_cols: 64\nbatch: 16\nbuffers: 2\n",
	                "2 buffers of a 64x64 tile need 65552 bytes of shared memory, over the 48 KB of static shared "
	                "memory pipelined kernels use: use fewer buffers or a smaller tile", 6, 10, "buffers: 2");
}
END_TEST

START_TEST(check_transpose_rejects_index_not_32_or_64)
{
	ASSERT_REJECTED("kernel: transpose\nindex: 40\n", "index must be 32 or 64, not 40", 2, 8, "index: 40");
}
END_TEST

/* ---- kgen_spec_set_many ---- */

START_TEST(set_many_changes_fields_together)
{
	kgen_spec *spec = load("kernel: transpose\nmethod: tma\ntile_rows: 32\ntile_cols: 32\nbatch: 1\nswizzle: 128B\n");
	static const char *const keys[] = { "tile_rows", "tile_cols", "batch", "swizzle" };
	static const char *const values[] = { "64", "64", "16", "none" };
	kgen_error err;

	/* One at a time, tile_rows and tile_cols are rejected (64x32 or 32x64
	 * with batch 1 is 2048 threads) and leave the fields as they were. */
	ck_assert_int_eq(kgen_spec_set(spec, keys[0], values[0], &err), KGEN_ESPEC);
	ck_assert_int_eq(kgen_spec_set(spec, keys[1], values[1], &err), KGEN_ESPEC);
	ck_assert_str_eq(err.message, "threads 2048 (tile 32x64 / batch 1) must be a multiple of 32 and at most 1024: "
	                 "use batch: 2");
	ASSERT_FIELD(spec, "tile_rows", "32");
	ASSERT_FIELD(spec, "tile_cols", "32");
	ck_assert_int_eq(kgen_spec_set_many(spec, 4, keys, values, &err), KGEN_OK);
	ASSERT_FIELD(spec, "tile_rows", "64");
	ASSERT_FIELD(spec, "tile_cols", "64");
	ASSERT_FIELD(spec, "batch", "16");
	ASSERT_FIELD(spec, "swizzle", "none");
	ASSERT_FIELD(spec, "threads", "256");
	kgen_spec_free(spec);
}
END_TEST

START_TEST(set_many_one_at_a_time_messages)
{
	kgen_spec *spec = load("kernel: transpose\nmethod: tma\ntile_rows: 32\ntile_cols: 32\nbatch: 1\nswizzle: 128B\n");
	kgen_error err;

	ck_assert_int_eq(kgen_spec_set(spec, "tile_rows", "64", &err), KGEN_ESPEC);
	ck_assert_str_eq(err.message, "threads 2048 (tile 64x32 / batch 1) must be a multiple of 32 and at most 1024: "
	                 "use batch: 2");
	/* threads is derived: the error points at the batch written in the spec. */
	ck_assert_int_eq(err.line, 5);
	ck_assert_int_eq(err.column, 8);
	ck_assert_int_eq(kgen_spec_set(spec, "swizzle", "none", &err), KGEN_OK);
	ck_assert_int_eq(kgen_spec_set(spec, "batch", "64", &err), KGEN_ESPEC);
	ck_assert_str_eq(err.message, "threads 16 (tile 32x32 / batch 64) must be a multiple of 32 and at most 1024: "
	                 "use batch: 32");
	ASSERT_FIELD(spec, "batch", "1");
	ASSERT_FIELD(spec, "swizzle", "none");
	kgen_spec_free(spec);
}
END_TEST

START_TEST(set_many_failure_leaves_spec_unchanged)
{
	kgen_spec *spec = load("kernel: transpose\nmethod: tma\ntile_rows: 32\ntile_cols: 32\nbatch: 1\nswizzle: 128B\n");
	static const char *const keys[] = { "tile_rows", "tile_cols", "swizzle" };
	static const char *const values[] = { "64", "64", "none" };
	static const char *const bad_keys[] = { "tile_rows", "batch" };
	static const char *const bad_values[] = { "64", "x" };
	static const char *const unknown_keys[] = { "tile_rows", "tile_col" };
	char *before = dump(spec), *after;
	kgen_error err;

	/* Valid values, impossible together: 64x64 / batch 1 is 4096 threads. */
	ck_assert_int_eq(kgen_spec_set_many(spec, 3, keys, values, &err), KGEN_ESPEC);
	ck_assert_str_eq(err.message, "threads 4096 (tile 64x64 / batch 1) must be a multiple of 32 and at most 1024: "
	                 "use batch: 4");
	after = dump(spec);
	ck_assert_str_eq(after, before);
	free(after);
	/* A bad value after a good one. */
	ck_assert_int_eq(kgen_spec_set_many(spec, 2, bad_keys, bad_values, &err), KGEN_ESPEC);
	ck_assert_str_eq(err.message, "batch: 'x' is not a decimal integer: expected an integer from 1 to 256");
	after = dump(spec);
	ck_assert_str_eq(after, before);
	free(after);
	/* An unknown key after a good one. */
	ck_assert_int_eq(kgen_spec_set_many(spec, 2, unknown_keys, bad_values, &err), KGEN_ESPEC);
	ck_assert_str_eq(err.message, "unknown key 'tile_col' (did you mean 'tile_cols'?)");
	after = dump(spec);
	ck_assert_str_eq(after, before);
	free(after);
	free(before);
	kgen_spec_free(spec);
}
END_TEST

START_TEST(set_many_rejects_key_of_other_family)
{
	kgen_spec *spec = load("kernel: transpose\n");
	static const char *const keys[] = { "batch", "op" };
	static const char *const values[] = { "8", "sum" };
	char *before = dump(spec), *after;
	kgen_error err;

	ck_assert_int_eq(kgen_spec_set_many(spec, 2, keys, values, &err), KGEN_ESPEC);
	ck_assert_str_eq(err.message, "op does not apply to kernel: transpose");
	ck_assert_int_eq(err.line, 0);
	after = dump(spec);
	ck_assert_str_eq(after, before);
	free(after);
	free(before);
	kgen_spec_free(spec);
}
END_TEST

START_TEST(set_many_zero_fields_and_null_arguments)
{
	kgen_spec *spec = load("kernel: transpose\n");
	static const char *const keys[] = { "batch" };
	kgen_error err;

	ck_assert_int_eq(kgen_spec_set_many(spec, 0, NULL, NULL, &err), KGEN_OK);
	ASSERT_FIELD(spec, "threads", "256");
	ck_assert_int_eq(kgen_spec_set_many(spec, 1, keys, NULL, &err), KGEN_EINVAL);
	ck_assert_int_eq(kgen_spec_set_many(NULL, 0, NULL, NULL, &err), KGEN_EINVAL);
	ck_assert_int_eq(kgen_spec_set_many(spec, -1, keys, keys, &err), KGEN_EINVAL);
	kgen_spec_free(spec);
}
END_TEST

/* ---- kgen_spec_get, kgen_spec_dump, files ---- */

START_TEST(get_unknown_key_is_null)
{
	kgen_spec *spec = load("kernel: reduce\n");
	char buf[32];

	ck_assert_ptr_null(kgen_spec_get(spec, "thread", buf, sizeof buf));
	ck_assert_ptr_null(kgen_spec_get(spec, "threads", buf, 0));
	kgen_spec_free(spec);
}
END_TEST

START_TEST(get_truncates_to_buffer)
{
	kgen_spec *spec = load("kernel: reduce\nstages: last_block\n");
	char buf[5];

	ck_assert_str_eq(kgen_spec_get(spec, "stages", buf, sizeof buf), "last");
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
		"block_reduce: sequential\n"
		"warp_tail: volatile\n"
		"warp_tail_from: 32\n"
		"index: 64\n"
		"out_dtype: f32\n");
	free(yaml);
	kgen_spec_free(spec);
}
END_TEST

START_TEST(missing_file_is_an_io_error)
{
	kgen_spec *spec = NULL;
	kgen_error err;

	ck_assert_int_eq(kgen_spec_load_file("/nonexistent/kgen/x.yaml", &spec, &err), KGEN_EIO);
	ck_assert_ptr_null(spec);
	ck_assert_int_eq(err.status, KGEN_EIO);
	ck_assert_str_eq(err.message, "cannot open /nonexistent/kgen/x.yaml: No such file or directory");
	ck_assert_int_eq(err.line, 0);
}
END_TEST

START_TEST(null_arguments_are_einval)
{
	kgen_spec *spec = NULL;
	kgen_error err;

	ck_assert_int_eq(kgen_spec_load_string(NULL, 0, "x", &spec, &err), KGEN_EINVAL);
	ck_assert_int_eq(kgen_spec_load_file(NULL, &spec, &err), KGEN_EINVAL);
	ck_assert_int_eq(kgen_generate(NULL, NULL, &err), KGEN_EINVAL);
}
END_TEST

START_TEST(status_names_and_version)
{
	ck_assert_str_eq(kgen_status_name(KGEN_OK), "KGEN_OK");
	ck_assert_str_eq(kgen_status_name(KGEN_ESPEC), "KGEN_ESPEC");
	ck_assert_str_eq(kgen_status_name(KGEN_EINTERNAL), "KGEN_EINTERNAL");
	ck_assert_str_eq(kgen_status_name((kgen_status)99), "KGEN_E?");
	ck_assert_str_eq(kgen_version(), KGEN_VERSION);
	ck_assert_str_eq(kgen_version(), PACKAGE_VERSION);
}
END_TEST

/* ---- kgen_error_print ---- */

START_TEST(error_print_shows_place_line_and_caret)
{
	kgen_error err = reject("kernel: reduce\nop: summ\n");

	ck_assert_str_eq(print_error(&err),
		"t.yaml:2:5: error: op: unknown value 'summ' (did you mean 'sum'?): expected sum, min, max, prod, mean, sumsq, norm2, amax, count_nonzero, any, all, argmin, argmax or custom\n"
		"  op: summ\n"
		"      ^\n");
}
END_TEST

START_TEST(error_print_caret_at_column_one)
{
	kgen_error err = reject("kernel: reduce\nthread: 1\n");

	ck_assert_str_eq(print_error(&err),
		"t.yaml:2:1: error: unknown key 'thread' (did you mean 'threads'?)\n"
		"  thread: 1\n"
		"  ^\n");
}
END_TEST

START_TEST(error_print_without_source_line_has_no_caret)
{
	kgen_error err = reject("kernel: reduce\nop: [sum\n");

	ck_assert_str_eq(print_error(&err),
		"t.yaml:3:1: error: YAML: did not find expected ',' or ']' while parsing a flow sequence\n");
}
END_TEST

START_TEST(error_print_without_place)
{
	kgen_error err;

	memset(&err, 0, sizeof err);
	err.status = KGEN_EIO;
	strcpy(err.message, "cannot open x");
	ck_assert_str_eq(print_error(&err), "kgen: error: cannot open x\n");
	strcpy(err.file, "x.yaml");
	ck_assert_str_eq(print_error(&err), "x.yaml: error: cannot open x\n");
}
END_TEST

static Suite *
spec_suite(void)
{
	Suite *s = suite_create("spec");
	TCase *tc;

	tc = tcase_create("good");
	tcase_add_test(tc, file_spec_values_are_loaded);
	tcase_add_test(tc, minimal_spec_gets_every_default);
	tcase_add_test(tc, half_precision_accumulates_in_f32);
	tcase_add_test(tc, acc_dtype_defaults_to_dtype);
	tcase_add_test(tc, name_defaults_to_kernel_op_dtype);
	tcase_add_test(tc, name_given_is_kept);
	tcase_add_test(tc, blocks_per_sm_defaults_to_2048_over_threads);
	tcase_add_test(tc, blocks_per_sm_given_is_kept);
	tcase_add_test(tc, comments_and_quoted_values_are_accepted);
	suite_add_tcase(s, tc);

	tc = tcase_create("load");
	tcase_set_timeout(tc, 60);  /* 10 MB inputs, and NVRTC for the names test */
	tcase_add_test(tc, yaml_syntax_error_has_libyaml_position);
	tcase_add_test(tc, yaml_parser_error_includes_context);
	tcase_add_test(tc, empty_spec_is_rejected);
	tcase_add_test(tc, list_root_is_rejected);
	tcase_add_test(tc, scalar_root_is_rejected);
	tcase_add_test(tc, missing_kernel_is_rejected);
	tcase_add_test(tc, unknown_key_suggests_nearest);
	tcase_add_test(tc, unknown_key_prefix_suggests_key);
	tcase_add_test(tc, unknown_key_far_from_any_has_no_suggestion);
	tcase_add_test(tc, non_scalar_key_is_rejected);
	tcase_add_test(tc, duplicate_key_names_first_line);
	tcase_add_test(tc, list_value_is_rejected);
	tcase_add_test(tc, mapping_value_is_rejected);
	tcase_add_test(tc, deep_flow_nesting_is_refused_in_linear_time);
	tcase_add_test(tc, ten_megabytes_in_under_a_second);
	tcase_add_test(tc, second_document_is_refused);
	tcase_add_test(tc, names_cannot_collide);
	tcase_add_test(tc, integers_are_plain_decimals);
	tcase_add_test(tc, reader_errors_are_placed_and_control_characters_escaped);
	tcase_add_test(tc, tags_and_aliases_are_refused_where_written);
	tcase_add_test(tc, bad_enum_value_suggests_nearest);
	tcase_add_test(tc, bad_enum_value_far_from_any_lists_allowed);
	tcase_add_test(tc, bad_kernel_family_is_rejected);
	tcase_add_test(tc, non_integer_is_rejected);
	tcase_add_test(tc, leading_zero_is_not_decimal);
	tcase_add_test(tc, out_of_range_integer_is_rejected);
	tcase_add_test(tc, bad_name_is_rejected);
	suite_add_tcase(s, tc);

	tc = tcase_create("check");
	tcase_add_test(tc, check_rejects_16_bit_accumulator);
	tcase_add_test(tc, check_rejects_integer_accumulator_for_floats);
	tcase_add_test(tc, check_rejects_narrower_integer_accumulator);
	tcase_add_test(tc, check_rejects_load_width_below_element_size);
	tcase_add_test(tc, check_rejects_load_width_not_power_of_two);
	tcase_add_test(tc, check_rejects_items_not_multiple_of_vector);
	tcase_add_test(tc, check_rejects_threads_not_multiple_of_32);
	tcase_add_test(tc, check_rejects_block_reduce_without_block_reduction);
	tcase_add_test(tc, check_rejects_warp_tail_without_block_reduction);
	tcase_add_test(tc, check_rejects_warp_tail_from_without_block_reduction);
	tcase_add_test(tc, check_rejects_tree_on_non_power_of_two_block);
	tcase_add_test(tc, check_rejects_warps_with_shared_memory_tail);
	tcase_add_test(tc, check_rejects_warp_tail_after_strided_tree);
	tcase_add_test(tc, check_error_on_defaulted_key_points_at_kernel);
	tcase_add_test(tc, check_rejects_reduce_sync_on_non_32_bit_integers);
	tcase_add_test(tc, check_rejects_reduce_sync_for_prod);
	tcase_add_test(tc, check_rejects_warp_tail_from_not_32_or_64);
	tcase_add_test(tc, check_rejects_warp_tail_from_with_warps);
	tcase_add_test(tc, check_rejects_warp_tail_from_without_warp_tail);
	tcase_add_test(tc, check_rejects_threads_fewer_than_warp_tail_from);
	tcase_add_test(tc, check_rejects_atomics_without_atomic_stage);
	tcase_add_test(tc, check_rejects_blocks_per_sm_on_tile_grid);
	tcase_add_test(tc, check_rejects_unroll_on_tile_grid);
	tcase_add_test(tc, check_rejects_more_threads_than_an_sm_holds);
	tcase_add_test(tc, check_rejects_index_not_32_or_64);
	suite_add_tcase(s, tc);

	tc = tcase_create("geometry");
	tcase_add_test(tc, grids_do_not_wrap_near_2_to_64);
	suite_add_tcase(s, tc);

	tc = tcase_create("set");
	tcase_add_test(tc, set_changes_a_field);
	tcase_add_test(tc, set_unknown_key_suggests_nearest);
	tcase_add_test(tc, set_bad_value_leaves_spec_unchanged);
	tcase_add_test(tc, set_impossible_combination_leaves_spec_unchanged);
	tcase_add_test(tc, set_error_on_written_field_keeps_its_position);
	tcase_add_test(tc, set_dtype_rederives_acc_dtype_and_name);
	tcase_add_test(tc, set_keeps_fields_written_in_the_spec);
	tcase_add_test(tc, set_threads_rederives_blocks_per_sm);
	tcase_add_test(tc, set_earlier_set_survives_later_set);
	suite_add_tcase(s, tc);

	tc = tcase_create("transpose");
	tcase_add_test(tc, transpose_minimal_spec_gets_every_default);
	tcase_add_test(tc, transpose_threads_default_to_tile_over_batch);
	tcase_add_test(tc, transpose_name_defaults_to_transpose_dtype);
	tcase_add_test(tc, transpose_spec_files_load);
	tcase_add_test(tc, transpose_tma_tuning_keys_are_accepted);
	tcase_add_test(tc, transpose_smem_hints_and_order_are_accepted);
	suite_add_tcase(s, tc);

	tc = tcase_create("check_transpose");
	tcase_add_test(tc, check_rejects_reduce_key_in_transpose_spec);
	tcase_add_test(tc, check_rejects_transpose_key_in_reduce_spec);
	tcase_add_test(tc, check_transpose_rejects_batch_not_dividing_tile);
	tcase_add_test(tc, check_transpose_rejects_threads_not_covering_tile);
	tcase_add_test(tc, check_transpose_rejects_threads_not_multiple_of_32);
	tcase_add_test(tc, check_transpose_rejects_more_than_1024_threads);
	tcase_add_test(tc, check_transpose_smem_rejects_tma_keys);
	tcase_add_test(tc, check_transpose_smem_rejects_bad_load_width);
	tcase_add_test(tc, check_transpose_smem_rejects_vector_not_dividing_tile);
	tcase_add_test(tc, check_transpose_smem_rejects_batch_not_multiple_of_vector);
	tcase_add_test(tc, check_transpose_tma_rejects_load_width);
	tcase_add_test(tc, check_transpose_tma_rejects_pad);
	tcase_add_test(tc, check_transpose_tma_rejects_box_row_not_filling_swizzle_span);
	tcase_add_test(tc, check_transpose_tma_rejects_transposed_row_not_filling_swizzle_span);
	tcase_add_test(tc, check_transpose_tma_rejects_diagonal_walk_with_swizzle);
	tcase_add_test(tc, check_transpose_tma_rejects_diagonal_walk_off_32x32);
	tcase_add_test(tc, check_transpose_tma_rejects_box_row_not_16_bytes);
	tcase_add_test(tc, check_transpose_tma_rejects_transposed_row_not_16_bytes);
	tcase_add_test(tc, check_transpose_tma_rejects_batch_not_dividing_tile_cols);
	tcase_add_test(tc, check_transpose_rejects_order_with_buffers);
	tcase_add_test(tc, check_transpose_rejects_group_without_grouped_order);
	tcase_add_test(tc, check_transpose_rejects_hints_with_tma);
	tcase_add_test(tc, check_transpose_smem_rejects_tile_over_48_kb);
	tcase_add_test(tc, check_transpose_tma_rejects_tile_over_227_kb);
	tcase_add_test(tc, check_transpose_pipelined_tiles_fit_static_shared_memory);
	tcase_add_test(tc, check_transpose_rejects_index_not_32_or_64);
	suite_add_tcase(s, tc);

	tc = tcase_create("set_many");
	tcase_add_test(tc, set_many_changes_fields_together);
	tcase_add_test(tc, set_many_one_at_a_time_messages);
	tcase_add_test(tc, set_many_failure_leaves_spec_unchanged);
	tcase_add_test(tc, set_many_rejects_key_of_other_family);
	tcase_add_test(tc, set_many_zero_fields_and_null_arguments);
	suite_add_tcase(s, tc);

	tc = tcase_create("api");
	tcase_add_test(tc, get_unknown_key_is_null);
	tcase_add_test(tc, get_truncates_to_buffer);
	tcase_add_test(tc, dump_shows_resolved_defaults);
	tcase_add_test(tc, missing_file_is_an_io_error);
	tcase_add_test(tc, null_arguments_are_einval);
	tcase_add_test(tc, status_names_and_version);
	tcase_add_test(tc, error_print_shows_place_line_and_caret);
	tcase_add_test(tc, error_print_caret_at_column_one);
	tcase_add_test(tc, error_print_without_source_line_has_no_caret);
	tcase_add_test(tc, error_print_without_place);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(spec_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
