"""Kernels: a spec (or a size plan) built for one GPU, kept per device, and
what every family's call shares (the stream, the checks of an array's
layout, the result).  Each family's module adds its runner to RUNNERS."""
import re
import threading
from typing import Any, Union

from . import _driver, _lib, _memory
from ._errors import SpecError
from ._arrays import current_stream, describe, stream_address
from ._plans import Loaded
from ._spec import _err, _spec

_contexts = {}
_kernels = {}   # a call's key -> Kernel: every kernel built by the one-call API
_lock = threading.Lock()
PAIRS = frozenset(("argmin", "argmax"))

# Each family's runner, by the spec's `kernel`, and how many arrays a call
# takes: k(x) for a Kernel k of one operand, k(a, b, ...) of two or more
# (the arrays after the first and the keywords reach the runner after
# `where`: matmul's b, alpha, beta; rows' weight, bias or labels, eps,
# ignore_index).  A new family is one row (added by its module, with its
# _run_* function).
RUNNERS = {}
# A family of two operands whose positional arguments are named ones of its
# runner (matmul: k(a, b, out, alpha, beta, stream)), not arrays for
# *operands (rows): the names, in order, the first operand's first.
POSITIONAL = {}


def context(device):
    ctx = _contexts.get(device)
    if ctx is None:
        with _lock:
            ctx = _contexts.get(device)
            if ctx is None:
                err, h = _err(), _lib.ctypes.c_void_p()
                _lib.check(_lib.kgen_context_create(device, _lib.ctypes.byref(h), _lib.ctypes.byref(err)), err)
                ctx = _contexts[device] = h.value
    return ctx


def gpu_name(device):
    """The name of GPU `device`, as the driver gives it ("NVIDIA H200")."""
    return _lib.kgen_context_device_name(context(device)).decode()


_capabilities = {}  # device -> (major, minor)
_sm_counts = {}  # device -> its multiprocessors


def parse_arch(arch):
    """(major, minor) of an architecture name: "sm_90" -> (9, 0), "sm_120" ->
    (12, 0), "sm_90a" -> (9, 0) (the minor is one digit; a letter after it,
    a feature set, does not change the compute capability)."""
    m = re.fullmatch(r"sm_(\d+)(\d)[a-z]?", arch)
    if m is None:
        raise ValueError("%r is not an architecture name (sm_90, sm_100a, ...)" % arch)
    return int(m.group(1)), int(m.group(2))


def compute_capability(device):
    """GPU `device`'s compute capability as (major, minor): (9, 0) on an H100
    or H200, from libkgen's name for its architecture (parse_arch)."""
    cc = _capabilities.get(device)
    if cc is None:
        cc = _capabilities[device] = parse_arch(_lib.kgen_context_arch(context(device)).decode())
    return cc


def sm_count(device):
    """GPU `device`'s multiprocessor count (132 on an H100 SXM or H200)."""
    n = _sm_counts.get(device)
    if n is None:
        n = _sm_counts[device] = _lib.kgen_context_sm_count(context(device))
    return n


class Kernel:
    """A spec built for one GPU (NVRTC, cached in memory and on disk), or a
    size plan's specs, one for each range of n (plan=, for a reduction).

    Call it on arrays: a `reduce` kernel as k(x) (all of x), a
    `reduce_axis` kernel as k(x) (x 2-D, its axis from the spec), a
    `transpose` kernel as k(x) (x 2-D, or 3-D for a batch), a `matmul`
    kernel as k(a, b, alpha=1.0, beta=0.0) (the layouts of a and b those
    of the spec), a `rows` kernel as k(x) (softmax, log_softmax),
    k(x, weight=None, eps=1e-6) (rms_norm), k(x, weight=None, bias=None,
    eps=1e-5) (layer_norm) or k(logits, labels, ignore_index=-100)
    (cross_entropy: the losses, one a row).  out= and stream= as for
    kgen.reduce, kgen.transpose, kgen.matmul and kgen.softmax; argmin and
    argmax return (values, indices).
    `spec` is the kgen.Spec it was built from (a plan's first entry);
    `plan` the plan's source and `entries` its (upto, spec) pairs (None
    for a single spec).
    """

    def __init__(self, spec: Any = None, device: int = 0, plan: Any = None, **overrides: Union[int, str]) -> None:
        if plan is None:
            if spec is None:
                raise TypeError("kgen.Kernel: pass a spec, or a size plan as plan=")
            self._build("kgen.Kernel", spec, device, overrides)
        else:
            if spec is not None or overrides:
                raise TypeError("kgen.Kernel: a size plan is built as it is: pass plan= alone, without a spec or "
                                "overrides")
            self._build_plan("kgen.Kernel", plan, device)

    def _build(self, where, spec, device, overrides):
        self._handle = None
        device = _lib.arg(where, "device", device, _lib.INT_MAX)
        try:
            self.spec = _spec(where, spec, overrides)
        except SpecError as e:
            _axis_as_dim(where, e, overrides)  # first: axis= of a row function does not apply, as a dimension
            _unexpected_keyword(where, e, overrides)
            raise
        except TypeError:
            # A value no field takes (True, 1e-5): first whether its key is a field at all, with a value that is
            # one, so that keepdim=True gets the hint keepdim=1 gets.
            odd = [k for k, v in overrides.items() if isinstance(v, bool) or not (
                isinstance(v, str) or hasattr(v, "__index__"))]
            if odd:
                try:
                    _spec(where, spec, dict(overrides, **{k: 0 for k in odd}))
                except SpecError as e:
                    _unexpected_keyword(where, e, odd)
                except Exception:  # the value's TypeError below says enough
                    pass
            raise
        self.device = device
        self.plan = self.entries = None
        err, h = _err(), _lib.ctypes.c_void_p()
        st = _lib.kgen_kernel_build(context(device), self.spec._handle, _lib.ctypes.byref(h), _lib.ctypes.byref(err))
        _lib.check(st, err)
        self._handle = h.value
        self._describe()

    def _build_plan(self, where, plan, device, family=None, call=None):
        self._handle = None
        device = _lib.arg(where, "device", device, _lib.INT_MAX)
        p = Loaded(plan, where)
        got = p.entries[0][1].fields["kernel"]
        if family is not None and got != family:
            raise ValueError("%s: plan= is a plan of kernel: %s specs; %s%s takes plans of kernel: %s specs"
                             % (where, got, where, " with " + call if call else "", family))
        self.device = device
        self.plan, self.entries = p.source, p.entries
        self.spec = p.entries[0][1]
        err, h = _err(), _lib.ctypes.c_void_p()
        st = _lib.kgen_kernel_build_plan(context(device), p.handle, _lib.ctypes.byref(h), _lib.ctypes.byref(err))
        _lib.check(st, err)
        self._handle = h.value
        self._describe()

    def _describe(self):
        f = self.spec.fields
        self.family = f["kernel"]
        self._dtype = f["dtype"]
        # The result's type: out_dtype (a mean of integers is f64, count_nonzero i64), else acc_dtype.
        self._acc = f.get("out_dtype", f.get("acc_dtype", self._dtype))

    def __call__(self, x: Any, *args: Any, out: Any = None, stream: Any = None, **scalars: Any) -> Any:
        if self.family not in RUNNERS:  # a family whose module was not imported, or has none
            raise TypeError("kgen.Kernel: kernel: %s has no Python runner (its module adds one to kgen._kernel.RUNNERS)"
                            % self.family)
        run, operands = RUNNERS[self.family]
        if operands == 2:  # k(a, b, out=None, alpha=1.0, beta=0.0, stream=None)
            names = POSITIONAL.get(self.family)
            if names is not None:
                if len(args) > len(names) - 1:
                    raise TypeError("kgen.Kernel: a %s kernel is called as k(%s), not with %d arguments after %s"
                                    % (self.family, ", ".join(names), len(args), names[0]))
                names = names[1:]
                given = dict(scalars, out=out, stream=stream)
                for name, value in zip(names, args):
                    if name in given and (given[name] is not None or name in scalars):
                        raise TypeError("kgen.Kernel: %s given twice, positionally and as %s=" % (name, name))
                    given[name] = value
                out, stream = given.pop("out"), given.pop("stream")
                first = names[0]
                args, scalars = ((given.pop(first),) if first in given else ()), given
            for name in scalars:
                if name not in _keywords(run):
                    raise TypeError("kgen.Kernel: a %s kernel takes no keyword %s=" % (self.family, name))
            return run(self, describe(x, "a", "kgen.Kernel", stream_address(stream)), out, stream, "kgen.Kernel",
                       *args, **scalars)
        if len(args) > 2 or scalars:
            raise TypeError("kgen.Kernel: a %s kernel is called as k(x, out=None, stream=None)" % self.family)
        for i, (name, given) in enumerate((("out", out), ("stream", stream))):
            if len(args) > i and given is not None:
                raise TypeError("kgen.Kernel: %s given twice, positionally and as %s=" % (name, name))
        out, stream = (args + (out, stream)[len(args):])[:2]  # k(x, out, stream) positionally, as before
        return run(self, describe(x, where="kgen.Kernel", stream=stream_address(stream)), out, stream, "kgen.Kernel")

    def prepare(self) -> "Kernel":
        """Build every kernel of the spec now and return self.  A spec of
        alternative kernels (strategy auto of the row families) is otherwise
        built lazily, each kernel at the first call that chooses it; prepare
        before capturing calls into a CUDA graph, or to pay for the JIT up
        front.  Nothing to do for other kernels (or a libkgen older than the
        package)."""
        if _lib.kgen_kernel_prepare is not None:
            err = _lib.Error()
            _lib.check(_lib.kgen_kernel_prepare(self._handle, _lib.ctypes.byref(err)), err)
        return self

    @property
    def blocks_per_sm(self) -> int:
        """How many blocks of its (first) kernel one SM holds at once, as the
        driver's occupancy calculator answered when it was loaded (a plan's
        first entry's); 0 where unknown (a libkgen older than the package)."""
        if _lib.kgen_kernel_blocks_per_sm is None:
            return 0
        return _lib.kgen_kernel_blocks_per_sm(self._handle)

    def __repr__(self):
        if self.plan is not None:
            return "kgen.Kernel(plan %s, %d entries, on GPU %d)" % (self.plan, len(self.entries), self.device)
        return "kgen.Kernel(%s on GPU %d)" % (self.spec.fields.get("name"), self.device)


# The entries each table of ready calls holds at most (a call's kernel, sizes
# and result template, keyed by its arrays' layouts): a process that meets a
# new shape at most calls (dynamic shapes) keeps the newest, not every one.
READY_MAX = 1024


def remember(table, key, value):
    """table[key] = value, the table's oldest entry dropped once it holds
    READY_MAX (FIFO: a hit costs nothing more)."""
    if len(table) >= READY_MAX and key not in table:
        try:
            del table[next(iter(table))]
        except (StopIteration, KeyError, RuntimeError):  # another thread changed it first
            pass
    table[key] = value


def _unexpected_keyword(where, e, names):
    """Where SpecError e says that a key of names (a call's keywords) is
    unknown: the call's mistake, raised as Python says it (TypeError)."""
    # an unknown key, or a key of another family ('bias does not apply to kernel: rows')
    unknown = re.match(r"unknown key '([^']*)'", e.message) or re.match(r"(\w+) does not apply to kernel: \w+$",
                                                                         e.message)
    if not unknown or unknown.group(1) not in names:
        return
    name = unknown.group(1)
    near = re.search(r"did you mean '([^']*)'", e.message)
    hint = _KEYWORD_HINTS.get((where, name)) or _KEYWORD_HINTS.get(name) or (
        "did you mean %s=?" % near.group(1) if near else "")
    raise TypeError("%s() got an unexpected keyword argument '%s' (neither a parameter nor a field of its "
                    "kernel's spec)%s" % (where, name, "; " + hint if hint else "")) from None


_DIM_CALLS = ("kgen.softmax", "kgen.log_softmax", "kgen.scan", "kgen.cumsum")
_LAST_DIM_CALLS = ("kgen.rms_norm", "kgen.layer_norm", "kgen.cross_entropy")


def _axis_as_dim(where, e, overrides):
    """axis= given as a number (NumPy's) where the call's dimension is dim=
    or fixed: axis= reached the spec, whose axis is rows or cols; said as
    the call's TypeError, with what the call takes."""
    axis = overrides.get("axis")
    if (isinstance(axis, bool) or not hasattr(axis, "__index__") or "axis" not in e.message or
            where not in _DIM_CALLS + _LAST_DIM_CALLS):  # kgen.Kernel's axis= is the spec's: its error says it
        return
    takes = ("%s takes dim= (torch's name)" % where if where in _DIM_CALLS else
             "%s works along the last dimension: give no axis" % where)
    raise TypeError("%s: axis=%d is a spec field here (axis: rows or cols), not a dimension; %s"
                    % (where, axis, takes)) from None


# What a torch or NumPy user meant by a keyword kgen calls otherwise.
_KEYWORD_HINTS = {
    ("kgen.reduce", "dim"): "kgen.reduce takes axis=", ("kgen.argmax", "dim"): "kgen.argmax takes axis=",
    ("kgen.argmin", "dim"): "kgen.argmin takes axis=",
    "keepdim": "the result has the reduced dimension removed; reshape it to keep it",
    "keepdims": "the result has the reduced dimension removed; reshape it to keep it",
    "dtype": "the input's dtype chooses the kernel; acc_dtype= and out_dtype= set the other types",
    ("kgen.rms_norm", "bias"): "RMSNorm has no bias: kgen.layer_norm takes one",
    ("kgen.softmax", "eps"): "eps is the norms' (kgen.rms_norm, kgen.layer_norm)",
    ("kgen.log_softmax", "eps"): "eps is the norms' (kgen.rms_norm, kgen.layer_norm)",
    ("kgen.cross_entropy", "eps"): "eps is the norms' (kgen.rms_norm, kgen.layer_norm)",
    ("kgen.softmax", "labels"): "kgen.cross_entropy takes labels",
    ("kgen.log_softmax", "labels"): "kgen.cross_entropy takes labels",
    ("kgen.transpose", "tile"): "a tile is tile_rows= by tile_cols=",
}


def refuse_dtype(where, overrides):
    """dtype= given to a one-call function (torch's habit): the input's
    dtype chooses the kernel, so the override could only build a kernel
    the call then refuses; the call's TypeError at once, before a build."""
    if "dtype" in overrides:
        hint = ("the input's dtype chooses the kernel, whose result is of it" if where == "kgen.transpose" else
                "the input's dtype chooses the kernel; out_dtype= sets the result's" if where in _ROW_CALLS else
                _KEYWORD_HINTS["dtype"])
        raise TypeError("%s() got an unexpected keyword argument 'dtype': %s" % (where, hint))


_ROW_CALLS = frozenset(("kgen.softmax", "kgen.log_softmax") + _LAST_DIM_CALLS)


_KEYWORDS = {}  # a two-operand runner -> the keywords a caller may give it


def _keywords(run):
    """The keywords of a runner of RUNNERS a caller of Kernel may pass (its
    parameters but those Kernel.__call__ and the fast paths fill), once."""
    known = _KEYWORDS.get(run)
    if known is None:
        code = run.__code__
        known = _KEYWORDS[run] = frozenset(code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]) - {
            "k", "a", "out", "stream", "where", "ready", "described"}
    return known


def check_family(where, spec, want, call=None):
    """spec= of the family a call runs, before a kernel is built from it (the
    spec's own error would name a key of the call's, such as op= or
    a_layout=, that its family lacks): ValueError otherwise, naming the call
    (and what of it chose the family: call, "axis=None")."""
    from ._spec import spec_field
    got = spec_field(spec, "kernel")
    if got is not None and got != want:
        raise ValueError("%s: spec= is a kernel: %s spec; %s%s takes kernel: %s specs"
                         % (where, got, where, " with " + call if call else "", want))


def new_kernel(where, spec, device, overrides={}):
    """Kernel(spec, device, **overrides), its errors naming `where` (kgen.reduce, ...)."""
    k = Kernel.__new__(Kernel)
    k._build(where, spec, device, overrides)
    return k


def new_plan_kernel(where, plan, device, family=None, call=None):
    """Kernel(plan=plan, device), its errors naming `where`; a plan of
    another family than `family` is refused before anything is built, as
    check_family refuses spec= (call: what of the call chose the family)."""
    k = Kernel.__new__(Kernel)
    k._build_plan(where, plan, device, family, call)
    return k


def cached(key, make, device, stream, where):
    """The kernel of the one-call API for key, built by make() the first time,
    which a stream capture refuses (NVRTC and loading a module are no work
    a graph can hold)."""
    try:
        k = _kernels.get(key)
    except TypeError:  # a list or a dict where a field's value goes: make()'s checks say so
        return make()
    if k is None:
        _memory.refuse_in_capture(device, stream, where, "build its kernel (NVRTC)")
        k = _kernels[key] = make()
    return k


def stream_of(a, stream, where):
    """The stream a call runs on: the caller's, else a's framework's current
    one; made to wait for the stream a's __cuda_array_interface__ names,
    where that is another (the interface's version 3 asks it of a consumer)."""
    s = stream_address(stream)
    s = _lib.arg(where, "stream", current_stream(a) if s is None else s, _lib.PTR_MAX)
    if a.producer is not None and a.producer != s:
        e = _driver.Event(a.device or 0)
        e.record(a.producer)
        e.wait(s)
    return s


def contiguous(a):
    acc = 1
    for n, s in zip(reversed(a.shape), reversed(a.strides)):
        if n != 1 and s != acc:
            return False
        acc *= n
    return True


def contiguous_from(a, d):
    """Whether dimensions d.. of a are packed (the first of them may be padded)."""
    acc = 1
    for i in range(len(a.shape) - 1, d - 1, -1):
        if a.shape[i] != 1 and a.strides[i] != acc:
            return False
        acc *= a.shape[i]
    return True


def align(*ptrs):
    """The widest load (16, 8, 4 or 2 bytes) every pointer is aligned to."""
    w = 16
    for p in ptrs:
        while w > 1 and p % w:
            w //= 2
    return w


def other_device(x, y):
    """Whether arrays x and y are on different GPUs (an array that does not
    say, a bare __cuda_array_interface__, is taken to be on the other's)."""
    return x.device is not None and y.device is not None and x.device != y.device


def out_text(o, a, laid_out=True, layout="not contiguous"):
    """What out= is, for a refusal: its dtype and shape, and what else is wrong
    with it (its layout, when not laid_out; its device, when not a's)."""
    text = "%s %s" % (o.dtype, tuple(o.shape))
    if not laid_out:
        text += ", " + layout
    return text + device_text(o, a)


def device_text(o, a, name="the input"):
    """Where array o is, for a refusal, when it is not on a's GPU (name:
    what a is); else nothing."""
    return ", on GPU %d where %s is on GPU %d" % (o.device, name, a.device) if other_device(o, a) else ""


def writable_out(out, where, want_dtype, shape, a, what):
    """The Array of out=, checked: contiguous, of the result's dtype and shape, on a's device, writable."""
    o = describe(out, "out", where)
    if o.dtype != want_dtype or tuple(o.shape) != tuple(shape) or not contiguous(o) or other_device(o, a):
        raise ValueError("%s: out must be a contiguous %s array of shape %s on the input's device for %s, not %s"
                         % (where, want_dtype, tuple(shape), what, out_text(o, a, contiguous(o))))
    if o.readonly:
        raise ValueError("%s: out is read-only (%s arrays cannot be written): leave out= unset" % (where, o.kind))
    return o
