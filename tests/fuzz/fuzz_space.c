/*
 * fuzz_space.c - libFuzzer over spec spaces (cli/space.c): any bytes as a
 * space, expanded into points.  What must hold, for every input:
 *   - no memory error or undefined behaviour (built with ASan and UBSan);
 *   - a refusal is KGEN_ESPEC (or KGEN_EINVAL: too many points, or
 *     KGEN_ENOMEM) with a message;
 *   - every accepted point is a spec that loads on its own, and its label
 *     holds no control character (labels reach the terminal and plans).
 * Inputs are cut at 512 bytes and spaces at 32 points: a space is a few
 * lines, and a longer or larger one only makes more points of the same
 * kind (the limit itself, 200000 for kgen space, is the same comparison).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "kgen.h"
#include "cli/space.h"

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kgen_points pts;
	kgen_error err;
	kgen_status st;
	const char *c;
	int i;

	if (size > 512)
		return 0;
	st = kgen_space_expand_text((const char *)data, size, "fuzz.space.yaml", NULL, 0, 32, &pts, &err);
	if (st != KGEN_OK) {
		CHECK(st == KGEN_ESPEC || st == KGEN_EINVAL || st == KGEN_ENOMEM);
		CHECK(err.status == st && err.message[0]);
		return 0;
	}
	CHECK(pts.n >= 0 && pts.n <= pts.total);
	for (i = 0; i < pts.n; i++) {
		kgen_spec *spec = NULL;
		CHECK(kgen_spec_load_string(pts.v[i].yaml, strlen(pts.v[i].yaml), "point", &spec, &err) == KGEN_OK);
		kgen_spec_free(spec);
		for (c = pts.v[i].label; *c; c++)
			CHECK((unsigned char)*c >= 0x20 && *c != 0x7f);
	}
	kgen_points_free(&pts);
	return 0;
}
