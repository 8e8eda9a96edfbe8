//! math: mma: each warp computes WARP_M x WARP_N of C as MMA_M x MMA_N
//! 16 x 8 accumulator tiles of mma.sync m16n8k16, its fragments loaded by
//! ldmatrix from tiles that keep A's and B's layouts in shared memory.
//! Rows are padded by 8 elements (16 bytes): a row is an odd number of
//! 16-byte chunks, so the 8 rows of each ldmatrix matrix fall in 8
//! different chunks of the 128 bytes of banks (no conflict).  The
//! fragments of two k-steps live in registers at once: one k-step's load
//! while the other's multiply, so that ldmatrix's latency hides behind
//! mma.sync's.
// The warp's fragments of one k-step (16 of k): MMA_M 16 x 16 of A, MMA_N 16 x 8 of B.
struct Fragments {
    unsigned int a[MMA_M][4];
    unsigned int b[MMA_N][2];
};

// K-step ks of the tiles at shared-memory addresses as and bs: the warp's
// fragments, by ldmatrix (B's two at a time).  32-bit shared addresses, not
// generic pointers: the offsets that do not change from tile to tile stay in
// registers, and each ldmatrix is one add from its tile's address.
static __device__ __forceinline__ void load_fragments(Fragments &f, unsigned int as, unsigned int bs, int ks, int wm,
                                                      int wn, int lane)
{
    const int kk = ks * 16;
#pragma unroll
    for (int i = 0; i < MMA_M; i++)
{{#a_row}}
{{#tma}}
        ldmatrix_x4<false>(f.a[i], as + (unsigned int)sizeof(T) * (swizzle_tma<A_TILE / A_LD>(wm + i * 16 + lane % 16, kk + lane / 16 * 8)));
{{/tma}}
{{^tma}}
{{#swizzled}}
        ldmatrix_x4<false>(f.a[i], as + (unsigned int)sizeof(T) * (swizzle_at<A_LD>(wm + i * 16 + lane % 16, kk + lane / 16 * 8)));
{{/swizzled}}
{{^swizzled}}
        ldmatrix_x4<false>(f.a[i], as + (unsigned int)sizeof(T) * ((wm + i * 16 + lane % 16) * A_LD + kk + lane / 16 * 8));
{{/swizzled}}
{{/tma}}
{{/a_row}}
{{^a_row}}
{{#tma}}
        ldmatrix_x4<true>(f.a[i], as + (unsigned int)sizeof(T) * (swizzle_tma<A_TILE / A_LD>(kk + lane % 8 + lane / 16 * 8, wm + i * 16 + lane / 8 % 2 * 8)));
{{/tma}}
{{^tma}}
{{#swizzled}}
        ldmatrix_x4<true>(f.a[i], as + (unsigned int)sizeof(T) * (swizzle_at<A_LD>(kk + lane % 8 + lane / 16 * 8, wm + i * 16 + lane / 8 % 2 * 8)));
{{/swizzled}}
{{^swizzled}}
        ldmatrix_x4<true>(f.a[i], as + (unsigned int)sizeof(T) * ((kk + lane % 8 + lane / 16 * 8) * A_LD + wm + i * 16 + lane / 8 % 2 * 8));
{{/swizzled}}
{{/tma}}
{{/a_row}}
#pragma unroll
    for (int j = 0; j < MMA_N; j += 2) {
        unsigned int r[4];
{{#b_row}}
{{#tma}}
        ldmatrix_x4<true>(r, bs + (unsigned int)sizeof(T) * (swizzle_tma<B_TILE / B_LD>(kk + lane % 8 + lane / 8 % 2 * 8, wn + j * 8 + lane / 16 * 8)));
{{/tma}}
{{^tma}}
{{#swizzled}}
        ldmatrix_x4<true>(r, bs + (unsigned int)sizeof(T) * (swizzle_at<B_LD>(kk + lane % 8 + lane / 8 % 2 * 8, wn + j * 8 + lane / 16 * 8)));
{{/swizzled}}
{{^swizzled}}
        ldmatrix_x4<true>(r, bs + (unsigned int)sizeof(T) * ((kk + lane % 8 + lane / 8 % 2 * 8) * B_LD + wn + j * 8 + lane / 16 * 8));
{{/swizzled}}
{{/tma}}
{{/b_row}}
{{^b_row}}
{{#tma}}
        ldmatrix_x4<false>(r, bs + (unsigned int)sizeof(T) * (swizzle_tma<B_TILE / B_LD>(wn + j * 8 + lane % 8 + lane / 16 * 8, kk + lane / 8 % 2 * 8)));
{{/tma}}
{{^tma}}
{{#swizzled}}
        ldmatrix_x4<false>(r, bs + (unsigned int)sizeof(T) * (swizzle_at<B_LD>(wn + j * 8 + lane % 8 + lane / 16 * 8, kk + lane / 8 % 2 * 8)));
{{/swizzled}}
{{^swizzled}}
        ldmatrix_x4<false>(r, bs + (unsigned int)sizeof(T) * ((wn + j * 8 + lane % 8 + lane / 16 * 8) * B_LD + kk + lane / 8 % 2 * 8));
{{/swizzled}}
{{/tma}}
{{/b_row}}
        f.b[j][0] = r[0];
        f.b[j][1] = r[1];
        f.b[j + 1][0] = r[2];
        f.b[j + 1][1] = r[3];
    }
}

// acc += the products of one k-step's fragments, in serpentine order (odd
// rows of tiles walk j backwards), so that the mma.sync at each turn takes
// the B fragment its predecessor read: with A's fragment reused along each
// row, the register reuse cache serves 124 of the 128 mma.sync of the best
// bf16 spec's k-step group instead of 112 (H100, 8192^3: about 1% faster).
static __device__ __forceinline__ void multiply_fragments(float (&acc)[MMA_M][MMA_N][4], const Fragments &f)
{
#pragma unroll
    for (int i = 0; i < MMA_M; i++)
#pragma unroll
        for (int jj = 0; jj < MMA_N; jj++) {
            const int j = i % 2 ? MMA_N - 1 - jj : jj;
            mma_16816(acc[i][j], f.a[i], f.b[j]);
        }
}
{{#one_stage}}

// One tile's products: each k-step's fragments load while the last k-step's multiply.
static __device__ __forceinline__ void multiply_tile(const T *as, const T *bs, float (&acc)[MMA_M][MMA_N][4], int wm,
                                                     int wn, int lane)
{
    Fragments f[2];
    const unsigned int at = smem(as), bt = smem(bs);
    load_fragments(f[0], at, bt, 0, wm, wn, lane);
#pragma unroll
    for (int ks = 0; ks < KSTEPS; ks++) {
        if (ks + 1 < KSTEPS)
            load_fragments(f[(ks + 1) % 2], at, bt, ks + 1, wm, wn, lane);
        multiply_fragments(acc, f[ks % 2]);
    }
}
{{/one_stage}}

// Each warp's WARP_M x WARP_N of the tile as 16 x 8 mma.sync tiles.
{{^tma}}
{{#min_blocks}}
extern "C" __global__ void __launch_bounds__(THREADS, MIN_BLOCKS) {{name}}(const T *__restrict__ a, const T *__restrict__ b,
{{/min_blocks}}
{{^min_blocks}}
{{#one_block}}
extern "C" __global__ void __launch_bounds__(THREADS, 1) {{name}}(const T *__restrict__ a, const T *__restrict__ b,
{{/one_block}}
{{^one_block}}
extern "C" __global__ void __launch_bounds__(THREADS) {{name}}(const T *__restrict__ a, const T *__restrict__ b,
{{/one_block}}
{{/min_blocks}}
                                                                  Out *__restrict__ c, int m, int n, int k,
                                                                  long long lda, long long ldb, long long ldc,
{{^stream_k}}
                                                                  const Epilogue ep, int aligned, Acc *partials)
{{/stream_k}}
{{#stream_k}}
                                                                  const Epilogue ep, int aligned, Acc *partials,
                                                                  int dp_tiles, int sk_blocks)
{{/stream_k}}
{
    extern __shared__ __align__(128) unsigned char smem_tiles[];
    T *const as = reinterpret_cast<T *>(smem_tiles);  // STAGES tiles of A, A_TILE elements each
    T *const bs = as + STAGES * A_TILE;               // then STAGES tiles of B
{{/tma}}
{{#tma}}
{{#min_blocks}}
extern "C" __global__ void __launch_bounds__(THREADS, MIN_BLOCKS) {{name}}(const __grid_constant__ CUtensorMap a_map,
{{/min_blocks}}
{{^min_blocks}}
{{#one_block}}
extern "C" __global__ void __launch_bounds__(THREADS, 1) {{name}}(const __grid_constant__ CUtensorMap a_map,
{{/one_block}}
{{^one_block}}
extern "C" __global__ void __launch_bounds__(THREADS) {{name}}(const __grid_constant__ CUtensorMap a_map,
{{/one_block}}
{{/min_blocks}}
                                                                  const __grid_constant__ CUtensorMap b_map,
                                                                  Out *__restrict__ c, int m, int n, int k,
                                                                  long long ldc, const Epilogue ep)
{
    extern __shared__ __align__(1024) unsigned char smem_raw[];
    // STAGES tiles of A, A_TILE elements each, then STAGES of B, 1024-byte aligned as the
    // 128B swizzle repeats; then each stage's full and empty mbarriers.
    T *const as = reinterpret_cast<T *>(smem_raw + (1024 - smem(smem_raw) % 1024) % 1024);
    T *const bs = as + STAGES * A_TILE;
    unsigned long long *const full = reinterpret_cast<unsigned long long *>(bs + STAGES * B_TILE);
    unsigned long long *const empty = full + STAGES;
{{/tma}}
    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    const int wm = warp / WARPS_N * WARP_M, wn = warp % WARPS_N * WARP_N;  // the warp's part of the tile
{{#tma}}
    if (tid == 0) {
        for (int s = 0; s < STAGES; s++) {
            mbarrier_init(&full[s], 1);               // thread 0's arrival and the bytes of the boxes
            mbarrier_init(&empty[s], THREADS / 32);  // a release by each warp
        }
        fence_mbarrier_init();
    }
    __syncthreads();
{{/tma}}
    int row0, col0, k0, k1;
{{^stream_k}}
    tile_origin(m, n, row0, col0);
    k_range(k, k0, k1);
    {{tile}}
{{/stream_k}}
{{#stream_k}}
    {{units}}
{{/stream_k}}
}
