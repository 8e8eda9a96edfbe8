"""sweep.py [--graph] [N...]: kgen.scan at each point of a small grid of
tiles (threads x items_per_thread, block_scan as the look-back's default,
segments, unless the point names warps) for f32 sums, i32 sums, i32 into
i64 (torch.cumsum's int result) and bf16 into f32, against a
device-to-device copy of the same bytes (read + written), in one process on
one GPU.  Each point's result is checked against torch's (floats within a
sum's bound, integers exactly) before it is timed; a point the spec rules
refuse (a tile over 48 KB of shared memory) is printed as refused.  Times
as vs_torch.py: CUDA events around 20 calls back to back, the median of 7
batches, per call; with --graph, the 20 calls captured in a CUDA graph and
the graph replayed (the small sizes' figure: no launch cost of Python).
The copy timed twice, the later kept.  A search for the tile to ship (or a
size plan's small-n tile), not a result to quote: choose here, report from
another run."""
import sys

import torch

import kgen
from vs_torch import per_call

GRID = [(128, 16, None), (128, 32, None), (256, 8, None), (256, 16, None), (256, 32, None), (128, 64, None),
        (512, 16, None), (256, 64, None), (64, 32, None), (256, 32, "warps")]
KINDS = {"f32": (torch.float32, None, 4, 4), "i32": (torch.int32, None, 4, 4), "i32>i64": (torch.int32, "i64", 4, 8),
         "bf16": (torch.bfloat16, None, 2, 4)}


def graphed(fn, calls=20):
    """fn's 20 calls captured once in a CUDA graph; a replay of them."""
    fn()
    torch.cuda.synchronize()
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph, stream=side):
            for _ in range(calls):
                fn()
    torch.cuda.synchronize()
    return graph.replay


def main():
    args = sys.argv[1:]
    graph = "--graph" in args
    sizes = [int(eval(a.replace("^", "**"))) for a in args if a != "--graph"] or [2 ** 24, 2 ** 28]
    g = torch.Generator(device="cuda").manual_seed(52)
    print("# %s, torch %s, kgen %s, %s" % (torch.cuda.get_device_name(), torch.__version__, kgen.__version__,
                                         "a CUDA graph of 20 calls replayed" if graph else "20 calls back to back"))
    print("kind n threads items block_scan kgen_us copy_us kgen_of_copy")
    for kind, (dtype, acc, isize, osize) in KINDS.items():
        for n in sizes:
            if dtype == torch.int32:
                x = torch.randint(-1000, 1000, (n,), generator=g, device="cuda", dtype=torch.int32)
                want = torch.cumsum(x.long(), 0)
                bound = None
            else:
                x = (torch.rand(n, generator=g, device="cuda") * 2 - 1).to(dtype)
                want = torch.cumsum(x.double(), 0)
                bound = 2.0 ** -23 * (40 + torch.arange(1, n + 1, device="cuda") / 1024) * torch.cumsum(
                    x.double().abs(), 0)
            src = torch.empty(n * (isize + osize) // 2, dtype=torch.uint8, device="cuda")
            dst = torch.empty_like(src)
            per_call(lambda: dst.copy_(src))
            copy = per_call(graphed(lambda: dst.copy_(src)) if graph else lambda: dst.copy_(src),
                            calls=1 if graph else 20)
            for threads, items, block_scan in GRID:
                over = {"threads": threads, "items_per_thread": items}
                if acc:
                    over["acc_dtype"] = acc
                if block_scan:
                    over["block_scan"] = block_scan

                def ours():
                    return kgen.scan(x, **over)
                try:
                    got = ours()
                except kgen.SpecError as e:
                    print("%s %d %d %d %s refused: %s" % (kind, n, threads, items, block_scan or "default",
                                                          str(e).splitlines()[0]))
                    continue
                if bound is None:
                    ok = torch.equal(got.long(), want if acc else want.to(torch.int32).long())
                else:
                    ok = bool(torch.all((got.double() - want).abs() <= bound))
                if not ok:
                    print("%s %d %d %d %s WRONG" % (kind, n, threads, items, block_scan or "default"))
                    continue
                k = per_call(graphed(ours), calls=1) / 20 if graph else per_call(ours)
                print("%s %d %d %d %s %.2f %.2f %.3f" % (kind, n, threads, items, block_scan or "default", k,
                                                       copy / (20 if graph else 1), copy / (20 if graph else 1) / k))
                sys.stdout.flush()
            del x, want, src, dst


if __name__ == "__main__":
    main()
