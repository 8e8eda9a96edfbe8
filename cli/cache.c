/*
 * cache.c - `kgen cache list|clear`: the on-disk kernel cache
 * (runtime/cache.h) seen from the command line.
 */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "runtime/cache.h"

static const char help[] = "usage: kgen cache list|clear\n"
                           "list: the cache directory, then a line per compiled kernel kept on disk (file,\n"
                           "size, kernel name, architecture, age); clear: remove them.  The directory is\n"
                           "$KGEN_CACHE_DIR, else $XDG_CACHE_HOME/kgen, else ~/.cache/kgen.\n";

/* Anything but one action: say what is wrong, then where the help is (exit 2). */
static int
bad_action(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc && argv[i][0] != '-'; i++)
		;
	if (argc < 2)
		fprintf(stderr, "kgen cache: expected list or clear\n");
	else if (i < argc)  /* kgen cache list --bogus: the option, not a count of words */
		fprintf(stderr, "kgen cache: unknown option '%s'\n", argv[i]);
	else if (argc > 2)
		fprintf(stderr, "kgen cache: one action at a time, not %d words\n", argc - 1);
	else
		fprintf(stderr, "kgen cache: unknown action '%s': expected list or clear\n", argv[1]);
	return kgen_cli_usage_error("cache", NULL);
}

int
kgen_cmd_cache(int argc, char **argv)
{
	char dir[4096];
	kgen_error err;
	unsigned removed = 0;

	if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		fputs(help, stdout);
		return 0;
	}
	if (argc != 2 || (strcmp(argv[1], "list") && strcmp(argv[1], "clear")))
		return bad_action(argc, argv);
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
