"""probe.py KGEN N [timeline]: where the look-back scan's time goes.  Generates
kernel: scan sum f32 at a few tiles with `KGEN` (the kgen program), applies
named edits to the source (each a what-if: another way to wait, or a part
left out, which then computes wrong prefixes), compiles each with CuPy's
NVRTC for this GPU and times it on N random floats against a
device-to-device copy of the same bytes (events around 20 launches, median
of 7, the copy timed twice, the later kept).  The variants that leave
nothing out are checked against cupy.cumsum first.  A probe for choosing
the next change, not a result to quote.  With "timeline", each tile's
block first notes the time at six points of one launch (the phases' medians)."""
import subprocess
import sys

import cupy as cp
import numpy as np

from cupy_timing import per_call

EDITS = {
    "base": [],
    "sleep-in-waits": [("(s.mark | AGGREGATE))\n            ;", "(s.mark | AGGREGATE))\n            __nanosleep(20);")],
    "no-group-look-back": [("g > 0 ? group_prefix(s, g) : identity()", "identity()")],
    "no-look-back": [("if (threadIdx.x < 32 && tiles > 1) {", "if (false) {")],
}
# Group g - 1's total from its 32 tiles' totals (the same warp scan its last
# tile publishes), not waited for from that tile; the groups before it as before.
DIRECT = """
static __device__ __forceinline__ Acc group_prefix_direct(const Status &s, long long g)
{
    const int lane = threadIdx.x % 32;
    const Index j = (Index)(g - 1) * 32 + lane;
    const long long h = g - 2 - lane;
    unsigned long long f = s.mark | PREFIX;

    while (load_flag(s.flags + j) < (s.mark | AGGREGATE))
        ;
    const Acc last = __shfl_sync(0xffffffffu, warp_inclusive(__ldcg(s.totals + j)), 31);
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
    return combine(prefix, last);
}

"""
EDITS["direct-last-group"] = [("// A block a tile of a row: its elements scanned", DIRECT + "// A block a tile of a row: its elements scanned"),
                              ("g > 0 ? group_prefix(s, g) : identity()", "g > 0 ? group_prefix_direct(s, g) : identity()")]
MORE_BLOCKS = ("__launch_bounds__(THREADS)", "__launch_bounds__(THREADS, 1536 / THREADS)")
EDITS["more-blocks"] = [MORE_BLOCKS]
EDITS["direct+more-blocks"] = EDITS["direct-last-group"] + [MORE_BLOCKS]
RIGHT = ("base", "sleep-in-waits", "direct-last-group", "more-blocks", "direct+more-blocks")

# The timeline: each tile's block notes the global timer (ns) at six points.
POINTS = ("start", "loaded", "block scanned", "group mates scanned", "groups looked back on", "stored")
TIMELINE = [
    ('extern "C" __global__', "__device__ unsigned long long probe_at[65536][6];\n"
     "static __device__ __forceinline__ void note(Index t, int i)\n{\n    unsigned long long v;\n"
     '    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(v));\n    if (threadIdx.x == 0)\n        probe_at[t][i] = v;\n}\n\n'
     'extern "C" __global__'),
    ("    Acc all;\n\n", "    Acc all;\n\n    note(t, 0);\n"),
    ("    load_tile(tile, in, first, n);\n    __syncthreads();\n", "    load_tile(tile, in, first, n);\n    __syncthreads();\n    note(t, 1);\n"),
    ("&all);\n", "&all);\n    note(t, 2);\n"),
    ("group_total = __shfl_sync(0xffffffffu, in_group, 31);\n", "group_total = __shfl_sync(0xffffffffu, in_group, 31);\n        note(t, 3);\n"),
    ("const Acc group = g > 0 ? group_prefix(s, g) : identity();\n",
     "const Acc group = g > 0 ? group_prefix(s, g) : identity();\n        note(t, 4);\n"),
    ("    store_tile(out, tile, first, n);\n}", "    store_tile(out, tile, first, n);\n    __syncthreads();\n    note(t, 5);\n}"),
]


def timeline(base, n, x, threads, items, scratch, tiles):
    """Each phase's median and 90th percentile over the middle half of the tiles, the lifetime of a tile and how
    many were alive at once on average."""
    code = base
    for old, new in TIMELINE:
        assert old in code, "timeline: %r is not in the source" % old
        code = code.replace(old, new, 1)
    mod = cp.RawModule(code=code, options=("-std=c++17",))
    fn = mod.get_function("scan_sum_f32")
    out = cp.empty(n, cp.float32)
    for e in range(5):
        fn((tiles,), (threads,), (x, out, np.uint64(n), np.uint64(n), np.uint64(n), scratch, np.uint64(0),
                                   np.uint64(9 * 10 ** 9 + e)))
    cp.cuda.Device().synchronize()
    at = cp.ndarray((65536, 6), cp.uint64, mod.get_global("probe_at")).get()[:tiles].astype(np.int64)
    mid = at[tiles // 4: 3 * tiles // 4]
    for i in range(1, 6):
        d = mid[:, i] - mid[:, i - 1]
        print("  %d x %d: %-24s median %7.0f ns, p90 %7.0f ns" % (threads, items, POINTS[i], np.median(d),
                                                                 np.percentile(d, 90)))
    life = at[:, 5] - at[:, 0]
    span = at[:, 5].max() - at[:, 0].min()
    print("  %d x %d: lifetime median %.0f ns, p90 %.0f ns; %.0f tiles alive on average over %.1f us" % (
        threads, items, np.median(life), np.percentile(life, 90), life.sum() / span, span / 1e3))


def main():
    kgen, n = sys.argv[1], int(eval(sys.argv[2].replace("^", "**")))
    show_timeline = "timeline" in sys.argv[3:]
    x = cp.random.default_rng(52).random(n, dtype=cp.float32) * 2 - 1
    want = cp.cumsum(x.astype(cp.float64))
    bound = 2.0 ** -23 * (40 + cp.arange(1, n + 1) / 1024) * cp.cumsum(cp.abs(x.astype(cp.float64)))
    src, dst = cp.empty(n * 4, cp.uint8), cp.empty(n * 4, cp.uint8)
    per_call(lambda: dst.__setitem__(Ellipsis, src), calls=20)
    copy = per_call(lambda: cp.copyto(dst, src), calls=20)
    print("# %s, n = %d, copy of %d bytes: %.2f us" % (cp.cuda.runtime.getDeviceProperties(0)["name"].decode(), n,
                                                       n * 8, copy))
    print("threads items variant us of_copy right")
    for threads, items in ((128, 32), (256, 16), (256, 32), (128, 64)):
        spec = "kernel: scan\nop: sum\ndtype: f32\nthreads: %d\nitems_per_thread: %d\n" % (threads, items)
        base = subprocess.run([kgen, "-"], input=spec, capture_output=True, text=True, check=True).stdout
        tile = threads * items
        tiles = (n + tile - 1) // tile
        groups = (tiles + 31) // 32
        scratch = cp.zeros(((tiles + groups) * 8 + 15) // 16 * 16 + ((tiles + 2 * groups) * 4 + 15) // 16 * 16, cp.uint8)
        if show_timeline:
            timeline(base, n, x, threads, items, scratch, tiles)
        for name, edits in EDITS.items():
            code = base
            for old, new in edits:
                assert old in code, "%s: %r is not in the source" % (name, old)
                code = code.replace(old, new)
            fn = cp.RawModule(code=code, options=("-std=c++17",)).get_function("scan_sum_f32")
            out = cp.empty(n, cp.float32)
            epoch = [1000 * (1 + list(EDITS).index(name)) + 1000000 * threads * items]

            def launch():
                epoch[0] += 1
                fn((tiles,), (threads,), (x, out, np.uint64(n), np.uint64(n), np.uint64(n), scratch, np.uint64(0),
                                    np.uint64(epoch[0])))
            launch()
            right = "-"
            if name in RIGHT:
                right = bool(cp.all(cp.abs(out.astype(cp.float64) - want) <= bound))
            us = per_call(launch, calls=20)
            print("%d %d %s %.2f %.3f %s" % (threads, items, name, us, copy / us, right))
            sys.stdout.flush()


if __name__ == "__main__":
    main()
