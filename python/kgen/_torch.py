"""kgen's calls as torch custom ops, so that a model calling kgen.reduce,
kgen.transpose, kgen.matmul or the rows functions (kgen.softmax, ...)
compiles under torch.compile without a graph break: kgen::reduce,
kgen::reduce_arg (argmin and argmax: values and indices),
kgen::transpose, kgen::matmul, kgen::scan, kgen::softmax, kgen::log_softmax,
kgen::rms_norm, kgen::layer_norm and kgen::cross_entropy (the losses, one
a row; a reduction is torch's sum after it), each with a fake (meta)
implementation that gives the result's shape and dtype without a GPU.

Registered when kgen is imported after torch, or at the first torch tensor
kgen meets (torch.library.custom_op needs torch 2.4 or later; with an
older torch nothing is registered and compiled code breaks the graph at
kgen's calls, as before).  While Dynamo traces, kgen.reduce(x, ...) calls
torch.ops.kgen.reduce(...) (kgen._trace); a call the ops cannot express
(out=, stream=, a spec that is not a str, op left to a spec) runs as it is,
which breaks the graph there.  The ops' arguments are those of the calls:
spec a path or YAML text ("" none), plan a path or YAML text ("" kgen's
choice, "off" none), overrides as one text of KEY=VALUE
lines ("" none: torch's schemas take no list of str, and Dynamo traces no
json).
"""
import functools
import os
from typing import Optional, Tuple

from . import _trace
from ._kernel import PAIRS

_done = False


def _overrides(options):
    """The keys and values an op's options text carries, in order: one
    KEY=VALUE a line ("" none)."""
    return dict(line.split("=", 1) for line in options.split("\n")) if options else {}


def _plan_arg(plan):
    return None if plan == "" else False if plan == "off" else plan


def _plan_text(plan):
    return "" if plan is None else "off" if plan is False else os.fspath(plan)


@functools.lru_cache(maxsize=None)
def _reduce_dtype(dtype, op, has_axis, spec, plan, options):
    """The kgen dtype of a reduction's result (the values' for argmin and
    argmax), as the spec the call builds resolves it: read on the CPU.  Only
    whether there is an axis matters (a traced axis may be a SymInt, which
    the cache cannot hash)."""
    axis = "rows" if has_axis else None
    from ._plans import Loaded
    from ._reduce import WHERE, _default_axis, _default_reduce
    from ._spec import check
    overrides = _overrides(options)
    if plan not in ("", "off") and axis is None:
        fields = Loaded(plan, WHERE).entries[0][1].fields
    elif spec:
        fields = {"dtype": dtype}
        if op:
            fields["op"] = op
        if axis is not None:
            fields["axis"] = "rows"
        fields = check(spec, **dict(fields, **overrides)).fields
    elif axis is None:
        fields = check(_default_reduce(op or "sum", dtype), **overrides).fields
    else:
        fields = check(_default_axis(op or "sum", dtype, "rows"), **overrides).fields
    return fields.get("out_dtype", fields.get("acc_dtype", dtype))


def _reduce_shape(shape, axis):
    nd = len(shape)
    if axis is None or nd <= 1:
        return ()
    axis %= nd
    return tuple(shape[:-1]) if axis == nd - 1 else tuple(shape[1:])


@functools.lru_cache(maxsize=None)
def _matmul_dtype(dtype, spec, options):
    from ._spec import check
    fields = _overrides(options)
    base = spec or {"kernel": "matmul"}
    out = check(base, **dict({"dtype": dtype}, **fields)).fields.get("out_dtype", dtype)
    return out if out in ("f32", "f64", "f16", "bf16") else dtype


@functools.lru_cache(maxsize=None)
def _rows_dtype(op, dtype, weight_dtype, label_dtype, spec, options):
    """The kgen dtype of a rows op's result (out_dtype), as the spec the call
    builds resolves it: read on the CPU."""
    from ._rows import spec_fields
    from ._spec import check
    fields = spec_fields(op, dtype, None, weight_dtype, label_dtype)
    return check(spec or {"kernel": "rows"}, **dict(fields, **_overrides(options))).fields["out_dtype"]


def _scan_dtype(dtype, op, exclusive, spec, options):
    """The kgen dtype of a scan's result (out_dtype), as the spec the call
    builds resolves it: read on the CPU."""
    from ._spec import check
    fields = {"dtype": dtype, "op": op, "mode": "exclusive" if exclusive else "inclusive"}
    return check(spec or {"kernel": "scan"}, **dict(fields, **_overrides(options))).fields["out_dtype"]


def register():
    """Register the custom ops (once; nothing without torch.library.custom_op)."""
    global _done
    if _done:
        return
    _done = True
    import torch
    if not hasattr(torch, "library") or not hasattr(torch.library, "custom_op"):
        return
    from . import _arrays, _matmul, _reduce, _rows, _scan, _transpose
    Tensor = torch.Tensor

    def kgen_dtype(t):
        return _arrays._torch_dtype(t)

    def torch_of(name):
        return _arrays.torch_dtype(name)

    @torch.library.custom_op("kgen::reduce", mutates_args=())
    def reduce_op(x: Tensor, op: str, axis: Optional[int], spec: str, plan: str, options: str) -> Tensor:
        return _reduce._reduce(x, op or None, axis, spec or None, None, None, _plan_arg(plan), _overrides(options))

    @reduce_op.register_fake
    def _(x, op, axis, spec, plan, options):
        dt = _reduce_dtype(kgen_dtype(x), op, axis is not None, spec, plan, options)
        return x.new_empty(_reduce_shape(x.shape, axis), dtype=torch_of(dt))

    @torch.library.custom_op("kgen::reduce_arg", mutates_args=())
    def reduce_arg_op(x: Tensor, op: str, axis: Optional[int], spec: str, plan: str,
                      options: str) -> Tuple[Tensor, Tensor]:
        r = _reduce._reduce(x, op or None, axis, spec or None, None, None, _plan_arg(plan), _overrides(options))
        return r.values, r.indices

    @reduce_arg_op.register_fake
    def _(x, op, axis, spec, plan, options):
        dt = _reduce_dtype(kgen_dtype(x), op, axis is not None, spec, plan, options)
        shape = _reduce_shape(x.shape, axis)
        return x.new_empty(shape, dtype=torch_of(dt)), x.new_empty(shape, dtype=torch.int64)

    @torch.library.custom_op("kgen::transpose", mutates_args=())
    def transpose_op(x: Tensor, spec: str, options: str) -> Tensor:
        return _transpose._transpose(x, spec or None, None, None, _overrides(options))

    @transpose_op.register_fake
    def _(x, spec, options):
        shape = list(x.shape)
        shape[-2], shape[-1] = shape[-1], shape[-2]
        return x.new_empty(shape)

    @torch.library.custom_op("kgen::matmul", mutates_args=())
    def matmul_op(a: Tensor, b: Tensor, alpha: float, spec: str, options: str) -> Tensor:
        r = _matmul._matmul(a, b, None, spec or None, alpha, 0.0, None, _overrides(options))
        if isinstance(r, tuple):  # a spec= with aux, row_reduce or col_reduce: more than C
            raise NotImplementedError("kgen.matmul under torch.compile: this spec returns more than C (aux, "
                                      "row_reduce or col_reduce), which kgen::matmul cannot yet: call it outside "
                                      "the compiled region")
        return r

    @matmul_op.register_fake
    def _(a, b, alpha, spec, options):
        dt = _matmul_dtype(kgen_dtype(a), spec, options)
        return a.new_empty((a.shape[0], b.shape[1]), dtype=torch_of(dt))

    # The scan family: kgen::scan, the prefixes of a vector.
    @torch.library.custom_op("kgen::scan", mutates_args=())
    def scan_op(x: Tensor, op: str, exclusive: bool, spec: str, options: str) -> Tensor:
        return _scan._scan(x, op, None, exclusive, spec or None, None, None, _overrides(options))

    @scan_op.register_fake
    def _(x, op, exclusive, spec, options):
        return x.new_empty(x.shape, dtype=torch_of(_scan_dtype(kgen_dtype(x), op, exclusive, spec, options)))

    # The rows family: kgen::softmax, kgen::log_softmax, kgen::rms_norm,
    # kgen::layer_norm and kgen::cross_entropy (the losses, one a row: a
    # reduction is taken after it, in torch ops the graph holds).
    def rows_fake(op, x, w, label, spec, options):
        dt = _rows_dtype(op, kgen_dtype(x), None if w is None else kgen_dtype(w),
                         None if label is None else kgen_dtype(label), spec, options)
        shape = x.shape[:-1] if op == "cross_entropy" else x.shape
        return x.new_empty(shape, dtype=torch_of(dt))

    @torch.library.custom_op("kgen::softmax", mutates_args=())
    def softmax_op(x: Tensor, spec: str, options: str) -> Tensor:
        return _rows._rows("softmax", x, spec=spec or None, overrides=_overrides(options))

    @softmax_op.register_fake
    def _(x, spec, options):
        return rows_fake("softmax", x, None, None, spec, options)

    @torch.library.custom_op("kgen::log_softmax", mutates_args=())
    def log_softmax_op(x: Tensor, spec: str, options: str) -> Tensor:
        return _rows._rows("log_softmax", x, spec=spec or None, overrides=_overrides(options))

    @log_softmax_op.register_fake
    def _(x, spec, options):
        return rows_fake("log_softmax", x, None, None, spec, options)

    @torch.library.custom_op("kgen::rms_norm", mutates_args=())
    def rms_norm_op(x: Tensor, weight: Optional[Tensor], eps: float, spec: str, options: str) -> Tensor:
        return _rows._rows("rms_norm", x, weight=weight, eps=eps, spec=spec or None, overrides=_overrides(options))

    @rms_norm_op.register_fake
    def _(x, weight, eps, spec, options):
        return rows_fake("rms_norm", x, weight, None, spec, options)

    @torch.library.custom_op("kgen::layer_norm", mutates_args=())
    def layer_norm_op(x: Tensor, weight: Optional[Tensor], bias: Optional[Tensor], eps: float, spec: str,
                      options: str) -> Tensor:
        return _rows._rows("layer_norm", x, weight=weight, bias=bias, eps=eps, spec=spec or None,
                           overrides=_overrides(options))

    @layer_norm_op.register_fake
    def _(x, weight, bias, eps, spec, options):
        return rows_fake("layer_norm", x, weight if weight is not None else bias, None, spec, options)

    @torch.library.custom_op("kgen::cross_entropy", mutates_args=())
    def cross_entropy_op(logits: Tensor, labels: Tensor, ignore_index: int, spec: str, options: str) -> Tensor:
        return _rows._rows("cross_entropy", logits, labels=labels, ignore_index=ignore_index, spec=spec or None,
                           overrides=_overrides(options))

    @cross_entropy_op.register_fake
    def _(logits, labels, ignore_index, spec, options):
        return rows_fake("cross_entropy", logits, None, labels, spec, options)

    def options(overrides):
        # Plain string operations, which Dynamo traces (it cannot trace json).
        pairs = [str(k) + "=" + str(v) for k, v in overrides.items()]
        for p in pairs:
            if "\n" in p:
                raise ValueError("kgen: an override traced by torch.compile cannot hold a newline: %r" % p)
        return "\n".join(pairs)

    def traced_reduce(x, op, axis, spec, out, stream, plan, overrides):
        if (out is not None or stream is not None or not isinstance(x, Tensor) or not isinstance(spec, (str, type(None)))
                or (op is None and spec is not None) or not isinstance(plan, (str, os.PathLike, type(None), bool))
                or plan is True):
            return _reduce._reduce(x, op, axis, spec, out, stream, plan, overrides)  # as it is: a graph break
        args = (x, op or "", axis, spec or "", _plan_text(plan), options(overrides))
        if op in PAIRS:
            v, i = torch.ops.kgen.reduce_arg(*args)
            return _reduce.ArgResult(v, i)
        return torch.ops.kgen.reduce(*args)

    def traced_transpose(x, spec, out, stream, overrides):
        if out is not None or stream is not None or not isinstance(x, Tensor) or not isinstance(spec, (str, type(None))):
            return _transpose._transpose(x, spec, out, stream, overrides)
        return torch.ops.kgen.transpose(x, spec or "", options(overrides))

    def traced_matmul(a, b, out, spec, alpha, beta, stream, overrides):
        if (out is not None or beta != 0 or stream is not None or not isinstance(a, Tensor)
                or not isinstance(spec, (str, type(None)))):
            return _matmul._matmul(a, b, out, spec, alpha, beta, stream, overrides)
        return torch.ops.kgen.matmul(a, b, float(alpha), spec or "", options(overrides))

    def traced_rows(op, x, weight=None, bias=None, labels=None, dim=-1, eps=0.0, ignore_index=-100,
                    reduction="none", out=None, stream=None, spec=None, overrides={}):
        arrays = (x,) + tuple(v for v in (weight, bias, labels) if v is not None)
        if (out is not None or stream is not None or not all(isinstance(v, Tensor) for v in arrays)
                or not isinstance(spec, (str, type(None)))):
            return _rows._rows(op, x, weight, bias, labels, dim, eps, ignore_index, reduction, out, stream, spec,
                               overrides)  # as it is: a graph break
        where, text = "kgen." + op, options(overrides)
        if op in ("softmax", "log_softmax"):
            _rows.check_dim(where, x.dim(), dim)
            f = torch.ops.kgen.softmax if op == "softmax" else torch.ops.kgen.log_softmax
            return f(x, spec or "", text)
        if op == "rms_norm":
            return torch.ops.kgen.rms_norm(x, weight, _rows.check_eps(where, eps), spec or "", text)
        if op == "layer_norm":
            return torch.ops.kgen.layer_norm(x, weight, bias, _rows.check_eps(where, eps), spec or "", text)
        if labels is None:
            raise TypeError("%s: labels are needed (one class index a row)" % where)
        _rows.check_reduction(where, reduction)
        ignore_index = _rows.check_ignore_index(where, ignore_index)
        loss = torch.ops.kgen.cross_entropy(x, labels, ignore_index, spec or "", text)
        if reduction == "none":
            return loss
        return _rows.reduce_losses(loss, labels, ignore_index, reduction, "torch")

    def traced_scan(x, op, dim, exclusive, spec, out, stream, overrides):
        if (out is not None or stream is not None or not isinstance(x, Tensor) or not isinstance(spec, (str, type(None)))
                or (dim is not None and not (x.dim() == 1 and dim in (0, -1)))):
            return _scan._scan(x, op, dim, exclusive, spec, out, stream, overrides)  # as it is: a graph break
        return torch.ops.kgen.scan(x, op, exclusive, spec or "", options(overrides))

    _trace.reduce, _trace.transpose, _trace.matmul = traced_reduce, traced_transpose, traced_matmul
    _trace.scan = traced_scan
    _trace.rows = traced_rows
    _trace.compiling = torch.compiler.is_compiling
