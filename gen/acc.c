/*
 * acc.c - what every reduction family shares: the pieces of C that depend
 * on the op and the accumulator type (atomics; op.c has the rest), and
 * the warp and block reductions (the keys block_reduce, warp_tail and
 * warp_tail_from).
 */
#include "config.h"
#include <string.h>
#include "acc.h"
#include "op.h"
#include "tpl.h"

/* The atomic_combine() helper: native where the hardware has one, else CAS. */
kgen_status
kgen_acc_atomic_helper(const struct kgen_spec *s, struct tpl_args *parent, kgen_error *err)
{
	const struct kgen_dtype_info *a = s->r.acc;
	struct tpl_args t;
	char call[96];

	tpl_init(&t);
	if (kgen_op_native_atomic(s, call, sizeof call)) {
		tpl_set(&t, "call", "%s", call);
		return tpl_render_into(parent, "atomic", "reduce/atomic_native.cu", &t, err);
	}
	tpl_set(&t, "op", "%s", kgen_ops[s->op].name);
	tpl_set(&t, "acc_dtype", "%s", a->name);
	tpl_set(&t, "bits", "%s", a->size == 4 ? "unsigned int" : "unsigned long long");
	if (a->cls == DT_FLOAT) {
		tpl_set(&t, "to_bits", "%s", a->size == 4 ? "__float_as_uint" : "(unsigned long long)__double_as_longlong");
		tpl_set(&t, "from_bits", "%s", a->size == 4 ? "__uint_as_float" : "__longlong_as_double");
	} else {
		tpl_set(&t, "to_bits", "%s", a->size == 4 ? "(unsigned int)" : "(unsigned long long)");
		tpl_set(&t, "from_bits", "(%s)", a->ctype);
	}
	return tpl_render_into(parent, "atomic", "reduce/atomic_cas.cu", &t, err);
}

kgen_status
kgen_acc_warp_reduce_helper(const struct kgen_spec *s, struct tpl_args *parent, kgen_error *err)
{
	struct tpl_args t;
	const char *name = kgen_op_reduce_sync(s);

	tpl_init(&t);
	if (s->warp_tail == KGEN_WT_REDUCE_SYNC) {
		tpl_set(&t, "how", "one __reduce_%s_sync", name);
		tpl_set(&t, "body", "return __reduce_%s_sync(0xffffffffu, v);", name);
	} else {
		tpl_set(&t, "how", "five shuffles, halving the distance each time");
		tpl_set(&t, "body", "for (int offset = 16; offset > 0; offset /= 2)\n"
		                    "    v = combine(v, __shfl_down_sync(0xffffffffu, v, offset));\n"
		                    "return v;");
	}
	return tpl_render_into(parent, "warp_reduce", "reduce/warp_reduce.cu", &t, err);
}

/* The tail of a shared-memory tree: the last 64 or 32 partials in one warp. */
static void
tree_tail(const struct kgen_spec *s, struct tpl_args *t)
{
	long long from = s->warp_tail_from;
	strbuf b;
	int off;

	sb_init(&b);
	switch (s->warp_tail) {
	case KGEN_WT_NONE:
		sb_puts(&b, "return buffer[0];");
		break;
	case KGEN_WT_VOLATILE:
		sb_printf(&b, "// The last %lld partials: one warp, in volatile shared memory.  Each step reads,\n"
		              "// waits for the warp (__syncwarp), then writes: lock-step execution is not\n"
		              "// guaranteed since Volta.\n"
		              "if (tid < 32) {\n"
		              "    volatile Acc *vbuffer = buffer;\n"
		              "    Acc x = vbuffer[tid];\n", from);
		for (off = (int)from / 2; off >= 1; off /= 2)
			sb_printf(&b, "    x = combine(x, vbuffer[tid + %d]); __syncwarp(); vbuffer[tid] = x; __syncwarp();\n", off);
		sb_puts(&b, "    v = x;\n}\nreturn v;");
		break;
	default:
		sb_printf(&b, "// The last %lld partials: one warp, %s.\n"
		              "if (tid < 32)\n"
		              "    v = warp_reduce(%s);\n"
		              "return v;",
		          from, s->warp_tail == KGEN_WT_SHUFFLE ? "with shuffles" : "with __reduce_*_sync",
		          from == 64 ? "combine(buffer[tid], buffer[tid + 32])" : "buffer[tid]");
		break;
	}
	t->failed |= b.failed;
	tpl_set(t, "tail", "%s", b.s ? b.s : "");
	sb_free(&b);
}

kgen_status
kgen_acc_block_helper(const struct kgen_spec *s, struct tpl_args *parent, kgen_error *err)
{
	struct tpl_args t;
	long long stop;

	tpl_init(&t);
	if (s->block_reduce == KGEN_BR_WARPS) {
		tpl_set(&t, "warps", "%lld", s->threads / 32);
		return tpl_render_into(parent, "block_reduce", "reduce/block_warps.cu", &t, err);
	}
	switch (s->block_reduce) {
	case KGEN_BR_INTERLEAVED_DIVERGENT:
		tpl_set(&t, "doc", "interleaved addressing.\n"
		                   "// At step s the threads whose index is a multiple of 2*s combine the partial s\n"
		                   "// away: the warps diverge, and the modulo costs.");
		tpl_set(&t, "tree", "for (int s = 1; s < THREADS; s *= 2) {\n"
		                    "    if (tid %% (2 * s) == 0)\n"
		                    "        buffer[tid] = combine(buffer[tid], buffer[tid + s]);\n"
		                    "    __syncthreads();\n"
		                    "}");
		break;
	case KGEN_BR_INTERLEAVED:
		tpl_set(&t, "doc", "interleaved addressing without divergence.\n"
		                   "// At step s thread tid works on index 2*s*tid, so the active threads are\n"
		                   "// contiguous; their strided accesses conflict in shared-memory banks.");
		tpl_set(&t, "tree", "for (int s = 1; s < THREADS; s *= 2) {\n"
		                    "    const int index = 2 * s * tid;\n"
		                    "    if (index < THREADS)\n"
		                    "        buffer[index] = combine(buffer[index], buffer[index + s]);\n"
		                    "    __syncthreads();\n"
		                    "}");
		break;
	default:
		stop = s->warp_tail == KGEN_WT_NONE ? 0 : s->warp_tail_from / 2;
		tpl_set(&t, "doc", "sequential addressing.\n"
		                   "// At each step the first half of the active threads combine the second\n"
		                   "// half's partials: contiguous, no bank conflicts.");
		tpl_set(&t, "tree", "for (int s = THREADS / 2; s > %lld; s /= 2) {\n"
		                    "    if (tid < s)\n"
		                    "        buffer[tid] = combine(buffer[tid], buffer[tid + s]);\n"
		                    "    __syncthreads();\n"
		                    "}", stop);
		break;
	}
	tree_tail(s, &t);
	return tpl_render_into(parent, "block_reduce", "reduce/block_tree.cu", &t, err);
}

