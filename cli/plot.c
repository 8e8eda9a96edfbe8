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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "plot.h"
#include "gen/util.h"

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
parse_options(int argc, char **argv, struct kgen_plot_opts *o)
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
				o->kind = KGEN_PLOT_LINE;
			else if (strcmp(optarg, "ladder") == 0)
				o->kind = KGEN_PLOT_LADDER;
			else if (strcmp(optarg, "space") == 0)
				o->kind = KGEN_PLOT_SPACE;
			else {
				char q[64];
				return kgen_cli_usage_error("plot", "--kind %s: expected line, ladder or space",
				                            kgen_quote(optarg, q, sizeof q));
			}
			break;
		case 'a': o->at = optarg; break;
		case 't': o->title = optarg; break;
		case 'o': o->out = optarg; break;
		case 'h': usage(stdout); return 0;
		default: return kgen_cli_usage_error("plot", NULL);  /* getopt has said what */
		}
	}
	if (optind >= argc)
		return kgen_cli_usage_error("plot", "no FILE given (kgen run's --tsv or --json, kgen tune's records)");
	return -1;
}

/* The rows or records left out, on stderr: "left out 1 row without a
 * time (...) and 2 rows that did not verify". */
static void
note_left_out(const struct plot_input *in)
{
	const char *what = in->nrecs ? "record" : "row";

	if (!in->untimed && !in->unverified)
		return;
	fprintf(stderr, "kgen plot: left out");
	if (in->untimed)
		fprintf(stderr, " %d %s%s without a time (kgen run without --bench)%s", in->untimed, what,
		        in->untimed == 1 ? "" : "s", in->unverified ? " and" : "");
	if (in->unverified)
		fprintf(stderr, " %d %s%s that did not verify", in->unverified, what, in->unverified == 1 ? "" : "s");
	fputc('\n', stderr);
}

/* Do the inputs make the picture asked for? */
static kgen_status
check_inputs(const struct kgen_plot_opts *o, const struct plot_input *in, kgen_error *err)
{
	static const char *const names[] = { "", "line", "ladder", "space" };

	if (in->nrows && in->nrecs)
		return kgen_fail(err, KGEN_EINVAL, "kgen run's rows and kgen tune's records together: plot them apart");
	if (!in->nrows && !in->nrecs)
		return kgen_fail(err, KGEN_EINVAL, "nothing to plot: %s", in->plan && !in->untimed && !in->unverified ?
		                 "a plan marks the chosen points of kgen tune's records; give the records too" :
		                 "no timed and verified row or record");
	if (in->plan && !in->nrecs)
		return kgen_fail(err, KGEN_EINVAL, "%s is a size plan: it marks the points of kgen tune's records, not kgen "
		                 "run's rows", in->plan_file);
	if (o->kind != KGEN_PLOT_AUTO && (o->kind == KGEN_PLOT_SPACE) != (in->nrecs > 0))
		return kgen_fail(err, KGEN_EINVAL, "--kind %s draws %s, and the files hold %s", names[o->kind],
		                 o->kind == KGEN_PLOT_SPACE ? "kgen tune's records" : "kgen run's rows",
		                 in->nrecs ? "kgen tune's records" : "kgen run's rows");
	if (in->nrecs && o->at)
		return kgen_fail(err, KGEN_EINVAL, "--at picks a ladder's size: kgen tune's records draw every size");
	if (o->kind == KGEN_PLOT_LINE && o->at)
		return kgen_fail(err, KGEN_EINVAL, "--at picks a ladder's size: --kind line draws every size (drop --at, "
		                 "or draw --kind ladder)");
	return KGEN_OK;
}

int
kgen_cmd_plot(int argc, char **argv)
{
	struct kgen_plot_opts o = { .kind = KGEN_PLOT_AUTO };
	struct plot_input in = { 0 };
	kgen_error err;
	kgen_status st = KGEN_OK;
	FILE *fp = stdout;
	char *buf = NULL;
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
	note_left_out(&in);
	if ((st = check_inputs(&o, &in, &err)))
		goto out;
	if (o.out && !(fp = open_memstream(&buf, &len))) {
		st = kgen_fail(&err, KGEN_ENOMEM, "out of memory");
		goto out;
	}
	st = in.nrows ? kgen_plot_rows(&o, &in, fp, &err) : kgen_plot_space(&o, &in, fp, &err);
	/* -o: the picture written whole, through a temporary file, or nothing. */
	if (fp != stdout && fclose(fp) != 0 && !st)
		st = kgen_fail(&err, KGEN_ENOMEM, "out of memory");
	if (fp != stdout && !st)
		st = kgen_write_file(o.out, buf, len, &err);
	free(buf);
out:
	kgen_plot_free(&in);
	return st ? kgen_report(&err) : 0;
}
