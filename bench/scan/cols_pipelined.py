"""cols_pipelined.py [RxC ...] [--rows R] [--blocks B]: a what-if for the column scan.

Chunks of 128 and 256 rows (--rows R: one size), as many blocks an SM as
the registers leave (--blocks B: B), at 2^20 x 64 and 2^20 x 1024 by default.

kgen's column scan (kernel: scan, axis: cols) runs a block a tile: the tile
is read, its totals published, and the block then holds its slot, and the
tile, while it waits for the prefix before it (bench/scan/cols_probe.py:
a tile waits 13 of its 18 us; without the look-back the kernel moves 0.97
of a copy, with it 0.23-0.37).  Here a persistent grid, every block
resident, takes chunks of CHUNK rows of a band of 64 f32 columns in turn
(block b: chunks b, b + G, b + 2G, ...) and pipelines them: it issues the
loads of chunk c + G into registers, finishes chunk c while they are in
flight (looks back for its prefix, with the look-back over groups of 32
chunks of templates/scan/columns.cu, every chunk folding the groups before
its own; then reads chunk c again, from L2 where it should still be,
scans and stores it), then takes chunk c + G's totals from the registers
and publishes them (pass 1).  So a chunk's wait overlaps the next chunk's
reads, and no shared memory of a tile is held across it; DRAM sees the
copy's traffic, L2 the chunk read twice.  A round's chunks wait on the
totals of the round's earlier chunks, published as their blocks end the
round before: a soft barrier a round, G chunks a round.

Sum of f32, columns a multiple of 64; checked against cupy.cumsum(axis=0)
in float64 (every element, the output poisoned first) and timed against a
device-to-device copy of the bytes read and written (cupy_timing.py).  A
wait that spins past 2^22 polls gives up and flags the launch (reported,
so a protocol error cannot hang the GPU machine's call).  To choose the
next change from, not a result to quote."""
import sys

import cupy as cp
import numpy as np

from cupy_timing import copy_us, per_call

SOURCE = r"""
typedef unsigned long long u64;
constexpr int THREADS = 256, LANES = 16, GROUPS = THREADS / LANES, COLS = 64, WARPS = THREADS / 32, K = COLS / WARPS;
constexpr int CHUNK = %(chunk)d, ITEMS = CHUNK / GROUPS, GROUP = 32;
constexpr u64 AGGREGATE = 1, PREFIX = 2;
static_assert(CHUNK %% GROUPS == 0, "whole rows a thread");

struct alignas(16) Word { u64 what, bits; };

__device__ unsigned int gave_up;  // set where a wait spun past its limit

static __device__ __forceinline__ Word load_word(const Word *p)
{
    Word w;
    asm volatile("ld.relaxed.gpu.global.v2.u64 {%%0, %%1}, [%%2];" : "=l"(w.what), "=l"(w.bits) : "l"(p) : "memory");
    return w;
}

static __device__ __forceinline__ void store_word(Word *p, u64 what, float v)
{
    asm volatile("st.relaxed.gpu.global.v2.u64 [%%0], {%%1, %%2};" ::"l"(p), "l"(what), "l"((u64)__float_as_uint(v))
                 : "memory");
}

static __device__ __forceinline__ float value(const Word &w) { return __uint_as_float((unsigned)w.bits); }

static __device__ __forceinline__ float warp_inclusive(float v)
{
    const int lane = threadIdx.x %% 32;
#pragma unroll
    for (int d = 1; d < 32; d *= 2) {
        const float u = __shfl_up_sync(0xffffffffu, v, d);
        if (lane >= d)
            v += u;
    }
    return v;
}

// The K words at w once each holds at least `need`: every word not yet there read again each round.
static __device__ __forceinline__ void wait_words(const Word *w, u64 need, Word (&got)[K])
{
#pragma unroll
    for (int k = 0; k < K; k++)
        got[k] = load_word(w + k);
    for (unsigned spins = 0;; spins++) {
        bool there = true;
#pragma unroll
        for (int k = 0; k < K; k++)
            there = there && got[k].what >= need;
        if (there)
            return;
        if (spins > (1u << 22)) {
            atomicExch(&gave_up, 1u);
            return;
        }
#pragma unroll
        for (int k = 0; k < K; k++)
            if (got[k].what < need)
                got[k] = load_word(w + k);
    }
}

struct Status {
    Word *tiles, *groups;  // this band's: a word a column of a chunk, of a group of 32 chunks
    u64 mark;
};

// For the warp's K columns (from c0): every chunk up to the end of group g, from the nearest group
// within 32 back (g - lane, lane 0 first) that published its prefix and the totals after it, left to
// right; none of 32: the one 32 back, waited for.
static __device__ __forceinline__ void group_prefix(const Status &s, long long g, int c0, float (&prefix)[K])
{
    const int lane = threadIdx.x %% 32;
    const long long h = g - lane;
    Word w[K];
#pragma unroll
    for (int k = 0; k < K; k++)
        w[k] = Word{s.mark | PREFIX, 0};
    if (h >= 0)
        wait_words(s.groups + h * COLS + c0, s.mark | AGGREGATE, w);
#pragma unroll
    for (int k = 0; k < K; k++) {
        const unsigned has = __ballot_sync(0xffffffffu, w[k].what == (s.mark | PREFIX));
        const int d = has ? __ffs(has) - 1 : 31;
        if (!has && lane == d) {
            for (unsigned spins = 0; (w[k] = load_word(s.groups + h * COLS + c0 + k)).what != (s.mark | PREFIX); spins++)
                if (spins > (1u << 22)) {
                    atomicExch(&gave_up, 1u);
                    break;
                }
        }
        const float v = lane <= d && h >= 0 ? value(w[k]) : 0.0f;
        float p = __shfl_sync(0xffffffffu, v, d);
        for (int l = d - 1; l >= 0; l--)
            p += __shfl_sync(0xffffffffu, v, l);
        prefix[k] = p;
    }
}

// Chunk c's prefixes for the warp's K columns (from c0), its totals in `all` (every lane; published
// in pass 1): scans its group mates' totals before it; group g - 1's total from its chunks' totals
// (published in their pass 1); the groups before that as group_prefix finds them (every chunk
// folds: none waits on another's prefix but where no group within 32 back has published one).
// A group's last chunk publishes the group's total, then its prefix.
static __device__ __forceinline__ void look_back(const Status &s, u64 c, const float (&all)[K], float (&prefix)[K])
{
    const int lane = threadIdx.x %% 32, p = (int)(c %% GROUP), c0 = threadIdx.x / 32 * K;
    const long long g = (long long)(c / GROUP);
    float in_group[K], total[K], before[K];
    Word got[K];

#pragma unroll
    for (int k = 0; k < K; k++)
        in_group[k] = lane == p ? all[k] : 0.0f;
    if (lane < p) {
        wait_words(s.tiles + (c - p + lane) * COLS + c0, s.mark | AGGREGATE, got);
#pragma unroll
        for (int k = 0; k < K; k++)
            in_group[k] = value(got[k]);
    }
#pragma unroll
    for (int k = 0; k < K; k++) {
        in_group[k] = warp_inclusive(in_group[k]);
        total[k] = __shfl_sync(0xffffffffu, in_group[k], GROUP - 1);
        if (p == GROUP - 1 && lane == 0)
            store_word(s.groups + g * COLS + c0 + k, s.mark | AGGREGATE, total[k]);
        before[k] = 0.0f;
    }
    if (g > 0) {
        float last[K], earlier[K];
        wait_words(s.tiles + ((u64)(g - 1) * GROUP + lane) * COLS + c0, s.mark | AGGREGATE, got);
#pragma unroll
        for (int k = 0; k < K; k++)
            last[k] = __shfl_sync(0xffffffffu, warp_inclusive(value(got[k])), GROUP - 1);
        if (g > 1) {
            group_prefix(s, g - 2, c0, earlier);
        } else {
#pragma unroll
            for (int k = 0; k < K; k++)
                earlier[k] = 0.0f;
        }
#pragma unroll
        for (int k = 0; k < K; k++)
            before[k] = earlier[k] + last[k];
    }
#pragma unroll
    for (int k = 0; k < K; k++) {
        const float mates = __shfl_sync(0xffffffffu, in_group[k], (p + 31) %% 32);
        if (p == GROUP - 1 && lane == 0)
            store_word(s.groups + g * COLS + c0 + k, s.mark | PREFIX, before[k] + total[k]);
        prefix[k] = p > 0 ? before[k] + mates : before[k];
    }
}

extern "C" __global__ void __launch_bounds__(THREADS)
pipelined(const float *__restrict__ in, float *__restrict__ out, u64 rows, u64 pitch, Word *tiles, Word *groups,
          u64 mark)
{
    __shared__ float sums[2][GROUPS][COLS + 1];  // a chunk's row groups' totals, then what comes before each
    __shared__ float totals[2][COLS];            // a chunk's totals
    __shared__ float before[COLS];               // the chunk's prefixes
    const u64 chunks = (rows + CHUNK - 1) / CHUNK, G = gridDim.x, col0 = (u64)blockIdx.y * COLS;
    const u64 ngroups = (chunks + GROUP - 1) / GROUP;
    const int g = threadIdx.x / LANES, l = threadIdx.x %% LANES, warp = threadIdx.x / 32, lane = threadIdx.x %% 32;
    const Status s = { tiles + blockIdx.y * chunks * COLS, groups + blockIdx.y * ngroups * COLS, mark };
    float4 v[ITEMS];  // a chunk's rows of this thread's columns, loaded ahead

    auto load = [&](u64 c) {
        const u64 r0 = c * CHUNK + (u64)g * ITEMS;
#pragma unroll
        for (int j = 0; j < ITEMS; j++)
            v[j] = r0 + j < rows ? *reinterpret_cast<const float4 *>(in + (r0 + j) * pitch + col0 + l * 4)
                                 : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    };
    // Pass 1 of chunk c, loaded into v: its totals and its row groups' exclusive totals into buffer b,
    // its totals published.
    auto pass1 = [&](u64 c, int b) {
        float4 t = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
#pragma unroll
        for (int j = 0; j < ITEMS; j++)
            t.x += v[j].x, t.y += v[j].y, t.z += v[j].z, t.w += v[j].w;
        sums[b][g][l * 4 + 0] = t.x, sums[b][g][l * 4 + 1] = t.y, sums[b][g][l * 4 + 2] = t.z,
        sums[b][g][l * 4 + 3] = t.w;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < K; k++) {
            const int col = warp * K + k;
            const float inc = warp_inclusive(lane < GROUPS ? sums[b][lane][col] : 0.0f);
            const float exc = __shfl_up_sync(0xffffffffu, inc, 1);
            if (lane < GROUPS)
                sums[b][lane][col] = lane == 0 ? 0.0f : exc;
            if (lane == GROUPS - 1) {
                totals[b][col] = inc;
                store_word(s.tiles + c * COLS + col, s.mark | AGGREGATE, inc);
            }
        }
        __syncwarp();  // the warp's totals, from lane GROUPS - 1, seen by all its lanes in finish()
    };
    // Finish chunk c of buffer b: its prefixes, then the chunk read again (from L2, mostly), scanned
    // and stored.
    auto finish = [&](u64 c, int b) {
        float all[K], prefix[K];
#pragma unroll
        for (int k = 0; k < K; k++)
            all[k] = totals[b][warp * K + k];
        if (chunks > 1) {
            look_back(s, c, all, prefix);
        } else {
#pragma unroll
            for (int k = 0; k < K; k++)
                prefix[k] = 0.0f;
        }
        if (lane == 0)
#pragma unroll
            for (int k = 0; k < K; k++)
                before[warp * K + k] = prefix[k];
        __syncthreads();
        float run[4];
#pragma unroll
        for (int e = 0; e < 4; e++)
            run[e] = before[l * 4 + e] + sums[b][g][l * 4 + e];
        const u64 r0 = c * CHUNK + (u64)g * ITEMS;
#pragma unroll
        for (int j = 0; j < ITEMS; j++)
            if (r0 + j < rows) {
                const float4 x = __ldcs(reinterpret_cast<const float4 *>(in + (r0 + j) * pitch + col0 + l * 4));
                run[0] += x.x, run[1] += x.y, run[2] += x.z, run[3] += x.w;
                __stcs(reinterpret_cast<float4 *>(out + (r0 + j) * pitch + col0 + l * 4),
                       make_float4(run[0], run[1], run[2], run[3]));
            }
        __syncthreads();  // `before` and buffer b free again
    };

    u64 c = blockIdx.x;
    int b = 0;
    if (c < chunks) {
        load(c);
        pass1(c, b);
    }
    for (; c < chunks; c += G, b ^= 1) {
        const bool next = c + G < chunks;
        if (next)
            load(c + G);  // in flight while chunk c waits for its prefix
        finish(c, b);
        if (next)
            pass1(c + G, b ^ 1);
    }
}
"""


def main():
    args = sys.argv[1:]
    chunks_rows, blocks = (128, 256), 0
    if "--rows" in args:
        i = args.index("--rows")
        chunks_rows = (int(args[i + 1]),)
        del args[i:i + 2]
    if "--blocks" in args:
        i = args.index("--blocks")
        blocks = int(args[i + 1])
        del args[i:i + 2]
    shapes = [tuple(int(v) for v in a.split("x")) for a in (args or ["1048576x64", "1048576x1024"])]
    props = cp.cuda.runtime.getDeviceProperties(0)
    print("# %s" % props["name"].decode())
    print("chunk_rows regs blocks_an_sm shape grid us of_copy right gave_up")
    mark = [0]
    for chunk in chunks_rows:
        mod = cp.RawModule(code=SOURCE % {"chunk": chunk}, options=("-std=c++17",))
        fn = mod.get_function("pipelined")
        regs = fn.num_regs
        per_sm = blocks or min(65536 // (256 * ((regs + 7) // 8 * 8)), 8)  # every block resident: no more
        flag = cp.ndarray((1,), cp.uint32, mod.get_global("gave_up"))
        for rows, cols in shapes:
            assert cols % 64 == 0, "columns a multiple of 64"
            bands = cols // 64
            chunks = (rows + chunk - 1) // chunk
            groups = (chunks + 31) // 32
            gx = max(1, min(chunks, props["multiProcessorCount"] * per_sm // bands))
            x = cp.random.default_rng(52).random((rows, cols), dtype=cp.float32) * 2 - 1
            want = cp.cumsum(x.astype(cp.float64), axis=0)
            bound = 2.0 ** -23 * (64 + cp.arange(1, rows + 1)[:, None] / 128.0) * cp.cumsum(
                cp.abs(x.astype(cp.float64)), axis=0)
            out = cp.full((rows, cols), cp.nan, cp.float32)
            tiles = cp.zeros(bands * chunks * 64 * 16, cp.uint8)
            gwords = cp.zeros(bands * groups * 64 * 16, cp.uint8)
            flag.fill(0)

            def launch():
                mark[0] += 4
                fn((gx, bands), (256,), (x, out, np.uint64(rows), np.uint64(cols), tiles, gwords,
                                         np.uint64(mark[0])))

            launch()
            cp.cuda.Device().synchronize()
            right = bool(cp.all(cp.abs(out.astype(cp.float64) - want) <= bound))
            us = per_call(launch)
            copy = copy_us(rows * cols * 4)
            print("%d %d %d %dx%d %dx%d %.2f %.3f %s %d" % (chunk, regs, per_sm, rows, cols, gx, bands, us, copy / us,
                                                        right, int(flag.get()[0])))
            sys.stdout.flush()
            x = want = bound = out = tiles = gwords = None
            cp.get_default_memory_pool().free_all_blocks()


if __name__ == "__main__":
    main()
