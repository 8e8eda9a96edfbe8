/*
 * info.c - `kgen info`: the CUDA driver and NVRTC versions, then a line per
 * GPU the driver sees, with the size plans kgen ships for its model (read
 * from the plans' folder).  The one command that builds no kernel.
 */
#include "config.h"
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "runtime/runtime.h"

static int
cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The shipped plans that serve the GPU named gpu (kgen_plan_shipped_path()
 * of each OP-DTYPE.yaml under the plans folder), on one line: "plans:
 * FOLDER: sum-f32 ..." or "plans: none in DIR". */
static void
print_plans(const char *gpu)
{
	const char *dir = kgen_plans_dir();
	char sub[4096], path[4096], want[4096], *names[64], *folder = NULL;
	struct dirent *e, *f;
	DIR *top, *d;
	int n = 0, i;

	if ((top = opendir(dir))) {
		while ((e = readdir(top)) && n < 64) {
			if (e->d_name[0] == '.' || (size_t)snprintf(sub, sizeof sub, "%s/%s", dir, e->d_name) >= sizeof sub ||
			    !(d = opendir(sub)))
				continue;
			while ((f = readdir(d)) && n < 64) {
				char op[64], *dash, *dot;
				size_t len = strlen(f->d_name);
				kgen_error err;
				if (len < 6 || len >= sizeof op || strcmp(f->d_name + len - 5, ".yaml") != 0)
					continue;
				snprintf(op, sizeof op, "%s", f->d_name);
				dot = op + len - 5;
				*dot = '\0';
				if (!(dash = strchr(op, '-')))
					continue;
				*dash = '\0';
				if (kgen_plan_shipped_path(dir, gpu, op, dash + 1, path, sizeof path, &err) || !path[0] ||
				    (size_t)snprintf(want, sizeof want, "%s/%s", sub, f->d_name) >= sizeof want || strcmp(path, want))
					continue;
				*dash = '-';
				if (!(names[n] = kgen_strdup(op)))
					break;
				n++;
				if (!folder)
					folder = kgen_strdup(sub);
			}
			closedir(d);
		}
		closedir(top);
	}
	if (!n) {
		printf("   plans: none in %s (reductions, scans and matmul take their default specs)\n", dir);
		return;
	}
	qsort(names, (size_t)n, sizeof *names, cmp_names);
	printf("   plans: %s:", folder ? folder : dir);
	for (i = 0; i < n; i++) {
		printf(" %s", names[i]);
		free(names[i]);
	}
	printf("%s\n", n == 64 ? " (the first 64)" : "");
	free(folder);
}

/* The GPUs the driver sees; exit 5 when there is none. */
static int
list_gpus(void)
{
	const struct kgen_cu *cu;
	kgen_context *ctx;
	kgen_error err;
	int count = 0, i, version = 0;

	if (kgen_cu_load(&cu, &err))
		return kgen_report(&err);
	cu->cuDriverGetVersion(&version);
	cu->cuDeviceGetCount(&count);
	printf("CUDA driver %d.%d, NVRTC %s, %d GPU(s)\n", version / 1000, version % 1000 / 10, kgen_nvrtc_version(), count);
	for (i = 0; i < count; i++) {
		if (kgen_context_create(i, &ctx, &err))
			return kgen_report(&err);
		printf("%d: %s, %s, %d SMs, %zu MB L2\n", i, ctx->name, ctx->arch, ctx->sm_count, ctx->l2_bytes >> 20);
		print_plans(ctx->name);
		kgen_context_destroy(ctx);
	}
	return count ? 0 : 5;
}

int
kgen_cmd_info(int argc, char **argv)
{
	static const char help[] = "usage: kgen info\n"
	                           "The CUDA driver and NVRTC versions, then a line per GPU the driver sees:\n"
	                           "number, name, architecture, multiprocessors, L2; under it the size plans\n"
	                           "kgen ships for its model ($KGEN_PLANS_DIR, else the installed ones), each\n"
	                           "OP-DTYPE, which kgen run shipped:OP-DTYPE runs.  Exit 5 without a driver.\n";

	if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		fputs(help, stdout);
		return 0;
	}
	if (argc != 1)
		return kgen_cli_usage_error("info", argv[1][0] == '-' ? "unrecognized option '%s'" : "takes no operand, "
		                            "not '%s'", argv[1]);
	return list_gpus();
}
