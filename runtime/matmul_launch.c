/*
 * matmul_launch.c - kgen_matmul(): a `kernel: matmul` spec on C = alpha A B
 * + beta C.  Every argument (sizes, leading dimensions, alignment, overlap
 * of C with A or B, scratch) is checked before anything is launched; what
 * the kernels need to know of the call (packed leading dimensions, whether
 * each operand's vector loads are aligned, alpha and beta in the
 * accumulator's type) is worked out here.
 */
#include "config.h"
#include <string.h>
#include "runtime.h"
#include "gen/matmul_common.h"
#include "matmul_hopper.h"

/* The bytes of the kernels' argument ep (struct Epilogue): alpha, beta,
 * the operands' pointers and pitches, the reductions' vectors and the
 * scales, at most (160 in the worst case: f32 with every operand, twelve
 * vectors and fp8's scales). */
#define KGEN_MATMUL_EP_BYTES 176  /* alpha, beta, bias, residual, ldr, aux, ldaux, 12 vectors and 2 scales */
/* The C API's slots of the reductions are the table's values but none. */
_Static_assert(KGEN_MATMUL_REDUCTIONS == KGEN_MM_REDUCE_COUNT - 1, "enum kgen_matmul_reduction and KGEN_MM_REDUCES");

/* No launch state of its own (runtime.h). */
const struct kgen_launcher kgen_launcher_matmul = { .free_state = NULL };

static unsigned long long
ceil_div(unsigned long long a, unsigned long long b)
{
	return a / b + (a % b != 0);
}

/* One call, its leading dimensions resolved, and the tiles of C and of k
 * it takes (kgen_matmul_tiles, kgen_matmul_k_tiles: the header's rule). */
struct call {
	const char *who;                  /* the public function called, for messages */
	unsigned long long m, n, k, lda, ldb, ldc;
	unsigned long long tiles, k_tiles;
	struct kgen_matmul_operands ops;  /* the epilogue's; ldr resolved */
};

/* The bytes an operand of r x c elements of `size` bytes with leading
 * dimension ld spans, as laid out; past the address space, all of it (an
 * absurd call's span must not wrap and hide an overlap). */
static unsigned long long
span(int row_major, unsigned long long rows, unsigned long long cols, unsigned long long ld, unsigned long long size)
{
	unsigned long long outer = row_major ? rows : cols, inner = row_major ? cols : rows, elements;

	if (!rows || !cols)
		return 0;
	if (ld && outer - 1 > (~0ull - inner) / ld)
		return ~0ull;
	elements = (outer - 1) * ld + inner;
	return elements > ~0ull / size ? ~0ull : elements * size;
}

/* Sizes and leading dimensions: packed ones filled in, each checked. */
static kgen_status
check_sizes(const kgen_kernel *kn, struct call *c, kgen_error *err)
{
	const struct kgen_spec *s = &kn->spec;
	int a_row = s->a_layout == KGEN_MM_ROW, b_row = s->b_layout == KGEN_MM_ROW;
	unsigned long long need;

	if (c->m > 0x7fffffffull || c->n > 0x7fffffffull || c->k > 0x7fffffffull)
		return kgen_fail(err, KGEN_EINVAL, "%s: m, n and k must be below 2^31, not %llu x %llu x %llu", c->who, c->m,
		                 c->n, c->k);
	if (!c->lda)
		c->lda = a_row ? c->k : c->m;
	if (!c->ldb)
		c->ldb = b_row ? c->n : c->k;
	if (!c->ldc)
		c->ldc = c->n;
	need = a_row ? c->k : c->m;
	if (c->lda < need)
		return kgen_fail(err, KGEN_EINVAL, "lda %llu is less than %s %llu: A's %s would overlap", c->lda,
		                 a_row ? "k" : "m", need, a_row ? "rows" : "columns");
	need = b_row ? c->n : c->k;
	if (c->ldb < need)
		return kgen_fail(err, KGEN_EINVAL, "ldb %llu is less than %s %llu: B's %s would overlap", c->ldb,
		                 b_row ? "n" : "k", need, b_row ? "rows" : "columns");
	if (c->ldc < c->n)
		return kgen_fail(err, KGEN_EINVAL, "ldc %llu is less than n %llu: C's rows would overlap", c->ldc, c->n);
	if (c->lda > (1ull << 40) || c->ldb > (1ull << 40) || c->ldc > (1ull << 40))
		return kgen_fail(err, KGEN_EINVAL, "a leading dimension over 2^40 (lda %llu, ldb %llu, ldc %llu)", c->lda,
		                 c->ldb, c->ldc);
	c->tiles = kgen_matmul_tiles(s, c->m, c->n);
	c->k_tiles = kgen_matmul_k_tiles(s, c->k);
	if (c->tiles > 0x7fffffffull)
		return kgen_fail(err, KGEN_EINVAL, "a %llu x %llu C needs more tiles than a grid holds", c->m, c->n);
	return KGEN_OK;
}

/* schedule: stream_k's division of the call (gen/matmul.c): *dp_tiles
 * blocks take a tile whole, *sk_blocks share the rest; a block a tile
 * (*sk_blocks 0) for schedule: tiles. */
static void
division(const kgen_kernel *kn, const struct call *c, unsigned long long *dp_tiles, unsigned long long *sk_blocks)
{
	*dp_tiles = c->tiles;
	*sk_blocks = 0;
	if (kn->spec.schedule == KGEN_SCHEDULE_STREAM_K)
		kgen_matmul_stream_k(c->tiles, c->k_tiles, kgen_matmul_resident(kn, 0), dp_tiles, sk_blocks);
}

/* Bytes of scratch for the call: split_k slices of m x n accumulators; for
 * stream-K, two tiles of accumulators a stream-K block, then a ticket a
 * shared tile.  *tickets: where the tickets start; *dp and *sk: the call's
 * division (division()), for its launch. */
static size_t
scratch_need(const kgen_kernel *kn, const struct call *c, size_t *tickets, unsigned long long *dp,
             unsigned long long *sk)
{
	const struct kgen_spec *s = &kn->spec;
	unsigned long long acc = (unsigned long long)s->r.acc->size;

	*tickets = 0;
	division(kn, c, dp, sk);
	if (kgen_matmul_partial_sums(s))
		return (size_t)((unsigned long long)s->split_k * c->m * c->n * acc);
	if (!*sk)
		return 0;
	*tickets = (size_t)(2 * *sk * (unsigned long long)s->tile_m * (unsigned long long)s->tile_n * acc);
	return *tickets + (size_t)((c->tiles - *dp) * 4);
}

kgen_status
kgen_matmul_scratch_size(const kgen_kernel *kn, unsigned long long m, unsigned long long n, unsigned long long k,
                         size_t *bytes, kgen_error *err)
{
	struct call c = { .who = "kgen_matmul_scratch_size", .m = m, .n = n, .k = k };
	unsigned long long dp, sk;
	size_t tickets;
	kgen_status st;

	if (!bytes)
		return kgen_fail(err, KGEN_EINVAL, "kgen_matmul_scratch_size: NULL argument");
	kn = kgen_kernel_for_shape((kgen_kernel *)kn, m, n, k);  /* a matmul plan's: the entry for the shape */
	if ((st = kgen_kernel_expect(kn, KGEN_MATMUL, "kgen_matmul_scratch_size", err)) || (st = check_sizes(kn, &c, err)))
		return st;
	*bytes = scratch_need(kn, &c, &tickets, &dp, &sk);
	return KGEN_OK;
}

/* The reductions' vectors: one in each slot the spec's row_reduce and
 * col_reduce name (NULL allowed where it holds no values: m or n 0),
 * aligned to the accumulator; none in the others. */
static kgen_status
check_reductions(const struct kgen_spec *s, const struct call *c, kgen_error *err)
{
	const struct kgen_matmul_operands *o = &c->ops;
	unsigned long long size = (unsigned long long)s->r.acc->size;
	int line, r;

	for (line = 0; line < 2; line++) {
		long long mask = line ? s->col_reduce : s->row_reduce;
		const kgen_devptr *v = line ? o->col_reduce : o->row_reduce;
		const char *key = line ? "col_reduce" : "row_reduce";
		for (r = 1; r < KGEN_MM_REDUCE_COUNT; r++) {
			kgen_devptr p = v[r - 1];
			int named = mask > 0 && (mask & 1LL << r);
			if (named && !p && (line ? c->n : c->m))  /* a vector of no values may be NULL */
				return kgen_fail(err, KGEN_EINVAL, "%s: the spec reduces the stored values (%s: %s): pass "
				                 "%s[%s] in kgen_matmul_with()'s operands, a vector of %s %s values", c->who, key,
				                 kgen_mm_reduces[r].name, key, kgen_mm_reduces[r].name, line ? "n" : "m",
				                 s->r.acc->name);
			if (!named && p)
				return kgen_fail(err, KGEN_EINVAL, "%s: %s[%s] is given but the spec's %s does not name %s", c->who,
				                 key, kgen_mm_reduces[r].name, key, kgen_mm_reduces[r].name);
			if (p % size)
				return kgen_fail(err, KGEN_EINVAL, "%s[%s] (0x%llx) is not aligned to its %llu-byte %s", key,
				                 kgen_mm_reduces[r].name, p, size, s->r.acc->name);
		}
	}
	return KGEN_OK;
}

/* The epilogue's operands: those the spec declares given, aligned, ldr
 * resolved and at least n; no others. */
static kgen_status
check_operands(const kgen_kernel *kn, struct call *c, kgen_error *err)
{
	const struct kgen_spec *s = &kn->spec;
	struct kgen_matmul_operands *o = &c->ops;
	unsigned long long bsize = (unsigned long long)kgen_dtype_info[s->bias_dtype].size;
	unsigned long long rsize = (unsigned long long)kgen_dtype_info[s->residual_dtype].size;

	if (s->bias == KGEN_MM_BIAS_NONE && o->bias)
		return kgen_fail(err, KGEN_EINVAL, "%s: a bias is given but the spec declares none (bias: col or row)",
		                 c->who);
	if (s->residual == KGEN_MM_RESIDUAL_NONE && (o->residual || o->ldr))
		return kgen_fail(err, KGEN_EINVAL, "%s: a residual is given but the spec declares none (residual: "
		                 "matrix)", c->who);
	if (s->bias != KGEN_MM_BIAS_NONE && !o->bias)
		return kgen_fail(err, KGEN_EINVAL, "%s: the spec's epilogue reads bias (bias: %s): pass its vector "
		                 "of %s values in kgen_matmul_with()'s operands", c->who, kgen_mm_biases[s->bias].name,
		                 s->bias == KGEN_MM_BIAS_ROW ? "m" : "n");
	if (s->residual != KGEN_MM_RESIDUAL_NONE && !o->residual)
		return kgen_fail(err, KGEN_EINVAL, "%s: the spec's epilogue reads residual (residual: matrix): pass "
		                 "the m x n matrix in kgen_matmul_with()'s operands", c->who);
	if (o->bias % bsize)
		return kgen_fail(err, KGEN_EINVAL, "bias (0x%llx) is not aligned to its %llu-byte %s", o->bias, bsize,
		                 kgen_dtypes[s->bias_dtype].name);
	if (o->residual % rsize)
		return kgen_fail(err, KGEN_EINVAL, "residual (0x%llx) is not aligned to its %llu-byte %s", o->residual, rsize,
		                 kgen_dtypes[s->residual_dtype].name);
	if (s->residual != KGEN_MM_RESIDUAL_NONE && !o->ldr)
		o->ldr = c->n;
	if (o->residual && o->ldr < c->n)
		return kgen_fail(err, KGEN_EINVAL, "ldr %llu is less than n %llu: the residual's rows would overlap", o->ldr,
		                 c->n);
	if (o->ldr > (1ull << 40))
		return kgen_fail(err, KGEN_EINVAL, "ldr %llu is over 2^40", o->ldr);
	if (!*kgen_spec_expr_text(s, KGEN_KEY_aux) && (o->aux || o->ldaux))
		return kgen_fail(err, KGEN_EINVAL, "%s: an auxiliary output is given but the spec has no aux", c->who);
	if (*kgen_spec_expr_text(s, KGEN_KEY_aux) && !o->aux)
		return kgen_fail(err, KGEN_EINVAL, "%s: the spec writes an auxiliary output (aux: %s): pass its m x n "
		                 "matrix in kgen_matmul_with()'s operands", c->who, kgen_spec_expr_text(s, KGEN_KEY_aux));
	if (o->aux % (unsigned long long)s->r.out->size)
		return kgen_fail(err, KGEN_EINVAL, "aux (0x%llx) is not aligned to its %llu-byte %s", o->aux,
		                 (unsigned long long)s->r.out->size, s->r.out->name);
	if (o->aux && !o->ldaux)
		o->ldaux = c->n;
	if (o->aux && o->ldaux < c->n)
		return kgen_fail(err, KGEN_EINVAL, "ldaux %llu is less than n %llu: the auxiliary output's rows would overlap",
		                 o->ldaux, c->n);
	if (o->ldaux > (1ull << 40))
		return kgen_fail(err, KGEN_EINVAL, "ldaux %llu is over 2^40", o->ldaux);
	if (!kgen_matmul_scaled(s) && (o->scale_a || o->scale_b))
		return kgen_fail(err, KGEN_EINVAL, "%s: scale_a or scale_b is given but the spec scales nothing (scale: "
		                 "tensor, of fp8 operands)", c->who);
	if (kgen_matmul_scaled(s) && (!o->scale_a || !o->scale_b))
		return kgen_fail(err, KGEN_EINVAL, "%s: the spec scales its fp8 operands (scale: %s): pass scale_a "
		                 "and scale_b in kgen_matmul_with()'s operands, %s in device memory (or use scale: none)", c->who,
		                 kgen_mm_scales[s->scale].name, kgen_matmul_block_scaled(s) ? "ceil(k / 128) x m and ceil(n / "
		                 "128) x ceil(k / 128) f32" : "each one f32");
	if (o->scale_a % 4 || o->scale_b % 4)
		return kgen_fail(err, KGEN_EINVAL, "scale_a (0x%llx) or scale_b (0x%llx) is not aligned to its 4-byte f32",
		                 o->scale_a, o->scale_b);
	return check_reductions(s, c, err);
}

/* The reductions' vectors as spans, into out; how many. */
static int
reduction_spans(const struct kgen_spec *s, const struct call *c, struct kgen_span *out)
{
	static const char *const names[2][KGEN_MATMUL_REDUCTIONS] = {
		{ "row_reduce[sum]", "row_reduce[sumsq]", "row_reduce[max]", "row_reduce[min]", "row_reduce[absmax]",
		  "row_reduce[logsumexp]" },
		{ "col_reduce[sum]", "col_reduce[sumsq]", "col_reduce[max]", "col_reduce[min]", "col_reduce[absmax]",
		  "col_reduce[logsumexp]" },
	};
	int line, r, n = 0;

	for (line = 0; line < 2; line++)
		for (r = 0; r < KGEN_MATMUL_REDUCTIONS; r++) {
			kgen_devptr p = line ? c->ops.col_reduce[r] : c->ops.row_reduce[r];
			if (p) {
				out[n].name = names[line][r];
				out[n].at = p;
				out[n++].bytes = (line ? c->n : c->m) * (unsigned long long)s->r.acc->size;
			}
		}
	return n;
}

/* The pointers: set, aligned to their elements, C apart from A, B and the
 * operands.  The residual may be C itself: each element's old value is
 * read by the thread that writes it, before it does (store: tma's clamped
 * edge reads other elements of C too, and does not use them). */
static kgen_status
check_pointers(const kgen_kernel *kn, const struct call *c, kgen_devptr a, kgen_devptr b, kgen_devptr cp, kgen_error *err)
{
	const struct kgen_spec *s = &kn->spec;
	unsigned long long size = (unsigned long long)s->r.dtype->size;
	unsigned long long osize = (unsigned long long)s->r.out->size;
	unsigned long long abytes = span(s->a_layout == KGEN_MM_ROW, c->m, c->k, c->lda, size);
	unsigned long long bbytes = span(s->b_layout == KGEN_MM_ROW, c->k, c->n, c->ldb, size);
	unsigned long long cbytes = span(1, c->m, c->n, c->ldc, osize);
	const struct kgen_matmul_operands *o = &c->ops;
	int in_place = o->residual == cp && o->ldr == c->ldc && s->residual_dtype == s->out_dtype;
	const struct kgen_span spans[] = {  /* C and the auxiliary output are written; k = 0 reads neither A nor B */
		{ "c", cp, cbytes }, { "aux", o->aux, o->aux ? span(1, c->m, c->n, o->ldaux, osize) : 0 },
		{ "a", a, c->k ? abytes : 0 }, { "b", b, c->k ? bbytes : 0 },
		{ "bias", o->bias, o->bias ? (s->bias == KGEN_MM_BIAS_ROW ? c->m : c->n) * kgen_dtype_info[s->bias_dtype].size
		                           : 0 },
		{ "residual", o->residual, in_place ? 0 : span(1, c->m, c->n, o->ldr,
		                                               (unsigned long long)kgen_dtype_info[s->residual_dtype].size) },
	};

	struct kgen_span all[KGEN_COUNT(spans) + 2 * KGEN_MATMUL_REDUCTIONS];
	int count = reduction_spans(s, c, all), i;

	for (i = 0; i < (int)KGEN_COUNT(spans); i++)
		all[count++] = spans[i];
	if (!cp)
		return kgen_fail(err, KGEN_EINVAL, "%s: c is NULL", c->who);
	if (c->k && (!a || !b))
		return kgen_fail(err, KGEN_EINVAL, "%s: %s is NULL", c->who, !a ? "a" : "b");
	if (a % size || b % size)
		return kgen_fail(err, KGEN_EINVAL, "%s (0x%llx) is not aligned to its %llu-byte %s", a % size ? "a" : "b",
		                 a % size ? a : b, size, s->r.dtype->name);
	if (cp % osize)
		return kgen_fail(err, KGEN_EINVAL, "c (0x%llx) is not aligned to its %llu-byte %s", cp, osize,
		                 s->r.out->name);
	/* The vectors, C and the auxiliary output are written: each apart from everything. */
	return kgen_refuse_overlaps("kgen_matmul", all, count, count - (int)KGEN_COUNT(spans) + 2, err);
}

/* The caller's scratch apart from A, B and C (the kernels write it while
 * they read A and B and before they write C). */
static kgen_status
scratch_apart(const kgen_kernel *kn, const struct call *c, kgen_devptr a, kgen_devptr b, kgen_devptr cp,
              kgen_devptr scratch, size_t need, kgen_error *err)
{
	const struct kgen_spec *s = &kn->spec;
	unsigned long long size = (unsigned long long)s->r.dtype->size;
	const struct kgen_span spans[] = {
		{ "scratch", scratch, need },
		{ "c", cp, span(1, c->m, c->n, c->ldc, (unsigned long long)s->r.out->size) },
		{ "a", a, c->k ? span(s->a_layout == KGEN_MM_ROW, c->m, c->k, c->lda, size) : 0 },
		{ "b", b, c->k ? span(s->b_layout == KGEN_MM_ROW, c->k, c->n, c->ldb, size) : 0 },
		{ "bias", c->ops.bias, c->ops.bias ? (s->bias == KGEN_MM_BIAS_ROW ? c->m : c->n) *
		                                     kgen_dtype_info[s->bias_dtype].size : 0 },
		{ "residual", c->ops.residual, c->ops.residual ? span(1, c->m, c->n, c->ops.ldr,
		                                                      kgen_dtype_info[s->residual_dtype].size) : 0 },
		{ "aux", c->ops.aux, c->ops.aux ? span(1, c->m, c->n, c->ops.ldaux, (unsigned long long)s->r.out->size) : 0 },
	};
	struct kgen_span all[KGEN_COUNT(spans) + 2 * KGEN_MATMUL_REDUCTIONS];
	int count = (int)KGEN_COUNT(spans);

	memcpy(all, spans, sizeof spans);
	count += reduction_spans(s, c, all + count);
	return kgen_refuse_overlaps("kgen_matmul", all, count, 1, err);
}

/* The kernels' argument ep, struct Epilogue of the generated file, into
 * buf: alpha and beta in the accumulator's type, then (8-byte aligned) the
 * pointers to the operands the spec declares, the residual's pitch, and
 * the auxiliary output's pointer and pitch. */
static void
pack_epilogue(const struct kgen_spec *s, const struct call *c, double alpha, double beta, unsigned char *buf)
{
	size_t at = 0;

	if (s->acc_dtype == KGEN_DT_F64) {
		memcpy(buf, &alpha, 8);
		memcpy(buf + 8, &beta, 8);
		at = 16;
	} else {
		float al = (float)alpha, be = (float)beta;
		memcpy(buf, &al, 4);
		memcpy(buf + 4, &be, 4);
		at = 8;
	}
	if (s->bias != KGEN_MM_BIAS_NONE) {
		memcpy(buf + at, &c->ops.bias, 8);
		at += 8;
	}
	if (s->residual != KGEN_MM_RESIDUAL_NONE) {
		long long ldr = (long long)c->ops.ldr;
		memcpy(buf + at, &c->ops.residual, 8);
		memcpy(buf + at + 8, &ldr, 8);
		at += 16;
	}
	if (*kgen_spec_expr_text(s, KGEN_KEY_aux)) {
		long long ldaux = (long long)c->ops.ldaux;
		memcpy(buf + at, &c->ops.aux, 8);
		memcpy(buf + at + 8, &ldaux, 8);
		at += 16;
	}
	{  /* the reductions' vectors, row_reduce's then col_reduce's, each in the table's order */
		enum kgen_mm_reduce which[2 * KGEN_MM_REDUCE_COUNT];
		int by_row[2 * KGEN_MM_REDUCE_COUNT], n = kgen_matmul_reduce_list(s, which, by_row), i;
		for (i = 0; i < n; i++, at += 8)
			memcpy(buf + at, by_row[i] ? &c->ops.row_reduce[which[i] - 1] : &c->ops.col_reduce[which[i] - 1], 8);
	}
	if (kgen_matmul_scaled(s)) {
		memcpy(buf + at, &c->ops.scale_a, 8);
		memcpy(buf + at + 8, &c->ops.scale_b, 8);
		at += 16;
	}
	KGEN_ASSERT(at <= KGEN_MATMUL_EP_BYTES);
}

/* The reductions' vectors set to their identities on the stream, before
 * the kernels add to them: 0 for the sums and absmax, -inf for max and
 * logsumexp, +inf for min (f64: the high words set apart from the low
 * ones). */
static kgen_status
start_reductions(const kgen_kernel *kn, const struct call *c, CUstream stream, kgen_error *err)
{
	const struct kgen_spec *s = &kn->spec;
	enum kgen_mm_reduce which[2 * KGEN_MM_REDUCE_COUNT];
	int by_row[2 * KGEN_MM_REDUCE_COUNT], n = kgen_matmul_reduce_list(s, which, by_row), i;
	int wide = s->r.acc->size == 8;

	for (i = 0; i < n; i++) {
		enum kgen_reduce_kind kind = kgen_matmul_reduce_kind(which[i]);
		CUdeviceptr p = by_row[i] ? c->ops.row_reduce[which[i] - 1] : c->ops.col_reduce[which[i] - 1];
		size_t count = by_row[i] ? c->m : c->n;

		if (!count)
			continue;
		unsigned int inf = wide ? 0x7ff00000u : 0x7f800000u, bits = kind == KGEN_REDUCE_MIN ? inf : inf | 0x80000000u;

		if (kind == KGEN_REDUCE_ADD || which[i] == KGEN_MM_REDUCE_ABSMAX)
			KGEN_CU(kn->ctx->cu, err, cuMemsetD32Async, (p, 0, count * (wide ? 2 : 1), stream));
		else if (!wide)
			KGEN_CU(kn->ctx->cu, err, cuMemsetD32Async, (p, bits, count, stream));
		else {
			KGEN_CU(kn->ctx->cu, err, cuMemsetD32Async, (p, 0, count * 2, stream));
			KGEN_CU(kn->ctx->cu, err, cuMemsetD2D32Async, (p + 4, 8, bits, 1, count, stream));
		}
	}
	return KGEN_OK;
}

/* Bit 0: A's vector loads are aligned (a and lda), bit 1: B's. */
static int
aligned_bits(const kgen_kernel *kn, const struct call *c, kgen_devptr a, kgen_devptr b)
{
	const struct kgen_spec *s = &kn->spec;
	unsigned long long width = (unsigned long long)s->load_width;
	unsigned long long vec = width / (unsigned long long)s->r.dtype->size;

	return (a % width == 0 && c->lda % vec == 0) | (b % width == 0 && c->ldb % vec == 0) << 1;
}

/* The sums of the splits (partial sums in scratch), added in order by the
 * contract's second kernel: a thread per element, a few waves of blocks. */
static kgen_status
add_splits(kgen_kernel *kn, const struct call *c, kgen_devptr scratch, kgen_devptr cp, unsigned char *ep,
           CUstream stream, kgen_error *err)
{
	unsigned long long total = c->m * c->n, grid2 = ceil_div(total, 256);
	int m = (int)c->m, n = (int)c->n;
	long long ldc = (long long)c->ldc;
	void *args[] = { &scratch, &cp, &m, &n, &ldc, ep };
	kgen_status st;

	if (grid2 > (unsigned long long)kn->ctx->sm_count * 8)
		grid2 = (unsigned long long)kn->ctx->sm_count * 8;
	if ((st = kgen_kernel_step(kn, 1, err)))
		return st;
	return kgen_launch(kn->ctx->cu, kn->fn[1], grid2, 256, 0, args, stream, err);
}

static kgen_status
matmul_body(kgen_kernel *kn, kgen_devptr a, kgen_devptr b, kgen_devptr cp, struct call *c, double alpha, double beta,
            kgen_devptr scratch, size_t scratch_bytes, CUstream stream, kgen_error *err)
{
	const struct kgen_spec *s;
	unsigned char ep[KGEN_MATMUL_EP_BYTES];
	int m, n, k, aligned;
	long long lda, ldb, ldc;
	unsigned long long dp, sk;
	size_t need, tickets;
	int unloadable, own;
	kgen_status st;

	if ((st = kgen_kernel_expect(kn, KGEN_MATMUL, "kgen_matmul", err)) || (st = check_sizes(kn, c, err)) ||
	    (st = check_operands(kn, c, err)))
		return st;
	s = &kn->spec;
	if (!c->m || !c->n) {  /* nothing to store; the reductions of no values are their identities */
		if (!kgen_matmul_reduces(s))
			return KGEN_OK;
		if ((st = kgen_context_enter(kn->ctx, err)))
			return st;
		return start_reductions(kn, c, stream, err);
	}
	if ((st = check_pointers(kn, c, a, b, cp, err)))
		return st;
	if ((st = kgen_context_enter(kn->ctx, err)))  /* before any allocation: the caller's thread may have no context */
		return st;
	/* Operands TMA cannot load: what unaligned says, chosen before any scratch is taken (the fallback and a
	 * refusal need none; repack takes the partials' and the copies' at once). */
	unloadable = kgen_matmul_takes_maps(s) && !kgen_matmul_tma_can_load(kn, a, b, (long long)c->lda, (long long)c->ldb,
	                                                                    (int)c->k);
	if (unloadable && s->unaligned == KGEN_MM_UNALIGNED_FALLBACK) {  /* the mma.sync kernel */
		kgen_kernel *fb;
		if ((st = kgen_matmul_fallback(kn, &fb, err)))
			return st;
		return matmul_body(fb, a, b, cp, c, alpha, beta, scratch, scratch_bytes, stream, err);
	}
	need = scratch_need(kn, c, &tickets, &dp, &sk);
	if (unloadable && s->unaligned == KGEN_MM_UNALIGNED_REFUSE)
		need = 0;  /* the launch refuses the call, saying why */
	own = need && !scratch;
	if (own && !(unloadable && s->unaligned == KGEN_MM_UNALIGNED_REPACK)) {
		if ((st = kgen_own_scratch(kn, need, stream, err)))
			return st;
		scratch = kn->scratch;
	} else if (need && !own && scratch % 16) {
		return kgen_fail(err, KGEN_EINVAL, "scratch (0x%llx) is not aligned to 16 bytes", scratch);
	} else if (need && !own && scratch_bytes < need) {
		return kgen_fail(err, KGEN_EINVAL, "scratch of %zu bytes is too small: %zu needed for a %llu x %llu C", scratch_bytes,
		                 need, c->m, c->n);
	} else if (need && !own && (st = scratch_apart(kn, c, a, b, cp, scratch, need, err))) {
		return st;
	}
	memset(ep, 0, sizeof ep);
	pack_epilogue(s, c, alpha, beta, ep);
	m = (int)c->m;
	n = (int)c->n;
	k = (int)c->k;
	lda = (long long)c->lda;
	ldb = (long long)c->ldb;
	ldc = (long long)c->ldc;
	aligned = aligned_bits(kn, c, a, b);
	if (unloadable && s->unaligned == KGEN_MM_UNALIGNED_REPACK) {  /* copies TMA can load */
		/* in the kernel's own scratch, after the partials where they are there too: one buffer for both */
		size_t keep = own ? (need + 255) / 256 * 256 : 0;
		if ((st = kgen_matmul_repack(kn, keep, &a, &b, &lda, &ldb, m, n, k, stream, err)))
			return st;
		if (own)
			scratch = kn->scratch;
	}
	if ((st = start_reductions(kn, c, stream, err)))
		return st;
	if (kgen_matmul_takes_maps(s)) {  /* TMA tensor maps instead of pointers (matmul_hopper_launch.c) */
		struct kgen_wgmma_call w = { .a = a, .b = b, .c = cp, .m = m, .n = n, .k = k, .lda = lda, .ldb = ldb,
		                             .ldc = ldc, .ep = ep, .tiles = c->tiles, .residual = c->ops.residual,
		                             .ldr = (long long)c->ops.ldr, .partials = scratch,
		                             .read_c = s->acc_dtype == KGEN_DT_F64 ? beta != 0 : (float)beta != 0.0f };
		if ((st = kgen_matmul_wgmma_launch(kn, &w, stream, err)) || !kgen_matmul_partial_sums(s))
			return st;
		return add_splits(kn, c, scratch, cp, ep, stream, err);  /* split_reduce: kernel */
	}
	if (s->schedule == KGEN_SCHEDULE_STREAM_K) {
		int dp_tiles, sk_blocks;
		void *args[] = { &a, &b, &cp, &m, &n, &k, &lda, &ldb, &ldc, ep, &aligned, &scratch, &dp_tiles, &sk_blocks };

		dp_tiles = (int)dp;
		sk_blocks = (int)sk;
		if (sk)  /* the shared tiles' tickets, each counting its blocks' arrivals */
			KGEN_CU(kn->ctx->cu, err, cuMemsetD8Async, (scratch + tickets, 0, need - tickets, stream));
		return kgen_launch(kn->ctx->cu, kn->fn[0], sk ? dp + sk : c->tiles, s->threads,
		                   (unsigned int)kn->contract.step[0].dynamic_smem, args, stream, err);
	}
	{
		void *args[] = { &a, &b, &cp, &m, &n, &k, &lda, &ldb, &ldc, ep, &aligned, &scratch };
		if ((st = kgen_launch_3d(kn->ctx->cu, kn->fn[0], (unsigned int)c->tiles, 1, (unsigned int)s->split_k, s->threads,
		                         (unsigned int)kn->contract.step[0].dynamic_smem, args, stream, err)))
			return st;
	}
	if (s->split_k <= 1)
		return KGEN_OK;
	return add_splits(kn, c, scratch, cp, ep, stream, err);
}

/* The work above for the public function `who`, leaving the caller's
 * current context as it was. */
static kgen_status
matmul_call(const char *who, kgen_kernel *kn, kgen_devptr a, kgen_devptr b, kgen_devptr c, unsigned long long m,
            unsigned long long n, unsigned long long k, unsigned long long lda, unsigned long long ldb,
            unsigned long long ldc, double alpha, double beta, const struct kgen_matmul_operands *ops,
            kgen_devptr scratch, size_t scratch_bytes, kgen_stream stream, kgen_error *err)
{
	struct call call = { .who = who, .m = m, .n = n, .k = k, .lda = lda, .ldb = ldb, .ldc = ldc };
	CUcontext saved;
	kgen_status st;

	if (!kn)
		return kgen_fail(err, KGEN_EINVAL, "%s: NULL kernel", who);
	kn = kgen_kernel_for_shape(kn, m, n, k);  /* a matmul plan's: the entry for the shape */
	if (kn->spec.kernel != KGEN_MATMUL)  /* refused before the context is touched */
		return kgen_kernel_expect(kn, KGEN_MATMUL, who, err);
	if (ops)
		call.ops = *ops;
	saved = kgen_context_save(kn->ctx);
	st = matmul_body(kn, a, b, c, &call, alpha, beta, scratch, scratch_bytes, (CUstream)stream, err);
	kgen_context_restore(kn->ctx, saved);
	return st;
}

kgen_status
kgen_matmul_with(kgen_kernel *kn, kgen_devptr a, kgen_devptr b, kgen_devptr c, unsigned long long m,
                 unsigned long long n, unsigned long long k, unsigned long long lda, unsigned long long ldb,
                 unsigned long long ldc, double alpha, double beta, const struct kgen_matmul_operands *ops,
                 kgen_devptr scratch, size_t scratch_bytes, kgen_stream stream, kgen_error *err)
{
	return matmul_call("kgen_matmul_with", kn, a, b, c, m, n, k, lda, ldb, ldc, alpha, beta, ops, scratch,
	                   scratch_bytes, stream, err);
}

kgen_status
kgen_matmul(kgen_kernel *kn, kgen_devptr a, kgen_devptr b, kgen_devptr c, unsigned long long m, unsigned long long n,
            unsigned long long k, unsigned long long lda, unsigned long long ldb, unsigned long long ldc, double alpha,
            double beta, kgen_devptr scratch, size_t scratch_bytes, kgen_stream stream, kgen_error *err)
{
	return matmul_call("kgen_matmul", kn, a, b, c, m, n, k, lda, ldb, ldc, alpha, beta, NULL, scratch, scratch_bytes,
	                   stream, err);
}
