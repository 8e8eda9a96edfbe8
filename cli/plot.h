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

#endif
