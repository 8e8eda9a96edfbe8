"""Where the host time of a kgen.reduce call goes, on the GPU machine: each
step of the cached fast path (kgen/_reduce.py: _reduce, _Launch.__call__)
timed back to back (CALLS calls, us per call, the least of REPS rounds in
which every step takes its turn), next to the whole call and torch.sum's.

    python3 bench/python-overhead/breakdown.py [CALLS REPS]

Prints "step us" lines; the steps' sum is not the call's (each is timed in
a loop of its own, and a lambda's call costs about 0.05 us)."""
import ctypes
import sys
import time

import torch

import kgen
from kgen import _arrays, _lib, _reduce, _spec, _trace


def best(call, calls, reps):
    for _ in range(500):
        call()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        for _ in range(calls):
            call()
        times.append((time.perf_counter() - t0) / calls * 1e6)
        torch.cuda.synchronize()
    return min(times)


def main():
    calls, reps = (int(a) for a in (sys.argv[1:] + ["5000", "7"][len(sys.argv) - 1:]))
    v = torch.randn(1024, device="cuda")
    r = torch.empty((), device="cuda")
    kgen.reduce(v)
    kgen.reduce(v, out=r)
    a = _arrays.describe(v)
    key = (a.kind, a.device, a.dtype, a.shape, a.strides, None, None)
    L = _reduce._ready[key]
    LT = _reduce._ready_torch[(v.dtype, v.shape, v.stride(), v.get_device(), None, None)]
    s = _arrays.current_stream(a)
    err = _spec._err()
    outs = (r.data_ptr(),)
    f32, dev = torch.float32, torch.device("cuda", 0)
    t = torch.empty((), device="cuda")
    fn, handle, sizes, scratch = L.fn, L.handle, L.sizes, L.scratch
    raw = _lib.lib[fn.__name__]  # the same C function, a new pointer without argtypes
    ptr = ctypes.byref(err)
    steps = (
        ("empty loop (a lambda)", lambda: None),
        ("torch.sum(v)", lambda: torch.sum(v)),
        ("torch.sum(v, 0, out=q)", lambda: torch.sum(v, 0, out=r)),
        ("kgen.reduce(v)", lambda: kgen.reduce(v)),
        ("kgen.reduce(v, out=r)", lambda: kgen.reduce(v, out=r)),
        ("_trace.compiling()", lambda: _trace.compiling()),
        ("describe(v)", lambda: _arrays.describe(v)),
        ("v.data_ptr()", lambda: v.data_ptr()),
        ("v.shape, v.stride(), v.get_device()", lambda: (v.shape, v.stride(), v.get_device())),
        ("_ready.get(key)", lambda: _reduce._ready.get(key)),
        ("current_stream(a)", lambda: _arrays.current_stream(a)),
        ("torch.empty((), dtype, device=0)", lambda: torch.empty((), dtype=f32, device=0)),
        ("torch.empty((), dtype, device=torch.device)", lambda: torch.empty((), dtype=f32, device=dev)),
        ("t.new_empty(())", lambda: t.new_empty(())),
        ("torch.empty_like(t)", lambda: torch.empty_like(t)),
        ("L.values(s)", lambda: L.values(s)),
        ("_err()", lambda: _spec._err()),
        ("ctypes.byref(err)", lambda: ctypes.byref(err)),
        ("C call, argtypes", lambda: fn(handle, a.ptr, *sizes, *outs, *scratch, s, ctypes.byref(err))),
        ("C call, no argtypes, c_uint64 args", lambda: raw(ctypes.c_void_p(handle), ctypes.c_uint64(a.ptr),
                                                        ctypes.c_uint64(sizes[0]), ctypes.c_uint64(outs[0]),
                                                        ctypes.c_uint64(scratch[0]), ctypes.c_size_t(scratch[1]),
                                                        ctypes.c_void_p(s), ptr)),
        ("L(a, r, None)", lambda: L(a, r, None)),
        ("L.torch(v, r)", lambda: LT.torch(v, r)),
        ("L.torch(v, None)", lambda: LT.torch(v, None)),
        ("L(a, None, None)", lambda: L(a, None, None)),
        ("finish(a, r)", lambda: _arrays.finish(a, r)),
    )
    run(steps, calls, reps)


def run(steps, calls, reps, width=45):
    """Time each (name, call) of steps, warmed first: CALLS calls back to
    back, REPS rounds in which every step takes its turn (so that the host's
    state drifts over all alike); print each step's least us a call."""
    for _, call in steps:  # warm
        for _ in range(500):
            call()
    torch.cuda.synchronize()
    times = {}
    for _ in range(reps):
        for name, call in steps:
            times.setdefault(name, []).append(best(call, calls, 1))
    for name, _ in steps:
        print("%-*s %7.3f" % (width, name, min(times[name])))
    print("# kgen", kgen.__version__, "torch", torch.__version__, torch.cuda.get_device_name(0), "python", sys.version.split()[0])


if __name__ == "__main__":
    main()
