"""cols_probe.py KGEN [ROWSxCOLS] [--emit DIR]: where the column scan's time goes.

Generates kernel: scan, axis: cols (sum, f32) at a few tiles with KGEN (the
kgen program), applies named edits to the source (each a what-if: a wait
that sleeps, more blocks an SM, or the look-back left out, which then
computes wrong prefixes), compiles each with CuPy's NVRTC for this GPU and
times it on a random ROWSxCOLS matrix (default 1048576x64) against a
device-to-device copy of the same bytes (events around 10 launches, median
of 7, the copy timed twice, the later kept).  The variants that leave
nothing out are checked against cupy.cumsum(axis=0) in float64 first.

Then a timeline of each spec's base kernel: thread 0 of every block of
band 0 notes the global timer (ns) at five points of one launch, with its
SM; printed are each phase's median over the middle half of the tiles (a
group's last tile apart from the others), a tile's lifetime, how many were
alive at once, how fast tiles started, and how far apart the groups' last
tiles finished their look-backs (the published prefixes, group to group).
The raw stamps go to cols_probe.npz for a closer look.  PROBE_SPECS=a,b
takes those of the tiles (SPECS' names) only.

A probe for choosing the next change, not a result to quote.  With
--emit DIR nothing runs: each variant's source is written to DIR (to
compile here: nvcc -cubin -arch=sm_90 -std=c++17 -Xptxas -v)."""
import os
import subprocess
import sys

SPECS = {
    "g32-i8": "threads: 256\nitems_per_thread: 8\nlanes: 16\n",
    "l8-smem": "threads: 256\nitems_per_thread: 8\nlanes: 8\nstaging: smem\n",
    "l8-regs": "threads: 256\nitems_per_thread: 8\nlanes: 8\nstaging: none\n",
}
if os.environ.get("PROBE_SPECS"):  # a comma-separated choice of SPECS' names
    SPECS = {name: SPECS[name] for name in os.environ["PROBE_SPECS"].split(",")}
# A poll of a word's mark by an atomic (performed where the line lives in L2), then its value.
ATOMIC = ("static __device__ __forceinline__ Word load_word(const Word *p)",
          "static __device__ __forceinline__ Word load_word_atomic(const Word *p)\n{\n    Word w;\n"
          '    asm volatile("atom.relaxed.gpu.global.or.b64 %0, [%1], 0;" : "=l"(w.what) : "l"(p) : "memory");\n'
          '    asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(w.bits) : "l"(&p->bits) : "memory");\n'
          "    return w;\n}\n\nstatic __device__ __forceinline__ Word load_word(const Word *p)")
LOOK_BACK = "    if (tiles > 1)\n        look_back(s, t, all, prefix);\n"
EDITS = {
    "base": [],
    "no-look-back": [(LOOK_BACK, "")],
    "sleep-in-waits": [("(mark | what))\n            ;", "(mark | what))\n            __nanosleep(64);"),
                       ("            got[k] = load_word(w + k);\n}", "            { __nanosleep(64); got[k] = load_word(w + k); }\n}")],
    "atomic-polls": [ATOMIC, ("while ((got = load_word(w))", "while ((got = load_word_atomic(w))"),
                     ("        got[k] = load_word(w + k);\n", "        got[k] = load_word_atomic(w + k);\n")],
    "fence-publish": [("store_word(w, mark | what, to_bits(v)); }",
                       "store_word(w, mark | what, to_bits(v)); __threadfence(); }")],
    "blocks-3": [("__launch_bounds__(THREADS)", "__launch_bounds__(THREADS, 3)")],
    "blocks-4": [("__launch_bounds__(THREADS)", "__launch_bounds__(THREADS, 4)")],
    # Every tile folds the groups before its own, as a group's last tile does, not waiting for that tile's prefix.
    "fold": [("if (g > 0 && p == GROUP - 1) {", "if (g > 0) {")],
    "fold+blocks-3": [("if (g > 0 && p == GROUP - 1) {", "if (g > 0) {"),
                      ("__launch_bounds__(THREADS)", "__launch_bounds__(THREADS, 3)")],
}
RIGHT = ("base", "sleep-in-waits", "blocks-3", "blocks-4", "fold", "fold+blocks-3", "atomic-polls", "fence-publish")

POINTS = ("start", "totals in", "group mates scanned", "looked back", "stored")
NOTE = ("static __device__ __forceinline__ void note(Index t, int i)\n{\n    unsigned long long v;\n"
        '    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(v));\n'
        "    if (threadIdx.x == 0 && (blockIdx.x + blockIdx.y * gridDim.x) % gridDim.y == 0 && t < 65536) {\n        probe_at[t][i] = v;\n"
        "        if (i == 0) {\n            unsigned int sm;\n"
        '            asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));\n            probe_at[t][5] = sm;\n        }\n'
        "    }\n}\n\n")
TIMELINE = [
    ("constexpr unsigned long long AGGREGATE", "__device__ unsigned long long probe_at[65536][6];\n" + NOTE +
     "constexpr unsigned long long AGGREGATE"),
    ("    unsigned long long arrived = 0;  // thread 0's count of the block (arrive())\n",
     "    unsigned long long arrived = 0;  // thread 0's count of the block (arrive())\n    note(t, 0);\n"),
    ("    const Status s(scratch,", "    note(t, 1);\n    const Status s(scratch,"),
    ("    group_scan(s, t, all, in_group);\n", "    group_scan(s, t, all, in_group);\n    note(t, 2);\n"),
    (LOOK_BACK, LOOK_BACK + "    note(t, 3);\n"),
    ("    if (threadIdx.x == 0)\n        count_launch(", "    __syncthreads();\n    note(t, 4);\n"
     "    if (threadIdx.x == 0)\n        count_launch("),
]


def edited(code, edits, what):
    for old, new in edits:
        assert old in code, "%s: %r is not in the source" % (what, old)
        code = code.replace(old, new)
    return code


def applies(code, edits):
    return all(old in code for old, _ in edits)


def generate(kgen, name):
    spec = "kernel: scan\nop: sum\ndtype: f32\naxis: cols\nname: probe\n" + SPECS[name]
    return subprocess.run([kgen, "-"], input=spec, capture_output=True, text=True, check=True).stdout


def rows_of(source):
    return int(source.split("a block a tile of ")[1].split(" rows")[0])


def main():
    args = sys.argv[1:]
    emit = None
    if "--emit" in args:
        i = args.index("--emit")
        emit = args[i + 1]
        del args[i:i + 2]
    kgen = args[0]
    rows, cols = (int(v) for v in (args[1] if len(args) > 1 else "1048576x64").split("x"))
    if emit:
        os.makedirs(emit, exist_ok=True)
        for name in SPECS:
            base = generate(kgen, name)
            for variant, edits in EDITS.items():
                if not applies(base, edits):
                    continue
                with open(os.path.join(emit, "%s-%s.cu" % (name, variant)), "w") as f:
                    f.write(edited(base, edits, variant))
            with open(os.path.join(emit, "%s-timeline.cu" % name), "w") as f:
                f.write(edited(base, TIMELINE, "timeline"))
        return
    import cupy as cp
    import numpy as np
    from cupy_timing import copy_us, per_call

    x = cp.random.default_rng(52).random((rows, cols), dtype=cp.float32) * 2 - 1
    want = cp.cumsum(x.astype(cp.float64), axis=0)
    bound = 2.0 ** -23 * (64 + cp.arange(1, rows + 1)[:, None] / 128.0) * cp.cumsum(cp.abs(x.astype(cp.float64)), axis=0)
    nbytes = rows * cols * 4
    copy = copy_us(nbytes)
    print("# %s, %d x %d f32, copy of %d bytes: %.2f us" % (cp.cuda.runtime.getDeviceProperties(0)["name"].decode(),
                                                            rows, cols, nbytes * 2, copy))
    print("spec variant regs us of_copy right")
    stamps = {}
    for name in SPECS:
        base = generate(kgen, name)
        tile = rows_of(base)
        band = 32 if "l8" in name else 64
        tiles, bands = (rows + tile - 1) // tile, (cols + band - 1) // band
        groups = (tiles + 31) // 32
        band_scratch = (tiles + groups) * band * 16
        args = lambda out, scratch: (x, out, np.uint64(rows), np.uint64(cols), np.uint64(cols), np.uint64(cols),
                                     scratch, np.uint64(band_scratch))
        for variant, edits in list(EDITS.items()) + [("timeline", TIMELINE)]:
            if not applies(base, edits):
                print("%s %s - - - (does not apply)" % (name, variant))
                continue
            code = edited(base, edits, variant)
            fn = cp.RawModule(code=code, options=("-std=c++17",)).get_function("probe")
            scratch = cp.zeros(16 + bands * band_scratch, cp.uint8)
            out = cp.full((rows, cols), cp.nan, cp.float32)
            launch = lambda: fn((tiles, bands), (256,), args(out, scratch))
            launch()
            cp.cuda.Device().synchronize()
            right = "-"
            if variant in RIGHT:
                right = bool(cp.all(cp.abs(out.astype(cp.float64) - want) <= bound))
            us = per_call(launch)
            print("%s %s %d %.2f %.3f %s" % (name, variant, fn.num_regs, us, copy / us, right))
            sys.stdout.flush()
            if variant == "timeline":
                stamps[name] = (code, tiles)
    print()
    for name, (code, tiles) in stamps.items():
        mod = cp.RawModule(code=code, options=("-std=c++17",))
        fn = mod.get_function("probe")
        base = generate(kgen, name)
        group = 8 if "g8" in name else 32
        tile = rows_of(base)
        groups = (tiles + group - 1) // group
        band = 32 if "l8" in name else 64
        band_scratch = (tiles + groups) * band * 16
        scratch = cp.zeros(16 + ((cols + band - 1) // band) * band_scratch, cp.uint8)
        out = cp.empty((rows, cols), cp.float32)
        for _ in range(4):
            fn((tiles, (cols + band - 1) // band), (256,), (x, out, np.uint64(rows), np.uint64(cols), np.uint64(cols),
                                                   np.uint64(cols), scratch, np.uint64(band_scratch)))
        cp.cuda.Device().synchronize()
        at = cp.ndarray((65536, 6), cp.uint64, mod.get_global("probe_at")).get()[:tiles].astype(np.int64)
        stamps[name] = at
        t0 = at[:, 0].min()
        mid = np.arange(tiles // 4, 3 * tiles // 4)
        last = mid[mid % group == group - 1]
        other = mid[mid % group != group - 1]
        print("## %s: %d tiles of %d rows, groups of %d, %.1f us from the first start to the last store" % (
            name, tiles, tile, group, (at[:, 4].max() - t0) / 1e3))
        for i in range(1, 5):
            d_o = at[other, i] - at[other, i - 1]
            d_l = at[last, i] - at[last, i - 1]
            print("  %-20s other tiles median %7.0f p90 %7.0f ns | last tiles median %7.0f p90 %7.0f ns" % (
                POINTS[i], np.median(d_o), np.percentile(d_o, 90), np.median(d_l), np.percentile(d_l, 90)))
        life = at[:, 4] - at[:, 0]
        span = at[:, 4].max() - t0
        print("  lifetime median %.0f ns, p90 %.0f; %.0f tiles alive on average; %.0f SMs used" % (
            np.median(life), np.percentile(life, 90), life.sum() / span, len(set(at[:, 5].tolist()))))
        starts = np.sort(at[mid, 0])
        print("  starts: %.1f tiles a us in the middle half" % (len(starts) / ((starts[-1] - starts[0]) / 1e3)))
        published = at[np.arange(group - 1, tiles, group), 3]
        gaps = np.diff(published)[len(published) // 4: 3 * len(published) // 4]
        print("  last tiles' look-backs done, group to group: median %.0f ns, p10 %.0f, p90 %.0f" % (
            np.median(gaps), np.percentile(gaps, 10), np.percentile(gaps, 90)))
        # A group's other tiles: from the group before's prefix to their own look-back's end.
        g = other // group
        ok = g > 0
        seen = at[other[ok], 3] - at[(g[ok] - 1) * group + group - 1, 3]
        print("  other tiles' look-back end after the group before's prefix: median %.0f ns, p90 %.0f" % (
            np.median(seen), np.percentile(seen, 90)))
        wait = at[other[ok], 3] - at[other[ok], 1]
        print("  other tiles waiting in look-back: median %.0f ns; start after the tile %d before ended: median %.0f ns"
              % (np.median(wait), int(life.sum() / span), np.median(
                  at[mid[mid > 1000], 0] - at[mid[mid > 1000] - int(life.sum() / span), 4])))
    np.savez_compressed("cols_probe.npz", **stamps)


if __name__ == "__main__":
    main()
