/*
 * scale.c - the toy family `kernel: scale`: out[i] = in[i] * factor.  It
 * exists to show that a family is its own files plus table rows: it lives
 * under tests/toy/ (this file, rows.h, templates/toy/scale.cu, the
 * launcher scale_launch.c, the runner run_scale.c, the Python module
 * kgen_scale.py) and goes through the shared loader, validator, header
 * comment, generator, runtime, `kgen run` and Python, with a key name
 * (`stages`) that `kernel: reduce` also has, as another type.
 */
#include "config.h"
#include <string.h>
#include "gen/family.h"
#include "gen/tpl.h"
#include "scale.h"

#define ERR(k, ...) kgen_spec_error(s, KGEN_KEY_##k, 1, err, __VA_ARGS__)

static kgen_status
check(struct kgen_spec *s, kgen_error *err)
{
	const struct kgen_dtype_info *dt = kgen_spec_dtype(s);

	if (dt->cls == DT_HALF || dt->cls == DT_BHALF)
		return ERR(dtype, "kernel: scale multiplies in the element type: use i32, u32, i64, f32 or f64, not %s",
		           dt->name);
	if (s->threads < 0)
		s->threads = 256;
	if (s->threads % 32)
		return ERR(threads, "threads %lld is not a multiple of the warp size, 32", s->threads);
	if (dt->cls == DT_UINT && s->factor < 0)
		return ERR(factor, "factor %lld is negative and dtype %s is unsigned", s->factor, dt->name);
	if (!s->name)
		snprintf(s->name_text, sizeof s->name_text, "scale_%s", dt->name);
	return KGEN_OK;
}

long long
kgen_scale_per_block(const struct kgen_spec *s)
{
	return s->threads * s->scale_stages;
}

static void
contract(const struct kgen_spec *s, struct kgen_contract *p)
{
	memset(p, 0, sizeof *p);
	kgen_contract_printf(p->title, sizeof p->title, "a vector of %s times %lld", kgen_spec_dtype(s)->name,
	                     s->factor);
	kgen_contract_printf(p->heading, sizeof p->heading, "Kernel (extern \"C\"):");
	kgen_contract_step(p, "", "in, out, n", "grid", s->threads);
	kgen_contract_note(p, "// grid = ceil(n / %lld): each thread scales %lld elements.\n", kgen_scale_per_block(s),
	                   s->scale_stages);
}

static kgen_status
emit(const struct kgen_spec *s, const char *header, strbuf *out, kgen_error *err)
{
	struct tpl_args t;

	tpl_init(&t);
	tpl_set(&t, "header", "%s", header);
	tpl_set(&t, "ctype", "%s", kgen_spec_dtype(s)->ctype);
	tpl_set(&t, "name", "%s", kgen_spec_kernel_name(s));
	tpl_set(&t, "threads", "%lld", s->threads);
	tpl_set(&t, "stages", "%lld", s->scale_stages);
	tpl_set(&t, "factor", "%lld", s->factor);
	return tpl_render(out, "toy/scale.cu", &t, err);
}

static const struct kgen_only_with only_with[] = {
	{ KGEN_KEY_COUNT, KGEN_KEY_COUNT, 0, NULL },
};

static const enum kgen_key keys[] = {
	KGEN_KEY_kernel, KGEN_KEY_name, KGEN_KEY_dtype, KGEN_KEY_threads, KGEN_KEY_scale_stages, KGEN_KEY_factor,
	KGEN_KEY_COUNT,
};

/* What a spec computes (family.h): plans' entries and tunings' points agree on it. */
static const enum kgen_key computes[] = {
	KGEN_KEY_dtype, KGEN_KEY_factor, KGEN_KEY_COUNT,
};

const struct kgen_family kgen_family_scale = {
	.name = "scale",
	.size = KGEN_SIZE_N,
	.keys = keys,
	.computes = computes,
	.only_with = only_with,
	.check = check,
	.contract = contract,
	.emit = emit,
};
