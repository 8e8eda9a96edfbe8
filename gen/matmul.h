/* matmul.h - the matrix multiply family (`kernel: matmul`): the shape of a
 * checked spec's kernels, derived once, for the emitter, the header and the
 * runtime launcher. */
#ifndef KGEN_MATMUL_H
#define KGEN_MATMUL_H

#include "family.h"

/* What a checked matmul spec's tiles come to. */
struct kgen_matmul {
	int smem;                 /* staging: smem */
	int tensor;               /* math: wmma or mma */
	int swizzled;             /* smem_layout: swizzled (math: mma): unpadded rows, chunks XORed */
	int tma;                  /* loads: tma (math: mma, stages 2 to 4): TMA's swizzled boxes, mbarriers */
	int warptiling;           /* math: simt with warp_m and warp_n */
	int tm, tn, tk;           /* the block's tile */
	int vec_a, vec_b;         /* elements per global load of A and of B (load_width / size) */
	int trans_a, trans_b;     /* the tile is transposed on its way to shared memory */
	int a_ld, b_ld;           /* elements between rows of the tiles in shared memory */
	int a_rows, b_rows;       /* rows of each tile in shared memory */
	int rm, rm_stride;        /* simt: a thread's rows come in chunks of rm, rm_stride apart */
	int cn, cn_stride;        /* and its columns in chunks of cn */
	long long smem_bytes;     /* dynamic shared memory of the main kernel */
};

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

/* The derived shape of spec s (its tiles resolved). */
void kgen_matmul_shape(const struct kgen_spec *s, struct kgen_matmul *g);

/* The largest shared memory a block may have (sm_90: 227 KB). */
#define KGEN_MATMUL_SMEM_MAX 232448
#define KGEN_MATMUL_SM_SMEM 233472   /* shared memory of an SM (sm_90: 228 KB) */
#define KGEN_MATMUL_ACC_WORDS 128  /* accumulator registers a thread may keep */

/* schedule: stream_k: the fewest k tiles a stream-K block takes when there
 * are fewer tiles than blocks the GPU holds at once. */
#define KGEN_MATMUL_MIN_RUN 4

/* schedule: stream_k's division of a launch of `tiles` tiles of k_tiles k
 * tiles each, `slots` blocks fitting the GPU at once: *dp_tiles blocks take
 * a tile whole, *sk_blocks after them share the rest (0: a block a tile). */
void kgen_matmul_stream_k(unsigned long long tiles, unsigned long long k_tiles, unsigned long long slots,
                          unsigned long long *dp_tiles, unsigned long long *sk_blocks);

/* Where tile blockIdx.x (indexed: tile `tile`) of C starts, as a device
 * function tile_origin() in the spec's order (gen/matmul.c). */
void kgen_matmul_tile_origin(const struct kgen_spec *s, int indexed, strbuf *b);
/* The constant GROUP of order: grouped and hilbert (nothing for the others). */
void kgen_matmul_group_constant(const struct kgen_spec *s, strbuf *b);

/* math: wgmma (gen/matmul_hopper.c): its rules (the threads they make into
 * *threads), the dynamic shared memory of `stages` stages, its launch
 * contract (`order`: how blocks take tiles), and the parts of the source
 * that are its own: the constants, the helpers (into parts) and the kernel. */
kgen_status kgen_matmul_wgmma_check(struct kgen_spec *s, long long *threads, kgen_error *err);
long long kgen_matmul_wgmma_smem(const struct kgen_spec *s, long long stages);
/* cluster's blocks along m and along n (1 and 1 without clusters). */
int kgen_cluster_m(const struct kgen_spec *s);
int kgen_cluster_n(const struct kgen_spec *s);
void kgen_matmul_wgmma_contract(const struct kgen_spec *s, struct kgen_contract *p, const char *order);
/* The contract's lines on A's and B's tensor maps (math: wgmma; math: mma
 * with loads: tma), a K-major operand's box `rows` of its tile's rows. */
void kgen_matmul_map_notes(const struct kgen_spec *s, struct kgen_contract *p, int a_rows, int b_rows);
struct tpl_args;
kgen_status kgen_matmul_wgmma_constants(const struct kgen_spec *s, struct tpl_args *file, kgen_error *err);
kgen_status kgen_matmul_wgmma_helpers(const struct kgen_spec *s, struct tpl_args *parts, kgen_error *err);
kgen_status kgen_matmul_wgmma_kernel(const struct kgen_spec *s, strbuf *out, kgen_error *err);

#endif
