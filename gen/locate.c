/*
 * locate.c - an NVRTC error inside an expression of `op: custom`, reported
 * where the user wrote the expression: the spec's line and column, not the
 * generated file's.  Each expression is emitted as the body of its own
 * one-line function (gen/op.c), so the log's line number names it.
 */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "family.h"

/* The line (1-based) of source that holds the one-line function `decl`, or 0. */
static int
line_of(const char *source, const char *decl)
{
	const char *p = strstr(source, decl), *q;
	int line = 1;

	if (!p)
		return 0;
	for (q = source; q < p; q++)
		line += *q == '\n';
	return line;
}

/* NVRTC follows an error with the source line and a caret under the fault,
 * sometimes after a list of candidates (an ambiguous overload): find the
 * caret line before the next error; the caret's offset into expression
 * expr on the line above it, or -1. */
static int
caret_offset(const char *after, const char *expr)
{
	const char *line = after ? after + 1 : NULL, *prev = NULL, *end, *c, *at;

	for (; line && *line; line = end ? end + 1 : NULL) {
		const char *next_error = strstr(line, "): error");
		end = strchr(line, '\n');
		if (next_error && (!end || next_error < end))
			break;  /* the next error: this one had no caret */
		for (c = line; *c == ' '; c++)
			;
		if (*c == '^' && (c[1] == '\n' || c[1] == '\0') && prev) {
			/* The expression is the function's body, on the line above. */
			const char *pend = strchr(prev, '\n');
			for (at = prev; (at = strstr(at, expr)) && pend && at < pend; at++)
				if (c - line >= at - prev && c - line < (at - prev) + (long)strlen(expr))
					return (int)((c - line) - (at - prev));
			return -1;
		}
		prev = line;
		if (!end)
			break;
	}
	return -1;
}

/* 1 when the value of key k is quoted in the spec's text (its first column is the quote). */
static int
quoted(const struct kgen_spec *s, enum kgen_key k)
{
	const char *p = s->text;
	int line = 1;

	if (!p)
		return 0;
	for (; *p && line < s->pos[k].vline; p++)
		line += *p == '\n';
	if ((size_t)(p - s->text) + (size_t)s->pos[k].vcol > s->text_len)
		return 0;
	p += s->pos[k].vcol - 1;
	return *p == '\'' || *p == '"';
}

kgen_status
kgen_locate_log(const struct kgen_spec *s, const char *source, const char *log, kgen_error *err)
{
	/* The expression keys and the start of the function each one is the body of. */
	static const struct { enum kgen_key key; const char *decl; } fns[] = {
		{ KGEN_KEY_map, " Acc map(" },
		{ KGEN_KEY_combine, " Acc combine(Acc a, Acc b) { return " },
		{ KGEN_KEY_identity, " Acc identity() { return " },
		{ KGEN_KEY_post, " Out post(Acc a, Index n) { return " },
	};
	const char *p;
	size_t i;

	if (!s || !source || !log || s->op != KGEN_OP_CUSTOM)
		return KGEN_OK;
	/* Each log line "NAME(LINE): error: WHAT" whose line is an expression's. */
	for (p = log; *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p)) {
		const char *open = strchr(p, '('), *nl = strchr(p, '\n');
		char what[256];
		int line;

		if (!open || (nl && open > nl) || sscanf(open, "(%d): error: %255[^\n]", &line, what) != 2)
			continue;
		for (i = 0; i < sizeof fns / sizeof fns[0]; i++)
			if (s->pos[fns[i].key].line && line == line_of(source, fns[i].decl)) {
				kgen_status st = kgen_spec_error(s, fns[i].key, 1, err, "%s: NVRTC: %s",
				                                 kgen_keys[fns[i].key].name, what);
				int at = caret_offset(nl, kgen_spec_expr_text(s, fns[i].key));
				if (err && at >= 0 && err->line == s->pos[fns[i].key].vline)
					err->column += at + quoted(s, fns[i].key);  /* one column per character (escapes aside) */
				return st;
			}
	}
	return KGEN_OK;
}
