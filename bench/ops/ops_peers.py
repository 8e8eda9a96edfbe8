"""ops_peers.py TSV: what users would call instead of kgen's ops, timed on
the GPU with CUDA events (median of 20 after 3 warm-up calls), written as
TSV lines: name, shape, microseconds.  torch.argmax(x, dim=1) of f32
matrices (1048576x256, 4194304x64); torch.argmax and torch.sum of a 2^30
f32 vector, for context."""
import statistics
import sys

import torch


def median_us(fn, runs=20):
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(runs):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) * 1e3)
    return statistics.median(times)


def main(path):
    g = torch.Generator(device="cuda").manual_seed(20261122)
    with open(path, "w") as f:
        for rows, cols in ((1048576, 256), (4194304, 64)):
            x = torch.randn(rows, cols, device="cuda", generator=g)
            us = median_us(lambda: torch.argmax(x, dim=1))
            f.write("argmax-rows\t%dx%d\t%.3f\n" % (rows, cols, us))
            print("torch.argmax(x, dim=1) %dx%d f32: %.1f us" % (rows, cols, us))
            del x
        x = torch.randn(1 << 30, device="cuda", generator=g)
        for name, fn in (("argmax", lambda: torch.argmax(x)), ("sum", lambda: torch.sum(x))):
            us = median_us(fn)
            f.write("%s-vector\t%d\t%.3f\n" % (name, 1 << 30, us))
            print("torch.%s of 2^30 f32: %.1f us" % (name, us))


if __name__ == "__main__":
    main(sys.argv[1])
