//! kernel: scan, strategy: lookback, axis: cols: a block a tile of rows of a band of columns.
{{status}}

// A tile is ROWS rows of a band of COLS columns.  Thread (g, l), g =
// threadIdx.x / LANES and l = threadIdx.x % LANES, takes the VEC columns at
{{^staged}}
// l * VEC of the tile's ITEMS rows from g * ITEMS, held in registers: LANES
{{/staged}}
{{#staged}}
// l * VEC of the tile's ITEMS rows from g * ITEMS, read from the tile in
// shared memory (staging: smem, read_tile()): LANES
{{/staged}}
// threads read a row of the band at once.  Warp w scans K of the band's
// columns across the row groups and looks back on them for the tile.
constexpr int LANES = {{lanes}};
constexpr int GROUPS = THREADS / LANES;  // row groups: a tile's threads down its rows
constexpr int COLS = LANES * VEC;
constexpr Index ROWS = (Index)GROUPS * ITEMS;
constexpr int WARPS = THREADS / 32;
constexpr int K = COLS / WARPS;
static_assert(GROUPS <= 32, "a column's row groups are scanned across a warp's lanes");
static_assert(COLS % WARPS == 0, "the warps share the band's columns evenly");
{{#staged}}
// The blocks an SM the launch bounds ask for: as many as shared memory
// holds, and no more than leave each thread the registers it needs.
constexpr int MOST_BLOCKS = {{most_blocks}}
constexpr int BLOCKS = fewest(SMEM_FIT, MOST_BLOCKS) > 1 ? fewest(SMEM_FIT, MOST_BLOCKS) : 1;
{{/staged}}

// The words of a warp's K columns at w (of a tile or a group), once each
// holds at least `what`: every load issued before the first is waited on.
// (Reading again every word not yet there each round, where a stale column
// is read again alone, measured the same on an H200 with 5-7 more
// registers: bench/results/nvidia-h200/2026-12-05-scan-cols-probe.)
static __device__ __forceinline__ void wait_columns(const Status &s, const Word *w, unsigned long long what,
                                                    Word (&got)[K])
{
#pragma unroll
    for (int k = 0; k < K; k++)
        got[k] = load_word(w + k);
#pragma unroll
    for (int k = 0; k < K; k++)
        while (got[k].what < (s.mark | what))
            got[k] = load_word(w + k);
}

// The first of the warp's columns in a tile's or a group's words.
static __device__ __forceinline__ int first_column() { return threadIdx.x / 32 * K; }

// For each of the warp's columns, the totals of the tiles before tile t in
// its group (lane l: tile t - t % GROUP + l, `all` tile t's own), scanned
// across the lanes: lane l holds tiles up to l of the group combined.
static __device__ __forceinline__ void group_scan(const Status &s, Index t, const Acc (&all)[K], Acc (&v)[K])
{
    const int lane = threadIdx.x % 32, p = (int)(t % GROUP);
    Word got[K];

#pragma unroll
    for (int k = 0; k < K; k++)
        v[k] = lane == p ? all[k] : identity();
    if (lane < p) {
        wait_columns(s, s.tiles + (t - p + lane) * COLS + first_column(), AGGREGATE, got);
#pragma unroll
        for (int k = 0; k < K; k++)
            v[k] = from_bits(got[k].bits);
    }
#pragma unroll
    for (int k = 0; k < K; k++)
        v[k] = warp_inclusive(v[k]);
}

// For each of the warp's columns, the combination of every tile before
// group g (g > 0): lane l reads group g - 1 - l's word (a group before 0
// counts as a prefix of the identity) once it has published its total;
// from the nearest lane d whose group published its prefix (none of 32: the
// one 32 back, waited for), that prefix and the totals of the groups after
// it, left to right.
static __device__ __forceinline__ void group_prefix(const Status &s, long long g, Acc (&prefix)[K])
{
    const int lane = threadIdx.x % 32;
    const long long h = g - 1 - lane;
    const Word *words = s.groups + h * COLS + first_column();
    Word w[K];

#pragma unroll
    for (int k = 0; k < K; k++)
        w[k] = Word{s.mark | PREFIX, to_bits(identity())};
    if (h >= 0)
        wait_columns(s, words, AGGREGATE, w);
#pragma unroll
    for (int k = 0; k < K; k++) {
        const unsigned int has = __ballot_sync(0xffffffffu, w[k].what == (s.mark | PREFIX));
        const int d = has ? __ffs(has) - 1 : 31;
        if (!has && lane == d)
            while ((w[k] = load_word(words + k)).what != (s.mark | PREFIX))
                __nanosleep(32);
        const Acc v = lane <= d ? from_bits(w[k].bits) : identity();
        Acc p = __shfl_sync(0xffffffffu, v, d);
        for (int l = d - 1; l >= 0; l--)
            p = combine(p, __shfl_sync(0xffffffffu, v, l));
        prefix[k] = p;
    }
}

// For each of the warp's columns, the combination of every tile before
// group g (g > 0): group g - 1's total from its tiles' words, scanned as its
// last tile scans them, after the groups before it as group_prefix finds them.
static __device__ __forceinline__ void before_group(const Status &s, long long g, Acc (&prefix)[K])
{
    const int lane = threadIdx.x % 32;
    Acc last[K], earlier[K];
    Word got[K];

#pragma unroll
    for (int k = 0; k < K; k++)
        last[k] = identity();
    if (lane < GROUP) {
        wait_columns(s, s.tiles + ((Index)(g - 1) * GROUP + lane) * COLS + first_column(), AGGREGATE, got);
#pragma unroll
        for (int k = 0; k < K; k++)
            last[k] = from_bits(got[k].bits);
    }
#pragma unroll
    for (int k = 0; k < K; k++)
        last[k] = __shfl_sync(0xffffffffu, warp_inclusive(last[k]), GROUP - 1);
    if (g > 1) {
        group_prefix(s, g - 1, earlier);
    } else {
#pragma unroll
        for (int k = 0; k < K; k++)
            earlier[k] = identity();  // from the identity, as group_prefix's folds
    }
#pragma unroll
    for (int k = 0; k < K; k++)
        prefix[k] = combine(earlier[k], last[k]);
}

// For each of the warp's columns, the combination of every tile up to the
// end of group h, once h's last tile has published it: what before_group(h
// + 1) would fold (the same left fold of the groups' totals, so the same
// bits), in one word a column where before_group reads 32 of the group's
// tiles and 32 groups.  A group's other tiles wait on it; its last tile
// folds, so that the groups' prefixes do not wait on one another in turn.
// Lane k reads column k's word (one word a lane's registers hold) and
// hands its value to the others.
static __device__ __forceinline__ void after_group(const Status &s, long long h, Acc (&prefix)[K])
{
    const int lane = threadIdx.x % 32;
    const Word *w = s.groups + h * COLS + first_column() + lane;
    Acc mine = identity();

    if (lane < K)
        mine = from_bits(s.wait(w, PREFIX).bits);
#pragma unroll
    for (int k = 0; k < K; k++)
        prefix[k] = __shfl_sync(0xffffffffu, mine, k);
}

// Warp w of tile t's block (tiles > 1), the tile's totals of its K columns
// in `all`: publishes them, scans those of the tiles before it in its group
// and takes what comes before the group: a group's last tile looks back on
// the groups before it and publishes the group's totals, then its
// prefixes; the group's other tiles wait for the prefixes of the group
// before.  The tile's prefixes, in every lane (the identity for tile 0).
static __device__ __forceinline__ void look_back(const Status &s, Index t, const Acc (&all)[K], Acc (&prefix)[K])
{
    const int lane = threadIdx.x % 32, p = (int)(t % GROUP), c = first_column();
    const long long g = (long long)(t / GROUP);
    Acc in_group[K], total[K], group[K];

    if (lane == 0) {
#pragma unroll
        for (int k = 0; k < K; k++)
            s.publish(s.tiles + t * COLS + c + k, all[k], AGGREGATE);
    }
    if (t == 0) {
#pragma unroll
        for (int k = 0; k < K; k++) {
            if (GROUP == 1 && lane == 0)  // group 0 is tile 0 alone: its prefix is its total, from the identity
                s.publish(s.groups + c + k, combine(identity(), all[k]), PREFIX);
            prefix[k] = identity();
        }
        return;
    }
    group_scan(s, t, all, in_group);
    if (p == GROUP - 1) {  // the group's totals, the scan's last lane
#pragma unroll
        for (int k = 0; k < K; k++) {
            total[k] = __shfl_sync(0xffffffffu, in_group[k], GROUP - 1);
            if (lane == 0)
                s.publish(s.groups + g * COLS + c + k, total[k], AGGREGATE);
        }
    }
    if (g > 0 && p == GROUP - 1) {
        before_group(s, g, group);
    } else if (g > 0) {
        after_group(s, g - 1, group);
    } else {
#pragma unroll
        for (int k = 0; k < K; k++)
            group[k] = identity();
    }
#pragma unroll
    for (int k = 0; k < K; k++) {
        const Acc mates = __shfl_sync(0xffffffffu, in_group[k], (p + 31) % 32);
        if (p == GROUP - 1 && lane == 0)
            s.publish(s.groups + g * COLS + c + k, combine(group[k], total[k]), PREFIX);
        prefix[k] = p > 0 ? combine(group[k], mates) : group[k];
    }
}

{{#cluster}}
constexpr int CLUSTER = {{cluster_size}};  // cluster_size

// cluster_size: CLUSTER tiles of a band are a cluster of blocks, the
// block's rank in it its tile's place.  Each block's tile totals meet in
// block 0 through distributed shared memory; block 0 folds them left to
// right into the cluster's, looks back once for the cluster (the
// look-back's chain a cluster a link, `st` of `supers`) and hands each
// block its prefix: the cluster's, then the totals of the blocks before
// it, left to right.  So the tiles of a cluster wait for one another at
// its two barriers, not on status words in L2, and every fold is the same
// run after run.
static __device__ __forceinline__ void cluster_look_back(const Status &s, Index st, Index supers, int rank,
                                                         const Acc (&all)[K], Acc (&prefix)[K])
{
    __shared__ unsigned long long totals[COLS], prefixes[COLS];
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;

    if (lane == 0)
#pragma unroll
        for (int k = 0; k < K; k++)
            totals[warp * K + k] = to_bits(all[k]);
    cluster_sync();
    if (rank == 0) {
        Acc mine[K], whole[K];  // lane r: block r's totals
#pragma unroll
        for (int k = 0; k < K; k++) {
            mine[k] = lane < CLUSTER ? from_bits(dsmem_load_u64(&totals[warp * K + k], lane)) : identity();
            whole[k] = __shfl_sync(0xffffffffu, mine[k], 0);
            for (int r = 1; r < CLUSTER; r++)
                whole[k] = combine(whole[k], __shfl_sync(0xffffffffu, mine[k], r));
        }
        if (supers > 1)
            look_back(s, st, whole, prefix);
#pragma unroll
        for (int k = 0; k < K; k++) {
            Acc p = prefix[k];  // lane r: block r's prefix
            for (int r = 0; r < CLUSTER - 1; r++) {
                const Acc before = __shfl_sync(0xffffffffu, mine[k], r);
                if (r < lane)
                    p = combine(p, before);
            }
            if (lane < CLUSTER)
                dsmem_store_u64(&prefixes[warp * K + k], to_bits(p), lane);
        }
    }
    cluster_sync();
#pragma unroll
    for (int k = 0; k < K; k++)
        prefix[k] = from_bits(prefixes[warp * K + k]);
}

{{/cluster}}
{{#staged}}
// staging: smem.  The tile at (row0, col0) into shared memory as it lies,
// a row of the band after another.  A whole tile
// whose rows start 16-byte aligned: one TMA bulk copy a row on sm_90,
// issued by warp 0's lanes (nothing staged in registers, so the
// look-back's registers are free and more tiles fit an SM).  Otherwise
// (and before sm_90) loads of VEC elements, each thread's across the
// tile, where a load's elements are inside the matrix and aligned, one
// element a load where not (the scan takes the identity outside it).
static __device__ __forceinline__ void read_tile(Pack<T, VEC> (*tile)[LANES], unsigned long long *bar,
                                                 const T *__restrict__ in, Index row0, Index col0, Index rows,
                                                 Index cols, Index in_pitch)
{
    static_assert(COLS * sizeof(T) % 16 == 0, "a row of the band is whole 16-byte pieces");
#if __CUDA_ARCH__ >= 900
    if (row0 + ROWS <= rows && col0 + COLS <= cols && aligned(in + row0 * in_pitch + col0, 16) &&
        in_pitch * sizeof(T) % 16 == 0) {  // whole, its rows 16-byte aligned
        if (threadIdx.x < 32) {
            if (threadIdx.x == 0) {
                mbarrier_init(bar, 1);
                fence_mbarrier_init();
                mbarrier_arrive_expect_tx(bar, (unsigned)(ROWS * COLS * sizeof(T)));
            }
            __syncwarp();
            for (int r = threadIdx.x; r < (int)ROWS; r += 32)
                bulk_load(tile[r], in + (row0 + r) * in_pitch + col0, (unsigned)(COLS * sizeof(T)), bar);
        }
        __syncthreads();  // the mbarrier is set up before anyone waits on it
        mbarrier_wait(bar, 0);
        return;
    }
#endif
    for (int i = threadIdx.x; i < (int)ROWS * LANES; i += THREADS) {
        const Index r = row0 + i / LANES, c = col0 + i % LANES * VEC;
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
}

{{/staged}}
// A block a tile of a band, the grid (tiles, bands) taken in launch order
// a band after another: block b (b = x + y * tiles) tile b / bands of band
// b % bands, so that every band's look-back runs at once (one band's tiles
// after another's, the chain of a band's group prefixes paced the scan:
// bench/results/nvidia-h200/2026-12-05-scan-cols-probe).  Each thread combines its rows of its columns; each warp scans
// the row groups' totals of its columns and looks back on them; each thread
// scans its rows from what comes before them and stores the results.
extern "C" __global__ void {{cluster_dims}}__launch_bounds__({{bounds}})
{{name}}(const T *__restrict__ in, Results out, Index rows, Index cols, Index in_pitch, Index out_pitch,
    unsigned char *__restrict__ scratch, Index band_scratch)
{
    // A row group's totals, then what comes before it; a row padded by one:
    // a warp reading down a column meets no bank twice.
    __shared__ Acc sums[GROUPS][COLS + 1];
    __shared__ unsigned long long mark;
{{#staged}}
    __shared__ alignas(128) Pack<T, VEC> tile[ROWS][LANES];
    __shared__ unsigned long long bar;
{{/staged}}
    const Index b = blockIdx.x + (Index)blockIdx.y * gridDim.x, tiles = (rows + ROWS - 1) / ROWS;
{{^cluster}}
    const Index t = b / gridDim.y, band = b % gridDim.y;
{{/cluster}}
{{#cluster}}
    // gridDim.x is the tiles rounded up to whole clusters, so block b's rank in its cluster is b % CLUSTER
    // (a tile past the last reads and writes nothing); the clusters take the bands in turn.
    const Index supers = (tiles + CLUSTER - 1) / CLUSTER, cluster = b / CLUSTER;
    const int rank = (int)(b % CLUSTER);
    const Index band = cluster % gridDim.y, st = cluster / gridDim.y, t = st * CLUSTER + rank;
{{/cluster}}
    const int g = threadIdx.x / LANES, l = threadIdx.x % LANES, warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const Index row = t * ROWS + (Index)g * ITEMS, col = band * COLS + (Index)l * VEC;
    const bool inside = row + ITEMS <= rows && col + VEC <= cols;
{{^staged}}
    Pack<T, VEC> x[ITEMS];
{{/staged}}

    // The launch's mark: read first, handed to the warps' look-backs once
    // the totals are in, so that no thread waits on it before its loads.
    const unsigned long long launches = threadIdx.x == 0 && {{chain}} > 1 ? launch_mark(scratch) : 0;
    unsigned long long arrived = 0;  // thread 0's count of the block (arrive())
{{#staged}}
    read_tile(tile, &bar, in, t * ROWS, band * COLS, rows, cols, in_pitch);
    // The thread's row j of its columns.
    auto pack = [&](int j) -> const Pack<T, VEC> & { return tile[g * ITEMS + j][l]; };
{{/staged}}
{{^staged}}
    if (inside && aligned(in, sizeof(Pack<T, VEC>)) && in_pitch % VEC == 0) {
#pragma unroll
        for (int j = 0; j < ITEMS; j++)
            x[j] = *reinterpret_cast<const Pack<T, VEC> *>(in + (row + j) * in_pitch + col);
    } else {
#pragma unroll
        for (int j = 0; j < ITEMS; j++)
#pragma unroll
            for (int e = 0; e < VEC; e++)
                if (row + j < rows && col + e < cols)
                    x[j].e[e] = in[(row + j) * in_pitch + col + e];
    }
    // The thread's row j of its columns.
    auto pack = [&](int j) -> const Pack<T, VEC> & { return x[j]; };
{{/staged}}
    // Element e of the thread's row j, x, as an accumulator (the identity outside the matrix).
    auto element = [&](const Pack<T, VEC> &x, int j, int e) {
        return inside || (row + j < rows && col + e < cols) ? to_acc(x.e[e], row + j) : identity();
    };
    Acc running[VEC];
#pragma unroll
    for (int e = 0; e < VEC; e++)
        running[e] = identity();
#pragma unroll
    for (int j = 0; j < ITEMS; j++) {
        const Pack<T, VEC> x = pack(j);
#pragma unroll
        for (int e = 0; e < VEC; e++)
            running[e] = combine(running[e], element(x, j, e));
    }
#pragma unroll
    for (int e = 0; e < VEC; e++)
        sums[g][l * VEC + e] = running[e];
    if (threadIdx.x == 0) {
        arrived = arrive(scratch, launches);
        mark = launches;
    }
    __syncthreads();
    const Status s(scratch, band, band_scratch, {{chain}} * COLS, mark);
    // Each of the warp's columns: the tile's total, and the row groups'
    // totals before each group (back where the group's total was, so that
    // no register holds them across the look-back).
    Acc all[K], prefix[K];
#pragma unroll
    for (int k = 0; k < K; k++) {
        const Acc upto = warp_inclusive(lane < GROUPS ? sums[lane][warp * K + k] : identity());
        const Acc before = __shfl_up_sync(0xffffffffu, upto, 1);
        all[k] = __shfl_sync(0xffffffffu, upto, GROUPS - 1);
        if (lane < GROUPS)
            sums[lane][warp * K + k] = before;
        prefix[k] = identity();
    }
{{^cluster}}
    if (tiles > 1)
        look_back(s, t, all, prefix);
{{/cluster}}
{{#cluster}}
    cluster_look_back(s, st, supers, rank, all, prefix);
{{/cluster}}
#pragma unroll
    for (int k = 0; k < K; k++)
        if (lane < GROUPS)
            sums[lane][warp * K + k] = lane == 0 ? prefix[k] : combine(prefix[k], sums[lane][warp * K + k]);
    __syncthreads();
    const bool packs = inside && aligned(out, sizeof(Pack<Stored, VEC>)) && out_pitch % VEC == 0;
#pragma unroll
    for (int e = 0; e < VEC; e++)
        running[e] = sums[g][l * VEC + e];
#pragma unroll
    for (int j = 0; j < ITEMS; j++) {
        const Pack<T, VEC> x = pack(j);
        Pack<Stored, VEC> r;
#pragma unroll
        for (int e = 0; e < VEC; e++) {
{{#inclusive}}
            running[e] = combine(running[e], element(x, j, e));
            store(r.e, e, running[e], rows);
{{/inclusive}}
{{^inclusive}}
            store(r.e, e, running[e], rows);
            running[e] = combine(running[e], element(x, j, e));
{{/inclusive}}
        }
        if (packs) {
            store_streaming(reinterpret_cast<Pack<Stored, VEC> *>(out + (row + j) * out_pitch + col), r);
        } else {
#pragma unroll
            for (int e = 0; e < VEC; e++)
                if (row + j < rows && col + e < cols)
                    out[(row + j) * out_pitch + col + e] = r.e[e];
        }
    }
    if (threadIdx.x == 0)
        count_launch(scratch, launches, arrived);
}
