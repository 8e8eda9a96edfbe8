/*
 * scan_check.c - a scan's result against the CPU reference of each
 * element's prefix (cli/reference.c, folded element by element: integers,
 * min and max exactly, floats within eps(acc) times the depth of the
 * kernel's combination chain, the tiles before the element's included,
 * times the sum of |x| up to it), in parts on every CPU: `kgen run
 * --verify` and kgen tune's check of kernel: scan (cli/run_scan.c).
 */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/reference.h"
#include "cli/scan_check.h"
#include "gen/parallel.h"
#include "gen/scan.h"

/* The depth of the kernel's combination chain for element i: its thread's
 * items, the block scan's steps (warps: five shuffles in a warp and five
 * over the warp totals; hillis_steele: log2(threads); blelloch: an up-sweep
 * and a down-sweep, twice that), five shuffles over the tile's group
 * mates and five for a group's total, and a step for each group of 32
 * tiles before it (a group's prefix is a left-to-right chain of the group
 * totals; strategy: block carries one across the tiles, a step each). */
static int
depth_at(const kgen_spec *s, unsigned long long i)
{
	unsigned long long tiles = i / kgen_scan_tile(s);
	unsigned long long chain = s->scan_strategy == KGEN_SCAN_STRATEGY_BLOCK ? tiles : tiles / 32 + 10;
	int log2_threads = 0, block, depth;

	while ((1ll << log2_threads) < s->threads)
		log2_threads++;
	block = s->axis == KGEN_AXIS_COLS              ? 5  /* the row groups across a warp */
	        : s->block_scan == KGEN_BS_BLELLOCH ? 2 * log2_threads
	        : s->block_scan == KGEN_BS_WARPS    ? 10
	                                            : log2_threads;
	depth = (int)s->items_per_thread + block + 4;
	return chain > 0x3fffffffull ? 0x7fffffff : depth + (int)chain;
}

/* The check of c->back in parts on every CPU (kgen_parallel_for): a part
 * is lines [g * per, (g + 1) * per), rows one after another, or columns
 * side by side, read a row at a time (one column after another read a
 * cache line an element: a check of 1048576 x 1024 took minutes); and of
 * those lines, where they are few and long (a vector, a narrow matrix's
 * columns), elements [q * SEGMENT, (q + 1) * SEGMENT) of each, from the
 * reference of the elements before (starts: each segment's elements
 * folded first, side by side, then merged along the line). */
#ifndef KGEN_SCAN_SEGMENT
#define KGEN_SCAN_SEGMENT (1ull << 20)
#endif
#define SEGMENT KGEN_SCAN_SEGMENT
#ifdef KGEN_SCAN_CHECK_TEST
unsigned long long kgen_scan_check_segs;  /* tests/scan_check_test: the last check's segments a line */
#endif

struct scan_check {
	const kgen_spec *s;
	const struct kgen_scan_result *c;
	int down, inclusive;
	unsigned long long lines, length, per, step;  /* step: from a line's element to its next, in the input */
	unsigned long long segs;                     /* the segments of a line (1: whole lines) */
	struct reference *starts;                    /* line r's segment q's starting reference: [r * segs + q] */
	struct {
		unsigned long long bad, line, at;  /* the part's wrong elements, its first's line and index */
		int no_memory;
	} *parts;
};

/* Line r's input and element i's result of it. */
static const unsigned char *
line_in(const struct scan_check *k, unsigned long long r)
{
	return k->c->host + (k->down ? r : r * k->c->pitch) * (size_t)k->s->r.dtype->size;
}

static const unsigned char *
result_at(const struct scan_check *k, unsigned long long r, unsigned long long i)
{
	unsigned long long at = k->down ? r + i * k->c->cols : r * k->c->cols + i;

	return k->c->back + at * (size_t)k->s->r.out->size;
}

/* Element i of a line against run, its reference before or after i (mode):
 * ok or not, the reference finished in *at. */
static int
element_ok(const struct scan_check *k, const struct reference *run, unsigned long long r, unsigned long long i,
           struct reference *at)
{
	*at = *run;
	kgen_reference_finish(k->s, at);
	at->depth = depth_at(k->s, i);
	return kgen_result_ok(k->s, result_at(k, r, i), k->inclusive ? i + 1 : i, at);
}

/* Element i of line r through run: added to it (before the check in an
 * inclusive scan, after it in an exclusive one) and checked; ok or not, its
 * reference finished in *at. */
static int
step(const struct scan_check *k, struct reference *run, unsigned long long r, unsigned long long i,
     struct reference *at)
{
	int ok;

	if (k->inclusive)
		kgen_reference_add(k->s, run, line_in(k, r), i * k->step);
	ok = element_ok(k, run, r, i, at);
	if (!k->inclusive)
		kgen_reference_add(k->s, run, line_in(k, r), i * k->step);
	return ok;
}

/* Part p's lines and elements: [*first, *end) and [*from, *to). */
static void
part_range(const struct scan_check *k, int p, unsigned long long *first, unsigned long long *end,
           unsigned long long *from, unsigned long long *to)
{
	unsigned long long g = (unsigned long long)p / k->segs, q = (unsigned long long)p % k->segs;

	*first = g * k->per;
	*end = *first + k->per < k->lines ? *first + k->per : k->lines;
	*from = q * SEGMENT;
	*to = k->segs > 1 && *from + SEGMENT < k->length ? *from + SEGMENT : k->length;
}

/* The first pass where lines are cut into segments: each segment's elements
 * folded from the identity, into its place in starts (the last segment's,
 * which no segment follows, left out). */
static void
fold_part(void *arg, int p)
{
	struct scan_check *k = arg;
	unsigned long long first, end, from, to, r, i;

	part_range(k, p, &first, &end, &from, &to);
	if ((unsigned long long)p % k->segs == k->segs - 1)
		return;
	for (r = first; r < end; r++) {
		struct reference *f = &k->starts[r * k->segs + (unsigned long long)p % k->segs];
		kgen_reference_init_at(k->s, f, from);
		for (i = from; i < to; i++)
			kgen_reference_add(k->s, f, line_in(k, r), i * k->step);
	}
}

/* Each line's segment totals, folded in place along it into each segment's
 * starting reference: the identity, then the elements before. */
static void
chain_starts(struct scan_check *k)
{
	unsigned long long r, q;
	struct reference before, total;

	for (r = 0; r < k->lines; r++) {
		struct reference *line = &k->starts[r * k->segs];
		kgen_reference_init(k->s, &before);
		for (q = 0; q < k->segs; q++) {
			if (q + 1 < k->segs)  /* the last segment's total was not folded: none follows it */
				total = line[q];
			line[q] = before;
			if (q + 1 < k->segs)
				kgen_reference_merge(k->s, &before, &total);
		}
	}
}

static void
check_part(void *arg, int part)
{
	struct scan_check *k = arg;
	unsigned long long first, end, from, to, r0, r, i, m, side;
	struct reference *run, at;

	part_range(k, part, &first, &end, &from, &to);
	side = k->down ? end - first : 1;
	if (!(run = malloc((size_t)side * sizeof *run))) {
		k->parts[part].no_memory = 1;
		return;
	}
	for (r0 = first; r0 < end; r0 += side) {
		m = end - r0 < side ? end - r0 : side;
		for (r = 0; r < m; r++)
			if (k->starts)
				run[r] = k->starts[(r0 + r) * k->segs + (unsigned long long)part % k->segs];
			else
				kgen_reference_init(k->s, &run[r]);
		for (i = from; i < to; i++)
			for (r = r0; r < r0 + m; r++)
				if (!step(k, &run[r - r0], r, i, &at) && !k->parts[part].bad++)
					k->parts[part].line = r, k->parts[part].at = i;
	}
	free(run);
}

/* scan_check.h */
unsigned long long
kgen_scan_errors(const kgen_spec *s, const struct kgen_scan_result *c, char *msg, size_t len)
{
	struct scan_check k = { s, c, s->axis == KGEN_AXIS_COLS, s->scan_mode == KGEN_SCAN_INCLUSIVE, 0, 0, 0, 0, 1,
	                        NULL, NULL };
	unsigned long long bad = 0, r, i;
	struct reference run, at;
	char what[300];
	int n, p, shown = -1;

	/* line r of lines: a row (element i at r * pitch + i) or a column (at i * pitch + r) */
	k.lines = k.down ? c->cols : c->rows;
	k.length = k.down ? c->rows : c->cols;
	k.step = k.down ? c->pitch : 1;
	k.per = (k.lines + 255) / 256;
	if (k.down)
		k.per = k.per < 16 ? 16 : k.per > 1024 ? 1024 : k.per;
	n = (int)((k.lines + k.per - 1) / k.per);
	if (!n)
		return 0;
	if (n < 64 && k.length >= 2 * SEGMENT)  /* few long lines: each in segments too */
		k.segs = (k.length + SEGMENT - 1) / SEGMENT;
	n *= (int)k.segs;
	if (!(k.parts = calloc((size_t)n, sizeof *k.parts)) ||
	    (k.segs > 1 && !(k.starts = malloc((size_t)(k.lines * k.segs) * sizeof *k.starts)))) {
		free(k.parts);
		return ~0ull;
	}
	if (k.segs > 1) {
		kgen_parallel_for(n, 0, fold_part, &k);
		chain_starts(&k);
	}
	kgen_parallel_for(n, 0, check_part, &k);
#ifdef KGEN_SCAN_CHECK_TEST
	kgen_scan_check_segs = k.segs;
#endif
	for (p = 0; p < n; p++) {
		if (k.parts[p].no_memory) {
			free(k.parts);
			free(k.starts);
			return ~0ull;
		}
		/* the first wrong element: down the columns the earliest row's leftmost (a part's first is its
		 * earliest row's leftmost), along rows the first row's first */
		if (k.parts[p].bad && (shown < 0 || (k.down && k.parts[p].at < k.parts[shown].at)))
			shown = p;
		bad += k.parts[p].bad;
	}
	if (shown >= 0) {  /* the first wrong element again, from its segment's start, its reference made to say why */
		unsigned long long from = 0;
		r = k.parts[shown].line;
		if (k.starts) {
			run = k.starts[r * k.segs + k.parts[shown].at / SEGMENT];
			from = k.parts[shown].at / SEGMENT * SEGMENT;
		} else {
			kgen_reference_init(s, &run);
		}
		for (i = from; i <= k.parts[shown].at; i++)
			step(&k, &run, r, i, &at);
		i = k.parts[shown].at;
		kgen_check_result(s, result_at(&k, r, i), k.inclusive ? i + 1 : i, &at, what, sizeof what);
		if (k.down)
			snprintf(msg, len, "out[%llu][%llu]: %s", i, r, what);
		else if (c->rows > 1)
			snprintf(msg, len, "out[%llu][%llu]: %s", r, i, what);
		else
			snprintf(msg, len, "out[%llu]: %s", i, what);
	}
	free(k.starts);
	free(k.parts);
	return bad;
}
