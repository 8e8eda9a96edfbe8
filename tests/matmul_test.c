/*
 * matmul_test.c - the matrix multiply family (`kernel: matmul`): its
 * defaults (tiles and threads by staging and math, the name, the types),
 * the specs under specs/matmul/, what the header and the source of each
 * variant hold, every rule of gen/matmul.c with its exact message, line,
 * column and source line, and the launcher's argument errors without a GPU.
 */
#include "config.h"
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kgen.h"
#include "gen/matmul.h"
#include "gen/util.h"
#include "runtime/matmul_hopper.h"
#include "spec_assert.h"

/* The source of yaml, which must generate; free() it. */
static char *
source(const char *yaml)
{
	kgen_spec *spec = load(yaml);
	char *src = NULL;
	kgen_error err;

	ck_assert_msg(kgen_generate(spec, &src, &err) == KGEN_OK, "generate: %s", err.message);
	kgen_spec_free(spec);
	return src;
}

#define ASSERT_HAS(src, text) ck_assert_msg(strstr((src), (text)) != NULL, "no '%s' in the source", (text))
#define ASSERT_HAS_NOT(src, text) ck_assert_msg(strstr((src), (text)) == NULL, "'%s' in the source", (text))

/* ---- defaults and good specs ---- */

START_TEST(matmul_minimal_spec_gets_every_default)
{
	kgen_spec *spec = load("kernel: matmul\n");

	ASSERT_FIELD(spec, "name", "matmul_simt_f32");
	ASSERT_FIELD(spec, "acc_dtype", "f32");
	ASSERT_FIELD(spec, "out_dtype", "f32");
	ASSERT_FIELD(spec, "threads", "256");
	ASSERT_FIELD(spec, "staging", "smem");
	ASSERT_FIELD(spec, "math", "simt");
	ASSERT_FIELD(spec, "tile_m", "64");
	ASSERT_FIELD(spec, "tile_n", "64");
	ASSERT_FIELD(spec, "tile_k", "8");
	ASSERT_FIELD(spec, "thread_m", "4");
	ASSERT_FIELD(spec, "warp_m", "0");
	ASSERT_FIELD(spec, "stages", "1");
	ASSERT_FIELD(spec, "split_k", "1");
	ASSERT_FIELD(spec, "epilogue", "v");
	kgen_spec_free(spec);
}
END_TEST

START_TEST(matmul_defaults_follow_staging_and_math)
{
	kgen_spec *spec = load("kernel: matmul\nstaging: none\n");

	ASSERT_FIELD(spec, "tile_m", "32");
	ASSERT_FIELD(spec, "threads", "1024");
	kgen_spec_free(spec);
	spec = load("kernel: matmul\ndtype: bf16\nmath: mma\n");
	ASSERT_FIELD(spec, "name", "matmul_mma_bf16");
	ASSERT_FIELD(spec, "tile_m", "128");
	ASSERT_FIELD(spec, "tile_k", "32");
	ASSERT_FIELD(spec, "warp_m", "64");
	ASSERT_FIELD(spec, "threads", "128");
	ASSERT_FIELD(spec, "acc_dtype", "f32");
	ASSERT_FIELD(spec, "out_dtype", "bf16");
	kgen_spec_free(spec);
	spec = load("kernel: matmul\ndtype: f64\nload_width: 16\n");
	ASSERT_FIELD(spec, "acc_dtype", "f64");
	kgen_spec_free(spec);
}
END_TEST

START_TEST(matmul_spec_files_load_and_generate)
{
	static const char *const files[] = {
		"specs/matmul/seed-002/01-naive.yaml", "specs/matmul/seed-002/02-coalesced.yaml",
		"specs/matmul/seed-002/03-smem.yaml", "specs/matmul/seed-002/04-blocktiling-1d.yaml",
		"specs/matmul/seed-002/05-blocktiling-2d.yaml", "specs/matmul/seed-002/06-vectorized.yaml",
		"specs/matmul/seed-002/07-warptiling.yaml", "specs/matmul/seed-002/08-wmma.yaml",
		"specs/matmul/best/simt_f32.yaml", "specs/matmul/best/mma_bf16.yaml", "specs/matmul/best/mma_f16.yaml",
		"specs/matmul/best/mma_tma_bf16.yaml", "specs/matmul/best/mma_tma_f16.yaml",
		"specs/matmul/hopper/01-tma-wgmma.yaml", "specs/matmul/hopper/02-larger-tiles.yaml",
		"specs/matmul/hopper/03-warp-specialized.yaml", "specs/matmul/best/wgmma_bf16.yaml",
	};
	size_t i;

	for (i = 0; i < KGEN_COUNT(files); i++) {
		kgen_spec *spec = NULL;
		char *src = NULL;
		kgen_error err;
		ck_assert_msg(kgen_spec_load_file(srcpath(files[i]), &spec, &err) == KGEN_OK, "%s: %s", files[i], err.message);
		ck_assert_msg(kgen_generate(spec, &src, &err) == KGEN_OK, "%s: %s", files[i], err.message);
		free(src);
		kgen_spec_free(spec);
	}
}
END_TEST

/* ---- what each variant emits ---- */

START_TEST(matmul_naive_maps_threads_by_thread_map)
{
	char *src = source("kernel: matmul\nstaging: none\nthread_map: rows\n");

	ASSERT_HAS(src, "const int row = row0 + (int)threadIdx.x % TILE_M, col = col0 + (int)threadIdx.x / TILE_M;");
	ASSERT_HAS(src, "acc += to_acc(a[row * lda + i]) * to_acc(b[i * ldb + col]);");
	ASSERT_HAS_NOT(src, "__shared__");
	ASSERT_HAS_NOT(src, "thread_m:");  /* not in the header: it does not apply */
	free(src);
	src = source("kernel: matmul\nstaging: none\na_layout: col\nb_layout: col\n");
	ASSERT_HAS(src, "const int row = row0 + (int)threadIdx.x / TILE_N, col = col0 + (int)threadIdx.x % TILE_N;");
	ASSERT_HAS(src, "acc += to_acc(a[i * lda + row]) * to_acc(b[col * ldb + i]);");
	free(src);
}
END_TEST

START_TEST(matmul_simt_tiles_and_loads)
{
	char *src = source("kernel: matmul\ntile_m: 128\ntile_n: 128\nthread_m: 8\nthread_n: 8\na_smem: transposed\n");

	ASSERT_HAS(src, "load_tile<TILE_M, TILE_K, VEC_A, A_LD, true>(as, a + row0 * lda + kt, lda, m - row0, k1 - kt, vectors, tid);");
	ASSERT_HAS(src, "constexpr int A_LD = 132, A_TILE = 8 * A_LD;");
	ASSERT_HAS(src, "const Chunk<RM> v = *reinterpret_cast<const Chunk<RM> *>(as + kk * A_LD + tr0 + i / RM * RM_STRIDE);");
	ASSERT_HAS_NOT(src, "cp_async");
	free(src);
	src = source("kernel: matmul\nstages: 3\n");
	ASSERT_HAS(src, "cp_async<VEC * sizeof(T)>(s, g);");
	ASSERT_HAS(src, "cp_async_wait<STAGES - 2>();");
	ASSERT_HAS(src, "// Needs: sm_80 or newer (stages: 3).");
	free(src);
	src = source("kernel: matmul\nwarp_m: 16\nwarp_n: 32\n");
	ASSERT_HAS(src, "const int tr0 = warp / WARPS_N * WARP_M + lane / (WARP_N / THREAD_N) * RM;");
	ASSERT_HAS(src, "constexpr int CN = 4, CN_STRIDE = 32;");
	free(src);
}
END_TEST

START_TEST(matmul_tensor_cores_emit_their_ptx)
{
	char *src = source("kernel: matmul\ndtype: f16\nmath: wmma\nb_layout: col\n");

	ASSERT_HAS(src, "wmma.load.b.sync.aligned.col.m16n16k16.shared.f16");
	ASSERT_HAS(src, "wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32 ");  /* f16 in: d and c types only */
	ASSERT_HAS(src, "// Needs: sm_80 or newer (math: wmma).");
	free(src);
	src = source("kernel: matmul\ndtype: bf16\nmath: mma\na_layout: col\nstages: 2\n");
	ASSERT_HAS(src, "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32");
	/* ldmatrix from 32-bit shared addresses, an element offset from the tile's */
	ASSERT_HAS(src, "ldmatrix_x4<true>(f.a[i], as + (unsigned int)sizeof(T) * ((kk + lane % 8 + lane / 16 * 8) * A_LD + "
	                "wm + i * 16 + lane / 8 % 2 * 8));");
	ASSERT_HAS(src, "ldmatrix_x4<true>(r, bs + (unsigned int)sizeof(T) * ((kk + lane % 8 + lane / 8 % 2 * 8) * B_LD + "
	                "wn + j * 8 + lane / 16 * 8));");
	/* stages 2 and up: the fragments double-buffered across the tiles' barrier */
	ASSERT_HAS(src, "load_fragments(f[(ks + 1) % 2], as_at + read * A_BYTES, bs_at + read * B_BYTES, 0, wm, wn, lane);");
	ASSERT_HAS(src, "constexpr int KSTEPS = TILE_K / 16;");
	ASSERT_HAS_NOT(src, "multiply_tile(");
	ASSERT_HAS(src, "load_tile_inside<ROWS, COLS, VEC, DST_LD>(dst, src, ld, tid);");
	free(src);
	src = source("kernel: matmul\ndtype: bf16\nmath: mma\n");  /* stages: 1 */
	ASSERT_HAS(src, "multiply_tile(as, bs, acc, wm, wn, lane);");
	ASSERT_HAS(src, "load_fragments(f[(ks + 1) % 2], at, bt, ks + 1, wm, wn, lane);");
	ASSERT_HAS_NOT(src, "load_tile_inside");  /* plain loads check every vector */
	ASSERT_HAS_NOT(src, "swizzle_at");
	free(src);
	/* smem_layout: swizzled: unpadded rows, every access through swizzle_at */
	src = source("kernel: matmul\ndtype: bf16\nmath: mma\ntile_k: 64\nstages: 3\nsmem_layout: swizzled\n");
	ASSERT_HAS(src, "constexpr int A_LD = 64, A_TILE = 128 * A_LD;");
	ASSERT_HAS(src, "constexpr int B_LD = 128, B_TILE = 64 * B_LD;");
	ASSERT_HAS(src, "ldmatrix_x4<false>(f.a[i], as + (unsigned int)sizeof(T) * (swizzle_at<A_LD>(wm + i * 16 + lane % 16, "
	                "kk + lane / 16 * 8)));");
	ASSERT_HAS(src, "ldmatrix_x4<true>(r, bs + (unsigned int)sizeof(T) * (swizzle_at<B_LD>(kk + lane % 8 + lane / 8 % 2 * 8, "
	                "wn + j * 8 + lane / 16 * 8)));");
	/* whole tiles: rows 8 apart lie alike, so each pass is the first's address plus a constant */
	ASSERT_HAS(src, "T *const first = STEPS ? dst + swizzle_at<DST_LD>(r0, c0) : dst;");
	ASSERT_HAS(src, "cp_async<VEC * sizeof(T)>(first + i * ROWS_APART * DST_LD, g);");
	ASSERT_HAS(src, "cp_async<VEC * sizeof(T)>(dst + swizzle_at<DST_LD>(r, c), ROWS_APART ? g + i * ROWS_APART * ld : src + "
	                "r * ld + c);");
	ASSERT_HAS(src, "T *const s = dst + swizzle_at<DST_LD>(r, c);");
	ASSERT_HAS(src, "<<<grid, 128, 98304>>>");  /* 3 x (128 x 64 + 64 x 128) x 2 bytes */
	free(src);
	/* padded rows: each pass's destination is the first's plus ROWS_APART rows */
	src = source("kernel: matmul\ndtype: bf16\nmath: mma\ntile_k: 64\nstages: 3\n");
	ASSERT_HAS(src, "T *const first = STEPS ? dst + r0 * DST_LD + c0 : dst;");
	ASSERT_HAS(src, "constexpr bool STEPS = ROWS_APART > 0 && ROWS_APART % 8 == 0;");
	free(src);
}
END_TEST

START_TEST(matmul_wgmma_defaults)
{
	kgen_spec *spec = load("kernel: matmul\ndtype: bf16\nmath: wgmma\n");

	ASSERT_FIELD(spec, "name", "matmul_wgmma_bf16");
	ASSERT_FIELD(spec, "tile_m", "128");
	ASSERT_FIELD(spec, "tile_n", "128");
	ASSERT_FIELD(spec, "tile_k", "64");
	ASSERT_FIELD(spec, "stages", "4");
	ASSERT_FIELD(spec, "threads", "128");   /* one warpgroup */
	ASSERT_FIELD(spec, "producer", "none");
	ASSERT_FIELD(spec, "consumers", "1");
	kgen_spec_free(spec);
	spec = load("kernel: matmul\ndtype: f16\nmath: wgmma\ntile_m: 256\ntile_n: 128\nconsumers: 2\n"
	            "producer: warpgroup\n");
	ASSERT_FIELD(spec, "stages", "4");
	ASSERT_FIELD(spec, "threads", "384");   /* a producer and two consumer warpgroups */
	kgen_spec_free(spec);
}
END_TEST

/* What math: wgmma emits, by layout and producer. */
START_TEST(matmul_wgmma_emits_tma_and_wgmma)
{
	char *src = source("kernel: matmul\ndtype: bf16\nmath: wgmma\n");

	ASSERT_HAS(src, "// Needs: sm_90a (math: wgmma, stages: 4).");
	ASSERT_HAS(src, "//   matmul_wgmma_bf16(a_map, b_map, c, m, n, k, ldc, ep)  <<<grid, 128, 132096>>>");
	ASSERT_HAS(src, "//   a_map: dims {k, m}, stride {lda * 2}, box {64, 128}");
	ASSERT_HAS(src, "//   b_map: dims {n, k}, stride {ldb * 2}, box {64, 64}");
	ASSERT_HAS(src, "\"wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16\\n\"");
	ASSERT_HAS(src, "\" %64, %65, p, 1, 1, 0, 1; }\"");  /* A K-major as stored, B N-major transposed */
	ASSERT_HAS(src, "tma_load_2d(as, a_map, k0, row0, full);");
	ASSERT_HAS(src, "tma_load_2d(bs + j * B_BOX, b_map, col0 + 64 * j, k0, full);");
	ASSERT_HAS(src, "wgmma(acc[i], smem_desc(as + (wg_row + 64 * i) * 128 + kk * 32, A_LBO, A_SBO), b);");
	ASSERT_HAS(src, "const unsigned long long b = smem_desc(bs + kk * 2048, B_LBO, B_SBO);");
	ASSERT_HAS(src, "constexpr unsigned int A_LBO = 16, A_SBO = 1024;");
	ASSERT_HAS(src, "constexpr unsigned int B_LBO = B_BOX, B_SBO = 1024;");
	ASSERT_HAS(src, "static __device__ __forceinline__ void tile_origin(int tile, int m, int n, int &row0, int &col0)");
	ASSERT_HAS(src, "issue_load(i, &a_map, &b_map, as, bs, full, empty, m, n, row0, col0, i % k_tiles * TILE_K);");
	ASSERT_HAS(src, "mbarrier_init(&empty[s], CONSUMERS);");  /* one release a warpgroup */
	ASSERT_HAS_NOT(src, "setmaxnreg_dec<");
	free(src);
	src = source("kernel: matmul\ndtype: f16\nmath: wgmma\na_layout: col\nb_layout: col\ntile_n: 256\n"
	             "tile_m: 128\nconsumers: 2\nproducer: warpgroup\nout_dtype: f32\n");
	ASSERT_HAS(src, "\"wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16\\n\"");
	ASSERT_HAS(src, "\" %128, %129, p, 1, 1, 1, 0; }\"");  /* A M-major transposed, B K-major */
	ASSERT_HAS(src, "//   a_map: dims {m, k}, stride {lda * 2}, box {64, 64}");
	ASSERT_HAS(src, "//   b_map: dims {k, n}, stride {ldb * 2}, box {64, 256}");
	ASSERT_HAS(src, "tma_load_2d(as + j * A_BOX, a_map, row0 + 64 * j, k0, full);");
	ASSERT_HAS(src, "tma_load_2d(bs, b_map, k0, col0, full);");
	ASSERT_HAS(src, "wgmma(acc[i], smem_desc(as + (wg_row / 64 + i) * A_BOX + kk * 2048, A_LBO, A_SBO), b);");
	ASSERT_HAS(src, "constexpr unsigned int A_LBO = A_BOX, A_SBO = 1024;");
	ASSERT_HAS(src, "setmaxnreg_dec<40>();");
	ASSERT_HAS(src, "setmaxnreg_inc<232>();");
	ASSERT_HAS(src, "// where grid = min(tiles, SMs x the blocks an SM holds)");
	free(src);
	src = source("kernel: matmul\ndtype: bf16\nmath: wgmma\nproducer: warpgroup\norder: hilbert\ngroup: 16\n");
	ASSERT_HAS(src, "constexpr int GROUP = 16;  // the side of a square of tiles (order: hilbert)");
	ASSERT_HAS(src, "// Where tile `tile` of C starts (row0, col0): along a Hilbert curve through each square of GROUP x");
	ASSERT_HAS(src, "    for (int side = 1; side < GROUP; side *= 2, d /= 4) {");
	free(src);
	src = source("kernel: matmul\ndtype: bf16\nmath: wgmma\nproducer: warpgroup\n");
	ASSERT_HAS(src, "issue_load(i, &a_map, &b_map, as, bs, full, empty, m, n, row0, col0, kt * TILE_K);");
	ASSERT_HAS(src, "if (threadIdx.x % 128 == 0)\n        mbarrier_arrive(&empty[i % STAGES]);");
	ASSERT_HAS(src, "auto release = [&](unsigned int i) { consumer_release(empty, i); };");
	ASSERT_HAS_NOT(src, "setmaxnreg_dec<");  /* one consumer keeps the registers the launch gives it */
	ASSERT_HAS_NOT(src, "OutPair");  /* store: direct */
	free(src);
}
END_TEST

/* How many times text occurs in src. */
static int
count(const char *src, const char *text)
{
	int n = 0;

	for (; (src = strstr(src, text)) != NULL; src++)
		n++;
	return n;
}

/* Every wgmma kernel runs the one consumer mainloop (wgmma_consumer.cu) in
 * the pipeline's names, and takes from templates/ptx/ exactly the helpers it
 * calls, each defined once. */
START_TEST(matmul_wgmma_one_mainloop)
{
	static const char *const specs[] = {
		"producer: none\n", "producer: none\nconsumers: 2\n", "producer: warpgroup\n",
		"producer: warpgroup\nconsumers: 2\nstore: tma\n", "producer: warpgroup\ncluster: 2x1\n",
		"producer: warpgroup\nconsumers: 2\ncluster: 1x2\nstore: tma\n",
	};
	char yaml[256];
	size_t i;

	for (i = 0; i < sizeof specs / sizeof *specs; i++) {
		int producer = strstr(specs[i], "warpgroup") != NULL, cluster = strstr(specs[i], "cluster") != NULL;
		int tma = strstr(specs[i], "store: tma") != NULL, two = strstr(specs[i], "consumers: 2") != NULL;
		char *src;

		snprintf(yaml, sizeof yaml, "kernel: matmul\ndtype: bf16\nmath: wgmma\n%s", specs[i]);
		src = source(yaml);
		ck_assert_int_eq(count(src, "consumer_wait(full, it);"), 1);
		ck_assert_int_eq(count(src, "wgmma_wait_group<1>();  // the group before this one has read its stage"), 1);
		ck_assert_int_eq(count(src, "release(it - 1);"), 2);
		ck_assert_int_eq(count(src, "producer_acquire(empty, i);"), 1);
		ck_assert_int_eq(count(src, "static __device__ __forceinline__ void mbarrier_wait("), 1);
		ck_assert_int_eq(count(src, "static __device__ __forceinline__ unsigned int smem("), 1);
		ck_assert_int_eq(count(src, "struct alignas(64) CUtensorMap {"), 1);
		ck_assert_int_eq(count(src, "void mbarrier_arrive_cluster("), cluster);
		ck_assert_int_eq(count(src, "void cluster_sync("), cluster);
		ck_assert_int_eq(count(src, "void tma_load_2d_multicast("), cluster);
		ck_assert_int_eq(count(src, "void tma_store_2d("), tma);
		ck_assert_int_eq(count(src, "void warpgroup_sync("), tma);
		ck_assert_int_eq(count(src, "void fence_proxy_async_shared("), tma);
		ck_assert_int_eq(count(src, "void setmaxnreg_dec("), producer && two);
		ck_assert_int_eq(count(src, "void consumer_release(unsigned long long *empty, unsigned int i, unsigned int rank)"),
		                 cluster);
		ASSERT_HAS_NOT(src, "tma_load_3d");  /* the transposes' */
		ASSERT_HAS_NOT(src, "cp_async");
		free(src);
	}
}
END_TEST

/* math: mma and simt take cp.async's, ldmatrix's, mma.sync's and (loads:
 * tma) TMA's and the mbarriers' helpers from templates/ptx/ as they call them. */
START_TEST(matmul_ptx_helpers)
{
	char *src = source("kernel: matmul\ndtype: f16\nmath: mma\nstages: 3\n");

	ck_assert_int_eq(count(src, "static __device__ __forceinline__ void cp_async("), 1);
	ck_assert_int_eq(count(src, "void ldmatrix_x4("), 1);
	ASSERT_HAS(src, "\"mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 \"");
	ASSERT_HAS_NOT(src, "mbarrier");
	ASSERT_HAS_NOT(src, "CUtensorMap");
	free(src);
	src = source("kernel: matmul\ndtype: bf16\nmath: mma\nstages: 3\nloads: tma\nsmem_layout: swizzled\ntile_k: 64\n");
	ASSERT_HAS(src, "\"mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 \"");
	ck_assert_int_eq(count(src, "void mbarrier_arrive("), 1);
	ck_assert_int_eq(count(src, "void tma_load_2d("), 1);
	ASSERT_HAS_NOT(src, "cp_async");
	ASSERT_HAS_NOT(src, "wgmma");
	free(src);
	src = source("kernel: matmul\ndtype: f32\nstages: 1\n");  /* simt, one stage: no PTX */
	ASSERT_HAS_NOT(src, "asm volatile");
	ASSERT_HAS_NOT(src, "smem(");
	free(src);
}
END_TEST

/* store: pairs writes whole, aligned tiles two columns a store, unchecked,
 * and falls back to the checked element-by-element loop otherwise. */
START_TEST(matmul_wgmma_store_pairs)
{
	char *src = source("kernel: matmul\ndtype: bf16\nmath: wgmma\nstore: pairs\n");

	ASSERT_HAS(src, "struct alignas(2 * sizeof(Out)) OutPair {");
	ASSERT_HAS(src, "const bool inside = row0 + WG_M <= m && col0 + TILE_N <= n;");
	ASSERT_HAS(src, "const bool aligned = (unsigned long long)c % sizeof(OutPair) == 0 && ldc % 2 == 0;");
	ASSERT_HAS(src, "store_pair(line + 8 * j, row, col0 + 8 * j + cc, acc[i][4 * j + 2 * h], acc[i][4 * j + 2 * h + 1],");
	ASSERT_HAS(src, "*reinterpret_cast<OutPair *>(p) = pair;");
	ASSERT_HAS(src, "store_result(c, nullptr, m, n, ldc, row, col, acc[i][4 * j + e], ep);");
	free(src);
}
END_TEST

/* store: tma: two swizzled buffers a consumer warpgroup after the stages,
 * C's map in the kernels' parameters, a TMA store a chunk, the last stores
 * waited for; where C cannot take TMA the same buffers copied by the
 * warpgroup (no store: pairs fallback, whose unrolled copies of the tile's
 * code doubled a cold build); four kernels, one for each beta and each way
 * C leaves, the work one function of READ_C, the kernels for C by TMA
 * without c_tma (their calls pass 1); the stages the buffers leave room
 * for when the spec gives none. */
START_TEST(matmul_wgmma_store_tma)
{
	char *src = source("kernel: matmul\ndtype: bf16\nmath: wgmma\nproducer: warpgroup\nconsumers: 2\ntile_n: 256\n"
	                   "store: tma\n");

	ASSERT_HAS(src, "// Kernels (extern \"C\"), one of the first four a call (by beta and C's alignment), for C");
	ASSERT_HAS(src, "//   matmul_wgmma_bf16(a_map, b_map, c_map, c, m, n, k, ldc, ep)  <<<grid, 384, 230400>>>");
	ASSERT_HAS(src, "//   matmul_wgmma_bf16_beta(a_map, b_map, c_map, c, m, n, k, ldc, ep)  <<<grid, 384, 230400>>>  "
	                "beta != 0 (C read and scaled)\n");
	ASSERT_HAS(src, "//   matmul_wgmma_bf16_unaligned(a_map, b_map, c_map, c_tma, c, m, n, k, ldc, ep)  <<<grid, 384, "
	                "230400>>>  beta 0, c_tma 0\n");
	ASSERT_HAS(src, "//   matmul_wgmma_bf16_beta_unaligned(a_map, b_map, c_map, c_tma, c, m, n, k, ldc, ep)  <<<grid, 384, "
	                "230400>>>  beta != 0, c_tma 0\n");
	ASSERT_HAS(src, "//   matmul_wgmma_bf16_repack(src, ld, dst, pitch, rows, width)  <<<grid_r, 256>>>  unaligned: repack, "
	                "before the call's kernel\n");
	ASSERT_HAS(src, "//   c_map: C (row-major, bf16, CU_TENSOR_MAP_SWIZZLE_128B): dims {n, m}, stride {ldc * 2},\n"
	                "//   box {64, 64}, c_tma 1 (also with k = 0)");
	ASSERT_HAS(src, "template <bool READ_C>\nstatic __device__ __forceinline__ void wgmma_work(\n"
	                "    const CUtensorMap &a_map, const CUtensorMap &b_map, const CUtensorMap &c_map, int c_tma,\n"
	                "    Out *__restrict__ c, int m, int n, int k, long long ldc, const Epilogue &ep)\n{\n");
	ASSERT_HAS(src, "extern \"C\" __global__ void __launch_bounds__(THREADS, 1) matmul_wgmma_bf16(\n"
	                "    const __grid_constant__ CUtensorMap a_map, const __grid_constant__ CUtensorMap b_map,\n"
	                "    const __grid_constant__ CUtensorMap c_map, Out *__restrict__ c, int m, int n, int k, long long ldc,\n"
	                "    const Epilogue ep)\n{\n    wgmma_work<false>(a_map, b_map, c_map, 1, c, m, n, k, ldc, ep);\n}\n");
	ASSERT_HAS(src, ") matmul_wgmma_bf16_beta(\n");
	ASSERT_HAS(src, "    wgmma_work<true>(a_map, b_map, c_map, 1, c, m, n, k, ldc, ep);\n}\n");
	ASSERT_HAS(src, ") matmul_wgmma_bf16_unaligned(\n"
	                "    const __grid_constant__ CUtensorMap a_map, const __grid_constant__ CUtensorMap b_map,\n"
	                "    const __grid_constant__ CUtensorMap c_map, int c_tma, Out *__restrict__ c, int m, int n, int k,\n"
	                "    long long ldc, const Epilogue ep)\n{\n    wgmma_work<false>(a_map, b_map, c_map, c_tma, c, m, n, k, "
	                "ldc, ep);\n}\n");
	ASSERT_HAS(src, "    wgmma_work<true>(a_map, b_map, c_map, c_tma, c, m, n, k, ldc, ep);\n}\n");
	ASSERT_HAS_NOT(src, "ep.beta != (Acc)0");  /* beta is the kernel's: no branch in the tile's code */
	ASSERT_HAS(src, "unsigned char *const cs = bs + STAGES * B_STAGE;");
	ASSERT_HAS(src, "store_tile_tma<READ_C>(&c_map, c_tma, cs + (threadIdx.x / 128 - 1) * 2 * BUFFER, &stored, c, acc, m, "
	                "n, ldc,");
	ASSERT_HAS(src, "tma_store_2d(c_map, buf, col0 + chunk * CHUNK, row0);");
	ASSERT_HAS(src, "warpgroup_sync(barrier);");
	ASSERT_HAS(src, "bulk_wait_group_read<1>();");
	ASSERT_HAS(src, "bulk_wait_group();  // the warpgroup's last stores done");
	ASSERT_HAS(src, "        if (!c_tma)\n            copy_chunk(c, buf, m, n, ldc, row0, col0 + chunk * CHUNK);\n"
	                "        else if (t == 0) {");
	ASSERT_HAS_NOT(src, "OutPair");
	ASSERT_HAS_NOT(src, "store_c(");  /* nor the element stores no kernel calls */
	ASSERT_HAS(src, "//   stages: 4");
	free(src);
	src = source("kernel: matmul\ndtype: bf16\nmath: wgmma\nproducer: warpgroup\nconsumers: 2\ntile_m: 256\n"
	             "tile_n: 128\nstore: tma\nout_dtype: f32\n");
	ASSERT_HAS(src, "//   stages: 3");  /* 4 would not fit beside the buffers */
	ASSERT_HAS(src, "//   c_map: C (row-major, f32, CU_TENSOR_MAP_SWIZZLE_128B): dims {n, m}, stride {ldc * 4},\n"
	                "//   box {32, 128}, c_tma 1 (also with k = 0)");
	free(src);
	src = source("kernel: matmul\ndtype: bf16\nmath: wgmma\nproducer: warpgroup\nstore: pairs\n");
	ASSERT_HAS_NOT(src, "c_map");
	free(src);
	/* In clusters: the same buffers after the stages (at the same offsets in both blocks). */
	src = source("kernel: matmul\ndtype: bf16\nmath: wgmma\nproducer: warpgroup\nconsumers: 2\ntile_n: 256\n"
	             "store: tma\ncluster: 2x1\n");
	ASSERT_HAS(src, "matmul_wgmma_bf16(a_map, b_map, c_map, c, m, n, k, ldc, ep)  <<<grid, 384, 230400>>>");
	ASSERT_HAS(src, "matmul_wgmma_bf16_beta_unaligned(a_map, b_map, c_map, c_tma, c, m, n, k, ldc, ep)  <<<grid, 384, "
	                "230400>>>");
	ASSERT_HAS(src, "// launched in clusters of 2 x 1 x 1 blocks");
	ASSERT_HAS(src, "    const CUtensorMap &a_map, const CUtensorMap &b_map, const CUtensorMap &c_map, int c_tma,\n");
	ASSERT_HAS(src, "unsigned char *const cs = bs + STAGES * B_STAGE;");
	ASSERT_HAS(src, "store_tile_tma<READ_C>(&c_map, c_tma, cs + (threadIdx.x / 128 - 1) * 2 * BUFFER, &stored, c, acc, m, "
	                "n, ldc,");
	ASSERT_HAS(src, "bulk_wait_group();  // the warpgroup's last stores done");
	ASSERT_HAS(src, "auto release = [&](unsigned int i) { consumer_release(empty, i, rank); };");
	free(src);
}
END_TEST

/* cluster: 2x1 shares B (each block loads half its boxes and multicasts
 * them), 1x2 shares A (a K-major A as two half boxes); both blocks release
 * a stage in each other's empty mbarriers and meet at cluster barriers. */
START_TEST(matmul_wgmma_cluster)
{
	char *src = source("kernel: matmul\ndtype: bf16\nmath: wgmma\nproducer: warpgroup\nconsumers: 2\ntile_n: 256\n"
	                   "cluster: 2x1\n");

	ASSERT_HAS(src, "constexpr int CLUSTER_M = 2, CLUSTER_N = 1;  // a cluster's blocks, as tiles down x across; they share B");
	ASSERT_HAS(src, "//   b_map: dims {n, k}, stride {ldb * 2}, box {64, 64}");
	ASSERT_HAS(src, "// launched in clusters of 2 x 1 x 1 blocks (cuLaunchKernelEx, CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION),");
	ASSERT_HAS(src, "for (int j = rank; j < b_boxes; j += 2)  // block `rank` loads every other box for both");
	ASSERT_HAS(src, "    tma_load_2d_multicast(bs + j * B_BOX, b_map, col0 + 64 * j, k0, full, 0x3);");
	ASSERT_HAS(src, "const int a_boxes = row0 < m;  // A row-major: one box of TILE_M rows of 64 k, if in A");
	ASSERT_HAS(src, "row0 = row0 * CLUSTER_M + (int)rank * TILE_M;  // the pair's tiles lie one above the other");
	ASSERT_HAS(src, "mbarrier_init(&empty[s], 2 * CONSUMERS);  // the consumer warpgroups of both blocks");
	ASSERT_HAS(src, "const unsigned int rank = blockIdx.x % 2;");
	ASSERT_HAS(src, "block_tile(pair, m, n, rank, row0, col0);\n"
	                "                for (int kt = 0; kt < k_tiles; kt++, i++)\n"
	                "                    issue_load(i, &a_map, &b_map, as, bs, full, empty, m, n, row0, col0, kt * TILE_K, rank);");
	ASSERT_HAS(src, "if (threadIdx.x % 128 == 0) {\n        mbarrier_arrive(&empty[i % STAGES]);");
	ASSERT_HAS(src, "mbarrier_arrive_cluster(&empty[i % STAGES], rank ^ 1);");
	ASSERT_HAS(src, "cluster_sync();  // both blocks' mbarriers ready before either's loads or arrivals reach them");
	ASSERT_HAS(src, "auto release = [&](unsigned int i) { consumer_release(empty, i, rank); };");
	free(src);
	src = source("kernel: matmul\ndtype: bf16\nmath: wgmma\nproducer: warpgroup\ncluster: 1x2\nb_layout: col\n");
	ASSERT_HAS(src, "constexpr int A_BOX = A_STAGE / 2;");
	ASSERT_HAS(src, "constexpr int B_BOX = B_STAGE;");
	ASSERT_HAS(src, "//   a_map: dims {k, m}, stride {lda * 2}, box {64, 64}");
	ASSERT_HAS(src, "//   b_map: dims {k, n}, stride {ldb * 2}, box {64, 128}");
	ASSERT_HAS(src, "const int a_boxes = row0 + TILE_M / 2 < m ? 2 : 1;");
	ASSERT_HAS(src, "    tma_load_2d_multicast(as + rank * A_BOX, a_map, k0, row0 + rank * (TILE_M / 2), full, 0x3);");
	ASSERT_HAS(src, "const int b_boxes = col0 < n;  // B column-major: one box of TILE_N rows of 64 k, if in B");
	ASSERT_HAS(src, "col0 = col0 * CLUSTER_N + (int)rank * TILE_N;  // the pair's tiles lie side by side");
	free(src);
	src = source("kernel: matmul\ndtype: bf16\nmath: wgmma\nproducer: warpgroup\n");
	ASSERT_HAS_NOT(src, "CLUSTER_M");
	ASSERT_HAS_NOT(src, "cluster_sync");
	free(src);
}
END_TEST

/* math: wgmma needs sm_90a itself: older and newer architectures are
 * refused at the key (sm_90 is compiled as sm_90a: fake_test, nvrtc_test). */
START_TEST(matmul_wgmma_needs_sm_90a)
{
	kgen_spec *spec = load("kernel: matmul\ndtype: bf16\nmath: wgmma\n");
	kgen_error err;

	ck_assert_int_eq(kgen_spec_check_arch(spec, "sm_80", &err), KGEN_ESPEC);
	ck_assert_str_eq(err.message, "math: wgmma needs sm_90a (wgmma.mma_async, TMA and mbarriers), not sm_80: use math: mma");
	ck_assert_int_eq(err.line, 3);
	ck_assert_int_eq(err.column, 7);
	ck_assert_int_eq(kgen_spec_check_arch(spec, "sm_100", &err), KGEN_ESPEC);
	ck_assert_int_eq(kgen_spec_check_arch(spec, "sm_90", &err), KGEN_OK);
	ck_assert_int_eq(kgen_spec_check_arch(spec, "sm_90a", &err), KGEN_OK);
	ck_assert_int_eq(kgen_spec_check_arch(spec, "compute_90", &err), KGEN_OK);
	kgen_spec_free(spec);
}
END_TEST

/* loads: tma: thread 0 copies each tile as TMA boxes (the operands'
 * layouts decide the boxes' coordinates), the warps wait on the stage's
 * full mbarrier and release it on its empty one, the fragments read the
 * tiles in TMA's swizzle; the kernel takes the maps as math: wgmma's does.
 * It needs sm_90 (not sm_90a). */
START_TEST(matmul_mma_tma_loads)
{
	const char *mma = "kernel: matmul\ndtype: bf16\nmath: mma\ntile_k: 64\nsmem_layout: swizzled\nstages: 3\n";
	char yaml[256];
	char *src;
	kgen_spec *spec;
	kgen_error err;

	snprintf(yaml, sizeof yaml, "%sloads: tma\n", mma);
	src = source(yaml);
	ASSERT_HAS(src, "//   loads: tma\n");
	ASSERT_HAS(src, "// Needs: sm_90 or newer (math: mma, stages: 3, loads: tma).");
	ASSERT_HAS(src, "matmul_mma_bf16(a_map, b_map, c, m, n, k, ldc, ep)  <<<grid, 128, 99376>>>");
	ASSERT_HAS(src, "//   a_map: dims {k, m}, stride {lda * 2}, box {64, 128}\n");
	ASSERT_HAS(src, "//   b_map: dims {n, k}, stride {ldb * 2}, box {64, 64}\n");
	ASSERT_HAS(src, "(const __grid_constant__ CUtensorMap a_map,");
	ASSERT_HAS(src, "constexpr int A_BOX = 128 * BOX, B_BOX = 64 * BOX;");
	ASSERT_HAS(src, "tma_load_2d(as + i * A_BOX, a_map, kt + i * BOX, row0, bar);");
	ASSERT_HAS(src, "tma_load_2d(bs + i * B_BOX, b_map, col0 + i * BOX, kt, bar);");
	ASSERT_HAS(src, "mbarrier_wait(&empty[write], (fetched / STAGES - 1) % 2);");
	ASSERT_HAS(src, "mbarrier_arrive(&empty[stage]);");
	ASSERT_HAS(src, "mbarrier_wait(&full[read], (t + 1) / STAGES % 2);");
	ASSERT_HAS(src, "swizzle_tma<A_TILE / A_LD>(wm + i * 16 + lane % 16, kk + lane / 16 * 8)");
	ASSERT_HAS(src, "store_elements(c, nullptr, acc,");
	ASSERT_HAS_NOT(src, "cp_async");
	ASSERT_HAS_NOT(src, "load_width");
	ASSERT_HAS_NOT(src, "swizzle_at");
	ASSERT_HAS_NOT(src, "__syncthreads();              // everyone's");
	free(src);
	snprintf(yaml, sizeof yaml, "%sloads: tma\na_layout: col\nb_layout: col\ntile_m: 64\nwarp_m: 32\n", mma);
	src = source(yaml);
	ASSERT_HAS(src, "//   a_map: dims {m, k}, stride {lda * 2}, box {64, 64}\n");
	ASSERT_HAS(src, "//   b_map: dims {k, n}, stride {ldb * 2}, box {64, 128}\n");
	ASSERT_HAS(src, "tma_load_2d(as + i * A_BOX, a_map, row0 + i * BOX, kt, bar);");
	ASSERT_HAS(src, "tma_load_2d(bs + i * B_BOX, b_map, kt + i * BOX, col0, bar);");
	free(src);
	src = source(mma);  /* loads: cp_async, the default: the kernel as it was */
	ASSERT_HAS(src, "//   loads: cp_async\n");
	ASSERT_HAS(src, "cp_async_wait<STAGES - 2>();");
	ASSERT_HAS_NOT(src, "mbarrier");
	free(src);
	src = source("kernel: matmul\ndtype: bf16\nmath: mma\n");  /* stages: 1: loads does not apply */
	ASSERT_HAS_NOT(src, "loads:");
	free(src);
	snprintf(yaml, sizeof yaml, "%sloads: tma\n", mma);
	spec = load(yaml);
	ck_assert_int_eq(kgen_spec_check_arch(spec, "sm_80", &err), KGEN_ESPEC);
	ck_assert_str_eq(err.message, "loads: tma needs sm_90 or newer (TMA and mbarrier waits), not sm_80: use loads: cp_async");
	ck_assert_int_eq(err.line, 7);
	ck_assert_int_eq(err.column, 8);
	ck_assert_int_eq(kgen_spec_check_arch(spec, "sm_90", &err), KGEN_OK);
	kgen_spec_free(spec);
}
END_TEST

/* blocks_per_sm: __launch_bounds__'s minimum of blocks an SM, which caps the
 * registers; without it simt and wmma leave them to the compiler and mma
 * asks for one block (up to 255 registers). */
START_TEST(matmul_blocks_per_sm_bounds_the_registers)
{
	char *src = source("kernel: matmul\nthread_m: 8\nthread_n: 8\nblocks_per_sm: 4\n");

	ASSERT_HAS(src, "constexpr int MIN_BLOCKS = 4;  // blocks an SM holds at once: at most 65536 / (MIN_BLOCKS * "
	                "THREADS) registers a thread");
	ASSERT_HAS(src, "__launch_bounds__(THREADS, MIN_BLOCKS) matmul_simt_f32(");
	ASSERT_HAS(src, "//   blocks_per_sm: 4");
	free(src);
	src = source("kernel: matmul\ndtype: bf16\nmath: mma\nblocks_per_sm: 2\n");
	ASSERT_HAS(src, "__launch_bounds__(THREADS, MIN_BLOCKS) matmul_mma_bf16(");
	free(src);
	src = source("kernel: matmul\ndtype: bf16\nmath: mma\n");
	ASSERT_HAS(src, "__launch_bounds__(THREADS, 1) matmul_mma_bf16(");
	ASSERT_HAS_NOT(src, "MIN_BLOCKS");
	free(src);
	src = source("kernel: matmul\n");
	ASSERT_HAS(src, "__launch_bounds__(THREADS) matmul_simt_f32(");
	ASSERT_HAS(src, "//   blocks_per_sm: 0");
	free(src);
}
END_TEST

/* math: mma, store: pairs: a warp's tile inside C as pairs of columns, one
 * store each; the element-by-element loop at the edges; bf16 rounded by cvt
 * in every tensor-core kernel. */
START_TEST(matmul_mma_store_pairs)
{
	char *src = source("kernel: matmul\ndtype: bf16\nmath: mma\nstages: 3\nstore: pairs\n");

	ASSERT_HAS(src, "store_warp(c, acc, m, n, ldc, row0 + wm, col0 + wn, lane, ep);");
	ASSERT_HAS(src, "const bool inside = row0 + WARP_M <= m && col0 + WARP_N <= n;");
	ASSERT_HAS(src, "store_pair(line + 8 * j, row, col0 + 8 * j + cc, acc[i][j][2 * h], acc[i][j][2 * h + 1], ep);");
	ASSERT_HAS(src, "*reinterpret_cast<OutPair *>(p) = pair;");
	ASSERT_HAS(src, "    store_elements(c, nullptr, acc, m, n, ldc, row0, col0, lane, ep);\n}");  /* the edges */
	ASSERT_HAS(src, "store_result(c, partials, m, n, ldc, row, col, acc[i][j][e], ep);");
	ASSERT_HAS(src, "asm(\"cvt.rn.bf16.f32 %0, %1;\" : \"=h\"(h) : \"f\"((float)v));");
	free(src);
	/* store: direct: the same element-by-element loop for every tile, with the scratch of split_k. */
	src = source("kernel: matmul\ndtype: bf16\nmath: mma\n");
	ASSERT_HAS_NOT(src, "store_warp");
	ASSERT_HAS(src, "store_elements(c, partials, acc, m, n, ldc, row0 + wm, col0 + wn, lane, ep);");
	ASSERT_HAS(src, "store_result(c, partials, m, n, ldc, row, col, acc[i][j][e], ep);");
	free(src);
	src = source("kernel: matmul\nout_dtype: bf16\n");  /* simt: no sm_80 instruction */
	ASSERT_HAS_NOT(src, "cvt.rn.bf16");
	ASSERT_HAS(src, "return (unsigned short)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);");
	free(src);
}
END_TEST

START_TEST(matmul_split_k_and_epilogue)
{
	char *src = source("kernel: matmul\nsplit_k: 4\nepilogue: fmaxf(v, 0.0f) + c * (float)(row + col)\n");

	ASSERT_HAS(src, "constexpr int SPLIT_K = 4;");
	ASSERT_HAS(src, "partials[((long long)blockIdx.z * m + row) * n + col] = acc;");
	ASSERT_HAS(src, "matmul_simt_f32_reduce(const Acc *__restrict__ partials");
	ASSERT_HAS(src, "    return fmaxf(v, 0.0f) + c * (float)(row + col);\n}");
	ASSERT_HAS(src, "//   1. matmul_simt_f32(a, b, c, m, n, k, lda, ldb, ldc, ep, aligned, partials)");
	ASSERT_HAS(src, "// Scratch: partials, 4 x m x n f32");
	free(src);
	src = source("kernel: matmul\norder: grouped\ngroup: 4\n");
	ASSERT_HAS(src, "constexpr int GROUP = 4;");
	free(src);
}
END_TEST

/* schedule: stream_k: one kernel whose blocks below dp_tiles take a tile
 * whole and whose others loop over units of the shared k tiles, handing
 * partial sums on (finish_tile); schedule: tiles (the default) has none of
 * it, and its kernel is the one it always was. */
START_TEST(matmul_stream_k_shares_the_last_tiles)
{
	char *src = source("kernel: matmul\nstaging: smem\nwarp_m: 32\nwarp_n: 64\nthread_m: 8\nthread_n: 8\n"
	                   "stages: 3\nload_width: 16\nschedule: stream_k\n");
	char *mma;

	ASSERT_HAS(src, "int aligned, Acc *partials, int dp_tiles, int sk_blocks)");
	ASSERT_HAS(src, "for (Unit u = first_unit(m, n, k, dp_tiles, sk_blocks); u.tile >= 0; u = next_unit(u, m, n, k, "
	           "dp_tiles, sk_blocks)) {");
	ASSERT_HAS(src, "if (!finish_tile<THREAD_M * THREAD_N>(&acc[0][0], partials, u, m, n, k, dp_tiles, sk_blocks))");
	ASSERT_HAS(src, "static __device__ __forceinline__ void tile_origin(int tile, int m, int n, int &row0, int &col0)");
	ASSERT_HAS(src, "last = atomicAdd(&tickets[u.tile - w.dp_tiles], 1u) == (unsigned int)(to - from);");
	ASSERT_HAS(src, "// k_tiles = ceil(k / 8), and grid = dp_tiles + sk_blocks: blocks below dp_tiles take tile");
	ASSERT_HAS(src, "// Scratch: partials, 2 x sk_blocks x ");
	ASSERT_HAS_NOT(src, "k_range(");
	free(src);
	mma = source("kernel: matmul\ndtype: bf16\nmath: mma\nstages: 3\nstore: pairs\nschedule: stream_k\n");
	ASSERT_HAS(mma, "if (!finish_tile<MMA_M * MMA_N * 4>(&acc[0][0][0], partials, u, m, n, k, dp_tiles, sk_blocks))");
	ASSERT_HAS(mma, "store_warp(c, acc, m, n, ldc, row0 + wm, col0 + wn, lane, ep);");
	free(mma);
	src = source("kernel: matmul\nstaging: smem\nstages: 3\nload_width: 16\n");
	ASSERT_HAS(src, "k_range(k, k0, k1);");
	ASSERT_HAS(src, "int aligned, Acc *partials)");
	ASSERT_HAS_NOT(src, "finish_tile");
	ASSERT_HAS_NOT(src, "dp_tiles");
	free(src);
}
END_TEST

/* How kgen_matmul divides a launch (the numbers the kernel's header states). */
/* The family's one tile rule (header and launcher): C's tiles, a
 * cluster's tile pairs, k tiles, a shared operand's half boxes; and the
 * resolved view's types, which the emitter and the launchers read. */
START_TEST(matmul_tiles_and_view)
{
	kgen_spec *spec = load("kernel: matmul\ndtype: bf16\nmath: wgmma\nproducer: warpgroup\ncluster: 1x2\n");

	ck_assert_uint_eq(kgen_matmul_tiles(spec, 1000, 1000), 8 * 8);      /* 128 x 128 tiles */
	ck_assert_uint_eq(kgen_matmul_tiles(spec, 128, 129), 2);
	ck_assert_uint_eq(kgen_matmul_tile_pairs(spec, 1000, 1000), 8 * 4);  /* side by side: 128 x 256 */
	ck_assert_uint_eq(kgen_matmul_k_tiles(spec, 65), 2);
	ck_assert_uint_eq(kgen_matmul_k_tiles(spec, 0), 0);
	ck_assert_int_eq(kgen_matmul_a_box_rows(spec), 64);                 /* A shared: each block loads half */
	ck_assert_int_eq(kgen_matmul_b_box_rows(spec), 128);
	ck_assert_str_eq(spec->r.dtype->name, "bf16");
	ck_assert_str_eq(spec->r.acc->name, "f32");
	ck_assert_str_eq(spec->r.out->name, "bf16");
	kgen_spec_free(spec);
	spec = load("kernel: matmul\ndtype: f64\nout_dtype: f32\n");
	ck_assert_str_eq(spec->r.acc->name, "f64");
	ck_assert_str_eq(spec->r.out->name, "f32");
	ck_assert_uint_eq(kgen_matmul_tile_pairs(spec, 1000, 33), kgen_matmul_tiles(spec, 1000, 33));  /* no cluster */
	kgen_spec_free(spec);
}
END_TEST

START_TEST(matmul_stream_k_division)
{
	unsigned long long dp, sk;

	kgen_matmul_stream_k(4096, 128, 264, &dp, &sk);  /* 8192^3 of 128 x 128 tiles, 2 blocks on 132 SMs */
	ck_assert_uint_eq(dp, 4096 - 264 - 136);        /* 14 waves whole, 1.5 shared */
	ck_assert_uint_eq(sk, 264);
	kgen_matmul_stream_k(2048, 256, 396, &dp, &sk);  /* 4096^3 of 64 x 128 x 16 tiles, 3 blocks on 132 SMs */
	ck_assert_uint_eq(dp, 2048 - 396 - 68);
	ck_assert_uint_eq(sk, 396);
	kgen_matmul_stream_k(1, 65536, 396, &dp, &sk);   /* one tile, deep k: all of it shared */
	ck_assert_uint_eq(dp, 0);
	ck_assert_uint_eq(sk, 396);
	kgen_matmul_stream_k(10, 8, 396, &dp, &sk);      /* runs of at least 4 k tiles: 20 blocks */
	ck_assert_uint_eq(dp, 0);
	ck_assert_uint_eq(sk, 20);
	kgen_matmul_stream_k(100, 6, 396, &dp, &sk);     /* 150 runs of 4 would barely beat a block a tile: 150 */
	ck_assert_uint_eq(sk, 150);
	kgen_matmul_stream_k(100, 4, 396, &dp, &sk);     /* 100 runs: no more blocks than tiles, so a block a tile */
	ck_assert_uint_eq(dp, 100);
	ck_assert_uint_eq(sk, 0);
	kgen_matmul_stream_k(528, 64, 264, &dp, &sk);    /* whole waves */
	ck_assert_uint_eq(dp, 528);
	ck_assert_uint_eq(sk, 0);
	kgen_matmul_stream_k(300, 1, 264, &dp, &sk);     /* one k tile: nothing to share */
	ck_assert_uint_eq(sk, 0);
	kgen_matmul_stream_k(1, 1ull << 27, 396, &dp, &sk);  /* the kernel's 32-bit numbering would overflow */
	ck_assert_uint_eq(dp, 1);
	ck_assert_uint_eq(sk, 0);
	kgen_matmul_stream_k(300, 0, 0, &dp, &sk);
	ck_assert_uint_eq(dp, 300);
	ck_assert_uint_eq(sk, 0);
}
END_TEST

/* ---- rules ---- */

#define MM "kernel: matmul\n"
static const struct refusal matmul_refusals[] = {
	{ "check_matmul_dtype_is_float", MM "dtype: i32\n",
	  "matmul multiplies floating types: dtype must be f32, f64, f16, bf16, e4m3 or e5m2, not i32", 2, 8, "dtype: i32" },
	{ "check_matmul_acc_dtype", MM "acc_dtype: i64\n", "acc_dtype i64: matmul accumulates in f32 or f64", 2, 12,
	  "acc_dtype: i64" },
	{ "check_matmul_acc_dtype", MM "dtype: f64\nacc_dtype: f32\nload_width: 16\n",
	  "acc_dtype f32 is narrower than dtype f64", 3, 12, "acc_dtype: f32" },
	{ "check_matmul_out_dtype", MM "out_dtype: i32\n", "out_dtype must be f32, f64, f16 or bf16, not i32", 2, 12,
	  "out_dtype: i32" },
	{ "check_matmul_fp8_b_dtype", MM "dtype: e4m3\nb_dtype: bf16\n",
	  "b_dtype bf16: B beside an fp8 A is e4m3 or e5m2 (wgmma multiplies fp8 by fp8)", 3, 10, "b_dtype: bf16" },
	{ "check_matmul_fp8_needs_wgmma", MM "dtype: e4m3\nmath: mma\n",
	  "dtype e4m3 multiplies on Hopper's fp8 tensor cores: use math: wgmma, not mma", 3, 7, "math: mma" },
	{ "check_matmul_fp8_b_k_major", MM "dtype: e5m2\nb_layout: row\n",
	  "dtype e5m2: wgmma reads fp8 operands K-major only (k contiguous): a row-major B needs transposing first; use "
	  "b_layout: col (B stored n x k, as torch._scaled_mm takes b.t())", 3, 11, "b_layout: row" },
	{ "check_matmul_fp8_a_k_major", MM "dtype: e4m3\na_layout: col\n",
	  "dtype e4m3: wgmma reads fp8 operands K-major only (k contiguous): a column-major A needs transposing first; "
	  "use a_layout: row (A stored m x k)", 3, 11, "a_layout: col" },
	{ "check_matmul_fp8_no_fallback", MM "dtype: e4m3\nunaligned: fallback\n",
	  "unaligned: fallback runs an mma.sync kernel, which kgen has for f16 and bf16, not e4m3: use unaligned: repack "
	  "(the default) or refuse", 3, 12, "unaligned: fallback" },
	{ "check_matmul_fp8_acc", MM "dtype: e4m3\nacc_dtype: f64\n",
	  "math: wgmma accumulates in f32, not acc_dtype f64", 3, 12, "acc_dtype: f64" },
	{ "check_matmul_fp8_staging", MM "dtype: e4m3\nstaging: none\n",
	  "math: wgmma multiplies tiles in shared memory: use staging: smem", 3, 10, "staging: none" },
	{ "check_matmul_fp8_out", MM "dtype: e4m3\nout_dtype: e4m3\n",
	  "out_dtype e4m3: fp8 is a type of matmul's operands A and B (dtype, b_dtype); C is f32, f64, f16 or bf16", 3,
	  12, "out_dtype: e4m3" },
	{ "check_matmul_fp8_bias", MM "dtype: e4m3\nbias: col\nbias_dtype: e5m2\nepilogue: v + bias\n",
	  "bias_dtype e5m2: fp8 is a type of matmul's operands A and B (dtype, b_dtype); an epilogue operand is f32, f64, "
	  "f16 or bf16", 4, 13, "bias_dtype: e5m2" },
	{ "check_matmul_scale_needs_fp8", MM "dtype: bf16\nscale: tensor\n",
	  "scale needs dtype e4m3 or e5m2, not bf16 (the scales of fp8 operands)", 3, 8, "scale: tensor" },
	{ "check_matmul_b_dtype_needs_fp8", MM "dtype: bf16\nb_dtype: e4m3\n",
	  "b_dtype needs dtype e4m3 or e5m2, not bf16 (B has A's type but with fp8 operands, which may mix e4m3 and "
	  "e5m2)", 3, 10, "b_dtype: e4m3" },
	{ "check_matmul_fp8_accum_needs_fp8", MM "fp8_accum: fast\n",
	  "fp8_accum needs dtype e4m3 or e5m2, not f32", 2, 12, "fp8_accum: fast" },
	{ "check_matmul_fp8_promote_registers", MM "dtype: e4m3\ntile_n: 256\n",
	  "fp8_accum: promote (the default) keeps two sets of accumulators, a k tile's and the f32 sums: a consumer "
	  "warpgroup's 64 x 256 of the tile takes 2 x 128 a thread, over the 128 that fit: use fp8_accum: fast or a "
	  "smaller tile (128 x 128)", 3, 9, "tile_n: 256" },
	{ "check_matmul_block_scale_promotes", MM "dtype: e4m3\nscale: block\nfp8_accum: fast\n",
	  "scale: block applies A's and B's scales to each k tile's sums as fp8_accum: promote adds them: use fp8_accum: "
	  "promote, not fast", 3, 8, "scale: block" },
	{ "check_matmul_block_scale_tile_n", MM "dtype: e4m3\nscale: block\ntile_n: 192\nfp8_accum: promote\n"
	  "consumers: 2\ntile_m: 128\n",
	  "scale: block takes one of B's scales a 128 x 128 block: tile_n 192 is not 64 or 128", 3, 8, "scale: block" },
	{ "check_matmul_block_scale_split", MM "dtype: e4m3\nscale: block\nproducer: warpgroup\nsplit_k: 2\n"
	  "split_reduce: kernel\n",
	  "scale: block reads each k tile's scales by its place in k: it needs split_k 1, not 2", 3, 8, "scale: block" },
	{ "check_matmul_fp8_tile_k", MM "dtype: e4m3\ntile_k: 64\n",
	  "math: wgmma loads k in boxes of 128 bytes (one swizzle row: 64 16-bit elements or 128 fp8): tile_k must be "
	  "128 for e4m3, not 64", 3, 9, "tile_k: 64" },
	{ "check_matmul_tensor_needs_half", MM "math: mma\n",
	  "math: mma multiplies f16 or bf16 on tensor cores, not dtype f32: use math: simt", 2, 7, "math: mma" },
	{ "check_matmul_tensor_needs_f32_acc", MM "dtype: f16\nmath: wmma\nacc_dtype: f64\n",
	  "math: wmma accumulates in f32, not acc_dtype f64", 4, 12, "acc_dtype: f64" },
	{ "check_matmul_tensor_needs_smem", MM "dtype: f16\nmath: wmma\nstaging: none\n",
	  "math: wmma multiplies tiles in shared memory: use staging: smem", 4, 10, "staging: none" },
	{ "only_with_thread_map", MM "thread_map: rows\n",
	  "thread_map needs staging: none (a tiled kernel places its threads by its tiles)", 2, 13, "thread_map: rows" },
	{ "only_with_tile_k", MM "staging: none\ntile_k: 8\n",
	  "tile_k needs staging: smem (staging: none reads all of k at once)", 3, 9, "tile_k: 8" },
	{ "only_with_thread_m", MM "dtype: f16\nmath: mma\nthread_m: 4\n",
	  "thread_m needs math: simt (a tensor-core warp owns its fragments)", 4, 11, "thread_m: 4" },
	{ "only_with_a_smem", MM "staging: none\na_smem: transposed\n", "a_smem needs staging: smem", 3, 9,
	  "a_smem: transposed" },
	{ "only_with_smem_layout", MM "dtype: f16\nmath: wmma\nsmem_layout: swizzled\n",
	  "smem_layout needs math: mma (simt and wmma tiles keep their padded rows)", 4, 14, "smem_layout: swizzled" },
	{ "only_with_stages", MM "staging: none\nstages: 2\n",
	  "stages needs staging: smem (it buffers tiles in shared memory)", 3, 9, "stages: 2" },
	{ "only_with_split_k", MM "staging: none\nsplit_k: 2\n", "split_k needs staging: smem", 3, 10, "split_k: 2" },
	{ "only_with_group", MM "group: 4\n", "group needs order: grouped or hilbert, not rows", 2, 8, "group: 4" },
	{ "only_with_load_width", MM "staging: none\nload_width: 4\n",
	  "load_width needs staging: smem (staging: none reads one element at a time)", 3, 13, "load_width: 4" },
	{ "check_matmul_staging_none_threads", MM "staging: none\ntile_m: 64\ntile_n: 64\n",
	  "a 64 x 64 tile takes 4096 threads: a block needs a multiple of 32, at most 1024", 3, 9, "tile_m: 64" },
	{ "check_matmul_thread_tile_pow2", MM "thread_m: 3\n", "thread_m 3 is not a power of two (1, 2, 4, 8 or 16)", 2,
	  11, "thread_m: 3" },
	{ "check_matmul_tile_multiple_of_thread", MM "tile_m: 34\n", "tile_m 34 is not a multiple of thread_m 4", 2, 9,
	  "tile_m: 34" },
	{ "check_matmul_warp_tile_both", MM "warp_m: 32\n", "warp_m needs warp_n: warp tiling takes both", 2, 9,
	  "warp_m: 32" },
	{ "check_matmul_warp_tile_is_a_warp", MM "warp_m: 64\nwarp_n: 64\n",
	  "a 64 x 64 warp tile of 4 x 4 per thread takes 256 threads, not a warp's 32", 2, 9, "warp_m: 64" },
	{ "check_matmul_warp_tile_divides_tile", MM "tile_m: 64\nwarp_m: 48\nwarp_n: 32\n",
	  "tile_m 64 is not a multiple of warp_m 48", 3, 9, "warp_m: 48" },
	{ "check_matmul_registers_simt", MM "tile_m: 128\ntile_n: 128\nthread_m: 16\nthread_n: 16\n",
	  "a 16 x 16 thread tile of f32 keeps 256 registers of accumulators in each thread: at most 128 fit beside the "
	  "operands (e.g. 8 x 8 of f32)", 4, 11, "thread_m: 16" },
	{ "check_matmul_registers_f64", MM "dtype: f64\ntile_m: 128\ntile_n: 64\nthread_m: 16\nthread_n: 8\n",
	  "a 16 x 8 thread tile of f64 keeps 256 registers of accumulators in each thread: at most 128 fit beside the "
	  "operands (e.g. 8 x 8 of f32)", 5, 11, "thread_m: 16" },
	{ "check_matmul_registers_tensor", MM "dtype: bf16\nmath: mma\ntile_m: 256\ntile_n: 256\nwarp_m: 256\nwarp_n: 256\n",
	  "a 256 x 256 warp tile keeps 2048 f32 accumulators in each of its 32 threads: at most 128 fit beside the "
	  "fragments (e.g. warp_m: 64, warp_n: 64)", 6, 9, "warp_m: 256" },
	{ "check_matmul_tensor_tile_k", MM "dtype: bf16\nmath: mma\ntile_k: 8\n",
	  "math: mma steps k by 16: tile_k 8 is not a multiple of 16", 4, 9, "tile_k: 8" },
	{ "check_matmul_tensor_warp", MM "dtype: bf16\nmath: mma\nwarp_m: 24\n",
	  "math: mma computes 16-row fragments: warp_m 24 is not a multiple of 16", 4, 9, "warp_m: 24" },
	{ "check_matmul_threads_derived", MM "threads: 128\n", "threads 128: the tiles take 256; drop threads", 2, 10,
	  "threads: 128" },
	{ "check_matmul_load_width", MM "load_width: 3\n",
	  "load_width 3 must be the element size (4 bytes for f32) times a power of two, at most 16", 2, 13,
	  "load_width: 3" },
	{ "check_matmul_load_width_divides_tile", MM "tile_k: 2\nthread_m: 2\n",
	  "load_width 16 loads 4 f32 at a time along A's rows: tile_k 2 is not a multiple of 4", 1, 1, "kernel: matmul" },
	{ "check_matmul_cp_async_cannot_transpose", MM "a_smem: transposed\nstages: 2\n",
	  "stages 2 copies with cp.async, which cannot transpose: a_smem: transposed of a row-major A needs "
	  "stages: 1", 3, 9, "stages: 2" },
	{ "check_matmul_cp_async_cannot_transpose", MM "b_layout: col\nstages: 2\n",
	  "stages 2 copies with cp.async, which cannot transpose: math: simt keeps B's tile row-major, so a "
	  "col-major B needs stages: 1", 3, 9, "stages: 2" },
	{ "check_matmul_swizzle_rows", MM "dtype: bf16\nmath: mma\ntile_k: 48\nsmem_layout: swizzled\n",
	  "smem_layout: swizzled XORs a row's 16-byte chunks within 128 bytes: A's tile rows of tile_k 48 (96 bytes) "
	  "are not 32, 64 or a multiple of 128 bytes", 5, 14, "smem_layout: swizzled" },
	{ "check_matmul_swizzle_rows", MM "dtype: bf16\nmath: mma\ntile_n: 96\nwarp_n: 48\nsmem_layout: swizzled\n",
	  "smem_layout: swizzled XORs a row's 16-byte chunks within 128 bytes: B's tile rows of tile_n 96 (192 bytes) "
	  "are not 32, 64 or a multiple of 128 bytes", 6, 14, "smem_layout: swizzled" },
	{ "check_matmul_smem_limit", MM "dtype: f16\nmath: mma\ntile_m: 256\ntile_n: 256\ntile_k: 128\nstages: 4\n"
	  "warp_m: 64\nwarp_n: 64\n",
	  "the tiles take 548864 bytes of shared memory (stages 4), over the 232448 a block may have: use smaller "
	  "tiles or fewer stages", 4, 9, "tile_m: 256" },
	{ "check_matmul_wgmma_needs_half", MM "math: wgmma\n",
	  "math: wgmma multiplies f16 or bf16 on tensor cores, not dtype f32: use math: simt", 2, 7, "math: wgmma" },
	{ "check_matmul_wgmma_tile_k", MM "dtype: bf16\nmath: wgmma\ntile_k: 32\n",
	  "math: wgmma loads k in boxes of 128 bytes (one swizzle row: 64 16-bit elements or 128 fp8): tile_k must be 64 "
	  "for bf16, not 32",
	  4, 9, "tile_k: 32" },
	{ "check_matmul_wgmma_tile_n", MM "dtype: bf16\nmath: wgmma\ntile_n: 96\n",
	  "math: wgmma takes B in 64-column boxes: tile_n 96 is not a multiple of 64 (64, 128, 192 or 256)", 4, 9,
	  "tile_n: 96" },
	{ "check_matmul_wgmma_consumer_rows", MM "dtype: bf16\nmath: wgmma\ntile_m: 64\nconsumers: 2\n",
	  "tile_m 64 is not a multiple of 64 x consumers 2: each consumer warpgroup multiplies whole 64-row wgmmas", 4, 9,
	  "tile_m: 64" },
	{ "check_matmul_wgmma_accumulators", MM "dtype: bf16\nmath: wgmma\ntile_n: 256\n",
	  "a consumer warpgroup's 128 x 256 of the tile takes 256 f32 accumulators a thread, over the 128 that fit "
	  "beside its other registers: use consumers: 2 or a smaller tile", 1, 1, "kernel: matmul" },
	{ "check_matmul_wgmma_stages", MM "dtype: bf16\nmath: wgmma\nstages: 1\n",
	  "stages 1: math: wgmma multiplies one stage while the wgmmas of the one before finish, so it needs 2 to 16", 4,
	  9, "stages: 1" },
	{ "check_matmul_wgmma_store_tma", MM "dtype: bf16\nmath: wgmma\nstore: tma\n",
	  "store: tma needs producer: warpgroup (its consumers store one tile while the producer loads the next), not "
	  "producer: none", 4, 8, "store: tma" },
	{ "check_matmul_wgmma_store_tma_smem", MM "dtype: bf16\nmath: wgmma\nproducer: warpgroup\nconsumers: 2\n"
	  "tile_m: 256\ntile_n: 128\nstore: tma\nstages: 4\n",
	  "stages 4 of a 256 x 128 tile and store: tma's buffers (65536 bytes) take 263232 bytes of shared memory, over "
	  "the 232448 a block can have: use stages: 3", 9, 9, "stages: 4" },
	{ "only_with_warp_m", MM "dtype: bf16\nmath: wgmma\nwarp_m: 64\n",
	  "warp_m needs math: simt, wmma or mma, not wgmma (a wgmma warpgroup takes tile_m / consumers rows)", 4, 9,
	  "warp_m: 64" },
	{ "only_with_load_width", MM "dtype: bf16\nmath: wgmma\nload_width: 8\n",
	  "load_width needs math: simt, wmma or mma, not wgmma (TMA loads)", 4, 13, "load_width: 8" },
	{ "check_matmul_wgmma_split_k_most", MM "dtype: bf16\nmath: wgmma\nproducer: warpgroup\ntile_n: 64\nsplit_k: 9\n",
	  "split_k 9: math: wgmma splits k over a cluster of split_k blocks, at most 8 (or split_reduce: kernel, its sums "
	  "added by a second kernel)", 6, 10, "split_k: 9" },
	{ "check_matmul_split_reduce_alone", MM "dtype: bf16\nmath: wgmma\nproducer: warpgroup\nsplit_reduce: kernel\n",
	  "split_reduce says where split_k's blocks add their sums: it needs split_k above 1, not 1", 5, 15,
	  "split_reduce: kernel" },
	{ "check_matmul_split_reduce_cluster_mma", MM "dtype: bf16\nmath: mma\nsplit_k: 2\nsplit_reduce: cluster\n",
	  "split_reduce: cluster needs math: wgmma, not mma (its splits meet in a second kernel: split_reduce: kernel)", 5,
	  15, "split_reduce: cluster" },
	{ "check_matmul_split_reduce_kernel_store", MM "dtype: bf16\nmath: wgmma\nproducer: warpgroup\nstore: tma\n"
	  "split_k: 2\nsplit_reduce: kernel\n", "store: tma: with split_reduce: kernel a block writes its sums to the "
	  "scratch one by one and NAME_reduce stores C: use store: direct", 5, 8, "store: tma" },
	{ "check_matmul_split_reduce_kernel_cluster", MM "dtype: bf16\nmath: wgmma\nproducer: warpgroup\ncluster: 2x1\n"
	  "split_k: 2\nsplit_reduce: kernel\n", "split_k 2 with split_reduce: kernel takes no cluster key: its blocks load "
	  "their shares of k apart (use cluster: 1x1)", 6, 10, "split_k: 2" },
	{ "check_matmul_wgmma_split_k_producer", MM "dtype: bf16\nmath: wgmma\nsplit_k: 2\n",
	  "split_k 2 needs producer: warpgroup (math: wgmma's split blocks are warp-specialised)", 4, 10, "split_k: 2" },
	{ "check_matmul_wgmma_split_k_cluster", MM "dtype: bf16\nmath: wgmma\nproducer: warpgroup\ncluster: 2x1\n"
	  "split_k: 2\n", "split_k 2 takes no cluster key: its clusters are the split_k blocks of a tile, not tiles sharing "
	  "loads (use cluster: 1x1)", 6, 10, "split_k: 2" },
	{ "check_matmul_wgmma_split_k_pingpong", MM "dtype: bf16\nmath: wgmma\nproducer: warpgroup\nconsumers: 2\n"
	  "tile_n: 128\nschedule: pingpong\nsplit_k: 2\n",
	  "split_k 2 needs schedule: tiles (a block is one tile's share of k, not tiles in turn)", 8, 10, "split_k: 2" },
	{ "check_matmul_wgmma_split_k_room", MM "dtype: bf16\nmath: wgmma\nproducer: warpgroup\nconsumers: 2\n"
	  "tile_n: 256\nsplit_k: 3\n", "split_k 3: block 0 of a cluster keeps the other blocks' sums of its 128 x 256 tile "
	  "(262144 bytes), which leaves no room for 2 stages: use a smaller split_k or tile", 7, 10, "split_k: 3" },
	{ "check_matmul_wgmma_split_k_stages", MM "dtype: bf16\nmath: wgmma\nproducer: warpgroup\ntile_m: 64\n"
	  "tile_n: 64\nsplit_k: 4\nstages: 12\n", "stages 12 of a 64 x 64 tile and split_k's sums (49152 bytes) take "
	  "246976 bytes of shared memory, over the 232448 a block can have: use stages: 11",
	  8, 9, "stages: 12" },
	{ "check_matmul_wgmma_stages_most", MM "dtype: bf16\nmath: wgmma\ntile_n: 64\nstages: 17\n",
	  "stages: 17 is out of range: expected an integer from 1 to 16", 5, 9, "stages: 17" },
	{ "check_matmul_mma_stages_5", MM "dtype: bf16\nmath: mma\nstages: 5\n",
	  "stages 5: math: mma keeps 2 to 4 stages in flight (math: wgmma's TMA pipeline takes up to 16)", 4, 9,
	  "stages: 5" },
	{ "only_with_producer", MM "dtype: bf16\nmath: mma\nproducer: warpgroup\n",
	  "producer needs math: wgmma, not mma", 4, 11, "producer: warpgroup" },
	{ "only_with_consumers", MM "consumers: 2\n", "consumers needs math: wgmma, not simt", 2, 12, "consumers: 2" },
	{ "only_with_store", MM "store: pairs\n", "store needs math: mma or wgmma, not simt", 2, 8, "store: pairs" },
	{ "check_matmul_mma_store_tma", MM "dtype: bf16\nmath: mma\nstore: tma\n",
	  "store: tma needs math: wgmma (its producer warpgroup's pipeline), not math: mma", 4, 8, "store: tma" },
	{ "check_matmul_mma_store_pairs_split_k", MM "dtype: bf16\nmath: mma\nsplit_k: 2\nstore: pairs\n",
	  "store: pairs stores C itself: split_k 2 writes partial sums (use split_k: 1)", 5, 8, "store: pairs" },
	{ "only_with_cluster", MM "dtype: bf16\nmath: wgmma\ncluster: 2x1\n",
	  "cluster needs producer: warpgroup, not none (the blocks of a cluster loop over their tiles together)", 4, 10,
	  "cluster: 2x1" },
	{ "only_with_cluster_math", MM "cluster: 1x2\n", "cluster needs math: wgmma, not simt", 2, 10, "cluster: 1x2" },
	{ "only_with_schedule", MM "staging: none\nschedule: stream_k\n",
	  "schedule needs staging: smem (staging: none reads all of k at once)", 3, 11, "schedule: stream_k" },
	{ "check_matmul_schedule_math", MM "dtype: bf16\nmath: wgmma\nschedule: stream_k\n",
	  "schedule: stream_k needs math: simt or mma, not wgmma (math: wgmma takes schedule: tiles or pingpong)", 4, 11,
	  "schedule: stream_k" },
	{ "check_matmul_schedule_wmma", MM "dtype: f16\nmath: wmma\nschedule: stream_k\n",
	  "schedule: stream_k needs math: simt or mma, not wmma", 4, 11, "schedule: stream_k" },
	{ "check_matmul_pingpong_math", MM "dtype: bf16\nmath: mma\nschedule: pingpong\n",
	  "schedule: pingpong needs math: wgmma, not mma (its consumer warpgroups take tiles in turn)", 4, 11,
	  "schedule: pingpong" },
	{ "check_matmul_pingpong_consumers", MM "dtype: bf16\nmath: wgmma\nproducer: warpgroup\ntile_m: 64\n"
	  "schedule: pingpong\n", "schedule: pingpong alternates tiles between two consumer warpgroups fed by a producer: "
	  "it needs producer: warpgroup and consumers: 2", 6, 11, "schedule: pingpong" },
	{ "check_matmul_pingpong_cluster", MM "dtype: bf16\nmath: wgmma\nproducer: warpgroup\nconsumers: 2\ntile_m: 64\n"
	  "cluster: 2x1\nschedule: pingpong\n", "schedule: pingpong takes no cluster (cluster: 1x1): a cluster's blocks "
	  "load their tiles together", 8, 11, "schedule: pingpong" },
	{ "check_matmul_pingpong_tile", MM "dtype: bf16\nmath: wgmma\nproducer: warpgroup\nconsumers: 2\ntile_m: 128\n"
	  "tile_n: 256\nschedule: pingpong\n", "a consumer warpgroup's 128 x 256 of the tile takes 256 f32 accumulators a "
	  "thread, over the 128 that fit beside its other registers: use a smaller tile (64 x 256 or 128 x 128)", 6, 9,
	  "tile_m: 128" },
	{ "check_matmul_stream_k_split_k", MM "split_k: 2\nschedule: stream_k\n",
	  "schedule: stream_k shares k out itself: drop split_k 2 (or use schedule: tiles)", 3, 11, "schedule: stream_k" },
	{ "only_with_loads_math", MM "loads: tma\n",
	  "loads needs math: mma, not simt (simt and wmma copy with cp.async; wgmma always with TMA)", 2, 8, "loads: tma" },
	{ "only_with_loads_stages", MM "dtype: bf16\nmath: mma\nloads: tma\n",
	  "loads needs stages 2 to 4, not 1 (one stage is loaded and stored by every thread, then a barrier)", 4, 8,
	  "loads: tma" },
	{ "only_with_load_width_tma", MM "dtype: bf16\nmath: mma\ntile_k: 64\nsmem_layout: swizzled\nstages: 3\nloads: tma\n"
	  "load_width: 8\n", "load_width needs loads: cp_async, not tma (TMA copies whole boxes)", 8, 13, "load_width: 8" },
	{ "check_matmul_tma_swizzled", MM "dtype: bf16\nmath: mma\ntile_k: 64\nstages: 3\nloads: tma\n",
	  "loads: tma lands its boxes in TMA's 128-byte swizzle: use smem_layout: swizzled, not padded", 6, 8,
	  "loads: tma" },
	{ "check_matmul_tma_boxes_a", MM "dtype: bf16\nmath: mma\nsmem_layout: swizzled\nstages: 3\nloads: tma\n",
	  "loads: tma copies boxes of 128-byte rows (64 bf16): A's tile rows of tile_k 32 are not a multiple of 64", 6, 8,
	  "loads: tma" },
	{ "check_matmul_tma_boxes_b", MM "dtype: f16\nmath: mma\ntile_k: 64\ntile_n: 32\nwarp_n: 16\nsmem_layout: swizzled\n"
	  "stages: 3\nloads: tma\n",
	  "loads: tma copies boxes of 128-byte rows (64 f16): B's tile rows of tile_n 32 are not a multiple of 64", 9, 8,
	  "loads: tma" },
	{ "check_matmul_tma_split_k", MM "dtype: bf16\nmath: mma\ntile_k: 64\nsmem_layout: swizzled\nstages: 3\nloads: tma\n"
	  "split_k: 2\n", "split_k 2 needs loads: cp_async (loads: tma takes a block a tile, all of its k)", 8, 10,
	  "split_k: 2" },
	{ "check_matmul_tma_stream_k", MM "dtype: bf16\nmath: mma\ntile_k: 64\nsmem_layout: swizzled\nstages: 3\n"
	  "loads: tma\nschedule: stream_k\n",
	  "schedule: stream_k needs loads: cp_async (loads: tma takes a block a tile, all of its k)", 8, 11,
	  "schedule: stream_k" },
	{ "check_matmul_hilbert_group", MM "order: hilbert\ngroup: 6\n",
	  "group 6: order: hilbert walks squares of group x group tiles along a Hilbert curve, whose side is a power of "
	  "two: 4 or 8", 3, 8, "group: 6" },
	{ "check_matmul_hilbert_group_big", MM "order: hilbert\ngroup: 200\n",
	  "group 200: order: hilbert walks squares of group x group tiles along a Hilbert curve, whose side is a power of "
	  "two: 128 or 256", 3, 8, "group: 200" },
	{ "check_matmul_blocks_per_sm_threads", MM "blocks_per_sm: 32\n",
	  "blocks_per_sm 32 x threads 256 is more than the 2048 threads an SM holds", 2, 16, "blocks_per_sm: 32" },
	{ "check_matmul_blocks_per_sm_smem", MM "dtype: bf16\nmath: mma\ntile_k: 64\nstages: 3\nsmem_layout: swizzled\n"
	  "blocks_per_sm: 3\n", "blocks_per_sm 3 x 98304 bytes of tiles (and 1 KB each) is more than the 233472 bytes of "
	  "shared memory an SM has: use fewer blocks, smaller tiles or fewer stages", 7, 16, "blocks_per_sm: 3" },
	{ "check_matmul_blocks_per_sm_registers", MM "tile_m: 128\ntile_n: 128\nthread_m: 8\nthread_n: 8\nblocks_per_sm: 8\n",
	  "blocks_per_sm 8 x 256 threads leaves 32 registers a thread, no more than its 64 accumulators", 6, 16,
	  "blocks_per_sm: 8" },
	{ "only_with_blocks_per_sm", MM "dtype: bf16\nmath: wgmma\nblocks_per_sm: 1\n",
	  "blocks_per_sm needs math: simt, wmma or mma, not wgmma (a wgmma block has an SM to itself)", 4, 16,
	  "blocks_per_sm: 1" },
	{ "check_matmul_epilogue", MM "epilogue: x + 1\n",
	  "epilogue: 'x' is not a name of epilogue, which has v, acc, c, row, col, bias and residual", 2, 11, "epilogue: x + 1" },
	{ "check_matmul_epilogue", MM "epilogue: v + foo\n",
	  "epilogue: unknown name 'foo': epilogue has v, acc, c, row, col, bias and residual, and the functions listed "
	  "in docs/spec.md",
	  2, 15, "epilogue: v + foo" },
	{ "check_matmul_epilogue", MM "epilogue: max(v, 0)\n",
	  NULL, 2, 11, "epilogue: max(v, 0)" },
	{ "check_matmul_bias_undeclared", MM "epilogue: gelu(v + bias)\n",
	  "epilogue: bias is not declared: add `bias: col` (a vector of n values, bias[col], as a linear layer's) or "
	  "`bias: row` (m values, bias[row])", 2, 11, "epilogue: gelu(v + bias)" },
	{ "check_matmul_residual_undeclared", MM "bias: col\nepilogue: v + bias + residual\n",
	  "epilogue: residual is not declared: add `residual: matrix` (m x n, row-major, its row pitch ldr given at "
	  "launch)", 3, 11, "epilogue: v + bias + residual" },
	{ "check_matmul_bias_unread", MM "bias: row\nepilogue: gelu(v)\n",
	  "bias: row, but the epilogue `gelu(v)` does not read bias: name it there (e.g. gelu(v + bias)) or drop bias",
	  2, 7, "bias: row" },
	{ "check_matmul_residual_unread", MM "residual: matrix\nepilogue: silu(v)\n",
	  "residual: matrix, but the epilogue `silu(v)` does not read residual: name it there (e.g. v + residual) or drop "
	  "residual", 2, 11, "residual: matrix" },
	{ "check_matmul_aux_bias", MM "aux: v + bias\n", "aux: bias is not declared: add `bias: col` (a vector of n "
	  "values, bias[col], as a linear layer's) or `bias: row` (m values, bias[row])", 2, 6, "aux: v + bias" },
	{ "check_matmul_aux_name", MM "aux: x\n", "aux: 'x' is not a name of aux, which has v, acc, c, row, col, bias "
	  "and residual", 2, 6, "aux: x" },
	{ "check_matmul_bias_dtype", MM "bias: col\nbias_dtype: i32\n",
	  "bias_dtype i32: the bias vector is f32, f64, f16 or bf16", 3, 13, "bias_dtype: i32" },
	{ "check_matmul_residual_dtype", MM "residual: matrix\nresidual_dtype: u32\n",
	  "residual_dtype u32: the residual matrix is f32, f64, f16 or bf16", 3, 17, "residual_dtype: u32" },
	{ "only_with_unaligned", MM "unaligned: refuse\n", "unaligned needs math: wgmma, or mma with loads: tma, not simt "
	  "(its loads take any operands)", 2, 12, "unaligned: refuse" },
	{ "check_matmul_unaligned", MM "dtype: bf16\nmath: mma\nunaligned: refuse\n", "unaligned says what a kernel that "
	  "loads A and B by TMA (math: wgmma, or math: mma with loads: tma) does with operands TMA cannot load; this one "
	  "loads any: drop unaligned", 4, 12, "unaligned: refuse" },
	{ "only_with_bias_dtype", MM "bias_dtype: f32\n", "bias_dtype needs bias: row or col, not none", 2, 13,
	  "bias_dtype: f32" },
	{ "only_with_residual_dtype", MM "residual_dtype: bf16\n", "residual_dtype needs residual: matrix, not none", 2, 17,
	  "residual_dtype: bf16" },
};

/* unaligned: fallback's kernel has specs/matmul/best/mma_<dtype>.yaml's
 * fields (runtime/matmul_hopper.h's KGEN_MATMUL_FALLBACK_TILES): the two
 * may not drift apart. */
START_TEST(matmul_fallback_is_the_best_mma_spec)
{
	static const char *const dtypes[] = { "bf16", "f16" };
	size_t d;

	for (d = 0; d < 2; d++) {
		char path[64], yaml[512];
		kgen_spec *best, *fallback;
		kgen_error err;
		int k;

		snprintf(path, sizeof path, "specs/matmul/best/mma_%s.yaml", dtypes[d]);
		snprintf(yaml, sizeof yaml, "kernel: matmul\ndtype: %s\norder: grouped\ngroup: 8\n%s", dtypes[d],
		         KGEN_MATMUL_FALLBACK_TILES);
		ck_assert_int_eq(kgen_spec_load_file(srcpath(path), &best, &err), KGEN_OK);
		ck_assert_msg(kgen_spec_load_string(yaml, strlen(yaml), "fallback", &fallback, &err) == KGEN_OK, "%s",
		              err.message);
		ck_assert_int_eq(kgen_spec_check(best, &err), KGEN_OK);
		ck_assert_int_eq(kgen_spec_check(fallback, &err), KGEN_OK);
		for (k = 0; k < KGEN_KEY_COUNT; k++)
			ck_assert_msg(kgen_spec_value(best, (enum kgen_key)k) == kgen_spec_value(fallback, (enum kgen_key)k),
			              "%s: %s differs", path, kgen_keys[k].name);
		kgen_spec_free(best);
		kgen_spec_free(fallback);
	}
}
END_TEST

/* Each row of matmul_refusals (a NULL message: any, at the place). */
START_TEST(refused_matmul_specs)
{
	const struct refusal *r = &matmul_refusals[_i];

	if (r->message) {
		assert_refused(r);
	} else {
		kgen_error e = reject_as(r->test, r->yaml);
		ck_assert_int_eq(e.line, r->line);
		ck_assert_str_eq(e.source_line, r->source_line);
	}
}
END_TEST

/* ---- the launcher, without a GPU ---- */

START_TEST(matmul_launcher_refuses_without_a_kernel)
{
	kgen_error err;
	size_t bytes;

	ck_assert_int_eq(kgen_matmul(NULL, 0, 0, 0, 1, 1, 1, 0, 0, 0, 1.0, 0.0, 0, 0, NULL, &err), KGEN_EINVAL);
	ck_assert_str_eq(err.message, "kgen_matmul: NULL kernel");
	ck_assert_int_eq(kgen_matmul_scratch_size(NULL, 1, 1, 1, &bytes, &err), KGEN_EINVAL);
	ck_assert_str_eq(err.message, "kgen_matmul_scratch_size: NULL kernel");
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("matmul");
	TCase *tc = tcase_create("defaults");

	tcase_add_test(tc, matmul_minimal_spec_gets_every_default);
	tcase_add_test(tc, matmul_defaults_follow_staging_and_math);
	tcase_add_test(tc, matmul_spec_files_load_and_generate);
	suite_add_tcase(s, tc);
	tc = tcase_create("emit");
	tcase_add_test(tc, matmul_naive_maps_threads_by_thread_map);
	tcase_add_test(tc, matmul_simt_tiles_and_loads);
	tcase_add_test(tc, matmul_tensor_cores_emit_their_ptx);
	tcase_add_test(tc, matmul_split_k_and_epilogue);
	tcase_add_test(tc, matmul_stream_k_shares_the_last_tiles);
	tcase_add_test(tc, matmul_stream_k_division);
	tcase_add_test(tc, matmul_blocks_per_sm_bounds_the_registers);
	tcase_add_test(tc, matmul_mma_store_pairs);
	tcase_add_test(tc, matmul_mma_tma_loads);
	tcase_add_test(tc, matmul_wgmma_defaults);
	tcase_add_test(tc, matmul_wgmma_emits_tma_and_wgmma);
	tcase_add_test(tc, matmul_wgmma_store_pairs);
	tcase_add_test(tc, matmul_wgmma_store_tma);
	tcase_add_test(tc, matmul_wgmma_one_mainloop);
	tcase_add_test(tc, matmul_tiles_and_view);
	tcase_add_test(tc, matmul_ptx_helpers);
	tcase_add_test(tc, matmul_wgmma_cluster);
	tcase_add_test(tc, matmul_wgmma_needs_sm_90a);
	suite_add_tcase(s, tc);
	tc = tcase_create("check");
	tcase_add_loop_test(tc, refused_matmul_specs, 0, (int)KGEN_COUNT(matmul_refusals));
	tcase_add_test(tc, matmul_fallback_is_the_best_mma_spec);
	tcase_add_test(tc, matmul_launcher_refuses_without_a_kernel);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
