//! math: simt, staging: smem: tiles of A and B in shared memory; each thread
//! computes THREAD_M x THREAD_N elements of C in registers.  Its rows are
//! tr0 + i / RM * RM_STRIDE + i % RM (chunks of RM adjacent rows), its
//! columns tc0 + j / CN * CN_STRIDE + j % CN.
// A chunk of N adjacent elements in shared memory, read as one (or a few) vector loads.
template <int N>
struct alignas(N * sizeof(T) < 16 ? N * sizeof(T) : 16) Chunk {
    T v[N];
};

// One tile's products: for each k of the tile, this thread's THREAD_M values of
// A and THREAD_N values of B from shared memory, multiplied into acc.
static __device__ __forceinline__ void multiply_tile(const T *as, const T *bs, Acc (&acc)[THREAD_M][THREAD_N], int tr0,
                                                     int tc0)
{
#pragma unroll
    for (int kk = 0; kk < TILE_K; kk++) {
        Acc x[THREAD_M], y[THREAD_N];
#pragma unroll
        for (int i = 0; i < THREAD_M; i += RM) {
{{#a_transposed}}
            const Chunk<RM> v = *reinterpret_cast<const Chunk<RM> *>(as + kk * A_LD + tr0 + i / RM * RM_STRIDE);
            #pragma unroll
            for (int q = 0; q < RM; q++)
                x[i + q] = to_acc(v.v[q]);
{{/a_transposed}}
{{^a_transposed}}
            #pragma unroll
            for (int q = 0; q < RM; q++)
                x[i + q] = to_acc(as[(tr0 + i / RM * RM_STRIDE + q) * A_LD + kk]);
{{/a_transposed}}
        }
#pragma unroll
        for (int j = 0; j < THREAD_N; j += CN) {
            const Chunk<CN> v = *reinterpret_cast<const Chunk<CN> *>(bs + kk * B_LD + tc0 + j / CN * CN_STRIDE);
#pragma unroll
            for (int q = 0; q < CN; q++)
                y[j + q] = to_acc(v.v[q]);
        }
#pragma unroll
        for (int i = 0; i < THREAD_M; i++)
#pragma unroll
            for (int j = 0; j < THREAD_N; j++)
                acc[i][j] += x[i] * y[j];
    }
}

{{#warptiling}}
// Warp tiling: each warp computes WARP_M x WARP_N of the tile, each thread THREAD_M x THREAD_N
// of that in chunks, so that a warp's reads of shared memory are conflict-free vectors.
{{/warptiling}}
{{^warptiling}}
// Block tiling: each thread computes THREAD_M x THREAD_N adjacent elements of the block's tile.
{{/warptiling}}
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
                                                               Out *__restrict__ c, int m, int n, int k, long long lda,
                                                               long long ldb, long long ldc, const Epilogue ep,
{{^stream_k}}
                                                               int aligned, Acc *partials)
{{/stream_k}}
{{#stream_k}}
                                                               int aligned, Acc *partials, int dp_tiles, int sk_blocks)
{{/stream_k}}
{
    extern __shared__ __align__(128) unsigned char smem_tiles[];
    T *const as = reinterpret_cast<T *>(smem_tiles);  // STAGES tiles of A, A_TILE elements each
    T *const bs = as + STAGES * A_TILE;               // then STAGES tiles of B
    const int tid = threadIdx.x;
    int row0, col0, k0, k1;
{{^stream_k}}
    tile_origin(m, n, row0, col0);
    k_range(k, k0, k1);
{{/stream_k}}
{{#warptiling}}
    // The thread's first row and column in the tile: warp tiles, then lanes.
    const int warp = tid / 32, lane = tid % 32;
    const int tr0 = warp / WARPS_N * WARP_M + lane / (WARP_N / THREAD_N) * RM;
    const int tc0 = warp % WARPS_N * WARP_N + lane % (WARP_N / THREAD_N) * CN;
{{/warptiling}}
{{^warptiling}}
    // The thread's first row and column in the tile.
    const int tr0 = tid / (TILE_N / THREAD_N) * THREAD_M, tc0 = tid % (TILE_N / THREAD_N) * THREAD_N;
{{/warptiling}}
{{^stream_k}}
    {{tile}}
{{/stream_k}}
{{#stream_k}}
    {{units}}
{{/stream_k}}
}
