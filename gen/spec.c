/*
 * spec.c - the tables of spec.h expanded, and the small operations on a
 * spec that need nothing above them: its fields, key names and the nearest
 * of them, the names a kernel may not take, an error at a key, a value
 * formatted.  A value parsed from text is spec_value.c's (an expression's
 * parse is above this file).
 */
#include "config.h"
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "spec.h"

#define ENUM_ENTRY(id, name, doc, ...) { name, doc, NULL },
const struct kgen_enum kgen_families[]      = { KGEN_FAMILIES(ENUM_ENTRY) { NULL, NULL, NULL } };
const struct kgen_enum kgen_ops[]           = { KGEN_OPS(ENUM_ENTRY) { NULL, NULL, NULL } };
const struct kgen_enum kgen_stages[]        = { KGEN_STAGES(ENUM_ENTRY) { NULL, NULL, NULL } };
const struct kgen_enum kgen_atomics[]       = { KGEN_ATOMICS(ENUM_ENTRY) { NULL, NULL, NULL } };
const struct kgen_enum kgen_launches[]      = { KGEN_LAUNCHES(ENUM_ENTRY) { NULL, NULL, NULL } };
const struct kgen_enum kgen_block_reduces[] = { KGEN_BLOCK_REDUCES(ENUM_ENTRY) { NULL, NULL, NULL } };
const struct kgen_enum kgen_warp_tails[]    = { KGEN_WARP_TAILS(ENUM_ENTRY) { NULL, NULL, NULL } };
const struct kgen_enum kgen_grids[]         = { KGEN_GRIDS(ENUM_ENTRY) { NULL, NULL, NULL } };
const struct kgen_enum kgen_row_ops[]       = { KGEN_ROW_OPS(ENUM_ENTRY) { NULL, NULL, NULL } };
const struct kgen_enum kgen_row_strategies[] = { KGEN_ROW_STRATEGIES(ENUM_ENTRY) { NULL, NULL, NULL } };
const struct kgen_enum kgen_scan_modes[]   = { KGEN_SCAN_MODES(ENUM_ENTRY) { NULL, NULL, NULL } };
const struct kgen_enum kgen_scan_strategies[] = { KGEN_SCAN_STRATEGIES(ENUM_ENTRY) { NULL, NULL, NULL } };
const struct kgen_enum kgen_block_scans[] = { KGEN_BLOCK_SCANS(ENUM_ENTRY) { NULL, NULL, NULL } };
const struct kgen_enum kgen_layouts[]       = { KGEN_LAYOUTS(ENUM_ENTRY) { NULL, NULL, NULL } };
const struct kgen_enum kgen_methods[]       = { KGEN_METHODS(ENUM_ENTRY) { NULL, NULL, NULL } };
const struct kgen_enum kgen_swizzles[]      = { KGEN_SWIZZLES(ENUM_ENTRY) { NULL, NULL, NULL } };
const struct kgen_enum kgen_walks[]         = { KGEN_WALKS(ENUM_ENTRY) { NULL, NULL, NULL } };
const struct kgen_enum kgen_cache_hints[]   = { KGEN_CACHE_HINTS(ENUM_ENTRY) { NULL, NULL, NULL } };
const struct kgen_enum kgen_orders[]        = { KGEN_ORDERS(ENUM_ENTRY) { NULL, NULL, NULL } };
const struct kgen_enum kgen_load_hints[]    = { KGEN_LOAD_HINTS(ENUM_ENTRY) { NULL, NULL, NULL } };
const struct kgen_enum kgen_store_hints[]   = { KGEN_STORE_HINTS(ENUM_ENTRY) { NULL, NULL, NULL } };
const struct kgen_enum kgen_promotions[]    = { KGEN_PROMOTIONS(ENUM_ENTRY) { NULL, NULL, NULL } };
const struct kgen_enum kgen_axes[]          = { KGEN_AXES(ENUM_ENTRY) { NULL, NULL, NULL } };
const struct kgen_enum kgen_strategies[]    = { KGEN_STRATEGIES(ENUM_ENTRY) { NULL, NULL, NULL } };
const struct kgen_enum kgen_nans[]          = { KGEN_NANS(ENUM_ENTRY) { NULL, NULL, NULL } };
const struct kgen_enum kgen_mm_layouts[]    = { KGEN_MM_LAYOUTS(ENUM_ENTRY) { NULL, NULL, NULL } };
const struct kgen_enum kgen_maths[]         = { KGEN_MATHS(ENUM_ENTRY) { NULL, NULL, NULL } };
const struct kgen_enum kgen_stagings[]      = { KGEN_STAGINGS(ENUM_ENTRY) { NULL, NULL, NULL } };
const struct kgen_enum kgen_thread_maps[]   = { KGEN_THREAD_MAPS(ENUM_ENTRY) { NULL, NULL, NULL } };
const struct kgen_enum kgen_a_smems[]       = { KGEN_A_SMEMS(ENUM_ENTRY) { NULL, NULL, NULL } };
const struct kgen_enum kgen_producers[]     = { KGEN_PRODUCERS(ENUM_ENTRY) { NULL, NULL, NULL } };
const struct kgen_enum kgen_smem_layouts[]  = { KGEN_SMEM_LAYOUTS(ENUM_ENTRY) { NULL, NULL, NULL } };
const struct kgen_enum kgen_mm_stores[]     = { KGEN_MM_STORES(ENUM_ENTRY) { NULL, NULL, NULL } };
const struct kgen_enum kgen_clusters[]      = { KGEN_CLUSTERS(ENUM_ENTRY) { NULL, NULL, NULL } };
const struct kgen_enum kgen_schedules[]     = { KGEN_SCHEDULES(ENUM_ENTRY) { NULL, NULL, NULL } };
const struct kgen_enum kgen_mm_loads[]      = { KGEN_MM_LOADS(ENUM_ENTRY) { NULL, NULL, NULL } };
const struct kgen_enum kgen_mm_biases[]     = { KGEN_MM_BIASES(ENUM_ENTRY) { NULL, NULL, NULL } };
const struct kgen_enum kgen_mm_residuals[]  = { KGEN_MM_RESIDUALS(ENUM_ENTRY) { NULL, NULL, NULL } };
const struct kgen_enum kgen_mm_reduces[]    = { KGEN_MM_REDUCES(ENUM_ENTRY) { NULL, NULL, NULL } };
const struct kgen_enum kgen_mm_unaligned[]  = { KGEN_MM_UNALIGNED(ENUM_ENTRY) { NULL, NULL, NULL } };
const struct kgen_enum kgen_mm_split_reduces[] = { KGEN_MM_SPLIT_REDUCES(ENUM_ENTRY) { NULL, NULL, NULL } };
const struct kgen_enum kgen_mm_scales[]     = { KGEN_MM_SCALES(ENUM_ENTRY) { NULL, NULL, NULL } };
const struct kgen_enum kgen_mm_fp8_accums[] = { KGEN_MM_FP8_ACCUMS(ENUM_ENTRY) { NULL, NULL, NULL } };
#undef ENUM_ENTRY

#define OP_INFO(id, name, doc, sync, atomic, pair, post, out, identity, multi) \
	{ sync, atomic, OP_ACC_##pair == OP_ACC_PAIR, OP_POST_##post, OP_OUT_##out, OP_ID_##identity, OP_MULTI_##multi },
const struct kgen_op_info kgen_op_info[KGEN_OP_COUNT] = { KGEN_OPS(OP_INFO) };
#undef OP_INFO

#define DTYPE_ENUM(id, name, ctype, size, cls, aliases) { name, ctype, aliases },
const struct kgen_enum kgen_dtypes[] = { KGEN_DTYPES(DTYPE_ENUM) { NULL, NULL, NULL } };
#undef DTYPE_ENUM
#define DTYPE_INFO(id, name, ctype, size, cls, aliases) { name, ctype, size, cls },
const struct kgen_dtype_info kgen_dtype_info[KGEN_DTYPE_COUNT] = { KGEN_DTYPES(DTYPE_INFO) };
#undef DTYPE_INFO

#define KEY_INFO(id, name, type, values, min, max, def, doc) { name, type, values, min, max, def, doc },
const struct kgen_key_info kgen_keys[KGEN_KEY_COUNT] = { KGEN_KEYS(KEY_INFO) };
#undef KEY_INFO

long long *
kgen_spec_field(struct kgen_spec *s, enum kgen_key k)
{
	switch (k) {
#define X(id, ...) case KGEN_KEY_##id: return &s->id;
	KGEN_KEYS(X)
#undef X
	default: break;
	}
	KGEN_ASSERT(!"unknown key");
	{
		static _Thread_local long long nowhere;  /* written to harmlessly; the call fails */
		return &nowhere;
	}
}

char *
kgen_spec_expr(struct kgen_spec *s, enum kgen_key k)
{
	switch (k) {
	case KGEN_KEY_map: return s->expr_text[0];
	case KGEN_KEY_combine: return s->expr_text[1];
	case KGEN_KEY_identity: return s->expr_text[2];
	case KGEN_KEY_post: return s->expr_text[3];
	case KGEN_KEY_epilogue: return s->expr_text[4];
	case KGEN_KEY_aux: return s->expr_text[5];
	default: return NULL;
	}
}

const char *
kgen_spec_expr_text(const struct kgen_spec *s, enum kgen_key k)
{
	return kgen_spec_expr((struct kgen_spec *)s, k);
}

long long
kgen_spec_value(const struct kgen_spec *s, enum kgen_key k)
{
	return *kgen_spec_field((struct kgen_spec *)s, k);
}

/* Names a kernel may not take: they would collide in the generated file.
 * C and C++ keywords; CUDA's built-in variables and the functions its
 * headers declare that a kernel file may meet (sorted, strcmp); and what
 * kgen's own files declare and call (generated, below). */
static const char *const reserved_keywords[] = {
	"alignas", "alignof", "and", "asm", "auto", "bool", "break", "case", "catch", "char", "class", "const",
	"constexpr", "continue", "decltype", "default", "delete", "do", "double", "else", "enum", "explicit", "export",
	"extern", "false", "float", "for", "friend", "goto", "if", "inline", "int", "long", "mutable", "namespace", "new",
	"noexcept", "not", "nullptr", "operator", "or", "private", "protected", "public", "register", "return", "short",
	"signed", "sizeof", "static", "struct", "switch", "template", "this", "throw", "true", "try", "typedef", "typeid",
	"typename", "union", "unsigned", "using", "virtual", "void", "volatile", "while", "xor",
};
static const char *const reserved_cuda[] = {
	"abort", "assert", "atomicAdd", "atomicAnd", "atomicCAS", "atomicExch", "atomicMax", "atomicMin", "atomicOr",
	"atomicSub", "atomicXor", "blockDim", "blockIdx", "dim3", "exit", "fabs", "fabsf", "fmax", "fmaxf", "fmin",
	"fminf", "free", "gridDim", "int2", "int4", "main", "malloc", "max", "memcpy", "memset", "min", "printf", "sqrt",
	"sqrtf", "std", "threadIdx", "uint2", "uint4", "warpSize",
};
/* reserved_declared[] and reserved_called[]: what kgen's own files declare
 * (types, constants, helpers) and what its templates call, generated at build
 * time from the templates and the emitters' sources by tools/reserved.sh. */
#include "gen/reserved.inc"

static int
cmp_name(const void *key, const void *elem)
{
	return strcmp(key, *(const char *const *)elem);
}

/* Why a C identifier cannot name a kernel, or NULL when it can. */
static const char *
reserved_why(const char *name)
{
	if (name[0] == '_' && (name[1] == '_' || (name[1] >= 'A' && name[1] <= 'Z')))
		return "is reserved to the compiler (it begins with __ or _ and a capital)";
	if (bsearch(name, reserved_keywords, KGEN_COUNT(reserved_keywords), sizeof *reserved_keywords, cmp_name))
		return "is a C++ keyword";
	if (bsearch(name, reserved_cuda, KGEN_COUNT(reserved_cuda), sizeof *reserved_cuda, cmp_name))
		return "is a CUDA built-in or a function its headers declare";
	if (bsearch(name, reserved_declared, KGEN_COUNT(reserved_declared), sizeof *reserved_declared, cmp_name))
		return "is a name kgen's generated code declares";
	if (bsearch(name, reserved_called, KGEN_COUNT(reserved_called), sizeof *reserved_called, cmp_name))
		return "is a function kgen's generated code calls";
	return NULL;
}

const char *
kgen_name_reserved(const char *name)
{
	return reserved_why(name);
}

int
kgen_key_lookup(const char *name)
{
	int k;

	for (k = 0; k < KGEN_KEY_COUNT; k++)
		if (strcmp(kgen_keys[k].name, name) == 0)
			return k;
	return -1;
}

/* Levenshtein distance, for "did you mean" (short strings only). */
static size_t
edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j, prev, cur, row[64];

	if (la >= KGEN_COUNT(row) || lb >= KGEN_COUNT(row))
		return (size_t)-1;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			cur = row[j];
			row[j] = prev + (a[i - 1] != b[j - 1]);
			if (row[j - 1] + 1 < row[j])
				row[j] = row[j - 1] + 1;
			if (cur + 1 < row[j])
				row[j] = cur + 1;
			prev = cur;
		}
	}
	return row[lb];
}

const char *
kgen_nearest_name(const char *name, const char *const *names, size_t n)
{
	const char *best = NULL;
	size_t d, bestd = (size_t)-1, i;

	for (i = 0; i < n; i++)  /* another case: "F32" for f32 */
		if (strcasecmp(name, names[i]) == 0)
			return names[i];
	for (i = 0; i < n; i++) {
		d = edit_distance(name, names[i]);
		if (d < bestd) {
			bestd = d;
			best = names[i];
		}
	}
	if (best && bestd <= 2 + strlen(name) / 4)
		return best;
	for (i = 0; i < n; i++)  /* a prefix, as in "items" for items_per_thread */
		if (strlen(name) >= 3 && strncmp(names[i], name, strlen(name)) == 0)
			return names[i];
	return NULL;
}

const char *
kgen_key_nearest(const char *name)
{
	const char *names[KGEN_KEY_COUNT];
	int k;

	for (k = 0; k < KGEN_KEY_COUNT; k++)
		names[k] = kgen_keys[k].name;
	return kgen_nearest_name(name, names, KGEN_KEY_COUNT);
}

/* Is word one of the space-separated words of list (in any case)? */
static int
is_alias(const char *word, const char *list)
{
	size_t len = strlen(word), w;

	for (; list && *list; list += w + (list[w] == ' ')) {
		w = strcspn(list, " ");
		if (w == len && strncasecmp(list, word, len) == 0)
			return 1;
	}
	return 0;
}

/* The nearest allowed value of enum key k, for "did you mean" (none for
 * another type of key): the value another tool's name stands for
 * ("float32" for f32, struct kgen_enum's aliases), else the nearest by
 * kgen_nearest_name(). */
static const char *
nearest_value(enum kgen_key k, const char *text)
{
	const char *names[32];
	size_t n = 0;
	const struct kgen_enum *e;

	for (e = kgen_keys[k].values; e && e->name; e++)
		if (is_alias(text, e->aliases))
			return e->name;
	for (e = kgen_keys[k].values; e && e->name && n < KGEN_COUNT(names); e++)
		names[n++] = e->name;
	return kgen_nearest_name(text, names, n);
}

const char *
kgen_key_nearest_value(enum kgen_key k, const char *text)
{
	return nearest_value(k, text);
}

kgen_status
kgen_spec_error(const struct kgen_spec *s, enum kgen_key k, int at_value, kgen_error *err, const char *fmt, ...)
{
	const struct kgen_pos *p = &s->pos[k];
	va_list ap;
	int line = 1, col = 1;

	va_start(ap, fmt);
	kgen_vfail(err, KGEN_ESPEC, fmt, ap);
	va_end(ap);
	if (!err)
		return KGEN_ESPEC;
	if (p->line < 0) {
		/* Set through kgen_spec_set(), not written in the file. */
		snprintf(err->file, sizeof err->file, "%s", s->file ? s->file : "");
		return KGEN_ESPEC;
	}
	if (p->line) {
		line = at_value && p->vline ? p->vline : p->line;
		col = at_value && p->vline ? p->vcol : p->col;
	} else if (s->pos[KGEN_KEY_kernel].line) {
		/* The key was left at its default: point at the spec's `kernel:` line. */
		line = s->pos[KGEN_KEY_kernel].line;
		col = s->pos[KGEN_KEY_kernel].col;
	}
	kgen_error_at(err, s->file, s->text, s->text_len, line, col);
	return KGEN_ESPEC;
}

const char *
kgen_spec_format_value(const struct kgen_spec *s, enum kgen_key k, char *buf, size_t n)
{
	const struct kgen_key_info *key = &kgen_keys[k];
	long long v = kgen_spec_value(s, k);

	if (k == KGEN_KEY_name)
		snprintf(buf, n, "%s", kgen_spec_kernel_name(s));
	else if (key->type == KT_EXPR)
		snprintf(buf, n, "%s", kgen_spec_expr_text(s, k));
	else if (key->type == KT_ENUM)
		snprintf(buf, n, "%s", v >= 0 ? key->values[v].name : "");
	else if (key->type == KT_SET)
		kgen_set_format(k, v, buf, n);
	else
		snprintf(buf, n, "%lld", v);
	return buf;
}

const struct kgen_dtype_info *
kgen_spec_dtype(const struct kgen_spec *s)
{
	return &kgen_dtype_info[s->dtype];
}

const struct kgen_dtype_info *
kgen_spec_acc(const struct kgen_spec *s)
{
	return &kgen_dtype_info[s->acc_dtype];
}

const char *
kgen_spec_kernel_name(const struct kgen_spec *s)
{
	return s->name_text;
}

/* ---- public API ---- */

const char *
kgen_version(void)
{
	return KGEN_VERSION;
}

const char *
kgen_status_name(kgen_status status)
{
	static const char *const names[] = {
		"KGEN_OK", "KGEN_ESPEC", "KGEN_EIO", "KGEN_ECOMPILE", "KGEN_ECUDA",
		"KGEN_EINVAL", "KGEN_ENOMEM", "KGEN_EVERIFY", "KGEN_EINTERNAL",
	};
	if ((unsigned)status < KGEN_COUNT(names))
		return names[status];
	return "KGEN_E?";
}

void
kgen_error_print(const kgen_error *err, FILE *fp)
{
	if (!err || !fp)
		return;
	if (err->line > 0) {
		fprintf(fp, "%s:%d:%d: error: %s\n", err->file, err->line, err->column, err->message);
		/* The line and a caret, when the column lies on the line kept (a
		 * source line is cut at 255 characters: no 10 MB caret line). */
		if (err->source_line[0] && err->column >= 1 && (size_t)err->column - 1 <= strlen(err->source_line)) {
			fprintf(fp, "  %s\n", err->source_line);
			fprintf(fp, "  %*s^\n", err->column - 1, "");
		}
	} else if (err->file[0]) {
		fprintf(fp, "%s: error: %s\n", err->file, err->message);
	} else {
		fprintf(fp, "kgen: error: %s\n", err->message);
	}
}

const char *
kgen_spec_source(const kgen_spec *spec)
{
	return spec ? spec->file : NULL;
}

void
kgen_spec_free(kgen_spec *spec)
{
	if (!spec)
		return;
	free(spec->file);
	free(spec->text);
	free(spec);
}

kgen_status
kgen_spec_copy(const kgen_spec *spec, kgen_spec **copy, kgen_error *err)
{
	kgen_spec *c;

	if (!spec || !copy)
		return kgen_fail(err, KGEN_EINVAL, "kgen_spec_copy: NULL argument");
	*copy = NULL;
	if (!(c = malloc(sizeof *c)))
		return kgen_fail(err, KGEN_ENOMEM, "out of memory");
	*c = *spec;  /* values, texts of names and expressions, what validation derived (pointers to tables) */
	c->file = spec->file ? kgen_strdup(spec->file) : NULL;
	c->text = spec->text ? malloc(spec->text_len + 1) : NULL;
	if ((spec->file && !c->file) || (spec->text && !c->text)) {
		kgen_spec_free(c);
		return kgen_fail(err, KGEN_ENOMEM, "out of memory");
	}
	if (c->text) {
		memcpy(c->text, spec->text, spec->text_len);
		c->text[spec->text_len] = '\0';
	}
	*copy = c;
	return KGEN_OK;
}
