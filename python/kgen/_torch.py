"""kgen's calls as torch custom ops, so that a model calling kgen.reduce,
kgen.transpose or kgen.matmul compiles under torch.compile without a graph
break: kgen::reduce, kgen::reduce_arg (argmin and argmax: values and
indices), kgen::transpose and kgen::matmul, each with a fake (meta)
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


def register():
    """Register the custom ops (once; nothing without torch.library.custom_op)."""
    global _done
    if _done:
        return
    _done = True
    import torch
    if not hasattr(torch, "library") or not hasattr(torch.library, "custom_op"):
        return
    from . import _arrays, _matmul, _reduce, _transpose
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
        return _matmul._matmul(a, b, None, spec or None, alpha, 0.0, None, _overrides(options))

    @matmul_op.register_fake
    def _(a, b, alpha, spec, options):
        dt = _matmul_dtype(kgen_dtype(a), spec, options)
        return a.new_empty((a.shape[0], b.shape[1]), dtype=torch_of(dt))

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

    _trace.reduce, _trace.transpose, _trace.matmul = traced_reduce, traced_transpose, traced_matmul
    _trace.compiling = torch.compiler.is_compiling
