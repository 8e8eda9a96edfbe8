"""Device arrays from PyTorch, CuPy, DLPack producers (JAX, TensorFlow,
anything with __dlpack__, or a DLPack capsule) and anything with
__cuda_array_interface__: their address, kgen dtype, shape, strides (in
elements), device and the framework's current stream; and new arrays in the
caller's framework.

torch tensors take a fast path (data_ptr, stride: no interface dict),
since per-call cost matters for small inputs.  A DLPack input's capsule is
kept (Array.keep) until the kernels that read it are done (_memory.hold).
Results for torch and CuPy come from their allocators; for the others kgen
allocates a DeviceArray and hands it to the caller's framework through
DLPack (jax.dlpack.from_dlpack, tf.experimental.dlpack.from_dlpack), or
returns it as it is when the framework is not one kgen knows.
"""
import importlib
import sys
from math import prod

from . import _dlpack, _lib
from ._memory import SIZE, DeviceArray

# kgen dtype names by the frameworks' names (torch.float32 -> "float32", numpy typestr '<f4').
_BY_NAME = {
    "float32": "f32", "float64": "f64", "float16": "f16", "bfloat16": "bf16",
    "int32": "i32", "uint32": "u32", "int64": "i64",
    "float8_e4m3fn": "e4m3", "float8_e5m2": "e5m2",  # torch's fp8: kgen.matmul's operands
}
_BY_TYPESTR = {"<f4": "f32", "<f8": "f64", "<f2": "f16", "<i4": "i32", "<u4": "u32", "<i8": "i64"}
# The kinds of array whose results kgen allocates itself (a DeviceArray).
OWN = frozenset(("jax", "tensorflow", "dlpack", "cai"))


def packed_strides(shape):
    """The strides, in elements, of a C-contiguous array of this shape."""
    strides, acc = [], 1
    for n in reversed(shape):
        strides.insert(0, acc)
        acc *= n
    return tuple(strides)


class Array:
    """What kgen needs to know of a device array.  kind: "torch", "cupy",
    "jax", "tensorflow", "dlpack" (another DLPack producer) or "cai" (another
    __cuda_array_interface__ one); keep: what must live while kernels read
    it (a DLPack capsule); readonly: kgen must not write it; producer: the
    stream its __cuda_array_interface__ names, which the call's stream waits
    for (None: none to wait for)."""
    __slots__ = ("obj", "kind", "ptr", "dtype", "shape", "strides", "device", "keep", "readonly", "producer")

    def __init__(self, obj, kind, ptr, dtype, shape, strides, device, keep=None, readonly=False, producer=None):
        self.obj, self.kind, self.ptr, self.dtype = obj, kind, ptr, dtype
        self.shape, self.strides, self.device = shape, strides, device
        self.keep, self.readonly, self.producer = keep, readonly, producer


_TORCH_DT = {}  # torch dtype object -> kgen name, as met
Tensor = None  # torch.Tensor, once kgen has met one (the calls' torch fast path: type(x) is Tensor)
_torch_ready = False


def torch_ops():
    """Register kgen's torch custom ops (kgen._torch), once: at import when
    torch was imported first, else at the first torch tensor kgen meets."""
    global _torch_ready, Tensor
    _torch_ready = True
    Tensor = sys.modules["torch"].Tensor
    from . import _torch
    _torch.register()


def _torch_dtype(t):
    dt = _TORCH_DT.get(t.dtype)
    if dt is None:
        dt = _BY_NAME.get(str(t.dtype)[6:])  # "torch.float32" -> "float32"
        if dt is None:
            raise TypeError("kgen: torch dtype %s is not supported (f32, f64, f16, bf16, i32, u32, i64; float8_e4m3fn "
                            "and float8_e5m2 for kgen.matmul)" % t.dtype)
        _TORCH_DT[t.dtype] = dt
    return dt


def _checked(where, name, shape, ptr, dt):
    """shape and ptr as C takes them, refused with ValueError where they do not
    fit C's types or the address is not a whole element's (dt's) apart from
    an empty array's."""
    shape = tuple(_lib.arg(where, "%s.shape[%d]" % (name, i), n) for i, n in enumerate(shape))
    n = _lib.arg(where, "%s's element count" % name, prod(shape))
    ptr = _lib.arg(where, "%s's address" % name, ptr, _lib.PTR_MAX)
    if n and ptr % SIZE[dt]:
        raise ValueError("%s: %s's address 0x%x is not aligned to its %d-byte %s elements" % (where, name, ptr,
                                                                                             SIZE[dt], dt))
    return shape, ptr


def _backwards(strides, shape):
    """Whether a matrix's rows or elements (the last two dimensions) step
    backwards: no kernel reads them so.  A dimension of one steps nowhere,
    and the leading (batch) dimensions are the callers' to walk (a column
    scan takes each matrix apart, whatever their order)."""
    return any(s < 0 for s, n in zip(strides[-2:], shape[-2:]) if n > 1)


def _framework(x):
    top = type(x).__module__.split(".")[0]
    return "jax" if top in ("jax", "jaxlib") else "tensorflow" if top == "tensorflow" else "dlpack"


def _from_dlpack(x, what, where, stream):
    """The Array of a DLPack producer or capsule.  The producer is asked for a
    tensor ready on `stream` (the stream kgen will run on; the legacy default
    stream when None)."""
    kind, capsule = _framework(x), x
    if _dlpack.is_capsule(x):
        kind = "dlpack"
    elif kind == "tensorflow" and not hasattr(x, "__dlpack__"):
        capsule = sys.modules["tensorflow"].experimental.dlpack.to_dlpack(x)
    else:
        dev = x.__dlpack_device__()
        if int(dev[0]) not in (_dlpack.kDLCUDA, _dlpack.kDLCUDAManaged):
            raise ValueError("%s: the %s is on DLPack device %s, not a CUDA device" % (where, what, tuple(dev)))
        s = 1 if stream is None or stream == 0 else stream  # DLPack's 1: the legacy default stream (kgen's 0)
        try:
            capsule = x.__dlpack__(stream=s, max_version=(1, 0))
        except TypeError:  # a producer older than DLPack 1.0's max_version
            capsule = x.__dlpack__(stream=s)
    t, flags = _dlpack.tensor_of(capsule, what)
    ptr, dt, shape, strides, device = _dlpack.describe(t, what)
    name = "x" if what == "input" else what
    if _backwards(strides, shape):
        raise ValueError("%s: %s has negative strides %s, which kgen does not take: pass a copy with positive "
                         "ones" % (where, name, strides))
    shape, ptr = _checked(where, name, shape, ptr, dt)
    device = _lib.arg(where, "device", device, _lib.INT_MAX)
    return Array(x, kind, ptr, dt, shape, strides, device, keep=capsule,
                 readonly=kind == "jax" or bool(flags & _dlpack.FLAG_READ_ONLY))


_ROUTE = {}  # a type of array -> how kgen reads it: "cupy" or "cai" (__cuda_array_interface__), "dlpack"


def _route(x):
    """JAX's and TensorFlow's arrays through DLPack (their streams and
    lifetimes), CuPy's and any other with __cuda_array_interface__ through
    it, the rest through DLPack when they have it."""
    if type(x).__module__.startswith("cupy"):
        return "cupy"
    if _framework(x) in ("jax", "tensorflow") or _dlpack.is_capsule(x):
        return "dlpack"
    if hasattr(x, "__cuda_array_interface__"):
        return "cai"
    return "dlpack" if hasattr(x, "__dlpack__") and hasattr(x, "__dlpack_device__") else "cai"


def describe(x, what="input", where="kgen", stream=None):
    """The Array for x, or TypeError / ValueError saying why kgen cannot take it
    (where: the call, as errors name it; stream: the one kgen will run on,
    for a DLPack producer).  An interface's address and shape are checked
    here, before a kernel is built for them (torch's are sound)."""
    torch = sys.modules.get("torch")
    if torch is not None and isinstance(x, torch.Tensor):
        if not _torch_ready:
            torch_ops()
        if not x.is_cuda:
            raise ValueError("%s: the %s is on %s, not a CUDA device" % (where, what, x.device))
        return Array(x, "torch", x.data_ptr(), _torch_dtype(x), x.shape, x.stride(), x.get_device())
    route = _ROUTE.get(type(x))
    if route is None:
        route = _ROUTE[type(x)] = _route(x)
    if route == "dlpack":
        return _from_dlpack(x, what, where, stream)
    cai = getattr(x, "__cuda_array_interface__", None)
    if cai is None and hasattr(x, "__dlpack__") and hasattr(x, "__dlpack_device__"):
        # the type's route is its first array's: one of the same type may have no interface for its dtype
        # (kgen.DeviceArray of bf16 has DLPack alone)
        return _from_dlpack(x, what, where, stream)
    if cai is None:
        raise TypeError("%s: the %s (%s) is not a CUDA array: pass a torch tensor, a CuPy or JAX array, an object "
                        "with __dlpack__ or __cuda_array_interface__, or a DLPack capsule"
                        % (where, what, type(x).__name__))
    for key in ("shape", "typestr", "data"):
        if key not in cai:
            raise ValueError("%s: the %s's __cuda_array_interface__ has no %r" % (where, what, key))
    if cai.get("mask") is not None:
        raise ValueError("%s: the %s has a mask (__cuda_array_interface__'s \"mask\"), which kgen does not take"
                         % (where, what))
    data = cai["data"]
    if not isinstance(data, (tuple, list)) or len(data) != 2:
        raise ValueError("%s: the %s's __cuda_array_interface__ \"data\" is (address, read-only), not %s"
                         % (where, what, _lib.shown(data)))
    typestr = cai["typestr"]
    dt = _BY_TYPESTR.get(typestr)
    if dt is None:
        raise TypeError("%s: dtype %s of the %s is not supported (f32, f64, f16, i32, u32, i64; bf16 through DLPack)"
                        % (where, typestr, what))
    name = "x" if what == "input" else what
    shape, ptr = _checked(where, name, cai["shape"], cai["data"][0], dt)
    size = SIZE[dt]
    if cai.get("strides") is None:
        strides = packed_strides(shape)
    else:
        if len(cai["strides"]) != len(shape):
            raise ValueError("%s: the %s has %d strides for its %d dimensions" % (where, what, len(cai["strides"]),
                                                                               len(shape)))
        if any(s % size for s in cai["strides"]):
            raise ValueError("%s: the %s has strides that are not whole elements" % (where, what))
        strides = tuple(s // size for s in cai["strides"])
        if _backwards(strides, shape):
            raise ValueError("%s: %s has negative strides %s, which kgen does not take: pass a copy with positive "
                             "ones" % (where, "x" if what == "input" else what, strides))
    device = _cai_device(x)
    if device is not None:
        device = _lib.arg(where, "device", device, _lib.INT_MAX)
    # Version 3's stream: the one the array's producer wrote it on, which the consumer's must wait for
    # (None: nothing to wait for; 1 the legacy default stream, which kgen calls 0; 2 the per-thread one).
    producer = cai.get("stream")
    if producer is not None:
        producer = 0 if producer == 1 else _lib.arg(where, "%s's stream" % name, producer, _lib.PTR_MAX)
    return Array(x, route, ptr, dt, shape, strides, device,
                 readonly=bool(cai["data"][1]), producer=producer)


def _cai_device(x):
    """The GPU of an array read through __cuda_array_interface__, which
    does not name one: its device's id (CuPy's), its device as an int
    (kgen.DeviceArray's), else DLPack's device where it has one; None
    where it says nothing (the current device is taken)."""
    dev = getattr(x, "device", None)
    if isinstance(dev, int) and not isinstance(dev, bool):
        return dev
    dev = getattr(dev, "id", None)
    if dev is not None or not hasattr(x, "__dlpack_device__"):
        return dev
    kind, dev = x.__dlpack_device__()
    return dev if kind in (_dlpack.kDLCUDA, _dlpack.kDLCUDAManaged) else None


_raw_stream = None


def torch_stream(device):
    """torch's current stream on a device, as an address."""
    return (_raw_stream or torch_stream_function())(device)


def torch_stream_function():
    """The function of a device that torch_stream() calls, for a caller to
    keep: what torch's own extensions call (no Stream object), resolved once."""
    global _raw_stream
    if _raw_stream is None:
        torch = sys.modules["torch"]
        raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
        _raw_stream = raw if raw is not None else (lambda d: torch.cuda.current_stream(d).cuda_stream)
    return _raw_stream


def current_stream(a):
    """The caller's framework's current stream on a's device, as an address (0: the default stream)."""
    if a.kind == "torch":
        return torch_stream(a.device)
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
          "u32": "uint32", "i64": "int64", "e4m3": "float8_e4m3fn", "e5m2": "float8_e5m2"}
_TORCH_OF = {}  # kgen name -> torch dtype object


def torch_dtype(dtype):
    t = _TORCH_OF.get(dtype)
    if t is None:
        t = _TORCH_OF[dtype] = getattr(sys.modules["torch"], _NAMES[dtype])
    return t


_templates = {}  # (kgen dtype, device index) -> a 1-element torch tensor (result_template)


def result_template(dtype, tensor):
    """A 1-element torch tensor of kgen dtype `dtype` on torch tensor
    `tensor`'s device, one a dtype and device: the torch fast path's result
    template (kgen._fast calls its new_empty(shape) for a result), shared by
    every layout a family makes ready."""
    key = (dtype, tensor.get_device())
    t = _templates.get(key)
    if t is None:
        t = _templates[key] = sys.modules["torch"].empty((1,), dtype=torch_dtype(dtype), device=tensor.device)
    return t


def empty(like, shape, dtype, stream=0, where="kgen"):
    """A new, contiguous array of kgen dtype `dtype` for a result of `like`
    (in its framework when kgen allocates through it, else a DeviceArray on
    its device, ordered on `stream`), and its address.  finish() turns it
    into the caller's array once the kernels are queued."""
    if like.kind == "torch":
        r = sys.modules["torch"].empty(shape, dtype=torch_dtype(dtype), device=like.device)
        return r, r.data_ptr()
    if like.kind == "cupy":
        import cupy
        if dtype == "bf16":
            raise TypeError("kgen: CuPy has no bfloat16 for the result")
        with cupy.cuda.Device(like.device if like.device is not None else cupy.cuda.runtime.getDevice()):
            r = cupy.empty(shape, dtype=_NAMES[dtype])
        return r, r.data.ptr
    r = DeviceArray(shape, dtype, like.device or 0, stream, where)  # refused in a capture
    return r, r.ptr


def allocator(like, shape, dtype, where):
    """empty() for results of one shape and dtype for arrays like `like`, with
    what it needs looked up once: a function of the stream that returns
    (array, address)."""
    shape = tuple(shape)
    if like.kind == "torch":
        # A torch.device, not the index: torch.empty parses an int device
        # each call (5.2 us a call on an H200 host against 3.3).
        torch = sys.modules["torch"]
        torch_empty, t, dev = torch.empty, torch_dtype(dtype), torch.device("cuda", like.device)

        def new(stream):
            r = torch_empty(shape, dtype=t, device=dev)
            return r, r.data_ptr()
        return new
    bare = Array(None, like.kind, 0, like.dtype, (), (), like.device)  # not like: it may hold an input's capsule
    return lambda stream: empty(bare, shape, dtype, stream, where)


_jax_dlpack = None


def finish(like, r):
    """A result from empty(), written, as the caller's framework's array:
    JAX's and TensorFlow's through DLPack (no copy), torch's and CuPy's as
    they are, a DeviceArray for the others."""
    if not isinstance(r, DeviceArray):
        return r
    if like.kind == "jax":
        global _jax_dlpack
        if _jax_dlpack is None:
            _jax_dlpack = importlib.import_module("jax.dlpack")
        return _jax_dlpack.from_dlpack(r)
    if like.kind == "tensorflow":
        return sys.modules["tensorflow"].experimental.dlpack.from_dlpack(r.__dlpack__())
    return r
