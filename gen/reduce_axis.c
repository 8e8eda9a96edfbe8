/*
 * reduce_axis.c - the matrix reduction family, `kernel: reduce_axis`:
 * reduce each row (axis: rows) or each column (axis: cols) of a row-major
 * rows x cols matrix whose rows are `pitch` elements apart.  Its keys, its
 * rules, its launch contract and its emitter; templates/reduce_axis/ holds
 * the CUDA, and gen/acc.c the op and block-reduction pieces it shares with
 * `kernel: reduce`.
 */
#include "config.h"
#include <string.h>
#include "acc.h"
#include "op.h"
#include "reduce_axis.h"
#include "tpl.h"

#define ERR(k, ...) kgen_spec_error(s, KGEN_KEY_##k, 1, err, __VA_ARGS__)

long long
kgen_reduce_axis_vec(const struct kgen_spec *s)
{
	return s->strategy == KGEN_STRATEGY_THREAD ? 1 : s->load_width / s->r.dtype->size;
}

/* Which kernels a spec has: a tile for columns, a block per row, lanes per row. */
static int
uses_tile(const struct kgen_spec *s)
{
	return s->strategy == KGEN_STRATEGY_TILE || (s->strategy == KGEN_STRATEGY_AUTO && s->axis == KGEN_AXIS_COLS);
}

/* strategy: auto on columns has it too, for a packed single column: rows
 * elements one after another, reduced as one row (column_run()). */
static int
uses_block(const struct kgen_spec *s)
{
	return s->strategy == KGEN_STRATEGY_BLOCK || s->strategy == KGEN_STRATEGY_AUTO;
}

static int
uses_lanes(const struct kgen_spec *s)
{
	return s->strategy == KGEN_STRATEGY_WARP || (s->strategy == KGEN_STRATEGY_AUTO && s->axis == KGEN_AXIS_ROWS);
}

/* Has it strategy: auto's kernels of a vector a lane (rows_vector.cu)? */
static int
uses_vector(const struct kgen_spec *s)
{
	return s->strategy == KGEN_STRATEGY_AUTO && s->axis == KGEN_AXIS_ROWS;
}

/* Do rows go through reduce_span() with vector loads (span_vec.cu, or
 * span_vec_lanes.cu for a pair)? */
static int
uses_span_vec(const struct kgen_spec *s)
{
	return (uses_lanes(s) || uses_block(s)) && s->r.vec > 1;
}

/* ---- rules ---- */

static kgen_status
check(struct kgen_spec *s, kgen_error *err)
{
	const struct kgen_dtype_info *dt = s->r.dtype;
	int rows = s->axis == KGEN_AXIS_ROWS;
	kgen_status st;

	if (s->threads < 0)
		s->threads = 512;
	s->r.vec = kgen_reduce_axis_vec(s);  /* the resolved view's, refined */
	if ((st = kgen_op_check(s, err)))
		return st;
	if (rows && s->strategy == KGEN_STRATEGY_TILE)
		return ERR(strategy, "strategy: tile walks down columns: use axis: cols, or strategy: block or warp "
		           "for rows");
	if (!rows && (s->strategy == KGEN_STRATEGY_WARP || s->strategy == KGEN_STRATEGY_BLOCK))
		return ERR(strategy, "strategy: %s reduces along rows: use axis: rows, or strategy: tile (or thread) "
		           "for columns", kgen_strategies[s->strategy].name);
	if (s->threads % 32)
		return ERR(threads, "threads %lld is not a multiple of the warp size, 32", s->threads);
	if (s->strategy != KGEN_STRATEGY_THREAD) {
		if (!kgen_is_pow2(s->load_width) || s->load_width % dt->size || s->load_width > 16)
			return ERR(load_width, "load_width %lld must be the element size (%d bytes for %s) times a power of "
			           "two, at most 16", s->load_width, dt->size, dt->name);
	}
	if (s->strategy == KGEN_STRATEGY_WARP && !kgen_is_pow2(s->lanes))
		return ERR(lanes, "lanes %lld is not a power of two: use 1, 2, 4, 8, 16 or 32", s->lanes);
	if (s->strategy == KGEN_STRATEGY_WARP && s->lanes > 32)
		return ERR(lanes, "lanes %lld: a row's threads share a warp: use at most 32", s->lanes);
	if (uses_tile(s)) {
		long long smem = s->r.vec * s->threads * s->r.acc_bytes;
		if (!kgen_is_pow2(s->threads))
			return ERR(threads, "strategy: tile halves its row groups in a tree and needs a power-of-two block, "
			           "not threads %lld", s->threads);
		if (smem > 48 * 1024)
			return ERR(threads, "strategy: tile combines %lld x %lld accumulators of %s in shared memory, %lld "
			           "bytes, over the 48 KB a block gets: use fewer threads or a smaller load_width",
			           s->r.vec, s->threads, s->r.acc->name, smem);
	}
	if (uses_block(s) && (st = kgen_check_block_reduce(s, err)))
		return st;
	if (!s->name)
		snprintf(s->name_text, sizeof s->name_text, "reduce_%s_%s_%s", kgen_axes[s->axis].name,
		         kgen_ops[s->op].name, dt->name);
	return KGEN_OK;
}

/* ---- the launch contract ---- */

/* The scratch of the block kernel, in the header. */
static void
plan_block_note(const struct kgen_spec *s, struct kgen_contract *p, const char *lead)
{
	kgen_contract_note(p, "// %s grid = rows * split, split >= 1 blocks per row (%s).  With split > 1,\n"
	                  "// scratch: tickets, rows unsigned ints, then (16-byte aligned) partials,\n"
	                  "// rows * split x %d bytes, all zero before the first launch (each launch leaves\n"
	                  "// them zero).\n", lead, s->split ? "the spec's split" : "chosen at launch",
	               s->r.acc_bytes);
}

/* The suffix of strategy: auto's kernel for choice c: _lanesN, or
 * _lanesNxG for G rows per thread. */
static void
lanes_suffix(const struct kgen_axis_choice *c, char *buf, size_t len)
{
	if (c->groups > 1)
		snprintf(buf, len, "_lanes%dx%d", c->lanes, c->groups);
	else
		snprintf(buf, len, "_lanes%d", c->lanes);
}

/* strategy: auto, axis: rows: a kernel per row length, one chosen per launch. */
static void
plan_auto_rows(const struct kgen_spec *s, struct kgen_contract *p)
{
	long long vec = s->r.vec;
	const struct kgen_axis_choice *c;
	struct kgen_step *st;
	char suffix[32];

	p->apart = 1;
	kgen_contract_printf(p->heading, sizeof p->heading,
	                 "Kernels (extern \"C\"), one per launch, chosen by cols, for a rows x cols matrix whose rows\n"
	                 "// are pitch >= cols elements apart:");
	for (c = kgen_axis_choices(s); c->lanes; c++) {
		lanes_suffix(c, suffix, sizeof suffix);
		st = kgen_contract_step(p, suffix, "in, out, rows, cols, pitch", "grid", s->threads);
		kgen_contract_printf(st->note, sizeof st->note, "when cols <= %lld", c->vectors * vec);
	}
	st = kgen_contract_step(p, "_block", "in, out, rows, cols, pitch, split, partials, tickets", "grid", s->threads);
	kgen_contract_printf(st->note, sizeof st->note, "for longer rows");
	kgen_contract_note(p, "// _lanesN: N threads per row, _lanesNxG: N threads per row and G rows per thread (a\n"
	                  "// vector a lane; kgen launches them when `in` and pitch keep every row's vectors aligned,\n"
	                  "// the next kernel that takes the rows otherwise); grid = ceil(rows / (%lld / N * G)) or\n"
	                  "// fewer (the blocks walk the rows a grid apart; kgen launches that many when a block's\n"
	                  "// rows hold %llu KiB or more, else at most four waves).  Scratch: none.\n", s->threads,
	                  KGEN_AXIS_PASS_BYTES / 1024);
	plan_block_note(s, p, "_block:");
}

/* The row lengths strategy: auto gives to each number of lanes. */
#define X(lanes, vectors, groups) { lanes, vectors, groups },
static const struct kgen_axis_choice choices[] = { KGEN_AXIS_AUTO_ROWS(X) { 0, 0, 0 } };
static const struct kgen_axis_choice pair_choices[] = { KGEN_AXIS_AUTO_ROWS_PAIRS(X) { 0, 0, 0 } };
#undef X

const struct kgen_axis_choice *
kgen_axis_choices(const struct kgen_spec *s)
{
	return s->r.pair ? pair_choices : choices;
}


static void
plan(const struct kgen_spec *s, struct kgen_contract *p)
{
	const struct kgen_dtype_info *acc = s->r.acc;
	int rows = s->axis == KGEN_AXIS_ROWS;
	const char *what = rows ? "row" : "column";

	memset(p, 0, sizeof *p);
	kgen_contract_printf(p->title, sizeof p->title, "the %s%s of each %s of a %s matrix", kgen_ops[s->op].name,
	                 s->op == KGEN_OP_CUSTOM ? " reduction" : "", what, s->r.dtype->name);
	kgen_contract_printf(p->heading, sizeof p->heading,
	                 "Kernel (extern \"C\"), for a rows x cols matrix whose rows are pitch >= cols elements apart:");
	if (s->strategy == KGEN_STRATEGY_AUTO && rows) {
		plan_auto_rows(s, p);
	} else switch (s->strategy) {
	case KGEN_STRATEGY_THREAD:
		kgen_contract_step(p, "", "in, out, rows, cols, pitch", "grid", s->threads);
		kgen_contract_note(p, "// where grid = ceil(%s / %lld).  Scratch: none.\n", rows ? "rows" : "cols", s->threads);
		break;
	case KGEN_STRATEGY_WARP:
		kgen_contract_step(p, "", "in, out, rows, cols, pitch", "grid", s->threads);
		kgen_contract_note(p, "// where grid = ceil(rows / %lld) (%lld threads per row), or fewer: the blocks walk the\n"
		                  "// rows a grid apart (kgen launches that many when a block's rows hold %llu KiB or\n"
		                  "// more, else at most four waves).  Scratch: none.\n",
		               s->threads / s->lanes, s->lanes, KGEN_AXIS_PASS_BYTES / 1024);
		break;
	case KGEN_STRATEGY_BLOCK:
		kgen_contract_step(p, "", "in, out, rows, cols, pitch, split, partials, tickets", "grid", s->threads);
		plan_block_note(s, p, "where");
		break;
	default:
		kgen_contract_step(p, "", "in, out, rows, cols, pitch, lanes, tiles, split, aligned, partials, tickets",
		               "grid", s->threads);
		if (uses_block(s)) {  /* one column of pitch 1, as one row */
			const char *args = "in, out, 1, rows, rows, split, partials, tickets";
			struct kgen_step *st = kgen_contract_step(p, "_block", args, "grid", s->threads);
			kgen_contract_printf(st->note, sizeof st->note, "for one column of pitch 1");
			kgen_contract_printf(p->heading, sizeof p->heading,
			                 "Kernels (extern \"C\"), one per launch, for a rows x cols matrix whose rows are "
			                 "pitch >= cols\n// elements apart:");
			p->apart = 1;
		}
		kgen_contract_note(p, "// where lanes (a power of two up to %lld) threads share a row segment of lanes * %lld\n"
		                  "// columns, tiles = ceil(cols / (lanes * %lld)), grid = tiles * split (split: %s), and\n"
		                  "// aligned = 1 when `in` and pitch keep every row's %lld-byte vectors aligned.  With\n"
		                  "// split > 1, scratch: tickets, tiles unsigned ints, then (16-byte aligned) partials,\n"
		                  "// split * cols x %d bytes, all zero before the first launch (each launch leaves\n"
		                  "// them zero).\n", s->threads, s->r.vec, s->r.vec,
		               s->split ? "the spec's" : "chosen at launch", s->load_width, s->r.acc_bytes);
		if (uses_block(s))
			kgen_contract_note(p, "// _block: one column of pitch 1 is rows elements one after another, reduced as one row\n"
			                  "// (the first kernel would read it an element a load): grid = split >= 1 (%s);\n"
			                  "// with split > 1, scratch: a ticket, then (16-byte aligned) split partials of %d\n"
			                  "// bytes, zero before the first launch (each launch leaves them zero).\n",
			               s->split ? "the spec's" : "chosen at launch", s->r.acc_bytes);
		break;
	}
	if (s->r.pair)
		kgen_contract_note(p, "// out = { value, index }: value[%c] (%s) and index[%c] (i64) are the %s of %s %c and its\n"
		                  "// lowest index in it (-1 for none), %s of each.",
		               rows ? 'r' : 'c', acc->name, rows ? 'r' : 'c', s->op == KGEN_OP_ARGMAX ? "maximum" : "minimum",
		               what, rows ? 'r' : 'c', rows ? "rows" : "cols");
	else
		kgen_contract_note(p, "// out[%c] is the %s%s of %s %c: %s values of %s.", rows ? 'r' : 'c', kgen_ops[s->op].name,
		               s->op == KGEN_OP_CUSTOM ? " reduction" : "", what, rows ? 'r' : 'c', rows ? "rows" : "cols",
		               s->r.out->name);
	kgen_contract_note(p, "  `in` must be aligned to its element size;\n"
	                  "// any rows, cols and pitch; no load reads outside the rows' first cols elements.");
}

/* ---- the source ---- */

#define TRY(e) do { if ((st = (e)) != KGEN_OK) goto out; } while (0)

/* The helpers the kernels call, in the order they are used. */
static kgen_status
helpers(const struct kgen_spec *s, strbuf *b, kgen_error *err)
{
	struct tpl_args parts, none, span;
	kgen_status st = KGEN_OK;
	size_t i;

	tpl_init(&parts);
	tpl_init(&none);
	tpl_init(&span);
	if (uses_lanes(s) || uses_block(s)) {
		if (uses_span_vec(s)) {
			tpl_set(&span, "load_width", "%lld", s->load_width);
			tpl_set(&span, "align", "%lld", s->load_width);
			/* A pair's fold is a chain of compares: one chain per vector lane. */
			TRY(tpl_render_into(&parts, "span", s->r.pair ? "reduce_axis/span_vec_lanes.cu"
			                                                       : "reduce_axis/span_vec.cu", &span, err));
		} else {
			TRY(tpl_render_into(&parts, "span", "reduce_axis/span_scalar.cu", &span, err));
		}
	}
	if (uses_lanes(s)) {
		TRY(tpl_render_into(&parts, "lanes_reduce", "reduce_axis/lanes_reduce.cu", &none, err));
		TRY(tpl_render_into(&parts, "rows_lanes", "reduce_axis/rows_lanes.cu", &none, err));
	}
	if (uses_vector(s)) {
		tpl_set(&span, "align", "%lld", s->load_width);
		TRY(tpl_render_into(&parts, "rows_vector", "reduce_axis/rows_vector.cu", &span, err));
	}
	if (uses_block(s)) {
		if (s->warp_tail == KGEN_WT_SHUFFLE || s->warp_tail == KGEN_WT_REDUCE_SYNC)
			TRY(kgen_acc_warp_reduce_helper(s, &parts, err));
		TRY(kgen_acc_block_helper(s, &parts, err));
	}
	if (uses_tile(s))
		TRY(tpl_render_into(&parts, "combine_groups", "reduce_axis/combine_groups.cu", &none, err));
	if (parts.failed)  /* a helper that could not be made is no file */
		TRY(kgen_fail(err, KGEN_ENOMEM, "out of memory"));
	for (i = 0; i < parts.n; i++) {
		sb_puts(b, "\n");
		sb_puts(b, parts.v[i].value);
		sb_puts(b, "\n");
	}
	if (b->len)
		b->s[--b->len] = '\0';  /* the placeholder's line ends it */
	if (b->failed)
		TRY(kgen_fail(err, KGEN_ENOMEM, "out of memory"));
out:
	tpl_free(&parts);
	tpl_free(&none);
	tpl_free(&span);
	return st;
}

/* Render kernel template tpl named name+suffix, with a blank line before it
 * unless it is the first. */
static kgen_status
kernel(strbuf *out, const struct kgen_spec *s, const char *tpl, const char *suffix, struct tpl_args *k,
       kgen_error *err)
{
	if (out->len)
		sb_puts(out, "\n");
	tpl_set(k, "name", "%s%s", kgen_spec_kernel_name(s), suffix);
	return tpl_render(out, tpl, k, err);
}

/* The kernels, in the plan's order. */
static kgen_status
kernels(const struct kgen_spec *s, strbuf *out, kgen_error *err)
{
	const struct kgen_axis_choice *c;
	struct tpl_args k;
	char suffix[32];
	kgen_status st = KGEN_OK;

	tpl_init(&k);
	if (s->strategy == KGEN_STRATEGY_THREAD)
		return kernel(out, s, s->axis == KGEN_AXIS_ROWS ? "reduce_axis/rows_thread.cu" : "reduce_axis/cols_thread.cu",
		              "", &k, err);
	if (uses_tile(s)) {
		st = kernel(out, s, "reduce_axis/cols_tile.cu", "", &k, err);
		if (!st && uses_block(s))  /* a packed single column, read as one row */
			st = kernel(out, s, "reduce_axis/rows_block.cu", "_block", &k, err);
		return st;
	}
	if (s->strategy == KGEN_STRATEGY_BLOCK)
		return kernel(out, s, "reduce_axis/rows_block.cu", "", &k, err);
	if (s->strategy == KGEN_STRATEGY_WARP) {
		tpl_set(&k, "body", "rows_by_lanes<%lld>", s->lanes);
		tpl_set(&k, "doc", "%lld threads per row%s.", s->lanes,
		        s->lanes < 32 ? ", several rows per warp" : ", a warp per row");
		return kernel(out, s, "reduce_axis/rows_warp.cu", "", &k, err);
	}
	for (c = kgen_axis_choices(s); c->lanes && !st; c++) {
		lanes_suffix(c, suffix, sizeof suffix);
		tpl_init(&k);
		if (c->groups > 1) {
			tpl_set(&k, "body", "rows_by_vector<%d, %d>", c->lanes, c->groups);
			tpl_set(&k, "doc", "Rows of up to %lld vectors: %d threads per row, a vector each, and %d rows per thread.",
			        c->vectors, c->lanes, c->groups);
		} else {
			tpl_set(&k, "body", "rows_by_lanes<%d>", c->lanes);
			tpl_set(&k, "doc", "Rows of up to %lld vectors: %d thread%s per row.", c->vectors, c->lanes,
			        c->lanes > 1 ? "s" : "");
		}
		st = kernel(out, s, "reduce_axis/rows_warp.cu", suffix, &k, err);
	}
	if (!st) {
		tpl_init(&k);
		st = kernel(out, s, "reduce_axis/rows_block.cu", "_block", &k, err);
	}
	return st;
}

static kgen_status
emit(const struct kgen_spec *s, const char *header, strbuf *out, kgen_error *err)
{
	const struct kgen_dtype_info *dt = s->r.dtype, *acc = s->r.acc;
	long long vec = s->r.vec;
	struct tpl_args file, h;
	strbuf consts, help, ks;
	kgen_status st = KGEN_OK;

	tpl_init(&file);
	tpl_init(&h);
	sb_init(&consts);
	sb_init(&help);
	sb_init(&ks);
	tpl_set(&file, "header", "%s", header);
	tpl_set(&file, "dtype", "%s", dt->name);
	tpl_set(&file, "acc_dtype", "%s", acc->name);
	tpl_set(&file, "t_ctype", "%s", dt->ctype);
	{
		int flags = KGEN_OP_STORE | KGEN_OP_FOLD;
		if (uses_block(s) && s->warp_tail == KGEN_WT_SHUFFLE)
			flags |= KGEN_OP_SHFL_DOWN;
		if (uses_lanes(s))
			flags |= KGEN_OP_SHFL_XOR;
		if (uses_span_vec(s) && s->r.pair)
			flags |= KGEN_OP_CHAINS;  /* span_vec_lanes.cu's helpers */
		if (uses_block(s) || uses_tile(s))
			flags |= KGEN_OP_LDCG;
		TRY(kgen_op_render(s, flags, &file, err));
	}

	sb_printf(&consts, "constexpr int THREADS = %lld;\n", s->threads);
	if (vec > 1 || uses_tile(s) || uses_block(s))
		sb_printf(&consts, "constexpr int VEC = %lld;  // elements per load (%lld bytes)\n", vec, s->load_width);
	if (consts.failed)
		TRY(kgen_fail(err, KGEN_ENOMEM, "out of memory"));
	tpl_set(&file, "constants", "%s", consts.s);
	if (vec > 1 || uses_tile(s) || uses_vector(s)) {  /* the tile and a-vector-a-lane kernels load Vec for any VEC */
		tpl_set(&h, "load_width", "%lld", s->load_width);
		tpl_set(&h, "align", "%lld", s->load_width);
		tpl_set(&h, "how", "one load");
		TRY(tpl_render_into(&file, "vec_struct", "reduce/vec.cu", &h, err));
	} else {
		tpl_set(&file, "vec_struct", "%s", "");
	}
	TRY(helpers(s, &help, err));
	tpl_set(&file, "helpers", "%s", help.s ? help.s : "");
	TRY(kernels(s, &ks, err));
	if (ks.failed)
		TRY(kgen_fail(err, KGEN_ENOMEM, "out of memory"));
	if (ks.len && ks.s[ks.len - 1] == '\n')
		ks.s[--ks.len] = '\0';
	tpl_set(&file, "kernel", "%s", ks.s);
	st = tpl_render(out, "reduce_axis/file.cu", &file, err);
out:
	tpl_free(&file);
	tpl_free(&h);
	sb_free(&consts);
	sb_free(&help);
	sb_free(&ks);
	return st;
}

/* ---- the family ---- */

#define ALL_BUT_THREAD \
	(KGEN_BIT(KGEN_STRATEGY_WARP) | KGEN_BIT(KGEN_STRATEGY_BLOCK) | KGEN_BIT(KGEN_STRATEGY_TILE) | \
	 KGEN_BIT(KGEN_STRATEGY_AUTO))
#define BLOCK_OR_AUTO (KGEN_BIT(KGEN_STRATEGY_BLOCK) | KGEN_BIT(KGEN_STRATEGY_AUTO))

static const struct kgen_only_with only_with[] = {
	{ KGEN_KEY_lanes, KGEN_KEY_strategy, KGEN_BIT(KGEN_STRATEGY_WARP),
	  "lanes needs strategy: warp, not {w} (auto chooses its own)" },
	{ KGEN_KEY_split, KGEN_KEY_strategy, KGEN_BIT(KGEN_STRATEGY_BLOCK) | KGEN_BIT(KGEN_STRATEGY_TILE) |
	  KGEN_BIT(KGEN_STRATEGY_AUTO), "split needs strategy: block, tile or auto, not {w}" },
	{ KGEN_KEY_load_width, KGEN_KEY_strategy, ALL_BUT_THREAD,
	  "load_width has no effect with strategy: thread (one element at a time, as in seed 002)" },
	{ KGEN_KEY_block_reduce, KGEN_KEY_strategy, BLOCK_OR_AUTO,
	  "block_reduce needs strategy: block or auto (the only ones with a block reduction)" },
	{ KGEN_KEY_block_reduce, KGEN_KEY_axis, KGEN_BIT(KGEN_AXIS_ROWS),
	  "block_reduce needs axis: rows (columns are combined by row groups, not a block reduction)" },
	{ KGEN_KEY_warp_tail, KGEN_KEY_strategy, BLOCK_OR_AUTO,
	  "warp_tail needs strategy: block or auto (the only ones with a block reduction)" },
	{ KGEN_KEY_warp_tail, KGEN_KEY_axis, KGEN_BIT(KGEN_AXIS_ROWS),
	  "warp_tail needs axis: rows (columns are combined by row groups, not a block reduction)" },
	{ KGEN_KEY_warp_tail_from, KGEN_KEY_strategy, BLOCK_OR_AUTO,
	  "warp_tail_from needs strategy: block or auto (the only ones with a block reduction)" },
	{ KGEN_KEY_warp_tail_from, KGEN_KEY_axis, KGEN_BIT(KGEN_AXIS_ROWS),
	  "warp_tail_from needs axis: rows (columns are combined by row groups, not a block reduction)" },
	{ KGEN_KEY_warp_tail_from, KGEN_KEY_block_reduce, ~KGEN_BIT(KGEN_BR_WARPS),
	  "warp_tail_from has no effect with block_reduce: {w}; drop it" },
	{ KGEN_KEY_warp_tail_from, KGEN_KEY_warp_tail, ~KGEN_BIT(KGEN_WT_NONE),
	  "warp_tail_from has no effect with warp_tail: {w}; drop it" },
	KGEN_OP_ONLY_WITH,
	{ KGEN_KEY_COUNT, KGEN_KEY_COUNT, 0, NULL },
};

static const enum kgen_key keys[] = {
	KGEN_KEY_kernel, KGEN_KEY_name, KGEN_KEY_op, KGEN_KEY_dtype, KGEN_KEY_acc_dtype, KGEN_KEY_threads,
	KGEN_KEY_load_width, KGEN_KEY_block_reduce, KGEN_KEY_warp_tail, KGEN_KEY_warp_tail_from, KGEN_KEY_axis,
	KGEN_KEY_strategy, KGEN_KEY_lanes, KGEN_KEY_split, KGEN_OP_KEYS, KGEN_KEY_COUNT,
};

/* The values that need a newer GPU (family.h). */
static const struct kgen_arch_need arch_needs[] = {
	{ KGEN_KEY_warp_tail, KGEN_BIT(KGEN_WT_REDUCE_SYNC), 80, "__reduce_*_sync", "warp_tail: shuffle", 0 },
	{ .min_sm = 0 },
};

/* Columns over several GPUs: each holds a block of rows, and the column
 * partials combine.  A row is whole on one GPU. */
static const char *
multi_gpu(const struct kgen_spec *s)
{
	return s->axis == KGEN_AXIS_COLS ? NULL : "a reduce_axis over several GPUs needs axis: cols (each GPU holds a "
	                                          "block of rows), not axis: rows (whose rows are whole on one GPU: "
	                                          "reduce them there)";
}

/* What a spec computes (family.h): plans' entries and tunings' points agree on it. */
static const enum kgen_key computes[] = {
	KGEN_KEY_op, KGEN_KEY_dtype, KGEN_KEY_acc_dtype, KGEN_KEY_out_dtype, KGEN_KEY_nan, KGEN_KEY_map,
	KGEN_KEY_combine, KGEN_KEY_identity, KGEN_KEY_post, KGEN_KEY_axis, KGEN_KEY_COUNT,
};

const struct kgen_family kgen_family_reduce_axis = {
	.name = "reduce_axis",
	.size = KGEN_SIZE_SHAPE,
	.keys = keys,
	.computes = computes,
	.only_with = only_with,
	.arch_needs = arch_needs,
	.check = check,
	.contract = plan,
	.emit = emit,
	.multi_gpu = multi_gpu,
};
