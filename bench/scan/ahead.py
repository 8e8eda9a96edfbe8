"""ahead.py KGEN N [N ...]: a what-if for the look-back scan (issue 52): a
persistent grid whose blocks take tiles in order from a counter and read
their next tile into registers while they wait on the current tile's
prefix, against kgen's own lookback kernel, CUB's InclusiveSum (through
CuPy with its CUB accelerator) and a device-to-device copy of the same
bytes.  Generates kernel: scan with `KGEN`, swaps its kernel for the
persistent one (the rest of the file as generated), compiles with CuPy's
NVRTC, checks every output element against a float64 cumsum (within a
sum's bound; integers exactly) and times each (events around 20 launches,
median of 7; the copy timed twice, the later kept).  A probe for choosing
the next change, not a result to quote."""
import sys

import subprocess

import cupy as cp
import numpy as np

from probe import per_call

KERNEL_MARK = "// A block a tile of a row: its elements scanned"

PERSISTENT = r"""
// A whole aligned tile's elements read ahead into registers (loads issued,
// not waited for); other tiles are read when put into shared memory.
struct Ahead {
    Pack<T, VEC> p[ITEMS / VEC];
    bool whole;

    __device__ __forceinline__ void load(const T *__restrict__ in, Index first, Index n)
    {
        whole = first + TILE <= n && aligned(in + first, sizeof(Pack<T, VEC>));
        if (whole) {
            const Pack<T, VEC> *packs = reinterpret_cast<const Pack<T, VEC> *>(in + first);
#pragma unroll
            for (int j = 0; j < ITEMS / VEC; j++)
                p[j] = packs[j * THREADS + threadIdx.x];
        }
    }

    __device__ __forceinline__ void put(Acc *tile, const T *__restrict__ in, Index first, Index n)
    {
        if (!whole) {
            load_tile(tile, in, first, n);
            return;
        }
#pragma unroll
        for (int j = 0; j < ITEMS / VEC; j++) {
            const int i = (j * THREADS + threadIdx.x) * VEC;
#pragma unroll
            for (int e = 0; e < VEC; e++)
                tile[padded(i + e)] = to_acc(p[j].e[e], first + i + e);
        }
    }
};

extern "C" __global__ void __launch_bounds__(THREADS, MIN_BLOCKS)
persistent(const T *__restrict__ in, Results out, Index n, Index in_pitch, Index out_pitch,
    unsigned char *__restrict__ scratch, Index row_scratch, unsigned long long epoch, unsigned long long *counters)
{
    __shared__ Acc tile[TILE_WORDS];
    __shared__ Acc tile_prefix;
    __shared__ Index taken;
    const Index tiles = (n + TILE - 1) / TILE;
    unsigned long long *counter = counters + blockIdx.y;
    const unsigned long long base = epoch << 32;

    in += blockIdx.y * in_pitch;
    out += blockIdx.y * out_pitch;
    scratch += blockIdx.y * row_scratch;
    Status s(scratch, tiles, epoch);
    if (threadIdx.x == 0) {
        atomicMax(counter, base);
        taken = atomicAdd(counter, 1ull) - base;
    }
    __syncthreads();
    Index t = taken;
    if (t >= tiles)
        return;
    Ahead a;
    a.load(in, t * TILE, n);
    for (;;) {
        const Index first = t * TILE;
        Acc all;
#if !AHEAD
        a.load(in, first, n);
#endif
        a.put(tile, in, first, n);
        __syncthreads();
        const Acc before = block_exclusive(items_total(tile), &all);
        if (threadIdx.x == 0) {
            if (tiles > 1)
                s.publish(s.flags + t, s.totals + t, all, AGGREGATE);
            taken = atomicAdd(counter, 1ull) - base;
        }
        __syncthreads();
        const Index u = taken;
#if AHEAD
        if (u < tiles)
            a.load(in, u * TILE, n);
#endif
        if (threadIdx.x < 32 && t > 0) {
            const int p = (int)(t % GROUP);
            const long long g = (long long)(t / GROUP);
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
        }
        scan_items(tile, before);
        __syncthreads();
        store_tile(out, tile, first, n, t > 0 ? &tile_prefix : nullptr);
        if (u >= tiles)
            break;
        __syncthreads();
        t = u;
    }
}
"""


def scratch_bytes(tiles, group, acc):
    groups = (tiles + group - 1) // group
    return ((tiles + groups) * 8 + 15) // 16 * 16 + ((tiles + 2 * groups) * acc + 15) // 16 * 16


EPOCH = [10 ** 6]


TID = ('static __device__ __forceinline__ unsigned tid_x()\n{\n    unsigned v;\n'
       '    asm volatile("mov.u32 %0, %%tid.x;" : "=r"(v));  // not hoisted out of the persistent loop\n'
       '    return v;\n}\n\n')


def build(kgen, dtype, threads, items, group, ahead, bps):
    spec = ("kernel: scan\nop: sum\ndtype: %s\nacc_dtype: %s\nthreads: %d\nitems_per_thread: %d\n"
            "lookback_group: %d\n" % (dtype, dtype, threads, items, group))
    base = subprocess.run([kgen, "-"], input=spec, capture_output=True, text=True, check=True).stdout
    if ahead is None:
        return cp.RawModule(code=base, options=("-std=c++17",)).get_function("scan_sum_" + dtype)
    body = (base[:base.index(KERNEL_MARK)] + PERSISTENT).replace("threadIdx.x", "tid_x()")
    i = body.index("typedef")
    code = "#define AHEAD %d\n#define MIN_BLOCKS %d\n" % (ahead, bps) + body[:i] + TID + body[i:]
    return cp.RawModule(code=code, options=("-std=c++17",)).get_function("persistent")


def main():
    kgen, ns = sys.argv[1], [int(eval(a.replace("^", "**"))) for a in sys.argv[2:]]
    sms = cp.cuda.Device().attributes["MultiProcessorCount"]
    print("# %s, %d SMs" % (cp.cuda.runtime.getDeviceProperties(0)["name"].decode(), sms))
    print("dtype n variant threads items group blocks_per_sm regs us of_copy over_cub right")
    for dtype in ("f32", "i32"):
        npt = {"f32": cp.float32, "i32": cp.int32}[dtype]
        data = {}
        for n in ns:
            rng = cp.random.default_rng(52)
            if dtype == "f32":
                x = rng.random(n, dtype=cp.float32) * 2 - 1
                want = cp.cumsum(x.astype(cp.float64))
                bound = 2.0 ** -23 * (64 + cp.arange(1, n + 1) / 256) * cp.cumsum(cp.abs(x.astype(cp.float64)))
            else:
                x = rng.integers(-1000, 1000, n, dtype=cp.int32)
                want = cp.cumsum(x, dtype=cp.int32)
                bound = None
            src, dst = cp.empty(n * 4, cp.uint8), cp.empty(n * 4, cp.uint8)
            per_call(lambda: cp.copyto(dst, src))
            copy = per_call(lambda: cp.copyto(dst, src))
            del src, dst
            cp._core.set_routine_accelerators(["cub"])
            cub_out = cp.empty(n, npt)
            cub = per_call(lambda: cp.cumsum(x, out=cub_out))
            cp._core.set_routine_accelerators([])
            if bound is None:
                cub_right = bool(cp.all(cub_out == want.astype(npt)))
            else:
                cub_right = bool(cp.all(cp.abs(cub_out - want) <= bound))
            del cub_out
            print("%s %d copy - - - - - %.2f 1.000 - -" % (dtype, n, copy))
            print("%s %d cub - - - - - %.2f %.3f 1.000 %s" % (dtype, n, cub, copy / cub, cub_right))
            sys.stdout.flush()
            data[n] = (x, want, bound, copy, cub)
        for threads, items in ((256, 32), (256, 16), (512, 16)):
            for group in (32, 16):
                for name, ahead, bps in (("lookback", None, 1), ("ahead", 1, 2), ("ahead", 1, 3), ("ahead", 1, 4),
                                         ("persistent", 0, 3)):
                    fn = build(kgen, dtype, threads, items, group, ahead, bps)
                    if ahead is not None:
                        occ = cp.cuda.driver.occupancyMaxActiveBlocksPerMultiprocessor(fn.kernel.ptr, threads, 0)
                        if occ < bps:
                            print("%s - %s %d %d %d %d %d - - - occupancy-%d" % (
                                dtype, name, threads, items, group, bps, fn.num_regs, occ))
                            continue
                    for n in ns:
                        x, want, bound, copy, cub = data[n]
                        tile = threads * items
                        tiles = (n + tile - 1) // tile
                        scratch = cp.zeros(scratch_bytes(tiles, group, 4), cp.uint8)
                        counters = cp.zeros(1, cp.uint64)
                        out = cp.empty(n, npt)
                        grid = tiles if ahead is None else min(tiles, bps * sms)

                        def launch():
                            EPOCH[0] += 1
                            args = [x, out, np.uint64(n), np.uint64(n), np.uint64(n), scratch, np.uint64(0),
                                    np.uint64(EPOCH[0])]
                            if ahead is not None:
                                args.append(counters)
                            fn((grid,), (threads,), tuple(args))
                        out.fill(-7777)
                        launch()
                        if bound is None:
                            right = bool(cp.all(out == want.astype(npt)))
                        else:
                            right = bool(cp.all(cp.abs(out - want) <= bound))
                        us = per_call(launch)
                        print("%s %d %s %d %d %d %s %d %.2f %.3f %.3f %s" % (
                            dtype, n, name, threads, items, group, bps if ahead is not None else "-", fn.num_regs,
                            us, copy / us, cub / us, right))
                        sys.stdout.flush()
                        del out, scratch


if __name__ == "__main__":
    main()
