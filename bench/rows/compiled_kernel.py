"""compiled_kernel.py: run torch.compile's kernel of one row op, so that a
profiler sees it (and, with TORCH_LOGS=output_code, its Triton source).

    python3 bench/rows/compiled_kernel.py OP [COLS] [--rows R] [--dtype bf16|f16|f32] [--calls N]

OP is softmax, log_softmax, rms_norm or layer_norm (torch.softmax,
torch.log_softmax, F.rms_norm, F.layer_norm with a weight and, for
layer_norm, a bias: what bench_rows.py compiles); COLS defaults to 256,
--rows to 32768, --dtype to bf16, --calls to 5 (torch.compile's first call
compiles; ncu --launch-skip 2 --launch-count 1 -k regex:triton then times
a later one).  bench/rows/ncu_short.sh calls it.
"""
import argparse
import sys

import torch
import torch.nn.functional as F

DTYPES = {"bf16": torch.bfloat16, "f16": torch.float16, "f32": torch.float32}
EPS = {"rms_norm": 1e-6, "layer_norm": 1e-5}


def main():
    p = argparse.ArgumentParser(description="torch.compile's kernel of one row op, called a few times")
    p.add_argument("op", choices=("softmax", "log_softmax", "rms_norm", "layer_norm"))
    p.add_argument("cols", type=int, nargs="?", default=256)
    p.add_argument("--rows", type=int, default=32768)
    p.add_argument("--dtype", choices=sorted(DTYPES), default="bf16")
    p.add_argument("--calls", type=int, default=5)
    a = p.parse_args()
    if a.rows < 1 or a.cols < 1 or a.calls < 1:
        sys.exit("compiled_kernel.py: rows, cols and calls must be positive")
    dt, cols = DTYPES[a.dtype], a.cols
    x = torch.randn(a.rows, cols, device="cuda", dtype=dt)
    w = torch.randn(cols, device="cuda", dtype=dt)
    b = torch.randn(cols, device="cuda", dtype=dt)
    fns = {
        "softmax": lambda x, w, b: torch.softmax(x, -1),
        "log_softmax": lambda x, w, b: torch.log_softmax(x, -1),
        "rms_norm": lambda x, w, b: F.rms_norm(x, (cols,), w, EPS["rms_norm"]),
        "layer_norm": lambda x, w, b: F.layer_norm(x, (cols,), w, b, EPS["layer_norm"]),
    }
    fn = torch.compile(fns[a.op], dynamic=False)
    for _ in range(a.calls):
        fn(x, w, b)
    torch.cuda.synchronize()


if __name__ == "__main__":
    main()
