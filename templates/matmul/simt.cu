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
            {{a_fragment}}
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

// {{doc}}
extern "C" __global__ void __launch_bounds__({{bounds}}) {{name}}(const T *__restrict__ a, const T *__restrict__ b,
                                                               Out *__restrict__ c, int m, int n, int k, long long lda,
                                                               long long ldb, long long ldc, Acc alpha, Acc beta,
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
    {{thread_origin}}
{{^stream_k}}
    {{tile}}
{{/stream_k}}
{{#stream_k}}
    {{units}}
{{/stream_k}}
}
