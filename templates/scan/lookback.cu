//! kernel: scan, strategy: lookback: one pass, decoupled look-back.
// What tile t has published in this launch, in flags[t]: its launch's
// epoch times 4 plus AGGREGATE (the combination of its own elements, in
// sums[t]) or PREFIX (of every element up to its end, in prefixes[t]).
// A flag of an earlier launch is smaller than this launch's marks, so the
// status needs no clearing between launches (only zeros at first).
constexpr unsigned long long AGGREGATE = 1, PREFIX = 2;

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

// Windows of 32 tiles the look-back reads back before it waits for a prefix.
constexpr int WINDOWS = 16;

// The combination of every element before tile t (t > 0), by warp 0: lane
// l waits for tile t - 32 + l to publish, and while none of the 32 has
// published its prefix, the window is kept in shared memory and the warp
// reads the 32 before it, up to WINDOWS windows (then it waits for the
// farthest tile's prefix).  From the nearest tile of the farthest window
// read that published its prefix, that prefix and every total after it are
// combined from left to right: each tile's prefix is then the same
// left-to-right combination of the tiles' totals whatever the timing, and
// floats come out the same run after run.  A tile before 0 counts as a
// prefix of the identity.
static __device__ __forceinline__ Acc look_back(const unsigned long long *flags, const Acc *sums, const Acc *prefixes,
                                                Index t, unsigned long long mark)
{
    __shared__ Acc seen[WINDOWS][32];
    const int lane = threadIdx.x % 32;
    long long j = (long long)t - 32 + lane;
    unsigned long long f;
    Acc v, prefix;
    unsigned int has;
    int w = 0;

    for (;;) {
        f = mark | PREFIX;
        v = identity();
        if (j >= 0) {
            do
                f = load_flag(flags + j);
            while (f < (mark | AGGREGATE));
            v = f == (mark | PREFIX) ? __ldcg(prefixes + j) : __ldcg(sums + j);
        }
        has = __ballot_sync(0xffffffffu, f == (mark | PREFIX));
        if (has)
            break;
        if (w == WINDOWS - 1) {  // the farthest window read: wait for its first tile's prefix
            if (lane == 0) {
                do
                    f = load_flag(flags + j);
                while (f != (mark | PREFIX));
                v = __ldcg(prefixes + j);
            }
            has = 1;
            break;
        }
        seen[w++][lane] = v;
        j -= 32;
    }
    const int from = 31 - __clz(has);
    prefix = __shfl_sync(0xffffffffu, v, from);
    for (int l = from + 1; l < 32; l++)
        prefix = combine(prefix, __shfl_sync(0xffffffffu, v, l));
    __syncwarp();
    while (w > 0) {  // the nearer windows, from the farthest to the nearest
        w--;
        for (int l = 0; l < 32; l++)
            prefix = combine(prefix, seen[w][l]);
    }
    return prefix;
}

// A block a tile: its elements scanned, its total published, then (warp 0)
// the look-back for the tiles before it and its prefix published.
extern "C" __global__ void __launch_bounds__(THREADS)
{{name}}(const T *__restrict__ in, Results out, Index n, unsigned char *__restrict__ status,
    unsigned long long epoch)
{
    __shared__ Acc tile[TILE_WORDS];
    __shared__ Acc tile_prefix;
    const Index t = blockIdx.x, first = t * TILE, tiles = (n + TILE - 1) / TILE;
    unsigned long long *const flags = reinterpret_cast<unsigned long long *>(status);
    Acc *const sums = reinterpret_cast<Acc *>(status + (tiles * 8 + 15) / 16 * 16);
    Acc *const prefixes = sums + tiles;
    const unsigned long long mark = epoch * 4;
    Acc all;

    load_tile(tile, in, first, n);
    __syncthreads();
    const Acc before = block_exclusive(items_total(tile), &all);
    if (threadIdx.x < 32) {
        Acc prefix = identity();
        if (t > 0) {
            if (threadIdx.x == 0) {
                sums[t] = all;
                store_flag(flags + t, mark | AGGREGATE);
            }
            prefix = look_back(flags, sums, prefixes, t, mark);
        }
        if (threadIdx.x == 0) {
            if (tiles > 1) {
                prefixes[t] = t > 0 ? combine(prefix, all) : all;
                store_flag(flags + t, mark | PREFIX);
            }
            tile_prefix = prefix;
        }
    }
    __syncthreads();
    scan_items(tile, combine(tile_prefix, before));
    __syncthreads();
    store_tile(out, tile, first, n);
}
