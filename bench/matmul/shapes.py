#!/usr/bin/env python3
"""shapes.py: kgen's GEMM at every shape (skinny, decode, deep and square)
against torch.matmul (cuBLAS) and a device-to-device copy of the same
bytes, in one process on one GPU; or, with --spec, which of several specs
is fastest at each shape (to choose a plan's entries).

    python3 bench/matmul/shapes.py [--shapes MxNxK ...] [--dtypes bf16 f16] [--spec NAME=SPEC ...]
                                   [--runs N] [--rounds R] [--no-kgen] [--out FILE]

For each dtype and shape (C = A B, A M x K and B K x N row-major, inputs
uniform in [-1, 1)) it times, with CUDA events around each call:

  kgen    kgen.matmul(a, b): kgen's choice without spec=, which on a GPU
          with a shipped plan by shape (specs/plans/nvidia-<model>/
          matmul-<dtype>.yaml) is that plan's entry for the shape
  NAME    each --spec NAME=SPEC (a path, or YAML text such as "{kernel:
          matmul, dtype: bf16, math: wgmma, ...}"): kgen.Kernel(SPEC)(a, b)
  torch   torch.matmul(a, b)
  copy    a device-to-device copy (dst.copy_(src)) that reads and writes
          the bytes the GEMM does, A, B and C once each: (MK + KN + MN) x
          the element size in all; timed twice (its first timing can read
          low), the second kept

the median of --runs calls a round, the cases taking turns for --rounds
rounds, 3 warm-up calls each.  Before timing, every case's C is checked,
every element, against the float64 product on the GPU: |c - ref| <= (K +
2) u32 sum |a b| + u_out |ref| (+ u_out sum |a b| for torch where it allows
reduced-precision reductions).  A spec a shape does not fit (refused) is
reported as such and left out.

Prints a '#' header (GPU, clocks, power, versions, date, command line),
then a TSV line per (dtype, shape, case):

    dtype shape case ms tflops of_copy check

of_copy = the copy's time over the case's: the fraction of the copy's
bandwidth at which the case moves A, B and C.  Then a table a dtype:
kgen over torch (torch's time over kgen's: above 1 is faster), kgen's and
torch's of_copy; with --spec, the fastest spec at each shape and its speed
over the others'.  --out FILE writes the same to FILE.  Needs torch and
kgen importable (PYTHONPATH, KGEN_LIBRARY).
"""
import argparse
import datetime
import shlex
import sys

from epilogue import U32, begin, check, timed  # this folder's
from torch_peer import parse_shape, smi

# Issue 50's grid: M x (N, K), then the large squares.
GRID_M = (1, 16, 64, 128, 256, 1024, 4096, 8192)
GRID_NK = ((4096, 4096), (8192, 8192), (4096, 14336), (14336, 4096), (1024, 16384), (16384, 1024))
DEFAULT_SHAPES = ["%dx%dx%d" % (m, n, k) for m in GRID_M for (n, k) in GRID_NK] + ["12288x12288x12288",
                                                                                 "16384x16384x16384"]
UNIT = {"bf16": 2.0 ** -8, "f16": 2.0 ** -11}


def main(argv):
    p = argparse.ArgumentParser(description="kgen's GEMM at every shape against torch.matmul and a copy.")
    p.add_argument("--shapes", nargs="+", default=DEFAULT_SHAPES, metavar="MxNxK")
    p.add_argument("--dtypes", nargs="+", default=["bf16"], choices=sorted(UNIT))
    p.add_argument("--spec", action="append", default=[], metavar="NAME=SPEC",
                   help="also time kgen.Kernel(SPEC) as case NAME (repeatable)")
    p.add_argument("--no-kgen", action="store_true", help="leave out kgen.matmul's own choice")
    p.add_argument("--runs", type=int, default=20, help="calls a round (default: 20)")
    p.add_argument("--rounds", type=int, default=3, help="rounds of the cases taking turns (default: 3)")
    p.add_argument("--out", metavar="FILE", help="also write everything to FILE")
    args = p.parse_args(argv)
    try:
        shapes = [parse_shape(s) for arg in args.shapes for s in arg.split(",") if s]
    except argparse.ArgumentTypeError as e:
        p.error(str(e))
    specs = []
    for s in args.spec:
        name, eq, text = s.partition("=")
        if not eq or not name or not text or name in ("kgen", "torch", "copy"):
            p.error("--spec %s: expected NAME=SPEC, NAME not kgen, torch or copy" % s)
        specs.append((name, text))
    started = begin(p, args, "shapes.py")
    if started is None:
        return 2
    torch, kgen, out, fields = started
    out("# torch allows reduced-precision reductions: bf16 %s, f16 %s"
        % (torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction,
           torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction))
    out("# %s UTC; %s" % (datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M"),
                          " ".join(shlex.quote(x) for x in [sys.argv[0]] + argv)))
    out("dtype\tshape\tcase\tms\ttflops\tof_copy\tcheck")
    gen = torch.Generator(device="cuda")
    gen.manual_seed(20261203)
    failed = False
    for dt in args.dtypes:
        tdt = {"bf16": torch.bfloat16, "f16": torch.float16}[dt]
        reduced = (torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction if dt == "bf16" else
                   torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction)
        kernels = {name: kgen.Kernel(text) for name, text in specs}
        rows = []
        for (m, n, k) in shapes:
            a = (torch.rand((m, k), generator=gen, device="cuda") * 2 - 1).to(tdt)
            b = (torch.rand((k, n), generator=gen, device="cuda") * 2 - 1).to(tdt)
            nbytes = (m * k + k * n + m * n) * a.element_size()
            src = torch.empty(nbytes // 2, dtype=torch.uint8, device="cuda")
            dst = torch.empty_like(src)
            cases = {} if args.no_kgen else {"kgen": lambda: kgen.matmul(a, b)}
            for name, kern in kernels.items():
                cases[name] = (lambda kern: lambda: kern(a, b))(kern)
            cases["torch"] = lambda: torch.matmul(a, b)
            ab = a.double() @ b.double()
            mag = a.double().abs() @ b.double().abs()
            bound = (k + 2) * U32 * mag + UNIT[dt] * ab.abs() + 1e-300
            verdict = {}
            for name in list(cases):
                try:
                    c = cases[name]()
                except (ValueError, TypeError, RuntimeError) as e:  # a spec the shape does not fit
                    out("# %s %dx%dx%d %s: refused: %s" % (dt, m, n, k, name, str(e).splitlines()[0]))
                    del cases[name]
                    continue
                ok, worst = check(torch, c, ab, bound + (UNIT[dt] * mag if name == "torch" and reduced else 0))
                verdict[name] = ok
                if not ok:
                    failed = True
                    print("shapes.py: %s %s %dx%dx%d: error %.3g of the bound" % (dt, name, m, n, k, worst),
                          file=sys.stderr)
                del c
            del ab, mag, bound
            torch.cuda.empty_cache()
            timed(torch, {"copy": lambda: dst.copy_(src)}, args.runs, 1)  # its first timing, dropped
            cases["copy"] = lambda: dst.copy_(src)
            ms = timed(torch, cases, args.runs, args.rounds)
            for name, t in ms.items():
                tflops = 0.0 if name == "copy" else 2.0 * m * n * k / (t * 1e-3) / 1e12
                out("%s\t%dx%dx%d\t%s\t%.4f\t%.1f\t%.3f\t%s" % (dt, m, n, k, name, t, tflops, ms["copy"] / t,
                                                               "-" if name == "copy" else
                                                               "ok" if verdict[name] else "FAIL"))
            rows.append(((m, n, k), ms))
            del a, b, src, dst, cases
            torch.cuda.empty_cache()
        summary(out, dt, rows, [name for name, _ in specs], not args.no_kgen)
    out("# after: " + smi(fields))
    return 1 if failed else 0


def summary(out, dt, rows, names, with_kgen):
    """The table of one dtype: kgen over torch and of copy; the fastest of the --spec cases."""
    out("")
    head = "| %s shape |" % dt
    if with_kgen:
        head += " kgen over torch | kgen of copy | torch of copy |"
    if names:
        head += " fastest spec | its speed over the next |"
    out(head)
    out("|" + "---|" * (head.count("|") - 1))
    speedups = []
    for (m, n, k), ms in rows:
        line = "| %dx%dx%d |" % (m, n, k)
        if with_kgen and "kgen" in ms:
            speedups.append(ms["torch"] / ms["kgen"])
            line += " %.3f | %.3f | %.3f |" % (ms["torch"] / ms["kgen"], ms["copy"] / ms["kgen"],
                                               ms["copy"] / ms["torch"])
        elif with_kgen:
            line += " - | - | %.3f |" % (ms["copy"] / ms["torch"])
        if names:
            timed_names = sorted((ms[x], x) for x in names if x in ms)
            if timed_names:
                best = timed_names[0]
                nxt = timed_names[1][0] / best[0] if len(timed_names) > 1 else 1.0
                line += " %s | %.3f |" % (best[1], nxt)
            else:
                line += " - | - |"
        out(line)
    if speedups:
        prod = 1.0
        for s in speedups:
            prod *= s
        out("")
        out("%s: kgen over torch, geometric mean %.3f, least %.3f, over %d shapes"
            % (dt, prod ** (1.0 / len(speedups)), min(speedups), len(speedups)))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
