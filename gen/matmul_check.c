/*
 * matmul_check.c - the rules of `kernel: matmul` (gen/matmul.c's family
 * entry .check): each key's values against the others', with the derived
 * defaults they resolve (tiles, threads, types, stages), and the shape of a
 * checked spec's tiles that the rules, the contract and the emitter read
 * (kgen_matmul_shape); math: wgmma's own rules are gen/matmul_hopper.c's.
 */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include "expr.h"
#include "matmul.h"
#include "matmul_hopper.h"

#define ERR(k, ...) kgen_spec_error(s, KGEN_KEY_##k, 1, err, __VA_ARGS__)

static int
is_float_dtype(long long d)
{
	return d == KGEN_DT_F32 || d == KGEN_DT_F64 || d == KGEN_DT_F16 || d == KGEN_DT_BF16;
}

static long long
round_up(long long v, long long to)
{
	return (v + to - 1) / to * to;
}

void
kgen_matmul_shape(const struct kgen_spec *s, struct kgen_matmul *g)
{
	int size = s->r.dtype->size, align = 16 / size;
	int a_row = s->a_layout == KGEN_MM_ROW, b_row = s->b_layout == KGEN_MM_ROW;
	int a_k_major;  /* A's tile in shared memory has k down its rows (m along them) */

	memset(g, 0, sizeof *g);
	g->smem = s->staging == KGEN_STAGING_SMEM;
	g->tensor = s->math != KGEN_MATH_SIMT;
	g->warptiling = !g->tensor && s->warp_m > 0;
	g->tm = (int)s->tile_m;
	g->tn = (int)s->tile_n;
	g->tk = (int)s->tile_k;
	g->vec_a = g->vec_b = (int)(s->load_width / size);
	if (!g->smem)
		return;
	if (s->math == KGEN_MATH_WGMMA) {  /* swizzled TMA tiles (gen/matmul_hopper.c) */
		g->smem_bytes = kgen_matmul_wgmma_smem(s, s->mm_stages);
		return;
	}
	if (g->tensor) {
		/* The tiles keep the operands' layouts, rows padded by 8 elements
		 * unless their chunks are swizzled. */
		g->swizzled = s->math == KGEN_MATH_MMA && s->smem_layout == KGEN_SMEM_LAYOUT_SWIZZLED;
		g->tma = kgen_matmul_loads_tma(s);
		g->a_ld = (a_row ? g->tk : g->tm) + (g->swizzled ? 0 : 8);
		g->a_rows = a_row ? g->tm : g->tk;
		g->b_ld = (b_row ? g->tn : g->tk) + (g->swizzled ? 0 : 8);
		g->b_rows = b_row ? g->tk : g->tn;
	} else {
		a_k_major = s->a_smem == KGEN_A_SMEM_TRANSPOSED;
		g->trans_a = a_k_major == a_row;
		g->trans_b = !b_row;
		g->a_ld = (int)round_up(a_k_major ? g->tm + align : g->tk + align, align);
		g->a_rows = a_k_major ? g->tk : g->tm;
		g->b_ld = (int)round_up(g->tn + (g->trans_b ? align : 0), align);
		g->b_rows = g->tk;
		if (g->warptiling) {
			g->rm = a_k_major ? (int)(s->thread_m < align ? s->thread_m : align) : 1;
			g->cn = (int)(s->thread_n < align ? s->thread_n : align);
			g->rm_stride = (int)(s->warp_m / s->thread_m) * g->rm;
			g->cn_stride = (int)(s->warp_n / s->thread_n) * g->cn;
		} else {
			g->rm = g->rm_stride = (int)s->thread_m;
			g->cn = g->cn_stride = (int)s->thread_n;
		}
	}
	g->smem_bytes = s->mm_stages * ((long long)g->a_rows * g->a_ld + (long long)g->b_rows * g->b_ld) * size;
	if (g->tma)  /* 1024 to align the first tile (TMA's 128B swizzle repeats every 1024 bytes), then the mbarriers */
		g->smem_bytes += 1024 + 16 * s->mm_stages;
	if (s->math == KGEN_MATH_WMMA && g->smem_bytes < s->threads / 32 * 1024)
		g->smem_bytes = s->threads / 32 * 1024;  /* the epilogue's 16 x 16 float patch per warp */
}

/* ---- rules ---- */

/* The derived defaults of the tiles, by staging and math. */
static void
resolve_tiles(struct kgen_spec *s)
{
	int wgmma = s->math == KGEN_MATH_WGMMA;  /* no warp tiles: warpgroups of tile_m / consumers rows */
	int tensor = s->math != KGEN_MATH_SIMT && !wgmma, none = s->staging == KGEN_STAGING_NONE;

	if (s->tile_m < 0)
		s->tile_m = none ? 32 : tensor || wgmma ? 128 : 64;
	if (s->tile_n < 0)
		s->tile_n = none ? 32 : tensor || wgmma ? 128 : 64;
	if (s->tile_k < 0)  /* wgmma: one 128-byte swizzle row of k */
		s->tile_k = wgmma ? 128 / s->r.dtype->size : tensor ? 32 : 8;
	if (s->warp_m < 0)
		s->warp_m = tensor && s->staging == KGEN_STAGING_SMEM && s->tile_m % 32 == 0 ? s->tile_m / 2 : tensor ? s->tile_m : 0;
	if (s->warp_n < 0)
		s->warp_n = tensor && s->staging == KGEN_STAGING_SMEM && s->tile_n % 32 == 0 ? s->tile_n / 2 : tensor ? s->tile_n : 0;
}

/* fp8 operands (dtype e4m3 or e5m2): Hopper's wgmma multiplies them with
 * both A and B K-major (there is no transposed fp8 form), accumulating in
 * f32; B may be the other fp8 type (b_dtype); scale and fp8_accum take
 * their defaults.  kgen_matmul_resolve() has made wgmma and a
 * column-major B the defaults. */
static kgen_status
check_fp8(struct kgen_spec *s, kgen_error *err)
{
	const char *t = s->r.dtype->name;

	if (s->math != KGEN_MATH_WGMMA)
		return ERR(math, "dtype %s multiplies on Hopper's fp8 tensor cores: use math: wgmma, not %s", t,
		           kgen_maths[s->math].name);
	KGEN_ASSERT(kgen_dtype_info[s->b_dtype].cls == DT_FP8);  /* the only-with rows' (gen/matmul.c), or dtype's */
	if (s->a_layout != KGEN_MM_ROW)
		return ERR(a_layout, "dtype %s: wgmma reads fp8 operands K-major only (k contiguous): a column-major A needs "
		           "transposing first; use a_layout: row (A stored m x k)", t);
	if (s->b_layout != KGEN_MM_COL)
		return ERR(b_layout, "dtype %s: wgmma reads fp8 operands K-major only (k contiguous): a row-major B needs "
		           "transposing first; use b_layout: col (B stored n x k, as torch._scaled_mm takes b.t())", t);
	if (s->unaligned == KGEN_MM_UNALIGNED_FALLBACK)
		return ERR(unaligned, "unaligned: fallback runs an mma.sync kernel, which kgen has for f16 and bf16, not %s: "
		           "use unaligned: repack (the default) or refuse", t);
	if (s->scale < 0)
		s->scale = KGEN_MM_SCALE_TENSOR;
	if (s->fp8_accum < 0)
		s->fp8_accum = KGEN_MM_FP8_PROMOTE;
	return KGEN_OK;
}

/* Defaults that follow dtype, set before the only-with rules read them:
 * fp8 operands multiply on wgmma only, with B K-major (b_layout: col)
 * and two consumer warpgroups; b_dtype is dtype unless given. */
kgen_status
kgen_matmul_resolve(struct kgen_spec *s, kgen_error *err)
{
	(void)err;
	if (s->b_dtype < 0)
		s->b_dtype = s->dtype;
	if (kgen_dtype_info[s->dtype].cls != DT_FP8)
		return KGEN_OK;
	if (!KGEN_GIVEN(s, math))
		s->math = KGEN_MATH_WGMMA;
	if (!KGEN_GIVEN(s, b_layout))
		s->b_layout = KGEN_MM_COL;
	if (!KGEN_GIVEN(s, consumers))  /* 64 rows each: fp8_accum: promote's two sets fit a 128 x 128 tile */
		s->consumers = 2;
	return KGEN_OK;
}

/* The types: dtype, acc_dtype, out_dtype; the resolved view's (spec.h)
 * accumulator and result types, which matmul has without an op, so that
 * the rules, the emitter and the launchers read them as fields. */
static kgen_status
check_types(struct kgen_spec *s, kgen_error *err)
{
	const struct kgen_dtype_info *dt = s->r.dtype;
	int half = dt->cls == DT_HALF || dt->cls == DT_BHALF, fp8 = dt->cls == DT_FP8;
	kgen_status st;

	KGEN_ASSERT(is_float_dtype(s->dtype) || fp8);  /* the types are the only-with rows' (gen/matmul.c) */
	if (s->acc_dtype < 0)
		s->acc_dtype = half || fp8 ? KGEN_DT_F32 : s->dtype;
	if (s->out_dtype < 0)  /* fp8 is not a type of C here: bf16, as torch._scaled_mm's usual out_dtype */
		s->out_dtype = fp8 ? KGEN_DT_BF16 : s->dtype;
	s->r.acc = &kgen_dtype_info[s->acc_dtype];
	s->r.out = &kgen_dtype_info[s->out_dtype];
	if (fp8 && (st = check_fp8(s, err)))
		return st;
	KGEN_ASSERT(s->acc_dtype == KGEN_DT_F32 || s->acc_dtype == KGEN_DT_F64);
	if (s->dtype == KGEN_DT_F64 && s->acc_dtype != KGEN_DT_F64)
		return ERR(acc_dtype, "acc_dtype %s is narrower than dtype f64", s->r.acc->name);
	KGEN_ASSERT(is_float_dtype(s->out_dtype));
	if (s->math != KGEN_MATH_SIMT) {
		if (!half && !fp8)
			return ERR(math, "math: %s multiplies f16 or bf16 on tensor cores, not dtype %s: use math: simt",
			           kgen_maths[s->math].name, dt->name);
		if (s->acc_dtype != KGEN_DT_F32)
			return ERR(acc_dtype, "math: %s accumulates in f32, not acc_dtype %s", kgen_maths[s->math].name,
			           s->r.acc->name);
		if (s->staging != KGEN_STAGING_SMEM)
			return ERR(staging, "math: %s multiplies tiles in shared memory: use staging: smem",
			           kgen_maths[s->math].name);
	}
	return KGEN_OK;
}

/* The simt thread tile and warp tile; the threads they make into *threads. */
static kgen_status
check_simt(struct kgen_spec *s, long long *threads, kgen_error *err)
{
	if (!kgen_is_pow2(s->thread_m))
		return ERR(thread_m, "thread_m %lld is not a power of two (1, 2, 4, 8 or 16)", s->thread_m);
	if (!kgen_is_pow2(s->thread_n))
		return ERR(thread_n, "thread_n %lld is not a power of two (1, 2, 4, 8 or 16)", s->thread_n);
	if (s->tile_m % s->thread_m)
		return ERR(tile_m, "tile_m %lld is not a multiple of thread_m %lld", s->tile_m, s->thread_m);
	if (s->tile_n % s->thread_n)
		return ERR(tile_n, "tile_n %lld is not a multiple of thread_n %lld", s->tile_n, s->thread_n);
	*threads = s->tile_m / s->thread_m * (s->tile_n / s->thread_n);
	if (s->warp_m <= 0 && s->warp_n <= 0)
		return KGEN_OK;
	if (s->warp_m <= 0)
		return ERR(warp_n, "warp_n needs warp_m: warp tiling takes both");
	if (s->warp_n <= 0)
		return ERR(warp_m, "warp_m needs warp_n: warp tiling takes both");
	if (s->tile_m % s->warp_m)
		return ERR(warp_m, "tile_m %lld is not a multiple of warp_m %lld", s->tile_m, s->warp_m);
	if (s->tile_n % s->warp_n)
		return ERR(warp_n, "tile_n %lld is not a multiple of warp_n %lld", s->tile_n, s->warp_n);
	if (s->warp_m % s->thread_m)
		return ERR(warp_m, "warp_m %lld is not a multiple of thread_m %lld", s->warp_m, s->thread_m);
	if (s->warp_n % s->thread_n)
		return ERR(warp_n, "warp_n %lld is not a multiple of thread_n %lld", s->warp_n, s->thread_n);
	if (s->warp_m / s->thread_m * (s->warp_n / s->thread_n) != 32)
		return ERR(warp_m, "a %lld x %lld warp tile of %lld x %lld per thread takes %lld threads, not a warp's 32",
		           s->warp_m, s->warp_n, s->thread_m, s->thread_n,
		           s->warp_m / s->thread_m * (s->warp_n / s->thread_n));
	return KGEN_OK;
}

/* Is a tile row of `elems` elements one that swizzle_at() XORs: 2, 4 or a
 * multiple of 8 16-byte chunks? */
static int
swizzle_fits(long long elems, int size)
{
	long long chunks = elems * size / 16;

	return chunks % 8 == 0 || chunks == 2 || chunks == 4;
}

/* smem_layout: swizzled XORs 16-byte chunks within 128 bytes of a tile's row. */
static kgen_status
check_swizzle(struct kgen_spec *s, kgen_error *err)
{
	int size = s->r.dtype->size;
	long long a = s->a_layout == KGEN_MM_ROW ? s->tile_k : s->tile_m;
	long long b = s->b_layout == KGEN_MM_ROW ? s->tile_n : s->tile_k;

	if (s->smem_layout != KGEN_SMEM_LAYOUT_SWIZZLED)
		return KGEN_OK;
	if (!swizzle_fits(a, size))
		return ERR(smem_layout, "smem_layout: swizzled XORs a row's 16-byte chunks within 128 bytes: A's tile rows of "
		           "%s %lld (%lld bytes) are not 32, 64 or a multiple of 128 bytes",
		           s->a_layout == KGEN_MM_ROW ? "tile_k" : "tile_m", a, a * size);
	if (!swizzle_fits(b, size))
		return ERR(smem_layout, "smem_layout: swizzled XORs a row's 16-byte chunks within 128 bytes: B's tile rows of "
		           "%s %lld (%lld bytes) are not 32, 64 or a multiple of 128 bytes",
		           s->b_layout == KGEN_MM_ROW ? "tile_n" : "tile_k", b, b * size);
	return KGEN_OK;
}

/* loads: tma: TMA lands each tile as boxes of 128-byte rows in its 128B
 * swizzle, so the tiles are swizzled and their rows whole boxes; a block
 * takes a tile and all of its k. */
static kgen_status
check_tma_loads(struct kgen_spec *s, kgen_error *err)
{
	int size = s->r.dtype->size, box = 128 / size;
	long long a = s->a_layout == KGEN_MM_ROW ? s->tile_k : s->tile_m;
	long long b = s->b_layout == KGEN_MM_ROW ? s->tile_n : s->tile_k;

	if (s->smem_layout != KGEN_SMEM_LAYOUT_SWIZZLED)
		return ERR(mm_loads, "loads: tma lands its boxes in TMA's 128-byte swizzle: use smem_layout: swizzled, not %s",
		           kgen_smem_layouts[s->smem_layout].name);
	if (a % box)
		return ERR(mm_loads, "loads: tma copies boxes of 128-byte rows (%d %s): A's tile rows of %s %lld are not a "
		           "multiple of %d", box, s->r.dtype->name, s->a_layout == KGEN_MM_ROW ? "tile_k" : "tile_m", a,
		           box);
	if (b % box)
		return ERR(mm_loads, "loads: tma copies boxes of 128-byte rows (%d %s): B's tile rows of %s %lld are not a "
		           "multiple of %d", box, s->r.dtype->name, s->b_layout == KGEN_MM_ROW ? "tile_n" : "tile_k", b,
		           box);
	if (s->split_k > 1)
		return ERR(split_k, "split_k %lld needs loads: cp_async (loads: tma takes a block a tile, all of its k)",
		           s->split_k);
	if (s->schedule == KGEN_SCHEDULE_STREAM_K)
		return ERR(schedule, "schedule: stream_k needs loads: cp_async (loads: tma takes a block a tile, all of its k)");
	return KGEN_OK;
}

/* The tensor-core tiles; the threads they make into *threads. */
static kgen_status
check_tensor(struct kgen_spec *s, long long *threads, kgen_error *err)
{
	const char *math = kgen_maths[s->math].name;

	if (s->tile_k % 16)
		return ERR(tile_k, "math: %s steps k by 16: tile_k %lld is not a multiple of 16", math, s->tile_k);
	if (s->warp_m % 16)
		return ERR(warp_m, "math: %s computes 16-row fragments: warp_m %lld is not a multiple of 16", math, s->warp_m);
	if (s->warp_n % 16)
		return ERR(warp_n, "math: %s computes 16-column fragments: warp_n %lld is not a multiple of 16", math,
		           s->warp_n);
	if (s->tile_m % s->warp_m)
		return ERR(tile_m, "tile_m %lld is not a multiple of warp_m %lld", s->tile_m, s->warp_m);
	if (s->tile_n % s->warp_n)
		return ERR(tile_n, "tile_n %lld is not a multiple of warp_n %lld", s->tile_n, s->warp_n);
	*threads = s->tile_m / s->warp_m * (s->tile_n / s->warp_n) * 32;
	if (s->mm_store == KGEN_MM_STORE_TMA)
		return ERR(mm_store, "store: tma needs math: wgmma (its producer warpgroup's pipeline), not math: %s", math);
	if (s->mm_store == KGEN_MM_STORE_PAIRS && s->split_k > 1)
		return ERR(mm_store, "store: pairs stores C itself: split_k %lld writes partial sums (use split_k: 1)",
		           s->split_k);
	if (kgen_matmul_loads_tma(s))
		return check_tma_loads(s, err);
	return check_swizzle(s, err);
}

/* The accumulators a thread keeps in registers: a thread has 255, and the
 * operands' fragments and addresses need some, so a tile with more than 128
 * words of accumulators spills to local memory (and takes NVRTC seconds to
 * minutes to compile: a 256 x 256 warp tile of mma.sync is 2048 a thread). */
/* The registers of accumulators a thread of a simt, wmma or mma kernel
 * keeps: its thread tile (an f64 word counts two) or its share of its
 * warp's tile; one for staging: none. */
static long long
acc_registers(const struct kgen_spec *s)
{
	if (s->staging == KGEN_STAGING_NONE)
		return 1;
	if (s->math == KGEN_MATH_SIMT)
		return s->thread_m * s->thread_n * (s->r.acc->size / 4);
	return s->warp_m * s->warp_n / 32;
}

static kgen_status
check_registers(const struct kgen_spec *s, kgen_error *err)
{
	long long acc = acc_registers(s);

	if (s->staging == KGEN_STAGING_NONE || s->math == KGEN_MATH_WGMMA || acc <= KGEN_MATMUL_ACC_WORDS)
		return KGEN_OK;
	if (s->math == KGEN_MATH_SIMT)
		return ERR(thread_m, "a %lld x %lld thread tile of %s keeps %lld registers of accumulators in each thread: at "
		           "most %d fit beside the operands (e.g. 8 x 8 of f32)", s->thread_m, s->thread_n,
		           s->r.acc->name, acc, KGEN_MATMUL_ACC_WORDS);
	return ERR(warp_m, "a %lld x %lld warp tile keeps %lld f32 accumulators in each of its 32 threads: at most %d "
	           "fit beside the fragments (e.g. warp_m: 64, warp_n: 64)", s->warp_m, s->warp_n, acc,
	           KGEN_MATMUL_ACC_WORDS);
}

/* blocks_per_sm: the blocks an SM must hold at once, which caps each
 * thread's registers at 65536 / (blocks_per_sm x threads); the threads and
 * the shared memory of that many blocks must fit an SM too, by sm_90's
 * limits (2048 threads and 228 KB, 1 KB of it each block's own; sm_80 has
 * 164 KB, sm_86 and sm_89 100 KB and 1536 threads, where fewer fit). */
static kgen_status
check_occupancy(const struct kgen_spec *s, kgen_error *err)
{
	struct kgen_matmul g;
	long long n = s->mm_blocks_per_sm, regs, acc = acc_registers(s);

	if (n == 0 || s->math == KGEN_MATH_WGMMA)
		return KGEN_OK;
	if (n * s->threads > 2048)
		return ERR(mm_blocks_per_sm, "blocks_per_sm %lld x threads %lld is more than the 2048 threads an SM holds", n,
		           s->threads);
	kgen_matmul_shape(s, &g);
	if (g.smem && n * (g.smem_bytes + 1024) > KGEN_MATMUL_SM_SMEM)
		return ERR(mm_blocks_per_sm, "blocks_per_sm %lld x %lld bytes of tiles (and 1 KB each) is more than the %d "
		           "bytes of shared memory an SM has: use fewer blocks, smaller tiles or fewer stages", n,
		           g.smem_bytes, KGEN_MATMUL_SM_SMEM);
	regs = 65536 / (n * s->threads);
	if (regs <= acc)
		return ERR(mm_blocks_per_sm, "blocks_per_sm %lld x %lld threads leaves %lld registers a thread, no more than "
		           "its %lld accumulators", n, s->threads, regs, acc);
	return KGEN_OK;
}

/* load_width, the tiles' sides along which it loads, and cp.async. */
static kgen_status
check_loads(struct kgen_spec *s, kgen_error *err)
{
	const struct kgen_dtype_info *dt = s->r.dtype;
	struct kgen_matmul g;
	long long vec = s->load_width / dt->size;
	int a_row = s->a_layout == KGEN_MM_ROW, b_row = s->b_layout == KGEN_MM_ROW;

	if (!kgen_is_pow2(s->load_width) || s->load_width % dt->size || s->load_width > 16)
		return ERR(load_width, "load_width %lld must be the element size (%d bytes for %s) times a power of two, "
		           "at most 16", s->load_width, dt->size, dt->name);
	if ((a_row ? s->tile_k : s->tile_m) % vec)
		return ERR(load_width, "load_width %lld loads %lld %s at a time along A's %s: %s %lld is not a multiple of "
		           "%lld", s->load_width, vec, dt->name, a_row ? "rows" : "columns", a_row ? "tile_k" : "tile_m",
		           a_row ? s->tile_k : s->tile_m, vec);
	if ((b_row ? s->tile_n : s->tile_k) % vec)
		return ERR(load_width, "load_width %lld loads %lld %s at a time along B's %s: %s %lld is not a multiple of "
		           "%lld", s->load_width, vec, dt->name, b_row ? "rows" : "columns", b_row ? "tile_n" : "tile_k",
		           b_row ? s->tile_n : s->tile_k, vec);
	kgen_matmul_shape(s, &g);
	if (s->mm_stages > 4)
		return ERR(mm_stages, "stages %lld: math: %s keeps 2 to 4 stages in flight (math: wgmma's TMA pipeline "
		           "takes up to 16)", s->mm_stages, kgen_maths[s->math].name);
	if (s->mm_stages > 1) {
		if (s->load_width < 4)
			return ERR(mm_stages, "stages %lld copies with cp.async, which moves 4, 8 or 16 bytes: load_width %lld "
			           "is too narrow", s->mm_stages, s->load_width);
		if (g.trans_a)
			return ERR(mm_stages, "stages %lld copies with cp.async, which cannot transpose: a_smem: %s of a "
			           "%s-major A needs stages: 1", s->mm_stages, kgen_a_smems[s->a_smem].name,
			           kgen_mm_layouts[s->a_layout].name);
		if (g.trans_b)
			return ERR(mm_stages, "stages %lld copies with cp.async, which cannot transpose: math: simt keeps "
			           "B's tile row-major, so a col-major B needs stages: 1", s->mm_stages);
	}
	if (g.smem_bytes > KGEN_MATMUL_SMEM_MAX)
		return ERR(tile_m, "the tiles take %lld bytes of shared memory (stages %lld), over the %d a block may "
		           "have: use smaller tiles or fewer stages", g.smem_bytes, s->mm_stages, KGEN_MATMUL_SMEM_MAX);
	return KGEN_OK;
}

/* The epilogue's operands, before the epilogue is checked: bias_dtype and
 * residual_dtype resolved (C's type by default); an epilogue not given adds
 * the declared operands to v. */
static kgen_status
resolve_operands(struct kgen_spec *s, kgen_error *err)
{
	int bias = s->bias != KGEN_MM_BIAS_NONE, residual = s->residual != KGEN_MM_RESIDUAL_NONE;

	if (s->bias_dtype < 0)
		s->bias_dtype = s->out_dtype;
	if (s->residual_dtype < 0)
		s->residual_dtype = s->out_dtype;
	KGEN_ASSERT(is_float_dtype(s->bias_dtype) && is_float_dtype(s->residual_dtype));  /* the only-with rows' */
	if (s->pos[KGEN_KEY_epilogue].line == 0)  /* not given: v, plus the operands */
		snprintf(kgen_spec_expr(s, KGEN_KEY_epilogue), KGEN_EXPR_MAX + 1, "v%s%s", bias ? " + bias" : "",
		         residual ? " + residual" : "");
	return KGEN_OK;
}

/* A checked epilogue reads exactly the operands the spec declares: a name
 * of none is a mistake, and so is an operand the epilogue never reads. */
static kgen_status
check_operands_read(const struct kgen_spec *s, kgen_error *err)
{
	const char *text = kgen_spec_expr_text(s, KGEN_KEY_epilogue);
	unsigned used = kgen_matmul_names_used(s, KGEN_KEY_epilogue), aux = kgen_matmul_names_used(s, KGEN_KEY_aux);
	static const struct {
		enum kgen_key key;
		const char *what;
	} exprs[] = { { KGEN_KEY_epilogue, "epilogue" }, { KGEN_KEY_aux, "aux" } };
	size_t i;

	for (i = 0; i < KGEN_COUNT(exprs); i++) {
		unsigned u = i ? aux : used;
		if ((u & 1u << KGEN_V_BIAS) && s->bias == KGEN_MM_BIAS_NONE)
			return kgen_spec_error(s, exprs[i].key, 1, err, "%s: bias is not declared: add `bias: col` (a vector of "
			                       "n values, bias[col], as a linear layer's) or `bias: row` (m values, bias[row])",
			                       exprs[i].what);
		if ((u & 1u << KGEN_V_RESIDUAL) && s->residual == KGEN_MM_RESIDUAL_NONE)
			return kgen_spec_error(s, exprs[i].key, 1, err, "%s: residual is not declared: add `residual: matrix` "
			                       "(m x n, row-major, its row pitch ldr given at launch)", exprs[i].what);
	}
	used |= aux;  /* an operand the auxiliary output alone reads is read */
	if (!(used & 1u << KGEN_V_BIAS) && s->bias != KGEN_MM_BIAS_NONE)
		return ERR(bias, "bias: %s, but the epilogue `%s` does not read bias: name it there (e.g. gelu(v + bias)) "
		           "or drop bias", kgen_mm_biases[s->bias].name, text);
	if (!(used & 1u << KGEN_V_RESIDUAL) && s->residual != KGEN_MM_RESIDUAL_NONE)
		return ERR(residual, "residual: matrix, but the epilogue `%s` does not read residual: name it there (e.g. "
		           "v + residual) or drop residual", text);
	return KGEN_OK;
}

unsigned
kgen_matmul_names_used(const struct kgen_spec *s, enum kgen_key k)
{
	const char *text = kgen_spec_expr_text(s, k);
	struct kgen_expr e;
	unsigned used = 0;
	char why[200];
	size_t at;
	int i;

	if (!text || !*text || kgen_expr_parse(k, text, &e, &at, why, sizeof why) != KGEN_OK)
		return 0;  /* none given, or kgen_expr_check_key() says why */
	for (i = 0; i < e.n; i++)
		if (e.node[i].kind == KGEN_N_VAR)
			used |= 1u << e.node[i].op;
	return used;
}

/* The family's rules (family.h's check): types, tiles and threads by
 * staging and math, loads, registers, occupancy, schedule, order, epilogue. */
kgen_status
kgen_matmul_check(struct kgen_spec *s, kgen_error *err)
{
	long long threads = 0;
	kgen_status st;

	if ((st = check_types(s, err)))
		return st;
	if (s->schedule == KGEN_SCHEDULE_STREAM_K && s->math != KGEN_MATH_SIMT && s->math != KGEN_MATH_MMA)
		return ERR(schedule, "schedule: stream_k needs math: simt or mma, not %s%s", kgen_maths[s->math].name,
		           s->math == KGEN_MATH_WGMMA ? " (math: wgmma takes schedule: tiles or pingpong)" : "");
	if (s->schedule == KGEN_SCHEDULE_PINGPONG && s->math != KGEN_MATH_WGMMA)
		return ERR(schedule, "schedule: pingpong needs math: wgmma, not %s (its consumer warpgroups take tiles in "
		           "turn)", kgen_maths[s->math].name);
	if (s->split_reduce < 0 && s->split_k > 1)  /* wgmma's split blocks meet in their cluster unless told; others' in a kernel */
		s->split_reduce = s->math == KGEN_MATH_WGMMA ? KGEN_MM_SPLIT_CLUSTER : KGEN_MM_SPLIT_KERNEL;
	if (KGEN_GIVEN(s, split_reduce) && s->split_k <= 1)
		return ERR(split_reduce, "split_reduce says where split_k's blocks add their sums: it needs split_k above 1, "
		           "not %lld", s->split_k);
	if (s->split_reduce == KGEN_MM_SPLIT_CLUSTER && s->math != KGEN_MATH_WGMMA)
		return ERR(split_reduce, "split_reduce: cluster needs math: wgmma, not %s (its splits meet in a second "
		           "kernel: split_reduce: kernel)", kgen_maths[s->math].name);
	resolve_tiles(s);
	if (s->staging == KGEN_STAGING_NONE)
		threads = s->tile_m * s->tile_n;
	else if (s->math == KGEN_MATH_SIMT)
		st = check_simt(s, &threads, err);
	else if (s->math == KGEN_MATH_WGMMA)
		st = kgen_matmul_wgmma_check(s, &threads, err);
	else
		st = check_tensor(s, &threads, err);
	if (st || (st = check_registers(s, err)))
		return st;
	if (threads > 1024 || threads % 32)
		return ERR(tile_m, "a %lld x %lld tile takes %lld threads: a block needs a multiple of 32, at most 1024",
		           s->tile_m, s->tile_n, threads);
	if (s->threads >= 0 && s->threads != threads)
		return ERR(threads, "threads %lld: the tiles take %lld; drop threads", s->threads, threads);
	s->threads = threads;
	if (s->staging == KGEN_STAGING_SMEM && s->math != KGEN_MATH_WGMMA && (st = check_loads(s, err)))
		return st;
	if ((st = check_occupancy(s, err)))
		return st;
	if (s->schedule == KGEN_SCHEDULE_STREAM_K && s->split_k > 1)
		return ERR(schedule, "schedule: stream_k shares k out itself: drop split_k %lld (or use schedule: tiles)",
		           s->split_k);
	if (s->order == KGEN_ORDER_HILBERT && (s->group & (s->group - 1))) {
		long long below = 1;
		while (below * 2 < s->group)
			below *= 2;
		return ERR(group, "group %lld: order: hilbert walks squares of group x group tiles along a Hilbert curve, "
		           "whose side is a power of two: %lld or %lld", s->group, below, below * 2);
	}
	if (s->unaligned == KGEN_MM_UNALIGNED_REFUSE && !kgen_matmul_takes_maps(s))
		return ERR(unaligned, "unaligned says what a kernel that loads A and B by TMA (math: wgmma, or math: mma "
		           "with loads: tma) does with operands TMA cannot load; this one loads any: drop unaligned");
	if ((st = resolve_operands(s, err)) || (st = kgen_expr_check_key(s, KGEN_KEY_epilogue, err)) ||
	    (st = kgen_expr_check_key(s, KGEN_KEY_aux, err)) || (st = check_operands_read(s, err)))
		return st;
	if (!s->name)
		snprintf(s->name_text, sizeof s->name_text, "matmul_%s_%s", kgen_maths[s->math].name, s->r.dtype->name);
	return KGEN_OK;
}
