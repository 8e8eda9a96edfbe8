/* run.c - `kgen run` and `kgen cache`: the GPU runtime's commands. */
#include "config.h"
#include <stdio.h>
#include "cli.h"

int
kgen_cmd_runtime(int argc, char **argv)
{
	fprintf(stderr, "kgen %s: not built yet\n", argv[0]);
	return 70;
}
