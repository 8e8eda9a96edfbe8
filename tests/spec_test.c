/*
 * spec_test.c - the spec loader (gen/load.c), the validator (gen/check.c)
 * and the spec API of kgen.h: values and defaults of good specs, and for
 * bad ones the exact message, line, column and source line of the error.
 */
#include "config.h"
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "kgen.h"
#include "gen/spec.h"
#include "gen/expr.h"
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

/* The fastest of `tries` loads of load_big(head, unit, n), in seconds. */
static double
fastest_load(const char *head, const char *unit, size_t n, kgen_status want, int tries, kgen_error *e)
{
	double best = 1e9, took;
	int i;

	for (i = 0; i < tries; i++) {
		*e = load_big(head, unit, n, want, &took);
		if (took < best)
			best = took;
	}
	return best;
}

/* Any input up to 10 MB is accepted or refused in time linear in its size:
 * 10 MB takes at most 3 times as long as 8 copies of its first 1.25 MB
 * would (a quadratic loader takes 64 times as long; a linear one 8),
 * each the fastest of a few loads so that a busy machine does not decide,
 * plus 20 ms for a timer's granularity, and under 10 s in any case. */
START_TEST(ten_megabytes_in_linear_time)
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
	const size_t big = 10u << 20;
	double small, took;
	kgen_error e;
	size_t i;

	for (i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
		small = fastest_load(inputs[i].head, inputs[i].unit, big / 8, inputs[i].want, 3, &e);
		took = fastest_load(inputs[i].head, inputs[i].unit, big, inputs[i].want, 2, &e);
		ck_assert_msg(took < 3 * 8 * small + 0.02, "input %zu: 10 MB took %.3f s, 1.25 MB %.3f s (%s)", i, took,
		              small, e.message);
		ck_assert_msg(took < 10.0, "input %zu took %.2f s (%s)", i, took, e.message);
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

/* ---- op: custom's expressions (gen/expr.c, read by gen/load.c) ---- */

/* A spec of op: custom whose line 5 is `key: value`, the other keys it
 * needs (combine, identity) on lines 3 and 4. */
static const char *
custom_spec(const char *key, const char *value)
{
	static char yaml[1024];
	const char *rest = strcmp(key, "combine") == 0 ? "identity: 0\nmap: x\n"
	                   : strcmp(key, "identity") == 0 ? "combine: a + b\nmap: x\n"
	                   : "combine: a + b\nidentity: 0\n";

	snprintf(yaml, sizeof yaml, "kernel: reduce\nop: custom\n%s%s: %s\n", rest, key, value);
	return yaml;
}

/* `key: value` (both literals) on line 5 is refused with "key: why" at column col. */
#define ASSERT_EXPR_REJECTED(key, value, why, col) \
	ASSERT_REJECTED(custom_spec(key, value), key ": " why, 5, col, key ": " value)

/* The column is that of the offending character: one past the quote of a
 * quoted value. */
START_TEST(expr_error_points_at_the_offending_character)
{
	ASSERT_EXPR_REJECTED("map", "x;", "';' ends a statement: an expression is one C expression, not statements", 7);
	ASSERT_EXPR_REJECTED("map", "'x;'", "';' ends a statement: an expression is one C expression, not statements",
	                     8);
	ASSERT_EXPR_REJECTED("map", "\"x;\"", "';' ends a statement: an expression is one C expression, not statements",
	                     8);
	ASSERT_EXPR_REJECTED("map", "x  +  y", "unknown name 'y': an expression uses its own names and the functions "
	                     "listed in docs/spec.md", 12);
	ASSERT_EXPR_REJECTED("map", "'x  +  y'", "unknown name 'y': an expression uses its own names and the functions "
	                     "listed in docs/spec.md", 13);
	ASSERT_EXPR_REJECTED("combine", "\"a + x\"", "'x' is not a name of combine, which has a and b", 15);
	/* A doubled quote before the fault does not move the column off it. */
	ASSERT_EXPR_REJECTED("map", "'x'' + 1'", "a character literal has no place in an expression: write its number",
	                     8);
	/* In the matrix family too. */
	ASSERT_REJECTED("kernel: reduce_axis\nop: custom\ncombine: a + b\nidentity: 0\npost: 'a / n;'\n",
	                "post: ';' ends a statement: an expression is one C expression, not statements", 5, 13,
	                "post: 'a / n;'");
}
END_TEST

/* What would end the expression, or make it more than one: refused in next(). */
START_TEST(expr_refuses_what_is_not_one_expression)
{
	ASSERT_EXPR_REJECTED("map", "'{x}'", "a brace would open or close a block: an expression has none", 7);
	ASSERT_EXPR_REJECTED("map", "x }", "a brace would open or close a block: an expression has none", 8);
	ASSERT_EXPR_REJECTED("map", "\"x\\ny\"", "an expression is one line", 8);
	ASSERT_EXPR_REJECTED("map", "\"x\\ry\"", "an expression is one line", 8);
	ASSERT_EXPR_REJECTED("map", "'x // c'", "a comment has no place in an expression", 9);
	ASSERT_EXPR_REJECTED("map", "'x /* c */'", "a comment has no place in an expression", 9);
	ASSERT_EXPR_REJECTED("map", "'#x'", "'#' would start a preprocessor line", 7);
	ASSERT_EXPR_REJECTED("map", "x#y", "'#' would start a preprocessor line", 7);
	ASSERT_EXPR_REJECTED("map", "'x + \"s\"'", "a string literal has no place in an expression", 11);
	ASSERT_EXPR_REJECTED("map", "\"x + 'a'\"", "a character literal has no place in an expression: write its number",
	                     11);
	ASSERT_EXPR_REJECTED("map", "'x + \\1'", "a backslash has no place in an expression", 11);
	ASSERT_EXPR_REJECTED("map", "'x @ 1'", "'@' has no place in an expression", 9);
	ASSERT_EXPR_REJECTED("map", "'x $ 1'", "'$' has no place in an expression", 9);
	ASSERT_EXPR_REJECTED("map", "\"x\\u00e9\"", "a control or non-ASCII character has no place in an expression",
	                     8);
	/* A block scalar holds its newline: the fault is at the value. */
	ASSERT_REJECTED("kernel: reduce\nop: custom\ncombine: a + b\nidentity: 0\nmap: |\n  x\n  + 1\n",
	                "map: an expression is one line", 5, 6, "map: |");
}
END_TEST

START_TEST(expr_refuses_assignment_subscripts_and_members)
{
	ASSERT_EXPR_REJECTED("map", "'x[0]'", "subscripts: each name is one value, not an array", 8);
	ASSERT_EXPR_REJECTED("map", "'x = 1'",
	                     "'=' assigns: an expression computes a value without assigning (use == to compare)", 9);
	ASSERT_EXPR_REJECTED("map", "'x += 1'", "'+=' assigns: an expression computes a value without assigning", 9);
	ASSERT_EXPR_REJECTED("map", "'x <<= 1'", "'<<=' assigns: an expression computes a value without assigning", 9);
	ASSERT_EXPR_REJECTED("map", "'x++'", "'++' assigns: an expression computes a value without assigning", 8);
	ASSERT_EXPR_REJECTED("map", "'--x'", "'--' assigns: an expression computes a value without assigning", 7);
	ASSERT_EXPR_REJECTED("map", "'x->y'", "'->': members are not part of an expression", 8);
	ASSERT_EXPR_REJECTED("map", "'x.y'", "'.': members are not part of an expression", 8);
	/* The comma operator: a comma only separates a call's arguments. */
	ASSERT_EXPR_REJECTED("map", "'(x, 1)'", "expected ')' to close a '('", 9);
}
END_TEST

/* Each key has its own names (map: x, i; combine: a, b; post: a, n;
 * identity: none); anything else is a function of the table, a type in a
 * cast, or refused. */
START_TEST(expr_names_are_the_keys_own)
{
	ASSERT_EXPR_REJECTED("map", "'y + 1'", "unknown name 'y': an expression uses its own names and the functions "
	                     "listed in docs/spec.md", 7);
	ASSERT_EXPR_REJECTED("map", "'x + foo(x)'", "unknown name 'foo': an expression uses its own names and the "
	                     "functions listed in docs/spec.md", 11);
	ASSERT_EXPR_REJECTED("map", "b", "'b' is not a name of map, which has x and i", 6);
	ASSERT_EXPR_REJECTED("map", "'x * n'", "'n' is not a name of map, which has x and i", 11);
	ASSERT_EXPR_REJECTED("combine", "x", "'x' is not a name of combine, which has a and b", 10);
	ASSERT_EXPR_REJECTED("combine", "'a + i'", "'i' is not a name of combine, which has a and b", 15);
	ASSERT_EXPR_REJECTED("post", "i", "'i' is not a name of post, which has a and n", 7);
	ASSERT_EXPR_REJECTED("post", "'b / n'", "'b' is not a name of post, which has a and n", 8);
	ASSERT_EXPR_REJECTED("identity", "x", "'x' is not a name of identity, which has none (a constant)", 11);
	ASSERT_EXPR_REJECTED("identity", "'-n'", "'n' is not a name of identity, which has none (a constant)", 13);
	ASSERT_EXPR_REJECTED("map", "float", "'float' is a type: write a cast as (type)value", 6);
	ASSERT_EXPR_REJECTED("map", "'x + Acc'", "'Acc' is a type: write a cast as (type)value", 11);
	ASSERT_EXPR_REJECTED("map", "'sizeof(x)'", "'sizeof' is a C++ keyword an expression cannot use", 7);
	/* A function is called: the fault is where its '(' should be. */
	ASSERT_EXPR_REJECTED("map", "sqrt", "'sqrt' is a function: call it, as name(...)", 10);
	ASSERT_EXPR_REJECTED("map", "'sqrt + 1'", "'sqrt' is a function: call it, as name(...)", 12);
}
END_TEST

START_TEST(expr_calls_take_their_argument_counts)
{
	ASSERT_EXPR_REJECTED("map", "'sqrt(x, x)'", "too many arguments to sqrt", 15);
	ASSERT_EXPR_REJECTED("map", "'fmaxf(x)'", "fmaxf takes 2 arguments", 14);
	ASSERT_EXPR_REJECTED("map", "'fma(x, x)'", "fma takes 3 arguments", 15);
	ASSERT_EXPR_REJECTED("map", "'sqrt()'", "')' where a value is expected", 12);
	ASSERT_EXPR_REJECTED("map", "'fmaxf(x x)'", "expected ',' or ')' in the call of fmaxf", 15);
}
END_TEST

START_TEST(expr_parentheses_and_operands_balance)
{
	ASSERT_EXPR_REJECTED("map", "'x)'", "')' closes no '('", 8);
	ASSERT_EXPR_REJECTED("map", "'(x'", "expected ')' to close a '('", 9);
	ASSERT_EXPR_REJECTED("map", "'(x + 1'", "expected ')' to close a '('", 13);
	ASSERT_EXPR_REJECTED("map", "'(float x)'", "expected ')' to end the cast", 14);
	ASSERT_EXPR_REJECTED("map", "'x ? 1'", "expected ':' of the '?'", 12);
	ASSERT_EXPR_REJECTED("map", "'x +'", "the expression ends where a value is expected", 10);
	ASSERT_EXPR_REJECTED("map", "'(float)'", "the expression ends where a value is expected", 14);
	ASSERT_EXPR_REJECTED("map", "'x * )'", "')' where a value is expected", 11);
	ASSERT_EXPR_REJECTED("map", "'x y'", "'y' after a whole expression: expected an operator or the end", 9);
}
END_TEST

START_TEST(expr_numbers_are_c_numbers)
{
	ASSERT_EXPR_REJECTED("map", "'x + 1x'", "'1x' is not a number", 11);
	ASSERT_EXPR_REJECTED("map", "'0x'", "'0x' is not a number", 7);
	ASSERT_EXPR_REJECTED("map", "'1.5.3'", "'1.5.3' is not a number", 7);
	ASSERT_EXPR_REJECTED("map", "'1e'", "'1e' is not a number", 7);
	ASSERT_EXPR_REJECTED("map", "'0x1p3'", "'0x1p3' is not a number", 7);
	ASSERT_EXPR_REJECTED("map", "'x + 12foo'", "'12foo' is not a number", 11);
	ASSERT_EXPR_REJECTED("map", "'08'", "'08' is not a number", 7);
	ASSERT_EXPR_REJECTED("map", "'99999999999999999999'", "'99999999999999999999' is out of range", 7);
	ASSERT_EXPR_REJECTED("map", "'x + 9223372036854775808'", "'9223372036854775808' is too large for long long: "
	                     "write 9223372036854775808u", 11);
}
END_TEST

/* Exactly C's suffixes: an integer u, l, ll and their mixes (ul, ull, lu,
 * llu) in either case, not lL; a floating number (a '.' or an exponent) f
 * or l.  Anything else would pass here and fail in NVRTC: refused at the
 * number. */
START_TEST(expr_number_suffixes_are_c_suffixes)
{
	ASSERT_EXPR_REJECTED("map", "10f", "'10f': C has no suffix f for an integer: write 10.0f", 6);
	ASSERT_EXPR_REJECTED("map", "'x * 2F'", "'2F': C has no suffix F for an integer: write 2.0F", 11);
	ASSERT_EXPR_REJECTED("map", "'x + 1uf'", "'1uf': C has no suffix uf for an integer: it takes u, l, ll, ul, ull, "
	                     "lu or llu (either case)", 11);
	ASSERT_EXPR_REJECTED("map", "'1lL'", "'1lL': C has no suffix lL for an integer: it takes u, l, ll, ul, ull, lu "
	                     "or llu (either case)", 7);
	ASSERT_EXPR_REJECTED("map", "'1uu'", "'1uu': C has no suffix uu for an integer: it takes u, l, ll, ul, ull, lu "
	                     "or llu (either case)", 7);
	ASSERT_EXPR_REJECTED("map", "'1lul'", "'1lul': C has no suffix lul for an integer: it takes u, l, ll, ul, ull, "
	                     "lu or llu (either case)", 7);
	ASSERT_EXPR_REJECTED("map", "'1lll'", "'1lll': C has no suffix lll for an integer: it takes u, l, ll, ul, ull, "
	                     "lu or llu (either case)", 7);
	ASSERT_EXPR_REJECTED("map", "'0xffuf'", "'0xffuf': C has no suffix uf for an integer: it takes u, l, ll, ul, "
	                     "ull, lu or llu (either case)", 7);
	ASSERT_EXPR_REJECTED("map", "'x + 1.5u'", "'1.5u': C has no suffix u for a floating number: it takes f or l",
	                     11);
	ASSERT_EXPR_REJECTED("map", "'1.5ff'", "'1.5ff': C has no suffix ff for a floating number: it takes f or l", 7);
	ASSERT_EXPR_REJECTED("map", "'1e3lf'", "'1e3lf': C has no suffix lf for a floating number: it takes f or l", 7);
	ASSERT_EXPR_REJECTED("map", "'.5ul'", "'.5ul': C has no suffix ul for a floating number: it takes f or l", 7);
}
END_TEST

/* A message that quotes a token quotes all of it. */
START_TEST(expr_messages_quote_the_whole_token)
{
	ASSERT_EXPR_REJECTED("map", "x foo", "'foo' after a whole expression: expected an operator or the end", 8);
	ASSERT_EXPR_REJECTED("map", "x 1.5", "'1.5' after a whole expression: expected an operator or the end", 8);
	ASSERT_EXPR_REJECTED("map", "'(x) (x)'", "'(' after a whole expression: expected an operator or the end", 11);
	ASSERT_EXPR_REJECTED("map", "'x * <<'", "'<<' where a value is expected", 11);
	ASSERT_EXPR_REJECTED("map", "'&& x'", "'&&' where a value is expected", 7);
	ASSERT_EXPR_REJECTED("map", "'x * >= 1'", "'>=' where a value is expected", 11);
}
END_TEST

/* A cast's words make one C type; Out, declared only where the op has a
 * last step, is post's (map, combine and identity compute an Acc). */
START_TEST(expr_casts_are_c_types)
{
	ASSERT_EXPR_REJECTED("map", "(Out)x", "Out, the result type, is post's", 7);
	ASSERT_EXPR_REJECTED("map", "'x + (Out)1'", "Out, the result type, is post's", 12);
	ASSERT_EXPR_REJECTED("combine", "'(Out)a + b'", "Out, the result type, is post's", 12);
	ASSERT_EXPR_REJECTED("identity", "(Out)0", "Out, the result type, is post's", 12);
	ASSERT_EXPR_REJECTED("map", "'(float double)x'", "'float double' is not a C type", 8);
	ASSERT_EXPR_REJECTED("map", "'(unsigned float)x'", "'unsigned float' is not a C type", 8);
	ASSERT_EXPR_REJECTED("map", "'(long long long)i'", "'long long long' is not a C type", 8);
	ASSERT_EXPR_REJECTED("map", "'(signed unsigned)i'", "'signed unsigned' is not a C type", 8);
	ASSERT_EXPR_REJECTED("map", "'(int int)i'", "'int int' is not a C type", 8);
	ASSERT_EXPR_REJECTED("map", "'(short long)i'", "'short long' is not a C type", 8);
	ASSERT_EXPR_REJECTED("map", "'(unsigned Acc)x'", "'unsigned Acc' is not a C type", 8);
	ASSERT_EXPR_REJECTED("map", "'(bool int)x'", "'bool int' is not a C type", 8);
	ASSERT_EXPR_REJECTED("map", "'(long char)x'", "'long char' is not a C type", 8);
}
END_TEST

/* A value on several lines of YAML is folded into one line, so a fault
 * would have a column of no line: it is refused at the value, plain or
 * quoted (and a block scalar). */
START_TEST(expr_on_several_lines_is_refused)
{
	ASSERT_REJECTED("kernel: reduce\nop: custom\ncombine: a + b\nidentity: 0\nmap: x\n  + y\n",
	                "map: an expression is one line", 5, 6, "map: x");
	ASSERT_REJECTED("kernel: reduce\nop: custom\ncombine: a + b\nidentity: 0\nmap: x\n  + 1\n",
	                "map: an expression is one line", 5, 6, "map: x");
	ASSERT_REJECTED("kernel: reduce\nop: custom\ncombine: a + b\nidentity: 0\nmap: 'x\n  + 1'\n",
	                "map: an expression is one line", 5, 6, "map: 'x");
	ASSERT_REJECTED("kernel: reduce\nop: custom\ncombine: a + b\nidentity: 0\nmap: \"x\n  + 1\"\n",
	                "map: an expression is one line", 5, 6, "map: \"x");
	ASSERT_REJECTED("kernel: reduce\nop: custom\ncombine: a + b\nidentity: 0\nmap: \"x \\\n  + 1\"\n",
	                "map: an expression is one line", 5, 6, "map: \"x \\");
	ASSERT_REJECTED("kernel: reduce\nop: custom\nidentity: 0\ncombine: >-\n  a + b\n",
	                "combine: an expression is one line", 4, 10, "combine: >-");
	/* A value on the line after its key is on one line: its faults are placed. */
	ASSERT_REJECTED("kernel: reduce_axis\nop: custom\ncombine: a + b\nidentity: 0\npost:\n  a / n;\n",
	                "post: ';' ends a statement: an expression is one C expression, not statements", 6, 8, "  a / n;");
	/* On one line, a double-quoted value's escapes are counted as written. */
	ASSERT_EXPR_REJECTED("map", "\"x\\t+ y\"", "unknown name 'y': an expression uses its own names and the "
	                     "functions listed in docs/spec.md", 12);
	ASSERT_EXPR_REJECTED("map", "\"\\x78 + y\"", "unknown name 'y': an expression uses its own names and the "
	                     "functions listed in docs/spec.md", 14);
	ASSERT_EXPR_REJECTED("map", "\"\\u0078\\t\\U00000078 y\"", "'x' after a whole expression: expected an "
	                     "operator or the end", 15);
}
END_TEST

/* An empty expression, and the limits: 200 characters, 128 nodes, 64 levels,
 * numbers of 63 characters. */
START_TEST(expr_empty_and_too_long)
{
	char value[512], yaml[1024];
	int i;

	ASSERT_EXPR_REJECTED("map", "''", "the expression is empty", 7);
	ASSERT_EXPR_REJECTED("map", "'   '", "the expression is empty", 7);
	ASSERT_EXPR_REJECTED("identity", "\"\"", "the expression is empty", 12);

	/* 201 characters: refused at the 201st. */
	for (i = 0; i < 100; i++)
		memcpy(value + 2 * i, "x+", 2);
	strcpy(value + 200, "x");
	snprintf(yaml, sizeof yaml, "%s", custom_spec("map", value));
	ASSERT_REJECTED_AT(yaml, "map: the expression is longer than 200 characters", 5, 6 + 200);
	snprintf(yaml, sizeof yaml, "kernel: reduce\nop: custom\ncombine: a + b\nidentity: 0\nmap: '%s'\n", value);
	ASSERT_REJECTED_AT(yaml, "map: the expression is longer than 200 characters", 5, 6 + 200 + 1);
	/* 200 are accepted. */
	memset(value, ' ', 200);
	value[0] = 'x';
	memcpy(value + 198, "+1", 3);
	kgen_spec_free(load(custom_spec("map", value)));

	/* 65 numbers and 64 additions are more than 128 nodes: the 129th is the 65th '+'. */
	for (i = 0; i < 70; i++)
		memcpy(value + 2 * i, "1+", 2);
	strcpy(value + 140, "1");
	ASSERT_REJECTED_AT(custom_spec("map", value), "map: the expression is too long (more than 128 nodes)", 5,
	                   6 + 2 * 64 + 1);
	/* 65 levels of parentheses. */
	for (i = 0; i < 65; i++)
		value[i] = '(';
	value[65] = 'x';
	for (i = 0; i < 65; i++)
		value[66 + i] = ')';
	value[131] = '\0';
	ASSERT_REJECTED_AT(custom_spec("map", value), "map: the expression nests more than 64 levels deep", 5, 6 + 64);
	/* A number of 64 digits. */
	memset(value, '1', 64);
	value[64] = '\0';
	ASSERT_REJECTED_AT(custom_spec("map", value), "map: a number of more than 63 characters", 5, 6);
}
END_TEST

/* Text written to leave the expression and add code to the generated file
 * is refused at its first character that is not part of one expression. */
START_TEST(expr_escape_attempts_are_refused)
{
	ASSERT_EXPR_REJECTED("map", "'x); } __global__ void f() { (x'", "')' closes no '('", 8);
	ASSERT_EXPR_REJECTED("map", "'x ? 1 : 2 ) ; asm(\"trap\")'", "')' closes no '('", 17);
	ASSERT_EXPR_REJECTED("map", "'asm(\"trap\")'", "'asm' is a C++ keyword an expression cannot use", 7);
	ASSERT_EXPR_REJECTED("combine", "'a + b; }'",
	                     "';' ends a statement: an expression is one C expression, not statements", 16);
	ASSERT_EXPR_REJECTED("identity", "'0 } int g() { return 0'",
	                     "a brace would open or close a block: an expression has none", 14);
	ASSERT_EXPR_REJECTED("post", "'a /* */ + n'", "a comment has no place in an expression", 10);
	ASSERT_EXPR_REJECTED("post", "\"a\\n#include <x>\"", "an expression is one line", 9);
}
END_TEST

/* What an expression may hold: kept as written, and compiled by NVRTC. */
START_TEST(expr_accepts_c_expressions)
{
	static const char *const good[][2] = {
		{ "map", "(float)x" },
		{ "map", "(unsigned long long)i" },
		{ "map", "(Acc)x * (Acc)x + (Index)i" },
		{ "map", "(double)x + (long)x + (int)x + (short)x + (char)x + (bool)x + (signed)x + (unsigned)x" },
		{ "map", "x > 0 ? x < 1 ? 1 : 2 : -x != 3 ? 4 : 5" },
		{ "map", "0xffu + 0X1Fll + 1.5e-3f + 2.0 + 7ull + .5f + 1e5 + 1E-5 + 3.L + 10u" },
		{ "map", "!isnan(x) && (i & 1) == 0 || ~i >> 2 << 1 != 0 ? fmaf(x, x, 1.0f) : copysignf(x, -1)" },
		{ "map", "- -x + +x" },
		{ "map", "1u + 1U + 1l + 1L + 1ll + 1LL + 1ul + 1uL + 1Ull + 1ULL + 1lu + 1LU + 1llu + 1LLu + 07u + "
		         "0x1fULL + x" },
		{ "map", "1.0f + 1.0F + 1.0l + 1.0L + 1e3f + .5F + 2.e-1l + x" },
		{ "map", "(unsigned char)x + (signed char)x + (short int)x + (unsigned short)x + (long int)x + "
		         "(long unsigned int)x + (long long int)x + (int long long)x + (long double)x + (int unsigned)x" },
		{ "combine", "fmaxf(a, b)" },
		{ "combine", "fmaxf(a, fminf(b, 1.0f))" },
		{ "combine", "a < b ? b : a" },
		{ "identity", "__int_as_float(0xff800000)" },
		{ "identity", "-1.0f / 0.0f" },
		{ "post", "sqrt(a / n)" },
		{ "post", "(Out)a / (Out)n" },
	};
	char quoted[256];
	size_t k;

	for (k = 0; k < KGEN_COUNT(good); k++) {
		kgen_spec *spec;
		kgen_error err;
		char *src = NULL, *log = NULL, buf[256];
		void *image = NULL;
		size_t size;
		/* Single-quoted: `a < b ? b : a` holds ": ", which a plain YAML value cannot. */
		snprintf(quoted, sizeof quoted, "'%s'", good[k][1]);
		spec = load(custom_spec(good[k][0], quoted));
		ck_assert_str_eq(kgen_spec_get(spec, good[k][0], buf, sizeof buf), good[k][1]);
		ck_assert_int_eq(kgen_generate(spec, &src, &err), KGEN_OK);
		ck_assert_msg(kgen_compile(src, "e.cu", "sm_90", KGEN_IMAGE_CUBIN, &image, &size, &log, &err) == KGEN_OK,
		              "%s: %s: %s\n%s", good[k][0], good[k][1], err.message, log ? log : "");
		free(src);
		free(log);
		free(image);
		kgen_spec_free(spec);
	}
}
END_TEST

/* kgen_expr_eval() of text (an expression of key) in the spec of yaml, with
 * x and a bound (floating when their is_float is set). */
static struct kgen_value
eval_in(const char *yaml, const char *key, const char *text, struct kgen_value x, struct kgen_value a)
{
	kgen_spec *spec = load(yaml);
	struct kgen_expr e;
	struct kgen_value none = { 0, 0, 0 }, v;
	char why[160];
	size_t at;

	ck_assert_msg(kgen_expr_parse((enum kgen_key)kgen_key_lookup(key), text, &e, &at, why, sizeof why) == KGEN_OK,
	              "%s: %s", text, why);
	v = kgen_expr_eval(&e, spec, x, none, a, none, none);
	kgen_spec_free(spec);
	return v;
}

static struct kgen_value
ival_of(long long i)
{
	struct kgen_value v = { 0, 0, i };
	return v;
}

static struct kgen_value
fval_of(long double f)
{
	struct kgen_value v = { 1, f, 0 };
	return v;
}

#define CUSTOM(types) "kernel: reduce\nop: custom\n" types "combine: a + b\nidentity: 0\n"
#define ASSERT_EVAL_INT(yaml, key, text, x, want) do {                                        \
		struct kgen_value v_ = eval_in((yaml), (key), (text), (x), ival_of(0));         \
		ck_assert_msg(!v_.is_float, "%s is floating", (text));                          \
		ck_assert_msg(v_.i == (long long)(want), "%s: %lld, not %lld", (text), v_.i, (long long)(want)); \
	} while (0)
#define ASSERT_EVAL_FLOAT(yaml, key, text, x, want) do {                                      \
		struct kgen_value v_ = eval_in((yaml), (key), (text), (x), ival_of(0));         \
		ck_assert_msg(v_.is_float, "%s is an integer", (text));                         \
		ck_assert_msg(v_.f == (long double)(want), "%s: %Lg, not %Lg", (text), v_.f, (long double)(want)); \
	} while (0)

/* The CPU evaluation computes as the generated C does: (Acc) and (Out) are
 * the spec's types, integer casts wrap at their width and keep their
 * signedness, constants have C's types, and the result is the function's
 * return type (Acc; Out for post). */
START_TEST(expr_eval_follows_c_types)
{
	const char *i32 = CUSTOM("dtype: i32\n"), *f32 = CUSTOM("dtype: f32\n"), *i64 = CUSTOM("dtype: i64\n");
	const char *i32_f64 = CUSTOM("dtype: i32\nout_dtype: f64\n"), *f64 = CUSTOM("dtype: f64\n");
	const char *f32_i64 = CUSTOM("dtype: f32\nacc_dtype: i64\n");
	const char *idx32 = CUSTOM("dtype: i64\nindex: 32\n"), *idx64 = CUSTOM("dtype: i64\nindex: 64\n");

	/* (Acc) and (Out): integer or floating as the spec says. */
	ASSERT_EVAL_INT(i32, "map", "(Acc)x / 2", ival_of(7), 3);
	ASSERT_EVAL_FLOAT(f32, "map", "(Acc)x / 2", fval_of(7), 3.5);
	ASSERT_EVAL_INT(i32, "identity", "(Acc)1 / 2", ival_of(0), 0);
	ASSERT_EVAL_FLOAT(f32, "identity", "(Acc)1 / 2", ival_of(0), 0.5);
	ASSERT_EVAL_FLOAT(i32_f64, "post", "(Out)a / 2", ival_of(0), 0);
	ck_assert(eval_in(i32_f64, "post", "(Out)a / 2", ival_of(0), ival_of(7)).f == 3.5L);
	ck_assert_int_eq(eval_in(i32, "post", "a / 2", ival_of(0), ival_of(7)).i, 3);
	/* The result is the function's type: map's Acc.  Floating arithmetic
	 * stays exact (long double): the reference is what the GPU rounds. */
	ASSERT_EVAL_INT(i32, "map", "x / 2.0", ival_of(7), 3);
	ASSERT_EVAL_FLOAT(f32, "map", "x / 3", fval_of(1), 1.0L / 3.0L);
	ASSERT_EVAL_FLOAT(f32, "map", "(float)(x / 3)", fval_of(1), 1.0f / 3.0f);
	/* Integer casts: width and signedness. */
	ASSERT_EVAL_INT(i64, "map", "(int)x", ival_of(0x80000000ll), -0x80000000ll);
	ASSERT_EVAL_INT(i64, "map", "(unsigned)x", ival_of(-1), 0xffffffffll);
	ASSERT_EVAL_INT(i64, "map", "(unsigned int)x + 1", ival_of(-1), 0);
	ASSERT_EVAL_INT(i64, "map", "(unsigned long long)x >> 63", ival_of(-1), 1);
	ASSERT_EVAL_INT(i64, "map", "(long long)x >> 63", ival_of(-1), -1);
	ASSERT_EVAL_INT(i64, "map", "(short)x", ival_of(40000), -25536);
	ASSERT_EVAL_INT(i64, "map", "(unsigned short)x", ival_of(-1), 65535);
	ASSERT_EVAL_INT(i64, "map", "(char)x", ival_of(200), -56);
	ASSERT_EVAL_INT(i64, "map", "(unsigned char)x", ival_of(300), 44);
	ASSERT_EVAL_INT(i64, "map", "(bool)x", ival_of(5), 1);
	ASSERT_EVAL_INT(i64, "map", "(int)x * 2", ival_of(0x7fffffff), -2);
	ASSERT_EVAL_INT(i64, "map", "(long long)(int)x * 2", ival_of(0x7fffffff), 0xfffffffe);
	/* A float to an integer: truncated, saturated, NaN to 0 (the GPU's cvt). */
	ASSERT_EVAL_INT(f32_i64, "map", "(int)x", fval_of(2.9), 2);
	ASSERT_EVAL_INT(f32_i64, "map", "(int)x", fval_of(-2.9), -2);
	ASSERT_EVAL_INT(f32_i64, "map", "(int)x", fval_of(1e10), 0x7fffffff);
	ASSERT_EVAL_INT(f32_i64, "map", "(unsigned)x", fval_of(-1), 0);
	ASSERT_EVAL_INT(f32_i64, "map", "(int)x", fval_of(NAN), 0);
	/* (float) rounds to float, in a double accumulator. */
	ASSERT_EVAL_FLOAT(f64, "map", "(float)x", fval_of(0.1), (float)0.1);
	ASSERT_EVAL_FLOAT(f64, "map", "x + 0.1f", fval_of(0), (float)0.1);
	/* Constants have C's types. */
	ASSERT_EVAL_INT(i64, "identity", "0xffffffffu + 1", ival_of(0), 0);
	ASSERT_EVAL_INT(i64, "identity", "0xffffffff + 1", ival_of(0), 0);
	ASSERT_EVAL_INT(i64, "identity", "4294967295 + 1", ival_of(0), 4294967296ll);
	ASSERT_EVAL_INT(i64, "identity", "-1 < 0u", ival_of(0), 0);
	ASSERT_EVAL_INT(i64, "identity", "-1 < 0", ival_of(0), 1);
	ASSERT_EVAL_INT(i64, "identity", "-1ll < 0u", ival_of(0), 1);
	ASSERT_EVAL_INT(i64, "identity", "-7 / 2", ival_of(0), -3);
	ASSERT_EVAL_INT(i64, "identity", "-7 % 2", ival_of(0), -1);
	ASSERT_EVAL_INT(i64, "identity", "0x7fffffff + 1", ival_of(0), -0x80000000ll);
	ASSERT_EVAL_INT(i64, "identity", "1 << 31", ival_of(0), -0x80000000ll);
	ASSERT_EVAL_INT(i64, "identity", "1ll << 31", ival_of(0), 0x80000000ll);
	ASSERT_EVAL_INT(i64, "identity", "-8 >> 1", ival_of(0), -4);
	ASSERT_EVAL_INT(i64, "identity", "__float_as_int(__int_as_float(0xff800000))", ival_of(0), -0x800000ll);
	/* Index is unsigned, of the spec's width. */
	ASSERT_EVAL_INT(idx32, "identity", "(Index)0 - 1", ival_of(0), 0xffffffffll);
	ASSERT_EVAL_INT(idx64, "identity", "(Index)0 - 1", ival_of(0), -1);
	/* Functions by their C++ overloads: min of ints is an int, sqrt of a float
	 * a float (computed exactly, as all floating arithmetic here). */
	ASSERT_EVAL_INT(i64, "map", "min(x, 3) / 2", ival_of(7), 1);
	ASSERT_EVAL_INT(i64, "map", "min((unsigned)x, 3u)", ival_of(-1), 3);
	ASSERT_EVAL_FLOAT(f64, "map", "sqrtf(x)", fval_of(2), sqrtl(2));
	ASSERT_EVAL_FLOAT(f64, "map", "sqrt(x)", fval_of(2), sqrtl(2));
	ASSERT_EVAL_FLOAT(f64, "map", "(float)sqrt((float)x)", fval_of(2), sqrtf(2));
	ASSERT_EVAL_INT(i64, "map", "abs((int)x)", ival_of(-5), 5);
	ASSERT_EVAL_INT(i64, "map", "x > 0 ? 1 : 0u", ival_of(-1), 0);
	ASSERT_EVAL_INT(i64, "map", "(x > 0 ? 1 : 0u) - 1", ival_of(-1), 0xffffffffll);
}
END_TEST

/* ---- the op's rules (gen/op.c, gen/op.h, the stages of gen/reduce_check.c) ---- */

START_TEST(op_keys_apply_only_to_their_ops)
{
	ASSERT_REJECTED("kernel: reduce\nop: sum\nmap: x * x\n",
	                "map is an expression of op: custom, not of op: sum: drop it, or use op: custom", 3, 6,
	                "map: x * x");
	ASSERT_REJECTED("kernel: reduce\nmap: x * x\n",
	                "map is an expression of op: custom, not of op: sum: drop it, or use op: custom", 2, 6,
	                "map: x * x");
	ASSERT_REJECTED("kernel: reduce\nop: max\ncombine: a + b\n",
	                "combine is an expression of op: custom, not of op: max: drop it, or use op: custom", 3, 10,
	                "combine: a + b");
	ASSERT_REJECTED("kernel: reduce\nop: prod\nidentity: 1\n",
	                "identity is an expression of op: custom, not of op: prod: drop it, or use op: custom", 3, 11,
	                "identity: 1");
	ASSERT_REJECTED("kernel: reduce_axis\nop: mean\npost: a\n",
	                "post is an expression of op: custom, not of op: mean: drop it, or use op: custom", 3, 7,
	                "post: a");
	ASSERT_REJECTED("kernel: reduce\nop: sum\nnan: ignore\n",
	                "nan applies to op: argmin and argmax, not to sum: drop it", 3, 6, "nan: ignore");
	ASSERT_REJECTED("kernel: reduce_axis\nop: max\nnan: propagate\n",
	                "nan applies to op: argmin and argmax, not to max: drop it", 3, 6, "nan: propagate");
	ASSERT_REJECTED("kernel: transpose\nmap: x\n", "map does not apply to kernel: transpose", 2, 1, "map: x");
	kgen_spec_free(load("kernel: reduce\nop: argmin\nnan: ignore\n"));
}
END_TEST

START_TEST(op_custom_needs_combine_and_identity)
{
	ASSERT_REJECTED("kernel: reduce\nop: custom\nidentity: 0\n",
	                "op: custom needs combine, an expression of a and b (a + b, fmaxf(a, b), ...)", 2, 5, "op: custom");
	ASSERT_REJECTED("kernel: reduce_axis\nop: custom\ncombine: a + b\n",
	                "op: custom needs identity, the result of no elements (0 for a sum, -INFINITY's bits for a max: "
	                "__int_as_float(0xff800000))", 2, 5, "op: custom");
}
END_TEST

START_TEST(op_types_are_checked)
{
	ASSERT_REJECTED("kernel: reduce\nop: any\n",
	                "op: any is for integer elements, not f32: use count_nonzero, or op: custom", 2, 5, "op: any");
	ASSERT_REJECTED("kernel: reduce\nop: all\ndtype: bf16\n",
	                "op: all is for integer elements, not bf16: use count_nonzero, or op: custom", 2, 5, "op: all");
	ASSERT_REJECTED("kernel: reduce\nop: count_nonzero\nacc_dtype: f32\n",
	                "op: count_nonzero counts in an integer accumulator, not f32", 3, 12, "acc_dtype: f32");
	ASSERT_REJECTED("kernel: reduce\nop: any\ndtype: i32\nacc_dtype: f64\n",
	                "op: any counts in an integer accumulator, not f64", 4, 12, "acc_dtype: f64");
	ASSERT_REJECTED("kernel: reduce\nop: mean\nout_dtype: i32\n",
	                "op: mean gives a fraction: out_dtype must be a floating type, not i32", 3, 12, "out_dtype: i32");
	ASSERT_REJECTED("kernel: reduce_axis\nop: norm2\ndtype: i32\nout_dtype: i64\n",
	                "op: norm2 gives a fraction: out_dtype must be a floating type, not i64", 4, 12, "out_dtype: i64");
	ASSERT_REJECTED("kernel: reduce\nop: argmax\nacc_dtype: f64\n",
	                "op: argmax keeps each value as it is (f32): drop acc_dtype", 3, 12, "acc_dtype: f64");
	ASSERT_REJECTED("kernel: reduce\nop: argmax\nout_dtype: f64\n",
	                "op: argmax writes the value as f32 and the index as i64: drop out_dtype", 3, 12, "out_dtype: f64");
	ASSERT_REJECTED("kernel: reduce_axis\nop: argmin\ndtype: f16\nout_dtype: f16\n",
	                "op: argmin writes the value as f32 and the index as i64: drop out_dtype", 4, 12, "out_dtype: f16");
	/* The type argmax would take anyway may be written. */
	kgen_spec_free(load("kernel: reduce\nop: argmax\nacc_dtype: f32\nout_dtype: f32\n"));
}
END_TEST

/* The types each op takes when acc_dtype and out_dtype are not given. */
START_TEST(op_default_types)
{
	static const char *const cases[][4] = {
		/* op, dtype, acc_dtype, out_dtype */
		{ "sum", "f16", "f32", "f32" },
		{ "mean", "i32", "i64", "f64" },
		{ "mean", "f32", "f32", "f32" },
		{ "mean", "bf16", "f32", "f32" },
		{ "norm2", "i32", "f64", "f64" },
		{ "norm2", "f64", "f64", "f64" },
		{ "sumsq", "f16", "f32", "f32" },
		{ "amax", "i32", "i32", "i32" },
		{ "count_nonzero", "f32", "i64", "i64" },
		{ "any", "u32", "i32", "i32" },
		{ "all", "i64", "i32", "i32" },
		{ "argmin", "f16", "f32", "f32" },
		{ "argmax", "u32", "u32", "u32" },
	};
	char yaml[128];
	size_t k;

	for (k = 0; k < KGEN_COUNT(cases); k++) {
		kgen_spec *spec;
		snprintf(yaml, sizeof yaml, "kernel: reduce\nop: %s\ndtype: %s\n", cases[k][0], cases[k][1]);
		spec = load(yaml);
		ASSERT_FIELD(spec, "acc_dtype", cases[k][2]);
		ASSERT_FIELD(spec, "out_dtype", cases[k][3]);
		kgen_spec_free(spec);
	}
}
END_TEST

/* An op with a result step (a pair, post, an out_dtype conversion) cannot
 * end in atomics: stages: atomic is refused, and left out it becomes
 * last_block. */
START_TEST(op_with_result_step_refuses_atomic_stage)
{
	ASSERT_REJECTED("kernel: reduce\nop: mean\nstages: atomic\n",
	                "stages: atomic ends with atomics into *out, and op: mean has a last step (post): use stages: "
	                "last_block or two_pass", 3, 9, "stages: atomic");
	ASSERT_REJECTED("kernel: reduce\nop: argmax\nstages: atomic\n",
	                "stages: atomic ends with atomics into *out, and op: argmax writes a value and an index: use "
	                "stages: last_block or two_pass", 3, 9, "stages: atomic");
	ASSERT_REJECTED("kernel: reduce\nop: sum\nout_dtype: f64\nstages: atomic\n",
	                "stages: atomic ends with atomics into *out, and op: sum converts its result to out_dtype: use "
	                "stages: last_block or two_pass", 4, 9, "stages: atomic");
	ASSERT_REJECTED("kernel: reduce\nop: custom\ncombine: a + b\nidentity: 0\npost: a / n\nstages: atomic\n",
	                "stages: atomic ends with atomics into *out, and op: custom has a last step (post): use stages: "
	                "last_block or two_pass", 6, 9, "stages: atomic");
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

/* ---- kgen_spec_dump of op: custom ---- */

/* The lines of yaml whose key is one of keys (NULL-terminated). */
static char *
lines_of(const char *yaml, const char *const *keys)
{
	char *out = malloc(strlen(yaml) + 1), *o = out;
	const char *p = yaml, *nl;
	size_t k;

	ck_assert_ptr_nonnull(out);
	for (; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		ck_assert_ptr_nonnull(nl);
		for (k = 0; keys[k]; k++)
			if (strncmp(p, keys[k], strlen(keys[k])) == 0 && p[strlen(keys[k])] == ':') {
				memcpy(o, p, (size_t)(nl - p + 1));
				o += nl - p + 1;
			}
	}
	*o = '\0';
	return out;
}

START_TEST(dump_single_quotes_expressions_and_loads_back)
{
	static const char *const op_keys[] = { "kernel", "op", "dtype", "map", "combine", "identity", "post", NULL };
	kgen_spec *spec = load("kernel: reduce\nop: custom\ndtype: f64\nmap: \"x < 0 ? -x : x\"\n"
	                       "combine: fmax(a, b)\nidentity: 0\npost: 'a > 1e300 ? a : sqrt(a / (Acc)n)'\n");
	kgen_spec *again;
	char *yaml = dump(spec), *ops, *yaml2;

	ops = lines_of(yaml, op_keys);
	ck_assert_str_eq(ops,
		"kernel: reduce\n"
		"op: custom\n"
		"dtype: f64\n"
		"map: 'x < 0 ? -x : x'\n"
		"combine: 'fmax(a, b)'\n"
		"identity: '0'\n"
		"post: 'a > 1e300 ? a : sqrt(a / (Acc)n)'\n");
	ck_assert_ptr_nonnull(strstr(yaml, "\nstages: last_block\n"));
	/* Loaded back, the op's lines give the same spec. */
	again = load(ops);
	yaml2 = dump(again);
	ck_assert_str_eq(yaml2, yaml);
	free(yaml2);
	kgen_spec_free(again);
	free(ops);
	free(yaml);
	kgen_spec_free(spec);

	/* map and post not given: their defaults, x and a. */
	spec = load("kernel: reduce_axis\nop: custom\ncombine: a + b\nidentity: 0\n");
	yaml = dump(spec);
	ck_assert_ptr_nonnull(strstr(yaml, "\nmap: 'x'\ncombine: 'a + b'\nidentity: '0'\npost: 'a'\n"));
	free(yaml);
	kgen_spec_free(spec);
	/* Other ops have no expression lines. */
	spec = load("kernel: reduce\nop: mean\n");
	yaml = dump(spec);
	ck_assert_ptr_null(strstr(yaml, "map:"));
	ck_assert_ptr_null(strstr(yaml, "post:"));
	free(yaml);
	kgen_spec_free(spec);
}
END_TEST

/* No expression that loads holds a quote (a character literal is refused),
 * so the doubling is seen on text written into the spec directly; YAML
 * reads the doubled quote back as one, which the parser then refuses. */
START_TEST(dump_doubles_a_quote)
{
	static const char *const op_keys[] = { "kernel", "op", "map", "combine", "identity", NULL };
	kgen_spec *spec = load("kernel: reduce\nop: custom\ncombine: a + b\nidentity: 0\n");
	char *yaml, *ops;

	snprintf(kgen_spec_expr(spec, KGEN_KEY_map), KGEN_EXPR_MAX + 1, "%s", "x + 'a'");
	yaml = dump(spec);
	ops = lines_of(yaml, op_keys);
	ck_assert_str_eq(ops, "kernel: reduce\nop: custom\nmap: 'x + ''a'''\ncombine: 'a + b'\nidentity: '0'\n");
	ASSERT_REJECTED(ops, "map: a character literal has no place in an expression: write its number", 3, 11,
	                "map: 'x + ''a'''");
	free(ops);
	free(yaml);
	kgen_spec_free(spec);
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

/* An expression set from the command line: the fault, at its character,
 * and what the key takes; the spec unchanged.  (kgen_key_allowed() walked
 * an expression's NULL list of values.) */
START_TEST(set_bad_expression_names_the_fault)
{
	kgen_spec *spec = load(custom_spec("map", "x"));
	static const char *const keys[] = { "map", "combine" };
	static const char *const values[] = { "x * x", "a +" };
	char *before = dump(spec), *after;
	kgen_error err;

	ck_assert_int_eq(kgen_spec_set(spec, "map", "x;", &err), KGEN_ESPEC);
	ck_assert_str_eq(err.message, "map: ';' ends a statement: an expression is one C expression, not statements "
	                 "(at character 2): expected a C expression of x and i");
	ck_assert_int_eq(err.line, 0);
	ck_assert_int_eq(kgen_spec_set(spec, "identity", "x", &err), KGEN_ESPEC);
	ck_assert_str_eq(err.message, "identity: 'x' is not a name of identity, which has none (a constant) "
	                 "(at character 1): expected a C expression of no names (a constant)");
	ck_assert_int_eq(kgen_spec_set(spec, "post", "(Out)a / n x", &err), KGEN_ESPEC);
	ck_assert_str_eq(err.message, "post: 'x' after a whole expression: expected an operator or the end "
	                 "(at character 12): expected a C expression of a and n");
	ck_assert_int_eq(kgen_spec_set_many(spec, 2, keys, values, &err), KGEN_ESPEC);
	ck_assert_str_eq(err.message, "combine: the expression ends where a value is expected (at its end): "
	                 "expected a C expression of a and b");
	after = dump(spec);
	ck_assert_str_eq(after, before);
	free(after);
	free(before);
	ck_assert_int_eq(kgen_spec_set(spec, "map", "x * x", &err), KGEN_OK);
	ASSERT_FIELD(spec, "map", "x * x");
	kgen_spec_free(spec);
}
END_TEST

/* What each key takes, for every type of key; a suggestion for enums only. */
START_TEST(allowed_values_of_every_key)
{
	char buf[256];
	int k;

	for (k = 0; k < KGEN_KEY_COUNT; k++) {
		kgen_key_allowed((enum kgen_key)k, buf, sizeof buf);
		ck_assert_msg(buf[0] != '\0', "%s", kgen_keys[k].name);
		if (kgen_keys[k].type != KT_ENUM)
			ck_assert_ptr_null(kgen_key_nearest_value((enum kgen_key)k, "x"));
	}
	kgen_key_allowed(KGEN_KEY_post, buf, sizeof buf);
	ck_assert_str_eq(buf, "a C expression of a and n");
	kgen_key_allowed(KGEN_KEY_name, buf, sizeof buf);
	ck_assert_str_eq(buf, "a C identifier of your own (no keyword, CUDA built-in or name kgen declares)");
	kgen_key_allowed(KGEN_KEY_stages, buf, 8);
	ck_assert_str_eq(buf, "two_pas");
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
	tcase_add_test(tc, ten_megabytes_in_linear_time);
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

	tc = tcase_create("expr");
	tcase_set_timeout(tc, 60);  /* NVRTC compiles the accepted expressions */
	tcase_add_test(tc, expr_error_points_at_the_offending_character);
	tcase_add_test(tc, expr_refuses_what_is_not_one_expression);
	tcase_add_test(tc, expr_refuses_assignment_subscripts_and_members);
	tcase_add_test(tc, expr_names_are_the_keys_own);
	tcase_add_test(tc, expr_calls_take_their_argument_counts);
	tcase_add_test(tc, expr_parentheses_and_operands_balance);
	tcase_add_test(tc, expr_numbers_are_c_numbers);
	tcase_add_test(tc, expr_number_suffixes_are_c_suffixes);
	tcase_add_test(tc, expr_messages_quote_the_whole_token);
	tcase_add_test(tc, expr_casts_are_c_types);
	tcase_add_test(tc, expr_on_several_lines_is_refused);
	tcase_add_test(tc, expr_empty_and_too_long);
	tcase_add_test(tc, expr_escape_attempts_are_refused);
	tcase_add_test(tc, expr_accepts_c_expressions);
	tcase_add_test(tc, expr_eval_follows_c_types);
	suite_add_tcase(s, tc);

	tc = tcase_create("op");
	tcase_add_test(tc, op_keys_apply_only_to_their_ops);
	tcase_add_test(tc, op_custom_needs_combine_and_identity);
	tcase_add_test(tc, op_types_are_checked);
	tcase_add_test(tc, op_default_types);
	tcase_add_test(tc, op_with_result_step_refuses_atomic_stage);
	tcase_add_test(tc, op_with_result_step_defaults_to_last_block);
	tcase_add_test(tc, op_with_result_step_refuses_atomics);
	tcase_add_test(tc, dump_single_quotes_expressions_and_loads_back);
	tcase_add_test(tc, dump_doubles_a_quote);
	suite_add_tcase(s, tc);

	tc = tcase_create("geometry");
	tcase_add_test(tc, grids_do_not_wrap_near_2_to_64);
	suite_add_tcase(s, tc);

	tc = tcase_create("set");
	tcase_add_test(tc, set_changes_a_field);
	tcase_add_test(tc, set_unknown_key_suggests_nearest);
	tcase_add_test(tc, set_bad_value_leaves_spec_unchanged);
	tcase_add_test(tc, set_bad_expression_names_the_fault);
	tcase_add_test(tc, allowed_values_of_every_key);
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
