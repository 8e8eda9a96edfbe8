"""What a kgen.reduce() call on a small torch tensor costs from Python,
against the same call from C (bench/python-overhead/call_cost.cu), for issue 11's target
(at most 10 us more per call at 2^10 elements, back to back, same run).

    python3 bench/python-overhead/py_overhead.py --spec    # print the YAML kgen.reduce uses for f32 here
    python3 bench/python-overhead/py_overhead.py [N CALLS REPS]

Prints, for kgen.reduce(x, plan=False) (call_cost's spec, a new result
tensor each call), kgen.reduce(x, out=r, plan=False) (into one tensor),
kgen.reduce(x) (the kernel users get: the shipped size plan's, on the GPU
it was tuned on) and kgen.reduce(x, "argmax") (two results), the median
over REPS of the wall time per call of CALLS back-to-back calls and one
synchronize, and of the time per call spent issuing them:
    "py what=new n=1024 calls=2000 per_call_us=X issue_us=Y"
"""
import sys
import time

import kgen


def main():
    if sys.argv[1:] == ["--spec"]:
        print("".join("%s: %s\n" % kv for kv in kgen._default_reduce("sum", "f32").items()), end="")
        return
    import torch
    n, calls, reps = (int(a) for a in (sys.argv[1:] + ["1024", "2000", "7"][len(sys.argv) - 1:]))
    x = torch.arange(n, device="cuda", dtype=torch.float32).remainder_(17).sub_(8)
    r = torch.empty((), device="cuda")
    calls_of = (("new", lambda: kgen.reduce(x, plan=False)), ("out", lambda: kgen.reduce(x, out=r, plan=False)),
                ("plan", lambda: kgen.reduce(x)), ("argmax", lambda: kgen.reduce(x, "argmax")))
    for what, call in calls_of:
        for _ in range(100):
            call()
        torch.cuda.synchronize()
        total, issue = [], []
        for _ in range(reps):
            t0 = time.perf_counter()
            for _ in range(calls):
                call()
            t1 = time.perf_counter()
            torch.cuda.synchronize()
            t2 = time.perf_counter()
            total.append((t2 - t0) / calls * 1e6)
            issue.append((t1 - t0) / calls * 1e6)
        total.sort()
        issue.sort()
        print("py what=%s n=%d calls=%d per_call_us=%.3f issue_us=%.3f sum=%g" % (
            what, n, calls, total[reps // 2], issue[reps // 2], float(kgen.reduce(x, plan=False))))


if __name__ == "__main__":
    main()
