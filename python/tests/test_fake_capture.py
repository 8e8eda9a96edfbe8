"""CUDA graph capture against the fake driver (whose capture refuses what the
real one refuses: allocation, synchronisation, the default stream): a call
warmed up before the capture is captured with nothing allocated, built or
synchronised; a call that would build a kernel, grow its scratch or
allocate a result of kgen's own raises CaptureError, saying to warm up
(or pass out=), and leaves the capture as it was."""
import ctypes

import pytest

import kgen
from fakecuda import Device, Stream, counter, launches_since, mark, need_fake

need_fake()


def capturing():
    return ctypes.c_void_p.in_dll(ctypes.CDLL("libcuda.so.1"), "fake_cuda_capturing").value


@pytest.fixture
def stream():
    s = Stream()
    yield s
    if capturing() == s.handle:
        s.end_capture()


def test_a_warmed_up_call_is_captured_with_nothing_allocated(stream):
    x = Device((1000,))
    v, i = Device(()), Device((), "<i8")
    kgen.reduce(x, "argmax", out=(v, i), stream=stream.handle)  # warm-up: kernel built, scratch allocated
    cols = Device((64,))
    kgen.reduce(Device((100, 64)), "mean", axis=0, out=cols, stream=stream.handle)
    allocs, async_allocs = counter("fake_cuda_allocs").value, counter("fake_cuda_async_allocs").value
    stream.begin_capture()
    m = mark()
    assert kgen.reduce(x, "argmax", out=(v, i), stream=stream.handle) == (v, i)
    kgen.reduce(Device((100, 64)), "mean", axis=0, out=cols, stream=stream.handle)
    assert capturing() == stream.handle  # the capture is still valid
    stream.end_capture()
    assert [l.stream for l in launches_since(m)] == [stream.handle] * len(launches_since(m)) != []
    assert (counter("fake_cuda_allocs").value, counter("fake_cuda_async_allocs").value) == (allocs, async_allocs)


def test_a_call_that_would_build_a_kernel_is_refused(stream):
    x = Device((1000,))
    stream.begin_capture()
    m = mark()
    with pytest.raises(kgen.CaptureError, match=r"kgen.reduce: this call would build its kernel \(NVRTC\) while "
                                                r"stream 0x[0-9a-f]+ is being captured into a CUDA graph; call it "
                                                "once with the same arguments before the capture"):
        kgen.reduce(x, "norm2", threads=256, stream=stream.handle)
    assert launches_since(m) == [] and capturing() == stream.handle
    with pytest.raises(kgen.CaptureError, match="kgen.transpose: this call would build its kernel"):
        kgen.transpose(Device((64, 64), "<f8"), out=Device((64, 64), "<f8"), stream=stream.handle)


def test_a_call_that_would_grow_its_scratch_is_refused(stream):
    spec = {"kernel": "reduce", "threads": 128, "items_per_thread": 4, "stages": "two_pass"}
    out = Device(())
    kgen.reduce(Device((1000,)), spec=spec, out=out, stream=stream.handle)
    stream.begin_capture()
    with pytest.raises(kgen.CaptureError, match=r"would allocate \d+ bytes of scratch while stream"):
        kgen.reduce(Device((10 ** 6,)), spec=spec, out=out, stream=stream.handle)
    assert capturing() == stream.handle


def test_a_result_kgen_would_allocate_is_refused(stream):
    x = Device((1000,))
    kgen.reduce(x, "sum", stream=stream.handle)
    stream.begin_capture()
    with pytest.raises(kgen.CaptureError, match="would allocate its result .* pass out="):
        kgen.reduce(x, "sum", stream=stream.handle)
    assert capturing() == stream.handle


def test_a_dlpack_input_in_a_capture_is_left_to_its_owner(stream):
    from kgen import _memory
    from test_fake_dlpack import Producer
    out = Device(())
    kgen.reduce(Producer((1000,)), "sum", out=out, stream=stream.handle)
    _memory.poll()
    held = len(_memory._held)
    stream.begin_capture()
    kgen.reduce(Producer((1000,)), "sum", out=out, stream=stream.handle)
    assert len(_memory._held) == held  # no event recorded in the capture, none to ask about later
    assert capturing() == stream.handle
