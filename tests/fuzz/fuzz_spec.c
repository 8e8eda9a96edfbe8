/*
 * fuzz_spec.c - libFuzzer over the spec loader, the validator and the
 * generators: any bytes as a spec.  What must hold, for every input:
 *   - no memory error or undefined behaviour (built with ASan and UBSan);
 *   - a refusal is KGEN_ESPEC with a message and a place (line and column
 *     from 1), or KGEN_ENOMEM; never another status;
 *   - an accepted spec dumps and generates (KGEN_OK), and loading it twice
 *     gives the same source (no nondeterminism).
 * Build and run: `make fuzz` (clang with -fsanitize=fuzzer); a bounded run
 * is part of `make check` when clang is there (tests/fuzz.sh).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "kgen.h"

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

static char *
generate(const uint8_t *data, size_t size, kgen_status *st)
{
	kgen_spec *spec = NULL;
	kgen_error err;
	char *src = NULL, *dump = NULL;

	*st = kgen_spec_load_string((const char *)data, size, "fuzz.yaml", &spec, &err);
	if (*st != KGEN_OK) {
		CHECK(*st == KGEN_ESPEC || *st == KGEN_ENOMEM);
		CHECK(err.status == *st && err.message[0]);
		if (*st == KGEN_ESPEC)
			CHECK(err.line >= 1 && err.column >= 1 && strcmp(err.file, "fuzz.yaml") == 0);
		return NULL;
	}
	CHECK(kgen_spec_dump(spec, &dump) == KGEN_OK && dump);
	CHECK(kgen_generate(spec, &src, &err) == KGEN_OK && src);
	free(dump);
	kgen_spec_free(spec);
	return src;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	kgen_status a, b;
	char *s1 = generate(data, size, &a), *s2;

	if (s1) {
		s2 = generate(data, size, &b);
		CHECK(b == KGEN_OK && s2 && strcmp(s1, s2) == 0);
		free(s2);
	}
	free(s1);
	/* The same text as a size plan: each entry's spec goes through the same loader. */
	{
		kgen_plan *plan = NULL;
		kgen_error err;
		if (kgen_plan_load_string((const char *)data, size, "fuzz.yaml", &plan, &err) == KGEN_OK) {
			int i;
			CHECK(kgen_plan_count(plan) >= 1 && kgen_plan_count(plan) <= KGEN_PLAN_MAX);
			for (i = 0; i < kgen_plan_count(plan); i++)
				CHECK(kgen_plan_spec(plan, i, NULL) != NULL);
		}
		kgen_plan_free(plan);
	}
	return 0;
}
