/*
 * plot_space.c - kgen plot's picture of kgen tune's records (plot.h):
 * every verified point's time per call, a band per size with the points
 * in the order tuned and a colour per method, the peer's time dashed, and
 * the point chosen at each size ringed: the size plan's entry for that n
 * (matched by the hash kgen tune names a spec by), else the fastest under
 * the first method.
 */
#include "config.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "plot.h"
#include "svg.h"
#include "gen/util.h"

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
			int k;
			for (k = 0; k < sp->in->nrecs && !n; k++)
				if (strcmp(sp->in->recs[k].size, sp->sizes[j]) == 0)
					n = sp->in->recs[k].n;
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
				fprintf(stderr, "kgen plot: the point %s takes at n=%s (spec_hash %s) is not among the records: "
				        "none marked there\n", sp->in->plan_file, sp->sizes[j], hash);
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
	qsort(sp->sizes, (size_t)sp->nsizes, sizeof *sp->sizes, kgen_plot_cmp_size);
	if (!(sp->labels = calloc((size_t)sp->np, sizeof *sp->labels)) ||
	    !(sp->rec = malloc((size_t)sp->nsizes * sp->np * sp->nm * sizeof *sp->rec)) ||
	    !(sp->peer = malloc((size_t)sp->nsizes * sp->nm * sizeof *sp->peer)) ||
	    !(sp->chosen = malloc((size_t)sp->nsizes * sizeof *sp->chosen)))
		return kgen_fail(err, KGEN_ENOMEM, "out of memory");
	memset(sp->rec, 0xff, (size_t)sp->nsizes * sp->np * sp->nm * sizeof *sp->rec);
	memset(sp->peer, 0xff, (size_t)sp->nsizes * sp->nm * sizeof *sp->peer);
	/* A measurement taken again (--fresh): the last verified one counts. */
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
	kgen_plot_frame(&f, height, 90 + 16 * sp->nsizes);
	kgen_plot_log_scale(&ys, lo, hi);
	kgen_svg_begin(fp, f.width, f.height, text);
	kgen_plot_title(fp, &f, text);
	kgen_plot_y_axis(fp, &f, &ys, "time per call, us (lower is better)");
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
		kgen_plot_legend(fp, &f, m, "point", kgen_plot_colours[m % KGEN_PLOT_NCOLOURS], tip);
	}
	row = sp->nm;
	for (m = 0; peer && m < sp->nm; m++) {
		snprintf(tip, sizeof tip, "%s (%s)", peer, sp->methods[m]);
		kgen_plot_legend(fp, &f, row++, "peer", kgen_plot_colours[m % KGEN_PLOT_NCOLOURS], tip);
	}
	for (j = 0; j < sp->nsizes; j++)
		for (m = 0; m < sp->nm; m++) {
			const struct plot_record *rec;
			double y;
			if ((k = sp->peer[j * sp->nm + m]) < 0)
				continue;
			rec = &sp->in->recs[k];
			y = kgen_plot_place(&ys, rec->us, f.y0, f.y1);
			kgen_svg_open(fp, "line", "peer");
			fprintf(fp, " x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"", f.x0 + band * j + 2, y,
			        f.x0 + band * (j + 1) - 2, y);
			kgen_svg_attr(fp, "stroke", kgen_plot_colours[m % KGEN_PLOT_NCOLOURS]);
			kgen_svg_attr(fp, "data-label", rec->label);
			kgen_svg_attr(fp, "data-x", rec->size);
			kgen_svg_attr(fp, "data-method", rec->method);
			kgen_svg_attr_num(fp, "data-y", rec->us);
			snprintf(tip, sizeof tip, "%s, %s: %s %s us", size_text(rec->size, buf, sizeof buf), rec->method,
			         rec->label, kgen_plot_value_text(rec->us, v, sizeof v));
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
				y = kgen_plot_place(&ys, rec->us, f.y0, f.y1);
				snprintf(tip, sizeof tip, "%s, %s: %s us (%s)%s", size_text(rec->size, buf, sizeof buf), rec->method,
				         kgen_plot_value_text(rec->us, v, sizeof v), rec->label, sp->chosen[j] == i ? ", chosen" : "");
				kgen_svg_open(fp, "circle", "point");
				fprintf(fp, " cx=\"%.2f\" cy=\"%.2f\" r=\"%.2f\"", x, y, sp->chosen[j] == i ? 4.0 : 2.5);
				kgen_svg_attr(fp, "fill", kgen_plot_colours[m % KGEN_PLOT_NCOLOURS]);
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
			snprintf(tip, sizeof tip, "chosen by %s", kgen_plot_base_name(sp->in->plan_file));
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

kgen_status
kgen_plot_space(const struct kgen_plot_opts *o, struct plot_input *in, FILE *fp, kgen_error *err)
{
	struct space sp = { 0 };
	char text[512];
	kgen_status st;

	if (!(st = make_space(&sp, in, err))) {
		if (o->title)
			snprintf(text, sizeof text, "%s", o->title);
		else
			snprintf(text, sizeof text, "kgen tune: %d points of %s", sp.np, kgen_plot_base_name(in->recs[0].file));
		draw_space(fp, &sp, text);
	}
	free_space(&sp);
	return st;
}
