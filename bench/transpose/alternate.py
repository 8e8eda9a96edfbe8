"""Transposes timed as issue 23 times them: each call alone between two
CUDA events, alternating with a device-to-device copy of the same bytes
(torch's copy_ of a contiguous tensor: cudaMemcpyAsync), against the same
spec's calls back to back (each still between its own events).

    python3 bench/transpose/alternate.py [--runs R] [--shapes 8192 16384 32768]
        [--spec PATH[:KEY=VALUE,...]]...

Every output is compared with torch's x.t() (all elements) before timing.
Prints one line a spec and shape: the copy's median in the alternating
rounds, the transpose's there, copy/transpose, then the transpose's median
back to back and the copy's back to back (each median of R)."""
import argparse
import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
import kgen  # noqa: E402


def timed(fn, start, end):
    torch.cuda._sleep(200000)  # the GPU busy while the host enqueues: the events time the GPU's work, not Python's
    start.record()
    fn()
    end.record()
    end.synchronize()
    return start.elapsed_time(end)


def median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--shapes", type=int, nargs="+", default=[8192, 16384, 32768])
    ap.add_argument("--spec", action="append", default=[])
    o = ap.parse_args()
    specs = o.spec or [os.path.join(HERE, "..", "..", "specs", "transpose", "best.yaml")]
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    print("# %s, torch %s, kgen from %s" % (torch.cuda.get_device_name(), torch.__version__, kgen.__file__))
    print("# spec shape: copy_ms transpose_ms copy/transpose (alternating) | transpose_ms copy_ms (back to back)")
    for n in o.shapes:
        x = torch.rand(n, n, device="cuda")
        y = torch.empty(n, n, device="cuda")
        z = torch.empty(n, n, device="cuda")
        for text in specs:
            path, _, sets = text.partition(":")
            over = dict(kv.split("=", 1) for kv in sets.split(",") if kv)
            over = {k: int(v) if v.isdigit() else v for k, v in over.items()}
            y.fill_(float("nan"))
            try:
                kgen.transpose(x, spec=path, out=y, **over)
            except kgen.SpecError as e:
                print("%s %dx%d refused: %s" % (os.path.basename(path) + ":" + sets, n, n, e), flush=True)
                continue
            torch.cuda.synchronize()
            ok = torch.equal(y, x.t())
            call = lambda: kgen.transpose(x, spec=path, out=y, **over)  # noqa: E731
            copy = lambda: z.copy_(x)  # noqa: E731
            for _ in range(3):
                copy()
                call()
            cs, ts = [], []
            for _ in range(o.runs):
                cs.append(timed(copy, s, e))
                ts.append(timed(call, s, e))
            tb = [timed(call, s, e) for _ in range(o.runs)]
            cb = [timed(copy, s, e) for _ in range(o.runs)]
            print("%s %dx%d %s: %.4f %.4f %.3f | %.4f %.4f" % (os.path.basename(path) + (":" + sets if sets else ""),
                  n, n, "ok" if ok else "FAIL", median(cs), median(ts), median(cs) / median(ts), median(tb), median(cb)),
                  flush=True)
        del x, y, z
        torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
