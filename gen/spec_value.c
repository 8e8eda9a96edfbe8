/*
 * spec_value.c - a spec's values as text: a key's value parsed and checked
 * (an expression by expr_type.h, a name against the names kgen reserves),
 * the defaults, what a key allows for messages; and the public calls that
 * read a spec's values (kgen_spec_get, kgen_spec_dump) and set them, then
 * check the spec again (kgen_spec_set_many, kgen_spec_set).
 */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "family.h"
#include "expr_type.h"

/* A set's names, apart by commas (blanks around each allowed), to a mask:
 * each a value of the table but its first (none), which stands alone. */
static kgen_status
parse_set(const struct kgen_key_info *key, const char *text, long long *out, char *why, size_t n)
{
	const struct kgen_enum *e;
	long long mask = 0;
	const char *p = text;
	char name[64], q[176];

	{  /* none, blanks around it allowed as around the names */
		size_t skip = strspn(text, " "), len = strlen(key->values[0].name);
		if (strncmp(text + skip, key->values[0].name, len) == 0 && !text[skip + len + strspn(text + skip + len, " ")]) {
			*out = 0;
			return KGEN_OK;
		}
	}
	for (;;) {
		size_t len;
		while (*p == ' ')
			p++;
		for (len = 0; p[len] && p[len] != ',' && p[len] != ' '; len++)
			;
		if (!len || len >= sizeof name) {
			snprintf(why, n, "'%s' is not names apart by commas", kgen_quote(text, q, sizeof q));
			return KGEN_ESPEC;
		}
		memcpy(name, p, len);
		name[len] = '\0';
		for (e = key->values + 1; e->name && strcmp(e->name, name) != 0; e++)
			;
		if (!e->name) {
			snprintf(why, n, "unknown value '%s'%s", kgen_quote(name, q, sizeof q),
			         strcmp(name, key->values[0].name) == 0 ? " (it stands alone)" : "");
			return KGEN_ESPEC;
		}
		if (mask & 1LL << (e - key->values)) {
			snprintf(why, n, "'%s' is named twice", name);
			return KGEN_ESPEC;
		}
		mask |= 1LL << (e - key->values);
		p += len;
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		if (*p++ != ',') {
			snprintf(why, n, "'%s' is not names apart by commas", kgen_quote(text, q, sizeof q));
			return KGEN_ESPEC;
		}
	}
	*out = mask;
	return KGEN_OK;
}

void
kgen_set_format(enum kgen_key k, long long mask, char *buf, size_t n)
{
	const struct kgen_enum *e, *values = kgen_keys[k].values;
	size_t used = 0;

	if (!n)
		return;
	buf[0] = '\0';
	if (mask <= 0) {
		snprintf(buf, n, "%s", values[0].name);
		return;
	}
	for (e = values + 1; e->name && used < n; e++)
		if (mask & 1LL << (e - values))
			used += (size_t)snprintf(buf + used, n - used, "%s%s", used ? ", " : "", e->name);
}

/* Parse an enum name, a set of them or a decimal integer for key k. */
kgen_status
kgen_spec_parse_value(enum kgen_key k, const char *text, long long *out, char *why, size_t n)
{
	const struct kgen_key_info *key = &kgen_keys[k];
	const struct kgen_enum *e;
	char *end, q[176];
	long long v;
	size_t i;

	switch (key->type) {
	case KT_ENUM:
		for (e = key->values; e->name; e++)
			if (strcmp(e->name, text) == 0) {
				*out = e - key->values;
				return KGEN_OK;
			}
		snprintf(why, n, "unknown value '%s'", kgen_quote(text, q, sizeof q));
		return KGEN_ESPEC;
	case KT_SET:
		return parse_set(key, text, out, why, n);
	case KT_INT:
		/* Digits only, an optional '-' first, no leading zero, no blank or '+'. */
		errno = 0;
		v = strtoll(text, &end, 10);
		if (!*text || *end ||
		    (!(text[0] == '-' ? text[1] >= '1' && text[1] <= '9' : text[0] >= '1' && text[0] <= '9') &&
		     strcmp(text, "0") != 0)) {
			snprintf(why, n, "'%s' is not a decimal integer", kgen_quote(text, q, sizeof q));
			return KGEN_ESPEC;
		}
		if (errno) {  /* digits past a long long: out of every key's range */
			snprintf(why, n, "%s is out of range", kgen_quote(text, q, sizeof q));
			return KGEN_ESPEC;
		}
		if (v < key->min || v > key->max) {
			snprintf(why, n, "%lld is out of range", v);
			return KGEN_ESPEC;
		}
		*out = v;
		return KGEN_OK;
	case KT_NAME:
		/* A C identifier, checked here; the text itself is kept by the caller. */
		for (i = 0; text[i]; i++)
			if (!(text[i] == '_' || (text[i] >= 'a' && text[i] <= 'z') || (text[i] >= 'A' && text[i] <= 'Z') ||
			      (i > 0 && text[i] >= '0' && text[i] <= '9')))
				break;
		if (i == 0 || text[i] || i >= 48) {
			snprintf(why, n, "'%s' is not a C identifier of at most 47 characters", kgen_quote(text, q, sizeof q));
			return KGEN_ESPEC;
		}
		if (kgen_name_reserved(text)) {
			snprintf(why, n, "'%s' %s", text, kgen_name_reserved(text));
			return KGEN_ESPEC;
		}
		*out = 1;
		return KGEN_OK;
	case KT_EXPR: {
		/* Parsed to be checked; the text itself is kept by the caller. */
		struct kgen_expr parsed;
		char what[160];
		size_t at;
		if (kgen_expr_parse(k, text, &parsed, &at, what, sizeof what) != KGEN_OK) {
			if (at < strlen(text))
				snprintf(why, n, "%s (at character %zu)", what, at + 1);
			else
				snprintf(why, n, "%s (at its end)", what);
			return KGEN_ESPEC;
		}
		*out = 1;
		return KGEN_OK;
	}
	}
	KGEN_ASSERT(!"bad key type");
	return KGEN_EINTERNAL;
}

/* Key k back to its default; -1 stands for "derived by kgen_spec_check()". */
static void
reset_default(struct kgen_spec *s, enum kgen_key k)
{
	long long *f = kgen_spec_field(s, k);
	char why[128];

	*f = -1;
	if (kgen_keys[k].def[0] && kgen_spec_parse_value(k, kgen_keys[k].def, f, why, sizeof why))
		KGEN_ASSERT(!"a default does not parse");
}

void
kgen_spec_defaults(struct kgen_spec *s)
{
	int k;

	for (k = 0; k < KGEN_KEY_COUNT; k++)
		reset_default(s, (enum kgen_key)k);
	s->name = 0;
	s->name_text[0] = '\0';
	for (k = 0; k < KGEN_KEY_COUNT; k++) {
		char *text = kgen_spec_expr(s, (enum kgen_key)k);
		if (text)
			snprintf(text, KGEN_EXPR_MAX + 1, "%s", kgen_keys[k].def);
	}
}

/* "sum, min, max or prod" for the error messages; for the other types of
 * key, what a value is. */
void
kgen_key_allowed(enum kgen_key k, char *buf, size_t n)
{
	kgen_key_allowed_of(k, ~0ull, buf, n);
}

void
kgen_key_allowed_for(long long kernel, enum kgen_key k, char *buf, size_t n)
{
	kgen_key_allowed_of(k, kernel >= 0 && kernel < KGEN_FAMILY_COUNT ?
	                           kgen_family_values(kgen_family((enum kgen_family_id)kernel), k) : ~0ull, buf, n);
}

/* The enum values of takes (bit v: value v) from the first on, "a, b or c"
 * ("a, b, c" for a set's). */
static void
list_values(const struct kgen_key_info *key, unsigned long long takes, int first, char *buf, size_t n, size_t *used)
{
	const struct kgen_enum *e;
	int count = 0, at = 0, v;

	for (e = key->values + first; e && e->name; e++)
		count += (takes & KGEN_BIT(e - key->values)) != 0;
	for (e = key->values + first; e && e->name && *used < n; e++) {
		v = (int)(e - key->values);
		if (!(takes & KGEN_BIT(v)))
			continue;
		at++;
		*used += (size_t)snprintf(buf + *used, n - *used, "%s%s",
		                          at == 1 ? "" : at == count && key->type != KT_SET ? " or " : ", ", e->name);
	}
}

int
kgen_int_run(enum kgen_key k, unsigned long long takes, long long *lo, long long *hi)
{
	const struct kgen_key_info *key = &kgen_keys[k];
	long long v, count = 0;

	*lo = *hi = -1;
	for (v = key->min; v <= key->max && v < 64; v++)
		if (takes & KGEN_BIT(v)) {
			if (*lo < 0)
				*lo = v;
			else if (v != *hi + 1)
				return 0;
			*hi = v;
			count++;
		}
	return count >= 3;
}

void
kgen_key_allowed_of(enum kgen_key k, unsigned long long takes, char *buf, size_t n)
{
	const struct kgen_key_info *key = &kgen_keys[k];
	size_t used = 0;

	if (!n)
		return;
	buf[0] = '\0';
	switch (key->type) {
	case KT_INT:
		if (takes && takes != ~0ull) {  /* the integers a family's row lists: "2, 4 or 8" */
			long long v, lo, hi;
			int count = 0, at = 0;
			if (kgen_int_run(k, takes, &lo, &hi)) {  /* a run of them: "an integer from 2 to 16" */
				snprintf(buf, n, "an integer from %lld to %lld", lo, hi);
				return;
			}
			for (v = key->min; v <= key->max && v < 64; v++)
				count += (takes & KGEN_BIT(v)) != 0;
			for (v = key->min; v <= key->max && v < 64 && used < n; v++)
				if (takes & KGEN_BIT(v))
					used += (size_t)snprintf(buf + used, n - used, "%s%lld", ++at == 1 ? "" : at == count ? " or " : ", ", v);
			return;
		}
		snprintf(buf, n, "an integer from %lld to %lld", key->min, key->max);
		return;
	case KT_NAME:
		snprintf(buf, n, "a C identifier of your own (no keyword, CUDA built-in or name kgen declares)");
		return;
	case KT_EXPR:
		if (k == KGEN_KEY_identity)
			snprintf(buf, n, "a C expression of no names (a constant)");
		else
			snprintf(buf, n, "a C expression of %s", kgen_expr_names(k));
		return;
	case KT_SET:
		list_values(key, takes, 1, buf, n, &used);
		if (used < n)
			snprintf(buf + used, n - used, " apart by commas, or %s", key->values[0].name);
		return;
	case KT_ENUM:
		list_values(key, takes, 0, buf, n, &used);
		return;
	}
}

/* Does YAML read text, written plain after "key: ", back as itself?  Not
 * when it is empty or has a space at either end, starts with an indicator
 * (-?: only before a space), or holds ": " or " #" (a mapping, a comment)
 * or a character a plain scalar cannot hold. */
static int
plain_yaml(const char *t)
{
	size_t n = strlen(t), i;

	if (!n || t[0] == ' ' || t[n - 1] == ' ' || t[n - 1] == ':')
		return 0;
	if (strchr(",[]{}#&*!|>'\"%@`", t[0]) || (strchr("-?:", t[0]) && (t[1] == ' ' || !t[1])))
		return 0;
	for (i = 0; i < n; i++)
		if ((unsigned char)t[i] < ' ' || t[i] == 0x7f || (t[i] == ':' && t[i + 1] == ' ') ||
		    (t[i] == '#' && i && t[i - 1] == ' '))
			return 0;
	return 1;
}

const char *
kgen_spec_yaml_value(const struct kgen_spec *s, enum kgen_key k, char *buf, size_t n)
{
	char text[KGEN_EXPR_MAX + 8];
	size_t used = 0;
	const char *p;

	kgen_spec_format_value(s, k, text, sizeof text);
	if (plain_yaml(text)) {
		snprintf(buf, n, "%s", text);
		return buf;
	}
	if (n < 3) {
		if (n)
			buf[0] = '\0';
		return buf;
	}
	buf[used++] = '\'';
	for (p = text; *p && used + 3 < n; p++) {  /* room for a doubled quote, the closing one and NUL */
		if (*p == '\'')
			buf[used++] = '\'';
		buf[used++] = *p;
	}
	buf[used++] = '\'';
	buf[used] = '\0';
	return buf;
}

/* ---- public API ---- */

const char *
kgen_spec_get(const kgen_spec *spec, const char *key, char *buf, size_t size)
{
	int k;

	/* A key of the language but not of the spec's family (op of a transpose) is
	 * unknown to this spec, as loading or setting it says. */
	if (!spec || !key || !buf || !size || (k = kgen_key_lookup_for(spec->kernel, key)) < 0 ||
	    !kgen_family_has_key(kgen_family_of(spec), (enum kgen_key)k))
		return NULL;
	return kgen_spec_format_value(spec, (enum kgen_key)k, buf, size);
}

kgen_status
kgen_spec_dump(const kgen_spec *spec, char **yaml)
{
	strbuf b;
	char buf[KGEN_EXPR_MAX + 8];
	const char *p;
	int k;

	if (!spec || !yaml)
		return KGEN_EINVAL;
	sb_init(&b);
	for (k = 0; k < KGEN_KEY_COUNT; k++) {
		if (!kgen_family_has_key(kgen_family_of(spec), (enum kgen_key)k))
			continue;
		/* The keys of some ops only (nan, the expressions) only where they apply. */
		if ((k == KGEN_KEY_nan || kgen_keys[k].type == KT_EXPR) && !kgen_key_applies(spec, (enum kgen_key)k))
			continue;
		/* A choice the rules left open where it means nothing (matmul's split_reduce at split_k 1). */
		if (kgen_keys[k].type == KT_ENUM && spec->kernel >= 0 && kgen_spec_value(spec, (enum kgen_key)k) < 0)
			continue;
		if (kgen_keys[k].type != KT_EXPR) {
			sb_printf(&b, "%s: %s\n", kgen_keys[k].name,
			          kgen_spec_format_value(spec, (enum kgen_key)k, buf, sizeof buf));
			continue;
		}
		/* An expression, single-quoted (a quote doubled). */
		sb_printf(&b, "%s: '", kgen_keys[k].name);
		for (p = kgen_spec_expr_text(spec, (enum kgen_key)k); *p; p++)
			sb_printf(&b, *p == '\'' ? "''" : "%c", *p);
		sb_puts(&b, "'\n");
	}
	if (!(*yaml = sb_take(&b)))
		return KGEN_ENOMEM;
	return KGEN_OK;
}

kgen_status
kgen_spec_set_many(kgen_spec *spec, int n, const char *const *keys, const char *const *values, kgen_error *err)
{
	struct kgen_spec saved;
	char why[160], allowed[256];
	const char *near;
	long long v, kernel;
	kgen_status st;
	int i, k, d;

	if (!spec || n < 0 || (n && (!keys || !values)))
		return kgen_fail(err, KGEN_EINVAL, "kgen_spec_set_many: NULL argument");
	for (i = 0; i < n; i++)
		if (!keys[i])
			return kgen_fail(err, KGEN_EINVAL, "kgen_spec_set_many: keys[%d] is NULL", i);
	saved = *spec;
	kernel = spec->kernel;
	/* Fields the spec left at their defaults are derived afresh (acc_dtype
	 * follows dtype, blocks_per_sm and threads follow what they depend on). */
	for (d = 0; d < KGEN_KEY_COUNT; d++)
		if (!spec->pos[d].line && kgen_keys[d].type != KT_NAME)
			reset_default(spec, (enum kgen_key)d);
	/* Names are looked up among the keys of the family the spec will have. */
	for (i = 0; i < n; i++)
		if (strcmp(keys[i], "kernel") == 0 && values[i] &&
		    kgen_spec_parse_value(KGEN_KEY_kernel, values[i], &v, why, sizeof why) == KGEN_OK)
			kernel = v;
	for (i = 0; i < n; i++) {
		if ((k = kgen_key_lookup_for(kernel, keys[i])) < 0) {
			near = kgen_key_nearest_for(kernel, keys[i]);
			st = kgen_fail(err, KGEN_ESPEC, "unknown key '%s'%s%s%s", keys[i], near ? " (did you mean '" : "",
			               near ? near : "", near ? "'?)" : "");
			goto fail;
		}
		if (!values[i] || !values[i][0]) {
			/* No value: the key as if the spec did not write it. */
			if (k == KGEN_KEY_kernel) {
				st = kgen_fail(err, KGEN_ESPEC, "kernel: every spec names its family; it cannot be unset");
				goto fail;
			}
			memset(&spec->pos[k], 0, sizeof spec->pos[k]);
			reset_default(spec, (enum kgen_key)k);
			if (k == KGEN_KEY_name) {
				spec->name = 0;
				spec->name_text[0] = '\0';
			}
			if (kgen_keys[k].type == KT_EXPR)
				snprintf(kgen_spec_expr(spec, (enum kgen_key)k), KGEN_EXPR_MAX + 1, "%s", kgen_keys[k].def);
			continue;
		}
		if (kgen_spec_parse_value((enum kgen_key)k, values[i], &v, why, sizeof why)) {
			if (!kgen_family_has_key(kgen_family((enum kgen_family_id)kernel), (enum kgen_key)k)) {
				st = kgen_fail(err, KGEN_ESPEC, "%s does not apply to kernel: %s", kgen_keys[k].name,
				               kgen_families[kernel].name);
				goto fail;
			}
			kgen_key_allowed_for(kernel, (enum kgen_key)k, allowed, sizeof allowed);
			near = kgen_keys[k].type == KT_ENUM ? kgen_key_nearest_value((enum kgen_key)k, values[i]) : NULL;
			st = kgen_fail(err, KGEN_ESPEC, "%s: %s%s%s%s: expected %s", keys[i], why, near ? " (did you mean '" : "",
			               near ? near : "", near ? "'?)" : "", allowed);
			goto fail;
		}
		*kgen_spec_field(spec, (enum kgen_key)k) = v;
		if (k == KGEN_KEY_name)
			snprintf(spec->name_text, sizeof spec->name_text, "%s", values[i]);
		if (kgen_keys[k].type == KT_EXPR)
			snprintf(kgen_spec_expr(spec, (enum kgen_key)k), KGEN_EXPR_MAX + 1, "%s", values[i]);
		/* Errors about this field point nowhere in the file. */
		memset(&spec->pos[k], 0, sizeof spec->pos[k]);
		spec->pos[k].line = -1;
	}
	if ((st = kgen_spec_check(spec, err)) == KGEN_OK)
		return KGEN_OK;
fail:
	*spec = saved;
	return st;
}

kgen_status
kgen_spec_set(kgen_spec *spec, const char *key, const char *value, kgen_error *err)
{
	if (!spec || !key)
		return kgen_fail(err, KGEN_EINVAL, "kgen_spec_set: NULL %s", spec ? "key" : "spec");
	return kgen_spec_set_many(spec, 1, &key, &value, err);
}
