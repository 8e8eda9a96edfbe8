/*
 * matmul_reduce.c - `row_reduce` and `col_reduce` of kernel: matmul: the
 * reductions of the values a kernel stores, emitted as a thread's partials
 * of one row or column (struct RowPartials, ColPartials) with four member
 * functions (start, fold, shuffle, commit; templates/matmul/reduce_line.cu), the
 * atomics they share (reduce_helpers.cu) and struct Epilogue's vectors.
 * The kernels that store element by element call reduce_value() (file.cu);
 * store: tma keeps a tile's partials in registers (wgmma_store_tma.cu).
 */
#include "config.h"
#include "family.h"
#include "matmul.h"
#include "matmul_common.h"
#include "tpl.h"

/* What each reduction's member functions say of its member NAME. */
static void
reduction_lines(enum kgen_mm_reduce r, const char *line, strbuf *start, strbuf *fold, strbuf *shuffle,
                strbuf *commit)
{
	const char *name = kgen_mm_reduces[r].name, *map = kgen_matmul_reduce_map(r);
	enum kgen_reduce_kind kind = kgen_matmul_reduce_kind(r);
	const char *nl = start->len ? "\n" : "";

	if (kind == KGEN_REDUCE_LOGADDEXP) {  /* a running max and the sum of exp(x - max): the partials merge */
		sb_printf(start, "%s        %s_max = -acc_inf(), %s_sum = (Acc)0;", nl, name, name);
		sb_printf(fold, "%s        lse_fold(%s_max, %s_sum, x);", nl, name, name);
		sb_printf(shuffle,
		          "%s        lse_merge(%s_max, %s_sum, __shfl_xor_sync(0xffffffffu, %s_max, lanes),\n"
		          "                  __shfl_xor_sync(0xffffffffu, %s_sum, lanes));",
		          nl, name, name, name, name);
		sb_printf(commit, "%s        atomic_logaddexp(ep.%s_%s + %s, %s_max + log(%s_sum));", nl, line, name, line, name,
		          name);
		return;
	}
	if (kind == KGEN_REDUCE_ADD) {
		sb_printf(start, "%s        %s = (Acc)0;", nl, name);
		sb_printf(fold, "%s        %s += %s;", nl, name, map);
		sb_printf(shuffle, "%s        %s += __shfl_xor_sync(0xffffffffu, %s, lanes);", nl, name, name);
		sb_printf(commit, "%s        atomicAdd(ep.%s_%s + %s, %s);", nl, line, name, line, name);
		return;
	}
	{
		const char *pick = kind == KGEN_REDUCE_MAX ? "max_nan" : "min_nan";
		sb_printf(start, "%s        %s = %s;", nl, name,
		          r == KGEN_MM_REDUCE_ABSMAX ? "(Acc)0" : kind == KGEN_REDUCE_MAX ? "-acc_inf()" : "acc_inf()");
		sb_printf(fold, "%s        %s = %s(%s, %s);", nl, name, pick, name, map);
		sb_printf(shuffle, "%s        %s = %s(%s, __shfl_xor_sync(0xffffffffu, %s, lanes));", nl, name, pick, name,
		          name);
		sb_printf(commit, "%s        atomic_extreme(ep.%s_%s + %s, %s, %s);", nl, line, name, line, name,
		          kind == KGEN_REDUCE_MIN ? "true" : "false");
	}
}

/* struct RowPartials (or ColPartials) into out. */
static kgen_status
render_line(const struct kgen_spec *s, int by_row, strbuf *out, kgen_error *err)
{
	long long mask = by_row ? s->row_reduce : s->col_reduce;
	const char *line = by_row ? "row" : "col";
	strbuf members, names, start, fold, shuffle, commit;
	struct tpl_args t;
	kgen_status st;
	int r;

	sb_init(&members);
	sb_init(&names);
	sb_init(&start);
	sb_init(&fold);
	sb_init(&shuffle);
	sb_init(&commit);
	for (r = 1; r < KGEN_MM_REDUCE_COUNT; r++)
		if (mask > 0 && (mask & 1LL << r)) {
			const char *name = kgen_mm_reduces[r].name;
			if (kgen_matmul_reduce_kind((enum kgen_mm_reduce)r) == KGEN_REDUCE_LOGADDEXP)
				sb_printf(&members, "%s%s_max, %s_sum", members.len ? ", " : "", name, name);
			else
				sb_printf(&members, "%s%s", members.len ? ", " : "", name);
			sb_printf(&names, "%s%s", names.len ? ", " : "", name);
			reduction_lines((enum kgen_mm_reduce)r, line, &start, &fold, &shuffle, &commit);
		}
	if (mask <= 0) {
		sb_printf(&start, "        // none");
		sb_printf(&fold, "        // none");
		sb_printf(&shuffle, "        // none");
		sb_printf(&commit, "        // none");
	}
	tpl_init(&t);
	tpl_set(&t, "line", "%s", line);
	tpl_set(&t, "Line", "%s", by_row ? "Row" : "Col");
	tpl_set(&t, "word", "%s", by_row ? "row" : "column");
	tpl_show(&t, "some", mask > 0);
	if (mask > 0) {
		tpl_set(&t, "members", "%s", members.s);
		tpl_set(&t, "names", "%s", names.s);
	}
	tpl_set(&t, "start", "%s", start.s);
	tpl_set(&t, "fold", "%s", fold.s);
	tpl_set(&t, "shuffle", "%s", shuffle.s);
	tpl_set(&t, "commit", "%s", commit.s);
	if (members.failed || names.failed || start.failed || fold.failed || shuffle.failed || commit.failed) {
		tpl_free(&t);
		st = kgen_fail(err, KGEN_ENOMEM, "out of memory");
	} else {
		st = tpl_render(out, "matmul/reduce_line.cu", &t, err);
	}
	sb_free(&members);
	sb_free(&names);
	sb_free(&start);
	sb_free(&fold);
	sb_free(&shuffle);
	sb_free(&commit);
	return st;
}

kgen_status
kgen_matmul_reductions(const struct kgen_spec *s, struct tpl_args *file, kgen_error *err)
{
	static const char *const what[KGEN_MM_REDUCE_COUNT] = {
		[KGEN_MM_REDUCE_SUM] = "sum", [KGEN_MM_REDUCE_SUMSQ] = "sum of squares",
		[KGEN_MM_REDUCE_MAX] = "largest", [KGEN_MM_REDUCE_MIN] = "smallest",
		[KGEN_MM_REDUCE_ABSMAX] = "largest magnitude", [KGEN_MM_REDUCE_LOGSUMEXP] = "log of the sum of exponentials",
	};
	enum kgen_mm_reduce which[2 * KGEN_MM_REDUCE_COUNT];
	int by_row[2 * KGEN_MM_REDUCE_COUNT], n = kgen_matmul_reduce_list(s, which, by_row), i;
	struct tpl_args helpers;
	strbuf members, lines;
	kgen_status st;

	tpl_show(file, "reductions", n > 0);
	if (!n)
		return KGEN_OK;
	sb_init(&members);
	sb_init(&lines);
	for (i = 0; i < n; i++) {
		char field[32];
		snprintf(field, sizeof field, "%s_%s;", by_row[i] ? "row" : "col", kgen_mm_reduces[which[i]].name);
		sb_printf(&members, "%s    Acc *%-22s // %s values: each %s's %s of the values stored", i ? "\n" : "",
		          field, by_row[i] ? "m" : "n", by_row[i] ? "row" : "column", what[which[i]]);
	}
	if ((st = render_line(s, 1, &lines, err)) || (sb_printf(&lines, "\n"), st = render_line(s, 0, &lines, err)))
		goto out;
	while (lines.len && lines.s[lines.len - 1] == '\n')
		lines.s[--lines.len] = '\0';
	if (members.failed || lines.failed) {
		st = kgen_fail(err, KGEN_ENOMEM, "out of memory");
		goto out;
	}
	tpl_set(file, "reduce_members", "%s", members.s);
	tpl_set(file, "reduce_lines", "%s", lines.s);
	{
		int max = 0, min = 0, inf = 0, lse = 0;
		for (i = 0; i < n; i++) {
			enum kgen_reduce_kind kind = kgen_matmul_reduce_kind(which[i]);
			max |= kind == KGEN_REDUCE_MAX;
			min |= kind == KGEN_REDUCE_MIN;
			lse |= kind == KGEN_REDUCE_LOGADDEXP;
			inf |= kind != KGEN_REDUCE_ADD && which[i] != KGEN_MM_REDUCE_ABSMAX;
		}
		tpl_init(&helpers);
		tpl_show(&helpers, "inf", inf);
		tpl_show(&helpers, "max", max || lse);
		tpl_show(&helpers, "min", min);
		tpl_show(&helpers, "bits", max || min || lse);
		tpl_show(&helpers, "extreme", max || min);
		tpl_show(&helpers, "lse", lse);
	}
	st = tpl_render_into(file, "reduce_helpers", "matmul/reduce_helpers.cu", &helpers, err);
out:
	sb_free(&members);
	sb_free(&lines);
	return st;
}
