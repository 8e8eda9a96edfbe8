"""The CUDA driver as the package itself calls it: memory kgen owns (results
for arrays of no framework kgen can allocate through, reductions' scratch),
whether a stream is being captured into a graph, and events that order one
stream after another or say when work is done.

libkgen loads the driver for its own calls; this is a second, small table
over the same libcuda.so.1 (loaded on first use, so that importing kgen
needs no driver).  Each entry point is resolved by its real, versioned
name, as cuda.h maps it (cuMemAlloc is cuMemAlloc_v2).  Every call runs
with the device's primary context pushed (libkgen's context is that one
too) and popped after, so the caller's current context is left as it was.
A failed call raises KgenError("KGEN_ECUDA") with the driver's own text:
"cuMemAlloc_v2(): CUDA_ERROR_OUT_OF_MEMORY: out of memory".
"""
import ctypes
import threading

from ._errors import KgenError

_P = ctypes.c_void_p
_U = ctypes.c_uint
_I = ctypes.c_int
_SZ = ctypes.c_size_t

# name: its argument types.  Optional entries (newer drivers) are None when absent.
_FUNCS = {
    "cuInit": [_U],
    "cuGetErrorName": [_I, ctypes.POINTER(ctypes.c_char_p)],
    "cuGetErrorString": [_I, ctypes.POINTER(ctypes.c_char_p)],
    "cuDeviceGet": [ctypes.POINTER(_I), _I],
    "cuDevicePrimaryCtxRetain": [ctypes.POINTER(_P), _I],
    "cuCtxPushCurrent_v2": [_P],
    "cuCtxPopCurrent_v2": [ctypes.POINTER(_P)],
    "cuMemAlloc_v2": [ctypes.POINTER(ctypes.c_ulonglong), _SZ],
    "cuMemFree_v2": [ctypes.c_ulonglong],
    "cuMemsetD8Async": [ctypes.c_ulonglong, ctypes.c_ubyte, _SZ, _P],
    "cuStreamSynchronize": [_P],
    "cuStreamIsCapturing": [_P, ctypes.POINTER(_I)],
    "cuStreamWaitEvent": [_P, _P, _U],
    "cuEventCreate": [ctypes.POINTER(_P), _U],
    "cuEventRecord": [_P, _P],
    "cuEventQuery": [_P],
    "cuEventDestroy_v2": [_P],
}
_OPTIONAL = {
    "cuMemAllocAsync": [ctypes.POINTER(ctypes.c_ulonglong), _SZ, _P],
    "cuMemFreeAsync": [ctypes.c_ulonglong, _P],
}

CUDA_SUCCESS = 0
CUDA_ERROR_NOT_READY = 600
CU_EVENT_DISABLE_TIMING = 2
CAPTURE_NONE, CAPTURE_ACTIVE, CAPTURE_INVALIDATED = 0, 1, 2


class _Driver:
    """libcuda.so.1's entry points above, as attributes."""

    def __init__(self):
        try:
            lib = ctypes.CDLL("libcuda.so.1")
        except OSError as e:
            raise KgenError("KGEN_ECUDA", "cannot load the CUDA driver (libcuda.so.1): %s" % e) from None
        for table, required in ((_FUNCS, True), (_OPTIONAL, False)):
            for name, args in table.items():
                try:
                    f = getattr(lib, name)
                except AttributeError:
                    if required:
                        raise KgenError("KGEN_ECUDA", "the CUDA driver has no %s()" % name) from None
                    f = None
                if f is not None:
                    f.argtypes = args
                    f.restype = _I
                setattr(self, name, f)
        self.lib = lib

    def check(self, name, r):
        if r == CUDA_SUCCESS:
            return
        what, text = ctypes.c_char_p(), ctypes.c_char_p()
        self.cuGetErrorName(r, ctypes.byref(what))
        self.cuGetErrorString(r, ctypes.byref(text))
        raise KgenError("KGEN_ECUDA", "%s(): %s: %s" % (name, (what.value or b"CUDA_ERROR_%d" % r).decode(),
                                                       (text.value or b"").decode()))


_drv = None
_ctx = {}  # device -> its _Current
_live = [True]  # False at exit (kgen._memory): nothing is destroyed then
_lock = threading.RLock()  # driver() is called under it, by _current()


def driver():
    """The table, loaded (and cuInit called) on first use."""
    global _drv
    if _drv is None:
        with _lock:
            if _drv is None:
                d = _Driver()
                d.check("cuInit", d.cuInit(0))
                _drv = d
    return _drv


class _Current:
    """`with _current(device):` the device's primary context is current inside."""
    __slots__ = ("d", "ctx")

    def __init__(self, device):
        self.d = d = driver()
        dev, ctx = _I(), _P()
        d.check("cuDeviceGet", d.cuDeviceGet(ctypes.byref(dev), device))
        d.check("cuDevicePrimaryCtxRetain", d.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev))
        self.ctx = ctx.value  # retained for the process, as libkgen's context retains it

    def __enter__(self):
        self.d.check("cuCtxPushCurrent_v2", self.d.cuCtxPushCurrent_v2(self.ctx))
        return self.d

    def __exit__(self, *exc):
        self.d.cuCtxPopCurrent_v2(ctypes.byref(_P()))


def _current(device):
    c = _ctx.get(device)
    if c is None:
        with _lock:
            c = _ctx.get(device)
            if c is None:
                c = _ctx[device] = _Current(device)
    return c


def capturing(device, stream):
    """Whether `stream` (an address; 0 the default stream) is being captured into a CUDA graph."""
    status = _I()
    with _current(device) as d:
        d.check("cuStreamIsCapturing", d.cuStreamIsCapturing(stream or None, ctypes.byref(status)))
    return status.value != CAPTURE_NONE


def alloc(device, nbytes, stream, outside_capture=False):
    """nbytes of device memory, ordered on `stream` (cuMemAllocAsync where the
    driver has it): its address, which free() gives back.  With
    outside_capture, None instead when the stream is being captured."""
    p, status = ctypes.c_ulonglong(), _I()
    with _current(device) as d:
        if outside_capture:
            d.check("cuStreamIsCapturing", d.cuStreamIsCapturing(stream or None, ctypes.byref(status)))
            if status.value != CAPTURE_NONE:
                return None
        if d.cuMemAllocAsync is not None:
            d.check("cuMemAllocAsync", d.cuMemAllocAsync(ctypes.byref(p), max(nbytes, 1), stream or None))
        else:
            d.check("cuMemAlloc_v2", d.cuMemAlloc_v2(ctypes.byref(p), max(nbytes, 1)))
    return p.value


def free(device, ptr, stream):
    """Give back what alloc() gave, after the work queued on `stream`."""
    with _current(device) as d:
        if d.cuMemFreeAsync is not None:
            d.check("cuMemFreeAsync", d.cuMemFreeAsync(ptr, stream or None))
        else:
            d.check("cuMemFree_v2", d.cuMemFree_v2(ptr))


def alloc_zeroed(device, nbytes, stream):
    """nbytes of device memory kept for the process (cuMemAlloc, not stream
    ordered: any stream may use it), zero-filled on `stream`, which is then
    synchronised so that the zeros are there for every stream."""
    p = ctypes.c_ulonglong()
    with _current(device) as d:
        d.check("cuMemAlloc_v2", d.cuMemAlloc_v2(ctypes.byref(p), max(nbytes, 1)))
        d.check("cuMemsetD8Async", d.cuMemsetD8Async(p.value, 0, nbytes, stream or None))
        d.check("cuStreamSynchronize", d.cuStreamSynchronize(stream or None))
    return p.value


class Event:
    """A driver event without timing: recorded on a stream, then waited on by
    another stream or asked whether the work before it is done."""
    __slots__ = ("device", "handle")

    def __init__(self, device):
        self.device = device
        e = _P()
        with _current(device) as d:
            d.check("cuEventCreate", d.cuEventCreate(ctypes.byref(e), CU_EVENT_DISABLE_TIMING))
        self.handle = e.value

    def record(self, stream):
        with _current(self.device) as d:
            d.check("cuEventRecord", d.cuEventRecord(self.handle, stream or None))

    def wait(self, stream):
        """Make `stream` wait for the work before the last record()."""
        with _current(self.device) as d:
            d.check("cuStreamWaitEvent", d.cuStreamWaitEvent(stream or None, self.handle, 0))

    def done(self):
        with _current(self.device) as d:
            r = d.cuEventQuery(self.handle)
            if r == CUDA_ERROR_NOT_READY:
                return False
            d.check("cuEventQuery", r)
        return True

    def __del__(self):
        d = _drv
        if d is not None and getattr(self, "handle", None) and _live[0]:
            c = _ctx.get(self.device)
            if c is not None and d.cuCtxPushCurrent_v2(c.ctx) == CUDA_SUCCESS:
                d.cuEventDestroy_v2(self.handle)
                d.cuCtxPopCurrent_v2(ctypes.byref(_P()))
            self.handle = None
