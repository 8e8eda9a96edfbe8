#!/usr/bin/env python3
"""epilogue.py: kgen's fused GEMM epilogues (bias + GELU, a residual) against
torch's, in one process on one GPU.

    python3 bench/matmul/epilogue.py [--shapes MxNxK ...] [--spec SPEC] [--runs N] [--rounds R] [--out FILE]

For each shape (C = A B, A M x K, B K x N, all bf16 row-major; bias n values,
bf16; the residual M x N bf16) it times, with CUDA events around each call:

  kgen_plain      kgen.matmul(a, b)                   (its best spec, or --spec SPEC's kernel)
  kgen_bias_gelu  kgen.matmul(a, b, bias=bias, epilogue='gelu(v + bias)')     (GELU's erf form)
  kgen_bias_gelu_tanh  the same with epilogue='gelu_tanh(v + bias)'       (its tanh form)
  kgen_residual   kgen.matmul(a, b, residual=r)                     (epilogue v + residual)
  torch_plain     torch.matmul(a, b)
  torch_fused     torch._addmm_activation(bias, a, b, use_gelu=True): cuBLASLt's
                  CUBLASLT_EPILOGUE_GELU_BIAS, which computes GELU's tanh form (skipped,
                  with a note, where torch lacks it)
  torch_unfused   torch.nn.functional.gelu(torch.matmul(a, b) + bias): three kernels (erf form)
  torch_residual  torch.addmm(r, a, b): cuBLAS reading r as C (beta 1)

Each timing is the median of --runs calls; the cases take turns, --rounds
rounds of --runs calls each (the median over every call), so clock drift
reaches all of them alike.  3 warm-up calls each.  Before timing, every
result of every case is checked, all of C, against float64 on the GPU:
|got - want| <= 1.13 ((K + 2) u32 sum_k |a b| + 4 u32 (|ab| + |bias| + |r|))
+ (u_bf16 + 8 u32) |want| + 1e-6 (the GELU's slope is at most 1.13; u the
unit roundoff), plus u_bf16 (|ab| + |bias|) for torch's unfused path, which
rounds the product and the sum to bf16 before the GELU, and u_bf16 sum_k |a b|
for torch's results where it allows bf16 reduced-precision reductions (its
split-K partial sums may be rounded to bf16).

Prints a '#' header (GPU, clocks, power, versions, date, command line), a
TSV line per (shape, case): lib shape case ms tflops check; then a table of
the ratios the issue asks for: kgen's bias + GELU against cuBLASLt's fused
epilogue and torch's unfused ops, and each kgen epilogue over kgen's plain
GEMM.  --out FILE writes the same to FILE.  Needs torch and kgen importable
(PYTHONPATH, KGEN_LIBRARY); run from the build directory on the GPU machine.
"""
import argparse
import datetime
import shlex
import sys

from torch_peer import Output, parse_shape, smi  # this folder's: the shapes, nvidia-smi's line, the output

DEFAULT_SHAPES = ["8192x8192x1024", "4096x4096x4096", "8192x8192x8192"]
U32, U16 = 2.0 ** -24, 2.0 ** -8
WARMUP = 3


def gpu_header(out, torch, kgen):
    """The run's first '#' lines: the GPU, versions, and nvidia-smi's clocks and power; the fields asked
    of nvidia-smi, for the line after the run."""
    prop = torch.cuda.get_device_properties(0)
    out("# %s; %d SMs; torch %s, CUDA %s; kgen %s" % (prop.name, prop.multi_processor_count, torch.__version__,
                                                      torch.version.cuda, getattr(kgen, "__version__", "?")))
    fields = "clocks.sm,clocks.max.sm,clocks.mem,power.draw,power.limit,temperature.gpu"
    out("# nvidia-smi %s: %s" % (fields, smi(fields)))
    return fields


def begin(p, args, name):
    """A run's start, after its options are read (p the parser, args what it gave): --runs and --rounds
    checked, torch and kgen imported, the output opened and gpu_header() written: (torch, kgen, out,
    nvidia-smi's fields for the line after the run), or None (said on stderr) without a GPU for torch."""
    if args.runs < 1 or args.rounds < 1:
        p.error("--runs and --rounds must be at least 1")
    import torch
    import kgen
    if not torch.cuda.is_available():
        print("%s: no CUDA GPU for torch" % name, file=sys.stderr)
        return None
    out = Output(args.out)
    return torch, kgen, out, gpu_header(out, torch, kgen)


def check(torch, got, want, bound):
    """(ok, worst error over its bound) of got against want, every element."""
    err = (got.double() - want).abs()
    worst = (err / bound).max().item()
    return bool(torch.all(err <= bound).item()) and not torch.isnan(got).any().item(), worst


def timed(torch, cases, runs, rounds):
    """The median milliseconds of each case's calls, the cases taking turns round by round."""
    times = {name: [] for name in cases}
    for name, fn in cases.items():
        for _ in range(WARMUP):
            fn()
    for _ in range(rounds):
        for name, fn in cases.items():
            start = [torch.cuda.Event(enable_timing=True) for _ in range(runs)]
            end = [torch.cuda.Event(enable_timing=True) for _ in range(runs)]
            for i in range(runs):
                start[i].record()
                fn()
                end[i].record()
            torch.cuda.synchronize()
            times[name] += [s.elapsed_time(e) for s, e in zip(start, end)]
    return {name: sorted(t)[len(t) // 2] for name, t in times.items()}


def main(argv):
    p = argparse.ArgumentParser(description="kgen's fused GEMM epilogues against torch's (bf16).")
    p.add_argument("--shapes", nargs="+", default=DEFAULT_SHAPES, metavar="MxNxK")
    p.add_argument("--spec", help="kgen's kernel for its three cases (a spec path; default: kgen.matmul's best)")
    p.add_argument("--runs", type=int, default=20, help="calls a round (default: 20)")
    p.add_argument("--rounds", type=int, default=3, help="rounds of the cases taking turns (default: 3)")
    p.add_argument("--out", metavar="FILE", help="also write everything to FILE")
    args = p.parse_args(argv)
    try:
        shapes = [parse_shape(s) for arg in args.shapes for s in arg.split(",") if s]
    except argparse.ArgumentTypeError as e:
        p.error(str(e))
    started = begin(p, args, "epilogue.py")
    if started is None:
        return 2
    torch, kgen, out, fields = started
    out("# kgen's kernel: %s" % (args.spec or "kgen.matmul's best spec"))
    out("# %s UTC; %s" % (datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M"),
                          " ".join(shlex.quote(x) for x in [sys.argv[0]] + argv)))
    fused = getattr(torch, "_addmm_activation", None)
    if fused is None:
        out("# this torch has no torch._addmm_activation: torch_fused skipped")
    out("lib\tshape\tcase\tms\ttflops\tcheck")
    gelu = torch.nn.functional.gelu
    gen = torch.Generator(device="cuda")
    gen.manual_seed(20261202)
    failed, summary = False, []
    for (m, n, k) in shapes:
        def rand(*shape):
            return (torch.rand(shape, generator=gen, device="cuda") * 2 - 1).to(torch.bfloat16)
        a, b, bias, r = rand(m, k), rand(k, n), rand(n), rand(m, n)
        kw = {"spec": args.spec} if args.spec else {}
        cases = {
            "kgen_plain": lambda: kgen.matmul(a, b, **kw),
            "kgen_bias_gelu": lambda: kgen.matmul(a, b, bias=bias, epilogue="gelu(v + bias)", **kw),
            "kgen_bias_gelu_tanh": lambda: kgen.matmul(a, b, bias=bias, epilogue="gelu_tanh(v + bias)", **kw),
            "kgen_residual": lambda: kgen.matmul(a, b, residual=r, **kw),
            "torch_plain": lambda: torch.matmul(a, b),
            "torch_unfused": lambda: gelu(torch.matmul(a, b) + bias),
            "torch_residual": lambda: torch.addmm(r, a, b),
        }
        if fused is not None:
            cases["torch_fused"] = lambda: fused(bias, a, b, use_gelu=True)
        # Every result, all of C, against float64.
        ab = a.double() @ b.double()
        mag = a.double().abs() @ b.double().abs()
        base = (k + 2) * U32 * mag
        wants = {
            "plain": (ab, base),
            "bias_gelu": (gelu(ab + bias.double()), base + 4 * U32 * (ab.abs() + bias.double().abs())),
            "bias_gelu_tanh": (gelu(ab + bias.double(), approximate="tanh"),
                               base + 4 * U32 * (ab.abs() + bias.double().abs())),
            "residual": (ab + r.double(), base + 4 * U32 * (ab.abs() + r.double().abs())),
        }
        verdict = {}
        for name, fn in cases.items():
            kind = name.split("_", 1)[1]
            kind = {"fused": "bias_gelu_tanh", "unfused": "bias_gelu"}.get(kind, kind)
            want, bound = wants[kind]
            bound = 1.13 * bound + (U16 + 8 * U32) * want.abs() + 1e-6
            if name == "torch_unfused":
                bound = bound + 1.13 * U16 * (ab.abs() + bias.double().abs())
            if name.startswith("torch") and torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction:
                bound = bound + 1.13 * U16 * mag  # cuBLAS may round split-K partial sums to bf16
            try:
                ok, worst = check(torch, fn(), want, bound)
            except RuntimeError as e:  # e.g. no fused kernel for this dtype
                out("# %s %dx%dx%d: %s" % (name, m, n, k, str(e).splitlines()[0]))
                verdict[name] = None
                continue
            verdict[name] = ok
            if not ok:
                failed = True
                print("epilogue.py: %s %dx%dx%d: error %.3g of the bound" % (name, m, n, k, worst), file=sys.stderr)
        del ab, mag, base, wants
        torch.cuda.empty_cache()
        ms = timed(torch, {x: f for x, f in cases.items() if verdict.get(x) is not None}, args.runs, args.rounds)
        for name, t in ms.items():
            out("%s\t%dx%dx%d\t%s\t%.4f\t%.1f\t%s" % (name.split("_")[0], m, n, k, name.split("_", 1)[1], t,
                                                     2.0 * m * n * k / (t * 1e-3) / 1e12,
                                                     "ok" if verdict[name] else "FAIL"))
        summary.append(((m, n, k), ms))
        del a, b, bias, r, cases
        torch.cuda.empty_cache()
    out("")
    out("| shape | kgen bias+gelu_tanh vs cuBLASLt GELU_BIAS | kgen bias+gelu (erf) vs torch unfused | "
        "bias+gelu_tanh over kgen plain | bias+gelu over kgen plain | residual over kgen plain | "
        "kgen residual vs torch addmm | kgen plain vs torch matmul |")
    out("|---|---|---|---|---|---|---|---|")
    for (m, n, k), ms in summary:
        def ratio(x, y):
            return "%.3f" % (ms[x] / ms[y]) if x in ms and y in ms else "-"
        out("| %dx%dx%d | %s | %s | %s | %s | %s | %s | %s |" % (
            m, n, k, ratio("torch_fused", "kgen_bias_gelu_tanh"), ratio("torch_unfused", "kgen_bias_gelu"),
            ratio("kgen_bias_gelu_tanh", "kgen_plain"), ratio("kgen_bias_gelu", "kgen_plain"),
            ratio("kgen_residual", "kgen_plain"),
            ratio("torch_residual", "kgen_residual"), ratio("torch_plain", "kgen_plain")))
    out("# after: " + smi(fields))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
