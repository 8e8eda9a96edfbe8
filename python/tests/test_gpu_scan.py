"""kgen.scan and kgen.cumsum on a GPU against torch: every element of
inclusive and exclusive scans of sum, min, max and prod, in every dtype,
at sizes around a warp and a tile (256 x 8 and 256 x 32), at 2^20 + 7 and from a
misaligned start, with both strategies, in place, along the rows of
matrices (padded), and the same floats
twice (the combination order is fixed).  Skipped (visibly) without torch
and a GPU."""
import pytest

import kgen

torch = pytest.importorskip("torch")
if not torch.cuda.is_available():
    pytest.skip("no CUDA GPU for torch", allow_module_level=True)

SIZES = [1, 31, 32, 33, 2047, 2048, 2049, 8191, 8192, 8193, 3 * 8192 + 5, 100003, 2 ** 20 + 7]
DTYPES = {"f32": torch.float32, "f64": torch.float64, "i32": torch.int32, "i64": torch.int64,
          "bf16": torch.bfloat16, "f16": torch.float16}


@pytest.fixture
def gen():
    g = torch.Generator(device="cuda")
    g.manual_seed(20261202)
    return g


def data(n, dt, gen):
    if dt in ("i32", "i64"):
        return torch.randint(-1000, 1000, (n,), generator=gen, device="cuda", dtype=DTYPES[dt])
    return (torch.rand(n, generator=gen, device="cuda", dtype=torch.float32) * 2 - 1).to(DTYPES[dt])


def reference(x, op, exclusive):
    """The prefix in float64 (integers in int64), and each element's bound."""
    wide = x.double() if x.is_floating_point() else x.long()
    if op == "sum":
        ref = torch.cumsum(wide, 0)
        scale = torch.cumsum(wide.abs().double(), 0) if x.is_floating_point() else None
    elif op == "max":
        ref, scale = torch.cummax(wide, 0).values, None
    elif op == "min":
        ref, scale = torch.cummin(wide, 0).values, None
    else:
        ref, scale = torch.cumprod(wide, 0), None
    if exclusive:
        ident = {"sum": 0, "prod": 1, "max": -float("inf"), "min": float("inf")}[op]
        if not x.is_floating_point() and op in ("max", "min"):
            info = torch.iinfo(torch.int64 if x.dtype == torch.int64 else torch.int32)
            ident = info.min if op == "max" else info.max
        ref = torch.cat([torch.full((1,), ident, dtype=ref.dtype, device=ref.device), ref[:-1]])
        if scale is not None:
            scale = torch.cat([torch.zeros(1, dtype=scale.dtype, device=scale.device), scale[:-1]])
    return ref, scale


def check(got, x, op, exclusive):
    ref, scale = reference(x, op, exclusive)
    assert got.shape == x.shape
    if not got.is_floating_point():
        assert torch.equal(got.long(), ref.long()), (got[:8], ref[:8])
        return
    g = got.double()
    if scale is None:  # min, max: exact; prod of values in (-1, 1): relative
        if op == "prod":  # a relative error of eps a factor
            eps = 2.0 ** -52 if got.dtype == torch.float64 else 2.0 ** -23
            steps = torch.arange(1, x.numel() + 1, device="cuda", dtype=torch.float64) + 30
            assert torch.all((g - ref).abs() <= eps * steps * ref.abs() + 1e-300)
        else:
            assert torch.equal(g, ref.to(got.dtype).double())
        return
    n = torch.arange(1, x.numel() + 1, device="cuda", dtype=torch.float64)
    eps = 2.0 ** -52 if got.dtype == torch.float64 else 2.0 ** -23
    bound = eps * (8 + 14 + n / 2048) * scale + (2.0 ** -23 if got.dtype == torch.float32 else 2.0 ** -52) * ref.abs()
    err = (g - ref).abs()
    assert torch.all(err <= bound + 1e-30), ("worst error over its bound", (err / (bound + 1e-30)).max().item())


@pytest.mark.parametrize("dt", list(DTYPES))
@pytest.mark.parametrize("exclusive", [False, True])
def test_sums_of_every_size(dt, exclusive, gen):
    for n in SIZES:
        x = data(n, dt, gen)
        got = kgen.scan(x, "sum", exclusive=exclusive)
        check(got, x, "sum", exclusive)


@pytest.mark.parametrize("op", ["min", "max", "prod"])
@pytest.mark.parametrize("dt", ["f32", "i32", "f64"])
def test_other_ops(op, dt, gen):
    if op == "prod" and dt == "i32":
        pytest.skip("an i32 product of 1000s wraps")
    for n in (33, 2049, 100003):
        x = data(n, dt, gen)
        if op == "prod":
            x = (x.abs() * 0.01 + 0.995).to(x.dtype) if x.is_floating_point() else x
        for exclusive in (False, True):
            check(kgen.scan(x, op, exclusive=exclusive), x, op, exclusive)


def test_block_strategy_misaligned_starts_and_in_place(gen):
    x = data(100003, "f32", gen)
    check(kgen.cumsum(x, strategy="block"), x, "sum", False)
    check(kgen.cumsum(x[1:]), x[1:], "sum", False)  # 4 bytes past the allocation's start
    y = x.clone()
    assert kgen.cumsum(y, out=y) is y
    check(y, x, "sum", False)


def test_floats_come_out_the_same_every_run(gen):
    x = data(2 ** 22 + 3, "f32", gen)
    first = kgen.cumsum(x)
    for _ in range(5):
        assert torch.equal(kgen.cumsum(x), first)


def test_16_bit_results(gen):
    x = data(5000, "bf16", gen)
    got = kgen.scan(x, "max", out_dtype="bf16")
    assert got.dtype == torch.bfloat16 and torch.equal(got, torch.cummax(x, 0).values)


@pytest.mark.parametrize("block_scan", ["hillis_steele", "blelloch", "warps"])
@pytest.mark.parametrize("strategy", ["block", "lookback"])
def test_every_block_scan(block_scan, strategy, gen):
    for n in (1, 255, 257, 100003):
        x = data(n, "i32", gen)
        for exclusive in (False, True):
            check(kgen.scan(x, exclusive=exclusive, strategy=strategy, block_scan=block_scan, threads=128,
                            items_per_thread=3, load_width=4), x, "sum", exclusive)
        y = data(n, "f32", gen)
        check(kgen.cumsum(y, strategy=strategy, block_scan=block_scan), y, "sum", False)


@pytest.mark.parametrize("strategy", ["lookback", "block"])
@pytest.mark.parametrize("shape", [(3, 5000), (64, 100003), (1000, 33), (70000, 5), (2, 3, 4097)])
def test_rows(shape, strategy, gen):
    """Along the last dimension (kgen_scan_rows), of padded rows too (a slice
    x[..., :n] of rows 8 elements longer), against each row's reference;
    70000 rows take two launches."""
    for dt in ("i32", "f32"):
        whole = data(int(torch.tensor(shape[:-1]).prod()) * (shape[-1] + 8), dt, gen)
        x = whole.view(*shape[:-1], shape[-1] + 8)[..., :shape[-1]]
        for exclusive in (False, True):
            got = kgen.scan(x, dim=-1, exclusive=exclusive, strategy=strategy)
            assert got.shape == x.shape and got.is_contiguous()
            rows = x.reshape(-1, shape[-1])
            got = got.reshape(-1, shape[-1])
            for r in sorted({0, 1, rows.shape[0] // 2, rows.shape[0] - 1}):
                check(got[r], rows[r].contiguous(), "sum", exclusive)
            if dt == "i32":  # every row, exactly
                ref = torch.cumsum(rows.long(), -1)
                if exclusive:
                    ref = ref - rows.long()
                assert torch.equal(got.long(), ref)


@pytest.mark.parametrize("axis", [None, "rows", "cols, staging: smem", "cols, cluster_size: 4", "cols, staging: ring"])
@pytest.mark.parametrize("shape, dim", [((1000, 33), 0), ((2, 300, 17), -2), ((5, 1), 0), ((100003, 70), 0),
                                        ((4097, 64), 0), ((3, 70000, 9), 1), ((129, 1000), 0), ((65536, 128), 0),
                                        ((70001, 64), 0), ((100003, 1), 0), ((3, 70000, 1), 1)])
def test_columns(shape, dim, axis, gen):
    """Down the columns (dim=-2: by default the kernel of axis: cols, tiles
    of 384 rows of bands of 32 columns, each thread's rows in registers, many
    tiles and groups, partial bands; staging="smem", tiles of 256 rows
    copied into shared memory, by TMA where the rows are whole; clusters of
    4 tiles; staging="ring" (sm_90), persistent blocks through a ring of
    stages; or axis="rows", between two transposes; by default on sm_90 the
    ring (tiles of 128 rows below 2^15 rows, else 256), with overrides 64 columns
    or fewer of 2^16 rows or more in clusters of 8 tiles, and a contiguous
    column as a vector), against torch.cumsum of each
    column: integers exactly, floats within the bound."""
    how = ({"axis": "cols", "staging": "smem", "items_per_thread": 8} if axis == "cols, staging: smem"
           else {"axis": "cols", "cluster_size": 4} if axis == "cols, cluster_size: 4"
           else {"axis": "cols", "staging": "ring"} if axis == "cols, staging: ring"
           else {"axis": axis} if axis else {})
    for dt in ("i32", "f32"):
        x = data(int(torch.tensor(shape).prod()), dt, gen).view(shape)
        for exclusive in (False, True):
            got = kgen.scan(x, dim=dim, exclusive=exclusive, **how)
            assert got.shape == x.shape and got.is_contiguous()
            cols = x.movedim(dim, -1).reshape(-1, shape[dim])
            by_col = got.movedim(dim, -1).reshape(-1, shape[dim])
            for c in sorted({0, cols.shape[0] // 2, cols.shape[0] - 1}):
                check(by_col[c].contiguous(), cols[c].contiguous(), "sum", exclusive)
            if dt == "i32":
                ref = torch.cumsum(x.long(), dim)
                assert torch.equal(got.long(), ref - x.long() if exclusive else ref)


@pytest.mark.parametrize("group", [1, 8, 16])
def test_lookback_groups(group, gen):
    """Smaller look-back groups (lookback_group): every element, and the
    same floats twice."""
    for n in (8193, 33 * 8192 + 5, 2 ** 20 + 7):
        x = data(n, "i32", gen)
        check(kgen.scan(x, lookback_group=group, items_per_thread=8), x, "sum", False)
        y = data(n, "f32", gen)
        first = kgen.cumsum(y, lookback_group=group, items_per_thread=8)
        check(first, y, "sum", False)
        assert torch.equal(kgen.cumsum(y, lookback_group=group, items_per_thread=8), first)


@pytest.mark.parametrize("dt", list(DTYPES))
@pytest.mark.parametrize("exclusive", [False, True])
def test_segments(dt, exclusive, gen):
    """block_scan: segments (the tile as read, a TMA bulk copy on sm_90, each
    warp scanning a contiguous segment): every size, a misaligned start (the
    loads a thread, the tile whole or not), min and max, along padded rows."""
    for n in SIZES:
        x = data(n, dt, gen)
        check(kgen.scan(x, "sum", exclusive=exclusive, block_scan="segments"), x, "sum", exclusive)
    x = data(100003, dt, gen)
    check(kgen.scan(x[1:], "sum", exclusive=exclusive, block_scan="segments"), x[1:], "sum", exclusive)
    for op in ("min", "max"):
        check(kgen.scan(x, op, exclusive=exclusive, block_scan="segments"), x, op, exclusive)
    whole = data(64 * (8200 + 8), dt, gen)
    rows = whole.view(64, 8208)[:, :8200]
    got = kgen.scan(rows, dim=-1, exclusive=exclusive, block_scan="segments")
    for r in (0, 31, 63):
        check(got[r], rows[r].contiguous(), "sum", exclusive)


def test_segments_in_place_and_the_same_floats_every_run(gen):
    x = data(2 ** 22 + 3, "f32", gen)
    first = kgen.cumsum(x, block_scan="segments")
    check(first, x, "sum", False)
    for _ in range(3):
        assert torch.equal(kgen.cumsum(x, block_scan="segments"), first)
    y = x.clone()
    assert kgen.cumsum(y, out=y, block_scan="segments") is y
    assert torch.equal(y, first)


@pytest.mark.parametrize("block_scan", ["segments", "warps"])
def test_graph_replays_are_launches_of_their_own(block_scan, gen):
    """kgen.scan captured in a CUDA graph and replayed on new data: every
    replay right (a launch's marks come from the launches its scratch's
    header counts on the device, not from the capture)."""
    for dt in ("i32", "f32"):
        x = data(2 ** 20 + 7, dt, gen)
        out = kgen.scan(x, block_scan=block_scan)  # the kernel and its scratch, before the capture
        torch.cuda.synchronize()
        side = torch.cuda.Stream()
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.stream(side), torch.cuda.graph(graph, stream=side):
            kgen.scan(x, block_scan=block_scan, out=out)
        for _ in range(4):
            x.copy_(data(x.numel(), dt, gen))
            graph.replay()
            torch.cuda.synchronize()
            check(out, x, "sum", False)


@pytest.mark.parametrize("block_scan", ["segments", "warps"])
def test_one_scratch_serves_calls_of_any_rows_and_length(block_scan, gen):
    """One kernel's scratch through calls of other rows and lengths, each
    twice: every result right.  (Each row's words once began with a header
    of its own, where a later call of other rows found a word of an earlier
    one: its launches went uncounted, and its next launch took that one's
    words as its own.)"""
    for shape in [(2 ** 20 + 7,), (64, 8200), (3, 100003), (64, 8200), (2 ** 22 + 3,), (3, 100003), (7, 50001)]:
        for _ in range(2):
            x = data(shape[0] * (shape[1] if len(shape) > 1 else 1), "i32", gen).view(shape)
            got = kgen.cumsum(x, dim=-1, block_scan=block_scan)
            for r in range(shape[0] if len(shape) > 1 else 1):
                check(got[r] if len(shape) > 1 else got, x[r] if len(shape) > 1 else x, "sum", False)


@pytest.mark.parametrize("dt", list(DTYPES))
def test_columns_of_every_dtype_pitched_and_in_place(dt, gen):
    """axis="cols" down the columns of a pitched matrix (rows 72 apart, 70 long: the
    threads' loads, not the packs), every dtype, min and max; groups of one
    tile and of 8; the same floats every run; in place."""
    whole = data(40000 * 72, dt, gen).view(40000, 72)
    x = whole[:, :70]
    for op in ("sum", "max", "min"):
        got = kgen.scan(x, op, dim=0, axis="cols")
        for c in (0, 33, 69):
            check(got[:, c].contiguous(), x[:, c].contiguous(), op, False)
    y = data(20011 * 64, dt, gen).view(20011, 64)
    first = kgen.cumsum(y, dim=0, axis="cols")
    for group in (1, 8):
        got = kgen.cumsum(y, dim=0, axis="cols", lookback_group=group)
        for c in (0, 31, 63):
            check(got[:, c].contiguous(), y[:, c].contiguous(), "sum", False)
    assert torch.equal(kgen.cumsum(y, dim=0, axis="cols"), first)
    # a tile of 8 rows a thread staged in shared memory or held in registers: the same combination, so the same bits
    staged = kgen.cumsum(y, dim=0, axis="cols", staging="smem", items_per_thread=8)
    assert torch.equal(kgen.cumsum(y, dim=0, axis="cols", staging="none", items_per_thread=8), staged)
    # clusters of 2, 4 and 8 tiles (their own folds): right, and the same bits run after run
    for size in (2, 4, 8):
        got = kgen.cumsum(y, dim=0, axis="cols", cluster_size=size)
        for c in (0, 31, 63):
            check(got[:, c].contiguous(), y[:, c].contiguous(), "sum", False)
        assert torch.equal(kgen.cumsum(y, dim=0, axis="cols", cluster_size=size), got)
    if first.dtype == y.dtype:  # in place: one element size
        z = y.clone()
        assert kgen.cumsum(z, dim=0, axis="cols", out=z) is z
        assert torch.equal(z, first)


def test_int32_into_int64_takes_the_fast_path_too(gen):
    """kgen.cumsum(x, acc_dtype="i64") of int32, torch.cumsum's int64: exact, and after the first call of a
    layout (a vector, rows) in C (kgen._fast.scan, keyed by the op and the types), never Python's path."""
    from kgen import _lib, _scan
    cases = [(data(100003, "i32", gen), None), (data(64 * 1000, "i32", gen).view(64, 1000), -1)]
    for x, dim in cases:
        for _ in range(3):
            x.copy_(data(x.numel(), "i32", gen).view(x.shape))
            got = kgen.cumsum(x, dim=dim, acc_dtype="i64")
            assert got.dtype == torch.int64 and torch.equal(got, torch.cumsum(x, -1 if dim is None else dim))
    if _lib.fast is None or _scan._fast_scan is None:
        return
    assert {("sum acc_dtype=i64", False, None), ("sum acc_dtype=i64", False, -1)} <= \
        {key[:3] for key in _scan._ready_fast}

    def refuse(*args):
        raise AssertionError("kgen._scan._scan called for a layout made ready")
    python_path, _scan._scan = _scan._scan, refuse
    try:
        for x, dim in cases:
            x.copy_(data(x.numel(), "i32", gen).view(x.shape))
            got = kgen.cumsum(x, dim=dim, acc_dtype="i64")
            assert got.dtype == torch.int64 and torch.equal(got, torch.cumsum(x, -1 if dim is None else dim))
    finally:
        _scan._scan = python_path


@pytest.mark.parametrize("rows, cols", [(1000, 64), (40000, 64), (3000, 1000)])
def test_int32_columns_into_int64(rows, cols, gen):
    """kgen.cumsum(x, dim=0, acc_dtype="i64") of an int32 matrix, torch.cumsum's int64: the call down the
    columns whose only override is acc_dtype, which takes staging: ring on sm_90 (tiles of 128 rows below 2^15
    rows), exact."""
    x = data(rows * cols, "i32", gen).view(rows, cols)
    got = kgen.cumsum(x, dim=0, acc_dtype="i64")
    assert got.dtype == torch.int64 and torch.equal(got, torch.cumsum(x, 0))


def test_the_fast_path_gives_what_the_first_call_gave(gen):
    """Calls of a torch tensor of one layout after the first take kgen._fast.scan (down the columns too)
    (where the package has it): new values, a new result each, the op, mode
    and dim as given; another layout, dtype or mode is a call of its own."""
    from kgen import _lib, _scan
    whole = data(64 * 1032, "f32", gen).view(64, 1032)
    cases = [(data(100003, "f32", gen), "sum", False, None), (data(4096, "i32", gen), "sum", True, None),
             (whole[:, :1000], "max", False, -1), (whole[:, :1000], "sum", True, 1),
             (data(3 * 8192 + 5, "f32", gen), "min", True, 0),
             (data(5000, "f32", gen).view(5000, 1), "sum", False, -2),  # one column: a vector
             (data(70001 * 20, "f32", gen).view(70001, 20), "sum", True, 0)]  # down the columns
    for x, op, exclusive, dim in cases:
        for _ in range(3):
            x.copy_(data(x.numel(), "i32" if x.dtype == torch.int32 else "f32", gen).view(x.shape))
            got = kgen.scan(x, op, dim=dim, exclusive=exclusive)
            assert got.shape == x.shape and got.is_contiguous()
            if x.dim() == 2 and dim == 0 and x.shape[-1] > 1:
                for c in (0, x.shape[1] - 1):
                    check(got[:, c].contiguous(), x[:, c].contiguous(), op, exclusive)
            elif dim is None or x.dim() == 1 or dim == -2:
                check(got.reshape(-1), x.reshape(-1), op, exclusive)
            else:
                for r in (0, x.shape[0] // 2, x.shape[0] - 1):
                    check(got[r], x[r].contiguous(), op, exclusive)
        if _lib.fast is not None and _scan._fast_scan is not None:
            assert any(key[:3] == (op, exclusive, dim) for key in _scan._ready_fast), (op, exclusive, dim)
    if _lib.fast is not None and _scan._fast_scan is not None:  # later calls of those layouts never reach Python's path
        def refuse(*args):
            raise AssertionError("kgen._scan._scan called for a layout made ready")
        python_path, _scan._scan = _scan._scan, refuse
        try:
            for x, op, exclusive, dim in cases:
                got = kgen.scan(x, op, dim=dim, exclusive=exclusive)
                whole = dim is None or x.dim() == 1 or dim == -2
                if x.dim() == 2 and dim == 0 and x.shape[-1] > 1:
                    check(got[:, 3].contiguous(), x[:, 3].contiguous(), op, exclusive)
                else:
                    check(got.reshape(-1) if whole else got[0], x.reshape(-1) if whole else x[0].contiguous(), op,
                          exclusive)
        finally:
            _scan._scan = python_path
    x = data(5000, "f32", gen)
    first = kgen.cumsum(x)
    assert torch.equal(kgen.cumsum(x), first) and kgen.cumsum(x) is not first  # the same floats, a new result
