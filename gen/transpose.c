/*
 * transpose.c - the transpose family: fill templates/transpose/smem.cu or
 * tma.cu from a spec's fields.
 */
#include "config.h"
#include <string.h>
#include "transpose.h"
#include "ptx.h"
#include "tpl.h"


unsigned long long
kgen_transpose_grid(const struct kgen_spec *s, unsigned long long rows, unsigned long long cols)
{
	unsigned long long tr = (unsigned long long)s->tile_rows, tc = (unsigned long long)s->tile_cols;
	unsigned long long ty = rows / tr + (rows % tr != 0), tx = cols / tc + (cols % tc != 0);

	return tx && ty > ~0ull / tx ? ~0ull : ty * tx;  /* no wrap: a grid too large to launch stays too large */
}

/* The launch contract: one kernel, its grid, and what TMA needs. */
static void
plan(const struct kgen_spec *s, struct kgen_contract *p)
{
	int tma = s->method == KGEN_METHOD_TMA;
	struct kgen_step *st;

	memset(p, 0, sizeof *p);
	kgen_contract_printf(p->title, sizeof p->title, "a transpose of %s through %s", s->r.dtype->name,
	                 tma ? "TMA and shared memory" : "shared memory");
	kgen_contract_printf(p->heading, sizeof p->heading, "Kernel (extern \"C\"), for a batch of rows x cols inputs:");
	st = kgen_contract_step(p, "", tma ? "in_map, out_map, rows, cols, batch" :
	                    "in, out, rows, cols, batch, in_pitch, out_pitch, in_stride, out_stride", "grid", s->threads);
	if (tma && kgen_transpose_dynamic_smem(s)) {
		st->dynamic_smem = kgen_transpose_dynamic_smem(s);
		kgen_contract_printf(st->note, sizeof st->note, "(dynamic shared memory:\n"
		                 "//   raise CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES first)");
	}
	if (tma) {
		if (s->buffers > 1)
			kgen_contract_note(p, "// where grid = min(batch x tiles, SMs x the blocks an SM holds), tiles = ceil(rows / %lld)\n"
			                  "// * ceil(cols / %lld);\n", s->tile_rows, s->tile_cols);
		else
			kgen_contract_note(p, "// where grid = {ceil(rows / %lld) * ceil(cols / %lld), min(batch, 65535), ceil(batch / 65535)};\n",
			               s->tile_rows, s->tile_cols);
		kgen_contract_note(p, "// in_map is a tensor map of `in` (dims {cols, rows, batch}, box {%lld, %lld, 1}) and out_map\n"
		                  "// one of `out` (dims {rows, cols, batch}, box {%lld, %lld, 1}), both %s swizzle\n"
		                  "// (cuTensorMapEncodeTiled; the row pitches and matrix strides go in the maps).\n",
		               s->tile_cols, s->tile_rows, s->tile_rows, s->tile_cols,
		               s->swizzle == KGEN_SWIZZLE_NONE ? "without" : s->swizzle == KGEN_SWIZZLE_B32 ? "with 32-byte" :
		               s->swizzle == KGEN_SWIZZLE_B64 ? "with 64-byte" : "with 128-byte");
		kgen_contract_note(p, "// TMA needs 16-byte aligned matrices whose pitches and strides are multiples of 16 bytes.");
	} else {
		kgen_contract_note(p, "// where grid = {ceil(rows / %lld) * ceil(cols / %lld), min(batch, 65535), ceil(batch / 65535)}.\n"
		                  "// Any rows and cols; pitches and strides in elements; `in` and `out` aligned to %lld bytes.",
		                  s->tile_rows, s->tile_cols, s->load_width);
	}
	if (s->index == 32 && !tma)
		kgen_contract_note(p, "\n// Index is 32-bit: every element offset is below 2^31.");
}

/* The transposing loop of the TMA kernels: which element each thread moves in step k. */
static const char rows_walk[] =
	"// Transpose: thread tid moves BATCH adjacent elements of row `row`.\n"
	"const int row = tid / (TILE_COLS / BATCH), col = tid % (TILE_COLS / BATCH) * BATCH;";
static const char diagonal_walk[] =
	"// Transpose along diagonals: warp w moves BATCH steps of one 32x32 sub-block;\n"
	"// in step k lane l moves (row l, column (l + k) mod 32), so the 32 reads and\n"
	"// the 32 writes of a step each fall in 32 different banks.\n"
	"const int lane = tid % 32, warp = tid / 32;\n"
	"const int sub = warp / (32 / BATCH), first = warp % (32 / BATCH) * BATCH;\n"
	"const int r = sub / (TILE_COLS / 32) * 32 + lane;";

static const char *
swizzle_mask(const struct kgen_spec *s)
{
	switch (s->swizzle) {
	case KGEN_SWIZZLE_B32: return "0x10";
	case KGEN_SWIZZLE_B64: return "0x30";
	default: return "0x70";
	}
}

/* Where block blockIdx.x's tile starts: x0 (column) and y0 (row), in the spec's order. */
static void
tile_origin(const struct kgen_spec *s, struct tpl_args *t)
{
	int tma = s->method == KGEN_METHOD_TMA;
	const char *type = tma ? "int" : "Index";
	const char *count = tma ? "unsigned int" : "Index";

	switch ((enum kgen_order)s->order) {
	case KGEN_ORDER_ROWS:
		if (tma)
			tpl_set(t, "tile_origin", "const unsigned int tiles_x = (cols + TILE_COLS - 1) / TILE_COLS;\n"
			                          "const int x0 = blockIdx.x %% tiles_x * TILE_COLS, y0 = blockIdx.x / tiles_x * TILE_ROWS;");
		else
			tpl_set(t, "tile_origin", "const Index tiles_x = (cols + TILE_COLS - 1) / TILE_COLS;\n"
			                          "const Index x0 = blockIdx.x %% tiles_x * TILE_COLS;  // the tile's first column\n"
			                          "const Index y0 = blockIdx.x / tiles_x * TILE_ROWS;  // and first row");
		return;
	case KGEN_ORDER_COLS:
		tpl_set(t, "tile_origin",
		        "// Consecutive blocks walk down a column of tiles, so that the blocks in\n"
		        "// flight write the same rows of `out`.\n"
		        "const %s tiles_y = (rows + TILE_ROWS - 1) / TILE_ROWS;\n"
		        "const %s x0 = blockIdx.x / tiles_y * TILE_COLS, y0 = blockIdx.x %% tiles_y * TILE_ROWS;",
		        count, type);
		return;
	case KGEN_ORDER_GROUPED:
	case KGEN_ORDER_HILBERT:  /* refused by only_with */
	case KGEN_ORDER_COUNT:
		break;
	}
	tpl_set(t, "tile_origin",
	        "// Consecutive blocks walk down a group of %lld tile rows before moving right,\n"
	        "// so that the blocks in flight read and write compact regions.\n"
	        "const %s tiles_x = (cols + TILE_COLS - 1) / TILE_COLS;\n"
	        "const %s tiles_y = (rows + TILE_ROWS - 1) / TILE_ROWS;\n"
	        "const %s group_y = blockIdx.x / (%lld * tiles_x) * %lld;  // the group's first tile row\n"
	        "const %s height = tiles_y - group_y < %lld ? tiles_y - group_y : %lld;\n"
	        "const %s in_group = blockIdx.x %% (%lld * tiles_x);\n"
	        "const %s x0 = in_group / height * TILE_COLS, y0 = (group_y + in_group %% height) * TILE_ROWS;",
	        s->group, count, count, count, s->group, s->group, count, s->group, s->group, count, s->group, type);
}

/* The raw type of one load_width-byte vector, which the cache-operator
 * intrinsics (__ldcs, __stcs, ...) take. */
static const char *
vec_word(long long bytes)
{
	switch (bytes) {
	case 2: return "unsigned short";
	case 4: return "unsigned int";
	case 8: return "uint2";
	default: return "uint4";
	}
}

/* The shared-memory method's global loads and stores with the spec's
 * cache operators (transpose/smem_access.cu): the intrinsic of each, none
 * for plain loads and stores. */
static kgen_status
smem_access(const struct kgen_spec *s, struct tpl_args *t, kgen_error *err)
{
	static const char *const load_fn[] = {
		[KGEN_LOAD_NONE] = "", [KGEN_LOAD_NC] = "__ldg", [KGEN_LOAD_CG] = "__ldcg",
		[KGEN_LOAD_CS] = "__ldcs", [KGEN_LOAD_LU] = "__ldlu",
	};
	static const char *const store_fn[] = {
		[KGEN_STORE_NONE] = "", [KGEN_STORE_CS] = "__stcs", [KGEN_STORE_CG] = "__stcg", [KGEN_STORE_WT] = "__stwt",
	};
	struct tpl_args a;

	tpl_init(&a);
	tpl_set(&a, "load_doc", "%s", kgen_load_hints[s->load_hint].doc);
	tpl_set(&a, "load", "%s", load_fn[s->load_hint]);
	tpl_set(&a, "store_doc", "%s", kgen_store_hints[s->store_hint].doc);
	tpl_set(&a, "store", "%s", store_fn[s->store_hint]);
	tpl_set(&a, "word", "%s", vec_word(s->load_width));
	return tpl_render_into(t, "access", "transpose/smem_access.cu", &a, err);
}

/* The TMA copies (templates/ptx/tma.cu's tma_load_3d and tma_store_3d), with the
 * spec's L2 cache policy when it has one. */
static void
tma_copies(const struct kgen_spec *s, struct tpl_args *t)
{
	int pipe = s->buffers > 1, hint = s->cache_hint == KGEN_HINT_EVICT_FIRST;
	const char *dst = pipe ? "dst" : "tile", *map = pipe ? "map" : "&in_map", *bar = pipe ? "bar" : "&loaded";
	const char *src = pipe ? "tile_t[buf]" : "tile_t";
	const char *policy = "// Read and written once: ask L2 to evict these bytes first.\n";

	tpl_set(t, "load_copy", "%stma_load_3d(%s, %s, x0, y0, z, %s%s);", hint ? policy : "", dst, map, bar,
	        hint ? ", l2_evict_first()" : "");
	tpl_set(t, "store_copy", "%stma_store_3d(&out_map, y0, x0, z, %s%s);", hint ? policy : "", src,
	        hint ? ", l2_evict_first()" : "");
}

/* The TMA kernels' PTX helpers (templates/ptx/), with the spec's L2 cache
 * policy's copies when it has one. */
static kgen_status
ptx_helpers(const struct kgen_spec *s, struct tpl_args *t, kgen_error *err)
{
	int hint = s->cache_hint == KGEN_HINT_EVICT_FIRST;
	struct kgen_ptx p = {
		.uses = KGEN_PTX_BIT(smem) | KGEN_PTX_BIT(mbarrier_init) | KGEN_PTX_BIT(fence_mbarrier_init) |
		        KGEN_PTX_BIT(mbarrier_arrive_expect_tx) | KGEN_PTX_BIT(mbarrier_wait) | KGEN_PTX_BIT(tensor_map) |
		        KGEN_PTX_BIT(fence_proxy_async_shared) | KGEN_PTX_BIT(bulk_commit_group) |
		        KGEN_PTX_BIT(bulk_wait_group_read) |
		        (hint ? KGEN_PTX_BIT(l2_evict_first) | KGEN_PTX_BIT(tma_load_3d_hint) | KGEN_PTX_BIT(tma_store_3d_hint)
		              : KGEN_PTX_BIT(tma_load_3d) | KGEN_PTX_BIT(tma_store_3d)),
	};

	return kgen_ptx_render_into(t, "ptx", &p, err);
}

static kgen_status
emit(const struct kgen_spec *s, const char *header, strbuf *out, kgen_error *err)
{
	const struct kgen_dtype_info *dt = s->r.dtype;
	struct tpl_args t;
	kgen_status st;
	int tma = s->method == KGEN_METHOD_TMA;

	tpl_init(&t);
	tpl_set(&t, "header", "%s", header);
	tpl_set(&t, "name", "%s", kgen_spec_kernel_name(s));
	tpl_set(&t, "dtype", "%s", dt->name);
	tpl_set(&t, "t_ctype", "%s", dt->ctype);
	tpl_set(&t, "tile_rows", "%lld", s->tile_rows);
	tpl_set(&t, "tile_cols", "%lld", s->tile_cols);
	tpl_set(&t, "threads", "%lld", s->threads);
	tpl_set(&t, "batch", "%lld", s->batch);
	if (s->buffers == 1)
		tile_origin(s, &t);
	if (tma) {
		const char *k = "b";  /* the batch loop's counter */

		tma_copies(s, &t);
		if ((st = ptx_helpers(s, &t, err))) {
			tpl_free(&t);
			return st;
		}
		if (s->buffers > 1)
			;  /* the pipelined template declares its BUFFERS tiles (static shared memory only) */
		else if (kgen_transpose_dynamic_smem(s))
			tpl_set(&t, "tiles_decl",
			        "// The tiles take %lld bytes, over the 48 KB of static shared memory: they\n"
			        "// live in dynamic shared memory, from its first 1024-byte boundary.\n"
			        "extern __shared__ unsigned char dynamic_smem[];\n"
			        "T *const tile = reinterpret_cast<T *>(dynamic_smem + (-smem(dynamic_smem) & 1023));  // as loaded\n"
			        "T *const tile_t = tile + TILE_ROWS * TILE_COLS;  // to store",
			        kgen_transpose_dynamic_smem(s) - 1024);
		else
			tpl_set(&t, "tiles_decl",
			        "__shared__ alignas(1024) T tile[TILE_ROWS * TILE_COLS];    // as loaded: TILE_ROWS rows\n"
			        "__shared__ alignas(1024) T tile_t[TILE_COLS * TILE_ROWS];  // to store: TILE_COLS rows");
		if (s->walk == KGEN_WALK_DIAGONAL) {
			tpl_set(&t, "swizzle_fn", "%s", "");
			tpl_set(&t, "walk", "%s", diagonal_walk);
			tpl_set(&t, "step", "const int c = sub %% (TILE_COLS / 32) * 32 + (lane + first + b) %% 32;");
			tpl_set(&t, "store_index", "c * TILE_ROWS + r");
			tpl_set(&t, "load_index", "r * TILE_COLS + c");
		} else if (s->swizzle == KGEN_SWIZZLE_NONE) {
			tpl_set(&t, "walk", "%s", rows_walk);
			tpl_set(&t, "step", "%s", "");
			tpl_set(&t, "swizzle_fn", "%s", "");
			tpl_set(&t, "store_index", "(col + %s) * TILE_ROWS + row", k);
			tpl_set(&t, "load_index", "row * TILE_COLS + col + %s", k);
		} else {
			tpl_set(&t, "walk", "%s", rows_walk);
			tpl_set(&t, "step", "%s", "");
			tpl_set(&t, "swizzle_fn",
			        "// Where element i of a tile lies under TMA's %s swizzle: the 16-byte chunk\n"
			        "// index (address bits 4 and up) is XORed with the bits from 7 up, so that\n"
			        "// a column of the tile spreads over the shared-memory banks.\n"
			        "static __device__ __forceinline__ int swizzled(int i)\n"
			        "{\n"
			        "    const int byte = i * (int)sizeof(T);\n"
			        "    return (byte ^ ((byte >> 3) & %s)) / (int)sizeof(T);\n"
			        "}\n", kgen_swizzles[s->swizzle].name, swizzle_mask(s));
			tpl_set(&t, "store_index", "swizzled((col + %s) * TILE_ROWS + row)", k);
			tpl_set(&t, "load_index", "swizzled(row * TILE_COLS + col + %s)", k);
		}
		if (s->buffers > 1) {
			tpl_set(&t, "buffers", "%lld", s->buffers);
			st = tpl_render(out, "transpose/tma_pipeline.cu", &t, err);
		} else {
			st = tpl_render(out, "transpose/tma.cu", &t, err);
		}
	} else {
		tpl_set(&t, "index", "%lld", s->index);
		tpl_set(&t, "index_ctype", "%s", s->index == 32 ? "unsigned int" : "unsigned long long");
		tpl_set(&t, "load_width", "%lld", s->load_width);
		tpl_set(&t, "vec", "%lld", s->load_width / dt->size);
		tpl_set(&t, "align", "%lld", s->load_width);
		tpl_set(&t, "pad", "%lld", s->pad);
		if ((st = smem_access(s, &t, err))) {
			tpl_free(&t);
			return st;
		}
		st = tpl_render(out, "transpose/smem.cu", &t, err);
	}
	return st;
}

/* Keys that apply only with another key's values. */
static const struct kgen_only_with only_with[] = {
	{ KGEN_KEY_walk, KGEN_KEY_method, KGEN_BIT(KGEN_METHOD_TMA),
	  "walk needs method: tma (the shared-memory path pads instead)" },
	{ KGEN_KEY_cache_hint, KGEN_KEY_method, KGEN_BIT(KGEN_METHOD_TMA), "cache_hint needs method: tma" },
	{ KGEN_KEY_l2_promotion, KGEN_KEY_method, KGEN_BIT(KGEN_METHOD_TMA), "l2_promotion needs method: tma" },
	{ KGEN_KEY_buffers, KGEN_KEY_method, KGEN_BIT(KGEN_METHOD_TMA),
	  "buffers needs method: tma (the shared-memory path moves one tile per block)" },
	{ KGEN_KEY_swizzle, KGEN_KEY_method, KGEN_BIT(KGEN_METHOD_TMA),
	  "swizzle needs method: tma (the shared-memory path pads instead)" },
	{ KGEN_KEY_load_width, KGEN_KEY_method, KGEN_BIT(KGEN_METHOD_SMEM),
	  "load_width has no effect with method: tma (the TMA unit moves whole tiles)" },
	{ KGEN_KEY_index, KGEN_KEY_method, KGEN_BIT(KGEN_METHOD_SMEM),
	  "index has no effect with method: tma (TMA coordinates are 32-bit)" },
	{ KGEN_KEY_pad, KGEN_KEY_method, KGEN_BIT(KGEN_METHOD_SMEM),
	  "pad has no effect with method: tma; use swizzle against bank conflicts" },
	{ KGEN_KEY_load_hint, KGEN_KEY_method, KGEN_BIT(KGEN_METHOD_SMEM),
	  "load_hint needs method: smem (TMA copies take cache_hint)" },
	{ KGEN_KEY_store_hint, KGEN_KEY_method, KGEN_BIT(KGEN_METHOD_SMEM),
	  "store_hint needs method: smem (TMA copies take cache_hint)" },
	{ KGEN_KEY_order, KGEN_KEY_buffers, KGEN_BIT(1), "order needs buffers: 1 (a pipelined block walks its own tiles)" },
	{ KGEN_KEY_order, KGEN_KEY_order,
	  KGEN_BIT(KGEN_ORDER_ROWS) | KGEN_BIT(KGEN_ORDER_COLS) | KGEN_BIT(KGEN_ORDER_GROUPED),
	  "order: {v} is matmul's; a transpose takes rows, cols or grouped" },
	{ KGEN_KEY_group, KGEN_KEY_order, KGEN_BIT(KGEN_ORDER_GROUPED), "group needs order: grouped, not {w}" },
	{ KGEN_KEY_group, KGEN_KEY_buffers, KGEN_BIT(1), "group needs buffers: 1 (a pipelined block walks its own tiles)" },
	{ KGEN_KEY_COUNT, KGEN_KEY_COUNT, 0, NULL },
};

static const enum kgen_key keys[] = {
	KGEN_KEY_kernel, KGEN_KEY_name, KGEN_KEY_dtype, KGEN_KEY_threads, KGEN_KEY_load_width, KGEN_KEY_index,
	KGEN_KEY_method, KGEN_KEY_tile_rows, KGEN_KEY_tile_cols, KGEN_KEY_batch, KGEN_KEY_swizzle, KGEN_KEY_walk,
	KGEN_KEY_buffers, KGEN_KEY_cache_hint, KGEN_KEY_l2_promotion, KGEN_KEY_order, KGEN_KEY_group, KGEN_KEY_pad,
	KGEN_KEY_load_hint, KGEN_KEY_store_hint, KGEN_KEY_COUNT,
};

/* The values that need a newer GPU (family.h). */
static const struct kgen_arch_need arch_needs[] = {
	{ KGEN_KEY_method, KGEN_BIT(KGEN_METHOD_TMA), 90, "the TMA unit and cluster barriers", "method: smem", 0 },
	{ .min_sm = 0 },
};

/* What a spec computes (family.h): plans' entries and tunings' points agree on it. */
static const enum kgen_key computes[] = {
	KGEN_KEY_dtype, KGEN_KEY_COUNT,
};

const struct kgen_family kgen_family_transpose = {
	.name = "transpose",
	.size = KGEN_SIZE_SHAPE,
	.keys = keys,
	.computes = computes,
	.only_with = only_with,
	.arch_needs = arch_needs,
	.check = kgen_transpose_check,
	.contract = plan,
	.emit = emit,
};
