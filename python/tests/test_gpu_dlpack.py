"""DLPack and plans on the GPU: a torch tensor passed as a DLPack capsule or
through a producer gives kgen's own array, which torch, CuPy and JAX take
back without a copy (the consumer's stream ordered after kgen's); JAX
arrays in, JAX arrays out, for reductions, transposes and matrix products;
a full reduction takes the shipped size plan on the GPU it was tuned on,
and plan= a caller's.  Skipped (visibly) without torch and a GPU."""
import os

import pytest

import kgen

torch = pytest.importorskip("torch")
if not torch.cuda.is_available():
    pytest.skip("no CUDA GPU for torch", allow_module_level=True)

TOP = os.environ.get("KGEN_TOP_SRCDIR", os.path.join(os.path.dirname(__file__), "..", ".."))


def test_a_capsule_in_kgens_array_out():
    x = torch.randn(100003, device="cuda")
    r = kgen.reduce(torch.utils.dlpack.to_dlpack(x), "sum")
    assert isinstance(r, kgen.DeviceArray) and r.dtype == "f32"
    back = torch.from_dlpack(r)
    assert back.device == x.device and abs(float(back) - float(x.double().sum())) <= 1e-5 * float(x.abs().sum())
    t = kgen.transpose(torch.utils.dlpack.to_dlpack(x[:100000].reshape(100, 1000)))
    assert torch.equal(torch.from_dlpack(t), x[:100000].reshape(100, 1000).t())


def test_a_result_on_a_side_stream_reaches_torchs_stream():
    x = torch.randn(2 ** 22, device="cuda")
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    r = kgen.reduce(torch.utils.dlpack.to_dlpack(x), "max", stream=s)
    got = torch.from_dlpack(r)  # torch's current stream waits for s (DLPack's stream argument)
    assert float(got) == float(x.max())


try:
    import cupy
except ImportError:
    cupy = None


@pytest.mark.skipif(cupy is None, reason="no CuPy")
def test_kgens_array_into_cupy():
    x = torch.randint(-50, 50, (1000, 300), device="cuda", dtype=torch.int32)
    r = kgen.reduce(torch.utils.dlpack.to_dlpack(x), "sum", axis=1)
    c = cupy.from_dlpack(r)
    assert isinstance(c, cupy.ndarray) and c.shape == (1000,)
    assert torch.equal(torch.from_dlpack(c), x.sum(1, dtype=torch.int32))
    assert isinstance(cupy.asarray(r), cupy.ndarray)  # __cuda_array_interface__ too


def _jax():
    try:
        import jax
        jax.config.update("jax_enable_x64", True)
        return jax if jax.devices("gpu") else None
    except Exception:
        return None


jax = _jax()


@pytest.mark.skipif(jax is None, reason="no JAX with a GPU")
def test_jax_in_jax_out():
    import jax.numpy as jnp
    key = jax.random.PRNGKey(3)
    x = jax.random.normal(key, (777, 1025), dtype=jnp.float32)
    total = kgen.reduce(x)
    assert isinstance(total, jax.Array)
    assert abs(float(total) - float(jnp.sum(x.astype(jnp.float64)))) <= 1e-5 * float(jnp.sum(jnp.abs(x)))
    rows = kgen.reduce(x, "max", axis=1)
    assert isinstance(rows, jax.Array) and bool(jnp.array_equal(rows, jnp.max(x, axis=1)))
    am = kgen.reduce(x, "argmin", axis=0)
    assert bool(jnp.array_equal(am.indices, jnp.argmin(x, axis=0)))
    t = kgen.transpose(x)
    assert isinstance(t, jax.Array) and bool(jnp.array_equal(t, x.T))
    a = jax.random.normal(key, (64, 96), dtype=jnp.float32)
    b = jax.random.normal(key, (96, 80), dtype=jnp.float32)
    c = kgen.matmul(a, b)
    # The reference at full f32 precision: JAX's default lets the GPU use TF32.
    want = jnp.matmul(a, b, precision=jax.lax.Precision.HIGHEST)
    assert isinstance(c, jax.Array) and bool(jnp.allclose(c, want, rtol=1e-4, atol=1e-4))
    # Used by JAX right away, then dropped, many times: kgen's memory comes and goes in order.
    for _ in range(50):
        y = kgen.reduce(x, "sum", axis=0) * 2
    assert y.shape == (1025,)
    with pytest.raises(ValueError, match="out is read-only"):
        kgen.reduce(x, out=jnp.zeros((), jnp.float32))


@pytest.mark.skipif(jax is None, reason="no JAX with a GPU")
def test_kgens_array_into_jax_and_back():
    x = torch.randn(5000, device="cuda")
    r = kgen.reduce(torch.utils.dlpack.to_dlpack(x), "sumsq")
    j = jax.dlpack.from_dlpack(r)
    assert abs(float(j) - float(x.double().pow(2).sum())) <= 1e-5 * float(x.double().pow(2).sum())


def test_plans_on_this_gpu():
    from kgen import _plans
    x = torch.randn(100000, device="cuda")
    k = kgen.reduce_kernel(x)
    name = torch.cuda.get_device_name()
    shipped = os.path.join(TOP, "specs", "plans", "nvidia-h200", "sum-f32.yaml")
    mine = _plans.shipped("sum", "f32", name)  # this GPU model's own, where kgen ships one
    for model in ("H200", "H100"):  # all nine tuned on each
        if model in name.split():
            assert mine is not None and os.path.samefile(os.path.dirname(mine),
                                                         os.path.join(TOP, "specs", "plans", "nvidia-" + model.lower()))
    if mine is not None:
        assert k.plan is not None and os.path.samefile(k.plan, mine)
    else:
        assert k.plan is None
    # Any GPU of sm_90 takes the plan when asked; each size gives the sum.
    for n in (1, 1000, 100000, 3 * 10 ** 6):
        y = torch.randn(n, device="cuda")
        got = kgen.reduce(y, plan=shipped)
        assert abs(float(got) - float(y.double().sum())) <= 1e-5 * float(y.abs().sum()) + 1e-6
        assert abs(float(kgen.reduce(y)) - float(y.double().sum())) <= 1e-5 * float(y.abs().sum()) + 1e-6


@pytest.mark.parametrize("op", ["sum", "min", "max"])
@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16, torch.int32])
def test_each_shipped_plan_of_this_gpu(op, dtype):
    # Where kgen ships this GPU model's plan for op and dtype, a full
    # reduction takes it, and each entry's n gives torch's result.
    from kgen import _plans
    short = {torch.float32: "f32", torch.bfloat16: "bf16", torch.int32: "i32"}[dtype]
    mine = _plans.shipped(op, short, torch.cuda.get_device_name())
    if mine is None:
        pytest.skip("kgen ships no %s-%s plan for the %s" % (op, short, torch.cuda.get_device_name()))
    for n in (1, 1000, 70000, 3 * 10 ** 6, 2 ** 24 + 3):
        x = (torch.randint(-1000, 1000, (n,), device="cuda", dtype=torch.int32) if dtype == torch.int32
             else torch.randn(n, device="cuda").to(dtype))
        k = kgen.reduce_kernel(x, op)
        assert k.plan is not None and os.path.samefile(k.plan, mine)
        got = kgen.reduce(x, op)
        if op == "sum" and dtype == torch.int32:
            assert int(got) == int(x.long().sum()), (op, short, n)
        elif op == "sum":  # f32 accumulation; a bf16 result is rounded once more
            want = float(x.double().sum())
            tol = 1e-5 * float(x.double().abs().sum()) + (2.0 ** -7 if dtype == torch.bfloat16 else 0.0) * abs(want)
            assert abs(float(got) - want) <= tol + 1e-6, (op, short, n, float(got), want)
        else:
            want = x.min() if op == "min" else x.max()
            assert float(got) == float(want), (op, short, n)
