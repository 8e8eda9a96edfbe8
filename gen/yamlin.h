/*
 * yamlin.h - the bounded front of every YAML input kgen reads (specs,
 * plans, spaces): the checks that run before, or instead of, loading a
 * whole document, so that no input costs more than linear time and memory.
 *
 *   KGEN_TEXT_MAX        the largest input: kgen_read_file() stops there
 *   kgen_yaml_nesting()  flow brackets nested deeper than a limit, found in
 *                        one pass before libyaml (whose scanner is quadratic
 *                        in the depth) sees the text
 *   kgen_yaml_plain()    one event pass: a single document, no tags, anchors
 *                        or aliases, block nesting within the limit
 *
 * Errors are KGEN_ESPEC at the file's line and column, with the text's
 * line for the caret.
 */
#ifndef KGEN_YAMLIN_H
#define KGEN_YAMLIN_H

#include <stddef.h>
#include "kgen.h"

/* 16 MiB: specs, plans and spaces are hundreds of bytes. */
#define KGEN_TEXT_MAX ((size_t)16 << 20)

/* KGEN_ESPEC at the first '[' or '{' past max_depth levels (comments do not
 * count), saying "YAML nested more than MAX levels deep: WHAT". */
kgen_status kgen_yaml_nesting(const char *text, size_t len, const char *file, int max_depth, const char *what,
                              kgen_error *err);

/* One pass of libyaml's events over text (after kgen_yaml_nesting): a
 * syntax error, a second document, a tag, an anchor, an alias, or block
 * collections nested past max_depth are KGEN_ESPEC; `what` names the input
 * ("a plan", "a space") in the messages. */
kgen_status kgen_yaml_plain(const char *text, size_t len, const char *file, int max_depth, const char *what,
                            kgen_error *err);

/* libyaml's syntax error (its problem and context, at 0-based line and
 * column) as KGEN_ESPEC, "YAML: PROBLEM CONTEXT".  libyaml notices a key
 * without its ':' only where the next key (or the end) begins, a line
 * late: when the lines before that point show such a key, the error is
 * put at it instead, "'threads 256' has no ':' (expected KEY: VALUE)"
 * ("has no blank after its ':'" for threads:256). */
struct yaml_parser_s;
kgen_status kgen_yaml_syntax_error(const char *text, size_t len, const char *file, const struct yaml_parser_s *p,
                                   kgen_error *err);

#endif
