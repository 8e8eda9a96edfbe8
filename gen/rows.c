/*
 * rows.c - the fused row family, `kernel: rows`: the softmax, log-softmax,
 * RMSNorm, LayerNorm or cross-entropy of each row of a matrix whose rows
 * are x_pitch elements apart, statistics in f32.  Its keys, its rules, its
 * launch contract and its emitter; templates/rows/ holds the CUDA.
 */
#include "config.h"
#include <string.h>
#include "ptx.h"
#include "rows.h"
#include "tpl.h"

#define ERR(k, ...) kgen_spec_error(s, KGEN_KEY_##k, 1, err, __VA_ARGS__)

static int
is_float(const struct kgen_dtype_info *d)
{
	return d->cls == DT_HALF || d->cls == DT_BHALF || (d->cls == DT_FLOAT && d->size == 4);
}

int
kgen_rows_writes_y(const struct kgen_spec *s)
{
	return s->row_op != KGEN_ROW_CROSS_ENTROPY;
}

int
kgen_rows_has_weight(const struct kgen_spec *s)
{
	return s->row_op == KGEN_ROW_RMS_NORM || s->row_op == KGEN_ROW_LAYER_NORM;
}

int
kgen_rows_has_bias(const struct kgen_spec *s)
{
	return s->row_op == KGEN_ROW_LAYER_NORM;
}

/* ---- the kernels ---- */

/* An entry of gen/rows.h's tables: its choice, the ops it serves, and (a staged or cluster one) its
 * blocks' threads. */
struct table_entry {
	struct kgen_rows_choice c;
	int ops;    /* KGEN_ROWS_FOR_* */
	int width;  /* KGEN_ROWS_SPEC, _WIDE, _HALF */
};

static const struct table_entry auto_choices[] = {
#define X(lanes, vectors, ops) { { lanes, vectors, 0, 0, 0, 0, 0 }, ops, 0 },
	KGEN_ROWS_AUTO(X)
#undef X
	{ { 0, 0, 0, 0, 0, 0, 0 }, 0, 0 }
};
static const struct table_entry xent_choices[] = {
#define X(lanes, vectors, upto) { { lanes, vectors, upto, 0, 0, 0, 0 }, KGEN_ROWS_FOR_XENT, 0 },
	KGEN_ROWS_AUTO_XENT(X)
#undef X
	{ { 0, 0, 0, 0, 0, 0, 0 }, 0, 0 }
};
static const struct table_entry staged_choices[] = {
#define X(lanes, vectors, width, ops) { { lanes, vectors, 0, 1, 0, 0, 0 }, ops, width },
	KGEN_ROWS_AUTO_STAGED(X)
#undef X
	{ { 0, 0, 0, 0, 0, 0, 0 }, 0, 0 }
};

/* The KGEN_ROWS_FOR_* bit of the spec's op. */
static int
op_bit(const struct kgen_spec *s)
{
	switch (s->row_op) {
	case KGEN_ROW_RMS_NORM:
		return KGEN_ROWS_FOR_RMS;
	case KGEN_ROW_LAYER_NORM:
		return KGEN_ROWS_FOR_LN;
	case KGEN_ROW_CROSS_ENTROPY:
		return KGEN_ROWS_FOR_XENT;
	default:
		return KGEN_ROWS_FOR_SOFTMAX;
	}
}
static const struct table_entry cluster_choices[] = {
#define X(blocks, vectors, width, ops) { { 0, vectors, 0, 1, blocks, 0, 0 }, ops, width },
	KGEN_ROWS_AUTO_CLUSTER(X)
#undef X
	{ { 0, 0, 0, 0, 0, 0, 0 }, 0, 0 }
};

/* An entry of KGEN_ROWS_AUTO_BLOCKS: blocks of `threads` a row of up to `elements`, for these ops by element size. */
static const struct block_entry {
	int threads, elements, ops16, ops32;
} block_choices[] = {
#define X(threads, elements, ops16, ops32) { threads, elements, ops16, ops32 },
	KGEN_ROWS_AUTO_BLOCKS(X)
#undef X
	{ 0, 0, 0, 0 }
};

/* The KGEN_ROWS_AUTO_BLOCKS kernels a spec of strategy auto takes, into
 * c[] in the table's order (of the rows they hold), at most max: blocks of
 * c->threads a row, c->vectors loads each; none of another op's or element
 * size's, of more threads than the spec's, or of loads that do not fill its
 * row exactly.  Returns the count. */
static int
auto_blocks(const struct kgen_spec *s, struct kgen_rows_choice *c, int max)
{
	const struct block_entry *b;
	long long row;
	int n = 0;

	if (s->row_strategy != KGEN_ROWS_AUTO || !kgen_rows_writes_y(s))
		return 0;
	for (b = block_choices; b->threads && n < max; b++) {
		row = (long long)b->threads * s->r.vec;  /* elements of one load a thread */
		if (!((s->r.dtype->size == 2 ? b->ops16 : s->r.dtype->size == 4 ? b->ops32 : 0) & op_bit(s)) ||
		    b->threads > s->threads || b->elements % row || (b->elements / row) * s->load_width > 256)
			continue;
		c[n] = (struct kgen_rows_choice){ 0, (int)(b->elements / row), 0, 0, 0, b->threads, 0 };
		c[n].upto = (unsigned long long)b->threads * (unsigned long long)c[n].vectors;
		n++;
	}
	return n;
}

/* The longest row the staged kernels leave to the n blocks b[] of
 * auto_blocks(), in elements: the last's (it holds the longest), at least
 * KGEN_ROWS_STAGED_FROM. */
static unsigned long long
staged_past(const struct kgen_spec *s, const struct kgen_rows_choice *b, int n)
{
	unsigned long long held = n ? b[n - 1].upto * (unsigned long long)s->r.vec : 0;

	return held > KGEN_ROWS_STAGED_FROM ? held : KGEN_ROWS_STAGED_FROM;
}

unsigned long long
kgen_rows_staged_from(const struct kgen_spec *s)
{
	struct kgen_rows_choice b[KGEN_MAX_STEPS];

	return staged_past(s, b, auto_blocks(s, b, KGEN_MAX_STEPS));
}

long long
kgen_rows_block(const struct kgen_spec *s, const struct kgen_rows_choice *c)
{
	return c->threads > 0 ? c->threads : s->threads;
}

/* Blocks a row of choice c: its cluster's, or 1. */
static int
blocks_a_row(const struct kgen_rows_choice *c)
{
	return c->cluster > 1 ? c->cluster : 1;
}

/* Blocks an SM a staged kernel is built for (its launch bounds): two
 * where a thread's part of the row is at most 64 bytes (ptxas keeps it in
 * 64 registers, spilling a few bytes at most), so that one works while the
 * other waits; else one. */
static int
staged_blocks(const struct kgen_spec *s, const struct kgen_rows_choice *c)
{
	return c->vectors * s->load_width <= 64 && kgen_rows_block(s, c) <= 512 && blocks_a_row(c) == 1 ? 2 : 1;
}

/* The shared memory a staged kernel's block may take: 110 KB of two
 * blocks an SM, else KGEN_ROWS_STAGE_BYTES. */
static long long
block_share(const struct kgen_spec *s, const struct kgen_rows_choice *c)
{
	return staged_blocks(s, c) == 2 ? 110 * 1024 : KGEN_ROWS_STAGE_BYTES;
}

/* Bytes of a staged kernel's stage, and of the norms' weight and bias
 * (the longest row's each, of a cluster's the block's part; 0 for the
 * ops without). */
static long long
stage_bytes(const struct kgen_spec *s, const struct kgen_rows_choice *c)
{
	return kgen_rows_block(s, c) * c->vectors * s->load_width;
}

static long long
weight_bytes(const struct kgen_spec *s, const struct kgen_rows_choice *c)
{
	long long lanes = c->lanes ? c->lanes : kgen_rows_block(s, c);
	long long one = lanes * c->vectors * s->r.vec * kgen_dtype_info[s->weight_dtype].size;

	return kgen_rows_has_weight(s) ? (one + 15) / 16 * 16 * (kgen_rows_has_bias(s) ? 2 : 1) : 0;
}

/* A staged kernel's stages: two where they fit in KGEN_ROWS_STAGE_BYTES
 * (the next rows land while one is worked on), else one (the block's rows
 * land while the last ones are finished from registers); one, too, where
 * only one leaves the norms' weight and bias room in the block's share
 * (LayerNorm's rows of 16384 bf16 and up: every row reading them from L2
 * cost more than a second stage saves); 0: not even one. */
static int
stages_for(const struct kgen_spec *s, const struct kgen_rows_choice *c)
{
	long long one = stage_bytes(s, c), w = weight_bytes(s, c), share = block_share(s, c);

	if (2 * one > KGEN_ROWS_STAGE_BYTES)
		return one <= KGEN_ROWS_STAGE_BYTES ? 1 : 0;
	return w && 2 * one + w > share && one + w <= share ? 1 : 2;
}

/* The bytes of the weight (and bias) a staged kernel copies into shared
 * memory once where they fit beside its stages in the block's share; 0:
 * it reads them from global memory every row. */
static long long
held_weights(const struct kgen_spec *s, const struct kgen_rows_choice *c)
{
	long long w = weight_bytes(s, c);

	if (!c->stages || !w)
		return 0;
	return c->stages * stage_bytes(s, c) + w <= block_share(s, c) ? w : 0;
}

/* Does any of the spec's staged kernels hold the weights (staged_rows()'s HOLD)? */
static int
holds_weights(const struct kgen_spec *s)
{
	struct kgen_rows_choice c[KGEN_MAX_STEPS];
	int n = kgen_rows_kernels(s, c, KGEN_MAX_STEPS), i;

	for (i = 0; i < n; i++)
		if (held_weights(s, &c[i]) > 0)
			return 1;
	return 0;
}

long long
kgen_rows_smem(const struct kgen_spec *s, const struct kgen_rows_choice *c)
{
	return c->stages ? c->stages * stage_bytes(s, c) + held_weights(s, c) : 0;
}

/* Whether a wide kernel of choice c (blocks of twice the spec's threads)
 * would give a thread more elements than 32 floats, half of the 64
 * registers a thread of a block of 1024 has: bf16's spilled. */
static int
too_wide(const struct kgen_spec *s, const struct kgen_rows_choice *c)
{
	return c->vectors * s->r.vec > 32;
}

/* Loads in flight a thread of the online kernel of strategy: auto. */
#define AUTO_ONLINE_VECTORS 4

int
kgen_rows_kernels(const struct kgen_spec *s, struct kgen_rows_choice *out, int max)
{
	const struct table_entry *e;
	struct kgen_rows_choice own[KGEN_MAX_STEPS];  /* the KGEN_ROWS_AUTO_BLOCKS kernels */
	unsigned long long staged_from;  /* elements: the staged kernels take longer rows */
	int n = 0, owns, j = 0;

	switch (s->row_strategy) {
	case KGEN_ROWS_WARP:
		out[n++] = (struct kgen_rows_choice){ (int)s->lanes, (int)s->vectors, 0, 0, 0, 0, 0 };
		return n;
	case KGEN_ROWS_BLOCK:
		out[n++] = (struct kgen_rows_choice){ 0, (int)s->vectors, 0, 0, 0, 0, 0 };
		return n;
	case KGEN_ROWS_CLUSTER:
		out[n] = (struct kgen_rows_choice){ 0, (int)s->vectors, 0, 0, (int)s->cluster_size, 0, 0 };
		out[n].stages = stages_for(s, &out[n]);
		return n + 1;
	case KGEN_ROWS_ONLINE:
		out[n++] = (struct kgen_rows_choice){ -1, (int)s->vectors, 0, 0, 0, 0, 0 };
		return n;
	case KGEN_ROWS_STAGED:
		out[n] = (struct kgen_rows_choice){ s->lanes == s->threads ? 0 : (int)s->lanes, (int)s->vectors, 0, 0, 0, 0, 0 };
		out[n].stages = stages_for(s, &out[n]);
		return n + 1;
	default:
		break;
	}
	owns = auto_blocks(s, own, max - 2);
	for (e = kgen_rows_writes_y(s) ? auto_choices : xent_choices; e->c.vectors && n < max - 2; e++) {
		struct kgen_rows_choice t = e->c;
		long long lanes = t.lanes ? t.lanes : s->threads;
		if (!(e->ops & op_bit(s)) || lanes > s->threads || s->threads % lanes || (t.lanes && t.lanes == s->threads))
			continue;  /* another op's, rows that do not fill the block, or a block's own row twice */
		if (!t.upto)
			t.upto = (unsigned long long)lanes * (unsigned long long)t.vectors;
		if (t.lanes > 0 && t.lanes <= 32 && kgen_rows_writes_y(s) && s->threads > KGEN_ROWS_WARP_THREADS)
			t.threads = KGEN_ROWS_WARP_THREADS;
		while (j < owns && own[j].upto <= t.upto && n < max - 2)  /* in the order of the rows they hold */
			out[n++] = own[j++];
		if (n && t.upto <= out[n - 1].upto)
			continue;  /* held by the one before */
		if (t.lanes > 0 && t.lanes <= 32 && kgen_rows_writes_y(s) && n < max - 3) {
			out[n] = t;  /* first its twin for rows of exactly its loads: a smaller kernel, quicker to build */
			out[n++].exact = 1;
		}
		out[n++] = t;
	}
	while (j < owns && n < max - 1)
		out[n++] = own[j++];
	staged_from = staged_past(s, own, owns);
	out[n++] = (struct kgen_rows_choice){ -1, AUTO_ONLINE_VECTORS, 0, 0, 0, 0, 0 };
	if (!kgen_rows_writes_y(s) || s->load_width != 16)
		return n;
	for (e = staged_choices; e->c.vectors && n < max; e++) {
		struct kgen_rows_choice t = e->c;
		long long block, lanes;
		if (!(e->ops & op_bit(s)))
			continue;
		/* wide: twice the spec's threads where a block may have them, else the spec's own */
		t.threads = e->width == KGEN_ROWS_WIDE && 2 * s->threads <= 1024 ? (int)(2 * s->threads) : 0;
		if (t.threads && too_wide(s, &t))
			continue;  /* more elements a thread than half of a 1024-thread block's registers hold */
		block = kgen_rows_block(s, &t);
		lanes = t.lanes ? t.lanes : block;
		if (lanes > block || block % lanes || (t.lanes && t.lanes == block) ||
		    !stages_for(s, &t) || (unsigned long long)(lanes * t.vectors * s->r.vec) <= staged_from)
			continue;
		t.upto = (unsigned long long)lanes * (unsigned long long)t.vectors;
		if (n && out[n - 1].stages && t.upto <= out[n - 1].upto)
			continue;  /* held by the one before (a spec whose threads leave two entries alike) */
		out[n] = t;
		out[n++].stages = stages_for(s, &t);
	}
	for (e = cluster_choices; e->c.vectors && n < max; e++) {
		struct kgen_rows_choice t = e->c;
		if (!(e->ops & op_bit(s)) || (e->width == KGEN_ROWS_WIDE && (2 * s->threads > 1024 || too_wide(s, &t))) ||
		    (e->width == KGEN_ROWS_HALF && (s->r.dtype->size != 2 || s->threads != 512)))
			continue;  /* another op's, more threads than a block has, more elements a thread than half its
			            * registers hold, or half a block where it was not measured */
		t.threads = e->width == KGEN_ROWS_WIDE ? (int)(2 * s->threads)
		          : e->width == KGEN_ROWS_HALF ? (int)(s->threads / 2) : 0;
		if (!stages_for(s, &t))
			continue;
		t.upto = kgen_rows_capacity(s, &t);
		if (n && out[n - 1].stages && t.upto <= out[n - 1].upto &&
		    !(out[n - 1].cluster > 8 && t.upto == out[n - 1].upto))
			continue;  /* held by the one before (kept after a cluster of 16: where a GPU refuses that one) */
		out[n] = t;
		out[n++].stages = stages_for(s, &t);
	}
	return n;
}

unsigned long long
kgen_rows_capacity(const struct kgen_spec *s, const struct kgen_rows_choice *c)
{
	long long lanes = c->lanes > 0 ? c->lanes : kgen_rows_block(s, c);

	if (c->lanes < 0 || !kgen_rows_writes_y(s))
		return 0;
	return (unsigned long long)lanes * (unsigned long long)c->vectors * (unsigned long long)blocks_a_row(c);
}

long long
kgen_rows_per_block(const struct kgen_spec *s, const struct kgen_rows_choice *c)
{
	return c->lanes > 0 ? kgen_rows_block(s, c) / c->lanes : 1;
}

/* ---- rules ---- */

static kgen_status
check_types(struct kgen_spec *s, kgen_error *err)
{
	/* The types themselves are the only-with rows' (FLOATS): the defaults
	 * follow dtype. */
	if (s->out_dtype < 0)
		s->out_dtype = s->dtype;
	if (s->weight_dtype < 0)
		s->weight_dtype = s->dtype;
	KGEN_ASSERT(is_float(s->r.dtype) && is_float(&kgen_dtype_info[s->out_dtype]) &&
	            is_float(&kgen_dtype_info[s->weight_dtype]));
	s->r.out = &kgen_dtype_info[s->out_dtype];
	s->r.acc = &kgen_dtype_info[KGEN_DT_F32];
	return KGEN_OK;
}

static kgen_status
check(struct kgen_spec *s, kgen_error *err)
{
	const struct kgen_dtype_info *dt = s->r.dtype;
	long long regs;
	kgen_status st;

	if ((st = check_types(s, err)))
		return st;
	if (s->threads < 0)
		s->threads = s->row_strategy == KGEN_ROWS_WARP ? 256 : 512;
	if (s->threads % 32)
		return ERR(threads, "threads %lld is not a multiple of the warp size, 32", s->threads);
	if (!kgen_is_pow2(s->load_width) || s->load_width % dt->size || s->load_width > 16)
		return ERR(load_width, "load_width %lld must be the element size (%d bytes for %s) times a power of two, "
		           "at most 16", s->load_width, dt->size, dt->name);
	s->r.vec = s->load_width / dt->size;
	if (s->row_strategy == KGEN_ROWS_WARP && !kgen_is_pow2(s->lanes))
		return ERR(lanes, "lanes %lld is not a power of two: use 1, 2, 4, 8, 16 or 32", s->lanes);
	if (s->row_strategy == KGEN_ROWS_WARP && s->lanes > 32)
		return ERR(lanes, "lanes %lld: strategy: warp shares a warp among rows: use at most 32 (strategy: staged "
		           "takes more)", s->lanes);
	if (s->row_strategy == KGEN_ROWS_STAGED &&
	    (!kgen_is_pow2(s->lanes) || s->lanes < 32 || s->lanes > s->threads || s->threads % s->lanes))
		return ERR(lanes, "lanes %lld: strategy: staged gives a row whole warps and a block whole rows: a power of "
		           "two from 32 to threads (%lld) that divides it", s->lanes, s->threads);
	if ((s->row_strategy == KGEN_ROWS_STAGED || s->row_strategy == KGEN_ROWS_CLUSTER) && !kgen_rows_writes_y(s))
		return ERR(row_strategy, "strategy: %s holds rows in registers; op: cross_entropy streams them: use "
		           "auto, warp, block or online", kgen_row_strategies[s->row_strategy].name);
	if ((s->row_strategy == KGEN_ROWS_STAGED || s->row_strategy == KGEN_ROWS_CLUSTER) && s->load_width != 16)
		return ERR(load_width, "load_width %lld: strategy: %s copies rows in 16-byte vectors (load_width: 16)",
		           s->load_width, kgen_row_strategies[s->row_strategy].name);
	regs = s->vectors * s->r.vec;
	if (s->row_strategy == KGEN_ROWS_ONLINE && regs > 64)
		return ERR(vectors, "vectors %lld of %lld elements are %lld floats a thread, over the 64 that stay in "
		           "registers: use at most %lld", s->vectors, s->r.vec, regs, 64 / s->r.vec);
	if (s->row_strategy != KGEN_ROWS_AUTO && s->row_strategy != KGEN_ROWS_ONLINE && s->vectors * s->load_width > 256)
		return ERR(vectors, "vectors %lld of %lld bytes are %lld bytes of the row a thread, over the 256 (64 "
		           "registers) that stay in registers: use at most %lld, or strategy: online for long rows",
		           s->vectors, s->load_width, s->vectors * s->load_width, 256 / s->load_width);
	if ((s->row_strategy == KGEN_ROWS_STAGED || s->row_strategy == KGEN_ROWS_CLUSTER) &&
	    s->threads * s->vectors * 16 > KGEN_ROWS_STAGE_BYTES)
		return ERR(vectors, "vectors %lld: a stage of threads x vectors x 16 bytes (%lld) is over the %d bytes of "
		           "shared memory it may take: use fewer", s->vectors, s->threads * s->vectors * 16,
		           KGEN_ROWS_STAGE_BYTES);
	if (!s->name)
		snprintf(s->name_text, sizeof s->name_text, "rows_%s_%s", kgen_row_ops[s->row_op].name, dt->name);
	return KGEN_OK;
}

/* ---- the launch contract ---- */

/* The kernel suffix of choice c: "", or auto's _lanes8x4, _block4, _online. */
static void
suffix(const struct kgen_spec *s, const struct kgen_rows_choice *c, char *buf, size_t n)
{
	if (s->row_strategy != KGEN_ROWS_AUTO)
		snprintf(buf, n, "%s", "");
	else if (c->cluster > 1)
		snprintf(buf, n, "_cluster%dx%d%s", c->cluster, c->vectors,
		         kgen_rows_block(s, c) > s->threads ? "w" : kgen_rows_block(s, c) < s->threads ? "h" : "");
	else if (c->stages)
		snprintf(buf, n, "_staged%lldx%d%s", c->lanes ? (long long)c->lanes : kgen_rows_block(s, c), c->vectors,
		         kgen_rows_block(s, c) != s->threads ? "w" : "");
	else if (c->lanes > 0)
		snprintf(buf, n, "_%s%dx%d", c->exact ? "exact" : "lanes", c->lanes, c->vectors);
	else if (c->lanes == 0 && c->threads)
		snprintf(buf, n, "_block%dx%d", c->threads, c->vectors);
	else if (c->lanes == 0)
		snprintf(buf, n, "_block%d", c->vectors);
	else
		snprintf(buf, n, "%s", "_online");
}

/* "rows of up to N elements" for a kernel that holds rows of at most N
 * (kgen_rows_capacity), else "rows of any length" (cross-entropy's: its
 * rows stream through); in buf (n bytes), returned. */
static const char *
held_rows(const struct kgen_spec *s, const struct kgen_rows_choice *c, char *buf, size_t n)
{
	unsigned long long cap = kgen_rows_capacity(s, c);

	if (!cap)
		return "rows of any length";
	snprintf(buf, n, "rows of up to %llu elements", cap * (unsigned long long)s->r.vec);
	return buf;
}

/* The header's word to a launcher of one kernel of dynamic shared memory. */
#define RAISE_SMEM "// Raise the kernel's CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES to it before the first launch.\n"

static const char *const what[] = { "softmax", "log-softmax", "RMSNorm", "LayerNorm", "cross-entropy loss" };

static void
contract(const struct kgen_spec *s, struct kgen_contract *p)
{
	struct kgen_rows_choice c[KGEN_MAX_STEPS];
	int n = kgen_rows_kernels(s, c, KGEN_MAX_STEPS), i;
	long long load = s->load_width;
	unsigned long long staged_from = kgen_rows_staged_from(s) / (unsigned long long)s->r.vec;  /* in loads */
	int own_block = 0, most = 0;  /* a _blockNxV kernel is listed; the largest cluster */
	char sfx[32], held[64];

	memset(p, 0, sizeof *p);
	kgen_contract_printf(p->title, sizeof p->title, "the %s of each row of a %s matrix", what[s->row_op],
	                     s->r.dtype->name);
	if (n == 1)
		kgen_contract_printf(p->heading, sizeof p->heading,
		                     "Kernel (extern \"C\"), for rows x cols elements whose rows are x_pitch >= cols apart:");
	else
		kgen_contract_printf(p->heading, sizeof p->heading,
		                     "Kernels (extern \"C\"), one per launch, chosen by cols, for rows x cols elements\n"
		                     "// whose rows are x_pitch >= cols apart:");
	p->apart = n > 1;
	for (i = 0; i < n; i++) {
		unsigned long long cap = kgen_rows_capacity(s, &c[i]);
		struct kgen_step *st;

		if (c[i].upto)  /* strategy: auto: what it gives the kernel */
			cap = c[i].upto;

		suffix(s, &c[i], sfx, sizeof sfx);
		own_block |= s->row_strategy == KGEN_ROWS_AUTO && c[i].lanes == 0 && c[i].threads && !c[i].stages;
		st = kgen_contract_step(p, sfx, "a (struct Rows, by value)", "grid", kgen_rows_block(s, &c[i]));
		st->dynamic_smem = kgen_rows_smem(s, &c[i]);
		st->optional = n > 1 && c[i].stages;  /* auto's: sm_90's */
		st->cluster = c[i].cluster;
		if (n > 1 && c[i].exact)
			kgen_contract_printf(st->note, sizeof st->note, "when cols == %llu, every array aligned",
			                     cap * (unsigned long long)s->r.vec);
		else if (n > 1 && cap)
			kgen_contract_printf(st->note, sizeof st->note, "when cols <= %llu", cap * (unsigned long long)s->r.vec);
		else if (n > 1)
			kgen_contract_printf(st->note, sizeof st->note, "%s", c[i].lanes < 0 ? "for longer rows" : "");
		if (n > 1 && c[i].stages && i > 0 && c[i - 1].cluster > 8 && c[i - 1].upto == cap) {
			kgen_contract_printf(st->note, sizeof st->note, "instead where the GPU refuses the cluster of %d",
			                     c[i - 1].cluster);
		} else if (n > 1 && c[i].stages) {
			kgen_contract_printf(st->note, sizeof st->note, "instead on sm_90 when %llu < cols <= %llu",
			                     staged_from * (unsigned long long)s->r.vec, cap * (unsigned long long)s->r.vec);
			staged_from = cap;
		}
		most = c[i].cluster > most ? c[i].cluster : most;
	}
	if (s->row_strategy == KGEN_ROWS_CLUSTER)
		kgen_contract_note(p, "// grid = %lld * at most rows: clusters of %lld blocks (__cluster_dims__), as many as the GPU\n"
		                   "// holds at once (cuOccupancyMaxActiveClusters), walking the rows; %s.\n"
		                   "// Dynamic shared memory %lld bytes: %d stage%s of the block's part of a row%s.\n"
		                   RAISE_SMEM,
		                   s->cluster_size, s->cluster_size, held_rows(s, &c[0], held, sizeof held),
		                   kgen_rows_smem(s, &c[0]), c[0].stages, c[0].stages > 1 ? "s" : "",
		                   !held_weights(s, &c[0]) ? "" : kgen_rows_has_bias(s) ? ", then its part of the weight and bias"
		                                                                     : ", then its part of the weight");
	else if (s->row_strategy == KGEN_ROWS_WARP)
		kgen_contract_note(p, "// grid = ceil(rows / %lld) (%lld threads per row), at most 2^31 - 1: the blocks walk the\n"
		                   "// rows a grid apart; %s.\n", s->threads / s->lanes, s->lanes,
		                   held_rows(s, &c[0], held, sizeof held));
	else if (s->row_strategy == KGEN_ROWS_BLOCK)
		kgen_contract_note(p, "// grid = rows (a block per row), at most 2^31 - 1: the blocks walk the rows a grid\n"
		                   "// apart; %s.\n", held_rows(s, &c[0], held, sizeof held));
	else if (s->row_strategy == KGEN_ROWS_STAGED)
		kgen_contract_note(p, "// grid = at most ceil(rows / %lld) (%lld threads per row), as many blocks as the GPU holds at\n"
		                   "// once: the blocks walk the rows a grid apart; %s.\n"
		                   "// Dynamic shared memory %lld bytes: %d stage%s of the block's rows%s.\n"
		                   RAISE_SMEM, s->threads / s->lanes,
		                   s->lanes, held_rows(s, &c[0], held, sizeof held),
		                   kgen_rows_smem(s, &c[0]), c[0].stages, c[0].stages > 1 ? "s" : "",
		                   !held_weights(s, &c[0]) ? "" : kgen_rows_has_bias(s) ? ", then the weight and bias"
		                                                                     : ", then the weight");
	else if (s->row_strategy == KGEN_ROWS_ONLINE)
		kgen_contract_note(p, "// grid = rows (a block per row), at most 2^31 - 1: the blocks walk the rows a grid\n"
		                   "// apart; rows of any length.\n");
	else
		kgen_contract_note(p, "// _lanesNxV: N threads per row of its block's B, grid = ceil(rows / (B / N)); _blockV and\n"
		                   "// _online: a block per row, grid = rows; at most 2^31 - 1 (the blocks walk the rows a grid\n"
		                   "// apart).%s%s%s\n", kgen_rows_writes_y(s) ?
		                   "\n// _exactNxV: _lanesNxV for rows of exactly its loads, where a.aligned has every bit." : "",
		                   own_block ?
		                   "\n// _blockNxV: a block of N threads per row, grid = rows (at most 2^31 - 1)." : "",
		                   c[n - 1].stages ? "\n// _stagedNxV (sm_90, x's rows 16-byte aligned): N threads per row, as many blocks as\n"
		                   "// the GPU holds at once (at most the rows' groups; _stagedNxVw: blocks of twice the\n"
		                   "// threads, more rows a block), each staging its next rows in\n"
		                   "// dynamic shared memory (the bytes after its launch).  _clusterBxV: the same with a\n"
		                   "// row over a cluster of B blocks (_clusterBxVw: of twice the threads, _clusterBxVh:\n"
		                   "// of half), as many clusters as the GPU holds at once.  Raise each one's\n"
		                   "// CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES to its bytes first." : "");
	if (most > 8)
		kgen_contract_note(p, "// A cluster of %d blocks is not portable: set the kernel's\n"
		                   "// CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED to 1 too (a GPU that refuses it\n"
		                   "// cannot run it%s).\n", most, n > 1 ? "; kgen_rows() then takes the kernel listed after it" : "");
	if (kgen_rows_writes_y(s))
		kgen_contract_note(p, "// Scratch: none.  %s are read or written as %lld-byte vectors where\n"
		                   "// a.aligned says the array and its pitch keep them aligned (X_ALIGNED, Y_ALIGNED%s),\n"
		                   "// else an element at a time; y may be x (in place, the same pitch and element size).",
		                   !kgen_rows_has_weight(s) ? "x and y" : kgen_rows_has_bias(s) ? "x, y, the weight and bias"
		                                                                  : "x, y and the weight", load,
		                   kgen_rows_has_weight(s) ? ", W_ALIGNED" : "");
	else
		kgen_contract_note(p, "// Scratch: none.  x is read as %lld-byte vectors where a.aligned says x and its pitch\n"
		                   "// keep them aligned (X_ALIGNED), else an element at a time.  loss[r] is row r's\n"
		                   "// log-sum-exp less x[r][labels[r]] (0 where labels[r] is ignore_index, NaN where it is\n"
		                   "// outside 0..cols-1); lse[r] its log-sum-exp when lse is not null.", load);
}

/* ---- the source ---- */

#define TRY(e) do { if ((st = (e)) != KGEN_OK) goto out; } while (0)

/* A conversion helper (the matmul family's templates): fn from type dt to
 * a float, or to_out from a float to dt. */
static kgen_status
convert(struct tpl_args *parts, const char *fn, const struct kgen_dtype_info *dt, int to, kgen_error *err)
{
	struct tpl_args t;
	const char *tpl;
	kgen_status st;

	tpl_init(&t);
	if (dt->cls == DT_HALF)
		tpl = to ? "matmul/to_f16.cu" : "matmul/from_f16.cu";
	else if (dt->cls == DT_BHALF)
		tpl = to ? "rows/to_bf16.cu" : "matmul/from_bf16.cu";
	else
		tpl = to ? "matmul/to_float.cu" : "matmul/from_float.cu";
	if (!to) {
		tpl_set(&t, "fn", "%s", fn);
		if (dt->cls != DT_HALF && dt->cls != DT_BHALF)
			tpl_set(&t, "ctype", "%s", dt->ctype);
	}
	st = tpl_render_into(parts, fn, tpl, &t, err);
	tpl_free(&t);
	return st;
}

/* x_to_float() or w_to_float() of element j of a vector (of type dt); by
 * pairs of a 32-bit word where `pairs` (bf16 in the norms: on an H100 they
 * gained 1-2% there and cost softmax and log-softmax 1.5-2% from 4096 to
 * 16384 columns, bench/results/nvidia-h100/2026-12-07-rows-twins). */
static kgen_status
element(struct tpl_args *parts, int x, const struct kgen_dtype_info *dt, int pairs, kgen_error *err)
{
	const char *fn = x ? "x_to_float" : "w_to_float";
	struct tpl_args t;
	kgen_status st;

	tpl_init(&t);
	tpl_set(&t, "fn", "%s", fn);
	tpl_set(&t, "type", "%s", x ? "T" : "W");
	tpl_show(&t, "pairs", pairs && dt->cls == DT_BHALF);
	st = tpl_render_into(parts, x ? "x_element" : "w_element", "rows/element.cu", &t, err);
	tpl_free(&t);
	return st;
}

/* load_x() (x's elements, x_to_float()) or load_w() (the weight's, w_to_float()). */
static kgen_status
loader(struct tpl_args *parts, int x, kgen_error *err)
{
	const char *fn = x ? "load_x" : "load_w";
	struct tpl_args t;
	kgen_status st;

	tpl_init(&t);
	tpl_set(&t, "fn", "%s", fn);
	tpl_set(&t, "type", "%s", x ? "T" : "W");
	tpl_set(&t, "to_float", "%s", x ? "x_to_float" : "w_to_float");
	st = tpl_render_into(parts, fn, "rows/load.cu", &t, err);
	tpl_free(&t);
	return st;
}

/* The op's row functions. */
static kgen_status
op_functions(const struct kgen_spec *s, struct tpl_args *parts, kgen_error *err)
{
	struct tpl_args t;
	const char *tpl;
	kgen_status st;

	tpl_init(&t);
	tpl_show(&t, "regs", s->row_strategy != KGEN_ROWS_ONLINE);
	tpl_show(&t, "online", s->row_strategy == KGEN_ROWS_ONLINE || s->row_strategy == KGEN_ROWS_AUTO);
	switch (s->row_op) {
	case KGEN_ROW_SOFTMAX:
	case KGEN_ROW_LOG_SOFTMAX:
		tpl = "rows/softmax.cu";
		tpl_show(&t, "softmax", s->row_op == KGEN_ROW_SOFTMAX);
		tpl_set(&t, "what", "%s", s->row_op == KGEN_ROW_SOFTMAX ? "softmax" : "log-softmax");
		break;
	case KGEN_ROW_RMS_NORM:
		tpl = "rows/rms_norm.cu";
		break;
	case KGEN_ROW_LAYER_NORM:
		tpl = "rows/layer_norm.cu";
		break;
	default:
		tpl_free(&t);
		tpl_init(&t);  /* one function for every strategy */
		tpl = "rows/cross_entropy.cu";
		break;
	}
	st = tpl_render_into(parts, "op", tpl, &t, err);
	tpl_free(&t);
	return st;
}

/* Render template tpl into parts with no placeholders, or with a's. */
static kgen_status
part(struct tpl_args *parts, const char *name, const char *tpl, struct tpl_args *a, kgen_error *err)
{
	struct tpl_args none;
	kgen_status st;

	if (a)
		return tpl_render_into(parts, name, tpl, a, err);
	tpl_init(&none);
	st = tpl_render_into(parts, name, tpl, &none, err);
	tpl_free(&none);
	return st;
}

/* Does any of the spec's kernels take a row over a cluster's blocks? */
static int
has_clusters(const struct kgen_spec *s)
{
	struct kgen_rows_choice c[KGEN_MAX_STEPS];
	int n = kgen_rows_kernels(s, c, KGEN_MAX_STEPS);

	return c[n - 1].cluster > 1;  /* the clusters come last */
}

/* The helpers the kernels call, in the order they are used. */
static kgen_status
helpers(const struct kgen_spec *s, strbuf *b, kgen_error *err)
{
	int online = s->row_strategy == KGEN_ROWS_ONLINE || s->row_strategy == KGEN_ROWS_AUTO;
	int regs = s->row_strategy != KGEN_ROWS_ONLINE;
	int softmax = s->row_op == KGEN_ROW_SOFTMAX || s->row_op == KGEN_ROW_LOG_SOFTMAX;
	int xent = s->row_op == KGEN_ROW_CROSS_ENTROPY, cluster = has_clusters(s);
	struct kgen_rows_choice c[KGEN_MAX_STEPS];
	int n = kgen_rows_kernels(s, c, KGEN_MAX_STEPS), staged = c[n - 1].stages > 0, hold = holds_weights(s);
	struct tpl_args parts, stats, reduce, stage, loop, store;
	struct kgen_ptx ptx = { 0 };
	kgen_status st = KGEN_OK;
	size_t j;

	tpl_init(&parts);
	tpl_init(&stats);
	tpl_init(&reduce);
	tpl_init(&stage);
	tpl_init(&loop);
	tpl_init(&store);
	TRY(convert(&parts, "x_to_float", s->r.dtype, 0, err));
	if (kgen_rows_has_weight(s))
		TRY(convert(&parts, "w_to_float", &kgen_dtype_info[s->weight_dtype], 0, err));
	TRY(convert(&parts, "to_out", s->r.out, 1, err));
	TRY(part(&parts, "vec", "rows/vec.cu", NULL, err));
	TRY(element(&parts, 1, s->r.dtype, kgen_rows_has_weight(s), err));
	if (kgen_rows_has_weight(s))
		TRY(element(&parts, 0, &kgen_dtype_info[s->weight_dtype], 1, err));
	if (online || xent)  /* the streaming loops' loads, as floats */
		TRY(loader(&parts, 1, err));
	if (regs && !xent)
		TRY(part(&parts, "load_raw", "rows/load_raw.cu", NULL, err));
	if (kgen_rows_has_weight(s))
		TRY(loader(&parts, 0, err));
	if (kgen_rows_has_weight(s) && regs)
		TRY(part(&parts, "load_early", "rows/load_early.cu", NULL, err));
	if (kgen_rows_writes_y(s)) {  /* the row functions that hold a row have an exact path (kernel_regs.cu) */
		tpl_show(&store, "exact", regs);
		TRY(part(&parts, "store", "rows/store.cu", &store, err));
	}
	if (staged) {
		ptx.uses = KGEN_PTX_BIT(smem) | KGEN_PTX_BIT(mbarrier_init) | KGEN_PTX_BIT(fence_mbarrier_init) |
		           KGEN_PTX_BIT(mbarrier_arrive_expect_tx) | KGEN_PTX_BIT(mbarrier_wait) | KGEN_PTX_BIT(bulk_load);
		if (cluster)
			ptx.uses |= KGEN_PTX_BIT(cluster_sync) | KGEN_PTX_BIT(dsmem_store_async);
		TRY(kgen_ptx_render_into(&stage, "ptx", &ptx, err));
		TRY(part(&parts, "stage", "rows/stage.cu", &stage, err));
	}
	tpl_show(&stats, "max", softmax && regs);
	tpl_show(&stats, "sum", (softmax && regs) || s->row_op == KGEN_ROW_RMS_NORM ||
	                        (s->row_op == KGEN_ROW_LAYER_NORM && regs));
	tpl_show(&stats, "max_sum", xent || (softmax && online));
	tpl_show(&stats, "moments", s->row_op == KGEN_ROW_LAYER_NORM && online);
	TRY(part(&parts, "stats", "rows/stats.cu", &stats, err));
	if (cluster)
		TRY(part(&parts, "cluster", "rows/cluster.cu", NULL, err));
	tpl_show(&reduce, "cluster", cluster);
	TRY(part(&parts, "reduce", "rows/reduce.cu", &reduce, err));
	TRY(op_functions(s, &parts, err));
	if (staged) {
		tpl_show(&loop, "weights", hold);
		tpl_show(&loop, "cluster", cluster);
		tpl_show(&loop, "bias", kgen_rows_has_bias(s));
		tpl_set(&loop, "held_doc", "%s", !hold ? "" : kgen_rows_has_bias(s) ?
		        ",\n// then, where HOLD, the weight and the bias (the longest row's length each)" :
		        ",\n// then, where HOLD, the weight (the longest row's length)");
		tpl_set(&loop, "pad", "%s", s->row_op == KGEN_ROW_SOFTMAX || s->row_op == KGEN_ROW_LOG_SOFTMAX ?
		        "x_neg_inf()" : "T()");
		tpl_set(&loop, "call", "%s_held", kgen_row_ops[s->row_op].name);
		TRY(part(&parts, "staged_rows", "rows/staged_rows.cu", &loop, err));
	}
	if (parts.failed)
		TRY(kgen_fail(err, KGEN_ENOMEM, "out of memory"));
	for (j = 0; j < parts.n; j++) {
		const char *v = parts.v[j].value;
		size_t len = strlen(v);
		if (j)
			sb_puts(b, "\n");
		sb_puts(b, v);
		while (len && v[len - 1] == '\n' && b->len && b->s[b->len - 1] == '\n' && len--)
			b->s[--b->len] = '\0';
		sb_puts(b, "\n");
	}
	while (b->len && b->s[b->len - 1] == '\n')
		b->s[--b->len] = '\0';
	if (b->failed)
		TRY(kgen_fail(err, KGEN_ENOMEM, "out of memory"));
out:
	tpl_free(&parts);
	tpl_free(&stats);
	tpl_free(&reduce);
	tpl_free(&stage);
	tpl_free(&loop);
	tpl_free(&store);
	return st;
}

/* The kernels, in the contract's order. */
static kgen_status
kernels(const struct kgen_spec *s, strbuf *out, kgen_error *err)
{
	struct kgen_rows_choice c[KGEN_MAX_STEPS];
	int n = kgen_rows_kernels(s, c, KGEN_MAX_STEPS), i, hold = holds_weights(s);
	const char *op = kgen_row_ops[s->row_op].name;
	int xent = s->row_op == KGEN_ROW_CROSS_ENTROPY;
	kgen_status st = KGEN_OK;
	char sfx[32];

	for (i = 0; i < n && !st; i++) {
		struct tpl_args k;
		const char *tpl;

		tpl_init(&k);
		suffix(s, &c[i], sfx, sizeof sfx);
		tpl_set(&k, "name", "%s%s", kgen_spec_kernel_name(s), sfx);
		if (c[i].lanes >= 0) {
			tpl_set(&k, "vecs", "%d", c[i].vectors);
			if (!c[i].stages)
				tpl_set(&k, "call", "%s_row", op);
		}
		if (c[i].stages) {
			long long lanes = (c[i].lanes ? c[i].lanes : kgen_rows_block(s, &c[i])) * blocks_a_row(&c[i]);
			tpl = c[i].cluster > 1 ? "rows/kernel_cluster.cu" : "rows/kernel_staged.cu";
			tpl_set(&k, "lanes", "%lld", lanes);
			tpl_set(&k, "stages", "%d", c[i].stages);
			tpl_set(&k, "stages_s", "%s", c[i].stages > 1 ? "s" : "");
			tpl_set(&k, "stage_bytes", "%lld", stage_bytes(s, &c[i]));
			tpl_set(&k, "threads", "%lld", kgen_rows_block(s, &c[i]));
			tpl_set(&k, "smem", "%lld", kgen_rows_smem(s, &c[i]));
			if (c[i].cluster > 1) {
				tpl_set(&k, "blocks_a_row", "%d", c[i].cluster);
				tpl_set(&k, "held", "%s", !held_weights(s, &c[i]) ? "" : kgen_rows_has_bias(s) ?
				        ", then its part of the weight and the bias" : ", then its part of the weight");
				tpl_set(&k, "doc", "%d blocks of %lld threads per row, each thread holding up to %d loads of it: "
				        "rows of up to %llu elements.", c[i].cluster, kgen_rows_block(s, &c[i]), c[i].vectors,
				        kgen_rows_capacity(s, &c[i]) * (unsigned long long)s->r.vec);
			} else {
				tpl_set(&k, "blocks", "%d", staged_blocks(s, &c[i]));
				tpl_set(&k, "blocks_s", "%s", staged_blocks(s, &c[i]) > 1 ? "s" : "");
				tpl_set(&k, "held", "%s", !held_weights(s, &c[i]) ? "" : kgen_rows_has_bias(s) ?
				        ", then the weight and the bias" : ", then the weight");
				tpl_set(&k, "doc", "%lld threads per row, each holding up to %d loads of it: rows of up to %llu "
				        "elements, %d stage%s.", lanes, c[i].vectors,
				        kgen_rows_capacity(s, &c[i]) * (unsigned long long)s->r.vec, c[i].stages,
				        c[i].stages > 1 ? "s" : "");
			}
			tpl_set(&k, "hold_arg", "%s", !hold ? "" : held_weights(s, &c[i]) ? ", true" : ", false");
		} else if (c[i].lanes < 0) {
			tpl = "rows/kernel_online.cu";
			if (xent)
				tpl_set(&k, "call", "cross_entropy_row<THREADS, %d>(a, row, threadIdx.x, true)", c[i].vectors);
			else
				tpl_set(&k, "call", "%s_online<THREADS, %d>(a, row, threadIdx.x)", op, c[i].vectors);
			tpl_set(&k, "doc", "A block per row of any length, %d loads in flight a thread%s.", c[i].vectors,
			        xent ? "" : ", read twice");
		} else {
			long long lanes = c[i].lanes ? c[i].lanes : kgen_rows_block(s, &c[i]);
			tpl = "rows/kernel_regs.cu";
			tpl_set(&k, "lanes", "%lld", lanes);
			/* strategy warp's kernel has a path for rows of exactly its loads; auto's is a kernel of
			 * its own (exact_only) */
			tpl_show(&k, "exact", lanes <= 32 && !xent && s->row_strategy == KGEN_ROWS_WARP);
			tpl_show(&k, "exact_only", c[i].exact);
			tpl_set(&k, "aligned", "%s", kgen_rows_has_weight(s) ? "X_ALIGNED | Y_ALIGNED | W_ALIGNED" :
			        "X_ALIGNED | Y_ALIGNED");
			if (c[i].threads)  /* a block of its own size (KGEN_ROWS_AUTO_BLOCKS) */
				tpl_set(&k, "threads", "%d", c[i].threads);
			else
				tpl_set(&k, "threads", "%s", "THREADS");
			if (xent)
				tpl_set(&k, "doc", "%lld threads per row, streaming it %d loads at a time a thread.", lanes,
				        c[i].vectors);
			else if (c[i].exact)
				tpl_set(&k, "doc", "%lld threads per row, each holding %d loads of it: rows of exactly %llu elements, "
				        "x, y%s keeping whole vectors aligned.", lanes, c[i].vectors,
				        kgen_rows_capacity(s, &c[i]) * (unsigned long long)s->r.vec,
				        kgen_rows_has_bias(s) ? ", the weight and the bias" : kgen_rows_has_weight(s) ?
				        " and the weight" : "");
			else
				tpl_set(&k, "doc", "%lld threads per row, each holding up to %d loads of it: rows of up to %llu "
				        "elements.", lanes, c[i].vectors,
				        kgen_rows_capacity(s, &c[i]) * (unsigned long long)s->r.vec);
		}
		if (out->len)
			sb_puts(out, "\n");
		st = tpl_render(out, tpl, &k, err);
		tpl_free(&k);
	}
	while (out->len && out->s[out->len - 1] == '\n')
		out->s[--out->len] = '\0';
	return st;
}

/* What each field of struct Rows is for the op. */
static void
field_docs(const struct kgen_spec *s, struct tpl_args *f)
{
	int y = kgen_rows_writes_y(s), w = kgen_rows_has_weight(s), b = kgen_rows_has_bias(s);

	tpl_set(f, "y_doc", "%s", y ? "rows x cols, rows y_pitch elements apart" : "unused");
	tpl_set(f, "weight_doc", "%s", w ? "cols elements, or null (all ones)" : "unused");
	tpl_set(f, "bias_doc", "%s", b ? "cols elements, or null (all zeros)" : "unused");
	tpl_set(f, "labels_doc", "%s", y ? "unused" : "rows class indices");
	tpl_set(f, "loss_doc", "%s", y ? "unused" : "rows losses");
	tpl_set(f, "lse_doc", "%s", y ? "unused" : "rows log-sum-exps, or null");
	tpl_set(f, "ignore_doc", "%s", y ? "unused" : "the label whose loss is 0");
	tpl_set(f, "eps_doc", "%s", w ? "added to the variance" : "unused");
	tpl_set(f, "w_type", "%s", w ? "W" : "void");
	tpl_set(f, "label_type", "%s", y ? "void" : "Label");
}

static kgen_status
emit(const struct kgen_spec *s, const char *header, strbuf *out, kgen_error *err)
{
	const struct kgen_dtype_info *dt = s->r.dtype, *w = &kgen_dtype_info[s->weight_dtype];
	const struct kgen_dtype_info *label = &kgen_dtype_info[s->label_dtype];
	struct tpl_args file, c;
	strbuf help, ks;
	kgen_status st = KGEN_OK;

	tpl_init(&file);
	tpl_init(&c);
	sb_init(&help);
	sb_init(&ks);
	tpl_set(&file, "header", "%s", header);
	tpl_set(&file, "dtype", "%s", dt->name);
	tpl_set(&file, "out_dtype", "%s", s->r.out->name);
	tpl_set(&file, "t_ctype", "%s", dt->ctype);
	tpl_set(&file, "out_ctype", "%s", s->r.out->ctype);
	tpl_show(&file, "weight", kgen_rows_has_weight(s));
	tpl_set(&file, "w_ctype", "%s", w->ctype);
	tpl_set(&file, "w_dtype", "%s", w->name);
	tpl_set(&file, "w_what", "%s", kgen_rows_has_bias(s) ? "the weight and bias" : "the weight");
	tpl_show(&file, "labels", !kgen_rows_writes_y(s));
	tpl_set(&file, "label_ctype", "%s", label->ctype);
	tpl_set(&file, "label_dtype", "%s", label->name);
	field_docs(s, &file);
	tpl_set(&c, "threads", "%lld", s->threads);
	tpl_set(&c, "vec", "%lld", s->r.vec);
	tpl_set(&c, "load_width", "%lld", s->load_width);
	tpl_show(&c, "y", kgen_rows_writes_y(s));
	tpl_show(&c, "weight", kgen_rows_has_weight(s));
	tpl_show(&c, "weight_regs", kgen_rows_has_weight(s) && s->row_strategy != KGEN_ROWS_ONLINE);
	tpl_show(&c, "cluster", has_clusters(s));
	tpl_show(&c, "neg_inf", s->row_op != KGEN_ROW_RMS_NORM && s->row_op != KGEN_ROW_LAYER_NORM);
	tpl_show(&c, "regs_neg_inf", (s->row_op == KGEN_ROW_SOFTMAX || s->row_op == KGEN_ROW_LOG_SOFTMAX) &&
	                             s->row_strategy != KGEN_ROWS_ONLINE);
	tpl_set(&c, "x_neg_inf", "%s", dt->cls == DT_HALF ? "0xfc00" : dt->cls == DT_BHALF ? "0xff80"
	                                                               : "__uint_as_float(0xff800000u)");
	TRY(tpl_render_into(&file, "constants", "rows/constants.cu", &c, err));
	TRY(helpers(s, &help, err));
	tpl_set(&file, "helpers", "%s", help.s ? help.s : "");
	TRY(kernels(s, &ks, err));
	if (ks.failed)
		TRY(kgen_fail(err, KGEN_ENOMEM, "out of memory"));
	tpl_set(&file, "kernels", "%s", ks.s);
	st = tpl_render(out, "rows/file.cu", &file, err);
out:
	tpl_free(&file);
	tpl_free(&c);
	sb_free(&help);
	sb_free(&ks);
	return st;
}

/* ---- the family ---- */

#define ALL_BUT_AUTO (KGEN_BIT(KGEN_ROWS_WARP) | KGEN_BIT(KGEN_ROWS_BLOCK) | KGEN_BIT(KGEN_ROWS_CLUSTER) | \
                      KGEN_BIT(KGEN_ROWS_STAGED) | KGEN_BIT(KGEN_ROWS_ONLINE))
#define NORMS (KGEN_BIT(KGEN_ROW_RMS_NORM) | KGEN_BIT(KGEN_ROW_LAYER_NORM))

#define FLOATS (KGEN_BIT(KGEN_DT_F32) | KGEN_BIT(KGEN_DT_F16) | KGEN_BIT(KGEN_DT_BF16))

static const struct kgen_only_with only_with[] = {
	/* What the family takes of the language's values (kgen keys rows lists these) */
	{ KGEN_KEY_dtype, KGEN_KEY_dtype, FLOATS, "kernel: rows reads f32, f16 or bf16 elements, not {v} (its statistics are f32)" },
	{ KGEN_KEY_out_dtype, KGEN_KEY_out_dtype, FLOATS, "out_dtype {v}: kernel: rows writes f32, f16 or bf16" },
	{ KGEN_KEY_weight_dtype, KGEN_KEY_weight_dtype, FLOATS, "weight_dtype {v}: the weight and bias are f32, f16 or bf16" },
	{ KGEN_KEY_label_dtype, KGEN_KEY_label_dtype, KGEN_BIT(KGEN_DT_I32) | KGEN_BIT(KGEN_DT_I64),
	  "label_dtype {v}: labels are i32 or i64 (torch's are i64)" },
	{ KGEN_KEY_cluster_size, KGEN_KEY_cluster_size, KGEN_BIT(2) | KGEN_BIT(4) | KGEN_BIT(8) | KGEN_BIT(16),
	  "cluster_size {v}: a cluster of 2, 4 or 8 blocks (the portable sizes), or 16 (sm_90, where the GPU allows it)" },
	{ KGEN_KEY_lanes, KGEN_KEY_row_strategy, KGEN_BIT(KGEN_ROWS_WARP) | KGEN_BIT(KGEN_ROWS_STAGED),
	  "lanes needs strategy: warp or staged, not {w} (a block or a cluster per row; auto chooses its own)" },
	{ KGEN_KEY_vectors, KGEN_KEY_row_strategy, ALL_BUT_AUTO,
	  "vectors needs strategy: warp, block, cluster, staged or online (auto chooses its own)" },
	{ KGEN_KEY_cluster_size, KGEN_KEY_row_strategy, KGEN_BIT(KGEN_ROWS_CLUSTER),
	  "cluster_size needs strategy: cluster, not {w}" },
	{ KGEN_KEY_weight_dtype, KGEN_KEY_row_op, NORMS,
	  "weight_dtype needs op: rms_norm or layer_norm (op: {w} has no weight)" },
	{ KGEN_KEY_label_dtype, KGEN_KEY_row_op, KGEN_BIT(KGEN_ROW_CROSS_ENTROPY),
	  "label_dtype needs op: cross_entropy (op: {w} has no labels)" },
	{ KGEN_KEY_COUNT, KGEN_KEY_COUNT, 0, NULL },
};

static const enum kgen_key keys[] = {
	KGEN_KEY_kernel, KGEN_KEY_name, KGEN_KEY_row_op, KGEN_KEY_dtype, KGEN_KEY_out_dtype, KGEN_KEY_weight_dtype,
	KGEN_KEY_label_dtype, KGEN_KEY_threads, KGEN_KEY_load_width, KGEN_KEY_row_strategy, KGEN_KEY_lanes,
	KGEN_KEY_vectors, KGEN_KEY_cluster_size, KGEN_KEY_COUNT,
};

static const struct kgen_arch_need arch_needs[] = {
	{ KGEN_KEY_row_strategy, KGEN_BIT(KGEN_ROWS_CLUSTER), 90, "thread block clusters, distributed shared memory",
	  "strategy: online or auto", 0 },
	{ KGEN_KEY_row_strategy, KGEN_BIT(KGEN_ROWS_STAGED), 90, "the TMA unit's bulk copies, mbarriers",
	  "strategy: auto (which stages rows on sm_90 only)", 0 },
	{ .min_sm = 0 },
};

/* What a spec computes (family.h): plans' entries and tunings' points agree on it. */
static const enum kgen_key computes[] = {
	KGEN_KEY_row_op, KGEN_KEY_dtype, KGEN_KEY_out_dtype, KGEN_KEY_weight_dtype, KGEN_KEY_label_dtype, KGEN_KEY_COUNT,
};

const struct kgen_family kgen_family_rows = {
	.name = "rows",
	.size = KGEN_SIZE_SHAPE,
	.keys = keys,
	.computes = computes,
	.only_with = only_with,
	.arch_needs = arch_needs,
	.check = check,
	.contract = contract,
	.emit = emit,
};
