/* spec.c - the tables of spec.h expanded, and the small operations on a spec. */
#include "config.h"
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "family.h"
#include "expr.h"

#define ENUM_ENTRY(id, name, doc, ...) { name, doc },
const struct kgen_enum kgen_families[]      = { KGEN_FAMILIES(ENUM_ENTRY) { NULL, NULL } };
const struct kgen_enum kgen_ops[]           = { KGEN_OPS(ENUM_ENTRY) { NULL, NULL } };
const struct kgen_enum kgen_stages[]        = { KGEN_STAGES(ENUM_ENTRY) { NULL, NULL } };
const struct kgen_enum kgen_atomics[]       = { KGEN_ATOMICS(ENUM_ENTRY) { NULL, NULL } };
const struct kgen_enum kgen_launches[]      = { KGEN_LAUNCHES(ENUM_ENTRY) { NULL, NULL } };
const struct kgen_enum kgen_block_reduces[] = { KGEN_BLOCK_REDUCES(ENUM_ENTRY) { NULL, NULL } };
const struct kgen_enum kgen_warp_tails[]    = { KGEN_WARP_TAILS(ENUM_ENTRY) { NULL, NULL } };
const struct kgen_enum kgen_grids[]         = { KGEN_GRIDS(ENUM_ENTRY) { NULL, NULL } };
const struct kgen_enum kgen_layouts[]       = { KGEN_LAYOUTS(ENUM_ENTRY) { NULL, NULL } };
const struct kgen_enum kgen_methods[]       = { KGEN_METHODS(ENUM_ENTRY) { NULL, NULL } };
const struct kgen_enum kgen_swizzles[]      = { KGEN_SWIZZLES(ENUM_ENTRY) { NULL, NULL } };
const struct kgen_enum kgen_walks[]         = { KGEN_WALKS(ENUM_ENTRY) { NULL, NULL } };
const struct kgen_enum kgen_cache_hints[]   = { KGEN_CACHE_HINTS(ENUM_ENTRY) { NULL, NULL } };
const struct kgen_enum kgen_orders[]        = { KGEN_ORDERS(ENUM_ENTRY) { NULL, NULL } };
const struct kgen_enum kgen_load_hints[]    = { KGEN_LOAD_HINTS(ENUM_ENTRY) { NULL, NULL } };
const struct kgen_enum kgen_store_hints[]   = { KGEN_STORE_HINTS(ENUM_ENTRY) { NULL, NULL } };
const struct kgen_enum kgen_promotions[]    = { KGEN_PROMOTIONS(ENUM_ENTRY) { NULL, NULL } };
const struct kgen_enum kgen_axes[]          = { KGEN_AXES(ENUM_ENTRY) { NULL, NULL } };
const struct kgen_enum kgen_strategies[]    = { KGEN_STRATEGIES(ENUM_ENTRY) { NULL, NULL } };
const struct kgen_enum kgen_nans[]          = { KGEN_NANS(ENUM_ENTRY) { NULL, NULL } };
const struct kgen_enum kgen_mm_layouts[]    = { KGEN_MM_LAYOUTS(ENUM_ENTRY) { NULL, NULL } };
const struct kgen_enum kgen_maths[]         = { KGEN_MATHS(ENUM_ENTRY) { NULL, NULL } };
const struct kgen_enum kgen_stagings[]      = { KGEN_STAGINGS(ENUM_ENTRY) { NULL, NULL } };
const struct kgen_enum kgen_thread_maps[]   = { KGEN_THREAD_MAPS(ENUM_ENTRY) { NULL, NULL } };
const struct kgen_enum kgen_a_smems[]       = { KGEN_A_SMEMS(ENUM_ENTRY) { NULL, NULL } };
const struct kgen_enum kgen_producers[]     = { KGEN_PRODUCERS(ENUM_ENTRY) { NULL, NULL } };
const struct kgen_enum kgen_smem_layouts[]  = { KGEN_SMEM_LAYOUTS(ENUM_ENTRY) { NULL, NULL } };
const struct kgen_enum kgen_mm_stores[]     = { KGEN_MM_STORES(ENUM_ENTRY) { NULL, NULL } };
const struct kgen_enum kgen_clusters[]      = { KGEN_CLUSTERS(ENUM_ENTRY) { NULL, NULL } };
const struct kgen_enum kgen_schedules[]     = { KGEN_SCHEDULES(ENUM_ENTRY) { NULL, NULL } };
const struct kgen_enum kgen_mm_loads[]      = { KGEN_MM_LOADS(ENUM_ENTRY) { NULL, NULL } };
#undef ENUM_ENTRY

#define OP_INFO(id, name, doc, sync, atomic, pair, post, out, identity, multi) \
	{ sync, atomic, OP_ACC_##pair == OP_ACC_PAIR, OP_POST_##post, OP_OUT_##out, OP_ID_##identity, OP_MULTI_##multi },
const struct kgen_op_info kgen_op_info[KGEN_OP_COUNT] = { KGEN_OPS(OP_INFO) };
#undef OP_INFO

#define DTYPE_ENUM(id, name, ctype, size, cls) { name, ctype },
const struct kgen_enum kgen_dtypes[] = { KGEN_DTYPES(DTYPE_ENUM) { NULL, NULL } };
#undef DTYPE_ENUM
#define DTYPE_INFO(id, name, ctype, size, cls) { name, ctype, size, cls },
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
 * headers declare that a kernel file may meet; and what kgen's own files
 * declare at file scope (types, constants, helpers).  Sorted (strcmp). */
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
static const char *const reserved_kgen[] = {
	"A_BOX", "A_LBO", "A_LD", "A_REGS", "A_SBO", "A_STAGE", "A_TILE", "Acc", "BATCH", "BOX", "BUFFER", "BUFFERS",
	"BYTES", "B_BOX", "B_LBO", "B_LD", "B_REGS", "B_SBO", "B_STAGE", "B_TILE", "CHUNK", "CLUSTER_M", "CLUSTER_N", "CN",
	"CN_STRIDE", "COLS", "CONSUMERS", "CUtensorMap", "Chunk", "DST_LD", "FRAGS_M", "FRAGS_N", "Fragments", "GROUP",
	"ITEMS", "Index", "KSTEPS", "LANES", "LOADS", "MIN_BLOCKS", "MMA_M", "MMA_N", "N", "NO_INDEX", "Out", "OutPair",
	"PAD", "PENDING", "REGS", "RM", "RM_STRIDE", "ROWS", "ROWS_PER_BLOCK", "ROWS_PER_GROUP", "Results", "SPLIT_K",
	"STAGES", "Schedule",
	"T", "THREADS", "THREAD_M", "THREAD_N", "TILE", "TILE_COLS", "TILE_K", "TILE_M", "TILE_N", "TILE_ROWS", "TRANS",
	"TRANSPOSE", "Unit", "VEC", "VEC_A", "VEC_B", "Vec", "WARPS", "WARPS_N", "WARP_M", "WARP_N", "WG_M", "aligned_head",
	"atomic_combine", "block_reduce", "block_tile", "bulk_commit_group", "bulk_wait_group", "bulk_wait_group_read",
	"c_to_acc", "chain_end", "chain_fold", "chain_start", "cluster_sync", "combine", "combine_groups",
	"consumer_release", "consumer_wait", "cp_async",
	"cp_async_commit", "cp_async_wait", "epilogue", "fence_mbarrier_init", "fence_proxy_async_shared", "finish_tile",
	"first_unit", "fold", "identity", "issue_load", "k_range", "l2_evict_first", "lanes_reduce", "ldmatrix_x4",
	"let_next_kernel_start", "load_a", "load_b", "load_fragments", "load_one", "load_stage", "load_tile",
	"load_tile_inside", "load_vec", "map", "mbarrier_arrive", "mbarrier_arrive_cluster", "mbarrier_arrive_expect_tx",
	"mbarrier_init", "mbarrier_wait", "mma_16816", "multiply_fragments", "multiply_stage", "multiply_tile", "next_unit",
	"owner", "pair", "partial_slot", "post", "producer_acquire", "reduce_span", "result", "rows_by_lanes",
	"rows_by_vector", "run_start",
	"schedule", "setmaxnreg_dec", "setmaxnreg_inc", "smem", "smem_desc", "store", "store_c", "store_elements",
	"store_one", "store_pair", "store_result", "store_tile", "store_tile_tma", "store_vec", "store_warp", "swizzle_at",
	"swizzle_tma", "swizzled", "tile_origin", "tma_load_2d", "tma_load_2d_multicast", "tma_load_3d", "tma_result",
	"tma_store_2d", "tma_store_3d", "to_acc", "to_float", "to_out", "unit_at", "wait_for_previous_kernel",
	"warp_reduce", "warpgroup_sync", "wgmma", "wgmma_commit_group", "wgmma_fence", "wgmma_fence_operand",
	"wgmma_wait_group", "wmma_load_a", "wmma_load_b", "wmma_mma", "wmma_store",
};

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
	if (bsearch(name, reserved_kgen, KGEN_COUNT(reserved_kgen), sizeof *reserved_kgen, cmp_name))
		return "is a name kgen's generated code declares";
	return NULL;
}

/* Parse an enum name or a decimal integer for key k. */
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
	case KT_INT:
		/* Digits only, an optional '-' first, no leading zero, no blank or '+'. */
		errno = 0;
		v = strtoll(text, &end, 10);
		if (!*text || *end || errno ||
		    (!(text[0] == '-' ? text[1] >= '1' && text[1] <= '9' : text[0] >= '1' && text[0] <= '9') &&
		     strcmp(text, "0") != 0)) {
			snprintf(why, n, "'%s' is not a decimal integer", kgen_quote(text, q, sizeof q));
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
		if (reserved_why(text)) {
			snprintf(why, n, "'%s' %s", text, reserved_why(text));
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

int
kgen_key_lookup(const char *name)
{
	int k;

	for (k = 0; k < KGEN_KEY_COUNT; k++)
		if (strcmp(kgen_keys[k].name, name) == 0)
			return k;
	return -1;
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

/* The nearest allowed value of enum key k, for "did you mean" (none for
 * another type of key). */
static const char *
nearest_value(enum kgen_key k, const char *text)
{
	const char *names[32];
	size_t n = 0;
	const struct kgen_enum *e;

	for (e = kgen_keys[k].values; e && e->name && n < KGEN_COUNT(names); e++)
		names[n++] = e->name;
	return kgen_nearest_name(text, names, n);
}

/* "sum, min, max or prod" for the error messages; for the other types of
 * key, what a value is. */
void
kgen_key_allowed(enum kgen_key k, char *buf, size_t n)
{
	const struct kgen_key_info *key = &kgen_keys[k];
	const struct kgen_enum *e;
	size_t used = 0;

	if (!n)
		return;
	buf[0] = '\0';
	switch (key->type) {
	case KT_INT:
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
	case KT_ENUM:
		break;
	}
	for (e = key->values; e && e->name && used < n; e++) {
		const char *sep = e == key->values ? "" : e[1].name ? ", " : " or ";
		used += (size_t)snprintf(buf + used, n - used, "%s%s", sep, e->name);
	}
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

const char *
kgen_spec_get(const kgen_spec *spec, const char *key, char *buf, size_t size)
{
	int k;

	if (!spec || !key || !buf || !size || (k = kgen_key_lookup_for(spec->kernel, key)) < 0)
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
			near = kgen_key_nearest(keys[i]);
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
			kgen_key_allowed((enum kgen_key)k, allowed, sizeof allowed);
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
	return kgen_spec_set_many(spec, 1, &key, &value, err);
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
