//! `kernel: transpose`, `method: smem`: a tile through padded shared memory.
{{header}}

// Elements are {{dtype}}; indices are {{index}}-bit.
typedef {{t_ctype}} T;
typedef {{index_ctype}} Index;

// A block moves one TILE_ROWS x TILE_COLS tile with THREADS threads, BATCH
// elements each, VEC at a time ({{load_width}}-byte loads and stores).
constexpr int TILE_ROWS = {{tile_rows}};
constexpr int TILE_COLS = {{tile_cols}};
constexpr int THREADS = {{threads}};
constexpr int BATCH = {{batch}};
constexpr int VEC = {{vec}};
constexpr int PAD = {{pad}};  // elements added to each shared-memory row against bank conflicts

// VEC adjacent elements, moved with one load or store.
struct __align__({{align}}) Vec {
    T v[VEC];
};

{{access}}

// For each of the batch matrices: out[b] (cols x rows) = the transpose of
// in[b] (rows x cols).  Row r of in[b] starts at in + b * in_stride +
// r * in_pitch, row c of out[b] at out + b * out_stride + c * out_pitch.
extern "C" __global__ void __launch_bounds__(THREADS)
{{name}}(const T *__restrict__ in, T *__restrict__ out, Index rows, Index cols, Index batch,
    Index in_pitch, Index out_pitch, Index in_stride, Index out_stride)
{
    __shared__ T tile[TILE_ROWS][TILE_COLS + PAD];
    const Index b = (Index)blockIdx.z * gridDim.y + blockIdx.y;  // this block's matrix
    if (b >= batch)
        return;
    in += b * in_stride;
    out += b * out_stride;
    {{tile_origin}}
    const int tid = threadIdx.x;
    // Whole vectors need a whole tile, and rows and matrices that keep them aligned.
    const bool whole = x0 + TILE_COLS <= cols && y0 + TILE_ROWS <= rows &&
                       (in_pitch | out_pitch | in_stride | out_stride) % VEC == 0;

    // Read the tile along the rows of `in` (coalesced).
    #pragma unroll
    for (int k = 0; k < BATCH / VEC; k++) {
        const int e = k * THREADS + tid;
        const int r = e / (TILE_COLS / VEC), c = e % (TILE_COLS / VEC) * VEC;
        if (whole) {
            const Vec v = load_vec(&in[(y0 + r) * in_pitch + x0 + c]);
            #pragma unroll
            for (int j = 0; j < VEC; j++)
                tile[r][c + j] = v.v[j];
        } else {
            #pragma unroll
            for (int j = 0; j < VEC; j++)
                if (y0 + r < rows && x0 + c + j < cols)
                    tile[r][c + j] = load_one(&in[(y0 + r) * in_pitch + x0 + c + j]);
        }
    }
    __syncthreads();

    // Write it along the rows of `out`, reading the tile down its columns.
    #pragma unroll
    for (int k = 0; k < BATCH / VEC; k++) {
        const int e = k * THREADS + tid;
        const int c = e / (TILE_ROWS / VEC), r = e % (TILE_ROWS / VEC) * VEC;
        if (whole) {
            Vec v;
            #pragma unroll
            for (int j = 0; j < VEC; j++)
                v.v[j] = tile[r + j][c];
            store_vec(&out[(x0 + c) * out_pitch + y0 + r], v);
        } else {
            #pragma unroll
            for (int j = 0; j < VEC; j++)
                if (x0 + c < cols && y0 + r + j < rows)
                    store_one(&out[(x0 + c) * out_pitch + y0 + r + j], tile[r + j][c]);
        }
    }
}
