/*
 * plan.c - size plans: which spec's kernel serves each n.
 *
 *   plan:
 *     - upto: 2^14        # n <= 16384
 *       spec:
 *         kernel: reduce
 *         threads: 1024
 *     - spec:             # every larger n
 *         kernel: reduce
 *
 * A matmul plan picks by shape instead: each entry but the last bounds any
 * of m, n and k (m_upto, n_upto, k_upto), and a call takes the first entry
 * whose bounds it is within (the last takes every other shape):
 *
 *   plan:
 *     - m_upto: 128       # m <= 128 and n <= 2048: a split kernel
 *       n_upto: 2048
 *       spec: ...
 *     - m_upto: 128       # m <= 128 otherwise
 *       spec: ...
 *     - spec: ...         # everything else
 *
 * Each entry's spec is loaded by the spec loader from a copy of the file in
 * which everything but that spec's mapping is blanked (newlines kept), so
 * that its errors point at the plan file's own lines and columns.
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include <yaml.h>
#include "family.h"
#include "yamlin.h"
#include "spec.h"

/* A plan nests a mapping, its list, an entry and its spec: 4 levels; the
 * spec's own loader allows 8, and so do plans. */
#define PLAN_DEPTH 8

struct kgen_plan {
	char *file;
	int n;
	struct {
		kgen_spec *spec;
		unsigned long long upto;  /* the largest n it serves; ~0 for the last */
		unsigned long long shape[3];  /* a matmul plan's: the largest m, n and k it serves; ~0 unbounded */
	} entry[KGEN_PLAN_MAX];
};

static kgen_status
error_at(kgen_error *err, const char *file, const char *text, size_t len, yaml_mark_t m, const char *fmt, ...)
	KGEN_PRINTF(6, 7);
static kgen_status
error_at(kgen_error *err, const char *file, const char *text, size_t len, yaml_mark_t m, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	kgen_vfail(err, KGEN_ESPEC, fmt, ap);
	va_end(ap);
	kgen_error_at(err, file, text, len, (int)m.line + 1, (int)m.column + 1);
	return KGEN_ESPEC;
}

static const char *
scalar(yaml_node_t *n)
{
	return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

int
kgen_plan_text_is_plan(const char *text, size_t len)
{
	yaml_parser_t p;
	yaml_event_t ev;
	int is = 0, done = 0, depth = 0, expect_key = 1, docs = 0;

	/* Asked of every file the CLI is given: linear, and no document built
	 * (a spec's own loader then says what is wrong with one). */
	if (len > KGEN_TEXT_MAX || kgen_yaml_nesting(text, len, "", PLAN_DEPTH, "", NULL) != KGEN_OK)
		return 0;
	if (!yaml_parser_initialize(&p))
		return 0;
	yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
	while (!done && yaml_parser_parse(&p, &ev)) {
		int open = ev.type == YAML_SEQUENCE_START_EVENT || ev.type == YAML_MAPPING_START_EVENT;
		int close = ev.type == YAML_SEQUENCE_END_EVENT || ev.type == YAML_MAPPING_END_EVENT;
		done = ev.type == YAML_STREAM_END_EVENT || (ev.type == YAML_DOCUMENT_START_EVENT && ++docs > 1) ||
		       (depth == 0 && (ev.type == YAML_SCALAR_EVENT || ev.type == YAML_SEQUENCE_START_EVENT));
		if (depth == 1 && (open || ev.type == YAML_SCALAR_EVENT || ev.type == YAML_ALIAS_EVENT)) {
			if (expect_key)  /* a key of the root mapping */
				done |= is = ev.type == YAML_SCALAR_EVENT && strcmp((const char *)ev.data.scalar.value, "plan") == 0;
			expect_key = !expect_key && !open;
		}
		if (open)
			depth++;
		else if (close && --depth == 1)
			expect_key = 1;
		done |= close && depth == 0;
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&p);
	return is;
}

/* Entry i's spec: the text of node `spec` alone, at its place in the file
 * (its line and column, so that errors point into the plan): an empty line
 * for each line before it, spaces before it on its own line, then the
 * node.  A copy no larger than the node and its place, not the whole plan
 * again for every entry. */
static kgen_status
load_entry(struct kgen_plan *pl, const char *text, size_t len, yaml_node_t *spec, kgen_error *err)
{
	size_t from = spec->start_mark.index, to = spec->end_mark.index, line = 0, i, n = 0;
	char *copy;
	kgen_status st;

	if (to > len)
		to = len;
	for (i = 0; i < from; i++)
		line = text[i] == '\n' ? i + 1 : line;  /* the start of the node's line */
	if (!(copy = malloc(spec->start_mark.line + (from - line) + (to - from) + 1)))
		return kgen_fail(err, KGEN_ENOMEM, "out of memory");
	for (i = 0; i < spec->start_mark.line; i++)
		copy[n++] = '\n';
	for (i = line; i < from; i++)
		copy[n++] = ' ';
	for (i = from; i < to; i++)
		copy[n++] = text[i];
	copy[n] = '\0';
	st = kgen_spec_load_string(copy, n, pl->file, &pl->entry[pl->n].spec, err);
	free(copy);
	return st;
}

/* Do a and b differ in key k?  Their values into va and vb either way. */
static int
differ(const kgen_spec *a, const kgen_spec *b, enum kgen_key k, char *va, char *vb, size_t n)
{
	const char *x = kgen_spec_get(a, kgen_keys[k].name, va, n), *y = kgen_spec_get(b, kgen_keys[k].name, vb, n);

	if (!x)
		snprintf(va, n, "(none)");
	if (!y)
		snprintf(vb, n, "(none)");
	return (x == NULL) != (y == NULL) || (x && strcmp(x, y));
}

/* The fields every entry of a plan (and every point of a tuning) must
 * share: the family, then the keys its `computes` lists (family.h). */
const char *
kgen_spec_computes_other(const kgen_spec *a, const kgen_spec *b, char *va, char *vb, size_t n)
{
	const enum kgen_key *k;

	if (differ(a, b, KGEN_KEY_kernel, va, vb, n))
		return kgen_keys[KGEN_KEY_kernel].name;
	for (k = kgen_family_of(a)->computes; k && *k != KGEN_KEY_COUNT; k++)
		if (differ(a, b, *k, va, vb, n))
			return kgen_keys[*k].name;
	return NULL;
}

/* "kernel, op, dtype, ...": the keys above for a spec of family f, for messages. */
static const char *
computes_text(const struct kgen_family *f, char *buf, size_t n)
{
	const enum kgen_key *k;
	size_t at = (size_t)snprintf(buf, n, "kernel");

	for (k = f->computes; k && *k != KGEN_KEY_COUNT && at < n; k++)
		at += (size_t)snprintf(buf + at, n - at, ", %s", kgen_keys[*k].name);
	return buf;
}

/* Every entry computes what the first does. */
static kgen_status
check_same(const struct kgen_plan *pl, int i, const char *text, size_t len, yaml_mark_t m, kgen_error *err)
{
	char a[256], b[256], keys[256];
	const char *key = kgen_spec_computes_other(pl->entry[0].spec, pl->entry[i].spec, a, b, sizeof a);

	if (key)
		return error_at(err, pl->file, text, len, m,
		                "entry %d has %s: %s, the first entry %s: %s: every spec of a plan must compute "
		                "the same (%s)", i + 1, key, b, key, a,
		                computes_text(kgen_family_of(pl->entry[0].spec), keys, sizeof keys));
	if (!kgen_family_takes_plans(kgen_family_of(pl->entry[i].spec)))
		return error_at(err, pl->file, text, len, m, "a plan's specs must be %s (plans by n, and matmul's by shape; "
		                "kernel: %s is sized by %s, which plans do not take yet)", kgen_plan_families(),
		                kgen_family_of(pl->entry[i].spec)->name, kgen_sizes[kgen_family_of(pl->entry[i].spec)->size].text);
	return KGEN_OK;
}

/* A matmul entry's bounds, in the order of struct kgen_plan's shape. */
static const char *const bound_keys[3] = { "m_upto", "n_upto", "k_upto" };

/* A bound's value: a count from 1 (16384, 16k, 2^14); `expected` says
 * what one is. */
static kgen_status
count_at(const struct kgen_plan *pl, const char *text, size_t len, yaml_node_t *node, const char *key,
         const char *expected, unsigned long long *out, kgen_error *err)
{
	const char *u = scalar(node);

	if (!u || kgen_parse_count(u, out) || !*out)
		return error_at(err, pl->file, text, len, node->start_mark, "%s: expected %s", key, expected);
	return KGEN_OK;
}

static kgen_status
load_entries(struct kgen_plan *pl, yaml_document_t *d, yaml_node_t *list, const char *text, size_t len,
             kgen_error *err)
{
	yaml_node_item_t *it;
	yaml_node_pair_t *kv;
	kgen_status st;

	if (list->type != YAML_SEQUENCE_NODE)
		return error_at(err, pl->file, text, len, list->start_mark,
		                "plan: expected a list of entries (- upto: N, spec: ...)");
	if (list->data.sequence.items.start == list->data.sequence.items.top)
		return error_at(err, pl->file, text, len, list->start_mark, "plan: the list is empty");
	for (it = list->data.sequence.items.start; it < list->data.sequence.items.top; it++) {
		yaml_node_t *e = yaml_document_get_node(d, *it), *spec = NULL, *upto = NULL, *bound[3] = { NULL };
		int last = it + 1 == list->data.sequence.items.top, b, bounded = 0;

		if (pl->n == KGEN_PLAN_MAX)
			return error_at(err, pl->file, text, len, e->start_mark, "a plan has at most %d entries",
			                KGEN_PLAN_MAX);
		if (e->type != YAML_MAPPING_NODE)
			return error_at(err, pl->file, text, len, e->start_mark,
			                "expected an entry: a mapping of upto (the largest n it serves) and spec");
		for (kv = e->data.mapping.pairs.start; kv < e->data.mapping.pairs.top; kv++) {
			yaml_node_t *k = yaml_document_get_node(d, kv->key), *v = yaml_document_get_node(d, kv->value);
			const char *key = scalar(k);
			yaml_node_t **slot = NULL;

			if (key && strcmp(key, "spec") == 0)
				slot = &spec;
			else if (key && strcmp(key, "upto") == 0)
				slot = &upto;
			for (b = 0; b < 3 && !slot; b++)
				if (key && strcmp(key, bound_keys[b]) == 0)
					slot = &bound[b];
			if (!slot)
				return error_at(err, pl->file, text, len, k->start_mark, "unknown key '%s' in a plan entry "
				                "(expected upto and spec; a matmul plan's m_upto, n_upto, k_upto and spec)",
				                key ? key : "?");
			if (*slot)
				return error_at(err, pl->file, text, len, k->start_mark, "duplicate key '%s'", key);
			*slot = v;
		}
		if (!spec)
			return error_at(err, pl->file, text, len, e->start_mark, "the entry has no spec");
		if (spec->type != YAML_MAPPING_NODE)
			return error_at(err, pl->file, text, len, spec->start_mark, "spec: expected a mapping (the spec's keys)");
		if ((st = load_entry(pl, text, len, spec, err)))
			return st;
		pl->n++;  /* (freed with the plan from here on) */
		pl->entry[pl->n - 1].upto = ~0ull;
		for (b = 0; b < 3; b++)
			pl->entry[pl->n - 1].shape[b] = ~0ull;
		if (kgen_family_of(pl->entry[pl->n - 1].spec)->size == KGEN_SIZE_MNK) {
			if (upto)
				return error_at(err, pl->file, text, len, upto->start_mark, "upto bounds n of a plan by n; a "
				                "matmul plan's entries bound m_upto, n_upto or k_upto");
			for (b = 0; b < 3; b++) {
				if (!bound[b])
					continue;
				if ((st = count_at(pl, text, len, bound[b], bound_keys[b], "the largest size it serves, a count "
				                   "such as 128, 4k or 2^12", &pl->entry[pl->n - 1].shape[b], err)))
					return st;
				bounded = 1;
			}
			if (last && bounded)
				return error_at(err, pl->file, text, len, e->start_mark,
				                "the last entry serves every other shape: drop its m_upto, n_upto and k_upto");
			if (!last && !bounded)
				return error_at(err, pl->file, text, len, e->start_mark,
				                "every entry but the last bounds the shapes it serves: m_upto, n_upto or k_upto");
		} else {
			for (b = 0; b < 3; b++)
				if (bound[b])
					return error_at(err, pl->file, text, len, bound[b]->start_mark, "%s bounds a matmul plan's "
					                "shapes; a plan of kernel: %s picks by n (upto)", bound_keys[b],
					                kgen_family_of(pl->entry[pl->n - 1].spec)->name);
			if (last && upto)
				return error_at(err, pl->file, text, len, upto->start_mark,
				                "the last entry serves every larger n: drop its upto");
			if (!last && !upto)
				return error_at(err, pl->file, text, len, e->start_mark,
				                "upto: every entry but the last says the largest n it serves");
			if (upto) {
				if ((st = count_at(pl, text, len, upto, "upto", "a count of elements such as 16384, 16k or 2^14",
				                   &pl->entry[pl->n - 1].upto, err)))
					return st;
				if (pl->n > 1 && pl->entry[pl->n - 1].upto <= pl->entry[pl->n - 2].upto)
					return error_at(err, pl->file, text, len, upto->start_mark,
					                "upto: %s is not above the entry before's %llu: list entries by rising n",
					                scalar(upto), pl->entry[pl->n - 2].upto);
			}
		}

		if ((st = check_same(pl, pl->n - 1, text, len, spec->start_mark, err)))
			return st;
	}
	return KGEN_OK;
}

kgen_status
kgen_plan_load_string(const char *text, size_t len, const char *name, kgen_plan **plan, kgen_error *err)
{
	struct kgen_plan *pl;
	yaml_parser_t p;
	yaml_document_t d;
	yaml_node_t *root, *list = NULL;
	yaml_node_pair_t *kv;
	kgen_status st = KGEN_OK;

	if (!text || !plan)
		return kgen_fail(err, KGEN_EINVAL, "kgen_plan_load_string: NULL argument");
	*plan = NULL;
	if (!(pl = calloc(1, sizeof *pl)) || !(pl->file = kgen_strdup(name ? name : "<plan>"))) {
		free(pl);
		return kgen_fail(err, KGEN_ENOMEM, "out of memory");
	}
	if (!yaml_parser_initialize(&p)) {
		kgen_plan_free(pl);
		return kgen_fail(err, KGEN_ENOMEM, "out of memory");
	}
	if (len > KGEN_TEXT_MAX) {
		st = kgen_fail(err, KGEN_ESPEC, "%s: %zu bytes: a plan is at most %zu MiB", pl->file, len, KGEN_TEXT_MAX >> 20);
		yaml_parser_delete(&p);
		kgen_plan_free(pl);
		return st;
	}
	/* Bounded first (nesting, one document, no tags, anchors or aliases),
	 * then loaded. */
	if ((st = kgen_yaml_nesting(text, len, pl->file, PLAN_DEPTH, "a plan is a list of entries of single values", err)) ||
	    (st = kgen_yaml_plain(text, len, pl->file, PLAN_DEPTH, "a plan", err))) {
		yaml_parser_delete(&p);
		kgen_plan_free(pl);
		return st;
	}
	yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
	if (!yaml_parser_load(&p, &d)) {
		st = error_at(err, pl->file, text, len, p.problem_mark, "%s", p.problem ? p.problem : "not YAML");
		yaml_parser_delete(&p);
		kgen_plan_free(pl);
		return st;
	}
	root = yaml_document_get_root_node(&d);
	if (!root || root->type != YAML_MAPPING_NODE) {
		yaml_mark_t m = root ? root->start_mark : p.mark;
		st = error_at(err, pl->file, text, len, m, "expected a plan: a mapping with the key plan");
	} else {
		for (kv = root->data.mapping.pairs.start; kv < root->data.mapping.pairs.top && !st; kv++) {
			yaml_node_t *k = yaml_document_get_node(&d, kv->key);
			const char *key = scalar(k);
			if (key && strcmp(key, "plan") == 0 && !list)
				list = yaml_document_get_node(&d, kv->value);
			else
				st = error_at(err, pl->file, text, len, k->start_mark, "%s key '%s' (a plan file has one key, plan)",
				              key && strcmp(key, "plan") == 0 ? "duplicate" : "unknown", key ? key : "?");
		}
		if (!st && !list)
			st = error_at(err, pl->file, text, len, root->start_mark, "expected the key plan");
		if (!st)
			st = load_entries(pl, &d, list, text, len, err);
	}
	yaml_document_delete(&d);
	yaml_parser_delete(&p);
	if (st) {
		kgen_plan_free(pl);
		return st;
	}
	*plan = pl;
	return KGEN_OK;
}

kgen_status
kgen_plan_load_file(const char *path, kgen_plan **plan, kgen_error *err)
{
	char *text;
	size_t len;
	kgen_status st;

	if (!path || !plan)
		return kgen_fail(err, KGEN_EINVAL, "kgen_plan_load_file: NULL argument");
	*plan = NULL;  /* on every failure, as kgen_plan_load_string() leaves it */
	if ((st = kgen_read_file(path, &text, &len, err)))
		return st;
	st = kgen_plan_load_string(text, len, path, plan, err);
	free(text);
	return st;
}

int
kgen_plan_count(const kgen_plan *plan)
{
	return plan ? plan->n : 0;
}

const kgen_spec *
kgen_plan_spec(const kgen_plan *plan, int i, unsigned long long *upto)
{
	if (!plan || i < 0 || i >= plan->n)
		return NULL;
	if (upto)
		*upto = plan->entry[i].upto;
	return plan->entry[i].spec;
}

int
kgen_plan_pick(const kgen_plan *plan, unsigned long long n)
{
	int i;

	if (!plan || !plan->n)
		return -1;
	for (i = 0; i < plan->n - 1 && n > plan->entry[i].upto; i++)
		;
	return i;
}

int
kgen_plan_shape(const kgen_plan *plan, int i, unsigned long long upto[3])
{
	if (!plan || i < 0 || i >= plan->n)
		return 0;
	if (upto)
		memcpy(upto, plan->entry[i].shape, sizeof plan->entry[i].shape);
	return kgen_family_of(plan->entry[i].spec)->size == KGEN_SIZE_MNK;
}

int
kgen_plan_pick_shape(const kgen_plan *plan, unsigned long long m, unsigned long long n, unsigned long long k)
{
	int i;

	if (!plan || !plan->n)
		return -1;
	for (i = 0; i < plan->n - 1; i++)
		if (m <= plan->entry[i].shape[0] && n <= plan->entry[i].shape[1] && k <= plan->entry[i].shape[2])
			break;
	return i;
}

void
kgen_plan_free(kgen_plan *plan)
{
	int i;

	if (!plan)
		return;
	for (i = 0; i < plan->n; i++)
		kgen_spec_free(plan->entry[i].spec);
	free(plan->file);
	free(plan);
}
