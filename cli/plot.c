/*
 * plot.c - `kgen plot FILE...`: kgen's results as an SVG picture, written
 * by kgen itself (svg.c), from the files kgen writes (plot_read.c):
 *
 *   line    kgen run's rows at several sizes: each spec's rate (GB/s, or
 *           TFLOPS for matmul) against n, or against the shapes, on log
 *           axes, and its peer's (CUB, cuBLAS, a copy) dashed;
 *   ladder  kgen run's rows at one size (a folder of specs run in order):
 *           a bar per spec in the order run, the peer a dashed line;
 *   space   kgen tune's records: every point's time per call at each size,
 *           a band per size, the chosen one ringed (a plan's, when a size
 *           plan is among the files, else the fastest).
 *
 * Every plotted value is also an attribute of its element (data-x,
 * data-y, data-label...), so that a test can read the picture back and
 * compare it with the input (tests/plot_test.sh); coordinates have two
 * decimals and nothing depends on the clock: one input, one picture.
 */
#include "config.h"
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "plot.h"
#include "svg.h"
#include "gen/util.h"

enum plot_kind { KIND_AUTO, KIND_LINE, KIND_LADDER, KIND_SPACE };

struct plot_opts {
	enum plot_kind kind;
	const char *at, *title, *out;
};

/* What each family's rows measure, and against whom, by the op column
 * (the last row names everything else: reduce and reduce_axis). */
static const struct unit {
	const char *op;    /* NULL: any other */
	const char *unit, *peer;
} units[] = {
	{ "matmul", "TFLOPS", "cuBLAS" },
	{ "transpose", "GB/s", "copy" },
	{ NULL, "GB/s", "CUB" },
};

static const struct unit *
unit_of(const struct plot_row *r)
{
	size_t i;

	for (i = 0; units[i].op && strcmp(units[i].op, r->op) != 0; i++)
		;
	return &units[i];
}

/* The colours of the series, in turn (a colour-blind-safe set). */
static const char *const colours[] = {
	"#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f", "#d62728",
};
#define NCOLOURS (sizeof colours / sizeof colours[0])

/* The picture's frame: the plot area inside the margins, the legend to its right. */
#define WIDTH 960
#define LEFT 84.0
#define TOP 56.0
#define LEGEND_W 250.0

struct frame {
	int width, height;
	double x0, x1, y0, y1;   /* the plot area: x0 left, y0 bottom (y grows down) */
};

static void
frame_init(struct frame *f, int height, double bottom)
{
	f->width = WIDTH;
	f->height = height;
	f->x0 = LEFT;
	f->x1 = WIDTH - LEGEND_W;
	f->y1 = TOP;
	f->y0 = height - bottom;
}

/* ---- scales and ticks ---- */

/* A value on an axis, log or linear, over [lo, hi]. */
struct scale {
	int log;
	double lo, hi;
	double ticks[64];
	int nticks;
};

/* The 1-2-5 value nearest below (up 0) or above (up 1) v > 0. */
static double
step125(double v, int up)
{
	double d = pow(10, floor(log10(v))), m[] = { 1, 2, 5, 10 };
	int i;

	if (up) {
		for (i = 0; i < 4 && m[i] * d < v * (1 - 1e-9); i++)
			;
		return m[i] * d;
	}
	for (i = 3; i > 0 && m[i] * d > v * (1 + 1e-9); i--)
		;
	return m[i] * d;
}

/* A log scale over [lo, hi] (both > 0): ticks at decades over three
 * decades or more, else at 1, 2 and 5 of each decade. */
static void
log_scale(struct scale *s, double lo, double hi)
{
	double d;

	s->log = 1;
	s->nticks = 0;
	if (floor(log10(hi)) - floor(log10(lo)) >= 3 ||
	    (ceil(log10(hi) - 1e-9) - floor(log10(lo) + 1e-9) >= 3)) {
		s->lo = pow(10, floor(log10(lo) + 1e-9));
		s->hi = pow(10, ceil(log10(hi) - 1e-9));
		for (d = s->lo; d <= s->hi * 1.0001 && s->nticks < 64; d *= 10)
			s->ticks[s->nticks++] = d;
		return;
	}
	s->lo = step125(lo, 0);
	s->hi = step125(hi, 1);
	if (s->hi <= s->lo)
		s->hi = step125(s->lo * 1.5, 1);
	for (d = s->lo; d <= s->hi * 1.0001 && s->nticks < 64; d = step125(d * 1.5, 1))
		s->ticks[s->nticks++] = d;
}

/* A log scale just around [lo, hi] (an axis of sizes), with the ticks
 * of log_scale() that fall inside it. */
static void
tight_log_scale(struct scale *s, double lo, double hi)
{
	struct scale wide;
	int i;

	log_scale(&wide, lo, hi);
	*s = wide;
	s->lo = lo / 1.25;
	s->hi = hi * 1.25;
	for (i = 0, s->nticks = 0; i < wide.nticks; i++)
		if (wide.ticks[i] >= s->lo && wide.ticks[i] <= s->hi)
			s->ticks[s->nticks++] = wide.ticks[i];
}

/* A linear scale from 0 to hi's next tick, 4 to 10 ticks a 1-2-5 apart. */
static void
linear_scale(struct scale *s, double hi)
{
	double step = step125(hi > 0 ? hi / 6 : 1, 1), v;

	s->log = 0;
	s->lo = 0;
	s->hi = ceil(hi / step - 1e-9) * step;
	if (s->hi < hi * 1.05)
		s->hi += step;
	s->nticks = 0;
	for (v = 0; v <= s->hi * 1.0001 && s->nticks < 64; v += step)
		s->ticks[s->nticks++] = v;
}

/* v's place between a (at lo) and b (at hi). */
static double
place(const struct scale *s, double v, double a, double b)
{
	double t = s->log ? (log10(v) - log10(s->lo)) / (log10(s->hi) - log10(s->lo)) : (v - s->lo) / (s->hi - s->lo);

	return a + t * (b - a);
}

/* A tick's label: 0.5, 20, 1000, then 10k, 1M, 1G. */
static const char *
tick_text(double v, char *buf, size_t n)
{
	static const char suffix[] = "kMGTP";
	int i = -1;

	if (v >= 1e4)
		do {
			v /= 1000;
			i++;
		} while (v >= 1000 && i < 4);
	snprintf(buf, n, "%g%.*s", v, i >= 0 ? 1 : 0, i >= 0 ? &suffix[i] : "");
	return buf;
}

/* A value as text with three significant digits or more: 0.498, 42.3, 4391. */
static const char *
value_text(double v, char *buf, size_t n)
{
	snprintf(buf, n, "%.*f", v >= 100 ? 0 : v >= 10 ? 1 : v >= 1 ? 2 : 3, v);
	return buf;
}

/* The y axis: grid lines, ticks and labels at each tick, the axis' name turned. */
static void
y_axis(FILE *fp, const struct frame *f, const struct scale *s, const char *name)
{
	char buf[32];
	int i;

	for (i = 0; i < s->nticks; i++) {
		double y = place(s, s->ticks[i], f->y0, f->y1);
		kgen_svg_line(fp, f->x0, y, f->x1, y, "grid", NULL);
		kgen_svg_line(fp, f->x0 - 5, y, f->x0, y, "tick", NULL);
		kgen_svg_text(fp, f->x0 - 8, y + 4, "end", 0, "tick-label", tick_text(s->ticks[i], buf, sizeof buf));
	}
	kgen_svg_line(fp, f->x0, f->y0, f->x0, f->y1, "axis", NULL);
	kgen_svg_line(fp, f->x0, f->y0, f->x1, f->y0, "axis", NULL);
	kgen_svg_text(fp, 22, (f->y0 + f->y1) / 2, "middle", -90, "axis-label", name);
}

/* The title, centred on the picture; a long one in a smaller type, so
 * that it fits (about 0.6 em a character). */
static void
title(FILE *fp, const struct frame *f, const char *text)
{
	double size = 16, room = f->width - 24.0, chars = 0;
	const char *p;

	for (p = text; *p; p++)
		chars += ((unsigned char)*p & 0xc0) != 0x80;
	if (chars * 0.6 * size > room)
		size = fmax(8, room / (chars * 0.6));
	kgen_svg_open(fp, "text", "title");
	fprintf(fp, " x=\"%.2f\" y=\"30.00\" text-anchor=\"middle\"", f->width / 2.0);
	if (size < 16)
		fprintf(fp, " font-size=\"%.2f\"", size);
	fputc('>', fp);
	kgen_svg_escape(fp, text);
	fputs("</text>\n", fp);
}

/* A legend entry at row i: a marker (a line, dashed for a peer, or a bar) and its text. */
static void
legend(FILE *fp, const struct frame *f, int i, const char *cls, const char *colour, const char *text)
{
	double x = f->x1 + 24, y = f->y1 + 8 + 18 * i;

	if (strcmp(cls, "bar") == 0)
		kgen_svg_rect(fp, x, y - 6, 22, 10, "bar", colour);
	else if (strcmp(cls, "point") == 0)
		fprintf(fp, "<circle class=\"point\" cx=\"%.2f\" cy=\"%.2f\" r=\"4.00\" fill=\"%s\"/>\n", x + 11, y, colour);
	else
		kgen_svg_line(fp, x, y, x + 22, y, cls, colour);
	kgen_svg_text(fp, x + 30, y + 4, "start", 0, "legend", text);
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

/* The last component of a path. */
static const char *
base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* ---- kgen run's rows: series ---- */

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
	return t->multi ? base_name(file) : NULL;
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

static int
cmp_size(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	double cx = kgen_plot_size_count(x, NULL), cy = kgen_plot_size_count(y, NULL);

	return cx < cy ? -1 : cx > cy ? 1 : strcmp(x, y);
}

/* The rows as series: one unit for all (else an error at the first row
 * of another), each spec's and each peer's, and the sizes sorted. */
static kgen_status
make_table(struct table *t, struct plot_input *in, kgen_error *err)
{
	int i, j;

	t->in = in;
	t->unit = unit_of(&in->rows[0]);
	t->plain = 1;
	for (i = 1; i < in->nrows; i++)
		if (strcmp(in->rows[i].file, in->rows[0].file) != 0)
			t->multi = 1;
	for (i = 0; i < in->nrows; i++) {
		const struct plot_row *r = &in->rows[i];
		struct series *s;
		int plain = 0;
		kgen_status st;
		if (strcmp(unit_of(r)->unit, t->unit->unit) != 0) {
			kgen_fail(err, KGEN_EINVAL, "a row in %s (op %s) among rows in %s (%s:%d): mixed units, plot them apart",
			          unit_of(r)->unit, r->op, t->unit->unit, in->rows[0].file, in->rows[0].line);
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
	qsort(t->sizes, (size_t)t->nsizes, sizeof *t->sizes, cmp_size);
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
			sb_printf(&b, "%s", unit_of(&(struct plot_row){ .op = (char *)s->op })->peer);
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

	snprintf(tip, sizeof tip, "%s at %s: %s %s", s->label, p->size, value_text(p->y, v, sizeof v), unit);
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
		return place(xs, strtod(size, NULL), f->x0, f->x1);
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
	turn = !t->plain && 7.0 * (double)longest > (WIDTH - LEGEND_W - LEFT) / t->nsizes;
	if (turn)
		bottom = 50 + 4.6 * (double)longest;
	if (72 + 18 * t->ns > height - bottom)
		height = (int)(72 + 18 * t->ns + bottom);
	frame_init(&f, height, bottom);
	for (i = 0; i < t->ns; i++)
		for (j = 0; j < t->s[i].n; j++) {
			lo = fmin(lo, t->s[i].pts[j].y);
			hi = fmax(hi, t->s[i].pts[j].y);
		}
	log_scale(&ys, lo, hi);
	if (t->plain)
		tight_log_scale(&xs, strtod(t->sizes[0], NULL), strtod(t->sizes[t->nsizes - 1], NULL));
	kgen_svg_begin(fp, f.width, f.height, text);
	title(fp, &f, text);
	snprintf(ylabel, sizeof ylabel, "%s (higher is better)", t->unit->unit);
	y_axis(fp, &f, &ys, ylabel);
	if (t->plain) {
		for (i = 0; i < xs.nticks; i++) {
			double x = place(&xs, xs.ticks[i], f.x0, f.x1);
			kgen_svg_line(fp, x, f.y0, x, f.y1, "grid", NULL);
			kgen_svg_line(fp, x, f.y0, x, f.y0 + 5, "tick", NULL);
			kgen_svg_text(fp, x, f.y0 + 19, "middle", 0, "tick-label", tick_text(xs.ticks[i], buf, sizeof buf));
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
		const char *colour = colours[colour_of(t, i) % NCOLOURS];
		double *px = malloc((size_t)s->n * sizeof *px), *py = malloc((size_t)s->n * sizeof *py);
		for (j = 0; j < s->n; j++)
			s->pts[j].x = x_of(t, &xs, &f, s->pts[j].size);
		qsort(s->pts, (size_t)s->n, sizeof *s->pts, cmp_x);
		for (j = 0; px && py && j < s->n; j++) {
			px[j] = s->pts[j].x;
			py[j] = place(&ys, s->pts[j].y, f.y0, f.y1);
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
		legend(fp, &f, i, s->peer ? "peer" : "series", colour, s->label);
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
	linear_scale(&ys, hi);
	/* Room below for the bar labels, turned 40 degrees: about 4.2 px a character down. */
	bottom = 48 + 4.2 * (double)(longest > 60 ? 60 : longest);
	frame_init(&f, (int)(430 + bottom), bottom);
	kgen_svg_begin(fp, f.width, f.height, text);
	title(fp, &f, text);
	snprintf(ylabel, sizeof ylabel, "%s at %s (higher is better)", t->unit->unit, size);
	y_axis(fp, &f, &ys, ylabel);
	w = (f.x1 - f.x0) / nbars;
	for (i = 0; i < nbars; i++) {
		double x = f.x0 + w * i, y = place(&ys, ybars[i], f.y0, f.y1);
		char tip[512], v[32];
		snprintf(tip, sizeof tip, "%s at %s: %s %s", bars[i]->label, size, value_text(ybars[i], v, sizeof v),
		         t->unit->unit);
		kgen_svg_open(fp, "rect", "bar");
		fprintf(fp, " x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\"", x + w * 0.15, y, w * 0.7, f.y0 - y);
		kgen_svg_attr(fp, "fill", colours[group_of(t, bars[i]) % NCOLOURS]);
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
		legend(fp, &f, row++, "bar", colours[g % NCOLOURS], name);
		for (i = 0; i < t->ns; i++)
			for (j = 0; t->s[i].peer && group_of(t, &t->s[i]) == g && j < t->s[i].n; j++)
				if (strcmp(t->s[i].pts[j].size, size) == 0) {
					const char *colour = colours[g % NCOLOURS];
					double y = place(&ys, t->s[i].pts[j].y, f.y0, f.y1);
					kgen_svg_open(fp, "line", "peer");
					fprintf(fp, " x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"", f.x0, y, f.x1, y);
					kgen_svg_attr(fp, "stroke", colour);
					kgen_svg_attr(fp, "data-label", t->s[i].label);
					kgen_svg_attr(fp, "data-x", size);
					kgen_svg_attr_num(fp, "data-y", t->s[i].pts[j].y);
					kgen_svg_attr_num(fp, "data-count", t->s[i].pts[j].count);
					snprintf(name, sizeof name, "%s %s %s", t->s[i].label, value_text(t->s[i].pts[j].y, v, sizeof v),
					         t->unit->unit);
					kgen_svg_close_title(fp, "line", name);
					legend(fp, &f, row++, "peer", colour, name);
				}
	}
	kgen_svg_end(fp);
	return KGEN_OK;
}

/* ---- kgen tune's records ---- */

struct space {
	struct plot_input *in;
	const char **hashes, **labels;   /* the points, in the order first recorded */
	int np;
	const char **sizes;              /* sorted by element count */
	int nsizes;
	const char **methods;            /* in the order first recorded */
	int nm;
	int *rec;                        /* [size][point][method]: the record (the last one), or -1 */
	int *peer;                       /* [size][method]: the peer's record (--against cub), or -1 */
	int *chosen;                     /* [size]: the point chosen, or -1 */
};

/* The index of s in list (n long), appended when new; -1 when out of memory. */
static int
intern(const char ***list, int *n, const char *s)
{
	const char **grown;
	int i;

	for (i = 0; i < *n; i++)
		if (strcmp((*list)[i], s) == 0)
			return i;
	if (!(grown = realloc(*list, (size_t)(*n + 1) * sizeof *grown)))
		return -1;
	*list = grown;
	grown[*n] = s;
	return (*n)++;
}

#define REC(sp, j, i, m) ((sp)->rec[((size_t)(j) * (sp)->np + (i)) * (sp)->nm + (m)])

/* The point each size takes: the plan's entry for its n (by the hash
 * kgen tune gives it), else the fastest under the first method. */
static kgen_status
choose(struct space *sp, kgen_error *err)
{
	int i, j;

	for (j = 0; j < sp->nsizes; j++) {
		int r, best = -1;
		sp->chosen[j] = -1;
		if (sp->in->plan) {
			unsigned long long n = 0;
			char hash[17];
			kgen_status st;
			for (i = 0; i < sp->np && !n; i++)
				if ((r = REC(sp, j, i, 0)) >= 0 || (sp->nm > 1 && (r = REC(sp, j, i, 1)) >= 0))
					n = sp->in->recs[r].n;
			if (!n)
				return kgen_fail(err, KGEN_EINVAL, "%s is a size plan, which picks by n: records at %s have no n",
				                 sp->in->plan_file, sp->sizes[j]);
			if ((st = kgen_cli_spec_hash(kgen_plan_spec(sp->in->plan, kgen_plan_pick(sp->in->plan, n), NULL), hash,
			                             err)))
				return st;
			for (i = 0; i < sp->np; i++)
				if (strcmp(sp->hashes[i], hash) == 0)
					sp->chosen[j] = i;
			if (sp->chosen[j] < 0)
				fprintf(stderr, "kgen plot: the point %s's entry takes at n=%s (spec_hash %s) is not among the "
				        "records: none marked there\n", sp->in->plan_file, sp->sizes[j], hash);
			continue;
		}
		for (i = 0; i < sp->np; i++)
			if ((r = REC(sp, j, i, 0)) >= 0 && (best < 0 || sp->in->recs[r].us < sp->in->recs[REC(sp, j, best, 0)].us))
				best = i;
		sp->chosen[j] = best;
	}
	return KGEN_OK;
}

static kgen_status
make_space(struct space *sp, struct plot_input *in, kgen_error *err)
{
	int k;

	sp->in = in;
	for (k = 0; k < in->nrecs; k++)
		if ((in->recs[k].hash && intern(&sp->hashes, &sp->np, in->recs[k].hash) < 0) ||
		    intern(&sp->methods, &sp->nm, in->recs[k].method) < 0 || intern(&sp->sizes, &sp->nsizes, in->recs[k].size) < 0)
			return kgen_fail(err, KGEN_ENOMEM, "out of memory");
	if (sp->np == 0)
		return kgen_fail(err, KGEN_EINVAL, "the records hold only the peer's times: no point of a space to plot");
	qsort(sp->sizes, (size_t)sp->nsizes, sizeof *sp->sizes, cmp_size);
	if (!(sp->labels = calloc((size_t)sp->np, sizeof *sp->labels)) ||
	    !(sp->rec = malloc((size_t)sp->nsizes * sp->np * sp->nm * sizeof *sp->rec)) ||
	    !(sp->peer = malloc((size_t)sp->nsizes * sp->nm * sizeof *sp->peer)) ||
	    !(sp->chosen = malloc((size_t)sp->nsizes * sizeof *sp->chosen)))
		return kgen_fail(err, KGEN_ENOMEM, "out of memory");
	memset(sp->rec, 0xff, (size_t)sp->nsizes * sp->np * sp->nm * sizeof *sp->rec);
	memset(sp->peer, 0xff, (size_t)sp->nsizes * sp->nm * sizeof *sp->peer);
	/* A measurement taken again (--fresh): the last one counts, as in kgen tune. */
	for (k = 0; k < in->nrecs; k++) {
		int m = intern(&sp->methods, &sp->nm, in->recs[k].method), j = intern(&sp->sizes, &sp->nsizes, in->recs[k].size);
		if (!in->recs[k].hash) {
			sp->peer[j * sp->nm + m] = k;
			continue;
		}
		REC(sp, j, intern(&sp->hashes, &sp->np, in->recs[k].hash), m) = k;
	}
	for (k = in->nrecs - 1; k >= 0; k--)  /* a point's label: its first record's */
		if (in->recs[k].hash)
			sp->labels[intern(&sp->hashes, &sp->np, in->recs[k].hash)] = in->recs[k].label;
	return choose(sp, err);
}

static void
free_space(struct space *sp)
{
	free(sp->hashes);
	free(sp->labels);
	free(sp->sizes);
	free(sp->methods);
	free(sp->rec);
	free(sp->peer);
	free(sp->chosen);
}

/* A size as its band's label: n as 2^k when it is a power of two. */
static const char *
size_text(const char *size, char *buf, size_t n)
{
	unsigned long long v;
	int plain = 0, k;

	kgen_plot_size_count(size, &plain);
	v = strtoull(size, NULL, 10);
	if (plain && v >= 1024 && (v & (v - 1)) == 0) {
		for (k = 0; (1ull << k) != v; k++)
			;
		snprintf(buf, n, "n=2^%d", k);
	} else {
		snprintf(buf, n, "%s%s", plain ? "n=" : "", size);
	}
	return buf;
}

/* kind space: a band per size, each point's time per call in it, the
 * chosen one ringed; the chosen points' labels below. */
static void
draw_space(FILE *fp, const struct space *sp, const char *text)
{
	struct frame f;
	struct scale ys;
	double lo = INFINITY, hi = 0, band;
	char buf[64], tip[1024], v[32];
	const char *peer = NULL;
	int i, j, m, k, height, row;

	for (k = 0; k < sp->nsizes * sp->np * sp->nm; k++)
		if (sp->rec[k] >= 0) {
			lo = fmin(lo, sp->in->recs[sp->rec[k]].us);
			hi = fmax(hi, sp->in->recs[sp->rec[k]].us);
		}
	for (k = 0; k < sp->nsizes * sp->nm; k++)
		if (sp->peer[k] >= 0) {
			lo = fmin(lo, sp->in->recs[sp->peer[k]].us);
			hi = fmax(hi, sp->in->recs[sp->peer[k]].us);
			peer = sp->in->recs[sp->peer[k]].label;
		}
	height = 520 + 16 * sp->nsizes;
	frame_init(&f, height, 90 + 16 * sp->nsizes);
	log_scale(&ys, lo, hi);
	kgen_svg_begin(fp, f.width, f.height, text);
	title(fp, &f, text);
	y_axis(fp, &f, &ys, "time per call, us (lower is better)");
	band = (f.x1 - f.x0) / sp->nsizes;
	for (j = 0; j < sp->nsizes; j++) {
		double x = f.x0 + band * j;
		if (j > 0)
			kgen_svg_line(fp, x, f.y0, x, f.y1, "band", NULL);
		kgen_svg_text(fp, x + band / 2, f.y0 + 18, "middle", 0, "tick-label", size_text(sp->sizes[j], buf, sizeof buf));
	}
	kgen_svg_text(fp, (f.x0 + f.x1) / 2, f.y0 + 40, "middle", 0, "axis-label",
	              "size; in each, the space's points in the order tuned");
	for (m = 0; m < sp->nm; m++) {
		snprintf(tip, sizeof tip, "method %s", sp->methods[m]);
		legend(fp, &f, m, "point", colours[m % NCOLOURS], tip);
	}
	row = sp->nm;
	for (m = 0; peer && m < sp->nm; m++) {
		snprintf(tip, sizeof tip, "%s (%s)", peer, sp->methods[m]);
		legend(fp, &f, row++, "peer", colours[m % NCOLOURS], tip);
	}
	for (j = 0; j < sp->nsizes; j++)
		for (m = 0; m < sp->nm; m++) {
			const struct plot_record *rec;
			double y;
			if ((k = sp->peer[j * sp->nm + m]) < 0)
				continue;
			rec = &sp->in->recs[k];
			y = place(&ys, rec->us, f.y0, f.y1);
			kgen_svg_open(fp, "line", "peer");
			fprintf(fp, " x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"", f.x0 + band * j + 2, y,
			        f.x0 + band * (j + 1) - 2, y);
			kgen_svg_attr(fp, "stroke", colours[m % NCOLOURS]);
			kgen_svg_attr(fp, "data-label", rec->label);
			kgen_svg_attr(fp, "data-x", rec->size);
			kgen_svg_attr(fp, "data-method", rec->method);
			kgen_svg_attr_num(fp, "data-y", rec->us);
			snprintf(tip, sizeof tip, "%s, %s: %s %s us", size_text(rec->size, buf, sizeof buf), rec->method,
			         rec->label, value_text(rec->us, v, sizeof v));
			kgen_svg_close_title(fp, "line", tip);
		}
	for (j = 0; j < sp->nsizes; j++)
		for (i = 0; i < sp->np; i++)
			for (m = 0; m < sp->nm; m++) {
				int r = REC(sp, j, i, m);
				const struct plot_record *rec;
				double x = f.x0 + band * j + band * (i + 0.5) / sp->np, y;
				if (r < 0)
					continue;
				rec = &sp->in->recs[r];
				y = place(&ys, rec->us, f.y0, f.y1);
				snprintf(tip, sizeof tip, "%s, %s: %s us (%s)%s", size_text(rec->size, buf, sizeof buf), rec->method,
				         value_text(rec->us, v, sizeof v), rec->label, sp->chosen[j] == i ? ", chosen" : "");
				kgen_svg_open(fp, "circle", "point");
				fprintf(fp, " cx=\"%.2f\" cy=\"%.2f\" r=\"%.2f\"", x, y, sp->chosen[j] == i ? 4.0 : 2.5);
				kgen_svg_attr(fp, "fill", colours[m % NCOLOURS]);
				kgen_svg_attr(fp, "data-label", rec->label);
				kgen_svg_attr(fp, "data-hash", rec->hash);
				kgen_svg_attr(fp, "data-x", rec->size);
				kgen_svg_attr(fp, "data-method", rec->method);
				kgen_svg_attr_num(fp, "data-y", rec->us);
				kgen_svg_attr_num(fp, "data-index", i);
				if (sp->chosen[j] == i)
					kgen_svg_attr(fp, "data-chosen", "1");
				kgen_svg_close_title(fp, "circle", tip);
				if (sp->chosen[j] == i && m == 0)
					fprintf(fp, "<circle class=\"chosen\" cx=\"%.2f\" cy=\"%.2f\" r=\"8.00\"/>\n", x, y);
			}
	{
		double x = f.x1 + 24, y = f.y1 + 8 + 18 * row;
		fprintf(fp, "<circle class=\"chosen\" cx=\"%.2f\" cy=\"%.2f\" r=\"6.00\"/>\n", x + 11, y);
		if (sp->in->plan)
			snprintf(tip, sizeof tip, "chosen by %s", base_name(sp->in->plan_file));
		else
			snprintf(tip, sizeof tip, "chosen: the fastest (%s)", sp->methods[0]);
		kgen_svg_text(fp, x + 30, y + 4, "start", 0, "legend", tip);
	}
	for (j = 0; j < sp->nsizes; j++) {
		snprintf(tip, sizeof tip, "%s: %s", size_text(sp->sizes[j], buf, sizeof buf),
		         sp->chosen[j] >= 0 ? sp->labels[sp->chosen[j]] : "(none chosen)");
		kgen_svg_text(fp, f.x0, f.y0 + 66 + 16 * j, "start", 0, "note", tip);
	}
	kgen_svg_end(fp);
}

/* ---- the command ---- */

static void
usage(FILE *fp)
{
	fputs("usage: kgen plot FILE... [--kind line|ladder|space] [--at SIZE] [--title TEXT]\n"
	      "                 [-o FILE]\n"
	      "Draw kgen's results as an SVG picture (to standard output, or to -o FILE),\n"
	      "written by kgen itself, to open in a browser.  FILE is kgen run's table\n"
	      "(--tsv FILE or --json FILE; - is standard input), kgen tune's records, or\n"
	      "a size plan that marks which of the records' points it chose.\n"
	      "  --kind line    throughput (GB/s, or TFLOPS for matmul) against n, or\n"
	      "                 against the shapes, on log axes: a line per spec, and its\n"
	      "                 peer's (CUB, cuBLAS, the copy) dashed; kgen run's rows at\n"
	      "                 several sizes (the default for them)\n"
	      "  --kind ladder  a bar per spec at one size, in the order run (kgen run\n"
	      "                 --bench DIR/*.yaml --tsv FILE: a ladder of steps), the\n"
	      "                 peer a dashed line; the default for rows at one size\n"
	      "  --kind space   every point of kgen tune's records: time per call at each\n"
	      "                 size, the chosen one ringed (the plan's, when a plan is\n"
	      "                 among the files, else the fastest under the first method);\n"
	      "                 the default for records\n"
	      "  --at SIZE      the ladder's size, as the table's n column writes it\n"
	      "                 (e.g. 4096x4096x4096) when the rows have several\n"
	      "  --title TEXT   the picture's title (default: what it shows)\n"
	      "  -o FILE        write the picture to FILE\n"
	      "Rows that were not timed (kgen run without --bench) or did not verify are\n"
	      "left out and counted on stderr; several runs of a spec at one size are\n"
	      "refused (give each run's table as its own FILE: a line each).  Exit 0, 2\n"
	      "when the files are not kgen's (FILE:LINE:COLUMN says where) or do not\n"
	      "make the picture asked for, 3 when one cannot be read or written.\n", fp);
}

static int
parse_options(int argc, char **argv, struct plot_opts *o)
{
	static const struct option longopts[] = {
		{ "kind", required_argument, NULL, 'k' }, { "at", required_argument, NULL, 'a' },
		{ "title", required_argument, NULL, 't' }, { "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 },
	};
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'k':
			if (strcmp(optarg, "line") == 0)
				o->kind = KIND_LINE;
			else if (strcmp(optarg, "ladder") == 0)
				o->kind = KIND_LADDER;
			else if (strcmp(optarg, "space") == 0)
				o->kind = KIND_SPACE;
			else {
				char q[64];
				fprintf(stderr, "kgen plot: --kind %s: expected line, ladder or space\n",
				        kgen_quote(optarg, q, sizeof q));
				return 2;
			}
			break;
		case 'a': o->at = optarg; break;
		case 't': o->title = optarg; break;
		case 'o': o->out = optarg; break;
		case 'h': usage(stdout); return 0;
		default: fprintf(stderr, "(kgen plot --help says what it takes)\n"); return 2;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "kgen plot: no FILE given (kgen run's --tsv or --json, kgen tune's records)\n");
		return 2;
	}
	return -1;
}

/* The rows' picture: line or ladder. */
static kgen_status
plot_rows(const struct plot_opts *o, struct plot_input *in, FILE *fp, kgen_error *err)
{
	struct table t = { 0 };
	enum plot_kind kind = o->kind;
	char text[512];
	kgen_status st;
	int i;

	if ((st = make_table(&t, in, err)) || (st = label_series(&t, err)))
		goto out;
	if (kind == KIND_AUTO)
		kind = t.nsizes == 1 || o->at ? KIND_LADDER : KIND_LINE;
	if (kind == KIND_LINE) {
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

int
kgen_cmd_plot(int argc, char **argv)
{
	struct plot_opts o = { .kind = KIND_AUTO };
	struct plot_input in = { 0 };
	struct space sp = { 0 };
	kgen_error err;
	kgen_status st = KGEN_OK;
	FILE *fp = stdout;
	char *buf = NULL, text[512];
	size_t len = 0;
	int i, r;

	if ((r = parse_options(argc, argv, &o)) >= 0)
		return r;
	if (o.out && (st = kgen_cli_not_an_input("-o", o.out, argv + optind, argc - optind, "the input", &err)))
		return kgen_report(&err);
	for (i = optind; i < argc && !st; i++)
		st = kgen_plot_read(argv[i], &in, &err);
	if (st)
		goto out;
	if (in.nrows && in.nrecs) {
		st = kgen_fail(&err, KGEN_EINVAL, "kgen run's rows and kgen tune's records together: plot them apart");
		goto out;
	}
	if (in.untimed || in.unverified) {
		const char *what = in.nrecs ? "record" : "row";
		fprintf(stderr, "kgen plot: left out");
		if (in.untimed)
			fprintf(stderr, " %d %s%s without a time (kgen run without --bench)%s", in.untimed, what,
			        in.untimed == 1 ? "" : "s", in.unverified ? " and" : "");
		if (in.unverified)
			fprintf(stderr, " %d %s%s that did not verify", in.unverified, what, in.unverified == 1 ? "" : "s");
		fputc('\n', stderr);
	}
	if (!in.nrows && !in.nrecs) {
		st = kgen_fail(&err, KGEN_EINVAL, "nothing to plot: %s", in.plan && !in.untimed && !in.unverified ?
		               "a plan marks the chosen points of kgen tune's records; give the records too" :
		               "no timed and verified row or record");
		goto out;
	}
	if (in.plan && !in.nrecs) {
		st = kgen_fail(&err, KGEN_EINVAL, "%s is a size plan: it marks the points of kgen tune's records, not kgen "
		               "run's rows", in.plan_file);
		goto out;
	}
	if ((o.kind == KIND_SPACE && !in.nrecs) || ((o.kind == KIND_LINE || o.kind == KIND_LADDER) && !in.nrows)) {
		st = kgen_fail(&err, KGEN_EINVAL, "--kind %s draws %s, and the files hold %s",
		               o.kind == KIND_SPACE ? "space" : o.kind == KIND_LINE ? "line" : "ladder",
		               o.kind == KIND_SPACE ? "kgen tune's records" : "kgen run's rows",
		               in.nrecs ? "kgen tune's records" : "kgen run's rows");
		goto out;
	}
	if (in.nrecs && o.at) {
		st = kgen_fail(&err, KGEN_EINVAL, "--at picks a ladder's size: kgen tune's records draw every size");
		goto out;
	}
	if (o.out && !(fp = open_memstream(&buf, &len))) {
		st = kgen_fail(&err, KGEN_ENOMEM, "out of memory");
		goto out;
	}
	if (in.nrows) {
		st = plot_rows(&o, &in, fp, &err);
	} else if (!(st = make_space(&sp, &in, &err))) {
		if (o.title)
			snprintf(text, sizeof text, "%s", o.title);
		else
			snprintf(text, sizeof text, "kgen tune: %d points of %s", sp.np, base_name(in.recs[0].file));
		draw_space(fp, &sp, text);
	}
	/* -o: the picture written whole, through a temporary file, or nothing. */
	if (fp != stdout && fclose(fp) != 0 && !st)
		st = kgen_fail(&err, KGEN_ENOMEM, "out of memory");
	if (fp != stdout && !st)
		st = kgen_write_file(o.out, buf, len, &err);
	free(buf);
out:
	free_space(&sp);
	kgen_plot_free(&in);
	return st ? kgen_report(&err) : 0;
}
