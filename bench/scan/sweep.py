"""sweep.py [N...]: kgen.cumsum of f32 and kgen.scan of i32 at each point
of a small grid of tiles (threads x items_per_thread), against a
device-to-device copy of the same bytes (read + written), in one process on
one GPU.  Each point's result is checked against torch's (floats within a
sum's bound, integers exactly) before it is timed.  Times as vs_torch.py:
CUDA events around 20 calls back to back, the median of 7 batches, per
call; the copy timed twice, the later kept.  A search for the tile to ship,
not a result to quote: choose here, report from another run."""
import sys

import torch

import kgen
from vs_torch import per_call

GRID = [(128, 16), (128, 32), (256, 8), (256, 16), (256, 32), (128, 64), (512, 16)]


def main():
    sizes = [int(eval(a.replace("^", "**"))) for a in sys.argv[1:]] or [2 ** 24, 2 ** 28]
    g = torch.Generator(device="cuda").manual_seed(52)
    print("# %s, torch %s, kgen %s" % (torch.cuda.get_device_name(), torch.__version__, kgen.__version__))
    print("dtype n threads items kgen_us copy_us kgen_of_copy")
    for dt in ("f32", "i32"):
        for n in sizes:
            if dt == "f32":
                x = torch.rand(n, generator=g, device="cuda") * 2 - 1
                want = torch.cumsum(x.double(), 0)
                bound = 2.0 ** -23 * (40 + torch.arange(1, n + 1, device="cuda") / 1024) * torch.cumsum(
                    x.double().abs(), 0)
                moved = n * 8
            else:
                x = torch.randint(-1000, 1000, (n,), generator=g, device="cuda", dtype=torch.int32)
                want = torch.cumsum(x, 0).to(torch.int32)
                moved = n * 8
            src = torch.empty(moved // 2, dtype=torch.uint8, device="cuda")
            dst = torch.empty_like(src)
            per_call(lambda: dst.copy_(src))
            copy = per_call(lambda: dst.copy_(src))
            for threads, items in GRID:
                def ours():
                    return kgen.scan(x, threads=threads, items_per_thread=items)
                got = ours()
                if dt == "f32":
                    ok = bool(torch.all((got.double() - want).abs() <= bound))
                else:
                    ok = torch.equal(got, want)
                if not ok:
                    print("%s %d %d %d WRONG" % (dt, n, threads, items))
                    continue
                k = per_call(ours)
                print("%s %d %d %d %.2f %.2f %.3f" % (dt, n, threads, items, k, copy, copy / k))
                sys.stdout.flush()
            del x, want, src, dst


if __name__ == "__main__":
    main()
