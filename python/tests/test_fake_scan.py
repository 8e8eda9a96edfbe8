"""kgen.scan and kgen.cumsum (kernel: scan) against the fake driver: a call
reaches kgen_scan() with the arrays' addresses and the element count, on a
kernel whose spec has the call's op, dtype and mode; kernels are built once
per device, op, dtype, mode and overrides; out= is written; and what a scan
cannot take is refused before C is asked, with an error that says why."""
import pytest

import kgen
from kgen import _kernel
from fakecuda import Device, launches_since, mark, need_fake, record_params

need_fake()


def only(m):
    calls = launches_since(m)
    assert len(calls) == 1, calls
    return calls[0]


def test_cumsum_reaches_kgen_scan_with_the_arrays_and_n():
    x = Device((5000,))
    m = mark()
    record_params(5)  # in, out, n, status, epoch
    y = kgen.cumsum(x)
    record_params(0)
    launch = only(m)
    assert launch.name.decode() == "scan_sum_f32"
    assert (launch.grid[0], launch.block[0]) == (3, 256)  # tiles of 256 x 8
    assert launch.args[0] == x.ptr and launch.args[1] == y.ptr and launch.args[2] == 5000
    assert isinstance(y, kgen.DeviceArray) and (y.shape, y.dtype) == ((5000,), "f32")


def test_the_op_mode_and_types_reach_the_spec():
    x = Device((100,), "<i4")
    m = mark()
    y = kgen.scan(x, "max", exclusive=True)
    assert only(m).name.decode() == "scan_max_i32" and y.dtype == "i32"
    k = [k for key, k in _kernel._kernels.items() if key[0] == "scan" and key[3] == "max"][-1]
    assert k.spec.fields["mode"] == "exclusive"
    wide = kgen.scan(x, acc_dtype="i64")
    assert wide.dtype == "i64"
    assert kgen.scan(Device((10,)), "custom", combine="fmaxf(a, b)", identity="0").dtype == "f32"
    m = mark()
    kgen.scan(Device((10,)), strategy="block")
    assert only(m).grid[0] == 1


def test_kernels_are_built_once():
    x = Device((64,))
    kgen.cumsum(x)
    n = len(_kernel._kernels)
    kgen.cumsum(Device((1000,)))
    kgen.scan(x, "sum", dim=0)
    assert len(_kernel._kernels) == n


def test_out_is_written_in_place_too():
    x, out = Device((300,)), Device((300,))
    m = mark()
    record_params(2)
    assert kgen.cumsum(x, out=out) is out
    assert only(m).args[1] == out.ptr
    m = mark()
    kgen.cumsum(x, out=x)
    assert only(m).args[1] == x.ptr
    record_params(0)
    with pytest.raises(ValueError, match="out must be a contiguous f32 array of shape \\(300,\\)"):
        kgen.cumsum(x, out=Device((299,)))
    with pytest.raises(ValueError, match="out must be a contiguous i64 array"):
        kgen.scan(Device((300,), "<i4"), acc_dtype="i64", out=Device((300,), "<i4"))


def test_what_a_scan_cannot_take_is_refused():
    with pytest.raises(ValueError, match="op is one of sum, min, max, prod, .* not 'mean'"):
        kgen.scan(Device((10,)), "mean")
    with pytest.raises(TypeError, match="exclusive is True or False"):
        kgen.scan(Device((10,)), exclusive=1)
    with pytest.raises(NotImplementedError, match="rows or columns of a matrix are not there yet"):
        kgen.cumsum(Device((10, 10)), dim=1)
    with pytest.raises(ValueError, match="a scan reads a contiguous vector"):
        kgen.cumsum(Device((10,), strides=(8,)))
    with pytest.raises(kgen.SpecError, match="post is the last step of a whole reduction"):
        kgen.scan(Device((10,)), "custom", combine="a + b", identity="0", post="a * 2")


def test_a_kernel_runs_a_scan():
    k = kgen.Kernel({"kernel": "scan", "op": "min"})
    x = Device((2049,))
    m = mark()
    record_params(3)
    y = k(x)
    record_params(0)
    launch = only(m)
    assert launch.name.decode() == "scan_min_f32" and launch.args[2] == 2049 and y.shape == (2049,)
    assert kgen.cumsum(Device((0,))).shape == (0,)
