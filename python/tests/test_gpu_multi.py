"""kgen.reduce over a list of torch tensors, one a GPU, on the GPUs there
are (one GPU: a list of one, through NCCL all the same): full sums and
argmax (the lowest global index of the maximum, ties across GPUs), the
columns of a matrix whose rows are spread, root=.  Every element of every
result checked against torch on the concatenation.  Skipped (visibly)
without torch, a GPU or libnccl.so.2."""
import pytest

import kgen

torch = pytest.importorskip("torch")
if not torch.cuda.is_available():
    pytest.skip("no CUDA GPU for torch", allow_module_level=True)

GPUS = list(range(min(torch.cuda.device_count(), 4)))


@pytest.fixture(scope="module", autouse=True)
def nccl():
    try:
        kgen.reduce([torch.ones(4, device="cuda:%d" % g) for g in GPUS])
    except kgen.KgenError as e:
        if "libnccl" in str(e):
            pytest.skip("no NCCL: %s" % e)
        raise


def spread(sizes, make):
    return [make(n, "cuda:%d" % g) for g, n in zip(GPUS, sizes)]


def test_a_full_sum_is_the_concatenations_everywhere():
    parts = spread([1 << 20, 3 << 18, 12345, 7][:len(GPUS)], lambda n, d: torch.randn(n, device=d))
    want = float(torch.cat([p.double().cpu() for p in parts]).sum())
    for g, r in zip(GPUS, kgen.reduce(parts)):
        assert r.device == torch.device("cuda", g)
        assert abs(float(r) - want) < 1e-3 * max(1.0, abs(want)) ** 0.5


def test_argmax_takes_the_lowest_global_index():
    parts = spread([1000] * len(GPUS), lambda n, d: torch.zeros(n, device=d))
    parts[-1][5] = 3.0  # the maximum, on the last GPU
    if len(parts) > 1:
        parts[-2][999] = 3.0  # and a tie before it, on the one before
    whole = torch.cat([p.cpu() for p in parts])
    for r in kgen.reduce(parts, "argmax"):
        assert int(r.indices) == int(torch.argmax(whole)) and float(r.values) == 3.0


def test_nan_propagates_across_gpus():
    parts = spread([500] * len(GPUS), lambda n, d: torch.randn(n, device=d))
    parts[0][17] = float("nan")
    for r in kgen.reduce(parts, "argmax"):
        assert int(r.indices) == 17


def test_columns_of_rows_spread_over_gpus():
    parts = spread([4096, 1000, 3, 1][:len(GPUS)], lambda n, d: torch.randn(n, 256, device=d))
    want = torch.cat([p.double().cpu() for p in parts]).sum(0)
    for r in kgen.reduce(parts, axis=0):
        assert r.shape == (256,) and torch.allclose(r.double().cpu(), want, rtol=1e-4, atol=1e-3)


def test_root_alone():
    parts = spread([100] * len(GPUS), lambda n, d: torch.arange(n, device=d, dtype=torch.float32))
    r = kgen.reduce(parts, "max", root=len(GPUS) - 1)
    assert all(x is None for x in r[:-1]) and float(r[-1]) == 99.0
