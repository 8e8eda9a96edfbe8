#!/usr/bin/env python3
"""torch_peer.py: time the matrix products a torch user would call, the peers of
kgen's matmul next to kgen-cublas.

    python3 bench/matmul/torch_peer.py [--shapes MxNxK ...] [--dtypes f32 bf16 f16 ...]
                                       [--runs N] [--out FILE]

For each shape (C = A B with A M x K and B K x N, all row-major, as kgen's
matmul and `kgen run --shape MxNxK` take them) and dtype it times
  matmul       torch.matmul(a, b)
  matmul_relu  torch.relu(torch.matmul(a, b)): the unfused epilogue, two kernels
  addmm_relu   torch._addmm_activation(zero_bias, a, b): torch's own fused ReLU
               (cuBLASLt's RELU_BIAS epilogue with a zero bias), where this torch
               has it; skipped with a comment otherwise
dtypes: f32 (TF32 off: torch.backends.cuda.matmul.allow_tf32 = False, and
fp32_precision = "ieee" where torch has it), tf32 (f32 with TF32 on; not in the
default list), bf16, f16 (torch's defaults for reduced-precision reductions,
printed in the header).  Inputs uniform in [-1, 1) (as kgen-cublas draws them),
CUDA events around each call, 3 warm-up calls, the median of --runs calls (the
upper middle one for an even count, as kgen run's per-call median).  Each result
is checked once: 64 rows of C against the float64 product of the same inputs,
|got - ref| <= bound, bound = (K + 2) u_acc sum_k |a b| + u_out |ref| (u: unit
roundoff; u_acc of tf32 is 2^-11: its inputs are rounded to 10 bits), plus
u_out sum_k |a b| where torch allows reduced-precision reductions for the type.

Prints a '#' header (GPU, clocks and power limit, versions, the TF32 and
reduction settings, date, command line), then one TSV line per
(shape, dtype, what):

    lib shape dtype what ms tflops check

tflops = 2 M N K / time / 1e12 (the ReLU's pass is not counted as work); check =
ok or FAIL (the exit status is 1 if any failed).  --out FILE also writes it all
to FILE.  Run on the GPU machine's python3 from the project root; bench/matmul/run.sh
runs it.
"""
import argparse
import datetime
import shlex
import subprocess
import sys

DEFAULT_SHAPES = ["4096x4096x4096", "8192x8192x8192"]
DTYPES = ("f32", "tf32", "bf16", "f16")
WHATS = ("matmul", "matmul_relu", "addmm_relu")
UNIT = {"f32": 2.0 ** -24, "tf32": 2.0 ** -24, "bf16": 2.0 ** -8, "f16": 2.0 ** -11}
WARMUP = 3
CHECK_ROWS = 64


def parse_shape(s):
    try:
        m, n, k = (int(x) for x in s.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"shape {s!r}: expected MxNxK, e.g. 4096x4096x4096")
    if min(m, n, k) < 1:
        raise argparse.ArgumentTypeError(f"shape {s!r}: M, N and K must be positive")
    return (m, n, k)


def parse_args(argv):
    p = argparse.ArgumentParser(description="Time torch.matmul (and with ReLU) as kgen's matmul peers.")
    p.add_argument("--shapes", nargs="+", default=DEFAULT_SHAPES, metavar="MxNxK",
                   help="shapes MxNxK, space- or comma-separated (default: %(default)s)")
    p.add_argument("--dtypes", nargs="+", default=["f32", "bf16", "f16"], metavar="DTYPE",
                   help=f"dtypes among {', '.join(DTYPES)} (default: f32 bf16 f16)")
    p.add_argument("--runs", type=int, default=20, help="timed calls per measurement (default: 20)")
    p.add_argument("--out", metavar="FILE", help="also write everything to FILE")
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

    def __call__(self, line):
        print(line, flush=True)
        if self.f:
            print(line, file=self.f, flush=True)


def smi(fields):
    """nvidia-smi's values for the first GPU, or a note that it is not there."""
    try:
        r = subprocess.run(["nvidia-smi", "--query-gpu=" + fields, "--format=csv,noheader"],
                           capture_output=True, text=True, timeout=30)
        return r.stdout.strip().splitlines()[0] if r.returncode == 0 and r.stdout.strip() else "nvidia-smi failed"
    except (OSError, subprocess.TimeoutExpired):
        return "no nvidia-smi"


def set_tf32(torch, on):
    """TF32 for f32 matmuls on or off, through every switch this torch has."""
    torch.backends.cuda.matmul.allow_tf32 = on
    m = torch.backends.cuda.matmul
    if hasattr(m, "fp32_precision"):
        try:
            m.fp32_precision = "tf32" if on else "ieee"
        except (AttributeError, RuntimeError, ValueError):
            pass


def median_ms(torch, fn, runs):
    """The median milliseconds of `runs` calls of fn, each between two CUDA
    events on the current stream, after WARMUP calls."""
    for _ in range(WARMUP):
        fn()
    start = [torch.cuda.Event(enable_timing=True) for _ in range(runs)]
    end = [torch.cuda.Event(enable_timing=True) for _ in range(runs)]
    for i in range(runs):
        start[i].record()
        fn()
        end[i].record()
    torch.cuda.synchronize()
    ms = sorted(s.elapsed_time(e) for s, e in zip(start, end))
    return ms[runs // 2]


def check(torch, c, a, b, dt, relu):
    """Whether the first CHECK_ROWS rows of c are a @ b (then ReLU) within
    the bound of a K-term dot product; with the largest error over its bound."""
    rows = min(CHECK_ROWS, a.shape[0])
    a64, b64 = a[:rows].double(), b.double()
    ref = a64 @ b64
    mag = a64.abs() @ b64.abs()
    if relu:
        ref = ref.clamp_min(0)
    k = a.shape[1]
    u_acc = 2.0 ** -11 if dt == "tf32" else 2.0 ** -24
    bound = (k + 2) * u_acc * mag + UNIT[dt] * ref.abs() + 1e-300
    m = torch.backends.cuda.matmul
    if getattr(m, "allow_%s_reduced_precision_reduction" % dt, False) is True:
        bound = bound + UNIT[dt] * mag  # split-K partial sums may be rounded to the 16-bit type
    err = ((c[:rows].double() - ref).abs() / bound).max().item()
    return err <= 1, err


def main(argv):
    args = parse_args(argv)
    import torch
    if not torch.cuda.is_available():
        print("torch_peer.py: no CUDA GPU for torch", file=sys.stderr)
        return 2
    out = Output(args.out)
    dev = torch.cuda.current_device()
    prop = torch.cuda.get_device_properties(dev)
    m = torch.backends.cuda.matmul
    out("# %s; %d SMs; torch %s, CUDA %s, cuBLAS via torch" % (prop.name, prop.multi_processor_count,
                                                                 torch.__version__, torch.version.cuda))
    out("# nvidia-smi: clocks.sm, clocks.max.sm, clocks.mem, power.draw, power.limit, temperature.gpu, pstate: " +
        smi("clocks.sm,clocks.max.sm,clocks.mem,power.draw,power.limit,temperature.gpu,pstate"))
    out("# allow_fp16_reduced_precision_reduction=%s allow_bf16_reduced_precision_reduction=%s; f32 with TF32 off, "
        "tf32 with it on" % (getattr(m, "allow_fp16_reduced_precision_reduction", "?"),
                             getattr(m, "allow_bf16_reduced_precision_reduction", "?")))
    out("# %s UTC; %s" % (datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M"),
                          " ".join(shlex.quote(x) for x in [sys.argv[0]] + argv)))
    fused = getattr(torch, "_addmm_activation", None)
    if fused is None:
        out("# this torch has no torch._addmm_activation: addmm_relu skipped")
    out("lib\tshape\tdtype\twhat\tms\ttflops\tcheck")
    types = {"f32": torch.float32, "tf32": torch.float32, "bf16": torch.bfloat16, "f16": torch.float16}
    failed = False
    gen = torch.Generator(device="cuda")
    gen.manual_seed(20261124)
    for (mm, nn, kk) in args.shapes:
        for dt in args.dtypes:
            set_tf32(torch, dt == "tf32")
            t = types[dt]
            a = (torch.rand((mm, kk), generator=gen, device="cuda", dtype=torch.float32) * 2 - 1).to(t)
            b = (torch.rand((kk, nn), generator=gen, device="cuda", dtype=torch.float32) * 2 - 1).to(t)
            bias = torch.zeros(nn, device="cuda", dtype=t)
            calls = {
                "matmul": lambda: torch.matmul(a, b),
                "matmul_relu": lambda: torch.relu(torch.matmul(a, b)),
            }
            if fused is not None:
                calls["addmm_relu"] = lambda: fused(bias, a, b, use_gelu=False)
            for what in WHATS:
                if what not in calls:
                    continue
                try:
                    c = calls[what]()
                    ok, err = check(torch, c, a, b, dt, what != "matmul")
                    del c
                    ms = median_ms(torch, calls[what], args.runs)
                except RuntimeError as e:  # e.g. no fused kernel for this dtype
                    out("# %s %dx%dx%d %s: %s" % (what, mm, nn, kk, dt, str(e).splitlines()[0]))
                    continue
                if not ok:
                    failed = True
                    print("torch_peer.py: %s %dx%dx%d %s: error %.3g of the bound" % (what, mm, nn, kk, dt, err),
                          file=sys.stderr)
                out("torch\t%dx%dx%d\t%s\t%s\t%.4f\t%.1f\t%s" % (mm, nn, kk, dt, what, ms,
                                                                 2.0 * mm * nn * kk / (ms * 1e-3) / 1e12,
                                                                 "ok" if ok else "FAIL"))
            del a, b, bias, calls
            torch.cuda.empty_cache()
    set_tf32(torch, False)
    out("# after: " + smi("clocks.sm,clocks.max.sm,clocks.mem,power.draw,power.limit,temperature.gpu,pstate"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
