//! math: wgmma, store: tma: a warpgroup's results go to C through shared
//! memory and TMA stores: a chunk of 128-byte rows at a time written into
//! one of two 128B-swizzled buffers, then handed to the TMA unit, which
//! writes it to C (clipping at m and n) while the warpgroup goes on; the
//! buffer is written again once its store has read it.  Where C cannot
//! take TMA (not 16-byte aligned, or ldc not a multiple of 16 bytes) the
//! host launches the kernels that take c_tma (wgmma_variants.cu), and with
//! c_tma 0 the warpgroup copies each chunk from its buffer to C itself
//! (copy_chunk): one path to the buffers either way, the copy compiled only
//! into those kernels (the others pass c_tma 1, which folds it away).
//! A residual of C's element size comes the other way (residual_tma): TMA
//! loads each chunk of it into the buffer the chunk's results will leave
//! from, the first two while the tile multiplies, and each thread reads its
//! pair where it writes the pair's results.
//! The PTX (warpgroup_sync, tma_store_2d, the bulk groups) is ptx/'s.
constexpr int CHUNK = 128 / (int)sizeof(Out);  // C's columns in a 128-byte row of a buffer
constexpr int BUFFER = WG_M * 128;              // a warpgroup's buffer: WG_M rows of one chunk
static_assert(TILE_N % CHUNK == 0 && WG_M <= 256 && CONSUMERS <= 2, "a tile of whole chunks, a box of at most 256 "
              "rows, a named barrier for each consumer warpgroup");
static_assert(A_STAGE % 1024 == 0 && B_STAGE % 1024 == 0 && BUFFER % 1024 == 0, "buffers on the 128B swizzle's "
              "1024-byte period");

// The value C[row][col] takes: epilogue(alpha * acc + beta * old), given the operands there; C's old value
// is read (READ_C: beta != 0) only inside C.  Outside C (an edge tile's rows and columns past m and n, which
// the TMA store clips) the value, computed all the same (without a branch, so that the compiler can
// interleave a chunk's elements), is replaced by 0.
template <bool READ_C>
static __device__ __forceinline__ Acc tma_result(const Out *c, long long ldc, int m, int n, int row, int col, Acc acc,
                                                 const Epilogue &ep, const Operands &at)
{
    const bool inside = row < m && col < n;
    const Acc old = READ_C && inside ? c_to_acc(c[row * ldc + col]) : (Acc)0;
    const Acc v = READ_C ? ep.alpha * acc + ep.beta * old : ep.alpha * acc;
    const Acc value = epilogue(v, acc, old, row, col, at);
    if (inside)
        store_aux(ep, v, acc, old, row, col, at);
    return inside ? value : (Acc)0;
}

// Byte `byte` of row R of a buffer: its 16-byte units at (unit ^ R % 8) * 16, as the 128B swizzle of c_map
// reads them (and so a warp's writes fall in 32 banks).
static __device__ __forceinline__ unsigned char *swizzled(unsigned char *buf, int R, int byte)
{
    return buf + R * 128 + ((byte / 16) ^ (R % 8)) * 16 + byte % 16;
}

// A chunk's results from its buffer to C (WG_M rows of CHUNK columns from row0, col0), element by element
// and within C, for a C that TMA cannot take (c_tma 0): neighbouring threads take neighbouring elements of
// a row.  The buffer is written again two chunks on, after the warpgroup_sync that follows this copy.
static __device__ __forceinline__ void copy_chunk(Out *c, unsigned char *buf, int m, int n, long long ldc, int row0,
                                                  int col0)
{
    for (int e = threadIdx.x % 128; e < WG_M * CHUNK; e += 128) {
        const int R = e / CHUNK, col = e % CHUNK, byte = col * (int)sizeof(Out);
        if (row0 + R < m && col0 + col < n)
            c[(row0 + R) * ldc + col0 + col] = *reinterpret_cast<const Out *>(swizzled(buf, R, byte));
    }
}

{{#residual_tma}}
// The residual through TMA (r_tma: where it can take TMA; else each element is loaded where it is used): a
// chunk of it, the box of c_map's shape at the chunk's origin, lands in the buffer the chunk's results will
// be stored from, each element where its result goes; a thread reads its pair there and writes the pair's
// results in its place.  Chunk g of the warpgroup (its stored count) uses buffer g % 2 and completes
// landed[g % 2] in that mbarrier's (g / 2)th phase.  One thread of the warpgroup issues the loads.
static __device__ __forceinline__ void residual_load(const CUtensorMap *r_map, unsigned long long *landed,
                                                     unsigned char *bufs, unsigned int g, int col, int row)
{
    mbarrier_arrive_expect_tx(&landed[g % 2], BUFFER);  // the whole box, zeros past m and n included
    tma_load_2d(bufs + g % 2 * BUFFER, r_map, col, row, &landed[g % 2]);
}

// A tile's first two chunks of the residual into the buffers once the last tile's stores have read them,
// and the rest of it fetched into L2 (chunk c + 1 is loaded as chunk c is stored); g the tile's first chunk.
static __device__ __forceinline__ void residual_first_chunks(const CUtensorMap *r_map, unsigned long long *landed,
                                                             unsigned char *bufs, unsigned int g, int row0, int col0)
{
    bulk_wait_group_read<0>();
#pragma unroll
    for (int chunk = 0; chunk < TILE_N / CHUNK; chunk++)
        if (chunk < 2)
            residual_load(r_map, landed, bufs, g + chunk, col0 + chunk * CHUNK, row0);
        else
            tma_prefetch_2d(r_map, col0 + chunk * CHUNK, row0);
}

// The residual's pair at p, in a buffer as the TMA load left it (p 2 sizeof(Out) aligned).
static __device__ __forceinline__ void residual_pair(const unsigned char *p, Acc &r0, Acc &r1)
{
    const Residual *const q = reinterpret_cast<const Residual *>(p);
    r0 = residual_to_acc(q[0]);
    r1 = residual_to_acc(q[1]);
}

// An element's operands with the residual read from a buffer.
static __device__ __forceinline__ Operands with_residual(Operands at, Acc residual)
{
    at.residual = residual;
    return at;
}

{{/residual_tma}}
// The warpgroup's results, rows from row0 and columns from col0, to C:
// chunk by chunk of CHUNK columns, each into buffer `*stored % 2` of
// bufs (two of BUFFER bytes), then one TMA store.  Thread t of the
// warpgroup holds, in each 64-row block i and each 8 columns j, rows
// 16 (t / 32) + t % 32 / 4 and that + 8, columns 2 (t % 4) and the next:
// acc[i][4 j + e] is row + e / 2 * 8, column + e % 2, written where
// swizzled() puts it in the buffer's row.  READ_C:
// beta != 0 (the kernel's: wgmma_variants.cu, so that the elements'
// code has no branch on beta).
{{^residual_tma}}
template <bool READ_C>
static __device__ __forceinline__ void store_tile_tma(const CUtensorMap *c_map, int c_tma, unsigned char *bufs,
                                                      unsigned int *stored, Out *c, float (&acc)[MMA_M][TILE_N / 2],
                                                      int m, int n, long long ldc, int row0, int col0,
                                                      const Epilogue &ep)
{{/residual_tma}}
{{#residual_tma}}
// RESIDUAL_SMEM: the residual comes through the buffers (residual_load), its first two chunks loaded already
// (residual_first_chunks); else each element's is loaded with the chunk's other operands.
template <bool READ_C, bool RESIDUAL_SMEM>
static __device__ __forceinline__ void store_tile_tma(const CUtensorMap *c_map, int c_tma, unsigned char *bufs,
                                                      unsigned int *stored, Out *c, float (&acc)[MMA_M][TILE_N / 2],
                                                      int m, int n, long long ldc, int row0, int col0,
                                                      const Epilogue &ep, const CUtensorMap *r_map,
                                                      unsigned long long *landed)
{{/residual_tma}}
{
    const int t = threadIdx.x % 128, r = t / 32 * 16 + t % 32 / 4, cc = t % 4 * 2;
    const int barrier = 1 + (int)threadIdx.x / 128;
    // The operands of the thread's rows (a bias by row), once a tile; an element past m reads the last
    // row's instead (its value is not stored), so that no load waits behind a branch.
    Operands by_row[MMA_M][2];
{{#reductions}}
    RowPartials row_parts[MMA_M][2];  // the reductions of the thread's rows of the tile
{{/reductions}}
#pragma unroll
    for (int i = 0; i < MMA_M; i++)
#pragma unroll
        for (int h = 0; h < 2; h++) {
            row_operands(by_row[i][h], ep, min(row0 + 64 * i + r + 8 * h, m - 1));
{{#reductions}}
            row_parts[i][h].start();
{{/reductions}}
        }
#pragma unroll
    for (int chunk = 0; chunk < TILE_N / CHUNK; chunk++, (*stored)++) {
        unsigned char *const buf = bufs + *stored % 2 * BUFFER;
{{#residual_tma}}
        if constexpr (RESIDUAL_SMEM)
            if (t == 0 && chunk >= 1 && chunk + 1 < TILE_N / CHUNK) {  // the next chunk's residual, into the other
                bulk_wait_group_read<0>();                              // buffer once the last store has read it
                residual_load(r_map, landed, bufs, *stored + 1, col0 + (chunk + 1) * CHUNK, row0);
            }
{{/residual_tma}}
        // The chunk's operands first (none where the spec declares none), those of its columns (a bias by
        // column) once each and the elements' own (the residual): their loads go out together, while the
        // buffer's last store drains, not one behind each write of the buffer.  Clamped at n - 1 and m - 1
        // as the rows' are.
        Operands by_col[CHUNK / 8][2], at[MMA_M][CHUNK / 8][2][2];
#pragma unroll
        for (int jj = 0; jj < CHUNK / 8; jj++)
#pragma unroll
            for (int e = 0; e < 2; e++)
                col_operands(by_col[jj][e], ep, min(col0 + 8 * (chunk * (CHUNK / 8) + jj) + cc + e, n - 1));
#pragma unroll
        for (int i = 0; i < MMA_M; i++)
#pragma unroll
            for (int jj = 0; jj < CHUNK / 8; jj++)
#pragma unroll
                for (int h = 0; h < 2; h++)
#pragma unroll
                    for (int e = 0; e < 2; e++) {
                        const int row = row0 + 64 * i + r + 8 * h, col = col0 + 8 * (chunk * (CHUNK / 8) + jj) + cc + e;
{{#residual_tma}}
                        if constexpr (RESIDUAL_SMEM) {  // the residual comes with the buffer
                            at[i][jj][h][e] = line_operands(by_row[i][h], by_col[jj][e]);
                            continue;
                        }
{{/residual_tma}}
                        at[i][jj][h][e] = cell_operands(by_row[i][h], by_col[jj][e], ep, min(row, m - 1),
                                                        min(col, n - 1));
                    }
{{#reductions}}
        ColPartials col_parts[CHUNK / 8][2];  // the reductions of the thread's columns of the chunk
#pragma unroll
        for (int jj = 0; jj < CHUNK / 8; jj++)
#pragma unroll
            for (int e = 0; e < 2; e++)
                col_parts[jj][e].start();
{{/reductions}}
        if (t == 0)
            bulk_wait_group_read<1>();  // the store from this buffer two chunks ago has read it
        warpgroup_sync(barrier);
{{#residual_tma}}
        if constexpr (RESIDUAL_SMEM)
            mbarrier_wait(&landed[*stored % 2], *stored / 2 % 2);  // the chunk's residual is in buf
{{/residual_tma}}
#pragma unroll
        for (int i = 0; i < MMA_M; i++)
#pragma unroll
            for (int jj = 0; jj < CHUNK / 8; jj++)
#pragma unroll
                for (int h = 0; h < 2; h++) {
                    const int j = chunk * (CHUNK / 8) + jj, R = 64 * i + r + 8 * h;
                    const int row = row0 + R, col = col0 + 8 * j + cc;
                    const int byte = (8 * jj + cc) * (int)sizeof(Out);  // in the buffer's row
                    unsigned char *const p = swizzled(buf, R, byte);
                    Operands at0 = at[i][jj][h][0], at1 = at[i][jj][h][1];
{{#residual_tma}}
                    if constexpr (RESIDUAL_SMEM) {  // the residual where the pair's results go
                        Acc r0, r1;
                        residual_pair(p, r0, r1);
                        at0 = with_residual(at0, r0);
                        at1 = with_residual(at1, r1);
                    }
{{/residual_tma}}
                    const Acc x0 = tma_result<READ_C>(c, ldc, m, n, row, col, acc[i][4 * j + 2 * h], ep, at0);
                    const Acc x1 = tma_result<READ_C>(c, ldc, m, n, row, col + 1, acc[i][4 * j + 2 * h + 1], ep, at1);
                    Out pair[2];
                    pair[0] = to_out(x0);
                    pair[1] = to_out(x1);
{{#reductions}}
                    if (row < m && col < n) {
                        row_parts[i][h].fold(x0);
                        col_parts[jj][0].fold(x0);
                    }
                    if (row < m && col + 1 < n) {
                        row_parts[i][h].fold(x1);
                        col_parts[jj][1].fold(x1);
                    }
{{/reductions}}
                    if constexpr (sizeof(Out) == 2) {  // one 4-byte write
                        *reinterpret_cast<unsigned int *>(p) = (unsigned int)pair[0] | (unsigned int)pair[1] << 16;
                    } else {
                        reinterpret_cast<Out *>(p)[0] = pair[0];
                        reinterpret_cast<Out *>(p)[1] = pair[1];
                    }
                }
        fence_proxy_async_shared();
        warpgroup_sync(barrier);
        if (!c_tma)
            copy_chunk(c, buf, m, n, ldc, row0, col0 + chunk * CHUNK);
        else if (t == 0) {
            tma_store_2d(c_map, buf, col0 + chunk * CHUNK, row0);
            bulk_commit_group();
        }
{{#reductions}}
        // The chunk's columns: merged across the warp's 8 lane rows (lanes t % 4 apart hold the same
        // columns), then lanes 0-3 add the warp's 16 rows (32 with MMA_M 2) in.
#pragma unroll
        for (int jj = 0; jj < CHUNK / 8; jj++)
#pragma unroll
            for (int e = 0; e < 2; e++) {
                const int col = col0 + 8 * (chunk * (CHUNK / 8) + jj) + cc + e;
                col_parts[jj][e].shuffle(4);
                col_parts[jj][e].shuffle(8);
                col_parts[jj][e].shuffle(16);
                if (t % 32 < 4 && col < n)
                    col_parts[jj][e].commit(ep, col);
            }
{{/reductions}}
    }
{{#reductions}}
    // The tile's rows: merged across the 4 lanes that hold a row, then lane t % 4 == 0 adds them in.
#pragma unroll
    for (int i = 0; i < MMA_M; i++)
#pragma unroll
        for (int h = 0; h < 2; h++) {
            const int row = row0 + 64 * i + r + 8 * h;
            row_parts[i][h].shuffle(1);
            row_parts[i][h].shuffle(2);
            if (t % 4 == 0 && row < m)
                row_parts[i][h].commit(ep, row);
        }
{{/reductions}}
}
