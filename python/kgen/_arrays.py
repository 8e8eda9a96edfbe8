"""Device arrays from PyTorch, CuPy and anything with __cuda_array_interface__:
their address, kgen dtype, shape, strides (in elements), device and the
framework's current stream; and new arrays in the caller's framework.

torch tensors take a fast path (data_ptr, stride: no interface dict),
since per-call cost matters for small inputs.
"""
import sys
from math import prod

from . import _lib

# kgen dtype names by the frameworks' names (torch.float32 -> "float32", numpy typestr '<f4').
_BY_NAME = {
    "float32": "f32", "float64": "f64", "float16": "f16", "bfloat16": "bf16",
    "int32": "i32", "uint32": "u32", "int64": "i64",
}
_BY_TYPESTR = {"<f4": "f32", "<f8": "f64", "<f2": "f16", "<i4": "i32", "<u4": "u32", "<i8": "i64"}
SIZE = {"f32": 4, "f64": 8, "f16": 2, "bf16": 2, "i32": 4, "u32": 4, "i64": 8}


def packed_strides(shape):
    """The strides, in elements, of a C-contiguous array of this shape."""
    strides, acc = [], 1
    for n in reversed(shape):
        strides.insert(0, acc)
        acc *= n
    return tuple(strides)


class Array:
    """What kgen needs to know of a device array."""
    __slots__ = ("obj", "kind", "ptr", "dtype", "shape", "strides", "device")

    def __init__(self, obj, kind, ptr, dtype, shape, strides, device):
        self.obj, self.kind, self.ptr, self.dtype = obj, kind, ptr, dtype
        self.shape, self.strides, self.device = shape, strides, device


_TORCH_DT = {}  # torch dtype object -> kgen name, as met


def _torch_dtype(t):
    dt = _TORCH_DT.get(t.dtype)
    if dt is None:
        dt = _BY_NAME.get(str(t.dtype)[6:])  # "torch.float32" -> "float32"
        if dt is None:
            raise TypeError("kgen: torch dtype %s is not supported (f32, f64, f16, bf16, i32, u32, i64)" % t.dtype)
        _TORCH_DT[t.dtype] = dt
    return dt


def describe(x, what="input", where="kgen"):
    """The Array for x, or TypeError / ValueError saying why kgen cannot take it
    (where: the call, as errors name it).  An interface's address and shape
    are checked here, before a kernel is built for them (torch's are sound)."""
    torch = sys.modules.get("torch")
    if torch is not None and isinstance(x, torch.Tensor):
        if not x.is_cuda:
            raise ValueError("kgen: the %s is on %s, not a CUDA device" % (what, x.device))
        return Array(x, "torch", x.data_ptr(), _torch_dtype(x), x.shape, x.stride(), x.get_device())
    cai = getattr(x, "__cuda_array_interface__", None)
    if cai is None:
        raise TypeError("kgen: the %s (%s) is not a CUDA array: pass a torch tensor, a CuPy array or an object "
                        "with __cuda_array_interface__" % (what, type(x).__name__))
    typestr = cai["typestr"]
    dt = _BY_TYPESTR.get(typestr)
    if dt is None:
        raise TypeError("kgen: dtype %s of the %s is not supported (f32, f64, f16, i32, u32, i64)" % (typestr, what))
    name = "x" if what == "input" else what
    shape = tuple(_lib.arg(where, "%s.shape[%d]" % (name, i), n) for i, n in enumerate(cai["shape"]))
    _lib.arg(where, "%s's element count" % name, prod(shape))
    ptr = _lib.arg(where, "%s's address" % name, cai["data"][0], _lib.PTR_MAX)
    size = SIZE[dt]
    if cai.get("strides") is None:
        strides = packed_strides(shape)
    else:
        if any(s % size for s in cai["strides"]):
            raise ValueError("kgen: the %s has strides that are not whole elements" % what)
        strides = tuple(s // size for s in cai["strides"])
    device = getattr(getattr(x, "device", None), "id", None)
    kind = "cupy" if type(x).__module__.startswith("cupy") else "cai"
    return Array(x, kind, ptr, dt, shape, strides, device)


def current_stream(a):
    """The caller's framework's current stream on a's device, as an address (0: the default stream)."""
    if a.kind == "torch":
        torch = sys.modules["torch"]
        raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)  # what torch's own extensions call: no Stream object
        return raw(a.device) if raw is not None else torch.cuda.current_stream(a.obj.device).cuda_stream
    if a.kind == "cupy":
        import cupy
        return cupy.cuda.get_current_stream().ptr
    return 0


def stream_address(stream):
    """A stream given by the caller: an address, a torch or CuPy stream, or __cuda_stream__."""
    if stream is None:
        return None
    if isinstance(stream, int):
        return stream
    if hasattr(stream, "__cuda_stream__"):
        return int(stream.__cuda_stream__()[1])
    for attr in ("cuda_stream", "ptr", "handle"):
        if hasattr(stream, attr):
            return int(getattr(stream, attr))
    raise TypeError("kgen: stream= takes an address, a torch.cuda.Stream, a cupy.cuda.Stream or an object "
                    "with __cuda_stream__, not %s" % type(stream).__name__)


_NAMES = {"f32": "float32", "f64": "float64", "f16": "float16", "bf16": "bfloat16", "i32": "int32",
          "u32": "uint32", "i64": "int64"}
_TORCH_OF = {}  # kgen name -> torch dtype object


def empty(like, shape, dtype):
    """A new, contiguous array of kgen dtype `dtype` in like's framework, on
    its device, and its address."""
    if like.kind == "torch":
        t = _TORCH_OF.get(dtype)
        if t is None:
            t = _TORCH_OF[dtype] = getattr(sys.modules["torch"], _NAMES[dtype])
        r = sys.modules["torch"].empty(shape, dtype=t, device=like.obj.device)
        return r, r.data_ptr()
    import cupy
    if dtype == "bf16":
        raise TypeError("kgen: CuPy has no bfloat16 for the result")
    with cupy.cuda.Device(like.device if like.device is not None else cupy.cuda.runtime.getDevice()):
        r = cupy.empty(shape, dtype=_NAMES[dtype])
    return r, r.data.ptr
