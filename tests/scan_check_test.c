/*
 * scan_check_test.c - kgen run --verify's check of a scan (cli/scan_check.c)
 * on results made on the CPU: right ones pass, and every planted wrong
 * element is counted and the first named, along rows, down columns and
 * along a vector; lines long enough are checked in segments (256 elements
 * here, KGEN_SCAN_SEGMENT), each from the reference of the elements before
 * it, and the answer is the same as for lines checked whole.
 */
#include "config.h"
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kgen.h"
#include "cli/scan_check.h"
#include "spec_assert.h"

extern unsigned long long kgen_scan_check_segs;  /* cli/scan_check.c: the last check's segments a line */

/* Seeded elements -3 to 3 (so f32 sums are exact), rows pitch apart. */
static void
fill(void *host, int is_float, unsigned long long count)
{
	uint64_t x = 0x9e3779b97f4a7c15ull;
	unsigned long long i;

	for (i = 0; i < count; i++) {
		int v;
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		v = (int)((x >> 33) % 7) - 3;
		if (is_float)
			((float *)host)[i] = (float)v;
		else
			((int32_t *)host)[i] = v;
	}
}

/* The scan of host (rows x cols, pitch apart; down: each column) into back
 * (cols a row), sum or max, inclusive or exclusive, as the kernel computes it. */
static void
scan(const void *host, void *back, int is_float, int max, int inclusive, int down, unsigned long long rows,
     unsigned long long cols, unsigned long long pitch)
{
	unsigned long long lines = down ? cols : rows, length = down ? rows : cols, r, i;

	for (r = 0; r < lines; r++) {
		double acc = max ? -1e30 : 0;
		int64_t iacc = max ? INT32_MIN : 0;
		for (i = 0; i < length; i++) {
			unsigned long long in = down ? i * pitch + r : r * pitch + i, out = down ? i * cols + r : r * cols + i;
			double x = is_float ? ((const float *)host)[in] : ((const int32_t *)host)[in];
			if (!inclusive) {
				if (is_float)
					((float *)back)[out] = (float)acc;
				else
					((int32_t *)back)[out] = (int32_t)iacc;
			}
			if (max) {
				acc = x > acc ? x : acc;
				iacc = (int64_t)x > iacc ? (int64_t)x : iacc;
			} else {
				acc += x;
				iacc += (int64_t)x;
			}
			if (inclusive) {
				if (is_float)
					((float *)back)[out] = (float)acc;
				else
					((int32_t *)back)[out] = (int32_t)iacc;
			}
		}
	}
}

struct setup {
	kgen_spec *s;
	unsigned char *host, *back;
	struct kgen_scan_result c;
	int is_float, down;
};

static void
make(struct setup *t, const char *yaml, int is_float, int max, int inclusive, int down, unsigned long long rows,
     unsigned long long cols, unsigned long long pitch)
{
	t->s = load(yaml);
	t->is_float = is_float;
	t->down = down;
	t->host = malloc((size_t)(rows * pitch) * 4);
	t->back = malloc((size_t)(rows * cols) * 4);
	ck_assert(t->host && t->back);
	fill(t->host, is_float, rows * pitch);
	scan(t->host, t->back, is_float, max, inclusive, down, rows, cols, pitch);
	t->c = (struct kgen_scan_result){ t->host, t->back, rows, cols, pitch };
}

static void
done(struct setup *t)
{
	kgen_spec_free(t->s);
	free(t->host);
	free(t->back);
}

/* Element (row, col) of the result made wrong by one. */
static void
plant(struct setup *t, unsigned long long row, unsigned long long col)
{
	unsigned long long at = row * t->c.cols + col;

	if (t->is_float)
		((float *)t->back)[at] += 1;
	else
		((int32_t *)t->back)[at] += 1;
}

static unsigned long long
errors(struct setup *t, char *msg, size_t len)
{
	msg[0] = 0;
	return kgen_scan_errors(t->s, &t->c, msg, len);
}

/* t's result checks clean, in segs segments a line (what names the case). */
static void
clean(struct setup *t, unsigned long long segs, const char *what)
{
	char msg[512];

	ck_assert_msg(errors(t, msg, sizeof msg) == 0, "%s: %s", what, msg);
	ck_assert_uint_eq(kgen_scan_check_segs, segs);
}

/* t's result has bad wrong elements, the message naming the first as `first` does ("out[300]: "). */
static void
wrong(struct setup *t, unsigned long long bad, const char *first, const char *what)
{
	char msg[512];

	ck_assert_uint_eq(errors(t, msg, sizeof msg), bad);
	ck_assert_msg(strncmp(msg, first, strlen(first)) == 0, "%s: %s", what, msg);
}

START_TEST(a_vector_in_segments)
{
	/* 40 segments and a partial one: each from the reference of those before */
	const char *specs[] = { "kernel: scan\nop: sum\ndtype: i32\n", "kernel: scan\nop: sum\ndtype: f32\n",
	                        "kernel: scan\nop: sum\ndtype: i32\nmode: exclusive\n",
	                        "kernel: scan\nop: max\ndtype: i32\n" };
	int floats[] = { 0, 1, 0, 0 }, maxes[] = { 0, 0, 0, 1 }, inclusive[] = { 1, 1, 0, 1 }, i;
	unsigned long long n = 40 * 256 + 77;

	for (i = 0; i < 4; i++) {
		struct setup t;
		make(&t, specs[i], floats[i], maxes[i], inclusive[i], 0, 1, n, n);
		clean(&t, 41, specs[i]);
		plant(&t, 0, 9000);  /* in segment 35 */
		plant(&t, 0, n - 1);  /* the last, of the partial segment */
		plant(&t, 0, 300);    /* segment 1: the first wrong element */
		wrong(&t, 3, "out[300]: ", specs[i]);
		done(&t);
	}
}
END_TEST

START_TEST(rows_in_segments_name_the_first_rows_first)
{
	struct setup t;

	/* 3 rows of 2000 (8 segments each), padded to 2003 */
	make(&t, "kernel: scan\nop: sum\ndtype: i32\n", 0, 0, 1, 0, 3, 2000, 2003);
	clean(&t, 8, "");
	plant(&t, 1, 5);     /* row 1, segment 0 */
	plant(&t, 0, 1900);  /* row 0, segment 7: the first row's first */
	plant(&t, 2, 1999);
	wrong(&t, 3, "out[0][1900]: ", "");
	done(&t);
}
END_TEST

START_TEST(narrow_columns_in_segments_name_the_earliest_rows_leftmost)
{
	struct setup t;

	/* 5000 rows (20 segments) of 3 columns, rows 5 elements apart */
	make(&t, "kernel: scan\naxis: cols\nop: sum\ndtype: f32\n", 1, 0, 1, 1, 5000, 3, 5);
	clean(&t, 20, "");
	plant(&t, 4500, 0);
	plant(&t, 4000, 2);  /* the earliest row's: its leftmost wrong element */
	plant(&t, 4999, 1);
	wrong(&t, 3, "out[4000][2]: ", "");
	plant(&t, 4000, 1);  /* now the leftmost of row 4000 */
	wrong(&t, 4, "out[4000][1]: ", "");
	done(&t);
	/* exclusive max, 40 columns in three groups of 16 (rows 43 elements apart): the earliest row's leftmost
	 * among the groups, whose parts start from the same segments' references */
	make(&t, "kernel: scan\naxis: cols\nop: max\ndtype: i32\nmode: exclusive\n", 0, 1, 0, 1, 5000, 40, 43);
	clean(&t, 20, "");
	plant(&t, 3000, 39);
	plant(&t, 3000, 20);  /* group 1: leftmost of row 3000 */
	plant(&t, 3001, 0);
	wrong(&t, 3, "out[3000][20]: ", "");
	done(&t);
}
END_TEST

START_TEST(short_and_many_lines_are_checked_whole)
{
	struct setup t;

	/* 300 rows of 100 (no segments: lines short), and a vector of one segment */
	make(&t, "kernel: scan\nop: sum\ndtype: i32\nmode: exclusive\n", 0, 0, 0, 0, 300, 100, 100);
	clean(&t, 1, "");
	plant(&t, 299, 0);
	wrong(&t, 1, "out[299][0]: ", "");
	done(&t);
	make(&t, "kernel: scan\nop: sum\ndtype: f32\n", 1, 0, 1, 0, 1, 256, 256);
	clean(&t, 1, "");
	plant(&t, 0, 255);
	wrong(&t, 1, "out[255]: ", "");
	done(&t);
}
END_TEST

int
main(void)
{
	Suite *su = suite_create("scan_check");
	TCase *tc = tcase_create("check");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, a_vector_in_segments);
	tcase_add_test(tc, rows_in_segments_name_the_first_rows_first);
	tcase_add_test(tc, narrow_columns_in_segments_name_the_earliest_rows_leftmost);
	tcase_add_test(tc, short_and_many_lines_are_checked_whole);
	suite_add_tcase(su, tc);
	sr = srunner_create(su);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
