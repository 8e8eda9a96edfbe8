"""kgen.transpose: a matrix, or each matrix of a batch, in one launch."""
from typing import Any, Union

from . import _lib, _memory, _trace
from ._arrays import SIZE, Array, describe, empty, finish, packed_strides, stream_address
from ._kernel import (RUNNERS, align, cached, check_family, new_kernel, other_device, out_text, refuse_dtype,
                      stream_of)
from ._spec import _err, _spec_key

WHERE = "kgen.transpose"


def _default_transpose(dtype, width):
    # specs/transpose/best.yaml and best-bf16.yaml, with the load width the addresses allow.
    wide = SIZE[dtype] == 2
    return {"kernel": "transpose", "dtype": dtype, "method": "smem", "tile_rows": 64, "tile_cols": 128 if wide else 64,
            "batch": 16 if wide else 8, "load_width": max(width, SIZE[dtype]), "pad": 1, "order": "cols",
            "store_hint": "cg"}


def _run_transpose(k, a, out, stream, where):
    nd = len(a.shape)
    if nd not in (2, 3):
        raise ValueError("%s: transpose takes a matrix or a batch of matrices (2 or 3 dimensions), not %d" % (where, nd))
    if a.dtype != k.spec.fields["dtype"]:
        raise TypeError("%s: the kernel transposes %s, the input is %s" % (where, k.spec.fields["dtype"], a.dtype))
    rows, cols = a.shape[-2], a.shape[-1]
    if a.strides[-1] != 1 and cols > 1:
        raise ValueError("%s: transpose reads rows with unit stride (rows may be padded); pass x.contiguous()" % where)
    batch = a.shape[0] if nd == 3 else 1
    shape = (a.shape[0], cols, rows) if nd == 3 else (cols, rows)
    s = stream_of(a, stream, where)
    if out is None:
        res, ptr = empty(a, shape, a.dtype, s, where)
        o = Array(res, a.kind, ptr, a.dtype, tuple(shape), packed_strides(shape), a.device)
    else:
        res, o = out, describe(out, "out", where)
        if o.dtype != a.dtype or tuple(o.shape) != shape or (o.strides[-1] != 1 and rows > 1) or other_device(o, a):
            raise ValueError("%s: out must be a %s array of shape %s with unit-stride rows on the input's device, not %s"
                             % (where, a.dtype, shape, out_text(o, a, o.strides[-1] == 1 or rows <= 1,
                                                                "rows of stride %d" % o.strides[-1])))
        if o.readonly:
            raise ValueError("%s: out is read-only (%s arrays cannot be written): leave out= unset" % (where, o.kind))
    # Rows and matrices that overlap (a broadcast's stride 0 among them: C reads 0 as packed) are refused.
    for name, v, pitch, r, c in (("x", a, a.strides[-2], rows, cols), ("out", o, o.strides[-2], cols, rows)):
        if r > 1 and 0 <= pitch < c:  # a negative one is the range check's, below
            raise ValueError("%s: %s's rows overlap: they are %d elements apart and %d long (a broadcast or strided "
                             "view); pass %s.contiguous()" % (where, name, pitch, c, name))
        if nd == 3 and batch > 1 and 0 <= v.strides[0] < (pitch if r > 1 else c) * r:
            raise ValueError("%s: %s's matrices overlap: they are %d elements apart and %d x %d (a broadcast or "
                             "strided view); pass %s.contiguous()" % (where, name, v.strides[0], r, c, name))
    layout = _lib.TransposeLayout(_lib.arg(where, "x's batch", batch),
                                  _lib.arg(where, "x's row pitch", a.strides[-2] if rows > 1 else cols),
                                  _lib.arg(where, "out's row pitch", o.strides[-2] if cols > 1 else rows),
                                  _lib.arg(where, "x's matrix stride", a.strides[0] if nd == 3 else 0),
                                  _lib.arg(where, "out's matrix stride", o.strides[0] if nd == 3 else 0))
    err = _err()
    st = _lib.kgen_transpose_batched(k._handle, _lib.arg(where, "x's address", a.ptr),
                                     _lib.arg(where, "out's address", o.ptr), _lib.arg(where, "x's rows", rows),
                                     _lib.arg(where, "x's columns", cols), _lib.ctypes.byref(layout), s,
                                     _lib.ctypes.byref(err))
    _lib.check(st, err)
    if a.keep is not None:
        _memory.hold(a.device or 0, s, a.keep)
    return res if out is not None else finish(a, res)


def transpose(x: Any, spec: Any = None, out: Any = None, stream: Any = None, **overrides: Union[int, str]) -> Any:
    """The transpose of a matrix (R x C -> C x R) or of each matrix of a batch
    (B x R x C -> B x C x R, one launch), as a new contiguous array in x's
    framework or into `out`.  x's rows may be padded (a slice of a wider
    matrix) and so may out's.  spec= chooses the kernel (its dtype follows x)."""
    if _trace.compiling():  # under torch.compile: the custom op kgen::transpose (kgen._torch)
        return _trace.transpose(x, spec, out, stream, overrides)
    return _transpose(x, spec, out, stream, overrides)


def _transpose(x, spec, out, stream, overrides):
    refuse_dtype(WHERE, overrides)
    a = describe(x, where=WHERE, stream=None if stream is None else stream_address(stream))
    o_ptr = describe(out, "out", WHERE).ptr if out is not None else 0
    width = align(a.ptr, o_ptr)
    device = a.device or 0
    s = stream_of(a, stream, WHERE)
    over = tuple(sorted(overrides.items()))
    if spec is None:
        key = ("transpose", device, a.dtype, width, over)
        k = cached(key, lambda: new_kernel(WHERE, _default_transpose(a.dtype, width), device, overrides), device, s,
                   WHERE)
    else:
        check_family(WHERE, spec, "transpose")
        key = ("transpose", device, _spec_key(spec), a.dtype, over)
        k = cached(key, lambda: new_kernel(WHERE, spec, device, dict({"dtype": a.dtype}, **overrides)), device, s,
                   WHERE)
    return _run_transpose(k, a, out, stream, WHERE)


RUNNERS["transpose"] = (_run_transpose, 1)
