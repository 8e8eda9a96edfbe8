/* tpl.c - the template filler of tpl.h. */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "tpl.h"

struct kgen_template_file {
	const char *name;
	const char *text;
};
#include "gen/templates.inc"

const char *
kgen_template(const char *name)
{
	size_t i;

	for (i = 0; i < KGEN_COUNT(kgen_template_files); i++)
		if (strcmp(kgen_template_files[i].name, name) == 0)
			return kgen_template_files[i].text;
	return NULL;
}

void
tpl_init(struct tpl_args *a)
{
	memset(a, 0, sizeof *a);
}

void
tpl_free(struct tpl_args *a)
{
	size_t i;

	for (i = 0; i < a->n; i++)
		free(a->v[i].value);
	tpl_init(a);
}

static void
tpl_put(struct tpl_args *a, const char *name, char *value)
{
	size_t i;

	if (!value) {
		a->failed = 1;
		return;
	}
	for (i = 0; i < a->n; i++)
		KGEN_ASSERT(strcmp(a->v[i].name, name) != 0);  /* each placeholder set once */
	KGEN_ASSERT(a->n < TPL_MAX_ARGS);
	if (a->n >= TPL_MAX_ARGS) {
		free(value);
		a->failed = 1;
		return;
	}
	a->v[a->n].name = name;
	a->v[a->n].value = value;
	a->v[a->n].used = 0;
	a->n++;
}

void
tpl_set(struct tpl_args *a, const char *name, const char *fmt, ...)
{
	strbuf b;
	va_list ap;

	sb_init(&b);
	va_start(ap, fmt);
	sb_vprintf(&b, fmt, ap);
	va_end(ap);
	tpl_put(a, name, sb_take(&b));
}

static int
lookup(struct tpl_args *a, const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < a->n; i++)
		if (strlen(a->v[i].name) == len && memcmp(a->v[i].name, name, len) == 0)
			return (int)i;
	return -1;
}

/* Append value, every line after the first indented by indent[0..ilen). */
static void
put_indented(strbuf *out, const char *value, const char *indent, size_t ilen)
{
	const char *p = value, *nl;

	while (*p) {
		nl = strchr(p, '\n');
		if (p != value && *p != '\n')
			sb_putn(out, indent, ilen);
		if (!nl) {
			sb_puts(out, p);
			return;
		}
		sb_putn(out, p, (size_t)(nl - p) + 1);
		p = nl + 1;
	}
}

/* The first "{{" or "}}" (mark) in [p, end), or NULL: searched within the
 * line, where strstr() would scan the rest of the template each time
 * (generation spent 41% of its time there). */
static const char *
find(const char *p, const char *end, const char *mark)
{
	for (; p + 1 < end && (p = memchr(p, mark[0], (size_t)(end - p - 1))) != NULL; p++)
		if (p[1] == mark[1])
			return p;
	return NULL;
}

/* Is the line at ws (its indentation skipped; it ends at eol) the marker
 * {{<c>name}} alone?  name and its length in *name and *len. */
static int
marker(const char *ws, const char *eol, char c, const char **name, size_t *len)
{
	const char *close;

	if (strncmp(ws, "{{", 2) != 0 || ws[2] != c || !(close = find(ws, eol, "}}")) || close + 2 != eol)
		return 0;
	*name = ws + 3;
	*len = (size_t)(close - ws - 3);
	return 1;
}

/* Mark the values of the placeholders of a hidden section's line [p, eol)
 * used: the template names them, whether or not this rendering shows them. */
static void
mark_used(struct tpl_args *a, const char *p, const char *eol)
{
	const char *open, *close;
	int i;

	for (; (open = find(p, eol, "{{")) && (close = find(open, eol, "}}")); p = close + 2) {
		open += 2 + (open[2] == '#' || open[2] == '^' || open[2] == '/');
		if ((i = lookup(a, open, (size_t)(close - open))) >= 0)
			a->v[i].used = 1;
	}
}

kgen_status
tpl_render(strbuf *out, const char *tpl, struct tpl_args *a, kgen_error *err)
{
	const char *text = kgen_template(tpl), *p, *eol, *open, *close, *ws = NULL, *hidden = NULL, *name;
	kgen_status st = KGEN_OK;
	int line = 0, i, inverted;
	size_t k, len, hidden_len = 0;

	if (!text) {
		tpl_free(a);
		return kgen_fail(err, KGEN_EINTERNAL, "internal error: no template %s", tpl);
	}
	if (a->failed) {
		tpl_free(a);
		return kgen_fail(err, KGEN_ENOMEM, "out of memory");
	}
	for (p = text; *p && !st; p = *eol ? eol + 1 : eol) {
		const char *q;
		ws = p;
		line++;
		eol = strchr(p, '\n');
		if (!eol)
			eol = p + strlen(p);
		while (*ws == ' ' || *ws == '\t')
			ws++;
		if (strncmp(ws, "//!", 3) == 0)
			continue;
		/* A hidden section: nothing until its end marker. */
		if (hidden) {
			if (marker(ws, eol, '/', &name, &len) && len == hidden_len && memcmp(name, hidden, len) == 0)
				hidden = NULL;
			else
				mark_used(a, ws, eol);
			continue;
		}
		/* A section's markers: its lines are shown when the value is not
		 * empty ({{#name}}), or when it is ({{^name}}). */
		inverted = marker(ws, eol, '^', &name, &len);
		if (inverted || marker(ws, eol, '#', &name, &len)) {
			if ((i = lookup(a, name, len)) < 0)
				goto unfilled;
			a->v[i].used = 1;
			if ((a->v[i].value[0] == '\0') != inverted) {
				hidden = name;
				hidden_len = len;
			}
			continue;
		}
		if (marker(ws, eol, '/', &name, &len))
			continue;
		/* A placeholder alone on its line: a block of lines, indented. */
		if (strncmp(ws, "{{", 2) == 0 && (close = find(ws, eol, "}}")) && close + 2 == eol) {
			if ((i = lookup(a, ws + 2, (size_t)(close - ws - 2))) < 0)
				goto unfilled;
			a->v[i].used = 1;
			if (!a->v[i].value[0])
				continue;
			sb_putn(out, p, (size_t)(ws - p));
			put_indented(out, a->v[i].value, p, (size_t)(ws - p));
			sb_puts(out, "\n");
			continue;
		}
		for (q = p; q < eol;) {
			open = find(q, eol, "{{");
			if (!open) {
				sb_putn(out, q, (size_t)(eol - q));
				break;
			}
			if (!(close = find(open, eol, "}}"))) {
				st = kgen_fail(err, KGEN_EINTERNAL, "internal error: template %s:%d: unclosed {{", tpl, line);
				break;
			}
			sb_putn(out, q, (size_t)(open - q));
			ws = open;
			if ((i = lookup(a, open + 2, (size_t)(close - open - 2))) < 0)
				goto unfilled;
			a->v[i].used = 1;
			sb_puts(out, a->v[i].value);
			q = close + 2;
		}
		if (*eol)
			sb_puts(out, "\n");
	}
	if (!st && hidden)
		st = kgen_fail(err, KGEN_EINTERNAL, "internal error: template %s: section {{#%.*s}} has no end",
		               tpl, (int)hidden_len, hidden);
	for (k = 0; !st && k < a->n; k++)
		if (!a->v[k].used)
			st = kgen_fail(err, KGEN_EINTERNAL, "internal error: template %s has no placeholder {{%s}}", tpl,
			               a->v[k].name);
	if (!st && out->failed)
		st = kgen_fail(err, KGEN_ENOMEM, "out of memory");
	tpl_free(a);
	return st;
unfilled:
	close = strstr(ws + 2, "}}");
	ws += 2 + (ws[2] == '#' || ws[2] == '^');
	st = kgen_fail(err, KGEN_EINTERNAL, "internal error: template %s:%d: placeholder {{%.*s}} has no value", tpl,
	               line, (int)(close - ws), ws);
	tpl_free(a);
	return st;
}

kgen_status
tpl_render_into(struct tpl_args *parent, const char *name, const char *tpl, struct tpl_args *a, kgen_error *err)
{
	strbuf b;
	kgen_status st;

	sb_init(&b);
	if ((st = tpl_render(&b, tpl, a, err)) != KGEN_OK) {
		sb_free(&b);
		return st;
	}
	/* A block value carries no final newline: the placeholder's line has one. */
	if (b.len && b.s[b.len - 1] == '\n')
		b.s[--b.len] = '\0';
	tpl_put(parent, name, sb_take(&b));
	return KGEN_OK;
}
