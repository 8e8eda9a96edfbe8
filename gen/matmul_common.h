/* matmul_common.h - what the matmul family's parts share, below them all:
 * its limits, the rules that say how a call's C divides into tiles (one
 * rule for the header comment and the launcher, as kgen_reduce_grid is
 * reduce's), and the constants every tiled kernel declares alike.
 * gen/matmul.c (the family: rules, contract, emitter), gen/matmul_hopper.c
 * (math: wgmma) and runtime/matmul*.c read it; it reads neither. */
#ifndef KGEN_MATMUL_COMMON_H
#define KGEN_MATMUL_COMMON_H

#include "spec.h"

/* The largest shared memory a block may have (sm_90: 227 KB). */
#define KGEN_MATMUL_SMEM_MAX 232448
#define KGEN_MATMUL_SM_SMEM 233472   /* shared memory of an SM (sm_90: 228 KB) */
#define KGEN_MATMUL_ACC_WORDS 128  /* accumulator registers a thread may keep */

/* schedule: stream_k: the fewest k tiles a stream-K block takes when there
 * are fewer tiles than blocks the GPU holds at once. */
#define KGEN_MATMUL_MIN_RUN 4

/* loads: tma in effect: math: mma copying its stages (2 to 4) by TMA. */
static inline int
kgen_matmul_loads_tma(const struct kgen_spec *s)
{
	return s->math == KGEN_MATH_MMA && s->mm_stages > 1 && s->mm_loads == KGEN_MM_LOADS_TMA;
}

/* The kernel takes A and B as TMA tensor maps (math: wgmma, loads: tma). */
static inline int
kgen_matmul_takes_maps(const struct kgen_spec *s)
{
	return s->math == KGEN_MATH_WGMMA || kgen_matmul_loads_tma(s);
}

/* unaligned: repack: a second kernel, NAME_repack, copies an operand TMA
 * cannot load into rows of 16-byte multiples before the kernel runs. */
static inline int
kgen_matmul_repacks(const struct kgen_spec *s)
{
	return kgen_matmul_takes_maps(s) && s->unaligned == KGEN_MM_UNALIGNED_REPACK;
}

/* math: wgmma: the rows of a tile a consumer warpgroup multiplies (and
 * stores): its share, or with schedule: pingpong, which gives each
 * warpgroup whole tiles in turn, all of them. */
static inline long long
kgen_matmul_wgmma_rows(const struct kgen_spec *s)
{
	return s->schedule == KGEN_SCHEDULE_PINGPONG ? s->tile_m : s->tile_m / s->consumers;
}

/* Whether store: tma's epilogue reads the residual through TMA (r_map,
 * r_tma): math: wgmma without clusters or split_k, store: tma and a residual matrix of
 * C's element size, read chunk by chunk into the buffers C's chunks are
 * stored from (else each element is loaded where it is used). */
static inline int
kgen_matmul_residual_tma(const struct kgen_spec *s)
{
	return s->math == KGEN_MATH_WGMMA && s->mm_store == KGEN_MM_STORE_TMA && s->cluster == KGEN_CLUSTER_C1X1 &&
	       s->split_k == 1 && s->residual == KGEN_MM_RESIDUAL_MATRIX && kgen_dtype_info[s->residual_dtype].size == s->r.out->size;
}

/* math: wgmma with store: tma compiles its kernel as four (gen/matmul_hopper.c,
 * templates/matmul/wgmma_variants.cu): one for each beta (0, or C read and
 * scaled) and for each way C leaves (by TMA, or, where TMA cannot take C or
 * the residual, element by element), each built at its first launch, so a
 * call compiles only the code it runs.  The suffixes of the three besides
 * NAME, in the contract's order after it (and NAME_reduce). */
static inline int
kgen_matmul_wgmma_variants(const struct kgen_spec *s)
{
	return s->math == KGEN_MATH_WGMMA && s->mm_store == KGEN_MM_STORE_TMA;
}
#define KGEN_MATMUL_VARIANT_BETA "_beta"
#define KGEN_MATMUL_VARIANT_UNALIGNED "_unaligned"
#define KGEN_MATMUL_VARIANT_BETA_UNALIGNED "_beta_unaligned"

/* split_k above 1 by partial sums in scratch and a second kernel that adds
 * them (split_reduce: kernel: simt, wmma and mma always; math: wgmma splits
 * k within a cluster unless told). */
static inline int
kgen_matmul_partial_sums(const struct kgen_spec *s)
{
	return s->split_k > 1 && s->split_reduce == KGEN_MM_SPLIT_KERNEL;
}

/* dtype e4m3 or e5m2: fp8 operands (math: wgmma only). */
static inline int
kgen_matmul_fp8(const struct kgen_spec *s)
{
	return kgen_dtype_info[s->dtype].cls == DT_FP8;
}

/* scale: tensor or block: the kernel reads scale_a and scale_b (struct
 * Epilogue's last members): tensor, two device scalars multiplied into the
 * sums before the epilogue; block, A's scales a row and 128 of k and B's a
 * 128 x 128 block, applied to each k tile's sums (fp8_accum: promote). */
static inline int
kgen_matmul_scaled(const struct kgen_spec *s)
{
	return kgen_matmul_fp8(s) && (s->scale == KGEN_MM_SCALE_TENSOR || s->scale == KGEN_MM_SCALE_BLOCK);
}

static inline int
kgen_matmul_block_scaled(const struct kgen_spec *s)
{
	return kgen_matmul_fp8(s) && s->scale == KGEN_MM_SCALE_BLOCK;
}

/* row_reduce and col_reduce: whether the spec reduces the values it
 * stores, and how a reduction's partials combine (its identity: 0 for a
 * sum, -inf for a max, +inf for a min; absmax is a max of |x| from 0;
 * logsumexp adds exponentials, its identity -inf). */
enum kgen_reduce_kind { KGEN_REDUCE_ADD, KGEN_REDUCE_MAX, KGEN_REDUCE_MIN, KGEN_REDUCE_LOGADDEXP };

static inline int
kgen_matmul_reduces(const struct kgen_spec *s)
{
	return s->row_reduce > 0 || s->col_reduce > 0;
}

enum kgen_reduce_kind kgen_matmul_reduce_kind(enum kgen_mm_reduce r);

/* The reduction r of one value x, as C of x (sumsq: "x * x"). */
const char *kgen_matmul_reduce_map(enum kgen_mm_reduce r);

/* The reductions' vectors of struct Epilogue, in its order: those of
 * row_reduce, then col_reduce's, each in the table's order; *by_row says
 * which.  Returns how many there are (at most KGEN_MM_REDUCE_COUNT * 2). */
int kgen_matmul_reduce_list(const struct kgen_spec *s, enum kgen_mm_reduce *which, int *by_row);

/* cluster's blocks along m and along n (1 and 1 without clusters). */
int kgen_cluster_m(const struct kgen_spec *s);
int kgen_cluster_n(const struct kgen_spec *s);

/* The rows of a K-major operand's TMA box (A row-major, B column-major;
 * math: wgmma, loads: tma): its tile's, half of them where a cluster's
 * blocks share the operand (each loads one half for both). */
int kgen_matmul_a_box_rows(const struct kgen_spec *s);
/* The rows of A's K-major box for a call of m rows: the box's, but with
 * math: wgmma without a cluster and m below it, m rounded up to 8 (the
 * bytes load_stage() of templates/matmul/wgmma_stage.cu expects): TMA then
 * fetches A's rows, not a tile of zero fill; the stage's rows past them
 * are never stored. */
int kgen_matmul_a_rows(const struct kgen_spec *s, long long m);
int kgen_matmul_b_box_rows(const struct kgen_spec *s);

/* The tiles of C of an m x n call: ceil(m / tile_m) * ceil(n / tile_n);
 * with a cluster, its pairs of tiles (cluster_m x cluster_n tiles each);
 * the k tiles of a depth k: ceil(k / tile_k). */
unsigned long long kgen_matmul_tiles(const struct kgen_spec *s, unsigned long long m, unsigned long long n);
unsigned long long kgen_matmul_tile_pairs(const struct kgen_spec *s, unsigned long long m, unsigned long long n);
unsigned long long kgen_matmul_k_tiles(const struct kgen_spec *s, unsigned long long k);

/* schedule: stream_k's division of a launch of `tiles` tiles of k_tiles k
 * tiles each, `slots` blocks fitting the GPU at once: *dp_tiles blocks take
 * a tile whole, *sk_blocks after them share the rest (0: a block a tile). */
void kgen_matmul_stream_k(unsigned long long tiles, unsigned long long k_tiles, unsigned long long slots,
                          unsigned long long *dp_tiles, unsigned long long *sk_blocks);

/* The constants GROUP (order: grouped and hilbert; empty for the others)
 * and STAGES (staging: smem; empty for none) of every matmul kernel, each
 * from its template (templates/matmul/group.cu, stages.cu), into
 * placeholders "group" and "stages" of t. */
struct tpl_args;
kgen_status kgen_matmul_group_constant(const struct kgen_spec *s, struct tpl_args *t, kgen_error *err);
kgen_status kgen_matmul_stages_constant(const struct kgen_spec *s, struct tpl_args *t, kgen_error *err);

/* The header comment's note on every kernel's argument ep, a struct
 * Epilogue of alpha, beta and the epilogue's operands, into buf. */
void kgen_matmul_ep_note(const struct kgen_spec *s, char *buf, size_t n);

#endif
