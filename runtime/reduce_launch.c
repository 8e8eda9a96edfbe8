/* reduce_launch.c - kgen_reduce(): every stage of a `kernel: reduce` spec, on one stream. */
#include "config.h"
#include <string.h>
#include "runtime.h"
#include "gen/reduce.h"
#include "gen/op.h"

/* No launch state of its own (runtime.h). */
const struct kgen_launcher kgen_launcher_reduce = { .free_state = NULL };

/* n fits the spec's index and a grid of blocks; the grid in *grid. */
static kgen_status
check_n(const kgen_kernel *k, unsigned long long n, unsigned long long *grid_out, kgen_error *err)
{
	const struct kgen_spec *s = &k->spec;
	unsigned long long grid;

	if (n > kgen_reduce_max_n(s))
		return kgen_fail(err, KGEN_EINVAL, "n = %llu is too large for index: %lld (at most %llu)%s", n, s->index,
		                 kgen_reduce_max_n(s), s->index == 32 ? "; use index: 64" : "");
	grid = kgen_reduce_grid(s, n, k->ctx->sm_count);
	if (grid > 0x7fffffffull)
		return kgen_fail(err, KGEN_EINVAL, "n = %llu needs %llu blocks, more than a grid holds; use grid: persistent",
		                 n, grid);
	*grid_out = grid;
	return KGEN_OK;
}

kgen_status
kgen_reduce_scratch_size(const kgen_kernel *k, unsigned long long n, size_t *bytes, kgen_error *err)
{
	unsigned long long grid;
	kgen_status st;

	if (!k || !bytes)
		return kgen_fail(err, KGEN_EINVAL, "kgen_reduce_scratch_size: NULL argument");
	k = kgen_kernel_for_n((kgen_kernel *)k, n);  /* a plan's: the entry for n */
	if ((st = kgen_kernel_expect(k, KGEN_REDUCE, "kgen_reduce_scratch_size", err)) || (st = check_n(k, n, &grid, err)))
		return st;
	*bytes = kgen_reduce_scratch(&k->spec, n, k->ctx->sm_count);
	return KGEN_OK;
}

/* The outputs (and the caller's scratch) apart from one another and from
 * `in`: with stages: atomic the identity lands in *out before `in` is read,
 * so an output inside the input would change what is reduced. */
static kgen_status
outputs_apart(const char *who, int arg, kgen_devptr in, unsigned long long in_bytes, kgen_devptr out, unsigned osize,
              kgen_devptr index, kgen_devptr scratch, size_t need, kgen_error *err)
{
	const struct kgen_span spans[] = {
		{ arg ? "value" : "out", out, osize },
		{ "index", index, index ? 8 : 0 },
		{ "scratch", scratch, scratch ? need : 0 },
		{ "in", in, in_bytes },
	};

	return kgen_refuse_overlaps(who, spans, (int)KGEN_COUNT(spans), 3, err);
}

/* index != 0: the pair's second output (kgen_reduce_arg: arg). */
static kgen_status
kgen_reduce_body(kgen_kernel *k, kgen_devptr in, unsigned long long n, kgen_devptr out, kgen_devptr index,
                 kgen_devptr scratch, size_t scratch_bytes, kgen_stream stream_, int arg, kgen_error *err)
{
	const char *who = arg ? "kgen_reduce_arg" : "kgen_reduce";
	const struct kgen_spec *s;
	const struct kgen_cu *cu;
	CUstream stream = (CUstream)stream_;
	unsigned long long grid, n64 = n, in_bytes;
	unsigned int n32 = (unsigned int)n, g32, align;
	size_t need;
	CUdeviceptr partials, ticket;
	struct { CUdeviceptr value, index; } pair = { out, index };
	void *nptr, *results = &out, *args[5];
	unsigned osize;
	kgen_status st;
	kgen_launch_fn *first, *second;

	k = kgen_kernel_for_n(k, n);  /* a plan's: the entry for n */
	if ((st = kgen_kernel_expect(k, KGEN_REDUCE, who, err)) ||
	    (st = kgen_expect_outputs(k, arg, index, "kgen_reduce", err)))
		return st;
	s = &k->spec;
	cu = k->ctx->cu;
	if (!out)
		return kgen_fail(err, KGEN_EINVAL, "%s: out is NULL", who);
	if ((st = check_n(k, n, &grid, err)))
		return st;
	/* Any element: the kernel takes the elements before the vectors' first
	 * aligned address one at a time. */
	align = (unsigned)s->r.dtype->size;
	if (n && in % align)
		return kgen_fail(err, KGEN_EINVAL, "in (0x%llx) is not aligned to its %u-byte %s elements", in, align,
		                 s->r.dtype->name);
	if (n && !in)
		return kgen_fail(err, KGEN_EINVAL, "%s: in is NULL", who);
	osize = (unsigned)s->r.out->size;
	if (out % osize)
		return kgen_fail(err, KGEN_EINVAL, "out (0x%llx) is not aligned to its %u-byte %s", out, osize,
		                 s->r.out->name);
	if (s->r.pair) {
		if (index % 8)
			return kgen_fail(err, KGEN_EINVAL, "index (0x%llx) is not aligned to its 8-byte i64", index);
		results = &pair;
	}
	need = kgen_reduce_scratch(s, n, k->ctx->sm_count);
	in_bytes = n > ~0ull / align ? ~0ull : n * align;
	if ((st = outputs_apart(who, arg, in, in_bytes, out, osize, s->r.pair ? index : 0, need ? scratch : 0, need, err)))
		return st;
	if ((st = kgen_context_enter(k->ctx, err)) != KGEN_OK)
		return st;
	g32 = (unsigned)grid;
	if (need && !scratch) {
		if ((st = kgen_own_scratch(k, need, stream, err)) != KGEN_OK)
			return st;
		scratch = k->scratch;
	} else if (need && scratch_bytes < need) {
		return kgen_fail(err, KGEN_EINVAL, "scratch of %zu bytes is too small: %zu needed for n = %llu",
		                 scratch_bytes, need, n);
	} else if (need && scratch % 16) {  /* the partials at scratch + 16, of types up to 16 bytes */
		return kgen_fail(err, KGEN_EINVAL, "scratch (0x%llx) is not aligned to 16 bytes", scratch);
	}
	nptr = s->index == 32 ? (void *)&n32 : (void *)&n64;
	/* last_block: the ticket first, at a fixed place, then the partials.  A
	 * ticket placed after the partials would move with n (the grid), onto
	 * bytes an earlier, larger launch left holding partials. */
	ticket = s->stages == KGEN_STAGES_LAST_BLOCK ? scratch : 0;
	partials = scratch + 16;  /* two_pass too: a plan's entries share one buffer, ticket and all */

	/* The plan's kernels (gen/reduce.c): atomic: _init, then the main
	 * kernel; two_pass: the main kernel, then _final; last_block: one.
	 * launch: pdl launches the second as a programmatic dependent launch,
	 * chain the first too (after the work before it on the stream). */
	first = s->launch == KGEN_LAUNCH_CHAIN ? kgen_launch_dependent : kgen_launch;
	second = s->launch == KGEN_LAUNCH_STREAM ? kgen_launch : kgen_launch_dependent;
	switch (s->stages) {
	case KGEN_STAGES_ATOMIC:  /* ops with a result step never end in atomics */
		args[0] = &out;
		if ((st = first(cu, k->fn[0], 1, 1, 0, args, stream, err)))
			return st;
		args[0] = &in;
		args[1] = &out;
		args[2] = nptr;
		return second(cu, k->fn[1], grid, s->threads, 0, args, stream, err);
	case KGEN_STAGES_TWO_PASS:
		args[0] = &in;
		args[1] = &partials;
		args[2] = nptr;
		if ((st = first(cu, k->fn[0], grid, s->threads, 0, args, stream, err)))
			return st;
		args[0] = &partials;
		args[1] = results;
		args[2] = &g32;
		args[3] = nptr;  /* read by a _final kernel with a result step */
		return second(cu, k->fn[1], 1, s->threads, 0, args, stream, err);
	default:
		args[0] = &in;
		args[1] = results;
		args[2] = nptr;
		args[3] = &partials;
		args[4] = &ticket;
		return first(cu, k->fn[0], grid, s->threads, 0, args, stream, err);
	}
}

/* The work above, leaving the caller's current context as it was. */
kgen_status
kgen_reduce(kgen_kernel *k, kgen_devptr in, unsigned long long n, kgen_devptr out, kgen_devptr scratch,
            size_t scratch_bytes, kgen_stream stream, kgen_error *err)
{
	CUcontext saved;
	kgen_status st;

	if (!k)
		return kgen_fail(err, KGEN_EINVAL, "kgen_reduce: NULL kernel");
	saved = kgen_context_save(k->ctx);
	st = kgen_reduce_body(k, in, n, out, 0, scratch, scratch_bytes, stream, 0, err);
	kgen_context_restore(k->ctx, saved);
	return st;
}

kgen_status
kgen_reduce_arg(kgen_kernel *k, kgen_devptr in, unsigned long long n, kgen_devptr value, kgen_devptr index,
                kgen_devptr scratch, size_t scratch_bytes, kgen_stream stream, kgen_error *err)
{
	CUcontext saved;
	kgen_status st;

	if (!k)
		return kgen_fail(err, KGEN_EINVAL, "kgen_reduce_arg: NULL kernel");
	saved = kgen_context_save(k->ctx);
	st = kgen_reduce_body(k, in, n, value, index, scratch, scratch_bytes, stream, 1, err);
	kgen_context_restore(k->ctx, saved);
	return st;
}
