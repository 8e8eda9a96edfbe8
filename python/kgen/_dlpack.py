"""DLPack, both ways, with ctypes (no compiled module): reading the
DLManagedTensor in a capsule from any producer (JAX, TensorFlow, anything
with __dlpack__, or a capsule itself), and handing out kgen's own arrays
as capsules that any consumer (jax.dlpack.from_dlpack, torch.from_dlpack,
cupy.from_dlpack) takes without a copy.

An input's capsule is not renamed "used_dltensor": kgen keeps the capsule
itself while its kernels read the memory, and the producer's destructor
calls the tensor's deleter once the capsule is dropped, as DLPack lets a
consumer do.  An exported capsule's tensor holds kgen's buffer until the
consumer calls its deleter (or, never consumed, until the capsule goes).
"""
import ctypes

kDLCPU, kDLCUDA, kDLCUDAHost, kDLCUDAManaged = 1, 2, 3, 13
kDLInt, kDLUInt, kDLFloat, kDLBfloat = 0, 1, 2, 4
FLAG_READ_ONLY = 1

# kgen dtype names by DLPack's (code, bits), and back.
_BY_CODE = {(kDLFloat, 32): "f32", (kDLFloat, 64): "f64", (kDLFloat, 16): "f16", (kDLBfloat, 16): "bf16",
            (kDLInt, 32): "i32", (kDLUInt, 32): "u32", (kDLInt, 64): "i64"}
_CODE_OF = {v: k for k, v in _BY_CODE.items()}


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int), ("device_id", ctypes.c_int)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", DLDevice), ("ndim", ctypes.c_int), ("dtype", DLDataType),
                ("shape", ctypes.POINTER(ctypes.c_int64)), ("strides", ctypes.POINTER(ctypes.c_int64)),
                ("byte_offset", ctypes.c_uint64)]


_DELETER = ctypes.CFUNCTYPE(None, ctypes.c_void_p)


class DLManagedTensor(ctypes.Structure):
    _fields_ = [("dl_tensor", DLTensor), ("manager_ctx", ctypes.c_void_p), ("deleter", _DELETER)]


class DLPackVersion(ctypes.Structure):
    _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32)]


class DLManagedTensorVersioned(ctypes.Structure):
    _fields_ = [("version", DLPackVersion), ("manager_ctx", ctypes.c_void_p), ("deleter", _DELETER),
                ("flags", ctypes.c_uint64), ("dl_tensor", DLTensor)]


_api = ctypes.pythonapi
_api.PyCapsule_IsValid.restype = ctypes.c_int
_api.PyCapsule_IsValid.argtypes = [ctypes.py_object, ctypes.c_char_p]
_api.PyCapsule_GetPointer.restype = ctypes.c_void_p
_api.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
_api.PyCapsule_New.restype = ctypes.py_object
_api.PyCapsule_New.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
_CAPSULE_DESTRUCTOR = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
_valid_raw = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_char_p)(("PyCapsule_IsValid", _api))
_pointer_raw = ctypes.PYFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_char_p)(("PyCapsule_GetPointer", _api))

LEGACY, VERSIONED = b"dltensor", b"dltensor_versioned"


def is_capsule(x):
    return type(x).__name__ == "PyCapsule"


def tensor_of(capsule, what):
    """The DLTensor in a capsule, and its flags (0 for an unversioned one)."""
    if _api.PyCapsule_IsValid(capsule, VERSIONED):
        m = DLManagedTensorVersioned.from_address(_api.PyCapsule_GetPointer(capsule, VERSIONED))
        if m.version.major != 1:
            raise TypeError("kgen: the %s is a DLPack %d.%d tensor; kgen reads version 1"
                            % (what, m.version.major, m.version.minor))
        return m.dl_tensor, m.flags
    if _api.PyCapsule_IsValid(capsule, LEGACY):
        return DLManagedTensor.from_address(_api.PyCapsule_GetPointer(capsule, LEGACY)).dl_tensor, 0
    raise ValueError("kgen: the %s is a capsule that holds no unused DLPack tensor (already consumed?)" % what)


def describe(t, what):
    """What an input's DLTensor says: (address, kgen dtype, shape, strides in
    elements, CUDA device number); TypeError or ValueError saying why kgen
    cannot take it."""
    if t.device.device_type not in (kDLCUDA, kDLCUDAManaged):
        raise ValueError("kgen: the %s is on DLPack device type %d, not a CUDA device (%d)"
                         % (what, t.device.device_type, kDLCUDA))
    dt = _BY_CODE.get((t.dtype.code, t.dtype.bits))
    if dt is None or t.dtype.lanes != 1:
        raise TypeError("kgen: DLPack dtype (code %d, %d bits, %d lanes) of the %s is not supported "
                        "(f32, f64, f16, bf16, i32, u32, i64)" % (t.dtype.code, t.dtype.bits, t.dtype.lanes, what))
    nd = t.ndim
    shape = tuple(t.shape[i] for i in range(nd))
    if any(n < 0 for n in shape):
        raise ValueError("kgen: the %s has a negative extent: %s" % (what, shape))
    if t.strides:
        strides = tuple(t.strides[i] for i in range(nd))
    else:
        strides, acc = [], 1
        for n in reversed(shape):
            strides.insert(0, acc)
            acc *= n
        strides = tuple(strides)
    return (t.data or 0) + t.byte_offset, dt, shape, strides, t.device.device_id


# ---- export: kgen's arrays as capsules ----

_exported = {}  # address of a DLManagedTensor(Versioned) -> what it keeps alive
# False once the interpreter exits (kgen._memory's atexit): capsules that die
# after that release nothing (the process ends), and the callbacks below
# read only what their defaults bound, never the module's (then cleared) globals.
live = [True]


@_DELETER
def _deleter(address, live=live, exported=_exported):
    if live[0]:
        exported.pop(address, None)


@_CAPSULE_DESTRUCTOR
def _capsule_gone(capsule, live=live, exported=_exported, valid=_valid_raw, pointer=_pointer_raw,
                  names=(LEGACY, VERSIONED)):
    # A capsule nobody consumed still has its name: its tensor is ours to release.
    if live[0]:
        for name in names:
            if valid(capsule, name):
                exported.pop(pointer(capsule, name), None)
                return


def capsule(owner, ptr, dtype, shape, device, versioned):
    """A DLPack capsule over `shape` contiguous elements of kgen dtype `dtype`
    at device address ptr on CUDA device `device`; `owner` is kept alive
    until the consumer is done with them."""
    nd = len(shape)
    dims = (ctypes.c_int64 * max(nd, 1))(*shape)
    code, bits = _CODE_OF[dtype]
    t = DLTensor(ptr, DLDevice(kDLCUDA, device), nd, DLDataType(code, bits, 1),
                 ctypes.cast(dims, ctypes.POINTER(ctypes.c_int64)), None, 0)
    if versioned:
        m = DLManagedTensorVersioned(DLPackVersion(1, 0), None, _deleter, 0, t)
        name = VERSIONED
    else:
        m = DLManagedTensor(t, None, _deleter)
        name = LEGACY
    address = ctypes.addressof(m)
    _exported[address] = (m, dims, owner)
    try:
        return _api.PyCapsule_New(address, name, ctypes.cast(_capsule_gone, ctypes.c_void_p))
    except BaseException:
        _exported.pop(address, None)
        raise


def consumer_stream(stream):
    """The stream (a driver handle) a consumer named in __dlpack__(stream=...):
    None is the legacy default stream; -1 asks for no ordering (None here)."""
    if stream is None:
        return 1  # CU_STREAM_LEGACY
    if not isinstance(stream, int) or isinstance(stream, bool):
        raise TypeError("__dlpack__: stream is a CUDA stream as an int, not %r" % (stream,))
    if stream == -1:
        return None
    if stream == 0:
        raise BufferError("__dlpack__: stream 0 is ambiguous for CUDA (DLPack): pass 1 for the legacy default stream")
    return stream


def no_copy(dl_device, copy, device):
    if copy:
        raise BufferError("__dlpack__: kgen hands out its arrays without a copy (copy=True)")
    if dl_device is not None and tuple(dl_device) != (kDLCUDA, device):
        raise BufferError("__dlpack__: the array is on CUDA device %d, not on %r" % (device, tuple(dl_device)))
