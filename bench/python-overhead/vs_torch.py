"""kgen.reduce against torch per call, as issue 24 states it: the host time
per call of CALLS back-to-back calls (median of REPS), each framework's
call with its result in a new tensor and into one tensor (out=), in one
process, on one GPU; every kgen result checked against torch's first.

    python3 bench/python-overhead/vs_torch.py [CALLS REPS]

Cases: a 1024-element f32 vector's sum (torch.sum(x) / kgen.reduce(x));
the row sums of a 1000 x 3001 f32 matrix (torch.sum(x, 1) / kgen.reduce(x,
axis=1)); the argmax of the vector (torch.argmax(x) / kgen.reduce(x,
"argmax"), values and indices, and kgen.argmax(x), the indices alone, also
of each row of the matrix); a 64 x 64 x 64 bf16 matmul (torch.matmul /
kgen.matmul); the inclusive sum scan of the vector and of each row of the
matrix (torch.cumsum / kgen.cumsum).  Prints one line a call, then kgen / torch of each case:
    "<case> <who> host_us=H wall_us=W"
host: the time spent issuing CALLS calls, per call; wall: the same and one
synchronize, per call.  The two frameworks' calls alternate rep by rep, so
that clocks and load move both alike.
"""
import sys
import time

import torch

import kgen


def timed(call, calls, reps):
    for _ in range(200):
        call()
    torch.cuda.synchronize()
    host, wall = [], []
    for _ in range(reps):
        t0 = time.perf_counter()
        for _ in range(calls):
            call()
        t1 = time.perf_counter()
        torch.cuda.synchronize()
        t2 = time.perf_counter()
        host.append((t1 - t0) / calls * 1e6)
        wall.append((t2 - t0) / calls * 1e6)
    return sorted(host)[reps // 2], sorted(wall)[reps // 2]


def check(case, got, want, tol):
    got, want = torch.as_tensor(got).float(), torch.as_tensor(want).float()
    if got.shape != want.shape or not torch.allclose(got, want, rtol=tol, atol=tol):
        sys.exit("FAIL: %s: kgen gives %s, torch %s" % (case, got.flatten()[:4], want.flatten()[:4]))


def main():
    calls, reps = (int(a) for a in (sys.argv[1:] + ["5000", "7"][len(sys.argv) - 1:]))
    from kgen import _lib
    print("# kgen._fast: %s" % (_lib.fast_where if _lib.fast is not None else "not loaded: " + _lib.fast_where))
    g = torch.Generator(device="cuda").manual_seed(24)
    v = torch.randn(1024, device="cuda", generator=g)
    m = torch.randn(1000, 3001, device="cuda", generator=g)
    v_out, m_out = torch.empty((), device="cuda"), torch.empty(1000, device="cuda")
    a_val, a_idx = torch.empty((), device="cuda"), torch.empty((), device="cuda", dtype=torch.int64)
    t_idx = torch.empty((), device="cuda", dtype=torch.int64)
    ma = torch.randn(64, 64, device="cuda", generator=g).bfloat16()
    mb = torch.randn(64, 64, device="cuda", generator=g).bfloat16()

    check("vector sum", kgen.reduce(v), torch.sum(v, dtype=torch.float64), 1e-4)
    check("row sums", kgen.reduce(m, axis=1), torch.sum(m, 1, dtype=torch.float64), 1e-3)
    r = kgen.reduce(v, "argmax")
    check("argmax", r.indices, torch.argmax(v), 0)
    check("argmax values", r.values, v.max(), 0)
    check("kgen.argmax", kgen.argmax(v), torch.argmax(v), 0)
    check("kgen.argmax rows", kgen.argmax(m, 1), torch.argmax(m, 1), 0)
    check("matmul 64^3 bf16", kgen.matmul(ma, mb), ma.float() @ mb.float(), 3e-2)
    for _ in range(2):  # the second call of each: kgen._fast's path, where the package has it
        check("cumsum", kgen.cumsum(v), torch.cumsum(v.double(), 0), 1e-3)
        check("cumsum rows", kgen.cumsum(m, -1), torch.cumsum(m.double(), -1), 1e-2)
    v_out.fill_(float("nan"))
    kgen.reduce(v, out=v_out)
    check("vector sum out=", v_out, torch.sum(v, dtype=torch.float64), 1e-4)
    m_out.fill_(float("nan"))
    kgen.reduce(m, axis=1, out=m_out)
    check("row sums out=", m_out, torch.sum(m, 1, dtype=torch.float64), 1e-3)

    cases = (
        ("sum-1024", "torch", lambda: torch.sum(v)),
        ("sum-1024", "kgen", lambda: kgen.reduce(v)),
        ("sum-1024-out", "torch", lambda: torch.sum(v, 0, out=v_out)),
        ("sum-1024-out", "kgen", lambda: kgen.reduce(v, out=v_out)),
        ("rows-1000x3001", "torch", lambda: torch.sum(m, 1)),
        ("rows-1000x3001", "kgen", lambda: kgen.reduce(m, axis=1)),
        ("rows-1000x3001-out", "torch", lambda: torch.sum(m, 1, out=m_out)),
        ("rows-1000x3001-out", "kgen", lambda: kgen.reduce(m, axis=1, out=m_out)),
        ("argmax-1024", "torch", lambda: torch.argmax(v)),
        ("argmax-1024", "kgen", lambda: kgen.reduce(v, "argmax")),
        ("argmax-1024-out", "torch", lambda: torch.argmax(v, out=t_idx)),
        ("argmax-1024-out", "kgen", lambda: kgen.reduce(v, "argmax", out=(a_val, a_idx))),
        ("argmax-indices-1024", "torch", lambda: torch.argmax(v)),
        ("argmax-indices-1024", "kgen", lambda: kgen.argmax(v)),
        ("argmax-indices-1024-out", "torch", lambda: torch.argmax(v, out=t_idx)),
        ("argmax-indices-1024-out", "kgen", lambda: kgen.argmax(v, out=a_idx)),
        ("argmax-rows-1000x3001", "torch", lambda: torch.argmax(m, 1)),
        ("argmax-rows-1000x3001", "kgen", lambda: kgen.argmax(m, 1)),
        ("matmul-64x64x64-bf16", "torch", lambda: torch.matmul(ma, mb)),
        ("matmul-64x64x64-bf16", "kgen", lambda: kgen.matmul(ma, mb)),
        ("cumsum-1024", "torch", lambda: torch.cumsum(v, 0)),
        ("cumsum-1024", "kgen", lambda: kgen.cumsum(v)),
        ("cumsum-rows-1000x3001", "torch", lambda: torch.cumsum(m, -1)),
        ("cumsum-rows-1000x3001", "kgen", lambda: kgen.cumsum(m, -1)),
    )
    results = {}
    for rep in range(reps):  # alternate: each rep of each call is one median-of-1 sample
        for case, who, call in cases:
            results.setdefault((case, who), []).append(timed(call, calls, 1))
    for case, who, _ in cases:
        h = sorted(x[0] for x in results[(case, who)])[reps // 2]
        w = sorted(x[1] for x in results[(case, who)])[reps // 2]
        print("%s %s host_us=%.3f wall_us=%.3f" % (case, who, h, w))
        results[(case, who)] = (h, w)
    for case, who, _ in cases:
        if who == "kgen":
            print("%s kgen/torch host %.3f wall %.3f" % (case, results[(case, "kgen")][0] / results[(case, "torch")][0],
                                                        results[(case, "kgen")][1] / results[(case, "torch")][1]))


if __name__ == "__main__":
    main()
