/* cli.h - what the command's files share (cli.c) and their commands. */
#ifndef KGEN_CLI_H
#define KGEN_CLI_H

#include <stdarg.h>
#include <stdio.h>
#include "kgen.h"
#include "gen/util.h"  /* KGEN_PRINTF */

/* The exit status for a kgen_status (see usage()). */
int kgen_exit_status(kgen_status st);
/* The commands that need a GPU and its driver, NULL-terminated: kgen
 * --help and the no-driver message of kgen_report() list them (and kgen.1,
 * which man_test.sh compares with kgen --help). */
extern const char *const kgen_gpu_commands[];
/* Them to fp: with a prefix, "kgen run, kgen tune, kgen info"; with "",
 * "run, tune and info". */
void kgen_print_gpu_commands(FILE *fp, const char *prefix);
/* Print err to stderr (after "no CUDA driver", what needs one and what
 * works without); return its exit status. */
int kgen_report(const kgen_error *err);
/* Load a spec and apply --set KEY=VALUE overrides. */
kgen_status kgen_cli_load(const char *path, char *const *sets, int nsets, kgen_spec **spec, kgen_error *err);
/* The same for entry (from 1) of the size plan at path: a copy of its spec. */
kgen_status kgen_cli_load_entry(const char *path, int entry, char *const *sets, int nsets, kgen_spec **spec,
                                kgen_error *err);

/* --unset KEY as the --set it stands for ("KEY=", unsetting the key), in
 * storage that lives as long as the program; NULL when KEY is no key (empty,
 * with '=', too long) or after 64 of them. */
char *kgen_cli_unset(const char *key);

/* A usage error, as coreutils reports one: "kgen CMD: WHAT" (cmd NULL:
 * "kgen: WHAT"; fmt NULL: none, getopt has said it), then "Try 'kgen CMD
 * --help' for more information." on stderr, not the whole help.  Returns
 * 2, the exit status of a bad command line. */
int kgen_cli_usage_error(const char *cmd, const char *fmt, ...) KGEN_PRINTF(2, 3);

/* Standard input (-) named more than once among paths: it can be read
 * once.  2 after saying so (a usage error of cmd), else 0. */
int kgen_cli_stdin_once(const char *cmd, char *const *paths, int n);

/* An option's whole argument as a decimal integer from lo to hi (hex with
 * 0x too; a leading 0 is not octal), into *v: 0, or 2 after saying on
 * stderr what is wrong ("kgen run: --runs abc: an integer from 1 to
 * 2147483647"), where atoi() read "abc" as 0 and "3x" as 3.
 * kgen_cli_unsigned(): the same from 0 to 2^64 - 1 (--seed). */
int kgen_cli_integer(const char *cmd, const char *option, const char *arg, long long lo, long long hi,
                     long long *v);
int kgen_cli_unsigned(const char *cmd, const char *option, const char *arg, unsigned long long *v);

/* One --set KEY=VALUE (unset 0) or --unset KEY (unset 1) appended to
 * sets[*nsets] (at most max); 0, or 2 after saying on stderr what is wrong
 * (kgen_cli_usage_error: "kgen CMD: --unset a=b: expected a key"; cmd
 * NULL: "kgen: ...").  next is the argument after arg (NULL: none): for
 * `--set threads 256`, "--set needs KEY=VALUE (got 'threads'); did you
 * mean --set threads=256?". */
int kgen_cli_add_set(const char *cmd, int unset, char *arg, const char *next, char **sets, int *nsets, int max);

/* Refuse an output file that is one of the inputs (the same file by device
 * and inode, whatever its name: ./s.yaml, a hard link), since opening it
 * for writing would truncate what is still to be read: "OPTION OUT is
 * WHAT[, INPUT] itself: ...".  Standard output ("-"), a file not there
 * yet and anything not a regular file pass. */
kgen_status kgen_cli_not_an_input(const char *option, const char *out, char *const *inputs, int ninputs,
                                  const char *what, kgen_error *err);

/* Do two output paths name one file (./x and x, a link; for a file not
 * made yet, the same name in the same folder)?  "-" is no file. */
int kgen_cli_same_file(const char *a, const char *b);

/* The hash kgen tune's records name a point by ("spec_hash"): FNV-1a of
 * the spec with every default resolved, as 16 hex digits (the same kernel,
 * the same hash). */
kgen_status kgen_cli_spec_hash(const kgen_spec *s, char out[17], kgen_error *err);

/* Is the file at path a size plan (not a spec)?  0 when it cannot be read
 * (the spec loader then says why). */
int kgen_cli_is_plan(const char *path);
/* The commands of the table in kgen.c, each its own file; argv[0] is the
 * command's name.  `kgen run` (run.c): specs built, run, verified, timed. */
int kgen_cmd_run(int argc, char **argv);
/* `kgen info` (info.c): the driver, NVRTC and the GPUs. */
int kgen_cmd_info(int argc, char **argv);
/* `kgen cache list|clear` (cache.c): the on-disk kernel cache. */
int kgen_cmd_cache(int argc, char **argv);
/* `kgen space` (space.c): a spec space expanded, validated, compiled. */
int kgen_cmd_space(int argc, char **argv);
/* `kgen tune` (tune.c): a space's points verified and timed by n; the size plan. */
int kgen_cmd_tune(int argc, char **argv);
/* `kgen plot` (plot.c): SVG pictures of kgen run's tables, kgen tune's
 * records and plans. */
int kgen_cmd_plot(int argc, char **argv);
/* `kgen keys [FAMILY]` (keys.c): each family's keys, types, values and
 * defaults, a tab-separated line each, from the key table. */
int kgen_cmd_keys(int argc, char **argv);

/* JSON output (json.c): s as a JSON string body (quotes, backslashes and
 * control characters escaped); one diagnostic as a JSON object on a line
 * ({file, line, column, severity, status, exit, message, source_line});
 * a --tsv table (header line, then rows) as one object per row, keyed by
 * the header's names: names as strings, numbers in JSON's grammar as
 * numbers, nan and inf as null. */
void kgen_json_string(FILE *fp, const char *s);
void kgen_json_error(FILE *fp, const char *path, const kgen_error *err);
kgen_status kgen_json_from_tsv(FILE *tsv, FILE *out, kgen_error *err);
/* s as one cell of kgen run's --tsv table: backslash, tab, newline and
 * carriage return as \\, \t, \n and \r, so that any spec path stays one
 * cell of one row (kgen_json_from_tsv() reads them back). */
void kgen_tsv_text(FILE *fp, const char *s);

#endif
