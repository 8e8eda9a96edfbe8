"""kgen.softmax, kgen.log_softmax, kgen.rms_norm, kgen.layer_norm and
kgen.cross_entropy: a `kernel: rows` kernel (one fused pass over each row,
statistics in f32) through kgen_rows().

The rows of an array are its last dimension, every leading dimension
flattened (a 4 x 128 x 1000 array is 512 rows of 1000).  Rows are read
with unit stride and may be padded: their starts evenly spaced, `pitch`
elements apart (a slice x[:, :n] of a wider matrix).  Everything a call
is given is checked before a kernel is built or C is asked (prepare), and
again against the kernel's spec before the launch (launch), since
kgen.Kernel(spec)(x, ...) reaches launch with a kernel built elsewhere.
A call of the same layouts, spec and overrides as an earlier one takes
its checked sizes and kernel from _ready; one of torch tensors with no
out=, stream=, spec= or overrides goes faster still, in C (kgen._fast's
rows(), where the package was built with it), once a call of the same
layouts was made ready here (_fast_rows_ready).
"""
from math import isfinite, prod
import sys
from typing import Any, Optional, Union

from . import _arrays, _lib, _memory, _trace
from ._errors import DimError
from ._arrays import allocator, describe, finish, stream_address
from ._kernel import (RUNNERS, cached, check_family, contiguous, device_text, new_kernel, other_device, refuse_dtype,
                      remember, stream_of)
from ._spec import _err, _spec_key

# The ops of kernel: rows (KGEN_ROW_OPS in gen/spec.h).
OPS = ("softmax", "log_softmax", "rms_norm", "layer_norm", "cross_entropy")
FLOATS = ("f32", "f16", "bf16")
LABELS = ("i32", "i64")
NORMS = ("rms_norm", "layer_norm")
REDUCTIONS = ("none", "mean", "sum")
# The arrays each op takes after x, in the order kgen.Kernel(spec)(x, ...) takes them positionally.
OPERANDS = {"softmax": (), "log_softmax": (), "rms_norm": ("weight",), "layer_norm": ("weight", "bias"),
            "cross_entropy": ("labels",)}
EPS = {"rms_norm": 1e-6, "layer_norm": 1e-5}  # the one-call functions' defaults
LL_MIN, LL_MAX = -2 ** 63, 2 ** 63 - 1


def _need_rows(where):
    if _lib.kgen_rows is None:
        raise NotImplementedError("%s: this libkgen (%s) has no kgen_rows(): build one with the rows family"
                                  % (where, _lib.path))


def rows_of(a, name, where):
    """(rows, cols, pitch) of array a read as rows of its last dimension:
    rows the product of the leading dimensions, pitch the elements between
    the starts of two rows (cols when there is one row).  Refused with
    ValueError: no dimension, a last dimension of stride other than 1, rows
    not evenly spaced (leading dimensions that do not collapse into one),
    rows that overlap."""
    nd = len(a.shape)
    if nd == 0:
        raise ValueError("%s: %s is 0-d: its rows are along its last dimension, so it needs 1 or more dimensions"
                         % (where, name))
    cols = a.shape[-1]
    rows = prod(a.shape[:-1])
    if cols > 1 and a.strides[-1] != 1:
        raise ValueError("%s: %s's rows must be contiguous (its last dimension's stride is %d elements, not 1); "
                         "pass %s.contiguous()" % (where, name, a.strides[-1], name))
    lead = [(n, s) for n, s in zip(a.shape[:-1], a.strides[:-1]) if n != 1]
    if not lead or rows <= 1:
        return rows, cols, cols
    pitch = acc = lead[-1][1]
    for n, s in reversed(lead):
        if s != acc:
            raise ValueError("%s: %s's rows are not evenly spaced (shape %s, strides %s elements): its leading "
                             "dimensions must collapse into one, rows a pitch apart (a 2-D slice x[:, :n] is "
                             "fine); pass %s.contiguous()" % (where, name, tuple(a.shape), tuple(a.strides), name))
        acc *= n
    if pitch < cols:
        raise ValueError("%s: %s's rows overlap: they are %d elements apart and %d long; pass %s.contiguous()"
                         % (where, name, pitch, cols, name))
    return rows, cols, _lib.arg(where, "%s's row pitch" % name, pitch)


class _Call:
    """A call's arrays, checked (Arrays, or None where the op has none),
    its sizes, the result's shape and, for out=, its row pitch; new
    (allocator()'s function of the stream) makes the result where there is
    no out=, once a kernel has said its out_dtype."""
    __slots__ = ("op", "a", "w", "b", "lab", "rows", "cols", "x_pitch", "shape", "out", "o", "y_pitch", "new")

    def again(self, a, w, b, lab, out, o):
        """This call's sizes with the arrays of another call of the same kinds, devices, dtypes and layouts."""
        c = _Call()
        c.op, c.rows, c.cols, c.x_pitch, c.shape, c.y_pitch, c.new = (self.op, self.rows, self.cols, self.x_pitch,
                                                                    self.shape, self.y_pitch, self.new)
        c.a, c.w, c.b, c.lab, c.out, c.o = a, w, b, lab, out, o
        return c


def _check_vector(where, name, v, a, cols):
    if v.dtype not in FLOATS:
        raise TypeError("%s: %s is %s: the weight and bias are f32, f16 or bf16" % (where, name, v.dtype))
    if len(v.shape) != 1 or v.shape[0] != cols:
        raise ValueError("%s: %s has shape %s: it must be a 1-D array of %d elements, one for each element of a "
                         "row of x (x's last dimension)" % (where, name, tuple(v.shape), cols))
    if cols > 1 and v.strides[0] != 1:
        raise ValueError("%s: %s must be contiguous (its stride is %d elements); pass %s.contiguous()"
                         % (where, name, v.strides[0], name))
    if other_device(v, a):
        raise ValueError("%s: %s is on GPU %s and x on GPU %s: both must be on one device"
                         % (where, name, v.device, a.device))


def prepare(where, op, a, w, b, lab, out, o):
    """The _Call of op on Array a (with weight w, bias b, labels lab: Arrays
    or None; out: the caller's out= or None, o its Array), every array
    checked."""
    c = _Call()
    c.op, c.a, c.w, c.b, c.lab, c.out, c.o, c.y_pitch, c.new = op, a, w, b, lab, out, o, 0, None
    x = "logits" if op == "cross_entropy" else "x"
    if a.dtype not in FLOATS:
        raise TypeError("%s: %s is %s: kernel: rows reads f32, f16 or bf16" % (where, x, a.dtype))
    c.rows, c.cols, c.x_pitch = rows_of(a, x, where)
    if op in NORMS:
        for v, name in ((w, "weight"), (b, "bias")):
            if v is not None:
                _check_vector(where, name, v, a, c.cols)
        if w is not None and b is not None and w.dtype != b.dtype:
            raise TypeError("%s: weight is %s and bias is %s: both must be of one dtype (the kernel's weight_dtype)"
                            % (where, w.dtype, b.dtype))
    c.shape = tuple(a.shape)
    if op == "cross_entropy":
        c.shape = tuple(a.shape[:-1])
        if lab.dtype not in LABELS:
            raise TypeError("%s: labels are %s: they are class indices, int32 or int64 (i32, i64)"
                            % (where, lab.dtype))
        if tuple(lab.shape) != c.shape and tuple(lab.shape) != (c.rows,):
            raise ValueError("%s: labels have shape %s: one label a row of logits, shape %s%s"
                             % (where, tuple(lab.shape), c.shape,
                                " (or (%d,))" % c.rows if c.shape != (c.rows,) else ""))
        if not contiguous(lab):
            raise ValueError("%s: labels must be contiguous (strides %s elements); pass labels.contiguous()"
                             % (where, tuple(lab.strides)))
        if other_device(lab, a):
            raise ValueError("%s: labels are on GPU %s and logits on GPU %s: both must be on one device"
                             % (where, lab.device, a.device))
        if c.cols == 0 and c.rows:
            raise ValueError("%s: logits have 0 classes (shape %s): there is no loss to take" % (where, tuple(a.shape)))
    if o is not None:
        if o.readonly:
            raise ValueError("%s: out is read-only (%s arrays cannot be written): leave out= unset" % (where, o.kind))
        if o.dtype not in FLOATS:
            raise TypeError("%s: out is %s: kernel: rows writes f32, f16 or bf16" % (where, o.dtype))
        if tuple(o.shape) != c.shape or other_device(o, a):
            raise ValueError("%s: out must be an array of shape %s on %s's device, not %s%s"
                             % (where, c.shape, x, tuple(o.shape), device_text(o, a, x)))
        if op == "cross_entropy":
            if not contiguous(o):
                raise ValueError("%s: out (the losses) must be contiguous, not strides %s" % (where, tuple(o.strides)))
            c.y_pitch = 0
        else:
            c.y_pitch = rows_of(o, "out", where)[2]
    return c


def spec_fields(op, dtype, out_dtype, weight_dtype, label_dtype):
    """The fields a call sets on its spec: op and dtype; out_dtype when out=
    gives one; weight_dtype for the norms when a weight or bias gives one;
    label_dtype for cross_entropy (libkgen refuses the last two for the
    ops without a weight or labels)."""
    f = {"op": op, "dtype": dtype}
    if out_dtype is not None:
        f["out_dtype"] = out_dtype
    if op in NORMS and weight_dtype is not None:
        f["weight_dtype"] = weight_dtype
    if op == "cross_entropy":
        f["label_dtype"] = label_dtype
    return f


def _call_fields(c):
    w = c.w if c.w is not None else c.b
    return spec_fields(c.op, c.a.dtype, None if c.o is None else c.o.dtype, None if w is None else w.dtype,
                       None if c.lab is None else c.lab.dtype)


def check_eps(where, eps):
    """eps as a C double: a real, finite number (not a bool)."""
    if type(eps) is float:
        f = eps
    elif isinstance(eps, (bool, complex)) or not (isinstance(eps, (int, float)) or hasattr(eps, "__float__")):
        raise TypeError("%s: eps is a real number, not %s (%s)" % (where, _lib.shown(eps), type(eps).__name__))
    else:
        f = float(eps)
    if not isfinite(f) or f < 0:
        raise ValueError("%s: eps must be finite and not negative, not %r" % (where, f))
    return f


def check_ignore_index(where, v):
    """ignore_index as a C long long: an int (not a bool) from -2^63 to 2^63-1."""
    if type(v) is int:  # the common case first: plain code that Dynamo traces as it is
        i = v
    elif isinstance(v, bool) or not hasattr(v, "__index__"):
        raise TypeError("%s: ignore_index is an int, not %s (%s)" % (where, _lib.shown(v), type(v).__name__))
    else:
        i = v.__index__()
    if not LL_MIN <= i <= LL_MAX:
        raise ValueError("%s: ignore_index must be an int from %d to %d, not %s" % (where, LL_MIN, LL_MAX,
                                                                                  _lib.shown(i)))
    return i


def check_dim(where, ndim, dim):
    """softmax and log_softmax take rows along the last dimension only: dim
    -1 or ndim - 1; any other is a ValueError saying so."""
    if type(dim) is int:
        d = dim
    elif isinstance(dim, bool) or not hasattr(dim, "__index__"):
        raise TypeError("%s: dim is an int, not %s (%s)" % (where, _lib.shown(dim), type(dim).__name__))
    else:
        d = dim.__index__()
    if ndim and not -ndim <= d < ndim:
        raise DimError("%s: dim %d is out of range for %d dimensions" % (where, d, ndim))
    if ndim and d % ndim != ndim - 1:
        raise ValueError("%s: rows along the last dimension only (dim=-1 or dim=%d), not dim=%d: move that "
                         "dimension last first (x.movedim(%d, -1).contiguous(), then the result's back)"
                         % (where, ndim - 1, d, d))


def check_reduction(where, reduction, kind=None):
    """reduction for cross_entropy: none, mean or sum; mean and sum are taken
    with the array library's own sum (torch, CuPy, JAX), so need one."""
    if reduction not in REDUCTIONS:
        raise ValueError("%s: reduction is 'none', 'mean' or 'sum', not %s" % (where, _lib.shown(reduction)))
    if reduction != "none" and kind is not None and kind not in ("torch", "cupy", "jax"):
        raise ValueError("%s: reduction=%r sums the losses with the array library's own sum (torch, CuPy, JAX); "
                         "for %s arrays take reduction='none' and sum the losses" % (where, reduction, kind))


def reduce_losses(loss, labels, ignore_index, reduction, kind):
    """torch's reduction of cross_entropy's losses, in loss's framework: the
    sum (in f32) of the losses, or for mean that sum over the rows whose
    label is not ignore_index divided by their count (NaN for none, as
    torch), in the losses' dtype."""
    if kind == "torch":
        torch = sys.modules["torch"]
        total = loss.sum(dtype=torch.float32)
        if reduction == "mean":
            total = total / (labels != ignore_index).sum()
        return total.to(loss.dtype)
    total = loss.astype("float32").sum()
    if reduction == "mean":
        total = total / (labels != ignore_index).sum()
    return total.astype(loss.dtype)


def _on_stream(a, s):
    """A context in which a's framework (torch or CuPy) works on stream address s."""
    if a.kind == "torch":
        torch = sys.modules["torch"]
        return torch.cuda.stream(torch.cuda.ExternalStream(s, device=a.obj.device))
    import cupy
    return cupy.cuda.ExternalStream(s)


def launch(k, c, stream, eps, ignore_index, where):
    """kgen_rows() of kernel k on the checked call c: the result (a new
    array in x's framework, or out)."""
    _need_rows(where)
    f = k.spec.fields
    if f.get("op") != c.op:
        raise ValueError("%s: the kernel computes op %s, not %s" % (where, f.get("op"), c.op))
    if c.a.dtype != f["dtype"]:
        x = "logits" if c.op == "cross_entropy" else "x"
        raise TypeError("%s: the kernel reads %s, %s is %s" % (where, f["dtype"], x, c.a.dtype))
    out_dtype = f["out_dtype"]
    if c.o is not None and c.o.dtype != out_dtype:
        raise TypeError("%s: the kernel writes %s, out is %s" % (where, out_dtype, c.o.dtype))
    for v, name in ((c.w, "weight"), (c.b, "bias")):
        if v is not None and v.dtype != f["weight_dtype"]:
            raise TypeError("%s: the kernel reads a %s weight and bias (weight_dtype), %s is %s"
                            % (where, f["weight_dtype"], name, v.dtype))
    if c.lab is not None and c.lab.dtype != f["label_dtype"]:
        raise TypeError("%s: the kernel reads %s labels (label_dtype), labels are %s"
                        % (where, f["label_dtype"], c.lab.dtype))
    s = stream_of(c.a, stream, where)
    if c.out is None:
        if c.new is None:
            c.new = allocator(c.a, c.shape, out_dtype, where)
        res, optr = c.new(s)
        y_pitch = c.cols
    else:
        res, optr, y_pitch = c.out, c.o.ptr, c.y_pitch
    if c.rows and c.cols:  # else nothing to launch (an empty array's address may be 0, which C refuses)
        args = _lib.RowsArgs()
        args.x = _lib.arg(where, "x's address", c.a.ptr)
        if c.op == "cross_entropy":
            args.labels = _lib.arg(where, "labels' address", c.lab.ptr)
            args.loss = _lib.arg(where, "out's address", optr)
        else:
            args.y = _lib.arg(where, "out's address", optr)
            args.y_pitch = y_pitch
            if c.w is not None:
                args.weight = _lib.arg(where, "weight's address", c.w.ptr)
            if c.b is not None:
                args.bias = _lib.arg(where, "bias' address", c.b.ptr)
        args.rows = _lib.arg(where, "rows", c.rows)
        args.cols = _lib.arg(where, "cols", c.cols)
        args.x_pitch = c.x_pitch
        args.eps = eps
        args.ignore_index = ignore_index
        err = _err()
        st = _lib.kgen_rows(k._handle, _lib.ctypes.byref(args), s, _lib.ctypes.byref(err))
        _lib.check(st, err)
        keep = tuple(v.keep for v in (c.a, c.w, c.b, c.lab) if v is not None and v.keep is not None)
        if keep:
            _memory.hold(c.a.device or 0, s, keep)
    return res if c.out is not None else finish(c.a, res)


def _run_rows(k, a, out, stream, where, *operands, weight=None, bias=None, labels=None, eps=None,
              ignore_index=None):
    """kgen.Kernel(spec)(x, ...) of a rows kernel: k(x) for softmax and
    log_softmax, k(x, weight=None, eps=...) for rms_norm, k(x, weight=None,
    bias=None, eps=...) for layer_norm, k(logits, labels, ignore_index=-100)
    for cross_entropy (the losses, one a row); the arrays after x
    positionally or by name, out= and stream= as for the one-call
    functions."""
    op = k.spec.fields["op"]
    names = OPERANDS[op]
    if len(operands) > len(names):
        raise TypeError("%s: a rows kernel of op %s is called as k(x%s, out=None, stream=None%s), not with %d arrays "
                        "after x" % (where, op, "".join(", " + n for n in names),
                                     ", eps=..." if op in NORMS else ", ignore_index=-100" if names else "",
                                     len(operands)))
    given = {"weight": weight, "bias": bias, "labels": labels}
    for name, v in zip(names, operands):
        if given[name] is not None:
            raise TypeError("%s: %s given twice (positionally and by name)" % (where, name))
        given[name] = v
    for name, v in given.items():
        if v is not None and name not in names:
            raise TypeError("%s: op %s takes no %s" % (where, op, name))
    if op == "cross_entropy" and given["labels"] is None:
        raise TypeError("%s: a cross_entropy kernel takes the labels: k(logits, labels)" % where)
    if eps is not None and op not in NORMS:
        raise TypeError("%s: op %s takes no eps (rms_norm's and layer_norm's)" % (where, op))
    if ignore_index is not None and op != "cross_entropy":
        raise TypeError("%s: op %s takes no ignore_index (cross_entropy's)" % (where, op))
    sa = None if stream is None else stream_address(stream)
    arrays = {n: None if v is None else describe(v, n, where, sa) for n, v in given.items()}
    o = None if out is None else describe(out, "out", where)
    c = prepare(where, op, a, arrays["weight"], arrays["bias"], arrays["labels"], out, o)
    return launch(k, c, stream, check_eps(where, EPS.get(op, 0.0) if eps is None else eps),
                  check_ignore_index(where, -100 if ignore_index is None else ignore_index), where)


_ready = {}  # a call's layouts, spec and overrides -> (its kernel, its checked _Call)
_ready_fast = {}  # (op, x's, the weight's and the bias' torch layouts) -> kgen._fast.RowsReady
_fast_rows = _lib.fast.rows if _lib.fast is not None and _lib.kgen_rows is not None else None
_fast_cross_entropy = _lib.fast.cross_entropy if _fast_rows is not None else None
_fast_set = False


def _torch_layout(t):
    """A torch tensor's part of a fast call's key, as kgen._fast.rows builds it."""
    return None if t is None else (t.dtype, t.shape, t.stride(), t.get_device())


def _fast_rows_ready(op, x, weight, bias, k, c):
    """Make a call like this one (torch tensors, a new result) ready for
    kgen._fast.rows (cross_entropy's, reduction 'none': for
    kgen._fast.cross_entropy, its labels as the weight): its kernel, sizes
    and a tensor to make results from, or where the result has x's dtype
    and shape, torch.empty_like(x) (a microsecond less than new_empty a
    call on an H100, bench/results/nvidia-h100/2026-12-06-rows-host: x's
    rows are contiguous and evenly spaced, so empty_like gives rows cols
    apart, dense or padded)."""
    global _fast_set
    if not _fast_set:
        from . import _reduce
        _reduce.fast_entry()
        _lib.fast.set_rows(_lib.ctypes.cast(_lib.kgen_rows, _lib.ctypes.c_void_p).value, _ready_fast)
        _fast_set = True
    like = _arrays.result_template(k.spec.fields["out_dtype"], x)
    same = op != "cross_entropy" and k.spec.fields["out_dtype"] == c.a.dtype and tuple(c.shape) == tuple(x.shape)
    remember(_ready_fast, (op, _torch_layout(x), _torch_layout(weight), _torch_layout(bias)), _lib.fast.RowsReady(
        k._handle, c.rows, c.cols, c.x_pitch, c.a.device or 0, like, tuple(c.shape), op == "cross_entropy", k, False,
        sys.modules["torch"].empty_like if same else None))


def _layout(v):
    """What a call's checks read of an Array (None: no array)."""
    if v is None:
        return None
    return (v.kind, v.device, v.dtype, tuple(v.shape), tuple(v.strides), v.readonly)


def _rows(op, x, weight=None, bias=None, labels=None, dim=-1, eps=0.0, ignore_index=-100, reduction="none", out=None,
          stream=None, spec=None, overrides={}):
    """The one-call functions' work, once torch.compile is out of the way."""
    where = "kgen." + op
    refuse_dtype(where, overrides)
    sa = None if stream is None else stream_address(stream)
    a = describe(x, "logits" if op == "cross_entropy" else "input", where, sa)
    if op in ("softmax", "log_softmax"):
        check_dim(where, len(a.shape), dim)
    w = describe(weight, "weight", where, sa) if weight is not None else None
    b = describe(bias, "bias", where, sa) if bias is not None else None
    lab = describe(labels, "labels", where, sa) if labels is not None else None
    if op == "cross_entropy":
        if lab is None:
            raise TypeError("%s: labels are needed (one class index a row)" % where)
        if reduction != "none" and out is not None:
            raise ValueError("%s: out= holds the losses of reduction='none'; reduction=%s returns a new 0-d array"
                             % (where, _lib.shown(reduction)))
        check_reduction(where, reduction, a.kind)
    o = describe(out, "out", where) if out is not None else None
    eps = check_eps(where, eps)
    ignore_index = check_ignore_index(where, ignore_index)
    # A call like one made before (its arrays of the same kinds, devices,
    # dtypes and layouts, the same spec and overrides) takes that one's
    # checked sizes, kernel and result allocator.
    try:
        key = (op, _layout(a), _layout(w), _layout(b), _layout(lab), _layout(o),
               None if spec is None else _spec_key(spec), tuple(sorted(overrides.items())) if overrides else ())
        got = _ready.get(key)
    except TypeError:  # something unhashable (an override's value): the spec layer says what
        key = got = None
    if got is not None:
        k, c = got[0], got[1].again(a, w, b, lab, out, o)
    else:
        c = prepare(where, op, a, w, b, lab, out, o)
        fields = _call_fields(c)
        device = a.device or 0
        s = stream_of(a, stream, where)
        if spec is not None:
            check_family(where, spec, "rows")
        kkey = ("rows", device, None if spec is None else _spec_key(spec), tuple(fields.items()),
                tuple(sorted(overrides.items())))
        base = {"kernel": "rows"} if spec is None else spec
        k = cached(kkey, lambda: new_kernel(where, base, device, dict(fields, **overrides)), device, s, where)
        if out is None and k.spec.fields.get("out_dtype") in FLOATS:
            c.new = allocator(a, c.shape, k.spec.fields["out_dtype"], where)
        if key is not None:
            remember(_ready, key, (k, c.again(None, None, None, None, None, None)))  # no array kept alive
        if (_fast_rows is not None and a.kind == "torch" and reduction == "none" and out is None and stream is None
                and spec is None and not overrides and c.rows and c.cols and type(x) is _arrays.Tensor
                and (weight is None or type(weight) is _arrays.Tensor) and (bias is None or type(bias) is _arrays.Tensor)
                and (labels is None or type(labels) is _arrays.Tensor)):
            _fast_rows_ready(op, x, labels if op == "cross_entropy" else weight, bias, k, c)
    r = launch(k, c, stream, eps, ignore_index, where)
    if op == "cross_entropy" and reduction != "none":
        if stream is None or a.kind == "jax":  # the framework's current stream, kgen's too; JAX orders its own
            return reduce_losses(r, lab.obj, ignore_index, reduction, a.kind)
        with _on_stream(a, stream_of(a, stream, where)):  # the sums after the losses, on the stream given
            return reduce_losses(r, lab.obj, ignore_index, reduction, a.kind)
    return r


Spec = Union[str, dict, Any]


def softmax(x: Any, dim: int = -1, out: Any = None, stream: Any = None, spec: Optional[Spec] = None,
            **overrides: Union[int, str]) -> Any:
    """exp(x - max) / sum(exp(x - max)) along x's last dimension (torch.softmax(x, -1)):
    a new array of x's shape and dtype (or the spec's out_dtype) in x's
    framework, or out (its dtype sets out_dtype; out=x works in place).
    x: f32, f16 or bf16, rows contiguous, evenly spaced (they may be
    padded).  dim must be the last (-1 or x.ndim - 1): another is a
    ValueError.  spec= chooses the kernel (a path, YAML text, a dict or a
    kgen.Spec of kernel: rows; op and dtype follow the call), overrides
    set its fields (strategy="online", vectors=8, ...)."""
    if _trace.compiling():  # under torch.compile: the custom op kgen::softmax (kgen._torch)
        return _trace.rows("softmax", x, dim=dim, out=out, stream=stream, spec=spec, overrides=overrides)
    if type(x) is _arrays.Tensor and _fast_rows is not None and dim == -1 and out is None and stream is None \
            and spec is None and not overrides:  # in C (kgen/_fast.c): NotImplemented for a call it does not take
        r = _fast_rows("softmax", x, None, None, 0.0)
        if r is not NotImplemented:
            return r
    return _rows("softmax", x, dim=dim, out=out, stream=stream, spec=spec, overrides=overrides)


def log_softmax(x: Any, dim: int = -1, out: Any = None, stream: Any = None, spec: Optional[Spec] = None,
                **overrides: Union[int, str]) -> Any:
    """x - max - log(sum(exp(x - max))) along x's last dimension
    (torch.log_softmax(x, -1)); the rest as kgen.softmax."""
    if _trace.compiling():
        return _trace.rows("log_softmax", x, dim=dim, out=out, stream=stream, spec=spec, overrides=overrides)
    if type(x) is _arrays.Tensor and _fast_rows is not None and dim == -1 and out is None and stream is None \
            and spec is None and not overrides:
        r = _fast_rows("log_softmax", x, None, None, 0.0)
        if r is not NotImplemented:
            return r
    return _rows("log_softmax", x, dim=dim, out=out, stream=stream, spec=spec, overrides=overrides)


def rms_norm(x: Any, weight: Any = None, eps: float = 1e-6, out: Any = None, stream: Any = None,
             spec: Optional[Spec] = None, **overrides: Union[int, str]) -> Any:
    """x / sqrt(mean(x^2) + eps) * weight over x's last dimension
    (torch.nn.functional.rms_norm(x, x.shape[-1:], weight, eps)): weight a
    1-D array of x.shape[-1] elements (f32, f16 or bf16: the kernel's
    weight_dtype), or None (ones).  The result as for kgen.softmax."""
    if _trace.compiling():
        return _trace.rows("rms_norm", x, weight=weight, eps=eps, out=out, stream=stream, spec=spec,
                           overrides=overrides)
    if type(x) is _arrays.Tensor and _fast_rows is not None and out is None and stream is None and spec is None \
            and not overrides:
        r = _fast_rows("rms_norm", x, weight, None, eps)
        if r is not NotImplemented:
            return r
    return _rows("rms_norm", x, weight=weight, eps=eps, out=out, stream=stream, spec=spec, overrides=overrides)


def layer_norm(x: Any, weight: Any = None, bias: Any = None, eps: float = 1e-5, out: Any = None, stream: Any = None,
               spec: Optional[Spec] = None, **overrides: Union[int, str]) -> Any:
    """(x - mean) / sqrt(var + eps) * weight + bias over x's last dimension,
    var biased (torch.nn.functional.layer_norm(x, x.shape[-1:], weight,
    bias, eps)): weight and bias 1-D arrays of x.shape[-1] elements of one
    dtype, or None (ones, zeros).  The result as for kgen.softmax."""
    if _trace.compiling():
        return _trace.rows("layer_norm", x, weight=weight, bias=bias, eps=eps, out=out, stream=stream, spec=spec,
                           overrides=overrides)
    if type(x) is _arrays.Tensor and _fast_rows is not None and out is None and stream is None and spec is None \
            and not overrides:
        r = _fast_rows("layer_norm", x, weight, bias, eps)
        if r is not NotImplemented:
            return r
    return _rows("layer_norm", x, weight=weight, bias=bias, eps=eps, out=out, stream=stream, spec=spec,
                 overrides=overrides)


def cross_entropy(logits: Any, labels: Any, ignore_index: int = -100, reduction: str = "none", out: Any = None,
                  stream: Any = None, spec: Optional[Spec] = None, **overrides: Union[int, str]) -> Any:
    """The cross-entropy loss of each row of logits (classes along the last
    dimension) against its label: logsumexp(row) - row[label], 0 where the
    label is ignore_index, NaN where it is outside 0..classes-1 (torch
    raises there).  labels: int32 or int64, one a row (shape
    logits.shape[:-1], or (rows,)).  reduction='none' returns the losses
    (shape logits.shape[:-1], logits' dtype or the spec's out_dtype; out=
    takes them); 'sum' their sum and 'mean' their mean over the rows not
    ignored (as torch.nn.functional.cross_entropy), a 0-d array, summed in
    f32 by the array library (torch, CuPy or JAX)."""
    if _trace.compiling():
        return _trace.rows("cross_entropy", logits, labels=labels, ignore_index=ignore_index, reduction=reduction,
                           out=out, stream=stream, spec=spec, overrides=overrides)
    if type(logits) is _arrays.Tensor and _fast_rows is not None and reduction == "none" and out is None \
            and stream is None and spec is None and not overrides:
        r = _fast_cross_entropy(logits, labels, ignore_index)
        if r is not NotImplemented:
            return r
    return _rows("cross_entropy", logits, labels=labels, ignore_index=ignore_index, reduction=reduction, out=out,
                 stream=stream, spec=spec, overrides=overrides)


RUNNERS["rows"] = (_run_rows, 2)
