/*
 * jit_phases - where a cold build of each spec goes, phase by phase, beside
 * the floor: NVRTC compiling an empty kernel in the same process.
 *
 *   jit_phases [--runs R] [--nvrtc-phases] SPEC...
 *
 * For each spec (a size plan: each of its entries, as file#i):
 *   parse      kgen_spec_load_file() (a plan's entry: kgen_plan_load_file()
 *              over the plan's entry count);
 *   cold       kgen_kernel_build() on a fresh context and an empty disk cache,
 *              split by kgen_kernel_build_times(): generate, disk-cache read
 *              (a miss), nvrtcCompileProgram, the cubin fetched, disk-cache
 *              write, module load, and the whole build (a spec of several
 *              kernels compiles them side by side where KGEN_JIT_THREADS,
 *              default the online CPUs, is above 1: its programs' phases
 *              are summed and can pass the whole build's wall time); a
 *              spec built lazily (strategy auto's alternative kernels, built
 *              at their first launch) has each of its kernels built after
 *              the build, one by one, and its cold figure is what a first
 *              call costs at most: the build and its slowest kernel; `all`
 *              is the build and every kernel;
 *   hit        the same build on R more fresh contexts, read from the disk
 *              cache: the read, the module load and the whole build, medians;
 *   again      R - 1 more builds on fresh contexts with the disk cache off,
 *              median: NVRTC compiling the same source again (or NVRTC's own
 *              cache answering, where NVRTC keeps one: 12.9 and later, with a
 *              driver; CUDA_CACHE_DISABLE=1 turns it off);
 *   FE/NVVM/ptxas  (--nvrtc-phases) NVRTC's own split of one more compile
 *              with kgen's options (its --time report, whole milliseconds).
 * The floor: NVRTC (its defaults and --gpu-architecture only) compiling
 * `extern "C" __global__ void empty_N() {}` to a cubin, 10 times before the
 * specs, once before each spec and 10 times after (so that a machine busier
 * at times weighs on the floor as on the specs), each a new kernel name so
 * that no cache can answer; the median of them all, and the same with
 * kgen's options.  Every build's
 * context shares the primary context a first one holds for the whole run,
 * so a fresh context costs no driver start-up.  Needs a CUDA driver: a GPU,
 * or tests/fake_cuda/libcuda.so.1 first on LD_LIBRARY_PATH (module loads
 * then cost nothing and mean nothing).  bench/jit/jit-phases.sh runs it on
 * every shipped spec.
 */
#include "config.h"
#include <nvrtc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "kgen.h"
#include "gen/family.h"
#include "gen/spec.h"
#include "gen/util.h"
#include "runtime/runtime.h"

#define MAX_RUNS 64
#define FLOOR_RUNS 10  /* floor compiles of each kind before the specs, and as many after */
#define MAX_SPECS 4096

/* One spec's figures, in microseconds. */
struct row {
	char name[96];
	char family[32];       /* the spec's kernel: key */
	int owned;             /* the spec is the row's own, not a plan's */
	double parse;
	kgen_build_times cold, hit;  /* a lazy spec's: the build's and all its kernels' phases, summed */
	double first;          /* cold: the build and its slowest kernel (the build alone: one kernel) */
	double all;            /* cold: the build and every kernel */
	double slowest;        /* a lazy spec's slowest kernel alone, 0: not lazy */
	int kernels;           /* a lazy spec's kernels, 0: not lazy */
	double again;          /* median total of the builds after the first, -1: none */
	double fe, nvvm, ptx;  /* NVRTC's --time phases (ms as it reports them, in us), -1: not asked */
};

struct opts {
	int runs, nvrtc_phases;
};

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double
median(double *v, int n)
{
	if (n <= 0)
		return -1;
	qsort(v, (size_t)n, sizeof *v, cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* NVRTC on source with the architecture and `extra` options (space-separated,
 * may be NULL); the microseconds from nvrtcCreateProgram to the cubin in hand. */
static double
nvrtc_us(const char *source, const char *arch, const char *extra, kgen_error *err)
{
	char archopt[64], buf[512], *tok, *save = NULL;
	const char *opts[16];
	nvrtcProgram prog;
	nvrtcResult r;
	size_t n = 0;
	int nopts = 0;
	double t = kgen_clock_us();
	void *cubin;

	snprintf(archopt, sizeof archopt, "--gpu-architecture=%s", arch);
	opts[nopts++] = archopt;
	snprintf(buf, sizeof buf, "%s", extra ? extra : "");
	for (tok = strtok_r(buf, " ", &save); tok && nopts < 16; tok = strtok_r(NULL, " ", &save))
		opts[nopts++] = tok;
	if ((r = nvrtcCreateProgram(&prog, source, "floor.cu", 0, NULL, NULL)) != NVRTC_SUCCESS)
		return kgen_fail(err, KGEN_ECOMPILE, "nvrtcCreateProgram(): %s", nvrtcGetErrorString(r)), -1;
	if ((r = nvrtcCompileProgram(prog, nopts, opts)) == NVRTC_SUCCESS && (r = nvrtcGetCUBINSize(prog, &n)) == NVRTC_SUCCESS &&
	    (cubin = malloc(n))) {
		r = nvrtcGetCUBIN(prog, cubin);
		free(cubin);
	}
	nvrtcDestroyProgram(&prog);
	if (r != NVRTC_SUCCESS)
		return kgen_fail(err, KGEN_ECOMPILE, "NVRTC: %s", nvrtcGetErrorString(r)), -1;
	return kgen_clock_us() - t;
}

/* One floor compile: an empty kernel of a name never compiled before in
 * this process, with NVRTC's defaults (kgen_options 0) or kgen's options. */
static double
floor_us(const char *arch, int kgen_options, kgen_error *err)
{
	static unsigned serial;
	char source[128];
	void *image;
	size_t size;
	double t;

	snprintf(source, sizeof source, "extern \"C\" __global__ void empty_%ld_%u() {}\n", (long)getpid(), serial++);
	if (!kgen_options)
		return nvrtc_us(source, arch, NULL, err);
	t = kgen_clock_us();
	if (kgen_compile(source, "floor.cu", arch, KGEN_IMAGE_CUBIN, &image, &size, NULL, err) != KGEN_OK)
		return -1;
	free(image);
	return kgen_clock_us() - t;
}

/* Add `runs` floor compiles of each kind to plain[] and kgen[] from *n on. */
static int
floors(const char *arch, int runs, double *plain, double *kgen, int *n, kgen_error *err)
{
	int r;

	for (r = 0; r < runs; r++, (*n)++)
		if ((plain[*n] = floor_us(arch, 0, err)) < 0 || (kgen[*n] = floor_us(arch, 1, err)) < 0)
			return -1;
	return 0;
}

/* NVRTC's --time report of a compile with kgen's options (kgen_compile_phases,
 * as kgen compile --time reads it): the front end, NVVM and PTX-to-cubin
 * phases, in us. */
static int
nvrtc_phases(const char *source, const char *arch, struct row *w, kgen_error *err)
{
	struct kgen_nvrtc_phases ph;
	void *image = NULL;
	size_t size;

	w->fe = w->nvvm = w->ptx = 0;
	if (kgen_compile_phases(source, "floor.cu", arch, KGEN_IMAGE_CUBIN, &image, &size, NULL, NULL, &ph, err) != KGEN_OK)
		return -1;
	free(image);
	w->fe = ph.frontend_ms > 0 ? ph.frontend_ms * 1e3 : 0;
	w->nvvm = ph.nvvm_ms > 0 ? ph.nvvm_ms * 1e3 : 0;
	w->ptx = ph.ptxas_ms > 0 ? ph.ptxas_ms * 1e3 : 0;
	return 0;
}

/* What one build cost: its phases (a lazy spec's summed over the build
 * and each of its kernels), the build and its slowest kernel, the build
 * and every kernel, the slowest kernel alone, and how many kernels (0: not
 * built lazily). */
struct built {
	kgen_build_times t;
	double first, all, slowest;
	int kernels;
};

/* Build spec on a fresh context with the disk cache in dir (NULL: off),
 * then each kernel of a lazy kernel, one at a time; what it cost into *b. */
static int
build_once(const kgen_spec *spec, const char *dir, struct built *b, kgen_error *err)
{
	kgen_context *ctx;
	kgen_kernel *k;
	double t0, dt;
	int bad, i;

	memset(b, 0, sizeof *b);
	setenv("KGEN_CACHE", dir ? "1" : "0", 1);
	if (dir)
		setenv("KGEN_CACHE_DIR", dir, 1);
	if (kgen_context_create(0, &ctx, err) != KGEN_OK)
		return -1;
	bad = kgen_kernel_build(ctx, spec, &k, err) != KGEN_OK || kgen_kernel_build_times(k, &b->t, err) != KGEN_OK;
	b->first = b->all = b->t.total_us;
	for (i = 0; !bad && k->lazy && i < k->contract.nsteps; i++) {
		t0 = kgen_clock_us();
		bad = kgen_kernel_step(k, i, err) != KGEN_OK;
		dt = kgen_clock_us() - t0;
		b->slowest = dt > b->slowest ? dt : b->slowest;
		b->all += dt;
		b->kernels++;
	}
	b->first += b->slowest;
	bad = bad || kgen_kernel_build_times(k, &b->t, err) != KGEN_OK;
	kgen_context_destroy(ctx);
	return bad ? -1 : 0;
}

/* Every measurement of one spec into *w; dir is a disk cache no other spec uses. */
static int
measure(const kgen_spec *spec, const char *arch, const char *dir, const struct opts *o, struct row *w,
        kgen_error *err)
{
	double again[MAX_RUNS], read[MAX_RUNS], load[MAX_RUNS], total[MAX_RUNS];
	struct built b;
	char *source = NULL;
	int r;

	if (build_once(spec, dir, &b, err))
		return -1;
	w->cold = b.t;
	w->first = b.first;
	w->all = b.all;
	w->slowest = b.slowest;
	w->kernels = b.kernels;
	if (w->cold.disk_hits != 0)
		return kgen_fail(err, KGEN_EINTERNAL, "%s: the cold build was a disk hit", w->name), -1;
	for (r = 0; r < o->runs; r++) {
		if (build_once(spec, dir, &b, err))
			return -1;
		if (b.t.disk_hits != b.t.modules)  /* a module a kernel, for alternatives compiled apart */
			return kgen_fail(err, KGEN_EINTERNAL, "%s: a build after the cold one was not a disk hit", w->name), -1;
		read[r] = b.t.cache_read_us;
		load[r] = b.t.load_us;
		total[r] = b.first;
	}
	w->hit = b.t;
	w->hit.cache_read_us = median(read, o->runs);
	w->hit.load_us = median(load, o->runs);
	w->hit.total_us = median(total, o->runs);
	for (r = 1; r < o->runs; r++) {
		if (build_once(spec, NULL, &b, err))
			return -1;
		again[r - 1] = b.first;
	}
	w->again = median(again, o->runs - 1);
	w->fe = w->nvvm = w->ptx = -1;
	if (o->nvrtc_phases) {
		char spec_arch[16];  /* sm_90a for wgmma on sm_90, as the build compiles it */

		if (kgen_generate(spec, &source, err) != KGEN_OK)
			return -1;
		r = nvrtc_phases(source, kgen_spec_compile_arch(spec, arch, spec_arch, sizeof spec_arch), w, err);
		free(source);
		if (r)
			return -1;
	}
	return 0;
}

static void
print_header(const struct opts *o)
{
	printf("%-60s %6s %6s %6s %8s %6s %6s %6s %8s %8s | %6s %6s %6s | %8s", "spec (ms)", "parse", "gen", "miss",
	       "nvrtc", "cubin", "write", "load", "cold", "all", "read", "load", "hit", "again");
	if (o->nvrtc_phases)
		printf(" | %5s %5s %5s", "FE", "NVVM", "ptxas");
	printf(" | %s\n", "cold/floor");
}

static void
print_row(const struct row *w, double floor, const struct opts *o)
{
	const kgen_build_times *c = &w->cold, *h = &w->hit;
	const char *name = w->name;

	if (strlen(name) > 60)
		name += strlen(name) - 60;
	printf("%-60s %6.2f %6.2f %6.2f %8.2f %6.2f %6.2f %6.2f %8.2f %8.2f | %6.2f %6.2f %6.2f | ", name,
	       w->parse / 1e3, c->generate_us / 1e3, c->cache_read_us / 1e3, c->compile_us / 1e3, c->image_us / 1e3,
	       c->cache_write_us / 1e3, c->load_us / 1e3, (w->parse + w->first) / 1e3, (w->parse + w->all) / 1e3,
	       h->cache_read_us / 1e3, h->load_us / 1e3, (w->parse + h->total_us) / 1e3);
	if (w->again >= 0)
		printf("%8.2f", (w->parse + w->again) / 1e3);
	else
		printf("%8s", "-");
	if (o->nvrtc_phases)
		printf(" | %5.0f %5.0f %5.0f", w->fe / 1e3, w->nvvm / 1e3, w->ptx / 1e3);
	printf(" | %.2f\n", (w->parse + w->first) / floor);
	fflush(stdout);
}

/* A spec file's specs: itself, or a size plan's entries; *n of them in
 * specs[], their names in w[], and what loading the file took (a plan's
 * entry: the plan's load over its entry count).  A plan is kept in *plans
 * for its specs. */
static int
load_specs(const char *path, const kgen_spec **specs, kgen_plan **plans, struct row *w, int max, int *n,
           kgen_error *err)
{
	kgen_spec *spec;
	char *text;
	size_t len;
	double t;
	int i, is_plan;

	if (kgen_read_file(path, &text, &len, err) != KGEN_OK)
		return -1;
	is_plan = kgen_plan_text_is_plan(text, len);
	free(text);
	t = kgen_clock_us();
	if (is_plan ? kgen_plan_load_file(path, plans, err) : kgen_spec_load_file(path, &spec, err))
		return -1;
	t = kgen_clock_us() - t;
	for (i = 0; i < (is_plan ? kgen_plan_count(*plans) : 1); i++, (*n)++) {
		if (*n >= max)
			return kgen_fail(err, KGEN_EINVAL, "more than %d specs", max), -1;
		memset(&w[*n], 0, sizeof w[*n]);
		if (is_plan)
			snprintf(w[*n].name, sizeof w[*n].name, "%s#%d", path, i);
		else
			snprintf(w[*n].name, sizeof w[*n].name, "%s", path);
		w[*n].parse = is_plan ? t / kgen_plan_count(*plans) : t;
		specs[*n] = is_plan ? kgen_plan_spec(*plans, i, NULL) : spec;
		kgen_spec_get(specs[*n], "kernel", w[*n].family, sizeof w[*n].family);
		w[*n].owned = !is_plan;
	}
	return 0;
}

static int
parse_args(int argc, char **argv, struct opts *o, int *first)
{
	int i;

	o->runs = 3;
	o->nvrtc_phases = 0;
	for (i = 1; i < argc && argv[i][0] == '-'; i++)
		if (strcmp(argv[i], "--nvrtc-phases") == 0)
			o->nvrtc_phases = 1;
		else if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc && (o->runs = atoi(argv[++i])) >= 1 &&
		         o->runs <= MAX_RUNS)
			;
		else
			break;
	*first = i;
	if (i >= argc || argv[i][0] == '-') {
		fprintf(stderr, "usage: jit_phases [--runs R (1 to %d, default 3)] [--nvrtc-phases] SPEC...\n", MAX_RUNS);
		return -1;
	}
	return 0;
}

/* The lines before the table: what ran, where, with which options. */
static void
print_preamble(kgen_context *ctx, int nspecs, const struct opts *o, double first_us)
{
	const char *cc = getenv("CUDA_CACHE_DISABLE");

	printf("device: %s (%s); NVRTC %s; kgen %s\n", kgen_context_device_name(ctx), kgen_context_arch(ctx),
	       kgen_nvrtc_version(), kgen_version());
	printf("kgen's NVRTC options: --gpu-architecture=%s %s\n", kgen_context_arch(ctx), kgen_compile_options());
	printf("CUDA_CACHE_DISABLE: %s; %d specs; %d runs each (cold once, disk hit %d times, again %d times)\n",
	       cc ? cc : "unset", nspecs, o->runs, o->runs, o->runs - 1);
	printf("first NVRTC compile in the process (the floor's kernel, loads NVRTC): %.2f ms\n\n", first_us / 1e3);
}

/* By family (the specs' kernel: key, in the order first met): how many
 * specs, the median and largest cold build, the median cold / floor, and
 * how many are at most 2x. */
static void
print_families(const struct row *w, int n, double fl)
{
	double cold[MAX_SPECS], max;
	int i, j, k, m, under, seen;

	for (i = 0; i < n; i++) {
		for (seen = 0, j = 0; j < i && !seen; j++)
			seen = strcmp(w[j].family, w[i].family) == 0;
		if (seen)
			continue;
		for (m = 0, under = 0, max = 0, k = i; k < n; k++)
			if (strcmp(w[k].family, w[i].family) == 0) {
				cold[m] = w[k].parse + w[k].first;
				under += cold[m] <= 2 * fl;
				max = cold[m] > max ? cold[m] : max;
				m++;
			}
		printf("  %-12s %3d specs: cold median %8.2f ms (%5.2fx the floor), max %8.2f ms; %d at most 2x\n",
		       w[i].family, m, median(cold, m) / 1e3, median(cold, m) / fl, max / 1e3, under);
	}
}

/* The floor lines and the summary over every spec; floor[] sorted, nf of
 * them, fl their median. */
static void
print_summary(struct row *w, int n, const double *floor, int nf, double fl, double floor_kgen)
{
	double cold[MAX_SPECS], hit[MAX_SPECS], own[MAX_SPECS], nvrtc[MAX_SPECS], cold_med, hit_med, own_med, nvrtc_med;
	double over[MAX_SPECS];
	const kgen_build_times *c;
	int i, under = 0, lazy = 0, kernels = 0;

	for (i = 0; i < n; i++) {
		c = &w[i].cold;
		cold[i] = w[i].parse + w[i].first;
		if (w[i].kernels) {
			over[lazy++] = cold[i] / w[i].slowest;
			kernels += w[i].kernels;
		}
		hit[i] = w[i].parse + w[i].hit.total_us;
		own[i] = w[i].parse + c->generate_us + c->cache_read_us + c->image_us + c->cache_write_us + c->load_us;
		nvrtc[i] = c->compile_us;
		under += cold[i] <= 2 * fl;
	}
	own_med = median(own, n);  /* sorts own[] */
	nvrtc_med = median(nvrtc, n);
	cold_med = median(cold, n);  /* sorts cold[] */
	hit_med = median(hit, n);
	printf("\nfloor: an empty kernel, NVRTC's defaults: median %.2f ms of %d (min %.2f, max %.2f); with kgen's "
	       "options: median %.2f ms\n", fl / 1e3, nf, floor[0] / 1e3, floor[nf - 1] / 1e3, floor_kgen / 1e3);
	printf("cold (parse + build): median %.2f ms, max %.2f ms; %d of %d specs at most 2x the floor\n",
	       cold_med / 1e3, cold[n - 1] / 1e3, under, n);
	printf("disk hit (parse + build): median %.3f ms, max %.3f ms\n", hit_med / 1e3, hit[n - 1] / 1e3);
	printf("of a cold build, NVRTC (nvrtcCompileProgram): median %.2f ms; the rest (parse, generate, disk cache, "
	       "cubin, load): median %.2f ms, max %.2f ms\n", nvrtc_med / 1e3, own_med / 1e3, own[n - 1] / 1e3);
	if (lazy) {
		median(over, lazy);  /* sorts over[] */
		printf("built lazily: %d specs of %d kernels in all; a first call (parse, build and the slowest kernel) over "
		       "that kernel alone: median %.3f, max %.3f\n", lazy, kernels, median(over, lazy), over[lazy - 1]);
	}
	print_families(w, n, fl);
}

int
main(int argc, char **argv)
{
	static const kgen_spec *specs[MAX_SPECS];
	static kgen_plan *plans[MAX_SPECS];
	static struct row rows[MAX_SPECS];
	static double plain[2 * FLOOR_RUNS + MAX_SPECS], kgenf[2 * FLOOR_RUNS + MAX_SPECS];
	double first, floor_plain, floor_kgen;
	char base[] = "/tmp/kgen-jit-phases-XXXXXX", dir[4096], cmd[4200];
	kgen_context *keeper;
	kgen_error err;
	struct opts o;
	int i, n = 0, nf = 0, argi;

	if (parse_args(argc, argv, &o, &argi) || argc > MAX_SPECS)
		return 2;
	for (i = argi; i < argc; i++)
		if (load_specs(argv[i], specs, &plans[i], rows, MAX_SPECS, &n, &err))
			goto fail;
	if (!mkdtemp(base)) {
		perror("jit_phases: mkdtemp");
		return 3;
	}
	if (kgen_context_create(0, &keeper, &err) != KGEN_OK)
		goto fail;
	if ((first = floor_us(kgen_context_arch(keeper), 0, &err)) < 0)
		goto fail;
	print_preamble(keeper, n, &o, first);
	if (floors(kgen_context_arch(keeper), FLOOR_RUNS, plain, kgenf, &nf, &err))
		goto fail;
	for (i = 0; i < n; i++) {
		fprintf(stderr, "[%d/%d] %s\n", i + 1, n, rows[i].name);
		snprintf(dir, sizeof dir, "%s/%d", base, i);
		if (floors(kgen_context_arch(keeper), 1, plain, kgenf, &nf, &err) ||
		    measure(specs[i], kgen_context_arch(keeper), dir, &o, &rows[i], &err))
			goto fail;
	}
	if (floors(kgen_context_arch(keeper), FLOOR_RUNS, plain, kgenf, &nf, &err))
		goto fail;
	floor_kgen = median(kgenf, nf);
	floor_plain = median(plain, nf);  /* sorts plain[] */
	print_header(&o);
	for (i = 0; i < n; i++)
		print_row(&rows[i], floor_plain, &o);
	print_summary(rows, n, plain, nf, floor_plain, floor_kgen);
	kgen_context_destroy(keeper);
	for (i = 0; i < n; i++)
		if (rows[i].owned)
			kgen_spec_free((kgen_spec *)specs[i]);
	for (i = 0; i < argc; i++)
		kgen_plan_free(plans[i]);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", base);
	return system(cmd) != 0 ? 3 : 0;
fail:
	kgen_error_print(&err, stderr);
	return 1;
}
