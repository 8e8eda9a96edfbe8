"""kgen.matmul where it needs no GPU: the operands' checks, the layout read
from each operand's strides, and what reaches kgen_matmul() (a stand-in
for the C function records its arguments), whether or not this libkgen has
the matmul family."""
import pytest

import kgen
from kgen import _lib

from test_cpu import FakeArray


def f32(shape, strides=None, ptr=0x10000, typestr="<f4"):
    """A device array of `shape` with `strides` in elements (the interface's are in bytes)."""
    size = int(typestr[2:])
    return FakeArray(shape, typestr, None if strides is None else tuple(s * size for s in strides), ptr)


@pytest.mark.parametrize("args, kw, error, match", [
    ((f32((4, 3)), f32((4, 5))), {}, ValueError, r"a is 4 x 3 and b is 4 x 5: a's columns must be as many as b's rows"),
    ((f32((4, 3, 2)), f32((3, 5))), {}, ValueError, r"kgen.matmul: a is a matrix \(2 dimensions\), not 3"),
    ((f32((4, 3)), f32((3,))), {}, ValueError, r"b is a matrix \(2 dimensions\), not 1"),
    ((f32((4, 3), typestr="<i4"), f32((3, 5), typestr="<i4")), {}, TypeError,
     r"matmul takes f32, f64, f16, bf16, not i32 \(a\)"),
    ((f32((4, 3)), f32((3, 5), typestr="<f8")), {}, TypeError, "a is f32 and b is f64: both must be of one dtype"),
    ((f32((4, 3), strides=(8, 2)), f32((3, 5))), {}, ValueError,
     r"a is neither row-major \(strides \(ld, 1\), ld >= 3\) nor column-major \(strides \(1, ld\), ld >= 4\): "
     r"its shape is \(4, 3\) and its strides \(8, 2\) elements; pass a.contiguous\(\)"),
    ((f32((4, 3)), f32((3, 5), strides=(0, 1))), {}, ValueError, "b is neither row-major"),  # a broadcast row
    ((f32((4, 3)), f32((3, 5), strides=(-5, 1))), {}, ValueError, "b is neither row-major"),
    ((f32((4, 0)), f32((0, 5))), {}, ValueError, r"K is 0 \(a is 4 x 0\)"),
    ((f32((4, 3)), f32((3, 5))), {"beta": 0.5}, ValueError, "beta=0.5 reads C: pass the C to scale and add to as out="),
    ((f32((4, 3)), f32((3, 5))), {"alpha": True}, TypeError, r"alpha is a real number, not True \(bool\)"),
    ((f32((4, 3)), f32((3, 5))), {"beta": 1j, "out": f32((4, 5))}, TypeError, r"beta is a real number, not 1j"),
    ((f32((4, 3)), f32((3, 5))), {"alpha": "2"}, TypeError, "alpha is a real number, not '2'"),
    ((f32((4, 3)), f32((3, 5))), {"alpha": float("inf")}, ValueError, "alpha must be finite, not inf"),
    ((f32((4, 3)), f32((3, 5))), {"out": f32((5, 4))}, ValueError, r"out must be a 4 x 5 array on a's device"),
    ((f32((4, 3)), f32((3, 5))), {"out": f32((4, 5), strides=(1, 4))}, ValueError,
     r"out must be row-major \(strides \(ld, 1\), rows may be padded\), not strides \(1, 4\)"),
    ((f32((4, 3)), f32((3, 5), strides=(2**64, 1))), {}, ValueError,
     "kgen.matmul: b's leading dimension must be an int from 0 to 18446744073709551615, not 18446744073709551616"),
    (([[1.0]], f32((1, 5))), {}, TypeError, "is not a CUDA array"),
])
def test_operands_kgen_cannot_take_are_refused_before_any_gpu(args, kw, error, match):
    with pytest.raises(error, match=match):
        kgen.matmul(*args, **kw)


def test_operands_on_two_devices_are_refused():
    a, b = f32((4, 3)), f32((3, 5))
    a.device = type("Device", (), {"id": 0})()
    b.device = type("Device", (), {"id": 1})()
    with pytest.raises(ValueError, match="a is on GPU 0 and b on GPU 1: both must be on one device"):
        kgen.matmul(a, b)


def test_a_missing_c_function_is_a_clear_error_on_call(monkeypatch):
    monkeypatch.setattr(_lib, "kgen_matmul", None)
    with pytest.raises(NotImplementedError, match=r"kgen.matmul: this libkgen \(.*\) has no kgen_matmul\(\): build "
                                                  "one with the matmul family"):
        kgen.matmul(f32((4, 3)), f32((3, 5)))
    # The package itself imported: everything else is there.
    assert kgen.check({"kernel": "transpose", "dtype": "f32"}).fields["kernel"] == "transpose"


@pytest.mark.parametrize("shape, strides, want", [
    ((4, 3), (3, 1), {"row": 3}),
    ((4, 3), (8, 1), {"row": 8}),            # padded rows: a slice x[:, :3] of a 4 x 8 matrix
    ((4, 3), (1, 4), {"col": 4}),            # a transposed view: y.t() of a 3 x 4 y
    ((4, 3), (1, 6), {"col": 6}),            # of a padded one
    ((1, 3), (7, 1), {"row": 3, "col": 1}),  # one row: either, and its pitch is not read
    ((4, 1), (1, 9), {"row": 1, "col": 4}),  # one column: either
    ((1, 1), (5, 5), {"row": 1, "col": 1}),
])
def test_layouts_are_read_from_strides(shape, strides, want):
    assert kgen._layouts(kgen.describe(f32(shape, strides)), "a", "kgen.matmul") == want


class Recorder:
    """kgen_matmul_scratch_size and kgen_matmul as the package calls them: the arguments kept."""

    def __init__(self, scratch=0):
        self.calls, self.scratch = [], scratch

    def size(self, kernel, m, n, k, size, err):
        size._obj.value = self.scratch
        return 0

    def matmul(self, *args):
        self.calls.append(args)
        return 0


def _matmul_kernel(a_layout="row", b_layout="row", dtype="f32", out_dtype=None):
    """A matmul Kernel with a NULL handle: what it would pass to C is recorded, nothing runs."""
    k = object.__new__(kgen.Kernel)
    k._handle, k.device, k.family, k._dtype, k._acc = None, 0, "matmul", dtype, out_dtype or dtype
    fields = {"kernel": "matmul", "dtype": dtype, "a_layout": a_layout, "b_layout": b_layout}
    if out_dtype:
        fields["out_dtype"] = out_dtype
    k.spec = type("S", (), {"fields": fields})()
    return k


@pytest.fixture
def rec(monkeypatch):
    r = Recorder()
    monkeypatch.setattr(_lib, "kgen_matmul", r.matmul)
    monkeypatch.setattr(_lib, "kgen_matmul_scratch_size", r.size)
    return r


def test_what_reaches_c_row_major(rec):
    out = f32((7, 5), ptr=0x30000)
    k = _matmul_kernel()
    assert k(f32((7, 3), ptr=0x10000), f32((3, 5), ptr=0x20000), out=out, alpha=2, beta=0.5, stream=0) is out
    (args,) = rec.calls
    # kernel, a, b, c, m, n, k, lda, ldb, ldc, alpha, beta, scratch, scratch_bytes, stream, err
    assert args[:15] == (None, 0x10000, 0x20000, 0x30000, 7, 5, 3, 3, 5, 5, 2.0, 0.5, 0, 0, 0)


def test_what_reaches_c_transposed_views_and_padding(rec):
    # a = x.t() of a 3 x 7 x with rows of 8; b = y.t() of a 5 x 3 y; out = z[:, :5] of a 7 x 6 z.
    k = _matmul_kernel("col", "col")
    k(f32((7, 3), (1, 8)), f32((3, 5), (1, 3)), out=f32((7, 5), (6, 1)), stream=0)
    (args,) = rec.calls
    assert args[4:12] == (7, 5, 3, 8, 3, 6, 1.0, 0.0)


def test_a_layout_other_than_the_kernels_is_refused(rec):
    k = _matmul_kernel("row", "row")
    with pytest.raises(ValueError, match=r"the kernel reads b as row-major \(b_layout: row\), but this b is "
                                         "col-major; pass a kernel with b_layout: col"):
        k(f32((7, 3)), f32((3, 5), (1, 3)), out=f32((7, 5)), stream=0)
    with pytest.raises(TypeError, match="the kernel multiplies f32, a and b are f64"):
        k(f32((7, 3), typestr="<f8"), f32((3, 5), typestr="<f8"), out=f32((7, 5), typestr="<f8"), stream=0)
    with pytest.raises(TypeError, match="the kernel writes f32, out is f64"):
        k(f32((7, 3)), f32((3, 5)), out=f32((7, 5), typestr="<f8"), stream=0)
    with pytest.raises(TypeError, match="a matmul kernel takes two arrays: k\\(a, b\\)"):
        k(f32((7, 3)), out=f32((7, 5)))
    assert rec.calls == []
    # A one-input kernel is called as before: x, then out and stream (by position too), nothing more.
    with pytest.raises(TypeError, match="a transpose kernel is called as k\\(x, out=None, stream=None\\)"):
        _one("transpose")(f32((4, 4)), f32((4, 4)), 0, 0)
    with pytest.raises(TypeError, match="a reduce kernel is called as k\\(x, out=None, stream=None\\)"):
        _one("reduce")(f32((4,)), alpha=2)


def _one(family):
    k = object.__new__(kgen.Kernel)
    k._handle, k.device, k.family, k._dtype, k._acc = None, 0, family, "f32", "f32"
    k.spec = type("S", (), {"fields": {"kernel": family, "dtype": "f32"}})()
    return k


def test_a_one_input_kernel_takes_out_and_stream_by_position():
    with pytest.raises(kgen.KgenError, match="kgen_reduce_scratch_size: NULL argument"):
        _one("reduce")(f32((10,)), f32(()), 0)  # C is reached: out and stream were taken by position


def test_m_or_n_zero_returns_out_without_a_call(rec):
    out = f32((4, 0))
    assert _matmul_kernel()(f32((4, 3)), f32((3, 0)), out=out, stream=0) is out
    assert rec.calls == []
