"""The row functions on the GPU (kgen.softmax, kgen.log_softmax,
kgen.rms_norm, kgen.layer_norm, kgen.cross_entropy) against torch in
float64 on the same data: every op and dtype, rows of every length the
strategy: auto kernels take (warp, block, online, and staged on sm_90), padded rows, out= and
in place, f32 weights beside 16-bit rows, cross_entropy's ignored and
out-of-range labels and its reductions; under torch.compile (no graph
break, compiled equals eager) and a CUDA graph; CuPy and JAX arrays where
they are installed.  Skipped (visibly) without torch and a GPU.

Each element within atol + rtol |ref|: rtol twice the output type's unit
roundoff (its rounding) plus 2^-14, atol 1e-4 (the f32 statistics'
rounding: a row's sums are over up to 2^17 elements)."""
import pytest

import kgen

torch = pytest.importorskip("torch")
if not torch.cuda.is_available():
    pytest.skip("no CUDA GPU for torch", allow_module_level=True)
F = torch.nn.functional

DTYPES = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}
UNIT = {torch.float32: 2.0 ** -24, torch.float16: 2.0 ** -11, torch.bfloat16: 2.0 ** -8}
OPS = ("softmax", "log_softmax", "rms_norm", "layer_norm", "cross_entropy")
# Rows for auto's warp kernels (7, 100), its block (or on sm_90 staged) kernels (1000, 4096, 12000) and its
# online (on sm_90 cluster) kernels (40000, 131072).
SHAPES = [(1, 7), (300, 100), (257, 1000), (64, 4096), (3, 5, 77), (16, 12000), (8, 40000), (2, 131072)]
EPS = {"rms_norm": 1e-6, "layer_norm": 1e-5}


@pytest.fixture
def gen():
    g = torch.Generator(device="cuda")
    g.manual_seed(20261202)
    return g


def inputs(op, shape, dt, gen, wdt=None):
    """x (3 x normal: softmax's rows spread), weight and bias near 1 and 0, labels with every 7th row ignored."""
    x = (3 * torch.randn(shape, generator=gen, device="cuda")).to(dt)
    cols = shape[-1]
    w = (1 + 0.25 * torch.randn(cols, generator=gen, device="cuda")).to(wdt or dt)
    b = (0.25 * torch.randn(cols, generator=gen, device="cuda")).to(wdt or dt)
    labels = torch.randint(0, cols, shape[:-1], generator=gen, device="cuda")
    labels.view(-1)[::7] = -100
    return x, w, b, labels


def call(op, x, w, b, labels, **kw):
    if op in ("softmax", "log_softmax"):
        return getattr(kgen, op)(x, **kw)
    if op == "rms_norm":
        return kgen.rms_norm(x, w, eps=EPS[op], **kw)
    if op == "layer_norm":
        return kgen.layer_norm(x, w, b, eps=EPS[op], **kw)
    return kgen.cross_entropy(x, labels, **kw)


def reference(op, x, w, b, labels):
    d = x.double()
    if op == "softmax":
        return torch.softmax(d, -1)
    if op == "log_softmax":
        return torch.log_softmax(d, -1)
    if op == "rms_norm":
        return d * torch.rsqrt((d * d).mean(-1, keepdim=True) + EPS[op]) * w.double()
    if op == "layer_norm":
        return F.layer_norm(d, d.shape[-1:], w.double(), b.double(), EPS[op])
    cols = d.shape[-1]
    return F.cross_entropy(d.reshape(-1, cols), labels.reshape(-1), ignore_index=-100,
                           reduction="none").reshape(labels.shape)


def close(got, ref, what):
    rtol = 2 * UNIT[got.dtype] + 2.0 ** -14
    err = (got.double() - ref).abs()
    bound = 1e-4 + rtol * ref.abs()
    bad = ~(err <= bound)  # NaN counts as bad
    assert not bad.any(), "%s: %d elements off, worst %g at %s (got %s, want %s)" % (
        what, int(bad.sum()), float(err.nan_to_num(float("inf")).max()), tuple(bad.nonzero()[0].tolist()),
        float(got.reshape(-1)[bad.reshape(-1).nonzero()[0]].item()),
        float(ref.reshape(-1)[bad.reshape(-1).nonzero()[0]].item()))


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s)))
@pytest.mark.parametrize("dtype", list(DTYPES))
@pytest.mark.parametrize("op", OPS)
def test_every_op_dtype_and_row_length(op, dtype, shape, gen):
    x, w, b, labels = inputs(op, shape, DTYPES[dtype], gen)
    got = call(op, x, w, b, labels)
    want_shape = shape[:-1] if op == "cross_entropy" else shape
    assert got.shape == want_shape and got.dtype == DTYPES[dtype]
    close(got, reference(op, x, w, b, labels), "%s %s %s" % (op, dtype, shape))


@pytest.mark.parametrize("dtype", list(DTYPES))
@pytest.mark.parametrize("op", ["softmax", "log_softmax", "rms_norm", "layer_norm"])
def test_rows_of_exactly_a_warp_kernels_loads(op, dtype, gen):
    """Rows that fill auto's warp kernels exactly (256 and 512 elements; 128
    of f32) take their path without bounds, where x, y, the weight and the
    bias keep whole vectors aligned: an odd row count (a last block of
    fewer rows), into out= poisoned with NaN, without the weights, with f32
    weights beside 16-bit rows, and rows whose pitch keeps the vectors
    aligned; rows off them (pitch + 3, x one element in) take the other."""
    dt = DTYPES[dtype]
    for cols in (128, 256, 512):
        x, w, b, labels = inputs(op, (333, cols), dt, gen)
        out = torch.full((333, cols), float("nan"), device="cuda", dtype=dt)
        assert call(op, x, w, b, labels, out=out) is out
        close(out, reference(op, x, w, b, labels), "%s %s %d columns" % (op, dtype, cols))
        if op in ("rms_norm", "layer_norm"):
            ones, zeros = torch.ones_like(w), torch.zeros_like(b)
            got = kgen.rms_norm(x, eps=EPS[op]) if op == "rms_norm" else kgen.layer_norm(x, eps=EPS[op])
            close(got, reference(op, x, ones, zeros, labels), "%s %s %d columns without weights" % (op, dtype, cols))
            w32, b32 = w.float(), b.float()
            close(call(op, x, w32, b32, labels), reference(op, x, w32, b32, labels),
                  "%s %s %d columns, f32 weights" % (op, dtype, cols))
        for extra, start in ((8, 0), (3, 0), (8, 1)):
            big, w, b, labels = inputs(op, (333, cols + extra), dt, gen)
            x = big[:, start:start + cols]
            w, b = w[:cols].contiguous(), b[:cols].contiguous()
            close(call(op, x, w, b, labels), reference(op, x, w, b, labels),
                  "%s %s %d columns, pitch %d, from element %d" % (op, dtype, cols, cols + extra, start))


@pytest.mark.parametrize("cols", [20000, 40001, 100000, 200000, 262144, 393216])
@pytest.mark.parametrize("dtype", list(DTYPES))
@pytest.mark.parametrize("op", ["softmax", "log_softmax", "rms_norm", "layer_norm"])
def test_long_rows_with_uneven_parts(op, dtype, cols, gen):
    """Long rows (auto's clusters on sm_90: a row over several blocks; f32
    past 262144 the online kernel) whose parts differ: -inf over the
    first or the last three quarters of a row (parts of -inf alone), a row
    of -inf but one element, every other element -inf; for the norms an
    element 1000 standard deviations out at either end (which the variance
    must not lose), rows far from 0 (a mean of 1000) and rows constant over
    three quarters.  Each length fills part of what its kernel holds but
    262144 (and f32's 393216, which takes the online kernel)."""
    dt = DTYPES[dtype]
    x, w, b, labels = inputs(op, (8, cols), dt, gen)
    q = 3 * cols // 4
    if op in ("rms_norm", "layer_norm"):
        x[0, 0] = 3000.0
        x[1, -1] = -3000.0
        x[2] += 1000.0
        x[3, :q] = 50.0
    else:
        x[0, :q] = float("-inf")
        x[1, cols - q:] = float("-inf")
        x[2] = float("-inf")
        x[2, cols // 2] = 1.0
        x[3, 1::2] = float("-inf")
    got = call(op, x, w, b, labels)
    want = reference(op, x, w, b, labels)
    if op == "log_softmax":  # -inf where x is -inf, exactly
        gone = torch.isinf(want)
        assert torch.equal(torch.isinf(got) & (got < 0), gone), "%s %s %d: -inf elements" % (op, dtype, cols)
        got, want = got.masked_fill(gone, 0), want.masked_fill(gone, 0)
    close(got, want, "%s %s %d columns, uneven parts" % (op, dtype, cols))


@pytest.mark.parametrize("op", OPS)
def test_every_element_is_written_into_out(op, gen):
    # out= poisoned with NaN first, its rows padded (for the ops that write rows).
    x, w, b, labels = inputs(op, (100, 3000), torch.bfloat16, gen)
    if op == "cross_entropy":
        out = torch.full((100,), float("nan"), device="cuda", dtype=torch.float32)
    else:
        out = torch.full((100, 3200), float("nan"), device="cuda", dtype=torch.float32)[:, :3000]
    assert call(op, x, w, b, labels, out=out) is out
    close(out, reference(op, x, w, b, labels), op + " into out (f32 from bf16)")


@pytest.mark.parametrize("op", ["softmax", "log_softmax", "rms_norm", "layer_norm"])
def test_padded_rows_and_in_place(op, gen):
    big, w, b, labels = inputs(op, (64, 5000), torch.float16, gen)
    x = big[:, :4000]
    w, b = w[:4000].contiguous(), b[:4000].contiguous()
    close(call(op, x, w, b, labels), reference(op, x, w, b, labels), op + " of padded rows")
    want = reference(op, x, w, b, labels)
    assert call(op, x, w, b, labels, out=x) is x
    close(x, want, op + " in place")


@pytest.mark.parametrize("op", ["rms_norm", "layer_norm"])
def test_f32_weights_beside_16_bit_rows(op, gen):
    x, w, b, labels = inputs(op, (128, 4096), torch.bfloat16, gen, wdt=torch.float32)
    got = call(op, x, w, b, labels)
    assert got.dtype == torch.bfloat16
    close(got, reference(op, x, w, b, labels), op + " bf16 with f32 weights")
    close(call(op, x, None, None, labels) if op == "rms_norm" else kgen.layer_norm(x),
          reference(op, x, torch.ones_like(w), torch.zeros_like(b), labels), op + " without weights")


def test_cross_entropy_labels_and_reductions(gen):
    x, _, _, labels = inputs("cross_entropy", (1000, 5000), torch.bfloat16, gen)
    labels[1] = 7  # for ignore_index=7 below
    labels32 = labels.to(torch.int32)
    close(kgen.cross_entropy(x, labels32), reference("cross_entropy", x, None, None, labels), "int32 labels")
    bad = labels.clone()
    bad[3], bad[4] = 5000, -1  # outside 0..cols-1: NaN (torch asserts)
    loss = kgen.cross_entropy(x, bad)
    assert torch.isnan(loss[3]) and torch.isnan(loss[4]) and not torch.isnan(loss[5:]).any()
    assert (loss[::7] == 0).all()  # ignored rows
    ref = reference("cross_entropy", x, None, None, labels)
    for reduction in ("sum", "mean"):
        got = kgen.cross_entropy(x, labels, reduction=reduction)
        want = F.cross_entropy(x.double(), labels, ignore_index=-100, reduction=reduction)
        assert got.shape == () and got.dtype == torch.bfloat16
        # Each loss rounded to bf16, their sum in f32, rounded again: within 2 roundings and the f32 sums'.
        assert abs(float(got) - float(want)) <= 3 * UNIT[torch.bfloat16] * abs(float(want)) + 1e-3, reduction
    seven = kgen.cross_entropy(x, labels, ignore_index=7)  # -100 is then a label outside 0..cols-1
    kept = (labels != 7) & (labels != -100)
    close(seven[kept], ref[kept], "ignore_index=7")
    assert (seven[labels == 7] == 0).all() and torch.isnan(seven[labels == -100]).all()
    side = torch.cuda.Stream()  # stream=: the losses and their mean on it
    side.wait_stream(torch.cuda.current_stream())
    got = kgen.cross_entropy(x, labels, reduction="mean", stream=side)
    side.synchronize()
    assert float(got) == float(kgen.cross_entropy(x, labels, reduction="mean"))
    every = torch.full_like(labels, -100)
    assert torch.isnan(kgen.cross_entropy(x, every, reduction="mean"))  # 0 / 0, as torch


def test_the_fast_path_gives_what_the_first_call_gave(gen):
    """Calls of torch tensors of one layout after the first take kgen._fast.rows
    and kgen._fast.cross_entropy (where the package has them): new values,
    a new result each, eps and ignore_index as given; a call without the
    weight is a layout of its own."""
    from kgen import _lib, _rows
    for op in OPS:
        x, w, b, labels = inputs(op, (140, 4096), torch.bfloat16, gen)
        for _ in range(3):
            x.copy_((3 * torch.randn(x.shape, generator=gen, device="cuda")).to(x.dtype))
            y = call(op, x, w, b, labels)
            close(y, reference(op, x, w, b, labels), op)
        if _lib.fast is not None and _rows._fast_rows is not None:
            assert any(key[0] == op for key in _rows._ready_fast), op
    x, w, _, _ = inputs("rms_norm", (33, 1000), torch.float32, gen)
    for eps, weight in ((1e-6, w), (0.5, w), (0.5, None), (0.25, None)):
        d = x.double()
        want = d * torch.rsqrt((d * d).mean(-1, keepdim=True) + eps) * (1 if weight is None else weight.double())
        close(kgen.rms_norm(x, weight, eps=eps), want, "rms_norm eps %g" % eps)
    with pytest.raises(ValueError, match="eps must be finite and not negative"):
        kgen.rms_norm(x, w, eps=-1.0)
    logits, _, _, labels = inputs("cross_entropy", (50, 300), torch.float32, gen)
    labels = labels.clamp(min=0)  # in range for torch, whatever the ignored one
    for ignore in (-100, 3, 7):
        want = F.cross_entropy(logits.double(), labels, ignore_index=ignore, reduction="none")
        close(kgen.cross_entropy(logits, labels, ignore_index=ignore), want, "cross_entropy ignoring %d" % ignore)


def test_under_a_cuda_graph(gen):
    x, w, _, _ = inputs("rms_norm", (140, 4096), torch.bfloat16, gen)
    out = torch.empty_like(x)
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        kgen.rms_norm(x, w, out=out)  # warm-up: builds the kernel
    torch.cuda.current_stream().wait_stream(s)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        kgen.rms_norm(x, w, out=out)
    out.fill_(float("nan"))
    x.copy_(torch.randn(x.shape, generator=gen, device="cuda").to(x.dtype))
    g.replay()
    torch.cuda.synchronize()
    close(out, reference("rms_norm", x, w, None, None), "rms_norm replayed")


def model(x, w, b, labels):
    y = kgen.softmax(x) + kgen.log_softmax(x)
    y = kgen.rms_norm(y, w) + kgen.layer_norm(x, w, b)
    return y, kgen.cross_entropy(x, labels, reduction="mean"), kgen.cross_entropy(x, labels)


@pytest.mark.skipif(not hasattr(torch.library, "custom_op"), reason="torch.library.custom_op needs torch 2.4+")
def test_under_torch_compile(gen):
    for name in OPS:
        assert hasattr(torch.ops.kgen, name), name
    x, w, b, labels = inputs("layer_norm", (64, 1000), torch.float32, gen)
    torch._dynamo.reset()
    explained = torch._dynamo.explain(model)(x, w, b, labels)
    assert explained.graph_break_count == 0, explained.break_reasons
    torch._dynamo.reset()
    compiled = torch.compile(model)
    for got, want in zip(compiled(x, w, b, labels), model(x, w, b, labels)):
        assert got.shape == want.shape and got.dtype == want.dtype
        assert torch.allclose(got, want, rtol=1e-6, atol=1e-6), (got, want)


def test_cupy_arrays(gen):
    cupy = pytest.importorskip("cupy")
    x = cupy.asarray(torch.randn(100, 2000, generator=gen, device="cuda").cpu().numpy())
    got = kgen.softmax(x)
    assert isinstance(got, cupy.ndarray) and got.dtype == cupy.float32
    close(torch.as_tensor(got, device="cuda"), torch.softmax(torch.as_tensor(x, device="cuda").double(), -1),
          "softmax of a CuPy array")
    labels = cupy.arange(100, dtype=cupy.int64) % 2000
    mean = kgen.cross_entropy(x, labels, reduction="mean")
    want = F.cross_entropy(torch.as_tensor(x, device="cuda").double(), torch.as_tensor(labels, device="cuda"))
    assert abs(float(mean) - float(want)) <= 1e-4 * abs(float(want)) + 1e-4


def test_jax_arrays(gen):
    jax = pytest.importorskip("jax")
    jnp = pytest.importorskip("jax.numpy")
    if not any(d.platform == "gpu" for d in jax.devices()):
        pytest.skip("JAX sees no GPU")
    host = torch.randn(64, 3000, generator=gen, device="cuda").cpu().numpy()
    x = jnp.asarray(host, dtype=jnp.bfloat16)
    w = jnp.ones((3000,), dtype=jnp.bfloat16)
    got = kgen.rms_norm(x, w)
    assert isinstance(got, jax.Array) and got.dtype == jnp.bfloat16
    t = torch.from_dlpack(x)
    close(torch.from_dlpack(got), reference("rms_norm", t, torch.ones(3000, device="cuda"), None, None),
          "rms_norm of a JAX array")
