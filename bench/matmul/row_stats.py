#!/usr/bin/env python3
"""row_stats.py: the row sums and row maxima of a GEMM's output, fused into
kgen's GEMM (row_reduce: sum, max) against the GEMM followed by separate
row reductions, kgen's and torch's, in one process on one GPU.

    python3 bench/matmul/row_stats.py [--shapes MxNxK ...] [--runs N] [--rounds R] [--out FILE]

For each shape (C = A B, A M x K, B K x N, bf16 row-major) it times, with
CUDA events around each call:

  kgen_plain    kgen.matmul(a, b)                                 (its best spec)
  kgen_fused    kgen.matmul(a, b, row_reduce=("sum", "max"))      (the same spec, the
                rows' sums and maxima of C in f32 from the GEMM's own epilogue)
  kgen_unfused  kgen.matmul(a, b), then kgen.reduce(c, "sum", axis=-1) and
                kgen.reduce(c, "max", axis=-1): three kernels, C read twice more
  torch_plain   torch.matmul(a, b)
  torch_unfused torch.matmul(a, b), then c.sum(-1, dtype=float32) and c.amax(-1)

Timing as epilogue.py times (this folder): the median of --runs calls a
round, the cases taking turns for --rounds rounds, 3 warm-up calls each.
Before timing, every result is checked against float64 on the GPU: C as
epilogue.py checks it, and each row's sum and maximum within the sum (the
largest) of its elements' bounds, plus (N + 2) u32 sum |c| for the order
of a sum's additions and, for the unfused cases, which reduce C after its
rounding to bf16, u_bf16 |c| an element.

Prints a '#' header (GPU, clocks, power, versions, date, command line), a
TSV line per (shape, case): lib shape case ms tflops check; then a table:
the fused GEMM over kgen's plain GEMM (issue 53 asks at most 1.05 at
8192^3) and the unfused cases over the fused one.  --out FILE writes the
same to FILE.  Needs torch and kgen importable (PYTHONPATH, KGEN_LIBRARY).
"""
import argparse
import datetime
import shlex
import sys

from epilogue import U16, U32, begin, check, timed  # this folder's
from torch_peer import parse_shape, smi

DEFAULT_SHAPES = ["8192x8192x8192", "4096x4096x4096", "8192x8192x1024"]


def main(argv):
    p = argparse.ArgumentParser(description="Row sums and maxima fused into kgen's GEMM, against unfused (bf16).")
    p.add_argument("--shapes", nargs="+", default=DEFAULT_SHAPES, metavar="MxNxK")
    p.add_argument("--runs", type=int, default=20, help="calls a round (default: 20)")
    p.add_argument("--rounds", type=int, default=3, help="rounds of the cases taking turns (default: 3)")
    p.add_argument("--out", metavar="FILE", help="also write everything to FILE")
    args = p.parse_args(argv)
    try:
        shapes = [parse_shape(s) for arg in args.shapes for s in arg.split(",") if s]
    except argparse.ArgumentTypeError as e:
        p.error(str(e))
    started = begin(p, args, "row_stats.py")
    if started is None:
        return 2
    torch, kgen, out, fields = started
    out("# %s UTC; %s" % (datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M"),
                          " ".join(shlex.quote(x) for x in [sys.argv[0]] + argv)))
    out("lib\tshape\tcase\tms\ttflops\tcheck")
    gen = torch.Generator(device="cuda")
    gen.manual_seed(20261203)
    failed, summary = False, []
    for (m, n, k) in shapes:
        a = (torch.rand((m, k), generator=gen, device="cuda") * 2 - 1).to(torch.bfloat16)
        b = (torch.rand((k, n), generator=gen, device="cuda") * 2 - 1).to(torch.bfloat16)

        def kgen_unfused():
            c = kgen.matmul(a, b)
            return c, {"row_sum": kgen.reduce(c, "sum", axis=-1), "row_max": kgen.reduce(c, "max", axis=-1)}

        def torch_unfused():
            c = torch.matmul(a, b)
            return c, {"row_sum": c.sum(-1, dtype=torch.float32), "row_max": c.amax(-1)}

        cases = {
            "kgen_plain": lambda: kgen.matmul(a, b),
            "kgen_fused": lambda: kgen.matmul(a, b, row_reduce=("sum", "max")),
            "kgen_unfused": kgen_unfused,
            "torch_plain": lambda: torch.matmul(a, b),
            "torch_unfused": torch_unfused,
        }
        ab = a.double() @ b.double()
        bound = (k + 2) * U32 * (a.double().abs() @ b.double().abs())
        if torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction:
            torch_bound = bound + U16 * (a.double().abs() @ b.double().abs())
        else:
            torch_bound = bound
        verdict = {}
        for name, fn in cases.items():
            got = fn()
            c, stats = got if isinstance(got, tuple) else (got, {})
            each = torch_bound if name.startswith("torch") else bound
            ok, worst = check(torch, c, ab, each + (U16 + 8 * U32) * ab.abs() + 1e-6)
            if stats:
                rounded = U16 * ab.abs() if name.endswith("unfused") else 0 * ab  # C rounded to bf16 first
                tol = each + rounded + 1e-6
                want_sum = ab.sum(-1)
                sum_bound = tol.sum(-1) + (n + 2) * U32 * ab.abs().sum(-1)
                ok_sum, w1 = check(torch, stats["row_sum"], want_sum, sum_bound)
                ok_max, w2 = check(torch, stats["row_max"], ab.max(-1).values, tol.max(-1).values)
                ok, worst = ok and ok_sum and ok_max, max(worst, w1, w2)
            verdict[name] = ok
            if not ok:
                failed = True
                print("row_stats.py: %s %dx%dx%d: error %.3g of the bound" % (name, m, n, k, worst), file=sys.stderr)
            del got, c, stats
        del ab, bound, torch_bound
        torch.cuda.empty_cache()
        ms = timed(torch, cases, args.runs, args.rounds)
        for name, t in ms.items():
            out("%s\t%dx%dx%d\t%s\t%.4f\t%.1f\t%s" % (name.split("_")[0], m, n, k, name.split("_", 1)[1], t,
                                                     2.0 * m * n * k / (t * 1e-3) / 1e12,
                                                     "ok" if verdict[name] else "FAIL"))
        summary.append(((m, n, k), ms))
        del a, b, cases
        torch.cuda.empty_cache()
    out("")
    out("| shape | kgen fused over kgen plain | kgen unfused over kgen fused | torch unfused over kgen fused | "
        "kgen plain vs torch matmul |")
    out("|---|---|---|---|---|")
    for (m, n, k), ms in summary:
        def ratio(x, y):
            return "%.3f" % (ms[x] / ms[y])
        out("| %dx%dx%d | %s | %s | %s | %s |" % (m, n, k, ratio("kgen_fused", "kgen_plain"),
                                                   ratio("kgen_unfused", "kgen_fused"),
                                                   ratio("torch_unfused", "kgen_fused"),
                                                   ratio("torch_plain", "kgen_plain")))
    out("# after: " + smi(fields))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
