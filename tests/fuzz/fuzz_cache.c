/*
 * fuzz_cache.c - libFuzzer over the disk cache's reader: any bytes as the
 * entry file of a fixed key.  kgen_cache_get() must never crash or read out
 * of bounds; it either misses (and may remove the file) or hits with an
 * image that is a byte-for-byte part of the file, behind the exact key.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "runtime/cache.h"

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

static char dir[64];

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kgen_cache_key key = {
		.source = "extern \"C\" __global__ void k() {}\n",
		.options = "--std=c++17",
		.arch = "sm_90",
		.nvrtc_version = "13.0",
		.kgen_version = "0.1.0",
		.name = "k",
	};
	char name[KGEN_CACHE_NAME_MAX], path[128];
	void *image = NULL;
	size_t n = 0;
	kgen_error err;
	int fd;

	if (!dir[0]) {
		snprintf(dir, sizeof dir, "/tmp/kgen-fuzz-cache.XXXXXX");
		CHECK(mkdtemp(dir));
	}
	kgen_cache_entry_name(&key, name);
	snprintf(path, sizeof path, "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	CHECK(fd >= 0);
	CHECK(size == 0 || write(fd, data, size) == (ssize_t)size);
	close(fd);
	CHECK(kgen_cache_get(dir, &key, &image, &n, &err) == KGEN_OK);
	if (image) {
		CHECK(n <= size && memmem(data, size, image, n) != NULL);
		CHECK(((char *)image)[n] == '\0');
		free(image);
	}
	unlink(path);
	return 0;
}
