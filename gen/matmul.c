/*
 * matmul.c - the matrix multiply family, `kernel: matmul`: C = alpha A B +
 * beta C, then the spec's epilogue, for A (m x k) and B (k x n) row- or
 * column-major with leading dimensions given at launch, C row-major.  Seed
 * 002's ladder (naive, coalesced, shared-memory tiles, 1D and 2D block
 * tiling, vector loads, warp tiling, tensor cores) is a choice of keys.
 * Its keys, launch contract and emitter; its rules are matmul_check.c's,
 * math: wgmma's part matmul_hopper.c's, templates/matmul/ holds the CUDA.
 */
#include "config.h"
#include <string.h>
#include "expr.h"
#include "expr_emit.h"
#include "matmul.h"
#include "matmul_hopper.h"
#include "ptx.h"
#include "tpl.h"

/* ---- the launch contract ---- */

static const char *const order_text[] = {
	[KGEN_ORDER_ROWS] = "rows: along a row of tiles, then the next row",
	[KGEN_ORDER_COLS] = "cols: down a column of tiles, then the next column",
	[KGEN_ORDER_GROUPED] = "grouped: down a group of `group` tile rows, then right",
	[KGEN_ORDER_HILBERT] = "hilbert: along a Hilbert curve through squares of `group` x `group` tiles",
};

static void
plan(const struct kgen_spec *s, struct kgen_contract *p)
{
	struct kgen_matmul g;
	struct kgen_step *st;
	const char *acc = s->r.acc->name;
	int stream_k = s->schedule == KGEN_SCHEDULE_STREAM_K;
	char ep[512];

	if (s->math == KGEN_MATH_WGMMA) {
		kgen_matmul_wgmma_contract(s, p, order_text[s->order]);
		return;
	}
	kgen_matmul_shape(s, &g);
	kgen_matmul_ep_note(s, ep, sizeof ep);
	memset(p, 0, sizeof *p);
	kgen_contract_printf(p->title, sizeof p->title, "C = alpha A B + beta C of %s on %s", s->r.dtype->name,
	                     s->math == KGEN_MATH_SIMT ? "CUDA cores" : "tensor cores");
	p->numbered = s->split_k > 1;
	kgen_contract_printf(p->heading, sizeof p->heading, "Kernel%s (extern \"C\")%s, for C (m x n, row-major) = alpha A (m x k) "
	                     "B (k x n) + beta C:", p->numbered || kgen_matmul_repacks(s) ? "s" : "",
	                     p->numbered ? ", launched in this order" : "");
	st = kgen_contract_step(p, "", g.tma ? "a_map, b_map, c, m, n, k, ldc, ep" : stream_k ? "a, b, c, m, n, k, "
	                        "lda, ldb, ldc, ep, aligned, partials, dp_tiles, sk_blocks" : "a, b, c, m, n, k, lda, "
	                        "ldb, ldc, ep, aligned, partials", "grid", s->threads);
	st->dynamic_smem = g.smem ? g.smem_bytes : 0;
	if (g.smem_bytes > 48 * 1024)
		kgen_contract_printf(st->note, sizeof st->note, "(dynamic shared memory:\n"
		                     "//   raise CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES first)");
	if (s->split_k > 1) {
		st = kgen_contract_step(p, "_reduce", "partials, c, m, n, ldc, ep", "grid2", 256);
		kgen_contract_printf(st->note, sizeof st->note, "adds the %lld splits in order", s->split_k);
	}
	if (g.tma) {  /* loads: tma: math: wgmma's maps, a block a tile */
		kgen_contract_note(p, "// where grid = ceil(m / %d) * ceil(n / %d); blocks take C's tiles in order\n// %s.\n", g.tm,
		                   g.tn, order_text[s->order]);
		kgen_matmul_map_notes(s, p);
		kgen_contract_note(p, "// so a and b must be 16-byte aligned and lda and ldb multiples of 8 elements (TMA's\n"
		                   "// 16-byte row pitches); with k = 0 a_map and b_map are not read.  C row-major\n"
		                   "// (c[i * ldc + j]), ldc in elements; m, n and k below 2^31, m and n from 1; TMA reads\n"
		                   "// zeros outside A and B.\n");
		kgen_contract_note(p, "%s", ep);
		kgen_matmul_repack_step(s, p);
		kgen_contract_note(p, "%s", kgen_matmul_repacks(s) ? "// Scratch: none (the copies go in a buffer the runtime keeps)."
		                                                     : "// Scratch: none.");
		return;
	}
	if (stream_k)
		kgen_contract_note(p, "// where tiles = ceil(m / %d) * ceil(n / %d), in order %s,\n"
		                   "// k_tiles = ceil(k / %d), and grid = dp_tiles + sk_blocks: blocks below dp_tiles take tile\n"
		                   "// blockIdx.x whole, the sk_blocks after them share the other tiles' k tiles evenly.  With S\n"
		                   "// the blocks the GPU holds at once, kgen_matmul takes sk_blocks = S and dp_tiles = tiles - S -\n"
		                   "// tiles %% S when tiles > S; dp_tiles = 0 and sk_blocks = min(S, tiles * k_tiles / %d) when\n"
		                   "// tiles < S and that is more than tiles; dp_tiles = tiles and sk_blocks = 0 (a block a tile)\n"
		                   "// when tiles %% S == 0, k_tiles < 2, (tiles - dp_tiles) * k_tiles * sk_blocks would reach\n"
		                   "// 2^31, or otherwise.\n", g.tm, g.tn, order_text[s->order], g.tk,
		                   KGEN_MATMUL_MIN_RUN);
	else
		kgen_contract_note(p, "// where grid = {ceil(m / %d) * ceil(n / %d), 1, %lld}; blocks take C's tiles in order\n"
		                   "// %s.\n", g.tm, g.tn, s->split_k, order_text[s->order]);
	kgen_contract_note(p, "// A is %s-major (element (i, l) at a[%s]), B %s-major (element (l, j) at b[%s]),\n"
	                   "// C row-major (c[i * ldc + j]); lda, ldb and ldc in elements; m, n and k below 2^31, any\n"
	                   "// from 1 (k from 0); nothing outside the matrices is read.\n",
	                   kgen_mm_layouts[s->a_layout].name, s->a_layout == KGEN_MM_ROW ? "i * lda + l" : "l * lda + i",
	                   kgen_mm_layouts[s->b_layout].name, s->b_layout == KGEN_MM_ROW ? "l * ldb + j" : "j * ldb + l");
	kgen_contract_note(p, "%s", ep);
	if (g.smem)
		kgen_contract_note(p, "// aligned: bit 0 set when a and lda keep A's %d-byte loads aligned (a %% %d == 0, lda %% %d\n"
		                   "// == 0), bit 1 the same for B and ldb; a clear bit loads that operand element by element.\n",
		                   g.vec_a * s->r.dtype->size, g.vec_a * s->r.dtype->size, g.vec_a);
	else
		kgen_contract_note(p, "// aligned: unused (one element at a time).\n");
	if (s->split_k > 1)
		kgen_contract_note(p, "// Scratch: partials, %lld x m x n %s (split z's sums at z * m * n); grid2 = ceil(m * n\n"
		                   "// / 256) or fewer.", s->split_k, acc);
	else if (stream_k)
		kgen_contract_note(p, "// Scratch: partials, 2 x sk_blocks x %d x %d %s (each stream-K block's sums of the tiles\n"
		                   "// its run starts and ends in), then tiles - dp_tiles 32-bit tickets set to 0 before each\n"
		                   "// launch (none when sk_blocks is 0).", g.tm, g.tn, acc);
	else
		kgen_contract_note(p, "// Scratch: none (partials unused).");
}

/* ---- the source ---- */

#define TRY(e) do { if ((st = (e)) != KGEN_OK) goto out; } while (0)

/* Where block blockIdx.x's tile of C starts, in the spec's order; with
 * `indexed`, where tile `tile` starts (math: wgmma's blocks and stream-K's
 * loop over tiles): tile_origin() of templates/matmul/tile_origin.cu, into
 * placeholder "tile_origin" of t. */
static kgen_status
tile_origin(const struct kgen_spec *s, int indexed, struct tpl_args *t, kgen_error *err)
{
	static const char *const how[] = {
		[KGEN_ORDER_ROWS] = "along a row of tiles, then the next row",
		[KGEN_ORDER_COLS] = "down a column of tiles, then the next",
		[KGEN_ORDER_GROUPED] = "down a group of GROUP tile rows, then right, so that the\n"
		                       "// blocks in flight share rows of A and columns of B in L2",
		[KGEN_ORDER_HILBERT] = "along a Hilbert curve through each square of GROUP x\n"
		                       "// GROUP tiles, the squares left to right in strips of GROUP tile rows (the curve\n"
		                       "// ends beside the next square's start), so that the blocks in flight share rows of\n"
		                       "// A and columns of B in L2 whatever their number; a strip's last, narrower square\n"
		                       "// and the last, shorter strip go down their rows, then right",
	};
	struct tpl_args o;

	tpl_init(&o);
	tpl_show(&o, "indexed", indexed);
	tpl_set(&o, "how", "%s", how[s->order]);
	tpl_set(&o, "tile", "%s", indexed ? "tile" : "blockIdx.x");
	tpl_show(&o, "rows", s->order == KGEN_ORDER_ROWS);
	tpl_show(&o, "cols", s->order == KGEN_ORDER_COLS);
	tpl_show(&o, "groups", s->order == KGEN_ORDER_GROUPED || s->order == KGEN_ORDER_HILBERT);
	tpl_show(&o, "grouped", s->order == KGEN_ORDER_GROUPED);
	tpl_show(&o, "hilbert", s->order == KGEN_ORDER_HILBERT);
	return tpl_render_into(t, "tile_origin", "matmul/tile_origin.cu", &o, err);
}

/* Placeholder `name` (a section too): v, or empty (the section hidden) when v is 0. */
static void
number_or_empty(struct tpl_args *t, const char *name, long long v)
{
	if (v)
		tpl_set(t, name, "%lld", v);
	else
		tpl_set(t, name, "%s", "");
}

/* The constants of a simt, wmma or mma kernel (templates/matmul/constants.cu),
 * into placeholder "constants" of file. */
static kgen_status
constants(const struct kgen_spec *s, const struct kgen_matmul *g, struct tpl_args *file, kgen_error *err)
{
	struct tpl_args t;
	kgen_status st;
	int a_k = g->a_rows == g->tk, b_k = g->b_rows == g->tk;  /* k down the tile's rows */

	tpl_init(&t);
	if ((st = kgen_matmul_group_constant(s, &t, err)) || (st = kgen_matmul_stages_constant(s, &t, err))) {
		tpl_free(&t);
		return st;
	}
	tpl_set(&t, "tm", "%d", g->tm);
	tpl_set(&t, "tn", "%d", g->tn);
	tpl_set(&t, "tk", "%d", g->tk);
	tpl_set(&t, "threads", "%lld", s->threads);
	number_or_empty(&t, "min_blocks", s->mm_blocks_per_sm);
	tpl_show(&t, "smem", g->smem);
	number_or_empty(&t, "split_k", s->split_k > 1 ? s->split_k : 0);
	tpl_show(&t, "tma", g->tma);
	tpl_set(&t, "vec_a", "%d", g->vec_a);
	tpl_set(&t, "vec_b", "%d", g->vec_b);
	tpl_set(&t, "load_width", "%lld", s->load_width);
	tpl_set(&t, "a_rows", "%d", g->a_rows);
	tpl_set(&t, "a_cols", "%d", a_k ? g->tm : g->tk);
	tpl_set(&t, "a_major", "%s", a_k ? "k-major" : "m-major");
	tpl_set(&t, "b_rows", "%d", g->b_rows);
	tpl_set(&t, "b_cols", "%d", b_k ? g->tn : g->tk);
	tpl_set(&t, "b_major", "%s", b_k ? "k-major" : "n-major");
	tpl_show(&t, "swizzled", g->swizzled);
	tpl_set(&t, "a_ld", "%d", g->a_ld);
	tpl_set(&t, "b_ld", "%d", g->b_ld);
	tpl_show(&t, "stages_2", s->mm_stages > 1);
	tpl_show(&t, "simt", !g->tensor);
	tpl_set(&t, "thread_m", "%lld", s->thread_m);
	tpl_set(&t, "thread_n", "%lld", s->thread_n);
	tpl_show(&t, "warptiling", g->warptiling);
	tpl_set(&t, "warp_m", "%lld", s->warp_m);
	tpl_set(&t, "warp_n", "%lld", s->warp_n);
	tpl_set(&t, "rm", "%d", g->rm);
	tpl_set(&t, "rm_stride", "%d", g->rm_stride);
	tpl_set(&t, "cn", "%d", g->cn);
	tpl_set(&t, "cn_stride", "%d", g->cn_stride);
	tpl_show(&t, "wmma", s->math == KGEN_MATH_WMMA);
	return tpl_render_into(file, "constants", "matmul/constants.cu", &t, err);
}

/* A conversion helper: fn from type dt (to Acc), or to_out to dt; `sm80`:
 * the kernel needs sm_80 anyway (tensor cores), so bf16 rounds by one cvt. */
static kgen_status
convert(struct tpl_args *parts, const char *fn, const struct kgen_dtype_info *dt, int to, int sm80, kgen_error *err)
{
	struct tpl_args t;
	const char *tpl;

	tpl_init(&t);
	if (dt->cls == DT_HALF)
		tpl = to ? "matmul/to_f16.cu" : "matmul/from_f16.cu";
	else if (dt->cls == DT_BHALF)
		tpl = to ? sm80 ? "matmul/to_bf16_cvt.cu" : "matmul/to_bf16.cu" : "matmul/from_bf16.cu";
	else
		tpl = to ? "matmul/to_float.cu" : "matmul/from_float.cu";
	if (!to) {
		tpl_set(&t, "fn", "%s", fn);
		if (dt->cls != DT_HALF && dt->cls != DT_BHALF)
			tpl_set(&t, "ctype", "%s", dt->ctype);
	}
	return tpl_render_into(parts, fn, tpl, &t, err);
}

/* Join the rendered parts into one placeholder's value, a blank line apart. */
static kgen_status
join(struct tpl_args *file, const char *name, struct tpl_args *parts, kgen_error *err)
{
	strbuf b;
	size_t i;
	kgen_status st = KGEN_OK;

	sb_init(&b);
	for (i = 0; i < parts->n; i++) {
		if (i)
			sb_puts(&b, "\n");
		sb_puts(&b, parts->v[i].value);
	}
	while (b.len && b.s[b.len - 1] == '\n')
		b.s[--b.len] = '\0';
	if (parts->failed || b.failed)
		st = kgen_fail(err, KGEN_ENOMEM, "out of memory");
	else
		tpl_set(file, name, "%s", b.s ? b.s : "");
	sb_free(&b);
	tpl_free(parts);
	return st;
}

/* load_a and load_b (load_tile.cu, load_tma.cu): each operand's layout,
 * and whether its tile is transposed on the way. */
static void
loads(const struct kgen_spec *s, const struct kgen_matmul *g, struct tpl_args *t)
{
	tpl_show(t, "a_row", s->a_layout == KGEN_MM_ROW);
	tpl_show(t, "b_row", s->b_layout == KGEN_MM_ROW);
	if (g->tma)
		return;
	tpl_set(t, "a_stored", "%s", !g->trans_a ? "" : s->a_layout == KGEN_MM_ROW ? ", stored k-major" : ", stored m-major");
	tpl_set(t, "trans_a", "%s", g->trans_a ? "true" : "false");
	tpl_set(t, "b_stored", "%s", g->trans_b ? ", stored k-major" : "");
	tpl_set(t, "trans_b", "%s", g->trans_b ? "true" : "false");
}

/* The PTX helpers (templates/ptx/) of a staging: smem kernel but math:
 * wgmma's: cp.async's copies (stages 2 and up), ldmatrix and mma.sync
 * (math: mma), TMA and mbarriers (loads: tma). */
static kgen_status
ptx_helpers(const struct kgen_spec *s, const struct kgen_matmul *g, struct tpl_args *parts, kgen_error *err)
{
	int async = s->mm_stages > 1 && !g->tma;
	struct kgen_ptx p = { .mma_type = s->r.dtype->cls == DT_HALF ? "f16" : "bf16" };

	if (async || g->tensor)
		p.uses |= KGEN_PTX_BIT(smem);
	if (async)
		p.uses |= KGEN_PTX_BIT(cp_async) | KGEN_PTX_BIT(cp_async_commit) | KGEN_PTX_BIT(cp_async_wait);
	if (g->tma)
		p.uses |= KGEN_PTX_BIT(tensor_map) | KGEN_PTX_BIT(mbarrier_init) | KGEN_PTX_BIT(fence_mbarrier_init) |
		          KGEN_PTX_BIT(mbarrier_arrive_expect_tx) | KGEN_PTX_BIT(mbarrier_arrive) |
		          KGEN_PTX_BIT(mbarrier_wait) | KGEN_PTX_BIT(tma_load_2d);
	if (s->math == KGEN_MATH_MMA)
		p.uses |= KGEN_PTX_BIT(ldmatrix_x4) | KGEN_PTX_BIT(mma_16816);
	return p.uses ? kgen_ptx_render_into(parts, "ptx", &p, err) : KGEN_OK;
}

/* The helpers of a staging: smem kernel: PTX, k_range, load_tile, load_a, load_b. */
static kgen_status
smem_helpers(const struct kgen_spec *s, const struct kgen_matmul *g, struct tpl_args *parts, kgen_error *err)
{
	struct tpl_args t;
	kgen_status st;
	int async = s->mm_stages > 1 && !g->tma, dtype_half = s->r.dtype->cls == DT_HALF;

	if ((st = ptx_helpers(s, g, parts, err)))
		return st;
	tpl_init(&t);
	if (s->math == KGEN_MATH_WMMA) {
		tpl_set(&t, "a_layout", "%s", s->a_layout == KGEN_MM_ROW ? "row" : "col");
		tpl_set(&t, "b_layout", "%s", s->b_layout == KGEN_MM_ROW ? "row" : "col");
		tpl_set(&t, "a_major", "%s", s->a_layout == KGEN_MM_ROW ? "row" : "column");
		tpl_set(&t, "b_major", "%s", s->b_layout == KGEN_MM_ROW ? "row" : "column");
		if ((st = tpl_render_into(parts, "wmma", dtype_half ? "matmul/wmma_f16.cu" : "matmul/wmma_bf16.cu", &t, err)))
			return st;
	} else if (s->math == KGEN_MATH_MMA) {
		if ((st = tpl_render_into(parts, "store_elements", "matmul/mma_store_elements.cu", &t, err)))
			return st;
		if (s->mm_store == KGEN_MM_STORE_PAIRS) {
			struct tpl_args pairs;

			tpl_init(&pairs);
			tpl_show(&pairs, "reductions", kgen_matmul_reduces(s));
			if ((st = tpl_render_into(&t, "pair_result", "matmul/pair_result.cu", &pairs, err)) ||
			    (st = tpl_render_into(parts, "store_warp", "matmul/mma_store_pairs.cu", &t, err)))
				return st;
		}
	}
	if (g->swizzled && (st = tpl_render_into(parts, "swizzle", g->tma ? "matmul/swizzle_tma.cu" : "matmul/swizzle.cu",
	                                         &t, err)))
		return st;
	if (s->schedule == KGEN_SCHEDULE_STREAM_K)
		st = tpl_render_into(parts, "stream_k", "matmul/stream_k.cu", &t, err);
	else
		st = tpl_render_into(parts, "k_range", s->split_k > 1 ? "matmul/k_range_split.cu" : "matmul/k_range_all.cu",
		                     &t, err);
	if (st)
		return st;
	tpl_init(&t);
	loads(s, g, &t);
	if (g->tma)
		return tpl_render_into(parts, "load_tile", "matmul/load_tma.cu", &t, err);
	tpl_set(&t, "how", "%s", async ? "cp.async" : "load and store");
	tpl_show(&t, "inside", async);  /* the copies of whole tiles without checks (stages 2 and up) */
	tpl_show(&t, "swizzled", g->swizzled);
	return tpl_render_into(parts, "load_tile", "matmul/load_tile.cu", &t, err);
}

/* The main loop of a staging: smem kernel, with its math's tile product
 * (multiply_tile's arguments by section: simt, wmma, mma); math: mma's
 * pipeline has its own (loop_mma.cu: fragments double-buffered across
 * tiles). */
static kgen_status
mainloop(const struct kgen_spec *s, struct tpl_args *k, kgen_error *err)
{
	struct tpl_args t;

	tpl_init(&t);
	if (s->math == KGEN_MATH_MMA && s->mm_stages > 1) {
		tpl_show(&t, "tma", kgen_matmul_loads_tma(s));
		return tpl_render_into(k, "mainloop", "matmul/loop_mma.cu", &t, err);
	}
	tpl_show(&t, "simt", s->math == KGEN_MATH_SIMT);
	tpl_show(&t, "wmma", s->math == KGEN_MATH_WMMA);
	tpl_show(&t, "mma", s->math == KGEN_MATH_MMA);
	return tpl_render_into(k, "mainloop", s->mm_stages > 1 ? "matmul/loop_async.cu" : "matmul/loop_sync.cu", &t, err);
}

/* The body of a simt or mma kernel, `tpl` (one tile's products, mainloop's,
 * and its results to C), into placeholder `tile` of kernel k; with
 * schedule: stream_k, inside the loop over the block's units (`units`).
 * k is freed on failure. */
static kgen_status
tile(const struct kgen_spec *s, const char *tpl, struct tpl_args *k, kgen_error *err)
{
	int stream_k = s->schedule == KGEN_SCHEDULE_STREAM_K;
	struct tpl_args t, loop;
	kgen_status st;

	tpl_init(&t);
	tpl_init(&loop);
	tpl_show(&t, "stream_k", stream_k);
	tpl_show(k, "stream_k", stream_k);
	if (s->math == KGEN_MATH_MMA) {
		tpl_show(&t, "pairs", s->mm_store == KGEN_MM_STORE_PAIRS);
		/* loads: tma's kernel takes no scratch (split_k 1, schedule: tiles) */
		tpl_set(&t, "partials", "%s", kgen_matmul_loads_tma(s) ? "nullptr" : "partials");
	}
	if ((st = mainloop(s, &t, err)))
		tpl_free(&t);
	else if (!stream_k)
		st = tpl_render_into(k, "tile", tpl, &t, err);
	else if (!(st = tpl_render_into(&loop, "tile", tpl, &t, err)))
		st = tpl_render_into(k, "units", "matmul/stream_k_loop.cu", &loop, err);
	if (st) {
		tpl_free(&loop);
		tpl_free(k);
	}
	return st;
}

/* The lines that name the operands expression key k reads, into
 * placeholder `name`: `const Acc bias = at.bias;` and the residual's. */
static void
operand_locals(const struct kgen_spec *s, enum kgen_key k, struct tpl_args *file, const char *name)
{
	unsigned used = kgen_matmul_names_used(s, k);

	int bias = (used & 1u << KGEN_V_BIAS) != 0, residual = (used & 1u << KGEN_V_RESIDUAL) != 0;

	tpl_set(file, name, "%s%s%s", bias ? "const Acc bias = at.bias;" : "", bias && residual ? "\n" : "",
	        residual ? "const Acc residual = at.residual;" : "");
}

/* The epilogue's operands (bias, residual): their types, the members of
 * struct Epilogue that carry them and the lines that read them. */
static kgen_status
operands(const struct kgen_spec *s, struct tpl_args *file, kgen_error *err)
{
	int bias = s->bias != KGEN_MM_BIAS_NONE, residual = s->residual != KGEN_MM_RESIDUAL_NONE;

	tpl_show(file, "bias", bias);
	tpl_show(file, "residual", residual);
	if (bias) {
		const struct kgen_dtype_info *d = &kgen_dtype_info[s->bias_dtype];
		int by_row = s->bias == KGEN_MM_BIAS_ROW;
		tpl_set(file, "bias_ctype", "%s", d->ctype);
		tpl_set(file, "bias_note", " (%s%s), one a %s of C", d->name, d->size == 2 ? ", its bits" : "",
		        by_row ? "row" : "column");
		tpl_set(file, "bias_count", "%s", by_row ? "m" : "n");
		tpl_set(file, "bias_index", "%s", by_row ? "row" : "col");
	}
	tpl_show(file, "bias_row", s->bias == KGEN_MM_BIAS_ROW);
	tpl_show(file, "bias_col", s->bias == KGEN_MM_BIAS_COL);
	if (residual) {
		const struct kgen_dtype_info *d = &kgen_dtype_info[s->residual_dtype];
		tpl_set(file, "residual_ctype", "%s", d->ctype);
		tpl_set(file, "residual_note", " (%s%s)", d->name, d->size == 2 ? ", its bits" : "");
	}
	{
		const char *parts[4] = { NULL };
		int n = 0, i, aux = *kgen_spec_expr_text(s, KGEN_KEY_aux) != '\0';
		strbuf note;

		if (bias)
			parts[n++] = "the bias vector";
		if (residual)
			parts[n++] = "the residual matrix";
		if (aux)
			parts[n++] = "the auxiliary output";
		sb_init(&note);
		for (i = 0; i < n; i++)
			sb_printf(&note, "%s%s", i == n - 1 ? " and " : ", ", parts[i]);
		if (note.failed) {
			sb_free(&note);
			return kgen_fail(err, KGEN_ENOMEM, "out of memory");
		}
		tpl_set(file, "operands_note", "%s", note.s ? note.s : "");
		sb_free(&note);
	}
	tpl_set(file, "epilogue_note", "%s", bias || residual ? ", given the operands there" : "");
	if (*kgen_spec_expr_text(s, KGEN_KEY_aux)) {  /* the section aux shows, and its expression fills it */
		tpl_set(file, "aux", "%s", kgen_spec_expr_text(s, KGEN_KEY_aux));
		operand_locals(s, KGEN_KEY_aux, file, "aux_locals");
	} else {
		tpl_show(file, "aux", 0);
	}
	operand_locals(s, KGEN_KEY_epilogue, file, "epilogue_locals");
	tpl_set(file, "operands_read", "%s", bias || residual ? ", each loaded once\n// through the read-only path "
	        "(ld.global.nc), so that a tile's loads can go out together, ahead of its stores" : " (none: the spec "
	        "declares no bias or residual)");
	return KGEN_OK;
}

/* The main kernel of the spec into out. */
static kgen_status
main_kernel(const struct kgen_spec *s, const struct kgen_matmul *g, strbuf *out, kgen_error *err)
{
	struct tpl_args k;
	kgen_status st;
	int a_row = s->a_layout == KGEN_MM_ROW, b_row = s->b_layout == KGEN_MM_ROW;

	tpl_init(&k);
	tpl_set(&k, "name", "%s", kgen_spec_kernel_name(s));
	/* __launch_bounds__: THREADS, with MIN_BLOCKS (blocks_per_sm) or 1 (math: mma) */
	tpl_show(&k, "min_blocks", s->mm_blocks_per_sm > 0);
	tpl_show(&k, "one_block", s->math == KGEN_MATH_MMA);
	if (!g->smem) {
		tpl_show(&k, "rows", s->thread_map == KGEN_THREAD_MAP_ROWS);
		tpl_show(&k, "a_row", a_row);
		tpl_show(&k, "b_row", b_row);
		return tpl_render(out, "matmul/naive.cu", &k, err);
	}
	if (s->math == KGEN_MATH_SIMT) {
		tpl_show(&k, "warptiling", g->warptiling);
		tpl_show(&k, "a_transposed", s->a_smem == KGEN_A_SMEM_TRANSPOSED);
		if ((st = tile(s, "matmul/simt_tile.cu", &k, err)))
			return st;
		return tpl_render(out, "matmul/simt.cu", &k, err);
	}
	if (s->math == KGEN_MATH_WMMA) {
		tpl_show(&k, "a_row", a_row);
		tpl_show(&k, "b_row", b_row);
		if ((st = mainloop(s, &k, err))) {
			tpl_free(&k);
			return st;
		}
		return tpl_render(out, "matmul/wmma.cu", &k, err);
	}
	/* Lane l's ldmatrix of each operand (load_fragments): by its layout and
	 * the tiles' addressing (TMA's boxes, swizzled chunks or padded rows). */
	tpl_show(&k, "a_row", a_row);
	tpl_show(&k, "b_row", b_row);
	tpl_show(&k, "swizzled", g->swizzled);
	tpl_show(&k, "one_stage", s->mm_stages == 1);
	tpl_show(&k, "tma", g->tma);
	if ((st = tile(s, "matmul/mma_tile.cu", &k, err)))
		return st;
	return tpl_render(out, "matmul/mma.cu", &k, err);
}

static kgen_status
emit(const struct kgen_spec *s, const char *header, strbuf *out, kgen_error *err)
{
	const struct kgen_dtype_info *dt = s->r.dtype, *acc = s->r.acc;
	const struct kgen_dtype_info *od = s->r.out;
	struct kgen_matmul g;
	struct tpl_args file, parts, none;
	strbuf ks;
	kgen_status st = KGEN_OK;

	kgen_matmul_shape(s, &g);
	tpl_init(&file);
	tpl_init(&parts);
	tpl_init(&none);
	sb_init(&ks);
	tpl_set(&file, "header", "%s", header);
	tpl_set(&file, "a_layout", "%s", kgen_mm_layouts[s->a_layout].name);
	tpl_set(&file, "b_layout", "%s", kgen_mm_layouts[s->b_layout].name);
	tpl_set(&file, "dtype", "%s", dt->name);
	tpl_set(&file, "acc_dtype", "%s", acc->name);
	tpl_set(&file, "out_dtype", "%s", od->name);
	tpl_set(&file, "t_ctype", "%s", dt->ctype);
	tpl_set(&file, "t_note", "%s", dt->size == 2 ? " (its bits)" : "");
	tpl_set(&file, "acc_ctype", "%s", acc->ctype);
	tpl_set(&file, "out_ctype", "%s", od->ctype);
	tpl_set(&file, "out_note", "%s", od->size == 2 ? " (its bits)" : "");
	tpl_set(&file, "epilogue", "%s", kgen_spec_expr_text(s, KGEN_KEY_epilogue));
	TRY(operands(s, &file, err));
	tpl_show(&file, "scaled", kgen_matmul_scaled(s) && !kgen_matmul_block_scaled(s));
	tpl_show(&file, "block_scaled", kgen_matmul_block_scaled(s));
	TRY(kgen_matmul_reductions(s, &file, err));
	TRY(kgen_expr_render_activations(s, &file, "activations", err));
	if (s->math == KGEN_MATH_WGMMA)
		TRY(kgen_matmul_wgmma_constants(s, &file, err));
	else
		TRY(constants(s, &g, &file, err));
	/* Conversions: to_acc (A and B), c_to_acc (C's old value), to_out. */
	if (!g.tensor)  /* tensor cores take A and B as they are */
		TRY(convert(&parts, "to_acc", s->r.dtype, 0, 0, err));
	TRY(convert(&parts, "c_to_acc", s->r.out, 0, 0, err));
	TRY(convert(&parts, "to_out", s->r.out, 1, g.tensor, err));
	if (s->bias != KGEN_MM_BIAS_NONE)
		TRY(convert(&parts, "bias_to_acc", &kgen_dtype_info[s->bias_dtype], 0, 0, err));
	if (s->residual != KGEN_MM_RESIDUAL_NONE)
		TRY(convert(&parts, "residual_to_acc", &kgen_dtype_info[s->residual_dtype], 0, 0, err));
	TRY(join(&file, "converts", &parts, err));
	/* store_c() and store_result(), an element at a time: every kernel's but store: tma's (its buffers) unless
	 * split_reduce's second kernel stores the sums. */
	tpl_show(&file, "element_stores", s->mm_store != KGEN_MM_STORE_TMA || kgen_matmul_partial_sums(s));
	TRY(tpl_render_into(&file, "store_result", kgen_matmul_partial_sums(s) ? "matmul/store_partial.cu" : "matmul/store_direct.cu",
	                    &none, err));
	TRY(tile_origin(s, s->math == KGEN_MATH_WGMMA || s->schedule == KGEN_SCHEDULE_STREAM_K, &file, err));
	tpl_init(&parts);
	if (s->math == KGEN_MATH_WGMMA)
		TRY(kgen_matmul_wgmma_helpers(s, &parts, err));
	else if (g.smem)
		TRY(smem_helpers(s, &g, &parts, err));
	TRY(join(&file, "helpers", &parts, err));
	if (s->math == KGEN_MATH_WGMMA)
		TRY(kgen_matmul_wgmma_kernel(s, &ks, err));
	else
		TRY(main_kernel(s, &g, &ks, err));
	if (kgen_matmul_partial_sums(s)) {
		struct tpl_args r;
		tpl_init(&r);
		tpl_set(&r, "name", "%s_reduce", kgen_spec_kernel_name(s));
		TRY(tpl_render(&ks, "matmul/split_reduce.cu", &r, err));
	}
	if (kgen_matmul_repacks(s)) {
		struct tpl_args r;
		tpl_init(&r);
		tpl_set(&r, "name", "%s_repack", kgen_spec_kernel_name(s));
		TRY(tpl_render(&ks, "matmul/repack.cu", &r, err));
	}
	if (ks.failed)
		TRY(kgen_fail(err, KGEN_ENOMEM, "out of memory"));
	while (ks.len && ks.s[ks.len - 1] == '\n')
		ks.s[--ks.len] = '\0';
	tpl_set(&file, "kernels", "%s", ks.s);
	st = tpl_render(out, "matmul/file.cu", &file, err);
out:
	tpl_free(&file);
	tpl_free(&parts);
	tpl_free(&none);
	sb_free(&ks);
	return st;
}

/* ---- the family ---- */

#define SMEM KGEN_BIT(KGEN_STAGING_SMEM)
#define SIMT KGEN_BIT(KGEN_MATH_SIMT)
#define WGMMA KGEN_BIT(KGEN_MATH_WGMMA)
#define NOT_WGMMA (KGEN_BIT(KGEN_MATH_SIMT) | KGEN_BIT(KGEN_MATH_WMMA) | KGEN_BIT(KGEN_MATH_MMA))
#define FP8 (KGEN_BIT(KGEN_DT_E4M3) | KGEN_BIT(KGEN_DT_E5M2))
#define FLOATS (KGEN_BIT(KGEN_DT_F32) | KGEN_BIT(KGEN_DT_F64) | KGEN_BIT(KGEN_DT_F16) | KGEN_BIT(KGEN_DT_BF16))

static const struct kgen_only_with only_with[] = {
	/* The types the family takes (kgen keys matmul lists these) */
	{ KGEN_KEY_dtype, KGEN_KEY_dtype, FLOATS | FP8,
	  "matmul multiplies floating types: dtype must be f32, f64, f16, bf16, e4m3 or e5m2, not {v}" },
	{ KGEN_KEY_acc_dtype, KGEN_KEY_acc_dtype, KGEN_BIT(KGEN_DT_F32) | KGEN_BIT(KGEN_DT_F64),
	  "acc_dtype {v}: matmul accumulates in f32 or f64" },
	{ KGEN_KEY_out_dtype, KGEN_KEY_out_dtype, FLOATS, "out_dtype must be f32, f64, f16 or bf16, not {v}" },
	{ KGEN_KEY_bias_dtype, KGEN_KEY_bias_dtype, FLOATS, "bias_dtype {v}: the bias vector is f32, f64, f16 or bf16" },
	{ KGEN_KEY_residual_dtype, KGEN_KEY_residual_dtype, FLOATS,
	  "residual_dtype {v}: the residual matrix is f32, f64, f16 or bf16" },
	{ KGEN_KEY_staging, KGEN_KEY_staging, KGEN_BIT(KGEN_STAGING_NONE) | KGEN_BIT(KGEN_STAGING_SMEM),
	  "staging: {v} is the column scan's; a matmul reads its operands from global memory (none) or tiles them in "
	  "shared memory (smem)" },
	{ KGEN_KEY_thread_map, KGEN_KEY_staging, KGEN_BIT(KGEN_STAGING_NONE),
	  "thread_map needs staging: none (a tiled kernel places its threads by its tiles)" },
	{ KGEN_KEY_tile_k, KGEN_KEY_staging, SMEM, "tile_k needs staging: smem (staging: none reads all of k at once)" },
	{ KGEN_KEY_thread_m, KGEN_KEY_staging, SMEM, "thread_m needs staging: smem (staging: none computes one element a thread)" },
	{ KGEN_KEY_thread_m, KGEN_KEY_math, SIMT, "thread_m needs math: simt (a tensor-core warp owns its fragments)" },
	{ KGEN_KEY_thread_n, KGEN_KEY_staging, SMEM, "thread_n needs staging: smem (staging: none computes one element a thread)" },
	{ KGEN_KEY_thread_n, KGEN_KEY_math, SIMT, "thread_n needs math: simt (a tensor-core warp owns its fragments)" },
	{ KGEN_KEY_warp_m, KGEN_KEY_staging, SMEM, "warp_m needs staging: smem" },
	{ KGEN_KEY_warp_n, KGEN_KEY_staging, SMEM, "warp_n needs staging: smem" },
	{ KGEN_KEY_a_smem, KGEN_KEY_staging, SMEM, "a_smem needs staging: smem" },
	{ KGEN_KEY_a_smem, KGEN_KEY_math, SIMT, "a_smem needs math: simt (tensor-core tiles keep A's layout)" },
	{ KGEN_KEY_smem_layout, KGEN_KEY_math, KGEN_BIT(KGEN_MATH_MMA),
	  "smem_layout needs math: mma (simt and wmma tiles keep their padded rows)" },
	{ KGEN_KEY_load_width, KGEN_KEY_staging, SMEM,
	  "load_width needs staging: smem (staging: none reads one element at a time)" },
	{ KGEN_KEY_mm_stages, KGEN_KEY_staging, SMEM, "stages needs staging: smem (it buffers tiles in shared memory)" },
	{ KGEN_KEY_split_k, KGEN_KEY_staging, SMEM, "split_k needs staging: smem" },
	{ KGEN_KEY_group, KGEN_KEY_order, KGEN_BIT(KGEN_ORDER_GROUPED) | KGEN_BIT(KGEN_ORDER_HILBERT),
	  "group needs order: grouped or hilbert, not {w}" },
	{ KGEN_KEY_warp_m, KGEN_KEY_math, NOT_WGMMA,
	  "warp_m needs math: simt, wmma or mma, not {w} (a wgmma warpgroup takes tile_m / consumers rows)" },
	{ KGEN_KEY_warp_n, KGEN_KEY_math, NOT_WGMMA,
	  "warp_n needs math: simt, wmma or mma, not {w} (a wgmma warpgroup takes all of tile_n)" },
	{ KGEN_KEY_load_width, KGEN_KEY_math, NOT_WGMMA, "load_width needs math: simt, wmma or mma, not {w} (TMA loads)" },
	{ KGEN_KEY_producer, KGEN_KEY_math, WGMMA, "producer needs math: wgmma, not {w}" },
	{ KGEN_KEY_consumers, KGEN_KEY_math, WGMMA, "consumers needs math: wgmma, not {w}" },
	{ KGEN_KEY_mm_store, KGEN_KEY_math, KGEN_BIT(KGEN_MATH_MMA) | WGMMA, "store needs math: mma or wgmma, not {w}" },
	{ KGEN_KEY_cluster, KGEN_KEY_math, WGMMA, "cluster needs math: wgmma, not {w}" },
	{ KGEN_KEY_mm_blocks_per_sm, KGEN_KEY_math, NOT_WGMMA,
	  "blocks_per_sm needs math: simt, wmma or mma, not {w} (a wgmma block has an SM to itself)" },
	{ KGEN_KEY_cluster, KGEN_KEY_producer, KGEN_BIT(KGEN_PRODUCER_WARPGROUP),
	  "cluster needs producer: warpgroup, not {w} (the blocks of a cluster loop over their tiles together)" },
	{ KGEN_KEY_schedule, KGEN_KEY_staging, SMEM, "schedule needs staging: smem (staging: none reads all of k at once)" },
	{ KGEN_KEY_mm_loads, KGEN_KEY_math, KGEN_BIT(KGEN_MATH_MMA),
	  "loads needs math: mma, not {w} (simt and wmma copy with cp.async; wgmma always with TMA)" },
	{ KGEN_KEY_mm_loads, KGEN_KEY_mm_stages, KGEN_BIT(2) | KGEN_BIT(3) | KGEN_BIT(4),
	  "loads needs stages 2 to 4, not {w} (one stage is loaded and stored by every thread, then a barrier)" },
	{ KGEN_KEY_load_width, KGEN_KEY_mm_loads, KGEN_BIT(KGEN_MM_LOADS_CP_ASYNC),
	  "load_width needs loads: cp_async, not {w} (TMA copies whole boxes)" },
	{ KGEN_KEY_unaligned, KGEN_KEY_math, WGMMA | KGEN_BIT(KGEN_MATH_MMA),
	  "unaligned needs math: wgmma, or mma with loads: tma, not {w} (its loads take any operands)" },
	{ KGEN_KEY_bias_dtype, KGEN_KEY_bias, KGEN_BIT(KGEN_MM_BIAS_ROW) | KGEN_BIT(KGEN_MM_BIAS_COL),
	  "bias_dtype needs bias: row or col, not {w}" },
	{ KGEN_KEY_residual_dtype, KGEN_KEY_residual, KGEN_BIT(KGEN_MM_RESIDUAL_MATRIX),
	  "residual_dtype needs residual: matrix, not {w}" },
	{ KGEN_KEY_b_dtype, KGEN_KEY_dtype, FP8, "b_dtype needs dtype e4m3 or e5m2, not {w} (B has A's type but with fp8 "
	  "operands, which may mix e4m3 and e5m2)" },
	/* (after the row above: a B of fp8 beside an fp8 A) */
	{ KGEN_KEY_b_dtype, KGEN_KEY_b_dtype, FP8, "b_dtype {v}: B beside an fp8 A is e4m3 or e5m2 (wgmma multiplies fp8 by "
	  "fp8)" },
	{ KGEN_KEY_scale, KGEN_KEY_dtype, FP8, "scale needs dtype e4m3 or e5m2, not {w} (the scales of fp8 operands)" },
	{ KGEN_KEY_fp8_accum, KGEN_KEY_dtype, FP8, "fp8_accum needs dtype e4m3 or e5m2, not {w}" },
	{ KGEN_KEY_COUNT, KGEN_KEY_COUNT, 0, NULL },
};

static const enum kgen_key keys[] = {
	KGEN_KEY_kernel, KGEN_KEY_name, KGEN_KEY_dtype, KGEN_KEY_b_dtype, KGEN_KEY_acc_dtype, KGEN_KEY_threads, KGEN_KEY_load_width,
	KGEN_KEY_order, KGEN_KEY_group, KGEN_KEY_out_dtype, KGEN_KEY_a_layout, KGEN_KEY_b_layout, KGEN_KEY_math,
	KGEN_KEY_staging, KGEN_KEY_thread_map, KGEN_KEY_tile_m, KGEN_KEY_tile_n, KGEN_KEY_tile_k, KGEN_KEY_thread_m,
	KGEN_KEY_thread_n, KGEN_KEY_warp_m, KGEN_KEY_warp_n, KGEN_KEY_a_smem, KGEN_KEY_smem_layout, KGEN_KEY_mm_stages,
	KGEN_KEY_mm_blocks_per_sm, KGEN_KEY_split_k, KGEN_KEY_split_reduce, KGEN_KEY_epilogue, KGEN_KEY_producer, KGEN_KEY_consumers,
	KGEN_KEY_mm_store, KGEN_KEY_cluster, KGEN_KEY_schedule, KGEN_KEY_mm_loads, KGEN_KEY_bias, KGEN_KEY_bias_dtype,
	KGEN_KEY_residual, KGEN_KEY_residual_dtype, KGEN_KEY_unaligned, KGEN_KEY_aux, KGEN_KEY_row_reduce,
	KGEN_KEY_col_reduce, KGEN_KEY_scale, KGEN_KEY_fp8_accum, KGEN_KEY_COUNT,
};

/* matmul's operands, the one place of the language fp8 goes (family.h). */
static const enum kgen_key fp8_keys[] = { KGEN_KEY_dtype, KGEN_KEY_b_dtype, KGEN_KEY_COUNT };

/* The values that need a newer GPU (family.h). */
static const struct kgen_arch_need arch_needs[] = {
	{ KGEN_KEY_math, KGEN_BIT(KGEN_MATH_WGMMA), 90, "wgmma.mma_async, TMA and mbarriers", "math: mma", 1 },
	{ KGEN_KEY_math, KGEN_BIT(KGEN_MATH_WMMA) | KGEN_BIT(KGEN_MATH_MMA), 80,
	  "mma.sync m16n8k16, ldmatrix and bf16 wmma", "math: simt", 0 },
	{ KGEN_KEY_mm_stages, (KGEN_BIT(17) - 1) & ~(KGEN_BIT(0) | KGEN_BIT(1)), 80, "cp.async", "stages: 1", 0 },
	{ KGEN_KEY_mm_loads, KGEN_BIT(KGEN_MM_LOADS_TMA), 90, "TMA and mbarrier waits", "loads: cp_async", 0 },
	{ .min_sm = 0 },
};

/* What a spec computes (family.h): plans' entries and tunings' points agree on it. */
static const enum kgen_key computes[] = {
	KGEN_KEY_dtype, KGEN_KEY_b_dtype, KGEN_KEY_acc_dtype, KGEN_KEY_out_dtype, KGEN_KEY_a_layout, KGEN_KEY_b_layout,
	KGEN_KEY_scale, KGEN_KEY_fp8_accum, KGEN_KEY_epilogue, KGEN_KEY_bias, KGEN_KEY_bias_dtype, KGEN_KEY_residual, KGEN_KEY_residual_dtype, KGEN_KEY_aux,
	KGEN_KEY_row_reduce, KGEN_KEY_col_reduce, KGEN_KEY_COUNT,
};

const struct kgen_family kgen_family_matmul = {
	.name = "matmul",
	.size = KGEN_SIZE_MNK,
	.keys = keys,
	.computes = computes,
	.only_with = only_with,
	.arch_needs = arch_needs,
	.fp8_keys = fp8_keys,
	.resolve = kgen_matmul_resolve,
	.check = kgen_matmul_check,
	.contract = plan,
	.emit = emit,
};
