/*
 * info.c - `kgen info`: the CUDA driver and NVRTC versions, then a line per
 * GPU the driver sees.  The one command that only asks the driver.
 */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "runtime/runtime.h"

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
		kgen_context_destroy(ctx);
	}
	return count ? 0 : 5;
}

int
kgen_cmd_info(int argc, char **argv)
{
	static const char help[] = "usage: kgen info\n"
	                           "The CUDA driver and NVRTC versions, then a line per GPU the driver sees:\n"
	                           "number, name, architecture, multiprocessors, L2.  Exit 5 without a driver.\n";

	if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		fputs(help, stdout);
		return 0;
	}
	if (argc != 1) {
		fputs(help, stderr);
		return 2;
	}
	return list_gpus();
}
