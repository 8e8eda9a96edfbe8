/*
 * svg.h - the SVG that `kgen plot` writes (plot.c), written by kgen itself:
 * a fixed-size picture (width, height and viewBox in pixels), text always
 * XML-escaped, coordinates printed with two decimals and data values with
 * %.6g, so that the same input gives the same bytes.  Only the elements
 * the pictures need; the look is one <style> block of classes.
 */
#ifndef KGEN_SVG_H
#define KGEN_SVG_H

#include <stdio.h>

/* The XML declaration, <svg> with its size, the style and the <title>. */
void kgen_svg_begin(FILE *fp, int width, int height, const char *title);
/* </svg>. */
void kgen_svg_end(FILE *fp);

/* s as XML character data or an attribute's value: & < > " ' as
 * entities; a control character, or a byte of no valid UTF-8 sequence,
 * as U+FFFD (XML 1.0 has no way to write them). */
void kgen_svg_escape(FILE *fp, const char *s);

/* ` name="value"`, value escaped; a number as %.6g. */
void kgen_svg_attr(FILE *fp, const char *name, const char *value);
void kgen_svg_attr_num(FILE *fp, const char *name, double value);

/* A line, a rectangle, a circle of class cls (colour NULL: the class's). */
void kgen_svg_line(FILE *fp, double x1, double y1, double x2, double y2, const char *cls, const char *colour);
void kgen_svg_rect(FILE *fp, double x, double y, double w, double h, const char *cls, const char *colour);
/* Text at (x, y), anchored start, middle or end, turned by rotate degrees
 * about its anchor (0: not turned). */
void kgen_svg_text(FILE *fp, double x, double y, const char *anchor, double rotate, const char *cls,
                   const char *text);

/* An element opened and left open for attributes: "<NAME" plus its class;
 * the caller adds attributes and closes it with kgen_svg_close() ("/>")
 * or, with a tooltip, kgen_svg_close_title() ("><title>TEXT</title></NAME>"). */
void kgen_svg_open(FILE *fp, const char *name, const char *cls);
void kgen_svg_close(FILE *fp);
void kgen_svg_close_title(FILE *fp, const char *name, const char *title);

/* The points of a polyline, " points=\"x,y x,y\"" from n pairs. */
void kgen_svg_points(FILE *fp, const double *x, const double *y, int n);

#endif
