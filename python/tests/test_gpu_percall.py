"""What a kgen.reduce call costs the host, held to torch's: a call on a
1024-element f32 tensor (a new result, and into out=) and the row sums of
a 1000 x 3001 matrix, each timed back to back (2000 calls, host time per
call, median of 5) alternately with the same torch call in this process.
The package's goal is torch's cost or less; a call more than 2 us over
torch's fails (a regression of the cached fast path, _reduce._ready and
_Launch).  bench/python-overhead/vs_torch.py gives the figures.  Skipped
(visibly) without torch and a GPU."""
import time

import pytest

import kgen

torch = pytest.importorskip("torch")
if not torch.cuda.is_available():
    pytest.skip("no CUDA GPU for torch", allow_module_level=True)

SLACK_US = 2.0
CALLS, REPS = 2000, 5


def host_us(call):
    """The host time per call of CALLS back-to-back calls."""
    t0 = time.perf_counter()
    for _ in range(CALLS):
        call()
    t1 = time.perf_counter()
    torch.cuda.synchronize()
    return (t1 - t0) / CALLS * 1e6


def compare(ours, theirs):
    for _ in range(200):
        ours()
        theirs()
    torch.cuda.synchronize()
    a, b = [], []
    for _ in range(REPS):
        a.append(host_us(ours))
        b.append(host_us(theirs))
    return sorted(a)[REPS // 2], sorted(b)[REPS // 2]


v = None


def setup_module():
    global v, m
    g = torch.Generator(device="cuda").manual_seed(11)
    v = torch.randn(1024, device="cuda", generator=g)
    m = torch.randn(1000, 3001, device="cuda", generator=g)


def test_a_vector_sum_costs_what_torch_sum_costs():
    assert abs(float(kgen.reduce(v)) - float(v.double().sum())) < 1e-3
    k, t = compare(lambda: kgen.reduce(v), lambda: torch.sum(v))
    assert k <= t + SLACK_US, "kgen.reduce %.2f us a call, torch.sum %.2f us" % (k, t)


def test_out_costs_what_torch_sum_out_costs():
    r, q = torch.empty((), device="cuda"), torch.empty((), device="cuda")
    k, t = compare(lambda: kgen.reduce(v, out=r), lambda: torch.sum(v, 0, out=q))
    assert abs(float(r) - float(q)) < 1e-3
    assert k <= t + SLACK_US, "kgen.reduce(out=) %.2f us a call, torch.sum(out=) %.2f us" % (k, t)


def test_row_sums_cost_what_torch_sum_costs():
    got = kgen.reduce(m, axis=1)
    assert torch.allclose(got, m.sum(1), rtol=1e-4, atol=1e-3)
    k, t = compare(lambda: kgen.reduce(m, axis=1), lambda: torch.sum(m, 1))
    assert k <= t + SLACK_US, "kgen.reduce(axis=1) %.2f us a call, torch.sum(dim=1) %.2f us" % (k, t)


def test_the_fast_path_gives_what_the_first_call_gave():
    """The second and later calls on a torch tensor of a shape take the fast
    path (_reduce._ready_torch): new values, new results; out= checked."""
    x = torch.randn(3000, device="cuda")
    rows = torch.randn(70, 129, device="cuda")
    for _ in range(3):
        x.normal_()
        rows.normal_()
        assert abs(float(kgen.reduce(x)) - float(x.double().sum())) < 1e-3
        r = kgen.reduce(x, "argmax")
        assert int(r.indices) == int(torch.argmax(x)) and float(r.values) == float(x.max())
        assert torch.allclose(kgen.reduce(rows, axis=1), rows.sum(1), rtol=1e-4, atol=1e-4)
        assert torch.allclose(kgen.reduce(rows, "max", axis=0), rows.max(0).values)
        out = torch.full((70,), float("nan"), device="cuda")
        assert kgen.reduce(rows, axis=-1, out=out) is out
        assert torch.allclose(out, rows.sum(1), rtol=1e-4, atol=1e-4)
    with pytest.raises(ValueError, match="out must be a contiguous f32 array of shape"):
        kgen.reduce(rows, axis=1, out=torch.empty(70, device="cuda", dtype=torch.float64))
    with pytest.raises(ValueError, match="out must be a contiguous f32 array of shape"):
        kgen.reduce(rows, axis=1, out=torch.empty(71, device="cuda"))
    with pytest.raises(ValueError, match="out must be a contiguous f32 array of shape"):
        kgen.reduce(rows, axis=1, out=torch.empty(140, device="cuda")[::2])
