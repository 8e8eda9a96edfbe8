/* generate.c - kgen_generate(): one spec in, its family's CUDA source out. */
#include "config.h"
#include "reduce.h"

kgen_status
kgen_generate(const kgen_spec *spec, char **source, kgen_error *err)
{
	strbuf b;
	kgen_status st;

	if (!spec || !source)
		return kgen_fail(err, KGEN_EINVAL, "kgen_generate: NULL argument");
	*source = NULL;
	sb_init(&b);
	switch (spec->kernel) {
	case KGEN_REDUCE: st = kgen_reduce_emit(spec, &b, err); break;
	default: st = kgen_fail(err, KGEN_EINTERNAL, "internal error: no generator for kernel %lld", spec->kernel); break;
	}
	if (st != KGEN_OK) {
		sb_free(&b);
		return st;
	}
	if (!(*source = sb_take(&b)))
		return kgen_fail(err, KGEN_ENOMEM, "out of memory");
	return KGEN_OK;
}
