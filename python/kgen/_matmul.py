"""kgen.matmul: C = alpha A B + beta C, C row-major, each operand read as
it lies (row- or column-major, rows or columns padded)."""
import functools
import os
import sys
from typing import Any, Sequence, Union

from . import _arrays, _lib, _memory, _trace
from ._arrays import SIZE, Array, current_stream, describe, empty, finish, stream_address, torch_dtype
from ._kernel import (POSITIONAL, RUNNERS, cached, check_family, compute_capability, device_text, gpu_name, new_kernel,
                      new_plan_kernel, other_device, refuse_dtype, remember, sm_count, stream_of)
from ._spec import Spec, _err, _spec_key

_arg = _lib.arg
_byref = _lib.ctypes.byref

_MATMUL_DTYPES = ("f32", "f64", "f16", "bf16")
# fp8 (torch.float8_e4m3fn, float8_e5m2): a and b only, on sm_90 (math: wgmma), C bf16 unless out_dtype= says.
_FP8 = ("e4m3", "e5m2")

_HERE = os.path.dirname(os.path.abspath(__file__))
# kgen's best matmul specs (specs/matmul/best/): beside the package as
# kgen/specs/matmul/ (pip, make install), else in the source tree around it.
# Not kgen/matmul/: `import kgen.matmul` would load that folder as a namespace
# package and put it in place of the function kgen.matmul.
_BEST_DIRS = (os.path.join(_HERE, "specs", "matmul"), os.path.join(_HERE, "..", "..", "specs", "matmul", "best"))


def _best_spec(name):
    """The path of the shipped best spec `name` ("mma_bf16.yaml"), or None
    (a call asks once a choice: _chosen keeps the answers)."""
    found = (os.path.join(d, name) for d in _BEST_DIRS)
    return next((os.path.normpath(p) for p in found if os.path.isfile(p)), None)


def _default_matmul(dtype, cc, a_layout, b_layout):
    """kgen.matmul's kernel without spec= and overrides (epilogue= and
    out_dtype= aside):
    (the path of kgen's best spec for dtype on a GPU of compute capability
    cc, the fields to set on it for these layouts), or (None, {}) for the
    family's defaults.  f16 and bf16: wgmma_<dtype>.yaml on sm_90 (its wgmma
    needs sm_90a, which only cc (9, 0) has), which takes operands TMA cannot
    load as they lie by copying them aligned first (unaligned: repack: on
    an H200 the mma.sync fallback took 2.4x and 5.8x the time at 4096 x
    4096 x 129 and x 4097, bench/results/nvidia-h200/2026-12-03-shapes/
    run7); else
    mma_<dtype>.yaml (mma.sync, sm_80 and up).  f32: simt_f32.yaml (cp.async, sm_80 and up), whose cp.async
    stages cannot transpose: a column-major A is kept transposed in shared
    memory, a column-major B is loaded in one stage.  f64 and GPUs older
    than sm_80: the family's defaults, as when no best spec is found."""
    if dtype in _FP8:  # wgmma_fp8.yaml (sm_90a's fp8 wgmma; elsewhere its build says it needs sm_90a)
        path = _best_spec("wgmma_fp8.yaml")
        return (path, {}) if path is not None else (None, {})
    if tuple(cc) < (8, 0) or dtype not in ("f32", "f16", "bf16"):
        return None, {}
    fields = {}
    if dtype == "f32":
        name = "simt_f32.yaml"
        if a_layout == "col":
            fields["a_smem"] = "transposed"
        if b_layout == "col":
            fields["stages"] = 1
    else:
        name = "%s_%s.yaml" % ("wgmma" if tuple(cc) == (9, 0) else "mma", dtype)
    path = _best_spec(name)
    return (path, fields) if path is not None else (None, {})


def _layouts(x, name, where):
    """The layouts a 2-D array can be read in without a copy, as {layout: ld}:
    "row" when its strides are (ld, 1) (element (i, j) at i*ld + j), "col"
    when they are (1, ld) (a transposed view: at j*ld + i); both for a
    single row or column; ld in elements, never 0 (C's "packed")."""
    r, c = x.shape
    s0, s1 = x.strides
    got = {}
    if (c == 1 or s1 == 1) and (r == 1 or s0 >= c):
        got["row"] = _arg(where, "%s's leading dimension" % name, s0 if r > 1 else c)
    if (r == 1 or s0 == 1) and (c == 1 or s1 >= r):
        got["col"] = _arg(where, "%s's leading dimension" % name, s1 if c > 1 else r)
    if not got:
        raise ValueError("%s: %s is neither row-major (strides (ld, 1), ld >= %d) nor column-major (strides (1, ld), "
                         "ld >= %d): its shape is %s and its strides %s elements; pass %s.contiguous()"
                         % (where, name, c, r, tuple(x.shape), tuple(x.strides), name))
    return got


def _scalar(where, name, v):
    """alpha or beta as a C double: a real, finite number (not a bool)."""
    if isinstance(v, (bool, complex)) or not (isinstance(v, (int, float)) or hasattr(v, "__float__")):
        raise TypeError("%s: %s is a real number, not %s (%s)" % (where, name, _lib.shown(v), type(v).__name__))
    f = float(v)
    if f != f or f in (float("inf"), float("-inf")):
        raise ValueError("%s: %s must be finite, not %r" % (where, name, f))
    return f


class _MatmulCall:
    """A matmul call's operands, checked before any kernel is built: the
    shapes, the layouts each operand can be read in, the result."""
    __slots__ = ("a", "b", "m", "n", "k", "la", "lb", "out", "o", "ldc", "alpha", "beta")


def _matmul_call(where, a, b, out, alpha, beta):
    c = _MatmulCall()
    c.a, c.b = a, b
    for x, name in ((a, "a"), (b, "b")):
        if len(x.shape) != 2:
            raise ValueError("%s: %s is a matrix (2 dimensions), not %d" % (where, name, len(x.shape)))
        if x.dtype not in _MATMUL_DTYPES and x.dtype not in _FP8:
            raise TypeError("%s: matmul takes %s, not %s (%s)" % (where, ", ".join(_MATMUL_DTYPES + _FP8), x.dtype,
                                                                   name))
    if a.dtype != b.dtype and not (a.dtype in _FP8 and b.dtype in _FP8):
        raise TypeError("%s: a is %s and b is %s: both must be of one dtype (or both fp8)" % (where, a.dtype, b.dtype))
    if other_device(a, b):
        raise ValueError("%s: a is on GPU %s and b on GPU %s: both must be on one device" % (where, a.device, b.device))
    (c.m, c.k), (kb, c.n) = a.shape, b.shape
    if c.k != kb:
        raise ValueError("%s: a is %d x %d and b is %d x %d: a's columns must be as many as b's rows"
                         % (where, c.m, c.k, kb, c.n))
    if c.k == 0:
        raise ValueError("%s: K is 0 (a is %d x 0): there is nothing to multiply" % (where, c.m))
    c.alpha, c.beta = _scalar(where, "alpha", alpha), _scalar(where, "beta", beta)
    c.la = _layouts(a, "a", where) if c.m else {"row": c.k}
    c.lb = _layouts(b, "b", where) if c.n else {"row": max(c.n, 1)}
    c.out, c.o, c.ldc = out, None, c.n
    if out is None:
        if c.beta != 0:
            raise ValueError("%s: beta=%r reads C: pass the C to scale and add to as out=" % (where, c.beta))
        return c
    o = c.o = describe(out, "out", where)
    if o.readonly:
        raise ValueError("%s: out is read-only (%s arrays cannot be written): leave out= unset" % (where, o.kind))
    if len(o.shape) != 2 or tuple(o.shape) != (c.m, c.n) or other_device(o, a):
        raise ValueError("%s: out must be a %d x %d array on a's device, not %s%s"
                         % (where, c.m, c.n, tuple(o.shape), device_text(o, a, "a")))
    if not (c.n <= 1 or o.strides[1] == 1) or not (c.m <= 1 or o.strides[0] >= c.n):
        raise ValueError("%s: out must be row-major (strides (ld, 1), rows may be padded), not strides %s"
                         % (where, tuple(o.strides)))
    c.ldc = _arg(where, "out's row pitch", o.strides[0] if c.m > 1 else max(c.n, 1))
    return c


def _scale_layout(d, name, c):
    """How scale_a= or scale_b= scales (described d of an fp8 call c):
    "tensor", one float32; "block", DeepGEMM's fine-grained scales (the
    spec's scale: block): A's one a row and 128 of k, element (row, kb) at
    kb * m + row (a ceil(k / 128) x m row-major array, or the m x ceil(k /
    128) view of one, strides (1, m)); B's one a 128 x 128 block, element
    (col / 128, kb) at (col / 128) * ceil(k / 128) + kb (a ceil(n / 128) x
    ceil(k / 128) row-major array); None, neither."""
    count = 1
    for n in d.shape:
        count *= n
    if count == 1:
        return "tensor"
    kb = (c.k + 127) // 128
    shape, strides = tuple(d.shape), tuple(d.strides)
    if name == "scale_a":
        if (shape == (kb, c.m) and (kb == 1 or strides[0] == c.m) and (c.m == 1 or strides[1] == 1) or
                shape == (c.m, kb) and (c.m == 1 or strides[0] == 1) and (kb == 1 or strides[1] == c.m)):
            return "block"
    elif shape == ((c.n + 127) // 128, kb) and (shape[0] == 1 or strides[0] == kb) and (kb == 1 or strides[1] == 1):
        return "block"
    return None


def _scale(where, name, x, c, sa):
    """scale_a= or scale_b= of an fp8 call: float32 on a's device, one
    (scale: tensor) or DeepGEMM's blocks (scale: block, _scale_layout);
    (its description, its address, its layout)."""
    d = describe(x, name, where, sa)
    layout = _scale_layout(d, name, c) if d.dtype == "f32" and not other_device(d, c.a) else None
    if layout is None:
        kb = (c.k + 127) // 128
        block = ("%d x %d (ceil(k / 128) x m, or its m x %d transpose view)" % (kb, c.m, kb) if name == "scale_a" else
                 "%d x %d (ceil(n / 128) x ceil(k / 128))" % ((c.n + 127) // 128, kb))
        raise ValueError("%s: %s must be float32 on a's device, one value (as torch._scaled_mm takes it) or %s blocks "
                         "of %s, row-major, not %s of shape %s and strides %s" % (
                             where, name, "a row's 128-element" if name == "scale_a" else "128 x 128", block,
                             d.dtype, tuple(d.shape), tuple(d.strides)))
    return d, _arg(where, "%s's address" % name, d.ptr), layout


def _operands(where, c, bias, residual, sa=None, scale_a=None, scale_b=None):
    """bias= and residual= of a call: (the spec fields they declare, a
    struct kgen_matmul_operands, the described arrays).  bias: n values (a
    vector or 1 x n: one a column of C, bias[col], as torch.addmm's and a
    linear layer's) or m x 1 (one a row, bias[row]); residual: m x n,
    row-major (rows may be padded).  Each contiguous where it must be, on
    a's device, f32, f64, f16 or bf16."""
    fields, ops, held = {}, _lib.MatmulOperands(), []
    if bias is not None:
        d = describe(bias, "bias", where, sa)
        shape = tuple(d.shape)
        if shape in ((c.n,), (1, c.n)):
            fields["bias"], step = "col", d.strides[-1]
        elif shape == (c.m, 1):
            fields["bias"], step = "row", d.strides[0]
        else:
            raise ValueError("%s: bias must be n = %d values (a vector or 1 x %d: one a column of C) or %d x 1 (one a "
                             "row), not %s" % (where, c.n, c.n, c.m, shape))
        if step != 1 and max(shape) > 1:
            raise ValueError("%s: bias must be contiguous (stride 1 along its values), not stride %d" % (where, step))
        if d.dtype not in _MATMUL_DTYPES:
            raise TypeError("%s: bias must be %s, not %s" % (where, ", ".join(_MATMUL_DTYPES), d.dtype))
        if other_device(d, c.a):
            raise ValueError("%s: bias is on GPU %s and a on GPU %s: both must be on one device"
                             % (where, d.device, c.a.device))
        fields["bias_dtype"], ops.bias = d.dtype, _arg(where, "bias's address", d.ptr)
        held.append(d)
    if residual is not None:
        d = describe(residual, "residual", where, sa)
        if len(d.shape) != 2 or tuple(d.shape) != (c.m, c.n) or other_device(d, c.a):
            raise ValueError("%s: residual must be a %d x %d array on a's device, not %s%s"
                             % (where, c.m, c.n, tuple(d.shape), device_text(d, c.a, "a")))
        if not (c.n <= 1 or d.strides[1] == 1) or not (c.m <= 1 or d.strides[0] >= c.n):
            raise ValueError("%s: residual must be row-major (strides (ld, 1), rows may be padded), not strides %s"
                             % (where, tuple(d.strides)))
        if d.dtype not in _MATMUL_DTYPES:
            raise TypeError("%s: residual must be %s, not %s" % (where, ", ".join(_MATMUL_DTYPES), d.dtype))
        fields["residual"], fields["residual_dtype"] = "matrix", d.dtype
        ops.residual = _arg(where, "residual's address", d.ptr)
        ops.ldr = _arg(where, "residual's row pitch", d.strides[0] if c.m > 1 else max(c.n, 1))
        held.append(d)
    if c.a.dtype in _FP8:  # scale: tensor or block with both scales, none without either
        if (scale_a is None) != (scale_b is None):
            raise ValueError("%s: fp8 operands take both scale_a= and scale_b=, or neither (no scaling)" % where)
        fields["scale"] = "none"
        if c.b.dtype != c.a.dtype:
            fields["b_dtype"] = c.b.dtype
        if scale_a is not None:
            da, ops.scale_a, la = _scale(where, "scale_a", scale_a, c, sa)
            db, ops.scale_b, lb = _scale(where, "scale_b", scale_b, c, sa)
            if la != lb and c.m * ((c.k + 127) // 128) > 1 and ((c.n + 127) // 128) * ((c.k + 127) // 128) > 1:
                raise ValueError("%s: scale_a is %s and scale_b %s: both one value each (per tensor) or both blocks "
                                 "(DeepGEMM's)" % (where, "one value" if la == "tensor" else "blocks",
                                                   "one value" if lb == "tensor" else "blocks"))
            # A single scale each is the same product whichever way it is read (m = 1, n and k at most 128).
            fields["scale"] = "block" if "block" in (la, lb) else "tensor"
            held += [da, db]
    elif scale_a is not None or scale_b is not None:
        raise TypeError("%s: scale_a= and scale_b= are fp8's (a and b float8_e4m3fn or float8_e5m2), not %s's"
                        % (where, c.a.dtype))
    return fields, ops, held


def _need_matmul(where):
    if _lib.kgen_matmul is None or _lib.kgen_matmul_scratch_size is None:
        raise NotImplementedError("%s: this libkgen (%s) has no kgen_matmul(): build one with the matmul family"
                                  % (where, _lib.path))


def _scratch_array(a, nbytes, stream, explicit):
    """nbytes of scratch, allocated on the stream the kernel runs on (so that
    freeing it after the launch is ordered after the kernel): from a's
    framework (torch's caching allocator, CuPy's pool: during a CUDA graph
    capture, torch's come from the graph's pool), else kgen's own,
    stream-ordered (cuMemAllocAsync)."""
    if a.kind == "torch":
        torch = sys.modules["torch"]
        if not explicit:
            t = torch.empty(nbytes, dtype=torch.uint8, device=a.obj.device)
        else:
            with torch.cuda.stream(torch.cuda.ExternalStream(stream, device=a.obj.device)):
                t = torch.empty(nbytes, dtype=torch.uint8, device=a.obj.device)
        return t, t.data_ptr()
    if a.kind == "cupy":
        import cupy
        with cupy.cuda.Device(a.device if a.device is not None else cupy.cuda.runtime.getDevice()):
            if not explicit:
                t = cupy.empty(nbytes, dtype="uint8")
            else:
                with cupy.cuda.ExternalStream(stream):
                    t = cupy.empty(nbytes, dtype="uint8")
        return t, t.data.ptr
    t = _memory._Buffer(a.device or 0, nbytes, stream)
    return t, t.ptr


def _run_matmul(k, a, out, stream, where, b=None, alpha=1.0, beta=0.0, ready=None, bias=None, residual=None,
                described=None, scale_a=None, scale_b=None):
    """k(a, b): C = alpha A B + beta C with a kernel of the matmul family,
    then its epilogue, given the operands bias= and residual= its spec
    declares; ready: the fast path's key of this call (kgen.matmul of two
    torch tensors, no out=, alpha 1, beta 0, no operands), made ready there
    once it ran (a kernel with scratch, split_k, too: a new one each call)."""
    if b is None:
        raise TypeError("%s: a matmul kernel takes two arrays: k(a, b)" % where)
    c = _matmul_call(where, a, b if isinstance(b, Array) else describe(b, "b", where), out, alpha, beta)
    _need_matmul(where)
    f = k.spec.fields
    # kgen.matmul has described the operands already (described: _operands' answer); a Kernel's call has not.
    declared, ops, held = (described if described is not None else
                           _operands(where, c, bias, residual, scale_a=scale_a, scale_b=scale_b))
    if f["dtype"] in _FP8 and f.get("scale", "tensor") != declared.get("scale"):
        have = declared.get("scale")
        raise ValueError("%s: the kernel's fp8 operands are scaled (scale: %s): %s" % (
            where, f.get("scale", "tensor"), "pass scale_a= and scale_b=" if have == "none" else
            "it takes no scale_a= or scale_b=" if f.get("scale") == "none" else
            "the scale_a= and scale_b= given are %s" % ("one value each (scale: tensor)" if have == "tensor" else
                                                        "DeepGEMM's blocks (scale: block)")))
    for name, given in (("bias", bias), ("residual", residual)):
        spec_has = f.get(name, "none") != "none"
        if spec_has and given is None:
            raise ValueError("%s: the kernel's epilogue reads %s (%s: %s): pass %s=" % (where, name, name, f[name], name))
        if given is None:
            continue
        if not spec_has:
            raise ValueError("%s: %s= is given but the kernel declares none (its spec has no %s: %s)"
                             % (where, name, name, "col or row" if name == "bias" else "matrix"))
        if declared[name] != f[name]:
            raise ValueError("%s: the kernel's bias is one a %s (bias: %s), this one is one a %s"
                             % (where, f[name], f[name], declared[name]))
        if declared[name + "_dtype"] != f.get(name + "_dtype", declared[name + "_dtype"]):
            raise TypeError("%s: the kernel reads %s as %s, this %s is %s"
                            % (where, name, f[name + "_dtype"], name, declared[name + "_dtype"]))
    if c.a.dtype != f["dtype"] or c.b.dtype != f.get("b_dtype", f["dtype"]):
        raise TypeError("%s: the kernel multiplies %s by %s, a and b are %s and %s"
                        % (where, f["dtype"], f.get("b_dtype", f["dtype"]), c.a.dtype, c.b.dtype))
    lds = []
    for name, have in (("a", c.la), ("b", c.lb)):
        want = f.get(name + "_layout", "row")
        if want not in have:
            other = next(iter(have))
            raise ValueError("%s: the kernel reads %s as %s-major (%s_layout: %s), but this %s is %s-major; pass "
                             "a kernel with %s_layout: %s, or %s laid out as the kernel reads it"
                             % (where, name, want, name, want, name, other, name, other, name))
        lds.append(have[want])
    out_dtype = (f.get("out_dtype") if f.get("out_dtype") in _MATMUL_DTYPES else "bf16" if f["dtype"] in _FP8 else
                 f["dtype"])
    if c.o is not None and c.o.dtype != out_dtype:
        raise TypeError("%s: the kernel writes %s, out is %s" % (where, out_dtype, c.o.dtype))
    s = stream_of(c.a, stream, where)
    if c.out is None:
        res, optr = empty(c.a, (c.m, c.n), out_dtype, s, where)
    else:
        res, optr = c.out, c.o.ptr
    aux = None
    if f.get("aux"):  # the spec's auxiliary output: a new m x n array of C's dtype, returned beside C
        aux, ops.aux = empty(c.a, (c.m, c.n), out_dtype, s, where)
        ops.ldaux = max(c.n, 1)
    reductions = _reduction_vectors(c, f, ops, s, where)
    if (c.m == 0 or c.n == 0) and not reductions:
        return _with_aux(res if c.out is not None else finish(c.a, res), aux, c.a)
    err, size = _err(), _lib.ctypes.c_size_t()
    dims = (_arg(where, "m", c.m), _arg(where, "n", c.n), _arg(where, "k", c.k))
    _lib.check(_lib.kgen_matmul_scratch_size(k._handle, *dims, _byref(size), _byref(err)), err)
    scratch, sptr = None, 0
    if size.value:
        scratch, sptr = _scratch_array(c.a, size.value, s, stream is not None and s != current_stream(c.a))
    addresses = (_arg(where, "a's address", c.a.ptr), _arg(where, "b's address", c.b.ptr),
                 _arg(where, "out's address", optr))
    if held or aux is not None or reductions:
        if _lib.kgen_matmul_with is None:
            raise NotImplementedError("%s: this libkgen (%s) has no kgen_matmul_with(): bias= and residual= need a "
                                      "newer one" % (where, _lib.path))
        st = _lib.kgen_matmul_with(k._handle, *addresses, *dims, lds[0], lds[1], c.ldc, c.alpha, c.beta, _byref(ops),
                                   sptr, size.value, s, _byref(err))
    else:
        st = _lib.kgen_matmul(k._handle, *addresses, *dims, lds[0], lds[1], c.ldc, c.alpha, c.beta, sptr, size.value, s,
                              _byref(err))
    del scratch  # freed on the stream it was allocated for, after the kernel
    _lib.check(st, err)
    if (ready is not None and not held and aux is None and not reductions and c.a.kind == "torch" and
            c.alpha == 1.0 and c.beta == 0.0):
        _make_ready(ready, k, c, lds, out_dtype, size.value)
    keep = tuple(x.keep for x in [c.a, c.b] + held if x.keep is not None)
    if keep:
        _memory.hold(c.a.device or 0, s, keep)
    return _with_aux(res if c.out is not None else finish(c.a, res), aux, c.a, reductions)


def _with_aux(result, aux, a, reductions=None):
    """C, or with the spec's aux (C, the auxiliary output) in a's framework, and with its reductions a dict of
    their vectors last ({"row_sum": ..., "col_max": ...})."""
    out = (result,) + (() if aux is None else (finish(a, aux),))
    if reductions:
        out += ({name: finish(a, v) for name, v in reductions.items()},)
    return out[0] if len(out) == 1 else out


def _reduction_names(value):
    """row_reduce's or col_reduce's value (a spec's text "sum, max", or a sequence of names) as a tuple."""
    if value is None:
        return ()
    if isinstance(value, str):
        names = tuple(x.strip() for x in value.split(",") if x.strip())
        return () if names == ("none",) else names
    return tuple(value)


def _reduction_vectors(c, f, ops, s, where):
    """The spec's row_reduce and col_reduce vectors: a new array of m (or n) values of the accumulator's dtype
    for each, its address in ops' slot; a dict "row_sum" -> array, in the table's order."""
    got = {}
    acc = f.get("acc_dtype") if f.get("acc_dtype") in ("f32", "f64") else "f32"
    for line, count, slots in (("row", c.m, ops.row_reduce), ("col", c.n, ops.col_reduce)):
        names = _reduction_names(f.get(line + "_reduce"))
        for slot, name in enumerate(_lib.REDUCTIONS):
            if name in names:
                got[line + "_" + name], slots[slot] = empty(c.a, (count,), acc, s, where)
    return got


_ready_matmul = {}  # kgen._fast.matmul's key of a plain call of two torch tensors -> its MatmulReady
_fast_matmul = _lib.fast.matmul if _lib.fast is not None else None
_fast_set = False


def _make_ready(key, k, c, lds, out_dtype, scratch_bytes=0):
    """The MatmulReady of a plain call that ran (kgen._fast.matmul's path for
    the next ones): the kernel, the sizes and leading dimensions, and the
    result's template (a tensor of its shape, allocated with empty_like, for
    results of up to 64 Ki elements; a 0-d one's new_empty of the shape for
    larger ones), libkgen's kgen_matmul handed to kgen._fast first.  A
    kernel with scratch (split_k: a plan's entries at deep, narrow shapes)
    gets a new one each call from torch's caching allocator on the current
    stream, as _scratch_array gives the Python path's."""
    global _fast_set
    from . import _reduce
    torch = sys.modules["torch"]
    if not _fast_set:
        _reduce.fast_entry()
        _lib.fast.set_matmul(_lib.ctypes.cast(_lib.kgen_matmul, _lib.ctypes.c_void_p).value, _ready_matmul)
        _fast_set = True
    dev = torch.device("cuda", c.a.device or 0)
    shape = (c.m, c.n)
    if c.m * c.n <= 65536:
        make, result = torch.empty_like, torch.empty(shape, dtype=torch_dtype(out_dtype), device=dev)
    else:
        make, result = (lambda t: t.new_empty(shape)), torch.empty((), dtype=torch_dtype(out_dtype), device=dev)
    scratch = functools.partial(torch.empty, scratch_bytes, dtype=torch.uint8, device=dev) if scratch_bytes else None
    remember(_ready_matmul, key, _lib.fast.MatmulReady(k._handle, c.m, c.n, c.k, lds[0], lds[1], c.a.device or 0,
                                                       make, result, k, scratch_bytes, scratch))


def _ready_key(a, b):
    """kgen._fast.matmul's key of tensors a and b: each one's (dtype, shape,
    strides, device), and whether both addresses are 16-byte aligned."""
    return ((a.dtype, a.shape, a.stride(), a.get_device()), (b.dtype, b.shape, b.stride(), b.get_device()),
            (a.data_ptr() | b.data_ptr()) % 16 == 0)


def matmul(a: Any, b: Any, out: Any = None, spec: Any = None, alpha: float = 1.0, beta: float = 0.0, stream: Any = None,
           bias: Any = None, residual: Any = None, scale_a: Any = None, scale_b: Any = None,
           **overrides: Union[int, str, Sequence[str]]) -> Any:
    """C = alpha * a @ b + beta * C: a (M x K) and b (K x N) f32, f64, f16 or
    bf16 arrays of one dtype on one GPU, each row-major or column-major (a
    transposed view such as b.t(), read without a copy; rows or columns may
    be padded).  The result is a new row-major M x N array of the spec's
    out_dtype (the inputs' unless the spec says otherwise) in a's framework,
    or `out` (row-major, rows may be padded; beta != 0 reads it; its dtype
    becomes the kernel's out_dtype).  spec= chooses the kernel (a path, YAML
    text, a dict or a kgen.Spec; its dtype and layouts follow a and b);
    overrides set its fields, e.g. epilogue= (an expression of v).
    Without spec= or keywords, f16 and bf16 row-major a and b take the plan
    by shape kgen ships for a's GPU model where there is
    one (specs/plans/nvidia-h200/matmul-<dtype>.yaml): each call the kernel
    of the plan's entry for its M, N and K (skinny tiles or split k for
    decode shapes, the best spec for large ones).  Otherwise, without spec=
    and overrides (epilogue= and out_dtype= aside) the kernel
    is kgen's best for the dtype on a's GPU (specs/matmul/best/, shipped with
    the package): on sm_80 and newer, simt_f32.yaml for f32 and
    mma_<dtype>.yaml for f16 and bf16, wgmma_<dtype>.yaml on an H100 or H200
    (which first copies an a or b TMA cannot load, one not 16-byte aligned
    or whose leading dimension is not a multiple of 16 bytes, with aligned
    rows: unaligned: repack), and for f16 and bf16 with K of 16384 or more and too few tiles
    to keep half the GPU busy, mma_<dtype>.yaml with schedule: stream_k;
    otherwise, and with any other override, the family's defaults (a 64 x
    64-tile SIMT kernel) with the overrides, as spec={"kernel": "matmul"}
    always gives.

    bias= and residual= are the epilogue's operands, each read at the
    element (as the accumulator's type) where the epilogue names it: bias n
    values (a vector or 1 x n, bias[col], as torch.addmm's) or m x 1
    (bias[row]); residual an m x n row-major array (rows may be padded).
    Their dtypes are f32, f64, f16 or bf16, any of them.  Without epilogue=
    the epilogue is v + bias + residual (those given); with it, it must
    name each one given, e.g. epilogue='gelu(v + bias)'.  aux= (an
    expression of the same names, e.g. aux='v + bias', the value before
    the activation) also stores it to a second M x N array of C's dtype:
    the call then returns (C, aux).

    row_reduce= and col_reduce= (names of sum, sumsq, max, min, absmax and
    logsumexp, as a sequence or as the spec writes them, "sum, max") reduce
    each row (column) of the values stored, after the epilogue and before
    C's rounding, inside the matmul's own kernel: the call then also
    returns a dict of their vectors last, e.g. c, r = kgen.matmul(a, b,
    row_reduce=("sum", "max")) with r["row_sum"] and r["row_max"], each M
    (N) values of the accumulator's dtype (f32; f64 for f64).  logsumexp is
    log(sum(exp(v))) without overflow, what a softmax of the output needs:
    softmax(c) = exp(c - r["row_logsumexp"][:, None]).

    fp8: a and b torch.float8_e4m3fn or float8_e5m2 (one of each may mix),
    a row-major and b column-major (b = w.t() of an N x K w, as
    torch._scaled_mm takes it), on an H100 or H200: kgen's
    specs/matmul/best/wgmma_fp8.yaml (fp8_accum: promote), C bf16 unless
    out= or out_dtype= says f16 or f32; scale_a= and scale_b= (one float32
    each on the device, read by the kernel) make C = scale_a scale_b a @ b,
    without them C = a @ b; DeepGEMM's block scales instead (scale: block:
    scale_a ceil(K / 128) x M, or its M x ceil(K / 128) view, one a row
    and 128 of k; scale_b ceil(N / 128) x ceil(K / 128), one a 128 x 128
    block of the N x K weight) scale each 128 of k as it is added."""
    for key in ("row_reduce", "col_reduce"):
        if key in overrides and not isinstance(overrides[key], str):
            v = overrides[key]
            try:  # None (none), or names in any iterable (a tuple, a list, a set, ...)
                names = _reduction_names(v)
            except TypeError:
                names = None
            if names is None or not all(isinstance(n, str) for n in names):
                raise TypeError("kgen.matmul: %s is a name, a sequence of names or their text ('sum, max'), not %s (%s)"
                                % (key, _lib.shown(v), type(v).__name__))
            overrides[key] = ", ".join(names) or "none"
    if _trace.compiling():  # under torch.compile: the custom op kgen::matmul (kgen._torch)
        if (bias is not None or residual is not None or scale_a is not None or scale_b is not None or
                "aux" in overrides or "row_reduce" in overrides or "col_reduce" in overrides):
            raise NotImplementedError("kgen.matmul: bias=, residual=, scale_a=, scale_b=, aux= and the reductions are "
                                      "not traced by torch.compile yet: call it outside the compiled region, or add "
                                      "the operands after the matmul")
        return _trace.matmul(a, b, out, spec, alpha, beta, stream, overrides)
    if (type(a) is _arrays.Tensor and type(b) is _arrays.Tensor and out is None and spec is None and stream is None
            and not overrides and alpha.__class__ in (int, float) and alpha == 1 and beta.__class__ in (int, float)
            and beta == 0 and bias is None and residual is None and scale_a is None and scale_b is None):
        if _fast_matmul is not None:  # in C (kgen/_fast.c): NotImplemented for a call not made ready
            r = _fast_matmul(a, b)
            if r is not NotImplemented:
                return r
            return _matmul(a, b, out, spec, alpha, beta, stream, overrides, _ready_key(a, b))
    return _matmul(a, b, out, spec, alpha, beta, stream, overrides, bias=bias, residual=residual, scale_a=scale_a,
                   scale_b=scale_b)


def _shipped_plan(fields, overrides, device):
    """The shipped plan by shape for this call without spec= (specs/plans/
    nvidia-<model>/matmul-<dtype>.yaml, tuned on the device's GPU model), or
    None: only for f16 and bf16 row-major a and b (any alignment: the
    entries copy what TMA cannot load, unaligned: repack), C of their
    dtype, no overrides and no operands (a plan's entries compute exactly
    that: its layouts, types and epilogue), on sm_90."""
    dt = fields["dtype"]
    if (overrides or dt not in ("f16", "bf16") or fields.get("out_dtype", dt) != dt or
            set(fields) - {"dtype", "a_layout", "b_layout", "out_dtype"} or fields["a_layout"] != "row" or
            fields["b_layout"] != "row" or tuple(compute_capability(device)) != (9, 0)):
        return None
    from . import _plans
    return _plans.shipped("matmul", dt, gpu_name(device))


def _default_choice(c, fields, overrides, device):
    """The kernel without spec=, as (path, fields, fields as a key) of _default_matmul: kgen's
    best spec for the dtype on the device's GPU when the caller overrides
    nothing but the epilogue and out_dtype (each best spec takes any of
    both), else (None, {}, ()): the family's defaults."""
    if overrides and not overrides.keys() <= {"epilogue", "out_dtype", "aux", "row_reduce", "col_reduce"}:
        return None, {}, ()
    la, lb = fields["a_layout"], fields["b_layout"]
    return _chosen(c.a.dtype, compute_capability(device), la, lb)


_choices = {}  # _default_matmul's arguments -> (path, fields, the fields as a key)

# Deep k and few tiles (kgen.matmul without spec=, 16-bit operands): from this
# k on, a call whose best spec's tiles would keep fewer than half of the GPU's
# blocks busy takes mma_<dtype>.yaml with schedule: stream_k instead, which
# shares the tiles' k out among every block.  On an H100 (bench/results/
# nvidia-h100/2026-11-25-stream-k/5-deep-k): 1024 x 1024 x 65536 bf16 0.41 of
# cuBLAS against wgmma's 0.28 and mma's 0.26, 512 x 512 x 131072 0.52 against
# 0.09 and 0.08, 256 x 4096 x 32768 0.49 against 0.34 and 0.32; with enough
# tiles (2048 x 2048 x 16384: wgmma 0.93, mma 0.55) the best spec stays.
DEEP_K = 16384
_tiles = {}  # a best spec's path -> (tile_m, tile_n)


def _spec_tiles(path):
    got = _tiles.get(path)
    if got is None:
        f = Spec(path).fields
        got = _tiles[path] = (int(f["tile_m"]), int(f["tile_n"]))
    return got


def _deep_k_choice(choice, dtype, m, n, k, resident):
    """choice (_chosen's answer) for an m x n x k call: for 16-bit operands
    with k of DEEP_K or more whose best spec's tiles would keep fewer than
    half of the blocks of its kernel the GPU holds at once busy,
    mma_<dtype>.yaml with schedule: stream_k (see DEEP_K); else choice
    itself.  resident() gives those blocks (SMs x the kernel's occupancy;
    0 where unknown, which keeps choice), asked only when the rest holds:
    it builds the best spec's kernel."""
    path, extra = choice[0], choice[1]
    if path is None or dtype not in ("f16", "bf16") or k < DEEP_K:
        return choice
    tm, tn = _spec_tiles(path)
    tiles = (-(-m // tm)) * (-(-n // tn))
    if 2 * tiles >= resident():
        return choice
    mma = _best_spec("mma_%s.yaml" % dtype)
    if mma is None:
        return choice
    extra = {"schedule": "stream_k"}
    return mma, extra, tuple(sorted(extra.items()))


def _chosen(dtype, cc, a_layout, b_layout):
    """_default_matmul's answer and its fields as a sorted tuple, worked out
    once for each set of arguments (every call without spec= asks)."""
    args = (dtype, cc, a_layout, b_layout)
    got = _choices.get(args)
    if got is None:
        path, extra = _default_matmul(*args)
        got = _choices[args] = (path, extra, tuple(sorted(extra.items())))
    return got


def _default_kernel(where, device, fields, overrides, path, extra):
    """The kernel of _default_choice's (path, extra), with fields (dtype,
    layouts, out_dtype) and the overrides on top."""
    if path is None:
        return new_kernel(where, dict({"kernel": "matmul"}, **fields), device, overrides)
    return new_kernel(where, path, device, {**extra, **fields, **overrides})  # out_dtype= may repeat out='s


def _matmul(a, b, out, spec, alpha, beta, stream, overrides, ready=None, bias=None, residual=None, scale_a=None,
            scale_b=None):
    where = "kgen.matmul"
    refuse_dtype(where, overrides)
    sa = None if stream is None else stream_address(stream)
    c = _matmul_call(where, describe(a, "a", where, sa), describe(b, "b", where, sa), out, alpha, beta)
    _need_matmul(where)
    fields = {"dtype": c.a.dtype, "a_layout": "row" if "row" in c.la else "col",
              "b_layout": "row" if "row" in c.lb else "col"}
    described = _operands(where, c, bias, residual, sa, scale_a, scale_b)
    fields.update(described[0])  # the operands' keys, beside the best spec's
    if c.o is not None:
        if c.o.dtype not in _MATMUL_DTYPES:  # before a spec is built: its error would name the best spec's file
            raise ValueError("%s: out is %s: C is %s" % (where, c.o.dtype, ", ".join(_MATMUL_DTYPES[:-1]) + " or "
                                                         + _MATMUL_DTYPES[-1]))
        fields["out_dtype"] = c.o.dtype
    device = c.a.device or 0
    over = tuple(sorted(overrides.items()))
    s = stream_of(c.a, stream, where)
    plan = _shipped_plan(fields, overrides, device) if spec is None else None
    if plan is not None:  # the GPU's plan by shape: its entry for m, n and k, chosen in libkgen at each call
        k = cached(("plan", device, ("text", plan)), lambda: new_plan_kernel(where, plan, device), device, s, where)
    elif spec is None:
        # The choice itself in the key (the GPU's compute capability is the
        # device's): a deep-k call finds mma's stream-K kernel where others
        # took the best spec's, and a call aligned otherwise than the last
        # finds the same kernel, built already (as a CUDA graph's capture
        # needs; wgmma copies what TMA cannot load).
        choice = _default_choice(c, fields, overrides, device)

        def kernel(choice):
            path, extra, extra_key = choice
            key = ("matmul", device, tuple(sorted(fields.items())), over, path, extra_key)
            return cached(key, lambda: _default_kernel(where, device, fields, overrides, path, extra), device, s, where)

        choice = _deep_k_choice(choice, c.a.dtype, c.m, c.n, c.k,
                                lambda best=choice: sm_count(device) * kernel(best).blocks_per_sm)
        k = kernel(choice)
    else:
        check_family(where, spec, "matmul")
        key = ("matmul", device, _spec_key(spec), tuple(sorted(fields.items())), over)
        k = cached(key, lambda: new_kernel(where, spec, device, dict(fields, **overrides)), device, s, where)
    return _run_matmul(k, c.a, out, stream, where, c.b, alpha=c.alpha, beta=c.beta, ready=ready, bias=bias,
                       residual=residual, described=described)


RUNNERS["matmul"] = (_run_matmul, 2)
POSITIONAL["matmul"] = ("a", "b", "out", "alpha", "beta", "stream")
