"""kgen.matmul of torch's float8 tensors against torch._scaled_mm (cuBLASLt) in one process: e4m3 A (M x K,
row-major) times B (the transposed view of an N x K e4m3 w), per-tensor scales, bf16 C, each result checked
against the other (largest difference over the largest |C|, and both against float64 of the dequantised
inputs), then each call timed alone between CUDA events (median of --runs, the two taking turns).

    PYTHONPATH=python KGEN_LIBRARY=.libs/libkgen.so python3 bench/matmul/fp8_torch.py [--runs 20] [--out FILE.md]

kgen's kernel is kgen.matmul's own (specs/matmul/best/wgmma_fp8.yaml, fp8_accum: promote) against
torch._scaled_mm with use_fast_accum=False, then specs/matmul/fp8/e4m3.yaml (fp8_accum: fast) against
use_fast_accum=True."""
import argparse
import os
import statistics

import torch

import kgen

SHAPES = [(8192, 8192, 8192), (4096, 4096, 7168), (8192, 8192, 4096)]
TOP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def timed(fn, runs):
    a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    fn()
    torch.cuda.synchronize()
    out = []
    for _ in range(runs):
        a.record()
        fn()
        b.record()
        b.synchronize()
        out.append(a.elapsed_time(b))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--out")
    o = ap.parse_args()
    g = torch.Generator(device="cuda").manual_seed(20261203)
    rows = ["| shape | accumulation | kgen TFLOPS | torch._scaled_mm TFLOPS | kgen / torch (time) | max diff / max C "
            "| kgen err | torch err |", "|---|---|---|---|---|---|---|---|"]
    for m, n, k in SHAPES:
        a = (torch.rand(m, k, device="cuda", generator=g) * 2 - 1).to(torch.float8_e4m3fn)
        w = (torch.rand(n, k, device="cuda", generator=g) * 2 - 1).to(torch.float8_e4m3fn)
        sa, sb = torch.tensor(0.5, device="cuda"), torch.tensor(0.25, device="cuda")
        sample = slice(0, 256)
        want = 0.125 * (a[sample].double() @ w.t().double())
        for fast, spec in ((False, None), (True, os.path.join(TOP, "specs", "matmul", "fp8", "e4m3.yaml"))):
            def k_call():
                return kgen.matmul(a, w.t(), spec=spec, scale_a=sa, scale_b=sb)

            def t_call():
                return torch._scaled_mm(a, w.t(), scale_a=sa, scale_b=sb, out_dtype=torch.bfloat16,
                                        use_fast_accum=fast)
            ck, ct = k_call(), t_call()
            top = ct.double().abs().max().item()
            diff = (ck.double() - ct.double()).abs().max().item() / top
            kerr = (ck[sample].double() - want).abs().max().item() / top
            terr = (ct[sample].double() - want).abs().max().item() / top
            tk, tt = [], []
            for _ in range(3):  # in turn
                tk += timed(k_call, o.runs // 3 + 1)
                tt += timed(t_call, o.runs // 3 + 1)
            mk, mt = statistics.median(tk), statistics.median(tt)
            fl = 2.0 * m * n * k
            rows.append("| %dx%dx%d | %s | %.0f | %.0f | %.3f | %.4f | %.4f | %.4f |" % (
                m, n, k, "fast" if fast else "promote (default)", fl / mk / 1e9, fl / mt / 1e9, mt / mk, diff, kerr,
                terr))
            print(rows[-1], flush=True)
    text = "\n".join(rows) + "\n"
    if o.out:
        with open(o.out, "w") as f:
            f.write("%s, torch %s\n\n%s" % (torch.cuda.get_device_name(), torch.__version__, text))


if __name__ == "__main__":
    main()
