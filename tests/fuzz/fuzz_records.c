/*
 * fuzz_records.c - libFuzzer over kgen tune's records reader
 * (cli/records.c): any bytes as one line of a records file.  What must
 * hold, for every input:
 *   - no memory error or undefined behaviour (built with ASan and UBSan);
 *   - a line taken as a record has a key (NUL-terminated in its buffer),
 *     and one that says ok has a finite, positive median: a planted or
 *     broken record never stands for a measurement it does not hold.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "cli/records.h"

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kgen_record r;
	char *line = malloc(size + 1);

	if (!line)
		return 0;
	memcpy(line, data, size);
	line[size] = '\0';  /* as getline() gives it */
	if (kgen_record_parse(line, size, &r)) {
		CHECK(memchr(r.key, '\0', sizeof r.key) != NULL);
		CHECK(!r.ok || (isfinite(r.median_us) && r.median_us > 0));
		CHECK(r.ok || r.median_us == -1);
	}
	free(line);
	return 0;
}
