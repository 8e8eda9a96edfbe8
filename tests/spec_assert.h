/*
 * spec_assert.h - what the spec tests share: load a spec that must be
 * accepted, one that must be rejected, and assertions on the error's
 * message and place and on a field's value; a table of refused specs
 * (struct refusal) walked by a loop test; a spec's dump, and the path of
 * a file of the source tree.  Included by the Check tests (tests/spec_test.c
 * and each family's tests/STEM_test.c).
 */
#ifndef KGEN_SPEC_ASSERT_H
#define KGEN_SPEC_ASSERT_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kgen.h"

static inline kgen_spec *
load(const char *yaml)
{
	kgen_spec *spec = NULL;
	kgen_error err;
	kgen_status st = kgen_spec_load_string(yaml, strlen(yaml), "t.yaml", &spec, &err);

	ck_assert_msg(st == KGEN_OK, "spec rejected: %s:%d:%d: %s", err.file, err.line, err.column, err.message);
	ck_assert_ptr_nonnull(spec);
	return spec;
}

/* Load yaml, which must be rejected as a bad spec; the error.  A failure
 * names the spec by `what`. */
static inline kgen_error
reject_as(const char *what, const char *yaml)
{
	kgen_spec *spec = NULL;
	kgen_error err;
	kgen_status st;

	memset(&err, 0, sizeof err);
	st = kgen_spec_load_string(yaml, strlen(yaml), "t.yaml", &spec, &err);
	ck_assert_msg(st == KGEN_ESPEC, "%s: %s, not KGEN_ESPEC", what, kgen_status_name(st));
	ck_assert_msg(spec == NULL, "%s: a spec came back with the error", what);
	ck_assert_msg(err.status == KGEN_ESPEC, "%s: err.status %s, not KGEN_ESPEC", what, kgen_status_name(err.status));
	ck_assert_msg(strcmp(err.file, "t.yaml") == 0, "%s: err.file '%s', not 't.yaml'", what, err.file);
	return err;
}

/* The same, a failure showing the spec. */
static inline kgen_error
reject(const char *yaml)
{
	return reject_as(yaml, yaml);
}

/* yaml is rejected with exactly this message, at line:col. */
#define ASSERT_REJECTED_AT(yaml, msg, l, c) do {        \
		kgen_error e_ = reject(yaml);           \
		ck_assert_str_eq(e_.message, (msg));    \
		ck_assert_int_eq(e_.line, (l));         \
		ck_assert_int_eq(e_.column, (c));       \
	} while (0)

/* The same, and the source line shown under the message is src. */
#define ASSERT_REJECTED(yaml, msg, l, c, src) do {      \
		kgen_error e_ = reject(yaml);           \
		ck_assert_str_eq(e_.message, (msg));    \
		ck_assert_int_eq(e_.line, (l));         \
		ck_assert_int_eq(e_.column, (c));       \
		ck_assert_str_eq(e_.source_line, (src)); \
	} while (0)

#define ASSERT_FIELD(spec, key, want) do {                                      \
		char b_[96];                                                    \
		const char *v_ = kgen_spec_get((spec), (key), b_, sizeof b_);   \
		ck_assert_ptr_nonnull(v_);                                      \
		ck_assert_str_eq(v_, (want));                                   \
	} while (0)

/* A spec that must be refused, with exactly this message at line:column
 * and this source line under it: what ASSERT_REJECTED checks, as a row of a
 * table.  A loop test walks the table, one row a run:
 *
 *     START_TEST(refused) { assert_refused(&refusals[_i]); } END_TEST
 *     tcase_add_loop_test(tc, refused, 0, (int)KGEN_COUNT(refusals));
 *
 * `test` says what the row checks, as a test's name would (rows of one rule
 * share it), and names the row in a failure. */
struct refusal {
	const char *test;
	const char *yaml;
	const char *message;
	int line, column;
	const char *source_line;
};

/* Row r is refused as it says: ASSERT_REJECTED with the row's name in a failure. */
static inline void
assert_refused(const struct refusal *r)
{
	kgen_error e = reject_as(r->test, r->yaml);

	ck_assert_msg(strcmp(e.message, r->message) == 0, "%s: the message is\n  %s\nnot\n  %s", r->test, e.message,
	              r->message);
	ck_assert_msg(e.line == r->line, "%s: line %d, not %d", r->test, e.line, r->line);
	ck_assert_msg(e.column == r->column, "%s: column %d, not %d", r->test, e.column, r->column);
	ck_assert_msg(strcmp(e.source_line, r->source_line) == 0, "%s: the source line is '%s', not '%s'", r->test,
	              e.source_line, r->source_line);
}

/* kgen_spec_dump() of spec, which must succeed; free() it. */
static inline char *
dump(const kgen_spec *spec)
{
	char *yaml = NULL;

	ck_assert_int_eq(kgen_spec_dump(spec, &yaml), KGEN_OK);
	ck_assert_ptr_nonnull(yaml);
	return yaml;
}

#ifdef TOP_SRCDIR
/* The path of rel in the source tree: under $top_srcdir (set by make check),
 * or the TOP_SRCDIR the test was built with (-DTOP_SRCDIR, for a test that
 * reads files of the tree). */
static inline const char *
srcpath(const char *rel)
{
	const char *top = getenv("top_srcdir");
	static char buf[4096];

	snprintf(buf, sizeof buf, "%s/%s", top ? top : TOP_SRCDIR, rel);
	return buf;
}
#endif

#endif
