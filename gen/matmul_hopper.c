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
#include "matmul_hopper.h"
#include "ptx.h"
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

/* schedule: pingpong: the two consumer warpgroups take whole tiles in turn. */
static int
pingpong(const struct kgen_spec *s)
{
	return s->schedule == KGEN_SCHEDULE_PINGPONG;
}

/* split_k above 1 with split_reduce: cluster: a cluster of split_k blocks
 * a tile, each its share of k, block 0 adding the others' sums
 * (wgmma_split.cu). */
static int
split(const struct kgen_spec *s)
{
	return s->split_k > 1 && s->split_reduce == KGEN_MM_SPLIT_CLUSTER;
}

/* split_k above 1 with split_reduce: kernel: block (x, 0, z) takes the z-th
 * share of k of its tiles and writes its sums to slice z of the scratch;
 * NAME_reduce adds them. */
static int
partials(const struct kgen_spec *s)
{
	return kgen_matmul_partial_sums(s);
}

/* fp8_accum: promote: each k tile's wgmmas sum into a second set of
 * accumulators from zero, which the consumer then adds to the f32 sums. */
static int
promotes(const struct kgen_spec *s)
{
	return s->r.dtype->cls == DT_FP8 && s->fp8_accum == KGEN_MM_FP8_PROMOTE;
}

/* The producer gives its registers to the consumers: two of them. */
static int
setmaxnreg(const struct kgen_spec *s)
{
	return s->producer == KGEN_PRODUCER_WARPGROUP && s->consumers > 1;
}

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

/* The wgmma kernel's parameters, in order, and which specs have each: the
 * one list behind the kernel's signature, its work function's (store: tma)
 * and the contract's arguments. */
enum param_when { P_ALWAYS, P_C_MAP, P_C_TMA, P_R_MAP, P_R_TMA, P_PARTIALS };
static const struct wgmma_param {
	const char *type;   /* in the kernel */
	const char *work;   /* in the work function, where it differs: a reference, not a copy */
	const char *name;
	enum param_when when;
} wgmma_params[] = {
	{ "const __grid_constant__ CUtensorMap ", "const CUtensorMap &", "a_map", P_ALWAYS },
	{ "const __grid_constant__ CUtensorMap ", "const CUtensorMap &", "b_map", P_ALWAYS },
	{ "const __grid_constant__ CUtensorMap ", "const CUtensorMap &", "c_map", P_C_MAP },
	{ "int ", NULL, "c_tma", P_C_TMA },
	{ "const __grid_constant__ CUtensorMap ", "const CUtensorMap &", "r_map", P_R_MAP },
	{ "int ", NULL, "r_tma", P_R_TMA },
	{ "Out *__restrict__ ", NULL, "c", P_ALWAYS },
	{ "int ", NULL, "m", P_ALWAYS },
	{ "int ", NULL, "n", P_ALWAYS },
	{ "int ", NULL, "k", P_ALWAYS },
	{ "long long ", NULL, "ldc", P_ALWAYS },
	{ "const Epilogue ", "const Epilogue &", "ep", P_ALWAYS },
	{ "Acc *__restrict__ ", NULL, "partials", P_PARTIALS },
};

/* The forms of the list: the kernel's parameters, its work function's, the
 * names alone (the contract's arguments), a variant's call of the work. */
enum params_form { PARAMS_KERNEL, PARAMS_WORK, PARAMS_NAMES, PARAMS_CALL };

/* The parameters of s's kernel in `form`, ", "-joined into buf (n bytes,
 * enough for the longest: a fixed buffer, so that the contract, which
 * cannot fail, allocates nothing); typed ones wrapped before 108 columns and
 * closed by ")".  tma_only: a variant for C (and the residual) by TMA,
 * which takes no c_tma and r_tma (its call of the work function passes 1
 * in their place). */
static void
wgmma_param_list(const struct kgen_spec *s, enum params_form form, int tma_only, char *buf, size_t n)
{
	size_t i, line = 0;
	int typed = form == PARAMS_KERNEL || form == PARAMS_WORK;

	buf[0] = '\0';
	for (i = 0; i < sizeof wgmma_params / sizeof *wgmma_params; i++) {
		const struct wgmma_param *p = &wgmma_params[i];
		int flag = p->when == P_C_TMA || p->when == P_R_TMA;
		const char *type = !typed ? "" : form == PARAMS_WORK && p->work ? p->work : p->type;
		const char *name = flag && tma_only && !typed ? "1" : p->name;
		size_t len = strlen(buf);
		int has = p->when == P_ALWAYS ||
		          ((p->when == P_C_MAP || p->when == P_C_TMA) && s->mm_store == KGEN_MM_STORE_TMA) ||
		          ((p->when == P_R_MAP || p->when == P_R_TMA) && kgen_matmul_residual_tma(s)) ||
		          (p->when == P_PARTIALS && kgen_matmul_partial_sums(s));

		if (!has || (flag && tma_only && form != PARAMS_CALL))
			continue;
		if (len && typed && len - line + strlen(type) + strlen(name) + 3 > 104) {
			snprintf(buf + len, n - len, ",\n");
			line = strlen(buf);
		} else if (len) {
			snprintf(buf + len, n - len, ", ");
		}
		len = strlen(buf);
		snprintf(buf + len, n - len, "%s%s", type, name);
	}
	if (typed)
		snprintf(buf + strlen(buf), n - strlen(buf), ")");
	KGEN_ASSERT(strlen(buf) + 1 < n);  /* nothing cut: the buffers are sized for the longest list */
}

/* The list as placeholder `name` of t. */
static void
set_params(struct tpl_args *t, const char *name, const struct kgen_spec *s, enum params_form form, int tma_only)
{
	char buf[512];

	wgmma_param_list(s, form, tma_only, buf, sizeof buf);
	tpl_set(t, name, "%s", buf);
}

/* store: tma: two buffers of 128-byte rows a consumer warpgroup, each of
 * the warpgroup's rows of a tile. */
static long long
store_buffers(const struct kgen_spec *s)
{
	return s->mm_store == KGEN_MM_STORE_TMA ? s->consumers * 2 * kgen_matmul_wgmma_rows(s) * 128 : 0;
}

/* split_k: block 0's room for the other blocks' sums (f32). */
static long long
partial_bytes(const struct kgen_spec *s)
{
	return split(s) ? (s->split_k - 1) * s->tile_m * s->tile_n * 4 : 0;
}

long long
kgen_matmul_wgmma_smem(const struct kgen_spec *s, long long stages)
{
	/* 128 bytes (64 k) a row of each tile, and 1024 to align the first;
	 * then store: tma's buffers and split_k's sums. */
	return 1024 + stages * (s->tile_m + s->tile_n) * 128 + store_buffers(s) + partial_bytes(s);
}

/* Accumulators per consumer thread: its 64-row blocks times TILE_N / 2. */
static long long
accumulators(const struct kgen_spec *s)
{
	return kgen_matmul_wgmma_rows(s) / 64 * (s->tile_n / 2);
}

/* The shared memory of `stages` stages fits a block (with the mbarriers). */
static int
fits(const struct kgen_spec *s, long long stages)
{
	return kgen_matmul_wgmma_smem(s, stages) + 16 * stages <= KGEN_MATMUL_SMEM_MAX;
}

/* stages: 4 unless given; 2 to 16, as many as shared memory holds (a
 * skinny GEMM streams B through more of them: each stage of a 64 x 64 tile
 * keeps 8 KB of B in flight).  Every tile the rules take fits 4 stages
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
		           "finish, so it needs 2 to 16", s->mm_stages);
	if (!fits(s, s->mm_stages)) {
		long long most = s->mm_stages;

		while (most > 2 && !fits(s, most))
			most--;
		if (!fits(s, most))
			return ERR(split_k, "split_k %lld: block 0 of a cluster keeps the other blocks' sums of its %lld x "
			           "%lld tile (%lld bytes), which leaves no room for 2 stages: use a smaller split_k or tile",
			           s->split_k, s->tile_m, s->tile_n, partial_bytes(s));
		char beside[128] = "";

		if (store_buffers(s) && partial_bytes(s))
			snprintf(beside, sizeof beside, ", store: tma's buffers (%lld bytes) and split_k's sums (%lld)",
			         store_buffers(s), partial_bytes(s));
		else if (store_buffers(s) || partial_bytes(s))
			snprintf(beside, sizeof beside, " and %s (%lld bytes)", store_buffers(s) ? "store: tma's buffers" :
			         "split_k's sums", store_buffers(s) ? store_buffers(s) : partial_bytes(s));
		return ERR(mm_stages, "stages %lld of a %lld x %lld tile%s take%s %lld bytes of shared memory, over the %d a "
		           "block can have: use stages: %lld", s->mm_stages, s->tile_m, s->tile_n, beside, beside[0] ? "" : "s",
		           kgen_matmul_wgmma_smem(s, s->mm_stages) + 16 * s->mm_stages, KGEN_MATMUL_SMEM_MAX, most);
	}
	return KGEN_OK;
}

kgen_status
kgen_matmul_wgmma_check(struct kgen_spec *s, long long *threads, kgen_error *err)
{
	if (s->tile_k * s->r.dtype->size != 128)
		return ERR(tile_k, "math: wgmma loads k in boxes of 128 bytes (one swizzle row: 64 16-bit elements or 128 "
		           "fp8): tile_k must be %d for %s, not %lld", 128 / s->r.dtype->size, s->r.dtype->name, s->tile_k);
	if (s->tile_n % 64)
		return ERR(tile_n, "math: wgmma takes B in 64-column boxes: tile_n %lld is not a multiple of 64 (64, 128, "
		           "192 or 256)", s->tile_n);
	if (pingpong(s) && (s->producer != KGEN_PRODUCER_WARPGROUP || s->consumers != 2))
		return ERR(schedule, "schedule: pingpong alternates tiles between two consumer warpgroups fed by a producer: "
		           "it needs producer: warpgroup and consumers: 2");
	if (pingpong(s) && s->cluster != KGEN_CLUSTER_C1X1)
		return ERR(schedule, "schedule: pingpong takes no cluster (cluster: 1x1): a cluster's blocks load their "
		           "tiles together");
	if (s->tile_m % (64 * (pingpong(s) ? 1 : s->consumers)))
		return ERR(tile_m, "tile_m %lld is not a multiple of 64 x consumers %lld: each consumer warpgroup "
		           "multiplies whole 64-row wgmmas", s->tile_m, s->consumers);
	if (kgen_matmul_block_scaled(s) && !promotes(s))
		return ERR(scale, "scale: block applies A's and B's scales to each k tile's sums as fp8_accum: promote adds "
		           "them: use fp8_accum: promote, not fast");
	if (kgen_matmul_block_scaled(s) && 128 % s->tile_n)
		return ERR(scale, "scale: block takes one of B's scales a 128 x 128 block: tile_n %lld is not 64 or 128",
		           s->tile_n);
	if (kgen_matmul_block_scaled(s) && s->split_k > 1)
		return ERR(scale, "scale: block reads each k tile's scales by its place in k: it needs split_k 1, not %lld",
		           s->split_k);
	if (promotes(s) && 2 * accumulators(s) > MAX_ACC)
		return kgen_spec_error(s, KGEN_GIVEN(s, fp8_accum) ? KGEN_KEY_fp8_accum : KGEN_KEY_tile_n, 1, err,
		           "fp8_accum: promote (the default) keeps two sets of accumulators, a k tile's and the f32 sums: a "
		           "consumer warpgroup's %lld x %lld of the tile takes 2 x %lld a thread, over the %d that fit: use "
		           "fp8_accum: fast%s or a smaller tile (128 x 128)", kgen_matmul_wgmma_rows(s), s->tile_n,
		           accumulators(s), MAX_ACC, s->consumers == 1 && !pingpong(s) ? ", consumers: 2" : "");
	if (accumulators(s) > MAX_ACC)
		return ERR(tile_m, "a consumer warpgroup's %lld x %lld of the tile takes %lld f32 accumulators a thread, "
		           "over the %d that fit beside its other registers: use %s", kgen_matmul_wgmma_rows(s), s->tile_n,
		           accumulators(s), MAX_ACC, pingpong(s) ? "a smaller tile (64 x 256 or 128 x 128)"
		                                                 : "consumers: 2 or a smaller tile");
	if (split(s) && s->split_k > 8)
		return ERR(split_k, "split_k %lld: math: wgmma splits k over a cluster of split_k blocks, at most 8 (or "
		           "split_reduce: kernel, its sums added by a second kernel)", s->split_k);
	if (s->split_k > 1 && s->producer != KGEN_PRODUCER_WARPGROUP)
		return ERR(split_k, "split_k %lld needs producer: warpgroup (math: wgmma's split blocks are warp-specialised)",
		           s->split_k);
	if (split(s) && s->cluster != KGEN_CLUSTER_C1X1)
		return ERR(split_k, "split_k %lld takes no cluster key: its clusters are the split_k blocks of a tile, "
		           "not tiles sharing loads (use cluster: 1x1)", s->split_k);
	if (partials(s) && s->cluster != KGEN_CLUSTER_C1X1)
		return ERR(split_k, "split_k %lld with split_reduce: kernel takes no cluster key: its blocks load their "
		           "shares of k apart (use cluster: 1x1)", s->split_k);
	if (s->split_k > 1 && pingpong(s))
		return ERR(split_k, "split_k %lld needs schedule: tiles (a block is one tile's share of k, not tiles in "
		           "turn)", s->split_k);
	if (partials(s) && s->mm_store != KGEN_MM_STORE_DIRECT)
		return ERR(mm_store, "store: %s: with split_reduce: kernel a block writes its sums to the scratch one by "
		           "one and NAME_reduce stores C: use store: direct", kgen_mm_stores[s->mm_store].name);
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
map_note(struct kgen_contract *p, const char *name, int k_major, const char *rows, const char *ld, int tile, int tile_k,
         int size)
{
	if (k_major)
		kgen_contract_note(p, "//   %s_map: dims {k, %s}, stride {%s%s}, box {%d, %d}\n", name, rows, ld,
		                   size == 1 ? "" : size == 2 ? " * 2" : " * 4", 128 / size, tile);
	else
		kgen_contract_note(p, "//   %s_map: dims {%s, k}, stride {%s%s}, box {%d, %d}\n", name, rows, ld,
		                   size == 1 ? "" : size == 2 ? " * 2" : " * 4", 128 / size, tile_k);
}

void
kgen_matmul_repack_step(const struct kgen_spec *s, struct kgen_contract *p)
{
	struct kgen_step *st;

	if (!kgen_matmul_repacks(s))
		return;
	st = kgen_contract_step(p, "_repack", "src, ld, dst, pitch, rows, width", "grid_r", 256);
	if (kgen_matmul_wgmma_variants(s))
		kgen_contract_printf(st->note, sizeof st->note, "unaligned: repack, before the call's kernel");
	else
		kgen_contract_printf(st->note, sizeof st->note, "unaligned: repack, before %s", kgen_spec_kernel_name(s));
	kgen_contract_note(p, "// %s_repack (unaligned: repack), launched first for each of A and B that breaks TMA's\n"
	                   "// rules: copies its rows (rows of width elements, ld apart at src: A's m rows of k, B's k\n"
	                   "// rows of n where row-major) to dst (16-byte aligned) with rows pitch = width rounded up to\n"
	                   "// %d elements apart; grid_r = min(ceil(rows * pitch / %d / 256), 16 x the SMs), a block\n"
	                   "// striding over the 16-byte vectors; the maps then describe the copy (ld = pitch).\n",
	                   kgen_spec_kernel_name(s), 16 / s->r.dtype->size, 16 / s->r.dtype->size);
}

void
kgen_matmul_map_notes(const struct kgen_spec *s, struct kgen_contract *p)
{
	int size = s->r.dtype->size;

	kgen_contract_note(p, "// a_map and b_map: A (%s-major) and B (%s-major) as CUtensorMaps (cuTensorMapEncodeTiled:\n"
	                   "// %s, 2-D, CU_TENSOR_MAP_SWIZZLE_128B, zero fill), each passed by value:\n",
	                   kgen_mm_layouts[s->a_layout].name, kgen_mm_layouts[s->b_layout].name,
	                   size == 1 ? "UINT8 (fp8's bytes)" : s->r.dtype->name);
	map_note(p, "a", k_major_a(s), "m", "lda", kgen_matmul_a_box_rows(s), (int)s->tile_k, size);
	map_note(p, "b", k_major_b(s), "n", "ldb", kgen_matmul_b_box_rows(s), (int)s->tile_k, size);
}

void
kgen_matmul_wgmma_contract(const struct kgen_spec *s, struct kgen_contract *p, const char *order)
{
	struct kgen_step *st;
	int persistent = s->producer == KGEN_PRODUCER_WARPGROUP, variants = kgen_matmul_wgmma_variants(s);
	long long smem = kgen_matmul_wgmma_smem(s, s->mm_stages);
	char ep[512], args[96];

	memset(p, 0, sizeof *p);
	kgen_contract_printf(p->title, sizeof p->title, "C = alpha A B + beta C of %s on tensor cores (wgmma)",
	                     s->r.dtype->name);
	p->numbered = partials(s);
	kgen_contract_printf(p->heading, sizeof p->heading, "Kernel%s (extern \"C\")%s, for C (m x n, row-major) = alpha A "
	                     "(m x k) B (k x n) + beta C:", kgen_matmul_repacks(s) || partials(s) || variants ? "s" : "",
	                     variants ? ", one of the first four a call (by beta and C's alignment)" :
	                     !partials(s) ? "" : kgen_matmul_repacks(s) ? ", 1 and 2 launched in this order" :
	                     ", launched in this order");
	/* The kernels are compiled apart, each at its first launch (runtime/context.c): a call compiles the variant
	 * it takes (and NAME_repack only where an operand needs a copy, NAME_reduce where it adds the splits). */
	p->apart = 1;
	wgmma_param_list(s, PARAMS_NAMES, variants, args, sizeof args);
	st = kgen_contract_step(p, "", args, "grid", s->threads);
	st->dynamic_smem = smem;
	kgen_contract_printf(st->note, sizeof st->note, "(dynamic shared memory:\n"
	                     "//   raise CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES first)%s", variants ? "; beta 0" :
	                     "");
	if (partials(s)) {
		st = kgen_contract_step(p, "_reduce", "partials, c, m, n, ldc, ep", "grid2", 256);
		kgen_contract_printf(st->note, sizeof st->note, "adds the %lld splits in order", s->split_k);
		kgen_contract_note(p, "// where grid = (min(tiles, the blocks the GPU holds at once / %lld, at least 1), 1, %lld),\n// tiles ="
		                   " ceil(m / %lld) * ceil(n / %lld): block (x, 0, z) takes the z-th share of the\n"
		                   "// ceil(ceil(k / 64) / %lld) k tiles of each of tiles x, + grid.x, ... and writes its sums to\n"
		                   "// slice z of partials; tiles in order %s.\n"
		                   "// grid2 = ceil(m * n / 256) or fewer.\n", s->split_k, s->split_k, s->tile_m, s->tile_n,
		                   s->split_k, order);
	} else if (split(s))
		kgen_contract_note(p, "// launched in clusters of %lld x 1 x 1 blocks (cuLaunchKernelEx,\n"
		                   "// CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION), where grid = %lld min(tiles, the clusters the GPU\n"
		                   "// holds at once), tiles = ceil(m / %lld) * ceil(n / %lld): cluster blockIdx.x / %lld takes\n"
		                   "// tiles blockIdx.x / %lld, + grid / %lld, ... in order %s, its block r the r-th share of\n"
		                   "// each one's ceil(ceil(k / 64) / %lld) k tiles; block 0 adds the others' sums in rank\n"
		                   "// order (the same rounding every run) and stores the tile.\n", s->split_k, s->split_k,
		                   s->tile_m, s->tile_n, s->split_k, s->split_k, s->split_k, order, s->split_k);
	else if (s->cluster != KGEN_CLUSTER_C1X1)
		kgen_contract_note(p, "// launched in clusters of 2 x 1 x 1 blocks (cuLaunchKernelEx, CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION),\n"
		                   "// where grid = 2 min(pairs, the clusters the GPU holds at once), pairs = ceil(m / %lld) *\n"
		                   "// ceil(n / %lld): cluster blockIdx.x / 2 takes pairs of tiles (%s) blockIdx.x / 2, +\n"
		                   "// grid / 2, ... in order %s.\n", s->tile_m * kgen_cluster_m(s),
		                   s->tile_n * kgen_cluster_n(s), shares_a(s) ? "side by side" : "one above the other", order);
	else if (persistent)
		kgen_contract_note(p, "// where grid = min(tiles, SMs x the blocks an SM holds), tiles = ceil(m / %lld) *\n"
		                   "// ceil(n / %lld): each block takes tiles blockIdx.x, + grid, ... in order\n// %s%s.\n",
		                   s->tile_m, s->tile_n, order, pingpong(s) ? ", its two consumer warpgroups taking them in "
		                   "turn" : "");
	else
		kgen_contract_note(p, "// where grid = ceil(m / %lld) * ceil(n / %lld); blocks take C's tiles in order\n// %s.\n",
		                   s->tile_m, s->tile_n, order);
	if (variants) {
		static const struct { const char *suffix, *note; int tma_only; } v[] = {
			{ KGEN_MATMUL_VARIANT_BETA, "beta != 0 (C read and scaled)", 1 },
			{ KGEN_MATMUL_VARIANT_UNALIGNED, "beta 0, ", 0 },
			{ KGEN_MATMUL_VARIANT_BETA_UNALIGNED, "beta != 0, ", 0 },
		};
		const struct kgen_step first = p->step[0];
		size_t i;

		for (i = 0; i < sizeof v / sizeof *v; i++) {
			wgmma_param_list(s, PARAMS_NAMES, v[i].tma_only, args, sizeof args);
			st = kgen_contract_step(p, v[i].suffix, args, "grid", s->threads);
			st->dynamic_smem = first.dynamic_smem;
			st->cluster = first.cluster;
			kgen_contract_printf(st->note, sizeof st->note, "%s%s", v[i].note, v[i].tma_only ? "" :
			                     kgen_matmul_residual_tma(s) ? "c_tma or r_tma 0" : "c_tma 0");
		}
		kgen_contract_note(p, "// The four take the same grid, block and shared memory: the first two need C%s\n"
		                   "// aligned for TMA (c_tma%s 1 below) and do not take the flag, the last two take either.\n",
		                   kgen_matmul_residual_tma(s) ? " and the residual" : "",
		                   kgen_matmul_residual_tma(s) ? " and r_tma" : "");
	}
	kgen_matmul_map_notes(s, p);
	if (s->mm_store == KGEN_MM_STORE_TMA)
		kgen_contract_note(p, "//   c_map: C (row-major, %s, CU_TENSOR_MAP_SWIZZLE_128B): dims {n, m}, stride {ldc * %d},\n"
		                   "//   box {%d, %lld}, c_tma 1 (also with k = 0); or, where c is not 16-byte aligned or\n"
		                   "//   ldc * %d not a multiple of 16, c_tma 0 (c_map is then not read)\n",
		                   s->r.out->name,
		                   (int)s->r.out->size, 128 / (int)s->r.out->size,
		                   kgen_matmul_wgmma_rows(s), (int)s->r.out->size);
	if (kgen_matmul_residual_tma(s)) {
		const struct kgen_dtype_info *r = &kgen_dtype_info[s->residual_dtype];
		kgen_contract_note(p, "//   r_map: the residual as c_map is C (%s, ep.residual, ldr): dims {n, m}, stride\n"
		                   "//   {ldr * %d}, box {%d, %lld}, r_tma 1; or, where it is not 16-byte aligned or ldr *\n"
		                   "//   %d not a multiple of 16, r_tma 0 (its elements are then read from ep.residual)\n",
		                   r->name, (int)r->size, 128 / (int)r->size, kgen_matmul_wgmma_rows(s), (int)r->size);
	}
	kgen_contract_note(p, "// so a and b must be 16-byte aligned and lda and ldb multiples of %d elements (TMA's\n"
	                   "// 16-byte row pitches); with k = 0 a_map and b_map are not read.  C row-major\n"
	                   "// (c[i * ldc + j]), ldc in elements; m, n and k below 2^31, m and n from 1.\n",
	                   16 / s->r.dtype->size);
	kgen_matmul_ep_note(s, ep, sizeof ep);
	kgen_contract_note(p, "%s", ep);
	kgen_matmul_repack_step(s, p);
	if (partials(s))
		kgen_contract_note(p, "// Scratch: partials, %lld x m x n %s (split z's sums at z * m * n)%s.", s->split_k,
		                   s->r.acc->name, kgen_matmul_repacks(s) ? "; the copies go in a buffer the runtime keeps" : "");
	else
		kgen_contract_note(p, "%s", kgen_matmul_repacks(s) ? "// Scratch: none (the copies go in a buffer the runtime "
		                   "keeps)." : "// Scratch: none.");
}

/* ---- the source ---- */

/* The operands' sections of a stage template: which operand is K-major,
 * and in a cluster, whether the pair shares A (else B). */
static void
operand_sections(const struct kgen_spec *s, struct tpl_args *t)
{
	tpl_show(t, "a_k_major", k_major_a(s));
	tpl_show(t, "b_k_major", k_major_b(s));
}

kgen_status
kgen_matmul_wgmma_constants(const struct kgen_spec *s, struct tpl_args *file, kgen_error *err)
{
	struct tpl_args t;
	kgen_status st;

	tpl_init(&t);
	if ((st = kgen_matmul_group_constant(s, &t, err)) || (st = kgen_matmul_stages_constant(s, &t, err))) {
		tpl_free(&t);
		return st;
	}
	tpl_set(&t, "tile_m", "%lld", s->tile_m);
	tpl_set(&t, "tile_n", "%lld", s->tile_n);
	tpl_set(&t, "tile_k", "%lld", s->tile_k);
	tpl_set(&t, "threads", "%lld", s->threads);
	tpl_set(&t, "consumers", "%lld", s->consumers);
	tpl_set(&t, "plural", "%s", s->consumers > 1 ? "s" : "");
	tpl_show(&t, "pingpong", pingpong(s));
	tpl_show(&t, "producer", s->producer == KGEN_PRODUCER_WARPGROUP);
	tpl_show(&t, "cluster", s->cluster != KGEN_CLUSTER_C1X1);
	tpl_show(&t, "split", split(s));
	tpl_show(&t, "partials", partials(s));
	tpl_set(&t, "split_k", "%lld", s->split_k);
	tpl_set(&t, "cluster_m", "%d", kgen_cluster_m(s));
	tpl_set(&t, "cluster_n", "%d", kgen_cluster_n(s));
	tpl_set(&t, "shared", "%s", shares_a(s) ? "A" : "B");
	operand_sections(s, &t);
	tpl_show(&t, "a_halves", shares_a(s));
	tpl_show(&t, "b_halves", shares_b(s));
	return tpl_render_into(file, "constants", "matmul/wgmma_constants.cu", &t, err);
}

/* The PTX helpers the kernel calls (templates/ptx/). */
static kgen_status
ptx_helpers(const struct kgen_spec *s, struct tpl_args *parts, kgen_error *err)
{
	int clustered = s->cluster != KGEN_CLUSTER_C1X1, tma_store = s->mm_store == KGEN_MM_STORE_TMA;
	struct kgen_ptx p = {
		.uses = KGEN_PTX_BIT(smem) | KGEN_PTX_BIT(mbarrier_init) | KGEN_PTX_BIT(fence_mbarrier_init) |
		        KGEN_PTX_BIT(mbarrier_arrive_expect_tx) | KGEN_PTX_BIT(mbarrier_arrive) | KGEN_PTX_BIT(mbarrier_wait) |
		        KGEN_PTX_BIT(tensor_map) | KGEN_PTX_BIT(tma_load_2d) | KGEN_PTX_BIT(wgmma_fence) |
		        KGEN_PTX_BIT(wgmma_commit_group) | KGEN_PTX_BIT(wgmma_wait_group) | KGEN_PTX_BIT(wgmma_fence_operand) |
		        KGEN_PTX_BIT(smem_desc) | KGEN_PTX_BIT(wgmma),
		.mma_type = s->r.dtype->cls == DT_FP8 ? s->r.dtype->name : s->r.dtype->cls == DT_HALF ? "f16" : "bf16",
		.mma_type_b = s->r.dtype->cls == DT_FP8 ? kgen_dtype_info[s->b_dtype].name : NULL,
		.wgmma_n = (int)s->tile_n,
		.wgmma_trans_a = !k_major_a(s),
		.wgmma_trans_b = !k_major_b(s),
	};

	if (clustered)
		p.uses |= KGEN_PTX_BIT(mbarrier_arrive_cluster) | KGEN_PTX_BIT(cluster_sync) |
		          KGEN_PTX_BIT(tma_load_2d_multicast);
	if (tma_store)
		p.uses |= KGEN_PTX_BIT(warpgroup_sync) | KGEN_PTX_BIT(fence_proxy_async_shared) | KGEN_PTX_BIT(tma_store_2d) |
		          KGEN_PTX_BIT(bulk_commit_group) | KGEN_PTX_BIT(bulk_wait_group_read) | KGEN_PTX_BIT(bulk_wait_group);
	if (kgen_matmul_residual_tma(s))
		p.uses |= KGEN_PTX_BIT(tma_load_2d) | KGEN_PTX_BIT(tma_prefetch_2d) | KGEN_PTX_BIT(mbarrier_arrive_expect_tx) |
		          KGEN_PTX_BIT(mbarrier_wait) | KGEN_PTX_BIT(mbarrier_init);
	if (setmaxnreg(s))
		p.uses |= KGEN_PTX_BIT(setmaxnreg_dec) | KGEN_PTX_BIT(setmaxnreg_inc);
	if (split(s))
		p.uses |= KGEN_PTX_BIT(cluster_sync) | KGEN_PTX_BIT(dsmem_store_async_v4) | KGEN_PTX_BIT(warpgroup_sync) |
		          KGEN_PTX_BIT(mbarrier_arrive_cluster);
	if (pingpong(s))
		p.uses |= KGEN_PTX_BIT(pair_arrive) | KGEN_PTX_BIT(pair_wait);
	return kgen_ptx_render_into(parts, "ptx", &p, err);
}

/* store_tile() (and store_tile_tma()), by the spec's store. */
static kgen_status
store_helpers(const struct kgen_spec *s, struct tpl_args *parts, kgen_error *err)
{
	struct tpl_args t, pairs;
	kgen_status st;

	if (s->mm_store == KGEN_MM_STORE_TMA) {  /* TMA's stores, or the buffers copied where C cannot take them */
		struct tpl_args tma;

		tpl_init(&tma);
		tpl_show(&tma, "residual_tma", kgen_matmul_residual_tma(s));
		tpl_show(&tma, "reductions", kgen_matmul_reduces(s));
		return tpl_render_into(parts, "store_tile", "matmul/wgmma_store_tma.cu", &tma, err);
	}
	tpl_init(&t);
	if (s->mm_store == KGEN_MM_STORE_PAIRS) {  /* store_pair() */
		tpl_init(&pairs);
		tpl_show(&pairs, "reductions", kgen_matmul_reduces(s));
		if ((st = tpl_render_into(&t, "pair_result", "matmul/pair_result.cu", &pairs, err))) {
			tpl_free(&t);
			return st;
		}
	}
	if (s->mm_store == KGEN_MM_STORE_DIRECT)
		tpl_show(&t, "partials", partials(s));
	return tpl_render_into(parts, "store_tile", s->mm_store == KGEN_MM_STORE_PAIRS ? "matmul/wgmma_store_pairs.cu" :
	                       "matmul/wgmma_store_direct.cu", &t, err);
}

kgen_status
kgen_matmul_wgmma_helpers(const struct kgen_spec *s, struct tpl_args *parts, kgen_error *err)
{
	int clustered = s->cluster != KGEN_CLUSTER_C1X1;
	struct tpl_args h, pipe, stage, multiply, gather, share;
	kgen_status st;

	tpl_init(&h);
	tpl_init(&pipe);
	tpl_show(&pipe, "cluster", clustered);
	tpl_init(&stage);
	operand_sections(s, &stage);
	if (clustered) {
		tpl_show(&stage, "shares_a", shares_a(s));
		tpl_set(&stage, "own", "%s", shares_a(s) ? "B" : "A");
		tpl_set(&stage, "shared", "%s", shares_a(s) ? "A" : "B");
	}
	tpl_init(&multiply);
	operand_sections(s, &multiply);
	tpl_set(&multiply, "k_step", "%d", s->r.dtype->cls == DT_FP8 ? 32 : 16);
	tpl_show(&multiply, "block_scaled", kgen_matmul_block_scaled(s));
	tpl_init(&gather);
	tpl_init(&share);
	tpl_show(&h, "split", split(s));
	tpl_show(&h, "split_k", split(s) || partials(s));
	if ((st = ptx_helpers(s, &h, err)) ||
	    (st = tpl_render_into(&h, "pipeline", "matmul/wgmma_pipeline.cu", &pipe, err)) ||
	    (st = tpl_render_into(&h, "stage", clustered ? "matmul/wgmma_cluster_stage.cu" : "matmul/wgmma_stage.cu",
	                          &stage, err)) ||
	    (st = tpl_render_into(&h, "multiply_stage", "matmul/wgmma_multiply.cu", &multiply, err)) ||
	    (st = store_helpers(s, &h, err)) ||
	    ((split(s) || partials(s)) && (st = tpl_render_into(&h, "share", "matmul/wgmma_share.cu", &share, err))) ||
	    (split(s) && (st = tpl_render_into(&h, "gather", "matmul/wgmma_split.cu", &gather, err)))) {
		tpl_free(&h);
		tpl_free(&pipe);
		tpl_free(&stage);
		tpl_free(&multiply);
		tpl_free(&gather);
		tpl_free(&share);
		return st;
	}
	return tpl_render_into(parts, "wgmma", "matmul/wgmma_helpers.cu", &h, err);
}

/* store: tma's kernels, each the work function for one beta and one way C leaves
 * (templates/matmul/wgmma_variants.cu). */
static kgen_status
wgmma_variants(const struct kgen_spec *s, strbuf *out, kgen_error *err)
{
	int residual = kgen_matmul_residual_tma(s);
	struct tpl_args v;

	tpl_init(&v);
	tpl_set(&v, "name", "%s", kgen_spec_kernel_name(s));
	tpl_set(&v, "what", "%s", residual ? "C and the residual" : "C");
	tpl_set(&v, "either", "%s", residual ? "C or the residual" : "C");
	tpl_set(&v, "flags", "%s", residual ? "c_tma or r_tma" : "c_tma");
	set_params(&v, "tma_params", s, PARAMS_KERNEL, 1);
	set_params(&v, "params", s, PARAMS_KERNEL, 0);
	set_params(&v, "tma_args", s, PARAMS_CALL, 1);
	set_params(&v, "args", s, PARAMS_CALL, 0);
	return tpl_render(out, "matmul/wgmma_variants.cu", &v, err);
}

kgen_status
kgen_matmul_wgmma_kernel(const struct kgen_spec *s, strbuf *out, kgen_error *err)
{
	int producer = s->producer == KGEN_PRODUCER_WARPGROUP, clustered = s->cluster != KGEN_CLUSTER_C1X1;
	int tma = s->mm_store == KGEN_MM_STORE_TMA, variants = kgen_matmul_wgmma_variants(s);
	struct tpl_args k, consumer;
	kgen_status st;

	tpl_init(&consumer);
	tpl_show(&consumer, "cluster", clustered);
	tpl_show(&consumer, "tma", tma);
	tpl_show(&consumer, "residual_tma", kgen_matmul_residual_tma(s));
	tpl_show(&consumer, "pingpong", pingpong(s));
	tpl_show(&consumer, "split", split(s));
	tpl_show(&consumer, "partials", partials(s));
	tpl_show(&consumer, "promote", promotes(s));
	tpl_show(&consumer, "scaled", kgen_matmul_scaled(s) && !kgen_matmul_block_scaled(s));
	tpl_show(&consumer, "block_scaled", kgen_matmul_block_scaled(s));
	tpl_init(&k);
	if ((st = tpl_render_into(&k, "consumer", "matmul/wgmma_consumer.cu", &consumer, err))) {
		tpl_free(&k);
		return st;
	}
	tpl_set(&k, "name", "%s", kgen_spec_kernel_name(s));
	set_params(&k, "params", s, variants ? PARAMS_WORK : PARAMS_KERNEL, 0);
	if (!producer)
		return tpl_render(out, "matmul/wgmma_inline.cu", &k, err);
	tpl_show(&k, "variants", variants);
	tpl_show(&k, "setmaxnreg", setmaxnreg(s));
	if (!clustered)
		tpl_show(&k, "pingpong", pingpong(s));
	tpl_set(&k, "producer_regs", "%d", PRODUCER_REGS);
	tpl_set(&k, "consumer_regs", "%d", CONSUMER_REGS);
	tpl_show(&k, "tma", tma);
	if (!clustered) {
		tpl_show(&k, "split", split(s));
		tpl_show(&k, "partials", partials(s));
	}
	if (!clustered)  /* (clusters read the residual element by element) */
		tpl_show(&k, "residual_tma", kgen_matmul_residual_tma(s));
	if ((st = tpl_render(out, clustered ? "matmul/wgmma_cluster.cu" : "matmul/wgmma_specialized.cu", &k, err)) ||
	    !variants)
		return st;
	return wgmma_variants(s, out, err);
}
