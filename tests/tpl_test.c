/*
 * tpl_test.c - the template filler of gen/tpl.c, through the embedded
 * templates reduce/warp_reduce.cu (an inline {{how}}, a block {{body}}
 * indented by four spaces, a "//!" line) and reduce/init.cu.
 */
#include "config.h"
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gen/tpl.h"
#include "gen/util.h"

#define WARP_HEAD "// The total of the warp's 32 values, in lane 0: shuffles.\n" \
                  "static __device__ __forceinline__ Acc warp_reduce(Acc v)\n" \
                  "{\n"

/* Render tpl with args a; the status, the text in *text (to free). */
static kgen_status
render(const char *tpl, struct tpl_args *a, char **text, kgen_error *err)
{
	strbuf out;
	kgen_status st;

	sb_init(&out);
	st = tpl_render(&out, tpl, a, err);
	*text = sb_take(&out);
	ck_assert_ptr_nonnull(*text);
	return st;
}

START_TEST(embedded_templates_are_found)
{
	ck_assert_ptr_nonnull(kgen_template("reduce/warp_reduce.cu"));
	ck_assert_ptr_nonnull(kgen_template("reduce/file.cu"));
	ck_assert_ptr_null(kgen_template("reduce/nope.cu"));
}
END_TEST

START_TEST(block_placeholder_indents_every_line)
{
	struct tpl_args a;
	kgen_error err;
	char *text;

	tpl_init(&a);
	tpl_set(&a, "how", "shuffles");
	tpl_set(&a, "body", "v += 1;\nreturn v;");
	ck_assert_int_eq(render("reduce/warp_reduce.cu", &a, &text, &err), KGEN_OK);
	ck_assert_str_eq(text, WARP_HEAD "    v += 1;\n    return v;\n}\n");
	free(text);
}
END_TEST

START_TEST(block_placeholder_leaves_empty_lines_unindented)
{
	struct tpl_args a;
	kgen_error err;
	char *text;

	tpl_init(&a);
	tpl_set(&a, "how", "shuffles");
	tpl_set(&a, "body", "v += 1;\n\nreturn v;");
	ck_assert_int_eq(render("reduce/warp_reduce.cu", &a, &text, &err), KGEN_OK);
	ck_assert_str_eq(text, WARP_HEAD "    v += 1;\n\n    return v;\n}\n");
	free(text);
}
END_TEST

START_TEST(empty_block_value_removes_the_line)
{
	struct tpl_args a;
	kgen_error err;
	char *text;

	tpl_init(&a);
	tpl_set(&a, "how", "shuffles");
	tpl_set(&a, "body", "%s", "");
	ck_assert_int_eq(render("reduce/warp_reduce.cu", &a, &text, &err), KGEN_OK);
	ck_assert_str_eq(text, WARP_HEAD "}\n");
	free(text);
}
END_TEST

START_TEST(doc_lines_are_dropped)
{
	struct tpl_args a;
	kgen_error err;
	char *text;

	tpl_init(&a);
	tpl_set(&a, "op", "max");
	tpl_set(&a, "name", "k");
	tpl_set(&a, "start_next", "%s", "");  /* an empty block: its line goes too */
	ck_assert_int_eq(render("reduce/init.cu", &a, &text, &err), KGEN_OK);
	ck_assert_ptr_null(strstr(text, "//!"));
	ck_assert_str_eq(text,
		"// Run first, <<<1, 1>>>: set *out to the identity of max, which the atomics combine into.\n"
		"extern \"C\" __global__ void k_init(Acc *out)\n"
		"{\n"
		"    *out = identity();\n"
		"}\n");
	free(text);
}
END_TEST

START_TEST(inline_placeholders_take_formatted_values)
{
	struct tpl_args a;
	kgen_error err;
	char *text;

	tpl_init(&a);
	tpl_set(&a, "op", "%s%d", "op", 7);
	tpl_set(&a, "name", "reduce_%s", "x");
	tpl_set(&a, "start_next", "%s", "");
	ck_assert_int_eq(render("reduce/init.cu", &a, &text, &err), KGEN_OK);
	ck_assert_ptr_nonnull(strstr(text, "the identity of op7, which"));
	ck_assert_ptr_nonnull(strstr(text, "void reduce_x_init(Acc *out)\n"));
	free(text);
}
END_TEST

/* A broken invariant is recorded and taken as KGEN_EINTERNAL, never an
 * abort (kgen.h: the library never exits). */
START_TEST(broken_invariants_do_not_abort)
{
	char *names[TPL_MAX_ARGS + 3];
	struct tpl_args a;
	kgen_error err;
	int i;

	ck_assert_int_eq(kgen_take_internal(&err), 0);
	tpl_init(&a);
	tpl_set(&a, "how", "shuffles");
	tpl_set(&a, "how", "again");  /* a placeholder set twice */
	ck_assert_int_eq(kgen_take_internal(&err), 1);
	ck_assert_int_eq(err.status, KGEN_EINTERNAL);
	ck_assert_ptr_nonnull(strstr(err.message, "internal error at "));
	ck_assert_ptr_nonnull(strstr(err.message, "tpl.c:"));  /* the path as the build named it */
	ck_assert_ptr_nonnull(strstr(err.message, "(a bug in kgen: please report it)"));
	ck_assert_int_eq(kgen_take_internal(&err), 0);  /* taken once */
	tpl_free(&a);
	tpl_init(&a);
	for (i = 0; i < TPL_MAX_ARGS + 3; i++) {  /* more than the table holds: no write past it */
		char name[16];
		snprintf(name, sizeof name, "p%d", i);
		names[i] = kgen_strdup(name);  /* freed here, taken or not */
		tpl_set(&a, names[i], "%d", i);
	}
	ck_assert_int_eq(a.failed, 1);
	ck_assert_int_eq(kgen_take_internal(&err), 1);
	tpl_free(&a);
	for (i = 0; i < TPL_MAX_ARGS + 3; i++)
		free(names[i]);
}
END_TEST

START_TEST(unfilled_block_placeholder_is_internal_error)
{
	struct tpl_args a;
	kgen_error err;
	char *text;

	tpl_init(&a);
	tpl_set(&a, "how", "shuffles");
	ck_assert_int_eq(render("reduce/warp_reduce.cu", &a, &text, &err), KGEN_EINTERNAL);
	ck_assert_int_eq(err.status, KGEN_EINTERNAL);
	ck_assert_str_eq(err.message, "internal error: template reduce/warp_reduce.cu:5: placeholder {{body}} has no value");
	free(text);
}
END_TEST

START_TEST(unfilled_inline_placeholder_is_internal_error)
{
	struct tpl_args a;
	kgen_error err;
	char *text;

	tpl_init(&a);
	tpl_set(&a, "body", "return v;");
	ck_assert_int_eq(render("reduce/warp_reduce.cu", &a, &text, &err), KGEN_EINTERNAL);
	ck_assert_str_eq(err.message, "internal error: template reduce/warp_reduce.cu:2: placeholder {{how}} has no value");
	free(text);
}
END_TEST

START_TEST(unused_parameter_is_internal_error)
{
	struct tpl_args a;
	kgen_error err;
	char *text;

	tpl_init(&a);
	tpl_set(&a, "op", "sum");
	tpl_set(&a, "name", "k");
	tpl_set(&a, "start_next", "%s", "");
	tpl_set(&a, "extra", "1");
	ck_assert_int_eq(render("reduce/init.cu", &a, &text, &err), KGEN_EINTERNAL);
	ck_assert_int_eq(err.status, KGEN_EINTERNAL);
	ck_assert_str_eq(err.message, "internal error: template reduce/init.cu has no placeholder {{extra}}");
	free(text);
}
END_TEST

START_TEST(unknown_template_is_internal_error)
{
	struct tpl_args a;
	kgen_error err;
	char *text;

	tpl_init(&a);
	tpl_set(&a, "op", "sum");
	ck_assert_int_eq(render("reduce/nope.cu", &a, &text, &err), KGEN_EINTERNAL);
	ck_assert_str_eq(err.message, "internal error: no template reduce/nope.cu");
	free(text);
}
END_TEST

START_TEST(render_into_nests_a_template_as_a_block)
{
	struct tpl_args a, inner;
	kgen_error err;
	char *text;

	tpl_init(&a);
	tpl_init(&inner);
	tpl_set(&inner, "op", "sum");
	tpl_set(&inner, "name", "k");
	tpl_set(&inner, "start_next", "%s", "");
	tpl_set(&a, "how", "shuffles");
	ck_assert_int_eq(tpl_render_into(&a, "body", "reduce/init.cu", &inner, &err), KGEN_OK);
	ck_assert_int_eq(render("reduce/warp_reduce.cu", &a, &text, &err), KGEN_OK);
	/* Every line of the inner template indented once, no blank line after it. */
	ck_assert_str_eq(text, WARP_HEAD
		"    // Run first, <<<1, 1>>>: set *out to the identity of sum, which the atomics combine into.\n"
		"    extern \"C\" __global__ void k_init(Acc *out)\n"
		"    {\n"
		"        *out = identity();\n"
		"    }\n"
		"}\n");
	free(text);
}
END_TEST

START_TEST(render_into_passes_inner_errors_up)
{
	struct tpl_args a, inner;
	kgen_error err;

	tpl_init(&a);
	tpl_init(&inner);
	tpl_set(&inner, "op", "sum");
	ck_assert_int_eq(tpl_render_into(&a, "body", "reduce/init.cu", &inner, &err), KGEN_EINTERNAL);
	ck_assert_str_eq(err.message, "internal error: template reduce/init.cu:3: placeholder {{name}} has no value");
	ck_assert_uint_eq(a.n, 0);
	tpl_free(&a);
}
END_TEST

START_TEST(sections_show_or_hide_their_lines)
{
	struct tpl_args a;
	kgen_error err;
	char *text;

	tpl_init(&a);
	tpl_show(&a, "acc", 1);
	tpl_show(&a, "lanes", 0);
	ck_assert_int_eq(render("reduce/accumulators.cu", &a, &text, &err), KGEN_OK);
	ck_assert_str_eq(text, "Acc acc = identity();\n");
	free(text);
	tpl_init(&a);
	tpl_show(&a, "acc", 0);
	tpl_show(&a, "lanes", 0);
	ck_assert_int_eq(render("reduce/accumulators.cu", &a, &text, &err), KGEN_OK);
	ck_assert_str_eq(text, "");
	free(text);
}
END_TEST

START_TEST(hidden_section_placeholders_need_no_value)
{
	struct tpl_args a;
	kgen_error err;
	char *text;

	/* body.cu's {{align}} and {{head}} lie in the hidden `unaligned` sections. */
	tpl_init(&a);
	tpl_show(&a, "unaligned", 0);
	tpl_show(&a, "wait_first", 0);
	tpl_show(&a, "start_next", 0);
	tpl_show(&a, "wait_init", 0);
	tpl_show(&a, "lanes", 0);
	tpl_show(&a, "wait_atomic", 0);
	tpl_set(&a, "thread", "acc = 1;");
	tpl_set(&a, "finish", "*out = acc;");
	ck_assert_int_eq(render("reduce/body.cu", &a, &text, &err), KGEN_OK);
	ck_assert_str_eq(text, "acc = 1;\n\n*out = acc;\n");
	free(text);
	/* A value set for them counts as used all the same. */
	tpl_init(&a);
	tpl_show(&a, "unaligned", 0);
	tpl_set(&a, "head", "x");
	tpl_show(&a, "wait_first", 0);
	tpl_show(&a, "start_next", 0);
	tpl_show(&a, "wait_init", 0);
	tpl_show(&a, "lanes", 0);
	tpl_show(&a, "wait_atomic", 0);
	tpl_set(&a, "thread", "acc = 1;");
	tpl_set(&a, "finish", "%s", "");
	ck_assert_int_eq(render("reduce/body.cu", &a, &text, &err), KGEN_OK);
	ck_assert_str_eq(text, "acc = 1;\n");
	free(text);
}
END_TEST

START_TEST(inverted_sections_show_when_empty)
{
	struct tpl_args a;
	kgen_error err;
	char *text;

	tpl_init(&a);
	tpl_set(&a, "load_doc", "plain");
	tpl_set(&a, "load", "%s", "");
	tpl_set(&a, "store_doc", "streaming");
	tpl_set(&a, "store", "__stcs");
	tpl_set(&a, "word", "uint4");
	ck_assert_int_eq(render("transpose/smem_access.cu", &a, &text, &err), KGEN_OK);
	ck_assert_str_eq(text,
		"// Global loads: plain.\n"
		"static __device__ __forceinline__ Vec load_vec(const T *p) { return *reinterpret_cast<const Vec *>(p); }\n"
		"static __device__ __forceinline__ T load_one(const T *p) { return *p; }\n"
		"\n"
		"// Global stores: streaming.\n"
		"static __device__ __forceinline__ void store_vec(T *p, const Vec &v)\n"
		"{\n"
		"    __stcs(reinterpret_cast<uint4 *>(p), *reinterpret_cast<const uint4 *>(&v));\n"
		"}\n"
		"static __device__ __forceinline__ void store_one(T *p, T v) { __stcs(p, v); }\n");
	free(text);
}
END_TEST

START_TEST(unset_section_is_internal_error)
{
	struct tpl_args a;
	kgen_error err;
	char *text;

	tpl_init(&a);
	tpl_show(&a, "lanes", 0);
	ck_assert_int_eq(render("reduce/accumulators.cu", &a, &text, &err), KGEN_EINTERNAL);
	ck_assert_str_eq(err.message, "internal error: template reduce/accumulators.cu:4: placeholder {{acc}} has no value");
	free(text);
}
END_TEST

/* sb_printf() formats into the free space at once and again, with room
 * enough, when the text did not fit; "%s" alone is copied (gen/util.c). */
START_TEST(strbuf_formats_short_and_long_text)
{
	char long_text[3000], expect[7000];
	strbuf b;
	int i;

	for (i = 0; i < (int)sizeof long_text - 1; i++)
		long_text[i] = (char)('a' + i % 26);
	long_text[sizeof long_text - 1] = '\0';
	sb_init(&b);
	sb_printf(&b, "%d-%s", 42, "x");
	ck_assert_str_eq(b.s, "42-x");
	sb_printf(&b, "[%s|%s]", long_text, long_text);  /* past the free space: formatted again */
	snprintf(expect, sizeof expect, "42-x[%s|%s]", long_text, long_text);
	ck_assert_str_eq(b.s, expect);
	ck_assert_uint_eq(b.len, strlen(expect));
	for (i = 0; i < 300; i++)  /* many short ones, the buffer growing under them */
		sb_printf(&b, "%c", 'z');
	ck_assert_uint_eq(b.len, strlen(expect) + 300);
	ck_assert_int_eq(b.s[b.len - 1], 'z');
	ck_assert_int_eq(b.s[b.len], '\0');
	sb_free(&b);
	sb_printf(&b, "%s", long_text);
	ck_assert_str_eq(b.s, long_text);
	sb_printf(&b, "%s", "");
	ck_assert_uint_eq(b.len, sizeof long_text - 1);
	ck_assert(!b.failed);
	sb_free(&b);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("tpl");
	TCase *tc = tcase_create("render");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, embedded_templates_are_found);
	tcase_add_test(tc, block_placeholder_indents_every_line);
	tcase_add_test(tc, block_placeholder_leaves_empty_lines_unindented);
	tcase_add_test(tc, empty_block_value_removes_the_line);
	tcase_add_test(tc, doc_lines_are_dropped);
	tcase_add_test(tc, inline_placeholders_take_formatted_values);
	tcase_add_test(tc, unfilled_block_placeholder_is_internal_error);
	tcase_add_test(tc, unfilled_inline_placeholder_is_internal_error);
	tcase_add_test(tc, broken_invariants_do_not_abort);
	tcase_add_test(tc, unused_parameter_is_internal_error);
	tcase_add_test(tc, unknown_template_is_internal_error);
	tcase_add_test(tc, render_into_nests_a_template_as_a_block);
	tcase_add_test(tc, render_into_passes_inner_errors_up);
	tcase_add_test(tc, sections_show_or_hide_their_lines);
	tcase_add_test(tc, hidden_section_placeholders_need_no_value);
	tcase_add_test(tc, unset_section_is_internal_error);
	tcase_add_test(tc, inverted_sections_show_when_empty);
	tcase_add_test(tc, strbuf_formats_short_and_long_text);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
