/* generate.c - kgen_generate(): one spec in, its family's CUDA source out. */
#include "config.h"
#include "family.h"

kgen_status
kgen_generate(const kgen_spec *spec, char **source, kgen_error *err)
{
	const struct kgen_family *f;
	struct kgen_contract plan;
	strbuf header, b;
	kgen_status st;

	if (!spec || !source)
		return kgen_fail(err, KGEN_EINVAL, "kgen_generate: NULL argument");
	*source = NULL;
	f = kgen_family_of(spec);
	f->contract(spec, &plan);
	sb_init(&header);
	sb_init(&b);
	kgen_emit_header(spec, &plan, &header);
	if (header.failed)
		st = kgen_fail(err, KGEN_ENOMEM, "out of memory");
	else
		st = f->emit(spec, header.s, &b, err);
	sb_free(&header);
	if (st == KGEN_OK && kgen_take_internal(err))  /* one of kgen's invariants broke: no file */
		st = KGEN_EINTERNAL;
	if (st != KGEN_OK) {
		sb_free(&b);
		return st;
	}
	if (!(*source = sb_take(&b)))
		return kgen_fail(err, KGEN_ENOMEM, "out of memory");
	return KGEN_OK;
}
