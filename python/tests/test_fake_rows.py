"""kgen.softmax, kgen.log_softmax, kgen.rms_norm, kgen.layer_norm and
kgen.cross_entropy (kernel: rows) against the fake driver: each call
reaches kgen_rows() with the arrays' addresses, rows, cols and pitches,
eps and ignore_index, on a kernel whose spec has the call's op and dtypes;
kgen.Kernel(spec)(x, ...) reaches it through RUNNERS; kernels are built
once per device, spec and overrides; and what kgen_rows() cannot take is
refused before it is asked, with an error that says why.

The kernel's one argument (struct Rows) is a struct the fake driver
records 8 bytes of (x's address), so the test reads struct kgen_rows_args
itself, on its way to C (a spy in place of _lib.kgen_rows that calls it)."""
import ctypes
import gc
import weakref

import pytest

import kgen
from kgen import _kernel, _lib, _rows
from fakecuda import Device, Stream, counter, launches_since, mark, need_fake, record_params

need_fake()

FIELDS = [name for name, _ in _lib.RowsArgs._fields_]


@pytest.fixture
def calls(monkeypatch):
    """The kgen_rows() calls made during a test: each its struct
    kgen_rows_args as a dict, with the kernel's spec fields as "spec"."""
    got = []
    real = _lib.kgen_rows

    def spy(handle, args, stream, err):
        a = args._obj  # byref()'s structure
        call = {name: getattr(a, name) for name in FIELDS}
        built = [k for k in _kernel._kernels.values() if k._handle == handle]
        call["spec"] = built[0].spec.fields if built else None
        call["stream"] = stream
        got.append(call)
        return real(handle, args, stream, err)
    monkeypatch.setattr(_lib, "kgen_rows", spy)
    return got


def only(calls):
    assert len(calls) == 1, calls
    return calls[0]


def bf16(shape):
    """A bf16 array as a DLPack producer hands it (CAI has no bf16)."""
    return kgen.DeviceArray(shape, "bf16", 0, 0)


def readonly(shape, typestr="<f4"):
    d = Device(shape, typestr)
    d.__cuda_array_interface__ = dict(d.__cuda_array_interface__, data=(d.ptr, True))
    return d


UNUSED = {"weight": 0, "bias": 0, "labels": 0, "loss": 0, "lse": 0}


@pytest.mark.parametrize("op", ["softmax", "log_softmax"])
def test_softmax_reaches_kgen_rows_with_the_arrays_and_sizes(calls, op):
    x = Device((64, 1000))
    m = mark()
    record_params(1)
    y = getattr(kgen, op)(x)
    record_params(0)
    c = only(calls)
    assert isinstance(y, kgen.DeviceArray) and (y.shape, y.dtype) == ((64, 1000), "f32")
    assert (c["x"], c["y"], c["rows"], c["cols"], c["x_pitch"], c["y_pitch"]) == (x.ptr, y.ptr, 64, 1000, 1000, 1000)
    assert {k: c[k] for k in UNUSED} == UNUSED
    assert (c["spec"]["kernel"], c["spec"]["op"], c["spec"]["dtype"], c["spec"]["out_dtype"]) == ("rows", op, "f32",
                                                                                                   "f32")
    # What C launched: on the fake's sm_90 too, auto's block of 128 threads a row for rows of 1000 f32 (250 loads of
    # 4, two a thread), a block a row, x its first bytes.
    (launch,) = launches_since(m)
    assert launch.name.decode() == "rows_%s_f32_block128x2" % op
    assert (launch.grid[0], launch.block[0], launch.smem, launch.args[0]) == (64, 128, 0, x.ptr)
    # To 2048 f32 a block of 256 threads a row, two loads each (500 loads of a row of 2000).
    x = Device((64, 2000))
    m = mark()
    getattr(kgen, op)(x)
    (launch,) = launches_since(m)
    assert launch.name.decode() == "rows_%s_f32_block256x2" % op
    assert (launch.grid[0], launch.block[0], launch.smem) == (64, 256, 0)
    # Past 8192 f32 the staged kernel of a block of 512 a row, 8 loads each (2500 loads, 16-byte aligned rows):
    # two stages of 64 KB, a block a row.
    x = Device((64, 10000))
    m = mark()
    getattr(kgen, op)(x)
    (launch,) = launches_since(m)
    assert launch.name.decode() == "rows_%s_f32_staged512x8" % op
    assert (launch.block[0], launch.smem) == (512, 2 * 512 * 8 * 16)


def test_leading_dimensions_are_rows(calls):
    y = kgen.softmax(Device((4, 8, 300), "<f2"))
    assert (y.shape, y.dtype) == ((4, 8, 300), "f16")
    kgen.log_softmax(Device((300,)))
    kgen.softmax(Device((1, 1, 7)))
    assert [(c["rows"], c["cols"], c["x_pitch"]) for c in calls] == [(32, 300, 300), (1, 300, 300), (1, 7, 7)]


def test_padded_rows_are_read_in_place(calls):
    # A 2-D slice x[:, :1000] of a 64 x 1024 matrix, into out, a slice of a 64 x 1100 one.
    x = Device((64, 1000), strides=(1024, 1))
    out = Device((64, 1000), strides=(1100, 1))
    assert kgen.softmax(x, out=out) is out
    c = only(calls)
    assert (c["x"], c["y"], c["x_pitch"], c["y_pitch"]) == (x.ptr, out.ptr, 1024, 1100)
    # Leading dimensions that collapse into rows a pitch apart: x[:, :, :1000] of a 2 x 3 x 1024 array.
    kgen.rms_norm(Device((2, 3, 1000), strides=(3 * 1024, 1024, 1)))
    assert (calls[-1]["rows"], calls[-1]["x_pitch"]) == (6, 1024)


def test_rows_that_are_not_evenly_spaced_or_contiguous_are_refused(calls):
    with pytest.raises(ValueError, match="x's rows are not evenly spaced .*pass x.contiguous"):
        kgen.softmax(Device((2, 3, 1000), strides=(4 * 1024, 1024, 1)))
    with pytest.raises(ValueError, match="kgen.layer_norm: x's rows must be contiguous \\(its last dimension's "
                                         "stride is 2 elements, not 1\\)"):
        kgen.layer_norm(Device((64, 500), strides=(1000, 2)))
    with pytest.raises(ValueError, match="x's rows overlap: they are 0 elements apart and 1000 long"):
        kgen.softmax(Device((4, 1000), strides=(0, 1)))
    with pytest.raises(ValueError, match="logits's rows must be contiguous"):
        kgen.cross_entropy(Device((10, 8), strides=(1, 10)), Device((10,), "<i8"))
    with pytest.raises(ValueError, match="out's rows must be contiguous"):
        kgen.softmax(Device((4, 8)), out=Device((4, 8), strides=(1, 4)))
    with pytest.raises(ValueError, match="x is 0-d: its rows are along its last dimension"):
        kgen.softmax(Device(()))
    assert calls == []


def test_dim_is_the_last_only(calls):
    x = Device((16, 32))
    kgen.softmax(x, dim=1)
    kgen.log_softmax(x, dim=-1)
    assert len(calls) == 2
    with pytest.raises(ValueError, match="kgen.softmax: rows along the last dimension only \\(dim=-1 or dim=1\\), "
                                         "not dim=0: move that dimension last"):
        kgen.softmax(x, dim=0)
    with pytest.raises(ValueError, match="kgen.log_softmax: rows along the last dimension only .* not dim=-2"):
        kgen.log_softmax(x, dim=-2)
    with pytest.raises(ValueError, match="dim 2 is out of range for 2 dimensions"):
        kgen.softmax(x, dim=2)
    with pytest.raises(TypeError, match="dim is an int, not True"):
        kgen.softmax(x, dim=True)
    assert len(calls) == 2


def test_rms_norm_takes_the_weight_and_eps(calls):
    x, w = Device((128, 4096), "<f2"), Device((4096,), "<f2")
    y = kgen.rms_norm(x, w)
    c = calls[-1]
    assert (y.shape, y.dtype) == ((128, 4096), "f16")
    assert (c["x"], c["y"], c["weight"], c["bias"], c["rows"], c["cols"]) == (x.ptr, y.ptr, w.ptr, 0, 128, 4096)
    assert c["eps"] == 1e-6
    assert (c["spec"]["op"], c["spec"]["dtype"], c["spec"]["weight_dtype"]) == ("rms_norm", "f16", "f16")
    kgen.rms_norm(x, eps=1e-3)
    assert (calls[-1]["weight"], calls[-1]["eps"]) == (0, 1e-3)
    # The weight's dtype is the kernel's weight_dtype: an f32 weight for f16 rows.
    w32 = Device((4096,))
    kgen.rms_norm(x, w32, eps=0.5)
    c = calls[-1]
    assert (c["weight"], c["eps"], c["spec"]["dtype"], c["spec"]["weight_dtype"]) == (w32.ptr, 0.5, "f16", "f32")


def test_layer_norm_takes_weight_bias_and_eps(calls):
    x, w, b = Device((32, 768)), Device((768,)), Device((768,))
    y = kgen.layer_norm(x, w, b)
    c = calls[-1]
    assert (c["x"], c["y"], c["weight"], c["bias"], c["eps"]) == (x.ptr, y.ptr, w.ptr, b.ptr, 1e-5)
    assert (c["spec"]["op"], c["spec"]["weight_dtype"]) == ("layer_norm", "f32")
    kgen.layer_norm(x, bias=b, eps=1e-2)
    assert (calls[-1]["weight"], calls[-1]["bias"], calls[-1]["eps"]) == (0, b.ptr, 1e-2)
    kgen.layer_norm(x)
    assert (calls[-1]["weight"], calls[-1]["bias"]) == (0, 0)
    # A bf16 weight and bias for f32 rows (bias alone names the dtype too).
    kgen.layer_norm(x, bias=bf16((768,)))
    assert calls[-1]["spec"]["weight_dtype"] == "bf16"


def test_weight_and_bias_are_checked(calls):
    x = Device((32, 768))
    with pytest.raises(ValueError, match="kgen.rms_norm: weight has shape \\(767,\\): it must be a 1-D array of 768 "
                                         "elements"):
        kgen.rms_norm(x, Device((767,)))
    with pytest.raises(ValueError, match="bias has shape \\(1, 768\\): it must be a 1-D array of 768"):
        kgen.layer_norm(x, Device((768,)), Device((1, 768)))
    with pytest.raises(ValueError, match="weight must be contiguous \\(its stride is 2 elements\\)"):
        kgen.rms_norm(x, Device((768,), strides=(2,)))
    with pytest.raises(TypeError, match="weight is f32 and bias is f16: both must be of one dtype"):
        kgen.layer_norm(x, Device((768,)), Device((768,), "<f2"))
    with pytest.raises(TypeError, match="weight is i32: the weight and bias are f32, f16 or bf16"):
        kgen.rms_norm(x, Device((768,), "<i4"))
    assert calls == []


def test_cross_entropy_takes_labels_and_ignore_index(calls):
    logits, labels = Device((512, 32000), "<f2"), Device((512,), "<i8")
    loss = kgen.cross_entropy(logits, labels)
    c = only(calls)
    assert (loss.shape, loss.dtype) == ((512,), "f16")
    assert (c["x"], c["labels"], c["loss"], c["y"], c["weight"], c["bias"], c["lse"]) == (
        logits.ptr, labels.ptr, loss.ptr, 0, 0, 0, 0)
    assert (c["rows"], c["cols"], c["x_pitch"], c["ignore_index"]) == (512, 32000, 32000, -100)
    assert (c["spec"]["op"], c["spec"]["dtype"], c["spec"]["out_dtype"], c["spec"]["label_dtype"]) == (
        "cross_entropy", "f16", "f16", "i64")
    # int32 labels: label_dtype i32; any ignore_index a long long holds.
    labels32 = Device((512,), "<i4")
    kgen.cross_entropy(logits, labels32, ignore_index=-(2 ** 63))
    assert (calls[-1]["labels"], calls[-1]["ignore_index"], calls[-1]["spec"]["label_dtype"]) == (
        labels32.ptr, -(2 ** 63), "i32")
    # 3-D logits: rows are the leading dimensions, labels and losses of their shape (or labels of (rows,)).
    loss = kgen.cross_entropy(Device((4, 8, 100)), Device((4, 8), "<i8"), ignore_index=3)
    assert loss.shape == (4, 8) and (calls[-1]["rows"], calls[-1]["ignore_index"]) == (32, 3)
    assert kgen.cross_entropy(Device((4, 8, 100)), Device((32,), "<i8")).shape == (4, 8)
    # One row of classes: one label, a 0-d loss.
    assert kgen.cross_entropy(Device((100,)), Device((), "<i8")).shape == ()


def test_cross_entropy_losses_into_out(calls):
    logits, labels, out = Device((64, 100), "<f2"), Device((64,), "<i8"), Device((64,))
    assert kgen.cross_entropy(logits, labels, out=out) is out
    c = only(calls)
    assert (c["loss"], c["spec"]["dtype"], c["spec"]["out_dtype"]) == (out.ptr, "f16", "f32")
    with pytest.raises(ValueError, match="out \\(the losses\\) must be contiguous"):
        kgen.cross_entropy(logits, labels, out=Device((64,), strides=(2,)))
    with pytest.raises(ValueError, match="out= holds the losses of reduction='none'"):
        kgen.cross_entropy(logits, labels, reduction="sum", out=out)


def test_labels_are_checked(calls):
    logits = Device((64, 100))
    with pytest.raises(TypeError, match="labels are f32: they are class indices, int32 or int64"):
        kgen.cross_entropy(logits, Device((64,)))
    with pytest.raises(ValueError, match="labels have shape \\(63,\\): one label a row of logits, shape \\(64,\\)"):
        kgen.cross_entropy(logits, Device((63,), "<i8"))
    with pytest.raises(ValueError, match="labels must be contiguous"):
        kgen.cross_entropy(logits, Device((64,), "<i8", strides=(2,)))
    with pytest.raises(ValueError, match="logits have 0 classes"):
        kgen.cross_entropy(Device((64, 0)), Device((64,), "<i8"))
    with pytest.raises(ValueError, match="ignore_index must be an int from -9223372036854775808 to "
                                         "9223372036854775807, not 9223372036854775808"):
        kgen.cross_entropy(logits, Device((64,), "<i8"), ignore_index=2 ** 63)
    with pytest.raises(TypeError, match="ignore_index is an int, not 1.5"):
        kgen.cross_entropy(logits, Device((64,), "<i8"), ignore_index=1.5)
    with pytest.raises(ValueError, match="reduction is 'none', 'mean' or 'sum', not 'avg'"):
        kgen.cross_entropy(logits, Device((64,), "<i8"), reduction="avg")
    # mean and sum are the array library's sums: none for a bare __cuda_array_interface__.
    with pytest.raises(ValueError, match="reduction='mean' sums the losses with the array library's own sum"):
        kgen.cross_entropy(logits, Device((64,), "<i8"), reduction="mean")
    assert calls == []


class Host:
    """A stand-in for a CuPy or JAX array of a few numbers: astype, sum, !=, / (reduce_losses' operations)."""

    def __init__(self, values, dtype="float16"):
        self.values, self.dtype = list(values), dtype

    def astype(self, dtype):
        return Host(self.values, dtype)

    def sum(self):
        return Host([sum(self.values)], self.dtype)

    def __ne__(self, other):
        return Host([int(v != other) for v in self.values], "int64")

    def __truediv__(self, other):
        return Host([self.values[0] / other.values[0]], self.dtype)


def test_mean_is_over_the_rows_not_ignored():
    loss, labels = Host([1.0, 0.0, 2.0, 0.5]), Host([3, -100, 0, 7], "int64")
    total = _rows.reduce_losses(loss, labels, -100, "sum", "cupy")
    assert (total.values, total.dtype) == ([3.5], "float16")
    mean = _rows.reduce_losses(loss, labels, -100, "mean", "jax")
    assert (mean.values, mean.dtype) == ([3.5 / 3], "float16")


def test_dtypes_follow_the_arrays(calls):
    x = bf16((16, 256))  # DLPack's way in: bf16
    y = kgen.softmax(x)
    assert (y.dtype, calls[-1]["spec"]["dtype"], calls[-1]["spec"]["out_dtype"]) == ("bf16", "bf16", "bf16")
    out = Device((16, 256))
    kgen.softmax(x, out=out)
    assert (calls[-1]["y"], calls[-1]["spec"]["out_dtype"]) == (out.ptr, "f32")
    assert kgen.log_softmax(x, out_dtype="f32").dtype == "f32"  # an override sets it too
    with pytest.raises(TypeError, match="kgen.softmax: x is f64: kernel: rows reads f32, f16 or bf16"):
        kgen.softmax(Device((4, 4), "<f8"))
    with pytest.raises(TypeError, match="kgen.cross_entropy: logits is i32"):
        kgen.cross_entropy(Device((4, 4), "<i4"), Device((4,), "<i8"))
    with pytest.raises(TypeError, match="out is i32: kernel: rows writes f32, f16 or bf16"):
        kgen.softmax(x, out=Device((16, 256), "<i4"))
    with pytest.raises(ValueError, match="out must be an array of shape \\(16, 256\\) on x's device, not "
                                         "\\(16, 255\\)"):
        kgen.softmax(x, out=Device((16, 255)))
    with pytest.raises(ValueError, match="out is read-only"):
        kgen.softmax(x, out=readonly((16, 256)))
    with pytest.raises(TypeError, match="the kernel writes f16, out is f32"):
        kgen.softmax(x, out=out, out_dtype="f16")


def test_in_place(calls):
    x = Device((8, 128))
    assert kgen.softmax(x, out=x) is x
    assert (calls[-1]["x"], calls[-1]["y"]) == (x.ptr, x.ptr)


def test_eps_is_checked(calls):
    x = Device((8, 128))
    with pytest.raises(ValueError, match="kgen.rms_norm: eps must be finite and not negative, not nan"):
        kgen.rms_norm(x, eps=float("nan"))
    with pytest.raises(ValueError, match="eps must be finite and not negative, not -1.0"):
        kgen.layer_norm(x, eps=-1)
    with pytest.raises(TypeError, match="eps is a real number, not '1e-5'"):
        kgen.layer_norm(x, eps="1e-5")
    assert calls == []


def test_strategy_staged_from_python(calls):
    # strategy: staged by keyword: 128 threads a row, two loads a thread (rows of up to 1024 f32), four rows a block
    # of 512, two stages of 16 KB and the weight (4 KB) in shared memory; as many blocks as the fake's 132 SMs hold.
    x, w = Device((1000, 1000)), Device((1000,))
    m = mark()
    record_params(1)
    kgen.rms_norm(x, w, strategy="staged", lanes=128, vectors=2)
    c = only(calls)
    assert (c["spec"]["strategy"], c["spec"]["lanes"], c["spec"]["vectors"]) == ("staged", "128", "2")
    (launch,) = launches_since(m)
    assert launch.name.decode() == "rows_rms_norm_f32"
    assert (launch.grid[0], launch.block[0], launch.smem) == (250, 512, 2 * 512 * 2 * 16 + 128 * 2 * 4 * 4)
    with pytest.raises(kgen.SpecError, match="lanes 16: strategy: staged gives a row whole warps"):
        kgen.rms_norm(x, w, strategy="staged", lanes=16)


def test_kernels_are_built_once_per_device_spec_and_overrides(calls):
    x = Device((8, 128))
    kgen.softmax(x)
    kgen.softmax(Device((30, 128)))
    kgen.softmax(x, strategy="online")
    kgen.softmax(x, spec={"kernel": "rows", "threads": 256})
    kgen.softmax(x, spec={"kernel": "rows", "threads": 256})
    handles = [c["spec"] for c in calls]
    assert handles[0] is handles[1] and handles[3] is handles[4]
    assert (handles[2]["strategy"], handles[3]["threads"]) == ("online", "256")
    keys = [k for k in _kernel._kernels if k[0] == "rows"]
    assert len(set(id(_kernel._kernels[k]) for k in keys)) == len(keys)
    # A spec of another op takes the call's.
    kgen.layer_norm(x, spec={"kernel": "rows", "op": "softmax"})
    assert calls[-1]["spec"]["op"] == "layer_norm"


def test_strategy_auto_builds_a_kernel_at_its_first_call():
    # strategy: auto's alternatives (17 kernels of f32 softmax, its 3 warp kernels' exact twins among them) are built
    # lazily: a call builds the one it chooses, once; prepare() builds the rest.
    modules = lambda: counter("fake_cuda_modules").value
    k = kgen.Kernel({"kernel": "rows", "op": "softmax", "dtype": "f32", "name": "lazy_softmax"})
    before = modules()
    m = mark()
    record_params(1)
    k(Device((4, 100)))
    k(Device((8, 100)))
    assert modules() == before + 1
    k(Device((4, 3000)))
    assert modules() == before + 2
    assert [launch.name.decode() for launch in launches_since(m)][-1].startswith("lazy_softmax_")
    assert k.prepare() is k
    assert modules() == before + 17
    assert k.prepare() is k and modules() == before + 17


def test_a_call_like_an_earlier_one_takes_its_own_arrays(calls):
    # The second and third calls find the first's checked sizes and kernel (kgen._rows._ready), with their own arrays.
    for _ in range(3):
        x, w, out = Device((64, 1000), strides=(1024, 1)), Device((1000,), "<f2"), Device((64, 1000))
        kgen.rms_norm(x, w, eps=0.25, out=out)
        c = calls[-1]
        assert (c["x"], c["weight"], c["y"], c["x_pitch"], c["y_pitch"], c["eps"]) == (x.ptr, w.ptr, out.ptr, 1024,
                                                                                       1000, 0.25)
    assert calls[0]["spec"] is calls[2]["spec"]
    y = kgen.rms_norm(x, w)
    assert (calls[-1]["y"], y.shape, y.dtype) == (y.ptr, (64, 1000), "f32")
    # It keeps none of them alive.
    gone = weakref.ref(x)
    del x, c
    gc.collect()
    assert gone() is None


def test_a_kernel_is_called_as_the_op_takes(calls):
    x, w, b = Device((8, 128)), Device((128,)), Device((128,))
    k = kgen.Kernel({"kernel": "rows", "op": "layer_norm", "strategy": "block", "vectors": 1})
    y = k(x, w, b, eps=1e-3)
    c = calls[-1]
    assert (c["x"], c["y"], c["weight"], c["bias"], c["eps"], c["rows"], c["cols"]) == (
        x.ptr, y.ptr, w.ptr, b.ptr, 1e-3, 8, 128)
    k(x, weight=w)
    assert (calls[-1]["weight"], calls[-1]["bias"], calls[-1]["eps"]) == (w.ptr, 0, 1e-5)
    out = Device((8, 128))
    assert k(x, out=out) is out and calls[-1]["y"] == out.ptr
    with pytest.raises(TypeError, match="a rows kernel of op layer_norm is called as k\\(x, weight, bias, out=None, "
                                        "stream=None, eps=...\\), not with 3 arrays after x"):
        k(x, w, b, w)
    with pytest.raises(TypeError, match="weight given twice"):
        k(x, w, weight=w)
    with pytest.raises(TypeError, match="op layer_norm takes no labels"):
        k(x, labels=Device((8,), "<i8"))
    with pytest.raises(TypeError, match="the kernel reads f32, x is f16"):
        k(Device((8, 128), "<f2"))
    xent = kgen.Kernel({"kernel": "rows", "op": "cross_entropy", "label_dtype": "i32"})
    labels = Device((8,), "<i4")
    loss = xent(x, labels, ignore_index=7)
    assert (calls[-1]["labels"], calls[-1]["loss"], calls[-1]["ignore_index"]) == (labels.ptr, loss.ptr, 7)
    with pytest.raises(TypeError, match="the kernel reads i32 labels \\(label_dtype\\), labels are i64"):
        xent(x, Device((8,), "<i8"))
    with pytest.raises(TypeError, match="a cross_entropy kernel takes the labels"):
        xent(x)
    soft = kgen.Kernel({"kernel": "rows"})
    with pytest.raises(TypeError, match="op softmax takes no eps"):
        soft(x, eps=1e-3)
    with pytest.raises(TypeError, match="op softmax takes no weight"):
        soft(x, weight=w)


def test_what_c_refuses_is_a_kgen_error(calls):
    # Rows longer than a warp kernel holds (32 lanes x 4 loads of 4 f32): C says so.
    with pytest.raises(kgen.KgenError, match="rows of 1000 elements are longer than"):
        kgen.softmax(Device((4, 1000)), strategy="warp")
    assert len(calls) == 1


def test_empty_arrays_launch_nothing(calls):
    m = mark()
    assert kgen.softmax(Device((0, 128))).shape == (0, 128)
    assert kgen.rms_norm(Device((4, 0))).shape == (4, 0)
    assert kgen.cross_entropy(Device((0, 10)), Device((0,), "<i8")).shape == (0,)
    assert calls == [] and launches_since(m) == []


def test_the_stream_given_is_the_one_c_gets(calls):
    s = Stream()
    m = mark()
    kgen.softmax(Device((4, 16)), stream=s.handle)
    assert calls[-1]["stream"] == s.handle and launches_since(m)[0].stream == s.handle


def test_args_mirror_struct_kgen_rows_args():
    # include/kgen.h: seven addresses, four sizes, a double and a long long.
    assert ctypes.sizeof(_lib.RowsArgs) == 13 * 8
    assert _lib.RowsArgs.eps.offset == 11 * 8 and _lib.RowsArgs.ignore_index.offset == 12 * 8


def test_the_ops_are_libkgens_list():
    with pytest.raises(kgen.SpecError) as e:
        kgen.check({"kernel": "rows", "op": "median"})
    listed = e.value.message.split("expected ")[1].replace(" or ", ", ").split(", ")
    assert tuple(listed) == _rows.OPS
