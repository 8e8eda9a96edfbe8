/*
 * nvrtc_options - does an NVRTC option make kgen's builds faster, and does
 * it change the kernels?  Each spec's generated source is compiled to a
 * cubin with NVRTC under two option sets, A and B, `runs` times each,
 * alternating (so that a busy machine slows both alike); the medians, B's
 * time over A's, and whether the two cubins hold the same kernels: every
 * section of their code and of what the driver reads about each kernel
 * (.text.*, .nv.info*, .nv.shared.*, .nv.constant*) byte for byte.  The
 * same code cannot run slower; different code needs a GPU to say.
 *
 *   nvrtc_options [--runs R] [--arch sm_90] "OPTIONS A" "OPTIONS B" SPEC...
 *   nvrtc_options [--runs R] [--arch sm_90] --steps THREADS "OPTIONS" SPEC...
 *
 * With --steps, A is each spec's file compiled whole and B its kernels
 * compiled apart (kgen_step_source), one program each, on up to THREADS
 * threads side by side (0: one per online CPU), as libkgen builds a spec
 * whose kernels are alternatives (every spec of several kernels is split
 * here, to say where it pays); B's time is the wall time of them all, and
 * "same" says that each kernel's sections in its own cubin are those of
 * the whole file's, byte for byte but for the symbol index in
 * EIATTR_PARAM_CBANK (see same_info()).
 *
 * --arch names the GPU's architecture; each spec is compiled for the one its
 * family asks there, as a build does (kgen_spec_compile_arch: sm_90a for
 * math: wgmma on sm_90).
 * Options are space-separated NVRTC options besides --gpu-architecture,
 * e.g. "$(kgen's options)" against "$(kgen's options) --minimal".  A size
 * plan's entries are taken one by one.  NVRTC's own cache (12.9 and later,
 * with a CUDA driver) could answer the second compile of a source, so
 * where NVRTC takes --no-cache both sets get it.  No GPU needed.
 */
#include "config.h"
#include <nvrtc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "kgen.h"
#include "gen/family.h"
#include "gen/parallel.h"
#include "gen/spec.h"
#include "gen/util.h"
#include "runtime/runtime.h"

#define MAX_RUNS 64
#define MAX_OPTS 32

struct options {
	const char *v[MAX_OPTS];
	int n;
	char buf[1024];
};

/* The architecture option both sets start with: --arch, or for each spec
 * what its family compiles it for there (for_spec: sm_90a for wgmma). */
static const char *base_arch = "sm_90";
static char archopt[64];

static void
for_spec(const kgen_spec *spec)
{
	char specific[16];

	snprintf(archopt, sizeof archopt, "--gpu-architecture=%s",
	         kgen_spec_compile_arch(spec, base_arch, specific, sizeof specific));
}

/* Split text at spaces into o (the architecture first). */
static int
split_options(const char *arch, const char *text, int no_cache, struct options *o)
{
	char *tok, *save = NULL;

	snprintf(archopt, sizeof archopt, "--gpu-architecture=%s", arch);
	snprintf(o->buf, sizeof o->buf, "%s%s", text, no_cache ? " --no-cache" : "");
	o->n = 0;
	o->v[o->n++] = archopt;
	for (tok = strtok_r(o->buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		if (o->n == MAX_OPTS)
			return -1;
		o->v[o->n++] = tok;
	}
	return 0;
}

/* Compile source under o: the microseconds to the cubin in hand, the cubin in *cubin. */
static double
compile(const char *source, const struct options *o, char **cubin, size_t *size, kgen_error *err)
{
	double t = kgen_clock_us();
	nvrtcProgram prog;
	nvrtcResult r;
	char *log;
	size_t n;

	*cubin = NULL;
	if ((r = nvrtcCreateProgram(&prog, source, "kgen.cu", 0, NULL, NULL)) != NVRTC_SUCCESS)
		return kgen_fail(err, KGEN_ECOMPILE, "nvrtcCreateProgram(): %s", nvrtcGetErrorString(r)), -1;
	if ((r = nvrtcCompileProgram(prog, o->n, o->v)) == NVRTC_SUCCESS &&
	    (r = nvrtcGetCUBINSize(prog, size)) == NVRTC_SUCCESS && (*cubin = malloc(*size)))
		r = nvrtcGetCUBIN(prog, *cubin);
	t = kgen_clock_us() - t;
	if (r != NVRTC_SUCCESS && nvrtcGetProgramLogSize(prog, &n) == NVRTC_SUCCESS && (log = malloc(n))) {
		if (nvrtcGetProgramLog(prog, log) == NVRTC_SUCCESS)
			fprintf(stderr, "%s", log);
		free(log);
	}
	nvrtcDestroyProgram(&prog);
	if (r != NVRTC_SUCCESS || !*cubin) {
		free(*cubin);
		*cubin = NULL;
		return kgen_fail(err, KGEN_ECOMPILE, "NVRTC with \"%s ...\": %s", o->v[1] ? o->v[1] : "",
		                 nvrtcGetErrorString(r)), -1;
	}
	return t;
}

/* Little-endian reads from an ELF file image. */
static uint64_t
rd(const char *p, int bytes)
{
	uint64_t v = 0;
	int i;

	for (i = bytes - 1; i >= 0; i--)
		v = v << 8 | (unsigned char)p[i];
	return v;
}

/* The section headers of a 64-bit ELF image: *n of them at *sh, each
 * shentsize bytes; the section-name table at *names.  -1 when it is not one. */
static int
elf_sections(const char *img, size_t size, const char **sh, int *n, int *shentsize, const char **names)
{
	uint64_t shoff, stroff;
	int strndx;

	if (size < 64 || memcmp(img, "\177ELF", 4) != 0 || img[4] != 2)
		return -1;
	shoff = rd(img + 0x28, 8);
	*shentsize = (int)rd(img + 0x3a, 2);
	*n = (int)rd(img + 0x3c, 2);
	strndx = (int)rd(img + 0x3e, 2);
	if (*shentsize < 64 || shoff + (uint64_t)*n * (uint64_t)*shentsize > size || strndx >= *n)
		return -1;
	*sh = img + shoff;
	stroff = rd(*sh + (size_t)strndx * (size_t)*shentsize + 0x18, 8);
	if (stroff >= size)
		return -1;
	*names = img + stroff;
	return 0;
}

/* A section that holds a kernel's code or what the driver reads about it. */
static int
kernel_section(const char *name)
{
	return strncmp(name, ".text.", 6) == 0 || strncmp(name, ".nv.info", 8) == 0 ||
	       strncmp(name, ".nv.shared.", 11) == 0 || strncmp(name, ".nv.constant", 12) == 0;
}

/* Section `name` of an image, or NULL: its bytes, *len of them (a section
 * with no bytes in the file, e.g. shared memory: its size field). */
static const char *
find_section(const char *img, size_t size, const char *name, uint64_t *len)
{
	const char *sh, *names, *h;
	int n, ent, i;

	if (elf_sections(img, size, &sh, &n, &ent, &names))
		return NULL;
	for (i = 0; i < n; i++) {
		h = sh + (size_t)i * (size_t)ent;
		if (strcmp(names + rd(h, 4), name) != 0)
			continue;
		*len = rd(h + 0x20, 8);
		if (rd(h + 4, 4) == 8 /* SHT_NOBITS */) {
			*len = 8;
			return h + 0x20;
		}
		return rd(h + 0x18, 8) + *len <= size ? img + rd(h + 0x18, 8) : NULL;
	}
	return NULL;
}

/* 1 when every kernel section of a is in b with the same bytes, and b has no other. */
static int
same_kernels(const char *a, size_t na, const char *b, size_t nb)
{
	const char *sh, *names, *x, *y;
	uint64_t lx, ly;
	int n, ent, i, count_a = 0, count_b = 0;

	if (elf_sections(a, na, &sh, &n, &ent, &names))
		return 0;
	for (i = 0; i < n; i++) {
		const char *name = names + rd(sh + (size_t)i * (size_t)ent, 4);
		if (!kernel_section(name))
			continue;
		count_a++;
		x = find_section(a, na, name, &lx);
		y = find_section(b, nb, name, &ly);
		if (!x || !y || lx != ly || memcmp(x, y, lx) != 0)
			return 0;
	}
	if (elf_sections(b, nb, &sh, &n, &ent, &names))
		return 0;
	for (i = 0; i < n; i++)
		count_b += kernel_section(names + rd(sh + (size_t)i * (size_t)ent, 4));
	return count_a == count_b;
}

/* A section about one kernel (".text.K", ".nv.info.K", ...), not the
 * module's own (".nv.info", ".nv.constant3", ".nv.shared.reserved.0"). */
static int
per_kernel_section(const char *name)
{
	const char *rest;

	if (strncmp(name, ".nv.shared.reserved.", 20) == 0)
		return 0;
	if (strncmp(name, ".nv.constant", 12) == 0)
		rest = name + 12 + strspn(name + 12, "0123456789");
	else if (strncmp(name, ".nv.info", 8) == 0 || strncmp(name, ".nv.shared", 10) == 0 || strncmp(name, ".text", 5) == 0)
		rest = strchr(name + 1, '.') ? name + (strncmp(name, ".text", 5) == 0 ? 5 : name[4] == 'i' ? 8 : 10) : "";
	else
		return 0;
	return rest[0] == '.' && rest[1] != '\0';
}

/* The name of the section that symbol i of an image's .symtab lies in ("" when there is none). */
static const char *
symbol_section(const char *img, size_t size, uint64_t i)
{
	const char *sh, *names, *symtab;
	uint64_t len, shndx;
	int n, ent;

	if (elf_sections(img, size, &sh, &n, &ent, &names) || !(symtab = find_section(img, size, ".symtab", &len)) ||
	    (i + 1) * 24 > len)
		return "";
	shndx = rd(symtab + i * 24 + 6, 2);  /* Elf64_Sym: name, info, other, shndx, value, size */
	return shndx < (uint64_t)n ? names + rd(sh + (size_t)shndx * (size_t)ent, 4) : "";
}

/* Whether a kernel's .nv.info.K of image a (x) and of image b (y), len
 * bytes each, say the same: byte for byte, but for where its parameters'
 * constant bank is (EIATTR_PARAM_CBANK), which names it by a symbol's
 * index, and the symbol table of a module of one kernel is not that of
 * one of several: there the symbols' sections must have the same name. */
static int
same_info(const char *a, size_t na, const char *x, const char *b, size_t nb, const char *y, uint64_t len)
{
	uint64_t at = 0, step;

	while (at < len) {
		int format = (unsigned char)x[at], attr = (unsigned char)x[at + 1];
		if (format == 4 && at + 4 <= len)  /* EIFMT_SVAL: a 16-bit size, then the value */
			step = 4 + rd(x + at + 2, 2);
		else
			step = 4;  /* a value of at most 16 bits, in the entry */
		if (at + step > len)
			return memcmp(x + at, y + at, len - at) == 0;
		if (format == 4 && attr == 0x0a && step >= 8) {  /* EIATTR_PARAM_CBANK: section, offset, size */
			if (memcmp(x + at, y + at, 4) != 0 || memcmp(x + at + 8, y + at + 8, step - 8) != 0 ||
			    strcmp(symbol_section(a, na, rd(x + at + 4, 4)), symbol_section(b, nb, rd(y + at + 4, 4))) != 0)
				return 0;
		} else if (memcmp(x + at, y + at, step) != 0)
			return 0;
		at += step;
	}
	return 1;
}

/* The per-kernel sections of part: each is in whole with the same bytes
 * (their count in *count); 0 when one is not. */
static int
kernels_in(const char *whole, size_t nwhole, const char *part, size_t npart, int *count)
{
	const char *sh, *names, *x, *y;
	uint64_t lx, ly;
	int n, ent, i;

	*count = 0;
	if (elf_sections(part, npart, &sh, &n, &ent, &names))
		return 0;
	for (i = 0; i < n; i++) {
		const char *name = names + rd(sh + (size_t)i * (size_t)ent, 4);
		if (!per_kernel_section(name))
			continue;
		(*count)++;
		x = find_section(part, npart, name, &lx);
		y = find_section(whole, nwhole, name, &ly);
		if (!x || !y || lx != ly ||
		    (strncmp(name, ".nv.info.", 9) == 0 ? !same_info(part, npart, x, whole, nwhole, y, lx)
		                                        : memcmp(x, y, lx) != 0))
			return 0;
	}
	return 1;
}

/* The per-kernel sections of an image. */
static int
count_kernel_sections(const char *img, size_t size)
{
	const char *sh, *names;
	int n, ent, i, count = 0;

	if (elf_sections(img, size, &sh, &n, &ent, &names))
		return 0;
	for (i = 0; i < n; i++)
		count += per_kernel_section(names + rd(sh + (size_t)i * (size_t)ent, 4));
	return count;
}

static int
cmp_double(const void *p, const void *q)
{
	double x = *(const double *)p, y = *(const double *)q;

	return (x > y) - (x < y);
}

static double
median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* One spec: A and B runs times each, alternating; print its line; add its
 * medians to the totals and count it in *differ when the kernels differ. */
static int
one_spec(const char *name, const kgen_spec *spec, const struct options *a, const struct options *b, int runs,
         double total[2], int *differ, kgen_error *err)
{
	double ta[MAX_RUNS], tb[MAX_RUNS], ma, mb;
	char *source, *ca = NULL, *cb = NULL, *c;
	size_t na = 0, nb = 0, nc;
	int r, same;

	for_spec(spec);
	if (kgen_generate(spec, &source, err) != KGEN_OK)
		return -1;
	for (r = 0; r < runs; r++) {
		if ((ta[r] = compile(source, a, &c, &nc, err)) < 0)
			goto fail;
		free(ca), ca = c, na = nc;
		if ((tb[r] = compile(source, b, &c, &nc, err)) < 0)
			goto fail;
		free(cb), cb = c, nb = nc;
	}
	same = same_kernels(ca, na, cb, nb);
	ma = median(ta, runs);
	mb = median(tb, runs);
	total[0] += ma;
	total[1] += mb;
	*differ += !same;
	if (strlen(name) > 50)
		name += strlen(name) - 50;
	printf("%-50s %9.2f %9.2f %6.3f  %s\n", name, ma / 1e3, mb / 1e3, mb / ma, same ? "same" : "DIFFERENT");
	fflush(stdout);
	free(source), free(ca), free(cb);
	return 0;
fail:
	free(source), free(ca), free(cb);
	return -1;
}

/* A spec's kernels compiled apart, side by side. */
struct steps {
	const struct options *o;
	char *source[KGEN_MAX_STEPS], *cubin[KGEN_MAX_STEPS];
	size_t size[KGEN_MAX_STEPS];
	double us[KGEN_MAX_STEPS];
	kgen_error err[KGEN_MAX_STEPS];
};

static void
compile_step(void *arg, int i)
{
	struct steps *w = arg;

	free(w->cubin[i]);
	w->us[i] = compile(w->source[i], w->o, &w->cubin[i], &w->size[i], &w->err[i]);
}

/* One spec with --steps: whole (A) and apart on `threads` threads (B),
 * runs times each, alternating. */
static int
one_spec_steps(const char *name, const kgen_spec *spec, const struct options *o, int threads, int runs,
               double total[2], int *differ, kgen_error *err)
{
	double ta[MAX_RUNS], tb[MAX_RUNS], ma, mb, t;
	struct kgen_contract p;
	struct steps w;
	char *source, *whole = NULL, *c;
	size_t nwhole = 0, nc;
	int r, i, same = 1, count, parts = 0, st = -1;

	for_spec(spec);
	memset(&w, 0, sizeof w);
	w.o = o;
	if (kgen_generate(spec, &source, err) != KGEN_OK)
		return -1;
	kgen_family_of(spec)->contract(spec, &p);
	for (i = 0; i < p.nsteps; i++)
		if (kgen_step_source(spec, &p, source, i, &w.source[i], err) != KGEN_OK)
			goto out;
	for (r = 0; r < runs; r++) {
		if ((ta[r] = compile(source, o, &c, &nc, err)) < 0)
			goto out;
		free(whole), whole = c, nwhole = nc;
		t = kgen_clock_us();
		kgen_parallel_for(p.nsteps, threads, compile_step, &w);
		tb[r] = kgen_clock_us() - t;
		for (i = 0; i < p.nsteps; i++)
			if (w.us[i] < 0) {
				*err = w.err[i];
				goto out;
			}
	}
	for (i = 0; i < p.nsteps; i++) {
		same &= kernels_in(whole, nwhole, w.cubin[i], w.size[i], &count);
		parts += count;
	}
	same &= parts == count_kernel_sections(whole, nwhole);
	ma = median(ta, runs);
	mb = median(tb, runs);
	total[0] += ma;
	total[1] += mb;
	*differ += !same;
	if (strlen(name) > 50)
		name += strlen(name) - 50;
	printf("%-50s %9.2f %9.2f %6.3f  %s (%d kernel%s)\n", name, ma / 1e3, mb / 1e3, mb / ma,
	       same ? "same" : "DIFFERENT", p.nsteps, p.nsteps == 1 ? "" : "s");
	fflush(stdout);
	st = 0;
out:
	for (i = 0; i < KGEN_MAX_STEPS; i++)
		free(w.source[i]), free(w.cubin[i]);
	free(source), free(whole);
	return st;
}

/* Every spec of one file (a plan: each entry). */
static int
one_file(const char *path, const struct options *a, const struct options *b, int steps, int runs, double total[2],
         int *n, int *differ, kgen_error *err)
{
	char name[160], *text;
	kgen_spec *spec;
	kgen_plan *plan;
	size_t len;
	int i, st = 0;

	if (kgen_read_file(path, &text, &len, err) != KGEN_OK)
		return -1;
	i = kgen_plan_text_is_plan(text, len);
	free(text);
	if (!i) {
		if (kgen_spec_load_file(path, &spec, err) != KGEN_OK)
			return -1;
		st = steps >= 0 ? one_spec_steps(path, spec, a, steps, runs, total, differ, err)
		                : one_spec(path, spec, a, b, runs, total, differ, err);
		kgen_spec_free(spec);
		*n += !st;
		return st;
	}
	if (kgen_plan_load_file(path, &plan, err) != KGEN_OK)
		return -1;
	for (i = 0; i < kgen_plan_count(plan) && !st; i++, (*n)++) {
		snprintf(name, sizeof name, "%s#%d", path, i);
		st = steps >= 0 ? one_spec_steps(name, kgen_plan_spec(plan, i, NULL), a, steps, runs, total, differ, err)
		                : one_spec(name, kgen_plan_spec(plan, i, NULL), a, b, runs, total, differ, err);
	}
	kgen_plan_free(plan);
	return st;
}

int
main(int argc, char **argv)
{
	struct options a, b;
	const char *arch = "sm_90";
	double total[2] = { 0, 0 };
	int i = 1, runs = 3, n = 0, differ = 0, major = 0, minor = 0, no_cache, steps = -1, nsets;
	kgen_error err;

	for (; i + 1 < argc && argv[i][0] == '-' && argv[i][1] == '-'; i += 2)
		if (strcmp(argv[i], "--runs") == 0)
			runs = atoi(argv[i + 1]);
		else if (strcmp(argv[i], "--arch") == 0)
			arch = base_arch = argv[i + 1];
		else if (strcmp(argv[i], "--steps") == 0)
			steps = atoi(argv[i + 1]) < 0 ? -2 : atoi(argv[i + 1]);  /* -2: refused below; 0: one a CPU */
		else
			break;
	nvrtcVersion(&major, &minor);
	no_cache = major > 12 || (major == 12 && minor >= 9);
	nsets = steps >= 0 ? 1 : 2;
	if (steps == -2 || argc - i < nsets + 1 || runs < 1 || runs > MAX_RUNS || split_options(arch, argv[i], no_cache, &a) ||
	    (nsets == 2 && split_options(arch, argv[i + 1], no_cache, &b))) {
		fprintf(stderr,
		        "usage: nvrtc_options [--runs R (1 to %d)] [--arch sm_90] \"OPTIONS A\" \"OPTIONS B\" SPEC...\n"
		        "       nvrtc_options [--runs R] [--arch sm_90] --steps THREADS \"OPTIONS\" SPEC...\n",
		        MAX_RUNS);
		return 2;
	}
	printf("NVRTC %s, --gpu-architecture=%s, %d runs each, alternating%s\n", kgen_nvrtc_version(), arch, runs,
	       no_cache ? "; both with --no-cache" : "");
	if (steps == 0)
		steps = (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (steps >= 0)
		printf("A: each file whole\nB: its kernels apart, on up to %d thread%s side by side (wall time)\n"
		       "options: %s\n", steps, steps == 1 ? "" : "s", argv[i]);
	else
		printf("A: %s\nB: %s\n", argv[i], argv[i + 1]);
	printf("%-50s %9s %9s %6s  %s\n", "spec (median ms)", "A", "B", "B/A", "kernels");
	for (i += nsets; i < argc; i++)
		if (one_file(argv[i], &a, &b, steps, runs, total, &n, &differ, &err)) {
			kgen_error_print(&err, stderr);
			return 1;
		}
	printf("%d specs: A %.1f ms, B %.1f ms in all (B/A %.3f); kernels different in %d\n", n, total[0] / 1e3,
	       total[1] / 1e3, total[0] > 0 ? total[1] / total[0] : 0, differ);
	return 0;
}
