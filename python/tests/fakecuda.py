"""The fake CUDA driver (tests/fake_cuda/libcuda.so.1) from the Python tests:
what it recorded, and arrays in its "device" memory (host memory).

tests/python_test.sh runs the test_fake_*.py files a second time with the
fake driver first on LD_LIBRARY_PATH; elsewhere (no fake driver loaded,
or a real GPU) they skip.  Kernels do not run: a test reads the launches
(kernel name, grid, block, the first 8 bytes of each argument) and the
driver's counters (allocations, waits, captures)."""
import ctypes

import pytest

try:
    drv = ctypes.CDLL("libcuda.so.1")
    FAKE = hasattr(drv, "fake_cuda_nlaunches")
except OSError:
    drv, FAKE = None, False



def need_fake():
    """Skip the calling test module unless the fake driver is the one loaded."""
    if not FAKE:
        pytest.skip("not the fake CUDA driver (tests/python_test.sh runs these with it)", allow_module_level=True)


class Launch(ctypes.Structure):
    """struct fake_launch of tests/fake_cuda/fake_cuda.h (its size checked in launches_since)."""
    _fields_ = [("name", ctypes.c_char * 64), ("grid", ctypes.c_uint * 3), ("block", ctypes.c_uint * 3),
                ("smem", ctypes.c_uint), ("args", ctypes.c_ulonglong * 12), ("nargs", ctypes.c_int),
                ("stream", ctypes.c_void_p), ("dependent", ctypes.c_int), ("cluster", ctypes.c_uint * 3),
                ("cooperative", ctypes.c_int)]


def counter(name, ctype=ctypes.c_int):
    return ctype.in_dll(drv, name)


def launches_since(start):
    """The launches recorded from index start on, oldest first."""
    size = counter("fake_cuda_launch_size").value
    assert ctypes.sizeof(Launch) == size, f"Launch mirrors a struct fake_launch of {size} bytes, not {ctypes.sizeof(Launch)}"
    table = (Launch * 256).in_dll(drv, "fake_cuda_launches")
    n = counter("fake_cuda_nlaunches").value
    return [table[i % 256] for i in range(start, n)]


def mark():
    return counter("fake_cuda_nlaunches").value


def record_params(n):
    """Record the first n parameters of the next launches (the kernel must take at least n)."""
    counter("fake_cuda_nparams").value = n


class Device:
    """A torch-less stand-in for a device array: host memory (the fake's
    device memory) behind __cuda_array_interface__, 256-byte aligned."""

    def __init__(self, shape, typestr="<f4", strides=None, offset=0):
        size = int(typestr[2:])
        n = 1
        for d in shape:
            n *= d
        span = n * size if strides is None else (1 + sum((d - 1) * s for d, s in zip(shape, strides))) * size
        self._buf = ctypes.create_string_buffer(span + offset + 512)
        self.ptr = (ctypes.addressof(self._buf) + 255) // 256 * 256 + offset
        self.__cuda_array_interface__ = {"shape": tuple(shape), "typestr": typestr, "data": (self.ptr, False),
                                         "strides": None if strides is None else tuple(s * size for s in strides),
                                         "version": 3}


class Stream:
    """A stream of the fake driver, with begin_capture() / end_capture()."""

    def __init__(self):
        h = ctypes.c_void_p()
        assert drv.cuStreamCreate(ctypes.byref(h), 0) == 0
        self.handle = h.value

    def begin_capture(self):
        assert drv.cuStreamBeginCapture_v2(ctypes.c_void_p(self.handle), 0) == 0

    def end_capture(self):
        g = ctypes.c_void_p()
        assert drv.cuStreamEndCapture(ctypes.c_void_p(self.handle), ctypes.byref(g)) == 0
        drv.cuGraphDestroy(g)
