"""kgen.reduce's host side against the fake driver: every op of the spec
language reaches the kernel it names with the arrays' addresses and sizes,
argmin and argmax write a value and an index, the results have the types
docs/spec.md gives, scratch is allocated once per kernel and passed to C,
custom ops and nan= set the spec, and a ready call does no spec work."""
import ctypes
import os

import pytest

import kgen
from kgen import _lib, _reduce
from fakecuda import Device, Stream, counter, drv, launches_since, mark, need_fake, record_params

TOP = os.environ.get("KGEN_TOP_SRCDIR", os.path.join(os.path.dirname(__file__), "..", ".."))

need_fake()

FLOAT_OPS = [op for op in kgen.OPS if op not in ("any", "all", "custom")]


def test_ops_are_libkgens_list():
    # The op list the package checks against is the one libkgen's spec error gives.
    with pytest.raises(kgen.SpecError) as e:
        kgen.check({"kernel": "reduce", "op": "median"})
    listed = e.value.message.split("expected ")[1].replace(" or ", ", ").split(", ")
    assert tuple(listed) == kgen.OPS


@pytest.mark.parametrize("op", FLOAT_OPS)
def test_every_op_reaches_its_kernel_with_the_arrays_addresses(op):
    x = Device((1000,))
    m = mark()
    record_params(1)  # each kernel's first argument: the input, or the result for an atomic op's _init
    r = kgen.reduce(x, op, plan=False)
    record_params(0)
    calls = launches_since(m)
    main = calls[-1]
    assert main.name.decode() == "reduce_%s_f32" % op
    assert main.args[0] == x.ptr
    if len(calls) == 2:  # stages: atomic: the result set to the identity first
        assert calls[0].name.decode() == "reduce_%s_f32_init" % op
        assert calls[0].args[0] == (r.ptr if op not in ("argmin", "argmax") else r.values.ptr)
    else:
        assert len(calls) == 1


@pytest.mark.parametrize("op, dtype, out", [
    ("sum", "f16", "f32"), ("sum", "i32", "i32"), ("mean", "i32", "f64"), ("mean", "bf16", "f32"),
    ("norm2", "i64", "f64"), ("sumsq", "f64", "f64"), ("count_nonzero", "f32", "i64"), ("any", "i32", "i32"),
    ("all", "u32", "i32"), ("amax", "i64", "i64"), ("prod", "bf16", "f32"),
])
def test_results_have_the_type_the_spec_resolves(op, dtype, out):
    # docs/spec.md, op: a mean or norm2 of integers is f64, count_nonzero i64, any and all i32, f16/bf16 -> f32.
    typestr = {"f16": "<f2", "bf16": None, "i32": "<i4", "u32": "<u4", "i64": "<i8", "f32": "<f4", "f64": "<f8"}
    if typestr[dtype] is None:
        x = bf16_array((300,))
    else:
        x = Device((300,), typestr[dtype])
    r = kgen.reduce(x, op)
    assert isinstance(r, kgen.DeviceArray) and r.dtype == out and r.shape == ()
    rows = kgen.reduce(Device((4, 300), typestr[dtype]) if typestr[dtype] else bf16_array((4, 300)), op, axis=1)
    assert rows.dtype == out and rows.shape == (4,)


def bf16_array(shape):
    """A bf16 array as a DLPack producer hands it (CAI has no bf16)."""
    return kgen.DeviceArray(shape, "bf16", 0, 0)


def test_argmax_writes_a_value_and_an_index():
    x = Device((1000,))
    m = mark()
    record_params(5)  # last_block: in, (value, index), n, partials, ticket
    r = kgen.reduce(x, "argmax", plan=False)
    record_params(0)
    assert isinstance(r, kgen.ArgResult) and r._fields == ("values", "indices")
    v, i = r
    assert (v.dtype, i.dtype, v.shape, i.shape) == ("f32", "i64", (), ())
    (launch,) = launches_since(m)
    assert launch.args[0] == x.ptr and launch.args[1] == v.ptr  # the pair's first word: the value's address
    assert launch.args[2] & 0xffffffff == 1000
    # The scratch kgen allocated for the kernel: ticket first, the partials 16 bytes on.
    assert launch.args[3] == launch.args[4] + 16 and launch.args[4] % 256 == 0


def test_argmin_along_each_axis():
    x = Device((64, 1000))
    r = kgen.reduce(x, "argmin", axis=-1)
    assert (r.values.shape, r.indices.shape, r.values.dtype, r.indices.dtype) == ((64,), (64,), "f32", "i64")
    c = kgen.reduce(x, "argmin", axis=0)
    assert (c.values.shape, c.indices.shape) == ((1000,), (1000,))
    k = kgen.reduce_kernel(x, "argmin", axis=0)
    assert (k.family, k.spec.fields["axis"], k.spec.fields["op"]) == ("reduce_axis", "cols", "argmin")


def test_columns_of_16_bit_elements_load_8_bytes():
    """Columns of bf16 and f16 take 8-byte loads (four elements a thread, the
    faster on an H200); rows, and columns of wider types, 16."""
    widths = {(dt, axis): int(kgen.reduce_kernel(bf16_array((64, 1000)) if dt == "bf16" else
                                                 Device((64, 1000), {"f16": "<f2", "f32": "<f4"}[dt]),
                                                 "sum", axis=axis).spec.fields["load_width"])
              for dt in ("bf16", "f16", "f32") for axis in (0, 1)}
    assert widths == {("bf16", 0): 8, ("f16", 0): 8, ("f32", 0): 16, ("bf16", 1): 16, ("f16", 1): 16, ("f32", 1): 16}


def test_kgen_argmax_returns_the_indices_alone():
    # kgen.argmax / argmin: torch.argmax's result, the values written to a buffer of kgen's own (one per kernel,
    # the same at every call), the indices into a new i64 array or out=.
    x = Device((1000,))
    m = mark()
    record_params(2)
    i = kgen.argmax(x, plan=False)
    j = kgen.argmax(x, plan=False)
    record_params(0)
    first, second = launches_since(m)
    assert isinstance(i, kgen.DeviceArray) and (i.dtype, i.shape) == ("i64", ())
    assert first.name.decode() == "reduce_argmax_f32" and first.args[0] == x.ptr
    assert first.args[1] == second.args[1] and first.args[1] not in (x.ptr, i.ptr, j.ptr)
    out = Device((), "<i8")
    assert kgen.argmax(x, out=out, plan=False) is out
    with pytest.raises(ValueError, match="out must be a contiguous i64 array of shape \\(\\)"):
        kgen.argmax(x, out=Device(()), plan=False)
    rows = kgen.argmin(Device((64, 1000)), axis=1)
    cols = kgen.argmin(Device((64, 1000)), axis=0)
    assert (rows.dtype, rows.shape, cols.shape) == ("i64", (64,), (1000,))
    assert kgen.reduce_kernel(Device((64, 1000)), "argmin", axis=1).spec.fields["op"] == "argmin"
    # nan= as kgen.reduce's; the tables' key of these calls is not an op of kgen.reduce.
    assert kgen.argmax(x, nan="ignore").shape == ()
    with pytest.raises(ValueError, match="op is one of sum, .* not 'argmax indices'"):
        kgen.reduce(x, "argmax indices")


def test_out_of_argmax_is_a_pair_of_arrays():
    x = Device((1000,))
    v, i = Device(()), Device((), "<i8")
    m = mark()
    record_params(2)
    assert kgen.reduce(x, "argmax", out=(v, i), plan=False) == (v, i)
    record_params(0)
    assert launches_since(m)[-1].args[1] == v.ptr
    with pytest.raises(TypeError, match="out of argmin or argmax is a pair \\(values, indices\\), not Device"):
        kgen.reduce(x, "argmax", out=v, plan=False)
    with pytest.raises(ValueError, match="out must be a contiguous i64 array of shape \\(\\)"):
        kgen.reduce(x, "argmax", out=(v, Device(())), plan=False)


def test_nan_and_custom_ops_are_fields_of_the_spec():
    x = Device((1000,))
    k = kgen.reduce_kernel(x, "argmax", nan="ignore")
    assert k.spec.fields["nan"] == "ignore"
    assert isinstance(kgen.reduce(x, "argmax", nan="ignore"), kgen.ArgResult)
    rms = kgen.reduce_kernel(x, "custom", map="x * x", combine="a + b", identity="0", post="sqrt(a / n)")
    assert (rms.spec.fields["op"], rms.spec.fields["stages"]) == ("custom", "last_block")
    m = mark()
    r = kgen.reduce(x, "custom", map="x * x", combine="a + b", identity="0", post="sqrt(a / n)")
    assert r.dtype == "f32" and launches_since(m)[-1].name.decode() == "reduce_custom_f32"
    rows = kgen.reduce(Device((8, 100)), "custom", axis=1, combine="fmaxf(a, b)", identity="0", map="fabsf(x)")
    assert rows.shape == (8,)
    with pytest.raises(kgen.SpecError, match="nan applies to op: argmin and argmax, not to sum"):
        kgen.reduce(x, "sum", nan="ignore")
    with pytest.raises(kgen.SpecError, match="op: custom needs combine"):
        kgen.reduce(x, "custom", identity="0")
    with pytest.raises(kgen.SpecError, match="op: any is for integer elements, not f32"):
        kgen.reduce(x, "any")


def test_a_spec_with_argmax_returns_a_pair():
    x = Device((1000,))
    r = kgen.reduce(x, spec="kernel: reduce\nop: argmax\nthreads: 256\n")
    assert isinstance(r, kgen.ArgResult)
    k = kgen.Kernel({"kernel": "reduce", "op": "argmin", "dtype": "f32"})
    assert isinstance(k(x), kgen.ArgResult)


def test_scratch_is_allocated_once_per_kernel_and_grown():
    x = Device((1000,))
    before = counter("fake_cuda_allocs").value
    kgen.reduce(x, "mean", spec={"kernel": "reduce", "threads": 128, "items_per_thread": 4})
    assert counter("fake_cuda_allocs").value == before + 1
    kgen.reduce(x, "mean", spec={"kernel": "reduce", "threads": 128, "items_per_thread": 4})
    assert counter("fake_cuda_allocs").value == before + 1  # the same kernel: the same scratch
    big = Device((1000000,))
    kgen.reduce(big, "mean", spec={"kernel": "reduce", "threads": 128, "items_per_thread": 4})
    assert counter("fake_cuda_allocs").value == before + 2  # grown; the smaller one is kept (a graph may hold it)


def test_a_ready_call_does_no_spec_work(monkeypatch):
    x = Device((4096,))
    kgen.reduce(x, "max", plan=False)
    kgen.reduce(x, "argmax", axis=None, nan="ignore")

    def no_spec(*a, **k):
        raise AssertionError("a ready call loaded a spec")
    monkeypatch.setattr(kgen.Spec, "_load", no_spec)
    monkeypatch.setattr(_lib, "kgen_reduce_scratch_size", no_spec)
    m = mark()
    kgen.reduce(x, "max", plan=False)
    kgen.reduce(x, "argmax", nan="ignore")
    assert len(launches_since(m)) == 3
    # Another shape is another call to make ready.
    with pytest.raises(AssertionError, match="loaded a spec|a ready call"):
        kgen.reduce(Device((4097,)), "max", plan=False, threads=256)


def test_the_stream_reaches_every_launch():
    x = Device((1000,))
    m = mark()
    kgen.reduce(x, "sum", stream=0x1234, plan=False)
    assert [l.stream for l in launches_since(m)] == [0x1234, 0x1234]
    m = mark()
    kgen.reduce(Device((10, 100)), "argmax", axis=0, stream=0x99)
    assert {l.stream for l in launches_since(m)} == {0x99}


def test_mistakes_are_refused_naming_them():
    x = Device((10, 100))
    with pytest.raises(NotImplementedError, match="first or the last axis only, not axis 1 of 3"):
        kgen.reduce(Device((2, 3, 4)), "sum", axis=1)
    with pytest.raises(ValueError, match="a size plan picks a kernel by n: full reductions only"):
        kgen.reduce(x, "sum", axis=1, plan="specs/plans/nvidia-h200/sum-f32.yaml")
    with pytest.raises(TypeError, match="out of argmin or argmax is a pair"):
        kgen.reduce(x, "argmin", axis=1, out=Device((10,)))
    assert isinstance(_reduce.ArgResult(1, 2), tuple)


class _On(Device):
    """A Device that says which GPU it is on (cupy's .device.id)."""

    def __init__(self, gpu, shape, typestr="<f4"):
        super().__init__(shape, typestr)
        self.device = type("CudaDevice", (), {"id": gpu})()


def test_refusals_name_what_is_wrong():
    # out= on another GPU: the refusal says so (dtype and shape are right); a spec of another family is
    # refused by name before libkgen's calls; a dim or axis out of range is an IndexError and a ValueError.
    n_gpus = ctypes.c_int()
    drv.cuDeviceGetCount(ctypes.byref(n_gpus))
    if n_gpus.value < 2:
        pytest.skip("one fake GPU (tests/python_test.sh runs four: FAKE_CUDA_DEVICES=4)")
    with pytest.raises(ValueError, match=r"not f32 \(\), on GPU 1 where the input is on GPU 0"):
        kgen.reduce(_On(0, (100,)), out=_On(1, ()), plan=False)
    with pytest.raises(ValueError, match=r"not f32 \(8, 4\), on GPU 1 where the input is on GPU 0"):
        kgen.transpose(_On(0, (4, 8)), out=_On(1, (8, 4)))
    with pytest.raises(ValueError, match=r"not f32 \(100,\), on GPU 1 where the input is on GPU 0"):
        kgen.cumsum(_On(0, (100,)), out=_On(1, (100,)))
    with pytest.raises(ValueError, match=r"not \(8, 100\), on GPU 1 where x is on GPU 0"):
        kgen.softmax(_On(0, (8, 100)), out=_On(1, (8, 100)))
    with pytest.raises(ValueError, match=r"not \(16, 16\), on GPU 1 where a is on GPU 0"):
        kgen.matmul(_On(0, (16, 16)), _On(0, (16, 16)), out=_On(1, (16, 16)))
    with pytest.raises(ValueError, match=r"residual must be a 16 x 16 array on a's device, not \(16, 16\), on GPU 1"):
        kgen.matmul(_On(0, (16, 16)), _On(0, (16, 16)), residual=_On(1, (16, 16)))


def test_a_spec_of_another_family_is_refused_by_name():
    with pytest.raises(ValueError, match="kgen.reduce: spec= is a kernel: transpose spec; kgen.reduce with "
                                         "axis=None takes kernel: reduce specs"):
        kgen.reduce(Device((100,)), spec="kernel: transpose\n")
    for spec, family in (("kernel: reduce\n", "reduce"), ({"kernel": "scan"}, "scan")):  # before a build
        m = mark()
        with pytest.raises(ValueError, match="^kgen.reduce: spec= is a kernel: %s spec; kgen.reduce with axis=1 "
                                             "takes kernel: reduce_axis specs" % family):
            kgen.reduce(Device((10, 100)), axis=1, spec=spec)
        assert launches_since(m) == []
    plans = os.path.join(TOP, "specs", "plans", "nvidia-h200")
    with pytest.raises(ValueError, match="^kgen.reduce: plan= is a plan of kernel: matmul specs; kgen.reduce with "
                                         "axis=None takes plans of kernel: reduce specs"):
        kgen.reduce(Device((4096,)), plan=os.path.join(plans, "matmul-bf16.yaml"))
    with pytest.raises(ValueError, match="^kgen.argmin: the plan computes op sum, not argmin"):
        kgen.argmin(Device((1000,)), plan=os.path.join(plans, "sum-f32.yaml"))
    for call in (lambda: kgen.reduce(Device((10, 10)), axis=2), lambda: kgen.softmax(Device((10, 10)), dim=2),
                 lambda: kgen.cumsum(Device((10, 10)), dim=2)):
        with pytest.raises(IndexError, match="out of range for 2 dimensions") as e:
            call()
        assert isinstance(e.value, ValueError)


def test_a_reductions_refusals_name_the_call():
    # kgen.reduce's, kgen.argmax's and kgen.argmin's own words name the call (they said "kgen:" before).
    with pytest.raises(IndexError, match=r"^kgen\.reduce: axis 2 is out of range for 2 dimensions"):
        kgen.reduce(Device((10, 10)), axis=2)
    with pytest.raises(IndexError, match=r"^kgen\.argmax: axis -3 is out of range for 2 dimensions"):
        kgen.argmax(Device((10, 10)), axis=-3)
    with pytest.raises(TypeError, match=r"^kgen\.argmin: axis is an int .* not str 'rows'"):
        kgen.argmin(Device((10, 10)), axis="rows")
    with pytest.raises(ValueError, match=r"^kgen\.reduce: op is one of .*, not 'median'"):
        kgen.reduce(Device((10,)), op="median")
    with pytest.raises(ValueError, match=r"^kgen\.reduce: a full reduction reads a contiguous input"):
        kgen.reduce(Device((10, 10), strides=(20, 2)))
    with pytest.raises(NotImplementedError, match=r"^kgen\.argmax: reductions along the first or the last axis only"):
        kgen.argmax(Device((4, 5, 6)), axis=1)


def test_broadcast_and_overlapping_rows_are_refused():
    # A stride of 0 (a broadcast view) or rows closer than their length would reach C as a pitch of 0, which C
    # reads as packed: the launch would read (or write) past the array. Refused in Python, naming the array.
    bcast = Device((4, 8), strides=(0, 1))
    for call in (lambda: kgen.reduce(bcast, axis=1), lambda: kgen.argmax(bcast, axis=1),
                 lambda: kgen.reduce(Device((4, 8), strides=(4, 1)), axis=1)):
        with pytest.raises(ValueError, match="x's rows overlap: they are [04] elements apart and 8 long"):
            call()
    with pytest.raises(ValueError, match="x's rows overlap: they are 0 elements apart and 8 long"):
        kgen.transpose(bcast)
    with pytest.raises(ValueError, match="out's rows overlap: they are 0 elements apart and 4 long"):
        kgen.transpose(Device((4, 8)), out=Device((8, 4), strides=(0, 1)))
    with pytest.raises(ValueError, match="x's matrices overlap: they are 0 elements apart and 4 x 8"):
        kgen.transpose(Device((3, 4, 8), strides=(0, 8, 1)))
    m = mark()
    kgen.transpose(Device((4, 8), strides=(16, 1)))  # padded rows are fine
    assert len(launches_since(m)) == 1


def test_an_interface_that_misdescribes_its_array_is_refused():
    # __cuda_array_interface__ with strides for another number of dimensions than its shape's was read as it came
    # (a reduction of misdescribed memory, or a bare IndexError); one without "data" gave a KeyError, and a mask
    # (version 3: consumers that take none must refuse it) was ignored.
    def with_interface(**change):
        x = Device((8, 16))
        x.__cuda_array_interface__ = dict(x.__cuda_array_interface__, **change)
        for key in [k for k, v in change.items() if v is None]:
            del x.__cuda_array_interface__[key]
        return x
    calls = [kgen.reduce, kgen.softmax, kgen.transpose, lambda x: kgen.reduce(x, axis=1)]
    for x, message in [(with_interface(strides=(4,)), "has 1 strides for its 2 dimensions"),
                       (with_interface(data=None), "__cuda_array_interface__ has no 'data'"),
                       (with_interface(mask=Device((8, 16), "|b1")), "has a mask")]:
        for call in calls:
            m = mark()
            with pytest.raises(ValueError, match=message):
                call(x)
            assert launches_since(m) == []


def test_device_arrays_of_every_dtype_in_any_order():
    # The route kgen reads a type of array by is its first array's: a bf16 kgen.DeviceArray (DLPack alone, no
    # __cuda_array_interface__ type) after an f32 one was refused as "not a CUDA array".
    f32 = kgen.softmax(Device((4, 8)))
    assert isinstance(f32, kgen.DeviceArray)
    kgen.softmax(f32)
    bf16 = kgen.DeviceArray((4, 8), "bf16", 0, 0)
    assert kgen.softmax(bf16).dtype == "bf16"


def test_arguments_no_spec_takes_are_refused_by_name():
    # A list where a field's value goes, a spec= or plan= of no spec's type, an op that is no name, a keyword a
    # kernel does not take, out= twice: each a TypeError that names the argument (not "unhashable type: 'list'").
    x = Device((100,))
    cases = [(lambda: kgen.reduce(x, threads=[256]), "kgen.reduce: threads is an integer or a name, not \\[256\\]"),
             (lambda: kgen.softmax(Device((4, 8)), threads=[1]), "kgen.softmax: threads is an integer or a name"),
             (lambda: kgen.reduce(x, spec=5), "spec= is a path, YAML text, a dict or a kgen.Spec, not 5 \\(int\\)"),
             (lambda: kgen.transpose(Device((4, 8)), spec=5), "spec= is a path"),
             (lambda: kgen.reduce(x, plan=1), "plan= is a size plan's path or YAML text \\(or False: none\\), not 1"),
             (lambda: kgen.reduce(x, ["sum"]), "kgen.reduce: op is a name \\(one of sum, .*\\), not \\['sum'\\]"),
             (lambda: kgen.Kernel({"kernel": "rows", "op": "softmax"})(Device((4, 8)), foo=1),
              "kgen.Kernel: a rows kernel takes no keyword foo="),
             (lambda: kgen.Kernel({"kernel": "reduce"})(x, Device(()), out=Device(())),
              "kgen.Kernel: out given twice, positionally and as out="),
             (lambda: kgen.reduce(Device((10, 10)), dim=1),
              "kgen.reduce\\(\\) got an unexpected keyword argument 'dim' .*; kgen.reduce takes axis="),
             (lambda: kgen.softmax(Device((4, 8)), threadz=128),
              "kgen.softmax\\(\\) got an unexpected keyword argument 'threadz' .*; did you mean threads=\\?")]
    # a keyword of another row function, or a near name of no use: what the call takes instead
    rows = Device((8, 100))
    cases += [(lambda: kgen.rms_norm(rows, Device((100,)), bias=Device((100,))),
               "^kgen.rms_norm\\(\\) got an unexpected keyword argument 'bias' .*; RMSNorm has no bias: "
               "kgen.layer_norm takes one$"),
              (lambda: kgen.softmax(rows, eps=1e-5), "^kgen.softmax\\(\\) .* 'eps' .*; eps is the norms'"),
              (lambda: kgen.softmax(rows, labels=Device((8,), "<i8")),
               "^kgen.softmax\\(\\) .* 'labels' .*; kgen.cross_entropy takes labels$"),
              (lambda: kgen.transpose(rows, tile=32), "^kgen.transpose\\(\\) .* 'tile' .*; a tile is tile_rows="),
              (lambda: kgen.Kernel({"kernel": "rows", "op": "rms_norm"})(rows, ignore_index=3),
               "^kgen.Kernel: op rms_norm takes no ignore_index \\(cross_entropy's\\)$")]
    # an address between elements: the call's ValueError, before C is asked (an empty array's is not read)
    for call, message in [(lambda: kgen.reduce(Device((10, 100), offset=1), axis=1),
                           "^kgen.reduce: x's address 0x[0-9a-f]+ is not aligned to its 4-byte f32 elements$"),
                          (lambda: kgen.matmul(Device((16, 16), offset=2), Device((16, 16))),
                           "^kgen.matmul: a's address 0x[0-9a-f]+ is not aligned to its 4-byte f32 elements$"),
                          (lambda: kgen.cumsum(Device((10,), "<f8", offset=4)), "its 8-byte f64 elements$")]:
        m = mark()
        with pytest.raises(ValueError, match=message):
            call()
        assert launches_since(m) == []
    assert kgen.reduce(Device((0,), offset=1)).shape == ()
    # row_reduce= of None (none) or names in any iterable is taken, as before its type was checked
    c = kgen.matmul(Device((64, 32)), Device((32, 48)), row_reduce=None)
    assert c.shape == (64, 48)
    for names in ({"sum"}, (n for n in ["sum"])):
        assert set(kgen.matmul(Device((64, 32)), Device((32, 48)), row_reduce=names)[1]) == {"row_sum"}
    # a batch of matrices in reverse order (x[::-1]): a column scan takes each matrix apart, so it is taken
    flipped = Device((2, 64, 32))
    cai = flipped.__cuda_array_interface__
    flipped.__cuda_array_interface__ = dict(cai, strides=(-2048 * 4, 32 * 4, 4), data=(cai["data"][0] + 2048 * 4, False))
    m = mark()
    kgen.scan(flipped, dim=-2)
    assert [c.name.decode() for c in launches_since(m)] == ["scan_cols_sum_f32"] * 2
    one_row = Device((1, 100))  # a negative stride along a dimension of one steps nowhere: taken
    one_row.__cuda_array_interface__ = dict(one_row.__cuda_array_interface__, strides=(-400, 4))
    assert kgen.reduce(one_row, axis=1).shape == (1,)
    # dtype= (torch's habit): the input's dtype chooses the kernel; refused before a build, with what to pass
    acc = "the input's dtype chooses the kernel; acc_dtype= and out_dtype= set the other types"
    cases += [(lambda: kgen.reduce(x, dtype="f64"),
               "^kgen.reduce\\(\\) got an unexpected keyword argument 'dtype': " + acc),
              (lambda: kgen.argmax(x, dtype="f64"), "^kgen.argmax\\(\\) .* 'dtype': " + acc),
              (lambda: kgen.cumsum(Device((10,), "<i4"), dtype="i64"), "^kgen.cumsum\\(\\) .* 'dtype': " + acc),
              (lambda: kgen.transpose(Device((4, 8)), dtype="f64"), "^kgen.transpose\\(\\) .* 'dtype': the input's "
               "dtype chooses the kernel, whose result is of it$"),
              (lambda: kgen.layer_norm(Device((4, 8)), dtype="f16"), "^kgen.layer_norm\\(\\) .* 'dtype': the input's "
               "dtype chooses the kernel; out_dtype= sets the result's$"),
              (lambda: kgen.matmul(Device((16, 16)), Device((16, 16)), dtype="f16"),
               "^kgen.matmul\\(\\) .* 'dtype': " + acc)]
    for call, message in cases:
        m = mark()
        with pytest.raises(TypeError, match=message):
            call()
        assert launches_since(m) == []


def test_a_producers_stream_is_waited_for():
    # __cuda_array_interface__ version 3 names the stream the array was written on: the call's stream waits for
    # it where it is another (kgen's own DeviceArray names the stream kgen wrote it on).
    s = Stream()
    y = kgen.softmax(Device((4, 8)), stream=s.handle)
    assert y.__cuda_array_interface__["stream"] == s.handle
    waits = counter("fake_cuda_waits").value
    kgen.softmax(y)  # on stream 0
    assert counter("fake_cuda_waits").value == waits + 1
    kgen.softmax(y, stream=s.handle)  # the same stream: nothing to wait for
    assert counter("fake_cuda_waits").value == waits + 1


class _Index:
    """An integer of NumPy's as kgen meets it: no int, but __index__ (numpy.int64)."""

    def __init__(self, v):
        self.v = v

    def __index__(self):
        return self.v


def test_numpys_integers_are_axes_and_dims():
    # As softmax's dim= and the spec fields take them (the C fast paths take exact ints only, and leave the rest
    # to Python: test_fake_fast.py).
    x = Device((10, 100))
    assert kgen.reduce(x, axis=_Index(1)).shape == (10,)
    assert kgen.argmax(x, axis=_Index(0)).shape == (100,)
    assert kgen.cumsum(x, dim=_Index(-1)).shape == (10, 100)


def test_ready_calls_are_bounded(monkeypatch):
    # A process that meets a new shape at each call keeps the newest READY_MAX ready calls, not every one (3000
    # shapes grew the host's memory by 18 MB before).
    from kgen import _kernel
    monkeypatch.setattr(_kernel, "READY_MAX", 8)
    before = len(_reduce._ready)
    for n in range(1, 40):
        kgen.reduce(Device((n, 4)), axis=1)
    assert len(_reduce._ready) <= max(before, 8)
    table = {}
    for i in range(20):
        _kernel.remember(table, i, i)
    assert list(table) == list(range(12, 20))


def test_argmax_and_argmin_speak_for_themselves_and_take_spec():
    # Their errors named kgen.reduce (so the hints of their own never showed), and spec= was refused as
    # "spec is an integer or a name" although the docs give them kgen.reduce's keywords.
    x = Device((8, 16))
    with pytest.raises(TypeError, match="kgen.argmax\\(\\) got an unexpected keyword argument 'dim' .*; "
                                        "kgen.argmax takes axis="):
        kgen.argmax(x, dim=1)
    with pytest.raises(TypeError, match="kgen.argmin\\(\\) got an unexpected keyword argument 'keepdim'"):
        kgen.argmin(x, axis=1, keepdim=True)
    m = mark()
    i = kgen.argmax(x, spec={"kernel": "reduce", "threads": 128})
    (launch,) = launches_since(m)[-1:]
    assert launch.block[0] == 128 and i.dtype == "i64" and i.shape == ()
    assert kgen.argmin(x, 1, spec={"kernel": "reduce_axis"}).shape == (8,)


def test_a_spec_of_another_family_is_refused_alike_everywhere():
    # spec= of another family: a SpecError about a key of the call's (op, a_layout), an error about op: softmax,
    # or a KgenError from C after an NVRTC build; now each call's ValueError, as kgen.reduce's, before a build.
    x, reduce_spec = Device((8, 16)), {"kernel": "reduce"}
    for call, name, family in [(lambda s: kgen.scan(x, spec=s), "kgen.scan", "scan"),
                               (lambda s: kgen.softmax(x, spec=s), "kgen.softmax", "rows"),
                               (lambda s: kgen.transpose(x, spec=s), "kgen.transpose", "transpose"),
                               (lambda s: kgen.matmul(x, Device((16, 4)), spec=s), "kgen.matmul", "matmul")]:
        m = mark()
        with pytest.raises(ValueError, match="%s: spec= is a kernel: reduce spec; %s takes kernel: %s specs"
                                             % (name, name, family)):
            call(reduce_spec)
        assert launches_since(m) == []


def test_numpys_axis_where_a_call_takes_dim_is_said_so():
    # axis=-1 reached the spec of a row or scan kernel, whose axis is rows or cols: "SpecError: axis: unknown value
    # '-1'"; now the call's TypeError, naming what it takes.
    x = Device((8, 16))
    for call, message in [(lambda: kgen.softmax(x, axis=-1), "kgen.softmax: axis=-1 is a spec field here .*; "
                                                             "kgen.softmax takes dim="),
                          (lambda: kgen.scan(x, axis=-1), "kgen.scan takes dim="),
                          (lambda: kgen.layer_norm(x, axis=-1), "kgen.layer_norm works along the last dimension")]:
        with pytest.raises(TypeError, match=message):
            call()


def test_argmax_refuses_another_familys_spec_and_kernel_keeps_its_axis_error():
    x = Device((8, 16))
    with pytest.raises(ValueError, match="kgen.argmax: spec= is a kernel: scan spec; kgen.argmax takes kernel: reduce"):
        kgen.argmax(x, spec={"kernel": "scan"})
    # kgen.Kernel's axis= is the spec's field: its own error, not the row functions' dim= hint
    with pytest.raises(kgen.SpecError, match="axis: unknown value '1': expected rows or cols"):
        kgen.Kernel({"kernel": "reduce_axis"}, axis=1)


def test_odd_arguments_are_refused_by_name():
    # what a caller can get wrong outside a spec: each the call's own TypeError or ValueError, nothing from ctypes
    no_data = Device((10,))
    no_data.__cuda_array_interface__ = dict(no_data.__cuda_array_interface__, data=None)
    backwards = Device((4, 100))
    backwards.__cuda_array_interface__ = dict(backwards.__cuda_array_interface__, strides=(-400, 4))
    for call, error, message in [
            (lambda: kgen.softmax(backwards), ValueError,
             "^kgen.softmax: x has negative strides \\(-100, 1\\), which kgen does not take"),
            (lambda: kgen.reduce(backwards, axis=1), ValueError, "^kgen.reduce: x has negative strides"),
            (lambda: kgen.DeviceArray((2,), "f32", "0", 0), TypeError,
             "^kgen.DeviceArray: device must be an int from 0 to 2147483647, not '0' \\(str\\)$"),
            (lambda: kgen.check(""), ValueError, "^kgen.check: the spec is empty"),
            (lambda: kgen.reduce(no_data), ValueError,
             "^kgen.reduce: the input's __cuda_array_interface__ \"data\" is \\(address, read-only\\), not None$"),
            (lambda: kgen.matmul(Device((64, 32)), Device((32, 48)), row_reduce=3), TypeError,
             "^kgen.matmul: row_reduce is a name, a sequence of names or their text \\('sum, max'\\), "
             "not 3 \\(int\\)$")]:
        m = mark()
        with pytest.raises(error, match=message):
            call()
        assert launches_since(m) == []
