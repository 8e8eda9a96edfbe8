/*
 * kgen.c - the command line: generate, check, compile and diff specs.
 * Exit statuses are listed in usage() and in kgen.1.
 */
#include "config.h"
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

static void
usage(FILE *fp)
{
	fputs("usage: kgen SPEC.yaml|- [-o FILE] [--set KEY=VALUE]... [--unset KEY]...\n"
	      "       kgen check SPEC... [--arch ARCH] [--json] [--set KEY=VALUE]... [--unset KEY]...\n"
	      "       kgen compile SPEC [--arch sm_90] [--cubin|--ptx] [--set KEY=VALUE]... [--unset KEY]... -o FILE\n"
	      "       kgen diff A.yaml B.yaml [--set KEY=VALUE]... [--unset KEY]...\n"
	      "       kgen space SPACE.yaml [--list] [--emit DIR] [--compile] [--arch ARCH] [-j N]\n"
	      "                  [--set KEY=VALUE]... [--unset KEY]...\n"
	      "       kgen tune SPACE.yaml [--n N]... [--method events|graph|cold] [--plan FILE] [--unset KEY]... ...\n"
	      "       kgen run SPEC... [--n N]... [--shape RxC]... [--verify] [--bench] [--json FILE] [--unset KEY]... ...\n"
	      "       kgen keys [FAMILY]\n"
	      "       kgen cache list|clear\n"
	      "       kgen info\n"
	      "       kgen help [COMMAND]\n"
	      "\n"
	      "Turn a YAML kernel spec into self-contained CUDA C (written to standard\n"
	      "output, or to FILE with -o; nothing is written when the spec is wrong).\n"
	      "\n"
	      "  check      validate specs, generate nothing\n"
	      "  compile    generate and compile with NVRTC (no GPU needed)\n"
	      "  diff       the fields that differ, then a unified diff of the kernels\n"
	      "  space      expand a spec space (lists, ranges), validate, list, compile\n"
	      "  tune       verify and time a space's points at each n; write the size plan\n"
	      "  run        JIT-compile, run on the GPU, verify and benchmark\n"
	      "  keys       each family's keys and the values they take\n"
	      "  cache      list or clear the on-disk kernel cache\n"
	      "  info       the GPUs the CUDA driver sees\n"
	      "  help       this help, or a command's (kgen help run)\n"
	      "\n"
	      "  -o, --output FILE   write to FILE (through a temporary file)\n"
	      "  -s, --set KEY=VALUE override one field of the spec (KEY= unsets it)\n"
	      "      --unset KEY     remove a field of the spec: it takes its default\n"
	      "      --arch ARCH     NVRTC target for compile (default sm_90); with check,\n"
	      "                      refuse specs that need a newer GPU than ARCH\n"
	      "      --cubin, --ptx  what compile writes (default cubin)\n"
	      "      --json          check: each diagnostic as a JSON object on a line\n"
	      "  -h, --help          this help\n"
	      "  -V, --version       kgen's version\n"
	      "\n"
	      "Only run and info need a GPU and its driver; every other command works\n"
	      "without one.\n"
	      "\n"
	      "Exit status: 0 success; 1 the spec is wrong (file:line:column on stderr);\n"
	      "2 bad command line; 3 a file could not be read or written; 4 NVRTC\n"
	      "failed; 5 the CUDA driver or GPU failed or is missing; 6 a result did\n"
	      "not verify; 7 out of memory; 70 an internal error in kgen.\n"
	      "The spec language is in docs/spec.md and kgen(1).\n", fp);
}

int
kgen_exit_status(kgen_status st)
{
	switch (st) {
	case KGEN_OK: return 0;
	case KGEN_ESPEC: return 1;
	case KGEN_EINVAL: return 2;
	case KGEN_EIO: return 3;
	case KGEN_ECOMPILE: return 4;
	case KGEN_ECUDA: return 5;
	case KGEN_EVERIFY: return 6;
	case KGEN_ENOMEM: return 7;
	default: return 70;
	}
}

int
kgen_report(const kgen_error *err)
{
	kgen_error_print(err, stderr);
	if (err->status == KGEN_ECUDA && strncmp(err->message, "no CUDA driver", 14) == 0)
		fputs("kgen: running kernels (kgen run, kgen tune, kgen info) needs an NVIDIA GPU and its driver;\n"
		      "kgen SPEC, check, compile, diff, space and keys work without one.\n", stderr);
	return kgen_exit_status(err->status);
}

/* Load a spec and apply the --set overrides, validated together. */
kgen_status
kgen_cli_load(const char *path, char **sets, int nsets, kgen_spec **spec, kgen_error *err)
{
	const char *keys[64], *values[64];
	char buf[64][96];
	kgen_status st;
	int i;

	if ((st = kgen_spec_load_file(path, spec, err)) != KGEN_OK)
		return st;
	for (i = 0; i < nsets && i < 64; i++) {
		char *eq = strchr(sets[i], '=');
		if (!eq || eq == sets[i] || (size_t)(eq - sets[i]) >= sizeof buf[i]) {
			kgen_spec_free(*spec);
			*spec = NULL;
			return kgen_fail(err, KGEN_EINVAL, "--set %s: expected KEY=VALUE", sets[i]);
		}
		snprintf(buf[i], sizeof buf[i], "%.*s", (int)(eq - sets[i]), sets[i]);
		keys[i] = buf[i];
		values[i] = eq + 1;
	}
	if (nsets && (st = kgen_spec_set_many(*spec, nsets, keys, values, err)) != KGEN_OK) {
		kgen_spec_free(*spec);
		*spec = NULL;
		/* Name the overrides: "--set threads=100 --set dtype=f64". */
		{
			char label[sizeof err->file] = "";
			size_t used = 0;
			for (i = 0; i < nsets && used < sizeof label; i++)
				used += (size_t)snprintf(label + used, sizeof label - used, "%s--set %s", i ? " " : "", sets[i]);
			if (err->line > 0) {
				size_t len = strlen(err->message);
				snprintf(err->message + len, sizeof err->message - len, " (after %s)", label);
			} else {
				/* "s.yaml (--set threads=100)": which spec, and which override. */
				char file[sizeof err->file];
				snprintf(file, sizeof file, "%s (%s)", path, label);
				memcpy(err->file, file, sizeof err->file);
			}
		}
		return st;
	}
	return KGEN_OK;
}

char *
kgen_cli_unset(const char *key)
{
	static char pool[64][128];
	static int used;

	if (!key[0] || strchr(key, '=') || strlen(key) + 2 > sizeof pool[0] || used == 64)
		return NULL;
	snprintf(pool[used], sizeof pool[0], "%s=", key);
	return pool[used++];
}

int
kgen_cli_is_plan(const char *path)
{
	char *text;
	size_t len;
	int is;

	if (!path || strcmp(path, "-") == 0 || kgen_read_file(path, &text, &len, NULL) != KGEN_OK)
		return 0;
	is = kgen_plan_text_is_plan(text, len);
	free(text);
	return is;
}

/* A plan is several specs: generate and compile take one. */
static kgen_status
not_a_plan(const char *path, kgen_error *err)
{
	if (kgen_cli_is_plan(path))
		return kgen_fail(err, KGEN_EINVAL, "%s is a size plan, several specs: generate or compile one of its "
		                 "entries (kgen check and kgen run take the plan)", path);
	return KGEN_OK;
}

/* Refuse an output that is the input spec itself (kgen s.yaml -o s.yaml). */
static kgen_status
not_the_input(const char *in, const char *out, kgen_error *err)
{
	struct stat a, b;

	if (out && strcmp(out, "-") != 0 && stat(in, &a) == 0 && stat(out, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino &&
	    S_ISREG(a.st_mode))
		return kgen_fail(err, KGEN_EINVAL, "-o %s is the spec itself: choose another output", out);
	return KGEN_OK;
}

/* Write data to path, or to standard output when path is NULL or "-". */
static kgen_status
emit(const char *path, const void *data, size_t len, kgen_error *err)
{
	if (path && strcmp(path, "-") != 0)
		return kgen_write_file(path, data, len, err);
	if (fwrite(data, 1, len, stdout) != len || fflush(stdout) != 0)
		return kgen_fail(err, KGEN_EIO, "cannot write to standard output");
	return KGEN_OK;
}

static int
cmd_generate(const char *path, const char *outpath, char **sets, int nsets)
{
	kgen_spec *spec = NULL;
	kgen_error err;
	char *src = NULL;
	kgen_status st;

	if ((st = not_the_input(path, outpath, &err)) || (st = not_a_plan(path, &err)) ||
	    (st = kgen_cli_load(path, sets, nsets, &spec, &err)) ||
	    (st = kgen_generate(spec, &src, &err)) || (st = emit(outpath, src, strlen(src), &err))) {
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

static int
cmd_check(int argc, char **argv, char **sets, int nsets, const char *arch, int json)
{
	kgen_spec *spec;
	kgen_error err;
	int i, e, rc = 0;

	if (argc == 0) {
		fprintf(stderr, "kgen check: no spec given\n");
		return 2;
	}
	for (i = 0; i < argc; i++) {
		if (kgen_cli_is_plan(argv[i])) {  /* a size plan: every entry's spec */
			kgen_plan *plan = NULL;
			if (nsets) {
				kgen_fail(&err, KGEN_EINVAL, "%s is a size plan: --set changes one spec, not a plan's", argv[i]);
				rc = check_failed(argv[i], &err, json, rc);
			} else if (kgen_plan_load_file(argv[i], &plan, &err) != KGEN_OK) {
				rc = check_failed(argv[i], &err, json, rc);
			} else if (arch) {
				for (e = 0; e < kgen_plan_count(plan); e++)
					if (kgen_spec_check_arch(kgen_plan_spec(plan, e, NULL), arch, &err) != KGEN_OK) {
						rc = check_failed(argv[i], &err, json, rc);
						break;
					}
			}
			kgen_plan_free(plan);
			continue;
		}
		if (kgen_cli_load(argv[i], sets, nsets, &spec, &err) != KGEN_OK) {
			rc = check_failed(argv[i], &err, json, rc);
			continue;
		}
		if (arch && kgen_spec_check_arch(spec, arch, &err) != KGEN_OK)
			rc = check_failed(argv[i], &err, json, rc);
		kgen_spec_free(spec);
	}
	return rc;
}

static int
cmd_compile(const char *path, const char *outpath, const char *arch, kgen_image kind, char **sets, int nsets)
{
	kgen_spec *spec = NULL;
	kgen_error err;
	char *src = NULL, *log = NULL, program[80];
	void *image = NULL;
	size_t size = 0;
	kgen_status st;

	if (!outpath) {
		fprintf(stderr, "kgen compile: -o FILE is required (the output is binary)\n");
		return 2;
	}
	if ((st = not_the_input(path, outpath, &err)) || (st = not_a_plan(path, &err)) ||
	    (st = kgen_cli_load(path, sets, nsets, &spec, &err)) || (st = kgen_spec_check_arch(spec, arch, &err)) ||
	    (st = kgen_generate(spec, &src, &err)))
		goto out;
	/* NVRTC names the program in its log: the generated file's name, whose lines the log counts. */
	snprintf(program, sizeof program, "%s.cu", kgen_spec_kernel_name(spec));
	st = kgen_compile(src, program, arch, kind, &image, &size, &log, &err);
	if (st == KGEN_ECOMPILE && kgen_locate_log(spec, src, log, &err) == KGEN_ESPEC)
		st = KGEN_ESPEC;  /* an error in an expression: reported at the spec's line and column */
	if (log && log[0])
		fprintf(stderr, "%s: NVRTC log (%s is the generated source, as `kgen %s` prints it):\n%s", path, program,
		        path, log);
	if (!st)
		st = emit(outpath, image, size, &err);
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

static int
cmd_diff(int argc, char **argv, char **sets, int nsets)
{
	kgen_spec *a = NULL, *b = NULL;
	char *sa = NULL, *sb = NULL, *ya = NULL, *yb = NULL;
	kgen_error err;
	kgen_status st;
	int rc = 0;

	if (argc != 2) {
		fprintf(stderr, "kgen diff: expected two specs\n");
		return 2;
	}
	if ((st = kgen_cli_load(argv[0], sets, nsets, &a, &err)) || (st = kgen_cli_load(argv[1], sets, nsets, &b, &err)) ||
	    (st = kgen_generate(a, &sa, &err)) || (st = kgen_generate(b, &sb, &err))) {
		rc = kgen_report(&err);
		goto out;
	}
	/* The fields first, one line each, by key: "key: a -> b"; a key that
	 * applies to one spec only (another family, or an only-with key) shows
	 * "(none)" on the other side. */
	{
		char ba[KGEN_EXPR_MAX + 8], bb[KGEN_EXPR_MAX + 8];
		const char *va, *vb;
		int n = 0, k, ina, inb;
		for (k = 0; k < KGEN_KEY_COUNT; k++) {
			ina = kgen_key_applies(a, (enum kgen_key)k);
			inb = kgen_key_applies(b, (enum kgen_key)k);
			if (!ina && !inb)
				continue;
			va = ina ? kgen_spec_format_value(a, (enum kgen_key)k, ba, sizeof ba) : "(none)";
			vb = inb ? kgen_spec_format_value(b, (enum kgen_key)k, bb, sizeof bb) : "(none)";
			if (strcmp(va, vb) != 0) {
				printf("%s: %s -> %s\n", kgen_keys[k].name, va, vb);
				n++;
			}
		}
		if (!n)
			printf("(no field differs)\n");
		printf("\n");
	}
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
	free(ya);
	free(yb);
	return rc;
}

/* The usage of one command, for `kgen CMD --help` (stdout, exit 0) and its errors. */
static void
cmd_usage(const char *cmd, FILE *fp)
{
	if (strcmp(cmd, "check") == 0)
		fputs("usage: kgen check SPEC... [--arch ARCH] [--json] [--set KEY=VALUE]... [--unset KEY]...\n"
		      "Validate each spec (with the overrides); print nothing for a good one and\n"
		      "file:line:column: error: ... for a bad one.  With --arch, also refuse a spec\n"
		      "whose features need a newer GPU than ARCH (method: tma needs sm_90).  With\n"
		      "--json, each diagnostic is a JSON object on a line of standard output:\n"
		      "{file, line, column, severity, status, exit, message, source_line}.\n"
		      "Exit 0 when every spec is good, else the worst spec's status.\n", fp);
	else if (strcmp(cmd, "compile") == 0)
		fputs("usage: kgen compile SPEC [--arch sm_90] [--cubin|--ptx] [--set KEY=VALUE]... [--unset KEY]... -o FILE\n"
		      "Generate the spec's CUDA C and compile it with NVRTC for ARCH (no GPU needed);\n"
		      "write the cubin (default) or the PTX to FILE (-o - : standard output).\n", fp);
	else if (strcmp(cmd, "diff") == 0)
		fputs("usage: kgen diff A.yaml B.yaml [--set KEY=VALUE]... [--unset KEY]...\n"
		      "The fields whose values differ (A -> B), then a unified diff of the two\n"
		      "generated kernels.  Exit 0 whether or not they differ (1 when a spec is\n"
		      "wrong, as everywhere).\n", fp);
}

/* The commands, for "did you mean". */
static const char *const commands[] = { "check", "compile", "diff", "space", "tune", "run", "keys", "cache", "info", "help" };

/* argv[1] is no file and looks like a mistyped command: say so (exit 2). */
static int
unknown_command(const char *word)
{
	const char *near;
	struct stat st;

	if (word[0] == '-' || strchr(word, '/') || strchr(word, '.') || stat(word, &st) == 0)
		return 0;
	if ((near = kgen_nearest_name(word, commands, KGEN_COUNT(commands))))
		fprintf(stderr, "kgen: unknown command '%s' (did you mean '%s'?)\n", word, near);
	else
		fprintf(stderr, "kgen: unknown command '%s', and no spec file of that name\n", word);
	fprintf(stderr, "(kgen --help lists the commands)\n");
	return 1;
}

/* The verbs that have a parser of their own (`kgen help VERB` asks it for
 * its --help). */
static int
own_parser(int argc, char **argv)
{
	if (strcmp(argv[0], "space") == 0)
		return kgen_cmd_space(argc, argv);
	if (strcmp(argv[0], "tune") == 0)
		return kgen_cmd_tune(argc, argv);
	if (strcmp(argv[0], "keys") == 0)
		return kgen_cmd_keys(argc, argv);
	if (strcmp(argv[0], "run") == 0 || strcmp(argv[0], "cache") == 0 || strcmp(argv[0], "info") == 0)
		return kgen_cmd_runtime(argc, argv);
	return -1;
}

/* `kgen help [COMMAND]`: the help, or the command's. */
static int
cmd_help(int argc, char **argv)
{
	char *args[] = { NULL, (char *)"--help", NULL };
	const char *near;

	if (argc < 2) {
		usage(stdout);
		return 0;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		fputs("usage: kgen help [COMMAND]\n"
		      "The help (as kgen --help), or COMMAND's (as kgen COMMAND --help).\n", stdout);
		return 0;
	}
	if (argc > 2) {
		fprintf(stderr, "kgen help: one command at a time\n");
		return 2;
	}
	if (strcmp(argv[1], "check") == 0 || strcmp(argv[1], "compile") == 0 || strcmp(argv[1], "diff") == 0) {
		cmd_usage(argv[1], stdout);
		return 0;
	}
	if (strcmp(argv[1], "help") == 0) {
		usage(stdout);
		return 0;
	}
	args[0] = argv[1];
	if (strcmp(argv[1], "space") == 0 || strcmp(argv[1], "tune") == 0 || strcmp(argv[1], "keys") == 0 ||
	    strcmp(argv[1], "run") == 0 || strcmp(argv[1], "cache") == 0 || strcmp(argv[1], "info") == 0)
		return own_parser(2, args);
	near = kgen_nearest_name(argv[1], commands, KGEN_COUNT(commands));
	fprintf(stderr, "kgen help: no command '%s'%s%s%s; the commands: check, compile, diff, space, tune, run, keys, "
	        "cache, info, help\n", argv[1], near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
	return 2;
}

/* Everything the command line does; main() then checks standard output. */
static int
kgen_main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "set", required_argument, NULL, 's' },
		{ "unset", required_argument, NULL, 'u' },
		{ "arch", required_argument, NULL, 'a' },
		{ "cubin", no_argument, NULL, 'c' },
		{ "ptx", no_argument, NULL, 'p' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const char *cmd = NULL, *outpath = NULL, *arch = NULL, *only = NULL;
	kgen_image kind = KGEN_IMAGE_CUBIN;
	char *sets[64];
	int nsets = 0, c, json = 0, r;

	if (argc > 1 && strcmp(argv[1], "help") == 0)
		return cmd_help(argc - 1, argv + 1);
	if (argc > 1 && (r = own_parser(argc - 1, argv + 1)) >= 0)
		return r;
	if (argc > 1 && (strcmp(argv[1], "check") == 0 || strcmp(argv[1], "compile") == 0 ||
	                 strcmp(argv[1], "diff") == 0)) {
		cmd = argv[1];
		argv++;
		argc--;
	} else if (argc > 1 && unknown_command(argv[1])) {
		return 2;
	}
	while ((c = getopt_long(argc, argv, "o:s:hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'o': outpath = optarg; break;
		case 's':
		case 'u':
			if (nsets == (int)(sizeof sets / sizeof sets[0])) {
				fprintf(stderr, "kgen: too many --set and --unset options\n");
				return 2;
			}
			if (c == 'u') {
				if (!(sets[nsets] = kgen_cli_unset(optarg))) {
					fprintf(stderr, "kgen: --unset %s: expected a key (--unset threads)\n", optarg);
					return 2;
				}
				nsets++;
			} else {
				sets[nsets++] = optarg;
			}
			break;
		case 'a': arch = optarg; only = only ? only : "--arch"; break;
		case 'c': kind = KGEN_IMAGE_CUBIN; only = "--cubin"; break;
		case 'p': kind = KGEN_IMAGE_PTX; only = "--ptx"; break;
		case 'j': json = 1; break;
		case 'h':
			if (cmd)
				cmd_usage(cmd, stdout);
			else
				usage(stdout);
			return 0;
		case 'V': printf("kgen %s\n", kgen_version()); return 0;
		default: usage(stderr); return 2;
		}
	}
	argc -= optind;
	argv += optind;
	if (cmd && outpath && strcmp(cmd, "compile") != 0) {
		fprintf(stderr, "kgen %s: -o has no effect: %s writes no file\n", cmd, cmd);
		cmd_usage(cmd, stderr);
		return 2;
	}
	/* Options another command reads are refused, not ignored. */
	if (only && !(cmd && strcmp(cmd, "compile") == 0) && !(cmd && strcmp(cmd, "check") == 0 && strcmp(only, "--arch") == 0)) {
		fprintf(stderr, "kgen%s%s: %s has no effect here: it is an option of kgen compile%s\n", cmd ? " " : "",
		        cmd ? cmd : "", only, strcmp(only, "--arch") == 0 ? " and kgen check" : "");
		return 2;
	}
	if (json && !(cmd && strcmp(cmd, "check") == 0)) {
		fprintf(stderr, "kgen%s%s: --json has no effect here: it is an option of kgen check (and kgen run --json FILE)\n",
		        cmd ? " " : "", cmd ? cmd : "");
		return 2;
	}
	if (cmd && strcmp(cmd, "check") == 0)
		return cmd_check(argc, argv, sets, nsets, arch, json);
	if (cmd && strcmp(cmd, "diff") == 0)
		return cmd_diff(argc, argv, sets, nsets);
	if (argc != 1) {
		fprintf(stderr, argc ? "kgen: expected one spec, got %d\n" : "kgen: no spec given%.0d\n", argc);
		usage(stderr);
		return 2;
	}
	if (cmd && strcmp(cmd, "compile") == 0)
		return cmd_compile(argv[0], outpath, arch ? arch : "sm_90", kind, sets, nsets);
	return cmd_generate(argv[0], outpath, sets, nsets);
}

int
main(int argc, char **argv)
{
	int rc = kgen_main(argc, argv);

	/* A full disk or a closed pipe under --help is an error too. */
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "kgen: cannot write to standard output\n");
		return rc ? rc : 3;
	}
	return rc;
}
