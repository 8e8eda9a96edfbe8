/*
 * load.c - read a spec's YAML with libyaml into a struct kgen_spec,
 * remembering where each key and value was written, then validate it.
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include <yaml.h>
#include "yamlin.h"
#include "family.h"
#include "expr_type.h"


/* An error at a libyaml mark (0-based line and column). */
static kgen_status
error_at_mark(const struct kgen_spec *s, yaml_mark_t mark, kgen_error *err, const char *fmt, ...) KGEN_PRINTF(4, 5);
static kgen_status
error_at_mark(const struct kgen_spec *s, yaml_mark_t mark, kgen_error *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	kgen_vfail(err, KGEN_ESPEC, fmt, ap);
	va_end(ap);
	kgen_error_at(err, s->file, s->text, s->text_len, (int)mark.line + 1, (int)mark.column + 1);
	return KGEN_ESPEC;
}

/* A value or key that is not a plain scalar, for messages. */
static const char *
event_kind(const yaml_event_t *ev)
{
	switch (ev->type) {
	case YAML_SEQUENCE_START_EVENT: return "a list";
	case YAML_MAPPING_START_EVENT: return "a mapping";
	case YAML_ALIAS_EVENT: return "an alias";
	default: return "a scalar";
	}
}

/* A key must be one of the language's, given once. */
static kgen_status
check_key(const struct kgen_spec *s, const char *key, yaml_mark_t km, kgen_error *err)
{
	const char *near;
	int k;

	if ((k = kgen_key_lookup_for(s->kernel, key)) < 0) {
		if (strcmp(key, "plan") == 0)
			return error_at_mark(s, km, err, "this is a size plan, not a spec: load it with kgen_plan_load_file() "
			                     "(kgen check and kgen run take either)");
		if (strcmp(key, "<<") == 0)
			return error_at_mark(s, km, err, "a YAML merge key (<<) is not taken: write each key in the spec "
			                     "itself");
		near = kgen_key_nearest_for(s->kernel, key);
		if (near)
			return error_at_mark(s, km, err, "unknown key '%s' (did you mean '%s'?)", key, near);
		return error_at_mark(s, km, err, "unknown key '%s'", key);
	}
	if (s->pos[k].line)
		return error_at_mark(s, km, err, "duplicate key '%s' (first given on line %d)", key, s->pos[k].line);
	return KGEN_OK;
}

/* The column (0-based) of byte `at` of the value of scalar ev, which is on
 * one line of the spec: the value's column, then one source character per
 * byte of the value, or more for a quoted value's escapes ('' in single
 * quotes, \t or \x41 in double quotes).  Only ASCII precedes a fault that
 * expr_parse.c reports (it refuses any other byte where it meets it), so the
 * source's bytes are its columns there. */
static size_t
value_column(const struct kgen_spec *s, const yaml_event_t *ev, size_t at)
{
	yaml_scalar_style_t style = ev->data.scalar.style;
	const char *p = s->text, *end = s->text + s->text_len;
	size_t line = 0, col = 0, i;

	if (style == YAML_PLAIN_SCALAR_STYLE)
		return ev->start_mark.column + at;
	/* The opening quote in the text: its line, then its column (in characters). */
	for (; p < end && line < ev->start_mark.line; p++)
		line += *p == '\n';
	for (; p < end && col < ev->start_mark.column; p++)
		col += ((unsigned char)*p & 0xc0) != 0x80;
	while (p < end && ((unsigned char)*p & 0xc0) == 0x80)
		p++;
	if (p >= end || *p != (style == YAML_SINGLE_QUOTED_SCALAR_STYLE ? '\'' : '"'))
		return ev->start_mark.column + 1 + at;  /* not found (not reached): one byte a column */
	p++;
	col = ev->start_mark.column + 1;
	for (i = 0; i < at && p < end && *p != '\n'; i++) {
		size_t w = 1;
		if (style == YAML_SINGLE_QUOTED_SCALAR_STYLE && p[0] == '\'' && p + 1 < end && p[1] == '\'')
			w = 2;
		else if (style == YAML_DOUBLE_QUOTED_SCALAR_STYLE && p[0] == '\\' && p + 1 < end)
			w = p[1] == 'x' ? 4 : p[1] == 'u' ? 6 : p[1] == 'U' ? 10 : 2;
		p += w;
		col += w;
	}
	return col;
}

/* An expression key: parsed where it was written, so that a fault is
 * reported at its own column.  It is one line of YAML too: a value folded
 * from several lines (a plain or quoted scalar continued on the next line,
 * a block scalar) would put a fault at a column of no line, and is refused
 * at the value. */
static kgen_status
load_expr(struct kgen_spec *s, enum kgen_key k, const yaml_event_t *ev, yaml_mark_t vm, kgen_error *err)
{
	const char *val = (const char *)ev->data.scalar.value;
	struct kgen_expr e;
	char why[160];
	size_t at;

	if (ev->start_mark.line != ev->end_mark.line)
		return error_at_mark(s, vm, err, "%s: an expression is one line", kgen_keys[k].name);
	if (strlen(val) != ev->data.scalar.length)
		return error_at_mark(s, vm, err, "%s: a NUL character has no place in an expression", kgen_keys[k].name);
	if (kgen_expr_parse(k, val, &e, &at, why, sizeof why) != KGEN_OK) {
		vm.column = value_column(s, ev, at);
		return error_at_mark(s, vm, err, "%s: %s", kgen_keys[k].name, why);
	}
	snprintf(kgen_spec_expr(s, k), KGEN_EXPR_MAX + 1, "%s", val);
	*kgen_spec_field(s, k) = 1;
	return KGEN_OK;
}

/* Take one `key: value` pair into the spec (the key checked); marks are where each was written. */
static kgen_status
load_pair(struct kgen_spec *s, const char *key, yaml_mark_t km, const yaml_event_t *ev, yaml_mark_t vm, int named,
          kgen_error *err)
{
	const char *val = (const char *)ev->data.scalar.value;
	const char *near;
	char why[160], allowed[256];
	struct kgen_pos *pos;
	long long v;
	int k = kgen_key_lookup_for(s->kernel, key);

	pos = &s->pos[k];
	pos->line = (int)km.line + 1;
	pos->col = (int)km.column + 1;
	pos->vline = (int)vm.line + 1;
	pos->vcol = (int)vm.column + 1;
	/* A key of another family than the one the spec names: that, not its value, is what is wrong (check.c
	 * says it of a key read before a family was known). */
	if (named && !kgen_family_has_key(kgen_family((enum kgen_family_id)s->kernel), (enum kgen_key)k))
		return error_at_mark(s, km, err, "%s does not apply to kernel: %s", kgen_keys[k].name,
		                     kgen_families[s->kernel].name);
	if (kgen_keys[k].type == KT_EXPR)
		return load_expr(s, (enum kgen_key)k, ev, vm, err);
	if (kgen_spec_parse_value((enum kgen_key)k, val, &v, why, sizeof why) != KGEN_OK) {
		kgen_key_allowed_for(s->kernel, (enum kgen_key)k, allowed, sizeof allowed);
		near = kgen_keys[k].type == KT_ENUM ? kgen_key_nearest_value((enum kgen_key)k, val) : NULL;
		if (near)
			return error_at_mark(s, vm, err, "%s: %s (did you mean '%s'?): expected %s", key, why, near, allowed);
		return error_at_mark(s, vm, err, "%s: %s: expected %s", key, why, allowed);
	}
	/* A number in quotes is text in YAML: say so rather than read it as
	 * the number (a space or a tool that quoted it meant something else). */
	if (kgen_keys[k].type == KT_INT && (ev->data.scalar.style == YAML_SINGLE_QUOTED_SCALAR_STYLE ||
	                                    ev->data.scalar.style == YAML_DOUBLE_QUOTED_SCALAR_STYLE))
		return error_at_mark(s, vm, err, "%s: a quoted value is text, not an integer: write %s: %s", key, key, val);
	*kgen_spec_field(s, (enum kgen_key)k) = v;
	if (k == KGEN_KEY_name)
		snprintf(s->name_text, sizeof s->name_text, "%s", val);
	return KGEN_OK;
}

/* Flow collections ([ and {) nested deeper than this are refused before
 * libyaml sees them (kgen_yaml_nesting): its scanner takes time quadratic in their depth (80000
 * levels of `[` took 11 s), and a spec, one mapping of names to scalar
 * values, nests none.  Block collections are stopped at the same depth
 * while parsing. */
#define MAX_FLOW_DEPTH 8

/* What the event parser has seen of the spec's one mapping. */
struct walk {
	int depth;            /* collections open: 1 inside the root mapping */
	int docs;             /* documents started */
	int root;             /* 0 none yet, else the root's event type */
	int want_value;       /* a key was read at depth 1: its value comes next */
	int named;            /* the text names a family (find_kernel): its keys alone are taken */
	char *key;            /* that key, and where */
	yaml_mark_t key_mark, root_mark;
	kgen_status failed;   /* the first error about the spec's content */
};

/* One event of the stream: check it against a spec's shape (one mapping of
 * plain names to single scalar values) and take each pair.  After the
 * first content error, events are only followed (a syntax error later in
 * the text still wins, as it did when libyaml loaded whole documents). */
static kgen_status
take_event(struct kgen_spec *s, struct walk *w, yaml_event_t *ev, kgen_error *err)
{
	yaml_mark_t m = ev->start_mark;
	int open = ev->type == YAML_MAPPING_START_EVENT || ev->type == YAML_SEQUENCE_START_EVENT;
	int at_top = w->depth == 1 && w->root == YAML_MAPPING_START_EVENT && w->docs == 1;

	if (ev->type == YAML_DOCUMENT_START_EVENT && ++w->docs == 2)
		return error_at_mark(s, m, err, "a second YAML document: a spec is one document (drop the second '---' "
		                     "and what follows)");
	if (w->docs > 1)
		return KGEN_OK;
	if (w->depth == 0 && (open || ev->type == YAML_SCALAR_EVENT || ev->type == YAML_ALIAS_EVENT)) {
		w->root = ev->type;
		w->root_mark = m;
		if (ev->type == YAML_SCALAR_EVENT && ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE &&
		    ev->data.scalar.length && ev->start_mark.line == ev->end_mark.line) {
			/* one line of plain text: a key whose ':' (or the blank after it) is missing, as yamlin.c says */
			char q[96];
			const char *text = (const char *)ev->data.scalar.value;
			return error_at_mark(s, m, err, strchr(text, ':') ? "'%s' has no blank after its ':' (expected KEY: VALUE)"
			                                                  : "'%s' has no ':' (expected KEY: VALUE)",
			                     kgen_quote(text, q, sizeof q));
		}
		if (ev->type != YAML_MAPPING_START_EVENT)
			return error_at_mark(s, m, err, "a spec is a mapping of keys to values, not %s",
			                     ev->type == YAML_SCALAR_EVENT ? "a scalar" : event_kind(ev));
	} else if (at_top && !w->want_value && ev->type != YAML_MAPPING_END_EVENT) {
		if (ev->type != YAML_SCALAR_EVENT)
			return error_at_mark(s, m, err, "a key must be a plain name, not %s", event_kind(ev));
		if (ev->data.scalar.tag)
			return error_at_mark(s, m, err, "YAML tags (%s) are not used in a spec: write the name alone",
			                     (const char *)ev->data.scalar.tag);
		if (!(w->key = kgen_strdup((const char *)ev->data.scalar.value)))
			return kgen_fail(err, KGEN_ENOMEM, "out of memory");
		w->key_mark = m;
		w->want_value = 1;
	} else if (at_top && w->want_value) {
		kgen_status st = check_key(s, w->key, w->key_mark, err);
		if (st != KGEN_OK)
			;
		else if (ev->type != YAML_SCALAR_EVENT)
			st = error_at_mark(s, m, err, "%s: expected a single value, not %s", w->key, event_kind(ev));
		else if (ev->data.scalar.tag)
			st = error_at_mark(s, m, err, "%s: YAML tags (%s) are not used in a spec: write the value alone",
			                   w->key, (const char *)ev->data.scalar.tag);
		else
			st = load_pair(s, w->key, w->key_mark, ev, m, w->named, err);
		free(w->key);
		w->key = NULL;
		w->want_value = 0;
		if (st != KGEN_OK)
			return st;
	}
	if (open)
		w->depth++;
	else if (ev->type == YAML_MAPPING_END_EVENT || ev->type == YAML_SEQUENCE_END_EVENT)
		w->depth--;
	return KGEN_OK;
}

/* The line and column (0-based) of byte `offset` of the spec's text. */
static yaml_mark_t
offset_mark(const struct kgen_spec *s, size_t offset)
{
	yaml_mark_t m = { 0, 0, 0 };
	size_t i;

	for (i = 0; i < offset && i < s->text_len; i++) {
		if (s->text[i] == '\n') {
			m.line++;
			m.column = 0;
		} else if (((unsigned char)s->text[i] & 0xc0) != 0x80) {  /* a character, not a UTF-8 continuation */
			m.column++;
		}
	}
	m.index = offset;
	return m;
}

/* The family the spec names, into s->kernel before its keys are read: a
 * key's name is looked up among its family's keys, wherever `kernel:` is
 * written.  Only a plain `kernel: NAME` of the top mapping counts; anything
 * else leaves the default, and parse() reports what is wrong.  1 where the
 * text names a family (a key of another is then refused as it is read). */
static int
find_kernel(struct kgen_spec *s)
{
	yaml_parser_t parser;
	yaml_event_t ev;
	int depth = 0, key = 1, is_kernel = 0, done = 0, named = 0;
	long long v;
	char why[160];

	if (!yaml_parser_initialize(&parser))
		return 0;
	yaml_parser_set_input_string(&parser, (const unsigned char *)s->text, s->text_len);
	while (!done && yaml_parser_parse(&parser, &ev)) {
		done = ev.type == YAML_STREAM_END_EVENT || ev.type == YAML_DOCUMENT_END_EVENT ||
		       (depth == 0 && (ev.type == YAML_SCALAR_EVENT || ev.type == YAML_ALIAS_EVENT ||
		                       ev.type == YAML_SEQUENCE_START_EVENT));  /* no mapping: no kernel */
		if (depth == 1 && ev.type == YAML_SCALAR_EVENT) {
			const char *text = (const char *)ev.data.scalar.value;
			if (!key && is_kernel) {
				if (kgen_spec_parse_value(KGEN_KEY_kernel, text, &v, why, sizeof why) == KGEN_OK)
					s->kernel = v, named = 1;
				done = 1;
			}
			is_kernel = key && strcmp(text, "kernel") == 0;
			key = !key;
		} else if (depth == 1 && ev.type == YAML_ALIAS_EVENT) {
			is_kernel = 0;
			key = !key;
		} else if (ev.type == YAML_MAPPING_START_EVENT || ev.type == YAML_SEQUENCE_START_EVENT) {
			if (depth == 1)  /* a collection as a value: the next scalar is a key */
				key = 1, is_kernel = 0;
			if (++depth > MAX_FLOW_DEPTH)
				done = 1;
		} else if (ev.type == YAML_MAPPING_END_EVENT || ev.type == YAML_SEQUENCE_END_EVENT) {
			depth--;
		}
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&parser);
	return named;
}

/* Parse s->text into s with libyaml's event parser: the spec must be one
 * mapping of scalar keys to scalar values, in one document. */
static kgen_status
parse(struct kgen_spec *s, kgen_error *err)
{
	yaml_parser_t parser;
	yaml_event_t ev;
	yaml_mark_t start = { 0, 0, 0 };
	struct walk w;
	kgen_status st;
	int done = 0, nest = 0;

	if ((st = kgen_yaml_nesting(s->text, s->text_len, s->file, MAX_FLOW_DEPTH,
	                            "a spec is one mapping of keys to single values", err)) != KGEN_OK)
		return st;
	if (!yaml_parser_initialize(&parser))
		return kgen_fail(err, KGEN_ENOMEM, "out of memory starting the YAML parser");
	yaml_parser_set_input_string(&parser, (const unsigned char *)s->text, s->text_len);
	memset(&w, 0, sizeof w);
	w.named = find_kernel(s);
	while (!done) {
		if (!yaml_parser_parse(&parser, &ev)) {
			if (parser.error == YAML_MEMORY_ERROR)
				st = kgen_fail(err, KGEN_ENOMEM, "out of memory reading the spec's YAML");
			else if (parser.error == YAML_READER_ERROR)
				/* The reader gives a byte offset, not a mark: find its line and column. */
				st = error_at_mark(s, offset_mark(s, parser.problem_offset), err, "YAML: %s",
				                   parser.problem ? parser.problem : "unreadable input");
			else
				st = kgen_yaml_syntax_error(s->text, s->text_len, s->file, &parser, err);
			w.failed = st;
			break;
		}
		done = ev.type == YAML_STREAM_END_EVENT;
		if (!w.failed)
			w.failed = take_event(s, &w, &ev, err);
		/* Block collections nest without brackets ("- - - ..."): stop at the
		 * limit too, so that following a bad spec to its end stays cheap. */
		if (ev.type == YAML_SEQUENCE_START_EVENT || ev.type == YAML_MAPPING_START_EVENT) {
			if (++nest > MAX_FLOW_DEPTH && !w.failed)
				w.failed = error_at_mark(s, ev.start_mark, err, "YAML nested more than %d levels deep: a spec is "
				                         "one mapping of keys to single values", MAX_FLOW_DEPTH);
		} else if (ev.type == YAML_SEQUENCE_END_EVENT || ev.type == YAML_MAPPING_END_EVENT) {
			nest--;
		}
		yaml_event_delete(&ev);
		/* Nothing after a second document or a root that is no mapping can
		 * change the verdict: stop reading. */
		if (w.failed == KGEN_ENOMEM || nest > MAX_FLOW_DEPTH || w.docs > 1 ||
		    (w.root && w.root != YAML_MAPPING_START_EVENT))
			break;
	}
	free(w.key);
	yaml_parser_delete(&parser);
	if (w.failed)
		return w.failed;
	if (!w.root)
		return error_at_mark(s, start, err, "the spec is empty: expected at least 'kernel: reduce'");
	if (!s->pos[KGEN_KEY_kernel].line) {
		char allowed[128];
		kgen_key_allowed(KGEN_KEY_kernel, allowed, sizeof allowed);
		return error_at_mark(s, w.root_mark, err, "missing key 'kernel': expected %s", allowed);
	}
	return KGEN_OK;
}

/* Load from text that the spec takes ownership of. */
static kgen_status
load_text(char *text, size_t len, const char *name, kgen_spec **out, kgen_error *err)
{
	struct kgen_spec *s;
	kgen_status st;

	*out = NULL;
	if (!(s = calloc(1, sizeof *s))) {
		free(text);
		return kgen_fail(err, KGEN_ENOMEM, "out of memory");
	}
	s->text = text;
	s->text_len = len;
	if (!(s->file = kgen_strdup(name))) {
		kgen_spec_free(s);
		return kgen_fail(err, KGEN_ENOMEM, "out of memory");
	}
	kgen_spec_defaults(s);
	if ((st = parse(s, err)) != KGEN_OK || (st = kgen_spec_check(s, err)) != KGEN_OK ||
	    (kgen_take_internal(err) && (st = KGEN_EINTERNAL))) {
		kgen_spec_free(s);
		return st;
	}
	*out = s;
	return KGEN_OK;
}

kgen_status
kgen_spec_load_string(const char *yaml, size_t len, const char *name, kgen_spec **spec, kgen_error *err)
{
	char *text;

	if (spec)
		*spec = NULL;  /* on every failure, as kgen_spec_load_file() leaves it */
	if (!yaml || !spec)
		return kgen_fail(err, KGEN_EINVAL, "kgen_spec_load_string: NULL argument");
	if (len > KGEN_TEXT_MAX)
		return kgen_fail(err, KGEN_ESPEC, "%s: %zu bytes: a spec is at most %zu MiB", name ? name : "<string>", len,
		                 KGEN_TEXT_MAX >> 20);
	if (!(text = malloc(len + 1)))
		return kgen_fail(err, KGEN_ENOMEM, "out of memory");
	memcpy(text, yaml, len);
	text[len] = '\0';
	return load_text(text, len, name ? name : "<string>", spec, err);
}

kgen_status
kgen_spec_load_file(const char *path, kgen_spec **spec, kgen_error *err)
{
	char *text;
	size_t len;
	kgen_status st;

	if (!path || !spec)
		return kgen_fail(err, KGEN_EINVAL, "kgen_spec_load_file: NULL argument");
	*spec = NULL;  /* on every failure, as load_text() leaves it */
	if ((st = kgen_read_file(path, &text, &len, err)) != KGEN_OK)
		return st;
	return load_text(text, len, strcmp(path, "-") == 0 ? "<stdin>" : path, spec, err);
}
