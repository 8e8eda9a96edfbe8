"""kgen calls captured in CUDA graphs replay correctly: torch.cuda.graph
(results from torch's graph pool, argmax's two, a matrix reduction, a
shipped plan's kernels, a transpose) and CuPy's stream capture (into out=).
Each graph is replayed on new input values, copied into the captured
input.  A call that was not warmed up raises kgen.CaptureError and the
capture goes on; a row length whose lazily built kernel is first met in
a capture builds it there.  Skipped (visibly) without torch and a GPU."""
import pytest

import kgen

torch = pytest.importorskip("torch")
if not torch.cuda.is_available():
    pytest.skip("no CUDA GPU for torch", allow_module_level=True)


def warm(fn):
    """torch's advice for graphs: a few runs on a side stream first."""
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        for _ in range(3):
            fn()
    torch.cuda.current_stream().wait_stream(s)
    torch.cuda.synchronize()


def test_torch_graph_replays_reductions_and_a_transpose():
    x = torch.randn(4096, 1000, device="cuda")
    flat = torch.randn(2 ** 20 + 5, device="cuda")
    ints = torch.randint(-100, 100, (300000,), device="cuda", dtype=torch.int32)

    def step():
        return (kgen.reduce(flat), kgen.reduce(flat, "argmax"), kgen.reduce(x, "mean", axis=1),
                kgen.reduce(x, "max", axis=0), kgen.reduce(ints, "sum"), kgen.reduce(flat, "norm2"),
                kgen.transpose(x))

    warm(step)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        out = step()
    for _ in range(3):
        flat.copy_(torch.randn_like(flat))
        x.copy_(torch.randn_like(x))
        ints.copy_(torch.randint_like(ints, -100, 100))
        g.replay()
        torch.cuda.synchronize()
        total, arg, mean, colmax, isum, norm, t = out
        assert abs(float(total) - float(flat.double().sum())) <= 1e-5 * float(flat.abs().sum()) + 1e-3
        assert int(arg.indices) == int(torch.argmax(flat)) and float(arg.values) == float(flat.max())
        assert torch.allclose(mean.double(), x.double().mean(1), atol=1e-5)
        assert torch.equal(colmax, x.amax(0))
        assert int(isum) == int(ints.long().sum())
        assert abs(float(norm) - float(flat.double().norm())) <= 1e-5 * float(flat.double().norm())
        assert torch.equal(t, x.t())


def test_an_unwarmed_call_in_a_capture_is_refused():
    x = torch.randn(12345, device="cuda")
    g = torch.cuda.CUDAGraph()
    kgen.reduce(x, "sumsq")  # warmed
    with torch.cuda.graph(g):
        ok = kgen.reduce(x, "sumsq")
        with pytest.raises(kgen.CaptureError, match="build its kernel .* warm-up"):
            kgen.reduce(x, "sumsq", threads=128)  # another kernel, never built
    g.replay()
    torch.cuda.synchronize()
    assert abs(float(ok) - float(x.double().pow(2).sum())) <= 1e-5 * float(x.double().pow(2).sum())


def test_a_row_length_first_met_in_a_capture_builds_its_kernel():
    # strategy: auto's kernels are built lazily, one per row length class: a softmax warmed on rows of 1000
    # and captured on rows of 40000 (another kernel) compiles and loads that kernel during the capture
    # (NVRTC and a module load are no stream work), and the graph replays it.
    x1 = torch.randn(64, 1000, device="cuda", dtype=torch.bfloat16)
    x2 = torch.randn(64, 40000, device="cuda", dtype=torch.bfloat16)
    warm(lambda: kgen.softmax(x1))
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = kgen.softmax(x2)
    for _ in range(2):
        x2.copy_(torch.randn_like(x2))
        y.fill_(float("nan"))
        g.replay()
        torch.cuda.synchronize()
        assert torch.allclose(y.float(), torch.softmax(x2.float(), -1), atol=1e-5, rtol=1e-2)


try:
    import cupy
except ImportError:
    cupy = None


@pytest.mark.skipif(cupy is None, reason="no CuPy")
def test_cupy_graph_replays_into_out():
    x = cupy.random.standard_normal((2048, 513), dtype=cupy.float32)
    rows = cupy.empty((2048,), dtype=cupy.float32)
    total = cupy.empty((), dtype=cupy.float32)
    v, i = cupy.empty((), dtype=cupy.float32), cupy.empty((), dtype=cupy.int64)
    s = cupy.cuda.Stream(non_blocking=True)
    with s:
        kgen.reduce(x, axis=1, out=rows)
        kgen.reduce(x, out=total)
        kgen.reduce(x, "argmin", out=(v, i))
        s.begin_capture()
        kgen.reduce(x, axis=1, out=rows)
        kgen.reduce(x, out=total)
        kgen.reduce(x, "argmin", out=(v, i))
        graph = s.end_capture()
    for _ in range(2):
        x[...] = cupy.random.standard_normal((2048, 513), dtype=cupy.float32)
        cupy.cuda.Device().synchronize()
        graph.launch(s)
        s.synchronize()
        assert float(cupy.abs(rows - x.astype(cupy.float64).sum(axis=1)).max()) < 1e-3
        assert abs(float(total) - float(x.astype(cupy.float64).sum())) < 1e-5 * float(cupy.abs(x).sum()) + 1e-3
        assert int(i) == int(cupy.argmin(x)) and float(v) == float(x.min())
