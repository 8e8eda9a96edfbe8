"""kgen.reduce: every op of the spec language (sum, min, max, prod, mean,
sumsq, norm2, amax, count_nonzero, any, all, argmin, argmax, custom) over
all of an array, or along its first or last axis, with the kernel chosen
for the array (a shipped size plan, kgen's default spec, or the caller's
spec or plan).

A call is made ready once per (device, dtype, shape, strides, op, axis,
spec, plan, overrides): the kernel built, the sizes C takes checked, the
result's shape and dtype and the scratch it needs known (a _Launch).
Later calls with the same key find it in one dict lookup and pay only the
stream, the result's allocation and the C call.  A plain torch tensor's
call goes faster still: its key read from the tensor (_ready_torch), and,
where the package was built with kgen._fast (kgen/_fast.c), the whole call
in C (_ready_fast); the Python path does the same where it was not.
"""
from math import prod as _numel
import os
import sys
from threading import get_ident as _thread
from typing import Any, Dict, NamedTuple, Optional, Union

from . import _arrays, _lib, _memory, _plans, _trace
from ._errors import DimError
from ._arrays import Array, allocator, current_stream, describe, finish, stream_address, torch_dtype
from ._kernel import (PAIRS, RUNNERS, Kernel, cached, check_family, contiguous, contiguous_from, gpu_name,
                      new_kernel, new_plan_kernel, refuse_dtype, remember, stream_of, writable_out)
from ._spec import Spec, _err, _spec_key

# The ops of the spec language (KGEN_OPS in gen/spec.h; test_cpu_ops.py holds them to libkgen's list).
OPS = ("sum", "min", "max", "prod", "mean", "sumsq", "norm2", "amax", "count_nonzero", "any", "all", "argmin",
       "argmax", "custom")
WHERE = "kgen.reduce"


class ArgResult(NamedTuple):
    """What argmin and argmax return, as torch.max(x, dim) does: the values
    (the accumulator type: f32 for f16 and bf16) and their indices (i64)."""
    values: Any
    indices: Any


def _default_reduce(op, dtype):
    """kgen's one-pass reduction (specs/reduce/best/): 512 threads, 16-byte
    loads from any element; 64 elements a thread for argmin and argmax
    (specs/reduce/ops/argmax-f32.yaml), 32 for the others.  stages is left
    to kgen: atomic, or last_block for an op with a last step."""
    return {"kernel": "reduce", "op": op, "dtype": dtype, "threads": 512,
            "items_per_thread": 64 if op in PAIRS else 32, "load_width": 16, "grid": "tile"}


def _default_axis(op, dtype, kind):
    """specs/reduce_axis/best/rows.yaml and cols.yaml: strategy auto picks the
    kernel for the shape at launch.  Columns of 16-bit elements load 8 bytes,
    four elements a thread: on an H200, bf16 column sums read at 0.950-0.955
    of CUB's sum at 1048576x512, 0.933-0.935 at 4194304x128 and 0.972-0.973
    at 16384x16384, against 0.887-0.948 with 16-byte loads
    (bench/results/nvidia-h200/2026-11-29-column-run, run 5; f16 takes the
    same width, unmeasured).  For argmin and argmax 16 bytes would be 8
    (value, index) pairs a thread, 64 KB of shared memory for the tile
    strategy's 512 threads, over a block's 48 KB (kgen check refuses it)."""
    width = 8 if kind == "cols" and dtype in ("f16", "bf16") else 16
    return {"kernel": "reduce_axis", "axis": kind, "op": op, "dtype": dtype, "threads": 512, "load_width": width}


class _Launch:
    """A reduction made ready for arrays of one kind, shape and layout: its
    kernel, the C function and the sizes it takes (called through
    kgen_reduce_packed, one argument array a thread), the result's shape and
    dtype and how to allocate it, its scratch (the kernel's, allocated now;
    a buffer that grows is kept, so this one stays valid).  Calling it
    launches on an array."""
    __slots__ = ("k", "handle", "device", "fn", "sizes", "shape", "dtype", "pair", "scratch", "where", "what",
                 "values", "indices", "t_values", "t_indices", "t_new", "t_dtype", "t_i64", "t_stream", "packs",
                 "ready", "sink")

    def __call__(self, a, out, stream):
        if stream is None:
            s = current_stream(a)
        else:
            s = _lib.arg(self.where, "stream", stream_address(stream), _lib.PTR_MAX)
        if self.sink:  # kgen.argmin/argmax: the values into the sink, the indices returned
            if out is None:
                i, iptr = self.indices(s)
            else:
                iptr = writable_out(out, self.where, "i64", self.shape, a, self.what).ptr
            self._run(s, a.ptr, (self.sink, iptr))
            if a.keep is not None:
                _memory.hold(self.device, s, a.keep)
            return out if out is not None else finish(a, i)
        if out is None:
            v, vptr = self.values(s)
            if self.pair:
                i, iptr = self.indices(s)
                outs = (vptr, iptr)
            else:
                outs = (vptr,)
        else:
            outs = self._outs(a, out)
        self._run(s, a.ptr, outs)
        if a.keep is not None:
            _memory.hold(self.device, s, a.keep)
        if out is not None:
            return out
        if self.pair:
            return ArgResult(finish(a, v), finish(a, i))
        return finish(a, v)

    def torch(self, x, out):
        """The call on a plain torch tensor x of the shape, layout and device
        this launch was made for (_reduce's torch fast path): no Array, and
        out= checked on the tensor itself; any other out= goes the general
        way, which says what is wrong with it."""
        dev = self.device
        s = self.t_stream(dev)
        if self.sink:
            if out is None:
                i = self.t_new(self.t_indices)
                outs = (self.sink, i.data_ptr())
            elif self._torch_out(out, self.t_i64, dev):
                outs = (self.sink, out.data_ptr())
            else:
                return self(describe(x, where=self.where), out, None)
        elif out is None:
            v = self.t_new(self.t_values)
            if self.pair:
                i = self.t_new(self.t_indices)
                outs = (v.data_ptr(), i.data_ptr())
            else:
                outs = (v.data_ptr(),)
        elif not self.pair and self._torch_out(out, self.t_dtype, dev):
            outs = (out.data_ptr(),)
        elif (self.pair and type(out) is tuple and len(out) == 2 and self._torch_out(out[0], self.t_dtype, dev)
              and self._torch_out(out[1], self.t_i64, dev)):
            outs = (out[0].data_ptr(), out[1].data_ptr())
        else:
            return self(describe(x, where=self.where), out, None)
        p = self.packs.get(_thread())  # _run(), inline: a call less
        if p is None:
            p = self._pack()
        a = p[0]
        a[2], a[3], a[4] = s, x.data_ptr(), outs[0]
        if self.pair:
            a[5] = outs[1]
        st = _packed(a)
        if st:
            _lib.check(st, p[1])
        if out is not None:
            return out
        if self.sink:
            return i
        return ArgResult(v, i) if self.pair else v

    def _run(self, stream, ptr, outs):
        """kgen_reduce_packed with this thread's argument array: the stream,
        the input and the outputs set; the rest was set when it was made."""
        p = self.packs.get(_thread())
        if p is None:
            p = self._pack()
        a = p[0]
        a[2], a[3], a[4] = stream, ptr, outs[0]
        if self.pair:
            a[5] = outs[1]
        st = _lib.kgen_reduce_packed(a)
        if st:
            _lib.check(st, p[1])

    def _pack(self):
        """This thread's argument array (and the kgen_error it names), its
        fixed slots set: the kernel, the scratch and the sizes."""
        err = _lib.Error()
        a = _lib.Packed()
        a[0], a[1] = self.handle, _lib.ctypes.addressof(err)
        a[6], a[7] = self.scratch
        for slot, size in zip((8, 9, 10), self.sizes):
            a[slot] = size
        p = self.packs[_thread()] = (a, err)
        return p

    def _torch_out(self, out, dtype, dev):
        """Is out a contiguous torch tensor of the result's dtype and shape on dev?"""
        return (type(out) is _arrays.Tensor and out.dtype is dtype and out.shape == self.shape and
                out.get_device() == dev and out.is_contiguous())

    def _outs(self, a, out):
        """out='s addresses: one array, or (values, indices) for argmin and argmax."""
        if not self.pair:
            return (writable_out(out, self.where, self.dtype, self.shape, a, self.what).ptr,)
        if not isinstance(out, (tuple, list)) or len(out) != 2:
            raise TypeError("%s: out of argmin or argmax is a pair (values, indices), not %s"
                            % (self.where, type(out).__name__))
        return (writable_out(out[0], self.where, self.dtype, self.shape, a, self.what).ptr,
                writable_out(out[1], self.where, "i64", self.shape, a, self.what + " (indices)").ptr)


def _launch(k, a, fn, sizes, shape, need, s, where, what):
    L = _Launch()
    L.k, L.handle, L.device, L.fn, L.sizes, L.shape = k, k._handle, k.device, fn, sizes, tuple(shape)
    L.dtype, L.pair, L.where, L.what = k._acc, k.spec.fields.get("op") in PAIRS, where, what
    L.scratch = _memory.scratch(k.device, k._handle, need, s, where) if need else (0, 0)
    L.packs = {}
    L.ready = None
    L.sink = 0
    L.values = allocator(a, L.shape, L.dtype, where)
    L.indices = allocator(a, L.shape, "i64", where)
    if a.kind == "torch":
        # Results as torch.empty_like of a tensor of their dtype, shape and
        # device (one argument for torch to parse, where torch.empty takes
        # three: 1.9 us against 3.4 on the H200 host); a result of more than
        # 64 Ki elements, whose template would be memory kept for nothing,
        # as new_empty of a 0-d one (2.5 us).
        torch = sys.modules["torch"]
        L.t_dtype, L.t_i64 = torch_dtype(L.dtype), torch_dtype("i64")
        dev = torch.device("cuda", a.device)
        small = _numel(L.shape) <= 65536
        like = L.shape if small else ()
        L.t_values = torch.empty(like, dtype=L.t_dtype, device=dev)
        L.t_indices = torch.empty(like, dtype=L.t_i64, device=dev) if L.pair else None
        shape = L.shape
        L.t_new = torch.empty_like if small else (lambda t: t.new_empty(shape))
        L.t_stream = _arrays.torch_stream_function()
        if _lib.fast is not None:
            L.ready = _fast_ready(L, a.device)
    return L


def fast_entry():
    """Hand libkgen's entry and the torch fast path's dict to kgen._fast, once
    (the row functions' path needs it too)."""
    global _fast_entry
    if not _fast_entry:
        torch = sys.modules["torch"]
        address = _lib.ctypes.cast(_lib.kgen_reduce_packed, _lib.ctypes.c_void_p).value
        _lib.fast.set_entry(address, _ready_fast, torch.Tensor, _arrays.torch_stream_function(), ArgResult, _lib.fail)
        _fast_entry = True


def _fast_ready(L, device):
    """L as a kgen._fast.Ready (the torch fast path in C), libkgen's entry
    handed to kgen._fast first if it was not."""
    fast_entry()
    # It keeps L's kernel alive (the scratch is kgen._memory's, kept per
    # kernel), not L: L holds it, and a Ready is not followed by the GC.
    return _lib.fast.Ready(L.handle, L.scratch[0], L.scratch[1], tuple(L.sizes), L.pair, L.sink, device, L.t_new,
                           L.t_values, L.t_indices, L.t_dtype, L.t_i64, L.shape, L.k)


_fast_entry = False
_ready_fast = {}  # the keys of _ready_torch -> their Ready (kgen._fast), where kgen._fast was built
_fast_reduce = _lib.fast.reduce if _lib.fast is not None else None


def _check_contiguous(a, where=WHERE):
    if len(a.shape) > 1 and not contiguous(a) or len(a.shape) == 1 and a.strides[0] != 1 and a.shape[0] > 1:
        raise ValueError("%s: a full reduction reads a contiguous input; pass x.contiguous()" % where)


def _full(k, a, s, where):
    """The _Launch of a full reduction of a (contiguous) with kernel k, on stream s first."""
    _check_contiguous(a, where)
    if a.dtype != k._dtype:
        raise TypeError("%s: the kernel reduces %s, the input is %s" % (where, k._dtype, a.dtype))
    n = _lib.arg(where, "x's element count", _numel(a.shape))
    pair = k.spec.fields.get("op") in PAIRS
    size, err = _lib.ctypes.c_size_t(), _err()
    _lib.check(_lib.kgen_reduce_scratch_size(k._handle, n, _lib.ctypes.byref(size), _lib.ctypes.byref(err)), err)
    return _launch(k, a, _lib.kgen_reduce_arg if pair else _lib.kgen_reduce, (n,), (), size.value, s, where,
                   "a full reduction")


def _matrix(a, axis, where=WHERE):
    """a as the rows x cols matrix a reduction along `axis` reads, and the
    result's shape: (matrix Array, "rows" or "cols", shape)."""
    nd = len(a.shape)
    if axis not in (0, nd - 1):
        raise NotImplementedError("%s: reductions along the first or the last axis only, not axis %d of %d"
                                  % (where, axis, nd))
    if nd == 2 and a.strides[0] == 1 and a.strides[1] != 1:
        # A transposed view: its columns are the rows of a row-major matrix.
        a = _view(a, (a.shape[1], a.shape[0]), (a.strides[1], a.strides[0]))
        axis = 1 - axis
    kind = "rows" if axis == nd - 1 and axis != 0 else "cols"
    if nd > 2 and kind == "rows":
        # The last axis of an N-d array: rows of the (prod(shape[:-1]), shape[-1]) matrix.
        if not contiguous(a) and not (contiguous_from(a, nd - 1) and _collapsible(a)):
            raise ValueError("%s: a reduction along the last axis reads a contiguous input; pass x.contiguous()"
                             % where)
        return _view(a, (_numel(a.shape[:-1]), a.shape[-1]), (a.strides[-2], 1)), kind, tuple(a.shape[:-1])
    if not (a.strides[-1] == 1 or a.shape[-1] == 1) or not contiguous_from(a, 1):
        raise ValueError("%s: a matrix reduction reads rows with unit stride (rows may be padded); pass "
                         "x.contiguous()" % where)
    m = _view(a, (a.shape[0], _numel(a.shape[1:])), (a.strides[0], 1))
    return m, kind, tuple(a.shape[1:] if kind == "cols" else a.shape[:1])


def _along(k, m, shape, s, where):
    """The _Launch of kernel k (reduce_axis) on matrix m, the result of `shape`, on stream s first."""
    if len(m.shape) < 2:
        raise ValueError("%s: a matrix reduction needs 2 or more dimensions, not %d" % (where, len(m.shape)))
    f = k.spec.fields
    if m.dtype != f["dtype"]:
        raise TypeError("%s: the kernel reduces %s, the input is %s" % (where, f["dtype"], m.dtype))
    rows, cols = m.shape[0], _numel(m.shape[1:])
    if not (m.strides[-1] == 1 or m.shape[-1] == 1) or not contiguous_from(m, 1):
        raise ValueError("%s: a matrix reduction reads rows with unit stride (rows may be padded); pass "
                         "x.contiguous()" % where)
    if rows > 1 and 0 <= m.strides[0] < cols:  # a broadcast (stride 0) or overlapping rows: C reads 0 as packed
        raise ValueError("%s: x's rows overlap: they are %d elements apart and %d long (a broadcast or strided "
                         "view); pass x.contiguous()" % (where, m.strides[0], cols))
    sizes = (_lib.arg(where, "x's rows", rows), _lib.arg(where, "x's columns", cols),
             _lib.arg(where, "x's row pitch", m.strides[0] if rows > 1 else cols))
    pair = f.get("op") in PAIRS
    size, err = _lib.ctypes.c_size_t(), _err()
    _lib.check(_lib.kgen_reduce_axis_scratch_size(k._handle, sizes[0], sizes[1], _lib.ctypes.byref(size),
                                                  _lib.ctypes.byref(err)), err)
    axis = 1 if f["axis"] == "rows" else 0
    return _launch(k, m, _lib.kgen_reduce_axis_arg if pair else _lib.kgen_reduce_axis, sizes, shape, size.value, s,
                   where, "a reduction along axis %d" % axis)


def _collapsible(a):
    nd = len(a.shape)
    return all(a.strides[i] == a.strides[i + 1] * a.shape[i + 1] for i in range(nd - 2))


def _view(a, shape, strides):
    return Array(a.obj, a.kind, a.ptr, a.dtype, shape, strides, a.device, a.keep, a.readonly)


def _axis(a, axis, where=WHERE):
    """axis as 0..ndim-1, or None for a full reduction (a 1-D array's only axis too)."""
    if axis is None:
        return None
    nd = len(a.shape)
    if isinstance(axis, bool) or not hasattr(axis, "__index__"):
        raise TypeError("%s: axis is an int (0 to %d, or negative from the end) or None, not %s %r"
                        % (where, nd - 1, type(axis).__name__, axis))
    axis = axis.__index__()  # NumPy's integers too
    if not -nd <= axis < nd:
        raise DimError("%s: axis %r is out of range for %d dimensions" % (where, axis, nd))
    return None if nd == 1 else axis % nd


def _plan_kernel(a, op, plan, device, s, where=WHERE):
    """The kernel of plan= (a path or YAML text), checked against the call."""
    k = cached(("plan", device, _spec_key(plan, "plan")),
               lambda: new_plan_kernel(where, plan, device, "reduce", "axis=None"), device, s, where)
    f = k.spec.fields
    if f["kernel"] != "reduce":  # a plan of another family built by another call (kgen.Kernel's cache is shared)
        raise ValueError("%s: plan= is a plan of kernel: %s specs; %s with axis=None takes plans of kernel: reduce "
                         "specs" % (where, f["kernel"], where))
    if f["dtype"] != a.dtype:
        raise TypeError("%s: the plan reduces %s, the input is %s" % (where, f["dtype"], a.dtype))
    if op is not None and op != f["op"]:
        raise ValueError("%s: the plan computes op %s, not %s" % (where, f["op"], op))
    return k


def _prepare(a, op, axis, spec, plan, overrides, s, where=WHERE):
    """The _Launch for a call: its kernel found or built, its sizes checked."""
    refuse_dtype(where, overrides)
    device = a.device or 0
    over = tuple(sorted(overrides.items()))
    if axis is None:
        _check_contiguous(a, where)  # before anything that needs a GPU
        fields = {"dtype": a.dtype}
        if op:
            fields["op"] = op
        if plan is not None and plan is not False:
            if spec is not None or overrides:
                raise TypeError("%s: a size plan is used as it is: pass plan= without spec= or overrides" % where)
            k = _plan_kernel(a, op, plan, device, s, where)
        elif spec is not None:
            check_family(where, spec, "reduce", "axis=None")
            key = ("reduce", device, _spec_key(spec), op, a.dtype, over)
            k = cached(key, lambda: new_kernel(where, spec, device, dict(fields, **overrides)), device, s, where)
        else:
            shipped = None
            if plan is None and not overrides:
                shipped = _plans.shipped(op or "sum", a.dtype, gpu_name(device))
            if shipped is not None:
                k = cached(("plan", device, ("text", shipped)), lambda: new_plan_kernel(where, shipped, device),
                           device, s, where)
            else:
                key = ("reduce", device, op or "sum", a.dtype, over)
                k = cached(key, lambda: new_kernel(where, _default_reduce(op or "sum", a.dtype), device, overrides),
                           device, s, where)
        return _full(k, a, s, where)
    if plan is not None and plan is not False:
        raise ValueError("%s: a size plan picks a kernel by n: full reductions only (axis=None), not axis=%d"
                         % (where, axis))
    if spec is not None:
        check_family(where, spec, "reduce_axis", "axis=%d" % axis)
    m, kind, shape = _matrix(a, axis, where)
    fields = {"dtype": a.dtype, "axis": kind}
    if op:
        fields["op"] = op
    if spec is None:
        key = ("axis", device, kind, op or "sum", a.dtype, over)
        k = cached(key, lambda: new_kernel(where, _default_axis(op or "sum", a.dtype, kind), device, overrides),
                   device, s, where)
    else:
        key = ("axis", device, _spec_key(spec), kind, op, a.dtype, over)
        k = cached(key, lambda: new_kernel(where, spec, device, dict(fields, **overrides)), device, s, where)
    want = "rows" if kind == "rows" else "cols"
    if k.spec.fields.get("axis") != want:
        raise ValueError("%s: the kernel reduces %s, not %s" % (where, k.spec.fields.get("axis"), want))
    return _along(k, m, shape, s, where)


_ready = {}  # a call's key -> its _Launch


def _key(a, op, axis, spec, plan, overrides):
    """What makes a call's _Launch: the array's kind, device, dtype, shape and
    strides, op, axis, spec, plan and overrides."""
    return (a.kind, a.device, a.dtype, a.shape, a.strides, op, axis, None if spec is None else _spec_key(spec),
            plan if plan is None or plan is False else _spec_key(plan, "plan"), tuple(sorted(overrides.items())))


SpecLike = Union[str, "os.PathLike[str]", Dict[str, Union[int, str]], Spec]
PlanLike = Union[None, bool, str, "os.PathLike[str]"]


def reduce(x: Any, op: Optional[str] = None, axis: Optional[int] = None, spec: Optional[SpecLike] = None,
           out: Any = None, stream: Any = None, plan: PlanLike = None, root: Optional[int] = None,
           **overrides: Union[int, str]) -> Any:
    """Reduce x with op over all of it (axis None) or along one axis: the last
    (each row of the matrix view, axis=-1 or ndim-1) or the first (each
    column, axis=0); x may have padded rows.

    op: sum, min, max, prod, mean, sumsq, norm2, amax, count_nonzero, any,
    all, argmin, argmax or custom (default: the spec's op, else sum).
    argmin and argmax return ArgResult(values, indices), as torch.max(x,
    dim) does; nan="ignore" skips NaNs (default "propagate": the first NaN
    wins).  op="custom" takes the spec language's expressions as keywords:
    map=, combine=, identity=, post= (combine and identity required).

    The result is a new array in x's framework (or `out`; a pair for
    argmin and argmax) of the type kgen resolves for the op: the
    accumulator's (f32 for f16 and bf16), f64 for a mean or norm2 of
    integers, i64 for count_nonzero, i32 for any and all, unless out_dtype=
    says otherwise.

    spec= chooses the kernel (a path, YAML text, a dict or a kgen.Spec; its
    dtype, op and axis follow x and the call); overrides set its fields.
    plan= takes a size plan (a path or YAML text) for a full reduction;
    without one, a full reduction uses kgen's tuned plan for the op, dtype
    and GPU where it ships one (plan=False: never).

    x may be a list (or tuple) of arrays, one a GPU: all of their elements
    (axis=None) or the columns of the matrix whose rows they hold in order
    (axis=0) reduced across the GPUs with NCCL (libnccl.so.2, loaded then).
    The result is a list, one result a GPU on its GPU (argmin and argmax:
    indices into the whole), or GPU root's alone with root=i (None for the
    others).  No out=, stream= or plan= with a list.
    """
    if _trace.compiling():  # under torch.compile: the custom op kgen::reduce (kgen._torch)
        if type(x) in (list, tuple):  # not traced: a graph break, then the list's own way
            return _many(x, op, axis, spec, out, stream, plan, overrides, root)
        return _trace.reduce(x, op, axis, spec, out, stream, plan, overrides)
    if op is not None and not isinstance(op, str):
        raise TypeError("kgen.reduce: op is a name (one of %s), not %s (%s)"
                        % (", ".join(OPS), _lib.shown(op), type(op).__name__))
    if op in _KEYED:  # the ready tables' key of kgen.argmax's calls, not an op
        raise ValueError("%s: op is one of %s, not %r" % (WHERE, ", ".join(OPS), op))
    if type(x) is _arrays.Tensor and stream is None and spec is None and plan is None and root is None \
            and not overrides:
        if _fast_reduce is not None:  # in C (kgen/_fast.c): NotImplemented for a call it does not take
            r = _fast_reduce(x, op, axis, out)
            if r is not NotImplemented:
                return r
        try:  # torch's fast path in Python (_reduce has it too, for the calls that come that way)
            L = _ready_torch.get((x.dtype, x.shape, x.stride(), x.get_device(), op, axis))
        except TypeError:
            L = None
        if L is not None:
            return L.torch(x, out)
    if type(x) in (list, tuple):
        return _many(x, op, axis, spec, out, stream, plan, overrides, root)
    if root is not None:
        raise TypeError("%s: root= is for a list of arrays on several GPUs" % WHERE)
    return _reduce(x, op, axis, spec, out, stream, plan, overrides)


def _many(xs, op, axis, spec, out, stream, plan, overrides, root):
    """kgen.reduce of a list of arrays, one a GPU (kgen._multi)."""
    from . import _multi  # its ctypes signatures only when a list comes

    if op is not None and op not in OPS:
        raise ValueError("%s: op is one of %s, not %r" % (WHERE, ", ".join(OPS), op))
    refuse_dtype(WHERE, overrides)
    if axis is not None and (isinstance(axis, bool) or not hasattr(axis, "__index__")):
        raise TypeError("kgen.reduce: axis is an int (0 over a list of arrays) or None, not %s %r"
                        % (type(axis).__name__, axis))
    axis = None if axis is None else axis.__index__()  # NumPy's integers too, as for one array

    def default(op, dtype, kind):
        return _default_reduce(op, dtype) if kind is None else _default_axis(op, dtype, kind)
    results = _multi.reduce_many(xs, op, axis, spec, out, stream, plan, overrides, default, root)
    return [ArgResult(*r) if isinstance(r, tuple) else r for r in results]


_packed = _lib.kgen_reduce_packed
_ready_torch = {}  # a plain torch tensor's (dtype, shape, strides, device, op, axis) -> its _Launch


def _reduce(x, op, axis, spec, out, stream, plan, overrides):
    common = stream is None and spec is None and plan is None and not overrides
    if common and type(x) is _arrays.Tensor:  # torch's fast path: the key from the tensor itself
        try:
            tkey = (x.dtype, x.shape, x.stride(), x.get_device(), op, axis)
            L = _ready_torch.get(tkey)
        except TypeError:  # an unhashable axis: the general path says what is wrong
            L = tkey = None
        if L is not None:
            return L.torch(x, out)
    else:
        tkey = None
    a = describe(x, where=WHERE, stream=None if stream is None else stream_address(stream))
    if axis is not None:
        axis = _axis(a, axis)
    if spec is None and plan is None and not overrides:  # the common call: its key at once
        key = (a.kind, a.device, a.dtype, a.shape, a.strides, op, axis)
    else:
        key = _key(a, op, axis, spec, plan, overrides)
    try:
        L = _ready.get(key)
    except TypeError:  # something unhashable: made ready the slow way, each time
        L = key = None
    if L is None:
        if op is not None and op not in OPS:
            raise ValueError("%s: op is one of %s, not %r" % (WHERE, ", ".join(OPS), op))
        s = stream_of(a, stream, WHERE)
        L = _prepare(a, op, axis, spec, plan, overrides, s)
        if key is not None:
            remember(_ready, key, L)
    if tkey is not None and a.kind == "torch" and type(x) is _arrays.Tensor:
        remember(_ready_torch, tkey, L)
        if L.ready is not None:
            remember(_ready_fast, tkey, L.ready)
    return L(a, out, stream)


def reduce_kernel(x: Any, op: Optional[str] = None, axis: Optional[int] = None, spec: Optional[SpecLike] = None,
                  plan: PlanLike = None, stream: Any = None, **overrides: Union[int, str]) -> Kernel:
    """The kgen.Kernel kgen.reduce(x, op, axis, ...) launches (built now if it
    was not), e.g. to see its spec or whether a plan serves it (k.plan)."""
    a = describe(x, where=WHERE, stream=None if stream is None else stream_address(stream))
    axis = _axis(a, axis)
    if op is not None and op not in OPS:
        raise ValueError("%s: op is one of %s, not %r" % (WHERE, ", ".join(OPS), op))
    return _prepare(a, op, axis, spec, plan, overrides, stream_of(a, stream, WHERE)).k


def _run_reduce(k, a, out, stream, where):
    s = stream_of(a, stream, where)  # checked before C is asked anything
    return _full(k, a, s, where)(a, out, stream)


def _run_axis(k, a, out, stream, where):
    nd = len(a.shape)
    if nd < 2:
        raise ValueError("%s: a matrix reduction needs 2 or more dimensions, not %d" % (where, nd))
    s = stream_of(a, stream, where)
    want = k.spec.fields["axis"]
    m, kind, shape = _matrix(a, nd - 1 if want == "rows" else 0, where)
    if kind != want:
        raise ValueError("%s: the kernel reduces %s, not %s" % (where, want, kind))
    return _along(k, m, shape, s, where)(a, out, stream)


RUNNERS["reduce"] = (_run_reduce, 1)


# ---- kgen.argmax and kgen.argmin: the indices alone, as torch.argmax ----

def argmax(x: Any, axis: Optional[int] = None, out: Any = None, stream: Any = None, plan: PlanLike = None,
           spec: Optional[SpecLike] = None, **overrides: Union[int, str]) -> Any:
    """The index of x's largest element (axis None: into x as a flat array),
    or of each row's or column's (axis the last or the first), as
    torch.argmax gives it: a new i64 array in x's framework (or `out`).  The
    first of equal elements wins; the first NaN wins (nan="ignore" skips
    NaNs, giving -1 where all are NaN).  The values are not returned (they
    go to a buffer of kgen's own): kgen.reduce(x, "argmax") gives both.
    spec=, plan= and overrides choose the kernel as for kgen.reduce (the
    spec's op becomes argmax)."""
    return _arg(x, "argmax", axis, out, stream, plan, spec, overrides)


def argmin(x: Any, axis: Optional[int] = None, out: Any = None, stream: Any = None, plan: PlanLike = None,
           spec: Optional[SpecLike] = None, **overrides: Union[int, str]) -> Any:
    """kgen.argmax's counterpart: the index of the smallest element."""
    return _arg(x, "argmin", axis, out, stream, plan, spec, overrides)


# The op in the ready tables' keys of a call that returns the indices alone
# (kgen.reduce refuses it as an op, so that it cannot find those entries).
_INDICES = {"argmax": "argmax indices", "argmin": "argmin indices"}
_KEYED = frozenset(_INDICES.values())


def _arg(x, op, axis, out, stream, plan, spec, overrides):
    where = "kgen." + op
    if _trace.compiling() and out is None and stream is None:  # under torch.compile: kgen::reduce_arg's indices
        return _trace.reduce(x, op, axis, spec, None, None, plan, overrides).indices
    keyed = _INDICES[op]
    tkey = None
    if type(x) is _arrays.Tensor and stream is None and plan is None and spec is None and not overrides:
        if _fast_reduce is not None:
            r = _fast_reduce(x, keyed, axis, out)
            if r is not NotImplemented:
                return r
        try:
            tkey = (x.dtype, x.shape, x.stride(), x.get_device(), keyed, axis)
            L = _ready_torch.get(tkey)
        except TypeError:
            L = tkey = None
        if L is not None:
            return L.torch(x, out)
    a = describe(x, where=where, stream=None if stream is None else stream_address(stream))
    if axis is not None:
        axis = _axis(a, axis, where)
    key = _key(a, keyed, axis, spec, plan, overrides)
    try:
        L = _ready.get(key)
    except TypeError:
        L = key = None
    if L is None:
        if spec is not None:  # before a build, as the other calls refuse another family's spec
            check_family(where, spec, "reduce" if axis is None else "reduce_axis")
        s = stream_of(a, stream, where)
        L = _indices_only(_prepare(a, op, axis, spec, plan, overrides, s, where), s, where)
        if key is not None:
            remember(_ready, key, L)
    if tkey is not None and a.kind == "torch":
        remember(_ready_torch, tkey, L)
        if L.ready is not None:
            remember(_ready_fast, tkey, L.ready)
    return L(a, out, stream)


def _indices_only(P, s, where):
    """A copy of pair launch P whose values go to a device buffer of kgen's
    own (per kernel, grown as shapes need, never freed: graphs may hold it)
    and whose calls return the indices alone."""
    L = _Launch()
    for name in _Launch.__slots__:
        if hasattr(P, name):  # the t_* fields: a torch array's only
            setattr(L, name, getattr(P, name))
    L.where = where
    L.packs = {}
    nbytes = max(_numel(L.shape), 1) * _memory.SIZE[L.dtype]
    L.sink = _memory.scratch(L.device, ("argument values", L.handle), nbytes, s, where)[0]
    L.ready = _fast_ready(L, L.device) if P.ready is not None else None
    return L
RUNNERS["reduce_axis"] = (_run_axis, 1)
