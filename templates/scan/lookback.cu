//! kernel: scan, strategy: lookback: one pass, decoupled look-back over groups of tiles.
// Tiles come in groups of GROUP (at most a warp's lanes); the last tile of a group
// stands for it.  Each tile and each group has a status word: what it holds,
// marked by the launch's epoch (epoch * 4 + what: a mark of an earlier launch
// is smaller than this launch's, so the words need no clearing between
// launches, only zeros at first), and the value:
//   tile t's word, AGGREGATE: tile t's total;
//   group g's word, AGGREGATE: group g's total; then PREFIX: the combination
//                   of every tile up to the end of group g.
// A tile's prefix is its group's prefix combined with the totals of the
// tiles before it in the group, scanned across a warp's lanes along one
// fixed tree (a group's total is that scan's lane GROUP - 1); a group's prefix
// is the nearest published group prefix combined, left to right, with the
// totals of the groups after it.  So every prefix is the same combination
// whatever the timing, and floats come out the same run after run.
constexpr unsigned long long AGGREGATE = 1, PREFIX = 2;

// Tiles a group (lookback_group): a tile waits for the totals of those before it in its group.
constexpr int GROUP = {{group}};

// A status word, 16 bytes read and written whole: the value travels with
// its mark, so a reader that sees the mark has the value, and neither side
// needs a fence (relaxed; acquire loads and release stores of a separate
// flag were 0.63 of a copy at 2^28 f32 on an H200, these 0.73).
struct alignas(16) Word {
    unsigned long long what, bits;
};
static_assert(sizeof(Acc) <= sizeof(unsigned long long), "an accumulator fits a status word");

static __device__ __forceinline__ Word load_word(const Word *p)
{
    Word w;
    asm volatile("ld.relaxed.gpu.global.v2.u64 {%0, %1}, [%2];" : "=l"(w.what), "=l"(w.bits) : "l"(p) : "memory");
    return w;
}

static __device__ __forceinline__ void store_word(Word *p, unsigned long long what, unsigned long long bits)
{
    asm volatile("st.relaxed.gpu.global.v2.u64 [%0], {%1, %2};" ::"l"(p), "l"(what), "l"(bits) : "memory");
}

// An accumulator's bytes in a word's value and back.
static __device__ __forceinline__ unsigned long long to_bits(Acc v)
{
    const unsigned char *b = reinterpret_cast<const unsigned char *>(&v);
    unsigned long long bits = 0;

#pragma unroll
    for (int i = 0; i < (int)sizeof(Acc); i++)
        bits |= (unsigned long long)b[i] << (8 * i);
    return bits;
}

static __device__ __forceinline__ Acc from_bits(unsigned long long bits)
{
    Acc v;
    unsigned char *b = reinterpret_cast<unsigned char *>(&v);

#pragma unroll
    for (int i = 0; i < (int)sizeof(Acc); i++)
        b[i] = (unsigned char)(bits >> (8 * i));
    return v;
}

// The scratch of a launch of `tiles` tiles (gen/scan.c sizes it): a word a
// tile, then a word a group.
struct Status {
    Word *tiles, *groups;
    unsigned long long mark;

    __device__ Status(unsigned char *status, Index n_tiles, unsigned long long epoch)
    {
        tiles = reinterpret_cast<Word *>(status);
        groups = tiles + n_tiles;
        mark = epoch * 4;
    }

    __device__ void publish(Word *w, Acc v, unsigned long long what) const { store_word(w, mark | what, to_bits(v)); }

    // The value of word w once it holds at least `what` (AGGREGATE: either).
    __device__ Word wait(const Word *w, unsigned long long what) const
    {
        Word got;
        while ((got = load_word(w)).what < (mark | what))
            ;
        return got;
    }
};

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

// A block a tile of a row: its elements scanned in the tile and its total
// published; then warp 0 scans the totals of the tiles before it in its
// group and looks back on the groups before that (a group's last tile
// publishes the group's total, then its prefix) while the other warps scan
// their items in the tile; the tile's prefix is combined in as it is stored.
extern "C" __global__ void __launch_bounds__(THREADS)
{{name}}(const T *__restrict__ in, Results out, Index n, Index in_pitch, Index out_pitch,
    unsigned char *__restrict__ scratch, Index row_scratch, unsigned long long epoch)
{
    __shared__ Acc tile[TILE_WORDS];
    __shared__ Acc tile_prefix;
    const Index t = blockIdx.x, first = t * TILE, tiles = (n + TILE - 1) / TILE;
    Acc all;

    in += blockIdx.y * in_pitch;  // row blockIdx.y of a matrix (row 0 of a vector)
    out += blockIdx.y * out_pitch;
    scratch += blockIdx.y * row_scratch;
    load_tile(tile, in, first, n);
    __syncthreads();
    const Acc before = block_exclusive(items_total(tile), &all);
    if (threadIdx.x < 32 && t > 0) {
        Status s(scratch, tiles, epoch);
        const int p = (int)(t % GROUP);
        const long long g = (long long)(t / GROUP);
        if (threadIdx.x == 0)
            s.publish(s.tiles + t, all, AGGREGATE);
        const Acc in_group = group_scan(s, t, all), group_total = __shfl_sync(0xffffffffu, in_group, GROUP - 1);
        if (p == GROUP - 1 && threadIdx.x == 0)
            s.publish(s.groups + g, group_total, AGGREGATE);
        const Acc group = g > 0 ? group_prefix(s, g) : identity();
        const Acc mates = __shfl_sync(0xffffffffu, in_group, (p + 31) % 32);
        if (threadIdx.x == 0) {
            tile_prefix = p > 0 ? combine(group, mates) : group;
            if (p == GROUP - 1)
                s.publish(s.groups + g, combine(group, group_total), PREFIX);
        }
    } else if (threadIdx.x == 0 && tiles > 1) {  // tile 0: its total, for its group mates
        Status s(scratch, tiles, epoch);
        s.publish(s.tiles, all, AGGREGATE);
    }
    scan_items(tile, before);
    __syncthreads();
    store_tile(out, tile, first, n, t > 0 ? &tile_prefix : nullptr);
}
