//! kernel: scan, axis: cols, staging: ring: persistent blocks stream their tiles through a ring of shared-memory stages.
{{status}}

// A tile is ROWS rows of a band of COLS columns, as in the other column
// scan: thread (g, l), g = threadIdx.x / LANES and l = threadIdx.x % LANES,
// takes the VEC columns at l * VEC of the tile's ITEMS rows from g * ITEMS.
// The grid is (blocks, bands), the blocks a band as many as fit the GPU at
// once beside the other bands' (the launcher's choice; 1 where the bands
// alone fill it).  A band's block g takes its tiles g, g + blocks, ... in
// rounds; TMA copies STAGES of them ahead into shared memory, so the loads
// go on while the block waits for what comes before its tile.
constexpr int LANES = {{lanes}};
constexpr int GROUPS = THREADS / LANES;  // row groups: a tile's threads down its rows
constexpr int COLS = LANES * VEC;
constexpr Index ROWS = (Index)GROUPS * ITEMS;
constexpr int STAGES = {{stages}};  // stages
constexpr int BLOCKS = {{blocks}};  // blocks_per_sm: the launch bounds
// The rows of a tensor map's box (a divisor of ROWS, at most TMA's 256, whole 128-byte pieces; 0: a tile
// takes no boxes): with the host's map of the input, TMA copies a tile as ROWS / BOX_ROWS boxes.
constexpr int BOX_ROWS = {{box_rows}};
static_assert(COLS * sizeof(T) % 16 == 0, "a row of the band is whole 16-byte pieces");

// What comes before a tile, the band's blocks in groups of M (the least M
// with M * M >= blocks: a block reads at most 2M words a column a tile):
//   a tile's total, published as soon as the tile is in (a round early:
//     the block reads the next tile before it waits on this one's words);
//   a group's total for the round, published by its last block, which
//     adds its group mates' tiles first and waits on nothing else;
//   the block's carry: every round before this one, kept in shared memory.
// A tile's prefix is its carry, the group totals of the round before its
// group, and its group mates' tiles before it, folded left to right, so the
// bits are the same run after run.  The words are a ring of ROUNDS rounds,
// marked with the launch and the round: a block never reads a word more
// than three rounds behind the one its writer is in.
constexpr int ROUNDS = {{rounds}};  // gen/scan.h's KGEN_SCAN_RING_ROUNDS, which sizes the scratch
// Threads that share a column's words (each folds an unbroken run of them)
// and the words a thread loads before it waits on the first (4: a part has
// 2 to 3 words at 16 blocks a band, and each word of a batch costs its test
// and branch whether it is there or not; 8 ran 0.02-0.04 of a copy slower).
constexpr int PARTS = THREADS / COLS >= 4 ? 4 : THREADS / COLS >= 1 ? THREADS / COLS : 1;
constexpr int BATCH = 4;

// The blocks of a group: the least m with m * m >= blocks.
static __device__ __forceinline__ int group_size(int blocks)
{
    int m = 1;
    while (m * m < blocks)
        m++;
    return m;
}

// A word's mark: the launch's (launch_mark(), a multiple of 2^24) and the round, below the next launch's.
static __device__ __forceinline__ unsigned long long round_mark(unsigned long long mark, int round)
{
    return mark | (unsigned long long)(round + 1);
}

// Words lo to hi - 1 of a column's list folded left to right, where(i, what,
// seg) giving word i's address, the mark it must hold and which part of the
// prefix it goes to (acc[seg]): every word of a batch is loaded before the
// first is waited on.
template <typename Where>
static __device__ __forceinline__ void fold_words(Where where, int lo, int hi, Acc (&acc)[3])
{
    for (int i0 = lo; i0 < hi; i0 += BATCH) {
        Word got[BATCH];
        const Word *at[BATCH];
        unsigned long long what[BATCH];
        int seg[BATCH];
#pragma unroll
        for (int j = 0; j < BATCH; j++)
            if (i0 + j < hi) {
                at[j] = where(i0 + j, what[j], seg[j]);
                got[j] = load_word(at[j]);
            }
#pragma unroll
        for (int j = 0; j < BATCH; j++)
            if (i0 + j < hi) {
                while (got[j].what != what[j])
                    got[j] = load_word(at[j]);
                const Acc v = from_bits(got[j].bits);
                if (seg[j] == 0)
                    acc[0] = combine(acc[0], v);
                else if (seg[j] == 1)
                    acc[1] = combine(acc[1], v);
                else
                    acc[2] = combine(acc[2], v);
            }
    }
}

// A block a band's share of its tiles (see above).  Each thread combines its
// rows of its columns; the row groups' totals are the tile's, published;
// the tile's prefix comes from the words; each thread scans its rows from it
// and stores the results.
extern "C" __global__ void __launch_bounds__(THREADS, BLOCKS)
{{name}}(const T *__restrict__ in, Results out, Index rows, Index cols, Index in_pitch, Index out_pitch,
    unsigned char *__restrict__ scratch, Index band_scratch, const __grid_constant__ CUtensorMap in_map, int mapped)
{
    extern __shared__ __align__(128) unsigned char ring[];  // STAGES tiles as they lie: Pack<T, VEC>[ROWS][LANES]
    // A tile's row groups' totals (its next tile's too), a thread's VEC columns a pack: each thread writes
    // one and reads those of the groups above it whole; thread c reads column c down the groups.
    __shared__ Pack<Acc, VEC> sums[2][GROUPS][LANES];
    __shared__ Acc totals[2][COLS];            // the tile's totals; its next tile's
    __shared__ Acc parts[3][PARTS][COLS];      // the words' folds: carry, groups before, mates
    __shared__ Acc carry[COLS], prefix[COLS], mates[COLS];
    __shared__ unsigned long long bars[STAGES], mark;

    const Index bands = gridDim.y, blocks = gridDim.x, b = blockIdx.x + (Index)blockIdx.y * gridDim.x;
    const Index band = b % bands, bg = b / bands, tiles = (rows + ROWS - 1) / ROWS;
    // this block's tiles (the launcher refuses a call of more than 2^24 rounds)
    const int mine = bg < tiles ? (int)((tiles - bg + blocks - 1) / blocks) : 0;
    const int m = group_size((int)blocks), groups = ((int)blocks + m - 1) / m;
    const int grp = (int)bg / m, first = grp * m, last = first + m < (int)blocks ? first + m - 1 : (int)blocks - 1;
    const int g = threadIdx.x / LANES, l = threadIdx.x % LANES;
    const Index col = band * COLS + (Index)l * VEC;
    Word *const tile_words = reinterpret_cast<Word *>(scratch + sizeof(Word) + band * band_scratch);
    Word *const group_words = tile_words + ROUNDS * blocks * COLS;
    const unsigned long long launches = threadIdx.x == 0 && blocks > 1 ? launch_mark(scratch) : 0;
    unsigned long long arrived = 0;  // thread 0's count of the block (arrive())

    // Tile k of the block: its first row, its stage; the rows of it inside the matrix, and the bytes of a
    // row of the band inside it (a partial last tile or band: fewer).
    auto row0 = [&](int k) { return ((Index)k * blocks + bg) * ROWS; };
    auto stage = [&](int k) { return reinterpret_cast<Pack<T, VEC>(*)[LANES]>(ring + k % STAGES * ROWS * COLS * sizeof(T)); };
    const unsigned band_bytes = (unsigned)((cols - band * COLS < (Index)COLS ? cols - band * COLS : COLS) * sizeof(T));
    auto rows_in = [&](int k) { return (int)(rows - row0(k) < ROWS ? rows - row0(k) : ROWS); };
    // Whether TMA copies the tiles: as boxes of in_map where the host could make one (`mapped`: the input
    // 16-byte aligned, its pitch whole 16-byte pieces), else a row at a time where their bytes of the band are
    // whole 16-byte pieces, 16-byte aligned (the same for every tile of the band).
    const bool boxes = BOX_ROWS > 0 && mapped;
    const bool copied = boxes || (band_bytes % 16 == 0 && in_pitch * sizeof(T) % 16 == 0 && aligned(in + band * COLS, 16));
    // Warp 0: tile k into its stage, by boxes of the map (the rows and columns past the matrix land as zeros)
    // or a TMA bulk copy of each of its rows inside the matrix (the rest of the stage is never read as
    // elements: element() takes the identity there); a tile TMA does not copy completes its stage's phase at
    // once and the threads read it themselves (read()).
    auto issue = [&](int k) {
        if (k >= mine)
            return;
        unsigned long long *bar = &bars[k % STAGES];
        if (!copied) {
            if (threadIdx.x == 0)
                mbarrier_arrive(bar);
            return;
        }
        if (boxes) {
            if (threadIdx.x == 0) {
                mbarrier_arrive_expect_tx(bar, (unsigned)(ROWS * COLS * sizeof(T)));  // a box's bytes past the matrix too
                for (int r = 0; r < ROWS; r += (BOX_ROWS > 0 ? BOX_ROWS : ROWS))
                    tma_load_2d(stage(k)[r], &in_map, (int)(band * COLS), (int)(row0(k) + r), bar);
            }
            return;
        }
        const int n = rows_in(k);
        if (threadIdx.x == 0)
            mbarrier_arrive_expect_tx(bar, (unsigned)n * band_bytes);
        __syncwarp();
        for (int r = threadIdx.x; r < n; r += 32)
            bulk_load(stage(k)[r], in + (row0(k) + r) * in_pitch + band * COLS, band_bytes, bar);
    };
    // Tile k in its stage once it is there: loads of VEC elements where inside and aligned, else one
    // element a load (the rows and columns past the matrix are never read).
    auto read = [&](int k) {
        mbarrier_wait(&bars[k % STAGES], (unsigned)(k / STAGES % 2));
        if (copied)
            return;
        Pack<T, VEC>(*tile)[LANES] = stage(k);
        for (int i = threadIdx.x; i < (int)ROWS * LANES; i += THREADS) {
            const Index r = row0(k) + i / LANES, c = band * COLS + i % LANES * VEC;
            const T *from = in + r * in_pitch + c;
            if (r < rows && c + VEC <= cols && aligned(from, sizeof(Pack<T, VEC>))) {
                tile[i / LANES][i % LANES] = *reinterpret_cast<const Pack<T, VEC> *>(from);
            } else {
#pragma unroll
                for (int e = 0; e < VEC; e++)
                    if (r < rows && c + e < cols)
                        tile[i / LANES][i % LANES].e[e] = from[e];
            }
        }
        __syncthreads();
    };
    // Element e of the thread's row j of a tile whose thread's rows start at `row`, as an accumulator (the
    // identity outside the matrix; `inside`: the thread's rows and columns all are).
    auto element = [&](bool inside, Index row, const Pack<T, VEC> &x, int j, int e) {
        return inside || (row + j < rows && col + e < cols) ? to_acc(x.e[e], row + j) : identity();
    };
    // Tile k's row groups' totals and its totals, published for the band's other blocks.
    auto total = [&](int k) {
        const int t = (int)(k % 2);
        const Index row = row0(k) + (Index)g * ITEMS;
        const bool inside = row + ITEMS <= rows && col + VEC <= cols;
        const Pack<T, VEC>(*tile)[LANES] = stage(k);
        read(k);
        Acc running[VEC];
#pragma unroll
        for (int e = 0; e < VEC; e++)
            running[e] = identity();
        // The rows inside the matrix unrolled, checking nothing; the others (a partial tile or band) a row at a
        // time, each element checked (a loop apart: the build's time is the unrolled code's).
        if (inside) {
#pragma unroll
            for (int j = 0; j < ITEMS; j++) {
                const Pack<T, VEC> x = tile[g * ITEMS + j][l];
#pragma unroll
                for (int e = 0; e < VEC; e++)
                    running[e] = combine(running[e], element(true, row, x, j, e));
            }
        } else if (col < cols) {  // (a thread whose columns are all past the matrix keeps the identity)
#pragma unroll 1
            for (int j = 0; j < ITEMS; j++) {
                const Pack<T, VEC> x = tile[g * ITEMS + j][l];
#pragma unroll
                for (int e = 0; e < VEC; e++)
                    running[e] = combine(running[e], element(false, row, x, j, e));
            }
        }
        Pack<Acc, VEC> mine;
#pragma unroll
        for (int e = 0; e < VEC; e++)
            mine.e[e] = running[e];
        sums[t][g][l] = mine;
        __syncthreads();
        for (int c = threadIdx.x; c < COLS; c += THREADS) {
            Acc v = sums[t][0][c / VEC].e[c % VEC];
            for (int h = 1; h < GROUPS; h++)
                v = combine(v, sums[t][h][c / VEC].e[c % VEC]);
            totals[t][c] = v;
            if (blocks > 1)
                store_word(tile_words + (k % ROUNDS * blocks + bg) * COLS + c, round_mark(mark, k), to_bits(v));
        }
    };

    if (threadIdx.x == 0) {
        for (int s = 0; s < STAGES; s++)
            mbarrier_init(&bars[s], 1);
        fence_mbarrier_init();
    }
    for (int c = threadIdx.x; c < COLS; c += THREADS)
        carry[c] = identity();
    __syncthreads();
    if (threadIdx.x < 32)
        for (int k = 0; k < STAGES; k++)
            issue(k);
    if (threadIdx.x == 0) {
        arrived = arrive(scratch, launches);
        mark = launches;
    }
    __syncthreads();
    if (mine > 0)
        total(0);

    // The results as packs where the output and its pitch allow it.
    const bool out_packs = aligned(out, sizeof(Pack<Stored, VEC>)) && out_pitch % VEC == 0;
    for (int k = 0; k < mine; k++) {
        const int t = (int)(k % 2);
        if (k + 1 < mine)
            total(k + 1);  // the next tile's totals out before this one waits
        __syncthreads();
        if (blocks > 1) {
            const Word *this_round = tile_words + k % ROUNDS * blocks * COLS;
            const Word *groups_now = group_words + k % ROUNDS * groups * COLS;
            const Word *groups_then = group_words + (k + ROUNDS - 1) % ROUNDS * groups * COLS;
            // Word w of the list a tile's prefix folds, for column c: `then` group totals of the previous
            // round from this block's group on, `now` of this round before its group, then the tiles of its
            // group from the first (one closure type for both lists: one fold_words in the build).
            auto words = [&](int then, int now, int c) {
                return [=](int w, unsigned long long &what, int &seg) -> const Word * {
                    if (w < then) {
                        what = round_mark(mark, k - 1), seg = 0;
                        return groups_then + (grp + w) * COLS + c;
                    }
                    what = round_mark(mark, k);
                    if (w < then + now) {
                        seg = 1;
                        return groups_now + (w - then) * COLS + c;
                    }
                    seg = 2;
                    return this_round + (first + w - then - now) * COLS + c;
                };
            };
            // A group's last block: its mates' tiles, then the group's total, before anything else.
            if ((int)bg == last) {
                for (int i = threadIdx.x; i < COLS * PARTS; i += THREADS) {
                    const int c = i % COLS, p = i / COLS, n = (int)bg - first;
                    Acc acc[3] = {identity(), identity(), identity()};
                    fold_words(words(0, 0, c), n * p / PARTS, n * (p + 1) / PARTS, acc);
                    parts[2][p][c] = acc[2];
                }
                __syncthreads();
                for (int c = threadIdx.x; c < COLS; c += THREADS) {
                    Acc v = parts[2][0][c];
                    for (int p = 1; p < PARTS; p++)
                        v = combine(v, parts[2][p][c]);
                    mates[c] = v;
                    store_word(group_words + (k % ROUNDS * groups + grp) * COLS + c, round_mark(mark, k),
                               to_bits(combine(v, totals[t][c])));
                }
                __syncthreads();
            }
            // The words of the tile's prefix, in order: the previous round's group totals from this
            // block's group on (the carry's rest), this round's before its group, its mates before it.
            const int then = k > 0 ? groups - grp : 0, now = grp, before = (int)bg == last ? 0 : (int)bg - first;
            const int n = then + now + before;
            for (int i = threadIdx.x; i < COLS * PARTS; i += THREADS) {
                const int c = i % COLS, p = i / COLS;
                Acc acc[3] = {identity(), identity(), identity()};
                fold_words(words(then, now, c), n * p / PARTS, n * (p + 1) / PARTS, acc);
                parts[0][p][c] = acc[0];
                parts[1][p][c] = acc[1];
                if ((int)bg != last)
                    parts[2][p][c] = acc[2];
            }
            __syncthreads();
            for (int c = threadIdx.x; c < COLS; c += THREADS) {
                Acc v = carry[c];
                for (int p = 0; p < PARTS; p++)
                    v = combine(v, parts[0][p][c]);  // every round before this one
                for (int p = 0; p < PARTS; p++)
                    v = combine(v, parts[1][p][c]);  // and this round's groups before the block's
                carry[c] = v;
                if ((int)bg == last) {
                    v = combine(v, mates[c]);
                } else {
                    for (int p = 0; p < PARTS; p++)
                        v = combine(v, parts[2][p][c]);
                }
                prefix[c] = v;
            }
        } else {
            for (int c = threadIdx.x; c < COLS; c += THREADS) {
                prefix[c] = carry[c];
                carry[c] = combine(carry[c], totals[t][c]);
            }
        }
        __syncthreads();

        // The thread's rows from the tile's prefix and the row groups' totals before its own.
        const Index row = row0(k) + (Index)g * ITEMS;
        const bool inside = row + ITEMS <= rows && col + VEC <= cols;
        const bool packs = inside && out_packs;
        const Pack<T, VEC>(*tile)[LANES] = stage(k);
        Acc running[VEC];
#pragma unroll
        for (int e = 0; e < VEC; e++)
            running[e] = prefix[l * VEC + e];
        for (int h = 0; h < g; h++) {
            const Pack<Acc, VEC> above = sums[t][h][l];
#pragma unroll
            for (int e = 0; e < VEC; e++)
                running[e] = combine(running[e], above.e[e]);
        }
        // Row j of the thread's columns scanned on from `running` into r (`whole`: inside the matrix; called
        // with a constant, as add()).
        auto scan_row = [&](bool whole, const Pack<T, VEC> &x, int j, Pack<Stored, VEC> &r) {
#pragma unroll
            for (int e = 0; e < VEC; e++) {
{{#inclusive}}
                running[e] = combine(running[e], element(whole, row, x, j, e));
                store(r.e, e, running[e], rows);
{{/inclusive}}
{{^inclusive}}
                store(r.e, e, running[e], rows);
                running[e] = combine(running[e], element(whole, row, x, j, e));
{{/inclusive}}
            }
        };
        if (packs) {  // whole packs of results, a row's out_pitch / VEC packs after the last
            Pack<Stored, VEC> *to = reinterpret_cast<Pack<Stored, VEC> *>(out + row * out_pitch + col);
#pragma unroll
            for (int j = 0; j < ITEMS; j++) {
                Pack<Stored, VEC> r;
                scan_row(true, tile[g * ITEMS + j][l], j, r);
                store_streaming(to, r);
                to += out_pitch / VEC;
            }
        } else if (col < cols) {  // a row at a time (as add()'s checked rows)
#pragma unroll 1
            for (int j = 0; j < ITEMS; j++) {
                Pack<Stored, VEC> r;
                scan_row(false, tile[g * ITEMS + j][l], j, r);
#pragma unroll
                for (int e = 0; e < VEC; e++)
                    if (row + j < rows && col + e < cols)
                        out[(row + j) * out_pitch + col + e] = r.e[e];
            }
        }
        __syncthreads();  // the stage and the tile's sums are free
        if (threadIdx.x < 32)
            issue(k + STAGES);
    }
    if (threadIdx.x == 0)
        count_launch(scratch, launches, arrived);
}
