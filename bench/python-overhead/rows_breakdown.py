"""Where the host time of a small row call goes (issue 49's small batches:
kgen.softmax of 1 x 32000 bf16 and kgen.rms_norm of 140 x 4096 bf16 against
torch's, back to back), on the GPU machine: the whole calls, then each step
of the fast path in C (kgen/_fast.c's rows(): the key from the tensor's
dtype, shape, stride() and get_device(), the result's new_empty(), the
stream, data_ptr(), kgen_rows()) timed back to back on its own (CALLS calls,
us per call, the least of REPS rounds in which every step takes its turn).

    python3 bench/python-overhead/rows_breakdown.py [CALLS REPS]

Prints "step us" lines; the steps' sum is not the call's (each is timed in
a loop of its own, and a lambda's call costs about 0.05 us).  Every kgen
result is checked against torch's first.  The timing is breakdown.py's
(run(), beside this file)."""
import sys

import torch

import kgen
from kgen import _lib, _rows, _trace

from breakdown import run


def main():
    calls, reps = (int(a) for a in (sys.argv[1:] + ["2000", "7"][len(sys.argv) - 1:]))
    if _rows._fast_rows is None:
        sys.exit("kgen._fast is not loaded (%s): this measures its rows() path" % _lib.fast_where)
    g = torch.Generator(device="cuda").manual_seed(49)
    x = torch.randn(1, 32000, device="cuda", generator=g).bfloat16()
    m = torch.randn(140, 4096, device="cuda", generator=g).bfloat16()
    w = torch.randn(4096, device="cuda", generator=g).bfloat16()
    for _ in range(2):  # the second call of each: kgen._fast's path
        got, want = kgen.softmax(x).float(), torch.softmax(x.float(), -1)
        if not torch.allclose(got, want, rtol=2e-2, atol=1e-5):
            sys.exit("FAIL: kgen.softmax(1 x 32000 bf16) is not torch's")
        got = kgen.rms_norm(m, w).float()
        want = torch.nn.functional.rms_norm(m.float(), (4096,), w.float(), 1e-6)
        if not torch.allclose(got, want, rtol=2e-2, atol=2e-2):
            sys.exit("FAIL: kgen.rms_norm(140 x 4096 bf16) is not torch's")
    fast = _rows._fast_rows
    raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
    shape = x.shape
    steps = (
        ("empty loop (a lambda)", lambda: None),
        ("torch.softmax(x, -1), 1 x 32000", lambda: torch.softmax(x, -1)),
        ("kgen.softmax(x)", lambda: kgen.softmax(x)),
        ("kgen._fast.rows('softmax', x, None, None, 0.0)", lambda: fast("softmax", x, None, None, 0.0)),
        ("torch rms_norm(m, (4096,), w), 140 x 4096",
         lambda: torch.nn.functional.rms_norm(m, (4096,), w, 1e-6)),
        ("kgen.rms_norm(m, w)", lambda: kgen.rms_norm(m, w)),
        ("kgen._fast.rows('rms_norm', m, w, None, 1e-6)", lambda: fast("rms_norm", m, w, None, 1e-6)),
        ("_trace.compiling()", lambda: _trace.compiling()),
        ("x.dtype, x.shape, x.stride(), x.get_device()", lambda: (x.dtype, x.shape, x.stride(), x.get_device())),
        ("x.new_empty(shape)", lambda: x.new_empty(shape)),
        ("torch.empty_like(x)", lambda: torch.empty_like(x)),
        ("the raw stream getter (device 0)", (lambda: raw(0)) if raw is not None else (lambda: None)),
        ("x.data_ptr()", lambda: x.data_ptr()),
        ("x.view(shape) (a torch op's floor)", lambda: x.view(shape)),
    )
    run(steps, calls, reps, 50)


if __name__ == "__main__":
    main()
