"""kgen.scan and kgen.cumsum (kernel: scan) against the fake driver: a call
reaches kgen_scan() with the arrays' addresses and the element count (and
kgen_scan_rows() with the rows and their pitch along dim=-1, and
kgen_scan_cols() down the columns (dim=-2: the column kernel, or two transposes where asked), a launch a
kernel whose spec has the call's op, dtype and mode; kernels are built once
per device, op, dtype, mode and overrides; out= is written; and what a scan
cannot take is refused before C is asked, with an error that says why."""
import pytest

import kgen
from kgen import _kernel
from fakecuda import Device, launches_since, mark, need_fake, record_params

need_fake()


@pytest.fixture(autouse=True)
def no_shipped_plans(tmp_path, monkeypatch):
    """The default spec's kernels and grids: the fake is an H200, whose
    shipped scan plans (specs/plans/nvidia-h200/scan_sum-*.yaml) would pick
    other tiles; test_fake_plans.py tests what the plans take."""
    from kgen import _plans
    monkeypatch.setattr(_plans, "directory", lambda: str(tmp_path))
    monkeypatch.setattr(_plans, "_shipped", {})


def only(m):
    calls = launches_since(m)
    assert len(calls) == 1, calls
    return calls[0]


def test_cumsum_reaches_kgen_scan_with_the_arrays_and_n():
    x = Device((20000,))
    m = mark()
    record_params(7)  # in, out, n, in_pitch, out_pitch, scratch, row_scratch
    y = kgen.cumsum(x)
    record_params(0)
    launch = only(m)
    assert launch.name.decode() == "scan_sum_f32"
    assert (launch.grid[0], launch.block[0]) == (3, 256)  # tiles of 256 x 32
    assert launch.args[0] == x.ptr and launch.args[1] == y.ptr and launch.args[2] == 20000
    assert launch.args[3] == launch.args[4] == 20000  # one row
    assert isinstance(y, kgen.DeviceArray) and (y.shape, y.dtype) == ((20000,), "f32")


def test_a_scan_along_the_last_dimension_reaches_kgen_scan_rows():
    x = Device((3, 20000), strides=(20008, 1))  # rows 20008 elements apart
    m = mark()
    record_params(7)
    y = kgen.cumsum(x, dim=-1)
    record_params(0)
    launch = only(m)
    assert (launch.grid[0], launch.grid[1]) == (3, 3)  # 3 tiles a row, 3 rows
    assert launch.args[0] == x.ptr and launch.args[1] == y.ptr and launch.args[2] == 20000
    assert (launch.args[3], launch.args[4]) == (20008, 20000)  # x's pitch, the new result's
    assert y.shape == (3, 20000)
    m = mark()
    kgen.scan(Device((2, 3, 100)), "max", dim=2)  # leading dimensions collapse into rows
    assert only(m).grid[1] == 6


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


def test_the_specs_op_and_mode_hold_unless_the_call_gives_its_own():
    # op= and exclusive= default to the spec's (sum and inclusive without one): a spec of op max and mode exclusive
    # once ran as an inclusive sum, the defaults overriding it. kgen.cumsum takes spec= (it passed it twice before).
    x = Device((100,))
    spec = {"kernel": "scan", "op": "max", "mode": "exclusive"}
    m = mark()
    kgen.scan(x, spec=spec)
    assert only(m).name.decode() == "scan_max_f32"
    k = [k for key, k in _kernel._kernels.items() if key[0] == "scan" and key[4] == "max"][-1]
    assert k.spec.fields["mode"] == "exclusive"
    m = mark()
    kgen.scan(x, "min", exclusive=False, spec=spec)
    assert only(m).name.decode() == "scan_min_f32"
    k = [k for key, k in _kernel._kernels.items() if key[0] == "scan" and key[4] == "min"][-1]
    assert k.spec.fields["mode"] == "inclusive"
    m = mark()
    kgen.cumsum(x, spec=spec)
    assert only(m).name.decode() == "scan_sum_f32"
    k = [k for key, k in _kernel._kernels.items() if key[0] == "scan" and key[4] == "sum" and key[5] is False][-1]
    assert k.spec.fields["mode"] == "inclusive"
    with pytest.raises(TypeError, match="kgen.cumsum.. got an unexpected keyword argument 'exclusive'"):
        kgen.cumsum(x, exclusive=True)
    with pytest.raises(TypeError, match="op is a name"):
        kgen.scan(x, 1)


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


def test_a_scan_down_the_columns_takes_the_column_kernel_or_two_transposes():
    x = Device((300, 20))
    m = mark()
    y = kgen.cumsum(x, dim=0)  # by default: the column kernel, one launch
    assert [c.name.decode() for c in launches_since(m)] == ["scan_cols_sum_f32"]
    assert y.shape == (300, 20)
    for how in ({"axis": "rows"}, {"spec": "kernel: scan\naxis: rows\n"}, {"spec": {"kernel": "scan"}}):
        m = mark()
        y = kgen.cumsum(x, dim=0, **how)  # asked for rows: between two transposes
        calls = launches_since(m)
        names = [c.name.decode() for c in calls]
        assert len(names) == 3 and names[0].startswith("transpose") and names[2].startswith("transpose"), (how, names)
        assert names[1] == "scan_sum_f32" and calls[1].grid[1] == 20  # 20 rows (the columns) of 300
        assert y.shape == (300, 20)
    with pytest.raises(ValueError, match="^kgen.cumsum: x's rows must be contiguous"):
        kgen.cumsum(Device((300, 20), strides=(1, 300)), dim=0)  # a transposed view
    m = mark()
    kgen.cumsum(Device((300, 1), strides=(7, 3)), dim=0)  # a strided column (a slice x[:, :1]): the column kernel
    assert [c.name.decode() for c in launches_since(m)] == ["scan_cols_sum_f32"]


@pytest.mark.parametrize("x, kw, text", [
    (Device((8, 100)), dict(out=Device((8, 100), "<f8")), "^kgen.scan: out must be a f32 array of shape .*, not f64"),
    (Device((8, 100)), dict(out=Device((8, 101))), "^kgen.scan: out must be a f32 array .*, not f32 \\(8, 101\\)"),
    (Device((8, 100)), dict(out=Device((8, 100), strides=(1, 8))), "with contiguous rows .*, rows not contiguous$"),
    (Device((8, 100), "<i4"), dict(acc_dtype="i64", out=Device((8, 100), "<i4")), "a i64 array .*, not i32"),
    (Device((2, 2, 8, 100)), {}, "^kgen.scan: a scan down the columns through axis rows .* not 4"),
])
def test_two_transposes_check_out_and_x_before_anything_runs(x, kw, text):
    m = mark()
    with pytest.raises(ValueError, match=text):
        kgen.scan(x, dim=-2, axis="rows", **kw)
    assert launches_since(m) == []
    for out in (Device((8, 100)), Device((8, 100), strides=(128, 1))):  # a sound out= (padded rows too): 3 launches
        m = mark()
        kgen.scan(Device((8, 100)), dim=-2, axis="rows", out=out)
        assert [c.name.decode() for c in launches_since(m)] == ["transpose_f32", "scan_sum_f32", "transpose_f32"]


def test_a_strided_vector_is_refused_with_what_the_call_takes():
    x = Device((8, 100), strides=(128, 1))
    with pytest.raises(ValueError, match="^kgen.scan: .*; pass x.contiguous\\(\\), or dim=-1 for its rows$"):
        kgen.scan(x)
    with pytest.raises(ValueError, match="^kgen.Kernel: .*; pass x.contiguous\\(\\)$"):  # a Kernel takes no dim=
        kgen.Kernel({"kernel": "scan", "dtype": "f32"})(x)


def test_a_scan_down_one_contiguous_column_is_a_row_scan():
    for shape, strides, rows in (((300, 1), None, 1), ((300, 1), (1, 5), 1), ((4, 300, 1), None, 4),
                                 ((4, 300, 1), (600, 1, 1), 4)):
        x = Device(shape, strides=strides)
        m = mark()
        y = kgen.cumsum(x, dim=-2)
        calls = launches_since(m)
        assert [c.name.decode() for c in calls] == ["scan_sum_f32"], (shape, strides)
        assert calls[0].grid[1] == rows and y.shape == shape, (shape, strides, calls[0].grid)
    m = mark()
    kgen.scan(Device((300, 1), "<i4"), dim=-2, acc_dtype="i64", items_per_thread=8)  # overrides both kernels take
    assert [c.name.decode() for c in launches_since(m)] == ["scan_sum_i32"]
    m = mark()
    kgen.cumsum(Device((300, 1)), dim=-2, lanes=8)  # a key of the column kernel's: it runs
    assert [c.name.decode() for c in launches_since(m)] == ["scan_cols_sum_f32"]
    m = mark()
    kgen.cumsum(Device((300, 1)), dim=-2, axis="cols")  # asked for the column kernel: it runs
    assert [c.name.decode() for c in launches_since(m)] == ["scan_cols_sum_f32"]
    m = mark()
    record_params(6)
    kgen.cumsum(Device((4, 300, 1), strides=(700, 1, 1)), dim=-2)  # rows 700 apart
    record_params(0)
    launch = only(m)
    assert launch.name.decode() == "scan_sum_f32" and launch.grid[1] == 4
    assert launch.args[2:5] == [300, 700, 300]  # a row's length, x's pitch, the result's
    m = mark()
    kgen.cumsum(Device((2, 2, 300, 1), strides=(2000, 700, 1, 1)), dim=-2)  # unevenly spaced: a launch a matrix
    assert [c.name.decode() for c in launches_since(m)] == ["scan_cols_sum_f32"] * 4


def test_columns_take_the_ring_by_default_on_sm90():
    # staging: ring: the fake's 132 SMs hold 2 blocks each, a band's share of them as many as its tiles (of
    # 256 rows; 128 below 2^15 rows), launched cooperatively (all resident) with 3 stages of a tile
    for x, op, grid, rows in ((Device((70000, 64)), "sum", (264, 1), 256), (Device((70000, 20)), "sum", (264, 1), 256),
                              (Device((70000, 65)), "sum", (132, 2), 256), (Device((32768, 64)), "sum", (128, 1), 256),
                              (Device((32767, 64)), "sum", (256, 1), 128), (Device((1000, 20)), "sum", (8, 1), 128),
                              (Device((300, 20)), "sum", (3, 1), 128), (Device((70000, 64)), "count_nonzero", (264, 1), 256),
                              (Device((70000, 64), "<f8"), "sum", (132, 2), 256),  # f64: bands of 32 columns
                              (Device((70000, 64), "<i4"), "sum", (264, 1), 256)):  # i32 into int64 (below)
        m = mark()
        typestr = x.__cuda_array_interface__["typestr"]
        kgen.scan(x, op, dim=0, **({"acc_dtype": "i64"} if typestr == "<i4" else {}))
        launch = only(m)
        assert launch.name.decode() == "scan_cols_%s_%s" % (op, {"<f8": "f64", "<i4": "i32"}.get(typestr, "f32")), \
            launch.name
        assert (launch.grid[0], launch.grid[1]) == grid, (x.__cuda_array_interface__["shape"], op, tuple(launch.grid))
        assert launch.cooperative == 1 and launch.smem == 3 * rows * 256
    m = mark()
    kgen.cumsum(Device((300, 1), strides=(7, 3)), dim=0)  # a strided column: the ring too, a block
    launch = only(m)
    assert (launch.grid[0], launch.grid[1], launch.cooperative) == (3, 1, 1)


def test_narrow_tall_matrices_with_overrides_take_clusters_of_tiles():
    # with overrides (threads=256: the default) the column kernel's own default, clusters of 8 tiles for 4-byte
    # elements into their own type, 64 columns or fewer, 2^16 rows or more
    for shape, grid in (((70000, 64), (184, 2)), ((70000, 20), (184, 1)), ((70000, 65), (183, 3)),
                        ((65535, 64), (171, 2)), ((1000, 20), (3, 1))):
        m = mark()
        kgen.cumsum(Device(shape), dim=0, threads=256)
        launch = only(m)
        assert launch.name.decode() == "scan_cols_sum_f32"
        assert (launch.grid[0], launch.grid[1]) == grid, (shape, launch.grid)
    m = mark()
    kgen.cumsum(Device((70000, 64)), dim=0, cluster_size=1)  # asked for none
    assert only(m).grid[0] == 183
    m = mark()
    kgen.cumsum(Device((70000, 64)), dim=0, staging="smem")  # a staging asked for: none
    assert only(m).grid[0] == 274
    m = mark()
    kgen.scan(Device((70000, 64)), "count_nonzero", dim=0, threads=256)  # into int64: none
    launch = only(m)
    assert launch.name.decode() == "scan_cols_count_nonzero_f32" and launch.grid[0] == 183
    for x, how, tiles in ((Device((70000, 64), "<i4"), {"acc_dtype": "i64", "threads": 256}, 183),
                          (Device((70000, 64), "<f2"), {"threads": 256}, 274),  # tiles of 256 rows staged
                          (Device((70000, 64), "<f8"), {"threads": 256}, 183)):  # none for other sizes
        m = mark()
        kgen.scan(x, dim=0, **how)
        launch = only(m)
        assert launch.grid[0] == tiles, (launch.name, how, launch.grid[0])


def test_axis_cols_reaches_kgen_scan_cols_a_launch_a_matrix():
    x = Device((700, 20), strides=(24, 1))  # rows 24 elements apart
    m = mark()
    record_params(8)  # in, out, rows, cols, in_pitch, out_pitch, scratch, band_scratch
    y = kgen.cumsum(x, dim=0, axis="cols")
    record_params(0)
    launch = only(m)
    assert launch.name.decode() == "scan_cols_sum_f32"
    assert (launch.grid[0], launch.grid[1], launch.block[0]) == (2, 1, 256)  # tiles of 384 rows, a band of 32 columns
    assert launch.args[0] == x.ptr and launch.args[1] == y.ptr
    assert launch.args[2:6] == [700, 20, 24, 20]
    assert y.shape == (700, 20)
    # a batch: a launch a matrix, each from where it starts in x (strided) and in the packed result
    x = Device((2, 3, 50, 70), strides=(30000, 10000, 200, 1))
    m = mark()
    record_params(8)
    y = kgen.scan(x, "max", dim=-2, exclusive=True, axis="cols")
    record_params(0)
    calls = launches_since(m)
    assert [c.name.decode() for c in calls] == ["scan_cols_max_f32"] * 6
    starts = [(b * 30000 + i * 10000, (b * 3 + i) * 50 * 70) for b in range(2) for i in range(3)]
    assert [(c.args[0] - x.ptr, c.args[1] - y.ptr) for c in calls] == [(xs * 4, ys * 4) for xs, ys in starts]
    assert all(c.args[2:6] == [50, 70, 200, 70] for c in calls)
    assert all((c.grid[0], c.grid[1]) == (1, 3) for c in calls)  # 50 rows: one tile; 70 columns: three bands
    with pytest.raises(ValueError, match="the kernel scans down columns .axis: cols., the call along rows or a vector"):
        kgen.cumsum(Device((30, 20)), dim=-1, axis="cols")
    # a spec of axis: cols as text, a dict or a kgen.Spec: the column kernel too
    for spec in ("kernel: scan\naxis: cols\nthreads: 128\n", {"kernel": "scan", "axis": "cols", "threads": 128},
                 kgen.Spec({"kernel": "scan", "axis": "cols", "threads": 128})):
        m = mark()
        kgen.scan(Device((300, 20)), dim=0, spec=spec)
        assert [(c.name.decode(), c.block[0]) for c in launches_since(m)] == [("scan_cols_sum_f32", 128)], spec


def test_what_a_scan_cannot_take_is_refused():
    with pytest.raises(ValueError, match="op is one of sum, min, max, prod, .* not 'mean'"):
        kgen.scan(Device((10,)), "mean")
    with pytest.raises(TypeError, match="exclusive is True or False"):
        kgen.scan(Device((10,)), exclusive=1)
    with pytest.raises(NotImplementedError, match="along dimension 0 of 3-D x are not there yet"):
        kgen.cumsum(Device((2, 10, 10)), dim=0)
    with pytest.raises(IndexError, match="dim 2 is out of range for 2 dimensions"):
        kgen.cumsum(Device((10, 10)), dim=2)
    with pytest.raises(ValueError, match="rows are not evenly spaced"):
        kgen.cumsum(Device((4, 3, 10), strides=(40, 12, 1)), dim=-1)
    with pytest.raises(ValueError, match="a scan of all of x .dim=None. reads a contiguous vector"):
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


def test_a_0d_array_takes_dim_0_and_minus_1():
    # torch.cumsum(x, 0) and (x, -1) of a 0-d tensor both work; kgen.scan took dim=0 and refused dim=-1.
    for dim in (0, -1):
        m = mark()
        y = kgen.scan(Device(()), dim=dim)
        assert y.shape == () and len(launches_since(m)) == 1
    with pytest.raises(IndexError, match="dim 1 is out of range for 0 dimensions"):
        kgen.scan(Device(()), dim=1)


def test_clusters_only_where_the_gpu_has_them(monkeypatch):
    from kgen import _scan
    monkeypatch.setattr(_scan, "compute_capability", lambda device: (8, 0))
    m = mark()
    kgen.cumsum(Device((70000, 64)), dim=0)
    assert only(m).grid[0] == 183  # an sm_80 has no clusters: a block a tile


def test_a_row_scans_own_overrides_down_the_columns_take_the_transposes():
    for how in ({"block_scan": "warps", "strategy": "block"}, {"strategy": "block"}):
        m = mark()
        kgen.cumsum(Device((300, 20)), dim=0, **how)
        names = [c.name.decode() for c in launches_since(m)]
        assert len(names) == 3 and names[1] == "scan_sum_f32", (how, names)
        m = mark()
        kgen.cumsum(Device((300, 1)), dim=0, **how)  # one contiguous column: a vector, the row kernel's keys fit
        assert [c.name.decode() for c in launches_since(m)] == ["scan_sum_f32"], how
    m = mark()
    kgen.cumsum(Device((300, 20)), dim=0, strategy="lookback", threads=128)  # keys both kernels take
    assert [c.name.decode() for c in launches_since(m)] == ["scan_cols_sum_f32"]


def test_kgen_cumsum_names_itself_in_its_errors():
    with pytest.raises(IndexError, match="^kgen.cumsum: dim 2 is out of range for 2 dimensions"):
        kgen.cumsum(Device((10, 10)), dim=2)
    with pytest.raises(IndexError, match="^kgen.scan: dim 2 is out of range for 2 dimensions"):
        kgen.scan(Device((10, 10)), dim=2)
    with pytest.raises(ValueError, match="^kgen.cumsum: x's rows are not evenly spaced"):
        kgen.cumsum(Device((4, 3, 10), strides=(40, 12, 1)), dim=-1)
    with pytest.raises(ValueError, match="^kgen.cumsum: a scan of all of x .dim=None. reads a contiguous vector"):
        kgen.cumsum(Device((4, 10), strides=(12, 1)))
