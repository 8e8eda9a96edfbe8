"""Size plans from Python against the fake driver ("Fake H200"): a full
reduction takes the shipped plan for its op and dtype on the GPU model
the plan was tuned on (each n the entry that serves it), plan=False the
default spec, plan= a caller's plan (checked against the call); a scan
its op's, mode's and dtype's plan; and
matmul's scratch for arrays of no framework comes from kgen, in order on
the call's stream."""
import ctypes
import glob
import os
import re

import pytest

import kgen
from kgen import _plans
from fakecuda import Device, counter, launches_since, mark, need_fake

need_fake()

TOP = os.environ.get("KGEN_TOP_SRCDIR", os.path.join(os.path.dirname(__file__), "..", ".."))


def plans_folder(tmp_path, monkeypatch, plans):
    """A folder of shipped plans of our own, {"nvidia-h100/sum-f32.yaml": GPU
    named in its header}, in place of the package's."""
    for rel, gpu in plans.items():
        p = tmp_path / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text("# %s|driver 13.0|kgen 0.1.0\nplan:\n  - spec: {kernel: reduce}\n" % gpu)
    monkeypatch.setattr(_plans, "directory", lambda: str(tmp_path))
    monkeypatch.setattr(_plans, "_shipped", {})


@pytest.mark.parametrize("name, folder", [
    ("NVIDIA H200", "nvidia-h200"), ("NVIDIA H100 80GB HBM3", "nvidia-h100"), ("NVIDIA A100-SXM4-80GB", "nvidia-a100"),
    ("NVIDIA GeForce RTX 4090", "nvidia-4090"), ("Fake H200", "nvidia-h200"), ("NVIDIA GH200 480GB", "nvidia-gh200"),
    ("Tesla", None), ("NVIDIA H1/00", None),
])
def test_a_gpus_plans_are_in_the_folder_of_its_model(name, folder, tmp_path, monkeypatch):
    # The model is the first word of the name with a digit in it, words cut at spaces and '-'.
    models = ("nvidia-h200", "nvidia-h100", "nvidia-a100", "nvidia-4090", "nvidia-gh200")
    plans_folder(tmp_path, monkeypatch, {m + "/sum-f32.yaml": name for m in models})
    got = _plans.shipped("sum", "f32", name)
    assert got == (str(tmp_path / folder / "sum-f32.yaml") if folder else None)


def test_every_shipped_plan_is_named_for_what_it_computes():
    paths = sorted(glob.glob(os.path.join(TOP, "specs", "plans", "*", "*-*.yaml")))
    assert paths and os.path.samefile(_plans.directory(), os.path.join(TOP, "specs", "plans"))
    for p in paths:
        op, dtype = os.path.basename(p)[:-5].split("-")
        k = kgen.Kernel(plan=p)
        # A reduction's plan is named for its op; a matmul plan by shape for its kernel; a scan's for its op and
        # mode (kgen._scan.plan_name).
        f = k.spec.fields
        named = f.get("op", f["kernel"])
        if f["kernel"] == "scan":
            named = "scan_%s%s" % (f["op"], "_exclusive" if f["mode"] == "exclusive" else "")
        assert (named, f["dtype"]) == (op, dtype), p
        # In the folder of the GPU model its header says it was tuned on: the plan that GPU takes.
        with open(p) as f:
            tuned = re.search(r"^#[ \t]*([^|\n]+?)[ \t]*\|driver ", f.read(), re.M).group(1)
        got = _plans.shipped(op, dtype, tuned)
        assert got is not None and os.path.samefile(got, p), (p, got)
        assert k.entries[-1][0] is None and all(u is not None for u, _ in k.entries[:-1])


def threads_of_launches(x, **kw):
    m = mark()
    kgen.reduce(x, **kw)
    return [l.block[0] for l in launches_since(m)], launches_since(m)


def test_a_full_reduction_takes_the_shipped_plan_on_its_gpu():
    plan = os.path.join(TOP, "specs", "plans", "nvidia-h200", "sum-f32.yaml")
    k = kgen.reduce_kernel(Device((1000,)))
    with open(plan) as f:
        entries = sum(1 for line in f if line.startswith("  - "))
    assert entries >= 2  # the plan has entries to tell apart
    assert os.path.samefile(k.plan, plan) and len(k.entries) == entries
    assert [u for u, _ in k.entries][-1] is None  # the last entry serves every larger n
    # Each n gets the entry that serves it: the plan's threads, launched as the entry says.
    for n in (1000, 100000, 10 ** 7):
        (upto, spec), = [(u, s) for u, s in k.entries if u is None or n <= u][:1]
        threads, calls = threads_of_launches(Device((n,)))
        assert set(threads) - {1} == {int(spec.fields["threads"])}, (n, threads)
        if spec.fields["launch"] == "pdl":
            assert calls[-1].dependent == 1
    assert kgen.reduce_kernel(Device((1000,), "<i4"), "max").plan.endswith("max-i32.yaml")
    # No plan: another op, another dtype, plan=False, a spec or an override.
    for kw in ({"op": "argmax"}, {"op": "mean"}, {"plan": False}, {"threads": 256},
               {"spec": {"kernel": "reduce", "threads": 128}}):
        assert kgen.reduce_kernel(Device((1000,)), **kw).plan is None, kw
    assert kgen.reduce_kernel(Device((1000,), "<f8")).plan is None
    assert kgen.reduce_kernel(Device((10, 100)), axis=1).plan is None


def test_a_plan_not_tuned_on_this_gpu_is_not_taken(tmp_path, monkeypatch):
    plans_folder(tmp_path, monkeypatch, {"nvidia-h200/sum-f32.yaml": "NVIDIA A100-SXM4-80GB"})
    assert _plans.shipped("sum", "f32", "Fake H200") is None
    plans_folder(tmp_path, monkeypatch, {"nvidia-h200/sum-f32.yaml": "NVIDIA H200"})
    assert _plans.shipped("sum", "f32", "Fake H200") == str(tmp_path / "nvidia-h200" / "sum-f32.yaml")
    assert _plans.shipped("argmax", "f32", "Fake H200") is None


def test_each_gpu_model_takes_its_own_folder(monkeypatch):
    # The H100 and the H200 each have their own plans; an A100 has no folder and an H100 no argmax
    # plan: their reductions take the default spec, though an H200 plan is there and its header would be read.
    monkeypatch.setattr(_plans, "_shipped", {})
    d = _plans.directory()
    assert _plans.shipped("sum", "f32", "NVIDIA H100 80GB HBM3") == os.path.join(d, "nvidia-h100", "sum-f32.yaml")
    assert _plans.shipped("min", "bf16", "NVIDIA H100 80GB HBM3") == os.path.join(d, "nvidia-h100", "min-bf16.yaml")
    assert _plans.shipped("max", "f32", "NVIDIA H100 80GB HBM3") == os.path.join(d, "nvidia-h100", "max-f32.yaml")
    assert _plans.shipped("argmax", "f32", "NVIDIA H100 80GB HBM3") is None
    assert _plans.shipped("sum", "f32", "NVIDIA A100-SXM4-80GB") is None
    assert _plans.shipped("sum", "f32", "NVIDIA H200") == os.path.join(d, "nvidia-h200", "sum-f32.yaml")
    assert _plans.shipped("max", "f32", "NVIDIA H200") == os.path.join(d, "nvidia-h200", "max-f32.yaml")


def test_a_callers_plan():
    text = ("plan:\n  - upto: 1000\n    spec: {kernel: reduce, op: min, threads: 128}\n"
            "  - spec: {kernel: reduce, op: min, threads: 1024}\n")
    assert threads_of_launches(Device((1000,)), op="min", plan=text)[0][-1] == 128
    assert threads_of_launches(Device((1001,)), op="min", plan=text)[0][-1] == 1024
    assert threads_of_launches(Device((5,)), plan=text)[0][-1] == 128  # op follows the plan
    with pytest.raises(TypeError, match="kgen.reduce: the plan reduces f32, the input is i32"):
        kgen.reduce(Device((10,), "<i4"), "min", plan=text)
    with pytest.raises(ValueError, match="kgen.reduce: the plan computes op min, not max"):
        kgen.reduce(Device((10,)), "max", plan=text)
    with pytest.raises(TypeError, match="a size plan is used as it is: pass plan= without spec= or overrides"):
        kgen.reduce(Device((10,)), "min", plan=text, threads=256)
    with pytest.raises(kgen.SpecError, match="<plan>:3:"):
        kgen.reduce(Device((10,)), plan="plan:\n  - upto: 1000\n    spec: {kernel: reduce, threads: 100}\n"
                                        "  - spec: {kernel: reduce}\n")
    k = kgen.Kernel(plan=text)
    assert repr(k).startswith("kgen.Kernel(plan <plan>, 2 entries")
    with pytest.raises(TypeError, match="pass plan= alone"):
        kgen.Kernel({"kernel": "reduce"}, plan=text)
    # An entry's spec is a Spec of its own: checked, generated, built and set again as any other.
    entry = k.spec
    assert kgen.check(entry).fields["threads"] == "128"
    assert "reduce_min_f32" in kgen.generate(entry)
    assert kgen.check(entry, threads=256).fields["threads"] == "256" and entry.fields["threads"] == "128"
    assert kgen.Kernel(entry).spec.fields["op"] == "min"
    assert threads_of_launches(Device((10,)), op="min", spec=entry, plan=False)[0][-1] == 128


def test_matmul_scratch_for_other_arrays_is_kgens_own():
    gc_live = counter("fake_cuda_async_allocs").value
    a, b = Device((64, 32)), Device((32, 48))
    r = kgen.matmul(a, b, stream=0x31, split_k=2)
    assert isinstance(r, kgen.DeviceArray) and r.shape == (64, 48)
    assert counter("fake_cuda_async_allocs").value == gc_live + 1  # the result; the scratch is freed
    drv = ctypes.CDLL("libcuda.so.1")
    assert ctypes.c_void_p.in_dll(drv, "fake_cuda_alloc_stream").value == 0x31
    assert ctypes.c_void_p.in_dll(drv, "fake_cuda_free_stream").value == 0x31


MATMUL_PLAN = """# Fake H200|driver 13.0|kgen 0.1.0
plan:
  - m_upto: 128
    n_upto: 2048
    spec: {kernel: matmul, dtype: f16, math: wgmma, producer: warpgroup, tile_m: 64, tile_n: 64, split_k: 4}
  - m_upto: 128
    spec: {kernel: matmul, dtype: f16, math: wgmma, producer: warpgroup, tile_m: 64, tile_n: 64, stages: 12}
  - spec: {kernel: matmul, dtype: f16, math: wgmma, producer: warpgroup, consumers: 2, tile_n: 256}
"""


def test_a_matmul_takes_the_shipped_plans_entry_for_its_shape(tmp_path, monkeypatch):
    # kgen.matmul without spec= of row-major f16 that TMA can load, on the GPU model of a shipped plan by
    # shape: each call the first entry whose bounds hold (the split kernel's clusters, the skinny kernel,
    # the large one); the same kernel (one build) for every shape.
    p = tmp_path / "nvidia-h200" / "matmul-f16.yaml"
    p.parent.mkdir(parents=True)
    p.write_text(MATMUL_PLAN)
    monkeypatch.setattr(_plans, "directory", lambda: str(tmp_path))
    monkeypatch.setattr(_plans, "_shipped", {})
    k = kgen.Kernel(plan=str(p))
    assert [u for u, _ in k.entries] == [{"m_upto": 128, "n_upto": 2048}, {"m_upto": 128}, None]
    for (m, n, kk), block, cluster in (((64, 1024, 4096), 256, 4), ((128, 2048, 64), 256, 4),
                                       ((1, 8192, 512), 256, 0), ((129, 1024, 256), 384, 0)):
        start = mark()
        kgen.matmul(Device((m, kk), "<f2"), Device((kk, n), "<f2"), out=Device((m, n), "<f2"))
        (call,) = launches_since(start)
        assert (call.name.decode(), call.block[0], call.cluster[0]) == ("matmul_wgmma_f16", block, cluster), (m, n, kk)
    # A layout the plan does not compute (B column-major) takes the best spec, as without a plan.
    start = mark()
    kgen.matmul(Device((64, 512), "<f2"), Device((512, 1024), "<f2", strides=(1, 512)), out=Device((64, 1024), "<f2"))
    (call,) = launches_since(start)
    assert (call.block[0], call.cluster[0]) == (384, 0)  # specs/matmul/best/wgmma_f16.yaml, not the split entry


@pytest.mark.parametrize("dt", ["<f2", "bf16"])
def test_the_shipped_matmul_plans_split_k_only_where_k_is_deep(dt):
    # The H200's plans split k 8 ways for m <= 64 at n <= 2048, tuned at k = 16384; a 64 x 64 x 64 call took that
    # entry too (a block one tile of k or none, scratch and a second kernel, and so never kgen.matmul's fast path
    # for torch tensors, which takes no scratch). k of at most 8 tiles now takes an unsplit entry: one launch.
    def array(r, c):
        return Device((r, c), dt) if dt != "bf16" else kgen.DeviceArray((r, c), "bf16", 0, 0)
    for (m, n, k), launches in (((64, 64, 64), 1), ((256, 2048, 512), 1), ((64, 1024, 16384), 2)):
        start = mark()
        kgen.matmul(array(m, k), array(k, n))
        names = [c.name.decode() for c in launches_since(start)]
        assert len(names) == launches and names[0].startswith("matmul_wgmma_"), ((m, n, k), names)


def test_a_scan_plan_may_mix_strategies(tmp_path, monkeypatch):
    """A small-n entry of strategy block (one block along the vector: no
    look-back, no scratch words) beside look-back entries, as
    bench/scan/small.space.yaml may choose: each n launches its entry's
    kernel and grid."""
    p = tmp_path / "nvidia-h200" / "scan_sum-f32.yaml"
    p.parent.mkdir(parents=True)
    p.write_text("# Fake H200|driver 13.0|kgen 0.1.0\nplan:\n"
                 "  - upto: 4096\n    spec: {kernel: scan, strategy: block, threads: 128, items_per_thread: 8}\n"
                 "  - spec: {kernel: scan, threads: 512, items_per_thread: 16}\n")
    monkeypatch.setattr(_plans, "directory", lambda: str(tmp_path))
    monkeypatch.setattr(_plans, "_shipped", {})
    for n, block, grid in ((1000, 128, (1, 1)), (4096, 128, (1, 1)), (10 ** 6, 512, (123, 1)), (4096, 128, (1, 1))):
        m = mark()
        kgen.cumsum(Device((n,)))
        assert [(c.block[0], c.grid[0], c.grid[1]) for c in launches_since(m)] == [(block,) + grid], n
    m = mark()
    kgen.cumsum(Device((3, 2000)), dim=-1)  # rows of 2000: the block entry, a block a row
    assert [(c.block[0], c.grid[0], c.grid[1]) for c in launches_since(m)] == [(128, 1, 3)]


def test_a_scan_takes_the_shipped_plan_of_its_op_mode_and_dtype(tmp_path, monkeypatch):
    """kgen.cumsum and kgen.scan without spec= or overrides take the shipped
    plan scan_<op>[_exclusive]-<dtype>.yaml of their GPU's model, each n (a
    row's length) the entry that serves it; another mode, op or dtype, an
    override and a scan down the columns take the default spec."""
    p = tmp_path / "nvidia-h200" / "scan_sum-f32.yaml"
    p.parent.mkdir(parents=True)
    p.write_text("# Fake H200|driver 13.0|kgen 0.1.0\nplan:\n"
                 "  - upto: 4096\n    spec: {kernel: scan, threads: 128, items_per_thread: 8}\n"
                 "  - spec: {kernel: scan, threads: 512, items_per_thread: 16}\n")
    monkeypatch.setattr(_plans, "directory", lambda: str(tmp_path))
    monkeypatch.setattr(_plans, "_shipped", {})
    for n, threads in ((1000, 128), (4096, 128), (4097, 512), (10 ** 6, 512)):
        m = mark()
        kgen.cumsum(Device((n,)))
        assert [c.block[0] for c in launches_since(m)] == [threads], n
    m = mark()
    kgen.cumsum(Device((3, 5000)), dim=-1)  # rows of 5000: the entry past 4096
    assert [c.block[0] for c in launches_since(m)] == [512]
    for call in (lambda: kgen.scan(Device((1000,)), exclusive=True), lambda: kgen.scan(Device((1000,)), "max"),
                 lambda: kgen.cumsum(Device((1000,), "<i4")), lambda: kgen.cumsum(Device((1000,)), threads=64),
                 lambda: kgen.cumsum(Device((1000, 3)), dim=0, axis="cols")):
        m = mark()
        call()
        assert all(c.block[0] in (64, 256) for c in launches_since(m)), [c.block[0] for c in launches_since(m)]
