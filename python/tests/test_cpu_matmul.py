"""kgen.matmul where it needs no GPU: the operands' checks, the layout read
from each operand's strides, and what reaches kgen_matmul() (a stand-in
for the C function records its arguments), whether or not this libkgen has
the matmul family."""
import os

import pytest

import kgen
from kgen import _lib, _matmul
from kgen._spec import _err

from test_cpu import TOP, FakeArray


def f32(shape, strides=None, ptr=0x10000, typestr="<f4"):
    """A device array of `shape` with `strides` in elements (the interface's are in bytes)."""
    size = int(typestr[2:])
    return FakeArray(shape, typestr, None if strides is None else tuple(s * size for s in strides), ptr)


@pytest.mark.parametrize("args, kw, error, match", [
    ((f32((4, 3)), f32((4, 5))), {}, ValueError, r"a is 4 x 3 and b is 4 x 5: a's columns must be as many as b's rows"),
    ((f32((4, 3, 2)), f32((3, 5))), {}, ValueError, r"kgen.matmul: a is a matrix \(2 dimensions\), not 3"),
    ((f32((4, 3)), f32((3,))), {}, ValueError, r"b is a matrix \(2 dimensions\), not 1"),
    ((f32((4, 3), typestr="<i4"), f32((3, 5), typestr="<i4")), {}, TypeError,
     r"matmul takes f32, f64, f16, bf16, e4m3, e5m2, not i32 \(a\)"),
    ((f32((4, 3)), f32((3, 5), typestr="<f8")), {}, TypeError, "a is f32 and b is f64: both must be of one dtype"),
    ((f32((4, 3), strides=(8, 2)), f32((3, 5))), {}, ValueError,
     r"a is neither row-major \(strides \(ld, 1\), ld >= 3\) nor column-major \(strides \(1, ld\), ld >= 4\): "
     r"its shape is \(4, 3\) and its strides \(8, 2\) elements; pass a.contiguous\(\)"),
    ((f32((4, 3)), f32((3, 5), strides=(0, 1))), {}, ValueError, "b is neither row-major"),  # a broadcast row
    ((f32((4, 3)), f32((3, 5), strides=(-5, 1))), {}, ValueError, "b has negative strides \\(-5, 1\\)"),
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


@pytest.mark.parametrize("kw", [{"bias": f32((5,))}, {"residual": f32((4, 5))}, {"scale_a": f32((1,))},
                                {"scale_b": f32((1,))}, {"aux": "v"}, {"row_reduce": "sum"}])
def test_what_torch_compile_cannot_trace_is_refused_there(monkeypatch, kw):
    """Under torch.compile (kgen._trace.compiling()) the custom op kgen::matmul takes a, b and the spec: an
    operand it would drop (a scale among them: C would come out unscaled) raises instead."""
    monkeypatch.setattr(_matmul._trace, "compiling", lambda: True)
    with pytest.raises(NotImplementedError, match="not traced by torch.compile yet"):
        kgen.matmul(f32((4, 3)), f32((3, 5)), **kw)


class _Scales:
    """What _scale_layout reads of a description: the shape and the strides (in elements)."""
    def __init__(self, shape, strides):
        self.shape, self.strides = shape, strides


class _Call:
    def __init__(self, m, n, k):
        self.m, self.n, self.k = m, n, k


@pytest.mark.parametrize("name, shape, strides, want", [
    ("scale_a", (1,), (1,), "tensor"), ("scale_b", (), (), "tensor"), ("scale_a", (1, 1), (1, 1), "tensor"),
    ("scale_a", (3, 200), (200, 1), "block"),   # ceil(k / 128) x m, row-major
    ("scale_a", (200, 3), (1, 200), "block"),   # its m x ceil(k / 128) view (DeepGEMM's)
    ("scale_a", (200, 3), (3, 1), None),        # m x ceil(k / 128) row-major: row i's scales adjacent
    ("scale_a", (3, 200), (208, 1), None),      # padded rows: the kernel reads kb * m + row
    ("scale_a", (2, 200), (200, 1), None),      # k = 300 has 3 blocks
    ("scale_b", (3, 3), (3, 1), "block"),       # ceil(n / 128) x ceil(k / 128)
    ("scale_b", (3, 3), (1, 3), None), ("scale_b", (3, 200), (200, 1), None),
])
def test_fp8_scales_are_told_apart_by_shape_and_strides(name, shape, strides, want):
    """fp8's scale_a= and scale_b= of an m = 200, n = 300, k = 300 call: one value (scale: tensor), DeepGEMM's
    blocks in the layout the kernel reads (scale: block), or neither."""
    assert _matmul._scale_layout(_Scales(shape, strides), name, _Call(200, 300, 300)) == want


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
    with pytest.raises(TypeError, match="the kernel multiplies f32 by f32, a and b are f64 and f64"):
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


# ---- the kernel kgen.matmul runs without spec= (kgen/_matmul.py _default_matmul) ----

BEST = os.path.join(TOP, "specs", "matmul", "best")
CCS = [(8, 0), (8, 9), (9, 0), (10, 0), (7, 5)]
LAYOUTS = [("row", "row"), ("row", "col"), ("col", "row"), ("col", "col")]


def want_default(dtype, cc, la, lb):
    """docs/python.md's rule, written out: (the best spec's file name or None, its fields)."""
    if dtype == "f64" or cc < (8, 0):
        return None, {}
    if dtype == "f32":
        # cp.async cannot transpose: a col-major A is kept transposed in shared memory, a col-major B takes one stage.
        return "simt_f32.yaml", dict([("a_smem", "transposed")] * (la == "col") + [("stages", 1)] * (lb == "col"))
    return ("wgmma_%s.yaml" if cc == (9, 0) else "mma_%s.yaml") % dtype, {}


@pytest.mark.parametrize("dtype", ["f32", "f64", "f16", "bf16"])
@pytest.mark.parametrize("cc", CCS)
@pytest.mark.parametrize("la, lb", LAYOUTS)
def test_the_default_is_the_best_spec_for_the_dtype_and_gpu(dtype, cc, la, lb):
    path, fields = _matmul._default_matmul(dtype, cc, la, lb)
    name, want = want_default(dtype, cc, la, lb)
    assert fields == want
    if name is None:
        assert path is None
    else:
        assert os.path.samefile(path, os.path.join(BEST, name))


def test_without_the_shipped_specs_the_default_is_the_familys(monkeypatch):
    monkeypatch.setattr(_matmul, "_BEST_DIRS", (os.path.join(TOP, "no such folder"),))
    assert _matmul._default_matmul("bf16", (9, 0), "col", "row") == (None, {})
    assert _matmul._default_matmul("f32", (8, 0), "col", "col") == (None, {})


# resident: the blocks of the best spec's kernel the GPU holds at once (SMs x
# its occupancy, which kgen.matmul asks the built kernel for), or None where
# the rule must decide without asking.
@pytest.mark.parametrize("name, m, n, k, resident, deep", [
    ("wgmma_bf16.yaml", 1024, 1024, 65536, 132, True),   # 32 tiles of 128 x 256: a quarter of an H100's blocks
    ("wgmma_f16.yaml", 256, 4096, 32768, 132, True),     # 2 x 16 tiles
    ("wgmma_bf16.yaml", 2048, 2048, 16384, 132, False),  # 128 tiles: the GPU busy
    ("wgmma_bf16.yaml", 1024, 1024, 16383, None, False),  # k below DEEP_K
    ("wgmma_bf16.yaml", 1024, 1024, 65536, 0, False),    # the occupancy unknown
    ("mma_f16.yaml", 1024, 1024, 65536, 264, True),      # 64 tiles of 128 x 128, two blocks an SM
    ("mma_bf16.yaml", 2048, 1024, 65536, 216, False),    # 128 tiles on an A100's 108 SMs, two blocks each
    ("simt_f32.yaml", 64, 64, 1 << 20, None, False),     # f32 keeps its spec (which shares k out itself)
])
def test_deep_k_with_few_tiles_takes_mma_with_stream_k(name, m, n, k, resident, deep):
    dtype = "f32" if name.startswith("simt") else name.split("_")[1][:-5]
    path = os.path.join(BEST, name)
    choice = (path, {}, ())

    def blocks():
        assert resident is not None, "the occupancy asked for where the rule needs none (it builds a kernel)"
        return resident

    got = _matmul._deep_k_choice(choice, dtype, m, n, k, blocks)
    if deep:
        assert os.path.samefile(got[0], os.path.join(BEST, "mma_%s.yaml" % dtype))
        assert got[1] == {"schedule": "stream_k"} and got[2] == (("schedule", "stream_k"),)
        kgen.check(got[0], **got[1])  # a valid spec
    else:
        assert got is choice


def test_deep_k_leaves_the_familys_default_alone():
    choice = (None, {}, ())
    assert _matmul._deep_k_choice(choice, "bf16", 512, 512, 1 << 17, lambda: 132) is choice


def _check_arch(spec, arch):
    """kgen_spec_check_arch: whether the spec's kernels build for arch (KgenError naming the key if not)."""
    f = _lib._sig("kgen_spec_check_arch", [_lib.ctypes.c_void_p, _lib.ctypes.c_char_p, _lib._E])
    err = _err()
    _lib.check(f(spec._handle, arch.encode(), _lib.ctypes.byref(err)), err)


def _every_default():
    """Each (cc, spec, fields) the default can be: _default_matmul's choices, layouts on top."""
    seen = []
    for dtype in ("f32", "f64", "f16", "bf16"):
        for cc in CCS:
            for la, lb in LAYOUTS:
                path, extra = _matmul._default_matmul(dtype, cc, la, lb)
                row = (cc, path or {"kernel": "matmul"}, dict(extra, dtype=dtype, a_layout=la, b_layout=lb))
                if row not in seen:
                    seen.append(row)
    return seen


@pytest.mark.parametrize("cc, spec, fields", _every_default())
def test_every_default_is_a_valid_spec_for_its_gpu(cc, spec, fields):
    # As _matmul builds it: the spec, its fields, the layouts and out= 's dtype on top, and an epilogue
    # (the one override that keeps the best spec); then the architecture the choice was made for.
    for out_dtype in (None, "f32", "f64", "f16", "bf16"):
        for epilogue in ({}, {"epilogue": "v > 0 ? v : 0"}):
            over = dict(fields, **epilogue)
            if out_dtype:
                over["out_dtype"] = out_dtype
            s = kgen.check(spec, **over)
            assert all(s.fields[k] == str(v) for k, v in over.items() if k != "epilogue")
            assert s.fields["epilogue"] == ("'v > 0 ? v : 0'" if epilogue else "'v'")
            _check_arch(s, "sm_%d%d" % cc)


def test_no_best_spec_sets_out_dtype():
    # kgen._torch's fake (torch.compile) takes a default result's dtype from the family's defaults, the
    # inputs' dtype: a best spec with another out_dtype would make the fake's dtype and the real one differ.
    names = [n for n in os.listdir(BEST) if n.endswith(".yaml")]
    assert names
    for name in names:
        fields = kgen.check(os.path.join(BEST, name)).fields
        family = kgen.check({"kernel": "matmul", "dtype": fields["dtype"]}).fields  # the inputs' dtype; fp8's bf16
        assert fields["out_dtype"] == family["out_dtype"], name
        for dt in ("f32", "f16", "bf16"):
            try:
                over = kgen.check(os.path.join(BEST, name), dtype=dt).fields
            except kgen.SpecError:
                continue  # a spec of one dtype (wgmma's, mma's) refuses the others
            assert over["out_dtype"] == dt, (name, dt)


def test_the_best_specs_need_the_gpus_they_are_chosen_for():
    # What the choice rests on, from libkgen: wgmma only on sm_90 (sm_90a), mma.sync and cp.async from sm_80.
    wgmma, mma = kgen.check(os.path.join(BEST, "wgmma_bf16.yaml")), kgen.check(os.path.join(BEST, "mma_bf16.yaml"))
    for arch in ("sm_80", "sm_89", "sm_100"):
        with pytest.raises(kgen.SpecError, match="math: wgmma needs sm_90a"):
            _check_arch(wgmma, arch)
    with pytest.raises(kgen.SpecError, match="needs sm_80 or newer"):
        _check_arch(mma, "sm_75")
    with pytest.raises(kgen.SpecError, match="needs sm_80 or newer"):
        _check_arch(kgen.check(os.path.join(BEST, "simt_f32.yaml")), "sm_75")


