/*
 * run.c - `kgen run`: build specs for the GPU, run them on seeded random
 * data, check every result against a CPU reference, and time them against
 * the read-bandwidth ceiling and CUB in the same run.  Also `kgen cache`.
 */
#include "config.h"
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "gen/reduce.h"
#include "gen/tpl.h"
#include "runtime/cache.h"
#include "runtime/runtime.h"
#include "reference.h"
#include "timing.h"

struct run_opts {
	unsigned long long n[32];
	unsigned long long shape[32][2];  /* rows, cols for transposes */
	int nshape;
	int nn, verify, bench, runs, device, offset, nsets;
	unsigned long long seed;
	char *sets[64];
	const char *tsv, *cub;
};

/* ---- the commands ---- */

/* `kgen info`: the GPUs the driver sees; exit 5 when there is none. */
static int
cmd_info(void)
{
	const struct kgen_cu *cu;
	kgen_context *ctx;
	kgen_error err;
	int count = 0, i, version = 0;

	if (kgen_cu_load(&cu, &err))
		return kgen_report(&err);
	cu->cuDriverGetVersion(&version);
	cu->cuDeviceGetCount(&count);
	printf("CUDA driver %d.%d, NVRTC %s, %d GPU(s)\n", version / 1000, version % 1000 / 10, kgen_nvrtc_version(), count);
	for (i = 0; i < count; i++) {
		if (kgen_context_create(i, &ctx, &err))
			return kgen_report(&err);
		printf("%d: %s, %s, %d SMs, %zu MB L2\n", i, ctx->name, ctx->arch, ctx->sm_count, ctx->l2_bytes >> 20);
		kgen_context_destroy(ctx);
	}
	return count ? 0 : 5;
}

static void
run_usage(FILE *fp)
{
	fputs("usage: kgen run SPEC... [--n N]... [--shape RxC]... [--verify] [--bench] [--seed S] [--runs R]\n"
	      "                [--device D] [--offset E] [--set KEY=VALUE]... [--tsv FILE] [--cub PATH]\n"
	      "\n"
	      "Build each spec for GPU D (default 0), run it on seeded random data of N\n"
	      "elements (default 2^24; --n may repeat; suffixes k, M, G and 2^K accepted)\n"
	      "and, with --verify (the default), check the result against a CPU reference:\n"
	      "integers, min and max exactly; float sums within eps(acc) * (ceil(log2 N) + 2)\n"
	      "* sum|x|.  With --bench, time the launch (CUDA events, 3 warm-up runs, median\n"
	      "of R runs, default 20; inputs smaller than 2 x L2 rotate among copies) and\n"
	      "report GB/s, the read-bandwidth ceiling measured in the same run and\n"
	      "cub::DeviceReduce's time for the same op, dtype and N (the kgen-cub helper).\n"
	      "--offset E starts the input E elements into its allocation (misaligned).\n"
	      "Transpose specs run at each --shape ROWSxCOLS (default 8192x8192): random\n"
	      "bits in, the output poisoned, every element compared; --bench counts the\n"
	      "bytes read and written and times a device-to-device copy of the same bytes.\n", fp);
}

/* "1000", "16M", "2^30", "2^24+7" */
static int
parse_n(const char *text, unsigned long long *n)
{
	char *end;
	unsigned long long v, add = 0;

	errno = 0;
	if (strncmp(text, "2^", 2) == 0) {
		v = strtoull(text + 2, &end, 10);
		if (errno || v > 62)
			return -1;
		v = 1ull << v;
	} else {
		v = strtoull(text, &end, 10);
		if (errno || end == text)
			return -1;
		if (*end == 'k' || *end == 'K') v <<= 10, end++;
		else if (*end == 'M') v <<= 20, end++;
		else if (*end == 'G') v <<= 30, end++;
	}
	if (*end == '+' || *end == '-') {
		char sign = *end;
		add = strtoull(end + 1, &end, 10);
		v = sign == '+' ? v + add : v - add;
	}
	if (*end)
		return -1;
	*n = v;
	return 0;
}

static int
cmd_cache(int argc, char **argv)
{
	char dir[4096];
	kgen_error err;
	unsigned removed = 0;

	if (argc != 2 || (strcmp(argv[1], "list") && strcmp(argv[1], "clear"))) {
		fprintf(stderr, "usage: kgen cache list|clear\n");
		return 2;
	}
	if (kgen_cache_dir(dir, sizeof dir, &err))
		return kgen_report(&err);
	if (strcmp(argv[1], "list") == 0) {
		printf("# %s\n", dir);
		return kgen_cache_list(dir, stdout, &err) ? kgen_report(&err) : 0;
	}
	if (kgen_cache_clear(dir, &removed, &err))
		return kgen_report(&err);
	printf("removed %u entries from %s\n", removed, dir);
	return 0;
}

struct input {
	int dtype, op, acc;
	unsigned long long n;
	void *host;
	CUdeviceptr base[64];
	int copies;
	struct reference ref;
};

static void
free_input(kgen_context *ctx, struct input *in)
{
	int c;

	for (c = 0; c < in->copies; c++)
		if (in->base[c])
			ctx->cu->cuMemFree(in->base[c]);
	free(in->host);
	memset(in, 0, sizeof *in);
}

/* Make the input for spec s at n (reusing the last one when it fits). */
static kgen_status
make_input(kgen_context *ctx, const struct run_opts *o, const struct kgen_spec *s, unsigned long long n, int copies,
           struct input *in, kgen_error *err)
{
	const struct kgen_cu *cu = ctx->cu;
	size_t esize = (size_t)kgen_spec_dtype(s)->size, bytes = (size_t)(n + (unsigned long long)o->offset) * esize;
	int c;

	if (in->host && in->dtype == s->dtype && in->op == s->op && in->n == n && in->copies >= copies) {
		if (in->acc != s->acc_dtype) {
			kgen_reference(s, (char *)in->host + (size_t)o->offset * esize, n, &in->ref);
			in->acc = (int)s->acc_dtype;
		}
		return KGEN_OK;
	}
	free_input(ctx, in);
	if (!(in->host = malloc(bytes ? bytes : 1)))
		return kgen_fail(err, KGEN_ENOMEM, "out of host memory for %zu bytes", bytes);
	kgen_fill_input(s, (char *)in->host + (size_t)o->offset * esize, n, o->seed ^ (n * 0x9e3779b97f4a7c15ull));
	memset(in->host, 0, (size_t)o->offset * esize);
	in->dtype = (int)s->dtype;
	in->op = (int)s->op;
	in->acc = (int)s->acc_dtype;
	in->n = n;
	kgen_reference(s, (char *)in->host + (size_t)o->offset * esize, n, &in->ref);
	for (c = 0; c < copies; c++) {
		in->copies = c + 1;
		KGEN_CU(cu, err, cuMemAlloc, (&in->base[c], bytes ? bytes : 16));
		if (bytes)
			KGEN_CU(cu, err, cuMemcpyHtoD, (in->base[c], in->host, bytes));
	}
	return KGEN_OK;
}

/* ---- transposes ---- */

/* One transpose input: random bits, on the host and the device, and an output buffer. */
struct tinput {
	int esize;
	unsigned long long rows, cols;
	unsigned char *host, *back;
	CUdeviceptr in, out;
};

static void
free_tinput(kgen_context *ctx, struct tinput *t)
{
	if (t->in)
		ctx->cu->cuMemFree(t->in);
	if (t->out)
		ctx->cu->cuMemFree(t->out);
	free(t->host);
	free(t->back);
	memset(t, 0, sizeof *t);
}

static kgen_status
make_tinput(kgen_context *ctx, const struct run_opts *o, int esize, unsigned long long rows, unsigned long long cols,
            struct tinput *t, kgen_error *err)
{
	const struct kgen_cu *cu = ctx->cu;
	size_t bytes = (size_t)(rows * cols) * (size_t)esize, i;
	uint64_t st = o->seed ^ (rows * 0x9e3779b97f4a7c15ull) ^ cols;

	if (t->host && t->esize == esize && t->rows == rows && t->cols == cols)
		return KGEN_OK;
	free_tinput(ctx, t);
	if (!(t->host = malloc(bytes + 8)) || !(t->back = malloc(bytes + 8)))
		return kgen_fail(err, KGEN_ENOMEM, "out of host memory for two %zu-byte matrices", bytes);
	for (i = 0; i < bytes; i += 8) {
		uint64_t r = kgen_splitmix64(&st);
		memcpy(t->host + i, &r, 8);
	}
	t->esize = esize;
	t->rows = rows;
	t->cols = cols;
	KGEN_CU(cu, err, cuMemAlloc, (&t->in, bytes));
	KGEN_CU(cu, err, cuMemAlloc, (&t->out, bytes));
	KGEN_CU(cu, err, cuMemcpyHtoD, (t->in, t->host, bytes));
	return KGEN_OK;
}

/* Count the elements of `back` (cols x rows) that are not the transpose of
 * `host` (rows x cols), comparing every element's bytes; the first bad one
 * goes into msg.  Blocked, so that both matrices are read from cache. */
static unsigned long long
transpose_errors(const struct tinput *t, char *msg, size_t len)
{
	unsigned long long r0, c0, r, c, bad = 0, rows = t->rows, cols = t->cols;

	/* Elements compared as integers of their size: every bit counts. */
#define SAME(type) (((const type *)t->host)[r * cols + c] == ((const type *)t->back)[c * rows + r])
	for (r0 = 0; r0 < rows; r0 += 64)
		for (c0 = 0; c0 < cols; c0 += 64)
			for (r = r0; r < r0 + 64 && r < rows; r++)
				for (c = c0; c < c0 + 64 && c < cols; c++)
					if (!(t->esize == 2 ? SAME(uint16_t) : t->esize == 4 ? SAME(uint32_t) : SAME(uint64_t)) &&
					    !bad++)
						snprintf(msg, len, "out[%llu][%llu] is not in[%llu][%llu]", c, r, r, c);
#undef SAME
	return bad;
}

static int
run_transposes(kgen_context *ctx, const struct run_opts *o, kgen_spec **specs, kgen_kernel **kernels,
               char **paths, int nspecs, FILE *tsv, int *failures, kgen_error *err)
{
	const struct kgen_cu *cu = ctx->cu;
	struct tinput t;
	kgen_status st = KGEN_OK;
	int i, j;

	memset(&t, 0, sizeof t);
	for (j = 0; j < o->nshape && !st; j++) {
		unsigned long long rows = o->shape[j][0], cols = o->shape[j][1];
		double copy_ms = -1;
		size_t copy_bytes = 0;  /* what copy_ms copied: specs of other dtypes need their own */

		for (i = 0; i < nspecs && !st; i++) {
			kgen_spec *spec = specs[i];
			int esize = kgen_spec_dtype(spec)->size;
			size_t bytes = (size_t)(rows * cols) * (size_t)esize;
			char msg[1100] = "-";
			const char *verdict = "-";
			float ms = -1;

			if (spec->kernel != KGEN_TRANSPOSE)
				continue;
			if ((st = make_tinput(ctx, o, esize, rows, cols, &t, err)) || (st = kgen_context_enter(ctx, err)))
				break;
			if (o->verify) {
				cu->cuMemsetD8Async(t.out, 0xff, bytes, NULL);
				st = kgen_transpose(kernels[i], t.in, t.out, rows, cols, NULL, err);
				if (!st && cu->cuCtxSynchronize())
					st = kgen_fail(err, KGEN_ECUDA, "the kernel failed (cuCtxSynchronize)");
				if (!st && cu->cuMemcpyDtoH(t.back, t.out, bytes))
					st = kgen_fail(err, KGEN_ECUDA, "cuMemcpyDtoH() failed");
				if (st == KGEN_EINVAL) {
					snprintf(msg, sizeof msg, "%s", err->message);
					verdict = "rejected";
					st = KGEN_OK;
				} else if (!st) {
					unsigned long long bad = transpose_errors(&t, msg, sizeof msg);
					verdict = bad ? "FAIL" : "ok";
					if (bad) {
						size_t l = strlen(msg);
						snprintf(msg + l, sizeof msg - l, "; %llu of %llu elements wrong", bad, rows * cols);
						(*failures)++;
					} else {
						snprintf(msg, sizeof msg, "all %llu elements checked", rows * cols);
					}
				}
			}
			if (!st && o->bench && strcmp(verdict, "rejected") && strcmp(verdict, "FAIL")) {
				struct timed tk = { TIME_TRANSPOSE, kernels[i], NULL, &t.in, 1, 0, t.out, 0, rows, cols };
				if ((st = kgen_median_ms(ctx, &tk, o->runs, &ms, err)))
					break;
				if (copy_bytes != bytes) {
					struct timed tc = { TIME_COPY, NULL, NULL, &t.in, 1, bytes, t.out, 0, 0, 0 };
					float cms;
					if ((st = kgen_median_ms(ctx, &tc, o->runs, &cms, err)))
						break;
					copy_ms = cms;
					copy_bytes = bytes;
					printf("# device-to-device copy of %zu MB: %.2f us, %.1f GB/s (read + write)\n", bytes >> 20,
					       cms * 1e3, 2.0 * (double)bytes / (cms * 1e-3) / 1e9);
				}
			}
			printf("%-48s %llux%llu  %-8s", paths[i], rows, cols, verdict);
			if (ms >= 0)
				printf(" %10.2f us %8.1f GB/s  copy %8.1f GB/s  kgen/copy %.3f", ms * 1e3,
				       2.0 * (double)bytes / (ms * 1e-3) / 1e9, 2.0 * (double)bytes / (copy_ms * 1e-3) / 1e9,
				       copy_ms / ms);
			printf("  %s\n", msg);
			if (tsv)
				fprintf(tsv, "%s\t%s\ttranspose\t%llux%llu\t%s\t%.3f\t%.1f\t-1\t-1\t%.3f\t%.1f\t%.3f\n", paths[i],
				        kgen_spec_dtype(spec)->name, rows, cols, verdict, ms * 1e3,
				        ms > 0 ? 2.0 * (double)bytes / (ms * 1e-3) / 1e9 : -1, copy_ms * 1e3,
				        copy_ms > 0 ? 2.0 * (double)bytes / (copy_ms * 1e-3) / 1e9 : -1,
				        copy_ms > 0 && ms > 0 ? copy_ms / ms : -1);
			fflush(stdout);
		}
	}
	free_tinput(ctx, &t);
	return st;
}

int
kgen_cmd_runtime(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "n", required_argument, NULL, 'n' }, { "verify", no_argument, NULL, 'v' },
		{ "bench", no_argument, NULL, 'b' }, { "seed", required_argument, NULL, 'S' },
		{ "runs", required_argument, NULL, 'r' }, { "device", required_argument, NULL, 'd' },
		{ "offset", required_argument, NULL, 'O' }, { "set", required_argument, NULL, 's' },
		{ "tsv", required_argument, NULL, 't' }, { "cub", required_argument, NULL, 'c' },
		{ "shape", required_argument, NULL, 'x' },
		{ "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 },
	};
	struct run_opts o;
	kgen_context *ctx = NULL;
	struct input in;
	struct probe probe;
	kgen_error err;
	kgen_status st = KGEN_OK;
	FILE *tsv = NULL;
	int c, i, j, failures = 0, rc = 0, nspecs = 0;
	kgen_spec **specs = NULL;
	kgen_kernel **kernels = NULL;
	double ceiling_gbs = -1;     /* the read ceiling, measured on ceiling_bytes bytes */
	size_t ceiling_bytes = 0;

	if (strcmp(argv[0], "cache") == 0)
		return cmd_cache(argc, argv);
	if (strcmp(argv[0], "info") == 0)
		return cmd_info();
	memset(&o, 0, sizeof o);
	memset(&in, 0, sizeof in);
	memset(&probe, 0, sizeof probe);
	o.runs = 20;
	o.seed = 20261121;
	while ((c = getopt_long(argc, argv, "n:s:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'n':
			if (o.nn == 32 || parse_n(optarg, &o.n[o.nn])) {
				fprintf(stderr, "kgen run: bad --n %s (e.g. 1000, 16M, 2^30, 2^24+7)\n", optarg);
				return 2;
			}
			o.nn++;
			break;
		case 'x': {
			char *x = strchr(optarg, 'x');
			if (o.nshape == 32 || !x || (*x = '\0', parse_n(optarg, &o.shape[o.nshape][0])) ||
			    parse_n(x + 1, &o.shape[o.nshape][1]) || !o.shape[o.nshape][0] || !o.shape[o.nshape][1]) {
				if (x)
					*x = 'x';
				fprintf(stderr, "kgen run: bad --shape %s (ROWSxCOLS, e.g. 8192x8192, 1x2^20)\n", optarg);
				return 2;
			}
			*x = 'x';
			o.nshape++;
			break;
		}
		case 'v': o.verify = 1; break;
		case 'b': o.bench = 1; break;
		case 'S': o.seed = strtoull(optarg, NULL, 0); break;
		case 'r': o.runs = atoi(optarg); break;
		case 'd': o.device = atoi(optarg); break;
		case 'O': o.offset = atoi(optarg); break;
		case 's':
			if (o.nsets == 64)
				return 2;
			o.sets[o.nsets++] = optarg;
			break;
		case 't': o.tsv = optarg; break;
		case 'c': o.cub = optarg; break;
		case 'h': run_usage(stdout); return 0;
		default: run_usage(stderr); return 2;
		}
	}
	if (optind >= argc || o.runs < 1 || o.offset < 0 || o.offset > 64) {
		run_usage(stderr);
		return 2;
	}
	if (!o.verify && !o.bench)
		o.verify = 1;
	if (!o.nn)
		o.n[o.nn++] = 1ull << 24;
	if (!o.nshape) {
		o.shape[0][0] = o.shape[0][1] = 8192;
		o.nshape = 1;
	}
	if (o.tsv && !(tsv = fopen(o.tsv, "w"))) {
		fprintf(stderr, "kgen run: cannot write %s: %s\n", o.tsv, strerror(errno));
		return 3;
	}
	if ((st = kgen_context_create(o.device, &ctx, &err))) {
		rc = kgen_report(&err);
		goto out;
	}
	printf("# kgen %s on %s (%s, %d SMs, %zu MB L2), seed %llu\n", kgen_version(), ctx->name, ctx->arch, ctx->sm_count,
	       ctx->l2_bytes >> 20, o.seed);
	if (tsv)
		fprintf(tsv, "spec\tdtype\top\tn\tverify\ttime_us\tgbs\tceiling_gbs\tpct_ceiling\tcub_us\tcub_gbs\tkgen_vs_cub\n");
	nspecs = argc - optind;
	if (!(specs = calloc((size_t)nspecs, sizeof *specs)) || !(kernels = calloc((size_t)nspecs, sizeof *kernels))) {
		rc = kgen_report((kgen_fail(&err, KGEN_ENOMEM, "out of memory"), &err));
		goto out;
	}
	for (i = 0; i < nspecs; i++)
		if ((st = kgen_cli_load(argv[optind + i], o.sets, o.nsets, &specs[i], &err)) ||
		    (st = kgen_kernel_build(ctx, specs[i], &kernels[i], &err))) {
			fprintf(stderr, "%s: ", argv[optind + i]);
			rc = kgen_report(&err);
			goto out;
		}
	/* Sizes outside, specs inside: one input serves every spec of its dtype and op. */
	for (j = 0; j < o.nn; j++) {
		for (i = 0; i < nspecs; i++) {
			kgen_spec *spec = specs[i];
			kgen_kernel *k = kernels[i];
			const char *path = argv[optind + i];

			if (spec->kernel != KGEN_REDUCE)
				continue;
			unsigned long long n = o.n[j];
			size_t esize = (size_t)kgen_spec_dtype(spec)->size, bytes = (size_t)n * esize;
			size_t asize = (size_t)kgen_spec_acc(spec)->size;
			int copies = 1;
			unsigned char got[8];
			char msg[1100] = "-";
			const char *verdict = "-";
			float ms = -1;
			double cub = -1, gbs = -1;
			CUdeviceptr out = 0, inptr;

			if (o.bench && bytes < 2 * ctx->l2_bytes && bytes)
				copies = (int)((2 * ctx->l2_bytes + bytes - 1) / bytes) > 64 ? 64 : (int)((2 * ctx->l2_bytes + bytes - 1) / bytes);
			if ((st = make_input(ctx, &o, spec, n, copies, &in, &err)))
				break;
			if ((st = kgen_context_enter(ctx, &err)))
				break;
			if (ctx->cu->cuMemAlloc(&out, 16)) {
				st = kgen_fail(&err, KGEN_ECUDA, "cuMemAlloc() failed");
				break;
			}
			inptr = in.base[0] + (CUdeviceptr)((size_t)o.offset * esize);
			if (o.verify) {
				/* Poison the result, run, read back, compare. */
				ctx->cu->cuMemsetD8Async(out, 0xff, 16, NULL);
				st = kgen_reduce(k, inptr, n, out, 0, 0, NULL, &err);
				if (!st && ctx->cu->cuCtxSynchronize())
					st = kgen_fail(&err, KGEN_ECUDA, "the kernel failed (cuCtxSynchronize)");
				if (!st && ctx->cu->cuMemcpyDtoH(got, out, asize))
					st = kgen_fail(&err, KGEN_ECUDA, "cuMemcpyDtoH() failed");
				if (st == KGEN_EINVAL) {
					/* The spec cannot take this input (alignment, size): say so, go on. */
					snprintf(msg, sizeof msg, "%s", err.message);
					verdict = "rejected";
					st = KGEN_OK;
				} else if (!st) {
					int ok = kgen_check_result(spec, got, n, &in.ref, msg, sizeof msg);
					verdict = ok ? "ok" : "FAIL";
					failures += !ok;
				}
			}
			if (!st && o.bench && strcmp(verdict, "rejected") && strcmp(verdict, "FAIL")) {
				struct timed t = { TIME_REDUCE, k, NULL, in.base, in.copies, n, out, 0, 0, 0 };
				CUdeviceptr shifted[64];
				for (c = 0; c < in.copies; c++)
					shifted[c] = in.base[c] + (CUdeviceptr)((size_t)o.offset * esize);
				t.in = shifted;
				if ((st = kgen_median_ms(ctx, &t, o.runs, &ms, &err)))
					break;
				gbs = (double)bytes / (ms * 1e-3) / 1e9;
				if (bytes >= (64u << 20) && ceiling_bytes != bytes) {
					struct timed p = { TIME_PROBE, NULL, &probe, in.base, 1, bytes, 0, 4 * ctx->sm_count, 0, 0 };
					float pms;
					if ((st = kgen_probe_load(ctx, &probe, &err)) || (st = kgen_median_ms(ctx, &p, o.runs, &pms, &err)))
						break;
					ceiling_gbs = (double)(bytes / 16 * 16) / (pms * 1e-3) / 1e9;
					ceiling_bytes = bytes;
					printf("# read-bandwidth ceiling (16-byte loads, %zu MB): %.0f GB/s\n", bytes >> 20, ceiling_gbs);
				}
				cub = kgen_cub_ms(o.cub, o.runs, spec, n, ctx->l2_bytes);
			}
			ctx->cu->cuMemFree(out);
			printf("%-48s n=%-11llu %-8s", path, n, verdict);
			if (ms >= 0) {
				printf(" %10.2f us %8.1f GB/s", ms * 1e3, gbs);
				if (ceiling_gbs > 0 && ceiling_bytes == bytes)
					printf(" %5.1f%%", 100 * gbs / ceiling_gbs);
				if (cub > 0)
					printf("  CUB %10.2f us  kgen/CUB %.3f", cub * 1e3, cub / ms);
			}
			printf("  %s\n", msg);
			if (tsv)
				fprintf(tsv, "%s\t%s\t%s\t%llu\t%s\t%.3f\t%.1f\t%.1f\t%.1f\t%.3f\t%.1f\t%.3f\n", path,
				        kgen_spec_dtype(spec)->name, kgen_ops[spec->op].name, n, verdict, ms * 1e3, gbs,
				        ceiling_bytes == bytes ? ceiling_gbs : -1,
				        ceiling_bytes == bytes && gbs > 0 ? 100 * gbs / ceiling_gbs : -1, cub * 1e3,
				        cub > 0 ? (double)bytes / (cub * 1e-3) / 1e9 : -1, cub > 0 && ms > 0 ? cub / ms : -1);
			fflush(stdout);
		}
		if (st) {
			rc = kgen_report(&err);
			goto out;
		}
	}
	if ((st = run_transposes(ctx, &o, specs, kernels, argv + optind, nspecs, tsv, &failures, &err))) {
		rc = kgen_report(&err);
		goto out;
	}
	if (failures) {
		fprintf(stderr, "kgen run: %d result(s) did not verify\n", failures);
		rc = 6;
	}
out:
	if (ctx) {
		free_input(ctx, &in);
		if (probe.module) {
			ctx->cu->cuMemFree(probe.sink);
			ctx->cu->cuModuleUnload(probe.module);
		}
	}
	kgen_context_destroy(ctx);
	for (i = 0; i < nspecs && specs; i++)
		kgen_spec_free(specs[i]);
	free(specs);
	free(kernels);
	if (tsv)
		fclose(tsv);
	return rc;
}
