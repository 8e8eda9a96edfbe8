"""Device memory kgen owns: arrays it returns when the input's framework
has no allocator kgen can call (JAX, TensorFlow, any DLPack or
__cuda_array_interface__ producer), the reductions' scratch, and the inputs
kept alive until the kernels that read them are done.

- DeviceArray: a contiguous result, allocated and freed in stream order on
  the stream the kernel ran on, with __cuda_array_interface__ and DLPack.
- scratch(): each kernel's scratch, allocated once and grown (never during
  a stream capture), kept for the process: a CUDA graph that captured a
  launch keeps reading the same bytes at every replay.
- hold(): objects kept until the work queued so far on a stream is done.
"""
import atexit
import collections
import threading

from . import _driver, _dlpack, _lib
from ._errors import CaptureError

_NAMES = {"f32": "float32", "f64": "float64", "f16": "float16", "bf16": "bfloat16", "i32": "int32",
          "u32": "uint32", "i64": "int64"}
_TYPESTR = {"f32": "<f4", "f64": "<f8", "f16": "<f2", "i32": "<i4", "u32": "<u4", "i64": "<i8"}
SIZE = {"f32": 4, "f64": 8, "f16": 2, "bf16": 2, "i32": 4, "u32": 4, "i64": 8, "e4m3": 1, "e5m2": 1}


class _Buffer:
    """alloc()'s bytes, freed after the work on their stream when the last
    holder goes.  With `where` (a call's name), refused in a capture."""
    __slots__ = ("device", "ptr", "stream")

    def __init__(self, device, nbytes, stream, where=None):
        self.device, self.stream, self.ptr = device, stream, None
        self.ptr = _driver.alloc(device, nbytes, stream, where is not None)
        if self.ptr is None:
            raise CaptureError("%s: this call would allocate its result (kgen allocates it for arrays of this "
                               "kind) while stream 0x%x is being captured into a CUDA graph; pass out= (an array "
                               "allocated before the capture)" % (where, stream))

    def __del__(self, live=_dlpack.live, free=_driver.free):
        if getattr(self, "ptr", None) and live[0]:
            free(self.device, self.ptr, self.stream)
        self.ptr = None


class DeviceArray:
    """A new, C-contiguous array in device memory kgen allocated, written on
    `stream`.  Any framework takes it without a copy, through DLPack
    (jax.dlpack.from_dlpack(a), torch.from_dlpack(a), cupy.from_dlpack(a):
    the consumer's stream waits for kgen's) or __cuda_array_interface__
    (which names kgen's stream, for the consumer to wait on).  kgen returns
    one for an input whose framework it does not know."""
    __slots__ = ("_buf", "ptr", "shape", "dtype", "device", "stream", "__weakref__")

    def __init__(self, shape, dtype, device, stream, where=None):
        if dtype not in SIZE:
            raise ValueError("%s: dtype is one of %s, not %r" % (where or "kgen.DeviceArray", ", ".join(SIZE), dtype))
        shape = tuple(shape)
        if any(isinstance(d, bool) or not isinstance(d, int) or d < 0 for d in shape):
            raise ValueError("%s: a shape is of integers of 0 or more, not %r" % (where or "kgen.DeviceArray", shape))
        n = 1
        for d in shape:
            n *= d
        device = _lib.arg(where or "kgen.DeviceArray", "device", device, _lib.INT_MAX)
        self._buf = _Buffer(device, n * SIZE[dtype], stream, where)
        self.ptr, self.shape, self.dtype, self.device, self.stream = self._buf.ptr, tuple(shape), dtype, device, stream

    @property
    def size(self):
        n = 1
        for d in self.shape:
            n *= d
        return n

    @property
    def __cuda_array_interface__(self):
        if self.dtype not in _TYPESTR:
            raise AttributeError("__cuda_array_interface__ has no type for %s: use DLPack" % self.dtype)
        return {"shape": self.shape, "typestr": _TYPESTR[self.dtype], "data": (self.ptr, False), "strides": None,
                "version": 3, "stream": self.stream or 1}

    def __dlpack_device__(self):
        return (_dlpack.kDLCUDA, self.device)

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        _dlpack.no_copy(dl_device, copy, self.device)
        consumer = _dlpack.consumer_stream(stream)
        if consumer is not None and consumer != (self.stream or 1):
            e = _driver.Event(self.device)
            e.record(self.stream)
            e.wait(consumer)
        versioned = max_version is not None and tuple(max_version) >= (1, 0)
        return _dlpack.capsule(self._buf, self.ptr, self.dtype, self.shape, self.device, versioned)

    def __repr__(self):
        return "kgen.DeviceArray(shape=%s, dtype=%s, device=%d)" % (self.shape, self.dtype, self.device)


# ---- scratch ----

_scratch = {}   # (device, kernel handle) -> (address, bytes)
_retired = []   # smaller buffers replaced by larger ones: kept, since graphs may hold their addresses
_scratch_lock = threading.Lock()


def scratch(device, handle, nbytes, stream, where):
    """(address, bytes) of the kernel's scratch, at least nbytes, zero-filled
    before its first use.  Growing it is refused during a capture."""
    have = _scratch.get((device, handle))
    if have is not None and have[1] >= nbytes:
        return have
    with _scratch_lock:
        have = _scratch.get((device, handle))
        if have is not None and have[1] >= nbytes:
            return have
        refuse_in_capture(device, stream, where, "allocate %d bytes of scratch" % nbytes)
        size = max(nbytes, 2 * have[1] if have else 0, 256)
        size = (size + 255) // 256 * 256
        new = (_driver.alloc_zeroed(device, size, stream), size)
        if have is not None:
            _retired.append(have)
        _scratch[(device, handle)] = new
        return new


WARM_UP = ("call it once with the same arguments before the capture (a warm-up run), so that its kernel is built "
           "and its memory allocated then")


def refuse_in_capture(device, stream, where, what, advice=WARM_UP):
    """CaptureError when `stream` is being captured: kgen would have to `what`."""
    if _driver.capturing(device, stream):
        raise CaptureError("%s: this call would %s while stream 0x%x is being captured into a CUDA graph; %s"
                           % (where, what, stream, advice))


# ---- inputs kept until their kernels are done ----

_held = collections.deque()   # (event, objects), oldest first
_idle = {}                    # device -> events to reuse


def hold(device, stream, objects):
    """Keep objects alive until the work queued on `stream` so far is done.
    Not in a capture: a graph reads its inputs at every replay, so their
    owner keeps them (and an event recorded in a capture cannot be asked)."""
    poll()
    if _driver.capturing(device, stream):
        return
    pool = _idle.setdefault(device, [])
    e = pool.pop() if pool else _driver.Event(device)
    e.record(stream)
    _held.append((e, objects))


def poll():
    while _held and _held[0][0].done():
        e, _ = _held.popleft()
        _idle.setdefault(e.device, []).append(e)


@atexit.register
def _exit():
    """Drop what kgen holds while the interpreter still works, then let the
    rest go without a word: the process ends, and so does its memory."""
    _held.clear()
    _idle.clear()
    _dlpack.live[0] = _driver._live[0] = False
