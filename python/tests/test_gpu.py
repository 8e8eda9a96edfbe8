"""kgen on the GPU from Python, against the peers users would call instead:
torch.sum / amin / amax / prod, torch.transpose().contiguous() and CuPy, on
random data; integers exactly, floats within a tolerance of the sum of
magnitudes.  Skipped (visibly) without torch, CUDA or a GPU.  Every other
op, JAX, DLPack, graphs and torch.compile: test_gpu_ops.py,
test_gpu_dlpack.py, test_gpu_graphs.py, test_gpu_compile.py."""
import pytest

import kgen

torch = pytest.importorskip("torch")
if not torch.cuda.is_available():
    pytest.skip("no CUDA GPU for torch", allow_module_level=True)

DTYPES = {"f32": torch.float32, "f64": torch.float64, "f16": torch.float16, "bf16": torch.bfloat16,
          "i32": torch.int32, "i64": torch.int64}
EPS = {"f32": 1e-5, "f64": 1e-12, "f16": 2e-3, "bf16": 1e-2}


def rand(shape, dt, gen, op="sum"):
    if dt.startswith("i"):
        lo, hi = (-3, 4) if op == "prod" else (-1000, 1001)
        return torch.randint(lo, hi, shape, generator=gen, device="cuda", dtype=DTYPES[dt])
    x = torch.randn(shape, generator=gen, device="cuda", dtype=torch.float32)
    if op == "prod":
        x = 1 + x / 1024
    return x.to(DTYPES[dt])


def peer(x, op, dim=None):
    w = x.double() if x.is_floating_point() else x.long()
    if op == "sum":
        return w.sum() if dim is None else w.sum(dim)
    if op == "prod":
        return w.prod() if dim is None else w.prod(dim)
    f = torch.amin if op == "min" else torch.amax
    return f(w) if dim is None else f(w, dim)


def close(got, want, x, dt, op, dim=None):
    got = got.double() if got.is_floating_point() else got.long()
    if dt.startswith("i"):
        if op in ("sum", "prod"):  # kgen accumulates in the input's type: compare modulo its width
            bits = 32 if dt == "i32" else 64
            want = ((want + (1 << (bits - 1))) % (1 << bits)) - (1 << (bits - 1)) if bits == 32 else want
        assert torch.equal(got, want), (got, want)
        return
    mag = x.double().abs()
    scale = (mag.sum() if dim is None else mag.sum(dim)) if op == "sum" else want.abs()
    if op == "prod":
        scale = want.abs() * x.numel()
    tol = EPS[dt] * (scale + 1) * (4 if op == "sum" else 1)
    assert torch.all((got - want).abs() <= tol), ((got - want).abs().max(), tol.max() if tol.dim() else tol)


@pytest.fixture
def gen():
    g = torch.Generator(device="cuda")
    g.manual_seed(20261122)
    return g


@pytest.mark.parametrize("dt", list(DTYPES))
@pytest.mark.parametrize("n", [1, 1000, 2 ** 20 + 3])
def test_full_sum(dt, n, gen):
    x = rand((n,), dt, gen)
    close(kgen.reduce(x), peer(x, "sum"), x, dt, "sum")


@pytest.mark.parametrize("op", ["min", "max", "prod"])
@pytest.mark.parametrize("dt", ["f32", "i32", "f64"])
def test_full_other_ops(op, dt, gen):
    x = rand((100003,), dt, gen, op)
    close(kgen.reduce(x, op), peer(x, op), x, dt, op)


def test_result_is_a_zero_d_tensor_of_the_accumulator_type(gen):
    x = rand((4096,), "bf16", gen)
    r = kgen.reduce(x)
    assert r.shape == () and r.dtype == torch.float32 and r.device == x.device


@pytest.mark.parametrize("dt", ["f32", "bf16", "f64"])
def test_misaligned_input_is_reduced(dt, gen):
    # A slice from every element offset of a 16-byte span, with a user spec's 16-byte loads too.
    x = rand((4113,), dt, gen)
    for k in range(1, 16 // x.element_size() + 1):
        close(kgen.reduce(x[k:]), peer(x[k:], "sum"), x[k:], dt, "sum")
        close(kgen.reduce(x[k:], spec={"kernel": "reduce", "load_width": 16, "stages": "two_pass"}), peer(x[k:], "sum"),
              x[k:], dt, "sum")


@pytest.mark.parametrize("shape", [(1000, 3001), (4096, 64), (64, 4096), (1, 1000003), (1000003, 1), (5000, 16),
                                   (4097, 24)])
@pytest.mark.parametrize("dt", ["f32", "bf16", "i32"])
def test_axis_sums(shape, dt, gen):
    x = rand(shape, dt, gen)
    for axis in (0, 1, -1):
        close(kgen.reduce(x, axis=axis), peer(x, "sum", axis), x, dt, "sum", axis)


def test_axis_on_padded_rows_and_transposed_views(gen):
    wide = rand((500, 1030), "f32", gen)
    x = wide[:, :1000]                       # rows 1030 elements apart
    close(kgen.reduce(x, axis=1), peer(x, "sum", 1), x, "f32", "sum", 1)
    close(kgen.reduce(x, "max", axis=0), peer(x, "max", 0), x, "f32", "max", 0)
    t = rand((700, 300), "f32", gen).t()     # columns are contiguous
    close(kgen.reduce(t, axis=0), peer(t, "sum", 0), t, "f32", "sum", 0)
    close(kgen.reduce(t, "min", axis=1), peer(t, "min", 1), t, "f32", "min", 1)
    # Short rows a vector a lane (_lanes8x4), and the same rows one element off
    # their 16-byte boundaries, which the launcher gives to _lanes4 instead.
    short = rand((3000, 33), "f32", gen)
    for y in (short[:, :32], short[:, 1:]):
        close(kgen.reduce(y, axis=1), peer(y, "sum", 1), y, "f32", "sum", 1)
        close(kgen.reduce(y, "max", axis=1), peer(y, "max", 1), y, "f32", "max", 1)


def test_axis_of_n_d_arrays(gen):
    x = rand((8, 16, 300), "f32", gen)
    close(kgen.reduce(x, axis=-1), peer(x, "sum", -1), x, "f32", "sum", -1)
    out = torch.empty((8, 16), device="cuda")
    assert kgen.reduce(x, axis=-1, out=out) is out
    close(out, peer(x, "sum", -1), x, "f32", "sum", -1)
    close(kgen.reduce(x, axis=0), peer(x, "sum", 0), x, "f32", "sum", 0)
    with pytest.raises(NotImplementedError):
        kgen.reduce(x, axis=1)


def test_out_and_stream(gen):
    x = rand((2048, 512), "f32", gen)
    out = torch.full((2048,), float("nan"), device="cuda")
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        r = kgen.reduce(x, axis=1, out=out)
    s.synchronize()
    assert r is out
    close(out, peer(x, "sum", 1), x, "f32", "sum", 1)
    r = kgen.reduce(x, axis=1, out=out, stream=s)
    s.synchronize()
    with pytest.raises(ValueError):
        kgen.reduce(x, axis=1, out=torch.empty(7, device="cuda"))


@pytest.mark.parametrize("dt", ["f32", "bf16", "f64", "i32", "f16"])
@pytest.mark.parametrize("shape", [(1000, 3000), (999, 3001), (1, 77), (64, 1024, 1024), (3, 33, 65)])
def test_transpose_equals_torch(dt, shape, gen):
    x = rand(shape, dt, gen)
    want = x.transpose(-2, -1).contiguous()
    got = kgen.transpose(x)
    assert got.shape == want.shape and torch.equal(got, want)


def test_transpose_of_a_slice_into_a_padded_out(gen):
    wide = rand((300, 1000), "f32", gen)
    x = wide[:, 8:808]                      # pitch 1000, 32-byte offset
    big = torch.zeros((800, 320), device="cuda")
    out = big[:, :300]                      # out's rows 320 apart
    kgen.transpose(x, out=out)
    assert torch.equal(out, x.t())
    assert torch.count_nonzero(big[:, 300:]) == 0


def test_user_spec_and_overrides(gen, tmp_path):
    x = rand((5000,), "i32", gen)
    spec = tmp_path / "two.yaml"
    spec.write_text("kernel: reduce\nop: max\nstages: two_pass\nthreads: 256\n")
    close(kgen.reduce(x, spec=str(spec)), peer(x, "max"), x, "i32", "max")
    close(kgen.reduce(x, spec={"kernel": "reduce", "stages": "last_block"}, threads=128), peer(x, "sum"), x, "i32",
          "sum")
    k = kgen.Kernel(str(spec), dtype="i32")
    close(k(x), peer(x, "max"), x, "i32", "max")
    with pytest.raises(kgen.SpecError) as e:
        kgen.reduce(x, spec="kernel: reduce\nstages: one_pass\n")
    assert (e.value.line, e.value.column) == (2, 9)


def test_wrong_inputs_are_clear_errors():
    with pytest.raises(ValueError, match="not a CUDA device"):
        kgen.reduce(torch.ones(10))
    with pytest.raises(TypeError, match="not supported"):
        kgen.reduce(torch.ones(10, device="cuda", dtype=torch.complex64))
    with pytest.raises(ValueError, match="contiguous"):
        kgen.reduce(torch.ones(10, 10, device="cuda")[:, ::2])
    with pytest.raises(ValueError, match="op is one of"):
        kgen.reduce(torch.ones(10, device="cuda"), "median")


cupy = None
try:
    import cupy
except ImportError:
    pass


@pytest.mark.skipif(cupy is None, reason="no cupy")
def test_cupy_in_cupy_out():
    rs = cupy.random.RandomState(7)
    x = rs.standard_normal((1000, 3001), dtype=cupy.float32)
    r = kgen.reduce(x, axis=1)
    assert isinstance(r, cupy.ndarray) and r.shape == (1000,)
    assert float(cupy.abs(r - x.astype(cupy.float64).sum(axis=1)).max()) < 1e-3
    full = kgen.reduce(x)
    assert abs(float(full) - float(x.astype(cupy.float64).sum())) < 1e-5 * float(cupy.abs(x).sum()) * 4 + 1e-3
    t = kgen.transpose(x)
    assert isinstance(t, cupy.ndarray) and bool((t == x.T).all())
    i = rs.randint(-1000, 1000, (100003,), dtype=cupy.int32)
    assert int(kgen.reduce(i, "max")) == int(i.max())
