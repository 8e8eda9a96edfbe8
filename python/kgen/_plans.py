"""Size plans from Python: a caller's plan (plan=, a path or YAML text) and
the tuned plans kgen ships, one folder a GPU model
(specs/plans/nvidia-h200/OP-DTYPE.yaml, installed with the package as
kgen/plans/nvidia-h200/), which a full reduction takes on the GPU model
they were tuned on.

A GPU's folder is named for its model (the first word of its name with a
digit in it, cut at a '-': H200, H100, A100), as nvidia-<model>. `kgen
tune` writes the GPU a plan was tuned on in its header comment
("# NVIDIA H200|driver 13.0|..."), and a shipped plan serves only a GPU of
that model.  A GPU without a folder (or without a plan for the op and
dtype in it) has no shipped plan: its full reductions take the default
spec, as plan=False does.
"""
import os
import re

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


def model(name):
    """A GPU's model from its name: "NVIDIA H100 80GB HBM3" -> "H100"; None without one."""
    for word in re.split(r"[\s\-]+", name):
        if any(c.isdigit() for c in word):
            return word
    return None


def folder(gpu):
    """The folder of gpu's shipped plans: "NVIDIA H100 80GB HBM3" ->
    "nvidia-h100"; None for a name without a model."""
    m = model(gpu)
    return "nvidia-" + m.lower() if m is not None and re.fullmatch(r"[A-Za-z0-9]+", m) else None


def tuned_on(path):
    """The GPU name in a plan's header (the text before "|driver"), or None."""
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            if not line.startswith("#"):
                break
            m = re.match(r"#\s*([^|]+?)\s*\|driver ", line)
            if m:
                return m.group(1)
    return None


_shipped = {}  # (op, dtype, GPU name) -> path or None


def shipped(op, dtype, gpu):
    """The shipped plan for op and dtype tuned on gpu's model (in its
    folder, and its header naming that model), or None."""
    key = (op, dtype, gpu)
    if key not in _shipped:
        d, sub, path = directory(), folder(gpu), None
        if d is not None and sub is not None:
            p = os.path.join(d, sub, "%s-%s.yaml" % (op, dtype))
            if os.path.isfile(p):
                tuned = tuned_on(p)
                if tuned is not None and model(tuned) is not None and model(tuned) == model(gpu):
                    path = p
        _shipped[key] = path
    return _shipped[key]


class Loaded:
    """A plan loaded by libkgen (freed with this object), its source, and its
    entries: (upto, Spec record) with upto None for the last."""

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
            upto = _lib.ctypes.c_ulonglong()
            spec = _lib.kgen_plan_spec(self.handle, i, _lib.ctypes.byref(upto))
            self.entries.append((None if upto.value == _lib.U64_MAX else upto.value, Spec._record(spec)))

    def __del__(self):
        if getattr(self, "handle", None):
            _lib.kgen_plan_free(self.handle)
            self.handle = None
