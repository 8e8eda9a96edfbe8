/* svg.c - the SVG writer of kgen plot (svg.h). */
#include "config.h"
#include <string.h>
#include "svg.h"
#include "gen/util.h"

/* The look of every picture: classes, so that each element names its role. */
static const char style[] =
	"text { font-family: DejaVu Sans, Helvetica, Arial, sans-serif; font-size: 12px; fill: #222; }\n"
	"text.title { font-size: 16px; font-weight: bold; }\n"
	"text.axis-label { font-size: 13px; }\n"
	"text.tick-label, text.legend, text.value, text.note { font-size: 11px; }\n"
	"text.note { fill: #555; }\n"
	"line.axis { stroke: #222; stroke-width: 1; }\n"
	"line.tick { stroke: #222; stroke-width: 1; }\n"
	"line.grid { stroke: #ddd; stroke-width: 1; }\n"
	"line.band { stroke: #bbb; stroke-width: 1; stroke-dasharray: 2 3; }\n"
	"line.peer, polyline.peer { stroke-width: 2; stroke-dasharray: 6 4; fill: none; }\n"
	"polyline.series { stroke-width: 2; fill: none; }\n"
	"rect.background { fill: #fff; }\n"
	"rect.bar { stroke: none; }\n"
	"circle.point, rect.point { stroke: #fff; stroke-width: 0.5; }\n"
	"circle.chosen { fill: none; stroke: #d62728; stroke-width: 2.5; }\n";

void
kgen_svg_escape(FILE *fp, const char *s)
{
	while (*s) {
		unsigned char c = (unsigned char)*s;
		int len = kgen_utf8_length(s);
		switch (c) {
		case '&': fputs("&amp;", fp); break;
		case '<': fputs("&lt;", fp); break;
		case '>': fputs("&gt;", fp); break;
		case '"': fputs("&quot;", fp); break;
		case '\'': fputs("&apos;", fp); break;
		default:
			if (c < 0x20 || c == 0x7f || len == 0)
				fputs("\xef\xbf\xbd", fp);  /* U+FFFD */
			else
				fwrite(s, 1, (size_t)len, fp);
		}
		s += len ? len : 1;
	}
}

void
kgen_svg_attr(FILE *fp, const char *name, const char *value)
{
	fprintf(fp, " %s=\"", name);
	kgen_svg_escape(fp, value);
	fputc('"', fp);
}

void
kgen_svg_attr_num(FILE *fp, const char *name, double value)
{
	fprintf(fp, " %s=\"%.6g\"", name, value);
}

void
kgen_svg_begin(FILE *fp, int width, int height, const char *title)
{
	fprintf(fp, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">\n",
	        width, height, width, height);
	fprintf(fp, "<title>");
	kgen_svg_escape(fp, title);
	fprintf(fp, "</title>\n<style>\n%s</style>\n", style);
	kgen_svg_rect(fp, 0, 0, width, height, "background", NULL);
}

void
kgen_svg_end(FILE *fp)
{
	fputs("</svg>\n", fp);
}

void
kgen_svg_open(FILE *fp, const char *name, const char *cls)
{
	fprintf(fp, "<%s", name);
	if (cls)
		kgen_svg_attr(fp, "class", cls);
}

void
kgen_svg_close(FILE *fp)
{
	fputs("/>\n", fp);
}

void
kgen_svg_close_title(FILE *fp, const char *name, const char *title)
{
	fputs("><title>", fp);
	kgen_svg_escape(fp, title);
	fprintf(fp, "</title></%s>\n", name);
}

void
kgen_svg_line(FILE *fp, double x1, double y1, double x2, double y2, const char *cls, const char *colour)
{
	kgen_svg_open(fp, "line", cls);
	fprintf(fp, " x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"", x1, y1, x2, y2);
	if (colour)
		kgen_svg_attr(fp, "stroke", colour);
	kgen_svg_close(fp);
}

void
kgen_svg_rect(FILE *fp, double x, double y, double w, double h, const char *cls, const char *colour)
{
	kgen_svg_open(fp, "rect", cls);
	fprintf(fp, " x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\"", x, y, w, h);
	if (colour)
		kgen_svg_attr(fp, "fill", colour);
	kgen_svg_close(fp);
}

void
kgen_svg_text(FILE *fp, double x, double y, const char *anchor, double rotate, const char *cls, const char *text)
{
	kgen_svg_open(fp, "text", cls);
	fprintf(fp, " x=\"%.2f\" y=\"%.2f\"", x, y);
	if (anchor && strcmp(anchor, "start") != 0)
		kgen_svg_attr(fp, "text-anchor", anchor);
	if (rotate != 0)
		fprintf(fp, " transform=\"rotate(%.2f %.2f %.2f)\"", rotate, x, y);
	fputc('>', fp);
	kgen_svg_escape(fp, text);
	fputs("</text>\n", fp);
}

void
kgen_svg_points(FILE *fp, const double *x, const double *y, int n)
{
	int i;

	fputs(" points=\"", fp);
	for (i = 0; i < n; i++)
		fprintf(fp, "%s%.2f,%.2f", i ? " " : "", x[i], y[i]);
	fputc('"', fp);
}
