"""Every op of kgen.reduce on the GPU, against torch (in float64, or exact
for integers), on torch arrays of every dtype torch reduces, CuPy arrays
and JAX arrays: full reductions and along both axes; argmin and argmax with
ties (the lowest index wins) and NaNs (propagate: the first NaN; ignore:
skipped, -1 when all are NaN); a custom op.  Skipped (visibly) without
torch and a GPU; the CuPy and JAX parts without those."""
import math

import pytest

import kgen

torch = pytest.importorskip("torch")
if not torch.cuda.is_available():
    pytest.skip("no CUDA GPU for torch", allow_module_level=True)

DTYPES = {"f32": torch.float32, "f64": torch.float64, "f16": torch.float16, "bf16": torch.bfloat16,
          "i32": torch.int32, "i64": torch.int64}
FLOATS = ("f32", "f64", "f16", "bf16")
UNIT = {"f32": 2.0 ** -24, "f64": 2.0 ** -53}  # of the accumulator: f32 for f16 and bf16
SCALAR_OPS = ("sum", "min", "max", "prod", "mean", "sumsq", "norm2", "amax", "count_nonzero", "any", "all")
SHAPES = [(1,), (1000,), (2 ** 20 + 3,), (257, 1031), (64, 4096), (4096, 65), (3, 5, 77)]


@pytest.fixture
def gen():
    g = torch.Generator(device="cuda")
    g.manual_seed(20261124)
    return g


def rand(shape, dt, gen, op="sum"):
    """Random data for op: small integers (-3..3 for prod, a few zeros for the
    counting ops), floats near 1 for prod, normal otherwise."""
    if dt.startswith("i"):
        lo, hi = (-3, 4) if op in ("prod", "any", "all", "count_nonzero") else (-1000, 1001)
        x = torch.randint(lo, hi, shape, generator=gen, device="cuda", dtype=DTYPES[dt])
        if op == "all":
            x[x == 0] = 1
            if len(shape) > 1:
                x[2, 0] = 0  # row 2 and column 0 are not all non-zero
        if op == "any" and len(shape) > 1:
            x[1] = 0  # row 1 has none
        return x
    x = torch.randn(shape, generator=gen, device="cuda", dtype=torch.float32)
    if op == "prod":
        x = 1 + x / 1024
    if op == "count_nonzero":
        x[torch.rand(shape, generator=gen, device="cuda") < 0.3] = 0
    return x.to(DTYPES[dt])


def reference(x, op, dim):
    """op over x (all of it when dim is None) in float64 or int64, as kgen defines it."""
    w = x.double() if x.is_floating_point() else x.long()
    red = (lambda f, t: f(t)) if dim is None else (lambda f, t: f(t, dim))
    if op == "sum":
        return red(torch.sum, w)
    if op == "prod":
        return red(torch.prod, w)
    if op == "min":
        return red(torch.amin, w)
    if op == "max":
        return red(torch.amax, w)
    if op == "mean":
        return red(torch.mean, w.double())
    if op == "sumsq":
        return red(torch.sum, w * w)
    if op == "norm2":
        return red(torch.sum, w.double() * w.double()).sqrt()
    if op == "amax":
        return red(torch.amax, w.abs())
    if op == "count_nonzero":
        return red(torch.sum, (w != 0).long())
    if op == "any":
        return red(torch.amax, (w != 0).long())
    if op == "all":
        return red(torch.amin, (w != 0).long())
    raise AssertionError(op)


def wrap(v, bits):
    """v (int64) as a `bits`-bit two's complement integer: what an integer accumulator holds."""
    return ((v + (1 << (bits - 1))) % (1 << bits)) - (1 << (bits - 1))


def check(got, x, op, dim, dt):
    want = reference(x, op, dim)
    assert tuple(got.shape) == tuple(want.shape), (got.shape, want.shape)
    if not x.is_floating_point() and op in ("mean", "norm2"):  # f64 results of integer elements
        assert got.dtype == torch.float64, got.dtype
        assert torch.allclose(got, want.double(), rtol=1e-12, atol=0), (got, want)
        return
    if not x.is_floating_point() or op in ("count_nonzero", "any", "all"):
        got = got.long()
        if op in ("sum", "prod", "sumsq", "amax") and dt == "i32":
            want = wrap(want, 32)  # i32 accumulates in i32, as C does
        assert torch.equal(got, want.long()), (got, want)
        return
    got = got.double()
    u = UNIT["f64" if dt == "f64" else "f32"]
    n = x.numel() if dim is None else x.shape[dim]
    mag = reference(x.abs(), "sum", dim) if op in ("sum", "mean") else reference(x, "sumsq", dim)
    if op in ("min", "max", "amax"):
        assert torch.equal(got, want), (got, want)  # exact: the result is an element
        return
    if op == "prod":
        bound = 2 * n * u * want.abs()
    elif op in ("sum", "sumsq"):
        bound = 2 * n * u * mag
    elif op == "mean":
        bound = 2 * n * u * mag / n
    else:  # norm2: a relative bound on the sum of squares, halved by the root
        bound = n * u * want.abs() + u * want.abs()
    assert torch.all((got - want).abs() <= bound + 1e-300), ((got - want).abs().max(), bound.max())


@pytest.mark.parametrize("op", SCALAR_OPS)
@pytest.mark.parametrize("dt", list(DTYPES))
def test_every_op_full_and_along_both_axes(op, dt, gen):
    if op in ("any", "all") and dt in FLOATS:
        pytest.skip("any and all take integer elements (count_nonzero is their float form)")
    for shape in SHAPES:
        x = rand(shape, dt, gen, op)
        check(kgen.reduce(x, op), x, op, None, dt)
        if len(shape) > 1:
            check(kgen.reduce(x, op, axis=-1), x, op, -1, dt)
            check(kgen.reduce(x, op, axis=0), x, op, 0, dt)


def test_result_types_follow_the_spec(gen):
    x = rand((1000,), "i32", gen)
    assert kgen.reduce(x, "mean").dtype == torch.float64
    assert kgen.reduce(x, "count_nonzero").dtype == torch.int64
    assert kgen.reduce(x, "any").dtype == torch.int32
    assert kgen.reduce(rand((1000,), "bf16", gen), "sum").dtype == torch.float32
    assert kgen.reduce(rand((1000,), "f16", gen), "sum", out_dtype="f16").dtype == torch.float16


def arg_reference(x, op, dim, nan):
    """torch.argmax / argmin's values and indices, with kgen's NaN rules made explicit."""
    w = x.double()
    flat = dim is None
    if flat:
        w = w.reshape(1, -1)
        dim = 1
    if dim == 0:
        w = w.t()
    isnan = torch.isnan(w)
    fill = -math.inf if op == "argmax" else math.inf
    clean = torch.where(isnan, torch.full_like(w, fill), w)
    f = torch.argmax if op == "argmax" else torch.argmin
    idx = f(clean, 1)
    # torch's argmax returns the first of equal maxima; an all-NaN row or one of only the identity is -1 or 0 below.
    val = clean.gather(1, idx[:, None])[:, 0]
    anynan = isnan.any(1)
    if nan == "propagate":
        first = torch.where(anynan, isnan.long().argmax(1), idx)
        val = torch.where(anynan, torch.full_like(val, math.nan), val)
        idx = first
    else:
        allnan = isnan.all(1)
        idx = torch.where(allnan, torch.full_like(idx, -1), idx)
    return (val[0], idx[0]) if flat else (val, idx)


@pytest.mark.parametrize("op", ["argmin", "argmax"])
@pytest.mark.parametrize("dt", list(DTYPES))
@pytest.mark.parametrize("nan", ["propagate", "ignore"])
def test_argmin_argmax_with_ties_and_nans(op, dt, nan, gen):
    # (3001, 16) and (2048, 32): short rows, read a vector a lane (_lanes4x4, _lanes8x4).
    for shape in [(1000,), (2 ** 20 + 3,), (257, 1031), (4096, 65), (3001, 16), (2048, 32)]:
        # Few distinct values: many ties, the lowest index must win.
        x = torch.randint(-4, 5, shape, generator=gen, device="cuda").to(DTYPES[dt])
        if dt in FLOATS and nan == "ignore" or dt in FLOATS and shape[0] % 2:
            m = torch.rand(shape, generator=gen, device="cuda") < 0.01
            x[m] = math.nan
            if len(shape) == 2:
                x[3] = math.nan  # a row of NaNs only
        kw = {"nan": nan} if dt in FLOATS else {}
        if dt not in FLOATS and nan == "ignore":
            continue  # nan has no effect on integers
        for dim in ([None] if len(shape) == 1 else [None, 1, 0]):
            got = kgen.reduce(x, op, axis=dim, **kw)
            assert isinstance(got, kgen.ArgResult)
            v, i = arg_reference(x, op, dim, nan)
            assert got.indices.dtype == torch.int64
            assert torch.equal(got.indices, i), (shape, dim, (got.indices != i).nonzero()[:5])
            # kgen.argmax / argmin: the same indices alone, new and into out= (poisoned first), twice (the
            # second call through the ready fast path).
            for _ in range(2):
                alone = getattr(kgen, op)(x, dim, **kw)
                assert alone.dtype == torch.int64 and torch.equal(alone, i), (shape, dim)
                into = torch.full_like(i, -7)
                assert getattr(kgen, op)(x, dim, out=into, **kw) is into and torch.equal(into, i)
            gv = got.values.double()
            valid = i >= 0
            assert torch.equal(torch.isnan(gv[valid]), torch.isnan(v[valid]))
            ok = ~torch.isnan(v) & valid
            assert torch.equal(gv[ok], v[ok])


def test_argmax_matches_torch_max_on_plain_data(gen):
    x = torch.randn(513, 777, generator=gen, device="cuda")
    got, want = kgen.reduce(x, "argmax", axis=1), torch.max(x, 1)
    assert torch.equal(got.values, want.values) and torch.equal(got.indices, want.indices)
    assert torch.equal(kgen.reduce(x.flatten(), "argmin").indices, torch.argmin(x))
    assert torch.equal(kgen.argmax(x, 1), torch.argmax(x, 1)) and torch.equal(kgen.argmin(x), torch.argmin(x))
    assert torch.equal(kgen.argmax(x.bfloat16(), 0), torch.argmax(x.bfloat16(), 0))


def test_custom_op_root_mean_square(gen):
    x = torch.randn(100003, generator=gen, device="cuda")
    got = kgen.reduce(x, "custom", map="x * x", combine="a + b", identity="0", post="sqrt(a / n)")
    want = x.double().pow(2).mean().sqrt()
    assert abs(float(got) - float(want)) <= 1e-5 * float(want)
    rows = kgen.reduce(x[:100000].reshape(100, 1000), "custom", axis=1, map="fabsf(x)", combine="fmaxf(a, b)",
                       identity="0")
    assert torch.equal(rows, x[:100000].reshape(100, 1000).abs().amax(1))


try:
    import cupy
except ImportError:
    cupy = None


@pytest.mark.skipif(cupy is None, reason="no CuPy")
@pytest.mark.parametrize("op", SCALAR_OPS + ("argmax", "argmin"))
@pytest.mark.parametrize("dt", ["f32", "f64", "f16", "i32", "i64", "u32"])
def test_cupy_arrays_every_op(op, dt, gen):
    if op in ("any", "all") and dt in FLOATS:
        pytest.skip("any and all take integer elements")
    if dt == "u32":
        t = torch.randint(0, 7 if op == "prod" else 100000, (257, 1031), generator=gen, device="cuda",
                          dtype=torch.int64)
        x = cupy.asarray(t).astype(cupy.uint32)
        ref_t = t
    else:
        ref_t = rand((257, 1031), dt, gen, op if op not in ("argmax", "argmin") else "sum")
        x = cupy.from_dlpack(ref_t)
    for dim in (None, 1, 0):
        got = kgen.reduce(x, op, axis=dim)
        if op in ("argmax", "argmin"):
            assert isinstance(got.values, cupy.ndarray) and isinstance(got.indices, cupy.ndarray)
            f = torch.argmax if op == "argmax" else torch.argmin
            want = f(ref_t.double()) if dim is None else f(ref_t.double(), dim)
            assert torch.equal(torch.from_dlpack(got.indices), want)
            continue
        assert isinstance(got, cupy.ndarray)
        if dt == "u32":
            want = reference(ref_t, op, dim)
            g = torch.from_dlpack(got.astype(cupy.int64) if got.dtype == cupy.uint32 else got)
            if op in ("sum", "prod", "sumsq"):
                want = want % (1 << 32)
                g = g.long() % (1 << 32)
            if g.is_floating_point():
                assert torch.allclose(g.double(), want.double(), rtol=1e-9)
            else:
                assert torch.equal(g.long(), want.long()), (op, dim)
        else:
            check(torch.from_dlpack(got), ref_t, op, dim, dt)


def _jax():
    try:
        import jax
        jax.config.update("jax_enable_x64", True)
        if not jax.devices("gpu"):
            return None
        return jax
    except Exception:
        return None


jax = _jax()


@pytest.mark.skipif(jax is None, reason="no JAX with a GPU")
@pytest.mark.parametrize("op", SCALAR_OPS + ("argmax",))
@pytest.mark.parametrize("dt", ["f32", "f64", "bf16", "f16", "i32", "i64"])
def test_jax_arrays_every_op_give_jax_arrays(op, dt, gen):
    import jax.numpy as jnp
    if op in ("any", "all") and dt in FLOATS:
        pytest.skip("any and all take integer elements")
    t = rand((257, 1031), dt, gen, op if op != "argmax" else "sum")
    x = jax.dlpack.from_dlpack(t.contiguous())
    for dim in (None, 1, 0):
        got = kgen.reduce(x, op, axis=dim)
        if op == "argmax":
            assert isinstance(got.values, jax.Array) and isinstance(got.indices, jax.Array)
            assert jnp.array_equal(got.indices, jnp.argmax(x, axis=dim))
            continue
        assert isinstance(got, jax.Array)
        check(torch.from_dlpack(got), t, op, dim, dt)
