/* compile.c - kgen_compile(): generated source to PTX or cubin with NVRTC. */
#include "config.h"
#include <ctype.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <nvrtc.h>
#include "gen/util.h"
#include "runtime.h"
#include <stdio.h>

/* The options every compile passes besides the architecture, each with the
 * first NVRTC that takes it (0.0: any); an older NVRTC compiles without it.
 * The last two change no kernel: every shipped spec's cubin holds the same
 * code with and without them (bench/jit/nvrtc_options, bench/results/cpu-dev/
 * 2026-11-24-jit). */
#define KGEN_NVRTC_OPTIONS(X) \
	/* the generated files' C++ */ \
	X("--std=c++17", 0, 0) \
	/* functions without an execution space are __device__ */ \
	X("--device-as-default-execution-space", 0, 0) \
	/* no texture, surface, device-runtime or driver-API declarations, which \
	 * the generated files never use: the front end in half the time */ \
	X("--minimal", 12, 4) \
	/* NVRTC's own cache off (12.9 on keeps programs in the driver's cache, \
	 * ~/.nv, once a driver is loaded): kgen's disk cache answers first (0.4 \
	 * ms on an H100, NVRTC's 7-27 ms), so NVRTC's would hold a second copy, \
	 * and a cold build is a compile (bench/results/nvidia-h100/ \
	 * 2026-11-24-jit-nvrtc-cache) */ \
	X("--no-cache", 12, 9)

static const struct nvrtc_option {
	const char *text;
	int major, minor;  /* the first NVRTC that takes it */
} nvrtc_options[] = {
#define X(text, major, minor) { text, major, minor },
	KGEN_NVRTC_OPTIONS(X)
#undef X
};

/* $KGEN_NVRTC_OPTIONS: options of the user's after kgen's, split at white
 * space (e.g. --Ofast-compile=min: less compile time, other code), at most
 * this many; read at the first compile of the process. */
#define USER_OPTIONS_MAX 8

/* The options this NVRTC takes and the user's, as a list and joined by
 * spaces (the cache key's: the user's key the disk cache apart), chosen
 * once; what is wrong with the user's, if anything. */
static const char *options_used[KGEN_COUNT(nvrtc_options) + USER_OPTIONS_MAX];
static int noptions_used;
static char options_joined[1024];
static char user_options[512];
static int nuser_options;
static char options_problem[256];
static pthread_once_t options_once = PTHREAD_ONCE_INIT;

static void
add_user_options(const char *env, size_t *len)
{
	char *tok, *save = NULL;
	int n = 0;

	if (strlen(env) >= sizeof user_options) {
		snprintf(options_problem, sizeof options_problem, "KGEN_NVRTC_OPTIONS is longer than %zu characters",
		         sizeof user_options - 1);
		return;
	}
	strcpy(user_options, env);
	for (tok = strtok_r(user_options, " \t\n\r\v\f", &save); tok; tok = strtok_r(NULL, " \t\n\r\v\f", &save)) {
		if (n == USER_OPTIONS_MAX) {
			snprintf(options_problem, sizeof options_problem, "KGEN_NVRTC_OPTIONS has more than %d options",
			         USER_OPTIONS_MAX);
			return;
		}
		if (strncmp(tok, "--gpu-architecture", 18) == 0 || strncmp(tok, "-arch", 5) == 0) {
			snprintf(options_problem, sizeof options_problem,
			         "KGEN_NVRTC_OPTIONS: %.64s: kgen chooses the architecture (the GPU's, or kgen compile --arch)", tok);
			return;
		}
		options_used[noptions_used++] = tok;
		nuser_options = ++n;
		*len += (size_t)snprintf(options_joined + *len, sizeof options_joined - *len, "%s%s", *len ? " " : "", tok);
	}
}

static void
choose_options(void)
{
	int major = 0, minor = 0;
	size_t i, len = 0;
	const char *env = getenv("KGEN_NVRTC_OPTIONS");

	nvrtcVersion(&major, &minor);
	for (i = 0; i < KGEN_COUNT(nvrtc_options); i++) {
		const struct nvrtc_option *o = &nvrtc_options[i];
		if (major < o->major || (major == o->major && minor < o->minor))
			continue;
		options_used[noptions_used++] = o->text;
		len += (size_t)snprintf(options_joined + len, sizeof options_joined - len, "%s%s", len ? " " : "", o->text);
	}
	if (env && *env)
		add_user_options(env, &len);
}

double
kgen_clock_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

const char *
kgen_compile_options(void)
{
	pthread_once(&options_once, choose_options);
	return options_joined;
}

/* KGEN_OK, or what is wrong with $KGEN_NVRTC_OPTIONS: checked before the
 * disk cache is asked too, so that a hit never hides it. */
kgen_status
kgen_compile_options_check(kgen_error *err)
{
	pthread_once(&options_once, choose_options);
	if (options_problem[0])
		return kgen_fail(err, KGEN_EINVAL, "%s", options_problem);
	return KGEN_OK;
}

static char nvrtc_version[160];
static pthread_once_t nvrtc_version_once = PTHREAD_ONCE_INIT;

/* The file NVRTC was loaded from and its size ("(libnvrtc.so.13, 109338064 bytes)"):
 * nvrtcVersion() gives no patch level, and a patch release is another file
 * (often another name, always another size).  From /proc/self/maps, which
 * shows the mapped file's own path (links resolved); "" when it cannot be
 * found (a static NVRTC, no /proc). */
static void
nvrtc_file(char *buf, size_t n)
{
	char line[4096 + 128];
	const char *path, *base;
	struct stat st;
	FILE *fp;

	buf[0] = '\0';
	if (!(fp = fopen("/proc/self/maps", "r")))
		return;
	while (fgets(line, sizeof line, fp)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strstr(line, "/libnvrtc.so") || !(path = strchr(line, '/')))
			continue;
		base = strrchr(path, '/') + 1;
		if (stat(path, &st) == 0)
			snprintf(buf, n, "(%.80s, %lld bytes)", base, (long long)st.st_size);
		break;
	}
	fclose(fp);
}

static void
read_nvrtc_version(void)
{
	int major = 0, minor = 0;
	char file[128];

	nvrtcVersion(&major, &minor);
	nvrtc_file(file, sizeof file);
	snprintf(nvrtc_version, sizeof nvrtc_version, "%d.%d%s%s", major, minor, file[0] ? " " : "", file);
}

/* NVRTC's version and the file it was loaded from, "13.0 (libnvrtc.so.13, 109338064 bytes)",
 * read once (thread-safe): the disk cache keys on both, so a patch release
 * of NVRTC does not reuse another's binaries. */
const char *
kgen_nvrtc_version(void)
{
	pthread_once(&nvrtc_version_once, read_nvrtc_version);
	return nvrtc_version;
}

/* KGEN_OK when this NVRTC compiles for arch; else say which it does. */
static kgen_status
nvrtc_supports(const char *arch, kgen_error *err)
{
	int n = 0, *archs, i, want = kgen_arch_number(arch), ok = 0;
	kgen_status st = KGEN_OK;

	if (nvrtcGetNumSupportedArchs(&n) != NVRTC_SUCCESS || n <= 0 || !(archs = malloc((size_t)n * sizeof *archs)))
		return KGEN_OK;  /* cannot tell: let NVRTC say */
	if (nvrtcGetSupportedArchs(archs) == NVRTC_SUCCESS) {
		for (i = 0; i < n; i++)
			ok |= archs[i] == want;
		if (!ok)
			st = kgen_fail(err, KGEN_EINVAL, "NVRTC %.*s does not compile for %s: it supports sm_%d to sm_%d",
			               (int)strcspn(kgen_nvrtc_version(), " "), kgen_nvrtc_version(), arch, archs[0],
			               archs[n - 1]);
	}
	free(archs);
	return st;
}

kgen_status
kgen_compile(const char *source, const char *name, const char *arch, kgen_image kind, void **image, size_t *size,
             char **log, kgen_error *err)
{
	return kgen_compile_timed(source, name, arch, kind, image, size, log, NULL, NULL, err);
}

kgen_status
kgen_compile_timed(const char *source, const char *name, const char *arch, kgen_image kind, void **image,
                   size_t *size, char **log, double *compile_us, double *image_us, kgen_error *err)
{
	return kgen_compile_with(source, name, arch, NULL, 0, kind, image, size, log, compile_us, image_us, err);
}

kgen_status
kgen_compile_with(const char *source, const char *name, const char *arch, const char *const *extra, int nextra,
                  kgen_image kind, void **image, size_t *size, char **log, double *compile_us, double *image_us,
                  kgen_error *err)
{
	nvrtcProgram prog = NULL;
	nvrtcResult r;
	char archopt[64];
	const char *opts[1 + KGEN_COUNT(options_used) + KGEN_COMPILE_EXTRA_MAX];
	size_t n = 0;
	int i;
	kgen_status st = KGEN_OK;
	char *buf = NULL;
	double t;

	if (log)
		*log = NULL;
	if (!source || !image || !size || !arch || (nextra && !extra))
		return kgen_fail(err, KGEN_EINVAL, "kgen_compile: NULL argument");
	if (nextra < 0 || nextra > KGEN_COMPILE_EXTRA_MAX)
		return kgen_fail(err, KGEN_EINVAL, "kgen_compile: %d extra NVRTC options: expected 0 to %d", nextra,
		                 KGEN_COMPILE_EXTRA_MAX);
	if (kind != KGEN_IMAGE_CUBIN && kind != KGEN_IMAGE_PTX)
		return kgen_fail(err, KGEN_EINVAL, "kgen_compile: image kind %d: KGEN_IMAGE_CUBIN or KGEN_IMAGE_PTX", (int)kind);
	*image = NULL;
	*size = 0;
	if (kgen_arch_number(arch) < 0)
		return kgen_fail(err, KGEN_EINVAL, KGEN_ARCH_UNKNOWN, arch);
	if (kind == KGEN_IMAGE_CUBIN && strncmp(arch, "compute_", 8) == 0)
		return kgen_fail(err, KGEN_EINVAL, "a cubin needs a real architecture (sm_NN), not %s", arch);
	if ((st = nvrtc_supports(arch, err)) != KGEN_OK)
		return st;
	/* PTX from the virtual architecture: the same text, without running
	 * ptxas on it for a cubin that nobody asked for. */
	if (kind == KGEN_IMAGE_PTX && strncmp(arch, "sm_", 3) == 0)
		snprintf(archopt, sizeof archopt, "--gpu-architecture=compute_%s", arch + 3);
	else
		snprintf(archopt, sizeof archopt, "--gpu-architecture=%s", arch);
	opts[0] = archopt;
	if ((st = kgen_compile_options_check(err)) != KGEN_OK)
		return st;
	for (i = 0; i < noptions_used; i++)
		opts[1 + i] = options_used[i];
	for (i = 0; i < nextra; i++)
		opts[1 + noptions_used + i] = extra[i];

	t = kgen_clock_us();
	if ((r = nvrtcCreateProgram(&prog, source, name ? name : "kgen.cu", 0, NULL, NULL)) != NVRTC_SUCCESS)
		return kgen_fail(err, KGEN_ECOMPILE, "nvrtcCreateProgram(): %s", nvrtcGetErrorString(r));
	r = nvrtcCompileProgram(prog, 1 + noptions_used + nextra, opts);
	if (compile_us)
		*compile_us += kgen_clock_us() - t;
	if (log && nvrtcGetProgramLogSize(prog, &n) == NVRTC_SUCCESS && n > 0 && (*log = malloc(n)))
		if (nvrtcGetProgramLog(prog, *log) != NVRTC_SUCCESS)
			(*log)[0] = '\0';
	if (r == NVRTC_ERROR_INVALID_OPTION && nuser_options) {
		st = kgen_fail(err, KGEN_EINVAL, "nvrtcCompileProgram(): %s: see KGEN_NVRTC_OPTIONS (the options: %s)",
		               nvrtcGetErrorString(r), options_joined);
		goto out;
	}
	if (r != NVRTC_SUCCESS) {
		st = kgen_fail(err, KGEN_ECOMPILE, "nvrtcCompileProgram(): %s (see the program log)", nvrtcGetErrorString(r));
		goto out;
	}
	t = kgen_clock_us();
	if (kind == KGEN_IMAGE_PTX)
		r = nvrtcGetPTXSize(prog, &n);
	else
		r = nvrtcGetCUBINSize(prog, &n);
	if (r != NVRTC_SUCCESS) {
		st = kgen_fail(err, KGEN_ECOMPILE, "nvrtcGet%sSize(): %s", kind == KGEN_IMAGE_PTX ? "PTX" : "CUBIN",
		               nvrtcGetErrorString(r));
		goto out;
	}
	if (!(buf = malloc(n + 1))) {
		st = kgen_fail(err, KGEN_ENOMEM, "out of memory");
		goto out;
	}
	r = kind == KGEN_IMAGE_PTX ? nvrtcGetPTX(prog, buf) : nvrtcGetCUBIN(prog, buf);
	if (r != NVRTC_SUCCESS) {
		free(buf);
		st = kgen_fail(err, KGEN_ECOMPILE, "nvrtcGet%s(): %s", kind == KGEN_IMAGE_PTX ? "PTX" : "CUBIN",
		               nvrtcGetErrorString(r));
		goto out;
	}
	buf[n] = '\0';
	if (kind == KGEN_IMAGE_PTX && n > 0 && buf[n - 1] == '\0')
		n--;  /* the size counts the NUL */
	*image = buf;
	*size = n;
	if (image_us)
		*image_us += kgen_clock_us() - t;
out:
	nvrtcDestroyProgram(&prog);
	return st;
}

/* The milliseconds of the report's lines that name `phase` (NVRTC writes
 * "FILE, CUDA C++ Frontend, 16, ms"), summed; -1 where none does. */
static double
report_ms(FILE *fp, const char *phase)
{
	char line[512], *c;
	double ms = -1;

	rewind(fp);
	while (fgets(line, sizeof line, fp))
		if ((c = strstr(line, phase)) && (c = strchr(c, ',')))
			ms = (ms < 0 ? 0 : ms) + atof(c + 1);
	return ms;
}

kgen_status
kgen_compile_phases(const char *source, const char *name, const char *arch, kgen_image kind, void **image,
                    size_t *size, char **log, double *compile_us, struct kgen_nvrtc_phases *ph, kgen_error *err)
{
	const char *dir = getenv("TMPDIR") && getenv("TMPDIR")[0] ? getenv("TMPDIR") : "/tmp";
	char file[PATH_MAX], opt[PATH_MAX + 16];
	const char *extra[1] = { opt };
	kgen_status st;
	FILE *fp;
	int fd;

	ph->frontend_ms = ph->nvvm_ms = ph->ptxas_ms = -1;
	snprintf(file, sizeof file, "%s/kgen-nvrtc-time-XXXXXX", dir);
	if ((fd = mkstemp(file)) < 0)
		return kgen_fail(err, KGEN_EIO, "%s: cannot make a file for NVRTC's --time report", file);
	close(fd);
	snprintf(opt, sizeof opt, "--time=%s", file);
	st = kgen_compile_with(source, name, arch, extra, 1, kind, image, size, log, compile_us, NULL, err);
	if ((fp = fopen(file, "r"))) {
		ph->frontend_ms = report_ms(fp, "Frontend");
		ph->nvvm_ms = report_ms(fp, "NVVM Optimizer");
		ph->ptxas_ms = report_ms(fp, "PTX Translation");
		fclose(fp);
	}
	remove(file);
	return st;
}
