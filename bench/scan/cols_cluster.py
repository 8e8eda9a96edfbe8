"""cols_cluster.py KGEN [KEY=VALUE ...] [RxC ...]: a what-if for the column scan: tiles in clusters.

kgen's column scan (kernel: scan, axis: cols) runs a block a tile and looks
back on each tile: a tile waits for its group mates' totals and the
prefix before its group through status words in global memory, and those
waits, not the loads, are the time (bench/results/nvidia-h100/
2026-12-05-scan-cols-interleave: a tile in registers lives 12.2 us, 2.5
of them loading, 7.6 waiting; without the look-back the kernel moves 0.95
of a copy, with it 0.56 at 2^20 x 64 f32).  Here the kernel KGEN generates
(specs/scan/cols-sum-f32.yaml's tile, or with the KEY=VALUE arguments set) is edited so that
CLUSTER consecutive tiles of a band are a cluster of blocks (sm_90's
__cluster_dims__): each block puts its tile's totals in its shared memory,
the cluster meets at a barrier, block 0 reads the others' totals through
distributed shared memory, folds them left to right into the cluster's,
looks back once for the cluster (the look-back's chain is then a cluster
long, not a tile), and writes each block its prefix (the cluster's
prefix, then the totals of the blocks before it, left to right) into its
shared memory; a second barrier, and every block scans and stores as
before.  So the mates' waits of a cluster go through the cluster's
barriers instead of L2, and the look-back has CLUSTER times fewer links.
The grid's x is the tiles rounded up to whole clusters (tiles past the
last are empty).  The same fold every run, so the same bits every run
(checked: two launches compared bit for bit).

Sum of f32 at 2^20 x 64 and 2^20 x 1024 by default, CLUSTER 1 (kgen's
kernel as a cluster of one block, with the edits' 512 bytes of shared
memory: the baseline; time kgen's own with cols_sweep.py), 2, 4 and 8; each checked against
cupy.cumsum(axis=0) in float64 (every element, the output poisoned
first), at a ragged shape too (100003 x 70: a partial last cluster and
band), then timed against a device-to-device copy of the bytes read and
written (cupy_timing.py).  To choose the next change from, not a result
to quote."""
import os
import subprocess
import sys

import cupy as cp
import numpy as np

from cupy_timing import copy_us, per_call

CLUSTERS = (1, 2, 4, 8)

HELPERS = r"""
constexpr int CLUSTER = %d;

// The shared-memory address of a generic pointer to it.
static __device__ __forceinline__ unsigned int shared_address(const void *p)
{
    unsigned long long a;
    asm("cvta.to.shared.u64 %%0, %%1;" : "=l"(a) : "l"(p));
    return (unsigned int)a;
}

// The 8 bytes at p in the shared memory of the cluster's block `rank`.
static __device__ __forceinline__ unsigned long long remote_load(const unsigned long long *p, unsigned int rank)
{
    unsigned int at;
    unsigned long long v;
    asm volatile("mapa.shared::cluster.u32 %%0, %%1, %%2;" : "=r"(at) : "r"(shared_address(p)), "r"(rank));
    asm volatile("ld.shared::cluster.u64 %%0, [%%1];" : "=l"(v) : "r"(at) : "memory");
    return v;
}

// Store v at p in the shared memory of the cluster's block `rank`.
static __device__ __forceinline__ void remote_store(unsigned long long *p, unsigned long long v, unsigned int rank)
{
    unsigned int at;
    asm volatile("mapa.shared::cluster.u32 %%0, %%1, %%2;" : "=r"(at) : "r"(shared_address(p)), "r"(rank));
    asm volatile("st.shared::cluster.u64 [%%0], %%1;" :: "r"(at), "l"(v) : "memory");
}

// Every thread of the cluster's blocks arrives, releasing its writes, then waits for the others.
static __device__ __forceinline__ void cluster_barrier()
{
    asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
}

"""

CLUSTER_LOOK_BACK = r"""    // The cluster's tiles: block 0 folds their totals, looks back for the
    // cluster and hands each block its prefix.
    __shared__ unsigned long long cluster_totals[COLS], cluster_prefixes[COLS];
    if (CLUSTER == 1) {
        if (supers > 1)
            look_back(s, st, all, prefix);
    } else {
        if (lane == 0)
#pragma unroll
            for (int k = 0; k < K; k++)
                cluster_totals[warp * K + k] = to_bits(all[k]);
        cluster_barrier();
        if (rank == 0) {
            Acc mine[K], whole[K];
#pragma unroll
            for (int k = 0; k < K; k++) {
                mine[k] = lane < CLUSTER ? from_bits(remote_load(&cluster_totals[warp * K + k], lane)) : identity();
                whole[k] = __shfl_sync(0xffffffffu, mine[k], 0);
                for (int r = 1; r < CLUSTER; r++)
                    whole[k] = combine(whole[k], __shfl_sync(0xffffffffu, mine[k], r));
            }
            if (supers > 1)
                look_back(s, st, whole, prefix);
#pragma unroll
            for (int k = 0; k < K; k++) {
                Acc p = prefix[k];
                for (int r = 0; r < CLUSTER - 1; r++) {
                    const Acc before = __shfl_sync(0xffffffffu, mine[k], r);
                    if (r < lane)
                        p = combine(p, before);
                }
                if (lane < CLUSTER)
                    remote_store(&cluster_prefixes[warp * K + k], to_bits(p), lane);
            }
        }
        cluster_barrier();
#pragma unroll
        for (int k = 0; k < K; k++)
            prefix[k] = from_bits(cluster_prefixes[warp * K + k]);
    }
"""

EDITS = [
    ('extern "C" __global__ void __launch_bounds__(', 'extern "C" __global__ void __cluster_dims__(CLUSTER, 1, 1) __launch_bounds__('),
    ("    const Index t = b / gridDim.y, band = b % gridDim.y;\n",
     "    const Index supers = (tiles + CLUSTER - 1) / CLUSTER, cluster = b / CLUSTER;\n"
     "    const int rank = (int)(b % CLUSTER);  // gridDim.x is whole clusters: the block's rank in its cluster\n"
     "    const Index band = cluster % gridDim.y, st = cluster / gridDim.y, t = st * CLUSTER + rank;\n"),
    ("threadIdx.x == 0 && tiles > 1 ? launch_mark(scratch) : 0;", "threadIdx.x == 0 && supers > 1 ? launch_mark(scratch) : 0;"),
    ("const Status s(scratch, band, band_scratch, tiles * COLS, mark);",
     "const Status s(scratch, band, band_scratch, supers * COLS, mark);"),
    ("    if (tiles > 1)\n        look_back(s, t, all, prefix);\n", CLUSTER_LOOK_BACK),
]


def edited(code, cluster):
    for old, new in EDITS:
        assert code.count(old) == 1, "%r is not in the source once" % old
        code = code.replace(old, new)
    at = code.index('extern "C" __global__')
    at = code.rindex("\n//", 0, at)  # before the kernel's comment
    return code[:at + 1] + HELPERS % cluster + code[at + 1:]


def main():
    args = sys.argv[1:]
    kgen = args.pop(0)
    sets = [a for a in args if "=" in a]
    shapes = [tuple(int(v) for v in a.split("x")) for a in args if "=" not in a] or [(1048576, 64), (1048576, 1024)]
    spec = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "specs", "scan", "cols-sum-f32.yaml")
    command = [kgen, spec, "--set", "name=probe"] + [w for kv in sets for w in ("--set", kv)]
    base = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    tile_rows = int(base.split("a block a tile of ")[1].split(" rows")[0])
    band = int(base.split("band of ")[1].split(" columns")[0])
    group = int(base.split("constexpr int GROUP = ")[1].split(";")[0])
    threads = int(base.split("<<<(tiles, bands), ")[1].split(">>>")[0])
    print("# %s; the tile: %d rows of %d columns, %d threads, groups of %d; %s" % (
        cp.cuda.runtime.getDeviceProperties(0)["name"].decode(), tile_rows, band, threads, group,
        " ".join(sets) or "the shipped spec's"))
    fns = {}
    for c in CLUSTERS:
        fn = cp.RawModule(code=edited(base, c), options=("-std=c++17",)).get_function("probe")
        fns[c] = fn
    print("shape cluster regs us of_copy right same_bits")
    for rows, cols in [(100003, 70)] + shapes:
        x = cp.random.default_rng(52).random((rows, cols), dtype=cp.float32) * 2 - 1
        want = cp.cumsum(x.astype(cp.float64), axis=0)
        bound = 2.0 ** -23 * (64 + cp.arange(1, rows + 1)[:, None] / 128.0) * cp.cumsum(
            cp.abs(x.astype(cp.float64)), axis=0)
        nbytes = rows * cols * 4
        copy = copy_us(nbytes) if (rows, cols) in shapes else 0
        out = cp.empty((rows, cols), cp.float32)
        tiles, bands = (rows + tile_rows - 1) // tile_rows, (cols + band - 1) // band
        band_scratch = (tiles + (tiles + group - 1) // group) * band * 16
        for c in CLUSTERS:
            fn = fns[c]
            scratch = cp.zeros(16 + bands * band_scratch, cp.uint8)
            args = (x, out, np.uint64(rows), np.uint64(cols), np.uint64(cols), np.uint64(cols), scratch,
                    np.uint64(band_scratch))
            grid = ((tiles + c - 1) // c * c, bands)
            launch = lambda: fn(grid, (threads,), args)
            out.fill(cp.nan)
            launch()
            right = bool(cp.all(cp.abs(out.astype(cp.float64) - want) <= bound))
            first = out.copy()
            out.fill(cp.nan)
            launch()
            same = bool(cp.all(out.view(cp.uint32) == first.view(cp.uint32)))
            if copy:
                us = per_call(launch)
                print("%dx%d %d %d %.2f %.3f %s %s" % (rows, cols, c, fn.num_regs, us, copy / us, right, same))
            else:
                print("%dx%d %d %d - - %s %s" % (rows, cols, c, fn.num_regs, right, same))
            sys.stdout.flush()
        x = want = bound = out = None
        cp.get_default_memory_pool().free_all_blocks()


if __name__ == "__main__":
    main()
