/* cli.h - what the command's files share. */
#ifndef KGEN_CLI_H
#define KGEN_CLI_H

#include <stdarg.h>
#include "kgen.h"

/* The exit status for a kgen_status (see usage()). */
int kgen_exit_status(kgen_status st);
/* Print err to stderr; return its exit status. */
int kgen_report(const kgen_error *err);
/* Load a spec and apply --set KEY=VALUE overrides. */
kgen_status kgen_cli_load(const char *path, char **sets, int nsets, kgen_spec **spec, kgen_error *err);

/* Is the file at path a size plan (not a spec)?  0 when it cannot be read
 * (the spec loader then says why). */
int kgen_cli_is_plan(const char *path);
/* `kgen run` and `kgen cache` (run.c). */
int kgen_cmd_runtime(int argc, char **argv);
/* `kgen space` (space.c): a spec space expanded, validated, compiled. */
int kgen_cmd_space(int argc, char **argv);
/* `kgen tune` (tune.c): a space's points verified and timed by n; the size plan. */
int kgen_cmd_tune(int argc, char **argv);

#endif
