/*
 * rows.h - the table rows of the toy family, `kernel: scale`, added to
 * gen/spec.h's tables by KGEN_EXTRA_FAMILIES and KGEN_EXTRA_KEYS: the one
 * edit a real family makes in gen/spec.h, made here instead so that every
 * file of this family lies under tests/toy/.  Makefile.am builds the
 * library and kgen again with `-include tests/toy/rows.h` (the toy's own
 * libkgen-toy and tests/toy/kgen, for its tests only).
 *
 * Its `stages` is an integer, where reduce's is an enum of how per-block
 * results become one: a key name two families use with two meanings.
 */
#define KGEN_EXTRA_FAMILIES(X) \
	X(SCALE, "scale", "multiply a vector by a constant (a family from tests/toy/ only)", scale)
#define KGEN_EXTRA_KEYS(X) \
	X(scale_stages, "stages", KT_INT, NULL, 1, 8, "2", "kernel: scale: elements each thread scales, one after another") \
	X(factor,       "factor", KT_INT, NULL, -1000, 1000, "3", "kernel: scale: the integer each element is multiplied by")
