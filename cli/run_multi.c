/*
 * run_multi.c - `kgen run --devices 0,1,...` (issue 26): a reduce spec, or
 * a reduce_axis one with axis: cols, over data spread on several GPUs
 * through kgen_multi_*.  Each --n is the elements of each GPU (each
 * --shape ROWSxCOLS the rows of each GPU): the seeded input of all of them
 * together is made on the host, split across the GPUs in order, and every
 * GPU's result (each gets it: root KGEN_MULTI_ALL) is checked against the
 * CPU reference of the whole.  --bench times the multi-GPU call against
 * the slowest GPU's kgen reduction of its own part alone, both by the
 * host's clock around the call and the streams' synchronisation (median
 * of --runs), and reports the ratio.
 */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cli.h"
#include "run.h"
#include "reference.h"

/* "0,1,3" into devices; the count, or -1 with why in err. */
int
kgen_parse_devices(const char *text, int *devices, int most, kgen_error *err)
{
	const char *p = text;
	char *end;
	int n = 0;
	long d;

	for (;;) {
		d = strtol(p, &end, 10);
		if (end == p || d < 0 || d > 1024 || (*end && *end != ',')) {
			kgen_fail(err, KGEN_EINVAL, "--devices %s: a list of GPU numbers, e.g. 0,1", text);
			return -1;
		}
		if (n == most) {
			kgen_fail(err, KGEN_EINVAL, "--devices %s: more than %d GPUs", text, most);
			return -1;
		}
		devices[n++] = (int)d;
		if (!*end)
			return n;
		p = end + 1;
	}
}

/* One spec at one size over the set: the input of every GPU, the outputs,
 * the references of the whole (one, or one per column). */
struct split {
	const kgen_spec *spec;
	kgen_multi_kernel *k;
	int count;                          /* GPUs */
	int axis;                           /* a reduce_axis spec */
	unsigned long long each, cols;      /* per GPU: elements, or rows of cols */
	unsigned long long results;         /* 1, or cols */
	void *host;                         /* every GPU's input, in order */
	struct reference *ref;              /* results of them */
	kgen_devptr in[64], value[64], index[64];
	unsigned long long n[64];
};

static double
now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static void
free_split(kgen_multi *m, struct split *sp)
{
	int i;

	for (i = 0; i < sp->count; i++) {
		kgen_context *ctx = kgen_multi_context(m, i);
		kgen_context_enter(ctx, NULL);
		if (sp->in[i])
			ctx->cu->cuMemFree(sp->in[i]);
		if (sp->value[i])
			ctx->cu->cuMemFree(sp->value[i]);
	}
	free(sp->host);
	free(sp->ref);
}

/* The references of the whole input: its one result, or each column's. */
static void
references(struct split *sp)
{
	const struct kgen_spec *s = sp->spec;
	size_t esize = (size_t)s->r.dtype->size;
	unsigned long long r, c, rows = sp->each * (unsigned long long)sp->count;

	if (!sp->axis) {
		kgen_reference(s, sp->host, sp->each * (unsigned long long)sp->count, &sp->ref[0]);
		return;
	}
	for (c = 0; c < sp->cols; c++)
		kgen_reference_init(s, &sp->ref[c]);
	for (r = 0; r < rows; r++)
		for (c = 0; c < sp->cols; c++)
			kgen_reference_add(s, &sp->ref[c], (const char *)sp->host + (size_t)(r * sp->cols) * esize, c);
	for (c = 0; c < sp->cols; c++)
		kgen_reference_finish(s, &sp->ref[c]);
}

/* The seeded input of every GPU, its references, and each GPU's part and
 * outputs on that GPU. */
static kgen_status
prepare(kgen_multi *m, const struct run_opts *o, struct split *sp, kgen_error *err)
{
	const struct kgen_spec *s = sp->spec;
	size_t esize = (size_t)s->r.dtype->size, part = (size_t)(sp->each * sp->cols) * esize;
	unsigned long long total = sp->each * sp->cols * (unsigned long long)sp->count;
	kgen_status st;
	int i;

	if (kgen_run_too_large(total, 1, esize))
		return kgen_fail(err, KGEN_EINVAL, "%llu elements in all are too many for this host", total);
	if (!(sp->host = malloc(total ? (size_t)total * esize : 1)) || !(sp->ref = calloc(sp->results, sizeof *sp->ref)))
		return kgen_fail(err, KGEN_ENOMEM, "out of host memory for %llu elements", total);
	if ((st = kgen_fill_run(s, o, sp->host, total, o->seed ^ (total * 0x9e3779b97f4a7c15ull), err)))
		return st;
	references(sp);
	for (i = 0; i < sp->count; i++) {
		kgen_context *ctx = kgen_multi_context(m, i);
		sp->n[i] = sp->each;
		if ((st = kgen_context_enter(ctx, err)))
			return st;
		KGEN_CU(ctx->cu, err, cuMemAlloc, (&sp->in[i], part ? part : 1));
		KGEN_CU(ctx->cu, err, cuMemcpyHtoD, (sp->in[i], (const char *)sp->host + (size_t)i * part, part));
		/* The values, then (a pair's) indices at 8-byte alignment. */
		KGEN_CU(ctx->cu, err, cuMemAlloc, (&sp->value[i], (size_t)sp->results * 16 + 16));
		sp->index[i] = sp->value[i] + ((size_t)sp->results * 8 + 15) / 16 * 16;
	}
	return KGEN_OK;
}

static kgen_status
call(struct split *sp, kgen_error *err)
{
	int pair = sp->spec->r.pair;

	if (sp->axis)
		return pair ? kgen_multi_reduce_axis_arg(sp->k, sp->in, sp->n, sp->cols, 0, sp->value, sp->index,
		                                         KGEN_MULTI_ALL, NULL, err)
		            : kgen_multi_reduce_axis(sp->k, sp->in, sp->n, sp->cols, 0, sp->value, KGEN_MULTI_ALL, NULL, err);
	return pair ? kgen_multi_reduce_arg(sp->k, sp->in, sp->n, sp->value, sp->index, KGEN_MULTI_ALL, NULL, err)
	            : kgen_multi_reduce(sp->k, sp->in, sp->n, sp->value, KGEN_MULTI_ALL, NULL, err);
}

static kgen_status
sync_all(kgen_multi *m, kgen_error *err)
{
	int i;

	for (i = 0; i < kgen_multi_count(m); i++) {
		kgen_context *ctx = kgen_multi_context(m, i);
		kgen_status st = kgen_context_enter(ctx, err);
		if (st)
			return st;
		KGEN_CU(ctx->cu, err, cuCtxSynchronize, ());
	}
	return KGEN_OK;
}

/* Every GPU's results against the references; the wrong ones counted,
 * the first described in msg. */
static kgen_status
check(kgen_multi *m, struct split *sp, int *bad, char *msg, size_t len, kgen_error *err)
{
	const struct kgen_spec *s = sp->spec;
	size_t asize = kgen_result_size(s);
	unsigned long long each = sp->axis ? sp->each * (unsigned long long)sp->count : sp->each * (unsigned long long)sp->count;
	unsigned long long j;
	unsigned char got[16];
	kgen_status st;
	int i;

	*bad = 0;
	for (i = 0; i < sp->count; i++) {
		kgen_context *ctx = kgen_multi_context(m, i);
		if ((st = kgen_context_enter(ctx, err)))
			return st;
		KGEN_CU(ctx->cu, err, cuMemsetD8Async, (sp->value[i], 0xff, (size_t)sp->results * 16 + 16, NULL));
	}
	if ((st = call(sp, err)) || (st = sync_all(m, err)))
		return st;
	for (i = 0; i < sp->count; i++) {
		kgen_context *ctx = kgen_multi_context(m, i);
		kgen_context_enter(ctx, NULL);
		for (j = 0; j < sp->results; j++) {
			memset(got, 0, sizeof got);
			KGEN_CU(ctx->cu, err, cuMemcpyDtoH, (got, sp->value[i] + j * asize, asize));
			if (s->r.pair)
				KGEN_CU(ctx->cu, err, cuMemcpyDtoH, (got + 8, sp->index[i] + j * 8, 8));
			if (!kgen_result_ok(s, got, each, &sp->ref[j]) && !(*bad)++) {
				int l = snprintf(msg, len, "GPU %d%s", i, sp->axis ? "" : ": ");
				if (sp->axis)
					l += snprintf(msg + l, len - (size_t)l, " column %llu: ", j);
				kgen_check_result(s, got, each, &sp->ref[j], msg + l, len - (size_t)l);
			}
		}
	}
	if (!*bad)
		snprintf(msg, len, "every GPU's %llu result%s checked", sp->results, sp->results == 1 ? "" : "s");
	return KGEN_OK;
}

static int
by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The median host time of `runs` calls of the multi kernel (gpu < 0) or
 * of GPU gpu's kernel alone on its part, each followed by the
 * synchronisation of the GPUs involved; 3 warm-up calls first. */
static kgen_status
wall_ms(kgen_multi *m, struct split *sp, kgen_kernel *alone, int gpu, int runs, double *ms, kgen_error *err)
{
	double t[256], t0;
	int r, pair = sp->spec->r.pair;
	kgen_context *ctx = gpu >= 0 ? kgen_multi_context(m, gpu) : NULL;
	kgen_status st = KGEN_OK;

	if (runs > 256)
		runs = 256;
	for (r = -3; r < runs && !st; r++) {
		t0 = now_ms();
		if (gpu < 0) {
			st = call(sp, err);
		} else if (sp->axis) {
			st = pair ? kgen_reduce_axis_arg(alone, sp->in[gpu], sp->each, sp->cols, sp->cols, sp->value[gpu],
			                                 sp->index[gpu], 0, 0, NULL, err)
			          : kgen_reduce_axis(alone, sp->in[gpu], sp->each, sp->cols, sp->cols, sp->value[gpu], 0, 0, NULL, err);
		} else {
			st = pair ? kgen_reduce_arg(alone, sp->in[gpu], sp->each, sp->value[gpu], sp->index[gpu], 0, 0, NULL, err)
			          : kgen_reduce(alone, sp->in[gpu], sp->each, sp->value[gpu], 0, 0, NULL, err);
		}
		if (!st && gpu < 0)
			st = sync_all(m, err);
		else if (!st && (st = kgen_context_enter(ctx, err)) == KGEN_OK && ctx->cu->cuCtxSynchronize())
			st = kgen_fail(err, KGEN_ECUDA, "the kernel failed (cuCtxSynchronize)");
		if (r >= 0)
			t[r] = now_ms() - t0;
	}
	if (st)
		return st;
	qsort(t, (size_t)runs, sizeof *t, by_value);
	*ms = t[runs / 2];
	return KGEN_OK;
}

/* --bench: the multi-GPU call, and the slowest GPU's own reduction alone. */
static kgen_status
bench(kgen_multi *m, const struct run_opts *o, struct split *sp, double *multi, double *slowest, int *which,
      kgen_error *err)
{
	kgen_status st;
	double t;
	int i;

	if ((st = wall_ms(m, sp, NULL, -1, o->runs, multi, err)))
		return st;
	*slowest = -1;
	for (i = 0; i < sp->count; i++) {
		kgen_kernel *alone;
		if ((st = kgen_kernel_build(kgen_multi_context(m, i), sp->spec, &alone, err)) ||
		    (st = wall_ms(m, sp, alone, i, o->runs, &t, err)))
			return st;
		if (t > *slowest) {
			*slowest = t;
			*which = i;
		}
	}
	return KGEN_OK;
}

/* One spec at one size: verify, time, print a line. */
static kgen_status
run_one(kgen_multi *m, const struct run_opts *o, const char *path, struct split *sp, int *failures, kgen_error *err)
{
	char msg[1200], size[64];
	double multi = -1, alone = -1;
	int bad = 0, which = 0;
	kgen_status st;

	if (sp->axis)
		snprintf(size, sizeof size, "%dx(%llux%llu)", sp->count, sp->each, sp->cols);
	else
		snprintf(size, sizeof size, "%dx%llu", sp->count, sp->each);
	if ((st = prepare(m, o, sp, err)))
		return st;
	if (o->verify && (st = check(m, sp, &bad, msg, sizeof msg, err)))
		return st;
	if (!o->verify)
		snprintf(msg, sizeof msg, "-");
	*failures += bad > 0;
	if (o->bench && !bad && (st = bench(m, o, sp, &multi, &alone, &which, err)))
		return st;
	printf("%-48s %-22s %-5s", path, size, !o->verify ? "-" : bad ? "FAIL" : "ok");
	if (multi >= 0)
		printf(" %10.2f us  GPU %d alone %10.2f us  multi/alone %.3f", multi * 1e3, which, alone * 1e3, multi / alone);
	printf("  %s\n", msg);
	fflush(stdout);
	return KGEN_OK;
}

/* Each spec at each size; the spec is refused when the set does not run its family. */
static kgen_status
run_spec(kgen_multi *m, const struct run_opts *o, const char *path, kgen_spec *spec, int *failures, kgen_error *err)
{
	struct split sp;
	kgen_multi_kernel *k;
	kgen_status st;
	int j, axis = kgen_family_of(spec)->size == KGEN_SIZE_SHAPE, sizes = axis ? o->nshape : o->nn;

	if ((st = kgen_multi_build(m, spec, &k, err)))
		return st;
	for (j = 0; j < sizes; j++) {
		memset(&sp, 0, sizeof sp);
		sp.spec = spec;
		sp.k = k;
		sp.count = kgen_multi_count(m);
		sp.axis = axis;
		sp.each = axis ? o->shape[j][0] : o->n[j];
		sp.cols = axis ? o->shape[j][1] : 1;
		sp.results = axis ? sp.cols : 1;
		st = run_one(m, o, path, &sp, failures, err);
		free_split(m, &sp);
		if (st)
			return st;
	}
	return KGEN_OK;
}

/* What --devices does not take, before a GPU is touched. */
static kgen_status
refuse(const struct run_opts *o, const kgen_spec *s, kgen_error *err)
{
	const char *why = kgen_multi_gpu_refusal(s);

	if (why)
		return kgen_fail(err, KGEN_EINVAL, "--devices: a kernel: %s spec: %s", kgen_families[s->kernel].name, why);
	if (o->offset || o->pad || o->extreme || o->nan || o->tsv || o->json || o->method)
		return kgen_fail(err, KGEN_EINVAL, "--devices does not take --offset, --pad, --extreme, --nan, --method, --tsv "
		                 "or --json");
	return KGEN_OK;
}

int
kgen_run_multi(const struct run_opts *o, char **paths, int npaths)
{
	int devices[64], count, i, rc = 0, failures = 0;
	kgen_spec *specs[64] = { NULL };
	kgen_multi *m = NULL;
	kgen_error err;

	if ((count = kgen_parse_devices(o->devices, devices, 64, &err)) < 0)
		return kgen_report(&err);
	if (npaths > 64)
		npaths = 64;
	for (i = 0; i < npaths; i++)
		if (strncmp(paths[i], "shipped:", 8) == 0) {
			kgen_fail(&err, KGEN_EINVAL, "%s: --devices takes specs, not size plans (a shipped plan runs on one GPU: "
			          "kgen run %s without --devices)", paths[i], paths[i]);
			rc = kgen_report(&err);
			goto out;
		} else if (kgen_cli_load(paths[i], o->sets, o->nsets, &specs[i], &err) || refuse(o, specs[i], &err)) {
			if (!err.file[0])
				snprintf(err.file, sizeof err.file, "%s", paths[i]);
			rc = kgen_report(&err);
			goto out;
		}
	if (kgen_multi_create(devices, count, &m, &err)) {
		rc = kgen_report(&err);
		goto out;
	}
	printf("# kgen %s on %d GPUs (%s", kgen_version(), count, kgen_context_device_name(kgen_multi_context(m, 0)));
	for (i = 1; i < count; i++)
		printf(", %s", kgen_context_device_name(kgen_multi_context(m, i)));
	printf("), devices %s, seed %llu\n", o->devices, o->seed);
	for (i = 0; i < npaths && !rc; i++)
		if (run_spec(m, o, paths[i], specs[i], &failures, &err)) {
			fprintf(stderr, "%s: ", paths[i]);
			rc = kgen_report(&err);
		}
	if (!rc && failures) {
		fprintf(stderr, "kgen run: %d result(s) did not verify\n", failures);
		rc = 6;
	}
out:
	kgen_multi_destroy(m);
	for (i = 0; i < npaths; i++)
		kgen_spec_free(specs[i]);
	return rc;
}
