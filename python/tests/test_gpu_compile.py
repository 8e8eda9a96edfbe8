"""kgen under torch.compile: kgen.reduce (every kind of result: one tensor,
argmax's pair, a matrix reduction), kgen.transpose and kgen.matmul are
torch custom ops (kgen::reduce, kgen::reduce_arg, kgen::transpose,
kgen::matmul), so a model calling them compiles with no graph break
(torch._dynamo.explain) and gives what the eager calls give, also with
mode="reduce-overhead" (CUDA graphs).  Skipped (visibly) without torch 2.4+
(torch.library.custom_op) and a GPU."""
import pytest

import kgen

torch = pytest.importorskip("torch")
if not torch.cuda.is_available():
    pytest.skip("no CUDA GPU for torch", allow_module_level=True)
if not hasattr(torch.library, "custom_op"):
    pytest.skip("torch %s has no torch.library.custom_op (2.4+)" % torch.__version__, allow_module_level=True)
# kgen came first (imported above, or by an earlier test module): its first torch tensor registers the ops, as
# docs/python.md tells a user to do before compiling.  Run alone, this file failed its first test without it.
kgen.reduce(torch.zeros(1, device="cuda"))


def model(x, w):
    s = kgen.reduce(x)                        # a 0-d tensor
    rows = kgen.reduce(x, "mean", axis=1)     # one per row
    best = kgen.reduce(x, "argmax", axis=0)   # values and indices
    y = kgen.matmul(x, w)                     # x @ w
    t = kgen.transpose(y)
    return s + rows.sum() + best.values.sum() + best.indices.sum() + t.sum() + kgen.reduce(y, "norm2")


def inputs():
    g = torch.Generator(device="cuda")
    g.manual_seed(7)
    return (torch.randn(256, 384, device="cuda", generator=g), torch.randn(384, 128, device="cuda", generator=g))


def test_the_ops_are_registered():
    for name in ("reduce", "reduce_arg", "transpose", "matmul", "scan"):
        assert hasattr(torch.ops.kgen, name), name


def test_no_graph_break():
    torch._dynamo.reset()
    x, w = inputs()
    explained = torch._dynamo.explain(model)(x, w)
    assert explained.graph_break_count == 0, explained.break_reasons
    assert explained.graph_count == 1


@pytest.mark.parametrize("mode", [None, "reduce-overhead"])
def test_compiled_equals_eager(mode):
    torch._dynamo.reset()
    x, w = inputs()
    want = model(x, w)
    compiled = torch.compile(model, fullgraph=True, mode=mode)
    for _ in range(3):  # reduce-overhead records a CUDA graph after warm-up runs, then replays it
        got = compiled(x, w)
    torch.cuda.synchronize()
    assert torch.allclose(got, want, rtol=1e-5, atol=1e-3), (got, want)


def test_fake_tensors_give_shapes_and_dtypes():
    from torch._subclasses.fake_tensor import FakeTensorMode
    with FakeTensorMode():
        x = torch.empty(10, 20, device="cuda", dtype=torch.int32)
        assert torch.ops.kgen.reduce(x, "mean", 1, "", "", "").dtype == torch.float64
        assert torch.ops.kgen.reduce(x, "count_nonzero", None, "", "", "").shape == ()
        v, i = torch.ops.kgen.reduce_arg(x, "argmax", 0, "", "", "")
        assert (v.shape, i.shape, i.dtype) == ((20,), (20,), torch.int64)
        assert torch.ops.kgen.transpose(x, "", "").shape == (20, 10)
        h = torch.empty(10, 20, device="cuda", dtype=torch.bfloat16)
        assert torch.ops.kgen.reduce(h, "sum", None, "", "", "").dtype == torch.float32
        assert torch.ops.kgen.matmul(h, h.t(), 1.0, "", "out_dtype=f32").dtype == torch.float32
        v = torch.empty(1000, device="cuda", dtype=torch.int32)
        assert torch.ops.kgen.scan(v, "sum", False, "", "acc_dtype=i64").dtype == torch.int64
        assert torch.ops.kgen.scan(h.flatten(), "max", True, "", "").shape == (200,)
