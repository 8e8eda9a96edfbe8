"""The toy family `kernel: scale` (tests/toy/) through the Python package,
against the fake driver: a family the package has never heard of is
checked and generated like any other, and reaches kgen.Kernel(spec)(x)
through the row its module (tests/toy/kgen_scale.py) adds to
kgen._kernel.RUNNERS.  It needs the fake driver and a libkgen built with
the toy (tests/toy/libkgen-toy.so): tests/python_test.sh runs it so, and
elsewhere it skips."""
import os
import sys

import pytest

import kgen
from kgen import _kernel, _lib
from fakecuda import Device, launches_since, mark, need_fake, record_params

need_fake()
if not hasattr(_lib.lib, "kgen_scale"):
    pytest.skip("libkgen without the toy family (tests/python_test.sh runs this with tests/toy/libkgen-toy.so)",
                allow_module_level=True)
sys.path.insert(0, os.path.join(os.environ.get("KGEN_TOP_SRCDIR", os.path.join(os.path.dirname(__file__), "..", "..")),
                                "tests", "toy"))
import kgen_scale  # noqa: E402 (the toy's module: its runner row and its C call)


def test_the_spec_layer_knows_the_family():
    s = kgen.Spec({"kernel": "scale", "dtype": "i64", "stages": 4, "factor": -7})
    assert s.fields["stages"] == "4" and s.fields["factor"] == "-7" and s.fields["name"] == "scale_i64"
    assert "//   scale_i64(in, out, n)  <<<grid, 256>>>" in kgen.generate(s)
    with pytest.raises(kgen.SpecError) as e:
        kgen.check("kernel: scale\nstages: 9\n")
    assert e.value.message == "stages: 9 is out of range: expected an integer from 1 to 8"
    assert (e.value.line, e.value.column) == (2, 9)


def launch_of(call):
    m = mark()
    record_params(3)
    try:
        r = call()
    finally:
        record_params(0)
    (launch,) = launches_since(m)
    return r, launch


def test_a_kernel_reaches_the_familys_runner():
    k = kgen.Kernel("kernel: scale\nthreads: 128\nstages: 4\n")
    x = Device((1025,))
    y, launch = launch_of(lambda: k(x))
    assert isinstance(y, kgen.DeviceArray) and y.dtype == "f32" and y.shape == (1025,)
    assert launch.name.decode() == "scale_f32"
    assert (launch.grid[0], launch.block[0]) == (3, 128)  # ceil(1025 / (128 x 4))
    assert list(launch.args[:3]) == [x.ptr, y.ptr, 1025]


def test_out_and_every_element_of_a_matrix():
    x, out = Device((30, 40), "<i4"), Device((30, 40), "<i4")
    r, launch = launch_of(lambda: kgen_scale.scale(x, factor=-2, out=out))
    assert r is out
    assert launch.name.decode() == "scale_i32"
    assert list(launch.args[:3]) == [x.ptr, out.ptr, 1200]


def test_the_runner_checks_its_arrays():
    k = kgen.Kernel({"kernel": "scale", "dtype": "f64"})
    with pytest.raises(TypeError, match="the kernel scales f64, the input is f32"):
        k(Device((10,)))
    with pytest.raises(ValueError, match="contiguous"):
        k(Device((4, 5), "<f8", strides=(10, 1)))


def test_a_family_without_a_runner_says_so(monkeypatch):
    k = kgen.Kernel("kernel: scale\n")
    monkeypatch.delitem(_kernel.RUNNERS, "scale")
    with pytest.raises(TypeError, match="kernel: scale has no Python runner"):
        k(Device((10,)))
