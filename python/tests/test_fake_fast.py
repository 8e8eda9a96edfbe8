"""kgen._fast (python/kgen/_fast.c), kgen.reduce's and the row functions'
torch fast path in C, against the fake driver: a ready call launches its kernel with the tensor's
address, a new result's (or out='s) and the stream torch names; anything
it does not take comes back as NotImplemented for the Python path; a
failed launch raises the package's error.  No torch here: a stand-in
tensor type with the methods the fast path calls (dtype, shape, stride(),
get_device(), data_ptr(), is_contiguous(), new_empty()) is registered as "the" tensor
type.  On a GPU the same path runs under test_gpu*.py with torch;
test_cpu.py checks that the module the build made is the one loaded."""
import ctypes
import gc
import sys
import weakref

import pytest

import kgen
from kgen import _arrays, _lib, _reduce, _rows, _scan
from fakecuda import Device, launches_since, mark, need_fake, record_params

need_fake()


if _lib.fast is None:
    pytest.skip("no kgen._fast: %s" % _lib.fast_where, allow_module_level=True)
fast = _lib.fast


class T:
    """A stand-in torch tensor on the fake driver's memory."""

    def __init__(self, shape, dtype="f32", device=0, contiguous=True, offset=0, room=0):
        n = 1
        for d in shape:
            n *= d
        # room: elements allocated at least (rows read a pitch apart past the shape's end)
        self.mem = Device((max(n, room, 1),), "<i8" if dtype == "i64" else "<f4", offset=offset)
        self.dtype, self.shape, self.device, self.contiguous = dtype, tuple(shape), device, contiguous

    def stride(self):
        s, out = 1, []
        for d in reversed(self.shape):
            out.append(s)
            s *= d
        return tuple(reversed(out))

    def get_device(self):
        return self.device

    def data_ptr(self):
        return self.mem.ptr

    def numel(self):
        n = 1
        for d in self.shape:
            n *= d
        return n

    @property
    def nbytes(self):
        return self.numel() * (8 if self.dtype == "i64" else 4)

    def is_contiguous(self):
        return self.contiguous

    def new_empty(self, shape):
        """torch's Tensor.new_empty: a new tensor of this one's dtype and device."""
        t = T(shape, self.dtype, self.device)
        made.append(t)
        return t


made = []


def make(template):
    """torch.empty_like's stand-in: a new tensor like the template."""
    t = T(template.shape, template.dtype, template.device)
    made.append(t)
    return t


STREAM = 0x5150
ready = {}
rows_ready = {}
scan_ready = {}


@pytest.fixture(autouse=True, scope="module")
def entry():
    """The fast path pointed at this file's dict, tensor type and stream."""
    address = ctypes.cast(_lib.kgen_reduce_packed, ctypes.c_void_p).value
    fast.set_entry(address, ready, T, lambda device: STREAM + device, kgen.ArgResult, _lib.fail)
    fast.set_rows(ctypes.cast(_lib.kgen_rows, ctypes.c_void_p).value, rows_ready)
    fast.set_scan(ctypes.cast(_lib.kgen_scan_rows, ctypes.c_void_p).value, scan_ready,
                  ctypes.cast(_lib.kgen_scan_cols, ctypes.c_void_p).value)
    yield
    ready.clear()
    rows_ready.clear()
    scan_ready.clear()
    _reduce._fast_entry = False  # the package's own entry again at its next torch call
    _rows._fast_set = False
    _scan._fast_set = False


def make_ready(op, n, device=0, keep=None, sink=0):
    """A Ready for a full reduction of n f32 (and its kernel, kept by the caller);
    sink: argmin's or argmax's values go there, the indices alone returned."""
    k = kgen.Kernel({"kernel": "reduce", "op": op, "dtype": "f32", "threads": 256, "items_per_thread": 4,
                     "stages": "last_block"})
    size, err = ctypes.c_size_t(), _lib.Error()
    _lib.check(_lib.kgen_reduce_scratch_size(k._handle, n, ctypes.byref(size), ctypes.byref(err)), err)
    scratch = Device((size.value // 4 + 1,))
    pair = op in ("argmin", "argmax")
    values = T((), "f32")
    indices = T((), "i64") if pair else None
    r = fast.Ready(k._handle, scratch.ptr, size.value, (n,), pair, sink, device, make, values, indices, "f32", "i64",
                   (), keep if keep is not None else (k, scratch))
    return r, k, scratch


def key(x, op, axis):
    return (x.dtype, x.shape, x.stride(), x.get_device(), op, axis)


def test_a_ready_call_launches_with_the_tensors_and_the_stream():
    x = T((1000,))
    r, k, scratch = make_ready("sum", 1000)
    ready[key(x, "sum", None)] = r
    m = mark()
    record_params(5)  # in, out, n, partials, ticket
    y = fast.reduce(x, "sum", None, None)
    record_params(0)
    (launch,) = launches_since(m)
    assert y is made[-1] and isinstance(y, T) and y.shape == ()
    assert launch.name.decode() == "reduce_sum_f32"
    assert launch.args[0] == x.data_ptr() and launch.args[1] == y.data_ptr()
    assert launch.args[2] & 0xffffffff == 1000
    assert launch.args[4] == scratch.ptr  # last_block's ticket: the scratch's first bytes
    assert launch.stream == STREAM
    # out=: the same launch into it, and out itself back.
    out = T(())
    m = mark()
    record_params(2)
    assert fast.reduce(x, "sum", None, out) is out
    record_params(0)
    (launch,) = launches_since(m)
    assert launch.args[1] == out.data_ptr()


def test_the_stream_of_the_tensors_device():
    x = T((64,), device=3)
    r, k, scratch = make_ready("max", 64, device=3)
    ready[key(x, "max", None)] = r
    m = mark()
    fast.reduce(x, "max", None, None)
    assert [l.stream for l in launches_since(m)] == [STREAM + 3]


def test_argmax_gives_values_and_indices():
    x = T((512,))
    r, k, scratch = make_ready("argmax", 512)
    ready[key(x, "argmax", None)] = r
    m = mark()
    record_params(2)
    v, i = got = fast.reduce(x, "argmax", None, None)
    record_params(0)
    assert isinstance(got, kgen.ArgResult) and v.dtype == "f32" and i.dtype == "i64"
    (launch,) = launches_since(m)
    assert launch.args[0] == x.data_ptr()
    outs = (T(()), T((), "i64"))
    assert fast.reduce(x, "argmax", None, outs) is outs
    # A list, one array, or the indices in the values' dtype: the Python path's to take or refuse.
    assert fast.reduce(x, "argmax", None, list(outs)) is NotImplemented
    assert fast.reduce(x, "argmax", None, outs[0]) is NotImplemented
    assert fast.reduce(x, "argmax", None, (outs[0], T(()))) is NotImplemented


def test_argmax_with_a_sink_gives_the_indices_alone():
    # kgen.argmax's Ready: the values into the sink (kgen's buffer), one new result, the indices.
    x = T((512,))
    sink = Device((4,))
    r, k, scratch = make_ready("argmax", 512, sink=sink.ptr)
    ready[key(x, "argmax indices", None)] = r
    m = mark()
    record_params(2)  # in, then struct Results { value, index }: its first 8 bytes (the GPU tests check the indices)
    i = fast.reduce(x, "argmax indices", None, None)
    record_params(0)
    (launch,) = launches_since(m)
    assert i is made[-1] and i.dtype == "i64" and i.shape == ()
    assert (launch.args[0], launch.args[1]) == (x.data_ptr(), sink.ptr)
    # out=: one i64 tensor, itself back; a pair, or a tensor of the values' dtype: the Python path's.
    out = T((), "i64")
    m = mark()
    record_params(2)
    assert fast.reduce(x, "argmax indices", None, out) is out
    record_params(0)
    (launch,) = launches_since(m)
    assert launch.args[1] == sink.ptr
    assert fast.reduce(x, "argmax indices", None, (T(()), out)) is NotImplemented
    assert fast.reduce(x, "argmax indices", None, T(())) is NotImplemented


def test_what_it_does_not_take_goes_back_to_python():
    x = T((100,))
    r, k, scratch = make_ready("min", 100)
    ready[key(x, "min", None)] = r
    m = mark()
    assert fast.reduce(T((101,)), "min", None, None) is NotImplemented  # not made ready
    assert fast.reduce(x, "max", None, None) is NotImplemented          # another op
    assert fast.reduce(x, "min", 0, None) is NotImplemented             # another axis
    assert fast.reduce(Device((100,)), "min", None, None) is NotImplemented  # not the tensor type
    assert fast.reduce(x, "min", [0], None) is NotImplemented           # unhashable: Python says why
    for out in (T((), "i64"), T((1,)), T((), device=1), T((), contiguous=False), Device(())):
        assert fast.reduce(x, "min", None, out) is NotImplemented
    assert launches_since(m) == []


class NumpyLikeInt:
    """Compares and hashes as 1, as numpy.int64(1) does, but is no int."""

    def __eq__(self, other):
        return other == 1

    def __hash__(self):
        return hash(1)


def test_only_an_exact_int_axis_finds_an_entry():
    # R4-5: the dict's keys compare by ==, and True == 1 == 1.0: the fast
    # path took axis=True or axis=1.0 as the entry made for axis 1.
    x = T((100,))
    r, k, scratch = make_ready("min", 100)
    ready[key(x, "min", 1)] = r

    class Op(str):
        pass
    m = mark()
    for axis in (True, 1.0, NumpyLikeInt()):
        assert fast.reduce(x, "min", axis, None) is NotImplemented
    assert fast.reduce(x, Op("min"), 1, None) is NotImplemented
    assert launches_since(m) == []
    fast.reduce(x, "min", 1, None)
    assert len(launches_since(m)) == 1


def test_a_failed_launch_raises_kgens_error_and_drops_its_result():
    x = T((100,), offset=2)  # not aligned to its f32 elements
    r, k, scratch = make_ready("sum", 100)
    ready[key(x, "sum", None)] = r
    before = len(made)
    with pytest.raises(kgen.KgenError, match="not aligned to its 4-byte f32"):
        fast.reduce(x, "sum", None, None)
    dropped = weakref.ref(made.pop())
    assert len(made) == before
    gc.collect()
    assert dropped() is None  # the new result went with the failed call


def test_an_exception_in_torchs_calls_propagates():
    x = T((100,))
    r, k, scratch = make_ready("sum", 100)
    ready[key(x, "sum", None)] = r

    def bad_device():
        raise RuntimeError("no device")
    x.get_device = bad_device
    with pytest.raises(RuntimeError, match="no device"):
        fast.reduce(x, "sum", None, None)


def test_a_ready_keeps_its_kernels_owner():
    class Owner:
        pass
    o = Owner()
    r, k, scratch = make_ready("sum", 100, keep=o)
    w = weakref.ref(o)
    del o
    gc.collect()
    assert w() is not None
    del r
    gc.collect()
    assert w() is None


def test_a_launch_made_ready_in_c_keeps_its_kernel_not_itself():
    # _reduce._fast_ready: a _Launch's fields to a Ready, which holds the
    # kernel (not the _Launch, which holds it: a cycle the GC cannot see).
    class Launch:
        pass
    k = kgen.Kernel({"kernel": "reduce", "op": "sum", "dtype": "f32", "threads": 256, "items_per_thread": 4,
                     "stages": "last_block"})
    scratch = Device((1024,))
    L = Launch()
    L.k, L.handle, L.scratch, L.sizes, L.pair, L.sink, L.shape = k, k._handle, (scratch.ptr, 4096), (300,), False, 0, ()
    L.t_new, L.t_values, L.t_indices, L.t_dtype, L.t_i64 = make, T(()), None, "f32", "i64"
    _reduce._fast_entry = True  # this file's entry (set_entry above), not torch's
    r = _reduce._fast_ready(L, 0)
    x = T((300,))
    ready[key(x, "sum", None)] = r
    m = mark()
    record_params(3)
    y = fast.reduce(x, "sum", None, None)
    record_params(0)
    (launch,) = launches_since(m)
    assert launch.args[0] == x.data_ptr() and launch.args[1] == y.data_ptr() and launch.args[2] & 0xffffffff == 300
    gone, kept = weakref.ref(L), weakref.ref(k)
    del L, k
    gc.collect()
    assert gone() is None and kept() is not None
    del r
    ready.clear()
    gc.collect()
    assert kept() is None


def test_bad_arguments_are_refused():
    with pytest.raises(TypeError, match="4 arguments"):
        fast.reduce(T((1,)), "sum")
    with pytest.raises(ValueError, match="a kernel, and 1 to 3 sizes"):
        fast.Ready(0, 0, 0, (1,), False, 0, 0, make, T(()), None, "f32", "i64", (), None)
    with pytest.raises(ValueError, match="1 to 3 sizes"):
        fast.Ready(1, 0, 0, (1, 2, 3, 4), False, 0, 0, make, T(()), None, "f32", "i64", (), None)
    with pytest.raises(TypeError):
        fast.Ready(1, 0, 0, [1], False, 0, 0, make, T(()), None, "f32", "i64", (), None)
    with pytest.raises(ValueError, match="a sink for the values of a reduction that is not a pair"):
        fast.Ready(1, 0, 0, (1,), False, 0x1000, 0, make, T(()), None, "f32", "i64", (), None)
    with pytest.raises(ValueError, match="address of kgen_reduce_packed is 0"):
        fast.set_entry(0, {}, T, None, None, None)
    assert fast.PACKED_COUNT == len(_lib.PACKED) and fast.ABI == _lib.FAST_ABI


# ---- the row functions: rows(op, x, weight, bias, eps) ----

def make_rows_ready(op, rows, cols, device=0, pitch=None):
    """A RowsReady of op on rows x cols f32 (strategy auto), and its kernel."""
    k = kgen.Kernel({"kernel": "rows", "op": op, "dtype": "f32"})
    like = T((1,), "f32", device)
    losses = op == "cross_entropy"
    return fast.RowsReady(k._handle, rows, cols, pitch or cols, device, like, (rows,) if losses else (rows, cols),
                          losses, k), k


def rows_key(op, x, w=None, b=None):
    """kgen/_rows.py's key (_torch_layout), as kgen._fast.rows builds it."""
    return (op,) + tuple(None if t is None else (t.dtype, t.shape, t.stride(), t.get_device()) for t in (x, w, b))


def test_a_ready_row_call_launches_its_kernel_into_a_new_result():
    x, w = T((64, 12000)), T((12000,))
    r, k = make_rows_ready("rms_norm", 64, 12000)
    rows_ready[rows_key("rms_norm", x, w)] = r
    m = mark()
    record_params(1)  # struct Rows, by value: its first word is x
    y = fast.rows("rms_norm", x, w, None, 1e-5)
    record_params(0)
    (launch,) = launches_since(m)
    assert y is made[-1] and isinstance(y, T) and y.shape == (64, 12000) and y.dtype == "f32"
    # 3000 loads of 16 bytes, rows 16-byte aligned, the fake's sm_90: RMSNorm's wide staged kernel of 1024
    # lanes x 4 (blocks of 1024 threads)
    assert launch.name.decode() == "rows_rms_norm_f32_staged1024x4w"
    assert launch.block[0] == 1024
    assert launch.args[0] == x.data_ptr()
    assert launch.stream == STREAM
    assert _rows._torch_layout(None) is None  # the package's key, the same tuple this file builds


def test_a_ready_row_call_of_xs_dtype_and_shape_makes_its_result_from_x():
    """Where the result has x's dtype and shape (kgen/_rows.py passes torch.empty_like), the result is
    make(x): like x, whatever the template says; without make, the template's new_empty(shape)."""
    x = T((16, 1000))
    k = kgen.Kernel({"kernel": "rows", "op": "softmax", "dtype": "f32"})
    seen = []

    def like_x(t):
        seen.append(t)
        return make(t)

    rows_ready[rows_key("softmax", x)] = fast.RowsReady(k._handle, 16, 1000, 1000, 0, T((1,), "i64"), (16, 1000),
                                                        False, k, False, like_x)
    m = mark()
    record_params(1)
    y = fast.rows("softmax", x, None, None, 0.0)
    record_params(0)
    (launch,) = launches_since(m)
    assert seen == [x] and y is made[-1] and y.shape == (16, 1000) and y.dtype == "f32"  # x's, not the template's
    assert launch.args[0] == x.data_ptr()
    rows_ready[rows_key("softmax", x)] = fast.RowsReady(k._handle, 16, 1000, 1000, 0, T((1,), "i64"), (16, 1000),
                                                        False, k, False, None)
    y = fast.rows("softmax", x, None, None, 0.0)
    assert y is made[-1] and y.dtype == "i64" and seen == [x]  # the template's new_empty


def test_row_calls_it_does_not_take_go_back_to_python():
    x, w = T((8, 300)), T((300,))
    r, k = make_rows_ready("layer_norm", 8, 300, device=2)
    x2, w2 = T((8, 300), device=2), T((300,), device=2)
    rows_ready[rows_key("layer_norm", x2, w2, None)] = r
    m = mark()
    assert fast.rows("layer_norm", x2, w2, None, 1e-5) is not NotImplemented  # the one made ready
    assert [l.stream for l in launches_since(m)] == [STREAM + 2]
    m = mark()
    for args in (("layer_norm", x, w, None, 1e-5),             # another device
                 ("layer_norm", T((9, 300), device=2), w2, None, 1e-5),  # another shape
                 ("layer_norm", x2, None, None, 1e-5),         # no weight
                 ("layer_norm", x2, w2, w2, 1e-5),             # a bias too
                 ("rms_norm", x2, w2, None, 1e-5),             # another op
                 ("layer_norm", x2, w2, None, 1),              # an int eps: Python checks it
                 ("layer_norm", x2, w2, None, -1.0),           # a negative eps: Python says why
                 ("layer_norm", x2, w2, None, float("nan")),
                 ("layer_norm", x2, Device((300,)), None, 1e-5),  # a weight that is not the tensor type
                 ("layer_norm", Device((8, 300)), w2, None, 1e-5),
                 (b"layer_norm", x2, w2, None, 1e-5)):
        assert fast.rows(*args) is NotImplemented, args
    assert launches_since(m) == []


def test_a_failed_row_launch_raises_kgens_error():
    x = T((4, 100), offset=2)  # not aligned to its f32 elements
    r, k = make_rows_ready("softmax", 4, 100)
    rows_ready[rows_key("softmax", x)] = r
    with pytest.raises(kgen.KgenError, match="not aligned to its element size"):
        fast.rows("softmax", x, None, None, 0.0)


def test_bad_row_arguments_are_refused():
    k = kgen.Kernel({"kernel": "rows", "dtype": "f32"})
    with pytest.raises(TypeError, match="5 arguments"):
        fast.rows("softmax", T((1, 1)))
    with pytest.raises(ValueError, match="x_pitch >= cols"):
        fast.RowsReady(k._handle, 4, 100, 99, 0, T((1,)), (4, 100), False, k)
    with pytest.raises(ValueError, match="a kernel, rows and cols above 0"):
        fast.RowsReady(0, 4, 100, 100, 0, T((1,)), (4, 100), False, k)
    with pytest.raises(TypeError):
        fast.RowsReady(k._handle, 4, 100, 100, 0, T((1,)), [4, 100], False, k)
    with pytest.raises(TypeError, match="make is None or a function of x"):
        fast.RowsReady(k._handle, 4, 100, 100, 0, T((1,)), (4, 100), False, k, False, "empty_like")
    with pytest.raises(TypeError, match="3 arguments"):
        fast.cross_entropy(T((1, 1)), T((1,), "i64"))
    with pytest.raises(ValueError, match="set_entry was not called"):
        fast.set_rows(0, {})


def test_a_ready_cross_entropy_call_writes_new_losses():
    x, labels = T((64, 500)), T((64,), "i64")
    r, k = make_rows_ready("cross_entropy", 64, 500)
    rows_ready[rows_key("cross_entropy", x, labels)] = r
    m = mark()
    record_params(1)
    loss = fast.cross_entropy(x, labels, -100)
    record_params(0)
    (launch,) = launches_since(m)
    assert loss is made[-1] and loss.shape == (64,)
    assert launch.name.decode().startswith("rows_cross_entropy_f32_") and launch.args[0] == x.data_ptr()
    m = mark()
    for args in ((x, labels, 2 ** 63),            # no C long long: the Python path says so
                 (x, labels, -100.0),              # not an int
                 (x, T((65,), "i64"), -100),       # labels of another layout
                 (x, Device((64,), "<i8"), -100)):  # not the tensor type
        assert fast.cross_entropy(*args) is NotImplemented, args
    assert fast.rows("cross_entropy", x, labels, None, 0.0) is NotImplemented  # rows() takes no losses' entry
    assert launches_since(m) == []


# ---- kgen.matmul: matmul(a, b) ----

matmul_ready = {}


@pytest.fixture
def matmul_entry():
    fast.set_matmul(ctypes.cast(_lib.kgen_matmul, ctypes.c_void_p).value, matmul_ready)
    yield matmul_ready
    matmul_ready.clear()


def matmul_key(a, b):
    """kgen/_matmul.py's key (_ready_key), as kgen._fast.matmul builds it."""
    return ((a.dtype, a.shape, a.stride(), a.get_device()), (b.dtype, b.shape, b.stride(), b.get_device()),
            (a.data_ptr() | b.data_ptr()) % 16 == 0)


def test_a_ready_matmul_launches_into_a_new_result(matmul_entry):
    # A 64 x 48 x 32 f32 SIMT matmul: a, b and the new c's addresses, m, n, k and the leading dimensions.
    k = kgen.Kernel({"kernel": "matmul", "dtype": "f32"})
    a, b = T((64, 32)), T((32, 48))
    template = T((64, 48))
    matmul_entry[matmul_key(a, b)] = fast.MatmulReady(k._handle, 64, 48, 32, 32, 48, 0, make, template, k)
    m = mark()
    record_params(9)  # a, b, c, m, n, k, lda, ldb, ldc
    c = fast.matmul(a, b)
    record_params(0)
    (launch,) = launches_since(m)
    assert c is made[-1] and c.shape == (64, 48)
    assert launch.name.decode() == "matmul_simt_f32"
    assert launch.args[:3] == [a.data_ptr(), b.data_ptr(), c.data_ptr()]
    assert [x & 0xffffffff for x in launch.args[3:9]] == [64, 48, 32, 32, 48, 48]
    assert launch.stream == STREAM


def test_matmul_calls_it_does_not_take_go_back_to_python(matmul_entry):
    k = kgen.Kernel({"kernel": "matmul", "dtype": "f32"})
    a, b = T((64, 32)), T((32, 48))
    matmul_entry[matmul_key(a, b)] = fast.MatmulReady(k._handle, 64, 48, 32, 32, 48, 0, make, T((64, 48)), k)
    m = mark()
    # Another shape, another device, an address of other alignment (TMA's rule chooses the kernel), not tensors.
    assert fast.matmul(a, T((32, 40))) is NotImplemented
    assert fast.matmul(T((64, 32), device=1), b) is NotImplemented
    assert fast.matmul(T((64, 32), offset=4), b) is NotImplemented
    assert fast.matmul(Device((64, 32)), b) is NotImplemented
    assert launches_since(m) == []
    with pytest.raises(TypeError, match="2 arguments"):
        fast.matmul(a)
    with pytest.raises(ValueError, match="m, n, k, lda and ldb above 0"):
        fast.MatmulReady(k._handle, 0, 48, 32, 32, 48, 0, make, T(()), k)
    with pytest.raises(ValueError, match="kgen_matmul's address is 0"):
        fast.set_matmul(0, {})


def test_a_ready_matmul_with_scratch_takes_a_new_one_each_call(matmul_entry):
    # split_k 4 of a 64 x 48 x 32 f32 SIMT matmul: the partials go to scratch(), a new tensor each call, dropped
    # only once both launches are queued (torch's caching allocator then hands it to later work on the stream).
    k = kgen.Kernel({"kernel": "matmul", "dtype": "f32", "split_k": 4})
    size = ctypes.c_size_t()
    err = _lib.Error()
    _lib.check(_lib.kgen_matmul_scratch_size(k._handle, 64, 48, 32, ctypes.byref(size), ctypes.byref(err)), err)
    assert size.value > 0
    where, dropped_after = [], []

    class Scratch(T):
        def __del__(self):
            dropped_after.append(len(launches_since(m)))

    def scratch():
        t = Scratch((size.value // 4,), "u8")
        where.append(t.data_ptr())
        return t

    a, b = T((64, 32)), T((32, 48))
    r = fast.MatmulReady(k._handle, 64, 48, 32, 32, 48, 0, make, T((64, 48)), k, size.value, scratch)
    assert r.scratch_bytes == size.value
    matmul_entry[matmul_key(a, b)] = r
    for call in range(2):
        m = mark()
        record_params(6)  # the first kernel's a, b, c, ...; the second's (which takes 6) partials, c, ...
        c = fast.matmul(a, b)
        record_params(0)
        launches = launches_since(m)
        assert [x.name.decode() for x in launches] == ["matmul_simt_f32", "matmul_simt_f32_reduce"]
        assert c is made[-1] and len(where) == call + 1
        assert dropped_after == [2] * (call + 1)  # freed by the call, after its two launches
        assert launches[0].args[:3] == [a.data_ptr(), b.data_ptr(), c.data_ptr()]
        assert launches[1].args[:2] == [where[-1], c.data_ptr()]  # the splits added from this call's scratch
        assert launches[0].stream == launches[1].stream == STREAM
    with pytest.raises(TypeError, match="needs scratch"):
        fast.MatmulReady(k._handle, 64, 48, 32, 32, 48, 0, make, T((64, 48)), k, size.value)


def test_a_ready_matmul_drops_the_result_when_its_scratch_fails(matmul_entry):
    # scratch() raising, or making fewer bytes than the kernel needs: the error comes back, nothing is
    # launched, and the new result (and the short scratch) are dropped.
    k = kgen.Kernel({"kernel": "matmul", "dtype": "f32", "split_k": 4})
    size = ctypes.c_size_t()
    err = _lib.Error()
    _lib.check(_lib.kgen_matmul_scratch_size(k._handle, 64, 48, 32, ctypes.byref(size), ctypes.byref(err)), err)
    a, b = T((64, 32)), T((32, 48))
    short = []

    def too_small():
        short.append(T((1,), "u8"))
        return short[-1]

    def failing():
        raise MemoryError("no scratch")

    for scratch, error, match in ((failing, MemoryError, "no scratch"),
                                  (too_small, ValueError, "scratch\\(\\) made 4 bytes, the kernel needs")):
        matmul_entry[matmul_key(a, b)] = fast.MatmulReady(k._handle, 64, 48, 32, 32, 48, 0, make, T((64, 48)), k,
                                                          size.value, scratch)
        before, m = len(made), mark()
        with pytest.raises(error, match=match):
            fast.matmul(a, b)
        assert launches_since(m) == []
        result = weakref.ref(made.pop())
        assert len(made) == before
        gc.collect()
        assert result() is None
    assert sys.getrefcount(short.pop()) == 2  # the list's reference and getrefcount's: the call kept none


def test_a_failed_matmul_raises_kgens_error(matmul_entry):
    # lda below k: kgen_matmul refuses it, and the new result is dropped.
    k = kgen.Kernel({"kernel": "matmul", "dtype": "f32"})
    a, b = T((64, 32)), T((32, 48))
    matmul_entry[matmul_key(a, b)] = fast.MatmulReady(k._handle, 64, 48, 32, 16, 48, 0, make, T((64, 48)), k)
    before = len(made)
    with pytest.raises(kgen.KgenError, match="lda 16 is less than k 32"):
        fast.matmul(a, b)
    dropped = weakref.ref(made.pop())
    assert len(made) == before
    gc.collect()
    assert dropped() is None  # the new result went with the failed call


# ---- scans: scan(op, exclusive, dim, x) ----

def make_scan_ready(op, shape, rows=0, pitch=None, device=0, exclusive=False):
    """A scan's RowsReady of op on f32 of shape (rows 0: all of it as a
    vector, one row; else rows of shape[-1] elements, pitch apart), and its
    kernel."""
    k = kgen.Kernel({"kernel": "scan", "op": op, "dtype": "f32", "mode": "exclusive" if exclusive else "inclusive"})
    cols = shape[-1] if rows else 1
    if not rows:
        for d in shape:
            cols *= d
    like = T((1,), "f32", device)
    return fast.RowsReady(k._handle, rows or 1, cols, pitch or cols, device, like, tuple(shape), False, k), k


def scan_key(op, exclusive, dim, x):
    """kgen/_scan.py's key, as kgen._fast.scan builds it."""
    return (op, exclusive, dim, (x.dtype, x.shape, x.stride(), x.get_device()))


def test_a_ready_scan_of_a_vector_launches_into_a_new_result():
    x = T((100000,))
    r, k = make_scan_ready("sum", (100000,))
    scan_ready[scan_key("sum", False, None, x)] = r
    m = mark()
    record_params(5)  # in, out, n, in_pitch, out_pitch
    y = fast.scan("sum", False, None, x)
    record_params(0)
    (launch,) = launches_since(m)
    assert y is made[-1] and isinstance(y, T) and y.shape == (100000,) and y.dtype == "f32"
    assert launch.name.decode() == "scan_sum_f32"
    assert launch.args[0] == x.data_ptr() and launch.args[1] == y.data_ptr()
    assert list(launch.args[2:5]) == [100000, 100000, 100000]
    assert (launch.grid[0], launch.grid[1]) == (13, 1)  # tiles of 8192, one row
    assert launch.stream == STREAM
    y2 = fast.scan("sum", False, None, x)  # a new result each call
    assert y2 is made[-1] and y2 is not y


def test_a_ready_scan_of_rows_takes_their_pitch_into_packed_rows():
    x = T((6, 1000), device=1, room=6 * 1024)  # rows 1024 apart
    r, k = make_scan_ready("max", (6, 1000), rows=6, pitch=1024, device=1, exclusive=True)
    scan_ready[scan_key("max", True, -1, x)] = r
    m = mark()
    record_params(5)
    y = fast.scan("max", True, -1, x)
    record_params(0)
    (launch,) = launches_since(m)
    assert launch.name.decode() == "scan_max_f32" and y.shape == (6, 1000)
    assert list(launch.args[2:5]) == [1000, 1024, 1000]  # n, in_pitch, out_pitch
    assert (launch.grid[0], launch.grid[1]) == (1, 6)
    assert launch.stream == STREAM + 1


def test_a_ready_scan_down_the_columns_launches_kgen_scan_cols():
    x = T((700, 20))
    k = kgen.Kernel({"kernel": "scan", "axis": "cols", "dtype": "f32"})
    scan_ready[scan_key("sum", False, 0, x)] = fast.RowsReady(k._handle, 700, 20, 20, 0, T((1,), "f32", 0), (700, 20),
                                                              False, k, True)
    m = mark()
    record_params(6)  # in, out, rows, cols, in_pitch, out_pitch
    y = fast.scan("sum", False, 0, x)
    record_params(0)
    (launch,) = launches_since(m)
    assert launch.name.decode() == "scan_cols_sum_f32" and y.shape == (700, 20)
    assert launch.args[0] == x.data_ptr() and launch.args[1] == y.data_ptr()
    assert list(launch.args[2:6]) == [700, 20, 20, 20]  # rows, cols, x's pitch, the packed result's
    assert (launch.grid[0], launch.grid[1]) == (2, 1)  # tiles of 384 rows, a band of 32 columns


def test_a_scan_down_the_columns_without_kgen_scan_cols_is_refused():
    x = T((700, 20))
    k = kgen.Kernel({"kernel": "scan", "axis": "cols", "dtype": "f32"})
    try:
        fast.set_scan(ctypes.cast(_lib.kgen_scan_rows, ctypes.c_void_p).value, scan_ready, 0)  # a libkgen without it
        scan_ready[scan_key("sum", False, 0, x)] = fast.RowsReady(k._handle, 700, 20, 20, 0, T((1,), "f32", 0),
                                                                  (700, 20), False, k, True)
        with pytest.raises(TypeError, match="a scan down the columns made ready, but set_scan was given no "
                                            "kgen_scan_cols"):
            fast.scan("sum", False, 0, x)
    finally:
        scan_ready.clear()
        fast.set_scan(ctypes.cast(_lib.kgen_scan_rows, ctypes.c_void_p).value, scan_ready,
                      ctypes.cast(_lib.kgen_scan_cols, ctypes.c_void_p).value)


def test_scan_calls_it_does_not_take_go_back_to_python():
    x = T((4096,))
    r, k = make_scan_ready("sum", (4096,))
    scan_ready[scan_key("sum", False, None, x)] = r
    scan_ready[scan_key("sum", False, 0, x)] = r

    class Op(str):
        pass
    m = mark()
    for args in (("sum", False, None, T((4097,))),          # not made ready
                 ("sum", False, None, T((4096,), device=1)),  # another device
                 ("sum", False, None, T((4096,), "i64")),     # another dtype
                 ("max", False, None, x),                     # another op
                 ("sum", True, None, x),                      # exclusive
                 ("sum", 0, None, x),                         # not a bool: Python says why
                 ("sum", False, -1, x),                       # another dim
                 ("sum", False, False, x),                    # False == 0 in the dict, but no int
                 ("sum", False, 0.0, x),
                 ("sum", False, NumpyLikeInt(), x),
                 (Op("sum"), False, None, x),
                 (b"sum", False, None, x),
                 ("sum", False, None, Device((4096,)))):      # not the tensor type
        assert fast.scan(*args) is NotImplemented, args
    assert launches_since(m) == []
    assert fast.scan("sum", False, 0, x) is not NotImplemented


def test_a_failed_scan_launch_raises_kgens_error_and_drops_its_result():
    x = T((100,), offset=2)  # not aligned to its f32 elements
    r, k = make_scan_ready("sum", (100,))
    scan_ready[scan_key("sum", False, None, x)] = r
    before = len(made)
    with pytest.raises(kgen.KgenError, match="kgen_scan_rows: .*not aligned"):
        fast.scan("sum", False, None, x)
    dropped = weakref.ref(made.pop())
    assert len(made) == before
    gc.collect()
    assert dropped() is None


def test_a_scans_ready_keeps_its_kernel():
    r, k = make_scan_ready("sum", (10,))
    kept = weakref.ref(k)
    del k
    gc.collect()
    assert kept() is not None
    del r
    gc.collect()
    assert kept() is None


def test_bad_scan_arguments_are_refused():
    k = kgen.Kernel({"kernel": "scan", "dtype": "f32"})
    with pytest.raises(TypeError, match="4 arguments"):
        fast.scan("sum", False, None)
    with pytest.raises(ValueError, match="kgen_scan_rows's address is 0"):
        fast.set_scan(0, {}, 1)
    with pytest.raises(TypeError, match="set_scan takes 3 arguments"):
        fast.set_scan(1, {})
    x = T((64, 3))
    losses, _ = make_rows_ready("cross_entropy", 64, 3)
    try:
        for wrong in ("not a RowsReady", losses):  # a cross_entropy's RowsReady is no scan's
            scan_ready[scan_key("sum", False, -1, x)] = wrong
            with pytest.raises(TypeError, match="not a scan's RowsReady"):
                fast.scan("sum", False, -1, x)
    finally:
        scan_ready.clear()


class StubTorch:
    """What kgen/_scan.py's _fast_scan_ready asks of torch: empty() of a result template."""

    @staticmethod
    def empty(shape, dtype=None, device=None):
        return T(shape, dtype, device)


def test_the_package_makes_a_scan_ready_for_the_c_path(monkeypatch):
    # kgen/_scan.py's side of the contract (set_scan's arguments, RowsReady's
    # fields, the key): what _fast_scan_ready registers, kgen._fast.scan finds
    # and launches as the Python path would, a vector as one row.
    monkeypatch.setitem(sys.modules, "torch", StubTorch)
    monkeypatch.setattr(_arrays, "torch_dtype", lambda dtype: dtype)
    monkeypatch.setattr(_reduce, "fast_entry", lambda: None)  # this file's set_entry (T the tensor type) stands
    monkeypatch.setattr(_scan, "_fast_set", False)
    monkeypatch.setattr(_scan, "_ready_fast", {})
    monkeypatch.setattr(_arrays, "_templates", {})
    k = kgen.Kernel({"kernel": "scan", "op": "max", "dtype": "f32"})
    kx = kgen.Kernel({"kernel": "scan", "op": "max", "dtype": "f32", "mode": "exclusive"})
    v, m = T((1000,), device=2), T((6, 1000), device=2, room=6 * 1024)
    try:
        _scan._fast_scan_ready("max", False, None, v, k, None)
        _scan._fast_scan_ready("max", True, -1, m, kx, (6, 1000, 1024))
        assert len(_scan._ready_fast) == 2 and list(_arrays._templates) == [("f32", 2)]  # one template for both
        mk = mark()
        record_params(5)
        y = fast.scan("max", False, None, v)
        z = fast.scan("max", True, -1, m)
        record_params(0)
        a, b = launches_since(mk)
        assert y.shape == (1000,) and y.dtype == "f32" and z.shape == (6, 1000)
        assert (a.args[0], a.args[1]) == (v.data_ptr(), y.data_ptr()) and list(a.args[2:5]) == [1000, 1000, 1000]
        assert (a.grid[0], a.grid[1]) == (1, 1) and a.stream == STREAM + 2
        assert list(b.args[2:5]) == [1000, 1024, 1000] and (b.grid[0], b.grid[1]) == (1, 6)
        assert fast.scan("max", False, -1, v) is NotImplemented  # dim -1 of the vector was not made ready
        kc = kgen.Kernel({"kernel": "scan", "op": "max", "dtype": "f32", "axis": "cols"})
        c = T((700, 20), device=2)
        _scan._fast_scan_ready("max", False, 0, c, kc, ("cols", 700, 20, 20, [(0, 0)]))  # down one matrix's columns
        mk = mark()
        record_params(6)
        w = fast.scan("max", False, 0, c)
        record_params(0)
        (d,) = launches_since(mk)
        assert d.name.decode() == "scan_cols_max_f32" and w.shape == (700, 20)
        assert list(d.args[2:6]) == [700, 20, 20, 20] and d.stream == STREAM + 2
    finally:
        fast.set_scan(ctypes.cast(_lib.kgen_scan_rows, ctypes.c_void_p).value, scan_ready,  # this file's dict again
                      ctypes.cast(_lib.kgen_scan_cols, ctypes.c_void_p).value)


def test_a_scan_with_its_types_given_is_asked_of_the_c_path_by_its_key(monkeypatch):
    # kgen.cumsum(x, acc_dtype="i64") (torch.cumsum's int64 of int32): kgen/_scan.py asks kgen._fast.scan
    # by _fast_op()'s key, the op and the types in one str; any other override takes the path in Python.
    assert _scan._fast_op("sum", {}) == "sum"
    assert _scan._fast_op("sum", {"acc_dtype": "i64"}) == "sum acc_dtype=i64"
    assert _scan._fast_op("max", {"out_dtype": "f64", "acc_dtype": "f64"}) == "max acc_dtype=f64 out_dtype=f64"
    assert _scan._fast_op("sum", {"threads": 256}) is None
    assert _scan._fast_op("sum", {"acc_dtype": "i64", "threads": 256}) is None
    assert _scan._fast_op("sum", {"acc_dtype": 64}) is None  # not a type's name: the Python path says so
    asked = []

    def ready_in_c(op, exclusive, dim, x):
        asked.append((op, exclusive, dim))
        return "from C"
    monkeypatch.setattr(_arrays, "Tensor", T)
    monkeypatch.setattr(_scan, "_fast_scan", ready_in_c)
    x = T((1000,), "i32")
    assert kgen.cumsum(x, acc_dtype="i64") == "from C"
    assert kgen.scan(x, "max", dim=0, exclusive=True, out_dtype="i64") == "from C"
    assert asked == [("sum acc_dtype=i64", False, None), ("max out_dtype=i64", True, 0)]


def test_a_scan_made_ready_with_its_types_launches_its_own_kernel(monkeypatch):
    # What _scan registers for kgen.cumsum(x, acc_dtype="i64"): found by its key only, its result int64.
    monkeypatch.setitem(sys.modules, "torch", StubTorch)
    monkeypatch.setattr(_arrays, "torch_dtype", lambda dtype: dtype)
    monkeypatch.setattr(_reduce, "fast_entry", lambda: None)
    monkeypatch.setattr(_scan, "_fast_set", False)
    monkeypatch.setattr(_scan, "_ready_fast", {})
    monkeypatch.setattr(_arrays, "_templates", {})
    k = kgen.Kernel({"kernel": "scan", "op": "sum", "dtype": "i32", "acc_dtype": "i64"})
    v = T((5000,), "i32")
    try:
        _scan._fast_scan_ready(_scan._fast_op("sum", {"acc_dtype": "i64"}), False, None, v, k, None)
        assert fast.scan("sum", False, None, v) is NotImplemented  # the call without the types is another's
        mk = mark()
        record_params(5)
        y = fast.scan("sum acc_dtype=i64", False, None, v)
        record_params(0)
        (a,) = launches_since(mk)
        assert y.shape == (5000,) and y.dtype == "i64"
        assert (a.args[0], a.args[1]) == (v.data_ptr(), y.data_ptr()) and list(a.args[2:5]) == [5000, 5000, 5000]
    finally:
        fast.set_scan(ctypes.cast(_lib.kgen_scan_rows, ctypes.c_void_p).value, scan_ready,
                      ctypes.cast(_lib.kgen_scan_cols, ctypes.c_void_p).value)
