/*
 * yamlin.c - the bounded front of every YAML input (yamlin.h): nesting
 * found in one pass over the text, then one pass of libyaml's events for
 * what kgen's inputs never use (second documents, tags, anchors, aliases).
 */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include <yaml.h>
#include "util.h"
#include "yamlin.h"

kgen_status
kgen_yaml_nesting(const char *text, size_t len, const char *file, int max_depth, const char *what, kgen_error *err)
{
	const char *p, *end = text + len;
	int depth = 0, line = 1, col = 1;

	for (p = text; p < end; p++) {
		char c = *p;
		if (c == '\n') {
			line++;
			col = 1;
			continue;
		}
		if (c == '#' && (p == text || p[-1] == ' ' || p[-1] == '\t' || p[-1] == '\n')) {
			while (p + 1 < end && p[1] != '\n')  /* a comment, to the end of its line */
				p++;
		} else if (c == '[' || c == '{') {
			if (++depth > max_depth) {
				kgen_fail(err, KGEN_ESPEC, "YAML nested more than %d levels deep: %s", max_depth, what);
				kgen_error_at(err, file, text, len, line, col);
				return KGEN_ESPEC;
			}
		} else if ((c == ']' || c == '}') && depth > 0) {
			depth--;
		}
		if (((unsigned char)c & 0xc0) != 0x80)  /* a character, not a UTF-8 continuation */
			col++;
	}
	return KGEN_OK;
}

/* Line `line` (1-based) of text, without its indentation, comment and
 * trailing blanks, into *start and *n (n 0: blank, or past the end). */
static void
line_content(const char *text, size_t len, int line, const char **start, size_t *n)
{
	const char *p = text, *end = text + len, *q;
	int l;

	*start = end;
	*n = 0;
	for (l = 1; p < end && l < line; p++)
		l += *p == '\n';
	if (l < line || p >= end)
		return;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	for (q = p; q < end && *q != '\n' && *q != '\r' && !(*q == '#' && (q == p || q[-1] == ' ' || q[-1] == '\t'));
	     q++)
		;
	while (q > p && (q[-1] == ' ' || q[-1] == '\t'))
		q--;
	*start = p;
	*n = (size_t)(q - p);
}

/* Does the line's content (n bytes at p) hold a key's ':', one followed by
 * a blank or the end? */
static int
has_key_colon(const char *p, size_t n)
{
	const char *c;

	for (c = p; (c = memchr(c, ':', n - (size_t)(c - p))); c++)
		if (c + 1 == p + n || c[1] == ' ' || c[1] == '\t')
			return 1;
	return 0;
}

/* The line (1-based) of a key written without its ':' (or with no blank
 * after it, threads:256) that libyaml reported at line `line`, where the
 * next key begins; 0 when the text shows none: the nearest line above
 * with content (line `line` itself passes over when blank or a key of its
 * own) must hold no key's ':' and begin as a plain key does. */
static int
colonless_key(const char *text, size_t len, int line, const char **start, size_t *n)
{
	int l;

	for (l = line; l >= 1; l--) {
		line_content(text, len, l, start, n);
		if (!*n || (l == line && has_key_colon(*start, *n)))
			continue;
		if (has_key_colon(*start, *n) || strchr("-?:,[]{}#&*!|>'\"%@`", **start) ||
		    (*n >= 3 && (strncmp(*start, "---", 3) == 0 || strncmp(*start, "...", 3) == 0)))
			return 0;
		return l;
	}
	return 0;
}

kgen_status
kgen_yaml_syntax_error(const char *text, size_t len, const char *file, const struct yaml_parser_s *p,
                       kgen_error *err)
{
	const char *problem = p->problem, *context = p->context;
	int line = (int)p->problem_mark.line, column = (int)p->problem_mark.column;
	char shown[256], q[96];
	const char *start;
	size_t n;
	int key, col;

	if (problem && strcmp(problem, "could not find expected ':'") == 0 &&
	    (key = colonless_key(text, len, line + 1, &start, &n))) {
		snprintf(shown, sizeof shown, "%.*s", (int)(n < sizeof shown ? n : sizeof shown - 1), start);
		if (memchr(start, ':', n))
			kgen_fail(err, KGEN_ESPEC, "'%s' has no blank after its ':' (expected KEY: VALUE)",
			          kgen_quote(shown, q, sizeof q));
		else
			kgen_fail(err, KGEN_ESPEC, "'%s' has no ':' (expected KEY: VALUE)", kgen_quote(shown, q, sizeof q));
		for (col = 1; start - text >= col && start[-col] != '\n'; col++)  /* after its indentation */
			;
		kgen_error_at(err, file, text, len, key, col);
		return KGEN_ESPEC;
	}
	kgen_fail(err, KGEN_ESPEC, "YAML: %s%s%s", problem ? problem : "syntax error", context ? " " : "",
	          context ? context : "");
	/* Found at the end of the text (an unclosed quote or bracket): the
	 * place is where the unclosed thing began, a line the caret can show. */
	if (context && p->problem_mark.index >= len && p->context_mark.index < len) {
		line = (int)p->context_mark.line;
		column = (int)p->context_mark.column;
	}
	kgen_error_at(err, file, text, len, line + 1, column + 1);
	return KGEN_ESPEC;
}

/* The tag and anchor an event carries, if any. */
static void
tag_anchor(const yaml_event_t *ev, const char **tag, const char **anchor)
{
	*tag = *anchor = NULL;
	if (ev->type == YAML_SCALAR_EVENT) {
		*tag = (const char *)ev->data.scalar.tag;
		*anchor = (const char *)ev->data.scalar.anchor;
	} else if (ev->type == YAML_SEQUENCE_START_EVENT) {
		*tag = (const char *)ev->data.sequence_start.tag;
		*anchor = (const char *)ev->data.sequence_start.anchor;
	} else if (ev->type == YAML_MAPPING_START_EVENT) {
		*tag = (const char *)ev->data.mapping_start.tag;
		*anchor = (const char *)ev->data.mapping_start.anchor;
	}
}

/* A failure at mark m. */
static kgen_status
at(kgen_error *err, const char *file, const char *text, size_t len, yaml_mark_t m, kgen_status st)
{
	kgen_error_at(err, file, text, len, (int)m.line + 1, (int)m.column + 1);
	return st;
}

kgen_status
kgen_yaml_plain(const char *text, size_t len, const char *file, int max_depth, const char *what, kgen_error *err)
{
	yaml_parser_t p;
	yaml_event_t ev;
	const char *tag, *anchor;
	kgen_status st = KGEN_OK;
	int docs = 0, depth = 0, done = 0;

	if (!yaml_parser_initialize(&p))
		return kgen_fail(err, KGEN_ENOMEM, "out of memory starting the YAML parser");
	yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
	while (!done && !st) {
		if (!yaml_parser_parse(&p, &ev)) {
			if (p.error == YAML_MEMORY_ERROR)
				st = kgen_fail(err, KGEN_ENOMEM, "out of memory reading %s", what);
			else
				st = kgen_yaml_syntax_error(text, len, file, &p, err);
			break;
		}
		done = ev.type == YAML_STREAM_END_EVENT;
		tag_anchor(&ev, &tag, &anchor);
		if (ev.type == YAML_DOCUMENT_START_EVENT && ++docs == 2)
			st = kgen_fail(err, KGEN_ESPEC, "a second YAML document: %s is one document (drop the second '---' "
			               "and what follows)", what);
		else if (tag)
			st = kgen_fail(err, KGEN_ESPEC, "YAML tags (%s) are not used in %s: write the value alone", tag, what);
		else if (anchor)
			st = kgen_fail(err, KGEN_ESPEC, "YAML anchors (&%s) are not used in %s: write each value out", anchor,
			               what);
		else if (ev.type == YAML_ALIAS_EVENT)
			st = kgen_fail(err, KGEN_ESPEC, "YAML aliases (*%s) are not used in %s: write each value out",
			               (const char *)ev.data.alias.anchor, what);
		else if ((ev.type == YAML_SEQUENCE_START_EVENT || ev.type == YAML_MAPPING_START_EVENT) && ++depth > max_depth)
			st = kgen_fail(err, KGEN_ESPEC, "YAML nested more than %d levels deep: %s", max_depth, what);
		else if (ev.type == YAML_SEQUENCE_END_EVENT || ev.type == YAML_MAPPING_END_EVENT)
			depth--;
		if (st == KGEN_ESPEC)
			at(err, file, text, len, ev.start_mark, st);
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&p);
	return st;
}
