#!/usr/bin/env python3
"""axis_peers.py: time the axis sums a user would call in torch and cupy, the peers
of kgen's row and column reductions, next to the full sum of the same matrix.

    python3 bench/axis/axis_peers.py [--shapes RxC ...] [--dtypes f32|bf16|i32 ...]
                                [--runs N] [--out FILE]

For each shape (a row-major ROWS x COLS matrix) and dtype it times
  torch: torch.sum(x, dim=1) "rows", torch.sum(x, dim=0) "cols", torch.sum(x) "full";
  cupy:  cupy.sum(x, axis=1)  "rows", cupy.sum(x, axis=0)  "cols", cupy.sum(x)  "full"
(cupy reads the very same memory through DLPack; it has no bf16, which is skipped
there with a comment).  Random inputs (randn, or integers in [-64, 64] for i32),
CUDA events around each call, 3 warm-up calls, median of --runs calls.  Inputs
smaller than twice the L2 are rotated among copies (up to 64, as kgen-cub does) so
that every call reads from device memory; larger ones (32768x32768) are not copied.
Each result is checked once against a float64 sum of the same input on the GPU:
|got - ref| <= tol * sum|x| per output (tol 1e-5 f32, 1e-2 bf16, exact for i32).

Prints a '#' header (GPU, versions, L2, date, command line), then one TSV line per
(lib, shape, dtype, what):

    lib shape dtype what ms gbs frac_of_full check

gbs = (input bytes + output bytes) / time; frac_of_full = full-sum time / this time
(the same library's full sum: 1.0 means as fast as reading the matrix once for
one number); check = ok or FAIL.  --out FILE also writes the lines there.
"""
import argparse
import datetime
import shlex
import statistics
import sys

DEFAULT_SHAPES = ["16384x16384", "32768x32768", "1048576x256", "4194304x64", "256x1048576",
                  "64x4194304", "1000x3001", "1x1000003", "1000003x1"]
DTYPES = ("f32", "bf16", "i32")
TOL = {"f32": 1e-5, "bf16": 1e-2, "i32": 0.0}
MAX_COPIES = 64
WARMUP = 3
REF_CHUNK_BYTES = 512 << 20  # float64 bytes per chunk of the reference sum


def parse_shape(s):
    try:
        r, c = s.lower().split("x")
        r, c = int(r), int(c)
    except ValueError:
        raise argparse.ArgumentTypeError(f"shape {s!r}: expected ROWSxCOLS, e.g. 1000x3001")
    if r < 1 or c < 1:
        raise argparse.ArgumentTypeError(f"shape {s!r}: rows and cols must be positive")
    return (r, c)


def parse_args(argv):
    p = argparse.ArgumentParser(
        description="Time torch/cupy axis sums (rows, cols) against the full sum of the same matrix.")
    p.add_argument("--shapes", nargs="+", default=DEFAULT_SHAPES, metavar="RxC",
                   help="shapes ROWSxCOLS, space- or comma-separated (default: %(default)s)")
    p.add_argument("--dtypes", nargs="+", default=["f32"], metavar="DTYPE",
                   help=f"dtypes among {', '.join(DTYPES)}, space- or comma-separated (default: f32)")
    p.add_argument("--runs", type=int, default=20, help="timed calls per measurement (default: 20)")
    p.add_argument("--out", metavar="FILE", help="also write the TSV (with its header) to FILE")
    a = p.parse_args(argv)
    try:
        a.shapes = [parse_shape(s) for arg in a.shapes for s in arg.split(",") if s]
    except argparse.ArgumentTypeError as e:
        p.error(str(e))
    a.dtypes = [d for arg in a.dtypes for d in arg.split(",") if d]
    for d in a.dtypes:
        if d not in DTYPES:
            p.error(f"dtype {d!r}: expected one of {', '.join(DTYPES)}")
    if a.runs < 1:
        p.error("--runs must be at least 1")
    return a


class Output:
    """Lines go to stdout and, with --out, to a file, flushed as they come."""

    def __init__(self, path):
        self.f = open(path, "w") if path else None

    def line(self, s):
        print(s, flush=True)
        if self.f:
            self.f.write(s + "\n")
            self.f.flush()

    def close(self):
        if self.f:
            self.f.close()


def median_ms(call, xs, runs, event, elapsed):
    """3 warm-up calls, then runs calls, each alone between two events; the median in ms."""
    for w in range(WARMUP):
        call(xs[w % len(xs)])
    ms = []
    for r in range(runs):
        x = xs[r % len(xs)]
        a, b = event(), event()
        a.record()
        call(x)
        b.record()
        b.synchronize()
        ms.append(elapsed(a, b))
    return statistics.median(ms)


def reference(torch, x):
    """float64 sums of x by row, by column and in all, with the sums of |x| that
    scale the tolerance; in row chunks, so that no float64 copy of a large x is made."""
    rows, cols = x.shape
    k = max(1, REF_CHUNK_BYTES // (8 * cols))
    ref = {"rows": torch.empty(rows, dtype=torch.float64, device=x.device),
           "cols": torch.zeros(cols, dtype=torch.float64, device=x.device)}
    mag = {"rows": torch.empty_like(ref["rows"]), "cols": torch.zeros_like(ref["cols"])}
    for i in range(0, rows, k):
        d = x[i:i + k].double()
        ref["rows"][i:i + k] = d.sum(1)
        ref["cols"] += d.sum(0)
        d.abs_()
        mag["rows"][i:i + k] = d.sum(1)
        mag["cols"] += d.sum(0)
        del d
    ref["full"] = ref["rows"].sum().reshape(())
    mag["full"] = mag["rows"].sum().reshape(())
    return ref, mag


def check(torch, got, ref, mag, tol):
    got = got.to(ref.device).double().reshape(ref.shape)
    err = (got - ref).abs()
    if tol == 0.0:
        return bool((err == 0).all()), err.max().item()
    rel = (err / mag.clamp_min(1e-30)).max().item()
    return rel <= tol, rel


ACCEL_NAMES = {1: "cub", 2: "cutensor", 3: "cutensornet"}


def header(torch, cupy, l2, argv):
    """The '#' line that says where and when the numbers were taken."""
    cupy_ver = "none"
    if cupy is not None:
        cupy_ver = cupy.__version__
        try:
            names = lambda accs: ",".join(ACCEL_NAMES.get(a, str(a)) for a in accs) or "none"
            cupy_ver += (f" cupy_accelerators=routine:{names(cupy._core.get_routine_accelerators())}"
                         f";reduction:{names(cupy._core.get_reduction_accelerators())}")
        except Exception:
            pass
    date = datetime.datetime.now().astimezone().isoformat(timespec="seconds")
    cmd = " ".join(shlex.quote(a) for a in [sys.argv[0]] + list(argv))
    return (f"# gpu={torch.cuda.get_device_name(0)} l2_bytes={l2} torch={torch.__version__} "
            f"torch_cuda={torch.version.cuda} cupy={cupy_ver} date={date} cmd={cmd}")


def make_input(torch, rows, cols, dt, l2):
    """The matrix and its copies: enough that together they are twice the L2, or
    just the one when it is that large already."""
    torch.manual_seed(12345)
    if dt == "i32":
        x = torch.randint(-64, 65, (rows, cols), dtype=torch.int32, device="cuda")
    else:
        x = torch.randn(rows, cols, dtype={"f32": torch.float32, "bf16": torch.bfloat16}[dt], device="cuda")
    nbytes = x.numel() * x.element_size()
    copies = 1 if nbytes >= 2 * l2 else min(MAX_COPIES, -(-2 * l2 // nbytes))
    return [x] + [x.clone() for _ in range(copies - 1)], nbytes


def run_shape(torch, cupy, out, rows, cols, dt, runs, l2):
    """Every lib and what for one shape and dtype; returns the number of failed checks.
    All device memory it makes is unreferenced when it returns."""
    shape = f"{rows}x{cols}"
    try:
        xs, nbytes = make_input(torch, rows, cols, dt, l2)
        ref, mag = reference(torch, xs[0])
        torch.cuda.synchronize()
    except torch.cuda.OutOfMemoryError as e:
        out.line(f"# {shape} {dt}: out of memory making the input: {str(e).splitlines()[0]}")
        return 0

    libs = [("torch", xs, {"rows": lambda x: torch.sum(x, dim=1),
                           "cols": lambda x: torch.sum(x, dim=0),
                           "full": lambda x: torch.sum(x)},
             lambda: torch.cuda.Event(enable_timing=True), lambda a, b: a.elapsed_time(b),
             lambda r: (r, r.numel() * r.element_size()))]
    if cupy is not None and dt == "bf16":
        out.line(f"# cupy {shape} {dt}: skipped, cupy has no bfloat16")
    elif cupy is not None:
        try:
            cxs = [cupy.from_dlpack(x) for x in xs]  # the same memory, no copy
        except Exception:
            cxs = [cupy.asarray(x) for x in xs]  # __cuda_array_interface__, no copy either
        libs.append(("cupy", cxs, {"rows": lambda x: cupy.sum(x, axis=1),
                                   "cols": lambda x: cupy.sum(x, axis=0),
                                   "full": lambda x: cupy.sum(x)},
                     cupy.cuda.Event, cupy.cuda.get_elapsed_time,
                     lambda r: (torch.as_tensor(cupy.asnumpy(r)), r.nbytes)))

    failures = 0
    for lib, ins, calls, event, elapsed, result in libs:
        try:
            ms = {w: median_ms(calls[w], ins, runs, event, elapsed) for w in ("full", "rows", "cols")}
            for w in ("full", "rows", "cols"):
                got, out_bytes = result(calls[w](ins[0]))
                ok, err = check(torch, got, ref[w], mag[w], TOL[dt])
                del got
                if not ok:
                    failures += 1
                    print(f"# FAIL {lib} {shape} {dt} {w}: max error {err:.3g} "
                          f"(tolerance {TOL[dt]:g} x sum|x|)", file=sys.stderr, flush=True)
                out.line(f"{lib}\t{shape}\t{dt}\t{w}\t{ms[w]:.6f}\t{(nbytes + out_bytes) / ms[w] / 1e6:.1f}\t"
                         f"{ms['full'] / ms[w]:.3f}\t{'ok' if ok else 'FAIL'}")
        except Exception as e:  # out of memory, or a library that cannot do it
            msg = str(e).splitlines()[0] if str(e) else ""
            out.line(f"# {lib} {shape} {dt}: {type(e).__name__}: {msg}")
    return failures


def main(argv):
    args = parse_args(argv)
    try:
        import torch
    except ImportError:
        sys.exit("axis_peers.py: torch is not available")
    if not torch.cuda.is_available():
        sys.exit("axis_peers.py: torch sees no CUDA device")
    try:
        import cupy
    except Exception:  # ImportError, or a cupy built for another CUDA
        cupy = None

    l2 = getattr(torch.cuda.get_device_properties(0), "L2_cache_size", 0)
    if not l2 and cupy is not None:
        try:
            l2 = cupy.cuda.Device(0).attributes["L2CacheSize"]
        except Exception:
            pass
    l2 = l2 or 64 << 20
    out = Output(args.out)
    out.line(header(torch, cupy, l2, argv))
    if cupy is None:
        out.line("# cupy not available")
    out.line("# lib\tshape\tdtype\twhat\tms\tgbs\tfrac_of_full\tcheck")
    failures = 0
    for rows, cols in args.shapes:
        for dt in args.dtypes:
            failures += run_shape(torch, cupy, out, rows, cols, dt, args.runs, l2)
            # free this shape before the next one
            if cupy is not None:
                cupy.get_default_memory_pool().free_all_blocks()
            torch.cuda.synchronize()
            torch.cuda.empty_cache()
    out.close()
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
