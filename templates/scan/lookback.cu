//! kernel: scan, strategy: lookback, along rows: a block a tile of a row.
{{status}}

// The combination of the totals of the tiles before tile t in its group
// (lane l: tile t - t % GROUP + l, `all` tile t's own), scanned across the
// lanes: lane l holds tiles up to l of the group combined.
static __device__ __forceinline__ Acc group_scan(const Status &s, Index t, Acc all)
{
    const int lane = threadIdx.x % 32, p = (int)(t % GROUP);
    const Index j = t - p + lane;
    Acc v = identity();

    if (lane < p)
        v = from_bits(s.wait(s.tiles + j, AGGREGATE).bits);
    else if (lane == p)
        v = all;
    return warp_inclusive(v);
}

// The combination of every tile before group g (g > 0), by a warp: lane l
// reads group g - 1 - l's flag (a group before 0 counts as a prefix of the
// identity) once it has published its total; from the nearest lane d whose
// group published its prefix (none of 32: the one 32 back, waited for),
// that prefix and the totals of the groups after it, left to right.
static __device__ __forceinline__ Acc group_prefix(const Status &s, long long g)
{
    const int lane = threadIdx.x % 32;
    const long long h = g - 1 - lane;
    Word w = {s.mark | PREFIX, to_bits(identity())};

    if (h >= 0)
        w = s.wait(s.groups + h, AGGREGATE);
    const unsigned int has = __ballot_sync(0xffffffffu, w.what == (s.mark | PREFIX));
    const int d = has ? __ffs(has) - 1 : 31;
    if (!has && lane == d)
        while ((w = load_word(s.groups + h)).what != (s.mark | PREFIX))
            __nanosleep(32);
    const Acc v = lane <= d ? from_bits(w.bits) : identity();
    Acc prefix = __shfl_sync(0xffffffffu, v, d);
    for (int l = d - 1; l >= 0; l--)
        prefix = combine(prefix, __shfl_sync(0xffffffffu, v, l));
    return prefix;
}

// The combination of every tile before group g (g > 0), by a warp: group
// g - 1's total from its tiles' words, scanned as its last tile scans them
// (so the same bits as the total that tile publishes, a round trip sooner),
// after the groups before it as group_prefix finds them.
static __device__ __forceinline__ Acc before_group(const Status &s, long long g)
{
    const int lane = threadIdx.x % 32;
    Acc v = identity();

    if (lane < GROUP)
        v = from_bits(s.wait(s.tiles + (Index)(g - 1) * GROUP + lane, AGGREGATE).bits);
    const Acc last = __shfl_sync(0xffffffffu, warp_inclusive(v), GROUP - 1);
    return combine(g > 1 ? group_prefix(s, g - 1) : identity(), last);  // from the identity, as group_prefix's folds
}

// Warp 0 of tile t's block, the tile's total in `all`, the launch's mark
// (launch_mark(), read as the block started; tiles > 1): publishes the
// total, scans those of the tiles before it in its group and looks back on
// the groups before that (a group's last tile publishes the group's total,
// then its prefix).  The tile's prefix, in every lane (the identity for
// tile 0).
static __device__ __forceinline__ Acc look_back(unsigned char *scratch, Index row_scratch, Index t, Index tiles,
                                                unsigned long long mark, Acc all)
{
    const Status s(scratch, blockIdx.y, row_scratch, tiles, mark);
    const int p = (int)(t % GROUP);
    const long long g = (long long)(t / GROUP);

    if (t == 0) {
        if (threadIdx.x == 0 && tiles > 1) {
            s.publish(s.tiles, all, AGGREGATE);
            if (GROUP == 1)  // group 0 is tile 0 alone: its prefix is its total, from the identity as every prefix
                s.publish(s.groups, combine(identity(), all), PREFIX);
        }
        return identity();
    }
    if (threadIdx.x == 0)
        s.publish(s.tiles + t, all, AGGREGATE);
    const Acc in_group = group_scan(s, t, all), group_total = __shfl_sync(0xffffffffu, in_group, GROUP - 1);
    if (p == GROUP - 1 && threadIdx.x == 0)
        s.publish(s.groups + g, group_total, AGGREGATE);
    const Acc group = g > 0 ? before_group(s, g) : identity();
    const Acc mates = __shfl_sync(0xffffffffu, in_group, (p + 31) % 32);
    if (p == GROUP - 1 && threadIdx.x == 0)
        s.publish(s.groups + g, combine(group, group_total), PREFIX);
    return p > 0 ? combine(group, mates) : group;
}

{{^segments}}
// A block a tile of a row: its elements scanned in the tile and its total
// published; then warp 0 looks back while the other warps scan their items
// in the tile; the tile's prefix is combined in as it is stored.
extern "C" __global__ void __launch_bounds__(THREADS)
{{name}}(const T *__restrict__ in, Results out, Index n, Index in_pitch, Index out_pitch,
    unsigned char *__restrict__ scratch, Index row_scratch)
{
    __shared__ Acc tile[TILE_WORDS];
    __shared__ Acc tile_prefix;
    const Index t = blockIdx.x, first = t * TILE, tiles = (n + TILE - 1) / TILE;
    // The launch's mark, for warp 0's look-back: read first and used there,
    // so that no thread waits on it before its loads are issued.
    const unsigned long long mark = threadIdx.x == 0 && tiles > 1 ? launch_mark(scratch) : 0;
    unsigned long long arrived = 0;  // thread 0's count of the block (arrive())
    Acc all;

    in += blockIdx.y * in_pitch;  // row blockIdx.y of a matrix (row 0 of a vector)
    out += blockIdx.y * out_pitch;
    load_tile(tile, in, first, n);
    __syncthreads();
    const Acc before = block_exclusive(items_total(tile), &all);
    if (threadIdx.x < 32) {
        if (threadIdx.x == 0)
            arrived = arrive(scratch, mark);
        const Acc prefix = look_back(scratch, row_scratch, t, tiles, __shfl_sync(0xffffffffu, mark, 0), all);
        if (threadIdx.x == 0)
            tile_prefix = prefix;
    }
    scan_items(tile, before);
    __syncthreads();
    store_tile(out, tile, first, n, t > 0 ? &tile_prefix : nullptr);
    if (threadIdx.x == 0)
        count_launch(scratch, mark, arrived);
}
{{/segments}}
{{#segments}}
// block_scan: segments.  Warp w takes elements [w * SEG, (w + 1) * SEG) of
// the tile, 32 x VEC a step: lane l the VEC elements at l * VEC, read from
// shared memory in one load (no bank twice), so the tile lies there as read.
constexpr int SEG = (int)(TILE / (THREADS / 32));
constexpr int STEP = 32 * VEC;
static_assert(SEG % STEP == 0, "a warp's segment is whole steps");

// The tile at `first` (n - first elements left) into shared memory as it
// is; whether it was whole.  A whole tile at an aligned address: one TMA
// bulk copy on sm_90 (nothing staged in registers, so more tiles fit an
// SM), loads of VEC elements before; otherwise the elements before n, one
// a load (the rest are left: the scan takes the identity for them).
static __device__ __forceinline__ bool read_tile(T *tile, unsigned long long *bar, const T *__restrict__ in, Index first,
                                                 Index n)
{
    const bool whole = first + TILE <= n && aligned(in + first, sizeof(Pack<T, VEC>) > 16 ? sizeof(Pack<T, VEC>) : 16);

    if (whole) {
#if __CUDA_ARCH__ >= 900
        constexpr unsigned BYTES = (unsigned)(TILE * sizeof(T));
        if (threadIdx.x == 0) {
            mbarrier_init(bar, 1);
            fence_mbarrier_init();
            mbarrier_arrive_expect_tx(bar, BYTES);
            bulk_load(tile, in + first, BYTES, bar);
        }
        __syncthreads();  // the mbarrier is set up before anyone waits on it
        mbarrier_wait(bar, 0);
#else
        const Pack<T, VEC> *packs = reinterpret_cast<const Pack<T, VEC> *>(in + first);
        Pack<T, VEC> p[ITEMS / VEC];
#pragma unroll
        for (int j = 0; j < ITEMS / VEC; j++)
            p[j] = packs[j * THREADS + threadIdx.x];
#pragma unroll
        for (int j = 0; j < ITEMS / VEC; j++)
            reinterpret_cast<Pack<T, VEC> *>(tile)[j * THREADS + threadIdx.x] = p[j];
        __syncthreads();
#endif
        return true;
    }
    for (int i = threadIdx.x; i < (int)TILE; i += THREADS)
        if (first + i < n)
            tile[i] = in[first + i];
    __syncthreads();
    return false;
}

// Element i of the tile as an accumulator (the identity past n).
static __device__ __forceinline__ Acc element(T x, Index i, Index n, bool whole)
{
    return whole || i < n ? to_acc(x, i) : identity();
}

// A block a tile of a row, read whole into shared memory: each warp combines
// its segment, warp 0 scans the warp totals and looks back, then each warp
// scans its segment a step at a time from what comes before it and stores
// the results from registers.
extern "C" __global__ void __launch_bounds__(THREADS, BLOCKS)
{{name}}(const T *__restrict__ in, Results out, Index n, Index in_pitch, Index out_pitch,
    unsigned char *__restrict__ scratch, Index row_scratch)
{
    __shared__ alignas(128) T tile[TILE];
    __shared__ unsigned long long bar;
    __shared__ Acc before_warp[THREADS / 32];
    const Index t = blockIdx.x, first = t * TILE, tiles = (n + TILE - 1) / TILE;
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32, seg = warp * SEG + lane * VEC;
    // The launch's mark, for warp 0's look-back: read first and used there,
    // so that thread 0 issues the tile's copy without waiting on it.
    const unsigned long long mark = threadIdx.x == 0 && tiles > 1 ? launch_mark(scratch) : 0;
    unsigned long long arrived = 0;  // thread 0's count of the block (arrive())

    in += blockIdx.y * in_pitch;  // row blockIdx.y of a matrix (row 0 of a vector)
    out += blockIdx.y * out_pitch;
    const bool whole = read_tile(tile, &bar, in, first, n);
{{#commutes}}
    // Each lane's elements of every step, then across the lanes (the op
    // commutes: one order, fixed, of the segment's elements).
    Acc mine = identity();
#pragma unroll
    for (int c = 0; c < SEG / STEP; c++) {
        const int i = seg + c * STEP;
        const Pack<T, VEC> x = *reinterpret_cast<const Pack<T, VEC> *>(tile + i);
#pragma unroll
        for (int e = 0; e < VEC; e++)
            mine = combine(mine, element(x.e[e], first + i + e, n, whole));
    }
    const Acc warp_total = __shfl_sync(0xffffffffu, warp_inclusive(mine), 31);
{{/commutes}}
{{^commutes}}
    // Each step's elements across the lanes, then the steps, in the
    // segment's order (op: custom's combine need not commute).
    Acc warp_total = identity();
#pragma unroll
    for (int c = 0; c < SEG / STEP; c++) {
        const int i = seg + c * STEP;
        const Pack<T, VEC> x = *reinterpret_cast<const Pack<T, VEC> *>(tile + i);
        Acc mine = identity();
#pragma unroll
        for (int e = 0; e < VEC; e++)
            mine = combine(mine, element(x.e[e], first + i + e, n, whole));
        warp_total = combine(warp_total, __shfl_sync(0xffffffffu, warp_inclusive(mine), 31));
    }
{{/commutes}}
    if (lane == 0)
        before_warp[warp] = warp_total;
    __syncthreads();
    if (warp == 0) {
        const Acc w = warp_inclusive(lane < THREADS / 32 ? before_warp[lane] : identity());
        const Acc all = __shfl_sync(0xffffffffu, w, THREADS / 32 - 1);
        if (lane == 0)
            arrived = arrive(scratch, mark);
        const Acc prefix = look_back(scratch, row_scratch, t, tiles, __shfl_sync(0xffffffffu, mark, 0), all);
        const Acc earlier = __shfl_up_sync(0xffffffffu, w, 1);
        if (lane < THREADS / 32)
            before_warp[lane] = lane == 0 ? prefix : combine(prefix, earlier);
    }
    __syncthreads();
    Acc running = before_warp[warp];
    const bool packs = whole && aligned(out + first, sizeof(Pack<Stored, VEC>));
#pragma unroll
    for (int c = 0; c < SEG / STEP; c++) {
        const int i = seg + c * STEP;
        const Pack<T, VEC> p = *reinterpret_cast<const Pack<T, VEC> *>(tile + i);
        Acc x[VEC];
#pragma unroll
        for (int e = 0; e < VEC; e++)
            x[e] = element(p.e[e], first + i + e, n, whole);
        Acc mine_step = x[0];
#pragma unroll
        for (int e = 1; e < VEC; e++)
            mine_step = combine(mine_step, x[e]);
        const Acc upto = warp_inclusive(mine_step), lanes_before = __shfl_up_sync(0xffffffffu, upto, 1);
        Acc v = lane == 0 ? running : combine(running, lanes_before);
        Pack<Stored, VEC> r;
#pragma unroll
        for (int e = 0; e < VEC; e++) {
{{#inclusive}}
            v = combine(v, x[e]);
            store(r.e, e, v, n);
{{/inclusive}}
{{^inclusive}}
            store(r.e, e, v, n);
            v = combine(v, x[e]);
{{/inclusive}}
        }
        if (packs) {
            store_streaming(reinterpret_cast<Pack<Stored, VEC> *>(out + first + i), r);
        } else {
#pragma unroll
            for (int e = 0; e < VEC; e++)
                if (first + i + e < n)
                    out[first + i + e] = r.e[e];
        }
        running = combine(running, __shfl_sync(0xffffffffu, upto, 31));
    }
    if (threadIdx.x == 0)
        count_launch(scratch, mark, arrived);
}
{{/segments}}
