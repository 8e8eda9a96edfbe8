/* expr_emit.h - the C that the spec's expressions need besides their text:
 * the activations they call (templates/expr/activations.cu). */
#ifndef KGEN_EXPR_EMIT_H
#define KGEN_EXPR_EMIT_H

#include "spec.h"
#include "tpl.h"

/* Set `name` in parent to the definitions of the activations (gelu,
 * gelu_tanh, sigmoid, silu) that any of the spec's expressions calls, or
 * to nothing when none does. */
kgen_status kgen_expr_render_activations(const struct kgen_spec *s, struct tpl_args *parent, const char *name,
                                         kgen_error *err);

#endif
