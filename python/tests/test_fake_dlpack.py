"""DLPack both ways against the fake driver: a producer's tensor read from
its capsule (address and byte offset, strides, dtype, device, the stream
kgen asks it to be ready on), kept until the kernels are done, then
released; kgen's own arrays handed out as capsules (the consumer's stream
made to wait) and freed once nobody holds them; a JAX input's result
returned through jax.dlpack.from_dlpack."""
import ctypes
import gc
import sys
import types
import weakref

import pytest

import kgen
from kgen import _dlpack, _memory
from fakecuda import Device, counter, launches_since, mark, need_fake, record_params

need_fake()


class Owner:
    """What a producer keeps alive while its tensor is out."""


class Producer:
    """A DLPack producer over the fake's device memory: records how kgen asked."""

    def __init__(self, shape, dtype="f32", strides=None, byte_offset=0, device=(2, 0), versioned=True):
        self.mem = Device((1 << 14,))  # room for any shape here, with its strides and offset
        self.shape, self.dtype, self.strides, self.offset = shape, dtype, strides, byte_offset
        self.device, self.versioned, self.asked = device, versioned, []
        self.owner = Owner()
        self.gone = weakref.ref(self.owner)

    def __dlpack_device__(self):
        return self.device

    def __dlpack__(self, *, stream=None, max_version=None):
        if not self.versioned and max_version is not None:
            raise TypeError("__dlpack__() got an unexpected keyword argument 'max_version'")
        self.asked.append(stream)
        cap = _dlpack.capsule(self.owner, self.mem.ptr, self.dtype, self.shape, self.device[1],
                              max_version is not None)
        t, _ = _dlpack.tensor_of(cap, "test")
        t.device.device_type = self.device[0]
        t.byte_offset = self.offset
        if self.strides is not None:
            self._strides = (ctypes.c_int64 * len(self.strides))(*self.strides)
            t.strides = ctypes.cast(self._strides, ctypes.POINTER(ctypes.c_int64))
        self.owner = None  # now held by the capsule alone
        return cap


def test_a_producers_tensor_is_read_and_kept_until_done():
    p = Producer((1000,), byte_offset=64)
    m = mark()
    record_params(1)
    r = kgen.reduce(p, "sum", plan=False)
    record_params(0)
    assert p.asked == [1]  # ready on the legacy default stream, the one kgen then runs on
    assert launches_since(m)[-1].args[0] == p.mem.ptr + 64
    assert isinstance(r, kgen.DeviceArray) and r.dtype == "f32"
    assert p.gone() is not None  # held until the kernels that read it are done
    _memory.poll()  # the fake's events are done at once
    gc.collect()
    assert p.gone() is None  # released: the producer's deleter ran


def test_a_list_of_producers_tensors_is_kept_until_done(monkeypatch):
    """kgen.reduce over a list, one array a GPU: each capsule held until its GPU's kernels are done."""
    ps = [Producer((1000,), device=(2, g)) for g in range(2)]
    held, hold = [], _memory.hold
    monkeypatch.setattr(_memory, "hold", lambda device, stream, objects: (held.append((device, objects)),
                                                                          hold(device, stream, objects)))
    r = kgen.reduce(ps)
    assert [x.device for x in r] == [0, 1]
    assert [d for d, _ in held] == [0, 1] and all(_dlpack.is_capsule(c) for _, c in held)
    del held[:]
    _memory.poll()  # the fake's events are done at once
    gc.collect()
    assert all(p.gone() is None for p in ps)


def test_kgens_own_arrays_keep_their_gpu():
    """A kgen.DeviceArray says its GPU by an int (and by DLPack): its call runs there, its result is there."""
    on = kgen.DeviceArray
    assert kgen.reduce(on((1000,), "f32", 1, 0)).device == 1
    assert kgen.reduce(on((4, 100), "f32", 3, 0), axis=1).device == 3
    assert kgen.softmax(on((8, 100), "f32", 2, 0)).device == 2
    assert [x.device for x in kgen.reduce([on((10,), "f32", g, 0) for g in (2, 0)])] == [2, 0]
    with pytest.raises(ValueError, match="on GPU 2 where the input is on GPU 0"):
        kgen.reduce(on((10,), "f32", 0, 0), out=on((), "f32", 2, 0))


def test_the_stream_given_is_the_one_the_producer_is_asked_for():
    p = Producer((1000,), versioned=False)  # an older producer: no max_version
    kgen.reduce(p, "max", stream=0x77)
    assert p.asked == [0x77]


def test_strides_dtypes_and_devices():
    padded = Producer((10, 100), strides=(128, 1))
    m = mark()
    record_params(5)
    r = kgen.reduce(padded, "sum", axis=1)
    record_params(0)
    assert r.shape == (10,)
    assert list(launches_since(m)[-1].args[2:5]) == [10, 100, 128]  # rows, cols, pitch
    with pytest.raises(ValueError, match="contiguous"):
        kgen.reduce(Producer((10, 100), strides=(128, 1)), "sum")
    assert kgen.reduce(Producer((512,), "bf16"), "mean").dtype == "f32"
    with pytest.raises(ValueError, match="not a CUDA device"):
        kgen.reduce(Producer((8,), device=(1, 0)), "sum")


def test_a_capsule_itself_is_an_input():
    cap = Producer((300,), "i32").__dlpack__(stream=1)
    assert kgen.reduce(cap, "count_nonzero").dtype == "i64"
    with pytest.raises(ValueError, match="holds no unused DLPack tensor"):
        kgen.reduce(_named_capsule(), "sum")


def _named_capsule():
    new = ctypes.pythonapi.PyCapsule_New
    new.restype, new.argtypes = ctypes.py_object, [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
    return new(16, b"used_dltensor", None)


def test_kgens_arrays_go_out_through_dlpack():
    a = kgen.DeviceArray((4, 5), "f32", 0, 0)
    waits = counter("fake_cuda_waits").value
    cap = a.__dlpack__(stream=5)
    assert counter("fake_cuda_waits").value == waits + 1
    assert ctypes.c_void_p.in_dll(_fake(), "fake_cuda_waited").value == 5  # the consumer's stream waits for kgen's
    a.__dlpack__(stream=None)  # the legacy default stream: kgen's own, nothing to wait for
    a.__dlpack__(stream=-1)    # no ordering asked
    assert counter("fake_cuda_waits").value == waits + 1
    t, flags = _dlpack.tensor_of(cap, "x")
    assert (t.data, t.ndim, t.device.device_type, flags) == (a.ptr, 2, 2, 0)
    assert _dlpack.tensor_of(a.__dlpack__(max_version=(1, 0)), "x")[1] == 0
    assert a.__dlpack_device__() == (2, 0)
    cai = a.__cuda_array_interface__
    assert (cai["shape"], cai["typestr"], cai["data"], cai["stream"]) == ((4, 5), "<f4", (a.ptr, False), 1)
    with pytest.raises(BufferError, match="stream 0 is ambiguous"):
        a.__dlpack__(stream=0)
    with pytest.raises(BufferError, match="without a copy"):
        a.__dlpack__(copy=True)


def _fake():
    return ctypes.CDLL("libcuda.so.1")


def test_memory_is_freed_when_the_array_and_its_capsules_are_gone():
    gc.collect()
    live = counter("fake_cuda_async_allocs").value
    a = kgen.DeviceArray((1000,), "f32", 0, 0x42)
    cap = a.__dlpack__(stream=0x42)
    assert counter("fake_cuda_async_allocs").value == live + 1
    del a
    gc.collect()
    assert counter("fake_cuda_async_allocs").value == live + 1  # the capsule holds it
    view = kgen.reduce(cap, "sum")  # consumed by kgen itself, then let go
    del cap, view
    _memory.poll()
    gc.collect()
    assert counter("fake_cuda_async_allocs").value == live
    assert ctypes.c_void_p.in_dll(_fake(), "fake_cuda_free_stream").value == 0x42  # freed in order on its stream


@pytest.fixture
def fake_jax(monkeypatch):
    """A stand-in for JAX: its arrays are DLPack producers of module jax, and
    jax.dlpack.from_dlpack asks a producer for a capsule on its own stream."""
    jax = types.ModuleType("jax")
    dl = types.ModuleType("jax.dlpack")
    got = []

    def from_dlpack(x):
        got.append(x)
        return ("a JAX array of", _dlpack.tensor_of(x.__dlpack__(stream=0x5a), "r")[0].data)
    dl.from_dlpack = from_dlpack
    jax.dlpack = dl
    monkeypatch.setitem(sys.modules, "jax", jax)
    monkeypatch.setitem(sys.modules, "jax.dlpack", dl)
    monkeypatch.setattr("kgen._arrays._jax_dlpack", None)

    class Array(Producer):
        pass
    Array.__module__ = "jax._src.array"
    return Array, got


def test_a_jax_input_gets_a_jax_result(fake_jax):
    Array, got = fake_jax
    x = Array((1000,))
    waits = counter("fake_cuda_waits").value
    r = kgen.reduce(x, "argmax")
    assert isinstance(r, kgen.ArgResult)
    assert r.values[0] == "a JAX array of" and r.indices[0] == "a JAX array of"
    assert [g.dtype for g in got] == ["f32", "i64"]
    assert counter("fake_cuda_waits").value == waits + 2  # JAX's stream waits for each
    with pytest.raises(ValueError, match="out is read-only \\(jax arrays cannot be written\\)"):
        kgen.reduce(x, "sum", out=Array(()))
    t = kgen.transpose(Array((64, 32)))
    assert t[0] == "a JAX array of"
