"""Timing for the CuPy probes of bench/scan (probe.py, cols_probe.py,
cols_sweep.py): a launch's time per call, and a device-to-device copy's."""
import cupy as cp


def per_call(fn, reps=7, calls=10):
    """fn's time per call in us: CUDA events around `calls` calls back to
    back, the median of `reps` such batches, after 3 calls to warm up."""
    for _ in range(3):
        fn()
    cp.cuda.Device().synchronize()
    times = []
    for _ in range(reps):
        a, b = cp.cuda.Event(), cp.cuda.Event()
        a.record()
        for _ in range(calls):
            fn()
        b.record()
        b.synchronize()
        times.append(cp.cuda.get_elapsed_time(a, b) / calls * 1e3)
    return sorted(times)[reps // 2]


def copy_us(nbytes, calls=10):
    """A device-to-device copy of nbytes, timed as per_call times, twice,
    the later kept (a first timing can read 11% low)."""
    src, dst = cp.empty(nbytes, cp.uint8), cp.empty(nbytes, cp.uint8)
    per_call(lambda: cp.copyto(dst, src), calls=calls)
    return per_call(lambda: cp.copyto(dst, src), calls=calls)
