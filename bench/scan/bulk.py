"""bulk.py KGEN N [N ...]: a what-if for the look-back scan (issue 52): each
tile read by one TMA bulk copy into shared memory as it is (no registers
staged, no padding), scanned by warps along contiguous segments (a warp
1/WARPS of the tile, 32 x VEC elements a step: 16-byte shared loads, no
bank met twice), published and looked back on as kgen's lookback kernel
does, and stored from registers in 16-byte stores; at 4-8 blocks an SM.
Against kgen's own lookback kernel and a device-to-device copy of the same
bytes.  Generates kernel: scan with `KGEN`, swaps its kernel (the rest of
the file as generated), compiles with CuPy's NVRTC, checks every output
element against a float64 cumsum (within a sum's bound; integers exactly)
and times each (events around 20 launches, median of 7; the copy timed
twice, the later kept).  A probe for choosing the next change, not a
result to quote."""
import sys

import re
import subprocess

import cupy as cp
import numpy as np

from probe import per_call

KERNEL_MARK = "// A block a tile of a row: its elements scanned"

BULK = r"""
// A block a tile of a row, the tile read by the TMA unit.
static __device__ __forceinline__ unsigned int smem(const void *p) { return (unsigned int)__cvta_generic_to_shared(p); }

static __device__ __forceinline__ void bulk_load(void *dst, const void *src, unsigned int bytes, unsigned long long *bar)
{
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                 :: "r"(smem(dst)), "l"(src), "r"(bytes), "r"(smem(bar)) : "memory");
}

static __device__ __forceinline__ void mbarrier_wait(unsigned long long *bar, unsigned int parity)
{
    for (unsigned int done = 0; !done;)
        asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                     : "=r"(done) : "r"(smem(bar)), "r"(parity) : "memory");
}

constexpr int WARPS_ = THREADS / 32;
constexpr int SEG = (int)TILE / WARPS_;  // a warp's elements of the tile
constexpr int CHUNK = 32 * VEC;          // a warp's elements a step
constexpr int CHUNKS = SEG / CHUNK;
static_assert(SEG % CHUNK == 0, "a warp's segment is whole steps");

// Element i of the tile (raw in shared memory) as an accumulator; the identity past n.
static __device__ __forceinline__ Acc element(const T *tile, int i, Index first, Index n, bool whole)
{
    return whole || first + i < n ? to_acc(tile[i], first + i) : identity();
}

extern "C" __global__ void __launch_bounds__(THREADS, MIN_BLOCKS)
bulk(const T *__restrict__ in, Results out, Index n, Index in_pitch, Index out_pitch,
    unsigned char *__restrict__ scratch, Index row_scratch, unsigned long long epoch)
{
    __shared__ alignas(128) T tile[TILE];
    __shared__ alignas(8) unsigned long long bar;
    __shared__ Acc warp_totals[WARPS_];
    __shared__ Acc tile_prefix;
    const Index t = blockIdx.x, first = t * TILE, tiles = (n + TILE - 1) / TILE;
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;

    in += blockIdx.y * in_pitch;
    out += blockIdx.y * out_pitch;
    scratch += blockIdx.y * row_scratch;
    const bool whole = first + TILE <= n && aligned(in + first, 16);
    if (whole) {
        if (threadIdx.x == 0) {
            asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(smem(&bar)) : "memory");
            asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
            asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
                         :: "r"(smem(&bar)), "r"((unsigned)(TILE * sizeof(T))) : "memory");
#if EVICT
            unsigned long long policy;
            asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(policy));
            asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint [%0], [%1], %2, [%3], %4;"
                         :: "r"(smem(tile)), "l"(in + first), "r"((unsigned)(TILE * sizeof(T))), "r"(smem(&bar)), "l"(policy) : "memory");
#else
            bulk_load(tile, in + first, (unsigned)(TILE * sizeof(T)), &bar);
#endif
        }
        __syncthreads();  // the mbarrier is initialised before anyone waits on it
        mbarrier_wait(&bar, 0);
    } else {
        for (int i = threadIdx.x; i < (int)TILE; i += THREADS)
            if (first + i < n)
                tile[i] = in[first + i];
        __syncthreads();
    }
    // The warp's segment: each lane's VEC elements of each step combined, then across the lanes.
    const int seg = warp * SEG + lane * VEC;
    Acc mine = identity();
#pragma unroll
    for (int c = 0; c < CHUNKS; c++) {
        const Pack<T, VEC> p = *reinterpret_cast<const Pack<T, VEC> *>(tile + seg + c * CHUNK);
#pragma unroll
        for (int e = 0; e < VEC; e++) {
            const int i = seg + c * CHUNK + e;
            mine = combine(mine, whole || first + i < n ? to_acc(p.e[e], first + i) : identity());
        }
    }
    const Acc warp_total = __shfl_sync(0xffffffffu, warp_inclusive(mine), 31);
    if (lane == 0)
        warp_totals[warp] = warp_total;
    __syncthreads();
    if (warp == 0) {
        const Acc w = warp_inclusive(lane < WARPS_ ? warp_totals[lane] : identity());
        const Acc all = __shfl_sync(0xffffffffu, w, WARPS_ - 1);
        Acc prefix = identity();
        if (t > 0) {
            Status s(scratch, tiles, epoch);
            const int p = (int)(t % GROUP);
            const long long g = (long long)(t / GROUP);
            if (threadIdx.x == 0)
                s.publish(s.flags + t, s.totals + t, all, AGGREGATE);
            const Acc in_group = group_scan(s, t, all), group_total = __shfl_sync(0xffffffffu, in_group, GROUP - 1);
            if (p == GROUP - 1 && threadIdx.x == 0)
                s.publish(s.group_flags + g, s.group_totals + g, group_total, AGGREGATE);
#if DIRECT
            const Acc group = g > 0 ? group_prefix_direct(s, g) : identity();
#else
            const Acc group = g > 0 ? group_prefix(s, g) : identity();
#endif
            const Acc mates = __shfl_sync(0xffffffffu, in_group, (p + 31) % 32);
            prefix = p > 0 ? combine(group, mates) : group;
            if (threadIdx.x == 0 && p == GROUP - 1)
                s.publish(s.group_flags + g, s.group_prefixes + g, combine(group, group_total), PREFIX);
        } else if (threadIdx.x == 0 && tiles > 1) {
            Status s(scratch, tiles, epoch);
            s.publish(s.flags, s.totals, all, AGGREGATE);
        }
        // warp_totals[w] becomes what comes before warp w: the tile's prefix and the warps before
        const Acc before = __shfl_up_sync(0xffffffffu, w, 1);
        if (lane < WARPS_)
            warp_totals[lane] = lane == 0 ? prefix : combine(prefix, before);
    }
    __syncthreads();
    Acc running = warp_totals[warp];
#pragma unroll
    for (int c = 0; c < CHUNKS; c++) {
        const int i0 = seg + c * CHUNK;
        const Pack<T, VEC> p = *reinterpret_cast<const Pack<T, VEC> *>(tile + i0);
        Acc x[VEC];
#pragma unroll
        for (int e = 0; e < VEC; e++)
            x[e] = whole || first + i0 + e < n ? to_acc(p.e[e], first + i0 + e) : identity();
        Acc lane_total = x[0];
#pragma unroll
        for (int e = 1; e < VEC; e++)
            lane_total = combine(lane_total, x[e]);
        const Acc incl = warp_inclusive(lane_total);
        Acc before = __shfl_up_sync(0xffffffffu, incl, 1);
        const Acc chunk_total = __shfl_sync(0xffffffffu, incl, 31);
        // what comes before this lane's elements: running, then the lanes before
        Acc v = lane == 0 ? running : combine(running, before);
        Acc r[VEC];
#pragma unroll
        for (int e = 0; e < VEC; e++) {
{{INCL}}
        }
        if (whole && aligned(out + first, 16)) {
            Pack<Stored, VEC> q;
#pragma unroll
            for (int e = 0; e < VEC; e++)
                store(q.e, e, r[e], n);
#if STCS
            static_assert(sizeof(Pack<Stored, VEC>) == 16, "the probe's streaming store is 16 bytes");
            const unsigned *u = reinterpret_cast<const unsigned *>(&q);
            asm volatile("st.global.cs.v4.b32 [%0], {%1, %2, %3, %4};" :: "l"(out + first + i0), "r"(u[0]), "r"(u[1]),
                         "r"(u[2]), "r"(u[3]) : "memory");
#else
            *reinterpret_cast<Pack<Stored, VEC> *>(out + first + i0) = q;
#endif
        } else {
#pragma unroll
            for (int e = 0; e < VEC; e++)
                if (first + i0 + e < n)
                    store(out, first + i0 + e, r[e], n);
        }
        running = combine(running, chunk_total);
    }
}
"""
INCL = """            v = combine(v, x[e]);
            r[e] = v;"""

PACKED = r"""constexpr unsigned long long AGGREGATE = 1, PREFIX = 2;

// Tiles a group (lookback_group): a tile waits for the totals of those before it in its group.
constexpr int GROUP = {{group}};

// A status word: what it holds (the launch's mark | AGGREGATE or PREFIX)
// and the value, 16 bytes read and written whole (relaxed: no fence, the
// value travels with its mark).
struct alignas(16) Word {
    unsigned long long what, bits;
};
static_assert(sizeof(Acc) <= 8, "a value fits a status word");

static __device__ __forceinline__ Word load_word(const Word *p)
{
    Word w;
    asm volatile("ld.relaxed.gpu.global.v2.u64 {%0, %1}, [%2];" : "=l"(w.what), "=l"(w.bits) : "l"(p) : "memory");
    return w;
}

static __device__ __forceinline__ Acc value(const Word &w)
{
    union { unsigned long long bits; Acc v; } u;
    u.bits = w.bits;
    return u.v;
}

struct Status {
    Word *flags, *group_flags;
    unsigned long long mark;

    __device__ Status(unsigned char *status, Index tiles, unsigned long long epoch)
    {
        flags = reinterpret_cast<Word *>(status);
        group_flags = flags + tiles;
        mark = epoch * 4;
    }

    __device__ Word wait(const Word *w) const
    {
        Word got;
        while ((got = load_word(w)).what < (mark | AGGREGATE))
            SPIN;
        return got;
    }

    __device__ void publish(Word *w, Acc v, unsigned long long what)
    {
        union { unsigned long long bits; Acc v; } u;
        u.bits = 0;
        u.v = v;
        asm volatile("st.relaxed.gpu.global.v2.u64 [%0], {%1, %2};" :: "l"(w), "l"(mark | what), "l"(u.bits) : "memory");
    }
};

static __device__ __forceinline__ Acc group_scan(const Status &s, Index t, Acc all)
{
    const int lane = threadIdx.x % 32, p = (int)(t % GROUP);
    const Index j = t - p + lane;
    Acc v = identity();

    if (lane < p) {
        Word w;
        while ((w = load_word(s.flags + j)).what < (s.mark | AGGREGATE))
            SPIN;
        v = value(w);
    } else if (lane == p) {
        v = all;
    }
    return warp_inclusive(v);
}

static __device__ __forceinline__ Acc group_prefix(const Status &s, long long g)
{
    const int lane = threadIdx.x % 32;
    const long long h = g - 1 - lane;
    Word w = {s.mark | PREFIX, 0};

    if (h >= 0)
        while ((w = load_word(s.group_flags + h)).what < (s.mark | AGGREGATE))
            SPIN;
    const unsigned int has = __ballot_sync(0xffffffffu, w.what == (s.mark | PREFIX));
    const int d = has ? __ffs(has) - 1 : 31;
    if (!has && lane == d)
        while ((w = load_word(s.group_flags + h)).what != (s.mark | PREFIX))
            __nanosleep(32);
    const Acc v = h >= 0 && lane <= d ? value(w) : identity();
    Acc prefix = __shfl_sync(0xffffffffu, v, d);
    for (int l = d - 1; l >= 0; l--)
        prefix = combine(prefix, __shfl_sync(0xffffffffu, v, l));
    return prefix;
}

// Group g - 1's total from its tiles' words (the same warp scan its last
// tile publishes), then the groups before it as group_prefix finds them.
static __device__ __forceinline__ Acc group_prefix_direct(const Status &s, long long g)
{
    const int lane = threadIdx.x % 32;
    Acc v = identity();
    if (lane < GROUP)
        v = value(s.wait(s.flags + (Index)(g - 1) * GROUP + lane));
    const Acc last = __shfl_sync(0xffffffffu, warp_inclusive(v), GROUP - 1);
    return g > 1 ? combine(group_prefix(s, g - 1), last) : last;
}

"""


def packed(code, group):
    """The generated source with the status words packed (PACKED for its protocol, the publish calls to match)."""
    a = code.index("constexpr unsigned long long AGGREGATE")
    b = code.index("// A block a tile of a row") if "// A block a tile of a row" in code else len(code)
    code = code[:a] + PACKED.replace("{{group}}", str(group)) + code[b:]
    return re.sub(r"s\.publish\((s\.[a-z_]+(?: \+ [tg])?), s\.[a-z_]+(?: \+ [tg])?, ", r"s.publish(\1, ", code)


def scratch_bytes(tiles, group, acc, words=False):
    if words:
        return (tiles + (tiles + group - 1) // group) * 16
    groups = (tiles + group - 1) // group
    return ((tiles + groups) * 8 + 15) // 16 * 16 + ((tiles + 2 * groups) * acc + 15) // 16 * 16


EPOCH = [10 ** 6]


VARIANTS = {"": "", "stcs": "#define STCS 1\n", "evict": "#define EVICT 1\n", "sleep": "#define SLEEP 1\n",
            "direct": "#define DIRECT 1\n", "all": "#define STCS 1\n#define EVICT 1\n#define DIRECT 1\n"}
PRELUDE = ("#ifndef STCS\n#define STCS 0\n#endif\n#ifndef EVICT\n#define EVICT 0\n#endif\n#ifndef DIRECT\n"
           "#define DIRECT 0\n#endif\n#if defined(SLEEP)\n#define SPIN __nanosleep(64)\n#else\n#define SPIN\n#endif\n")


CONFIGS = [(256, 32, 32, None, False, ""), (128, 32, 32, None, False, "")] + [
    (t, i, 32, b, True, v) for t, i, b in ((128, 32, 12), (128, 32, 13), (256, 32, 6)) for v in VARIANTS]


def build(kgen, dtype, acc, threads, items, group, bps, words, variant=""):
    spec = ("kernel: scan\nop: sum\ndtype: %s\nacc_dtype: %s\nthreads: %d\nitems_per_thread: %d\n"
            "lookback_group: %d\n" % (dtype, acc, threads, items, group))
    base = subprocess.run([kgen, "-"], input=spec, capture_output=True, text=True, check=True).stdout
    if bps is None:
        code = packed(base, group) if words else base
        return cp.RawModule(code=code, options=("-std=c++17",)).get_function("scan_sum_" + dtype)
    code = (VARIANTS[variant] + PRELUDE + "#define MIN_BLOCKS %d\n" % bps) + base[:base.index(KERNEL_MARK)] + \
        BULK.replace("{{INCL}}", INCL)
    if words:
        code = packed(code, group)
    return cp.RawModule(code=code, options=("-std=c++17", "-arch=sm_90")).get_function("bulk")


def main():
    kgen, ns = sys.argv[1], [int(eval(a.replace("^", "**"))) for a in sys.argv[2:]]
    sms = cp.cuda.Device().attributes["MultiProcessorCount"]
    print("# %s, %d SMs" % (cp.cuda.runtime.getDeviceProperties(0)["name"].decode(), sms))
    print("dtype n variant threads items group blocks_per_sm regs us of_copy over_lookback right")
    for dtype, acc in (("f32", "f32"),):
        label = dtype if acc == dtype else dtype + ">" + acc
        npt = {"f32": cp.float32, "i32": cp.int32}[dtype]
        opt = {"f32": cp.float32, "i32": cp.int32, "i64": cp.int64}[acc]
        acc_bytes = 8 if acc == "i64" else 4
        data = {}
        for n in ns:
            rng = cp.random.default_rng(52)
            if dtype == "f32":
                x = rng.random(n, dtype=cp.float32) * 2 - 1
                want = cp.cumsum(x.astype(cp.float64))
                bound = 2.0 ** -23 * (64 + cp.arange(1, n + 1) / 256) * cp.cumsum(cp.abs(x.astype(cp.float64)))
            else:
                x = rng.integers(-1000, 1000, n, dtype=cp.int32)
                want = cp.cumsum(x.astype(opt))
                bound = None
            moved = n * (4 + acc_bytes) // 2
            src, dst = cp.empty(moved, cp.uint8), cp.empty(moved, cp.uint8)
            per_call(lambda: cp.copyto(dst, src))
            copy = per_call(lambda: cp.copyto(dst, src))
            del src, dst
            print("%s %d copy - - - - - %.2f 1.000 - -" % (label, n, copy))
            sys.stdout.flush()
            data[n] = [x, want, bound, copy, None]
        for threads, items, group, bps, words, variant in CONFIGS:
            if acc != dtype and (bps is not None or (threads, items, group) not in ((256, 16, 32), (128, 32, 32))):
                continue
            name = ("lookback" if bps is None else "bulk") + ("+words" if words else "") + ("+" + variant if variant else "")
            try:
                fn = build(kgen, dtype, acc, threads, items, group, bps, words, variant)
            except Exception as e:  # a probe: say what failed, go on
                print("%s - %s %d %d %d %s - - - - build: %s" % (label, name, threads, items, group, bps,
                                                               str(e).splitlines()[0]))
                continue
            if bps is not None:
                occ = cp.cuda.driver.occupancyMaxActiveBlocksPerMultiprocessor(fn.kernel.ptr, threads, 0)
                if occ < bps:
                    print("%s - %s %d %d %d %d %d - - - occupancy-%d" % (
                        label, name, threads, items, group, bps, fn.num_regs, occ))
                    continue
            for n in ns:
                x, want, bound, copy, ref = data[n]
                tile = threads * items
                tiles = (n + tile - 1) // tile
                scratch = cp.zeros(scratch_bytes(tiles, group, acc_bytes, words), cp.uint8)
                out = cp.empty(n, opt)

                def launch():
                    EPOCH[0] += 1
                    fn((tiles,), (threads,), (x, out, np.uint64(n), np.uint64(n), np.uint64(n), scratch,
                                              np.uint64(0), np.uint64(EPOCH[0])))
                out.fill(-7777)
                launch()
                if bound is None:
                    right = bool(cp.all(out == want.astype(opt)))
                else:
                    right = bool(cp.all(cp.abs(out - want) <= bound))
                us = per_call(launch)
                if bps is None and not words and threads == 256 and items == 32:
                    data[n][4] = us
                print("%s %d %s %d %d %d %s %d %.2f %.3f %s %s" % (
                    label, n, name, threads, items, group, bps if bps is not None else "-", fn.num_regs,
                    us, copy / us, "%.3f" % (data[n][4] / us) if data[n][4] else "-", right))
                sys.stdout.flush()
                del out, scratch

if __name__ == "__main__":
    main()
