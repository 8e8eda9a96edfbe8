/*
 * plot_rows.c - kgen plot's pictures of kgen run's rows (plot.h): the
 * rows as series (a spec's, from one file when several are given; a
 * peer's for one dtype and op, its mean rate at each size), then a line
 * per series against n or the shapes on log axes, or a ladder's bars at
 * one size with the peers as dashed lines.
 */
#include "config.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "plot.h"
#include "svg.h"
#include "gen/util.h"

/* What kgen run's rows measure, and against whom, by their op column
 * (the last row: every other op, the reductions' "sum" or "sum/cols"). */
static const struct unit {
	const char *op;    /* NULL: any other */
	const char *unit, *peer;
} units[] = {
	{ "matmul", "TFLOPS", "cuBLAS" },
	{ "transpose", "GB/s", "copy" },
	{ NULL, "GB/s", "CUB" },
};

static const struct unit *
unit_of(const char *op)
{
	size_t i;

	for (i = 0; units[i].op && strcmp(units[i].op, op) != 0; i++)
		;
	return &units[i];
}

/* ---- labels ---- */

/* Each spec's path without the folder all of them share and without
 * .yaml: specs/matmul/seed-002/01-naive.yaml and specs/matmul/best/x.yaml
 * become seed-002/01-naive and best/x.  Owned strings in labels[]. */
static int
spec_labels(char *const *paths, int n, char **labels)
{
	size_t common = 0;
	int i;

	if (n > 0) {
		const char *slash = strrchr(paths[0], '/');
		common = slash ? (size_t)(slash - paths[0]) + 1 : 0;
	}
	for (i = 1; i < n; i++) {
		size_t k = 0, last = 0;
		while (k < common && paths[i][k] == paths[0][k]) {
			if (paths[i][k] == '/')
				last = k + 1;
			k++;
		}
		if (k < common)
			common = last;
	}
	for (i = 0; i < n; i++) {
		size_t len = strlen(paths[i] + common);
		if (!(labels[i] = kgen_strdup(paths[i] + common)))
			return -1;
		if (len > 5 && strcmp(labels[i] + len - 5, ".yaml") == 0)
			labels[i][len - 5] = '\0';
		else if (len > 4 && strcmp(labels[i] + len - 4, ".yml") == 0)
			labels[i][len - 4] = '\0';
	}
	return 0;
}

/* A series: kgen's rows of one spec (from one file, when several are
 * given), or a peer's for one dtype and op; its points by size. */
struct series {
	int peer;
	const char *spec, *file, *dtype, *op;
	char *label;
	int first_line;
	int n;
	struct spoint {
		const char *size;
		double x, y;          /* x: the size's place on the axis's scale (n, or the shape's rank) */
		double sum;           /* the peer's: its rates summed, over count */
		int count, line;
	} *pts;
};

struct table {
	struct plot_input *in;
	const struct unit *unit;
	int multi;                /* rows from several files: a series per file */
	struct series *s;
	int ns;
	const char **sizes;       /* the distinct sizes, by count */
	int nsizes, plain;        /* plain: every size is n */
};

static const char *
file_label(const struct table *t, const char *file)
{
	return t->multi ? kgen_plot_base_name(file) : NULL;
}

/* The series of kgen's spec (peer 0) or the peer of dtype/op (peer 1), made when new. */
static struct series *
series_of(struct table *t, const struct plot_row *r, int peer)
{
	struct series *s;
	int i;

	for (i = 0; i < t->ns; i++) {
		s = &t->s[i];
		if (s->peer == peer && (!t->multi || strcmp(s->file, r->file) == 0) &&
		    (peer ? strcmp(s->dtype, r->dtype) == 0 && strcmp(s->op, r->op) == 0 : strcmp(s->spec, r->spec) == 0))
			return s;
	}
	if (!(s = realloc(t->s, (size_t)(t->ns + 1) * sizeof *s)))
		return NULL;
	t->s = s;
	s = &t->s[t->ns++];
	*s = (struct series){ .peer = peer, .spec = r->spec, .file = r->file, .dtype = r->dtype, .op = r->op,
	                      .first_line = r->line };
	return s;
}

/* Add a row's rate (a peer's: to its mean) at its size. */
static kgen_status
add_point(struct series *s, const struct plot_row *r, double rate, kgen_error *err)
{
	struct spoint *p;
	int i;

	for (i = 0; i < s->n; i++)
		if (strcmp(s->pts[i].size, r->size) == 0) {
			if (!s->peer) {
				char q[64];
				kgen_fail(err, KGEN_EINVAL, "%s at %s a second time (line %d too): plot one run of it, or give "
				          "each run's table as its own file", kgen_quote(r->spec, q, sizeof q), r->size,
				          s->pts[i].line);
				snprintf(err->file, sizeof err->file, "%s", r->file);
				err->line = r->line;
				err->column = 1;
				return KGEN_EINVAL;
			}
			s->pts[i].sum += rate;
			s->pts[i].count++;
			return KGEN_OK;
		}
	if (!(p = realloc(s->pts, (size_t)(s->n + 1) * sizeof *p)))
		return kgen_fail(err, KGEN_ENOMEM, "out of memory");
	s->pts = p;
	s->pts[s->n++] = (struct spoint){ .size = r->size, .sum = rate, .count = 1, .line = r->line };
	return KGEN_OK;
}

/* The rows as series: one unit for all (else an error at the first row
 * of another), each spec's and each peer's, and the sizes sorted. */
static kgen_status
make_table(struct table *t, struct plot_input *in, kgen_error *err)
{
	int i, j;

	t->in = in;
	t->unit = unit_of(in->rows[0].op);
	t->plain = 1;
	for (i = 1; i < in->nrows; i++)
		if (strcmp(in->rows[i].file, in->rows[0].file) != 0)
			t->multi = 1;
	for (i = 0; i < in->nrows; i++) {
		const struct plot_row *r = &in->rows[i];
		struct series *s;
		int plain = 0;
		kgen_status st;
		if (strcmp(unit_of(r->op)->unit, t->unit->unit) != 0) {
			kgen_fail(err, KGEN_EINVAL, "a row in %s (op %s) among rows in %s (%s:%d): mixed units, plot them apart",
			          unit_of(r->op)->unit, r->op, t->unit->unit, in->rows[0].file, in->rows[0].line);
			snprintf(err->file, sizeof err->file, "%s", r->file);
			err->line = r->line;
			err->column = 1;
			return KGEN_EINVAL;
		}
		kgen_plot_size_count(r->size, &plain);
		t->plain &= plain;
		if (!(s = series_of(t, r, 0)))
			return kgen_fail(err, KGEN_ENOMEM, "out of memory");
		if ((st = add_point(s, r, r->rate, err)))
			return st;
		if (r->peer_rate > 0 &&
		    (!(s = series_of(t, r, 1)) || add_point(s, r, r->peer_rate, err)))
			return kgen_fail(err, KGEN_ENOMEM, "out of memory");
		for (j = 0; j < t->nsizes && strcmp(t->sizes[j], r->size) != 0; j++)
			;
		if (j == t->nsizes) {
			const char **grown = realloc(t->sizes, (size_t)(t->nsizes + 1) * sizeof *grown);
			if (!grown)
				return kgen_fail(err, KGEN_ENOMEM, "out of memory");
			t->sizes = grown;
			t->sizes[t->nsizes++] = r->size;
		}
	}
	qsort(t->sizes, (size_t)t->nsizes, sizeof *t->sizes, kgen_plot_cmp_size);
	for (i = 0; i < t->ns; i++)
		for (j = 0; j < t->s[i].n; j++)
			t->s[i].pts[j].y = t->s[i].pts[j].sum / t->s[i].pts[j].count;
	return KGEN_OK;
}

/* Each series' label: the spec's (its file's, when several), or the
 * peer's name, with its dtype and op where the peers differ in them. */
static kgen_status
label_series(struct table *t, kgen_error *err)
{
	char **paths = calloc((size_t)t->ns + 1, sizeof *paths), **labels = calloc((size_t)t->ns + 1, sizeof *labels);
	int i, n = 0, dtypes_differ = 0, ops_differ = 0, first_peer = -1, bad = !paths || !labels;

	for (i = 0; !bad && i < t->ns; i++) {
		if (!t->s[i].peer) {
			paths[n++] = (char *)t->s[i].spec;
			continue;
		}
		if (first_peer < 0)
			first_peer = i;
		else {
			dtypes_differ |= strcmp(t->s[i].dtype, t->s[first_peer].dtype) != 0;
			ops_differ |= strcmp(t->s[i].op, t->s[first_peer].op) != 0;
		}
	}
	if (!bad && spec_labels(paths, n, labels))
		bad = 1;
	for (i = 0, n = 0; !bad && i < t->ns; i++) {
		struct series *s = &t->s[i];
		const char *file = file_label(t, s->file);
		strbuf b;
		sb_init(&b);
		if (s->peer)
			sb_printf(&b, "%s", unit_of(s->op)->peer);
		else
			sb_puts(&b, labels[n++]);
		if (s->peer && dtypes_differ)
			sb_printf(&b, " %s", s->dtype);
		if (s->peer && ops_differ)
			sb_printf(&b, " %s", s->op);
		if (file)
			sb_printf(&b, " (%s)", file);
		if (!(s->label = sb_take(&b)))
			bad = 1;
	}
	for (i = 0; labels && i < t->ns; i++)
		free(labels[i]);
	free(labels);
	free(paths);
	return bad ? kgen_fail(err, KGEN_ENOMEM, "out of memory") : KGEN_OK;
}

static void
free_table(struct table *t)
{
	int i;

	for (i = 0; i < t->ns; i++) {
		free(t->s[i].label);
		free(t->s[i].pts);
	}
	free(t->s);
	free(t->sizes);
}

/* A series' marker at (x, y), with the values it stands for. */
static void
marker(FILE *fp, const struct series *s, const struct spoint *p, double x, double y, const char *colour,
       const char *unit)
{
	char tip[512], v[32];

	snprintf(tip, sizeof tip, "%s at %s: %s %s", s->label, p->size, kgen_plot_value_text(p->y, v, sizeof v), unit);
	if (s->peer) {
		kgen_svg_open(fp, "rect", "point");
		fprintf(fp, " x=\"%.2f\" y=\"%.2f\" width=\"7.00\" height=\"7.00\"", x - 3.5, y - 3.5);
	} else {
		kgen_svg_open(fp, "circle", "point");
		fprintf(fp, " cx=\"%.2f\" cy=\"%.2f\" r=\"3.50\"", x, y);
	}
	kgen_svg_attr(fp, "fill", colour);
	kgen_svg_attr(fp, "data-series", s->label);
	kgen_svg_attr(fp, "data-kind", s->peer ? "peer" : "kgen");
	kgen_svg_attr(fp, "data-x", p->size);
	kgen_svg_attr_num(fp, "data-y", p->y);
	if (s->peer)
		kgen_svg_attr_num(fp, "data-count", p->count);
	kgen_svg_close_title(fp, s->peer ? "rect" : "circle", tip);
}

/* A size's place on the x axis: n on a log scale, or a shape's rank among the sizes. */
static double
x_of(const struct table *t, const struct scale *xs, const struct frame *f, const char *size)
{
	int i;

	if (t->plain)
		return kgen_plot_place(xs, strtod(size, NULL), f->x0, f->x1);
	for (i = 0; i < t->nsizes && strcmp(t->sizes[i], size) != 0; i++)
		;
	return f->x0 + (f->x1 - f->x0) * (i + 0.5) / t->nsizes;
}

static int
cmp_x(const void *a, const void *b)
{
	const struct spoint *p = a, *q = b;

	return p->x < q->x ? -1 : p->x > q->x;
}

/* Series i's colour: kgen's series each the next one, a peer the colour
 * of the first spec it was measured beside (the same dtype and op). */
static int
colour_of(const struct table *t, int i)
{
	int k, spec = 0, first = -1;

	for (k = 0; k < t->ns; k++) {
		const struct series *s = &t->s[k];
		if (t->s[i].peer && !s->peer && strcmp(s->dtype, t->s[i].dtype) == 0 && strcmp(s->op, t->s[i].op) == 0 &&
		    (!t->multi || strcmp(s->file, t->s[i].file) == 0))
			return spec;
		if (k == i)
			first = spec;
		spec += !s->peer;
	}
	return first;
}

/* kind line: rate against size, a line per series. */
static void
draw_line(FILE *fp, struct table *t, const char *text)
{
	struct frame f;
	struct scale xs = { 0 }, ys;
	double lo = INFINITY, hi = 0;
	char buf[64], ylabel[64];
	int i, j, height = 560;

	size_t longest = 0;
	double bottom = 64;
	int turn;

	for (i = 0; !t->plain && i < t->nsizes; i++)
		if (strlen(t->sizes[i]) > longest)
			longest = strlen(t->sizes[i]);
	/* Shapes that would not fit side by side are turned, as the ladder's labels. */
	turn = !t->plain && 7.0 * (double)longest > (KGEN_PLOT_WIDTH - KGEN_PLOT_LEGEND_W - KGEN_PLOT_LEFT) / t->nsizes;
	if (turn)
		bottom = 50 + 4.6 * (double)longest;
	if (72 + 18 * t->ns > height - bottom)
		height = (int)(72 + 18 * t->ns + bottom);
	kgen_plot_frame(&f, height, bottom);
	for (i = 0; i < t->ns; i++)
		for (j = 0; j < t->s[i].n; j++) {
			lo = fmin(lo, t->s[i].pts[j].y);
			hi = fmax(hi, t->s[i].pts[j].y);
		}
	kgen_plot_log_scale(&ys, lo, hi);
	if (t->plain)
		kgen_plot_tight_log_scale(&xs, strtod(t->sizes[0], NULL), strtod(t->sizes[t->nsizes - 1], NULL));
	kgen_svg_begin(fp, f.width, f.height, text);
	kgen_plot_title(fp, &f, text);
	snprintf(ylabel, sizeof ylabel, "%s (higher is better)", t->unit->unit);
	kgen_plot_y_axis(fp, &f, &ys, ylabel);
	if (t->plain) {
		for (i = 0; i < xs.nticks; i++) {
			double x = kgen_plot_place(&xs, xs.ticks[i], f.x0, f.x1);
			kgen_svg_line(fp, x, f.y0, x, f.y1, "grid", NULL);
			kgen_svg_line(fp, x, f.y0, x, f.y0 + 5, "tick", NULL);
			kgen_svg_text(fp, x, f.y0 + 19, "middle", 0, "tick-label", kgen_plot_tick_text(xs.ticks[i], buf, sizeof buf));
		}
		kgen_svg_text(fp, (f.x0 + f.x1) / 2, f.y0 + 44, "middle", 0, "axis-label", "n (elements)");
	} else {
		for (i = 0; i < t->nsizes; i++) {
			double x = x_of(t, &xs, &f, t->sizes[i]);
			kgen_svg_line(fp, x, f.y0, x, f.y0 + 5, "tick", NULL);
			if (turn)
				kgen_svg_text(fp, x + 4, f.y0 + 14, "end", -40, "tick-label", t->sizes[i]);
			else
				kgen_svg_text(fp, x, f.y0 + 19, "middle", 0, "tick-label", t->sizes[i]);
		}
		kgen_svg_text(fp, f.x1, f.y0 + bottom - 12, "end", 0, "axis-label", "shape");
	}
	for (i = 0; i < t->ns; i++) {
		struct series *s = &t->s[i];
		const char *colour = kgen_plot_colours[colour_of(t, i) % KGEN_PLOT_NCOLOURS];
		double *px = malloc((size_t)s->n * sizeof *px), *py = malloc((size_t)s->n * sizeof *py);
		for (j = 0; j < s->n; j++)
			s->pts[j].x = x_of(t, &xs, &f, s->pts[j].size);
		qsort(s->pts, (size_t)s->n, sizeof *s->pts, cmp_x);
		for (j = 0; px && py && j < s->n; j++) {
			px[j] = s->pts[j].x;
			py[j] = kgen_plot_place(&ys, s->pts[j].y, f.y0, f.y1);
		}
		if (px && py && s->n > 1) {
			kgen_svg_open(fp, "polyline", s->peer ? "peer" : "series");
			kgen_svg_attr(fp, "stroke", colour);
			kgen_svg_attr(fp, "data-series", s->label);
			kgen_svg_points(fp, px, py, s->n);
			kgen_svg_close(fp);
		}
		for (j = 0; px && py && j < s->n; j++)
			marker(fp, s, &s->pts[j], px[j], py[j], colour, t->unit->unit);
		kgen_plot_legend(fp, &f, i, s->peer ? "peer" : "series", colour, s->label);
		free(px);
		free(py);
	}
	kgen_svg_end(fp);
}

/* The bars' group of series s (kgen's or a peer's): its dtype and op (and
 * file, when several), numbered in the order of kgen's series; a bar
 * takes its group's colour, and so does the peer measured beside it. */
static int
group_of(const struct table *t, const struct series *s)
{
	int k, i, g = 0;

	for (k = 0; k < t->ns; k++) {
		const struct series *a = &t->s[k];
		if (a->peer)
			continue;
		for (i = 0; i < k; i++)  /* a group seen before */
			if (!t->s[i].peer && strcmp(t->s[i].dtype, a->dtype) == 0 && strcmp(t->s[i].op, a->op) == 0 &&
			    (!t->multi || strcmp(t->s[i].file, a->file) == 0))
				break;
		if (i < k)
			continue;
		if (strcmp(s->dtype, a->dtype) == 0 && strcmp(s->op, a->op) == 0 && (!t->multi || strcmp(s->file, a->file) == 0))
			return g;
		g++;
	}
	return g;
}

/* How many groups the bars fall in. */
static int
groups(const struct table *t, const struct series *const *bars, int nbars)
{
	int i, n = 0;

	for (i = 0; i < nbars; i++)
		if (group_of(t, bars[i]) + 1 > n)
			n = group_of(t, bars[i]) + 1;
	return n;
}

/* kind ladder: the rows at one size, a bar each in the order run; the
 * peers' mean rates there as dashed lines. */
static kgen_status
draw_ladder(FILE *fp, struct table *t, const char *size, const char *text, kgen_error *err)
{
	struct frame f;
	struct scale ys;
	const struct series *bars[512];
	double ybars[512], hi = 0, bottom, w;
	char ylabel[64];
	int i, j, g, row, nbars = 0, ops_differ = 0;
	size_t longest = 0;

	for (i = 0; i < t->ns; i++)
		for (j = 0; j < t->s[i].n; j++)
			if (strcmp(t->s[i].pts[j].size, size) == 0) {
				if (!t->s[i].peer && nbars == (int)KGEN_COUNT(bars))
					return kgen_fail(err, KGEN_EINVAL, "more than %d specs at %s: too many bars for one picture",
					                 (int)KGEN_COUNT(bars), size);
				if (!t->s[i].peer) {
					bars[nbars] = &t->s[i];
					ybars[nbars++] = t->s[i].pts[j].y;
					if (strlen(t->s[i].label) > longest)
						longest = strlen(t->s[i].label);
				}
				hi = fmax(hi, t->s[i].pts[j].y);
			}
	if (nbars == 0)
		return kgen_fail(err, KGEN_EINVAL, "no timed row at %s", size);
	kgen_plot_linear_scale(&ys, hi);
	/* Room below for the bar labels, turned 40 degrees: about 4.2 px a character down. */
	bottom = 48 + 4.2 * (double)(longest > 60 ? 60 : longest);
	kgen_plot_frame(&f, (int)(430 + bottom), bottom);
	kgen_svg_begin(fp, f.width, f.height, text);
	kgen_plot_title(fp, &f, text);
	snprintf(ylabel, sizeof ylabel, "%s at %s (higher is better)", t->unit->unit, size);
	kgen_plot_y_axis(fp, &f, &ys, ylabel);
	w = (f.x1 - f.x0) / nbars;
	for (i = 0; i < nbars; i++) {
		double x = f.x0 + w * i, y = kgen_plot_place(&ys, ybars[i], f.y0, f.y1);
		char tip[512], v[32];
		snprintf(tip, sizeof tip, "%s at %s: %s %s", bars[i]->label, size, kgen_plot_value_text(ybars[i], v, sizeof v),
		         t->unit->unit);
		kgen_svg_open(fp, "rect", "bar");
		fprintf(fp, " x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\"", x + w * 0.15, y, w * 0.7, f.y0 - y);
		kgen_svg_attr(fp, "fill", kgen_plot_colours[group_of(t, bars[i]) % KGEN_PLOT_NCOLOURS]);
		kgen_svg_attr(fp, "data-label", bars[i]->label);
		kgen_svg_attr(fp, "data-x", size);
		kgen_svg_attr_num(fp, "data-y", ybars[i]);
		kgen_svg_attr_num(fp, "data-index", i);
		kgen_svg_close_title(fp, "rect", tip);
		kgen_svg_text(fp, x + w / 2, y - 4, "middle", 0, "value", v);
		kgen_svg_text(fp, x + w / 2 + 4, f.y0 + 14, "end", -40, "tick-label", bars[i]->label);
	}
	/* The legend: each group's bars, then its peer's line. */
	for (i = 1; i < nbars; i++)
		ops_differ |= strcmp(bars[i]->op, bars[0]->op) != 0;
	for (g = 0, row = 0; g < nbars; g++) {
		const struct series *first = NULL;
		char name[512], v[32];
		for (i = 0; i < nbars && !first; i++)
			if (group_of(t, bars[i]) == g)
				first = bars[i];
		if (!first)
			break;
		if (groups(t, bars, nbars) == 1)
			snprintf(name, sizeof name, "kgen");
		else
			snprintf(name, sizeof name, "kgen %s%s%s", first->dtype, ops_differ ? " " : "", ops_differ ? first->op : "");
		kgen_plot_legend(fp, &f, row++, "bar", kgen_plot_colours[g % KGEN_PLOT_NCOLOURS], name);
		for (i = 0; i < t->ns; i++)
			for (j = 0; t->s[i].peer && group_of(t, &t->s[i]) == g && j < t->s[i].n; j++)
				if (strcmp(t->s[i].pts[j].size, size) == 0) {
					const char *colour = kgen_plot_colours[g % KGEN_PLOT_NCOLOURS];
					double y = kgen_plot_place(&ys, t->s[i].pts[j].y, f.y0, f.y1);
					kgen_svg_open(fp, "line", "peer");
					fprintf(fp, " x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"", f.x0, y, f.x1, y);
					kgen_svg_attr(fp, "stroke", colour);
					kgen_svg_attr(fp, "data-label", t->s[i].label);
					kgen_svg_attr(fp, "data-x", size);
					kgen_svg_attr_num(fp, "data-y", t->s[i].pts[j].y);
					kgen_svg_attr_num(fp, "data-count", t->s[i].pts[j].count);
					snprintf(name, sizeof name, "%s %s %s", t->s[i].label, kgen_plot_value_text(t->s[i].pts[j].y, v, sizeof v),
					         t->unit->unit);
					kgen_svg_close_title(fp, "line", name);
					kgen_plot_legend(fp, &f, row++, "peer", colour, name);
				}
	}
	kgen_svg_end(fp);
	return KGEN_OK;
}

kgen_status
kgen_plot_rows(const struct kgen_plot_opts *o, struct plot_input *in, FILE *fp, kgen_error *err)
{
	struct table t = { 0 };
	enum kgen_plot_kind kind = o->kind;
	char text[512];
	kgen_status st;
	int i;

	if ((st = make_table(&t, in, err)) || (st = label_series(&t, err)))
		goto out;
	if (kind == KGEN_PLOT_AUTO)
		kind = t.nsizes == 1 || o->at ? KGEN_PLOT_LADDER : KGEN_PLOT_LINE;
	if (kind == KGEN_PLOT_LINE) {
		if (t.nsizes < 2) {
			st = kgen_fail(err, KGEN_EINVAL, "--kind line needs rows at two sizes or more; these are all at %s "
			               "(--kind ladder draws them)", t.sizes[0]);
			goto out;
		}
		snprintf(text, sizeof text, "%s", o->title ? o->title : "");
		if (!o->title)
			snprintf(text, sizeof text, "kgen run: %s against %s", t.unit->unit, t.plain ? "n" : "shape");
		draw_line(fp, &t, text);
		goto out;
	}
	if (!o->at && t.nsizes > 1) {
		strbuf b;
		sb_init(&b);
		for (i = 0; i < t.nsizes && i < 8; i++)
			sb_printf(&b, "%s%s", i ? ", " : "", t.sizes[i]);
		st = kgen_fail(err, KGEN_EINVAL, "a ladder is at one size, and the rows have %d (%s%s): pick one with --at "
		               "SIZE", t.nsizes, b.s ? b.s : "", t.nsizes > 8 ? ", ..." : "");
		sb_free(&b);
		goto out;
	}
	{
		const char *size = o->at ? o->at : t.sizes[0];
		for (i = 0; i < t.nsizes && strcmp(t.sizes[i], size) != 0; i++)
			;
		if (i == t.nsizes) {
			char q[64];
			st = kgen_fail(err, KGEN_EINVAL, "--at %s: no row at that size (the sizes: %s%s%s)",
			               kgen_quote(size, q, sizeof q), t.sizes[0], t.nsizes > 1 ? " to " : "",
			               t.nsizes > 1 ? t.sizes[t.nsizes - 1] : "");
			goto out;
		}
		if (o->title)
			snprintf(text, sizeof text, "%s", o->title);
		else
			snprintf(text, sizeof text, "kgen run: %s at %s", t.unit->unit, size);
		st = draw_ladder(fp, &t, size, text, err);
	}
out:
	free_table(&t);
	return st;
}

