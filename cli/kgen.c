/*
 * kgen.c - the command line: main() and its table of commands, and the
 * commands that share kgen's own options: generate (kgen SPEC), check,
 * compile and diff.  The other commands are a file each (run.c, space.c,
 * tune.c, plot.c, keys.c, cache.c, info.c); what they all share is in cli.c.
 * Exit statuses are listed in usage() and in kgen.1.
 */
#include "config.h"
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "kgen.h"
#include "cli.h"
#include "gen/spec.h"
#include "gen/util.h"
#include "gen/family.h"
#include "runtime/runtime.h"

/* kgen --help: the synopses and summaries come from the command table. */
static void usage(FILE *fp);

/* kgen's own options, which kgen SPEC, check, compile and diff share. */
struct gen_opts {
	const char *outpath, *arch;
	const char *only;    /* the option of compile's to name if refused: --cubin, --ptx, else --arch */
	int kind_given;      /* --cubin or --ptx was given */
	kgen_image kind;
	char *sets[64];      /* --set KEY=VALUE, and --unset KEY as KEY= */
	char side[64];       /* each one's side in kgen diff: 0 both, 'a' (--set-a) or 'b' (--set-b) */
	int nsets, json, time;
	int entry;           /* --entry N: a size plan's Nth spec (from 1); 0: none given */
	const char *one_side;  /* the first --set-a or --set-b, which only kgen diff takes */
};

/* The spec kgen SPEC and compile take: path's, or with --entry N the Nth
 * of the size plan at path.  A plan is several specs: without --entry it
 * is refused. */
static kgen_status
load_one(const char *path, const struct gen_opts *g, kgen_spec **spec, kgen_error *err)
{
	if (g->entry)
		return kgen_cli_load_entry(path, g->entry, g->sets, g->nsets, spec, err);
	if (kgen_cli_is_plan(path))
		return kgen_fail(err, KGEN_EINVAL, "%s is a size plan, several specs: generate or compile one of its "
		                 "entries with --entry N (kgen check and kgen run take the plan)", path);
	return kgen_cli_load(path, g->sets, g->nsets, spec, err);
}

/* Refuse an output that is the input spec itself (kgen s.yaml -o s.yaml). */
static kgen_status
not_the_input(const char *in, const char *out, kgen_error *err)
{
	char *inputs[] = { (char *)in };

	return kgen_cli_not_an_input("-o", out, inputs, 1, "the spec", err);
}

/* Whether a failure to write standard output was said already (emit()). */
static int stdout_said;

/* Write data to path, or to standard output when path is NULL or "-". */
static kgen_status
emit(const char *path, const void *data, size_t len, kgen_error *err)
{
	if (path && strcmp(path, "-") != 0)
		return kgen_write_file(path, data, len, err);
	if (fwrite(data, 1, len, stdout) != len || fflush(stdout) != 0) {
		stdout_said = 1;  /* main() says it no more */
		return kgen_fail(err, KGEN_EIO, "cannot write to standard output");
	}
	return KGEN_OK;
}

/* kgen SPEC and kgen compile (cmd) take one spec (exit 2). */
static int
not_one_spec(const char *cmd, int argc)
{
	if (!argc)
		return kgen_cli_usage_error(cmd, "no spec given");
	return kgen_cli_usage_error(cmd, "expected one spec, got %d", argc);
}

/* kgen SPEC: the spec's CUDA C, to standard output or -o FILE. */
static int
cmd_generate(int argc, char **argv, const struct gen_opts *g)
{
	kgen_spec *spec = NULL;
	kgen_error err;
	char *src = NULL;
	const char *path;
	kgen_status st;

	if (argc != 1)
		return not_one_spec(NULL, argc);
	path = argv[0];
	if ((st = not_the_input(path, g->outpath, &err)) || (st = load_one(path, g, &spec, &err)) ||
	    (st = kgen_generate(spec, &src, &err)) || (st = emit(g->outpath, src, strlen(src), &err))) {
		kgen_spec_free(spec);
		free(src);
		return kgen_report(&err);
	}
	kgen_spec_free(spec);
	free(src);
	return 0;
}

/* One failed spec of `kgen check`: the diagnostic (as JSON with --json);
 * the worse of rc and its exit status. */
static int
check_failed(const char *path, const kgen_error *err, int json, int rc)
{
	int r = kgen_exit_status(err->status);

	if (json)
		kgen_json_error(stdout, path, err);
	else
		kgen_error_print(err, stderr);
	return r > rc ? r : rc;
}

/* kgen check: each spec validated (a plan: each entry's); the worst status. */
static int
cmd_check(int argc, char **argv, const struct gen_opts *g)
{
	kgen_spec *spec;
	kgen_error err;
	int i, e, rc = 0;

	if (argc == 0)
		return kgen_cli_usage_error("check", "no spec given");
	if (kgen_cli_stdin_once("check", argv, argc))
		return 2;
	for (i = 0; i < argc; i++) {
		if (kgen_cli_is_plan(argv[i])) {  /* a size plan: every entry's spec */
			kgen_plan *plan = NULL;
			if (g->nsets) {
				kgen_fail(&err, KGEN_EINVAL, "%s is a size plan: --set changes one spec, not a plan's", argv[i]);
				rc = check_failed(argv[i], &err, g->json, rc);
			} else if (kgen_plan_load_file(argv[i], &plan, &err) != KGEN_OK) {
				rc = check_failed(argv[i], &err, g->json, rc);
			} else if (g->arch) {
				for (e = 0; e < kgen_plan_count(plan); e++)
					if (kgen_spec_check_arch(kgen_plan_spec(plan, e, NULL), g->arch, &err) != KGEN_OK) {
						rc = check_failed(argv[i], &err, g->json, rc);
						break;
					}
			}
			kgen_plan_free(plan);
			continue;
		}
		if (kgen_cli_load(argv[i], g->sets, g->nsets, &spec, &err) != KGEN_OK) {
			rc = check_failed(argv[i], &err, g->json, rc);
			continue;
		}
		if (g->arch && kgen_spec_check_arch(spec, g->arch, &err) != KGEN_OK)
			rc = check_failed(argv[i], &err, g->json, rc);
		kgen_spec_free(spec);
	}
	return rc;
}

/* kgen compile --time: NVRTC's floor on arch, an empty kernel compiled
 * with kgen's options in this process after one untimed compile (which
 * loads NVRTC's own libraries), in us; -1 if NVRTC refused it. */
static double
floor_us(const char *arch, kgen_image kind)
{
	static const char empty[] = "extern \"C\" __global__ void kgen_floor() {}\n";
	double us = 0;
	void *image = NULL;
	size_t size;
	kgen_error err;
	int i;

	for (i = 0; i < 2; i++) {
		us = 0;
		if (kgen_compile_timed(empty, "floor.cu", arch, kind, &image, &size, NULL, &us, NULL, &err) != KGEN_OK)
			return -1;
		free(image);
	}
	return us;
}

/* A phase of NVRTC's report, or "-" where it has none. */
static const char *
report_ms(double ms, char *buf, size_t len)
{
	if (ms < 0)
		return "-";
	snprintf(buf, len, "%.0f", ms);
	return buf;
}

/* kgen compile --time's table, to fp. */
static void
print_times(FILE *fp, const char *path, const char *arch, kgen_image kind, const double us[5], double floor,
            const struct kgen_nvrtc_phases *ph)
{
	char a[32], b[32], c[32];

	fprintf(fp, "kgen compile --time %s (%s, %s):\n", path, arch, kind == KGEN_IMAGE_PTX ? "PTX" : "cubin");
	fprintf(fp, "  load and check %10.2f ms\n", us[0] / 1e3);
	fprintf(fp, "  generate       %10.2f ms\n", us[1] / 1e3);
	fprintf(fp, "  NVRTC          %10.2f ms  (front end %s, NVVM %s, ptxas %s: NVRTC's --time, whole ms)\n",
	        us[2] / 1e3, report_ms(ph->frontend_ms, a, sizeof a), report_ms(ph->nvvm_ms, b, sizeof b),
	        report_ms(ph->ptxas_ms, c, sizeof c));
	fprintf(fp, "  write          %10.2f ms\n", us[3] / 1e3);
	fprintf(fp, "  total          %10.2f ms\n", us[4] / 1e3);
	if (floor > 0)
		fprintf(fp, "  floor          %10.2f ms  (an empty kernel, kgen's options: NVRTC took %.2fx it)\n", floor / 1e3,
		        us[2] / floor);
}

/* kgen compile: the spec compiled with NVRTC, the cubin or PTX to -o FILE. */
static int
cmd_compile(int argc, char **argv, const struct gen_opts *g)
{
	const char *path, *arch = g->arch ? g->arch : "sm_90", *target;
	kgen_spec *spec = NULL;
	kgen_error err;
	char *src = NULL, *log = NULL, program[80], specific[24];
	void *image = NULL;
	size_t size = 0;
	kgen_status st;
	double us[5] = { 0 }, t0 = kgen_clock_us(), t = t0, floor = -1, floor_wall = 0;
	struct kgen_nvrtc_phases ph;

	if (argc != 1)
		return not_one_spec("compile", argc);
	path = argv[0];
	if (!g->outpath)
		return kgen_cli_usage_error("compile", "-o FILE is required (the output is binary)");
	if ((st = not_the_input(path, g->outpath, &err)) || (st = load_one(path, g, &spec, &err)) ||
	    (st = kgen_spec_check_arch(spec, arch, &err)))
		goto out;
	us[0] = kgen_clock_us() - t;
	t = kgen_clock_us();
	if ((st = kgen_generate(spec, &src, &err)))
		goto out;
	us[1] = kgen_clock_us() - t;
	/* NVRTC names the program in its log: the generated file's name, whose lines the log counts. */
	snprintf(program, sizeof program, "%s.cu", kgen_spec_kernel_name(spec));
	/* wgmma: sm_90a where sm_90 is asked for (its header says so). */
	target = kgen_spec_compile_arch(spec, arch, specific, sizeof specific);
	if (g->time) {
		t = kgen_clock_us();
		floor = floor_us(target, g->kind);  /* first: NVRTC's own loading is not the spec's */
		floor_wall = kgen_clock_us() - t;
		st = kgen_compile_phases(src, program, target, g->kind, &image, &size, &log, &us[2], &ph, &err);
	} else {
		st = kgen_compile(src, program, target, g->kind, &image, &size, &log, &err);
	}
	if (st == KGEN_ECOMPILE && kgen_locate_log(spec, src, log, &err) == KGEN_ESPEC)
		st = KGEN_ESPEC;  /* an error in an expression: reported at the spec's line and column */
	if (log && log[0])
		fprintf(stderr, "%s: NVRTC log (%s is the generated source, as `kgen %s` prints it):\n%s", path, program,
		        path, log);
	if (!st) {
		t = kgen_clock_us();
		st = emit(g->outpath, image, size, &err);
		us[3] = kgen_clock_us() - t;
	}
	us[4] = kgen_clock_us() - t0 - floor_wall;  /* the spec's own: not the floor's two compiles */
	if (!st && g->time)  /* beside the image on standard output (-o -): to standard error */
		print_times(strcmp(g->outpath, "-") == 0 ? stderr : stdout, path, target, g->kind, us, floor, &ph);
out:
	kgen_spec_free(spec);
	free(src);
	free(log);
	free(image);
	return st ? kgen_report(&err) : 0;
}

/* Run diff(1) -u on two texts, labelled.  Returns diff's status (0 same, 1 differ). */
static int
unified_diff(const char *a, const char *la, const char *b, const char *lb)
{
	char fa[] = "/tmp/kgen-diff-a-XXXXXX", fb[] = "/tmp/kgen-diff-b-XXXXXX";
	int da = mkstemp(fa), db = mkstemp(fb), status = 2;
	pid_t pid;

	if (da < 0 || db < 0 || write(da, a, strlen(a)) != (ssize_t)strlen(a) ||
	    write(db, b, strlen(b)) != (ssize_t)strlen(b)) {
		fprintf(stderr, "kgen diff: cannot write temporary files\n");
		goto out;
	}
	fflush(stdout);
	if ((pid = fork()) == 0) {
		execlp("diff", "diff", "-u", "--label", la, "--label", lb, fa, fb, (char *)NULL);
		perror("kgen diff: diff");
		_exit(2);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0) {
		status = 2;
	} else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGPIPE) {
		/* `kgen diff A B | head`: our standard output is closed too; end
		 * as diff(1) and every filter does. */
		unlink(fa);
		unlink(fb);
		signal(SIGPIPE, SIG_DFL);
		raise(SIGPIPE);
		status = 2;
	} else if (!WIFEXITED(status) || WEXITSTATUS(status) > 1) {
		fprintf(stderr, "kgen diff: diff(1) failed (%s %d)\n", WIFEXITED(status) ? "exit status" : "signal",
		        WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
		status = 2;
	} else {
		status = WEXITSTATUS(status);
	}
out:
	if (da >= 0) { close(da); unlink(fa); }
	if (db >= 0) { close(db); unlink(fb); }
	return status;
}

/* Load one side of kgen diff: the --set and --unset for both sides and
 * those for this one (--set-a or --set-b), in the order given. */
static kgen_status
load_side(const char *path, const struct gen_opts *g, char side, kgen_spec **spec, kgen_error *err)
{
	char *sets[64];
	int i, n = 0;

	for (i = 0; i < g->nsets; i++)
		if (!g->side[i] || g->side[i] == side)
			sets[n++] = g->sets[i];
	return kgen_cli_load(path, sets, n, spec, err);
}

/* The key of the same name as k that applies to spec s, where families
 * name two keys alike (scan's op and rows' op, their strategies); -1. */
static int
namesake(const kgen_spec *s, int k)
{
	int j;

	for (j = 0; j < KGEN_KEY_COUNT; j++)
		if (j != k && strcmp(kgen_keys[j].name, kgen_keys[k].name) == 0 && kgen_key_applies(s, (enum kgen_key)j))
			return j;
	return -1;
}

/* The fields that differ, one line each, by key: "key: a -> b"; the
 * number printed.  A key that applies to one spec only (another family's,
 * or an only-with key) shows "(none)" on the other side, and is listed
 * only where that spec writes it (in the file or with --set): otherwise it
 * holds its default, which came with the key that differs (stages: 1 with
 * staging: smem), and is the same as "(none)" in other words.  Two
 * families' keys of one name (op: sum -> softmax) are one line. */
static int
print_fields(const kgen_spec *a, const kgen_spec *b)
{
	char ba[KGEN_EXPR_MAX + 8], bb[KGEN_EXPR_MAX + 8];
	const char *va, *vb;
	int n = 0, k, ina, inb, ka, kb;
	unsigned char done[KGEN_KEY_COUNT] = { 0 };

	for (k = 0; k < KGEN_KEY_COUNT; k++) {
		if (done[k])
			continue;
		ina = kgen_key_applies(a, (enum kgen_key)k);
		inb = kgen_key_applies(b, (enum kgen_key)k);
		ka = kb = k;
		if (ina != inb && (ina ? (kb = namesake(b, k)) : (ka = namesake(a, k))) >= 0) {
			done[ina ? kb : ka] = 1;  /* its namesake's line is this one */
			ina = inb = 1;
		} else if ((!ina && !inb) || (ina != inb && !(ina ? a : b)->pos[k].line)) {
			continue;
		}
		va = ina ? kgen_spec_format_value(a, (enum kgen_key)ka, ba, sizeof ba) : "(none)";
		vb = inb ? kgen_spec_format_value(b, (enum kgen_key)kb, bb, sizeof bb) : "(none)";
		if (strcmp(va, vb) != 0) {
			printf("%s: %s -> %s\n", kgen_keys[k].name, va, vb);
			n++;
		}
	}
	return n;
}

/* kgen diff: the fields that differ, then diff -u of the two kernels. */
static int
cmd_diff(int argc, char **argv, const struct gen_opts *g)
{
	kgen_spec *a = NULL, *b = NULL;
	char *sa = NULL, *sb = NULL;
	kgen_error err;
	kgen_status st;
	int rc = 0;

	if (argc != 2)
		return kgen_cli_usage_error("diff", "expected two specs");
	if (strcmp(argv[0], "-") == 0 && strcmp(argv[1], "-") == 0) {
		fprintf(stderr, "kgen diff: A and B are both - (standard input), which can be read once: give one of "
		        "them as a file (a spec against itself changed: kgen diff s.yaml s.yaml --set-b KEY=VALUE)\n");
		return 2;
	}
	if ((st = load_side(argv[0], g, 'a', &a, &err)) || (st = load_side(argv[1], g, 'b', &b, &err)) ||
	    (st = kgen_generate(a, &sa, &err)) || (st = kgen_generate(b, &sb, &err))) {
		rc = kgen_report(&err);
		goto out;
	}
	if (!print_fields(a, b))
		printf("(no field differs)\n");
	printf("\n");
	rc = unified_diff(sa, argv[0], sb, argv[1]);
	if (rc > 1)
		rc = 3;
	else
		rc = 0;
out:
	kgen_spec_free(a);
	kgen_spec_free(b);
	free(sa);
	free(sb);
	return rc;
}

/* A command that takes kgen's own options. */
struct gen_command {
	const char *name;  /* NULL: kgen SPEC */
	const char *help;  /* kgen NAME --help (NULL: usage()) */
	int (*run)(int argc, char **argv, const struct gen_opts *g);  /* argv: the operands */
};

static const struct gen_command gen_generate = { .run = cmd_generate };

static const struct gen_command gen_check = {
	.name = "check",
	.help = "usage: kgen check SPEC... [--arch ARCH] [--json] [--set KEY=VALUE]... [--unset KEY]...\n"
	        "Validate each spec (with the overrides); print nothing for a good one and\n"
	        "file:line:column: error: ... for a bad one.  With --arch, also refuse a spec\n"
	        "whose features need a newer GPU than ARCH (method: tma needs sm_90).  With\n"
	        "--json, each diagnostic is a JSON object on a line of standard output:\n"
	        "{file, line, column, severity, status, exit, message, source_line}, and\n"
	        "overrides (\"--set threads=3\") where the error is theirs.\n"
	        "Exit 0 when every spec is good, else the worst spec's status.\n",
	.run = cmd_check,
};

static const struct gen_command gen_compile = {
	.name = "compile",
	.help = "usage: kgen compile SPEC [--entry N] [--arch ARCH] [--cubin|--ptx] [--time] [--set KEY=VALUE]...\n"
	        "                    [--unset KEY]... -o FILE\n"
	        "Generate the spec's CUDA C and compile it with NVRTC for ARCH (no GPU needed);\n"
	        "write the cubin (default) or the PTX to FILE (-o - : standard output).\n"
	        "--entry N takes the Nth spec (from 1) of a size plan, as kgen SPEC does.\n"
	        "--time prints where the time went: loading and checking the spec, generating\n"
	        "its source, NVRTC (with NVRTC's own split into its C++ front end, NVVM and\n"
	        "ptxas, whole milliseconds), writing FILE, the total; and NVRTC's floor, an\n"
	        "empty kernel compiled with kgen's options in the same process (after one\n"
	        "untimed compile that loads NVRTC), and NVRTC's time over it.  A kernel's\n"
	        "module load, the JIT's last phase, needs a GPU: kgen run's first call.\n",
	.run = cmd_compile,
};

static const struct gen_command gen_diff = {
	.name = "diff",
	.help = "usage: kgen diff A.yaml B.yaml [--set KEY=VALUE]... [--unset KEY]...\n"
	        "                 [--set-a KEY=VALUE]... [--set-b KEY=VALUE]...\n"
	        "The fields whose values differ (A -> B), then a unified diff of the two\n"
	        "generated kernels.  A key that applies to one spec only shows (none) on\n"
	        "the other side, and is listed where that spec writes it.  --set and --unset\n"
	        "change both specs; --set-a and --set-b change A or B only (KEY= unsets it\n"
	        "there), so that a file can be compared with itself changed, as in\n"
	        "`kgen diff s.yaml s.yaml --set-b threads=256`.  At most one of A and B may\n"
	        "be - (standard input, read once).  Exit 0 whether or not they differ\n"
	        "(1 when a spec is wrong, as everywhere).\n",
	.run = cmd_diff,
};

/* The usage of one command, for `kgen CMD --help` (stdout, exit 0) and its errors. */
static void
gen_usage(const struct gen_command *c, FILE *fp)
{
	if (c->help)
		fputs(c->help, fp);
	else
		usage(fp);
}

/* Options another command reads are refused, not ignored: -1 to go on, else 2. */
static int
refuse_others(const struct gen_command *c, const struct gen_opts *g)
{
	const char *cmd = c->name, *only = g->only;

	if (cmd && g->outpath && strcmp(cmd, "compile") != 0)
		return kgen_cli_usage_error(cmd, "-o has no effect: %s writes no file", cmd);
	if (only && !(cmd && strcmp(cmd, "compile") == 0) && !(cmd && strcmp(cmd, "check") == 0 && strcmp(only, "--arch") == 0))
		return kgen_cli_usage_error(cmd, "%s has no effect here: it is an option of kgen compile%s", only,
		                            strcmp(only, "--arch") == 0 ? " and kgen check" : "");
	if (g->one_side && !(cmd && strcmp(cmd, "diff") == 0))
		return kgen_cli_usage_error(cmd, "%s has no effect here: it is an option of kgen diff (--set changes the "
		                            "spec)", g->one_side);
	if (g->time && !(cmd && strcmp(cmd, "compile") == 0))
		return kgen_cli_usage_error(cmd, "--time has no effect here: it is an option of kgen compile");
	if (g->entry && cmd && strcmp(cmd, "compile") != 0)
		return kgen_cli_usage_error(cmd, "--entry has no effect here: it is an option of kgen SPEC and kgen compile "
		                            "(kgen %s takes a whole plan)", cmd);
	if (g->json && !(cmd && strcmp(cmd, "check") == 0))
		return kgen_cli_usage_error(cmd, "--json has no effect here: it is an option of kgen check (and kgen run "
		                            "--json FILE)");
	return -1;
}

/* --entry N: a number from 1 into *entry; -1 to go on, else 2. */
static int
entry_number(const char *cmd, const char *arg, int *entry)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (end == arg || *end || errno || v < 1 || v > 1000)
		return kgen_cli_usage_error(cmd, "--entry %s: expected a plan's entry number, from 1", arg);
	*entry = (int)v;
	return -1;
}

/* Run c: kgen's own options into a gen_opts, then c->run on the operands. */
static int
gen_main(const struct gen_command *c, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "set", required_argument, NULL, 's' },
		{ "unset", required_argument, NULL, 'u' },
		{ "set-a", required_argument, NULL, 'A' },
		{ "set-b", required_argument, NULL, 'B' },
		{ "arch", required_argument, NULL, 'a' },
		{ "cubin", no_argument, NULL, 'c' },
		{ "ptx", no_argument, NULL, 'p' },
		{ "json", no_argument, NULL, 'j' },
		{ "time", no_argument, NULL, 't' },
		{ "entry", required_argument, NULL, 'e' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct gen_opts g = { .kind = KGEN_IMAGE_CUBIN };
	int ch, r;

	while ((ch = getopt_long(argc, argv, "o:s:hV", longopts, NULL)) != -1) {
		switch (ch) {
		case 'o': g.outpath = optarg; break;
		case 's':
		case 'u':
		case 'A':
		case 'B':
			if ((r = kgen_cli_add_set(c->name, ch == 'u', optarg, optind < argc ? argv[optind] : NULL, g.sets,
			                          &g.nsets, (int)KGEN_COUNT(g.sets))))
				return r;
			g.side[g.nsets - 1] = ch == 'A' ? 'a' : ch == 'B' ? 'b' : 0;
			if ((ch == 'A' || ch == 'B') && !g.one_side)
				g.one_side = ch == 'A' ? "--set-a" : "--set-b";
			break;
		case 'a': g.arch = optarg; g.only = g.only ? g.only : "--arch"; break;
		case 'c':
		case 'p':
			if (g.kind_given && g.kind != (ch == 'c' ? KGEN_IMAGE_CUBIN : KGEN_IMAGE_PTX))
				return kgen_cli_usage_error(c->name, "--cubin and --ptx: one image a compile");
			g.kind = ch == 'c' ? KGEN_IMAGE_CUBIN : KGEN_IMAGE_PTX;
			g.kind_given = 1;
			g.only = ch == 'c' ? "--cubin" : "--ptx";
			break;
		case 'j': g.json = 1; break;
		case 't': g.time = 1; break;
		case 'e':
			if ((r = entry_number(c->name, optarg, &g.entry)) >= 0)
				return r;
			break;
		case 'h': gen_usage(c, stdout); return 0;
		case 'V': printf("kgen %s\n", kgen_version()); return 0;
		default: return kgen_cli_usage_error(c->name, NULL);  /* getopt has said what */
		}
	}
	if ((r = refuse_others(c, &g)) >= 0)
		return r;
	return c->run(argc - optind, argv + optind, &g);
}

static int check_main(int argc, char **argv) { return gen_main(&gen_check, argc, argv); }
static int compile_main(int argc, char **argv) { return gen_main(&gen_compile, argc, argv); }
static int diff_main(int argc, char **argv) { return gen_main(&gen_diff, argc, argv); }

static int cmd_help(int argc, char **argv);

/* The commands, in the order kgen --help lists them.  main() dispatches
 * through this table, and it is also the "did you mean" list and
 * `kgen help COMMAND`'s: a new command is a row.  A handler gets "kgen
 * NAME" as argv[0]; `kgen help NAME` calls it with { NAME, "--help" }. */
static const struct command {
	const char *name;
	int (*handler)(int argc, char **argv);
	const char *synopsis;  /* its lines after "usage:" in kgen --help */
	const char *summary;   /* its line in kgen --help's list */
} commands[] = {
	{ "check", check_main, "kgen check SPEC... [--arch ARCH] [--json] [--set KEY=VALUE]... [--unset KEY]...",
	  "validate specs, generate nothing" },
	{ "compile", compile_main,
	  "kgen compile SPEC [--entry N] [--arch ARCH] [--cubin|--ptx] [--time] [--set KEY=VALUE]... [--unset KEY]...\n"
	  "                  -o FILE",
	  "generate and compile with NVRTC (no GPU needed)" },
	{ "diff", diff_main,
	  "kgen diff A.yaml B.yaml [--set KEY=VALUE]... [--unset KEY]... [--set-a|--set-b KEY=VALUE]...",
	  "the fields that differ, then a unified diff of the kernels" },
	{ "space", kgen_cmd_space,
	  "kgen space SPACE.yaml [--list] [--emit DIR] [--compile] [--arch ARCH] [-j N]\n"
	  "                  [--set KEY=VALUE]... [--unset KEY]...",
	  "expand a spec space (lists, ranges), validate, list, compile" },
	{ "tune", kgen_cmd_tune,
	  "kgen tune SPACE.yaml [--n N]... [--shape RxC]... [--method events|graph|cold] [--plan FILE]\n"
	  "                  [--unset KEY]... ...",
	  "verify and time a space's points at each size; records, plans" },
	{ "run", kgen_cmd_run,
	  "kgen run SPEC... [--n N]... [--shape RxC]... [--verify] [--bench] [--json FILE] [--unset KEY]... ...",
	  "JIT-compile, run on the GPU, verify and benchmark" },
	{ "plot", kgen_cmd_plot, "kgen plot FILE... [--kind line|ladder|space] [--at SIZE] [--title TEXT] [-o FILE]",
	  "an SVG picture of kgen run's tables or kgen tune's records" },
	{ "keys", kgen_cmd_keys, "kgen keys [FAMILY]", "each family's keys and the values they take" },
	{ "cache", kgen_cmd_cache, "kgen cache list|clear", "list or clear the on-disk kernel cache" },
	{ "info", kgen_cmd_info, "kgen info", "the GPUs the CUDA driver sees" },
	{ "help", cmd_help, "kgen help [COMMAND]", "this help, or a command's (kgen help run)" },
};

static void
usage(FILE *fp)
{
	size_t i;

	fputs("usage: kgen SPEC.yaml|- [-o FILE] [--entry N] [--set KEY=VALUE]... [--unset KEY]...\n", fp);
	for (i = 0; i < KGEN_COUNT(commands); i++)
		fprintf(fp, "       %s\n", commands[i].synopsis);
	fputs("\n"
	      "Turn a YAML kernel spec into self-contained CUDA C (written to standard\n"
	      "output, or to FILE with -o; nothing is written when the spec is wrong).\n"
	      "\n", fp);
	for (i = 0; i < KGEN_COUNT(commands); i++)
		fprintf(fp, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fputs("\n"
	      "  -o, --output FILE   write to FILE (through a temporary file)\n"
	      "  -s, --set KEY=VALUE override one field of the spec (KEY= unsets it)\n"
	      "      --unset KEY     remove a field of the spec: it takes its default\n"
	      "      --arch ARCH     NVRTC target for compile (default sm_90); with check,\n"
	      "                      refuse specs that need a newer GPU than ARCH\n"
	      "      --cubin, --ptx  what compile writes (default cubin)\n"
	      "      --entry N       a size plan's Nth spec (from 1), for kgen SPEC and compile\n"
	      "      --json          check: each diagnostic as a JSON object on a line\n"
	      "      --set-a KEY=VALUE, --set-b KEY=VALUE\n"
	      "                      diff: override a field of A or of B only\n"
	      "  -h, --help          this help\n"
	      "  -V, --version       kgen's version\n"
	      "\n"
	      "Only ", fp);
	kgen_print_gpu_commands(fp, "");
	fputs(" need a GPU and its driver; every other command works\n"
	      "without one.\n"
	      "\n"
	      "Exit status: 0 success; 1 the spec is wrong (file:line:column on stderr);\n"
	      "2 bad command line; 3 a file could not be read or written; 4 NVRTC\n"
	      "failed; 5 the CUDA driver or GPU failed or is missing; 6 a result did\n"
	      "not verify; 7 out of memory; 70 an internal error in kgen.\n"
	      "The spec language is in docs/spec.md and kgen(1).\n", fp);
}

/* The row of the command called name; NULL when there is none. */
static const struct command *
find_command(const char *name)
{
	size_t i;

	for (i = 0; i < KGEN_COUNT(commands); i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

/* The command whose name is nearest to word, for "did you mean"; NULL: none is near. */
static const char *
nearest_command(const char *word)
{
	const char *names[KGEN_COUNT(commands)];
	size_t i;

	for (i = 0; i < KGEN_COUNT(commands); i++)
		names[i] = commands[i].name;
	return kgen_nearest_name(word, names, KGEN_COUNT(commands));
}

/* argv[1] is no file and looks like a mistyped command: say so (exit 2). */
static int
unknown_command(const char *word)
{
	const char *near;
	struct stat st;

	if (word[0] == '-' || strchr(word, '/') || strchr(word, '.') || stat(word, &st) == 0)
		return 0;
	if ((near = nearest_command(word)))
		fprintf(stderr, "kgen: unknown command '%s' (did you mean '%s'?)\n", word, near);
	else
		fprintf(stderr, "kgen: unknown command '%s', and no spec file of that name\n", word);
	fprintf(stderr, "(kgen --help lists the commands)\n");
	return 1;
}

/* `kgen help [COMMAND]`: the help, or the command's (its handler asked for
 * its --help). */
static int
cmd_help(int argc, char **argv)
{
	char *args[] = { NULL, (char *)"--help", NULL };
	const struct command *c;
	const char *near;
	size_t i;

	if (argc < 2) {
		usage(stdout);
		return 0;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		fputs("usage: kgen help [COMMAND]\n"
		      "The help (as kgen --help), or COMMAND's (as kgen COMMAND --help).\n", stdout);
		return 0;
	}
	if (argc > 2)
		return kgen_cli_usage_error("help", "one command at a time");
	if (strcmp(argv[1], "help") == 0) {  /* the whole help, not help's own (kgen help --help) */
		usage(stdout);
		return 0;
	}
	if ((c = find_command(argv[1]))) {
		args[0] = argv[1];
		return c->handler(2, args);
	}
	near = nearest_command(argv[1]);
	fprintf(stderr, "kgen help: no command '%s'%s%s%s; the commands: ", argv[1], near ? " (did you mean '" : "",
	        near ? near : "", near ? "'?)" : "");
	for (i = 0; i < KGEN_COUNT(commands); i++)
		fprintf(stderr, "%s%s", i ? ", " : "", commands[i].name);
	fputc('\n', stderr);
	return 2;
}

/* Everything the command line does; main() then checks standard output. */
static int
kgen_main(int argc, char **argv)
{
	const struct command *c;

	if (argc > 1 && (c = find_command(argv[1]))) {
		static char self[32];
		snprintf(self, sizeof self, "kgen %s", c->name);
		argv[1] = self;  /* getopt's messages begin "kgen CMD:" */
		return c->handler(argc - 1, argv + 1);
	}
	if (argc > 1 && unknown_command(argv[1]))
		return 2;
	argv[0] = (char *)"kgen";  /* getopt's messages begin "kgen:", whatever path ran it */
	return gen_main(&gen_generate, argc, argv);
}

int
main(int argc, char **argv)
{
	int rc;

	/* Over `ulimit -f`, a write fails (EFBIG) like any other: the error
	 * path removes the temporary file and exits 3, where the default
	 * SIGXFSZ would kill kgen and leave it behind. */
	signal(SIGXFSZ, SIG_IGN);
	rc = kgen_main(argc, argv);

	/* A full disk or a closed pipe under --help is an error too, and where
	 * standard output was what the command made (kgen check --json's
	 * diagnostics) it is the error that counts: 3, said once. */
	if (fflush(stdout) != 0 || ferror(stdout)) {
		if (!stdout_said)
			fprintf(stderr, "kgen: cannot write to standard output\n");
		return 3;
	}
	return rc;
}
