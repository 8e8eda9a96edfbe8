/*
 * plot_draw.c - what every picture of kgen plot shares (plot.h): the
 * frame, log and linear scales with their ticks (decades, or 1, 2 and 5
 * within fewer than three), the y axis, the title, the legend's rows, the
 * colours, and numbers as text.
 */
#include "config.h"
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "plot.h"
#include "svg.h"

/* The colours of the series, in turn (a colour-blind-safe set). */
const char *const kgen_plot_colours[KGEN_PLOT_NCOLOURS] = {
	"#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f", "#d62728",
};

void
kgen_plot_frame(struct frame *f, int height, double bottom)
{
	f->width = KGEN_PLOT_WIDTH;
	f->height = height;
	f->x0 = KGEN_PLOT_LEFT;
	f->x1 = KGEN_PLOT_WIDTH - KGEN_PLOT_LEGEND_W;
	f->y1 = KGEN_PLOT_TOP;
	f->y0 = height - bottom;
}

/* ---- scales and ticks ---- */

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
void
kgen_plot_log_scale(struct scale *s, double lo, double hi)
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
 * of kgen_plot_log_scale() that fall inside it. */
void
kgen_plot_tight_log_scale(struct scale *s, double lo, double hi)
{
	struct scale wide;
	int i;

	kgen_plot_log_scale(&wide, lo, hi);
	*s = wide;
	s->lo = lo / 1.25;
	s->hi = hi * 1.25;
	for (i = 0, s->nticks = 0; i < wide.nticks; i++)
		if (wide.ticks[i] >= s->lo && wide.ticks[i] <= s->hi)
			s->ticks[s->nticks++] = wide.ticks[i];
}

/* A linear scale from 0 to hi's next tick, 4 to 10 ticks a 1-2-5 apart. */
void
kgen_plot_linear_scale(struct scale *s, double hi)
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
double
kgen_plot_place(const struct scale *s, double v, double a, double b)
{
	double t = s->log ? (log10(v) - log10(s->lo)) / (log10(s->hi) - log10(s->lo)) : (v - s->lo) / (s->hi - s->lo);

	return a + t * (b - a);
}

/* A tick's label: 0.5, 20, 1000, then 10k, 1M, 1G. */
const char *
kgen_plot_tick_text(double v, char *buf, size_t n)
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
const char *
kgen_plot_value_text(double v, char *buf, size_t n)
{
	snprintf(buf, n, "%.*f", v >= 100 ? 0 : v >= 10 ? 1 : v >= 1 ? 2 : 3, v);
	return buf;
}

/* The y axis: grid lines, ticks and labels at each tick, the axis' name turned. */
void
kgen_plot_y_axis(FILE *fp, const struct frame *f, const struct scale *s, const char *name)
{
	char buf[32];
	int i;

	for (i = 0; i < s->nticks; i++) {
		double y = kgen_plot_place(s, s->ticks[i], f->y0, f->y1);
		kgen_svg_line(fp, f->x0, y, f->x1, y, "grid", NULL);
		kgen_svg_line(fp, f->x0 - 5, y, f->x0, y, "tick", NULL);
		kgen_svg_text(fp, f->x0 - 8, y + 4, "end", 0, "tick-label", kgen_plot_tick_text(s->ticks[i], buf, sizeof buf));
	}
	kgen_svg_line(fp, f->x0, f->y0, f->x0, f->y1, "axis", NULL);
	kgen_svg_line(fp, f->x0, f->y0, f->x1, f->y0, "axis", NULL);
	kgen_svg_text(fp, 22, (f->y0 + f->y1) / 2, "middle", -90, "axis-label", name);
}

/* The title, centred on the picture; a long one in a smaller type, so
 * that it fits (about 0.6 em a character). */
void
kgen_plot_title(FILE *fp, const struct frame *f, const char *text)
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
void
kgen_plot_legend(FILE *fp, const struct frame *f, int i, const char *cls, const char *colour, const char *text)
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

/* The last component of a path. */
const char *
kgen_plot_base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}
