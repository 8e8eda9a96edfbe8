"""kgen.scan and kgen.cumsum: the inclusive or exclusive prefix of a vector
under an op (kernel: scan), in one pass.  A call of a torch tensor with a new
result (no out=, stream=, spec= or overrides) whose layout a call made ready
before goes faster, in C (kgen._fast's scan: _fast_scan_ready)."""
from math import prod
from typing import Any, Optional, Union

from . import _arrays, _lib, _memory, _plans, _trace
from ._errors import DimError
from ._arrays import describe, empty, finish, stream_address
from ._kernel import (RUNNERS, cached, check_family, compute_capability, contiguous, gpu_name, new_kernel,
                      new_plan_kernel, other_device, out_text, refuse_dtype, remember, stream_of)
from ._rows import rows_of
from ._transpose import transpose
from ._spec import _err, _spec_key, spec_field

WHERE = "kgen.scan"
# The keys only the column kernel (axis: cols) takes: a call down one contiguous column with one of them
# runs the column kernel, not a vector scan.  python/tests/test_cpu.py checks them against the library's
# only-with table (gen/scan.c), key by key.
COLUMN_KEYS = frozenset(("axis", "lanes", "staging", "stages", "blocks_per_sm", "cluster_size"))
# Rows below which a call down the columns taking staging: ring by default takes tiles of 128 rows (_ring).
RING_SHORT = 1 << 15
# The overrides a call down the columns may name and still take staging: ring by default (i32 into int64, as
# torch.cumsum gives).
RING_KEEPS = frozenset(("acc_dtype",))
# The ops a scan takes (gen/scan.c refuses the others: a pair's, a last step's).
OPS = ("sum", "min", "max", "prod", "sumsq", "amax", "count_nonzero", "any", "all", "custom")


def _run_scan(k, a, out, stream, where, lines=None):
    """k(x): the scan of vector x (any shape whose elements are contiguous,
    read in order) into a new array of x's shape, or out.  lines: (rows,
    cols, pitch) to scan x's rows (its last dimension) instead; ("cols",
    rows, cols, pitch, starts) to scan down the columns of each matrix of
    x's last two dimensions (a kernel of axis: cols), starts the elements
    where each matrix begins in x and in the result."""
    if a.dtype != k.spec.fields["dtype"]:
        raise TypeError("%s: the kernel scans %s, the input is %s" % (where, k.spec.fields["dtype"], a.dtype))
    n = 1
    for d in a.shape:
        n *= d
    down = lines is not None and lines[0] == "cols"
    if down != (k.spec.fields.get("axis") == "cols"):
        raise ValueError("%s: the kernel scans %s, the call %s" % (
            where, "down columns (axis: cols)" if not down else "along rows (axis: rows)",
            "down the columns (dim=-2)" if down else "along rows or a vector"))
    if lines is None and n > 1 and not contiguous(a):
        raise ValueError("%s: a scan of all of x (dim=None) reads a contiguous vector; pass x.contiguous()%s"
                         % (where, "" if where == "kgen.Kernel" else ", or dim=-1 for its rows"))
    out_dtype = k.spec.fields["out_dtype"]
    s = stream_of(a, stream, where)
    if out is None:
        res, ptr = empty(a, tuple(a.shape), out_dtype, s, where)
    else:
        res, ptr = out, _out_of(out, a, out_dtype, where).ptr
    err = _err()
    x_at, out_at = _lib.arg(where, "x's address", a.ptr), _lib.arg(where, "out's address", ptr)
    if lines is None:
        st = _lib.kgen_scan(k._handle, x_at, out_at, _lib.arg(where, "x's element count", n), 0, 0, s,
                            _lib.ctypes.byref(err))
    elif down:
        _, rows, cols, pitch, starts = lines
        isize, osize = _memory.SIZE[a.dtype], _memory.SIZE[out_dtype]
        st = 0
        for x_start, out_start in starts:  # a launch a matrix
            st = _lib.kgen_scan_cols(k._handle, x_at + x_start * isize, out_at + out_start * osize, rows, cols, pitch,
                                     cols, 0, 0, s, _lib.ctypes.byref(err))
            if st:
                break
    else:
        rows, cols, pitch = lines
        st = _lib.kgen_scan_rows(k._handle, x_at, out_at, rows, cols, pitch, cols, 0, 0, s, _lib.ctypes.byref(err))
    _lib.check(st, err)
    if a.keep is not None:
        _memory.hold(a.device or 0, s, a.keep)
    return res if out is not None else finish(a, res)


def _out_of(out, a, out_dtype, where, padded=False):
    """The Array of out=, checked against input a and the kernel's out_dtype:
    a's shape, contiguous (but for one element; padded: its rows may be
    apart, as kgen.transpose writes them), on a's device, writable."""
    o = describe(out, "out", where)
    if padded:
        whole = len(o.shape) < 1 or o.shape[-1] <= 1 or o.strides[-1] == 1
    else:
        whole = prod(a.shape) <= 1 or contiguous(o)
    if o.dtype != out_dtype or o.shape != tuple(a.shape) or not whole or other_device(o, a):
        raise ValueError("%s: out must be a %s%s array of shape %s%s on the input's device, not %s"
                         % (where, "" if padded else "contiguous ", out_dtype, tuple(a.shape),
                            " with contiguous rows (they may be padded)" if padded else "",
                            out_text(o, a, whole, "rows not contiguous" if padded else "not contiguous")))
    if o.readonly:
        raise ValueError("%s: out is read-only (%s arrays cannot be written): leave out= unset" % (where, o.kind))
    return o


def scan(x: Any, op: Optional[str] = None, dim: Optional[int] = None, exclusive: Optional[bool] = None,
         spec: Any = None, out: Any = None, stream: Any = None, **overrides: Union[int, str]) -> Any:
    """The prefix of x under op: out[i] = x[0] op ... op x[i] (exclusive=True:
    up to x[i - 1], out[0] the identity), over all of x's elements in order
    (dim=None: a contiguous array), or along its last dimension (dim=-1 or
    x.ndim - 1: each row, rows evenly spaced; torch.cumsum(x, dim)), or down
    the columns (dim=-2 or x.ndim - 2: of each matrix of the last two
    dimensions, by the one-pass column kernel, a launch a matrix; a
    contiguous column as a vector; with axis="rows", block_scan= or
    strategy="block", a row scan between two transposes).  op: sum, min,
    max, prod, sumsq, amax, count_nonzero, any, all or custom (map=, combine=,
    identity=); default: the spec's op, else sum (and exclusive: the spec's
    mode, else inclusive).  The result is a new array of x's shape in x's framework (or
    out) of the spec's out_dtype: the accumulator's (f32 for f16 and bf16;
    acc_dtype= or out_dtype= choose others).  spec= chooses the kernel (its
    dtype follows x, its op and mode the call's op= and exclusive= where
    given); overrides set its fields
    (strategy="block", threads=..., items_per_thread=..., load_width=...,
    lookback_group=...).  Floats come out
    the same run after run."""
    return _entry(WHERE, x, op, dim, exclusive, spec, out, stream, overrides)


def _entry(where, x, op, dim, exclusive, spec, out, stream, overrides):
    """kgen.scan's (or kgen.cumsum's: where names it in errors) checks, then
    the call: under torch.compile its custom op, a ready layout in C, else
    _scan."""
    if op is not None and not isinstance(op, str):
        raise TypeError("%s: op is a name (one of %s), not %r (%s)" % (where, ", ".join(OPS), op, type(op).__name__))
    if exclusive is not None and not isinstance(exclusive, bool):
        raise TypeError("%s: exclusive is True or False, not %r" % (where, exclusive))
    if spec is not None:
        check_family(where, spec, "scan")
    if op is None:
        op = _field(spec, overrides, "op", "sum")
    if exclusive is None:
        exclusive = _field(spec, overrides, "mode", "inclusive") == "exclusive"
    if op not in OPS:
        raise ValueError("%s: op is one of %s, not %r" % (where, ", ".join(OPS), op))
    if _trace.compiling():  # under torch.compile: the custom op kgen::scan (kgen._torch)
        return _trace.scan(x, op, dim, exclusive, spec, out, stream, overrides)
    if type(x) is _arrays.Tensor and _fast_scan is not None and out is None and stream is None and spec is None:
        fast_op = _fast_op(op, overrides)
        if fast_op is not None:  # in C (kgen/_fast.c): NotImplemented for a call it does not take
            r = _fast_scan(fast_op, exclusive, dim, x)
            if r is not NotImplemented:
                return r
    return _scan(x, op, dim, exclusive, spec, out, stream, overrides, where)


def _scan(x, op, dim, exclusive, spec, out, stream, overrides, where=WHERE):
    refuse_dtype(where, overrides)
    a = describe(x, where=where, stream=None if stream is None else stream_address(stream))
    if dim is not None and (isinstance(dim, bool) or not hasattr(dim, "__index__")):
        raise TypeError("%s: dim is an int or None, not %r" % (where, dim))
    dim = None if dim is None else dim.__index__()  # NumPy's integers too
    lines = None
    down = False
    if dim is not None:
        nd = len(a.shape)
        if not -max(nd, 1) <= dim < max(nd, 1):  # a 0-d x takes 0 and -1, as torch.cumsum does
            raise DimError("%s: dim %d is out of range for %d dimensions" % (where, dim, nd))
        if nd >= 2 and dim % nd == nd - 2:  # down the columns
            lines = _one_column(a, where) if spec is None and not COLUMN_KEYS.intersection(overrides) else None
            if lines is None:
                if not _down_the_columns(spec, overrides):
                    return _transposed(x, a, op, exclusive, spec, out, stream, overrides, where)
                lines, down = _columns_of(a, where), True
        elif nd and dim % nd != nd - 1:
            raise NotImplementedError("%s: scans along dimension %d of %d-D x are not there yet: along the last "
                                      "two (dim=-1, dim=-2), or of x.movedim(%d, -1).contiguous()"
                                      % (where, dim, nd, dim))
        elif nd:
            lines = rows_of(a, "x", where)
    s = stream_of(a, stream, where)
    k = _kernel_of(a, op, exclusive, spec, overrides, down, lines, s, where)
    r = _run_scan(k, a, out, stream, where, lines)
    fast_op = _fast_op(op, overrides)
    if (_fast_scan is not None and a.kind == "torch" and type(x) is _arrays.Tensor and out is None and stream is None
            and spec is None and fast_op is not None
            and (not down or (len(lines[4]) == 1 and _lib.kgen_scan_cols is not None))
            and (dim is None or isinstance(dim, int)) and all(a.shape)):
        _fast_scan_ready(fast_op, exclusive, dim, x, k, lines)
    return r


def _kernel_of(a, op, exclusive, spec, overrides, down, lines, s, where):
    """The kernel of a scan of array a (down: down the columns of lines,
    _columns_of's), made ready on stream s: the shipped size plan's, the
    defaults' for a's GPU and shape, or the spec's."""
    device = a.device or 0
    fields = {"dtype": a.dtype, "op": op, "mode": "exclusive" if exclusive else "inclusive"}
    if down:
        fields["axis"] = "cols"
        if spec is None and set(overrides) <= RING_KEEPS and _ring(device):
            fields["staging"] = "ring"
            if lines[1] < RING_SHORT:  # tiles of 128 rows, not the spec's 256
                fields["items_per_thread"] = 8
        elif spec is None and not {"cluster_size", "staging", "acc_dtype", "out_dtype"}.intersection(overrides) and \
                _narrow(a, op, lines, device):
            fields["cluster_size"] = 8
    over = tuple(sorted(overrides.items()))
    shipped = None
    if spec is None and not overrides and not down:  # a size plan tuned on this GPU's model, where kgen ships one
        shipped = _plans.shipped(plan_name(op, exclusive), a.dtype, gpu_name(device))
    if shipped is not None:
        k = cached(("plan", device, ("text", shipped)), lambda: new_plan_kernel(where, shipped, device), device, s,
                   where)
    elif spec is None:
        key = ("scan", device, a.dtype, op, exclusive, fields.get("axis"), fields.get("staging"),
               fields.get("items_per_thread"), fields.get("cluster_size"), over)
        k = cached(key, lambda: new_kernel(where, dict({"kernel": "scan"}, **fields), device, overrides), device, s,
                   where)
    else:
        key = ("scan", device, _spec_key(spec), a.dtype, op, exclusive, over)
        k = cached(key, lambda: new_kernel(where, spec, device, dict(fields, **overrides)), device, s, where)
    return k


TYPE_KEYS = frozenset(("acc_dtype", "out_dtype"))  # the overrides a ready call may have


def _fast_op(op, overrides):
    """The op kgen._fast.scan finds a ready call by: op itself without
    overrides; op and the types, one str ("sum acc_dtype=i64", as
    kgen.cumsum(x, acc_dtype="i64") scans int32 into torch.cumsum's int64),
    with only acc_dtype= and out_dtype= given as names; None with any other
    (those calls take the path in Python)."""
    if not overrides:
        return op
    if not TYPE_KEYS.issuperset(overrides) or any(type(v) is not str for v in overrides.values()):
        return None
    return op + "".join(" %s=%s" % (k, overrides[k]) for k in sorted(overrides))


_ready_fast = {}  # (op, exclusive, dim, x's torch layout) -> kgen._fast.RowsReady of the scan
_fast_scan = _lib.fast.scan if _lib.fast is not None and _lib.kgen_scan_rows is not None else None
_fast_set = False


def _fast_scan_ready(op, exclusive, dim, x, k, lines):
    """Make a call like this one (a torch tensor, a new result; it ran) ready
    for kgen._fast.scan: its kernel, sizes (lines: (rows, cols, pitch) of
    the rows, None for a vector, one row; ("cols", rows, cols, pitch,
    starts) down the columns of one matrix) and a tensor to make results
    from, as a RowsReady; op: _fast_op()'s, the types' overrides in it."""
    global _fast_set
    if not _fast_set:
        from . import _reduce
        _reduce.fast_entry()
        _lib.fast.set_scan(_lib.ctypes.cast(_lib.kgen_scan_rows, _lib.ctypes.c_void_p).value, _ready_fast,
                           _lib.ctypes.cast(_lib.kgen_scan_cols, _lib.ctypes.c_void_p).value
                           if _lib.kgen_scan_cols is not None else 0)
        _fast_set = True
    like, device = _arrays.result_template(k.spec.fields["out_dtype"], x), x.get_device()
    down = lines is not None and lines[0] == "cols"
    rows, cols, pitch = (1, x.numel(), x.numel()) if lines is None else lines[1:4] if down else lines  # a vector: a row
    remember(_ready_fast, (op, exclusive, dim, (x.dtype, x.shape, x.stride(), device)), _lib.fast.RowsReady(
        k._handle, rows, cols, pitch, device, like, tuple(x.shape), False, k, down))


def _axis(spec, overrides):
    """The axis a call's kernel scans along: the override's, else spec='s
    (loaded once a spec), else rows."""
    return _field(spec, overrides, "axis", "rows")


def _down_the_columns(spec, overrides):
    """Whether a scan down the columns takes the one-pass column kernel
    (axis: cols) rather than a row scan between two transposes: as the call's
    axis= or its spec's axis says, else the column kernel but where the
    overrides name what only a row scan has (block_scan=, strategy="block").
    It ran 1.5-2.6x faster than the transposes at 2^20 x 64, 2^20 x 1024 and
    16384^2, f32 and i32 (bench/results/nvidia-h100/2026-12-05-scan-cols-python)."""
    if spec is not None or "axis" in overrides:
        return _axis(spec, overrides) == "cols"
    return "block_scan" not in overrides and overrides.get("strategy", "lookback") == "lookback"


def _one_column(a, where):
    """(rows, cols, pitch) of a row scan of array a's matrices of one
    column, where each column is a contiguous vector (torch.cumsum(x, -2) of
    an (..., n, 1) x): a matrix a row.  None where a's matrices have more
    columns, their column is strided, or they are not evenly spaced: the
    column kernel takes those.  At 2^20 x 1 the column kernel's one band,
    a 32nd of it used, ran at 0.05 of a copy, 9x torch's vector scan."""
    if a.shape[-1] != 1 or (a.shape[-2] > 1 and a.strides[-2] != 1):
        return None
    try:
        return rows_of(_arrays.Array(a.obj, a.kind, a.ptr, a.dtype, a.shape[:-1], a.strides[:-1], a.device), "x",
                       where)
    except ValueError:
        return None


def _ring(device):
    """Whether a call down the columns with no spec= and no overrides but
    acc_dtype= (RING_KEEPS) takes staging: ring (sm_90 and newer: TMA and
    cooperative launches): on an
    H100 its tiles of 256 rows moved f32 at 0.74 of a copy at 2^20 x 64, 0.91
    at 2^20 x 1024 and 0.94 at 16384 x 16384, where the column kernel's
    default moved 0.56, 0.78 and 0.85 and clusters of 8 tiles 0.64 at
    2^20 x 64; bf16 0.71 and 0.80 at 2^20 x 64 and 2^20 x 1024 against 0.35
    and 0.54 (bench/results/nvidia-h100/2026-12-07-scan-cols-ring-maps).
    Matrices of fewer than RING_SHORT rows take tiles of 128 rows: at
    3000 x 130, 0.66-0.74 of a copy against 0.43-0.54 (the column kernel's
    default 0.55); at 65536 x 64 the 256 rows were ahead (0.65-0.66 against
    0.57-0.59)."""
    return tuple(compute_capability(device)) >= (9, 0)


def _narrow(a, op, lines, device):
    """Whether the column kernel of a call down the columns of array a
    (lines: its ("cols", rows, cols, ...)) takes tiles in clusters of 8
    (cluster_size: 8; sm_90 and newer): 4-byte elements into their own type
    (not count_nonzero's int64), 64 columns or fewer, 2^16 rows or more.
    A band's tiles then take turns
    in one long look-back chain; clusters make it 8x shorter: 0.64 of a copy
    at 2^20 x 64 f32 against 0.56 (an H100), where at 2^20 x 1024 they cost
    (0.64 against 0.78; bench/results/nvidia-h100/2026-12-05-scan-cols-cluster),
    as they did i32 into i64 at 2^20 x 64 (0.42 against 0.46)."""
    _, rows, cols = lines[:3]
    return (_memory.SIZE[a.dtype] == 4 and op != "count_nonzero" and cols <= 64 and rows >= 1 << 16
            and tuple(compute_capability(device)) >= (9, 0))


def _field(spec, overrides, name, default):
    """Field `name` of a call's kernel: the override's, else spec='s, else
    default."""
    if name in overrides:
        return overrides[name]
    return default if spec is None else spec_field(spec, name, default)


def plan_name(op, exclusive):
    """The name of the shipped size plan of a scan of op (mode exclusive or
    not) along rows: specs/plans/<gpu>/scan_<op>[_exclusive]-<dtype>.yaml,
    which kgen.scan and kgen.cumsum take without spec= or overrides."""
    return "scan_%s%s" % (op, "_exclusive" if exclusive else "")


def _transposed(x, a, op, exclusive, spec, out, stream, overrides, where):
    """The scan down each column of x (a: its Array; of each matrix of a
    batch): its rows scanned in kgen.transpose(x), transposed back (into
    out).  Three passes over the data: taken only where the call or its
    spec asks for axis rows.  x's dimensions and out= are checked first,
    before anything runs."""
    if len(a.shape) > 3:
        raise ValueError("%s: a scan down the columns through axis rows (a transpose, the rows' scan, a transpose "
                         "back) takes x of 2 or 3 dimensions (a batch of matrices), not %d; the column kernel "
                         "(axis: cols, the default) takes any" % (where, len(a.shape)))
    if out is not None:  # the result's type is the rows kernel's
        k = _kernel_of(a, op, exclusive, spec, overrides, False, None, stream_of(a, stream, where), where)
        _out_of(out, a, k.spec.fields["out_dtype"], where, padded=True)  # kgen.transpose writes padded rows
    rows = _scan(transpose(x, stream=stream), op, -1, exclusive, spec, None, stream, overrides, where)
    return transpose(rows, out=out, stream=stream)


def _columns_of(a, where):
    """("cols", rows, cols, pitch, starts) of array a's last two dimensions,
    for _run_scan: each matrix's columns scanned down its rows, rows a
    pitch apart; starts, for each matrix of the leading dimensions, where it
    begins in a and in a packed result (elements).  Refused with ValueError:
    a last dimension of stride other than 1, rows that overlap."""
    rows, cols = a.shape[-2], a.shape[-1]
    if cols > 1 and a.strides[-1] != 1:
        raise ValueError("%s: x's rows must be contiguous (its last dimension's stride is %d elements, not 1); pass "
                         "x.contiguous()" % (where, a.strides[-1]))
    pitch = a.strides[-2] if rows > 1 else cols
    if rows > 1 and pitch < cols:
        raise ValueError("%s: x's rows overlap: they are %d elements apart and %d long; pass x.contiguous()"
                         % (where, pitch, cols))
    starts = [(0, 0)]
    for n, stride in zip(reversed(a.shape[:-2]), reversed(a.strides[:-2])):  # the matrices, the last index fastest
        size = len(starts) * rows * cols
        starts = [(x + i * stride, o + i * size) for i in range(n) for x, o in starts]
    starts.sort(key=lambda xo: xo[1])
    return "cols", rows, cols, _lib.arg(where, "x's row pitch", pitch), starts


def cumsum(x: Any, dim: Optional[int] = None, out: Any = None, stream: Any = None, spec: Any = None,
           **overrides: Union[int, str]) -> Any:
    """torch.cumsum: kgen.scan(x, "sum", dim, exclusive=False, spec=spec, out=out, stream=stream)."""
    for name in ("op", "exclusive"):
        if name in overrides:
            raise TypeError("kgen.cumsum() got an unexpected keyword argument %r: it is an inclusive sum; "
                            "kgen.scan takes op= and exclusive=" % name)
    return _entry("kgen.cumsum", x, "sum", dim, False, spec, out, stream, overrides)


RUNNERS["scan"] = (_run_scan, 1)
