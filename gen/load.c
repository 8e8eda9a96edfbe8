/*
 * load.c - read a spec's YAML with libyaml into a struct kgen_spec,
 * remembering where each key and value was written, then validate it.
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include <yaml.h>
#include "spec.h"


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

static const char *
node_kind(const yaml_node_t *n)
{
	switch (n->type) {
	case YAML_SEQUENCE_NODE: return "a list";
	case YAML_MAPPING_NODE: return "a mapping";
	default: return "a scalar";
	}
}

/* Take one `key: value` pair into the spec. */
static kgen_status
load_pair(struct kgen_spec *s, yaml_document_t *doc, yaml_node_pair_t *pair, kgen_error *err)
{
	yaml_node_t *kn = yaml_document_get_node(doc, pair->key);
	yaml_node_t *vn = yaml_document_get_node(doc, pair->value);
	const char *key, *val, *near;
	char why[160], allowed[256];
	struct kgen_pos *pos;
	long long v;
	int k;

	if (kn->type != YAML_SCALAR_NODE)
		return error_at_mark(s, kn->start_mark, err, "a key must be a plain name, not %s", node_kind(kn));
	key = (const char *)kn->data.scalar.value;
	if ((k = kgen_key_lookup(key)) < 0) {
		near = kgen_key_nearest(key);
		if (near)
			return error_at_mark(s, kn->start_mark, err, "unknown key '%s' (did you mean '%s'?)", key, near);
		return error_at_mark(s, kn->start_mark, err, "unknown key '%s'", key);
	}
	pos = &s->pos[k];
	if (pos->line)
		return error_at_mark(s, kn->start_mark, err, "duplicate key '%s' (first given on line %d)", key, pos->line);
	pos->line = (int)kn->start_mark.line + 1;
	pos->col = (int)kn->start_mark.column + 1;
	pos->vline = (int)vn->start_mark.line + 1;
	pos->vcol = (int)vn->start_mark.column + 1;
	if (vn->type != YAML_SCALAR_NODE)
		return error_at_mark(s, vn->start_mark, err, "%s: expected a single value, not %s", key, node_kind(vn));
	val = (const char *)vn->data.scalar.value;
	if (kgen_spec_parse_value((enum kgen_key)k, val, &v, why, sizeof why) != KGEN_OK) {
		kgen_key_allowed((enum kgen_key)k, allowed, sizeof allowed);
		near = kgen_keys[k].type == KT_ENUM ? kgen_key_nearest_value((enum kgen_key)k, val) : NULL;
		if (near)
			return error_at_mark(s, vn->start_mark, err, "%s: %s (did you mean '%s'?): expected %s",
			                     key, why, near, allowed);
		return error_at_mark(s, vn->start_mark, err, "%s: %s: expected %s", key, why, allowed);
	}
	*kgen_spec_field(s, (enum kgen_key)k) = v;
	if (k == KGEN_KEY_name)
		snprintf(s->name_text, sizeof s->name_text, "%s", val);
	return KGEN_OK;
}

/* Parse s->text into s; the spec must be one mapping of scalar keys to scalar values. */
static kgen_status
parse(struct kgen_spec *s, kgen_error *err)
{
	yaml_parser_t parser;
	yaml_document_t doc;
	yaml_node_t *root;
	yaml_node_pair_t *pair;
	yaml_mark_t start = { 0, 0, 0 };
	kgen_status st = KGEN_OK;

	if (!yaml_parser_initialize(&parser))
		return kgen_fail(err, KGEN_ENOMEM, "out of memory starting the YAML parser");
	yaml_parser_set_input_string(&parser, (const unsigned char *)s->text, s->text_len);
	if (!yaml_parser_load(&parser, &doc)) {
		yaml_mark_t m = parser.problem_mark;
		st = error_at_mark(s, m, err, "YAML: %s%s%s", parser.problem ? parser.problem : "syntax error",
		                   parser.context ? " " : "", parser.context ? parser.context : "");
		yaml_parser_delete(&parser);
		return st;
	}
	root = yaml_document_get_root_node(&doc);
	if (!root) {
		st = error_at_mark(s, start, err, "the spec is empty: expected at least 'kernel: reduce'");
		goto out;
	}
	if (root->type != YAML_MAPPING_NODE) {
		st = error_at_mark(s, root->start_mark, err, "a spec is a mapping of keys to values, not %s", node_kind(root));
		goto out;
	}
	for (pair = root->data.mapping.pairs.start; pair < root->data.mapping.pairs.top; pair++)
		if ((st = load_pair(s, &doc, pair, err)) != KGEN_OK)
			goto out;
	if (!s->pos[KGEN_KEY_kernel].line) {
		char allowed[128];
		kgen_key_allowed(KGEN_KEY_kernel, allowed, sizeof allowed);
		st = error_at_mark(s, root->start_mark, err, "missing key 'kernel': expected %s", allowed);
	}
out:
	yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
	return st;
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
	if ((st = parse(s, err)) != KGEN_OK || (st = kgen_spec_check(s, err)) != KGEN_OK) {
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

	if (!yaml || !spec)
		return kgen_fail(err, KGEN_EINVAL, "kgen_spec_load_string: NULL argument");
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
	if ((st = kgen_read_file(path, &text, &len, err)) != KGEN_OK)
		return st;
	return load_text(text, len, strcmp(path, "-") == 0 ? "<stdin>" : path, spec, err);
}
