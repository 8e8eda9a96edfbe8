/*
 * scale_launch.c - the toy family's launcher (a real family's
 * runtime/STEM_launch.c): kgen_launcher_scale, the row of the runtime's
 * launcher table that tests/toy/rows.h's KGEN_FAMILIES row asks for, and
 * kgen_scale(), its public call (kgen_scale.h).  The runtime has already
 * built the kernel from the contract (its one step, `NAME`, is k->fn[0]);
 * this file takes a size plan's entry for n (the family is sized by n,
 * so plans take it), checks the call's arguments and launches the kernel
 * on the grid of kgen_scale_per_block().
 */
#include "config.h"
#include "runtime/runtime.h"
#include "kgen_scale.h"
#include "scale.h"

/* No launch state of its own (runtime.h). */
const struct kgen_launcher kgen_launcher_scale = { .free_state = NULL };

static kgen_status
scale_body(kgen_kernel *k, kgen_devptr in, kgen_devptr out, unsigned long long n, CUstream stream, kgen_error *err)
{
	const struct kgen_spec *s = &k->spec;
	unsigned long long per = (unsigned long long)kgen_scale_per_block(s), grid = n / per + (n % per != 0);
	unsigned esize = (unsigned)s->r.dtype->size;
	void *args[3] = { &in, &out, &n };
	kgen_status st;

	if (!n)
		return KGEN_OK;
	if (!in || !out)
		return kgen_fail(err, KGEN_EINVAL, "kgen_scale: %s is NULL", in ? "out" : "in");
	if (in % esize || out % esize)
		return kgen_fail(err, KGEN_EINVAL, "kgen_scale: %s (0x%llx) is not aligned to its %u-byte %s elements",
		                 in % esize ? "in" : "out", in % esize ? in : out, esize, s->r.dtype->name);
	if (grid > 0x7fffffffull)
		return kgen_fail(err, KGEN_EINVAL, "kgen_scale: n = %llu needs %llu blocks, more than a grid holds", n, grid);
	/* In place (out == in) is fine, each element read before it is
	 * written by its own thread; any other overlap is not. */
	if (out != in && (st = kgen_refuse_overlaps("kgen_scale", (const struct kgen_span[]){ { "out", out, n * esize },
	                                                                                     { "in", in, n * esize } },
	                                            2, 1, err)))
		return st;
	if ((st = kgen_context_enter(k->ctx, err)))
		return st;
	return kgen_launch(k->ctx->cu, k->fn[0], grid, s->threads, 0, args, stream, err);
}

/* The work above, leaving the caller's current context as it was. */
kgen_status
kgen_scale(kgen_kernel *k, kgen_devptr in, kgen_devptr out, unsigned long long n, kgen_stream stream, kgen_error *err)
{
	CUcontext saved;
	kgen_status st;

	k = kgen_kernel_for_n(k, n);  /* a size plan's (the family is sized by n): the entry for n */
	if ((st = kgen_kernel_expect(k, KGEN_SCALE, "kgen_scale", err)))
		return st;
	saved = kgen_context_save(k->ctx);
	st = scale_body(k, in, out, n, (CUstream)stream, err);
	kgen_context_restore(k->ctx, saved);
	return st;
}
