/*
 * run.c - `kgen run`: build specs for the GPU, run them on seeded random
 * data, check every result against a CPU reference, and time them against
 * the read-bandwidth ceiling and CUB in the same run.  `kgen info` and
 * `kgen cache` are in info.c and cache.c.
 */
#include "config.h"
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli.h"
#include "run.h"
#include "reference.h"
#include "timing.h"

int
kgen_run_too_large(unsigned long long count, unsigned long long times, unsigned long long size)
{
	return times && size && count > (unsigned long long)(size_t)-1 / times / size;
}

int
kgen_run_copies(const kgen_context *ctx, const struct run_opts *o, size_t bytes)
{
	size_t want = 2 * ctx->l2_bytes;

	if (!bytes || bytes >= want)
		return 1;
	return (want + bytes - 1) / bytes > 64 ? 64 : (int)((want + bytes - 1) / bytes);
}

static const struct kgen_runner *const runners[KGEN_FAMILY_COUNT] = {
#define X(id, name, doc, stem) [KGEN_##id] = &kgen_runner_##stem,
	KGEN_FAMILIES(X)
#undef X
};

const struct kgen_runner *
kgen_runner_of(const kgen_spec *s)
{
	return runners[s->kernel];
}

const char *
kgen_tune_families(int peer, char *buf, size_t len)
{
	size_t at = 0;
	int f, n = 0, count = 0;

	for (f = 0; f < KGEN_FAMILY_COUNT; f++)
		count += runners[f]->tune && (!peer || runners[f]->tune->peer_ms);
	buf[0] = '\0';
	for (f = 0; f < KGEN_FAMILY_COUNT && at < len; f++) {
		if (!runners[f]->tune || (peer && !runners[f]->tune->peer_ms))
			continue;
		n++;
		at += (size_t)snprintf(buf + at, len - at, "%s%s", n == 1 ? "kernel: " : n == count ? " or " : ", ",
		                       kgen_family((enum kgen_family_id)f)->name);
	}
	return buf;
}

static void
run_usage(FILE *fp)
{
	fputs("usage: kgen run SPEC... [--n N]... [--shape RxC]... [--verify] [--bench] [--seed S] [--runs R]\n"
	      "                [--device D] [--offset E] [--pad E] [--identity] [--extreme WHERE] [--nan WHERE]\n"
	      "                [--method per-call|events|graph|cold] [--accuracy]\n"
	      "                [--set KEY=VALUE]... [--unset KEY]... [--tsv FILE] [--json FILE]\n"
	      "                [--cub PATH] [--cublas PATH] [--devices LIST]\n"
	      "\n"
	      "Build each spec for GPU D (default 0), run it on seeded random data of N\n"
	      "elements (default 2^24; --n may repeat; suffixes k, M, G and 2^K accepted)\n"
	      "and, with --verify (the default unless --bench is given alone), check the\n"
	      "result against a CPU reference:\n"
	      "integers, min and max exactly (in a 16-bit output too: its rounding of the\n"
	      "element); float sums exactly where every partial sum is exact (a sum's seeded\n"
	      "elements are -1, 0 and 1: sum|x| under 2^24 in f32, 2^53 in f64), else\n"
	      "within eps(acc) * (ceil(log2 N) + 2) * sum|x|.  With --bench, time the launch (CUDA events, 3 warm-up runs, median\n"
	      "of R runs, default 20; inputs smaller than 2 x L2 rotate among copies) and\n"
	      "report GB/s, the read-bandwidth ceiling measured in the same run and\n"
	      "cub::DeviceReduce's time for the same op, dtype and N (the kgen-cub helper;\n"
	      "cub::DeviceScan for scans).\n"
	      "--offset E starts the input E elements into its allocation (misaligned).\n"
	      "--extreme WHERE (start, end or both) puts the op's winning value at the first,\n"
	      "the last or both elements of the vector (each row or column of a matrix):\n"
	      "ties for argmin and argmax; --nan WHERE puts NaNs there (float dtypes).\n"
	      "--method M times vector reductions, scans and their CUB peers alike: per-call\n"
	      "(the default: R samples, each one call alone between two events), events (7\n"
	      "samples, each a batch of calls back to back between two events, the batch R\n"
	      "doubled until it lasts 0.2 ms, at most 4096), graph (that batch captured once\n"
	      "in a CUDA graph on a stream of its own, 7 replays) or cold (R samples, each\n"
	      "one call after writing twice the L2).  Times are per call; the spread,\n"
	      "(max - min) / median of the samples, follows the time but for per-call, and\n"
	      "the TSV ends with the method and the spread.  Matrix reductions and\n"
	      "transposes are timed per call whatever the method.\n"
	      "--identity makes every element the op's identity (min, max, argmin, argmax:\n"
	      "-inf for a float max, the lowest integer, ...) before those are placed.\n"
	      "Transpose specs run at each --shape ROWSxCOLS (default 8192x8192), or\n"
	      "BATCHxROWSxCOLS for a batch of matrices in one launch, rows of the input\n"
	      "and output --pad E elements longer (pitched): random bits in, the output\n"
	      "and its padding poisoned, every element compared; --bench counts the\n"
	      "bytes read and written and times a device-to-device copy of the same bytes.\n"
	      "Matrix reductions (kernel: reduce_axis) run at each --shape too, rows --pad\n"
	      "E elements longer than cols (pitch = cols + E, default 0); every result is\n"
	      "compared, and --bench times CUB's sum of the whole matrix (the same bytes)\n"
	      "and, for rows, cub::DeviceSegmentedReduce.\n"
	      "Matrix multiplies (kernel: matmul) run at each --shape MxNxK (three numbers,\n"
	      "always: C is M x N, A M x K, B K x N; default 4096x4096x4096), leading\n"
	      "dimensions --pad E elements longer than packed: seeded A and B in [-1, 1],\n"
	      "C = 0.75 A B checked with C poisoned (NaN, so beta 0 must not read it), then\n"
	      "C = 0.75 A B + 0.5 C from a random C; every element against an fp64 CPU\n"
	      "reference when M*N*K <= 2^31, else 16 whole rows and 16 whole columns and one\n"
	      "element of every 32 x 32 block (a place of its own in each), within\n"
	      "(K + 4) eps(acc) |alpha| sum|a b| + the output's rounding.  --bench times C =\n"
	      "A B (beta 0), under --method as vector reductions are, and reports TFLOPS\n"
	      "(2 M N K / time) and cuBLAS's (the faster of cublasGemmEx and cublasLtMatmul,\n"
	      "named, through the kgen-cublas helper, or --cublas PATH: the same types,\n"
	      "layouts and leading dimensions, timed with the same method; cublasLtMatmul\n"
	      "alone with its fused ReLU when the epilogue is one,\n"
	      "its GELU_BIAS (GELU's tanh form) when it is gelu_tanh or gelu of v plus a\n"
	      "bias: col of C's type, none for another epilogue), and a device-to-device copy\n"
	      "moving the bytes the call does (A and B read, C written: half read, half\n"
	      "written; timed twice, the later kept): `of copy` is the copy's time over\n"
	      "kgen's (the TSV's ceiling_gbs and pct_ceiling).  fp8 operands (dtype e4m3,\n"
	      "e5m2) are integers from -2 to 2, whose sums every accumulation adds exactly,\n"
	      "scaled by 0.5 and 0.25 (scale: tensor).  --accuracy measures instead of\n"
	      "checking (matmul only): A and B uniform in [-1, 1] rounded to their type (fp8\n"
	      "too), C = 0.75 A B once, and the largest |C - reference| of the elements the\n"
	      "check would read, over the largest |reference| and over the check's bound\n"
	      "(f32's); the verdict says `measured`.\n"
	      "Scans (kernel: scan) run at each --n, seeded as a reduction of their op is,\n"
	      "--offset elements into the input's allocation, the output poisoned: every\n"
	      "element against the CPU reference of its prefix (floats within eps(acc)\n"
	      "times the kernel's chain of combines up to it, times sum |x|); --bench\n"
	      "times the call under --method, a device-to-device copy of the bytes it\n"
	      "reads and writes, and cub::DeviceScan (InclusiveSum, ExclusiveSum, or\n"
	      "InclusiveScan and ExclusiveScan with CUB's minimum or maximum) of the same\n"
	      "mode, op, types and N under the same method, through kgen-cub, which checks\n"
	      "64 sampled outputs of it (op sum, min and max; each dtype into itself, and\n"
	      "i32 and u32 into i64, f32 into f64, f16 and bf16 into f32).  With --shape\n"
	      "ROWSxCOLS a scan runs along each row of the matrix (kgen_scan_rows), the\n"
	      "input's rows --pad E elements longer, every row checked (no CUB peer);\n"
	      "without --n, only the shapes run.\n"
	      "Row kernels (kernel: rows) run at each --shape ROWSxCOLS, rows --pad E\n"
	      "elements longer: seeded x, a weight and bias for the norms, labels for\n"
	      "cross_entropy (every seventh row ignored), the outputs poisoned, every output\n"
	      "against an fp64 CPU reference; --extreme makes the first rows the edge cases\n"
	      "(all -inf, a NaN, huge values, a constant row); --bench times a call per call\n"
	      "beside a device-to-device copy of the same bytes.\n"
	      "--seed S seeds the random data (default 20261121; the first line names it).\n"
	      "--cub PATH and --cublas PATH name the peers' helpers (default: $KGEN_CUB and\n"
	      "$KGEN_CUBLAS, then kgen-cub and kgen-cublas beside kgen, then the installed\n"
	      "ones); an empty PATH leaves the peer out.\n"
	      "--tsv FILE writes a row per result (tab-separated, a header first; a spec\n"
	      "path's backslash, tab and newline as \\\\, \\t and \\n); --json FILE the same\n"
	      "rows as JSON objects, one per line, keyed by the header's names (FILE - :\n"
	      "standard output, after the table); neither may be a spec given.  Each is\n"
	      "written when the run ends, replacing the file; a run that gives no result\n"
	      "leaves it as it was.  A first SIGINT, SIGTERM or SIGHUP stops the run after\n"
	      "the result under way and writes the rows so far; a second stops it at once.\n"
	      "A SPEC shipped:OP-DTYPE (e.g. shipped:sum-f32) is the size plan kgen ships\n"
	      "for GPU D's model, tuned on one (the line before the header names it):\n"
	      "$KGEN_PLANS_DIR, else the installed plans, nvidia-<model>/OP-DTYPE.yaml; a\n"
	      "GPU without one is an error (its full reductions take the default spec).\n"
	      "--devices LIST (e.g. 0,1) runs reduce specs, and reduce_axis specs with axis:\n"
	      "cols, over those GPUs through NCCL (kgen_multi_reduce): N elements (ROWS rows)\n"
	      "on each, the seeded input of all of them checked against the CPU reference\n"
	      "of the whole on every GPU; --bench times the call against the slowest GPU's\n"
	      "kgen reduction of its own part alone (host clock, median of R) and reports\n"
	      "multi/alone.  Other families, and size plans (shipped or not), are refused.\n", fp);
}

kgen_status
kgen_fill_run(const struct kgen_spec *s, const struct run_opts *o, void *host, unsigned long long n, uint64_t seed,
              kgen_error *err)
{
	kgen_fill_input(s, host, n, seed);
	if (o->identity && kgen_fill_identity(s, host, n) < 0)
		return kgen_fail(err, KGEN_EINVAL, "--identity needs op min, max, argmin or argmax, not %s",
		                 kgen_ops[s->op].name);
	return KGEN_OK;
}

void
kgen_place_ends(const struct kgen_spec *s, const struct run_opts *o, void *host, unsigned long long first,
                unsigned long long n, unsigned long long stride)
{
	int nan, where;

	if (!n)
		return;
	for (nan = 0; nan < 2; nan++) {
		where = nan ? o->nan : o->extreme;
		if (where & KGEN_PLACE_START)
			kgen_place(s, host, first, nan);
		if (where & KGEN_PLACE_END)
			kgen_place(s, host, first + (n - 1) * stride, nan);
	}
}

int
kgen_parse_shape(const char *text, unsigned long long shape[3])
{
	char buf[128], *part[3], *x;
	int n = 0;

	if (strlen(text) >= sizeof buf)
		return -1;
	strcpy(buf, text);
	part[n++] = buf;
	for (x = buf; (x = strchr(x, 'x')); *x++ = '\0') {
		if (n == 3)
			return -1;
		part[n++] = x + 1;
	}
	if (n < 2)
		return -1;
	shape[2] = 1;
	if (n == 3 && kgen_parse_count(part[0], &shape[2]))
		return -1;
	if (kgen_parse_count(part[n - 2], &shape[0]) || kgen_parse_count(part[n - 1], &shape[1]))
		return -1;
	return !shape[0] || !shape[1] || !shape[2] ? -2 : 0;
}

/* A spec, or a size plan (whose first entry's spec stands for it). */
static kgen_status
load_spec_or_plan(struct run_spec *r, struct run_opts *o, kgen_error *err)
{
	kgen_status st;

	if (!kgen_cli_is_plan(r->path))
		return kgen_cli_load(r->path, o->sets, o->nsets, &r->spec, err);
	if (o->nsets)
		return kgen_fail(err, KGEN_EINVAL, "%s is a size plan: --set changes one spec, not a plan's", r->path);
	if ((st = kgen_plan_load_file(r->path, &r->plan, err)))
		return st;
	r->spec = (kgen_spec *)kgen_plan_spec(r->plan, 0, NULL);
	return KGEN_OK;
}

static void
run_spec_free(struct run_spec *r)
{
	if (r->plan)
		kgen_plan_free(r->plan);
	else
		kgen_spec_free(r->spec);
	r->plan = NULL;
	r->spec = NULL;
}


/* One option of kgen run, c with its argument arg (next: the argument after
 * it, for --set's "did you mean"), into o: -1 to go on, else the exit
 * status (0 after --help). */
static int
take_option(int c, char *arg, const char *next, struct run_opts *o)
{
	int r;

	switch (c) {
	case 'n':
		if (o->nn == KGEN_RUN_MAX_SIZES)
			return kgen_cli_usage_error("run", "more than %d --n", KGEN_RUN_MAX_SIZES);
		if (kgen_parse_count(arg, &o->n[o->nn]))
			return kgen_cli_usage_error("run", "bad --n %s (e.g. 1000, 16M, 2^30, 2^24+7)", arg);
		o->nn++;
		o->n_given = 1;
		break;
	case 'x':
		if (o->nshape == KGEN_RUN_MAX_SIZES)
			return kgen_cli_usage_error("run", "more than %d --shape", KGEN_RUN_MAX_SIZES);
		if ((r = kgen_parse_shape(arg, o->shape[o->nshape])) == -1)
			return kgen_cli_usage_error("run", "bad --shape %s (ROWSxCOLS or BATCHxROWSxCOLS, e.g. 8192x8192, "
			                            "1x2^20, 64x1024x1024; MxNxK for a matmul)", arg);
		if (r == -2 && !o->zero_shape)  /* refused by each spec, in the words of its family (load_specs) */
			o->zero_shape = arg;
		o->shape_parts[o->nshape++] = strchr(strchr(arg, 'x') + 1, 'x') ? 3 : 2;
		break;
	case 'v': o->verify = 1; break;
	case 'b': o->bench = 1; break;
	case 'S':
		if (kgen_cli_unsigned("run", "--seed", arg, &o->seed))
			return 2;
		break;
	case 'r': case 'd': case 'O': case 'P': {
		long long v;
		const char *name = c == 'r' ? "--runs" : c == 'd' ? "--device" : c == 'O' ? "--offset" : "--pad";
		if (kgen_cli_integer("run", name, arg, c == 'r' ? 1 : 0, c == 'O' ? 64 : c == 'P' ? 4096 : INT_MAX, &v))
			return 2;
		*(c == 'r' ? &o->runs : c == 'd' ? &o->device : c == 'O' ? &o->offset : &o->pad) = (int)v;
		break;
	}
	case 'I': o->identity = 1; break;
	case 'A': o->accuracy = 1; break;
	case 'M':
		if ((o->method = kgen_timing_method_parse(arg)) < 0)
			return kgen_cli_usage_error("run", "bad --method %s (per-call, events, graph or cold)", arg);
		break;
	case 'E': case 'N': {
		int where = strcmp(arg, "start") == 0 ? KGEN_PLACE_START : strcmp(arg, "end") == 0 ? KGEN_PLACE_END :
		            strcmp(arg, "both") == 0 ? KGEN_PLACE_START | KGEN_PLACE_END : -1;
		if (where < 0)
			return kgen_cli_usage_error("run", "bad --%s %s (start, end or both)", c == 'E' ? "extreme" : "nan", arg);
		*(c == 'E' ? &o->extreme : &o->nan) = where;
		break;
	}
	case 's':
	case 'u':
		if (kgen_cli_add_set("run", c == 'u', arg, next, o->sets, &o->nsets, (int)KGEN_COUNT(o->sets)))
			return 2;
		break;
	case 't': o->tsv = arg; break;
	case 'J': o->json = arg; break;
	case 'c': o->cub = arg; break;
	case 'B': o->cublas = arg; break;
	case 'G': o->devices = arg; break;
	case 'h': run_usage(stdout); return 0;
	default: return kgen_cli_usage_error("run", NULL);  /* getopt has said what */
	}
	return -1;
}

/* kgen run's command line into o, with the defaults of what it leaves out;
 * the specs are argv[*first..argc).  -1 to go on, else the exit status. */
static int
parse_options(int argc, char **argv, struct run_opts *o, int *first)
{
	static const struct option longopts[] = {
		{ "n", required_argument, NULL, 'n' }, { "verify", no_argument, NULL, 'v' },
		{ "bench", no_argument, NULL, 'b' }, { "seed", required_argument, NULL, 'S' },
		{ "runs", required_argument, NULL, 'r' }, { "device", required_argument, NULL, 'd' },
		{ "offset", required_argument, NULL, 'O' }, { "set", required_argument, NULL, 's' },
		{ "tsv", required_argument, NULL, 't' }, { "cub", required_argument, NULL, 'c' },
		{ "shape", required_argument, NULL, 'x' }, { "pad", required_argument, NULL, 'P' },
		{ "extreme", required_argument, NULL, 'E' }, { "nan", required_argument, NULL, 'N' },
		{ "identity", no_argument, NULL, 'I' }, { "method", required_argument, NULL, 'M' },
		{ "json", required_argument, NULL, 'J' }, { "unset", required_argument, NULL, 'u' },
		{ "cublas", required_argument, NULL, 'B' }, { "devices", required_argument, NULL, 'G' },
		{ "accuracy", no_argument, NULL, 'A' }, { "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 },
	};
	int c, r;

	memset(o, 0, sizeof *o);
	o->runs = 20;
	o->seed = 20261121;
	while ((c = getopt_long(argc, argv, "n:s:h", longopts, NULL)) != -1)
		if ((r = take_option(c, optarg, optind < argc ? argv[optind] : NULL, o)) >= 0)
			return r;
	if (optind >= argc)
		return kgen_cli_usage_error("run", "no spec given");
	if (!o->verify && !o->bench)
		o->verify = 1;
	if (o->accuracy)  /* what it measures is the check's */
		o->verify = 1;
	if (!o->nn)
		o->n[o->nn++] = 1ull << 24;
	if (!o->nshape) {
		o->shape[0][0] = o->shape[0][1] = 8192;
		o->shape[0][2] = 1;
		o->nshape = 1;
	}
	*first = optind;
	return -1;
}

/* The rows of --tsv and --json, gathered in a temporary file and written
 * to their files at the end (kgen_write_file: a temporary beside each,
 * renamed over it), so that a run that stops before any result leaves
 * what the files held. */
struct tables {
	FILE *tsv;
};

/* Whether kgen run may write path (a file, or a new one in its folder),
 * asked before anything runs: 0, or 3 said. */
static int
can_write(const char *option, const char *path)
{
	char dir[4096];
	const char *slash;
	struct stat st;
	int e, exists;

	if (!path || strcmp(path, "-") == 0)
		return 0;
	exists = stat(path, &st) == 0;
	if (exists && S_ISDIR(st.st_mode)) {
		fprintf(stderr, "kgen run: cannot write %s %s: it is a directory\n", option, path);
		return 3;
	}
	/* A file, or none yet: kgen_write_file() makes a temporary in the file's
	 * folder and renames it over the file, which asks that the folder be
	 * writable, not only the file (a link's own folder is asked here); a
	 * FIFO or /dev/stdout is written into. */
	if (!exists || S_ISREG(st.st_mode)) {
		slash = strrchr(path, '/');
		snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) + 1 : 1, slash ? path : ".");
		if (access(dir, W_OK | X_OK) != 0) {
			e = errno;
			fprintf(stderr, "kgen run: cannot write %s %s: %s%s%s\n", option, path, e == ENOENT ? "" : "its folder: ",
			        strerror(e), e == ENOENT ? "" : " (kgen writes a temporary file beside it, then renames it)");
			return 3;
		}
	}
	if (!exists || access(path, W_OK) == 0)
		return 0;
	e = errno;
	fprintf(stderr, "kgen run: cannot write %s %s: %s\n", option, path, strerror(e));
	return 3;
}

/* Check the --tsv and --json files and open the rows' temporary: 0, or 3
 * when one cannot be written; 2 when one is a spec to run or both are
 * one file. */
static int
open_tables(const struct run_opts *o, char **specs, int nspecs, struct tables *t)
{
	char name[256];
	kgen_error err;
	int rc;

	if (kgen_cli_same_file(o->tsv, o->json) || (o->tsv && o->json && !strcmp(o->tsv, "-") && !strcmp(o->json, "-")))
		return kgen_report((kgen_fail(&err, KGEN_EINVAL, "--tsv and --json name one file, %s: give each its own",
		                              kgen_escape(o->tsv, name, sizeof name, 0)), &err));
	if (kgen_cli_not_an_input("--tsv", o->tsv, specs, nspecs, "the spec", &err) ||
	    kgen_cli_not_an_input("--json", o->json, specs, nspecs, "the spec", &err))
		return kgen_report(&err);
	if ((rc = can_write("--tsv", o->tsv)) || (rc = can_write("--json", o->json)))
		return rc;
	if ((o->tsv || o->json) && !(t->tsv = tmpfile())) {
		fprintf(stderr, "kgen run: cannot make a temporary file for --tsv or --json: %s\n", strerror(errno));
		return 3;
	}
	return 0;
}

/* What kgen run has built: the GPU's context, the specs that will run
 * (their kernels built), and room for one family's share of them. */
struct built {
	kgen_context *ctx;
	struct run_spec *specs, *mine;
	int nspecs;
	char **paths;  /* the paths loaded: the specs', then shipped:OP-DTYPE's plans' (load_shipped) */
};

static void
free_built(struct built *b)
{
	int i;

	kgen_context_destroy(b->ctx);
	for (i = 0; i < b->nspecs && b->specs; i++)
		run_spec_free(&b->specs[i]);
	free(b->specs);
	free(b->mine);
	free(b->paths);
}

/* A --shape with a part 0, refused in the words of the spec's family: how
 * it is sized (kgen_sizes, gen/family.h), MxNxK for a matmul. */
static kgen_status
zero_shape(const struct run_opts *o, const kgen_spec *spec, kgen_error *err)
{
	const struct kgen_family *f = kgen_family_of(spec);

	return kgen_fail(err, KGEN_EINVAL, "--shape %s: each number is at least 1; kernel: %s is sized by %s: %s",
	                 o->zero_shape, f->name, kgen_sizes[f->size].text, kgen_sizes[f->size].option);
}

/* Load each path into specs and check that it can take the sizes.  A spec
 * that is wrong, or cannot take them, is reported and left out (the worst
 * exit status into *rc); the others run.  Returns how many are kept. */
static int
load_specs(struct run_opts *o, char **paths, int npaths, struct run_spec *specs, int *rc)
{
	const struct kgen_runner *r;
	kgen_error err;
	int i, j, bad;

	for (i = 0, j = 0; i < npaths; i++) {
		specs[j].path = paths[i];
		if (load_spec_or_plan(&specs[j], o, &err)) {
			bad = kgen_report(&err);
		} else if ((o->accuracy && !runners[specs[j].spec->kernel]->accuracy &&
		            kgen_fail(&err, KGEN_EINVAL, "--accuracy measures a matmul's error, not a %s's: drop it",
		                      kgen_families[specs[j].spec->kernel].name)) ||
		           (o->zero_shape && zero_shape(o, specs[j].spec, &err)) ||
		           ((r = runners[specs[j].spec->kernel])->check && r->check(o, specs[j].spec, &err))) {
			snprintf(err.file, sizeof err.file, "%s", paths[i]);
			bad = kgen_report(&err);
			run_spec_free(&specs[j]);
			specs[j].spec = NULL;
		} else {
			j++;
			continue;
		}
		if (bad > *rc)
			*rc = bad;
	}
	return j;
}

#define SHIPPED "shipped:"

/* Whether an argument names a shipped plan (shipped:OP-DTYPE), not a file. */
static int
is_shipped(const char *path)
{
	return strncmp(path, SHIPPED, strlen(SHIPPED)) == 0;
}

/* Load the size plans kgen ships for the GPU's model (kgen_plan_shipped_path())
 * that the arguments shipped:OP-DTYPE (e.g. shipped:sum-f32) name into specs
 * (each name replaced in names by its plan's path),
 * each found said on a line of its own, as load_specs() loads specs.  One the
 * GPU has no plan for is reported and left out (its exit status into *rc,
 * the worst kept); so are all of them where the GPU's context, which gives
 * its name, cannot be made.  Returns how many are kept. */
static int
load_shipped(struct run_opts *o, char **names, int n, struct built *b, struct run_spec *specs, int *rc)
{
	static char found[32][4096];
	kgen_error err;
	char op[64];
	const char *name, *dash;
	int i, kept = 0, bad;

	for (i = 0; i < n; i++) {
		name = names[i] + strlen(SHIPPED);
		if (!(dash = strchr(name, '-')) || (size_t)(dash - name) >= sizeof op) {
			kgen_fail(&err, KGEN_EINVAL, "%s: expected shipped:OP-DTYPE, e.g. shipped:sum-f32", names[i]);
		} else if (i == (int)KGEN_COUNT(found)) {
			kgen_fail(&err, KGEN_EINVAL, "%s: more than %d shipped plans in one run", names[i], (int)KGEN_COUNT(found));
		} else if (!b->ctx && kgen_context_create(o->device, &b->ctx, &err)) {
			char why[sizeof err.message];  /* said as the spec's error: "shipped:sum-f32: error: ..." */
			snprintf(why, sizeof why, "%s", err.message);
			snprintf(err.message, sizeof err.message, "%.960s (a shipped plan is the GPU's)", why);
			snprintf(err.file, sizeof err.file, "%s", names[i]);
		} else {
			snprintf(op, sizeof op, "%.*s", (int)(dash - name), name);
			if (!kgen_plan_shipped_path(NULL, b->ctx->name, op, dash + 1, found[i], sizeof found[i], &err)) {
				if (found[i][0]) {
					printf("# %s on %s: %s\n", names[i], b->ctx->name, found[i]);
					names[i] = found[i];
					kept += load_specs(o, &names[i], 1, specs + kept, rc);
					continue;
				}
				kgen_fail(&err, KGEN_EINVAL, "%s: no plan for %s tuned on the %s's model in %s (a folder a model, "
				          "nvidia-<model>/OP-DTYPE.yaml): its full reductions take the default spec", names[i], name,
				          b->ctx->name, kgen_plans_dir());
			}
		}
		bad = kgen_report(&err);
		if (bad > *rc)
			*rc = bad;
		if (!b->ctx)  /* no GPU: said once for all of them */
			break;
	}
	return kept;
}


/* Build each spec's kernel; one that fails is reported (the worst exit
 * status into *rc) and left out.  KGEN_ECUDA, the GPU itself failing,
 * stops the building: nothing more will run, and it is returned. */
static kgen_status
build_kernels(struct built *b, int *rc)
{
	struct run_spec *specs = b->specs;
	kgen_error err;
	kgen_status st;
	int i, j, bad;

	for (i = 0, j = 0; i < b->nspecs; i++) {
		if (kgen_run_stopped()) {  /* asked to stop (stop_on_signals()): no result will run */
			run_spec_free(&specs[i]);
			continue;
		}
		if (!(st = specs[i].plan ? kgen_kernel_build_plan(b->ctx, specs[i].plan, &specs[i].kernel, &err)
		                         : kgen_kernel_build(b->ctx, specs[i].spec, &specs[i].kernel, &err))) {
			specs[j++] = specs[i];
			continue;
		}
		fprintf(stderr, "%s: ", specs[i].path);
		bad = kgen_report(&err);
		if (bad > *rc)
			*rc = bad;
		run_spec_free(&specs[i]);
		if (st == KGEN_ECUDA) {
			for (i++; i < b->nspecs; i++)
				run_spec_free(&specs[i]);
			b->nspecs = j;
			return st;
		}
	}
	b->nspecs = j;
	if (kgen_cache_problem())  /* every build compiled: say why, once */
		fprintf(stderr, "kgen: warning: %s\n", kgen_cache_problem());
	return KGEN_OK;
}

/* The specs and the sizes first, so that a wrong spec or size is reported
 * as such (exit 1, 2 or 3) on a machine without a GPU too; then the GPU's
 * context, the header (and the --tsv header) and the kernels.  What is
 * wrong is reported (its exit status into *rc); 1 when the kernels built
 * are to run, 0 when nothing is. */
static int
build(struct run_opts *o, char **paths, int npaths, FILE *tsv, struct built *b, int *rc)
{
	kgen_error err;
	int i, n = 0, s, k, kept;

	b->nspecs = npaths;
	if (!(b->specs = calloc((size_t)npaths, sizeof *b->specs)) || !(b->mine = calloc((size_t)npaths, sizeof *b->mine)) ||
	    !(b->paths = calloc((size_t)npaths, sizeof *b->paths))) {
		*rc = kgen_report((kgen_fail(&err, KGEN_ENOMEM, "out of memory"), &err));
		return 0;
	}
	/* The specs first, then the shipped plans, which need the GPU's name:
	 * b->paths holds the specs' paths, then the shipped names, each in the
	 * order given (load_shipped puts each plan's path in its name's place). */
	for (i = 0, s = npaths; i < npaths; i++)
		s -= is_shipped(paths[i]);
	for (i = 0, k = s; i < npaths; i++)
		b->paths[is_shipped(paths[i]) ? k++ : n++] = paths[i];
	kept = load_specs(o, b->paths, n, b->specs, rc);
	if (s < npaths)
		kept += load_shipped(o, b->paths + s, npaths - s, b, b->specs + kept, rc);
	if (!(b->nspecs = kept))
		return 0;
	/* kgen run owns this thread: the GPU's context stays current for its
	 * own driver calls (the library's calls leave it as they find it). */
	if ((!b->ctx && kgen_context_create(o->device, &b->ctx, &err)) || kgen_context_enter(b->ctx, &err)) {
		*rc = kgen_report(&err);
		return 0;
	}
	printf("# kgen %s on %s (%s, %d SMs, %zu MB L2), seed %llu\n", kgen_version(), b->ctx->name, b->ctx->arch,
	       b->ctx->sm_count, b->ctx->l2_bytes >> 20, o->seed);
	if (tsv)
		fprintf(tsv, "spec\tdtype\top\tn\tverify\ttime_us\tgbs\tceiling_gbs\tpct_ceiling\tcub_us\tcub_gbs\tkgen_vs_cub\tcub_offsets\tmethod\tspread\n");
	return build_kernels(b, rc) == KGEN_OK;
}

/* Each family's runner gets its specs, in the order of KGEN_FAMILIES; an
 * error stops the run.  Returns the exit status: rc, the error's, or at
 * least 6 when a result did not verify. */
static int
run_families(const struct run_opts *o, struct built *b, FILE *tsv, int rc)
{
	kgen_error err;
	int f, i, n, failures = 0;

	for (f = 0; f < KGEN_FAMILY_COUNT; f++) {
		for (i = 0, n = 0; i < b->nspecs; i++)
			if (b->specs[i].spec->kernel == f)
				b->mine[n++] = b->specs[i];
		if (n && runners[f]->run(b->ctx, o, b->mine, n, tsv, &failures, &err))
			return kgen_report(&err);
	}
	if (failures) {
		fprintf(stderr, "kgen run: %d result(s) did not verify\n", failures);
		if (rc < 6)
			rc = 6;
	}
	return rc;
}

/* Write the rows to option's file (- : standard output): the worst exit
 * status of rc and the write's. */
static int
write_table(const char *option, const char *path, const char *data, size_t len, int rows, int rc)
{
	kgen_error err;
	int bad;

	if (strcmp(path, "-") == 0) {
		if (fwrite(data, 1, len, stdout) != len || fflush(stdout)) {
			fprintf(stderr, "kgen run: cannot write %s to standard output: %s\n", option, strerror(errno));
			return rc > 3 ? rc : 3;
		}
		return rc;
	}
	if (!rows) {
		fprintf(stderr, "kgen run: no results, so %s %s is left as it was\n", option, path);
		return rc;
	}
	if (kgen_write_file(path, data, len, &err)) {
		bad = kgen_report(&err);
		return bad > rc ? bad : rc;
	}
	return rc;
}

/* The lines of a table that are not comments (#): the header, then the
 * results. */
static int
table_rows(const char *s)
{
	const char *end;
	int n = 0;

	for (; *s; s = end ? end + 1 : s + strlen(s)) {
		end = strchr(s, '\n');
		n += *s != '#' && *s != '\n';
	}
	return n;
}

/* The end of a run: the rows gathered to --tsv's and --json's files. */
static int
report(const struct run_opts *o, struct tables *t, int rc)
{
	kgen_error err;
	char *data = NULL, *json = NULL;
	size_t len = 0, jlen = 0;
	long end;
	int rows = 0, bad;
	FILE *mem;

	if (!t->tsv)
		return rc;
	if (fflush(t->tsv) || (end = ftell(t->tsv)) < 0 || !(data = malloc((size_t)end + 1))) {
		fprintf(stderr, "kgen run: cannot read back the rows for --tsv or --json: %s\n", strerror(errno));
		fclose(t->tsv);
		return rc > 3 ? rc : 3;
	}
	rewind(t->tsv);
	len = fread(data, 1, (size_t)end, t->tsv);
	data[len] = '\0';
	rows = table_rows(data) > 1;  /* a line past the header */
	if (o->tsv)
		rc = write_table("--tsv", o->tsv, data, len, rows, rc);
	if (o->json) {
		rewind(t->tsv);
		if (!(mem = open_memstream(&json, &jlen))) {
			fprintf(stderr, "kgen run: cannot write --json: %s\n", strerror(errno));
			rc = rc > 3 ? rc : 3;
		} else {
			bad = kgen_json_from_tsv(t->tsv, mem, &err) ? kgen_report(&err) : 0;
			if (fclose(mem)) {
				fprintf(stderr, "kgen run: cannot write --json: %s\n", strerror(errno));
				bad = bad > 3 ? bad : 3;
			}
			rc = bad > rc ? bad : rc;
			if (!bad)
				rc = write_table("--json", o->json, json, jlen, rows, rc);
		}
	}
	free(json);
	free(data);
	fclose(t->tsv);
	return rc;
}

/* The signal that asked kgen run to stop, or 0 (stop_on_signals()): an
 * atomic, as the handler may run on a plan's build thread. */
static atomic_int stop_signal;

int
kgen_run_stopped(void)
{
	return atomic_load(&stop_signal) != 0;
}

/* The first of the signals: noted, said, and every one of them back to
 * what it did before (so the next stops kgen at once); errno as it was. */
static void
on_stop(int sig)
{
	static const char said[] = "kgen run: stopping after the result under way to write the rows so far "
	                           "(a signal again stops it at once)\n";
	struct sigaction dfl;
	ssize_t written;
	int e = errno;
	size_t i;

	memset(&dfl, 0, sizeof dfl);
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	for (i = 0; i < KGEN_STOP_SIGNALS; i++)
		sigaction(kgen_stop_signals[i], &dfl, NULL);
	atomic_store(&stop_signal, sig);
	written = write(STDERR_FILENO, said, sizeof said - 1);  /* a failure: nothing a handler can do */
	(void)written;
	errno = e;
}

/* While kgen run gathers --tsv or --json rows, the first SIGINT, SIGTERM
 * or SIGHUP stops it between builds and results, so that the rows so far
 * are written (the tables are written at the end); the next one stops it
 * at once, as it would have.  A signal ignored (nohup) stays ignored.  The
 * peers' helpers run with the three blocked (cli/timing.c), so that the
 * result under way keeps its peer's figure. */
static void
stop_on_signals(void)
{
	struct sigaction sa, old;
	size_t i;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_stop;
	sa.sa_flags = SA_RESTART;
	kgen_stop_set(&sa.sa_mask);  /* one handler at a time */
	for (i = 0; i < KGEN_STOP_SIGNALS; i++)
		if (sigaction(kgen_stop_signals[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
			sigaction(kgen_stop_signals[i], &sa, NULL);
}

/* kgen run: parse, build, run each family's runner, report. */
int
kgen_cmd_run(int argc, char **argv)
{
	struct run_opts o;
	struct tables t = { NULL };
	struct built b = { NULL, NULL, NULL, 0, NULL };
	int first = 0, rc;

	if ((rc = parse_options(argc, argv, &o, &first)) >= 0)
		return rc;
	if (o.devices && o.zero_shape)
		return kgen_cli_usage_error("run", "--shape %s: each number is at least 1", o.zero_shape);
	if (kgen_cli_stdin_once("run", argv + first, argc - first))
		return 2;
	if (o.devices)
		return kgen_run_multi(&o, argv + first, argc - first);
	if ((rc = open_tables(&o, argv + first, argc - first, &t)))
		return rc;
	if (t.tsv)
		stop_on_signals();
	if (build(&o, argv + first, argc - first, t.tsv, &b, &rc))
		rc = run_families(&o, &b, t.tsv, rc);
	free_built(&b);
	rc = report(&o, &t, rc);
	if (kgen_run_stopped()) {  /* the rows written: end as the signal would have ended it, for the shell's sake */
		int sig = atomic_load(&stop_signal);

		fprintf(stderr, "kgen run: stopped by signal %d (%s) after the results above\n", sig, strsignal(sig));
		fflush(NULL);
		signal(sig, SIG_DFL);
		raise(sig);
		return 128 + sig;
	}
	return rc;
}
