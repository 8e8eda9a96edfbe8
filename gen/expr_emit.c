/*
 * expr_emit.c - the C that the spec's expressions need besides their own
 * text: the activations they call, which NVRTC does not declare
 * (expr_parse.h's KGEN_EXPR_FUNCS), from templates/expr/activations.cu.
 */
#include "config.h"
#include "expr_emit.h"
#include "expr_parse.h"
#include "util.h"

/* The activations, each a section of templates/expr/activations.cu. */
static const char *const activations[] = { "gelu", "gelu_tanh", "sigmoid", "silu" };

/* Does any of the spec's expressions (the keys of type KT_EXPR) call fn? */
static int
calls(const struct kgen_spec *s, const char *fn)
{
	int k;

	for (k = 0; k < KGEN_KEY_COUNT; k++) {
		const char *text = kgen_keys[k].type == KT_EXPR ? kgen_spec_expr_text(s, (enum kgen_key)k) : NULL;
		if (text && kgen_expr_uses(text, fn))
			return 1;
	}
	return 0;
}

kgen_status
kgen_expr_render_activations(const struct kgen_spec *s, struct tpl_args *parent, const char *name, kgen_error *err)
{
	struct tpl_args a;
	strbuf out;
	kgen_status st;
	size_t i;
	int any = 0;

	tpl_init(&a);
	for (i = 0; i < sizeof activations / sizeof *activations; i++) {
		int used = calls(s, activations[i]);
		tpl_show(&a, activations[i], used);
		any |= used;
	}
	sb_init(&out);
	if (!any)
		st = KGEN_OK;
	else if (!(st = tpl_render(&out, "expr/activations.cu", &a, err)))
		sb_printf(&out, "\n");  /* a blank line before what follows */
	if (!st && out.failed)
		st = kgen_fail(err, KGEN_ENOMEM, "out of memory");
	if (!st)
		tpl_set(parent, name, "%s", out.s ? out.s : "");
	sb_free(&out);
	tpl_free(&a);
	return st;
}
