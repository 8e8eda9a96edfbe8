/*
 * scan_launch.c - kernel: scan's launcher: kgen_scan_scratch_size() and
 * kgen_scan() (include/kgen.h).  strategy: lookback launches a block a
 * tile with the look-back's status in scratch and an epoch of its own,
 * above every earlier launch's in the process, so that the status never
 * needs clearing between launches (gen/scan.c's contract); strategy:
 * block launches one block.
 */
#include "config.h"
#include "runtime.h"
#include "gen/scan.h"

/* No launch state of its own (runtime.h). */
const struct kgen_launcher kgen_launcher_scan = { .free_state = NULL };

/* The epoch of the last look-back launch in this process (0: none yet). */
static unsigned long long last_epoch;

kgen_status
kgen_scan_scratch_size(const kgen_kernel *k, unsigned long long n, size_t *bytes, kgen_error *err)
{
	kgen_status st;

	if (!bytes)
		return kgen_fail(err, KGEN_EINVAL, "kgen_scan_scratch_size: NULL argument");
	k = kgen_kernel_for_n((kgen_kernel *)k, n);
	if ((st = kgen_kernel_expect(k, KGEN_SCAN, "kgen_scan_scratch_size", err)))
		return st;
	*bytes = (size_t)kgen_scan_scratch_bytes(&k->spec, n);
	return KGEN_OK;
}

static kgen_status
scan_body(kgen_kernel *k, kgen_devptr in, kgen_devptr out, unsigned long long n, kgen_devptr scratch,
          size_t scratch_bytes, CUstream stream, kgen_error *err)
{
	const struct kgen_spec *s = &k->spec;
	unsigned long long tiles = kgen_scan_tiles(s, n), need = kgen_scan_scratch_bytes(s, n), epoch;
	unsigned long long isize = (unsigned long long)s->r.dtype->size, osize = (unsigned long long)s->r.out->size;
	struct kgen_span spans[2] = { { "out", out, n * osize }, { "in", in, n * isize } };
	kgen_status st;

	if (!n)
		return KGEN_OK;
	if (!in || !out)
		return kgen_fail(err, KGEN_EINVAL, "kgen_scan: %s is NULL", in ? "out" : "in");
	if (in % isize)
		return kgen_fail(err, KGEN_EINVAL, "kgen_scan: in (0x%llx) is not aligned to its %llu-byte %s elements", in,
		                 isize, s->r.dtype->name);
	if (out % osize)
		return kgen_fail(err, KGEN_EINVAL, "kgen_scan: out (0x%llx) is not aligned to its %llu-byte %s elements", out,
		                 osize, s->r.out->name);
	if (n > (1ull << 62) / (isize > osize ? isize : osize))
		return kgen_fail(err, KGEN_EINVAL, "kgen_scan: n = %llu elements is more than a device holds", n);
	if (tiles > 0x7fffffffull)
		return kgen_fail(err, KGEN_EINVAL, "kgen_scan: n = %llu needs %llu tiles of %llu, more than a grid holds", n,
		                 tiles, kgen_scan_tile(s));
	/* In place (out == in, one element size) is fine: a tile is read whole
	 * before it is written, and no tile reads another's elements. */
	if (!(out == in && isize == osize) && (st = kgen_refuse_overlaps("kgen_scan", spans, 2, 1, err)))
		return st;
	if ((st = kgen_context_enter(k->ctx, err)))
		return st;
	if (s->scan_strategy == KGEN_SCAN_STRATEGY_BLOCK) {
		void *args[3] = { &in, &out, &n };
		return kgen_launch(k->ctx->cu, k->fn[0], 1, s->threads, 0, args, stream, err);
	}
	if (need && !scratch) {
		if ((st = kgen_own_scratch(k, (size_t)need, stream, err)))
			return st;
		scratch = k->scratch;
	} else if (need && scratch % 16) {
		return kgen_fail(err, KGEN_EINVAL, "kgen_scan: scratch (0x%llx) is not aligned to 16 bytes", scratch);
	} else if (need && scratch_bytes < need) {
		return kgen_fail(err, KGEN_EINVAL, "kgen_scan: scratch of %zu bytes is too small: %llu needed for n = %llu",
		                 scratch_bytes, need, n);
	}
	if (need && (st = kgen_refuse_overlaps("kgen_scan", (const struct kgen_span[]){ { "scratch", scratch, need },
	                                                                               { "out", out, n * osize },
	                                                                               { "in", in, n * isize } },
	                                       out == in ? 2 : 3, 2, err)))  /* in place: out is in */
		return st;
	epoch = __atomic_add_fetch(&last_epoch, 1, __ATOMIC_RELAXED);
	{
		void *args[5] = { &in, &out, &n, &scratch, &epoch };
		return kgen_launch(k->ctx->cu, k->fn[0], tiles, s->threads, 0, args, stream, err);
	}
}

/* The work above, leaving the caller's current context as it was. */
kgen_status
kgen_scan(kgen_kernel *k, kgen_devptr in, kgen_devptr out, unsigned long long n, kgen_devptr scratch,
          size_t scratch_bytes, kgen_stream stream, kgen_error *err)
{
	CUcontext saved;
	kgen_status st;

	k = kgen_kernel_for_n(k, n);  /* a size plan's (the family is sized by n): the entry for n */
	if ((st = kgen_kernel_expect(k, KGEN_SCAN, "kgen_scan", err)))
		return st;
	saved = kgen_context_save(k->ctx);
	st = scan_body(k, in, out, n, scratch, scratch_bytes, (CUstream)stream, err);
	kgen_context_restore(k->ctx, saved);
	return st;
}
