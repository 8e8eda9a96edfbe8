/*
 * spec_assert.h - what the spec tests share: load a spec that must be
 * accepted, one that must be rejected, and assertions on the error's
 * message and place and on a field's value.  Included by the Check tests.
 */
#ifndef KGEN_SPEC_ASSERT_H
#define KGEN_SPEC_ASSERT_H

#include <check.h>
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

/* Load yaml, which must be rejected as a bad spec; the error. */
static inline kgen_error
reject(const char *yaml)
{
	kgen_spec *spec = NULL;
	kgen_error err;
	kgen_status st;

	memset(&err, 0, sizeof err);
	st = kgen_spec_load_string(yaml, strlen(yaml), "t.yaml", &spec, &err);
	ck_assert_int_eq(st, KGEN_ESPEC);
	ck_assert_ptr_null(spec);
	ck_assert_int_eq(err.status, KGEN_ESPEC);
	ck_assert_str_eq(err.file, "t.yaml");
	return err;
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

#endif
