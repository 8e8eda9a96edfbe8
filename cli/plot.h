/*
 * plot.h - what `kgen plot` reads (plot_read.c) and draws (plot.c).
 *
 * Three inputs, each a file kgen writes: kgen run's table (--tsv, or --json
 * rows: the same columns), kgen tune's records (a JSON line per
 * measurement) and a size plan (the points kgen tune chose).  A table row
 * carries a spec's rate at one size (GB/s, or TFLOPS for matmul) and its
 * peer's (CUB, cuBLAS or a copy); a record, a point's time per call.  Rows
 * that were not timed (kgen run without --bench), or did not verify, are
 * counted and left out; anything that is not kgen's is an error at its
 * file and line.
 */
#ifndef KGEN_PLOT_H
#define KGEN_PLOT_H

#include <stdio.h>
#include "kgen.h"

struct plot_row {           /* a row of kgen run's table */
	char *spec, *dtype, *op, *size, *method;  /* method "" in tables older than the column */
	double time_us, rate;   /* rate: GB/s, TFLOPS for matmul */
	double peer_rate;       /* the peer's at the same size; < 0: none */
	const char *file;       /* the input's name (plot_input.files) */
	int line;
};

struct plot_record {        /* a verified measurement of kgen tune's records */
	char *hash, *label, *size, *method;  /* hash NULL: the peer's (--against cub), label its name */
	double us;              /* the median time per call */
	unsigned long long n;   /* the size as n (a plan picks by it); 0 for a shape */
	double order;           /* the size's element count, to sort sizes by */
	const char *file;
	int line;
};

struct plot_input {
	struct plot_row *rows;
	int nrows;
	struct plot_record *recs;
	int nrecs;
	int untimed, unverified;  /* rows and records left out, for a note */
	kgen_plan *plan;          /* a size plan given: the chosen points */
	const char *plan_file;
	char **files;             /* the inputs' names, owned */
	int nfiles;
};

/* Read one input (path "-": standard input) into in: a table, records or
 * a plan, told apart by their first line.  KGEN_EINVAL at the file, line
 * and column of what is not kgen's; KGEN_EIO when it cannot be read. */
kgen_status kgen_plot_read(const char *path, struct plot_input *in, kgen_error *err);
void kgen_plot_free(struct plot_input *in);

/* The size text's element count: "4096" 4096, "64x1024" 65536; 0 when it
 * is no size (a number, or numbers joined by 'x'). */
double kgen_plot_size_count(const char *size, int *plain);

/* The order of sizes: by element count, then by text (qsort of const char *). */
int kgen_plot_cmp_size(const void *a, const void *b);

/* ---- drawing ---- */

enum kgen_plot_kind { KGEN_PLOT_AUTO, KGEN_PLOT_LINE, KGEN_PLOT_LADDER, KGEN_PLOT_SPACE };

struct kgen_plot_opts {
	enum kgen_plot_kind kind;
	const char *at, *title, *out;  /* --at, --title (NULL: what it shows), -o */
};

/* kgen run's rows as a line or a ladder (plot_rows.c); kgen tune's
 * records as a space (plot_space.c); the SVG to fp.  KGEN_EINVAL when
 * the rows cannot make the picture asked for. */
kgen_status kgen_plot_rows(const struct kgen_plot_opts *o, struct plot_input *in, FILE *fp, kgen_error *err);
kgen_status kgen_plot_space(const struct kgen_plot_opts *o, struct plot_input *in, FILE *fp, kgen_error *err);

/* What every picture shares (plot_draw.c).  The picture is WIDTH wide;
 * the plot area sits inside the margins, the legend to its right. */
#define KGEN_PLOT_WIDTH 960
#define KGEN_PLOT_LEFT 84.0
#define KGEN_PLOT_TOP 56.0
#define KGEN_PLOT_LEGEND_W 250.0
#define KGEN_PLOT_NCOLOURS 10
extern const char *const kgen_plot_colours[KGEN_PLOT_NCOLOURS];

struct frame {
	int width, height;
	double x0, x1, y0, y1;   /* the plot area: x0 left, y0 bottom (y grows down) */
};

/* A value on an axis, log or linear, over [lo, hi], and its ticks. */
struct scale {
	int log;
	double lo, hi;
	double ticks[64];
	int nticks;
};

/* The frame of a picture height high with bottom pixels under the plot area. */
void kgen_plot_frame(struct frame *f, int height, double bottom);
/* A log scale over [lo, hi] (both > 0) widened to its ticks: decades over
 * three decades or more, else 1, 2 and 5 of each; the tight one just
 * around [lo, hi] (an axis of sizes) with the ticks that fall inside. */
void kgen_plot_log_scale(struct scale *s, double lo, double hi);
void kgen_plot_tight_log_scale(struct scale *s, double lo, double hi);
/* A linear scale from 0 past hi, 4 to 10 ticks a 1-2-5 step apart. */
void kgen_plot_linear_scale(struct scale *s, double hi);
/* v's place between a (at lo) and b (at hi). */
double kgen_plot_place(const struct scale *s, double v, double a, double b);
/* A tick's label (0.5, 20, 1000, 10k, 1M, 1G); a value with three
 * significant digits or more (0.498, 42.3, 4391). */
const char *kgen_plot_tick_text(double v, char *buf, size_t n);
const char *kgen_plot_value_text(double v, char *buf, size_t n);
/* The y axis with grid lines, ticks, labels and its name, and the x axis' line. */
void kgen_plot_y_axis(FILE *fp, const struct frame *f, const struct scale *s, const char *name);
/* The title, centred on the picture (smaller when long). */
void kgen_plot_title(FILE *fp, const struct frame *f, const char *text);
/* Legend row i: a marker of class cls (bar, point, series, peer) and its text. */
void kgen_plot_legend(FILE *fp, const struct frame *f, int i, const char *cls, const char *colour, const char *text);
/* The last component of a path. */
const char *kgen_plot_base_name(const char *path);

#endif
