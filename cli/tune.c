/*
 * tune.c - `kgen tune SPACE.yaml`: every point of a spec space verified and
 * timed at each size, the fastest verified one kept per size, and the size
 * plan that picks it (issue 9), for any family whose runner has tune hooks
 * (cli/run.h's struct kgen_tuner; issue 20): this file names no family.
 *
 * The points are built on several threads (NVRTC runs outside the
 * context's lock), then, size by size (--n, or --shape for a family sized
 * by rows and cols), the family's hooks make one case (input, copies,
 * reference) and each point is run once on it with its output poisoned and
 * checked against the CPU reference; only a point that verified is timed
 * (timing.c's methods), with each method asked for.  Each measurement is
 * appended to a records file as one JSON line whose "key" is GPU, driver,
 * NVRTC, kgen, the spec's hash, the size (n, or ROWSxCOLS) and method: a
 * rerun finds it there and measures only what is missing (--fresh
 * measures everything again).  Under several methods, a size's point is
 * the one whose worst ratio to the fastest, over the methods, is least
 * (--choose worst), or whose geometric mean of them is (--choose mean: with
 * --against cub, among the points ahead of CUB by --margin under every
 * method), or whose ratio under the first method is (--choose first: among
 * the points ahead of CUB, or within the margin of the fastest, under every
 * other method).
 * The records are kgen's own lines, read back by their fixed keys; no JSON
 * library is needed for that.  Plans pick by n, and a matmul's by shape
 * (write_shape_plan): --plan is for families that take them
 * (kgen_family_takes_plans).
 */
#include "config.h"
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"
#include "records.h"
#include "run.h"
#include "space.h"
#include "timing.h"
#include "gen/op.h"
#include "gen/parallel.h"

#define MAX_SIZES KGEN_RUN_MAX_SIZES


struct point {
	kgen_spec *spec;
	kgen_kernel *kernel;
	char hash[17];
	kgen_status built;
	char why[1024];             /* why it did not build */
	double us[MAX_SIZES][KGEN_TIME_COUNT];      /* median per call by method; < 0: not verified or not run */
	double spread[MAX_SIZES][KGEN_TIME_COUNT];  /* (max - min) / median */
};

struct tune {
	const char *space, *records, *plan;
	enum kgen_timing_method method[KGEN_TIME_COUNT];  /* the methods asked for, each once */
	int nm;
	struct run_opts o;          /* the sizes (--n into o.n, --shape into o.shape) and --seed, for the family's hooks */
	int ns;                     /* the sizes tuned: o.nn or o.nshape, by the family's size */
	int shapes;                 /* the family is sized by a --shape (o.shape): rows and cols, or M, N and K */
	int mnk;                    /* by M, N and K (kgen run's MxNxK, read as BATCHxROWSxCOLS) */
	const struct kgen_tuner *tu;  /* the family's hooks */
	int runs, jobs, fresh, list, device, nsets;
	int against;                /* --against cub: each size's point is the one furthest ahead of CUB */
	double cub_us[MAX_SIZES][KGEN_TIME_COUNT];  /* CUB's median per call there (with --against) */
	int measured, reused, rejected;  /* measurements taken, found in the records, sizes a point cannot take */
	double tolerance;           /* keep the previous size's point when within this fraction of the best */
	int mean;                   /* --choose mean: the least geometric mean of the ratios, not the least worst */
	int first;                  /* --choose first: the least ratio under the first method, the others bounded */
	double margin;              /* --choose mean --against cub: a point is ahead by this fraction under every
	                             * method; --choose first: under every other (without --against: within it
	                             * of the fastest) */
	unsigned long long seed;
	char *sets[64];
	struct kgen_points pts;
	struct point *p;
	char base_key[512];         /* GPU|driver|NVRTC|kgen */
	struct seen {               /* the records file: a key, its median (-1: failed) and spread */
		char *key;
		double us, spread;
	} *seen;
	int nseen;
};

static void
usage(FILE *fp)
{
	char families[256];

	fputs("usage: kgen tune SPACE.yaml [--n N]... [--shape RxC]... [--method events|graph|cold[,...]]\n"
	      "                 [--runs R] [-j N] [--set KEY=VALUE]... [--unset KEY]... [--records FILE]\n"
	      "                 [--fresh] [--resume] [--plan FILE] [--list]\n"
	      "                 [--against cub] [--choose worst|mean|first] [--margin PCT]\n"
	      "                 [--tolerance PCT] [--seed S] [--device D]\n"
	      "Expand a spec space (values may be lists or ranges, as for kgen space), build\n"
	      "every accepted point that the records do not settle on N threads (default: the\n"
	      "CPUs), and at each --n (default 2^10, 2^12, ..., 2^24, 2^27, 2^30) run each\n"
	      "point once on seeded random data, check its result against the CPU reference,\n"
	      "and time the points that verified with the method (default events: 7 samples,\n"
	      "each a batch of back-to-back launches between two events, R doubled until a\n"
	      "batch lasts 0.2 ms; graph: that batch captured in a CUDA graph, replayed 7\n"
	      "times; cold: R single launches, each after writing twice the L2), median and\n"
	      "spread (max - min) / median over the samples.  With a list of methods (--method\n"
	      "events,graph) each point is timed with each, and each size takes the point whose\n"
	      "worst ratio to the fastest, over the methods, is least. Calls rotate among\n"
	      "copies of the input that together exceed twice the L2, as kgen run --bench and\n"
	      "kgen-cub do, so that no call finds its input cached.  Every point of one tuning\n"
	      "must compute the same (one family, op, types, expressions and axis); --set\n"
	      "KEY=VALUE fixes a key of the space (--set op=max --set dtype=bf16).\n"
	      , fp);
	/* the families from their runners' tune hooks, as check_same() names them */
	fprintf(fp, "kgen tune takes %s spaces.\n", kgen_tune_families(0, families, sizeof families));
	fputs(
	      "A family sized by n (kernel: reduce, or scan: its input read once, no copies)\n"
	      "is tuned at each --n (a scan also at each --shape ROWSxCOLS instead: along its\n"
	      "rows, or down its columns with axis: cols, which takes only --shape; no plan\n"
	      "and no CUB then); one sized by rows\n"
	      "and cols (kernel: reduce_axis, rows) at each --shape ROWSxCOLS (default\n"
	      "8192x8192, as kgen run's), every row's or column's result checked; one sized by m, n\n"
	      "and k (kernel: matmul) at each --shape MxNxK (default 4096x4096x4096),\n"
	      "checked as kgen run checks it.\n"
	      "  --records FILE  JSON lines, one per measurement, appended (default:\n"
	      "                  SPACE with .records.jsonl for .yaml); measurements found there\n"
	      "                  for this GPU, driver, NVRTC, kgen, spec, size (n, RxC or MxNxK)\n"
	      "                  and method are not taken again unless --fresh (--resume, the\n"
	      "                  default)\n"
	      "  --plan FILE     write the size plan: each n's fastest verified point (but the\n"
	      "                  previous n's while within --tolerance PCT of it, default 3),\n"
	      "                  the bounds between tuned sizes at their geometric means;\n"
	      "                  a matmul's plan picks by shape: an entry a tuned MxNxK with its\n"
	      "                  fastest point, bounded by its m, n and k, in rising m n k, the\n"
	      "                  largest unbounded, less the entries another serves within\n"
	      "                  --tolerance; not for families sized by rows and cols\n"
	      "  --against cub   time CUB too (kgen-cub, the same method: cub::DeviceReduce\n"
	      "                  for kernel: reduce, cub::DeviceScan for kernel: scan) and\n"
	      "                  take at each n the point whose worst ratio to CUB's time, over\n"
	      "                  the methods, is least (default: to the fastest point's)\n"
	      "  --choose mean   take at each n the point whose ratios, over the methods,\n"
	      "                  have the least geometric mean (default worst: the least worst\n"
	      "                  ratio); with --against cub, among the points faster than CUB\n"
	      "                  by --margin PCT (default 3) or more under every method, and\n"
	      "                  the least worst ratio where no point is.  Under events and\n"
	      "                  graph it takes a one-launch kernel far ahead back to back and\n"
	      "                  a little behind a two-launch one under graph replay\n"
	      "  --choose first  take at each n the point with the least ratio under the first\n"
	      "                  method, among the points faster than CUB by --margin PCT\n"
	      "                  (default 3) under every other method (without --against:\n"
	      "                  within PCT of the fastest there), and the least worst ratio\n"
	      "                  where no point is: --method events,graph --against cub\n"
	      "                  --margin 10 takes the fastest back to back of the points at\n"
	      "                  most 0.9 of CUB's time under graph replay\n"
	      "  --list          expand and validate only (no GPU): the points, then the\n"
	      "                  errors a tuning would stop at (family, sizes, --plan, --against)\n"
	      "Exit 0 when a verified point was found at every n, 6 when a point failed to\n"
	      "verify (it is never chosen), 5 without a GPU.\n", fp);
}

/* The longest record line read back; a longer one is not kgen's. */
#define RECORD_MAX (1 << 20)

/* Open the records file (flags: O_RDONLY, or O_RDWR | O_APPEND | O_CREAT)
 * as the cache opens its entries: never through a symbolic link, and only
 * a regular file of this user that no one else may write (records choose
 * plans, and spec text goes into them).  -1 with err set; for reading, -1
 * with errno ENOENT and no error when there is no file yet. */
static int
open_records(const char *path, int flags, kgen_error *err)
{
	struct stat st;
	int fd = kgen_open_regular(path, flags | O_NOFOLLOW, &st), e;

	if (fd == -2) {  /* a FIFO would have blocked a plain open for ever */
		kgen_fail(err, KGEN_EIO, "refusing the records file %s: not a regular file (%s); name a file with "
		          "--records", path, S_ISFIFO(st.st_mode) ? "a FIFO" : S_ISDIR(st.st_mode) ? "a directory"
		                                                       : "a device or socket");
		return errno = EPERM, -1;
	}
	if (fd < 0) {
		e = errno;
		if (e == ENOENT && !(flags & O_CREAT))
			return errno = ENOENT, -1;
		kgen_fail(err, KGEN_EIO, "cannot %s %s: %s%s", flags & O_CREAT ? "append to" : "read", path, strerror(e),
		          e == ELOOP ? " (a symbolic link: kgen tune does not follow one; name the file itself with --records)"
		                     : "");
		return errno = e, -1;
	}
	if (st.st_uid != geteuid() || (st.st_mode & (S_IWGRP | S_IWOTH))) {
		kgen_fail(err, KGEN_EIO, "refusing the records file %s: %s", path,
		          st.st_uid != geteuid() ? "owned by another user" : "writable by others (chmod go-w it)");
		close(fd);
		return errno = EPERM, -1;
	}
	return fd;
}

/* The records already measured: key -> median (-1 for a point that failed).
 * A record that says ok without a finite, positive median is not a
 * measurement (it is skipped: the point is measured again). */
static kgen_status
read_records(struct tune *t, kgen_error *err)
{
	int fd = open_records(t->records, O_RDONLY, err);
	struct kgen_record r;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	FILE *fp;

	if (fd < 0)
		return errno == ENOENT ? KGEN_OK : err->status;
	if (!(fp = fdopen(fd, "r"))) {
		close(fd);
		return kgen_fail(err, KGEN_ENOMEM, "out of memory");
	}
	while ((len = getline(&line, &cap, fp)) > 0) {
		struct seen *seen;
		if (len > RECORD_MAX || !kgen_record_parse(line, (size_t)len, &r))
			continue;
		if (!(seen = realloc(t->seen, (size_t)(t->nseen + 1) * sizeof *seen)))
			break;
		t->seen = seen;
		if (!(seen[t->nseen].key = kgen_strdup(r.key)))
			break;
		seen[t->nseen].us = r.ok ? r.median_us : -1;
		seen[t->nseen].spread = r.spread;
		t->nseen++;
	}
	free(line);
	fclose(fp);
	return KGEN_OK;
}

/* Append one record line (built in a memory stream) to the records file in
 * one write(2): O_APPEND puts it at the end whole, so two kgen tune on one
 * file do not interleave within a line. */
static void
put_record(int fd, FILE *mem, char **buf, size_t *len)
{
	if (fclose(mem) == 0 && *buf && *len && *len <= RECORD_MAX && write(fd, *buf, *len) != (ssize_t)*len)
		fprintf(stderr, "kgen tune: cannot append a record: %s\n", strerror(errno));
	free(*buf);
	*buf = NULL;
}

/* The latest record of key (a later line wins); -1 when there is none. */
static int
find_record(const struct tune *t, const char *key)
{
	int i;

	for (i = t->nseen - 1; i >= 0; i--)
		if (strcmp(t->seen[i].key, key) == 0)
			return i;
	return -1;
}

/* "2^20" for powers of two, else the number. */
static const char *
size_name(unsigned long long n, char *buf, size_t len)
{
	if (n && !(n & (n - 1)))
		snprintf(buf, len, "2^%d", __builtin_ctzll(n));
	else
		snprintf(buf, len, "%llu", n);
	return buf;
}

/* Size j as the records' key has it: n ("4096"), or rows and cols
 * ("4096x1024") for a family sized by them. */
static const char *
size_key(const struct tune *t, int j, char *buf, size_t len)
{
	if (t->mnk)  /* MxNxK, read as BATCHxROWSxCOLS: M is the shape's batch */
		snprintf(buf, len, "%llux%llux%llu", t->o.shape[j][2], t->o.shape[j][0], t->o.shape[j][1]);
	else if (t->shapes)
		snprintf(buf, len, "%llux%llu", t->o.shape[j][0], t->o.shape[j][1]);
	else
		snprintf(buf, len, "%llu", t->o.n[j]);
	return buf;
}

/* Size j in a message: "n = 4096", or "4096x1024". */
static const char *
size_at(const struct tune *t, int j, char *buf, size_t len)
{
	char key[64];

	snprintf(buf, len, "%s%s", t->shapes ? "" : "n = ", size_key(t, j, key, sizeof key));
	return buf;
}

/* Size j as a record's fields: "n":4096, or "rows":4096,"cols":1024. */
static void
size_json(FILE *fp, const struct tune *t, int j)
{
	if (t->mnk)
		fprintf(fp, "\"m\":%llu,\"n\":%llu,\"k\":%llu", t->o.shape[j][2], t->o.shape[j][0], t->o.shape[j][1]);
	else if (t->shapes)
		fprintf(fp, "\"rows\":%llu,\"cols\":%llu", t->o.shape[j][0], t->o.shape[j][1]);
	else
		fprintf(fp, "\"n\":%llu", t->o.n[j]);
}

/* Size j at the start of its line: "n=2^20 " (n, six wide), or
 * "4096x1024  " (eleven wide). */
static const char *
size_column(const struct tune *t, int j, char *buf, size_t len)
{
	char name[48];

	if (t->shapes)
		snprintf(buf, len, "%-11s", size_key(t, j, name, sizeof name));
	else
		snprintf(buf, len, "n=%-6s", size_name(t->o.n[j], name, sizeof name));
	return buf;
}

/* The records' key of point i at size j under method m, in buf.
 * "rotated": the inputs rotate among copies (records without it are of one
 * cached input). */
static const char *
record_key(const struct tune *t, int i, int j, int m, char *buf, size_t len)
{
	char sz[48];

	snprintf(buf, len, "%s|%s|%s|%s rotated", t->base_key, t->p[i].hash, size_key(t, j, sz, sizeof sz),
	         kgen_timing_method_name(t->method[m]));
	return buf;
}

/* Building the points on several threads, with a progress line. */
struct builder {
	struct tune *t;
	kgen_context *ctx;
	const int *which;  /* the points to build */
	int n, done;
	pthread_mutex_t lock;
};

static void
build_point(void *arg, int k)
{
	struct builder *b = arg;
	struct point *p = &b->t->p[b->which[k]];
	kgen_error err;

	p->built = kgen_kernel_build(b->ctx, p->spec, &p->kernel, &err);
	if (p->built)
		snprintf(p->why, sizeof p->why, "%s", err.message);
	pthread_mutex_lock(&b->lock);
	b->done++;
	if (isatty(1)) {
		printf("\rbuilding: %d of %d", b->done, b->n);
		fflush(stdout);
	}
	pthread_mutex_unlock(&b->lock);
}

/* Whether point i has a size the records do not settle (or --fresh): one
 * with a method they lack and no failure recorded under another, as
 * from_records() reads them.  Only such a point runs, so only it is built. */
static int
needs_running(const struct tune *t, int i)
{
	char key[600];
	int j, m, r, need, failed;

	for (j = 0; j < t->ns; j++) {
		for (need = failed = 0, m = 0; m < t->nm; m++) {
			if (t->fresh || (r = find_record(t, record_key(t, i, j, m, key, sizeof key))) < 0)
				need = 1;
			else
				failed |= t->seen[r].us < 0;
		}
		if (need && !failed)
			return 1;
	}
	return 0;
}

static kgen_status
build_all(struct tune *t, kgen_context *ctx, kgen_error *err)
{
	struct builder b = { t, ctx, NULL, 0, 0, PTHREAD_MUTEX_INITIALIZER };
	int *which, i, threads = 0, failed = 0;
	time_t t0 = time(NULL);

	if (!(which = malloc((size_t)t->pts.n * sizeof *which)))
		return kgen_fail(err, KGEN_ENOMEM, "out of memory");
	for (i = 0; i < t->pts.n; i++)
		if (needs_running(t, i))
			which[b.n++] = i;
	b.which = which;
	if (b.n)
		threads = kgen_parallel_for(b.n, t->jobs, build_point, &b);
	free(which);
	for (i = 0; i < t->pts.n; i++)
		if (t->p[i].built) {
			if (t->p[i].built == KGEN_ECUDA)
				return kgen_fail(err, KGEN_ECUDA, "building point %d (%s): %s", i + 1, t->pts.v[i].label, t->p[i].why);
			failed++;
			fprintf(stderr, "kgen tune: point %d (%s) does not build: %s\n", i + 1, t->pts.v[i].label, t->p[i].why);
		}
	printf("%sbuilt %d of %d point%s on %d thread(s) in %lld s", isatty(1) ? "\r" : "", b.n - failed, b.n,
	       b.n == 1 ? "" : "s", threads, (long long)(time(NULL) - t0));
	if (b.n < t->pts.n)
		printf("; %d found whole in the records, not built", t->pts.n - b.n);
	printf("\n");
	return KGEN_OK;
}

static int
cmp_count(const void *a, const void *b)
{
	unsigned long long x = *(const unsigned long long *)a, y = *(const unsigned long long *)b;
	return (x > y) - (x < y);
}

/* Shapes by elements, then rows. */
static int
cmp_shape(const void *a, const void *b)
{
	const unsigned long long *x = a, *y = b;
	unsigned long long ex = x[0] * x[1] * x[2], ey = y[0] * y[1] * y[2];

	return ex != ey ? (ex > ey) - (ex < ey) : x[0] != y[0] ? (x[0] > y[0]) - (x[0] < y[0]) :
	       x[1] != y[1] ? (x[1] > y[1]) - (x[1] < y[1]) : (x[2] > y[2]) - (x[2] < y[2]);
}

/* One timed call of a point: the family's hook on the size's case. */
struct call {
	const struct kgen_tuner *tu;
	void *c;
	kgen_kernel *k;
};

static kgen_status
call_once(void *arg, int i, CUstream stream, kgen_error *err)
{
	struct call *c = arg;

	return c->tu->call(c->c, c->k, i, stream, err);
}

/* Append one measurement to the records. */
static void
record(int fd, const struct tune *t, const char *key, int i, int j, int m, const char *verify,
       const struct kgen_timing *tm)
{
	char date[32], *buf = NULL;
	size_t len = 0;
	time_t now = time(NULL);
	FILE *fp = open_memstream(&buf, &len);

	if (!fp)
		return;
	strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	fputs("{\"key\":\"", fp);
	kgen_json_string(fp, key);
	fprintf(fp, "\",\"spec_hash\":\"%s\",", t->p[i].hash);
	size_json(fp, t, j);
	fprintf(fp, ",\"method\":\"%s\",\"verify\":\"%s\"", kgen_timing_method_name(t->method[m]), verify);
	if (tm)
		fprintf(fp, ",\"median_us\":%.4f,\"min_us\":%.4f,\"max_us\":%.4f,\"spread\":%.4f,\"samples\":%d,\"batch\":%d",
		        tm->median_ms * 1e3, tm->min_ms * 1e3, tm->max_ms * 1e3,
		        tm->median_ms > 0 ? (tm->max_ms - tm->min_ms) / tm->median_ms : 0, tm->samples, tm->batch);
	fputs(",\"label\":\"", fp);
	kgen_json_string(fp, t->pts.v[i].label);
	fputs("\",\"spec\":\"", fp);
	kgen_json_string(fp, t->pts.v[i].yaml);
	fprintf(fp, "\",\"date\":\"%s\"}\n", date);
	put_record(fd, fp, &buf, &len);
}

/* Seconds as "1m05s" or "42s". */
static const char *
eta(double s, char *buf, size_t n)
{
	if (s < 0)
		s = 0;
	if (s >= 60)
		snprintf(buf, n, "%dm%02ds", (int)s / 60, (int)s % 60);
	else
		snprintf(buf, n, "%ds", (int)s);
	return buf;
}

/* Point i at size j from the records: each method's key into key[m], its
 * time (and spread) where a record has one, the methods still to measure
 * in *need (a bit each).  1 when a record says the point failed. */
static int
from_records(struct tune *t, int i, int j, char key[][600], int *need)
{
	struct point *p = &t->p[i];
	int m, r, failed = 0;

	for (m = 0; m < t->nm; m++) {
		record_key(t, i, j, m, key[m], 600);  /* the key of the record to write, --fresh too */
		if (t->fresh || (r = find_record(t, key[m])) < 0) {
			*need |= 1 << m;
			continue;
		}
		p->us[j][m] = t->seen[r].us;
		p->spread[j][m] = t->seen[r].spread;
		t->reused++;
		failed |= p->us[j][m] < 0;
	}
	return failed;
}

/* Point i at size j failed verification (msg says how): reported, and
 * recorded under each method it was to be measured by. */
static void
failed_at(struct tune *t, int rec, int i, int j, char key[][600], int need, const char *msg, int *failures)
{
	char at[80];
	int m;

	fprintf(stderr, "kgen tune: point %d (%s) at %s: FAIL %s\n", i + 1, t->pts.v[i].label, size_at(t, j, at, sizeof at),
	        msg);
	(*failures)++;
	for (m = 0; m < t->nm; m++) {
		t->p[i].us[j][m] = -1;
		if (need & 1 << m) {
			record(rec, t, key[m], i, j, m, "FAIL", NULL);
			t->measured++;
		}
	}
}

/* Point i at size j: from the records, else verified against the size's
 * case (made by the family's hook for the first point that needs it, into
 * *c) and, when it verified, timed under each method still to measure.
 * *timed: it was. */
static kgen_status
tune_point(struct tune *t, kgen_context *ctx, int rec, int i, int j, void **c, int *failures, int *timed,
           kgen_error *err)
{
	struct point *p = &t->p[i];
	struct kgen_timing tm;
	struct call call = { t->tu, NULL, p->kernel };
	char key[KGEN_TIME_COUNT][600], msg[1100], at[80];
	int m, need = 0, ok = 0;
	kgen_status st;

	if (from_records(t, i, j, key, &need)) {  /* a point that failed stays failed, under every method: say so again */
		fprintf(stderr, "kgen tune: point %d (%s) at %s: FAIL (in %s)\n", i + 1, t->pts.v[i].label,
		        size_at(t, j, at, sizeof at), t->records);
		for (m = 0; m < t->nm; m++)
			p->us[j][m] = -1;
		(*failures)++;
		return KGEN_OK;
	}
	if (!need)
		return KGEN_OK;
	if (!*c && (st = t->tu->prepare(ctx, &t->o, t->p[0].spec, j, c, err)))
		return st;
	/* Verify: the output poisoned, one call, every result compared. */
	if ((st = t->tu->verify(ctx, *c, p->kernel, &ok, msg, sizeof msg, err)) == KGEN_EINVAL) {
		t->rejected++;  /* the point cannot take this size (index: 32, grid): no record */
		return KGEN_OK;
	}
	if (st) {
		snprintf(msg, sizeof msg, "%s", err->message);
		return kgen_fail(err, st, "point %d (%s) at %s: %s", i + 1, t->pts.v[i].label, size_at(t, j, at, sizeof at), msg);
	}
	if (!ok) {
		failed_at(t, rec, i, j, key, need, msg, failures);
		return KGEN_OK;
	}
	call.c = *c;
	for (m = 0; m < t->nm; m++) {
		if (!(need & 1 << m))
			continue;
		if ((st = kgen_gpu_warm_once(ctx, err)) ||
		    (st = kgen_time_calls(ctx, t->method[m], call_once, &call, t->runs, &tm, err)))
			return st;
		p->us[j][m] = tm.median_ms * 1e3;
		p->spread[j][m] = tm.median_ms > 0 ? (tm.max_ms - tm.min_ms) / tm.median_ms : 0;
		record(rec, t, key[m], i, j, m, "ok", &tm);
		t->measured++;
	}
	*timed = 1;
	return KGEN_OK;
}

/* Size j: every built point verified, then timed, against one case made
 * by the family's hooks (every point computes the same). */
static kgen_status
tune_size(struct tune *t, kgen_context *ctx, int j, int rec, int *failures, int *done, int total, time_t t0,
          kgen_error *err)
{
	void *c = NULL;
	kgen_status st = KGEN_OK;
	char when[32], sz[48];
	int i, m, timed;

	for (i = 0; i < t->pts.n && !st; i++) {
		for (m = 0; m < t->nm; m++)
			t->p[i].us[j][m] = -1;
		if (t->p[i].built)
			continue;
		timed = 0;
		if ((st = tune_point(t, ctx, rec, i, j, &c, failures, &timed, err)))
			break;
		(*done)++;
		if (timed && isatty(1)) {
			double spent = difftime(time(NULL), t0);
			printf("\r[%d/%d] %s%s  ETA %s   ", *done, total, t->shapes ? "" : "n=", size_key(t, j, sz, sizeof sz),
			       eta(*done ? spent / *done * (total - *done) : 0, when, sizeof when));
			fflush(stdout);
		}
	}
	if (c)
		t->tu->free(ctx, c);
	return st;
}

/* Point i's time at size j under method m over the reference's: the
 * fastest verified point's (--against cub: CUB's); -1 when it has none. */
static double
ratio(const struct tune *t, int i, int j, int m)
{
	double ref;
	int k;

	if (t->p[i].us[j][m] <= 0)
		return -1;
	if (t->against)
		ref = t->cub_us[j][m];
	else
		for (ref = t->p[i].us[j][m], k = 0; k < t->pts.n; k++)
			if (t->p[k].us[j][m] > 0 && t->p[k].us[j][m] < ref)
				ref = t->p[k].us[j][m];
	return t->p[i].us[j][m] / ref;
}

/* Point i's largest ratio over the methods from `from` on (1: the fastest
 * under each; 0 with none), or -1 when it has no time under one of them. */
static double
worst_from(const struct tune *t, int i, int j, int from)
{
	double w = 0, r;
	int m;

	for (m = from; m < t->nm; m++) {
		if ((r = ratio(t, i, j, m)) < 0)
			return -1;
		if (r > w)
			w = r;
	}
	return w;
}

/* Point i's largest ratio over every method. */
static double
worst(const struct tune *t, int i, int j)
{
	return worst_from(t, i, j, 0);
}

/* Whether point i may be chosen by --choose mean's or first's score: with
 * --against cub, ahead of CUB by the margin under every method (first:
 * every other method; without --against, within the margin of the
 * fastest there).  Under --choose worst every timed point may. */
static int
qualifies(const struct tune *t, int i, int j)
{
	double w;

	if (t->first) {
		w = worst_from(t, i, j, 1);  /* the methods after the first */
		return w >= 0 && w <= (t->against ? 1 - t->margin : 1 + t->margin);
	}
	return !t->mean || !t->against || worst(t, i, j) <= 1 - t->margin;
}

/* What the choice at size j makes least: point i's worst ratio, or under
 * --choose mean the geometric mean of its ratios (the worst still, for a
 * point that does not qualify: one is chosen only where none does); -1
 * when it has no time under a method. */
static double
score(const struct tune *t, int i, int j)
{
	double w = worst(t, i, j), logs = 0;
	int m;

	if (t->first)
		return w < 0 || !qualifies(t, i, j) ? w : ratio(t, i, j, 0);
	if (w < 0 || !t->mean || (t->against && w > 1 - t->margin))  /* !qualifies(), from w */
		return w;
	for (m = 0; m < t->nm; m++)
		logs += log(ratio(t, i, j, m));
	return exp(logs / t->nm);
}

/* Point i before point k at size j: one that qualifies before one that
 * does not, then the lesser score. */
static int
better(const struct tune *t, int i, int k, int j)
{
	int qi = qualifies(t, i, j), qk = qualifies(t, k, j);

	return qi != qk ? qi : score(t, i, j) < score(t, k, j);
}

/* What the choice weighed of point i at size j: its worst ratio,
 * "0.830", or under --choose mean its ratio under each method,
 * "0.640/0.920". */
static const char *
score_text(const struct tune *t, int i, int j, char *buf, size_t len)
{
	size_t used = 0;
	int m;

	buf[0] = '\0';
	if (!t->mean && !t->first)
		snprintf(buf, len, "%.3f", score(t, i, j));
	for (m = 0; (t->mean || t->first) && m < t->nm && used < len; m++)
		used += (size_t)snprintf(buf + used, len - used, "%s%.3f", m ? "/" : "", ratio(t, i, j, m));
	return buf;
}

/* --against cub: the family's peer's time at size j under each method
 * (through kgen-cub: the family's hooks), from the records or measured and
 * recorded, keyed by what the peer computes (the hooks' peer_key). */
static kgen_status
cub_size(struct tune *t, kgen_context *ctx, int j, int rec, kgen_error *err)
{
	const kgen_spec *s0 = t->p[0].spec;
	char key[1024], date[32], sz[48], at[80], what[128], *buf = NULL;
	size_t len = 0;
	FILE *mem;
	time_t now;
	double ms;
	int m, r, offsets;

	if (t->tu->peer_key)
		t->tu->peer_key(s0, what, sizeof what);
	else
		snprintf(what, sizeof what, "%s %s", kgen_ops[s0->op].name, s0->r.dtype->name);
	for (m = 0; m < t->nm; m++) {
		const char *method = kgen_timing_method_name(t->method[m]);
		snprintf(key, sizeof key, "%s|cub %s|%s|%s rotated", t->base_key, what, size_key(t, j, sz, sizeof sz),
		         method);
		if (!t->fresh && (r = find_record(t, key)) >= 0 && t->seen[r].us > 0) {
			t->cub_us[j][m] = t->seen[r].us;
			t->reused++;
			continue;
		}
		if ((ms = t->tu->peer_ms(ctx, &t->o, s0, j, (int)t->method[m], &offsets)) <= 0)
			return kgen_fail(err, KGEN_EINVAL, "--against cub: kgen-cub could not time %s %s at %s (%s): "
			                 "build it (make kgen-cub, which needs nvcc) or set KGEN_CUB", kgen_ops[s0->op].name,
			                 s0->r.dtype->name, size_at(t, j, at, sizeof at), method);
		t->cub_us[j][m] = ms * 1e3;
		t->measured++;
		now = time(NULL);
		strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
		if ((mem = open_memstream(&buf, &len))) {
			fputs("{\"key\":\"", mem);
			kgen_json_string(mem, key);
			fprintf(mem, "\",\"peer\":\"%s\",\"offsets\":%d,", t->tu->peer, offsets);
			size_json(mem, t, j);
			fprintf(mem, ",\"method\":\"%s\",\"verify\":\"ok\",\"median_us\":%.4f,\"date\":\"%s\"}\n", method,
			        ms * 1e3, date);
			put_record(rec, mem, &buf, &len);
		}
	}
	return KGEN_OK;
}

/* The point for size j in the plan: the best that verified, but the
 * previous size's when that one is within the tolerance of it, so that
 * near-ties (noise) do not split the plan into an entry per size. */
static int
plan_choice(const struct tune *t, int j, int best, int prev)
{
	double sp = prev >= 0 ? score(t, prev, j) : -1;

	if (best >= 0 && sp > 0 && qualifies(t, prev, j) == qualifies(t, best, j) &&
	    sp <= score(t, best, j) * (1 + t->tolerance))
		return prev;
	return best;
}

/* The verified point of least score at size j (under one method, the
 * fastest), skipping `skip`; -1 when none verified. */
static int
best_at(const struct tune *t, int j, int skip)
{
	int i, best = -1;

	for (i = 0; i < t->pts.n; i++)
		if (i != skip && score(t, i, j) > 0 && (best < 0 || better(t, i, best, j)))
			best = i;
	return best;
}

/* Point i's times at size j: "     3.56 us ± 1.0%" under one method, else
 * "events 3.56 us ±1.0%, graph 1.20 us ±0.5%". */
static const char *
times_text(const struct tune *t, int i, int j, char *buf, size_t len)
{
	size_t used = 0;
	int m;

	buf[0] = '\0';
	if (t->nm == 1)
		snprintf(buf, len, "%9.2f us ±%4.1f%%", t->p[i].us[j][0], 100 * t->p[i].spread[j][0]);
	for (m = 0; t->nm > 1 && m < t->nm && used < len; m++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s %.2f us ±%.1f%%", m ? ", " : "",
		                         kgen_timing_method_name(t->method[m]), t->p[i].us[j][m], 100 * t->p[i].spread[j][m]);
	return buf;
}

/* What score() divides by. */
static const char *
ref_name(const struct tune *t)
{
	return t->against ? "CUB's time" : "the fastest";
}

/* The methods' names, "events" or "events/graph". */
static const char *
methods_text(const struct tune *t, char *buf, size_t len)
{
	size_t used = 0;
	int m;

	buf[0] = '\0';
	for (m = 0; m < t->nm && used < len; m++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", m ? "/" : "", kgen_timing_method_name(t->method[m]));
	return buf;
}

/* An entry's spec: point i's YAML under "    spec:". */
static void
put_spec(strbuf *b, const struct tune *t, int i)
{
	const char *line = t->pts.v[i].yaml, *nl;

	sb_puts(b, "    spec:\n");
	for (; *line; line = nl + 1) {
		if (!(nl = strchr(line, '\n')))
			nl = line + strlen(line) - 1;
		sb_printf(b, "      %.*s\n", (int)(nl - line), line);
	}
}

/* The plan in b to t->plan, if kgen_plan_load takes it (else nothing is
 * written: e.g. more than KGEN_PLAN_MAX entries); b freed. */
static kgen_status
check_and_write(const struct tune *t, strbuf *b, kgen_error *err)
{
	kgen_plan *check = NULL;
	kgen_error why;
	kgen_status st;

	if (b->failed) {
		sb_free(b);
		return kgen_fail(err, KGEN_ENOMEM, "out of memory");
	}
	if (kgen_plan_load_string(b->s, b->len, t->plan, &check, &why) != KGEN_OK) {
		sb_free(b);
		return kgen_fail(err, KGEN_EVERIFY, "the plan for %s would not load (%s): no plan written; tune "
		                 "fewer sizes or raise --tolerance", t->plan, why.message);
	}
	kgen_plan_free(check);
	st = kgen_write_file(t->plan, b->s, b->len, err);
	sb_free(b);
	return st;
}

/* The size plan: consecutive sizes with the same best point share an entry,
 * which serves n up to the geometric mean of its last size and the next
 * entry's first. */
static kgen_status
write_plan(const struct tune *t, const int *best, int argc, char **argv, kgen_error *err)
{
	strbuf b;
	time_t now = time(NULL);
	char date[32], a[64], r[64];
	int j, k, first, i;

	strftime(date, sizeof date, "%Y-%m-%d", gmtime(&now));
	sb_init(&b);
	if (t->first)
		sb_printf(&b, "# A size plan written by kgen tune: at each tuned n, of the verified points %s %g%% of\n"
		          "# %s%s under every method but the first (%s), the one least\n"
		          "# under the first (the least worst ratio where none is).\n#  ",
		          t->against ? "at most" : "within", 100 * (t->against ? 1 - t->margin : t->margin),
		          t->against ? t->tu->peer : "the fastest point", "'s time", methods_text(t, a, sizeof a));
	else if (t->against && t->mean)
		sb_printf(&b, "# A size plan written by kgen tune: at each tuned n, of the verified points at most\n"
		          "# %g%% of %s's time under every method (%s), the one whose\n"
		          "# ratios to it have the least geometric mean (the least worst where none is).\n#  ",
		          100 * (1 - t->margin), t->tu->peer, methods_text(t, a, sizeof a));
	else if (t->mean)
		sb_printf(&b, "# A size plan written by kgen tune: at each tuned n, the verified point whose ratios\n"
		          "# to the fastest under each method (%s) have the least geometric mean.\n#  ",
		          methods_text(t, a, sizeof a));
	else if (t->against)
		sb_printf(&b, "# A size plan written by kgen tune: at each tuned n, the verified point furthest\n"
		          "# ahead of %s under its worst method (%s).\n#  ", t->tu->peer, methods_text(t, a, sizeof a));
	else if (t->nm > 1)
		sb_printf(&b, "# A size plan written by kgen tune: at each tuned n, the verified point nearest the\n"
		          "# fastest under every method (%s).\n#  ", methods_text(t, a, sizeof a));
	else
		sb_puts(&b, "# A size plan written by kgen tune: the fastest point that verified at each tuned n.\n#  ");
	for (i = 0; i < argc; i++)
		sb_printf(&b, " %s", argv[i]);
	sb_printf(&b, "\n# %s, %s; %s; times per call (%s).\nplan:\n", t->base_key, date, t->records,
	          methods_text(t, a, sizeof a));
	for (j = 0; j < t->ns;) {
		for (first = j; j < t->ns && best[j] == best[first]; j++)
			;
		sb_puts(&b, "  - ");
		if (j < t->ns) {
			unsigned long long up = (unsigned long long)floor(sqrt((double)t->o.n[j - 1] * (double)t->o.n[j]));
			sb_printf(&b, "upto: %llu\n    ", up);
		}
		sb_puts(&b, "# ");
		for (k = first; k < j; k++) {
			int m;
			sb_printf(&b, "%sn=%s ", k > first ? ", " : "", size_name(t->o.n[k], a, sizeof a));
			for (m = 0; m < t->nm; m++)
				sb_printf(&b, "%s%.2f", m ? "/" : "", t->p[best[k]].us[k][m]);
			sb_puts(&b, " us");
			if (t->against)
				sb_printf(&b, " (%s of CUB)", score_text(t, best[k], k, r, sizeof r));
		}
		sb_printf(&b, " (%s)\n", t->pts.v[best[first]].label);
		put_spec(&b, t, best[first]);
	}
	return check_and_write(t, &b, err);
}

/* ---- plans by shape (kernel: matmul) ---- */

/* Size j's m, n and k (kgen run reads MxNxK as BATCHxROWSxCOLS). */
static void
mnk_of(const struct tune *t, int j, unsigned long long v[3])
{
	v[0] = t->o.shape[j][2];
	v[1] = t->o.shape[j][0];
	v[2] = t->o.shape[j][1];
}

/* Whether size j's bounds hold size k. */
static int
holds(const struct tune *t, int j, int k)
{
	unsigned long long a[3], b[3];

	mnk_of(t, j, a);
	mnk_of(t, k, b);
	return b[0] <= a[0] && b[1] <= a[1] && b[2] <= a[2];
}

/* Point i at size j is as good as the best there: the best itself, or
 * within the tolerance of it (and qualifying alike). */
static int
as_good(const struct tune *t, int i, int j, int best)
{
	return i == best || (score(t, i, j) > 0 && qualifies(t, i, j) == qualifies(t, best, j) &&
	                     score(t, i, j) <= score(t, best, j) * (1 + t->tolerance));
}

/* The entry of the plan (entries e[0..ne), bounded by their sizes but the
 * last) that size j takes: the first whose bounds hold it. */
static int
entry_of(const struct tune *t, const int *e, int ne, int j)
{
	int i;

	for (i = 0; i < ne - 1 && !holds(t, e[i], j); i++)
		;
	return i;
}

/* Size j's m n k, the order of a plan by shape's entries. */
static double
volume(const struct tune *t, int j)
{
	unsigned long long v[3];

	mnk_of(t, j, v);
	return (double)v[0] * (double)v[1] * (double)v[2];
}

/* A matmul plan by shape: an entry a tuned shape, bounded by its m, n and
 * k, in rising m n k (so that each tuned shape takes its own entry, no
 * smaller one holding it), the largest last and unbounded, each with the
 * shape's best point; then every entry dropped whose shapes another entry
 * serves as well (within --tolerance), so that the plan keeps only the
 * bounds that change the choice.  best[j]: size j's best point. */
static kgen_status
write_shape_plan(const struct tune *t, const int *best, int argc, char **argv, kgen_error *err)
{
	int e[MAX_SIZES], ne = t->ns, pt[MAX_SIZES], i, j, dropped = 1;
	unsigned long long v[3];
	time_t now = time(NULL);
	char date[32], a[64], r[64];
	strbuf b;

	for (i = 0; i < ne; i++) {  /* by rising volume (at most MAX_SIZES: an insertion sort) */
		for (j = i; j > 0 && volume(t, e[j - 1]) > volume(t, i); j--)
			e[j] = e[j - 1];
		e[j] = i;
	}
	for (i = 0; i < ne; i++)
		pt[i] = best[e[i]];
	while (dropped) {  /* the largest droppable entry first, until none is */
		dropped = 0;
		for (i = ne - 2; i >= 0 && !dropped; i--) {
			int keep[MAX_SIZES], kp[MAX_SIZES], n = 0, ok = 1, x;
			for (x = 0; x < ne; x++)
				if (x != i) {
					keep[n] = e[x];
					kp[n++] = pt[x];
				}
			for (j = 0; j < t->ns && ok; j++)
				ok = as_good(t, kp[entry_of(t, keep, n, j)], j, best[j]);
			if (ok) {
				memcpy(e, keep, sizeof e[0] * (size_t)n);
				memcpy(pt, kp, sizeof pt[0] * (size_t)n);
				ne = n;
				dropped = 1;
			}
		}
	}
	strftime(date, sizeof date, "%Y-%m-%d", gmtime(&now));
	sb_init(&b);
	sb_printf(&b, "# A plan by shape written by kgen tune: at each tuned shape the fastest point that verified\n"
	          "# (%s%s), in an entry bounded by the shape's m, n and k; entries whose\n# shapes another entry "
	          "serves within %g%% are dropped. A call takes the first entry whose\n# bounds hold its m, n and k; "
	          "the last takes every other shape.\n#  ", t->against ? "against CUB, " : "",
	          methods_text(t, a, sizeof a), 100 * t->tolerance);
	for (i = 0; i < argc; i++)
		sb_printf(&b, " %s", argv[i]);
	sb_printf(&b, "\n# %s, %s; %s; times per call (%s).\nplan:\n", t->base_key, date, t->records,
	          methods_text(t, a, sizeof a));
	for (i = 0; i < ne; i++) {
		int first = 1;

		sb_puts(&b, "  - ");
		if (i < ne - 1) {
			mnk_of(t, e[i], v);
			sb_printf(&b, "m_upto: %llu\n    n_upto: %llu\n    k_upto: %llu\n    ", v[0], v[1], v[2]);
		}
		sb_puts(&b, "# ");
		for (j = 0; j < t->ns; j++) {
			int m;
			if (entry_of(t, e, ne, j) != i)
				continue;
			sb_printf(&b, "%s%s ", first ? "" : ", ", size_key(t, j, a, sizeof a));
			for (m = 0; m < t->nm; m++)
				sb_printf(&b, "%s%.2f", m ? "/" : "", t->p[pt[i]].us[j][m]);
			sb_puts(&b, " us");
			if (pt[i] != best[j])
				sb_printf(&b, " (%s of its best)", score_text(t, pt[i], j, r, sizeof r));
			first = 0;
		}
		sb_printf(&b, " (%s)\n", t->pts.v[pt[i]].label);
		put_spec(&b, t, pt[i]);
	}
	return check_and_write(t, &b, err);
}

/* Every point computes what the first does: one input, one reference;
 * and kgen tune takes its family (the family's runner has tune hooks). */
static kgen_status
check_same(struct tune *t, kgen_error *err)
{
	char a[256], b[256];
	const char *key;
	int i;

	for (i = 0; i < t->pts.n; i++) {
		if (!kgen_runner_of(t->p[i].spec)->tune)
			return kgen_fail(err, KGEN_EINVAL, "point %d (%s): kgen tune takes %s specs, not kernel: %s", i + 1,
			                 t->pts.v[i].label, kgen_tune_families(0, a, sizeof a), kgen_family_of(t->p[i].spec)->name);
		if ((key = kgen_spec_computes_other(t->p[0].spec, t->p[i].spec, a, b, sizeof a)))
			return kgen_fail(err, KGEN_EINVAL, "points 1 and %d differ in %s (%s, %s): every point of one "
			                 "tuning must compute the same; tune one at a time (--set %s=...)", i + 1, key, a, b, key);
	}
	return KGEN_OK;
}

static const unsigned long long default_sizes[] = {
	1ull << 10, 1ull << 12, 1ull << 14, 1ull << 16, 1ull << 18, 1ull << 20, 1ull << 22, 1ull << 24, 1ull << 27, 1ull << 30,
};

/* The family's hooks and the sizes it takes, by its size (family data):
 * --n for a family sized by n, --shape for one sized by rows and cols (the
 * defaults when neither is given); --plan only where the family takes size
 * plans, --against cub only where its hooks have a peer. */
static kgen_status
take_family(struct tune *t, kgen_error *err)
{
	const struct kgen_family *f = kgen_family_of(t->p[0].spec);
	char list[256];
	int shaped;

	t->tu = kgen_runner_of(t->p[0].spec)->tune;
	shaped = f->size == KGEN_SIZE_N && t->tu->shapes && t->o.nshape;  /* sized by n, here by --shape */
	t->shapes = f->size != KGEN_SIZE_N || shaped;
	t->mnk = f->size == KGEN_SIZE_MNK;
	if (shaped && t->o.nn)
		return kgen_fail(err, KGEN_EINVAL, "--n and --shape: kgen tune sizes kernel: %s by one of them: give --n N "
		                 "(a vector) or --shape ROWSxCOLS", f->name);
	if (t->shapes ? t->o.nn : t->o.nshape)
		return kgen_fail(err, KGEN_EINVAL, "%s: kernel: %s is sized by %s: give %s", t->shapes ? "--n" : "--shape",
		                 f->name, kgen_sizes[f->size].text,
		                 t->mnk ? "--shape MxNxK" : t->shapes ? "--shape ROWSxCOLS" : "--n N");
	if (t->plan && (!kgen_family_takes_plans(f) || shaped))
		return kgen_fail(err, KGEN_EINVAL, "--plan: size plans pick by n; kernel: %s is sized by %s: write records "
		                 "with --records (here %s)", f->name, shaped ? "--shape here" : kgen_sizes[f->size].text,
		                 t->records);
	if (t->against && shaped)
		return kgen_fail(err, KGEN_EINVAL, "--against cub: %s times a vector: give --n N, or leave --against out "
		                 "with --shape", t->tu->peer);
	if (t->against && !t->tu->peer_ms)
		return kgen_fail(err, KGEN_EINVAL, "--against cub: kgen tune times CUB for %s specs, not kernel: %s",
		                 kgen_tune_families(1, list, sizeof list), f->name);
	if (t->shapes && !t->o.nshape) {  /* kgen run's default: 8192x8192, or 4096x4096x4096 */
		t->o.shape[0][0] = t->o.shape[0][1] = t->mnk ? 4096 : 8192;
		t->o.shape[0][2] = t->mnk ? 4096 : 1;
		t->o.shape_parts[0] = t->mnk ? 3 : 2;
		t->o.nshape = 1;
	}
	if (!t->shapes && !t->o.nn) {
		memcpy(t->o.n, default_sizes, sizeof default_sizes);
		t->o.nn = (int)KGEN_COUNT(default_sizes);
	}
	t->ns = t->shapes ? t->o.nshape : t->o.nn;
	t->o.seed = t->seed;
	t->o.runs = t->runs;
	return KGEN_OK;
}

/* Every --n's input fits the host's address space (n elements of the
 * points' dtype: bytes = n * size must not wrap), as kgen run checks; then
 * the family's own check of the sizes (kgen run's: a --shape's matrix). */
static kgen_status
check_sizes(const struct tune *t, kgen_error *err)
{
	const struct kgen_dtype_info *dt = t->p[0].spec->r.dtype;
	const struct kgen_runner *r = kgen_runner_of(t->p[0].spec);
	int j;

	for (j = 0; !t->shapes && j < t->ns; j++)
		if (kgen_run_too_large(t->o.n[j], 1, (unsigned long long)dt->size))
			return kgen_fail(err, KGEN_EINVAL, "--n %llu: %llu elements of %s (%d bytes each) do not fit in memory",
			                 t->o.n[j], t->o.n[j], dt->name, dt->size);
	return r->check ? r->check(&t->o, t->p[0].spec, err) : KGEN_OK;
}

static void
free_tune(struct tune *t)
{
	int i;

	for (i = 0; t->p && i < t->pts.n; i++)
		kgen_spec_free(t->p[i].spec);
	free(t->p);
	for (i = 0; i < t->nseen; i++)
		free(t->seen[i].key);
	free(t->seen);
	kgen_points_free(&t->pts);
}

/* --method's list, "events" or "events,graph": each method added once. */
static int
add_methods(struct tune *t, const char *list)
{
	char name[32];
	const char *p, *end;
	int i, m;

	for (p = list;; p = end + 1) {
		end = strchr(p, ',');
		if (!end)
			end = p + strlen(p);
		snprintf(name, sizeof name, "%.*s", (int)(end - p < 31 ? end - p : 31), p);
		if ((i = kgen_timing_method_parse(name)) < 0 || i == KGEN_TIME_PER_CALL) {
			kgen_cli_usage_error("tune", "bad --method %s (events, graph or cold, or a list: events,graph)", list);
			return -1;
		}
		for (m = 0; m < t->nm && t->method[m] != (enum kgen_timing_method)i; m++)
			;
		if (m == t->nm)
			t->method[t->nm++] = (enum kgen_timing_method)i;
		if (!*end)
			return 0;
	}
}

/* One of kgen tune's options, c with its argument arg (next: the argument
 * after it, for --set's "did you mean"), into t (*margin: set when --margin
 * was given).  -1 to go on, else the command's exit status. */
static int
parse_option(struct tune *t, int c, char *arg, const char *next, int *margin)
{
	char *endp;

	switch (c) {
	case 'n':
		if (t->o.nn == MAX_SIZES)
			return kgen_cli_usage_error("tune", "more than %d --n", MAX_SIZES);
		if (kgen_parse_count(arg, &t->o.n[t->o.nn]) || !t->o.n[t->o.nn])
			return kgen_cli_usage_error("tune", "bad --n %s (at least 1; e.g. 1000, 16M, 2^30, 2^24+7)", arg);
		t->o.nn++;
		break;
	case 'x':
		if (t->o.nshape == MAX_SIZES)
			return kgen_cli_usage_error("tune", "more than %d --shape", MAX_SIZES);
		if (kgen_parse_shape(arg, t->o.shape[t->o.nshape]))
			return kgen_cli_usage_error("tune", "bad --shape %s (ROWSxCOLS, e.g. 8192x8192, 1x2^20, or MxNxK for a "
			                            "matmul)", arg);
		t->o.shape_parts[t->o.nshape++] = strchr(strchr(arg, 'x') + 1, 'x') ? 3 : 2;
		break;
	case 'm':
		if (add_methods(t, arg))
			return 2;
		break;
	case 'r': case 'j': case 'd': {
		long long v;
		if (kgen_cli_integer("tune", c == 'r' ? "--runs" : c == 'j' ? "-j" : "--device", arg, c == 'd' ? 0 : 1,
		                     c == 'r' ? 100000 : c == 'j' ? 64 : INT_MAX, &v))
			return 2;
		*(c == 'r' ? &t->runs : c == 'j' ? &t->jobs : &t->device) = (int)v;
		break;
	}
	case 's':
	case 'u':
		if (kgen_cli_add_set("tune", c == 'u', arg, next, t->sets, &t->nsets, (int)KGEN_COUNT(t->sets)))
			return 2;
		break;
	case 'R': t->records = arg; break;
	case 'F': t->fresh = 1; break;
	case 'U': t->fresh = 0; break;
	case 'p': t->plan = arg; break;
	case 'l': t->list = 1; break;
	case 'S':
		if (kgen_cli_unsigned("tune", "--seed", arg, &t->seed))
			return 2;
		break;
	case 'T':
		t->tolerance = strtod(arg, &endp) / 100;
		if (*endp || endp == arg || t->tolerance < 0 || t->tolerance > 1)
			return kgen_cli_usage_error("tune", "bad --tolerance %s (a percentage, 0 to 100)", arg);
		break;
	case 'C':
		if (strcmp(arg, "worst") != 0 && strcmp(arg, "mean") != 0 && strcmp(arg, "first") != 0)
			return kgen_cli_usage_error("tune", "bad --choose %s (worst, mean or first)", arg);
		t->mean = strcmp(arg, "mean") == 0;
		t->first = strcmp(arg, "first") == 0;
		break;
	case 'G':
		*margin = 1;
		t->margin = strtod(arg, &endp) / 100;
		if (*endp || endp == arg || t->margin < 0 || t->margin >= 1)
			return kgen_cli_usage_error("tune", "bad --margin %s (a percentage, 0 to under 100)", arg);
		break;
	case 'A':
		if (strcmp(arg, "cub") != 0)
			return kgen_cli_usage_error("tune", "bad --against %s (cub)", arg);
		t->against = 1;
		break;
	case 'h': usage(stdout); return 0;
	default: return kgen_cli_usage_error("tune", NULL);  /* getopt has said what */
	}
	return -1;
}

/* What the options say together: one space, counts in range, --margin and
 * --choose first where they apply; the space and the default method into t.
 * -1 to go on, else the exit status. */
static int
check_options(int argc, char **argv, struct tune *t, int margin)
{
	if (optind == argc)
		return kgen_cli_usage_error("tune", "no space given");
	if (optind != argc - 1)
		return kgen_cli_usage_error("tune", "expected one space, got %d", argc - optind);
	if (margin && !(t->mean && t->against) && !t->first)
		return kgen_cli_usage_error("tune", "--margin is for --choose mean --against cub, and --choose first");
	t->space = argv[optind];
	if (!t->nm)
		t->method[t->nm++] = KGEN_TIME_EVENTS;
	if (t->first && t->nm < 2)
		return kgen_cli_usage_error("tune", "--choose first weighs the first method against the others: give two "
		                            "or more (--method events,graph)");
	return -1;
}

/* The sizes rising and distinct: a plan's entries rise by n. */
static void
sort_sizes(struct tune *t)
{
	int i, j;

	qsort(t->o.n, (size_t)t->o.nn, sizeof *t->o.n, cmp_count);
	for (i = j = 0; i < t->o.nn; i++)
		if (!j || t->o.n[i] != t->o.n[j - 1])
			t->o.n[j++] = t->o.n[i];
	t->o.nn = j;
	qsort(t->o.shape, (size_t)t->o.nshape, sizeof *t->o.shape, cmp_shape);
	for (i = j = 0; i < t->o.nshape; i++)
		if (!j || cmp_shape(t->o.shape[i], t->o.shape[j - 1]))
			memcpy(t->o.shape[j++], t->o.shape[i], sizeof *t->o.shape);
	t->o.nshape = j;
}

/* kgen tune's options into t (records: storage for the default records
 * path, SPACE.records.jsonl).  -1 when the command goes on, else its exit
 * status. */
static int
parse_options(int argc, char **argv, struct tune *t, char *records, size_t nrecords)
{
	static const struct option longopts[] = {
		{ "n", required_argument, NULL, 'n' }, { "shape", required_argument, NULL, 'x' },
		{ "method", required_argument, NULL, 'm' },
		{ "runs", required_argument, NULL, 'r' }, { "jobs", required_argument, NULL, 'j' },
		{ "set", required_argument, NULL, 's' }, { "unset", required_argument, NULL, 'u' },
		{ "records", required_argument, NULL, 'R' },
		{ "fresh", no_argument, NULL, 'F' }, { "resume", no_argument, NULL, 'U' },
		{ "plan", required_argument, NULL, 'p' }, { "list", no_argument, NULL, 'l' },
		{ "seed", required_argument, NULL, 'S' }, { "device", required_argument, NULL, 'd' },
		{ "tolerance", required_argument, NULL, 'T' }, { "against", required_argument, NULL, 'A' },
		{ "choose", required_argument, NULL, 'C' }, { "margin", required_argument, NULL, 'G' },
		{ "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 },
	};
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int c, rc, margin = 0;

	t->runs = 20;
	t->jobs = cpus > 0 ? (cpus > 64 ? 64 : (int)cpus) : 2;
	t->seed = 20261121;
	t->tolerance = 0.03;
	t->margin = 0.03;
	optind = 1;
	while ((c = getopt_long(argc, argv, "j:s:h", longopts, NULL)) != -1)
		if ((rc = parse_option(t, c, optarg, optind < argc ? argv[optind] : NULL, &margin)) >= 0)
			return rc;
	if ((rc = check_options(argc, argv, t, margin)) >= 0)
		return rc;
	sort_sizes(t);
	if (!t->records) {
		size_t len = strlen(t->space);
		if (len > 5 && strcmp(t->space + len - 5, ".yaml") == 0)
			len -= 5;
		snprintf(records, nrecords, "%.*s.records.jsonl", (int)len, t->space);
		t->records = records;
	}
	return -1;
}

/* The records (appended) and the plan (replaced) are neither the space
 * nor each other: by file, whatever the names (R4-1). */
static kgen_status
outputs_not_inputs(const struct tune *t, kgen_error *err)
{
	char *space[] = { (char *)t->space }, *records[] = { (char *)t->records }, name[256];

	if (kgen_cli_same_file(t->plan, t->records))
		return kgen_fail(err, KGEN_EINVAL, "--plan %s is the records file: give the plan a file of its own",
		                 kgen_escape(t->plan, name, sizeof name, 0));
	if (kgen_cli_not_an_input("--records", t->records, space, 1, "the space", err) ||
	    kgen_cli_not_an_input("--plan", t->plan, space, 1, "the space", err) ||
	    kgen_cli_not_an_input("--plan", t->plan, records, 1, "the records file", err))
		return err->status;
	return KGEN_OK;
}

/* Each accepted point as a spec with its hash; every point computes the
 * same, kgen tune takes the family, and every size fits. */
static kgen_status
load_points(struct tune *t, kgen_error *err)
{
	kgen_status st;
	int i;

	if (!(t->p = calloc((size_t)t->pts.n, sizeof *t->p)))
		return kgen_fail(err, KGEN_ENOMEM, "out of memory");
	for (i = 0; i < t->pts.n; i++) {
		char name[64];
		snprintf(name, sizeof name, "%s point %d", t->space, i + 1);
		if ((st = kgen_spec_load_string(t->pts.v[i].yaml, strlen(t->pts.v[i].yaml), name, &t->p[i].spec, err)) ||
		    (st = kgen_cli_spec_hash(t->p[i].spec, t->p[i].hash, err)))
			return st;
	}
	return (st = check_same(t, err)) || (st = take_family(t, err)) ? st : check_sizes(t, err);
}

/* The GPU's context and every point built, the key that names this
 * machine in the records, and the run's header line. */
static kgen_status
start_gpu(struct tune *t, kgen_context **ctx, kgen_error *err)
{
	kgen_status st;
	char a[64];
	int drv = 0;

	if ((st = kgen_context_create(t->device, ctx, err)) || (st = kgen_context_enter(*ctx, err)))
		return st;
	(*ctx)->cu->cuDriverGetVersion(&drv);
	snprintf(t->base_key, sizeof t->base_key, "%s|driver %d.%d|NVRTC %s|kgen %s", (*ctx)->name, drv / 1000,
	         drv % 1000 / 10, kgen_nvrtc_version(), kgen_version());
	printf("# kgen tune on %s (%s), method %s, %d runs, records %s%s\n", t->base_key, (*ctx)->arch,
	       methods_text(t, a, sizeof a), t->runs,
	       t->records, t->fresh ? " (fresh)" : "");
	if ((st = build_all(t, *ctx, err)))
		return st;
	if (kgen_cache_problem())  /* every build compiled: say why, once */
		fprintf(stderr, "kgen: warning: %s\n", kgen_cache_problem());
	return KGEN_OK;
}

/* The records file, for appending; a cut-off last line stays a line of
 * its own.  -1 with err set. */
static int
append_records(const struct tune *t, kgen_error *err)
{
	int rec = open_records(t->records, O_RDWR | O_APPEND | O_CREAT, err);
	off_t end;
	char last = '\n';

	if (rec < 0)
		return -1;
	end = lseek(rec, 0, SEEK_END);
	if (end > 0 && pread(rec, &last, 1, end - 1) == 1 && last != '\n' && write(rec, "\n", 1) != 1)
		fprintf(stderr, "kgen tune: cannot append to %s: %s\n", t->records, strerror(errno));
	return rec;
}

/* Size j's line: the best point, the next, and what the plan keeps. */
static void
print_size(const struct tune *t, int j, int best, int chosen)
{
	int second = best_at(t, j, best);
	char times[256], a[64], r[64];

	printf("%s %s  %s", size_column(t, j, a, sizeof a), times_text(t, best, j, times, sizeof times),
	       t->pts.v[best].label);
	if (t->against)
		printf(" (%s of CUB's time)", score_text(t, best, j, r, sizeof r));
	if (second >= 0 && (t->nm > 1 || t->against))
		printf("   (next: %s of %s, %s)", score_text(t, second, j, r, sizeof r), ref_name(t), t->pts.v[second].label);
	else if (second >= 0)
		printf("   (next: %.2f us, %s)", t->p[second].us[j][0], t->pts.v[second].label);
	if (chosen != best)
		printf("\n         the plan keeps %s (%s of %s), %s", times_text(t, chosen, j, times, sizeof times),
		       score_text(t, chosen, j, r, sizeof r), ref_name(t), t->pts.v[chosen].label);
	printf("\n");
}

/* Every size: its points verified and timed (and CUB with --against),
 * its best point and the plan's choice (a plan by n's: the previous
 * size's point within the tolerance; a plan by shape chooses apart,
 * write_shape_plan).  The sizes with no verified point in *missing. */
static kgen_status
tune_sizes(struct tune *t, kgen_context *ctx, int rec, int *best, int *chosen, int *failures, int *missing,
           kgen_error *err)
{
	int j, done = 0;
	time_t t0 = time(NULL);
	kgen_status st;
	char a[64];

	for (j = 0; j < t->ns; j++) {
		if ((st = tune_size(t, ctx, j, rec, failures, &done, t->pts.n * t->ns, t0, err)) ||
		    (t->against && (st = cub_size(t, ctx, j, rec, err))))
			return st;
		best[j] = best_at(t, j, -1);
		chosen[j] = t->mnk ? best[j] : plan_choice(t, j, best[j], j ? chosen[j - 1] : -1);
		if (isatty(1))
			printf("\r\033[K");
		if (best[j] < 0) {
			printf("%s no point verified\n", size_column(t, j, a, sizeof a));
			(*missing)++;
			continue;
		}
		print_size(t, j, best[j], chosen[j]);
		fflush(stdout);
	}
	printf("# %d point%s x %d size%s: %d measured (%d failed to verify), %d from the records, %d size%s a point "
	       "cannot take; %.0f s\n", t->pts.n, t->pts.n == 1 ? "" : "s", t->ns, t->ns == 1 ? "" : "s", t->measured,
	       *failures, t->reused, t->rejected, t->rejected == 1 ? "" : "s", difftime(time(NULL), t0));
	return KGEN_OK;
}

/* kgen tune: parse, expand the space, load and check the points, build
 * them on the GPU, tune each size, then write the plan. */
int
kgen_cmd_tune(int argc, char **argv)
{
	struct tune t;
	kgen_context *ctx = NULL;
	kgen_error err;
	char records[4096];
	int rec = -1, rc, i, failures = 0, best[MAX_SIZES], chosen[MAX_SIZES], missing = 0;

	memset(&t, 0, sizeof t);
	if ((rc = parse_options(argc, argv, &t, records, sizeof records)) >= 0)
		return rc;
	if (outputs_not_inputs(&t, &err))
		return kgen_report(&err);
	rc = 0;
	if (kgen_space_expand(t.space, t.sets, t.nsets, &t.pts, &err))
		return kgen_report(&err);
	kgen_space_print_counts(t.space, &t.pts, stdout);
	if (t.list) {  /* and validated as a tuning would be: the family, the sizes, --plan and --against */
		for (i = 0; i < t.pts.n; i++)
			printf("%6d  %s\n", i + 1, t.pts.v[i].label);
		if (t.pts.n && load_points(&t, &err))
			rc = kgen_report(&err);
		goto out;
	}
	if (!t.pts.n) {
		fprintf(stderr, "kgen tune: no point of %s is accepted\n", t.space);
		kgen_points_free(&t.pts);
		return 1;
	}
	if (load_points(&t, &err) || read_records(&t, &err) || start_gpu(&t, &ctx, &err) || (rec = append_records(&t, &err)) < 0 ||
	    tune_sizes(&t, ctx, rec, best, chosen, &failures, &missing, &err)) {
		rc = kgen_report(&err);
		goto out;
	}
	if (t.plan && !missing) {
		if (t.mnk ? write_shape_plan(&t, best, argc, argv, &err) : write_plan(&t, chosen, argc, argv, &err)) {
			rc = kgen_report(&err);
			goto out;
		}
		printf("# plan: %s\n", t.plan);
	} else if (t.plan) {
		fprintf(stderr, "kgen tune: no plan written: %d size(s) without a verified point\n", missing);
		rc = 6;
	}
	if (missing || failures)
		rc = 6;
out:
	if (rec >= 0)
		close(rec);
	free_tune(&t);
	if (ctx)
		kgen_context_destroy(ctx);
	return rc;
}
