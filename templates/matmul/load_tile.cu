//! The copy of one tile of A or B from global to shared memory, shared by
//! every staging: smem kernel.  A whole vector moves as a plain vector load
//! and store (stages: 1) or a cp.async (stages 2 and up: section inside).
{{#inside}}
// Copy a ROWS x COLS box that lies wholly inside the matrix, src and ld keeping
// VEC-element vectors aligned: one cp.async per vector and no checks.  Where a
// pass of THREADS vectors covers whole rows, a thread keeps its column and
// steps down ROWS_APART rows a pass: its source one add from the last, and,
// ROWS_APART a multiple of 8 (rows 8 apart lie alike in a swizzled tile), its
// destination a constant offset from the first pass's.
template <int ROWS, int COLS, int VEC, int DST_LD>
static __device__ __forceinline__ void load_tile_inside(T *dst, const T *src, long long ld, int tid)
{
    constexpr int PER_ROW = COLS / VEC, TOTAL = ROWS * PER_ROW;
    constexpr int ROWS_APART = THREADS % PER_ROW == 0 ? THREADS / PER_ROW : 0;
    constexpr bool STEPS = ROWS_APART > 0 && ROWS_APART % 8 == 0;
    const int r0 = tid / PER_ROW, c0 = tid % PER_ROW * VEC;
{{#swizzled}}
    T *const first = STEPS ? dst + swizzle_at<DST_LD>(r0, c0) : dst;
{{/swizzled}}
{{^swizzled}}
    T *const first = STEPS ? dst + r0 * DST_LD + c0 : dst;
{{/swizzled}}
    const T *g = src + r0 * ld + c0;
#pragma unroll
    for (int i = 0; i < (TOTAL + THREADS - 1) / THREADS; i++) {
        const int v = tid + i * THREADS;
        if (TOTAL % THREADS != 0 && v >= TOTAL)
            break;
        if (STEPS) {
            cp_async<VEC * sizeof(T)>(first + i * ROWS_APART * DST_LD, g);
            g += ROWS_APART * ld;
            continue;
        }
        const int r = ROWS_APART ? r0 + i * ROWS_APART : v / PER_ROW, c = ROWS_APART ? c0 : v % PER_ROW * VEC;
{{#swizzled}}
        cp_async<VEC * sizeof(T)>(dst + swizzle_at<DST_LD>(r, c), ROWS_APART ? g + i * ROWS_APART * ld : src + r * ld + c);
{{/swizzled}}
{{^swizzled}}
        cp_async<VEC * sizeof(T)>(dst + r * DST_LD + c, ROWS_APART ? g + i * ROWS_APART * ld : src + r * ld + c);
{{/swizzled}}
    }
}

{{/inside}}
// Copy a ROWS x COLS box of a matrix whose rows are ld elements apart (element
// (r, c) at src[r * ld + c]) to shared memory at dst, rows DST_LD elements apart,
// transposed when TRANSPOSE (element (r, c) to dst[c * DST_LD + r]).  Only the
// first `rows` rows and `cols` columns exist: the rest of the box is zero, and
// nothing outside them is read.  Whole vectors of VEC elements move as one
// {{how}} where `vectors` says src and ld keep them aligned; the others, at
// the edges, element by element.
{{#inside}}
// A box wholly inside the matrix takes load_tile_inside.
{{/inside}}
template <int ROWS, int COLS, int VEC, int DST_LD, bool TRANSPOSE>
static __device__ __forceinline__ void load_tile(T *dst, const T *src, long long ld, int rows, int cols, bool vectors,
                                                 int tid)
{
    constexpr int PER_ROW = COLS / VEC, TOTAL = ROWS * PER_ROW;
{{#inside}}
    if (vectors && rows >= ROWS && cols >= COLS) {
        load_tile_inside<ROWS, COLS, VEC, DST_LD>(dst, src, ld, tid);
        return;
    }
    // A tile at an edge: rolled, so that it holds few registers.
#pragma unroll 1
{{/inside}}
{{^inside}}
#pragma unroll
{{/inside}}
    for (int i = 0; i < (TOTAL + THREADS - 1) / THREADS; i++) {
        const int v = tid + i * THREADS;
        if (TOTAL % THREADS != 0 && v >= TOTAL)
            break;
        const int r = v / PER_ROW, c = v % PER_ROW * VEC;
        const T *const g = src + r * ld + c;
{{#swizzled}}
        T *const s = dst + swizzle_at<DST_LD>(r, c);
{{/swizzled}}
{{^swizzled}}
        T *const s = TRANSPOSE ? dst + c * DST_LD + r : dst + r * DST_LD + c;
{{/swizzled}}
        if (vectors && r < rows && c + VEC <= cols) {
{{#inside}}
            static_assert(!TRANSPOSE, "cp.async copies bytes as they lie");
            cp_async<VEC * sizeof(T)>(s, g);
{{/inside}}
{{^inside}}
            struct alignas(VEC * sizeof(T)) Vec { T v[VEC]; };
            const Vec x = *reinterpret_cast<const Vec *>(g);
            if (TRANSPOSE) {
            #pragma unroll
                for (int j = 0; j < VEC; j++)
                    s[j * DST_LD] = x.v[j];
            } else {
                *reinterpret_cast<Vec *>(s) = x;
            }
{{/inside}}
        } else {
#pragma unroll
            for (int j = 0; j < VEC; j++) {
                const T x = r < rows && c + j < cols ? g[j] : (T)0;
                if (TRANSPOSE)
                    s[j * DST_LD] = x;
                else
                    s[j] = x;
            }
        }
    }
}

// Tile kt (k from kt) of A, rows from row0, to shared memory.
static __device__ __forceinline__ void load_a(T *as, const T *a, long long lda, int m, int row0, int kt, int k1,
                                              bool vectors, int tid)
{
{{#a_row}}
    // A row-major: TILE_M rows of TILE_K{{a_stored}}.
    load_tile<TILE_M, TILE_K, VEC_A, A_LD, {{trans_a}}>(as, a + row0 * lda + kt, lda, m - row0, k1 - kt, vectors, tid);
{{/a_row}}
{{^a_row}}
    // A column-major: TILE_K columns of TILE_M{{a_stored}}.
    load_tile<TILE_K, TILE_M, VEC_A, A_LD, {{trans_a}}>(as, a + kt * lda + row0, lda, k1 - kt, m - row0, vectors, tid);
{{/a_row}}
}

// Tile kt of B, columns from col0, to shared memory.
static __device__ __forceinline__ void load_b(T *bs, const T *b, long long ldb, int n, int col0, int kt, int k1,
                                              bool vectors, int tid)
{
{{#b_row}}
    // B row-major: TILE_K rows of TILE_N.
    load_tile<TILE_K, TILE_N, VEC_B, B_LD, false>(bs, b + kt * ldb + col0, ldb, k1 - kt, n - col0, vectors, tid);
{{/b_row}}
{{^b_row}}
    // B column-major: TILE_N columns of TILE_K{{b_stored}}.
    load_tile<TILE_N, TILE_K, VEC_B, B_LD, {{trans_b}}>(bs, b + col0 * ldb + kt, ldb, n - col0, k1 - kt, vectors, tid);
{{/b_row}}
}
