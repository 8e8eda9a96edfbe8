"""kgen.reduce over a list of arrays on several GPUs, against the fake
driver (FAKE_CUDA_DEVICES GPUs) and the fake NCCL (tests/fake_nccl),
which tests/python_test.sh puts first on the library path for this file:
each GPU's part reaches its kernel, NCCL combines the partials, every GPU
(or root alone) gets a result on its own GPU, and what cannot work is
refused before anything is launched.  Kernels do not run, so the values
are not checked here (python/tests/test_gpu_multi.py does that on GPUs)."""
import ctypes
import types

import pytest

import kgen
from fakecuda import Device, drv, launches_since, mark, need_fake

need_fake()

try:
    nccl = ctypes.CDLL("libnccl.so.2")
    if not hasattr(nccl, "fake_nccl_ncalls"):
        raise OSError("not the fake NCCL")
    n_gpus = ctypes.c_int()
    drv.cuDeviceGetCount(ctypes.byref(n_gpus))
    if n_gpus.value < 3:
        raise OSError("fewer than 3 fake GPUs")
except OSError as e:
    pytest.skip("the fake NCCL and FAKE_CUDA_DEVICES >= 3 (tests/python_test.sh): %s" % e, allow_module_level=True)


def ncalls():
    return ctypes.c_int.in_dll(nccl, "fake_nccl_ncalls").value


class On(Device):
    """A fake device array on GPU `gpu` (its device.id, as CuPy's arrays say)."""

    def __init__(self, gpu, shape, typestr="<f4"):
        super().__init__(shape, typestr)
        self.device = types.SimpleNamespace(id=gpu)


def test_a_full_sum_over_three_gpus():
    parts = [On(0, (1000,)), On(1, (3000,)), On(2, (7,))]
    m, c = mark(), ncalls()
    r = kgen.reduce(parts)
    assert isinstance(r, list) and len(r) == 3
    for i, x in enumerate(r):
        cai = x.__cuda_array_interface__
        assert cai["shape"] == () and cai["typestr"] == "<f4"
        assert x.device == i
    assert len(launches_since(m)) >= 3  # each GPU's kernel
    assert ncalls() > c  # the partials combined by NCCL


def test_root_gets_the_result_alone():
    parts = [On(0, (100,)), On(1, (100,))]
    r = kgen.reduce(parts, "max", root=1)
    assert r[0] is None and r[1].__cuda_array_interface__["shape"] == ()


def test_argmax_gives_a_value_and_an_index_on_each_gpu():
    r = kgen.reduce([On(0, (100,)), On(1, (50,))], "argmax")
    assert len(r) == 2 and all(isinstance(x, kgen.ArgResult) for x in r)
    assert r[1].indices.__cuda_array_interface__["typestr"] == "<i8"
    assert r[1].values.device == 1


def test_columns_over_gpus():
    r = kgen.reduce([On(0, (10, 64)), On(1, (30, 64))], "sum", axis=0)
    assert [x.__cuda_array_interface__["shape"] for x in r] == [(64,), (64,)]


@pytest.mark.parametrize("parts, kw, error, text", [
    (lambda: [On(0, (10,)), On(0, (10,))], {}, ValueError, "a GPU of its own, not devices [0, 0]"),
    (lambda: [On(0, (10,)), On(1, (10,), "<f8")], {}, TypeError, "one dtype, not ['f32', 'f64']"),
    (lambda: [On(0, (10,)), On(1, (10,))], {"root": 2}, ValueError, "root is the position of a GPU's array"),
    (lambda: [On(0, (10,)), On(1, (10,))], {"out": 1}, TypeError, "takes neither out=, stream= nor plan="),
    (lambda: [On(0, (4, 10)), On(1, (4, 10))], {"axis": 1}, NotImplementedError, "columns (axis=0) only"),
    # a non-int axis is a TypeError, as for one array (it was a ValueError here)
    (lambda: [On(0, (4, 10)), On(1, (4, 10))], {"axis": 0.0}, TypeError, "axis is an int (0 over a list of arrays) or None, not float 0.0"),
    (lambda: [On(0, (4, 10)), On(1, (4, 12))], {"axis": 0}, ValueError, "the same columns: input 1 has 12"),
    (lambda: [On(0, (10,)), On(7, (10,))], {}, kgen.KgenError, ""),
    (lambda: [], {}, ValueError, "an empty list"),
    # a keyword that is no field, and dtype= (the inputs' dtype chooses the kernel): the call's TypeError
    (lambda: [On(0, (10,)), On(1, (10,))], {"thread": 256}, TypeError,
     "kgen.reduce() got an unexpected keyword argument 'thread' (neither a parameter nor a field of its kernel's "
     "spec); did you mean threads=?"),
    (lambda: [On(0, (10,)), On(1, (10,))], {"dtype": "f64"}, TypeError,
     "kgen.reduce() got an unexpected keyword argument 'dtype': the input's dtype chooses the kernel"),
])
def test_what_cannot_work_is_refused_before_a_launch(parts, kw, error, text):
    xs = parts()
    m, c = mark(), ncalls()
    with pytest.raises(error) as e:
        kgen.reduce(xs, **kw)
    assert text in str(e.value)
    assert not launches_since(m) and ncalls() == c


def test_root_needs_a_list():
    with pytest.raises(TypeError, match="root= is for a list of arrays"):
        kgen.reduce(On(0, (10,)), root=0)
