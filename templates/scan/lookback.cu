//! kernel: scan, strategy: lookback: one pass, decoupled look-back over groups of tiles.
// Tiles come in groups of GROUP (at most a warp's lanes); the last tile of a group
// stands for it.  What a launch publishes is marked by its epoch (epoch * 4
// + what): a mark of an earlier launch is smaller than this launch's, so
// the status needs no clearing between launches (only zeros at first).
//   flags[t] = AGGREGATE: tile t's total is in totals[t];
//   group_flags[g] = AGGREGATE: group g's total is in group_totals[g];
//                  = PREFIX: so is, in group_prefixes[g], the combination
//                    of every tile up to the end of group g.
// A tile's prefix is its group's prefix combined with the totals of the
// tiles before it in the group, scanned across a warp's lanes along one
// fixed tree (a group's total is that scan's lane GROUP - 1); a group's prefix
// is the nearest published group prefix combined, left to right, with the
// totals of the groups after it.  So every prefix is the same combination
// whatever the timing, and floats come out the same run after run.
constexpr unsigned long long AGGREGATE = 1, PREFIX = 2;

// Tiles a group (lookback_group): a tile waits for the totals of those before it in its group.
constexpr int GROUP = {{group}};

// A flag, read with acquire semantics: what was stored before the flag's
// release is visible after it (a lane reads one flag at a time).
static __device__ __forceinline__ unsigned long long load_flag(const unsigned long long *p)
{
    unsigned long long v;
    asm volatile("ld.acquire.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}

static __device__ __forceinline__ void store_flag(unsigned long long *p, unsigned long long v)
{
    asm volatile("st.release.gpu.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}

// The scratch of a launch of `tiles` tiles (gen/scan.c sizes it).
struct Status {
    unsigned long long *flags, *group_flags;
    Acc *totals, *group_totals, *group_prefixes;
    unsigned long long mark;

    __device__ Status(unsigned char *status, Index tiles, unsigned long long epoch)
    {
        const Index groups = (tiles + GROUP - 1) / GROUP;
        flags = reinterpret_cast<unsigned long long *>(status);
        group_flags = flags + tiles;
        totals = reinterpret_cast<Acc *>(status + ((tiles + groups) * 8 + 15) / 16 * 16);
        group_totals = totals + tiles;
        group_prefixes = group_totals + groups;
        mark = epoch * 4;
    }

    __device__ void publish(unsigned long long *flag, Acc *where, Acc v, unsigned long long what)
    {
        *where = v;
        store_flag(flag, mark | what);
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

    if (lane < p) {
        while (load_flag(s.flags + j) < (s.mark | AGGREGATE))
            ;
        v = __ldcg(s.totals + j);
    } else if (lane == p) {
        v = all;
    }
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
    unsigned long long f = s.mark | PREFIX;

    if (h >= 0)
        while ((f = load_flag(s.group_flags + h)) < (s.mark | AGGREGATE))
            ;
    const unsigned int has = __ballot_sync(0xffffffffu, f == (s.mark | PREFIX));
    const int d = has ? __ffs(has) - 1 : 31;
    if (!has && lane == d)
        while ((f = load_flag(s.group_flags + h)) != (s.mark | PREFIX))
            __nanosleep(32);
    Acc v = identity();
    if (h >= 0 && lane <= d)
        v = __ldcg((lane == d ? s.group_prefixes : s.group_totals) + h);
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
            s.publish(s.flags + t, s.totals + t, all, AGGREGATE);
        const Acc in_group = group_scan(s, t, all), group_total = __shfl_sync(0xffffffffu, in_group, GROUP - 1);
        if (p == GROUP - 1 && threadIdx.x == 0)
            s.publish(s.group_flags + g, s.group_totals + g, group_total, AGGREGATE);
        const Acc group = g > 0 ? group_prefix(s, g) : identity();
        const Acc mates = __shfl_sync(0xffffffffu, in_group, (p + 31) % 32);
        if (threadIdx.x == 0) {
            tile_prefix = p > 0 ? combine(group, mates) : group;
            if (p == GROUP - 1)
                s.publish(s.group_flags + g, s.group_prefixes + g, combine(group, group_total), PREFIX);
        }
    } else if (threadIdx.x == 0 && tiles > 1) {  // tile 0: its total, for its group mates
        Status s(scratch, tiles, epoch);
        s.publish(s.flags, s.totals, all, AGGREGATE);
    }
    scan_items(tile, before);
    __syncthreads();
    store_tile(out, tile, first, n, t > 0 ? &tile_prefix : nullptr);
}
