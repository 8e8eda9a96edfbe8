/*
 * check.c - reject, before any code is emitted, the specs that cannot work,
 * and resolve the defaults that depend on other fields.  The rules every
 * family shares are here (its keys, its only-with table, the accumulator
 * types); each family's own rules are its `check` hook.  Each rule names
 * the field at fault, its value and what would work instead.
 */
#include "config.h"
#include <string.h>
#include "family.h"

#define ERR(k, ...) kgen_spec_error(s, KGEN_KEY_##k, 1, err, __VA_ARGS__)

int
kgen_is_pow2(long long v)
{
	return v > 0 && (v & (v - 1)) == 0;
}

/* The dtype rules of the reductions: what may accumulate what. */
kgen_status
kgen_check_acc_types(struct kgen_spec *s, kgen_error *err)
{
	const struct kgen_dtype_info *in = &kgen_dtype_info[s->dtype], *acc;

	if (s->acc_dtype < 0)
		s->acc_dtype = in->cls == DT_HALF || in->cls == DT_BHALF ? KGEN_DT_F32 : s->dtype;
	acc = &kgen_dtype_info[s->acc_dtype];
	if (acc->cls == DT_HALF || acc->cls == DT_BHALF)
		return ERR(acc_dtype, "acc_dtype %s: 16-bit accumulators lose precision and have no atomics here; "
		           "accumulate in f32 or f64", acc->name);
	if ((in->cls == DT_FLOAT || in->cls == DT_HALF || in->cls == DT_BHALF) && acc->cls != DT_FLOAT)
		return ERR(acc_dtype, "acc_dtype %s cannot accumulate %s elements: use f32 or f64", acc->name, in->name);
	if ((in->cls == DT_INT || in->cls == DT_UINT) && acc->cls != DT_FLOAT && acc->size < in->size)
		return ERR(acc_dtype, "acc_dtype %s is narrower than dtype %s", acc->name, in->name);
	return KGEN_OK;
}

/* Keys written in the spec must belong to its family. */
static kgen_status
check_family(struct kgen_spec *s, kgen_error *err)
{
	const struct kgen_family *f = kgen_family_of(s);
	int k;

	for (k = 0; k < KGEN_KEY_COUNT; k++)
		if (s->pos[k].line && !kgen_family_has_key(f, (enum kgen_key)k))
			return kgen_spec_error(s, (enum kgen_key)k, 0, err, "%s does not apply to kernel: %s",
			                       kgen_keys[k].name, kgen_families[s->kernel].name);
	return KGEN_OK;
}

kgen_status
kgen_spec_check(struct kgen_spec *s, kgen_error *err)
{
	kgen_status st;

	if ((st = check_family(s, err)) || (st = kgen_check_only_with(s, err)))
		return st;
	return kgen_family_of(s)->check(s, err);
}
