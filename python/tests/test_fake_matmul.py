"""kgen.matmul's kernel without spec= against the fake driver (a "Fake
H200", compute capability 9.0): the best spec for the dtype
(specs/matmul/best/), wgmma for 16-bit operands TMA can load and mma.sync
for others, simt_f32.yaml for f32 in every layout; the family's defaults
with an override other than epilogue= and out_dtype=, and with
spec={"kernel": "matmul"}; on a GPU without a shipped plan by shape (the
fixture hides the tree's H200 plans: test_fake_plans.py has the plan's
choices).
Kernels do not run: the launch's kernel name and block size say which
spec was built, the driver's count of tensor-map encodes whether TMA was."""
import ctypes
import math
import os

import pytest

import kgen
from kgen import _arrays, _kernel, _plans
from fakecuda import Device, Stream, counter, launches_since, mark, need_fake, record_params

need_fake()


@pytest.fixture(autouse=True)
def no_shipped_plans(monkeypatch):
    """The best specs' choice, as on a GPU model kgen ships no matmul plan for."""
    monkeypatch.setattr(_plans, "directory", lambda: None)
    monkeypatch.setattr(_plans, "_shipped", {})

TOP = os.environ.get("KGEN_TOP_SRCDIR", os.path.join(os.path.dirname(__file__), "..", ".."))
BEST = os.path.join(TOP, "specs", "matmul", "best")
RELU = "v > 0 ? v : 0"


def threads(spec):
    return int(kgen.check(spec).fields["threads"])


def launched(*args, **kw):
    """(kernel name, threads a block, tensor maps encoded) of the one launch of kgen.matmul(*args, **kw)."""
    m, encodes = mark(), counter("fake_cuda_encodes").value
    kgen.matmul(*args, **kw)
    (call,) = launches_since(m)
    block = call.block[0] * call.block[1] * call.block[2]
    return call.name.decode(), block, counter("fake_cuda_encodes").value - encodes


def f16(rows, cols, offset=0):
    return Device((rows, cols), "<f2", offset=offset)


def test_the_gpus_compute_capability_is_the_drivers():
    assert _kernel.compute_capability(0) == (9, 0)


@pytest.mark.parametrize("arch, cc", [("sm_80", (8, 0)), ("sm_89", (8, 9)), ("sm_90", (9, 0)), ("sm_90a", (9, 0)),
                                      ("sm_100", (10, 0)), ("sm_100f", (10, 0)), ("sm_120", (12, 0)),
                                      ("sm_121", (12, 1))])
def test_architecture_names_give_their_compute_capability(arch, cc):
    assert _kernel.parse_arch(arch) == cc


@pytest.mark.parametrize("arch", ["sm_", "sm_9", "compute_90", "sm_90ab", ""])
def test_what_is_no_architecture_name_is_refused(arch):
    with pytest.raises(ValueError, match="not an architecture name"):
        _kernel.parse_arch(arch)


def test_out_dtype_beside_out_keeps_the_best_spec():
    # out= sets the kernel's out_dtype; out_dtype= saying the same again is no conflict (it was a TypeError).
    af, bf = Device((96, 40)), Device((40, 72))
    best = threads(os.path.join(BEST, "simt_f32.yaml"))
    assert launched(af, bf, out=Device((96, 72)), out_dtype="f32") == ("matmul_simt_f32", best, 0)
    a, b = f16(128, 64), f16(64, 256)
    assert launched(a, b, out=Device((128, 256)), out_dtype="f32")[0] == "matmul_wgmma_f16"


def test_16_bit_operands_tma_can_load_take_wgmma():
    wgmma = threads(os.path.join(BEST, "wgmma_f16.yaml"))
    name, block, encodes = launched(f16(128, 64), f16(64, 256))  # rows of 128 and 512 bytes
    assert (name, block) == ("matmul_wgmma_f16", wgmma) and encodes > 0
    # Transposed views with 16-byte rows too, a ReLU, and an f32 out=.
    a, b = Device((128, 64), "<f2", strides=(1, 128)), Device((64, 256), "<f2", strides=(1, 64))
    assert launched(a, b, epilogue=RELU)[:2] == ("matmul_wgmma_f16", wgmma)
    assert launched(f16(128, 64), f16(64, 256), out=Device((128, 256)))[:2] == ("matmul_wgmma_f16", wgmma)
    x, y = kgen.DeviceArray((128, 64), "bf16", 0, 0), kgen.DeviceArray((64, 256), "bf16", 0, 0)
    assert x.ptr % 16 == 0 and y.ptr % 16 == 0
    assert launched(x, y)[:2] == ("matmul_wgmma_bf16", threads(os.path.join(BEST, "wgmma_bf16.yaml")))


@pytest.mark.parametrize("a, b", [
    ((128, 63, 0), (63, 256, 0)),   # a's rows of 126 bytes
    ((128, 64, 0), (64, 100, 0)),   # b's rows of 200 bytes
    ((128, 64, 8), (64, 256, 0)),   # a 8 bytes past a 16-byte boundary
    ((128, 64, 0), (64, 256, 2)),   # b 2 bytes past
])
def test_16_bit_operands_tma_cannot_load_are_copied_for_wgmma(a, b):
    # The wgmma kernel (unaligned: repack) copies the operand TMA cannot load with rows of 16-byte
    # multiples from a 16-byte boundary (NAME_repack), then multiplies the copy; both maps encoded.
    # C (new, n columns) takes TMA where its rows are 16-byte multiples, else the kernel that copies
    # it out element by element (NAME_unaligned).
    m, encodes = mark(), counter("fake_cuda_encodes").value
    kgen.matmul(f16(*a), f16(*b))
    copy, call = launches_since(m)
    kernel = "matmul_wgmma_f16" if b[1] * 2 % 16 == 0 else "matmul_wgmma_f16_unaligned"
    assert copy.name.decode() == "matmul_wgmma_f16_repack" and call.name.decode() == kernel
    assert counter("fake_cuda_encodes").value - encodes >= 2  # A and B, one of them the copy (and C, unless kept)


def test_deep_k_asks_the_best_kernels_occupancy():
    # The fake holds 2 blocks of a kernel of up to 512 threads on each of its 132 SMs: 264 of wgmma's.
    assert kgen.Kernel(os.path.join(BEST, "wgmma_f16.yaml")).blocks_per_sm == 2
    mma = threads(os.path.join(BEST, "mma_f16.yaml"))
    # 1024 x 1024 x 65536: 8 x 4 tiles of 128 x 256, fewer than half of the 264: mma.sync with stream-K.
    assert launched(f16(1024, 65536), f16(65536, 1024))[:2] == ("matmul_mma_f16", mma)
    # 2048 x 1280 x 16384: 16 x 5 tiles, fewer than half of the fake's 264 (not of 132, one block an SM).
    assert launched(f16(2048, 16384), f16(16384, 1280))[:2] == ("matmul_mma_f16", mma)
    # 4096 x 2048 x 16384: 32 x 8 tiles, enough: the best spec (wgmma) stays.
    assert launched(f16(4096, 16384), f16(16384, 2048))[:2] == ("matmul_wgmma_f16", threads(os.path.join(BEST, "wgmma_f16.yaml")))


def test_the_kernel_follows_each_calls_alignment():
    # One shape, its operands aligned or not from call to call: one kernel, which copies A first where A is not
    # 16-byte aligned.
    for offset, names in ((0, [b"matmul_wgmma_f16"]), (8, [b"matmul_wgmma_f16_repack", b"matmul_wgmma_f16"]),
                          (0, [b"matmul_wgmma_f16"]), (8, [b"matmul_wgmma_f16_repack", b"matmul_wgmma_f16"])):
        m = mark()
        kgen.matmul(f16(128, 64, offset), f16(64, 256))
        assert [x.name for x in launches_since(m)] == names


def test_a_capture_finds_the_kernel_where_alignment_chooses_nothing():
    # f32 warmed up with 16-byte-aligned operands, captured with a 4 bytes past: simt_f32's kernel either way, built.
    s, out = Stream(), Device((96, 72))
    kgen.matmul(Device((96, 40)), Device((40, 72)), out=out, stream=s.handle)
    s.begin_capture()
    try:
        m = mark()
        kgen.matmul(Device((96, 40), offset=4), Device((40, 72)), out=out, stream=s.handle)
        assert launches_since(m)[0].name == b"matmul_simt_f32"
    finally:
        s.end_capture()
    # f16 on sm_90 warmed up with aligned operands: operands TMA cannot load need room for their copies (2 MB,
    # more than any call before), which a capture cannot allocate; warmed up with them, the capture takes both
    # launches.
    h = Device((1024, 256), "<f2")
    kgen.matmul(f16(1024, 1000), f16(1000, 256), out=h, stream=s.handle)
    s.begin_capture()
    try:
        with pytest.raises(kgen.CaptureError, match="which a stream capture cannot allocate: make a call of this shape"):
            kgen.matmul(f16(1024, 1000, 8), f16(1000, 256), out=h, stream=s.handle)
    finally:
        s.end_capture()
    kgen.matmul(f16(1024, 1000, 8), f16(1000, 256), out=h, stream=s.handle)
    s.begin_capture()
    try:
        m = mark()
        kgen.matmul(f16(1024, 1000, 8), f16(1000, 256), out=h, stream=s.handle)
        assert [x.name for x in launches_since(m)] == [b"matmul_wgmma_f16_repack", b"matmul_wgmma_f16"]
    finally:
        s.end_capture()


@pytest.mark.parametrize("la, lb", [("row", "row"), ("row", "col"), ("col", "row"), ("col", "col")])
def test_f32_takes_the_best_simt_spec_in_every_layout(la, lb):
    # simt_f32.yaml with a_smem: transposed for a column-major A and one stage for a column-major B.
    a = Device((96, 40)) if la == "row" else Device((96, 40), strides=(1, 96))
    b = Device((40, 72)) if lb == "row" else Device((40, 72), strides=(1, 40))
    best, family = threads(os.path.join(BEST, "simt_f32.yaml")), threads({"kernel": "matmul", "dtype": "f32"})
    assert best != family  # the block size tells them apart
    assert launched(a, b) == ("matmul_simt_f32", best, 0)
    assert launched(a, b, epilogue=RELU) == ("matmul_simt_f32", best, 0)
    assert launched(a, b, out_dtype="f64", epilogue=RELU) == ("matmul_simt_f32", best, 0)


def test_f64_takes_the_familys_defaults():
    a, b = Device((64, 32), "<f8"), Device((32, 64), "<f8")
    assert launched(a, b)[:2] == ("matmul_simt_f64", threads({"kernel": "matmul", "dtype": "f64"}))


def test_another_override_or_spec_matmul_takes_the_familys_defaults():
    family = threads({"kernel": "matmul", "dtype": "f16"})
    a, b = f16(128, 64), f16(64, 256)
    assert launched(a, b, spec={"kernel": "matmul"}) == ("matmul_simt_f16", family, 0)
    assert launched(a, b, tile_m=32)[:2] == ("matmul_simt_f16", threads({"kernel": "matmul", "dtype": "f16",
                                                                          "tile_m": 32}))
    assert launched(a, b, tile_m=32, epilogue=RELU)[0] == "matmul_simt_f16"
    assert launched(a, b, math="mma")[:2] == ("matmul_mma_f16", threads({"kernel": "matmul", "dtype": "f16",
                                                                          "math": "mma"}))


def test_spec_mma_tma_loads_with_tensor_maps():
    # specs/matmul/best/mma_tma_f16.yaml (math: mma, loads: tma): mma.sync whose tiles TMA copies; its
    # layouts follow a and b; operands TMA cannot copy are copied with rows of 16-byte multiples and the
    # kernel runs on the copies (unaligned: repack, the default), run the cp.async fallback (unaligned:
    # fallback), or with unaligned: refuse are refused with the way out.
    path = os.path.join(BEST, "mma_tma_f16.yaml")
    name, block, encodes = launched(f16(128, 64), f16(64, 256), spec=path)
    assert (name, block) == ("matmul_mma_f16", threads(path)) and encodes > 0
    a, b = Device((128, 64), "<f2", strides=(1, 128)), Device((64, 256), "<f2", strides=(1, 64))
    assert launched(a, b, spec=path, epilogue=RELU)[0] == "matmul_mma_f16"
    m = mark()
    kgen.matmul(f16(128, 63), f16(63, 256), spec=path)
    copy, call = launches_since(m)  # A's rows of 126 bytes copied to rows of 128; B's 512 are whole
    assert copy.name.decode() == "matmul_mma_f16_repack"
    assert call.name.decode() == "matmul_mma_f16" and call.smem != 98304  # the TMA kernel, on A's copy
    m = mark()
    kgen.matmul(f16(128, 63), f16(63, 256), spec=path, unaligned="fallback")
    (call,) = launches_since(m)
    assert call.name.decode() == "matmul_mma_f16" and call.smem == 98304  # mma_f16.yaml's three cp.async stages
    with pytest.raises(kgen.KgenError, match=r"or use loads: cp_async \(the spec's unaligned: refuse forbids"):
        kgen.matmul(f16(128, 63), f16(63, 256), spec=path, unaligned="refuse")


def bf16(rows, cols=None):
    shape = (rows,) if cols is None else (rows, cols)
    return kgen.DeviceArray(shape, "bf16", 0, 0)


def test_bias_and_residual_keep_the_best_spec():
    # bias= and residual= declare the spec's operands beside the best spec's keys (the default epilogue adds them).
    a, b = bf16(128, 64), bf16(64, 256)
    wgmma = threads(os.path.join(BEST, "wgmma_bf16.yaml"))
    assert launched(a, b, bias=bf16(256))[:2] == ("matmul_wgmma_bf16", wgmma)
    assert launched(a, b, bias=bf16(256), epilogue="gelu(v + bias)")[:2] == ("matmul_wgmma_bf16", wgmma)
    assert launched(a, b, bias=bf16(128, 1), residual=bf16(128, 256),
                    epilogue="silu(v + bias) + residual")[:2] == ("matmul_wgmma_bf16", wgmma)
    k = kgen.Kernel({"kernel": "matmul", "dtype": "bf16", "bias": "col", "epilogue": "gelu(v + bias)"})
    m = mark()
    k(a, b, bias=bf16(1, 256))
    assert [c.name.decode() for c in launches_since(m)] == ["matmul_simt_bf16"]


@pytest.mark.parametrize("kw, error, match", [
    (dict(bias=bf16(100)), ValueError, "bias must be n = 256 values"),
    (dict(bias=bf16(256, 1)), ValueError, "bias must be n = 256 values"),
    (dict(residual=bf16(128, 255)), ValueError, "residual must be a 128 x 256 array"),
    (dict(bias=kgen.DeviceArray((256,), "i32", 0, 0)), TypeError, "bias must be f32, f64, f16, bf16, not i32"),
    (dict(epilogue="gelu(v)", bias=bf16(256)), kgen.SpecError, "does not read bias"),
    (dict(epilogue="v + residual"), kgen.SpecError, "residual is not declared"),
    # out= of a type no C is: said as a call's mistake, not as an error of the best spec's file
    (dict(out=Device((128, 256), "<i4")), ValueError, "kgen.matmul: out is i32: C is f32, f64, f16 or bf16"),
])
def test_bad_operands_are_refused_before_a_launch(kw, error, match):
    m = mark()
    with pytest.raises(error, match=match):
        kgen.matmul(bf16(128, 64), bf16(64, 256), **kw)
    assert launches_since(m) == []


def test_aux_returns_the_auxiliary_output_beside_c():
    # aux= keeps the best spec and returns (C, aux), each M x N of C's dtype, from one launch.
    a, b = bf16(128, 64), bf16(64, 256)
    m = mark()
    got = kgen.matmul(a, b, bias=bf16(256), epilogue="gelu(v + bias)", aux="v + bias")
    (call,) = launches_since(m)
    assert call.name.decode() == "matmul_wgmma_bf16"
    assert isinstance(got, tuple) and len(got) == 2
    assert [tuple(x.shape) for x in got] == [(128, 256), (128, 256)] and got[0].ptr != got[1].ptr
    with pytest.raises(kgen.SpecError, match="aux: bias is not declared"):
        kgen.matmul(a, b, aux="v + bias")


def test_reductions_return_their_vectors_set_to_identities():
    # row_reduce= and col_reduce= keep the best spec and return a dict of their vectors last, M and N f32 values
    # each, which the call sets to the reductions' identities before the kernel (the fake runs none, so that is
    # what they hold): 0 for the sums and absmax, -inf for max and logsumexp, +inf for min.
    a, b = bf16(128, 64), bf16(64, 256)
    m = mark()
    c, r = kgen.matmul(a, b, row_reduce=("max", "sum", "logsumexp"), col_reduce="min, absmax")
    (call,) = launches_since(m)
    assert call.name.decode() == "matmul_wgmma_bf16"
    assert tuple(c.shape) == (128, 256)
    assert sorted(r) == ["col_absmax", "col_min", "row_logsumexp", "row_max", "row_sum"]
    assert [tuple(r[k].shape) for k in sorted(r)] == [(256,), (256,), (128,), (128,), (128,)]

    def values(x):
        return list((ctypes.c_float * x.shape[0]).from_address(x.ptr))

    assert values(r["row_sum"]) == [0.0] * 128 and values(r["col_absmax"]) == [0.0] * 256
    assert values(r["row_max"]) == [-math.inf] * 128 and values(r["col_min"]) == [math.inf] * 256
    assert values(r["row_logsumexp"]) == [-math.inf] * 128
    c, aux, r = kgen.matmul(a, b, bias=bf16(256), epilogue="gelu(v + bias)", aux="v + bias", row_reduce=["sumsq"])
    assert list(r) == ["row_sumsq"] and tuple(aux.shape) == (128, 256)
    e, r = kgen.matmul(bf16(0, 64), b, row_reduce="sum", col_reduce=("max",))  # no rows: the columns' max of nothing
    assert tuple(e.shape) == (0, 256) and values(r["col_max"]) == [-math.inf] * 256
    assert tuple(r["row_sum"].shape) == (0,)
    with pytest.raises(kgen.SpecError, match="row_reduce: unknown value 'mean'"):
        kgen.matmul(a, b, row_reduce="sum, mean")
    assert kgen.matmul(a, b, row_reduce=()).shape == c.shape  # none: C alone


def test_a_kernel_and_its_operands_must_agree():
    a, b = bf16(128, 64), bf16(64, 256)
    k = kgen.Kernel({"kernel": "matmul", "dtype": "bf16", "bias": "col", "epilogue": "gelu(v + bias)"})
    with pytest.raises(ValueError, match="reads bias .bias: col.: pass bias="):
        k(a, b)
    with pytest.raises(ValueError, match="one a col .bias: col., this one is one a row"):
        k(a, b, bias=bf16(128, 1))
    with pytest.raises(TypeError, match="reads bias as bf16, this bias is f32"):
        k(a, b, bias=kgen.DeviceArray((256,), "f32", 0, 0))
    plain = kgen.Kernel({"kernel": "matmul", "dtype": "bf16"})
    with pytest.raises(ValueError, match="residual= is given but the kernel declares none"):
        plain(a, b, residual=bf16(128, 256))


def test_unaligned_operands_take_the_mma_fallback_with_the_epilogue():
    # A wgmma kernel with operands and aux, called with rows TMA cannot load (63 bf16): by default (unaligned:
    # repack) the kernel itself on a copy of A with rows of 64; with unaligned: fallback the mma.sync kernel of
    # the same computation, which takes the same operands.
    spec = {"kernel": "matmul", "dtype": "bf16", "math": "wgmma", "producer": "warpgroup", "consumers": 2,
            "store": "tma", "bias": "col", "epilogue": "gelu(v + bias)", "aux": "v + bias"}
    m = mark()
    c, aux = kgen.Kernel(spec)(bf16(128, 63), bf16(63, 256), bias=bf16(256))
    copy, call = launches_since(m)
    assert copy.name.decode() == "matmul_wgmma_bf16_repack" and call.name.decode() == "matmul_wgmma_bf16"
    m = mark()
    c, aux = kgen.Kernel(dict(spec, unaligned="fallback"))(bf16(128, 63), bf16(63, 256), bias=bf16(256))
    (call,) = launches_since(m)
    assert call.name.decode() == "matmul_mma_bf16" and call.smem == 98304
    assert tuple(aux.shape) == (128, 256)
    with pytest.raises(kgen.KgenError, match="unaligned: refuse forbids aligned copies and the mma.sync fallback"):
        kgen.Kernel({"kernel": "matmul", "dtype": "bf16", "math": "wgmma", "unaligned": "refuse"})(
            bf16(128, 63), bf16(63, 256))


def test_wgmma_split_reduce_kernel_launches_its_reduce_after_it():
    # split_reduce: kernel: the wgmma kernel on a grid of (tiles, 1, split_k), then NAME_reduce over the
    # partials in the scratch (kgen's own for arrays of no framework), reading them where it wrote them.
    spec = dict(kernel="matmul", dtype="f16", math="wgmma", producer="warpgroup", tile_m=64, tile_n=64,
                store="direct", split_k=4, split_reduce="kernel")
    m = mark()
    record_params(6)  # NAME_reduce's partials, c, m, n, ldc, ep (the wgmma kernel's first six)
    out = Device((64, 1024), "<f2")
    try:
        kgen.matmul(f16(64, 4096), f16(4096, 1024), out=out, spec=spec)
    finally:
        record_params(0)
    main, reduce = launches_since(m)
    assert main.name.decode() == "matmul_wgmma_f16" and reduce.name.decode() == "matmul_wgmma_f16_reduce"
    assert (main.grid[0], main.grid[1], main.grid[2]) == (16, 1, 4) and main.cluster[0] == 0
    assert reduce.args[0] != 0 and reduce.args[0] % 16 == 0 and reduce.args[1] == out.ptr
    assert reduce.grid[0] == 64 * 1024 // 256


@pytest.mark.parametrize("scale", ["scale_a", "scale_b"])
def test_a_scale_alone_is_refused_for_torch_tensors_too(monkeypatch, scale):
    # torch tensors take kgen.matmul's fast path when the call is plain; a call with scale_b= alone once took it too
    # and lost the scale (the test of plainness named scale_a only). Here a Device subclass stands for torch.Tensor.
    class Tensor(Device):
        pass
    monkeypatch.setattr(_arrays, "Tensor", Tensor)
    a, b, s = Tensor((64, 32), "<f2"), Tensor((32, 16), "<f2"), Device((), "<f4")
    m = mark()
    with pytest.raises(TypeError, match="scale_a= and scale_b= are fp8's"):
        kgen.matmul(a, b, **{scale: s})
    assert launches_since(m) == []


def test_a_matmul_kernel_takes_b_out_alpha_beta_and_stream_positionally():
    # k(a, b, out, alpha, beta, stream) as documented; a third positional argument once went to alpha= ("alpha is a
    # real number, not <Device>") and later ones to the runner's internal ready= and described=.
    k = kgen.Kernel({"kernel": "matmul", "dtype": "bf16"})
    a, b, c = bf16(64, 32), bf16(32, 16), bf16(64, 16)
    m = mark()
    record_params(7)  # a, b, c, m, n, k, lda
    assert k(a, b, c) is c
    assert k(a, b, c, 0.5, 0.25, None) is c
    record_params(0)
    calls = launches_since(m)
    assert len(calls) == 2 and all(call.args[2] == c.ptr for call in calls)
    for call, message in [(lambda: k(a, b, c, 1.0, 0.0, None, 7), "called as k\\(a, b, out, alpha, beta, stream\\), "
                           "not with 6 arguments after a"),
                          (lambda: k(a, b, c, out=c), "out given twice"),
                          (lambda: k(a, b, c, 1.0, alpha=1.0), "alpha given twice"),
                          (lambda: k(a, b, ready=1), "takes no keyword ready=")]:
        with pytest.raises(TypeError, match=message):
            call()
