/* generate.c - kgen_generate(): one spec in, its family's CUDA source out. */
#include "config.h"
#include "reduce.h"
#include "transpose.h"

/* The spec's fields as a comment block, for the header of every generated file. */
void
kgen_emit_spec_comment(const struct kgen_spec *s, strbuf *b)
{
	char buf[96];
	int k;

	sb_puts(b, "// Spec, defaults filled in:\n");
	for (k = 0; k < KGEN_KEY_COUNT; k++)
		if (kgen_key_in_family(s, (enum kgen_key)k))
			sb_printf(b, "//   %s: %s\n", kgen_keys[k].name,
			          kgen_spec_format_value(s, (enum kgen_key)k, buf, sizeof buf));
}

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
	case KGEN_TRANSPOSE: st = kgen_transpose_emit(spec, &b, err); break;
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
