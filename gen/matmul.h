/* matmul.h - the matrix multiply family (`kernel: matmul`): the shape of a
 * checked spec's kernels, derived once, for the rules (gen/matmul_check.c),
 * the header and the emitter (gen/matmul.c).  What math: wgmma's part (matmul_hopper.h) and the
 * launchers share with it is matmul_common.h. */
#ifndef KGEN_MATMUL_H
#define KGEN_MATMUL_H

#include "family.h"
#include "matmul_common.h"

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

/* The derived shape of spec s (its tiles resolved; gen/matmul_check.c). */
void kgen_matmul_shape(const struct kgen_spec *s, struct kgen_matmul *g);

/* The family's rules (gen/matmul_check.c): the family's .check. */
kgen_status kgen_matmul_check(struct kgen_spec *s, kgen_error *err);
kgen_status kgen_matmul_resolve(struct kgen_spec *s, kgen_error *err);

/* row_reduce and col_reduce (gen/matmul_reduce.c): section "reductions" of
 * the file shown where the spec has any, and then its placeholders
 * reduce_members (struct Epilogue's vectors), reduce_helpers and
 * reduce_lines (struct RowPartials, ColPartials and their helpers). */
struct tpl_args;
kgen_status kgen_matmul_reductions(const struct kgen_spec *s, struct tpl_args *file, kgen_error *err);

/* The names (a bit per KGEN_V_*, expr_parse.h) expression key k of a
 * checked matmul spec reads (epilogue, aux); 0 for an aux not given. */
unsigned kgen_matmul_names_used(const struct kgen_spec *s, enum kgen_key k);

#endif
