"""libkgen through ctypes: finding the library, the C types, the calls.

The library is looked for, in order: $KGEN_LIBRARY (a path to libkgen.so),
the one inside the package (``pip install ./python`` builds libkgen and
ships it as kgen/libkgen.so), the library installed with this package
(``make install`` writes its libdir into kgen/_installed.py), the
linker's search path, the prefix of this Python, /usr/local/lib and
/usr/lib, then the build tree this package sits in
(python/../.libs/libkgen.so).
"""
import ctypes
import ctypes.util
import os
import sys

from ._errors import CaptureError, SpecError, KgenError, status_name


class Error(ctypes.Structure):
    """kgen_error, as include/kgen.h declares it."""
    _fields_ = [
        ("status", ctypes.c_int),
        ("file", ctypes.c_char * 256),
        ("line", ctypes.c_int),
        ("column", ctypes.c_int),
        ("message", ctypes.c_char * 1024),
        ("source_line", ctypes.c_char * 256),
    ]


class TransposeLayout(ctypes.Structure):
    """kgen_transpose_layout: batch, row pitches and matrix strides in elements (0: packed)."""
    _fields_ = [
        ("batch", ctypes.c_ulonglong),
        ("in_pitch", ctypes.c_ulonglong),
        ("out_pitch", ctypes.c_ulonglong),
        ("in_stride", ctypes.c_ulonglong),
        ("out_stride", ctypes.c_ulonglong),
    ]


# The slots of MatmulOperands.row_reduce and col_reduce (enum kgen_matmul_reduction).
REDUCTIONS = ("sum", "sumsq", "max", "min", "absmax", "logsumexp")


class MatmulOperands(ctypes.Structure):
    """struct kgen_matmul_operands: the epilogue's operands, auxiliary output and reductions' vectors of a
    kgen_matmul_with() call (device addresses, 0 where the spec declares none) and the row pitches in elements."""
    _fields_ = [
        ("bias", ctypes.c_ulonglong),
        ("residual", ctypes.c_ulonglong),
        ("ldr", ctypes.c_ulonglong),
        ("aux", ctypes.c_ulonglong),
        ("ldaux", ctypes.c_ulonglong),
        ("row_reduce", ctypes.c_ulonglong * len(REDUCTIONS)),  # by enum kgen_matmul_reduction
        ("col_reduce", ctypes.c_ulonglong * len(REDUCTIONS)),
        ("scale_a", ctypes.c_ulonglong),  # scale: tensor (fp8): A's and B's f32 scales in device memory
        ("scale_b", ctypes.c_ulonglong),
    ]


class RowsArgs(ctypes.Structure):
    """struct kgen_rows_args: one kernel: rows call's operands (device addresses, 0 where the op has
    none), its sizes, the pitches in elements (0: cols), eps and ignore_index."""
    _fields_ = [
        ("x", ctypes.c_ulonglong),
        ("y", ctypes.c_ulonglong),
        ("weight", ctypes.c_ulonglong),
        ("bias", ctypes.c_ulonglong),
        ("labels", ctypes.c_ulonglong),
        ("loss", ctypes.c_ulonglong),
        ("lse", ctypes.c_ulonglong),
        ("rows", ctypes.c_ulonglong),
        ("cols", ctypes.c_ulonglong),
        ("x_pitch", ctypes.c_ulonglong),
        ("y_pitch", ctypes.c_ulonglong),
        ("eps", ctypes.c_double),
        ("ignore_index", ctypes.c_longlong),
    ]


def _candidates():
    env = os.environ.get("KGEN_LIBRARY")
    if env:
        yield env
        return
    here = os.path.dirname(os.path.abspath(__file__))
    yield os.path.join(here, "libkgen.so")
    try:
        from ._installed import libdir
        yield os.path.join(libdir, "libkgen.so")
    except ImportError:
        pass
    found = ctypes.util.find_library("kgen")
    if found:
        yield found
    for prefix in (sys.prefix, "/usr/local", "/usr"):
        yield os.path.join(prefix, "lib", "libkgen.so")
    yield os.path.join(here, "..", "..", ".libs", "libkgen.so")


def _load():
    tried = []
    for path in _candidates():
        try:
            return ctypes.CDLL(path), path
        except OSError as e:
            tried.append("%s (%s)" % (path, e))
    raise ImportError("kgen: cannot load libkgen; set KGEN_LIBRARY to the path of libkgen.so "
                      "(e.g. .libs/libkgen.so in a build tree). Tried: " + "; ".join(tried))


lib, path = _load()
libc = ctypes.CDLL(None)
libc.free.argtypes = [ctypes.c_void_p]
libc.free.restype = None

_P = ctypes.c_void_p
_E = ctypes.POINTER(Error)
_U64 = ctypes.c_ulonglong


def _sig(name, args, res=ctypes.c_int):
    f = getattr(lib, name)
    f.argtypes = args
    f.restype = res
    return f


kgen_version = _sig("kgen_version", [], ctypes.c_char_p)
kgen_spec_load_file = _sig("kgen_spec_load_file", [ctypes.c_char_p, ctypes.POINTER(_P), _E])
kgen_spec_load_string = _sig("kgen_spec_load_string", [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p,
                                                        ctypes.POINTER(_P), _E])
kgen_spec_set_many = _sig("kgen_spec_set_many", [_P, ctypes.c_int, ctypes.POINTER(ctypes.c_char_p),
                                                  ctypes.POINTER(ctypes.c_char_p), _E])
kgen_spec_dump = _sig("kgen_spec_dump", [_P, ctypes.POINTER(_P)])
kgen_spec_source = _sig("kgen_spec_source", [_P], ctypes.c_char_p)
kgen_spec_free = _sig("kgen_spec_free", [_P], None)
kgen_spec_copy = _sig("kgen_spec_copy", [_P, ctypes.POINTER(_P), _E])
kgen_spec_check_arch = _sig("kgen_spec_check_arch", [_P, ctypes.c_char_p, _E])
kgen_spec_compile_arch = _sig("kgen_spec_compile_arch", [_P, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_size_t],
                              ctypes.c_char_p)
kgen_generate = _sig("kgen_generate", [_P, ctypes.POINTER(_P), _E])
kgen_compile = _sig("kgen_compile", [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_int,
                                      ctypes.POINTER(_P), ctypes.POINTER(ctypes.c_size_t), ctypes.POINTER(_P), _E])
kgen_context_create = _sig("kgen_context_create", [ctypes.c_int, ctypes.POINTER(_P), _E])
kgen_context_destroy = _sig("kgen_context_destroy", [_P], None)
kgen_kernel_build = _sig("kgen_kernel_build", [_P, _P, ctypes.POINTER(_P), _E])
kgen_reduce = _sig("kgen_reduce", [_P, _U64, _U64, _U64, _U64, ctypes.c_size_t, _P, _E])
kgen_reduce_axis = _sig("kgen_reduce_axis", [_P, _U64, _U64, _U64, _U64, _U64, _U64, ctypes.c_size_t, _P, _E])
kgen_transpose_batched = _sig("kgen_transpose_batched", [_P, _U64, _U64, _U64, _U64, ctypes.POINTER(TransposeLayout),
                                                          _P, _E])
kgen_context_device_name = _sig("kgen_context_device_name", [_P], ctypes.c_char_p)
kgen_context_arch = _sig("kgen_context_arch", [_P], ctypes.c_char_p)
kgen_context_sm_count = _sig("kgen_context_sm_count", [_P], ctypes.c_int)
_SIZE_P = ctypes.POINTER(ctypes.c_size_t)
kgen_reduce_scratch_size = _sig("kgen_reduce_scratch_size", [_P, _U64, _SIZE_P, _E])
kgen_reduce_axis_scratch_size = _sig("kgen_reduce_axis_scratch_size", [_P, _U64, _U64, _SIZE_P, _E])
# argmin and argmax: a value and an index (in, n, value, index, scratch, scratch_bytes, stream, err).
kgen_reduce_arg = _sig("kgen_reduce_arg", [_P, _U64, _U64, _U64, _U64, _U64, ctypes.c_size_t, _P, _E])
kgen_reduce_axis_arg = _sig("kgen_reduce_axis_arg", [_P, _U64, _U64, _U64, _U64, _U64, _U64, _U64, ctypes.c_size_t,
                                                      _P, _E])
# kgen_reduce_packed: the four calls above from one array of KGEN_PACKED_COUNT
# slots (include/kgen.h), passed as it is (no argtypes: ctypes hands an array
# over as its address, and converts nothing else).
PACKED = ("kernel", "error", "stream", "in", "out", "index", "scratch", "scratch_bytes", "n", "cols", "pitch")
Packed = _U64 * len(PACKED)
kgen_reduce_packed = lib["kgen_reduce_packed"]
kgen_reduce_packed.restype = ctypes.c_int
# Size plans: the kernel for each n of a full reduction.
kgen_plan_load_file = _sig("kgen_plan_load_file", [ctypes.c_char_p, ctypes.POINTER(_P), _E])
kgen_plan_shipped_path = _sig("kgen_plan_shipped_path", [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p,
                                                          ctypes.c_char_p, ctypes.c_char_p, ctypes.c_size_t, _E])
kgen_plan_load_string = _sig("kgen_plan_load_string", [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p,
                                                        ctypes.POINTER(_P), _E])
kgen_plan_count = _sig("kgen_plan_count", [_P])
kgen_plan_spec = _sig("kgen_plan_spec", [_P, ctypes.c_int, ctypes.POINTER(_U64)], _P)
kgen_plan_free = _sig("kgen_plan_free", [_P], None)
# A matmul plan's entries bound m, n and k (None: a libkgen from before plans by shape).
kgen_plan_shape = (_sig("kgen_plan_shape", [_P, ctypes.c_int, ctypes.POINTER(_U64)])
                   if hasattr(lib, "kgen_plan_shape") else None)
kgen_kernel_build_plan = _sig("kgen_kernel_build_plan", [_P, _P, ctypes.POINTER(_P), _E])



def _optional(name, args, res=ctypes.c_int):
    """_sig() for a function this libkgen may lack (a family newer than the
    library): None then, and its callers say so when called."""
    try:
        return _sig(name, args, res)
    except AttributeError:
        return None


# The matmul family: C = alpha A B + beta C (a, b, c, m, n, k, lda, ldb, ldc, alpha, beta, scratch, scratch_bytes,
# stream, err); its scratch size for m, n, k.
kgen_matmul = _optional("kgen_matmul", [_P, _U64, _U64, _U64, _U64, _U64, _U64, _U64, _U64, _U64, ctypes.c_double,
                                        ctypes.c_double, _U64, ctypes.c_size_t, _P, _E])
# kgen_matmul with the epilogue's operands: the same arguments, a struct kgen_matmul_operands * after beta.
kgen_matmul_with = _optional("kgen_matmul_with", [_P, _U64, _U64, _U64, _U64, _U64, _U64, _U64, _U64, _U64,
                                                  ctypes.c_double, ctypes.c_double, ctypes.POINTER(MatmulOperands),
                                                  _U64, ctypes.c_size_t, _P, _E])
kgen_matmul_scratch_size = _optional("kgen_matmul_scratch_size", [_P, _U64, _U64, _U64, ctypes.POINTER(ctypes.c_size_t),
                                                                  _E])
# The rows family (softmax, log_softmax, rms_norm, layer_norm, cross_entropy of each row): kernel, args, stream, err.
kgen_rows = _optional("kgen_rows", [_P, ctypes.POINTER(RowsArgs), _P, _E])
# The blocks of a kernel's first launch one SM holds (the driver's occupancy), 0 if unknown.
kgen_kernel_blocks_per_sm = _optional("kgen_kernel_blocks_per_sm", [_P], ctypes.c_int)
# The scan family: in, out, n, scratch, scratch_bytes, stream, err; its scratch size for n.
kgen_scan = _optional("kgen_scan", [_P, _U64, _U64, _U64, _U64, ctypes.c_size_t, _P, _E])
kgen_scan_scratch_size = _optional("kgen_scan_scratch_size", [_P, _U64, ctypes.POINTER(ctypes.c_size_t), _E])
kgen_scan_rows = _optional("kgen_scan_rows", [_P, _U64, _U64, _U64, _U64, _U64, _U64, _U64, ctypes.c_size_t, _P, _E])
# Down the columns (axis: cols): in, out, rows, cols, in_pitch, out_pitch, scratch, scratch_bytes, stream, err.
kgen_scan_cols = _optional("kgen_scan_cols", [_P, _U64, _U64, _U64, _U64, _U64, _U64, _U64, ctypes.c_size_t, _P, _E])
# Build every kernel of a lazily built kernel now (strategy auto's alternatives): kernel, err.
kgen_kernel_prepare = _optional("kgen_kernel_prepare", [_P, _E])


# The largest values of a C int, a pointer and an unsigned long long.  ctypes
# converts a larger or a negative Python int without a word (2**32 as a c_int
# is 0), so every int that comes from a caller or an array goes through arg().
INT_MAX = 2 ** (8 * ctypes.sizeof(ctypes.c_int) - 1) - 1
PTR_MAX = 2 ** (8 * ctypes.sizeof(ctypes.c_void_p)) - 1
U64_MAX = 2 ** (8 * ctypes.sizeof(_U64)) - 1


def arg(where, name, value, top=U64_MAX):
    """value, an int from 0 to top, for a C integer or address argument; else
    TypeError or ValueError naming it: "kgen.reduce: device must be an int
    from 0 to 2147483647, not 4294967296".  A bool is not an int here."""
    if type(value) is int and 0 <= value <= top:
        return value
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        raise TypeError("%s: %s must be an int from 0 to %d, not %s (%s)" % (where, name, top, shown(value),
                                                                             type(value).__name__))
    v = value.__index__()
    if not 0 <= v <= top:
        raise ValueError("%s: %s must be an int from 0 to %d, not %s" % (where, name, top, shown(v)))
    return v


def text(where, name, value):
    """value (a str, or bytes) as bytes for a char * argument.  C would read
    it only up to a NUL, so a NUL inside is a ValueError naming it."""
    if isinstance(value, str):
        try:
            b = value.encode("utf-8", "surrogateescape")  # as os.fsencode() writes a path
        except UnicodeEncodeError:
            raise ValueError("%s: %s is not valid Unicode: %s" % (where, name, shown(value))) from None
    elif isinstance(value, bytes):
        b = value
    else:
        raise TypeError("%s: %s must be a str, not %s" % (where, name, type(value).__name__))
    if b"\0" in b:
        raise ValueError("%s: %s must not contain a NUL character: %s" % (where, name, shown(value)))
    return b


def shown(value):
    """A value for an error message, cut to a readable length."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 128:
        return "an int of %d bits" % value.bit_length()
    r = repr(value)
    return r if len(r) <= 80 else r[:77] + "..."


def take_string(ptr):
    """A malloc()ed C string from libkgen, as str, freed."""
    try:
        return ctypes.string_at(ptr).decode("utf-8")
    finally:
        libc.free(ptr)


def take_bytes(ptr, size):
    try:
        return ctypes.string_at(ptr, size)
    finally:
        libc.free(ptr)


def check(status, err):
    """Raise the Python form of a failed call's kgen_error."""
    if status == 0:
        return
    file = err.file.decode("utf-8", "replace")
    message = err.message.decode("utf-8", "replace")
    if status == 1:  # KGEN_ESPEC
        raise SpecError(file, err.line, err.column, message, err.source_line.decode("utf-8", "replace"))
    if status_name(status) == "KGEN_EINVAL" and CAPTURE_REFUSED in message:
        raise CaptureError(message)  # libkgen would have grown a kernel's scratch during a capture
    raise KgenError(status_name(status), message, file)


# How libkgen's refusal to grow a kernel's scratch during a stream capture reads (runtime/launch.c).
CAPTURE_REFUSED = "which a stream capture cannot allocate"


def fail(status, raw):
    """check() for a kgen_error given as bytes (kgen._fast's failed calls)."""
    check(status, Error.from_buffer_copy(raw))


def _load_fast():
    """kgen._fast (kgen/_fast.c, the torch fast path in C), or None and why not.

    Looked for in the package (a wheel, make install, an in-tree build), then
    beside the build tree of the library loaded above (a build outside the
    source tree puts it in BUILD/python/kgen).  KGEN_NO_FAST=1 leaves it out:
    the same calls then take the Python path."""
    import importlib.machinery
    import importlib.util

    if os.environ.get("KGEN_NO_FAST"):
        return None, "KGEN_NO_FAST is set"
    here = os.path.dirname(os.path.abspath(__file__))
    dirs = [here]
    if os.sep in path:  # a library found by its path (not a bare name the linker resolved): its build tree
        dirs.append(os.path.join(os.path.dirname(os.path.abspath(path)), "..", "python", "kgen"))
    for d in dirs:
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            p = os.path.join(d, "_fast" + suffix)
            if not os.path.isfile(p):
                continue
            try:
                spec = importlib.util.spec_from_file_location("kgen._fast", p)
                m = importlib.util.module_from_spec(spec)
                spec.loader.exec_module(m)
            except ImportError as e:
                return None, "%s: %s" % (p, e)
            if getattr(m, "ABI", None) != FAST_ABI or m.PACKED_COUNT != len(PACKED):
                return None, "%s is another version's (ABI %s, %d packed slots; this package: ABI %d, %d)" % (
                    p, getattr(m, "ABI", None), m.PACKED_COUNT, FAST_ABI, len(PACKED))
            return m, p
    return None, "no _fast%s in %s" % (importlib.machinery.EXTENSION_SUFFIXES[0],
                                       " or ".join(os.path.normpath(d) for d in dirs))


FAST_ABI = 8  # KGEN_FAST_ABI in kgen/_fast.c


fast, fast_where = _load_fast()
