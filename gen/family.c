/* family.c - the table of kernel families, and what every family shares:
 * its keys (which apply, a name looked up among them), the only-with
 * rules, the GPUs its rows need, the header comment from a plan. */
#include "config.h"
#include <ctype.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "family.h"

static const struct kgen_family *const families[KGEN_FAMILY_COUNT] = {
#define X(id, name, doc, stem) [KGEN_##id] = &kgen_family_##stem,
	KGEN_FAMILIES(X)
#undef X
};

const struct kgen_family *
kgen_family(enum kgen_family_id id)
{
	KGEN_ASSERT(id >= 0 && id < KGEN_FAMILY_COUNT);
	return families[id >= 0 && id < KGEN_FAMILY_COUNT ? id : 0];
}

const struct kgen_family *
kgen_family_of(const struct kgen_spec *s)
{
	return kgen_family((enum kgen_family_id)s->kernel);
}

const char *
kgen_multi_gpu_refusal(const struct kgen_spec *s)
{
	const struct kgen_family *f = kgen_family_of(s);

	if (!f->multi_gpu)
		return "only reduce and reduce_axis (axis: cols) kernels run over several GPUs";
	return f->multi_gpu(s);
}

int
kgen_family_has_key(const struct kgen_family *f, enum kgen_key k)
{
	const enum kgen_key *p;

	for (p = f->keys; *p != KGEN_KEY_COUNT; p++)
		if (*p == k)
			return 1;
	return 0;
}

/* Does row r hold for spec s? */
static int
row_holds(const struct kgen_spec *s, const struct kgen_only_with *r)
{
	long long v = kgen_spec_value(s, r->when);

	return v >= 0 && v < 64 && (r->values & KGEN_BIT(v)) != 0;
}

/* A key also does not apply where the spec's rules derived "none" for it: an
 * integer outside its range, which no spec can write (warp_m and warp_n are
 * 0 for math: simt without warp tiling).  The header comment, kgen diff and
 * the sample's coverage then leave it out, as they leave out an only-with
 * key, and every header's spec loads back. */
int
kgen_key_applies(const struct kgen_spec *s, enum kgen_key k)
{
	const struct kgen_family *f;
	const struct kgen_only_with *r;
	long long v;

	if (s->kernel < 0)
		return 1;
	f = kgen_family_of(s);
	if (!kgen_family_has_key(f, k))
		return 0;
	for (r = f->only_with; r && r->message; r++)
		if (r->key == k && !row_holds(s, r))
			return 0;
	if (kgen_keys[k].type == KT_INT && ((v = kgen_spec_value(s, k)) < kgen_keys[k].min || v > kgen_keys[k].max))
		return 0;
	if (kgen_keys[k].type == KT_EXPR && !*kgen_spec_expr_text(s, k))
		return 0;  /* an optional expression not given (matmul's aux) */
	if (kgen_keys[k].type == KT_ENUM && kgen_spec_value(s, k) < 0)
		return 0;  /* a choice the rules left open, as meaningless here (matmul's split_reduce at split_k 1) */
	return 1;
}

const char *
kgen_family_default(const struct kgen_family *f, enum kgen_key k)
{
	const struct kgen_key_default *d;

	for (d = f->defaults; d && d->key != KGEN_KEY_COUNT; d++)
		if (d->key == k)
			return d->text;
	return kgen_keys[k].def;
}

int
kgen_family_takes_fp8(const struct kgen_family *f, enum kgen_key k)
{
	const enum kgen_key *p;

	for (p = f->fp8_keys; p && *p != KGEN_KEY_COUNT; p++)
		if (*p == k)
			return 1;
	return 0;
}

unsigned long long
kgen_family_values(const struct kgen_family *f, enum kgen_key k)
{
	const struct kgen_key_info *key = &kgen_keys[k];
	const struct kgen_only_with *r;
	unsigned long long mask = 0;
	const struct kgen_enum *e;
	int self = 0;

	if (key->type == KT_ENUM || key->type == KT_SET) {
		for (e = key->values; e && e->name; e++)
			mask |= KGEN_BIT(e - key->values);
		if (key->values == kgen_dtypes && !kgen_family_takes_fp8(f, k))
			mask &= ~(KGEN_BIT(KGEN_DT_E4M3) | KGEN_BIT(KGEN_DT_E5M2));
	} else {
		mask = ~0ull;
	}
	for (r = f->only_with; r && r->message; r++)
		if (r->key == k && r->when == k) {
			mask &= r->values;
			self = 1;
		}
	return key->type == KT_INT && !self ? 0 : mask;
}

int
kgen_key_lookup_for(long long kernel, const char *name)
{
	const struct kgen_family *f;
	const enum kgen_key *k;

	if (kernel >= 0 && kernel < KGEN_FAMILY_COUNT && (f = kgen_family((enum kgen_family_id)kernel)))
		for (k = f->keys; *k != KGEN_KEY_COUNT; k++)
			if (strcmp(kgen_keys[*k].name, name) == 0)
				return (int)*k;
	return kgen_key_lookup(name);
}

const char *
kgen_key_nearest_for(long long kernel, const char *name)
{
	const char *names[KGEN_KEY_COUNT];
	const struct kgen_family *f;
	const enum kgen_key *k;
	size_t n = 0;

	if (kernel < 0 || kernel >= KGEN_FAMILY_COUNT || !(f = kgen_family((enum kgen_family_id)kernel)))
		return kgen_key_nearest(name);
	for (k = f->keys; *k != KGEN_KEY_COUNT && n < KGEN_COUNT(names); k++)
		names[n++] = kgen_keys[*k].name;
	return kgen_nearest_name(name, names, n);
}


/* The row's message with {v} and {w} replaced by the values. */
static void
expand(const struct kgen_spec *s, const struct kgen_only_with *r, char *out, size_t n)
{
	char v[KGEN_EXPR_MAX + 8], w[KGEN_EXPR_MAX + 8];
	const char *p;
	size_t used = 0;

	kgen_spec_format_value(s, r->key, v, sizeof v);
	kgen_spec_format_value(s, r->when, w, sizeof w);
	for (p = r->message; *p && used + 1 < n; p++) {
		const char *sub = p[0] == '{' && p[2] == '}' ? (p[1] == 'v' ? v : p[1] == 'w' ? w : NULL) : NULL;
		if (sub) {
			used += (size_t)snprintf(out + used, n - used, "%s", sub);
			if (used >= n)
				used = n - 1;
			p += 2;
		} else {
			out[used++] = *p;
		}
	}
	out[used] = '\0';
}

kgen_status
kgen_check_only_with(const struct kgen_spec *s, kgen_error *err)
{
	const struct kgen_only_with *r;
	char msg[512];

	for (r = kgen_family_of(s)->only_with; r && r->message; r++)
		if (s->pos[r->key].line && !row_holds(s, r)) {
			expand(s, r, msg, sizeof msg);
			return kgen_spec_error(s, r->key, 1, err, "%s", msg);
		}
	return KGEN_OK;
}

/* ---- the GPUs a spec needs: its family's arch_needs rows ---- */

/* The rows of the spec's family whose key applies and has a value that
 * needs them. */
static int
needs(const struct kgen_spec *s, const struct kgen_arch_need *r)
{
	return kgen_key_applies(s, r->key) && (r->values & KGEN_BIT(kgen_spec_value(s, r->key)));
}

int
kgen_spec_min_sm(const struct kgen_spec *s, char *buf, size_t n)
{
	const struct kgen_arch_need *r = kgen_family_of(s)->arch_needs;
	char value[64];
	size_t at = 0;
	int sm = 0;

	if (n)
		buf[0] = '\0';
	for (; r && r->min_sm; r++) {
		if (!needs(s, r))
			continue;
		if (r->min_sm > sm)
			sm = r->min_sm;
		if (at < n)
			at += (size_t)snprintf(buf + at, n - at, "%s%s: %s", at ? ", " : "", kgen_keys[r->key].name,
			                       kgen_spec_format_value(s, r->key, value, sizeof value));
	}
	return sm;
}

int
kgen_spec_arch_specific(const struct kgen_spec *s)
{
	const struct kgen_arch_need *r;

	for (r = kgen_family_of(s)->arch_needs; r && r->min_sm; r++)
		if (r->arch_specific && needs(s, r))
			return r->min_sm;
	return 0;
}

int
kgen_arch_number(const char *arch)
{
	const char *p = arch, *digits;

	if (!arch)
		return -1;
	if (strncmp(arch, "sm_", 3) == 0)
		p = arch + 3;
	else if (strncmp(arch, "compute_", 8) == 0)
		p = arch + 8;
	else
		return -1;
	for (digits = p; isdigit((unsigned char)*p); p++)
		;
	if (p - digits < 2 || p - digits > 4 || !(*p == '\0' || (p[0] == 'a' && p[1] == '\0')))
		return -1;
	return atoi(digits);
}

const char *
kgen_spec_compile_arch(const struct kgen_spec *s, const char *arch, char *buf, size_t n)
{
	size_t len;

	if (!s || !arch)
		return NULL;
	len = strlen(arch);
	/* Only the architecture the feature is specific to has an a form to
	 * take (sm_89 or sm_100 cannot run wgmma: arch itself, which
	 * kgen_spec_check_arch() refuses); a buffer that cannot hold it is no
	 * answer (sm_90 would compile, and fail to build, wgmma). */
	if (kgen_spec_arch_specific(s) != kgen_arch_number(arch) || (len && arch[len - 1] == 'a'))
		return arch;
	if (!buf || len + 2 > n)
		return NULL;
	snprintf(buf, n, "%sa", arch);
	return buf;
}

/* The oldest architecture each feature a spec may use needs: its family's
 * arch_needs rows (an arch_specific row's, that one alone). */
kgen_status
kgen_spec_check_arch(const kgen_spec *s, const char *arch, kgen_error *err)
{
	const struct kgen_arch_need *r;
	char value[64];
	int sm;

	if (!s || !arch)
		return kgen_fail(err, KGEN_EINVAL, "kgen_spec_check_arch: NULL argument");
	if ((sm = kgen_arch_number(arch)) < 0)
		return kgen_fail(err, KGEN_EINVAL, KGEN_ARCH_UNKNOWN, arch);
	for (r = kgen_family_of(s)->arch_needs; r && r->min_sm; r++) {
		if (!needs(s, r))
			continue;
		if (r->arch_specific && sm != r->min_sm)
			return kgen_spec_error(s, r->key, 1, err, "%s: %s needs sm_%da (%s), not %s: use %s",
			                       kgen_keys[r->key].name, kgen_spec_format_value(s, r->key, value, sizeof value),
			                       r->min_sm, r->why, arch, r->instead);
		if (sm < r->min_sm)
			return kgen_spec_error(s, r->key, 1, err, "%s: %s needs sm_%d or newer (%s), not %s: use %s",
			                       kgen_keys[r->key].name, kgen_spec_format_value(s, r->key, value, sizeof value),
			                       r->min_sm, r->why, arch, r->instead);
	}
	return KGEN_OK;
}

void
kgen_contract_printf(char *buf, size_t n, const char *fmt, ...)
{
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(buf, n, fmt, ap);
	va_end(ap);
	KGEN_ASSERT(len >= 0 && (size_t)len < n);
}

void
kgen_contract_note(struct kgen_contract *p, const char *fmt, ...)
{
	size_t used = strlen(p->notes);
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(p->notes + used, sizeof p->notes - used, fmt, ap);
	va_end(ap);
	KGEN_ASSERT(len >= 0 && (size_t)len < sizeof p->notes - used);
}

struct kgen_step *
kgen_contract_step(struct kgen_contract *p, const char *suffix, const char *args, const char *grid, long long block)
{
	struct kgen_step *st;

	KGEN_ASSERT(p->nsteps < KGEN_MAX_STEPS);
	if (p->nsteps >= KGEN_MAX_STEPS)
		p->nsteps = KGEN_MAX_STEPS - 1;  /* overwritten; the generation fails */
	st = &p->step[p->nsteps++];
	memset(st, 0, sizeof *st);
	kgen_contract_printf(st->suffix, sizeof st->suffix, "%s", suffix);
	kgen_contract_printf(st->args, sizeof st->args, "%s", args);
	kgen_contract_printf(st->grid, sizeof st->grid, "%s", grid);
	st->block = block;
	return st;
}

/* The spec's applicable fields as a comment block: each line, without its
 * "//   ", is YAML that loads back, so the block is a spec that makes this
 * file again (tests/roundtrip_test.sh). */
static void
emit_spec_comment(const struct kgen_spec *s, strbuf *b)
{
	char buf[2 * KGEN_EXPR_MAX + 8];
	int k;

	sb_puts(b, "// Spec, defaults filled in:\n");
	for (k = 0; k < KGEN_KEY_COUNT; k++)
		if (kgen_key_applies(s, (enum kgen_key)k))
			sb_printf(b, "//   %s: %s\n", kgen_keys[k].name,
			          kgen_spec_yaml_value(s, (enum kgen_key)k, buf, sizeof buf));
}

/* The spec's file name for the first line: its base name, kept only when
 * it is plain text (letters, digits, ".-_+"), so that no name can end the
 * comment; "a spec" otherwise. */
static void
file_label(const struct kgen_spec *s, char *out, size_t n)
{
	const char *file = s->file ? strrchr(s->file, '/') : NULL, *p;

	file = file ? file + 1 : s->file ? s->file : "";
	for (p = file; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		      strchr(".-_+<>", *p)))
			break;
	snprintf(out, n, "%s", *file && !*p && strlen(file) < n ? file : "a spec");
}

void
kgen_emit_header(const struct kgen_spec *s, const struct kgen_contract *p, strbuf *b)
{
	const char *name = kgen_spec_kernel_name(s);
	char file[128], needs[256];
	int i, sm;

	file_label(s, file, sizeof file);
	sb_printf(b, "// %s: %s, generated by kgen %s from %s.\n", name, p->title, KGEN_VERSION, file);
	sb_puts(b, "// Edit the spec, not this file.\n//\n");
	emit_spec_comment(s, b);
	if ((sm = kgen_spec_min_sm(s, needs, sizeof needs)) && kgen_spec_arch_specific(s))
		sb_printf(b, "//\n// Needs: sm_%da (%s).\n", sm, needs);
	else if (sm)
		sb_printf(b, "//\n// Needs: sm_%d or newer (%s).\n", sm, needs);
	sb_printf(b, "//\n// %s\n", p->heading);
	for (i = 0; i < p->nsteps; i++) {
		const struct kgen_step *st = &p->step[i];
		sb_puts(b, "//   ");
		if (p->numbered)
			sb_printf(b, "%d. ", i + 1);
		sb_printf(b, "%s%s(%s)  <<<%s, %lld", name, st->suffix, st->args, st->grid, st->block);
		if (st->dynamic_smem)
			sb_printf(b, ", %lld", st->dynamic_smem);
		sb_printf(b, ">>>%s%s\n", st->note[0] ? "  " : "", st->note);
	}
	sb_puts(b, p->notes);
}

const struct kgen_size_info kgen_sizes[KGEN_SIZE_COUNT] = {
#define X(id, text, plans, option) [KGEN_SIZE_##id] = { text, plans, option },
	KGEN_SIZES(X)
#undef X
};

int
kgen_family_takes_plans(const struct kgen_family *f)
{
	return kgen_sizes[f->size].plans;
}

/* The list, written once (pthread_once: a library of many threads' contexts
 * builds plans on any of them, and a reader of a half-written list saw its
 * first words). */
static char plan_families[256];

static void
list_plan_families(void)
{
	size_t at = 0;
	int f, n = 0, i = 0;

	for (f = 0; f < KGEN_FAMILY_COUNT; f++)
		n += kgen_family_takes_plans(kgen_family((enum kgen_family_id)f));
	for (f = 0; f < KGEN_FAMILY_COUNT; f++)  /* "kernel: reduce", "kernel: reduce or scan", "kernel: a, b or c" */
		if (kgen_family_takes_plans(kgen_family((enum kgen_family_id)f)) && at < sizeof plan_families)
			at += (size_t)snprintf(plan_families + at, sizeof plan_families - at, "%s%s",
			                       i++ == 0 ? "kernel: " : i == n ? " or " : ", ",
			                       kgen_family((enum kgen_family_id)f)->name);
}

const char *
kgen_plan_families(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, list_plan_families);
	return plan_families;
}
