"""cols_sweep.py KGEN [RxC ...]: the column scan's tiles against a copy.

Each point of TILES (threads, items_per_thread, lanes, staging, blocks_per_sm,
lookback_group and load_width of kernel: scan, axis: cols, sum, f32) is generated with
KGEN, compiled with CuPy's NVRTC for this GPU, checked against
cupy.cumsum(axis=0) in float64 on a random matrix of each shape (default
1048576x64 and 1048576x1024), then timed (events around 10 launches, the
median of 7) beside a device-to-device copy of the bytes it reads and
writes (timed twice, the later kept).  Prints a line a point and shape:
the tile, its registers, us, the fraction of the copy's speed and whether
it verified.  SWEEP_GROUPS=1,4 runs the tiles of those lookback_group
values only.  To choose a default from; report the choice from another run
(kgen run --verify --bench)."""
import os
import subprocess
import sys

import cupy as cp
import numpy as np

from cupy_timing import copy_us, per_call

# threads, items_per_thread, lanes, staging, blocks_per_sm, lookback_group[, load_width (16 unless given)]
TILES = [
    (256, 8, 16, "none", 0, 32),
    (256, 8, 16, "smem", 4, 32),
    (256, 8, 8, "none", 0, 32),
    (256, 8, 8, "smem", 0, 32),
    (256, 8, 8, "smem", 5, 32),
    (256, 8, 8, "smem", 6, 32),
    (256, 4, 8, "smem", 0, 32),
    (128, 8, 8, "smem", 0, 32),
    (128, 16, 4, "smem", 0, 32),
    (128, 8, 4, "smem", 0, 32),
    (512, 4, 16, "smem", 0, 32),
    (256, 8, 8, "smem", 0, 16),
    (128, 16, 4, "smem", 0, 16),
    (128, 16, 4, "none", 0, 32),
    (256, 8, 8, "none", 0, 16),
    (256, 8, 8, "none", 4, 32),
    (256, 8, 8, "none", 0, 32, 8),
    (256, 8, 8, "smem", 0, 32, 8),
    (256, 8, 8, "none", 0, 32, 4),
    (256, 8, 8, "smem", 0, 32, 4),
    (128, 16, 4, "none", 0, 32, 8),
    (256, 8, 8, "none", 0, 1),
    (256, 8, 8, "none", 0, 4),
    (256, 8, 8, "smem", 0, 1),
    (256, 8, 8, "smem", 0, 4),
    (128, 16, 4, "smem", 0, 1),
    (128, 16, 4, "none", 0, 1),
    (256, 16, 8, "none", 0, 32),
    (256, 12, 8, "none", 0, 32),
    (256, 16, 8, "none", 0, 1),
]


def main():
    kgen = sys.argv[1]
    tiles_of = TILES
    if os.environ.get("SWEEP_GROUPS"):  # only the tiles of these lookback_group values (comma-separated)
        keep = {int(g) for g in os.environ["SWEEP_GROUPS"].split(",")}
        tiles_of = [t for t in TILES if t[5] in keep]
    shapes = [tuple(int(v) for v in s.split("x")) for s in (sys.argv[2:] or ["1048576x64", "1048576x1024"])]
    print("# %s" % cp.cuda.runtime.getDeviceProperties(0)["name"].decode())
    print("shape threads items lanes staging blocks_per_sm group load_width regs us of_copy right")
    for rows, cols in shapes:
        x = cp.random.default_rng(52).random((rows, cols), dtype=cp.float32) * 2 - 1
        want = cp.cumsum(x.astype(cp.float64), axis=0)
        bound = 2.0 ** -23 * (64 + cp.arange(1, rows + 1)[:, None] / 128.0) * cp.cumsum(
            cp.abs(x.astype(cp.float64)), axis=0)
        nbytes = rows * cols * 4
        copy = copy_us(nbytes)
        print("# %d x %d f32: copy of %d bytes %.2f us" % (rows, cols, 2 * nbytes, copy))
        out = cp.empty((rows, cols), cp.float32)
        for threads, items, lanes, staging, bps, group, *width in tiles_of:
            width = width[0] if width else 16
            spec = ("kernel: scan\nop: sum\ndtype: f32\naxis: cols\nname: probe\nthreads: %d\nitems_per_thread: %d\n"
                    "lanes: %d\nstaging: %s\nlookback_group: %d\nload_width: %d\n" % (threads, items, lanes, staging,
                                                                                      group, width))
            if bps:
                spec += "blocks_per_sm: %d\n" % bps
            tag = "%dx%d %d %d %d %s %d %d %d" % (rows, cols, threads, items, lanes, staging, bps, group, width)
            made = subprocess.run([kgen, "-"], input=spec, capture_output=True, text=True)
            if made.returncode:
                print("%s - - - - (%s)" % (tag, made.stderr.strip().splitlines()[-1]))
                continue
            code = made.stdout
            tile_rows = int(code.split("a block a tile of ")[1].split(" rows")[0])
            band = lanes * width // 4
            tiles, bands = (rows + tile_rows - 1) // tile_rows, (cols + band - 1) // band
            groups = (tiles + group - 1) // group
            band_scratch = (tiles + groups) * band * 16
            fn = cp.RawModule(code=code, options=("-std=c++17",)).get_function("probe")
            scratch = cp.zeros(16 + bands * band_scratch, cp.uint8)
            args = (x, out, np.uint64(rows), np.uint64(cols), np.uint64(cols), np.uint64(cols), scratch,
                    np.uint64(band_scratch))
            launch = lambda: fn((tiles, bands), (threads,), args)
            out.fill(cp.nan)
            launch()
            right = bool(cp.all(cp.abs(out.astype(cp.float64) - want) <= bound))
            us = per_call(launch)
            print("%s %d %.2f %.3f %s" % (tag, fn.num_regs, us, copy / us, right))
            sys.stdout.flush()
        x = want = bound = out = None
        cp.get_default_memory_pool().free_all_blocks()


if __name__ == "__main__":
    main()
