"""kgen from Python: YAML kernel specs turned into CUDA C, compiled with NVRTC
and run on PyTorch and CuPy arrays, through libkgen's C API (ctypes).

    import kgen, torch
    x = torch.randn(4096, 1000, device="cuda")
    kgen.reduce(x)                 # the sum of every element, a 0-d tensor
    kgen.reduce(x, "max", axis=1)  # one maximum per row
    kgen.transpose(x)              # a new 1000 x 4096 tensor
    kgen.matmul(a, b.t())          # a @ b.t(), b read as column-major, no copy

A spec is a path to a YAML file, YAML text or a dict; keyword arguments
override its fields as `kgen --set` does.  A wrong spec raises SpecError,
which names the file, line and column as kgen does.  Results are returned
in the caller's framework, written on its current stream unless stream= is
given.  See docs/python.md.
"""
import os
import re
import sys
import threading

from . import _lib
from math import prod as _numel

from ._arrays import Array, describe, current_stream, stream_address, empty, packed_strides, SIZE
from ._errors import KgenError, SpecError

__all__ = ["check", "generate", "compile", "Spec", "Kernel", "reduce", "transpose", "matmul", "KgenError",
           "SpecError", "library_path", "__version__"]

__version__ = _lib.kgen_version().decode()
library_path = _lib.path

_local = threading.local()


def _err():
    e = getattr(_local, "err", None)
    if e is None:
        e = _local.err = _lib.Error()
    return e


def _value(where, key, v):
    """A spec value as set_many takes it: an int's decimal text, a str as it
    is (kgen reads it as the value itself, never as YAML)."""
    if isinstance(v, str):
        return _lib.text(where, key, v)
    if not isinstance(v, bool) and hasattr(v, "__index__"):
        return str(v.__index__()).encode()
    raise TypeError("%s: %s is an integer or a name, not %s (%s)" % (where, key, _lib.shown(v), type(v).__name__))


def _fields(where, d):
    """A dict of fields as set_many's keys and values (bytes), checked."""
    keys, values = [], []
    for k, v in d.items():
        if not isinstance(k, str):
            raise TypeError("%s: spec keys are names, not %s" % (where, _lib.shown(k)))
        keys.append(_lib.text(where, "a spec key", k))
        values.append(_value(where, k, v))
    return keys, values


# A dict's kernel family: a name, so that `kernel: NAME` is the only YAML
# kgen reads for a dict (libkgen says which names it knows).
_FAMILY = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,63}")


def _family_yaml(where, d):
    if "kernel" not in d:
        return b"{}\n"  # libkgen's "missing key 'kernel'", with the families it knows
    f = d["kernel"]
    if not isinstance(f, str):
        raise TypeError("%s: kernel is the name of a kernel family, such as 'reduce', not %s (%s)"
                        % (where, _lib.shown(f), type(f).__name__))
    if not _FAMILY.fullmatch(f):
        raise ValueError("%s: kernel is the name of a kernel family, such as 'reduce', not %s" % (where, _lib.shown(f)))
    return b"kernel: %s\n" % f.encode()


def _placeless(err, name):
    """A dict has no lines: its errors name it and no place in the YAML kgen read."""
    err.file = name
    err.line = err.column = 0
    err.source_line = b""
    return err


class Spec:
    """A loaded, validated spec (kgen_spec), with `overrides` applied.

    `spec` is a path to a YAML file, YAML text (anything with a colon that
    is not a file) or a dict of fields.  A dict is never written out as
    YAML: its `kernel` is loaded, then every other field is set as
    overrides are (kgen_spec_set_many), so a value is only ever that
    field's value.  fields holds every field with the
    defaults resolved, as text ({"kernel": "reduce", "threads": "512", ...});
    yaml is every key of the family, one `key: value` line each, as
    kgen_spec_dump() writes it (keys that do not apply included, so it is
    a record of the spec, not a spec to load again).
    """

    def __init__(self, spec, **overrides):
        self._load(spec, overrides, "kgen.Spec")

    def _load(self, spec, overrides, where):
        self._handle = None
        err = _err()
        h = _lib.ctypes.c_void_p()
        if isinstance(spec, Spec):
            # The same origin again (the dump lists keys a spec may not write), then its overrides and ours.
            overrides = dict(spec._overrides, **overrides)
            spec = spec._origin
        over = _fields(where, overrides)
        if isinstance(spec, dict):
            text = _family_yaml(where, spec)
            fields = _fields(where, {k: v for k, v in spec.items() if k != "kernel"})
            st = _lib.kgen_spec_load_string(text, len(text), b"<dict>", _lib.ctypes.byref(h), _lib.ctypes.byref(err))
            _lib.check(st, _placeless(err, b"<dict>") if st else err)
        elif isinstance(spec, (str, os.PathLike)):
            s = os.fspath(spec)
            text = _lib.text(where, "spec", s)
            if os.path.exists(s) or b":" not in text:
                st = _lib.kgen_spec_load_file(text, _lib.ctypes.byref(h), _lib.ctypes.byref(err))
            else:
                st = _lib.kgen_spec_load_string(text, len(text), b"<string>", _lib.ctypes.byref(h),
                                                _lib.ctypes.byref(err))
            _lib.check(st, err)
        else:
            raise TypeError("%s: a spec is a path, YAML text, a dict or a kgen.Spec, not %s"
                            % (where, type(spec).__name__))
        self._handle = h.value
        self._origin = spec
        self._overrides = overrides
        if isinstance(spec, dict) and fields[0]:
            self._set(fields, b"<dict>")
        if over[0]:
            self._set(over)
        self.source = _lib.kgen_spec_source(self._handle).decode()
        out = _lib.ctypes.c_void_p()
        if _lib.kgen_spec_dump(self._handle, _lib.ctypes.byref(out)):
            raise MemoryError("kgen: out of memory")
        self.yaml = _lib.take_string(out.value)
        self.fields = dict(line.split(": ", 1) for line in self.yaml.splitlines() if ": " in line)

    def _set(self, fields, placeless=None):
        """Set fields (keys and values from _fields) in one kgen_spec_set_many."""
        keys, values = fields
        n = len(keys)
        err = _err()
        st = _lib.kgen_spec_set_many(self._handle, n, (_lib.ctypes.c_char_p * n)(*keys),
                                     (_lib.ctypes.c_char_p * n)(*values), _lib.ctypes.byref(err))
        _lib.check(st, _placeless(err, placeless) if st and placeless else err)

    def __getitem__(self, key):
        return self.fields[key]

    def __repr__(self):
        return "kgen.Spec(%r: %s)" % (self.source, ", ".join("%s=%s" % kv for kv in self.fields.items()))

    def __del__(self):
        if getattr(self, "_handle", None):
            _lib.kgen_spec_free(self._handle)
            self._handle = None


def _spec(where, spec, overrides, again=False):
    """spec as a Spec (itself when it is one and nothing is overridden, unless again)."""
    if isinstance(spec, Spec) and not overrides and not again:
        return spec
    s = Spec.__new__(Spec)
    s._load(spec, overrides, where)
    return s


def check(spec, **overrides):
    """Load and validate a spec (with overrides); the Spec, or SpecError."""
    return _spec("kgen.check", spec, overrides, again=True)


def generate(spec, **overrides):
    """The CUDA C source kgen generates for a spec, as str."""
    s = _spec("kgen.generate", spec, overrides)
    err, out = _err(), _lib.ctypes.c_void_p()
    _lib.check(_lib.kgen_generate(s._handle, _lib.ctypes.byref(out), _lib.ctypes.byref(err)), err)
    return _lib.take_string(out.value)


def compile(spec, arch="sm_90", ptx=False, **overrides):
    """Generate and compile a spec with NVRTC for `arch` (no GPU needed): the
    cubin as bytes, or the PTX as str with ptx=True.  NVRTC's rejection is a
    KgenError (KGEN_ECOMPILE) whose message carries the log."""
    arch = _lib.text("kgen.compile", "arch", arch)
    s = _spec("kgen.compile", spec, overrides)
    err, src = _err(), generate(s).encode()
    image, size, log = _lib.ctypes.c_void_p(), _lib.ctypes.c_size_t(), _lib.ctypes.c_void_p()
    st = _lib.kgen_compile(src, b"kernel.cu", arch, 1 if ptx else 0, _lib.ctypes.byref(image),
                           _lib.ctypes.byref(size), _lib.ctypes.byref(log), _lib.ctypes.byref(err))
    text = _lib.take_string(log.value) if log.value else ""
    if st:
        if text:
            err.message = (err.message.decode("utf-8", "replace") + "\n" + text)[:1023].encode()
        _lib.check(st, err)
    data = _lib.take_bytes(image.value, size.value)
    return data.rstrip(b"\0").decode() if ptx else data


# ---- running: contexts and kernels, built once ----

_contexts = {}
_kernels = {}
_lock = threading.Lock()


def _context(device):
    ctx = _contexts.get(device)
    if ctx is None:
        with _lock:
            ctx = _contexts.get(device)
            if ctx is None:
                err, h = _err(), _lib.ctypes.c_void_p()
                _lib.check(_lib.kgen_context_create(device, _lib.ctypes.byref(h), _lib.ctypes.byref(err)), err)
                ctx = _contexts[device] = h.value
    return ctx


class Kernel:
    """A spec built for one GPU (NVRTC, cached in memory and on disk).

    Call it on arrays: a `reduce` kernel as k(x) (all of x), a
    `reduce_axis` kernel as k(x) (x 2-D, its axis from the spec), a
    `transpose` kernel as k(x) (x 2-D, or 3-D for a batch), a `matmul`
    kernel as k(a, b, alpha=1.0, beta=0.0) (the layouts of a and b those
    of the spec).  out= and stream= as for kgen.reduce, kgen.transpose and
    kgen.matmul.
    """

    def __init__(self, spec, device=0, **overrides):
        self._build("kgen.Kernel", spec, device, overrides)

    def _build(self, where, spec, device, overrides):
        self._handle = None
        device = _lib.arg(where, "device", device, _lib.INT_MAX)
        self.spec = _spec(where, spec, overrides)
        self.device = device
        self.family = self.spec.fields["kernel"]
        err, h = _err(), _lib.ctypes.c_void_p()
        st = _lib.kgen_kernel_build(_context(device), self.spec._handle, _lib.ctypes.byref(h), _lib.ctypes.byref(err))
        _lib.check(st, err)
        self._handle = h.value
        self._dtype = self.spec.fields["dtype"]
        # The result's type: out_dtype (a mean of integers is f64, count_nonzero i64), else acc_dtype.
        self._acc = self.spec.fields.get("out_dtype", self.spec.fields.get("acc_dtype", self._dtype))

    def __call__(self, x, *args, out=None, stream=None, **scalars):
        run, operands = _RUNNERS[self.family]
        if operands == 2:  # k(a, b, out=None, alpha=1.0, beta=0.0, stream=None)
            return run(self, describe(x, "a", "kgen.Kernel"), out, stream, "kgen.Kernel", *args, **scalars)
        if len(args) > 2 or scalars:
            raise TypeError("kgen.Kernel: a %s kernel is called as k(x, out=None, stream=None)" % self.family)
        out, stream = (args + (out, stream)[len(args):])[:2]  # k(x, out, stream) positionally, as before
        return run(self, describe(x, where="kgen.Kernel"), out, stream, "kgen.Kernel")

    def __repr__(self):
        return "kgen.Kernel(%s on GPU %d)" % (self.spec.fields.get("name"), self.device)


def _new_kernel(where, spec, device, overrides={}):
    """Kernel(spec, device, **overrides), its errors naming `where` (kgen.reduce, ...)."""
    k = Kernel.__new__(Kernel)
    k._build(where, spec, device, overrides)
    return k


def _kernel(key, make):
    k = _kernels.get(key)
    if k is None:
        k = _kernels[key] = make()
    return k


def _align(*ptrs):
    """The widest load (16, 8, 4 or 2 bytes) every pointer is aligned to."""
    w = 16
    for p in ptrs:
        while w > 1 and p % w:
            w //= 2
    return w


def _contiguous(a):
    acc = 1
    for n, s in zip(reversed(a.shape), reversed(a.strides)):
        if n != 1 and s != acc:
            return False
        acc *= n
    return True




def _stream(a, stream, where):
    s = stream_address(stream)
    return _arg(where, "stream", current_stream(a) if s is None else s, _lib.PTR_MAX)


def _result(a, out, shape, dtype, what, where):
    """The result array and its address: a new one, or `out` checked."""
    if out is None:
        return empty(a, shape, dtype)
    o = describe(out, "out", where)
    if o.dtype != dtype or tuple(o.shape) != tuple(shape) or not _contiguous(o) or o.device != a.device:
        raise ValueError("kgen: out must be a contiguous %s array of shape %s on the input's device for %s, not %s %s"
                         % (dtype, tuple(shape), what, o.dtype, tuple(o.shape)))
    return out, o.ptr


_byref = _lib.ctypes.byref
_kgen_reduce = _lib.kgen_reduce
_arg = _lib.arg  # every int a call below passes to C goes through it


def _check_contiguous(a):
    if len(a.shape) > 1 and not _contiguous(a) or len(a.shape) == 1 and a.strides[0] != 1 and a.shape[0] > 1:
        raise ValueError("kgen: reduce reads a contiguous input; pass x.contiguous()")


def _run_reduce(k, a, out, stream, where):
    _check_contiguous(a)
    if a.dtype != k._dtype:
        raise TypeError("kgen: the kernel reduces %s, the input is %s" % (k._dtype, a.dtype))
    res, optr = _result(a, out, (), k._acc, "a full reduction", where)
    err = _err()
    st = _kgen_reduce(k._handle, _arg(where, "x's address", a.ptr), _arg(where, "x's element count", _numel(a.shape)),
                      _arg(where, "out's address", optr), 0, 0, _stream(a, stream, where), _byref(err))
    if st:
        _lib.check(st, err)
    return res


def _run_axis(k, a, axis, out, stream, where):
    """Reduce a along axis 1 (each row) or 0 (each column) of its matrix view."""
    nd = len(a.shape)
    if nd < 2:
        raise ValueError("kgen: a matrix reduction needs 2 or more dimensions, not %d" % nd)
    if a.dtype != k.spec.fields["dtype"]:
        raise TypeError("kgen: the kernel reduces %s, the input is %s" % (k.spec.fields["dtype"], a.dtype))
    inner = _contiguous_from(a, 1)
    if a.strides[-1] == 1 and inner:
        rows, cols, pitch = a.shape[0], _numel(a.shape[1:]), a.strides[0]
        shape = a.shape[1:] if axis == 0 else a.shape[:1]
        if nd > 2 and axis != 0:
            raise ValueError("kgen: internal: only axis 0 or the last axis of a contiguous array")
    else:
        raise ValueError("kgen: a matrix reduction reads rows with unit stride (rows may be padded); pass "
                         "x.contiguous()")
    want = "rows" if axis == 1 else "cols"
    if k.spec.fields["axis"] != want:
        raise ValueError("kgen: the kernel reduces %s, not %s" % (k.spec.fields["axis"], want))
    res, optr = _result(a, out, shape, k._acc, "a reduction along axis %d" % axis, where)
    err = _err()
    st = _lib.kgen_reduce_axis(k._handle, _arg(where, "x's address", a.ptr), _arg(where, "x's rows", rows),
                               _arg(where, "x's columns", cols), _arg(where, "x's row pitch", pitch),
                               _arg(where, "out's address", optr), 0, 0, _stream(a, stream, where),
                               _lib.ctypes.byref(err))
    _lib.check(st, err)
    return res


def _lib_array(res, a, ptr, shape):
    """The Array of a new contiguous result."""
    from ._arrays import Array
    return Array(res, a.kind, ptr, a.dtype, tuple(shape), packed_strides(shape), a.device)


def _contiguous_from(a, d):
    """Whether dimensions d.. of a are packed (the first of them may be padded)."""
    acc = 1
    for i in range(len(a.shape) - 1, d - 1, -1):
        if a.shape[i] != 1 and a.strides[i] != acc:
            return False
        acc *= a.shape[i]
    return True


def _run_transpose(k, a, out, stream, where):
    nd = len(a.shape)
    if nd not in (2, 3):
        raise ValueError("kgen: transpose takes a matrix or a batch of matrices (2 or 3 dimensions), not %d" % nd)
    if a.dtype != k.spec.fields["dtype"]:
        raise TypeError("kgen: the kernel transposes %s, the input is %s" % (k.spec.fields["dtype"], a.dtype))
    rows, cols = a.shape[-2], a.shape[-1]
    if a.strides[-1] != 1 and cols > 1:
        raise ValueError("kgen: transpose reads rows with unit stride (rows may be padded); pass x.contiguous()")
    batch = a.shape[0] if nd == 3 else 1
    shape = (a.shape[0], cols, rows) if nd == 3 else (cols, rows)
    if out is None:
        res, ptr = empty(a, shape, a.dtype)
        o = _lib_array(res, a, ptr, shape)
    else:
        res, o = out, describe(out, "out", where)
        if o.dtype != a.dtype or tuple(o.shape) != shape or (o.strides[-1] != 1 and rows > 1) or o.device != a.device:
            raise ValueError("kgen: out must be a %s array of shape %s with unit-stride rows on the input's device"
                             % (a.dtype, shape))
    layout = _lib.TransposeLayout(_arg(where, "x's batch", batch),
                                  _arg(where, "x's row pitch", a.strides[-2] if rows > 1 else cols),
                                  _arg(where, "out's row pitch", o.strides[-2] if cols > 1 else rows),
                                  _arg(where, "x's matrix stride", a.strides[0] if nd == 3 else 0),
                                  _arg(where, "out's matrix stride", o.strides[0] if nd == 3 else 0))
    err = _err()
    st = _lib.kgen_transpose_batched(k._handle, _arg(where, "x's address", a.ptr), _arg(where, "out's address", o.ptr),
                                     _arg(where, "x's rows", rows), _arg(where, "x's columns", cols),
                                     _lib.ctypes.byref(layout), _stream(a, stream, where), _lib.ctypes.byref(err))
    _lib.check(st, err)
    return res


# ---- the one-call API: a kernel chosen for the array ----

_OPS = ("sum", "min", "max", "prod")


def _default_reduce(op, dtype):
    # kgen's fastest one-pass sum (specs/reduce/best/); it takes an input at any element (a slice).
    return {"kernel": "reduce", "op": op, "dtype": dtype, "threads": 512, "items_per_thread": 32,
            "load_width": 16, "grid": "tile", "stages": "atomic"}


def _default_transpose(dtype, width):
    # specs/transpose/best.yaml and best-bf16.yaml, with the load width the addresses allow.
    wide = SIZE[dtype] == 2
    return {"kernel": "transpose", "dtype": dtype, "method": "smem", "tile_rows": 64, "tile_cols": 128 if wide else 64,
            "batch": 16 if wide else 8, "load_width": max(width, SIZE[dtype]), "pad": 1, "order": "cols",
            "store_hint": "cg"}


def _spec_key(spec):
    if isinstance(spec, dict):
        return ("dict", tuple(sorted((k, str(v)) for k, v in spec.items())))
    if isinstance(spec, Spec):
        return ("spec", spec.yaml)
    return ("text", os.fspath(spec))


def reduce(x, op=None, axis=None, spec=None, out=None, stream=None, **overrides):
    """Reduce x with op ("sum", "min", "max" or "prod"; default: the spec's
    op, else sum) over all of it (axis None) or along one axis: the last
    (each row of the matrix view, axis=-1 or ndim-1) or the first (each
    column, axis=0); x may have padded rows.  The result is a new array of
    the spec's accumulator type (f32 for f16 and bf16 inputs) in x's
    framework, or `out`.  spec= chooses the kernel (its dtype and axis
    follow x and the call); overrides set its fields."""
    a = describe(x, where="kgen.reduce")
    if axis is None and spec is None and not overrides and (op is None or op in _OPS):
        # The common call, kept short: per-call cost matters at small n.
        _check_contiguous(a)
        key = ("reduce", a.device, op or "sum", a.dtype, ())
        k = _kernels.get(key) or _kernel(key, lambda: _new_kernel("kgen.reduce", _default_reduce(op or "sum", a.dtype),
                                                                  a.device or 0))
        return _run_reduce(k, a, out, stream, "kgen.reduce")
    if op is not None and op not in _OPS:
        raise ValueError("kgen: op is one of %s, not %r" % (", ".join(_OPS), op))
    nd = len(a.shape)
    if axis is not None:
        if not isinstance(axis, int) or not -nd <= axis < nd:
            raise ValueError("kgen: axis %r is out of range for %d dimensions" % (axis, nd))
        axis %= nd
        if nd == 1:
            axis = None
    if axis is None:
        _check_contiguous(a)
        fields = {"dtype": a.dtype}
        if op:
            fields["op"] = op
        if spec is None:
            key = ("reduce", a.device, op or "sum", a.dtype, tuple(sorted(overrides.items())))
            k = _kernel(key, lambda: _new_kernel("kgen.reduce", _default_reduce(op or "sum", a.dtype), a.device or 0,
                                                 overrides))
        else:
            key = ("reduce", a.device, _spec_key(spec), op, a.dtype, tuple(sorted(overrides.items())))
            k = _kernel(key, lambda: _new_kernel("kgen.reduce", spec, a.device or 0, dict(fields, **overrides)))
        return _run_reduce(k, a, out, stream, "kgen.reduce")
    if axis not in (0, nd - 1):
        raise NotImplementedError("kgen: reductions along the first or the last axis only, not axis %d of %d"
                                  % (axis, nd))
    if nd == 2 and a.strides[0] == 1 and a.strides[1] != 1:
        # A transposed view: its columns are the rows of a row-major matrix.
        a = _transposed(a)
        axis = 1 - axis
    kind = "rows" if axis == nd - 1 and axis != 0 else "cols"
    if nd > 2 and kind == "rows":
        # The last axis of an N-d array: rows of the (prod(shape[:-1]), shape[-1]) matrix.
        if not _contiguous(a) and not (_contiguous_from(a, nd - 1) and _collapsible(a)):
            raise ValueError("kgen: reduce along the last axis reads a contiguous input; pass x.contiguous()")
        shape = a.shape[:-1]
        a = _view(a, (_numel(a.shape[:-1]), a.shape[-1]), (a.strides[-2], 1))
        if out is not None:  # out has x's leading shape; the kernel writes it as one row of results
            o = describe(out, "out", "kgen.reduce")
            if tuple(o.shape) != tuple(shape) or not _contiguous(o):
                raise ValueError("kgen: out must be a contiguous array of shape %s, not %s" % (tuple(shape), tuple(o.shape)))
            _reduce_axis(a, op, "rows", spec, out.reshape(-1), stream, overrides)
            return out
        return _reduce_axis(a, op, "rows", spec, None, stream, overrides).reshape(shape)
    return _reduce_axis(a, op, kind, spec, out, stream, overrides)


def _collapsible(a):
    nd = len(a.shape)
    return all(a.strides[i] == a.strides[i + 1] * a.shape[i + 1] for i in range(nd - 2))


def _view(a, shape, strides):
    from ._arrays import Array
    return Array(a.obj, a.kind, a.ptr, a.dtype, shape, strides, a.device)


def _transposed(a):
    return _view(a, (a.shape[1], a.shape[0]), (a.strides[1], a.strides[0]))


def _reduce_axis(a, op, kind, spec, out, stream, overrides):
    fields = {"dtype": a.dtype, "axis": kind}
    if op:
        fields["op"] = op
    if spec is None:
        key = ("axis", a.device, kind, op or "sum", a.dtype, tuple(sorted(overrides.items())))
        base = {"kernel": "reduce_axis", "axis": kind, "op": op or "sum", "dtype": a.dtype, "threads": 512,
                "load_width": 16}
        k = _kernel(key, lambda: _new_kernel("kgen.reduce", base, a.device or 0, overrides))
    else:
        key = ("axis", a.device, _spec_key(spec), kind, op, a.dtype, tuple(sorted(overrides.items())))
        k = _kernel(key, lambda: _new_kernel("kgen.reduce", spec, a.device or 0, dict(fields, **overrides)))
    return _run_axis(k, a, 1 if kind == "rows" else 0, out, stream, "kgen.reduce")


def transpose(x, spec=None, out=None, stream=None, **overrides):
    """The transpose of a matrix (R x C -> C x R) or of each matrix of a batch
    (B x R x C -> B x C x R, one launch), as a new contiguous array in x's
    framework or into `out`.  x's rows may be padded (a slice of a wider
    matrix) and so may out's.  spec= chooses the kernel (its dtype follows x)."""
    a = describe(x, where="kgen.transpose")
    o_ptr = describe(out, "out", "kgen.transpose").ptr if out is not None else 0
    width = _align(a.ptr, o_ptr)
    if spec is None:
        key = ("transpose", a.device, a.dtype, width, tuple(sorted(overrides.items())))
        k = _kernel(key, lambda: _new_kernel("kgen.transpose", _default_transpose(a.dtype, width), a.device or 0,
                                             overrides))
    else:
        key = ("transpose", a.device, _spec_key(spec), a.dtype, tuple(sorted(overrides.items())))
        k = _kernel(key, lambda: _new_kernel("kgen.transpose", spec, a.device or 0,
                                             dict({"dtype": a.dtype}, **overrides)))
    return _run_transpose(k, a, out, stream, "kgen.transpose")


# ---- matmul: C = alpha A B + beta C, C row-major ----

_MATMUL_DTYPES = ("f32", "f64", "f16", "bf16")


def _layouts(x, name, where):
    """The layouts a 2-D array can be read in without a copy, as {layout: ld}:
    "row" when its strides are (ld, 1) (element (i, j) at i*ld + j), "col"
    when they are (1, ld) (a transposed view: at j*ld + i); both for a
    single row or column; ld in elements, never 0 (C's "packed")."""
    r, c = x.shape
    s0, s1 = x.strides
    got = {}
    if (c == 1 or s1 == 1) and (r == 1 or s0 >= c):
        got["row"] = _arg(where, "%s's leading dimension" % name, s0 if r > 1 else c)
    if (r == 1 or s0 == 1) and (c == 1 or s1 >= r):
        got["col"] = _arg(where, "%s's leading dimension" % name, s1 if c > 1 else r)
    if not got:
        raise ValueError("%s: %s is neither row-major (strides (ld, 1), ld >= %d) nor column-major (strides (1, ld), "
                         "ld >= %d): its shape is %s and its strides %s elements; pass %s.contiguous()"
                         % (where, name, c, r, tuple(x.shape), tuple(x.strides), name))
    return got


def _scalar(where, name, v):
    """alpha or beta as a C double: a real, finite number (not a bool)."""
    if isinstance(v, (bool, complex)) or not (isinstance(v, (int, float)) or hasattr(v, "__float__")):
        raise TypeError("%s: %s is a real number, not %s (%s)" % (where, name, _lib.shown(v), type(v).__name__))
    f = float(v)
    if f != f or f in (float("inf"), float("-inf")):
        raise ValueError("%s: %s must be finite, not %r" % (where, name, f))
    return f


class _MatmulCall:
    """A matmul call's operands, checked before any kernel is built: the
    shapes, the layouts each operand can be read in, the result."""
    __slots__ = ("a", "b", "m", "n", "k", "la", "lb", "out", "o", "ldc", "alpha", "beta")


def _matmul_call(where, a, b, out, alpha, beta):
    c = _MatmulCall()
    c.a, c.b = a, b
    for x, name in ((a, "a"), (b, "b")):
        if len(x.shape) != 2:
            raise ValueError("%s: %s is a matrix (2 dimensions), not %d" % (where, name, len(x.shape)))
        if x.dtype not in _MATMUL_DTYPES:
            raise TypeError("%s: matmul takes %s, not %s (%s)" % (where, ", ".join(_MATMUL_DTYPES), x.dtype, name))
    if a.dtype != b.dtype:
        raise TypeError("%s: a is %s and b is %s: both must be of one dtype" % (where, a.dtype, b.dtype))
    if a.device != b.device:
        raise ValueError("%s: a is on GPU %s and b on GPU %s: both must be on one device" % (where, a.device, b.device))
    (c.m, c.k), (kb, c.n) = a.shape, b.shape
    if c.k != kb:
        raise ValueError("%s: a is %d x %d and b is %d x %d: a's columns must be as many as b's rows"
                         % (where, c.m, c.k, kb, c.n))
    if c.k == 0:
        raise ValueError("%s: K is 0 (a is %d x 0): there is nothing to multiply" % (where, c.m))
    c.alpha, c.beta = _scalar(where, "alpha", alpha), _scalar(where, "beta", beta)
    c.la = _layouts(a, "a", where) if c.m else {"row": c.k}
    c.lb = _layouts(b, "b", where) if c.n else {"row": max(c.n, 1)}
    c.out, c.o, c.ldc = out, None, c.n
    if out is None:
        if c.beta != 0:
            raise ValueError("%s: beta=%r reads C: pass the C to scale and add to as out=" % (where, c.beta))
        return c
    o = c.o = describe(out, "out", where)
    if len(o.shape) != 2 or tuple(o.shape) != (c.m, c.n) or o.device != a.device:
        raise ValueError("%s: out must be a %d x %d array on a's device, not %s" % (where, c.m, c.n, tuple(o.shape)))
    if not (c.n <= 1 or o.strides[1] == 1) or not (c.m <= 1 or o.strides[0] >= c.n):
        raise ValueError("%s: out must be row-major (strides (ld, 1), rows may be padded), not strides %s"
                         % (where, tuple(o.strides)))
    c.ldc = _arg(where, "out's row pitch", o.strides[0] if c.m > 1 else max(c.n, 1))
    return c


def _need_matmul(where):
    if _lib.kgen_matmul is None or _lib.kgen_matmul_scratch_size is None:
        raise NotImplementedError("%s: this libkgen (%s) has no kgen_matmul(): build one with the matmul family"
                                  % (where, _lib.path))


def _scratch_array(a, nbytes, stream, explicit):
    """nbytes of scratch from a's framework, allocated on the stream the kernel
    runs on (so that freeing it after the launch is ordered after the kernel)."""
    if a.kind == "torch":
        torch = sys.modules["torch"]
        if not explicit:
            t = torch.empty(nbytes, dtype=torch.uint8, device=a.obj.device)
        else:
            with torch.cuda.stream(torch.cuda.ExternalStream(stream, device=a.obj.device)):
                t = torch.empty(nbytes, dtype=torch.uint8, device=a.obj.device)
        return t, t.data_ptr()
    if a.kind == "cupy":
        import cupy
        with cupy.cuda.Device(a.device if a.device is not None else cupy.cuda.runtime.getDevice()):
            if not explicit:
                t = cupy.empty(nbytes, dtype="uint8")
            else:
                with cupy.cuda.ExternalStream(stream):
                    t = cupy.empty(nbytes, dtype="uint8")
        return t, t.data.ptr
    raise TypeError("kgen.matmul: this kernel needs %d bytes of scratch, which kgen allocates through torch or CuPy "
                    "only, not for %s" % (nbytes, type(a.obj).__name__))


def _run_matmul(k, a, out, stream, where, b=None, alpha=1.0, beta=0.0):
    """k(a, b): C = alpha A B + beta C with a kernel of the matmul family."""
    if b is None:
        raise TypeError("%s: a matmul kernel takes two arrays: k(a, b)" % where)
    c = _matmul_call(where, a, b if isinstance(b, Array) else describe(b, "b", where), out, alpha, beta)
    _need_matmul(where)
    f = k.spec.fields
    if c.a.dtype != f["dtype"]:
        raise TypeError("%s: the kernel multiplies %s, a and b are %s" % (where, f["dtype"], c.a.dtype))
    lds = []
    for name, have in (("a", c.la), ("b", c.lb)):
        want = f.get(name + "_layout", "row")
        if want not in have:
            other = next(iter(have))
            raise ValueError("%s: the kernel reads %s as %s-major (%s_layout: %s), but this %s is %s-major; pass "
                             "a kernel with %s_layout: %s, or %s laid out as the kernel reads it"
                             % (where, name, want, name, want, name, other, name, other, name))
        lds.append(have[want])
    out_dtype = f.get("out_dtype") if f.get("out_dtype") in _MATMUL_DTYPES else f["dtype"]
    if c.o is not None and c.o.dtype != out_dtype:
        raise TypeError("%s: the kernel writes %s, out is %s" % (where, out_dtype, c.o.dtype))
    if c.out is None:
        res, optr = empty(c.a, (c.m, c.n), out_dtype)
    else:
        res, optr = c.out, c.o.ptr
    if c.m == 0 or c.n == 0:
        return res
    s = _stream(c.a, stream, where)
    err, size = _err(), _lib.ctypes.c_size_t()
    dims = (_arg(where, "m", c.m), _arg(where, "n", c.n), _arg(where, "k", c.k))
    _lib.check(_lib.kgen_matmul_scratch_size(k._handle, *dims, _byref(size), _byref(err)), err)
    scratch, sptr = None, 0
    if size.value:
        scratch, sptr = _scratch_array(c.a, size.value, s, stream is not None and s != current_stream(c.a))
    st = _lib.kgen_matmul(k._handle, _arg(where, "a's address", c.a.ptr), _arg(where, "b's address", c.b.ptr),
                          _arg(where, "out's address", optr), *dims, lds[0], lds[1], c.ldc, c.alpha, c.beta, sptr,
                          size.value, s, _byref(err))
    del scratch  # freed on the stream it was allocated for, after the kernel
    _lib.check(st, err)
    return res


def matmul(a, b, out=None, spec=None, alpha=1.0, beta=0.0, stream=None, **overrides):
    """C = alpha * a @ b + beta * C: a (M x K) and b (K x N) f32, f64, f16 or
    bf16 arrays of one dtype on one GPU, each row-major or column-major (a
    transposed view such as b.t(), read without a copy; rows or columns may
    be padded).  The result is a new row-major M x N array of the spec's
    out_dtype (the inputs' unless the spec says otherwise) in a's framework,
    or `out` (row-major, rows may be padded; beta != 0 reads it; its dtype
    becomes the kernel's out_dtype).  spec= chooses the kernel (a path, YAML
    text, a dict or a kgen.Spec; its dtype and layouts follow a and b);
    overrides set its fields, e.g. epilogue= (an expression of v)."""
    where = "kgen.matmul"
    c = _matmul_call(where, describe(a, "a", where), describe(b, "b", where), out, alpha, beta)
    _need_matmul(where)
    fields = {"dtype": c.a.dtype, "a_layout": "row" if "row" in c.la else "col",
              "b_layout": "row" if "row" in c.lb else "col"}
    if c.o is not None:
        fields["out_dtype"] = c.o.dtype
    device = c.a.device or 0
    over = tuple(sorted(overrides.items()))
    if spec is None:
        key = ("matmul", c.a.device, tuple(sorted(fields.items())), over)
        k = _kernel(key, lambda: _new_kernel(where, dict({"kernel": "matmul"}, **fields), device, overrides))
    else:
        key = ("matmul", c.a.device, _spec_key(spec), tuple(sorted(fields.items())), over)
        k = _kernel(key, lambda: _new_kernel(where, spec, device, dict(fields, **overrides)))
    return _run_matmul(k, c.a, out, stream, where, c.b, alpha=c.alpha, beta=c.beta)


# Each family's runner, by the spec's `kernel`, and how many arrays a call
# takes: k(x) for a Kernel k of one operand, k(a, b, ...) of two (its second
# operand and scalars after `where`).  A new family is one row here (and its
# _run_* function).
_RUNNERS = {
    "reduce": (_run_reduce, 1),
    "reduce_axis": (lambda k, a, out, stream, where: _run_axis(k, a, 1 if k.spec.fields["axis"] == "rows" else 0, out,
                                                               stream, where), 1),
    "transpose": (_run_transpose, 1),
    "matmul": (_run_matmul, 2),
}
