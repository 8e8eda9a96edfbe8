/*
 * matmul_hopper.c - `kernel: matmul` with `math: wgmma`, Hopper's path
 * (issue 22, seed 002's H100 worklog): A and B loaded by TMA into
 * 128-byte-swizzled shared memory, multi-stage mbarrier pipelines,
 * wgmma.mma_async m64nNk16 from shared-memory descriptors, and
 * optionally a producer warpgroup feeding `consumers` warpgroups on a
 * persistent grid.  Its rules, launch contract and the parts of the
 * source that differ from the other maths (constants, helpers, kernel);
 * gen/matmul.c holds the rest, templates/matmul/wgmma_*.cu the CUDA.
 *
 * The tiles in shared memory are what TMA writes with
 * CU_TENSOR_MAP_SWIZZLE_128B from boxes 64 elements (128 bytes) wide:
 * rows of 128 bytes whose 16-byte chunks are XORed with the row's index
 * mod 8, repeating every 8 rows (1024 bytes).  An operand whose k is
 * contiguous in memory (A row-major, B column-major) is K-major: one box
 * of tile rows x 64 k; one whose m or n is contiguous (A column-major, B
 * row-major) is MN-major: a box of 64 k rows x 64 columns per 64 columns
 * of the tile.  Their wgmma descriptors (PTX ISA, "Matrix Descriptor" and
 * "Shared Memory Matrix Layout"; offsets in bytes, stored >> 4):
 *
 *   K-major, 128B swizzle: the swizzle atom is 8 rows (m or n) x 128
 *   bytes of k.  SBO = 1024, from one 8-row atom to the next down m or n;
 *   LBO is unused (one atom spans the 64 k of the tile) and set to 1 (16
 *   bytes).  The k16 steps within the atom start 32 bytes apart: the
 *   hardware swizzles the address it computes, as TMA did.
 *
 *   MN-major, 128B swizzle: the atom is 8 k rows x 128 bytes (64 elements)
 *   of m or n, the layout ((64, m'), (8, k')) : ((1, LBO), (128 bytes,
 *   SBO)).  LBO = the bytes from one 64-wide atom along m or n to the next,
 *   here one box: TILE_K x 128 = 8192; SBO = 1024, from 8 k rows to the
 *   next 8.  A k16 step is two atoms down k: 2048 bytes.  wgmma reads the
 *   operand transposed (imm-trans 1, which 16-bit types allow).
 */
#include "config.h"
#include <string.h>
#include "matmul.h"
#include "tpl.h"

#define ERR(k, ...) kgen_spec_error(s, KGEN_KEY_##k, 1, err, __VA_ARGS__)

/* Accumulators (f32 registers) a consumer thread may hold: the rest of its
 * registers (addresses, descriptors, the loop) fit beside 128. */
#define MAX_ACC 128
/* Registers a thread of the producer keeps, and each consumer's, after
 * setmaxnreg (producer: warpgroup with two consumers: 384 threads, 168
 * registers each at launch; 40 x 128 + 232 x 256 <= 64K). */
#define PRODUCER_REGS 40
#define CONSUMER_REGS 232

static int
k_major_a(const struct kgen_spec *s)
{
	return s->a_layout == KGEN_MM_ROW;
}

static int
k_major_b(const struct kgen_spec *s)
{
	return s->b_layout == KGEN_MM_COL;
}

/* cluster: 1x2 pairs tiles side by side, sharing A; 2x1 one above the
 * other, sharing B.  Each block loads half the shared operand's boxes (a
 * K-major operand's box is then half the tile's rows) and multicasts them. */
static int
shares_a(const struct kgen_spec *s)
{
	return s->cluster == KGEN_CLUSTER_C1X2;
}

static int
shares_b(const struct kgen_spec *s)
{
	return s->cluster == KGEN_CLUSTER_C2X1;
}

#define X(id, name, doc, cm, cn) [KGEN_CLUSTER_##id] = { cm, cn },
static const int cluster_shape[][2] = { KGEN_CLUSTERS(X) };
#undef X

int
kgen_cluster_m(const struct kgen_spec *s)
{
	return cluster_shape[s->cluster][0];
}

int
kgen_cluster_n(const struct kgen_spec *s)
{
	return cluster_shape[s->cluster][1];
}

/* store: tma: two buffers of 128-byte rows a consumer warpgroup (its
 * tile_m / consumers rows each): 256 bytes a row of the tile. */
static long long
store_buffers(const struct kgen_spec *s)
{
	return s->mm_store == KGEN_MM_STORE_TMA ? s->tile_m * 256 : 0;
}

long long
kgen_matmul_wgmma_smem(const struct kgen_spec *s, long long stages)
{
	/* 128 bytes (64 k) a row of each tile, and 1024 to align the first;
	 * then store: tma's buffers. */
	return 1024 + stages * (s->tile_m + s->tile_n) * 128 + store_buffers(s);
}

/* Accumulators per consumer thread: its 64-row blocks times TILE_N / 2. */
static long long
accumulators(const struct kgen_spec *s)
{
	return s->tile_m / s->consumers / 64 * (s->tile_n / 2);
}

/* The shared memory of `stages` stages fits a block (with the mbarriers). */
static int
fits(const struct kgen_spec *s, long long stages)
{
	return kgen_matmul_wgmma_smem(s, stages) + 16 * stages <= KGEN_MATMUL_SMEM_MAX;
}

/* stages: 4 unless given; 2 to 4.  Every tile the rules take fits 4 stages
 * (at most 448 rows of A and B: 230400 bytes) and 2 with store: tma's
 * buffers; without a stages key, store: tma takes the most of 4 that fit. */
static kgen_status
check_stages(struct kgen_spec *s, kgen_error *err)
{
	if (!KGEN_GIVEN(s, mm_stages))
		for (s->mm_stages = 4; s->mm_stages > 2 && !fits(s, s->mm_stages); s->mm_stages--)
			;
	if (s->mm_stages < 2)
		return ERR(mm_stages, "stages %lld: math: wgmma multiplies one stage while the wgmmas of the one before "
		           "finish, so it needs 2 to 4", s->mm_stages);
	if (!fits(s, s->mm_stages)) {
		long long most = s->mm_stages;

		while (most > 2 && !fits(s, most))
			most--;
		return ERR(mm_stages, "stages %lld of a %lld x %lld tile and store: tma's buffers (%lld bytes) take %lld "
		           "bytes of shared memory, over the %d a block can have: use stages: %lld", s->mm_stages,
		           s->tile_m, s->tile_n, store_buffers(s), kgen_matmul_wgmma_smem(s, s->mm_stages) + 16 * s->mm_stages,
		           KGEN_MATMUL_SMEM_MAX, most);
	}
	return KGEN_OK;
}

kgen_status
kgen_matmul_wgmma_check(struct kgen_spec *s, long long *threads, kgen_error *err)
{
	if (s->tile_k != 64)
		return ERR(tile_k, "math: wgmma loads k in boxes of 64 (one 128-byte swizzle row of 16-bit elements): "
		           "tile_k must be 64, not %lld", s->tile_k);
	if (s->tile_n % 64)
		return ERR(tile_n, "math: wgmma takes B in 64-column boxes: tile_n %lld is not a multiple of 64 (64, 128, "
		           "192 or 256)", s->tile_n);
	if (s->tile_m % (64 * s->consumers))
		return ERR(tile_m, "tile_m %lld is not a multiple of 64 x consumers %lld: each consumer warpgroup "
		           "multiplies whole 64-row wgmmas", s->tile_m, s->consumers);
	if (accumulators(s) > MAX_ACC)
		return ERR(tile_m, "a consumer warpgroup's %lld x %lld of the tile takes %lld f32 accumulators a thread, "
		           "over the %d that fit beside its other registers: use consumers: 2 or a smaller tile",
		           s->tile_m / s->consumers, s->tile_n, accumulators(s), MAX_ACC);
	if (s->mm_store == KGEN_MM_STORE_TMA && s->producer != KGEN_PRODUCER_WARPGROUP)
		return ERR(mm_store, "store: tma needs producer: warpgroup (its consumers store one tile while the producer "
		           "loads the next), not producer: %s", kgen_producers[s->producer].name);
	*threads = (s->consumers + (s->producer == KGEN_PRODUCER_WARPGROUP)) * 128;
	return check_stages(s, err);
}

/* ---- the launch contract ---- */

/* How the host encodes operand `name`'s tensor map: dims, stride, box
 * (K-major: a box of the tile's `tile` rows of 64 k; MN-major: 64 x
 * tile_k). */
static void
map_note(struct kgen_contract *p, const char *name, int k_major, const char *rows, const char *ld, int tile, int tile_k)
{
	if (k_major)
		kgen_contract_note(p, "//   %s_map: dims {k, %s}, stride {%s * 2}, box {64, %d}\n", name, rows, ld, tile);
	else
		kgen_contract_note(p, "//   %s_map: dims {%s, k}, stride {%s * 2}, box {64, %d}\n", name, rows, ld, tile_k);
}

void
kgen_matmul_map_notes(const struct kgen_spec *s, struct kgen_contract *p, int a_rows, int b_rows)
{
	kgen_contract_note(p, "// a_map and b_map: A (%s-major) and B (%s-major) as CUtensorMaps (cuTensorMapEncodeTiled:\n"
	                   "// %s, 2-D, CU_TENSOR_MAP_SWIZZLE_128B, zero fill), each passed by value:\n",
	                   kgen_mm_layouts[s->a_layout].name, kgen_mm_layouts[s->b_layout].name, kgen_spec_dtype(s)->name);
	map_note(p, "a", k_major_a(s), "m", "lda", a_rows, (int)s->tile_k);
	map_note(p, "b", k_major_b(s), "n", "ldb", b_rows, (int)s->tile_k);
}

void
kgen_matmul_wgmma_contract(const struct kgen_spec *s, struct kgen_contract *p, const char *order)
{
	struct kgen_step *st;
	int persistent = s->producer == KGEN_PRODUCER_WARPGROUP;
	long long smem = kgen_matmul_wgmma_smem(s, s->mm_stages);

	memset(p, 0, sizeof *p);
	kgen_contract_printf(p->title, sizeof p->title, "C = alpha A B + beta C of %s on tensor cores (wgmma)",
	                     kgen_spec_dtype(s)->name);
	kgen_contract_printf(p->heading, sizeof p->heading, "Kernel (extern \"C\"), for C (m x n, row-major) = alpha A "
	                     "(m x k) B (k x n) + beta C:");
	st = kgen_contract_step(p, "", s->mm_store == KGEN_MM_STORE_TMA ? "a_map, b_map, c_map, c_tma, c, m, n, k, ldc, "
	                        "alpha, beta" : "a_map, b_map, c, m, n, k, ldc, alpha, beta", "grid", s->threads);
	st->dynamic_smem = smem;
	kgen_contract_printf(st->note, sizeof st->note, "(dynamic shared memory:\n"
	                     "//   raise CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES first)");
	if (s->cluster != KGEN_CLUSTER_C1X1)
		kgen_contract_note(p, "// launched in clusters of 2 x 1 x 1 blocks (cuLaunchKernelEx, CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION),\n"
		                   "// where grid = 2 min(pairs, the clusters the GPU holds at once), pairs = ceil(m / %lld) *\n"
		                   "// ceil(n / %lld): cluster blockIdx.x / 2 takes pairs of tiles (%s) blockIdx.x / 2, +\n"
		                   "// grid / 2, ... in order %s.\n", s->tile_m * kgen_cluster_m(s),
		                   s->tile_n * kgen_cluster_n(s), shares_a(s) ? "side by side" : "one above the other", order);
	else if (persistent)
		kgen_contract_note(p, "// where grid = min(tiles, SMs x the blocks an SM holds), tiles = ceil(m / %lld) *\n"
		                   "// ceil(n / %lld): each block takes tiles blockIdx.x, + grid, ... in order\n// %s.\n",
		                   s->tile_m, s->tile_n, order);
	else
		kgen_contract_note(p, "// where grid = ceil(m / %lld) * ceil(n / %lld); blocks take C's tiles in order\n// %s.\n",
		                   s->tile_m, s->tile_n, order);
	kgen_matmul_map_notes(s, p, (int)s->tile_m / (shares_a(s) ? 2 : 1), (int)s->tile_n / (shares_b(s) ? 2 : 1));
	if (s->mm_store == KGEN_MM_STORE_TMA)
		kgen_contract_note(p, "//   c_map: C (row-major, %s, CU_TENSOR_MAP_SWIZZLE_128B): dims {n, m}, stride {ldc * %d},\n"
		                   "//   box {%d, %lld}, c_tma 1 (also with k = 0); or, where c is not 16-byte aligned or\n"
		                   "//   ldc * %d not a multiple of 16, c_tma 0 (c_map is then not read)\n",
		                   kgen_dtype_info[s->out_dtype].name,
		                   (int)kgen_dtype_info[s->out_dtype].size, 128 / (int)kgen_dtype_info[s->out_dtype].size,
		                   s->tile_m / s->consumers, (int)kgen_dtype_info[s->out_dtype].size);
	kgen_contract_note(p, "// so a and b must be 16-byte aligned and lda and ldb multiples of 8 elements (TMA's\n"
	                   "// 16-byte row pitches); with k = 0 a_map and b_map are not read.  C row-major\n"
	                   "// (c[i * ldc + j]), ldc in elements; m, n and k below 2^31, m and n from 1.  alpha and\n"
	                   "// beta are %s; C is read only when beta != 0.\n", kgen_spec_acc(s)->name);
	kgen_contract_note(p, "// Scratch: none.");
}

/* ---- the source ---- */

void
kgen_matmul_wgmma_constants(const struct kgen_spec *s, strbuf *b)
{
	int ka = k_major_a(s), kb = k_major_b(s);

	sb_printf(b, "constexpr int TILE_M = %lld, TILE_N = %lld;  // the block's tile of C\n", s->tile_m, s->tile_n);
	sb_printf(b, "constexpr int TILE_K = %lld;  // the depth of a stage's tiles of A and B\n", s->tile_k);
	sb_printf(b, "constexpr int THREADS = %lld;  // %s%lld consumer warpgroup%s\n", s->threads,
	          s->producer == KGEN_PRODUCER_WARPGROUP ? "a producer warpgroup and " : "", s->consumers,
	          s->consumers > 1 ? "s" : "");
	kgen_matmul_group_constant(s, b);
	sb_printf(b, "constexpr int STAGES = %lld;  // k tiles in flight (TMA, mbarriers)\n", s->mm_stages);
	sb_printf(b, "constexpr int CONSUMERS = %lld, WG_M = TILE_M / CONSUMERS;  // warpgroups that multiply, and "
	          "the rows of each\n", s->consumers);
	sb_puts(b, "constexpr int MMA_M = WG_M / 64;  // a warpgroup's m64nTILE_Nk16 wgmmas per 16 of k\n");
	sb_printf(b, "// A stage: A's tile, %s (%s), then B's,\n// %s (%s); rows of 128 bytes, swizzled.  "
	          "A_BOX, B_BOX: the bytes of one TMA box.\n",
	          ka ? "K-major" : "M-major", ka ? "TILE_M rows of 64 k" : "TILE_M / 64 boxes of 64 k rows of 64 m",
	          kb ? "K-major" : "N-major", kb ? "TILE_N rows of 64 k" : "TILE_N / 64 boxes of 64 k rows of 64 n");
	sb_puts(b, "constexpr int A_STAGE = TILE_M * 128, B_STAGE = TILE_N * 128;\n");
	if (s->cluster != KGEN_CLUSTER_C1X1)
		sb_printf(b, "constexpr int CLUSTER_M = %d, CLUSTER_N = %d;  // a cluster's blocks, as tiles down x across; "
		          "they share %s\n", kgen_cluster_m(s), kgen_cluster_n(s), shares_a(s) ? "A" : "B");
	sb_printf(b, "constexpr int A_BOX = %s, B_BOX = %s;\n",
	          ka ? shares_a(s) ? "A_STAGE / 2" : "A_STAGE" : "TILE_K * 128",
	          kb ? shares_b(s) ? "B_STAGE / 2" : "B_STAGE" : "TILE_K * 128");
	sb_puts(b, "// The descriptors' leading and stride byte offsets (gen/matmul_hopper.c derives them).\n");
	sb_printf(b, "constexpr unsigned int A_LBO = %s, A_SBO = 1024;\n", ka ? "16" : "A_BOX");
	sb_printf(b, "constexpr unsigned int B_LBO = %s, B_SBO = 1024;", kb ? "16" : "B_BOX");
}

/* The register lists of the wgmma wrapper: TILE_N / 2 accumulators. */
static void
wgmma_lists(const struct kgen_spec *s, struct tpl_args *t)
{
	strbuf regs, ops;
	int n = (int)s->tile_n / 2, i;

	sb_init(&regs);
	sb_init(&ops);
	for (i = 0; i < n; i++) {
		sb_printf(&regs, "%s%%%d%s", i == 0 ? "\"{" : i % 16 == 0 ? "\"" : "", i,
		          i == n - 1 ? "}," : i % 16 == 15 ? ", \"\n" : ", ");
		sb_printf(&ops, "%s\"+f\"(d[%d])%s", i == 0 ? ": " : i % 8 == 0 ? "  " : "", i,
		          i == n - 1 ? "" : i % 8 == 7 ? ",\n" : ", ");
	}
	sb_puts(&regs, "\"");
	tpl_set(t, "d_list", "%s", regs.s ? regs.s : "");
	tpl_set(t, "d_operands", "%s", ops.s ? ops.s : "");
	tpl_set(t, "desc_a", "%d", n);
	tpl_set(t, "desc_b", "%d", n + 1);
	tpl_set(t, "scale_d", "%d", n + 2);
	if (regs.failed || ops.failed)
		t->failed = 1;
	sb_free(&regs);
	sb_free(&ops);
}

/* multiply_stage's descriptor steps through a stage, by operand layout. */
static void
step_lines(const struct kgen_spec *s, struct tpl_args *t)
{
	if (k_major_a(s)) {
		tpl_set(t, "a_step", "(wg_row + 64 * i) * 128 + kk * 32");
		tpl_set(t, "a_layout_doc", "K-major, k16 steps 32 bytes apart");
	} else {
		tpl_set(t, "a_step", "(wg_row / 64 + i) * A_BOX + kk * 2048");
		tpl_set(t, "a_layout_doc", "M-major, 64-row blocks a box apart (LBO), k16 steps 2048 bytes");
	}
	if (k_major_b(s)) {
		tpl_set(t, "b_step", "kk * 32");
		tpl_set(t, "b_layout_doc", "K-major, k16 steps 32 bytes apart");
	} else {
		tpl_set(t, "b_step", "kk * 2048");
		tpl_set(t, "b_layout_doc", "N-major, 64-column blocks a box apart (LBO), k16 steps 2048 bytes");
	}
}

/* The stage helpers' operand-specific lines. */
static void
stage_lines(const struct kgen_spec *s, struct tpl_args *t)
{
	if (k_major_a(s)) {
		tpl_set(t, "a_boxes", "const int a_boxes = 1;  // A row-major: one box of TILE_M rows of 64 k");
		tpl_set(t, "a_copy", "tma_load_2d(as, a_map, k0, row0, full);");
	} else {
		tpl_set(t, "a_boxes", "// A column-major: a box of 64 k rows of 64 m per 64 rows of the tile that start in A.\n"
		        "const int a_boxes = (m - row0 + 63) / 64 < TILE_M / 64 ? (m - row0 + 63) / 64 : TILE_M / 64;");
		tpl_set(t, "a_copy", "for (int j = 0; j < a_boxes; j++)\n"
		        "    tma_load_2d(as + j * A_BOX, a_map, row0 + 64 * j, k0, full);");
	}
	if (k_major_b(s)) {
		tpl_set(t, "b_boxes", "const int b_boxes = 1;  // B column-major: one box of TILE_N rows (columns of B) of 64 k");
		tpl_set(t, "b_copy", "tma_load_2d(bs, b_map, k0, col0, full);");
	} else {
		tpl_set(t, "b_boxes", "// B row-major: a box of 64 k rows of 64 n per 64 columns of the tile that start in B.\n"
		        "const int b_boxes = (n - col0 + 63) / 64 < TILE_N / 64 ? (n - col0 + 63) / 64 : TILE_N / 64;");
		tpl_set(t, "b_copy", "for (int j = 0; j < b_boxes; j++)\n"
		        "    tma_load_2d(bs + j * B_BOX, b_map, col0 + 64 * j, k0, full);");
	}
}

/* The cluster's operand lines (cluster: 2x1 or 1x2): its own operand as
 * stage_lines loads it, asking for nothing when the tile lies outside C (the
 * pair's second tile can); the shared one by halves, rank by rank, each
 * multicast to both blocks (0x3). */
static void
cluster_lines(const struct kgen_spec *s, struct tpl_args *t)
{
	int sa = shares_a(s);

	if (k_major_a(s) && sa) {
		tpl_set(t, "a_boxes", "// A row-major: two boxes of TILE_M / 2 rows of 64 k, the second asked for when it starts in A.\n"
		        "const int a_boxes = row0 + TILE_M / 2 < m ? 2 : 1;");
		tpl_set(t, "a_copy", "if (rank < a_boxes)  // block `rank` loads box `rank` for both blocks\n"
		        "    tma_load_2d_multicast(as + rank * A_BOX, a_map, k0, row0 + rank * (TILE_M / 2), full, 0x3);");
	} else if (k_major_a(s)) {
		tpl_set(t, "a_boxes", "const int a_boxes = row0 < m;  // A row-major: one box of TILE_M rows of 64 k, if in A");
		tpl_set(t, "a_copy", "if (a_boxes)\n    tma_load_2d(as, a_map, k0, row0, full);");
	} else {
		tpl_set(t, "a_boxes", "// A column-major: a box of 64 k rows of 64 m per 64 rows of the tile that start in A.\n"
		        "const int a_boxes = row0 >= m ? 0 : (m - row0 + 63) / 64 < TILE_M / 64 ? (m - row0 + 63) / 64 : TILE_M / 64;");
		tpl_set(t, "a_copy", sa ? "for (int j = rank; j < a_boxes; j += 2)  // block `rank` loads every other box for both\n"
		        "    tma_load_2d_multicast(as + j * A_BOX, a_map, row0 + 64 * j, k0, full, 0x3);" :
		        "for (int j = 0; j < a_boxes; j++)\n    tma_load_2d(as + j * A_BOX, a_map, row0 + 64 * j, k0, full);");
	}
	if (k_major_b(s) && !sa) {
		tpl_set(t, "b_boxes", "// B column-major: two boxes of TILE_N / 2 rows (columns of B) of 64 k, the second asked for\n"
		        "// when it starts in B.\n"
		        "const int b_boxes = col0 + TILE_N / 2 < n ? 2 : 1;");
		tpl_set(t, "b_copy", "if (rank < b_boxes)  // block `rank` loads box `rank` for both blocks\n"
		        "    tma_load_2d_multicast(bs + rank * B_BOX, b_map, k0, col0 + rank * (TILE_N / 2), full, 0x3);");
	} else if (k_major_b(s)) {
		tpl_set(t, "b_boxes", "const int b_boxes = col0 < n;  // B column-major: one box of TILE_N rows of 64 k, if in B");
		tpl_set(t, "b_copy", "if (b_boxes)\n    tma_load_2d(bs, b_map, k0, col0, full);");
	} else {
		tpl_set(t, "b_boxes", "// B row-major: a box of 64 k rows of 64 n per 64 columns of the tile that start in B.\n"
		        "const int b_boxes = col0 >= n ? 0 : (n - col0 + 63) / 64 < TILE_N / 64 ? (n - col0 + 63) / 64 : TILE_N / 64;");
		tpl_set(t, "b_copy", !sa ? "for (int j = rank; j < b_boxes; j += 2)  // block `rank` loads every other box for both\n"
		        "    tma_load_2d_multicast(bs + j * B_BOX, b_map, col0 + 64 * j, k0, full, 0x3);" :
		        "for (int j = 0; j < b_boxes; j++)\n    tma_load_2d(bs + j * B_BOX, b_map, col0 + 64 * j, k0, full);");
	}
	tpl_set(t, "own", "%s", sa ? "B" : "A");
	tpl_set(t, "shared", "%s", sa ? "A" : "B");
	tpl_set(t, "pair_tile", "%s", sa ? "col0 = col0 * CLUSTER_N + (int)rank * TILE_N;  // the pair's tiles lie side by side" :
	        "row0 = row0 * CLUSTER_M + (int)rank * TILE_M;  // the pair's tiles lie one above the other");
}

kgen_status
kgen_matmul_wgmma_helpers(const struct kgen_spec *s, struct tpl_args *parts, kgen_error *err)
{
	struct tpl_args t, none;
	kgen_status st;
	int ka = k_major_a(s), kb = k_major_b(s);

	int clustered = s->cluster != KGEN_CLUSTER_C1X1;

	tpl_init(&t);
	if ((st = tpl_render_into(parts, "smem_addr", "matmul/smem_addr.cu", &t, err)) ||
	    (st = tpl_render_into(parts, "tma_ptx", "matmul/tma_ptx.cu", &t, err)) ||
	    (st = tpl_render_into(parts, "wgmma_ptx", "matmul/wgmma_ptx.cu", &t, err)))
		return st;
	tpl_init(&t);
	if (clustered && (st = tpl_render_into(parts, "wgmma_cluster_ptx", "matmul/wgmma_cluster_ptx.cu", &t, err)))
		return st;
	tpl_init(&t);
	tpl_set(&t, "n", "%lld", s->tile_n);
	tpl_set(&t, "ptx_type", "%s", kgen_spec_dtype(s)->cls == DT_HALF ? "f16" : "bf16");
	tpl_set(&t, "a_major", "%s", ka ? "K-major" : "M-major");
	tpl_set(&t, "b_major", "%s", kb ? "K-major" : "N-major");
	tpl_set(&t, "tnsp_a", "%d", !ka);
	tpl_set(&t, "tnsp_b", "%d", !kb);
	tpl_set(&t, "a_why", "%s", ka ? "as stored" : "transposed on the way");
	tpl_set(&t, "b_why", "%s", kb ? "as stored" : "transposed on the way");
	wgmma_lists(s, &t);
	if ((st = tpl_render_into(parts, "wgmma", "matmul/wgmma_mma.cu", &t, err)))
		return st;
	tpl_init(&t);
	if (clustered)
		cluster_lines(s, &t);
	else
		stage_lines(s, &t);
	tpl_init(&none);
	step_lines(s, &none);
	if ((st = tpl_render_into(&t, "multiply_stage", "matmul/wgmma_multiply.cu", &none, err)))
		goto fail;
	tpl_init(&none);
	if (s->mm_store != KGEN_MM_STORE_DIRECT) {  /* store_pair(), for pairs and TMA's fallback */
		struct tpl_args pairs;

		tpl_init(&pairs);
		if ((st = tpl_render_into(&none, "pair_result", "matmul/pair_result.cu", &pairs, err)))
			goto fail;
	}
	if (s->mm_store == KGEN_MM_STORE_TMA) {
		/* TMA's stores, and store: pairs' for a C they cannot take. */
		struct tpl_args tma;

		tpl_init(&tma);
		if ((st = tpl_render_into(&tma, "fallback", "matmul/wgmma_store_pairs.cu", &none, err)) ||
		    (st = tpl_render_into(&t, "store_tile", "matmul/wgmma_store_tma.cu", &tma, err)))
			goto fail;
	} else if ((st = tpl_render_into(&t, "store_tile", s->mm_store == KGEN_MM_STORE_PAIRS ?
	                                 "matmul/wgmma_store_pairs.cu" : "matmul/wgmma_store_direct.cu", &none, err))) {
		goto fail;
	}
	return tpl_render_into(parts, "wgmma_stage", clustered ? "matmul/wgmma_cluster_stage.cu" : "matmul/wgmma_stage.cu",
	                       &t, err);
fail:
	tpl_free(&t);
	return st;
}

kgen_status
kgen_matmul_wgmma_kernel(const struct kgen_spec *s, strbuf *out, kgen_error *err)
{
	struct tpl_args k;

	tpl_init(&k);
	tpl_set(&k, "name", "%s", kgen_spec_kernel_name(s));
	if (s->producer == KGEN_PRODUCER_NONE) {
		tpl_set(&k, "doc", "TMA loads into STAGES 128B-swizzled stages; each of the CONSUMERS warpgroups multiplies "
		        "its WG_M\n// rows of the tile with wgmma, one stage's group in flight while the next is issued.");
		return tpl_render(out, "matmul/wgmma_inline.cu", &k, err);
	}
	tpl_set(&k, "doc", "A producer warpgroup keeps STAGES TMA loads in flight; CONSUMERS warpgroups multiply\n"
	        "// WG_M rows of each tile with wgmma and store them while the producer loads the next tile.");
	if (s->consumers > 1) {
		tpl_set(&k, "producer_regs", "setmaxnreg_dec<%d>();  // its registers go to the consumers", PRODUCER_REGS);
		tpl_set(&k, "consumer_regs", "setmaxnreg_inc<%d>();  // room for the accumulators", CONSUMER_REGS);
	} else {
		tpl_set(&k, "producer_regs", "%s", "");
		tpl_set(&k, "consumer_regs", "%s", "");
	}
	tpl_show(&k, "tma", s->mm_store == KGEN_MM_STORE_TMA);
	if (s->cluster != KGEN_CLUSTER_C1X1)
		return tpl_render(out, "matmul/wgmma_cluster.cu", &k, err);
	return tpl_render(out, "matmul/wgmma_specialized.cu", &k, err);
}
