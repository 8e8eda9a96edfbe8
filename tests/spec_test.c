/*
 * spec_test.c - what every family shares: the spec loader (gen/load.c) and
 * the YAML it takes, names, op: custom's expressions (gen/expr_*.c) and the
 * op's rules (gen/op.c), kgen_spec_set and kgen_spec_set_many, errors and
 * kgen_error_print, and the rest of the spec API of kgen.h: for bad specs
 * the exact message, line, column and source line of the error.  Each
 * family's defaults and rules are in its own test (tests/reduce_test.c,
 * tests/transpose_test.c, tests/reduce_axis_test.c).
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
#include "gen/family.h"
#include "gen/reduce.h"
#include "gen/transpose.h"
#include "runtime/runtime.h"
#include "spec_assert.h"

/* ---- helpers ---- */

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

START_TEST(name_given_is_kept)
{
	kgen_spec *spec = load("kernel: reduce\nname: my_sum2\n");

	ASSERT_FIELD(spec, "name", "my_sum2");
	kgen_spec_free(spec);
}
END_TEST

START_TEST(comments_and_quoted_values_are_accepted)
{
	kgen_spec *spec = load("# a comment\nkernel: reduce   # trailing\nthreads: 256\nop: \"min\"\n");

	ASSERT_FIELD(spec, "threads", "256");
	ASSERT_FIELD(spec, "op", "min");
	kgen_spec_free(spec);
	/* A quoted number is text: refused where an integer is wanted. */
	ASSERT_REJECTED("kernel: reduce\nthreads: '256'\n", "threads: a quoted value is text, not an integer: write threads: 256",
	                2, 10, "threads: '256'");
	ASSERT_REJECTED("kernel: reduce\nthreads: \"256\"\n", "threads: a quoted value is text, not an integer: write threads: 256",
	                2, 10, "threads: \"256\"");
}
END_TEST

/* ---- bad YAML and bad keys or values (gen/load.c) ---- */

/* Specs the loader refuses: each row as one of ASSERT_REJECTED. */
static const struct refusal load_refusals[] = {
	{ "yaml_syntax_error_has_libyaml_position", "kernel: reduce\nop: sum: min\n",
	  "YAML: mapping values are not allowed in this context", 2, 8, "op: sum: min" },
	{ "yaml_parser_error_includes_context", "kernel: reduce\nop: [sum\nthreads: 64\n",
	  "YAML: did not find expected ',' or ']' while parsing a flow sequence", 3, 8, "threads: 64" },
	/* A key without its ':': libyaml notices where the next key begins, or
	 * at the end; the error is at the key that lacks it. */
	{ "yaml_key_without_colon_is_placed_at_the_key", "kernel: reduce\nop: sum\nthreads 256\ndtype: f32\n",
	  "'threads 256' has no ':' (expected KEY: VALUE)", 3, 1, "threads 256" },
	{ "yaml_key_without_colon_is_placed_at_the_key", "kernel: reduce\nop: sum\nthreads 256  # many\n\n",
	  "'threads 256' has no ':' (expected KEY: VALUE)", 3, 1, "threads 256  # many" },
	{ "yaml_key_without_colon_is_placed_at_the_key", "kernel: reduce\nthreads 256\n# c\n\nop: sum\n",
	  "'threads 256' has no ':' (expected KEY: VALUE)", 2, 1, "threads 256" },
	/* A ':' without its blank is no key's either. */
	{ "yaml_key_without_colon_is_placed_at_the_key", "kernel: reduce\nthreads:256\nop: sum\n",
	  "'threads:256' has no blank after its ':' (expected KEY: VALUE)", 2, 1, "threads:256" },
	/* A line that does not begin as a plain key does (a quoted key here):
	 * libyaml's message, at the key it was scanning. */
	{ "yaml_key_without_colon_is_placed_at_the_key", "kernel: reduce\nop: sum\n\"threads\" 256\n",
	  "YAML: could not find expected ':' while scanning a simple key", 3, 1, "\"threads\" 256" },
	{ "empty_spec_is_rejected", "", "the spec is empty: expected at least 'kernel: reduce'", 1, 1, "" },
	{ "empty_spec_is_rejected", "# only a comment\n", "the spec is empty: expected at least 'kernel: reduce'", 1, 1,
	  "# only a comment" },
	{ "list_root_is_rejected", "\n- kernel\n- reduce\n", "a spec is a mapping of keys to values, not a list", 2, 1,
	  "- kernel" },
	{ "scalar_root_is_rejected", "'reduce'\n", "a spec is a mapping of keys to values, not a scalar", 1, 1,
	  "'reduce'" },
	/* one line of plain text is a key whose ':' or blank is missing, as yamlin.c says of one among others */
	{ "colonless_line_is_a_key", "kernel reduce\n", "'kernel reduce' has no ':' (expected KEY: VALUE)", 1, 1,
	  "kernel reduce" },
	{ "blankless_line_is_a_key", "kernel:reduce\n",
	  "'kernel:reduce' has no blank after its ':' (expected KEY: VALUE)", 1, 1, "kernel:reduce" },
	{ "missing_kernel_is_rejected", "op: sum\nthreads: 64\n",
	  "missing key 'kernel': expected reduce, transpose, reduce_axis, matmul, rows or scan", 1, 1, "op: sum" },
	{ "unknown_key_suggests_nearest", "kernel: reduce\nthread: 256\n",
	  "unknown key 'thread' (did you mean 'threads'?)", 2, 1, "thread: 256" },
	{ "unknown_key_prefix_suggests_key", "kernel: reduce\n  # c\nitems: 4\n",
	  "unknown key 'items' (did you mean 'items_per_thread'?)", 3, 1, "items: 4" },
	{ "unknown_key_far_from_any_has_no_suggestion", "kernel: reduce\nzzzzzzzzzz: 1\n", "unknown key 'zzzzzzzzzz'",
	  2, 1, "zzzzzzzzzz: 1" },
	{ "non_scalar_key_is_rejected", "kernel: reduce\n[a, b]: 1\n", "a key must be a plain name, not a list", 2, 1,
	  "[a, b]: 1" },
	{ "duplicate_key_names_first_line", "kernel: reduce\nop: sum\nthreads: 64\nop: min\n",
	  "duplicate key 'op' (first given on line 2)", 4, 1, "op: min" },
	{ "list_value_is_rejected", "kernel: reduce\nop: [sum, min]\n", "op: expected a single value, not a list", 2, 5,
	  "op: [sum, min]" },
	/* Reader errors (bad UTF-8, control characters) at their own place, and no
	 * control character reaches the terminal through a message or the source line. */
	{ "reader_errors_are_placed_and_control_characters_escaped", "kernel: reduce\nop: \033[31mred\n",
	  "YAML: control characters are not allowed", 2, 5, "op: ?[31mred" },
	{ "reader_errors_are_placed_and_control_characters_escaped", "kernel: reduce\nop: caf\xe9\n",
	  "YAML: incomplete UTF-8 octet sequence", 2, 8, "op: caf\xe9" },
	{ "reader_errors_are_placed_and_control_characters_escaped", "kernel: reduce\nop: \"a\\tb\\u001b[2J\"\n",
	  "op: unknown value 'a\\x09b\\x1b[2J': expected sum, min, max, prod, mean, sumsq, norm2, amax, count_nonzero, any, all, argmin, argmax or custom",
	  2, 5, "op: \"a\\tb\\u001b[2J\"" },
	{ "reader_errors_are_placed_and_control_characters_escaped",
	  "kernel: reduce\nop: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n",
	  "op: unknown value 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...': expected sum, min, max, prod, mean, sumsq, norm2, amax, count_nonzero, any, all, argmin, argmax or custom",
	  2, 5, "op: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" },
	{ "second_document_is_refused", "kernel: reduce\n---\nop: garbage\n",
	  "a second YAML document: a spec is one document (drop the second '---' and what follows)", 2, 1, "---" },
	{ "tags_and_aliases_are_refused_where_written", "kernel: reduce\nop: !!str sum\n",
	  "op: YAML tags (tag:yaml.org,2002:str) are not used in a spec: write the value alone", 2, 5,
	  "op: !!str sum" },
	{ "tags_and_aliases_are_refused_where_written", "kernel: reduce\n!!str op: sum\n",
	  "YAML tags (tag:yaml.org,2002:str) are not used in a spec: write the name alone", 2, 1, "!!str op: sum" },
	/* At the alias, not at the anchor it names. */
	{ "tags_and_aliases_are_refused_where_written", "kernel: reduce\nop: &x sum\nname: *x\n",
	  "name: expected a single value, not an alias", 3, 7, "name: *x" },
	{ "mapping_value_is_rejected", "kernel: reduce\nop:\n  sum: 1\n", "op: expected a single value, not a mapping",
	  3, 3, "  sum: 1" },
	{ "bad_enum_value_suggests_nearest", "kernel: reduce\nop: summ\n",
	  "op: unknown value 'summ' (did you mean 'sum'?): expected sum, min, max, prod, mean, sumsq, norm2, amax, count_nonzero, any, all, argmin, argmax or custom",
	  2, 5, "op: summ" },
	/* Another tool's name of a type: the type kgen calls it, for every key of types. */
	{ "bad_enum_value_suggests_nearest", "kernel: reduce\ndtype: float32\n",
	  "dtype: unknown value 'float32' (did you mean 'f32'?): expected i32, u32, i64, f32, f64, f16 or bf16", 2, 8,
	  "dtype: float32" },
	{ "bad_enum_value_suggests_nearest", "kernel: reduce\ndtype: f16\nacc_dtype: Double\n",
	  "acc_dtype: unknown value 'Double' (did you mean 'f64'?): expected i32, u32, i64, f32 or f64", 3, 12,
	  "acc_dtype: Double" },
	{ "bad_enum_value_suggests_nearest", "kernel: matmul\ndtype: bfloat16\n",
	  "dtype: unknown value 'bfloat16' (did you mean 'bf16'?): expected f32, f64, f16, bf16, e4m3 or e5m2", 2, 8,
	  "dtype: bfloat16" },
	{ "bad_enum_value_suggests_nearest", "kernel: transpose\ndtype: half\n",
	  "dtype: unknown value 'half' (did you mean 'f16'?): expected i32, u32, i64, f32, f64, f16 or bf16", 2, 8,
	  "dtype: half" },
	{ "bad_enum_value_suggests_nearest", "kernel: reduce_axis\nout_dtype: int32\n",
	  "out_dtype: unknown value 'int32' (did you mean 'i32'?): expected i32, u32, i64, f32, f64, f16 or bf16", 2, 12,
	  "out_dtype: int32" },
	{ "bad_enum_value_far_from_any_lists_allowed", "kernel: reduce\nstages: whatever_else\n",
	  "stages: unknown value 'whatever_else': expected two_pass, atomic or last_block", 2, 9,
	  "stages: whatever_else" },
	{ "bad_kernel_family_is_rejected", "kernel: gemv\n",
	  "kernel: unknown value 'gemv': expected reduce, transpose, reduce_axis, matmul, rows or scan", 1, 9, "kernel: gemv" },
	{ "non_integer_is_rejected", "kernel: reduce\nthreads: 25x\n",
	  "threads: '25x' is not a decimal integer: expected an integer from 32 to 1024", 2, 10, "threads: 25x" },
	{ "leading_zero_is_not_decimal", "kernel: reduce\nthreads: 0256\n",
	  "threads: '0256' is not a decimal integer: expected an integer from 32 to 1024", 2, 10, "threads: 0256" },
	{ "integer_past_long_long_is_out_of_range", "kernel: reduce\nthreads: 99999999999999999999999999\n",
	  "threads: 99999999999999999999999999 is out of range: expected an integer from 32 to 1024", 2, 10,
	  "threads: 99999999999999999999999999" },
	{ "leading_zero_past_long_long_is_not_decimal", "kernel: reduce\nthreads: 09999999999999999999999\n",
	  "threads: '09999999999999999999999' is not a decimal integer: expected an integer from 32 to 1024", 2, 10,
	  "threads: 09999999999999999999999" },
	{ "out_of_range_integer_is_rejected", "kernel: reduce\nthreads: 2048\n",
	  "threads: 2048 is out of range: expected an integer from 32 to 1024", 2, 10, "threads: 2048" },
	{ "out_of_range_integer_is_rejected", "kernel: reduce\nitems_per_thread: 0\n",
	  "items_per_thread: 0 is out of range: expected an integer from 1 to 64", 2, 19, "items_per_thread: 0" },
	/* A set (row_reduce, col_reduce): names apart by commas, each once; none alone. */
	{ "bad_set_value_is_rejected", "kernel: matmul\nrow_reduce: sum, mean\n",
	  "row_reduce: unknown value 'mean': expected sum, sumsq, max, min, absmax, logsumexp apart by commas, or none",
	  2, 13, "row_reduce: sum, mean" },
	{ "bad_set_value_is_rejected", "kernel: matmul\ncol_reduce: max, max\n",
	  "col_reduce: 'max' is named twice: expected sum, sumsq, max, min, absmax, logsumexp apart by commas, or none",
	  2, 13, "col_reduce: max, max" },
	{ "bad_set_value_is_rejected", "kernel: matmul\nrow_reduce: none, sum\n",
	  "row_reduce: unknown value 'none' (it stands alone): expected sum, sumsq, max, min, absmax, logsumexp apart by "
	  "commas, or none", 2, 13, "row_reduce: none, sum" },
	{ "bad_set_value_is_rejected", "kernel: matmul\nrow_reduce: sum,, max\n",
	  "row_reduce: 'sum,, max' is not names apart by commas: expected sum, sumsq, max, min, absmax, logsumexp apart by "
	  "commas, or none", 2, 13, "row_reduce: sum,, max" },
	{ "bad_set_value_is_rejected", "kernel: matmul\nrow_reduce: sum max\n",
	  "row_reduce: 'sum max' is not names apart by commas: expected sum, sumsq, max, min, absmax, logsumexp apart by "
	  "commas, or none", 2, 13, "row_reduce: sum max" },
	{ "bad_name_is_rejected", "kernel: reduce\nname: 1sum\n",
	  "name: '1sum' is not a C identifier of at most 47 characters: expected a C identifier of your own "
	  "(no keyword, CUDA built-in or name kgen declares)", 2, 7, "name: 1sum" },
};

/* Each row of load_refusals. */
START_TEST(refused_by_the_loader)
{
	assert_refused(&load_refusals[_i]);
}
END_TEST

/* ---- hostile YAML (issue 12, items 6 and 7) ---- */

/* This thread's CPU time, not the wall clock: what the loader costs, which
 * other processes on a busy machine (make check runs tests side by side)
 * cannot inflate, as they did a wall-clock ratio in 8 of 10 loaded runs. */
static double
seconds(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
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
 * plus 20 ms for a timer's granularity, and under 10 s in any case.  The
 * times are this thread's CPU time (seconds()), which other processes do
 * not inflate; the small input's is the fastest of two loads, so that one
 * slow first load (a cold cache) does not make the bound tight. */
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
		small = fastest_load(inputs[i].head, inputs[i].unit, big / 8, inputs[i].want, 2, &e);
		took = fastest_load(inputs[i].head, inputs[i].unit, big, inputs[i].want, 1, &e);
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

/* Compile src for sm_90 with ptxas's fast compile (-Ofc=max) where this
 * NVRTC takes it, as tests/sample_test does: whether NVRTC takes the
 * source without a word is the same at any level. */
static kgen_status
compile_fast(const char *src, void **image, size_t *size, char **log, kgen_error *err)
{
	static const char *const fast[] = { "-Ofc=max" };
	static int usable = -1;
	kgen_status st;

	if (usable != 0) {
		st = kgen_compile_with(src, "n.cu", "sm_90", fast, 1, KGEN_IMAGE_CUBIN, image, size, log, NULL, NULL, err);
		if (usable == 1 || st == KGEN_OK)
			return usable = 1, st;
		free(*log);
		*log = NULL;
		usable = 0;
	}
	return kgen_compile(src, "n.cu", "sm_90", KGEN_IMAGE_CUBIN, image, size, log, err);
}

/* A name that would collide in the generated file is refused at the spec
 * (issue 8, item 5), not left to NVRTC; names that only meet locals compile. */
START_TEST(names_cannot_collide)
{
	static const char *const bad[][2] = {
		{ "combine", "is a name kgen's generated code declares" }, { "T", "is a name kgen's generated code declares" },
		{ "THREADS", "is a name kgen's generated code declares" }, { "load_vec", "is a name kgen's generated code declares" },
		{ "c_to_acc", "is a function kgen's generated code calls" },
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
			ck_assert_msg(compile_fast(src, &image, &size, &log, &err) == KGEN_OK,
			              "%s named %s: %s\n%s", families[f], locals[i], err.message, log ? log : "");
			free(src);
			free(log);
			free(image);
			kgen_spec_free(spec);
		}
}
END_TEST

/* ---- op: custom's expressions (gen/expr_*.c, read by gen/load.c) ---- */

/* A spec of op: custom has its line 5 `key: value`, and the other keys it
 * needs (combine, identity) on lines 3 and 4: CUSTOM_REST_key. */
#define CUSTOM_REST_map      "combine: a + b\nidentity: 0\n"
#define CUSTOM_REST_combine  "identity: 0\nmap: x\n"
#define CUSTOM_REST_identity "combine: a + b\nmap: x\n"
#define CUSTOM_REST_post     "combine: a + b\nidentity: 0\n"

/* That spec, for key and value given at run time. */
static const char *
custom_spec(const char *key, const char *value)
{
	static char yaml[1024];
	const char *rest = strcmp(key, "combine") == 0 ? CUSTOM_REST_combine
	                   : strcmp(key, "identity") == 0 ? CUSTOM_REST_identity
	                   : strcmp(key, "post") == 0 ? CUSTOM_REST_post : CUSTOM_REST_map;

	snprintf(yaml, sizeof yaml, "kernel: reduce\nop: custom\n%s%s: %s\n", rest, key, value);
	return yaml;
}

/* `key: value` (both literals) on line 5 is refused with "key: why" at column col. */
#define ASSERT_EXPR_REJECTED(key, value, why, col) \
	ASSERT_REJECTED(custom_spec(key, value), key ": " why, 5, col, key ": " value)

/* The same as a row of a table of refusals, key a bare word (map, combine,
 * identity, post): `key: value` on line 5 is refused with "key: why" at
 * column col. */
#define EXPR_REFUSED(test, key, value, why, col)                                                         \
	{ test, "kernel: reduce\nop: custom\n" CUSTOM_REST_##key #key ": " value "\n", #key ": " why, 5, col, \
	  #key ": " value }

/* Expressions refused, each at the character at fault: EXPR_REFUSED rows
 * (line 5 of custom_spec) and whole specs. */
static const struct refusal expr_refusals[] = {
	/* The column is that of the offending character: one past the quote of a
	 * quoted value. */
	EXPR_REFUSED("expr_error_points_at_the_offending_character", map, "x;",
	             "';' ends a statement: an expression is one C expression, not statements", 7),
	EXPR_REFUSED("expr_error_points_at_the_offending_character", map, "'x;'",
	             "';' ends a statement: an expression is one C expression, not statements", 8),
	EXPR_REFUSED("expr_error_points_at_the_offending_character", map, "\"x;\"",
	             "';' ends a statement: an expression is one C expression, not statements", 8),
	EXPR_REFUSED("expr_error_points_at_the_offending_character", map, "x  +  y",
	             "unknown name 'y': map has x and i, and the functions listed in docs/spec.md", 12),
	EXPR_REFUSED("expr_error_points_at_the_offending_character", map, "'x  +  y'",
	             "unknown name 'y': map has x and i, and the functions listed in docs/spec.md", 13),
	EXPR_REFUSED("expr_error_points_at_the_offending_character", combine, "\"a + x\"",
	             "'x' is not a name of combine, which has a and b", 15),
	/* A doubled quote before the fault does not move the column off it. */
	EXPR_REFUSED("expr_error_points_at_the_offending_character", map, "'x'' + 1'",
	             "a character literal has no place in an expression: write its number", 8),
	/* In the matrix family too. */
	{ "expr_error_points_at_the_offending_character",
	  "kernel: reduce_axis\nop: custom\ncombine: a + b\nidentity: 0\npost: 'a / n;'\n",
	  "post: ';' ends a statement: an expression is one C expression, not statements", 5, 13, "post: 'a / n;'" },
	/* What would end the expression, or make it more than one: refused in next(). */
	EXPR_REFUSED("expr_refuses_what_is_not_one_expression", map, "'{x}'",
	             "a brace would open or close a block: an expression has none", 7),
	EXPR_REFUSED("expr_refuses_what_is_not_one_expression", map, "x }",
	             "a brace would open or close a block: an expression has none", 8),
	EXPR_REFUSED("expr_refuses_what_is_not_one_expression", map, "\"x\\ny\"", "an expression is one line", 8),
	EXPR_REFUSED("expr_refuses_what_is_not_one_expression", map, "\"x\\ry\"", "an expression is one line", 8),
	EXPR_REFUSED("expr_refuses_what_is_not_one_expression", map, "'x // c'",
	             "a comment has no place in an expression", 9),
	EXPR_REFUSED("expr_refuses_what_is_not_one_expression", map, "'x /* c */'",
	             "a comment has no place in an expression", 9),
	EXPR_REFUSED("expr_refuses_what_is_not_one_expression", map, "'#x'", "'#' would start a preprocessor line", 7),
	EXPR_REFUSED("expr_refuses_what_is_not_one_expression", map, "x#y", "'#' would start a preprocessor line", 7),
	EXPR_REFUSED("expr_refuses_what_is_not_one_expression", map, "'x + \"s\"'",
	             "a string literal has no place in an expression", 11),
	EXPR_REFUSED("expr_refuses_what_is_not_one_expression", map, "\"x + 'a'\"",
	             "a character literal has no place in an expression: write its number", 11),
	EXPR_REFUSED("expr_refuses_what_is_not_one_expression", map, "'x + \\1'",
	             "a backslash has no place in an expression", 11),
	EXPR_REFUSED("expr_refuses_what_is_not_one_expression", map, "'x @ 1'", "'@' has no place in an expression", 9),
	EXPR_REFUSED("expr_refuses_what_is_not_one_expression", map, "'x $ 1'", "'$' has no place in an expression", 9),
	EXPR_REFUSED("expr_refuses_what_is_not_one_expression", map, "\"x\\u00e9\"",
	             "a control or non-ASCII character has no place in an expression", 8),
	/* A block scalar holds its newline: the fault is at the value. */
	{ "expr_refuses_what_is_not_one_expression",
	  "kernel: reduce\nop: custom\ncombine: a + b\nidentity: 0\nmap: |\n  x\n  + 1\n",
	  "map: an expression is one line", 5, 6, "map: |" },
	EXPR_REFUSED("expr_refuses_assignment_subscripts_and_members", map, "'x[0]'",
	             "subscripts: each name is one value, not an array", 8),
	EXPR_REFUSED("expr_refuses_assignment_subscripts_and_members", map, "'x = 1'",
	             "'=' assigns: an expression computes a value without assigning (use == to compare)", 9),
	EXPR_REFUSED("expr_refuses_assignment_subscripts_and_members", map, "'x += 1'",
	             "'+=' assigns: an expression computes a value without assigning", 9),
	EXPR_REFUSED("expr_refuses_assignment_subscripts_and_members", map, "'x <<= 1'",
	             "'<<=' assigns: an expression computes a value without assigning", 9),
	EXPR_REFUSED("expr_refuses_assignment_subscripts_and_members", map, "'x++'",
	             "'++' assigns: an expression computes a value without assigning", 8),
	EXPR_REFUSED("expr_refuses_assignment_subscripts_and_members", map, "'--x'",
	             "'--' assigns: an expression computes a value without assigning", 7),
	EXPR_REFUSED("expr_refuses_assignment_subscripts_and_members", map, "'x->y'",
	             "'->': members are not part of an expression", 8),
	EXPR_REFUSED("expr_refuses_assignment_subscripts_and_members", map, "'x.y'",
	             "'.': members are not part of an expression", 8),
	/* The comma operator: a comma only separates a call's arguments. */
	EXPR_REFUSED("expr_refuses_assignment_subscripts_and_members", map, "'(x, 1)'", "expected ')' to close a '('",
	             9),
	/* Each key has its own names (map: x, i; combine: a, b; post: a, n;
	 * identity: none); anything else is a function of the table, a type in a
	 * cast, or refused. */
	EXPR_REFUSED("expr_names_are_the_keys_own", map, "'y + 1'",
	             "unknown name 'y': map has x and i, and the functions listed in docs/spec.md", 7),
	EXPR_REFUSED("expr_names_are_the_keys_own", map, "'x + foo(x)'",
	             "unknown name 'foo': map has x and i, and the functions listed in docs/spec.md",
	             11),
	EXPR_REFUSED("expr_names_are_the_keys_own", map, "b", "'b' is not a name of map, which has x and i", 6),
	EXPR_REFUSED("expr_names_are_the_keys_own", map, "'x * n'", "'n' is not a name of map, which has x and i", 11),
	EXPR_REFUSED("expr_names_are_the_keys_own", combine, "x", "'x' is not a name of combine, which has a and b",
	             10),
	EXPR_REFUSED("expr_names_are_the_keys_own", combine, "'a + i'",
	             "'i' is not a name of combine, which has a and b", 15),
	EXPR_REFUSED("expr_names_are_the_keys_own", post, "i", "'i' is not a name of post, which has a and n", 7),
	EXPR_REFUSED("expr_names_are_the_keys_own", post, "'b / n'", "'b' is not a name of post, which has a and n", 8),
	EXPR_REFUSED("expr_names_are_the_keys_own", identity, "x",
	             "'x' is not a name of identity, which has none (a constant)", 11),
	EXPR_REFUSED("expr_names_are_the_keys_own", identity, "'-n'",
	             "'n' is not a name of identity, which has none (a constant)", 13),
	/* An unknown name: the message lists the key's own names. */
	EXPR_REFUSED("expr_names_are_the_keys_own", combine, "'a + q'",
	             "unknown name 'q': combine has a and b, and the functions listed in docs/spec.md", 15),
	EXPR_REFUSED("expr_names_are_the_keys_own", identity, "q",
	             "unknown name 'q': identity takes no names (a constant), only the functions listed in docs/spec.md",
	             11),
	EXPR_REFUSED("expr_names_are_the_keys_own", map, "float", "'float' is a type: write a cast as (type)value", 6),
	EXPR_REFUSED("expr_names_are_the_keys_own", map, "'x + Acc'", "'Acc' is a type: write a cast as (type)value",
	             11),
	EXPR_REFUSED("expr_names_are_the_keys_own", map, "'sizeof(x)'",
	             "'sizeof' is a C++ keyword an expression cannot use", 7),
	/* A function is called: the fault is where its '(' should be. */
	EXPR_REFUSED("expr_names_are_the_keys_own", map, "sqrt", "'sqrt' is a function: call it, as name(...)", 10),
	EXPR_REFUSED("expr_names_are_the_keys_own", map, "'sqrt + 1'", "'sqrt' is a function: call it, as name(...)",
	             12),
	EXPR_REFUSED("expr_calls_take_their_argument_counts", map, "'sqrt(x, x)'", "too many arguments to sqrt", 15),
	EXPR_REFUSED("expr_calls_take_their_argument_counts", map, "'fmaxf(x)'", "fmaxf takes 2 arguments", 14),
	EXPR_REFUSED("expr_calls_take_their_argument_counts", map, "'fma(x, x)'", "fma takes 3 arguments", 15),
	EXPR_REFUSED("expr_calls_take_their_argument_counts", map, "'sqrt()'", "')' where a value is expected", 12),
	EXPR_REFUSED("expr_calls_take_their_argument_counts", map, "'fmaxf(x x)'",
	             "expected ',' or ')' in the call of fmaxf", 15),
	EXPR_REFUSED("expr_parentheses_and_operands_balance", map, "'x)'", "')' closes no '('", 8),
	EXPR_REFUSED("expr_parentheses_and_operands_balance", map, "'(x'", "expected ')' to close a '('", 9),
	EXPR_REFUSED("expr_parentheses_and_operands_balance", map, "'(x + 1'", "expected ')' to close a '('", 13),
	EXPR_REFUSED("expr_parentheses_and_operands_balance", map, "'(float x)'", "expected ')' to end the cast", 14),
	EXPR_REFUSED("expr_parentheses_and_operands_balance", map, "'x ? 1'", "expected ':' of the '?'", 12),
	EXPR_REFUSED("expr_parentheses_and_operands_balance", map, "'x +'",
	             "the expression ends where a value is expected", 10),
	EXPR_REFUSED("expr_parentheses_and_operands_balance", map, "'(float)'",
	             "the expression ends where a value is expected", 14),
	EXPR_REFUSED("expr_parentheses_and_operands_balance", map, "'x * )'", "')' where a value is expected", 11),
	EXPR_REFUSED("expr_parentheses_and_operands_balance", map, "'x y'",
	             "'y' after a whole expression: expected an operator or the end", 9),
	EXPR_REFUSED("expr_numbers_are_c_numbers", map, "'x + 1x'", "'1x' is not a number", 11),
	EXPR_REFUSED("expr_numbers_are_c_numbers", map, "'0x'", "'0x' is not a number", 7),
	EXPR_REFUSED("expr_numbers_are_c_numbers", map, "'1.5.3'", "'1.5.3' is not a number", 7),
	EXPR_REFUSED("expr_numbers_are_c_numbers", map, "'1e'", "'1e' is not a number", 7),
	EXPR_REFUSED("expr_numbers_are_c_numbers", map, "'0x1p3'", "'0x1p3' is not a number", 7),
	EXPR_REFUSED("expr_numbers_are_c_numbers", map, "'x + 12foo'", "'12foo' is not a number", 11),
	EXPR_REFUSED("expr_numbers_are_c_numbers", map, "'08'", "'08' is not a number", 7),
	EXPR_REFUSED("expr_numbers_are_c_numbers", map, "'99999999999999999999'",
	             "'99999999999999999999' is out of range", 7),
	EXPR_REFUSED("expr_numbers_are_c_numbers", map, "'x + 9223372036854775808'",
	             "'9223372036854775808' is too large for long long: write 9223372036854775808u", 11),
	/* Exactly C's suffixes: an integer u, l, ll and their mixes (ul, ull, lu,
	 * llu) in either case, not lL; a floating number (a '.' or an exponent) f
	 * or l.  Anything else would pass here and fail in NVRTC: refused at the
	 * number. */
	EXPR_REFUSED("expr_number_suffixes_are_c_suffixes", map, "10f",
	             "'10f': C has no suffix f for an integer: write 10.0f", 6),
	EXPR_REFUSED("expr_number_suffixes_are_c_suffixes", map, "'x * 2F'",
	             "'2F': C has no suffix F for an integer: write 2.0F", 11),
	EXPR_REFUSED("expr_number_suffixes_are_c_suffixes", map, "'x + 1uf'",
	             "'1uf': C has no suffix uf for an integer: it takes u, l, ll, ul, ull, lu or llu (either case)",
	             11),
	EXPR_REFUSED("expr_number_suffixes_are_c_suffixes", map, "'1lL'",
	             "'1lL': C has no suffix lL for an integer: it takes u, l, ll, ul, ull, lu or llu (either case)",
	             7),
	EXPR_REFUSED("expr_number_suffixes_are_c_suffixes", map, "'1uu'",
	             "'1uu': C has no suffix uu for an integer: it takes u, l, ll, ul, ull, lu or llu (either case)",
	             7),
	EXPR_REFUSED("expr_number_suffixes_are_c_suffixes", map, "'1lul'",
	             "'1lul': C has no suffix lul for an integer: it takes u, l, ll, ul, ull, lu or llu (either case)",
	             7),
	EXPR_REFUSED("expr_number_suffixes_are_c_suffixes", map, "'1lll'",
	             "'1lll': C has no suffix lll for an integer: it takes u, l, ll, ul, ull, lu or llu (either case)",
	             7),
	EXPR_REFUSED("expr_number_suffixes_are_c_suffixes", map, "'0xffuf'",
	             "'0xffuf': C has no suffix uf for an integer: it takes u, l, ll, ul, ull, lu or llu (either case)",
	             7),
	EXPR_REFUSED("expr_number_suffixes_are_c_suffixes", map, "'x + 1.5u'",
	             "'1.5u': C has no suffix u for a floating number: it takes f or l", 11),
	EXPR_REFUSED("expr_number_suffixes_are_c_suffixes", map, "'1.5ff'",
	             "'1.5ff': C has no suffix ff for a floating number: it takes f or l", 7),
	EXPR_REFUSED("expr_number_suffixes_are_c_suffixes", map, "'1e3lf'",
	             "'1e3lf': C has no suffix lf for a floating number: it takes f or l", 7),
	EXPR_REFUSED("expr_number_suffixes_are_c_suffixes", map, "'.5ul'",
	             "'.5ul': C has no suffix ul for a floating number: it takes f or l", 7),
	/* A message that quotes a token quotes all of it. */
	EXPR_REFUSED("expr_messages_quote_the_whole_token", map, "x foo",
	             "'foo' after a whole expression: expected an operator or the end", 8),
	EXPR_REFUSED("expr_messages_quote_the_whole_token", map, "x 1.5",
	             "'1.5' after a whole expression: expected an operator or the end", 8),
	EXPR_REFUSED("expr_messages_quote_the_whole_token", map, "'(x) (x)'",
	             "'(' after a whole expression: expected an operator or the end", 11),
	EXPR_REFUSED("expr_messages_quote_the_whole_token", map, "'x * <<'", "'<<' where a value is expected", 11),
	EXPR_REFUSED("expr_messages_quote_the_whole_token", map, "'&& x'", "'&&' where a value is expected", 7),
	EXPR_REFUSED("expr_messages_quote_the_whole_token", map, "'x * >= 1'", "'>=' where a value is expected", 11),
	/* A cast's words make one C type; Out, declared only where the op has a
	 * last step, is post's (map, combine and identity compute an Acc). */
	EXPR_REFUSED("expr_casts_are_c_types", map, "(Out)x", "Out, the result type, is post's", 7),
	EXPR_REFUSED("expr_casts_are_c_types", map, "'x + (Out)1'", "Out, the result type, is post's", 12),
	EXPR_REFUSED("expr_casts_are_c_types", combine, "'(Out)a + b'", "Out, the result type, is post's", 12),
	EXPR_REFUSED("expr_casts_are_c_types", identity, "(Out)0", "Out, the result type, is post's", 12),
	EXPR_REFUSED("expr_casts_are_c_types", map, "'(float double)x'", "'float double' is not a C type", 8),
	EXPR_REFUSED("expr_casts_are_c_types", map, "'(unsigned float)x'", "'unsigned float' is not a C type", 8),
	EXPR_REFUSED("expr_casts_are_c_types", map, "'(long long long)i'", "'long long long' is not a C type", 8),
	EXPR_REFUSED("expr_casts_are_c_types", map, "'(signed unsigned)i'", "'signed unsigned' is not a C type", 8),
	EXPR_REFUSED("expr_casts_are_c_types", map, "'(int int)i'", "'int int' is not a C type", 8),
	EXPR_REFUSED("expr_casts_are_c_types", map, "'(short long)i'", "'short long' is not a C type", 8),
	EXPR_REFUSED("expr_casts_are_c_types", map, "'(unsigned Acc)x'", "'unsigned Acc' is not a C type", 8),
	EXPR_REFUSED("expr_casts_are_c_types", map, "'(bool int)x'", "'bool int' is not a C type", 8),
	EXPR_REFUSED("expr_casts_are_c_types", map, "'(long char)x'", "'long char' is not a C type", 8),
	/* A value on several lines of YAML is folded into one line, so a fault
	 * would have a column of no line: it is refused at the value, plain or
	 * quoted (and a block scalar). */
	{ "expr_on_several_lines_is_refused",
	  "kernel: reduce\nop: custom\ncombine: a + b\nidentity: 0\nmap: x\n  + y\n", "map: an expression is one line",
	  5, 6, "map: x" },
	{ "expr_on_several_lines_is_refused",
	  "kernel: reduce\nop: custom\ncombine: a + b\nidentity: 0\nmap: x\n  + 1\n", "map: an expression is one line",
	  5, 6, "map: x" },
	{ "expr_on_several_lines_is_refused",
	  "kernel: reduce\nop: custom\ncombine: a + b\nidentity: 0\nmap: 'x\n  + 1'\n",
	  "map: an expression is one line", 5, 6, "map: 'x" },
	{ "expr_on_several_lines_is_refused",
	  "kernel: reduce\nop: custom\ncombine: a + b\nidentity: 0\nmap: \"x\n  + 1\"\n",
	  "map: an expression is one line", 5, 6, "map: \"x" },
	{ "expr_on_several_lines_is_refused",
	  "kernel: reduce\nop: custom\ncombine: a + b\nidentity: 0\nmap: \"x \\\n  + 1\"\n",
	  "map: an expression is one line", 5, 6, "map: \"x \\" },
	{ "expr_on_several_lines_is_refused", "kernel: reduce\nop: custom\nidentity: 0\ncombine: >-\n  a + b\n",
	  "combine: an expression is one line", 4, 10, "combine: >-" },
	/* A value on the line after its key is on one line: its faults are placed. */
	{ "expr_on_several_lines_is_refused",
	  "kernel: reduce_axis\nop: custom\ncombine: a + b\nidentity: 0\npost:\n  a / n;\n",
	  "post: ';' ends a statement: an expression is one C expression, not statements", 6, 8, "  a / n;" },
	/* On one line, a double-quoted value's escapes are counted as written. */
	EXPR_REFUSED("expr_on_several_lines_is_refused", map, "\"x\\t+ y\"",
	             "unknown name 'y': map has x and i, and the functions listed in docs/spec.md", 12),
	EXPR_REFUSED("expr_on_several_lines_is_refused", map, "\"\\x78 + y\"",
	             "unknown name 'y': map has x and i, and the functions listed in docs/spec.md", 14),
	EXPR_REFUSED("expr_on_several_lines_is_refused", map, "\"\\u0078\\t\\U00000078 y\"",
	             "'x' after a whole expression: expected an operator or the end", 15),
	/* Text written to leave the expression and add code to the generated file
	 * is refused at its first character that is not part of one expression. */
	EXPR_REFUSED("expr_escape_attempts_are_refused", map, "'x); } __global__ void f() { (x'", "')' closes no '('",
	             8),
	EXPR_REFUSED("expr_escape_attempts_are_refused", map, "'x ? 1 : 2 ) ; asm(\"trap\")'", "')' closes no '('", 17),
	EXPR_REFUSED("expr_escape_attempts_are_refused", map, "'asm(\"trap\")'",
	             "'asm' is a C++ keyword an expression cannot use", 7),
	EXPR_REFUSED("expr_escape_attempts_are_refused", combine, "'a + b; }'",
	             "';' ends a statement: an expression is one C expression, not statements", 16),
	EXPR_REFUSED("expr_escape_attempts_are_refused", identity, "'0 } int g() { return 0'",
	             "a brace would open or close a block: an expression has none", 14),
	EXPR_REFUSED("expr_escape_attempts_are_refused", post, "'a /* */ + n'",
	             "a comment has no place in an expression", 10),
	EXPR_REFUSED("expr_escape_attempts_are_refused", post, "\"a\\n#include <x>\"", "an expression is one line", 9),
};

/* Each row of expr_refusals. */
START_TEST(refused_expressions)
{
	assert_refused(&expr_refusals[_i]);
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

/* ---- the op's rules (gen/op.c, gen/op.h) ---- */

/* The accumulator types an op takes, and what op: custom needs
 * (kgen_op_check()). */
static const struct refusal op_refusals[] = {
	{ "check_rejects_16_bit_accumulator", "kernel: reduce\ndtype: f32\nacc_dtype: f16\n",
	  "acc_dtype f16: 16-bit accumulators lose precision and have no atomics here; accumulate in f32 or f64", 3, 12,
	  "acc_dtype: f16" },
	{ "fp8_is_matmuls_alone", "kernel: reduce\ndtype: e4m3\n",
	  "dtype e4m3: the fp8 types are operands of kernel: matmul (math: wgmma) only, not of kernel: reduce", 2, 8,
	  "dtype: e4m3" },
	{ "fp8_out_is_matmuls_alone", "kernel: rows\nout_dtype: e5m2\n",
	  "out_dtype e5m2: the fp8 types are operands of kernel: matmul (math: wgmma) only, not of kernel: rows", 2, 12,
	  "out_dtype: e5m2" },
	{ "check_rejects_integer_accumulator_for_floats", "kernel: reduce\nacc_dtype: i32\n",
	  "acc_dtype i32 cannot accumulate f32 elements: use f32 or f64", 2, 12, "acc_dtype: i32" },
	{ "check_rejects_narrower_integer_accumulator", "kernel: reduce\ndtype: i64\nacc_dtype: i32\n",
	  "acc_dtype i32 is narrower than dtype i64", 3, 12, "acc_dtype: i32" },
	{ "op_custom_needs_combine_and_identity", "kernel: reduce\nop: custom\nidentity: 0\n",
	  "op: custom needs combine, an expression of a and b (a + b, fmaxf(a, b), ...)", 2, 5, "op: custom" },
	{ "op_custom_needs_combine_and_identity", "kernel: reduce_axis\nop: custom\ncombine: a + b\n",
	  "op: custom needs identity, the result of no elements (0 for a sum, -INFINITY's bits for a max: "
	  "__int_as_float(0xff800000))", 2, 5, "op: custom" },
};

/* Each row of op_refusals. */
START_TEST(refused_by_the_op)
{
	assert_refused(&op_refusals[_i]);
}
END_TEST

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
	/* a key of another family with a value that family's table refuses: the key is what is wrong, not the
	 * value (it listed scan's block_scan values, then, once one was taken, said it does not apply) */
	ASSERT_REJECTED("kernel: rows\nblock_scan: foo\n", "block_scan does not apply to kernel: rows", 2, 1,
	                "block_scan: foo");
	ASSERT_REJECTED("stages: 99999\nkernel: rows\n", "stages does not apply to kernel: rows", 1, 1, "stages: 99999");
	/* a YAML merge key is said to be one, not an unknown key near 'op' */
	ASSERT_REJECTED("kernel: reduce\n<<: {threads: 256}\n",
	                "a YAML merge key (<<) is not taken: write each key in the spec itself", 2, 1, "<<: {threads: 256}");
	/* without a kernel: key names no family's key refused as another family's (the default, reduce, is no
	 * family the spec named); an expression key of another family is refused before its expression is read */
	ASSERT_REJECTED("block_scan: foo\n", "block_scan: unknown value 'foo': expected hillis_steele, blelloch, warps "
	                "or segments", 1, 13, "block_scan: foo");
	ASSERT_REJECTED("kernel: rows\nmap: x +\n", "map does not apply to kernel: rows", 2, 1, "map: x +");
	/* two lines of keys without blanks fold into one scalar: not said to be one key */
	ASSERT_REJECTED("kernel:reduce\nthreads:256\n", "a spec is a mapping of keys to values, not a scalar", 1, 1,
	                "kernel:reduce");
	ASSERT_REJECTED("kernel: transpose\ntile_rows: 6\ntile_cols: 32\n",
	                "threads 48 (tile 6x32 / batch 4) must be a multiple of 32 and at most 1024: change the tile", 2, 12,
	                "tile_rows: 6");
	/* threads derived from the tile alone: the error points at the tile written, not at the kernel line */
	ASSERT_REJECTED("kernel: transpose\ntile_cols: 6\n",
	                "threads 48 (tile 32x6 / batch 4) must be a multiple of 32 and at most 1024: change the tile", 2, 12,
	                "tile_cols: 6");
	kgen_spec_free(load("kernel: reduce\nop: argmin\nnan: ignore\n"));
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

/* A set's names in any order, blanks around them, read back in the
 * table's order; --set's form (no blanks) too, and none. */
START_TEST(set_values_read_back_in_order)
{
	kgen_spec *spec = load("kernel: matmul\nrow_reduce: absmax ,max,  sum\ncol_reduce: ' none '\n");
	kgen_error err;
	char *yaml;

	ASSERT_FIELD(spec, "row_reduce", "sum, max, absmax");
	ASSERT_FIELD(spec, "col_reduce", "none");
	ck_assert_int_eq(kgen_spec_set(spec, "col_reduce", "min,sumsq", &err), KGEN_OK);
	ASSERT_FIELD(spec, "col_reduce", "sumsq, min");
	ck_assert_int_eq(kgen_spec_dump(spec, &yaml), KGEN_OK);
	ck_assert_msg(strstr(yaml, "\nrow_reduce: sum, max, absmax\ncol_reduce: sumsq, min\n") != NULL, "%s", yaml);
	free(yaml);
	ck_assert_int_eq(kgen_spec_set(spec, "row_reduce", "none", &err), KGEN_OK);
	ASSERT_FIELD(spec, "row_reduce", "none");
	kgen_spec_free(spec);
}
END_TEST

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
		if (kgen_keys[k].type != KT_ENUM && kgen_keys[k].type != KT_SET)  /* a set's names are an enum's */
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

	static const char *const bogus[] = { "8", "bogus" };  /* a value op's table refuses: the key is still the fault */

	ck_assert_int_eq(kgen_spec_set_many(spec, 2, keys, values, &err), KGEN_ESPEC);
	ck_assert_str_eq(err.message, "op does not apply to kernel: transpose");
	ck_assert_int_eq(err.line, 0);
	ck_assert_int_eq(kgen_spec_set_many(spec, 2, keys, bogus, &err), KGEN_ESPEC);
	ck_assert_str_eq(err.message, "op does not apply to kernel: transpose");
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
	{
		/* a NULL among the keys: refused, the spec as it was (it crashed in strcmp) */
		static const char *const holey[] = { "threads", NULL }, *const values[] = { "128", "1" };
		ck_assert_int_eq(kgen_spec_set_many(spec, 2, holey, values, &err), KGEN_EINVAL);
		ck_assert_str_eq(err.message, "kgen_spec_set_many: keys[1] is NULL");
		ASSERT_FIELD(spec, "threads", "256");
		ck_assert_int_eq(kgen_spec_set(spec, NULL, "1", &err), KGEN_EINVAL);
		ck_assert_str_eq(err.message, "kgen_spec_set: NULL key");
		ck_assert_int_eq(kgen_spec_set(NULL, "threads", "1", &err), KGEN_EINVAL);
		ck_assert_str_eq(err.message, "kgen_spec_set: NULL spec");
	}
	kgen_spec_free(spec);
}
END_TEST

/* The defaults `kgen keys` prints that a family sets itself (its defaults
 * rows' constants) are what a spec of `kernel: F` alone resolves to. */
START_TEST(family_defaults_are_what_a_bare_spec_takes)
{
	int f, checked = 0;

	for (f = 0; f < KGEN_FAMILY_COUNT; f++) {
		const struct kgen_family *fam = kgen_family((enum kgen_family_id)f);
		const struct kgen_key_default *d;
		char text[64], buf[128];
		kgen_spec *spec = NULL;
		kgen_error err;

		snprintf(text, sizeof text, "kernel: %s\n", fam->name);
		ck_assert_msg(kgen_spec_load_string(text, strlen(text), "t.yaml", &spec, &err) == KGEN_OK, "%s: %s",
		              fam->name, err.message);
		for (d = fam->defaults; d && d->key != KGEN_KEY_COUNT; d++) {
			if (!d->text[0])
				continue;  /* derived from other keys */
			ck_assert_str_eq(kgen_spec_get(spec, kgen_keys[d->key].name, buf, sizeof buf), d->text);
			checked++;
		}
		kgen_spec_free(spec);
	}
	ck_assert_int_ge(checked, 2);
}
END_TEST

/* kgen_spec_copy: a spec of its own, its errors at the original's lines. */
START_TEST(copy_is_a_spec_of_its_own)
{
	kgen_spec *spec = load("kernel: reduce\nop: max\nthreads: 256\n"), *copy = NULL;
	kgen_error err;

	ck_assert_int_eq(kgen_spec_copy(spec, &copy, &err), KGEN_OK);
	ck_assert_int_eq(kgen_spec_set(copy, "threads", "128", &err), KGEN_OK);
	ASSERT_FIELD(copy, "threads", "128");
	ASSERT_FIELD(copy, "op", "max");
	ASSERT_FIELD(spec, "threads", "256");
	ck_assert_str_eq(kgen_spec_source(copy), kgen_spec_source(spec));
	kgen_spec_free(spec);  /* the copy outlives it */
	ck_assert_int_eq(kgen_spec_set(copy, "op", "maxx", &err), KGEN_ESPEC);
	ck_assert_int_eq(kgen_spec_copy(NULL, &copy, &err), KGEN_EINVAL);
	ck_assert_str_eq(err.message, "kgen_spec_copy: NULL argument");
	kgen_spec_free(copy);
}
END_TEST

/* ---- kgen_spec_get, files, status names ---- */

START_TEST(get_unknown_key_is_null)
{
	kgen_spec *spec = load("kernel: reduce\n");
	char buf[32];

	ck_assert_ptr_null(kgen_spec_get(spec, "thread", buf, sizeof buf));
	ck_assert_ptr_null(kgen_spec_get(spec, "threads", buf, 0));
	/* a key of the language that another family has: unknown here too, as loading it says */
	ck_assert_ptr_null(kgen_spec_get(spec, "tile_rows", buf, sizeof buf));
	kgen_spec_free(spec);
	spec = load("kernel: transpose\n");
	ck_assert_ptr_null(kgen_spec_get(spec, "op", buf, sizeof buf));
	ck_assert_ptr_null(kgen_spec_get(spec, "mode", buf, sizeof buf));
	ck_assert_str_eq(kgen_spec_get(spec, "kernel", buf, sizeof buf), "transpose");
	kgen_spec_free(spec);
}
END_TEST

/* kgen_spec_compile_arch(): the a form only of the architecture a feature
 * is specific to, and NULL where buf cannot hold it (it answered sm_90, on
 * which wgmma does not build, and made up sm_89a and sm_100a). */
START_TEST(compile_arch_adds_a_only_where_it_can)
{
	kgen_spec *w = load("kernel: matmul\ndtype: bf16\nmath: wgmma\n"), *r = load("kernel: reduce\n");
	char buf[16], small[4];

	ck_assert_str_eq(kgen_spec_compile_arch(w, "sm_90", buf, sizeof buf), "sm_90a");
	ck_assert_str_eq(kgen_spec_compile_arch(w, "sm_90a", buf, sizeof buf), "sm_90a");
	ck_assert_ptr_null(kgen_spec_compile_arch(w, "sm_90", small, sizeof small));
	ck_assert_ptr_null(kgen_spec_compile_arch(w, "sm_90", NULL, 0));
	ck_assert_str_eq(kgen_spec_compile_arch(w, "sm_89", buf, sizeof buf), "sm_89");
	ck_assert_str_eq(kgen_spec_compile_arch(w, "sm_100", buf, sizeof buf), "sm_100");
	ck_assert_str_eq(kgen_spec_compile_arch(r, "sm_90", NULL, 0), "sm_90");
	ck_assert_str_eq(kgen_spec_compile_arch(r, "sm_80", buf, sizeof buf), "sm_80");
	kgen_spec_free(w);
	kgen_spec_free(r);
}
END_TEST

/* Every failure of kgen_spec_load_string() leaves *spec NULL (its early
 * ones left it as it was, so `if (st) kgen_spec_free(s)` freed garbage). */
START_TEST(load_string_failures_leave_null)
{
	kgen_spec *spec = (kgen_spec *)&spec;
	kgen_error err;

	ck_assert_int_eq(kgen_spec_load_string(NULL, 1, "x", &spec, &err), KGEN_EINVAL);
	ck_assert_ptr_null(spec);
	spec = (kgen_spec *)&spec;
	ck_assert_int_eq(kgen_spec_load_string("kernel: reduce\n", (size_t)1 << 40, "x", &spec, &err), KGEN_ESPEC);
	ck_assert_ptr_null(spec);
	spec = (kgen_spec *)&spec;
	ck_assert_int_eq(kgen_spec_load_string("kernel: nothing\n", 16, "x", &spec, &err), KGEN_ESPEC);
	ck_assert_ptr_null(spec);
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
	kgen_error err = { .status = KGEN_ESPEC, .line = 3, .column = 1 };

	snprintf(err.file, sizeof err.file, "t.yaml");
	snprintf(err.message, sizeof err.message, "the third line's error");
	ck_assert_str_eq(print_error(&err), "t.yaml:3:1: error: the third line's error\n");
}
END_TEST

/* An unclosed quote or bracket is found at the end of the text: the error
 * is where it opened, on a line the caret can show. */
START_TEST(error_at_the_end_is_placed_where_the_unclosed_began)
{
	kgen_error err = reject("kernel: reduce\nop: [sum\n");

	ck_assert_str_eq(print_error(&err),
		"t.yaml:2:5: error: YAML: did not find expected ',' or ']' while parsing a flow sequence\n"
		"  op: [sum\n"
		"      ^\n");
	err = reject("kernel: reduce\nop: 'sum\n\n");
	ck_assert_str_eq(print_error(&err),
		"t.yaml:2:5: error: YAML: found unexpected end of stream while scanning a quoted scalar\n"
		"  op: 'sum\n"
		"      ^\n");
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

/* The in-process kernel cache tells specs apart by every field and every
 * expression: two matmuls that differ only in the epilogue (the fifth
 * expression) are two kernels.  It once compared four, and a ReLU matmul
 * built after a plain one in the same context ran the plain kernel. */
START_TEST(kernel_cache_key_covers_every_expression)
{
	kgen_spec *a = load("kernel: matmul\n"), *b = load("kernel: matmul\nepilogue: 'v > 0 ? v : 0'\n");
	kgen_spec *c = load("kernel: reduce\nop: custom\ncombine: a + b\nidentity: 0\n");
	kgen_spec *d = load("kernel: reduce\nop: custom\ncombine: a + b\nidentity: 0\npost: a * 2\n");

	ck_assert(!kgen_spec_same(a, b));
	ck_assert(kgen_spec_hash(a) != kgen_spec_hash(b));
	ck_assert(!kgen_spec_same(c, d));
	ck_assert(kgen_spec_same(a, a) && kgen_spec_same(b, b));
	kgen_spec_free(a);
	kgen_spec_free(b);
	kgen_spec_free(c);
	kgen_spec_free(d);
}
END_TEST

/* What a family takes of the language's values (kgen_family_values, which
 * `kgen keys` lists): every other value of the key, written alone in a spec
 * of the family, is refused at that value; the default is taken. */
START_TEST(family_values_are_what_check_takes)
{
	int f, checked = 0;

	for (f = 0; f < KGEN_FAMILY_COUNT; f++) {
		const struct kgen_family *fam = kgen_family((enum kgen_family_id)f);
		const enum kgen_key *p;
		for (p = fam->keys; *p != KGEN_KEY_COUNT; p++) {
			const struct kgen_key_info *key = &kgen_keys[*p];
			unsigned long long takes = kgen_family_values(fam, *p);
			long long v, top = key->type == KT_INT ? (key->max < 63 ? key->max : 63) : -1;
			const struct kgen_enum *e;
			if (key->type != KT_ENUM && key->type != KT_SET && key->type != KT_INT)
				continue;  /* names and expressions: no values to list */
			if (key->type != KT_INT)
				for (e = key->values; e && e->name; e++)
					top = e - key->values;
			if (!takes || top < 0 || (key->type != KT_INT && takes == (top >= 63 ? ~0ull : (2ull << top) - 1)))
				continue;  /* the whole range, or every value */
			for (v = key->type == KT_INT ? key->min : 0; v <= top; v++) {
				char text[256], value[64];
				kgen_spec *spec = NULL;
				kgen_error err;
				kgen_status st;
				if (takes & KGEN_BIT(v))
					continue;
				if (key->type == KT_INT)
					snprintf(value, sizeof value, "%lld", v);
				else
					snprintf(value, sizeof value, "%s", key->values[v].name);
				snprintf(text, sizeof text, "kernel: %s\n%s: %s\n", fam->name, key->name, value);
				st = kgen_spec_load_string(text, strlen(text), "t.yaml", &spec, &err);
				kgen_spec_free(spec);
				ck_assert_msg(st == KGEN_ESPEC && err.line == 2 && err.column == (int)strlen(key->name) + 3,
				              "%s: %s %s is not a value the family takes, but check gave %d at %d:%d (%s)", fam->name,
				              key->name, value, st, err.line, err.column, st ? err.message : "ok");
				checked++;
			}
			/* the default is one it takes */
			if (key->def[0] && key->type != KT_INT) {
				for (e = key->values; e && e->name; e++)
					if (strcmp(e->name, key->def) == 0)
						ck_assert_msg(takes & KGEN_BIT(e - key->values), "%s: %s's default %s", fam->name,
						              key->name, key->def);
			}
		}
	}
	ck_assert_int_gt(checked, 20);
}
END_TEST

static Suite *
spec_suite(void)
{
	Suite *s = suite_create("spec");
	TCase *tc;

	tc = tcase_create("good");
	tcase_add_test(tc, file_spec_values_are_loaded);
	tcase_add_test(tc, name_given_is_kept);
	tcase_add_test(tc, comments_and_quoted_values_are_accepted);
	suite_add_tcase(s, tc);

	tc = tcase_create("load");
	tcase_set_timeout(tc, 60);  /* NVRTC for the names test */
	tcase_add_loop_test(tc, refused_by_the_loader, 0, (int)KGEN_COUNT(load_refusals));
	tcase_add_test(tc, deep_flow_nesting_is_refused_in_linear_time);
	tcase_add_test(tc, names_cannot_collide);
	tcase_add_test(tc, integers_are_plain_decimals);
	suite_add_tcase(s, tc);

	/* About 5 s of this thread's CPU time alone, which is what the test bounds
	 * (its own clock); the wall-clock timeout only catches a hang, and is
	 * wide because a loaded machine (make -j check on 2 cores) stretched the
	 * wall time past 60 s once. */
	tc = tcase_create("large");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, ten_megabytes_in_linear_time);
	suite_add_tcase(s, tc);

	tc = tcase_create("expr");
	tcase_set_timeout(tc, 60);  /* NVRTC compiles the accepted expressions */
	tcase_add_loop_test(tc, refused_expressions, 0, (int)KGEN_COUNT(expr_refusals));
	tcase_add_test(tc, expr_empty_and_too_long);
	tcase_add_test(tc, expr_accepts_c_expressions);
	tcase_add_test(tc, expr_eval_follows_c_types);
	suite_add_tcase(s, tc);

	tc = tcase_create("op");
	tcase_add_loop_test(tc, refused_by_the_op, 0, (int)KGEN_COUNT(op_refusals));
	tcase_add_test(tc, op_keys_apply_only_to_their_ops);
	tcase_add_test(tc, op_types_are_checked);
	tcase_add_test(tc, op_default_types);
	tcase_add_test(tc, dump_single_quotes_expressions_and_loads_back);
	tcase_add_test(tc, dump_doubles_a_quote);
	suite_add_tcase(s, tc);

	tc = tcase_create("geometry");
	tcase_add_test(tc, grids_do_not_wrap_near_2_to_64);
	suite_add_tcase(s, tc);

	tc = tcase_create("set");
	tcase_add_test(tc, set_values_read_back_in_order);
	tcase_add_test(tc, set_changes_a_field);
	tcase_add_test(tc, set_unknown_key_suggests_nearest);
	tcase_add_test(tc, set_bad_value_leaves_spec_unchanged);
	tcase_add_test(tc, set_bad_expression_names_the_fault);
	tcase_add_test(tc, allowed_values_of_every_key);
	tcase_add_test(tc, set_impossible_combination_leaves_spec_unchanged);
	tcase_add_test(tc, set_error_on_written_field_keeps_its_position);
	tcase_add_test(tc, set_dtype_rederives_acc_dtype_and_name);
	tcase_add_test(tc, set_keeps_fields_written_in_the_spec);
	tcase_add_test(tc, set_earlier_set_survives_later_set);
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
	tcase_add_test(tc, load_string_failures_leave_null);
	tcase_add_test(tc, compile_arch_adds_a_only_where_it_can);
	tcase_add_test(tc, get_truncates_to_buffer);
	tcase_add_test(tc, missing_file_is_an_io_error);
	tcase_add_test(tc, null_arguments_are_einval);
	tcase_add_test(tc, status_names_and_version);
	tcase_add_test(tc, error_print_shows_place_line_and_caret);
	tcase_add_test(tc, error_print_caret_at_column_one);
	tcase_add_test(tc, error_print_without_source_line_has_no_caret);
	tcase_add_test(tc, copy_is_a_spec_of_its_own);
	tcase_add_test(tc, family_defaults_are_what_a_bare_spec_takes);
	tcase_add_test(tc, error_at_the_end_is_placed_where_the_unclosed_began);
	tcase_add_test(tc, family_values_are_what_check_takes);
	tcase_add_test(tc, error_print_without_place);
	tcase_add_test(tc, kernel_cache_key_covers_every_expression);
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
