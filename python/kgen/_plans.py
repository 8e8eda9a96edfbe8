"""Size plans from Python: a caller's plan (plan=, a path or YAML text) and
the tuned plans kgen ships, one folder a GPU model
(specs/plans/nvidia-h200/OP-DTYPE.yaml, installed with the package as
kgen/plans/nvidia-h200/), which a full reduction takes on the GPU model
they were tuned on.

Which plan serves a GPU is libkgen's answer (kgen_plan_shipped_path(),
gen/shipped.c), asked of the package's folder: a folder is named for a GPU
model (the first word of its name with a digit in it, cut at a '-': H200,
H100, A100), as nvidia-<model>, and a plan serves only a GPU of the model
its header names (`kgen tune` writes "# NVIDIA H200|driver 13.0|...").  A
GPU without a folder (or without a plan for the op and dtype in it) has no
shipped plan: its full reductions take the default spec, as plan=False
does.
"""
import os

from . import _lib
from ._spec import _err, Spec

_HERE = os.path.dirname(os.path.abspath(__file__))
# Where the shipped plans are: beside the package (pip, make install), else in the source tree around it.
_DIRS = (os.path.join(_HERE, "plans"), os.path.join(_HERE, "..", "..", "specs", "plans"))


def directory():
    """The folder of the shipped plans, or None."""
    for d in _DIRS:
        if os.path.isdir(d):
            return os.path.normpath(d)
    return None


_shipped = {}  # (op, dtype, GPU name) -> path or None


def shipped(op, dtype, gpu):
    """The shipped plan for op and dtype tuned on gpu's model (in its
    folder, and its header naming that model), or None."""
    key = (op, dtype, gpu)
    if key not in _shipped:
        d, path = directory(), None
        if d is not None:
            buf, err = _lib.ctypes.create_string_buffer(4096), _err()
            _lib.check(_lib.kgen_plan_shipped_path(os.fsencode(d), gpu.encode(), op.encode(), dtype.encode(), buf,
                                                   len(buf), _lib.ctypes.byref(err)), err)
            path = os.fsdecode(buf.value) or None
        _shipped[key] = path
    return _shipped[key]


class Loaded:
    """A plan loaded by libkgen (freed with this object), its source, and its
    entries: (upto, Spec record) with upto None for the last; a matmul
    plan's upto is the entry's bounds, {"m_upto": 128, ...} (those it has)."""

    def __init__(self, plan, where):
        self.handle = None
        err, h = _err(), _lib.ctypes.c_void_p()
        if not isinstance(plan, (str, os.PathLike)):
            raise TypeError("%s: plan is a path to a size plan or its YAML text, not %s" % (where, type(plan).__name__))
        s = os.fspath(plan)
        text = _lib.text(where, "plan", s)
        if os.path.exists(s) or b":" not in text:
            st = _lib.kgen_plan_load_file(text, _lib.ctypes.byref(h), _lib.ctypes.byref(err))
            self.source = s
        else:
            st = _lib.kgen_plan_load_string(text, len(text), b"<plan>", _lib.ctypes.byref(h), _lib.ctypes.byref(err))
            self.source = "<plan>"
        _lib.check(st, err)
        self.handle = h.value
        self.entries = []
        for i in range(_lib.kgen_plan_count(self.handle)):
            upto, bounds = _lib.ctypes.c_ulonglong(), (_lib.ctypes.c_ulonglong * 3)()
            spec = _lib.kgen_plan_spec(self.handle, i, _lib.ctypes.byref(upto))
            if _lib.kgen_plan_shape is not None and _lib.kgen_plan_shape(self.handle, i, bounds):
                got = {key: v for key, v in zip(("m_upto", "n_upto", "k_upto"), bounds) if v != _lib.U64_MAX}
                self.entries.append((got or None, Spec._record(spec)))
            else:
                self.entries.append((None if upto.value == _lib.U64_MAX else upto.value, Spec._record(spec)))

    def __del__(self):
        if getattr(self, "handle", None):
            _lib.kgen_plan_free(self.handle)
            self.handle = None
