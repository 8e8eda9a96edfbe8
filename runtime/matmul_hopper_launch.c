/*
 * matmul_hopper_launch.c - a `math: wgmma` matmul on the GPU (and a
 * `math: mma` one with `loads: tma`, a block a tile): A's and B's
 * TMA tensor maps, encoded as the kernel's contract says (2-D, 128-byte
 * swizzle, zero fill; gen/matmul_hopper.c) and kept in the kernel's launch
 * state while the pointers and shapes stay the same; operands that break
 * TMA's rules (16-byte aligned matrices, row pitches of a multiple of 16
 * bytes) copied aligned (unaligned: repack), given to the mma.sync fallback
 * or refused with KGEN_EINVAL before anything is launched; the grid (persistent for a
 * producer warpgroup; a cluster of split_k blocks a tile with split_k).  store: tma adds C's map, or says C cannot take
 * TMA (c_tma 0) and the kernel stores without it.
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "matmul_hopper.h"
#include "gen/matmul_common.h"

/* The tensor maps of the last call (kgen_kernel.state, plain memory);
 * store: tma's map of C beside them, kept apart (k = 0 reads no A or B). */
struct wgmma_maps {
	int valid;
	CUdeviceptr a, b;
	int m, n, k;
	long long lda, ldb;
	CUtensorMap a_map, b_map;
	int c_valid, c_tma;
	CUdeviceptr c;
	int cm, cn;
	long long ldc;
	CUtensorMap c_map;
	int r_valid, r_tma;
	CUdeviceptr r;
	int rm, rn;
	long long ldr;
	CUtensorMap r_map;
	kgen_kernel *fallback;  /* unaligned: fallback's kernel, built at the first call TMA cannot load */
};

/* A 2-D map of a matrix whose `inner` elements are contiguous, `outer`
 * of them `ld` elements apart, box {128 bytes of elements, box_outer}. */
static kgen_status
encode(const kgen_kernel *kn, CUtensorMap *map, CUdeviceptr addr, unsigned long long inner, unsigned long long outer,
       long long ld, unsigned int box_outer, kgen_error *err)
{
	const struct kgen_spec *s = &kn->spec;
	cuuint64_t dims[2] = { inner, outer }, strides[1] = { (cuuint64_t)ld * (cuuint64_t)s->r.dtype->size };
	cuuint32_t box[2] = { 128 / (cuuint32_t)s->r.dtype->size, box_outer }, estrides[2] = { 1, 1 };
	CUtensorMapDataType type = s->r.dtype->size == 1 ? CU_TENSOR_MAP_DATA_TYPE_UINT8 :  /* fp8: its bytes */
	                           s->dtype == KGEN_DT_F16 ? CU_TENSOR_MAP_DATA_TYPE_FLOAT16 :
	                           CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;

	KGEN_CU(kn->ctx->cu, err, cuTensorMapEncodeTiled,
	        (map, type, 2, (void *)addr, dims, strides, box, estrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
	         CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
	return KGEN_OK;
}

/* A's and B's maps as the contract lays them out (K-major: {k, rows} with
 * a box of the tile's rows; MN-major: {rows, k}, boxes of 64 x tile_k,
 * which is 64 for math: wgmma). */
static kgen_status
encode_both(const kgen_kernel *kn, struct wgmma_maps *w, const struct kgen_wgmma_call *c, kgen_error *err)
{
	const struct kgen_spec *s = &kn->spec;
	kgen_status st;

	/* cluster: the shared operand's K-major box is half the tile: each block of the pair loads one.
	 * math: wgmma without a cluster: where m is below the tile, a box of m rows rounded up to 8
	 * (kgen_matmul_a_rows(), which the kernel expects), not a tile of TMA's zero fill. */
	if (s->a_layout == KGEN_MM_ROW)
		st = encode(kn, &w->a_map, c->a, (unsigned)c->k, (unsigned)c->m, c->lda,
		            (unsigned)kgen_matmul_a_rows(s, c->m), err);
	else
		st = encode(kn, &w->a_map, c->a, (unsigned)c->m, (unsigned)c->k, c->lda, (unsigned)s->tile_k, err);
	if (st)
		return st;
	if (s->b_layout == KGEN_MM_COL)
		return encode(kn, &w->b_map, c->b, (unsigned)c->k, (unsigned)c->n, c->ldb,
		              (unsigned)kgen_matmul_b_box_rows(s), err);
	return encode(kn, &w->b_map, c->b, (unsigned)c->n, (unsigned)c->k, c->ldb, (unsigned)s->tile_k, err);
}

/* store: tma: a map of an m x n row-major matrix of dtype d at addr, ld
 * elements a row, {n, m} with boxes of one 128-byte row by a consumer
 * warpgroup's rows, swizzled as the kernel's buffers hold them; *tma 0 (and
 * no map) where the matrix breaks TMA's rules.  C's map (the kernel then
 * stores as store: pairs without it) and the residual's (read element by
 * element without it). */
static kgen_status
encode_rows(const kgen_kernel *kn, CUtensorMap *map, int *tma, CUdeviceptr addr, long long ld, int m, int n,
            enum kgen_dtype d, kgen_error *err)
{
	const struct kgen_spec *s = &kn->spec;
	const struct kgen_dtype_info *info = &kgen_dtype_info[d];
	unsigned long long pitch = (unsigned long long)ld * info->size;
	cuuint64_t dims[2] = { (cuuint64_t)n, (cuuint64_t)m }, strides[1] = { pitch };
	cuuint32_t box[2] = { 128 / (cuuint32_t)info->size, (cuuint32_t)kgen_matmul_wgmma_rows(s) }, estrides[2] = { 1, 1 };
	CUtensorMapDataType type = d == KGEN_DT_F16 ? CU_TENSOR_MAP_DATA_TYPE_FLOAT16 :
	                           d == KGEN_DT_BF16 ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 :
	                           d == KGEN_DT_F64 ? CU_TENSOR_MAP_DATA_TYPE_FLOAT64 : CU_TENSOR_MAP_DATA_TYPE_FLOAT32;

	memset(map, 0, sizeof *map);
	*tma = addr % 16 == 0 && pitch % 16 == 0 && pitch < 1ull << 40;
	if (*tma)
		KGEN_CU(kn->ctx->cu, err, cuTensorMapEncodeTiled,
		        (map, type, 2, (void *)addr, dims, strides, box, estrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
		         CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
	return KGEN_OK;
}

/* The maps for this call, under the context's lock: A's and B's when k > 0
 * and C's for store: tma, each the kernel's own when what made it is the
 * same, else encoded now and kept. */
static kgen_status
maps(kgen_kernel *kn, const struct kgen_wgmma_call *c, CUtensorMap *a_map, CUtensorMap *b_map, CUtensorMap *c_map,
     int *c_tma, CUtensorMap *r_map, int *r_tma, kgen_error *err)
{
	int store_c = kn->spec.mm_store == KGEN_MM_STORE_TMA, read_r = kgen_matmul_residual_tma(&kn->spec);
	struct wgmma_maps *w;
	kgen_status st = KGEN_OK;

	if (!(w = kgen_kernel_state_lock(kn, _Alignof(struct wgmma_maps), sizeof *w, err)))
		return KGEN_ENOMEM;
	if (c->k && (!w->valid || w->a != c->a || w->b != c->b || w->m != c->m || w->n != c->n || w->k != c->k ||
	             w->lda != c->lda || w->ldb != c->ldb)) {
		w->valid = 0;
		if (!(st = encode_both(kn, w, c, err))) {
			w->a = c->a, w->b = c->b, w->m = c->m, w->n = c->n, w->k = c->k, w->lda = c->lda, w->ldb = c->ldb;
			w->valid = 1;
		}
	}
	if (!st && store_c && (!w->c_valid || w->c != c->c || w->cm != c->m || w->cn != c->n || w->ldc != c->ldc)) {
		w->c_valid = 0;
		if (!(st = encode_rows(kn, &w->c_map, &w->c_tma, c->c, c->ldc, c->m, c->n, kn->spec.out_dtype, err))) {
			w->c = c->c, w->cm = c->m, w->cn = c->n, w->ldc = c->ldc;
			w->c_valid = 1;
		}
	}
	if (!st && read_r && (!w->r_valid || w->r != c->residual || w->rm != c->m || w->rn != c->n || w->ldr != c->ldr)) {
		w->r_valid = 0;
		if (!(st = encode_rows(kn, &w->r_map, &w->r_tma, c->residual, c->ldr, c->m, c->n, kn->spec.residual_dtype,
		                       err))) {
			w->r = c->residual, w->rm = c->m, w->rn = c->n, w->ldr = c->ldr;
			w->r_valid = 1;
		}
	}
	if (!st && c->k) {
		*a_map = w->a_map;
		*b_map = w->b_map;
	}
	if (!st && store_c) {
		*c_map = w->c_map;
		*c_tma = w->c_tma;
	}
	if (!st && read_r) {
		*r_map = w->r_map;
		*r_tma = w->r_tma;
	}
	kgen_kernel_state_unlock(kn);
	return st;
}

/* TMA's rules for the operands: 16-byte aligned, rows 16-byte multiples;
 * each refusal names the spec's TMA (math: wgmma, or loads: tma) and the
 * way out (math: mma, or loads: cp_async). */
static kgen_status
check_tma(const kgen_kernel *kn, const struct kgen_wgmma_call *c, kgen_error *err)
{
	const struct kgen_spec *s = &kn->spec;
	unsigned long long size = (unsigned long long)s->r.dtype->size;
	int wgmma = s->math == KGEN_MATH_WGMMA;
	const char *who = wgmma ? "math: wgmma" : "loads: tma";
	const char *instead = wgmma ? "math: mma" : "loads: cp_async";

	/* Reached with unaligned: refuse only (repack copies the operands, fallback runs the mma.sync kernel). */
	const char *refused = " (the spec's unaligned: refuse forbids aligned copies and the mma.sync fallback)";

	if (c->a % 16 || c->b % 16)
		return kgen_fail(err, KGEN_EINVAL, "%s (0x%llx) is not aligned to 16 bytes, as %s's TMA loads need%s%s%s",
		                 c->a % 16 ? "a" : "b", (unsigned long long)(c->a % 16 ? c->a : c->b), who,
		                 wgmma ? "" : ": use ", wgmma ? "" : instead, refused);
	if ((unsigned long long)c->lda * size % 16 || (unsigned long long)c->ldb * size % 16)
		return kgen_fail(err, KGEN_EINVAL, "%s with TMA, which needs row pitches of a multiple of 16 bytes: lda %lld "
		                 "and ldb %lld of %s are %llu and %llu bytes; make them multiples of %llu elements, or use "
		                 "%s%s", wgmma ? "math: wgmma loads A and B" : "loads: tma copies A's and B's tiles", c->lda,
		                 c->ldb, s->r.dtype->name, (unsigned long long)c->lda * size, (unsigned long long)c->ldb * size,
		                 16 / size, instead, refused);
	if ((unsigned long long)c->lda * size >= 1ull << 40 || (unsigned long long)c->ldb * size >= 1ull << 40)
		return kgen_fail(err, KGEN_EINVAL, "%s: TMA row pitches must be below 2^40 bytes (lda %lld, ldb %lld); use "
		                 "%s%s", who, c->lda, c->ldb, instead, refused);
	return KGEN_OK;
}

/* Whether TMA can load one operand at p, rows ld elements apart. */
static int
operand_loads(const kgen_kernel *kn, CUdeviceptr p, long long ld)
{
	unsigned long long pitch = (unsigned long long)ld * (unsigned long long)kn->spec.r.dtype->size;

	return p % 16 == 0 && pitch % 16 == 0 && pitch < 1ull << 40;
}

int
kgen_matmul_tma_can_load(const kgen_kernel *kn, CUdeviceptr a, CUdeviceptr b, long long lda, long long ldb, int k)
{
	return !k || (operand_loads(kn, a, lda) && operand_loads(kn, b, ldb));
}

/* The step of kn's contract named NAME + suffix, or -1. */
static int
step_named(const kgen_kernel *kn, const char *suffix)
{
	int i;

	for (i = 0; i < kn->contract.nsteps; i++)
		if (!strcmp(kn->contract.step[i].suffix, suffix))
			return i;
	return -1;
}

/* One operand's copy by NAME_repack (step `step` of the contract): `rows`
 * rows of `width` elements, `ld` apart at *p, to dst with rows `pitch`
 * elements apart; *p and *ld then name the copy. */
static kgen_status
copy_rows(kgen_kernel *kn, int step, CUdeviceptr *p, long long *ld, unsigned long long rows, unsigned long long width,
          unsigned long long pitch, CUdeviceptr dst, CUstream stream, kgen_error *err)
{
	CUdeviceptr src = *p;
	long long src_ld = *ld, dst_pitch = (long long)pitch, r = (long long)rows, w = (long long)width;
	unsigned long long vectors = rows * (pitch / 8), most = 16ull * (unsigned long long)kn->ctx->sm_count;
	unsigned long long grid = (vectors + 255) / 256 < most ? (vectors + 255) / 256 : most;
	void *args[] = { &src, &src_ld, &dst, &dst_pitch, &r, &w };
	kgen_status st;

	if ((st = kgen_kernel_step(kn, step, err)) ||
	    (st = kgen_launch(kn->ctx->cu, kn->fn[step], grid ? grid : 1, 256, 0, args, stream, err)))
		return st;
	*p = dst;
	*ld = dst_pitch;
	return KGEN_OK;
}

kgen_status
kgen_matmul_repack(kgen_kernel *kn, size_t keep, CUdeviceptr *a, CUdeviceptr *b, long long *lda, long long *ldb, int m,
                   int n, int k, CUstream stream, kgen_error *err)
{
	const struct kgen_spec *s = &kn->spec;
	unsigned long long size = (unsigned long long)s->r.dtype->size, per = 16 / size;
	/* each operand's rows and row width as it lies in memory, and whether TMA can load it */
	unsigned long long a_rows = s->a_layout == KGEN_MM_ROW ? (unsigned)m : (unsigned)k;
	unsigned long long a_width = s->a_layout == KGEN_MM_ROW ? (unsigned)k : (unsigned)m;
	unsigned long long b_rows = s->b_layout == KGEN_MM_COL ? (unsigned)n : (unsigned)k;
	unsigned long long b_width = s->b_layout == KGEN_MM_COL ? (unsigned)k : (unsigned)n;
	int a_bad = k && !operand_loads(kn, *a, *lda), b_bad = k && !operand_loads(kn, *b, *ldb);
	unsigned long long a_pitch = (a_width + per - 1) / per * per, b_pitch = (b_width + per - 1) / per * per;
	/* A's copy first, B's 256 bytes aligned after it */
	size_t a_bytes = a_bad ? (size_t)((a_rows * a_pitch * size + 255) / 256 * 256) : 0;
	size_t b_bytes = b_bad ? (size_t)(b_rows * b_pitch * size) : 0;
	kgen_status st;
	int step = step_named(kn, "_repack");

	if (step < 0)
		return kgen_fail(err, KGEN_EINTERNAL, "unaligned: repack: %s has no _repack kernel", kgen_spec_kernel_name(s));
	if ((st = kgen_own_scratch(kn, keep + a_bytes + b_bytes, stream, err)))
		return st;
	if (a_bad && (st = copy_rows(kn, step, a, lda, a_rows, a_width, a_pitch, kn->scratch + keep, stream, err)))
		return st;
	if (b_bad &&
	    (st = copy_rows(kn, step, b, ldb, b_rows, b_width, b_pitch, kn->scratch + keep + a_bytes, stream, err)))
		return st;
	return KGEN_OK;
}

/* The fallback's spec as YAML: what kn's spec computes (types, layouts,
 * epilogue, operands; gen/matmul.c's `computes`) and its order, with the
 * tiles of specs/matmul/best/mma_<dtype>.yaml (tests/fake_test.c checks
 * that they agree), loaded by cp.async. */
static void
fallback_yaml(const struct kgen_spec *s, strbuf *y)
{
	const enum kgen_key *k;
	char buf[KGEN_EXPR_MAX + 64];

	sb_puts(y, "kernel: matmul\n");
	for (k = kgen_family_matmul.computes; *k != KGEN_KEY_COUNT; k++) {
		if (!kgen_key_applies(s, *k) ||  /* fp8's keys of a bf16 spec */
		    (*k == KGEN_KEY_bias_dtype && s->bias == KGEN_MM_BIAS_NONE) ||
		    (*k == KGEN_KEY_residual_dtype && s->residual == KGEN_MM_RESIDUAL_NONE) ||
		    (kgen_keys[*k].type == KT_EXPR && !*kgen_spec_expr_text(s, *k)))
			continue;  /* meaningless without their operand (the rules refuse them), or not given (aux) */
		sb_printf(y, "%s: %s\n", kgen_keys[*k].name, kgen_spec_yaml_value(s, *k, buf, sizeof buf));
	}
	sb_printf(y, "order: %s\n", kgen_orders[s->order].name);
	if (s->order == KGEN_ORDER_GROUPED || s->order == KGEN_ORDER_HILBERT)
		sb_printf(y, "group: %lld\n", s->group);
	sb_puts(y, KGEN_MATMUL_FALLBACK_TILES);
}

kgen_status
kgen_matmul_fallback(kgen_kernel *kn, kgen_kernel **fallback, kgen_error *err)
{
	struct wgmma_maps *w;
	kgen_kernel *fb;
	strbuf y;
	kgen_status st;

	if (!(w = kgen_kernel_state_lock(kn, _Alignof(struct wgmma_maps), sizeof *w, err)))
		return KGEN_ENOMEM;
	fb = w->fallback;
	kgen_kernel_state_unlock(kn);
	if (fb) {
		*fallback = fb;
		return KGEN_OK;
	}
	/* Built outside the lock (the build takes it); two threads building at
	 * once find the same kernel, as kgen_kernel_build_yaml keeps one a text. */
	sb_init(&y);
	fallback_yaml(&kn->spec, &y);
	if (y.failed)
		st = kgen_fail(err, KGEN_ENOMEM, "out of memory");
	else
		st = kgen_kernel_build_yaml(kn->ctx, y.s, &fb, err);
	sb_free(&y);
	if (st)
		return st;
	kgen_kernel_state_lock(kn, _Alignof(struct wgmma_maps), sizeof *w, err);  /* made above: cannot fail */
	w->fallback = fb;
	kgen_kernel_state_unlock(kn);
	*fallback = fb;
	return KGEN_OK;
}

/* A persistent grid of clusters of `size` blocks along x, as many as the
 * GPU holds at once (cuOccupancyMaxActiveClusters) up to `units`, each
 * cluster looping over its units of work: cluster: 2x1 and 1x2's pairs of
 * neighbouring tiles, split_k's tiles (each block one share of a tile's
 * k); fn and args: the kernel and its arguments, as kgen_matmul_wgmma_launch
 * chose and made them. */
static kgen_status
launch_clusters(kgen_kernel *kn, CUfunction fn, unsigned int size, unsigned long long units, void **args,
                CUstream stream, kgen_error *err)
{
	const struct kgen_spec *s = &kn->spec;
	int clusters = 0;
	CUlaunchAttribute attr;
	CUlaunchConfig config;

	memset(&attr, 0, sizeof attr);
	attr.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
	attr.value.clusterDim.x = size;
	attr.value.clusterDim.y = attr.value.clusterDim.z = 1;
	memset(&config, 0, sizeof config);
	config.gridDimY = config.gridDimZ = 1;
	config.blockDimX = (unsigned)s->threads;
	config.blockDimY = config.blockDimZ = 1;
	config.sharedMemBytes = (unsigned)kn->contract.step[0].dynamic_smem;  /* every variant's */
	config.hStream = stream;
	config.attrs = &attr;
	config.numAttrs = 1;
	config.gridDimX = size;  /* what the occupancy query reads: the cluster's shape, not the grid */
	KGEN_CU(kn->ctx->cu, err, cuOccupancyMaxActiveClusters, (&clusters, fn, &config));
	if (clusters < 1)
		clusters = kn->ctx->sm_count / (int)size > 0 ? kn->ctx->sm_count / (int)size : 1;
	config.gridDimX = size * (unsigned)(units < (unsigned long long)clusters ? units : (unsigned long long)clusters);
	KGEN_CU(kn->ctx->cu, err, cuLaunchKernelEx, (&config, fn, args, NULL));
	return KGEN_OK;
}

/* The kernel a call launches: NAME, or with store: tma the variant for its
 * beta and for whether TMA takes C (and the residual): all_tma. */
static int
main_step(const kgen_kernel *kn, const struct kgen_wgmma_call *c, int all_tma)
{
	if (!kgen_matmul_wgmma_variants(&kn->spec))
		return 0;
	if (all_tma)
		return c->read_c ? step_named(kn, KGEN_MATMUL_VARIANT_BETA) : 0;
	return step_named(kn, c->read_c ? KGEN_MATMUL_VARIANT_BETA_UNALIGNED : KGEN_MATMUL_VARIANT_UNALIGNED);
}

kgen_status
kgen_matmul_wgmma_launch(kgen_kernel *kn, const struct kgen_wgmma_call *c, CUstream stream, kgen_error *err)
{
	const struct kgen_spec *s = &kn->spec;
	CUtensorMap a_map, b_map, c_map, r_map;
	CUdeviceptr cp = c->c;
	int m = c->m, n = c->n, k = c->k, c_tma = 0, r_tma = 0;
	long long ldc = c->ldc;
	unsigned long long grid = c->tiles, resident;
	CUdeviceptr partials = c->partials;
	void *plain[] = { &a_map, &b_map, &cp, &m, &n, &k, &ldc, c->ep };
	void *split[] = { &a_map, &b_map, &cp, &m, &n, &k, &ldc, c->ep, &partials };
	void *tma[] = { &a_map, &b_map, &c_map, &c_tma, &cp, &m, &n, &k, &ldc, c->ep };
	void *tma_r[] = { &a_map, &b_map, &c_map, &c_tma, &r_map, &r_tma, &cp, &m, &n, &k, &ldc, c->ep };
	/* store: tma's variants for C (and the residual) by TMA take no flags */
	void *tma_only[] = { &a_map, &b_map, &c_map, &cp, &m, &n, &k, &ldc, c->ep };
	void *tma_only_r[] = { &a_map, &b_map, &c_map, &r_map, &cp, &m, &n, &k, &ldc, c->ep };
	void **args;
	int step, all_tma;
	CUfunction fn;
	kgen_status st;

	memset(&a_map, 0, sizeof a_map);
	memset(&b_map, 0, sizeof b_map);
	memset(&c_map, 0, sizeof c_map);
	memset(&r_map, 0, sizeof r_map);
	/* With k = 0 the kernel reads neither A's nor B's map (and TMA takes no empty matrix). */
	if ((k && (st = check_tma(kn, c, err))) || (st = maps(kn, c, &a_map, &b_map, &c_map, &c_tma, &r_map, &r_tma, err)))
		return st;
	/* the kernel and its parameters (the contract's), the kernel built at its first launch */
	all_tma = c_tma && (!kgen_matmul_residual_tma(s) || r_tma);
	if ((step = main_step(kn, c, all_tma)) < 0)
		return kgen_fail(err, KGEN_EINTERNAL, "kgen_matmul: %s has no kernel for this call's beta and C",
		                 kgen_spec_kernel_name(s));
	if ((st = kgen_kernel_step(kn, step, err)))
		return st;
	fn = kn->fn[step];
	if (kgen_matmul_wgmma_variants(s) && all_tma)
		args = kgen_matmul_residual_tma(s) ? tma_only_r : tma_only;
	else
		args = kgen_matmul_residual_tma(s) ? tma_r : s->mm_store == KGEN_MM_STORE_TMA ? tma :
		       kgen_matmul_partial_sums(s) ? split : plain;
	if (s->cluster != KGEN_CLUSTER_C1X1)
		return launch_clusters(kn, fn, 2, kgen_matmul_tile_pairs(s, (unsigned long long)c->m, (unsigned long long)c->n),
		                       args, stream, err);
	if (kgen_matmul_partial_sums(s)) {
		/* split_reduce: kernel: split_k blocks along z a tile, as many tiles at once along x as leave every
		 * block resident; NAME_reduce (matmul_launch.c) adds their sums */
		resident = kgen_matmul_resident(kn, step) / (unsigned long long)s->split_k;
		grid = c->tiles < resident ? c->tiles : resident ? resident : 1;
		return kgen_launch_3d(kn->ctx->cu, fn, (unsigned int)grid, 1, (unsigned int)s->split_k, s->threads,
		                      (unsigned)kn->contract.step[step].dynamic_smem, args, stream, err);
	}
	if (s->split_k > 1)
		return launch_clusters(kn, fn, (unsigned)s->split_k, c->tiles, args, stream, err);
	if (s->producer == KGEN_PRODUCER_WARPGROUP) {
		/* Persistent: as many blocks as the GPU holds at once, each looping over tiles. */
		resident = kgen_matmul_resident(kn, step);
		grid = c->tiles < resident ? c->tiles : resident;
	}
	return kgen_launch(kn->ctx->cu, fn, grid, s->threads, (unsigned)kn->contract.step[step].dynamic_smem, args,
	                   stream, err);
}
