/*
 * lookback_model.c - a CPU model of kernel: scan's look-back over groups of
 * GROUP tiles (templates/scan/lookback.cu), to check the protocol itself: W
 * threads take tiles in order (as a GPU dispatches blocks); each publishes
 * its total, scans the totals of the tiles before it in its group (waiting
 * for them) along the warp's fixed tree, and, for a group's last tile,
 * publishes the group's total; looks back on the groups before its own
 * (group g - 1's total from its tiles' words, after the nearest published
 * group prefix within 32 groups before that, else a wait for the one 32
 * back, and a left-to-right fold of the group totals after it), and a
 * group's last tile publishes the group's prefix.  Each tile and group has
 * one status word holding its mark and its value, read and written whole
 * with relaxed atomics, as the kernel's 16-byte words are (here a 64-bit
 * word: the mark in the high half, the float's bits in the low; a group's
 * word holds its total, then its prefix).  Every prefix must
 * equal that of a run with one thread, bit for bit, in every run, whatever
 * the scheduling (threads yield at random), and no thread may wait forever.
 * Not the kernel: a model of its protocol in C11 atomics.
 *
 *   cc -O2 -pthread -o lookback_model bench/scan/lookback_model.c
 *   ./lookback_model TILES THREADS RUNS      e.g. 40000 900 3, 40000 64 3
 *   ./lookback_model TILES THREADS RUNS after
 *
 * `after`: the column scan's form (templates/scan/columns.cu): a group's
 * tiles but its last wait for the group before's prefix word instead of
 * folding the groups themselves; its prefixes are checked against the
 * one-thread run of the folding form, so the two must agree bit for bit.
 *
 * On the 2-core machine (2026-12-02): 40000 tiles on 900 and on 64
 * threads, three runs each, every prefix the one-thread run's bit for bit
 * (no fallback taken); built with -DREACH=1 and 2, where it is taken
 * (36000 and 27000 times in a run of 40000 tiles), the same; and with
 * -DGROUP=1, 8 and 16 (lookback_group), the same.  Again with the status
 * words (2026-12-04): 40000 tiles on 900 and 64 threads, three runs each,
 * -DREACH=2 and -DGROUP=8, group g - 1's total read from its tiles' words
 * (before_group), the marks from the header's count of launches (each
 * tile's block reading it, the last to finish counting the launch), and
 * -DGROUP=1 (where tile 0, done after publishing its
 * total, must publish group 0's prefix too: without it the kernel hung):
 * every prefix the one-thread run's.  Again (2026-12-04, session 9) with
 * each block counting itself once it has the mark (a relaxed atomic
 * issued on the mark's value), and the last to count itself counting the
 * launch as it ends: default, -DGROUP=8 and -DGROUP=1, three runs of 40000
 * tiles each, every prefix the one-thread run's and the header right
 * after every run (runs on x86, which orders more than PTX does: the
 * model checks the protocol, not the memory model).  With `after`
 * (2026-12-05, session 11): the default, -DGROUP=8, -DGROUP=1 and
 * -DREACH=2, 40000 tiles on 64 threads (three runs) and on 900 (two):
 * every prefix the folding form's one-thread run's, bit for bit.
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { AGGREGATE = 1, PREFIX = 2 };
#ifndef GROUP
#define GROUP 32  /* tiles a group (lookback_group), at most 32 */
#endif
#ifndef REACH
#define REACH 32  /* groups a look-back reads, a warp's lanes; -DREACH=2 takes the fallback often */
#endif

static long tiles, groups;
static int nthreads;
static _Atomic unsigned long long *words, *group_words;  /* mark << 32 | the value's bits */
static float *tile_total, *got;
static _Atomic long next_tile, fallbacks, waits;
static _Atomic unsigned long long header_launches, header_done;  /* the scratch's header word */
static _Thread_local unsigned long long mark;  /* this launch's, as each block reads it */
static int after;  /* the column scan's form: a group's tiles but its last wait for the prefix before (after_group) */

static void jitter(unsigned *seed)
{
	for (int i = rand_r(seed) % 50; i > 0; i--)
		if (rand_r(seed) % 7 == 0)
			sched_yield();
}

static unsigned long long load_word(_Atomic unsigned long long *p)
{
	return atomic_load_explicit(p, memory_order_relaxed);
}

static unsigned long long what(unsigned long long w) { return w >> 32; }

static float value(unsigned long long w)
{
	unsigned int bits = (unsigned int)w;
	float v;

	memcpy(&v, &bits, 4);
	return v;
}

static void publish(_Atomic unsigned long long *word, float v, int what)
{
	unsigned int bits;

	memcpy(&bits, &v, 4);
	atomic_store_explicit(word, (mark | what) << 32 | bits, memory_order_relaxed);
}

/* The warp's inclusive scan (templates/scan/file.cu's warp_inclusive):
 * shuffles up by 1, 2, 4, 8, 16, lane l combining lane l - d's value
 * before its own. */
static void warp_inclusive(float v[32])
{
	for (int d = 1; d < 32; d *= 2) {
		float u[32];
		memcpy(u, v, sizeof u);
		for (int l = d; l < 32; l++)
			v[l] = u[l - d] + u[l];
	}
}

static float group_prefix(long g)
{
	unsigned long long w[32];
	float v[32];
	int d = -1;

	for (int l = 0; l < REACH; l++) {
		long h = g - 1 - l;
		w[l] = (mark | PREFIX) << 32;  /* before group 0: a prefix of the identity */
		if (h >= 0)
			while (what(w[l] = load_word(&group_words[h])) < (mark | AGGREGATE))
				sched_yield();
		if (d < 0 && what(w[l]) == (mark | PREFIX))
			d = l;
	}
	if (d < 0) {
		d = REACH - 1;
		atomic_fetch_add(&fallbacks, 1);
		while (what(w[d] = load_word(&group_words[g - 1 - d])) != (mark | PREFIX))
			sched_yield();
	}
	for (int l = 0; l <= d; l++)
		v[l] = value(w[l]);  /* lanes before d: totals (no prefix yet when read), d: the prefix */
	float prefix = v[d];
	for (int l = d - 1; l >= 0; l--)
		prefix = prefix + v[l];
	return prefix;
}

/* Group g - 1's total from its tiles' words along the warp's tree (the
 * bits its last tile publishes), after the groups before it
 * (templates/scan/lookback.cu's before_group). */
static float before_group(long g)
{
	float lanes[32];

	for (int l = 0; l < 32; l++) {
		lanes[l] = 0.0f;
		if (l < GROUP) {
			unsigned long long w;
			while (what(w = load_word(&words[(g - 1) * GROUP + l])) < (mark | AGGREGATE))
				sched_yield();
			lanes[l] = value(w);
		}
	}
	warp_inclusive(lanes);
	return (g > 1 ? group_prefix(g - 1) : 0.0f) + lanes[GROUP - 1];  /* from the identity, as group_prefix's folds */
}

/* As a tile's block ends (count_launch()), `arrived` the count it took as
 * it started (arrive()): the launch's last block to arrive counts the
 * launch and clears the count. */
/* The column scan's form (templates/scan/columns.cu's after_group), for
 * a group's tiles but its last: group h's prefix once its last tile has
 * published it, the combination of every tile up to the end of group h. */
static float after_group(long h)
{
	unsigned long long w;

	while (what(w = load_word(&group_words[h])) < (mark | PREFIX)) {
		atomic_fetch_add(&waits, 1);
		sched_yield();
	}
	return value(w);
}

static void count_launch(unsigned long long arrived)
{
	if (arrived == (unsigned long long)tiles - 1) {
		atomic_store_explicit(&header_done, 0, memory_order_relaxed);
		atomic_store_explicit(&header_launches, mark >> 24, memory_order_relaxed);
	}
}

static void *worker(void *arg)
{
	unsigned seed = (unsigned)(size_t)arg * 7919u + 1;

	for (;;) {
		long t = atomic_fetch_add(&next_tile, 1), g = t / GROUP;
		int p = (int)(t % GROUP);
		float all, lanes[32];
		unsigned long long arrived;

		if (t >= tiles)
			return NULL;
		jitter(&seed);
		mark = (atomic_load_explicit(&header_launches, memory_order_relaxed) + 1) << 24;  /* launch_mark() */
		/* arrive(): relaxed, as the kernel's atomicAdd, and issued on the mark's value */
		arrived = mark ? atomic_fetch_add_explicit(&header_done, 1, memory_order_relaxed) : 0;
		jitter(&seed);
		all = tile_total[t];
		publish(&words[t], all, AGGREGATE);
		if (t == 0) {  /* as the kernel's look_back: tile 0 publishes and is done */
			if (GROUP == 1)  /* group 0 is tile 0 alone: its prefix is its total, from the identity */
				publish(&group_words[0], 0.0f + all, PREFIX);
			got[t] = 0.0f;
			jitter(&seed);
			count_launch(arrived);
			continue;
		}
		jitter(&seed);
		for (int l = 0; l < 32; l++) {
			lanes[l] = 0.0f;
			if (l < p) {
				unsigned long long w;
				while (what(w = load_word(&words[t - p + l])) < (mark | AGGREGATE)) {
					atomic_fetch_add(&waits, 1);
					sched_yield();
				}
				lanes[l] = value(w);
			} else if (l == p) {
				lanes[l] = all;
			}
		}
		warp_inclusive(lanes);
		if (p == GROUP - 1)
			publish(&group_words[g], lanes[GROUP - 1], AGGREGATE);
		jitter(&seed);
		float group = g > 0 && after && p != GROUP - 1 ? after_group(g - 1) : g > 0 ? before_group(g) : 0.0f;
		got[t] = p > 0 ? group + lanes[p - 1] : group;
		if (p == GROUP - 1)
			publish(&group_words[g], group + lanes[GROUP - 1], PREFIX);
		jitter(&seed);
		count_launch(arrived);
	}
}

static void run(int threads, unsigned long long r)
{
	pthread_t th[1024];

	atomic_store(&next_tile, 0);
	for (int i = 0; i < threads; i++)
		pthread_create(&th[i], NULL, worker, (void *)(size_t)(i + r * 1000));
	for (int i = 0; i < threads; i++)
		pthread_join(th[i], NULL);
}

int main(int argc, char **argv)
{
	int runs;
	unsigned s = 42;

	tiles = argc > 1 ? atol(argv[1]) : 40000;
	nthreads = argc > 2 ? atoi(argv[2]) : 64;
	runs = argc > 3 ? atoi(argv[3]) : 3;
	/* a word packs (mark | what) << 32 over the value's bits: marks of 255 launches of 2^24 at most */
	if (nthreads < 1 || nthreads > 1024 || tiles < 1 || runs < 1 || runs > 250 ||
	    (argc > 4 && strcmp(argv[4], "after") != 0)) {
		fprintf(stderr, "usage: lookback_model TILES THREADS(1-1024) RUNS(1-250) [after]\n");
		return 2;
	}
	groups = (tiles + GROUP - 1) / GROUP;
	words = calloc(tiles, sizeof *words);
	group_words = calloc(groups, sizeof *group_words);
	tile_total = calloc(tiles, 4), got = calloc(tiles, 4);
	float *want = calloc(tiles, 4);
	for (long i = 0; i < tiles; i++)
		tile_total[i] = (float)((rand_r(&s) % 2000001) - 1000000) / 1024.0f * (1 + rand_r(&s) % 1000);
	run(1, 1);  /* one thread: the reference, every tile folding the groups (before_group) */
	memcpy(want, got, tiles * 4);
	after = argc > 4 && strcmp(argv[4], "after") == 0;
	for (int r = 2; r <= runs + 1; r++) {
		long bad = 0;
		atomic_store(&fallbacks, 0);
		atomic_store(&waits, 0);
		run(nthreads, r);
		if (atomic_load(&header_launches) != (unsigned long long)r || atomic_load(&header_done) != 0) {
			printf("run %d: the header counts %llu launches, %llu blocks (want %d, 0)\n", r - 1,
			       (unsigned long long)header_launches, (unsigned long long)header_done, r);
			return 1;
		}
		for (long i = 0; i < tiles; i++)
			bad += memcmp(&got[i], &want[i], 4) != 0;
		printf("run %d: %ld of %ld prefixes differ from one thread's (waits for a group mate %ld, fallbacks %ld)\n",
		       r - 1, bad, tiles, (long)waits, (long)fallbacks);
		if (bad)
			return 1;
	}
	/* The one-thread run against a plain left fold within float rounding: the protocol sums every tile once. */
	double exact = 0.0, worst = 0.0, mag = 0.0;
	for (long i = 0; i < tiles; i++) {
		double e = (double)want[i] - exact;
		worst = e < 0 ? (-e > worst ? -e : worst) : (e > worst ? e : worst);
		exact += tile_total[i];
		mag += tile_total[i] < 0 ? -tile_total[i] : tile_total[i];
	}
	printf("every prefix within %.3g of the exact sum (%.3g of the sum of magnitudes)\n", worst, worst / mag);
	return worst / mag < 1e-5 ? 0 : 1;
}
