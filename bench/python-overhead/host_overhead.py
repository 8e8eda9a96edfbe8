"""What the Python package itself adds to a kgen.reduce() call, on any
machine: against the fake driver (tests/fake_cuda/libcuda.so.1, whose
launches cost almost nothing), the host time per call of kgen.reduce on a
__cuda_array_interface__ array, next to the bare libkgen call (ctypes,
the same kernel, arguments ready).  No GPU and no torch are needed, so the
per-call cost can be watched where the GPU is not.

    LD_LIBRARY_PATH=tests/fake_cuda KGEN_LIBRARY=.libs/libkgen.so PYTHONPATH=python \\
        python3 bench/python-overhead/host_overhead.py [N CALLS REPS]

Prints the best over REPS of the mean time per call of CALLS calls, in us:
    "host what=out n=1024 calls=20000 per_call_us=X"
what: c (kgen_reduce through ctypes), out (kgen.reduce(x, out=r)), new (a
new result each call: kgen's own array, with the capture check its
allocation makes), argmax (two results), axis (each row of a 16 x N/16
matrix).  A torch tensor's path is shorter (no interface dict, torch's
allocator): py_overhead.py measures it on the GPU.
"""
import ctypes
import sys
import time

import kgen
from kgen import _lib


class Device:
    """Host memory (the fake's device memory) behind __cuda_array_interface__."""

    def __init__(self, shape, typestr="<f4"):
        n = 1
        for d in shape:
            n *= d
        self._buf = ctypes.create_string_buffer(n * int(typestr[2:]) + 256)
        ptr = (ctypes.addressof(self._buf) + 255) // 256 * 256
        self.__cuda_array_interface__ = {"shape": tuple(shape), "typestr": typestr, "data": (ptr, False),
                                         "strides": None, "version": 3}


def best(call, calls, reps):
    for _ in range(200):
        call()
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        for _ in range(calls):
            call()
        times.append((time.perf_counter() - t0) / calls * 1e6)
    return min(times)


def main():
    drv = ctypes.CDLL("libcuda.so.1")
    if not hasattr(drv, "fake_cuda_nlaunches"):
        sys.exit("host_overhead.py: put the fake driver first on LD_LIBRARY_PATH (tests/fake_cuda)")
    n, calls, reps = (int(a) for a in (sys.argv[1:] + ["1024", "20000", "5"][len(sys.argv) - 1:]))
    x, r = Device((n,)), Device(())
    m = Device((16, n // 16))
    rows = Device((16,))
    k = kgen.reduce_kernel(x, plan=False)
    kgen.reduce(x, out=r, plan=False)  # made ready, scratch allocated
    err, xp, rp = _lib.Error(), x.__cuda_array_interface__["data"][0], r.__cuda_array_interface__["data"][0]
    size = ctypes.c_size_t()
    _lib.kgen_reduce_scratch_size(k._handle, n, ctypes.byref(size), ctypes.byref(err))
    cases = (
        ("c", lambda: _lib.kgen_reduce(k._handle, xp, n, rp, 0, 0, 0, ctypes.byref(err))),
        ("out", lambda: kgen.reduce(x, out=r, plan=False)),
        ("new", lambda: kgen.reduce(x, plan=False)),
        ("argmax", lambda: kgen.reduce(x, "argmax")),
        ("axis", lambda: kgen.reduce(m, axis=1, out=rows)),
    )
    for what, call in cases:
        print("host what=%s n=%d calls=%d per_call_us=%.3f" % (what, n, calls, best(call, calls, reps)))


if __name__ == "__main__":
    main()
