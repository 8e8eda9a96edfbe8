/*
 * reduce_axis_launch.c - kgen_reduce_axis(): a `kernel: reduce_axis` spec on
 * a rows x cols matrix.  The launch geometry the spec leaves to run time
 * (blocks per row, the column tiles, the parts of the rows) is chosen here
 * from the shape and the GPU, and every argument is checked before
 * anything is launched.
 */
#include "config.h"
#include <string.h>
#include "runtime.h"
#include "gen/reduce_axis.h"
#include "gen/op.h"

/* No launch state of its own (runtime.h). */
const struct kgen_launcher kgen_launcher_reduce_axis = { .free_state = NULL };

static unsigned long long
ceil_div(unsigned long long a, unsigned long long b)
{
	return a / b + (a % b != 0);
}

/* Blocks of kernel fn the GPU runs at once, for the grid heuristics. */
static unsigned long long
resident(const kgen_kernel *k, int fn)
{
	return (unsigned long long)k->ctx->sm_count * (unsigned long long)(k->occupancy[fn] > 0 ? k->occupancy[fn] : 1);
}

/* The spec's split, or the one chosen (at most `most`), kept in 1..65535. */
static unsigned int
clamp_split(const struct kgen_spec *s, unsigned long long split, unsigned long long most)
{
	if (!s->split && split > most)
		split = most;
	if (split < 1)
		split = 1;
	return split > 65535 ? 65535 : (unsigned int)split;
}

/* The parts of the rows for the tile kernel with `lanes` threads a row
 * segment: the spec's split, or enough for one wave of blocks, in parts of
 * at least eight rows a thread. */
static unsigned int
tile_split(const kgen_kernel *k, int fn, unsigned long long rows, unsigned long long cols, unsigned long long lanes)
{
	const struct kgen_spec *s = &k->spec;
	unsigned long long vec = (unsigned long long)s->r.vec, tiles = ceil_div(cols ? cols : 1, lanes * vec);
	unsigned long long most = rows / ((unsigned long long)s->threads / lanes * 8);

	return clamp_split(s, s->split ? (unsigned long long)s->split : resident(k, fn) / tiles, most);
}

/* How one launch is laid out. */
struct geometry {
	enum kgen_strategy kind;      /* thread, warp (lanes per row), block or tile */
	int fn;                       /* which of the plan's kernels */
	unsigned long long grid;      /* blocks */
	unsigned int split;           /* block: blocks per row; tile: parts of the rows */
	unsigned int lanes, tiles;    /* warp: threads per row; tile: threads per row segment, column tiles */
	unsigned int groups;          /* warp: rows per thread at once */
	unsigned long long tickets;   /* counters in scratch */
	unsigned long long partials;  /* accumulators in scratch */
};

/* strategy: auto on columns, one column of pitch 1 (or one row): rows
 * elements one after another, which its _block kernel (fn 1) reduces as
 * one row of that length; the tile kernel would give each thread one
 * element a load (on an H200, 1000003x1 f32 took 13.6-14.8 us against
 * 9.2-10.4 us for the same bytes as one row, bench/results/nvidia-h200/2026-11-29-check). */
static int
column_run(const struct kgen_spec *s, unsigned long long rows, unsigned long long cols, unsigned long long pitch)
{
	return s->strategy == KGEN_STRATEGY_AUTO && s->axis == KGEN_AXIS_COLS && cols == 1 && (pitch == 1 || rows <= 1);
}

/* The kernel for the shape: the spec's strategy, or for strategy: auto on
 * rows the one of kgen_axis_choices(s) that takes rows of cols elements;
 * rows that are not all load_width-aligned pass over the choices of several
 * rows per thread (a vector a lane), which would read them element by
 * element, to the next that takes them. */
static void
choose(const struct kgen_spec *s, unsigned long long cols, int aligned, int run, struct geometry *g)
{
	unsigned long long vectors = ceil_div(cols, (unsigned long long)s->r.vec);
	const struct kgen_axis_choice *c;

	g->kind = (enum kgen_strategy)s->strategy;
	g->lanes = (unsigned int)s->lanes;
	g->groups = 1;
	if (s->strategy != KGEN_STRATEGY_AUTO)
		return;
	if (s->axis == KGEN_AXIS_COLS) {
		g->kind = run ? KGEN_STRATEGY_BLOCK : KGEN_STRATEGY_TILE;
		g->fn = run;
		return;
	}
	for (c = kgen_axis_choices(s); c->lanes; c++, g->fn++)
		if (vectors <= (unsigned long long)c->vectors && (aligned || c->groups == 1)) {
			g->kind = KGEN_STRATEGY_WARP;
			g->lanes = (unsigned int)c->lanes;
			g->groups = (unsigned int)c->groups;
			return;
		}
	g->kind = KGEN_STRATEGY_BLOCK;
}

/* The layout for a rows x cols matrix whose rows' vectors are all aligned
 * or not, or (run) for a column run of cols elements given as one row; an
 * error when it does not fit a grid. */
static kgen_status
geometry(const kgen_kernel *k, unsigned long long rows, unsigned long long cols, int aligned, int run,
         struct geometry *g, kgen_error *err)
{
	const struct kgen_spec *s = &k->spec;
	unsigned long long vec = (unsigned long long)s->r.vec, threads = (unsigned long long)s->threads;
	unsigned long long split, most, lanes, per_block;
	kgen_status st;

	memset(g, 0, sizeof *g);
	g->split = 1;
	choose(s, cols, aligned, run, g);
	/* A lazy kernel's choice is built before its occupancy is read (the
	 * kernel is the context's, built once whatever the caller's const). */
	if ((st = kgen_kernel_step((kgen_kernel *)k, g->fn, err)) != KGEN_OK)
		return st;
	switch (g->kind) {
	case KGEN_STRATEGY_THREAD:
		g->grid = ceil_div(s->axis == KGEN_AXIS_ROWS ? rows : cols, threads);
		break;
	case KGEN_STRATEGY_WARP:
		/* A block for each threads / lanes * groups rows, so that the
		 * blocks in flight, started in order, read the matrix nearly in
		 * order, when those rows hold KGEN_AXIS_PASS_BYTES or more;
		 * shorter rows (and grids past 2^31 - 1 blocks) take four waves
		 * of blocks that walk the rows a grid apart. */
		per_block = threads / g->lanes * g->groups;  /* rows */
		g->grid = ceil_div(rows, per_block);
		if (g->grid > 4 * resident(k, g->fn) &&
		    (per_block * cols * (unsigned long long)s->r.dtype->size < KGEN_AXIS_PASS_BYTES || g->grid > 0x7fffffffull))
			g->grid = 4 * resident(k, g->fn);
		break;
	case KGEN_STRATEGY_BLOCK:
		/* Enough blocks for eight waves when the rows alone are too few,
		 * but parts of at least four vectors per thread. */
		most = cols / (threads * vec * 4);
		split = s->split ? (unsigned long long)s->split : ceil_div(8 * resident(k, g->fn), rows ? rows : 1);
		g->split = clamp_split(s, split, most);
		if (rows > 0x7fffffffull)  /* a block per row at least: more than a grid holds (and no wrap below) */
			return kgen_fail(err, KGEN_EINVAL, "a %llu x %llu matrix needs a block per row, more than a grid holds",
			                 rows, cols);
		g->grid = rows * g->split;
		if (g->split > 1) {
			g->tickets = rows;
			g->partials = rows * g->split;
		}
		break;
	default:
		/* Tiles as wide as the block (a thread per vector of a row), made
		 * narrower, down to a warp, while there are fewer tiles than the
		 * GPU runs blocks at once and rows enough for the row groups.
		 * Then, when the tiles still do not fill the GPU, the rows are cut
		 * into parts, one wave of blocks in all: every block has the same
		 * work, and the last block of a tile combines the parts. */
		for (lanes = 1; lanes < threads && lanes * vec < cols; lanes *= 2)
			;
		while (lanes > 32 && ceil_div(cols, lanes * vec) < resident(k, g->fn) && rows >= 2 * (threads / (lanes / 2)))
			lanes /= 2;
		/* Narrower still, down to a 128-byte segment of a row, while the
		 * last block would combine more than one part a thread (tall
		 * matrices: a tile's split parts are read by its threads / lanes
		 * row groups) and the narrower tiles are whole and still one wave.
		 * On an H200, f32 columns read at 0.983-0.986 of CUB's sum of the
		 * same bytes at 1048576x256 (8 lanes, 66 parts) against 0.948-0.952
		 * (32 lanes, 264 parts), 0.964-0.972 against 0.950-0.954 at
		 * 4194304x64 and 0.973-0.987 against 0.913-0.917 at 2097152x128;
		 * the narrower tiles lost where they are not whole or make more
		 * than a wave (bench/results/nvidia-h200/2026-11-29-column-run). */
		while (lanes * (unsigned long long)s->load_width > 128 &&
		       tile_split(k, g->fn, rows, cols, lanes) > threads / lanes &&
		       cols % (lanes / 2 * vec) == 0 && cols / (lanes / 2 * vec) <= resident(k, g->fn) &&
		       rows >= 2 * (threads / (lanes / 2)))
			lanes /= 2;
		g->lanes = (unsigned int)lanes;
		if (ceil_div(cols, lanes * vec) > 0xffffffffull)
			return kgen_fail(err, KGEN_EINVAL, "%llu columns need more than 2^32 column tiles", cols);
		g->tiles = (unsigned int)ceil_div(cols ? cols : 1, lanes * vec);
		g->split = tile_split(k, g->fn, rows, cols, lanes);
		g->grid = (unsigned long long)g->tiles * g->split;
		if (g->split > 1) {
			g->tickets = g->tiles;
			g->partials = (unsigned long long)g->split * cols;
		}
		break;
	}
	if (g->grid > 0x7fffffffull)
		return kgen_fail(err, KGEN_EINVAL, "a %llu x %llu matrix needs %llu blocks, more than a grid holds", rows, cols,
		                 g->grid);
	return KGEN_OK;
}

/* Scratch bytes of a geometry: the tickets, then the partials 16-byte aligned. */
static size_t
scratch_bytes(const kgen_kernel *k, const struct geometry *g)
{
	if (!g->partials)
		return 0;
	return (size_t)((g->tickets * 4 + 15) / 16 * 16 + g->partials * (unsigned long long)k->spec.r.acc_bytes);
}

/* rows, cols and pitch are sane, and the matrix's bytes do not wrap. */
static kgen_status
check_shape(const kgen_kernel *k, unsigned long long rows, unsigned long long cols, unsigned long long pitch,
            kgen_error *err)
{
	unsigned long long size = (unsigned long long)k->spec.r.dtype->size;

	if (pitch < cols)
		return kgen_fail(err, KGEN_EINVAL, "pitch %llu is less than cols %llu: rows would overlap", pitch, cols);
	if (rows && pitch > (~0ull >> 1) / size / rows)
		return kgen_fail(err, KGEN_EINVAL, "a %llu x %llu matrix (pitch %llu) of %s is too large", rows, cols, pitch,
		                 k->spec.r.dtype->name);
	return KGEN_OK;
}

kgen_status
kgen_reduce_axis_scratch_size(const kgen_kernel *k, unsigned long long rows, unsigned long long cols, size_t *bytes,
                              kgen_error *err)
{
	struct geometry g;
	size_t run_bytes;
	kgen_status st;

	if (!bytes)
		return kgen_fail(err, KGEN_EINVAL, "kgen_reduce_axis_scratch_size: NULL argument");
	if ((st = kgen_kernel_expect(k, KGEN_REDUCE_AXIS, "kgen_reduce_axis_scratch_size", err)) ||
	    (st = check_shape(k, rows, cols, cols, err)) || (st = geometry(k, rows, cols, 1, 0, &g, err)))
		return st;  /* alignment picks between kernels of no scratch */
	*bytes = scratch_bytes(k, &g);
	/* One column: pitch 1 reads it as one row, any other pitch as a column. */
	if (column_run(&k->spec, rows, cols, 1)) {
		if ((st = geometry(k, 1, rows, 1, 1, &g, err)))
			return st;
		run_bytes = scratch_bytes(k, &g);
		if (run_bytes > *bytes)
			*bytes = run_bytes;
	}
	return KGEN_OK;
}

/* The outputs (and the caller's scratch) apart from one another and from
 * the matrix they are reduced from. */
static kgen_status
outputs_apart(const char *who, kgen_devptr in, unsigned long long in_bytes, kgen_devptr out, unsigned long long out_bytes,
              kgen_devptr index, unsigned long long index_bytes, kgen_devptr scratch, size_t need, kgen_error *err)
{
	const struct kgen_span spans[] = {
		{ "out", out, out_bytes },
		{ "index", index, index ? index_bytes : 0 },
		{ "scratch", scratch, scratch ? need : 0 },
		{ "in", in, in_bytes },
	};

	return kgen_refuse_overlaps(who, spans, (int)KGEN_COUNT(spans), 3, err);
}

/* index != 0: the pair's second output (kgen_reduce_axis_arg: arg). */
static kgen_status
kgen_reduce_axis_body(kgen_kernel *k, kgen_devptr in, unsigned long long rows, unsigned long long cols,
                 unsigned long long pitch, kgen_devptr out, kgen_devptr index, kgen_devptr scratch,
                 size_t scratch_size, kgen_stream stream_, int arg, kgen_error *err)
{
	const char *who = arg ? "kgen_reduce_axis_arg" : "kgen_reduce_axis";
	const struct kgen_spec *s;
	CUstream stream = (CUstream)stream_;
	unsigned long long outputs, size, asize, tick_bytes, in_bytes = 0;
	struct geometry g;
	CUdeviceptr partials = 0, tickets = 0;
	struct { CUdeviceptr value, index; } pair = { out, index };
	void *results = &out;
	size_t need;
	int aligned, run = 0;
	kgen_status st;

	if ((st = kgen_kernel_expect(k, KGEN_REDUCE_AXIS, who, err)) ||
	    (st = kgen_expect_outputs(k, arg, index, "kgen_reduce_axis", err)))
		return st;
	s = &k->spec;
	size = (unsigned long long)s->r.dtype->size;
	asize = (unsigned long long)s->r.out->size;
	outputs = s->axis == KGEN_AXIS_ROWS ? rows : cols;
	if (!pitch)  /* packed, as every other call takes 0 */
		pitch = cols;
	if ((st = check_shape(k, rows, cols, pitch, err)))
		return st;
	if (!outputs)
		return KGEN_OK;
	if (!out)
		return kgen_fail(err, KGEN_EINVAL, "%s: out is NULL", who);
	if (out % asize)
		return kgen_fail(err, KGEN_EINVAL, "out (0x%llx) is not aligned to its %llu-byte %s", out, asize,
		                 s->r.out->name);
	if (s->r.pair) {
		if (index % 8)
			return kgen_fail(err, KGEN_EINVAL, "index (0x%llx) is not aligned to its 8-byte i64", index);
		results = &pair;
	}
	if (rows && cols) {
		in_bytes = ((rows - 1) * pitch + cols) * size;
		if (!in)
			return kgen_fail(err, KGEN_EINVAL, "%s: in is NULL", who);
		if (in % size)
			return kgen_fail(err, KGEN_EINVAL, "in (0x%llx) is not aligned to its %llu-byte %s", in, size,
			                 s->r.dtype->name);
	}
	/* The vectors of every row are aligned when `in` and the row pitch are. */
	aligned = in % (unsigned long long)s->load_width == 0 &&
	          (rows == 1 || (pitch * size) % (unsigned long long)s->load_width == 0);
	if (column_run(s, rows, cols, pitch)) {  /* one row of `rows` elements (errors name the caller's shape) */
		cols = pitch = rows;
		rows = 1;
		run = 1;
	}
	if ((st = geometry(k, rows, cols, aligned, run, &g, err)))
		return st;
	need = scratch_bytes(k, &g);
	if ((st = outputs_apart(who, in, in_bytes, out, outputs * asize, s->r.pair ? index : 0, outputs * 8,
	                        need ? scratch : 0, need, err)))
		return st;
	if ((st = kgen_context_enter(k->ctx, err)) != KGEN_OK)  /* before any allocation: the thread may have no context */
		return st;
	if (need && !scratch) {
		if ((st = kgen_own_scratch(k, need, stream, err)) != KGEN_OK)
			return st;
		scratch = k->scratch;
	} else if (need && scratch % 16) {
		return kgen_fail(err, KGEN_EINVAL, "scratch (0x%llx) is not aligned to 16 bytes", scratch);
	} else if (need && scratch_size < need) {
		return kgen_fail(err, KGEN_EINVAL, "scratch of %zu bytes is too small: %zu needed for a %llu x %llu matrix",
		                 scratch_size, need, run ? cols : rows, run ? 1ull : cols);
	}
	if (need) {
		tick_bytes = (g.tickets * 4 + 15) / 16 * 16;
		tickets = scratch;
		partials = scratch + tick_bytes;
	}
	switch (g.kind) {
	case KGEN_STRATEGY_THREAD:
	case KGEN_STRATEGY_WARP: {
		void *args[] = { &in, results, &rows, &cols, &pitch };
		return kgen_launch(k->ctx->cu, k->fn[g.fn], g.grid, s->threads, 0, args, stream, err);
	}
	case KGEN_STRATEGY_BLOCK: {
		void *args[] = { &in, results, &rows, &cols, &pitch, &g.split, &partials, &tickets };
		return kgen_launch(k->ctx->cu, k->fn[g.fn], g.grid, s->threads, 0, args, stream, err);
	}
	default: {
		void *args[] = { &in, results, &rows, &cols, &pitch, &g.lanes, &g.tiles, &g.split, &aligned, &partials,
		                 &tickets };
		return kgen_launch(k->ctx->cu, k->fn[g.fn], g.grid, s->threads, 0, args, stream, err);
	}
	}
}

/* The work above, leaving the caller's current context as it was. */
kgen_status
kgen_reduce_axis(kgen_kernel *k, kgen_devptr in, unsigned long long rows, unsigned long long cols,
                 unsigned long long pitch, kgen_devptr out, kgen_devptr scratch, size_t scratch_size,
                 kgen_stream stream, kgen_error *err)
{
	CUcontext saved;
	kgen_status st;

	if (!k)
		return kgen_fail(err, KGEN_EINVAL, "kgen_reduce_axis: NULL kernel");
	saved = kgen_context_save(k->ctx);
	st = kgen_reduce_axis_body(k, in, rows, cols, pitch, out, 0, scratch, scratch_size, stream, 0,
	                           err);
	kgen_context_restore(k->ctx, saved);
	return st;
}

kgen_status
kgen_reduce_axis_arg(kgen_kernel *k, kgen_devptr in, unsigned long long rows, unsigned long long cols,
                     unsigned long long pitch, kgen_devptr value, kgen_devptr index, kgen_devptr scratch,
                     size_t scratch_size, kgen_stream stream, kgen_error *err)
{
	CUcontext saved;
	kgen_status st;

	if (!k)
		return kgen_fail(err, KGEN_EINVAL, "kgen_reduce_axis_arg: NULL kernel");
	saved = kgen_context_save(k->ctx);
	st = kgen_reduce_axis_body(k, in, rows, cols, pitch, value, index, scratch, scratch_size, stream,
	                           1, err);
	kgen_context_restore(k->ctx, saved);
	return st;
}
