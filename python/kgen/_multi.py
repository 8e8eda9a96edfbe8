"""kgen.reduce over a list of arrays on different GPUs (issue 26): each GPU
reduces its own part with kgen's kernel and NCCL combines the partials
(libkgen's kgen_multi_*; libnccl.so.2 is loaded at the first such call).

A full reduction of the concatenated elements, or the columns (axis=0) of
the matrix whose rows the arrays hold in order (the same columns and row
pitch on every GPU).  The result: a list with one result a GPU, each on its
GPU in its array's framework (argmin and argmax: ArgResults, with indices
into the concatenation); root=i: GPU i's alone, the others not written.
Each GPU runs on its framework's current stream there.
"""
from math import prod as _numel

from . import _lib, _memory
from ._arrays import allocator, current_stream, describe, finish
from ._errors import SpecError
from ._kernel import PAIRS, _unexpected_keyword, contiguous, contiguous_from
from ._spec import _err, _spec, _spec_key

WHERE = "kgen.reduce"
_P, _E, _U64 = _lib._P, _lib._E, _lib._U64
_sig = _lib._sig
_PP = _lib.ctypes.POINTER(_U64)  # arrays of addresses, counts and streams, one a GPU
create = _sig("kgen_multi_create", [_lib.ctypes.POINTER(_lib.ctypes.c_int), _lib.ctypes.c_int,
                                    _lib.ctypes.POINTER(_P), _E])
build = _sig("kgen_multi_build", [_P, _P, _lib.ctypes.POINTER(_P), _E])
full = _sig("kgen_multi_reduce", [_P, _PP, _PP, _PP, _lib.ctypes.c_int, _PP, _E])
full_arg = _sig("kgen_multi_reduce_arg", [_P, _PP, _PP, _PP, _PP, _lib.ctypes.c_int, _PP, _E])
cols = _sig("kgen_multi_reduce_axis", [_P, _PP, _PP, _U64, _U64, _PP, _lib.ctypes.c_int, _PP, _E])
cols_arg = _sig("kgen_multi_reduce_axis_arg", [_P, _PP, _PP, _U64, _U64, _PP, _PP, _lib.ctypes.c_int, _PP, _E])

_sets = {}     # devices -> kgen_multi * (kept for the process: NCCL communicators are costly to make)
_kernels = {}  # (devices, spec key) -> kgen_multi_kernel *


def _set(devices):
    m = _sets.get(devices)
    if m is None:
        ids = (_lib.ctypes.c_int * len(devices))(*devices)
        h, err = _lib.ctypes.c_void_p(), _err()
        _lib.check(create(ids, len(devices), _lib.ctypes.byref(h), _lib.ctypes.byref(err)), err)
        m = _sets[devices] = h.value
    return m


def _kernel(devices, spec):
    key = (devices, _spec_key(spec))
    k = _kernels.get(key)
    if k is None:
        h, err = _lib.ctypes.c_void_p(), _err()
        _lib.check(build(_set(devices), spec._handle, _lib.ctypes.byref(h), _lib.ctypes.byref(err)), err)
        k = _kernels[key] = h.value
    return k


def _array(values):
    return (_U64 * len(values))(*values)


def reduce_many(xs, op, axis, spec, out, stream, plan, overrides, default_spec, root):
    """kgen.reduce(xs) for a list or tuple of arrays, one a GPU."""
    if not xs:
        raise ValueError("%s: an empty list: pass one array a GPU" % WHERE)
    if out is not None or stream is not None or plan not in (None, False):
        raise TypeError("%s: a list of arrays takes neither out=, stream= nor plan= (each GPU runs on its "
                        "framework's current stream, into new results)" % WHERE)
    parts = [describe(x, "input %d" % i, WHERE) for i, x in enumerate(xs)]
    devices = tuple(0 if a.device is None else a.device for a in parts)
    if len(set(devices)) != len(devices):
        raise ValueError("%s: each array of the list on a GPU of its own, not devices %s" % (WHERE, list(devices)))
    dtypes = {a.dtype for a in parts}
    if len(dtypes) != 1:
        raise TypeError("%s: the arrays of a list have one dtype, not %s" % (WHERE, sorted(dtypes)))
    dtype = parts[0].dtype
    if root is None:
        root = -1
    elif isinstance(root, bool) or not isinstance(root, int) or not 0 <= root < len(parts):
        raise ValueError("%s: root is the position of a GPU's array in the list (0 to %d), not %r"
                         % (WHERE, len(parts) - 1, root))
    fields = {"dtype": dtype}
    if op:
        fields["op"] = op
    if axis is None:
        for i, a in enumerate(parts):
            if not contiguous(a):
                raise ValueError("%s: input %d is not contiguous; pass x.contiguous()" % (WHERE, i))
        base = spec if spec is not None else default_spec(op or "sum", dtype, None)
    elif axis == 0:
        if any(len(a.shape) != 2 for a in parts):
            raise ValueError("%s: axis=0 over a list reduces the columns of matrices (2-D), one block of rows a "
                             "GPU" % WHERE)
        fields["axis"] = "cols"
        base = spec if spec is not None else default_spec(op or "sum", dtype, "cols")
    else:
        raise NotImplementedError("%s: over a list of arrays, full reductions (axis=None) and columns (axis=0) "
                                  "only: each GPU's rows are whole on it, reduce its array alone" % WHERE)
    try:
        s = _spec(WHERE, base, dict(fields, **overrides))
    except SpecError as e:  # a keyword that is no field: the call's TypeError, as for one array
        _unexpected_keyword(WHERE, e, overrides)
        raise
    pair = s.fields.get("op") in PAIRS
    k = _kernel(devices, s)
    streams = [current_stream(a) for a in parts]
    acc = s.fields.get("out_dtype", s.fields.get("acc_dtype", dtype))
    err = _err()
    if axis is None:
        shape = ()
        n = [_numel(a.shape) for a in parts]
    else:
        ncols = parts[0].shape[1]
        pitch = parts[0].strides[0] if parts[0].shape[0] > 1 else ncols
        for i, a in enumerate(parts):
            if a.shape[1] != ncols:
                raise ValueError("%s: the matrices of a list have the same columns: input %d has %d, input 0 %d"
                                 % (WHERE, i, a.shape[1], ncols))
            if not (a.strides[1] == 1 or ncols == 1) or not contiguous_from(a, 1) or \
                    (a.shape[0] > 1 and a.strides[0] != pitch):
                raise ValueError("%s: the matrices of a list have unit-stride rows the same pitch apart "
                                 "(input %d)" % (WHERE, i))
        shape = (ncols,)
        n = [a.shape[0] for a in parts]
    values, indices = [], []
    for i, a in enumerate(parts):
        if root in (-1, i):
            v, vp = allocator(a, shape, acc, WHERE)(streams[i])
            values.append((v, vp))
            if pair:
                ix, ip = allocator(a, shape, "i64", WHERE)(streams[i])
                indices.append((ix, ip))
        else:
            values.append((None, 0))
            indices.append((None, 0))
    ins, ns, ss = _array([a.ptr for a in parts]), _array(n), _array(streams)
    vs = _array([p for _, p in values])
    e = _lib.ctypes.byref(err)
    if axis is None:
        st = full_arg(k, ins, ns, vs, _array([p for _, p in indices]), root, ss, e) if pair else \
            full(k, ins, ns, vs, root, ss, e)
    else:
        st = cols_arg(k, ins, ns, ncols, pitch, vs, _array([p for _, p in indices]), root, ss, e) if pair else \
            cols(k, ins, ns, ncols, pitch, vs, root, ss, e)
    for i, a in enumerate(parts):  # a DLPack input's capsule kept until its GPU's kernels are done
        if a.keep is not None:
            _memory.hold(devices[i], streams[i], a.keep)
    _lib.check(st, err)
    results = []
    for i, a in enumerate(parts):
        if root not in (-1, i):
            results.append(None)
        elif pair:
            results.append((finish(a, values[i][0]), finish(a, indices[i][0])))
        else:
            results.append(finish(a, values[i][0]))
    return results
