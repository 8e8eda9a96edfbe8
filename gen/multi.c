/* multi.c - the partial spec and the combine kernel of a multi-GPU
 * reduction (see multi.h). */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "multi.h"
#include "op.h"
#include "tpl.h"

#define TRY(e) do { if ((st = (e)) != KGEN_OK) goto out; } while (0)

const char *
kgen_multi_kernel_name(const struct kgen_spec *s, char *buf, size_t n)
{
	snprintf(buf, n, "%s_multi", kgen_spec_kernel_name(s));
	return buf;
}

/* The fields that take the last step off s: its op's sum of the same
 * accumulator, no post, out_dtype the accumulator's.  *n of them. */
static void
partial_fields(const struct kgen_spec *s, const char **keys, const char **values, int *n)
{
	*n = 0;
	keys[*n] = "out_dtype", values[(*n)++] = s->r.acc->name;
	keys[*n] = "name", values[(*n)++] = NULL;  /* the partial op's default name */
	switch (kgen_op_info[s->op].post) {
	case OP_POST_MEAN:
		keys[*n] = "op", values[(*n)++] = "sum";
		break;
	case OP_POST_NORM2:
		keys[*n] = "op", values[(*n)++] = "sumsq";
		break;
	case OP_POST_EXPR:
		keys[*n] = "post", values[(*n)++] = NULL;
		break;
	default:
		break;
	}
	/* The accumulator stays the one the op chose (mean of i32 sums in i64). */
	keys[*n] = "acc_dtype", values[(*n)++] = s->r.acc->name;
}

kgen_status
kgen_multi_partial_spec(const struct kgen_spec *s, struct kgen_spec **partial, kgen_error *err)
{
	const char *keys[8], *values[8];
	char name[300];
	struct kgen_spec *p;
	kgen_status st;
	int n;

	*partial = NULL;
	if (s->r.pair || !s->r.last_step)
		return KGEN_OK;
	/* A copy whose written keys stay written: the defaults that follow the
	 * op (stages, atomics, out_dtype) are derived afresh for the new one. */
	snprintf(name, sizeof name, "%s (each GPU's partial)", s->file ? s->file : "<spec>");
	if (!(p = malloc(sizeof *p)))
		return kgen_fail(err, KGEN_ENOMEM, "out of memory");
	*p = *s;
	p->text = NULL;
	p->text_len = 0;
	if (!(p->file = kgen_strdup(name))) {
		free(p);
		return kgen_fail(err, KGEN_ENOMEM, "out of memory");
	}
	partial_fields(s, keys, values, &n);
	if ((st = kgen_spec_set_many(p, n, keys, values, err)) == KGEN_OK)
		*partial = p;
	else
		kgen_spec_free(p);
	return st;
}

kgen_status
kgen_multi_generate(const struct kgen_spec *s, char **source, kgen_error *err)
{
	struct tpl_args file, part;
	strbuf out;
	char name[96];
	kgen_status st = KGEN_OK;

	tpl_init(&file);
	tpl_init(&part);
	sb_init(&out);
	tpl_set(&file, "name", "%s", kgen_multi_kernel_name(s, name, sizeof name));
	tpl_set(&file, "op", "%s", kgen_ops[s->op].name);
	tpl_set(&file, "dtype", "%s", s->r.dtype->name);
	tpl_set(&file, "acc_dtype", "%s", s->r.acc->name);
	tpl_set(&file, "t_ctype", "%s", s->r.dtype->ctype);
	tpl_set(&file, "version", "%s", KGEN_VERSION);
	tpl_set(&file, "max_parts", "%d", KGEN_MULTI_MAX);
	TRY(kgen_op_render(s, KGEN_OP_STORE, &file, err));
	TRY(tpl_render_into(&file, "part", s->r.pair ? "multi/part_pair.cu" : "multi/part_scalar.cu", &part, err));
	TRY(tpl_render(&out, "multi/file.cu", &file, err));
	if (out.failed)
		st = kgen_fail(err, KGEN_ENOMEM, "out of memory");
	else
		*source = sb_take(&out);
out:
	tpl_free(&file);
	tpl_free(&part);
	sb_free(&out);
	return st;
}
