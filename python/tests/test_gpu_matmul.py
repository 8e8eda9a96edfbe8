"""kgen.matmul on the GPU against torch.matmul in float64: every dtype, both
layouts of each operand (row-major, and a transposed view read without a
copy), alpha and beta, odd shapes, padded rows, out=, a ReLU epilogue and
kgen's activations (gelu, gelu_tanh, silu, sigmoid) as epilogues, the
epilogue's operands (bias by column or row, a padded residual, in every
kernel kind), a
Kernel called directly, and CuPy arrays.  Without spec= the kernels are
kgen's best specs (specs/matmul/best/): mma.sync for 16-bit operands of
odd shapes, and on an H100 or H200 wgmma for ones TMA can load (16-byte
rows), which test_16_bit_operands_with_16_byte_rows gives it.  Each element within the bound of
a K-term dot product: (K + 2) u_acc (|alpha| sum_k |a b| + |beta c|) + u_out
|ref| (u: unit roundoff; the accumulator is f32 for f32, f16 and bf16, f64
for f64).  Skipped (visibly) without torch, a GPU, or a libkgen with the
matmul family."""
import math

import pytest

import kgen
from kgen import _kernel, _lib, _matmul

torch = pytest.importorskip("torch")
if not torch.cuda.is_available():
    pytest.skip("no CUDA GPU for torch", allow_module_level=True)
if _lib.kgen_matmul is None:
    pytest.skip("this libkgen has no kgen_matmul (the matmul family)", allow_module_level=True)

DTYPES = {"f32": torch.float32, "f64": torch.float64, "f16": torch.float16, "bf16": torch.bfloat16}
UNIT = {"f32": 2.0 ** -24, "f64": 2.0 ** -53, "f16": 2.0 ** -11, "bf16": 2.0 ** -8}
SHAPES = [(1, 1, 1), (7, 5, 3), (127, 255, 63)]  # M, N, K
# The ReLU as a spec's epilogue: an expression of v (the accumulated, scaled value).
RELU = "v > 0 ? v : 0"


@pytest.fixture
def gen():
    g = torch.Generator(device="cuda")
    g.manual_seed(20261124)
    return g


def operand(rows, cols, dt, layout, gen):
    """A rows x cols matrix of dtype dt, uniform in [-1, 1), row-major or a
    transposed view of a row-major cols x rows one (strides (1, rows))."""
    shape = (rows, cols) if layout == "row" else (cols, rows)
    x = (torch.rand(shape, generator=gen, device="cuda") * 2 - 1).to(DTYPES[dt])
    return x if layout == "row" else x.t()


def expect(a, b, alpha=1.0, beta=0.0, c0=None, relu=False):
    """alpha a @ b + beta c0 (then ReLU) in float64 with torch.matmul, and each element's bound."""
    a64, b64 = a.double(), b.double()
    ref = alpha * torch.matmul(a64, b64)
    mag = abs(alpha) * torch.matmul(a64.abs(), b64.abs())
    if c0 is not None and beta != 0:
        ref = ref + beta * c0.double()
        mag = mag + abs(beta) * c0.double().abs()
    if relu:
        ref = ref.clamp_min(0)
    return ref, mag


def close(got, a, b, dt, out_dt=None, **kw):
    ref, mag = expect(a, b, **kw)
    k = a.shape[1]
    u_acc = UNIT["f64"] if dt == "f64" else UNIT["f32"]
    bound = (k + 2) * u_acc * mag + UNIT[out_dt or dt] * ref.abs() + 1e-300
    err = (got.double() - ref).abs()
    assert torch.all(err <= bound), ("worst error over its bound", (err / bound).max().item())


@pytest.mark.parametrize("dt", list(DTYPES))
@pytest.mark.parametrize("la", ["row", "col"])
@pytest.mark.parametrize("lb", ["row", "col"])
@pytest.mark.parametrize("m, n, k", SHAPES)
def test_alpha_and_beta_in_every_dtype_and_layout(dt, la, lb, m, n, k, gen):
    a, b = operand(m, k, dt, la, gen), operand(k, n, dt, lb, gen)
    c0 = operand(m, n, dt, "row", gen)
    out = c0.clone()
    got = kgen.matmul(a, b, out=out, alpha=1.5, beta=-0.5)
    assert got is out
    close(out, a, b, dt, alpha=1.5, beta=-0.5, c0=c0)


@pytest.mark.parametrize("dt", ["f16", "bf16"])
@pytest.mark.parametrize("la", ["row", "col"])
@pytest.mark.parametrize("lb", ["row", "col"])
@pytest.mark.parametrize("m, n, k", [(200, 264, 136), (256, 512, 1024)])
def test_16_bit_operands_with_16_byte_rows(dt, la, lb, m, n, k, gen):
    # Every leading dimension (m, n or k elements) a multiple of 8: the default is wgmma on sm_90, mma elsewhere;
    # 200 x 264 is not a whole number of either's tiles.
    a, b = operand(m, k, dt, la, gen), operand(k, n, dt, lb, gen)
    c0 = operand(m, n, dt, "row", gen)
    cc = _kernel.compute_capability(a.device.index or 0)
    path = _matmul._chosen(dt, cc, la, lb)[0]
    want = "wgmma_%s.yaml" if cc == (9, 0) else "mma_%s.yaml"
    assert path is not None and path.endswith(want % dt), path  # a best spec found, not the family's fallback
    close(kgen.matmul(a, b), a, b, dt)
    out = c0.clone()
    kgen.matmul(a, b, out=out, alpha=0.75, beta=0.25, epilogue=RELU)
    close(out, a, b, dt, alpha=0.75, beta=0.25, c0=c0, relu=True)
    close(kgen.matmul(a, b, spec={"kernel": "matmul"}), a, b, dt)  # the family's defaults, the default before


@pytest.mark.parametrize("dt", ["f16", "bf16"])
def test_deep_k_with_few_tiles_shares_k_out(dt, gen):
    # 256 x 256 x 32768: a few tiles and deep k, so the default is mma_<dt>.yaml with schedule: stream_k (every
    # block of the GPU shares the tiles' k tiles); its tiles are split between blocks, whose sums add in scratch.
    a, b = operand(256, 32768, dt, "row", gen), operand(32768, 256, dt, "col", gen)
    c0 = operand(256, 256, dt, "row", gen)
    dev = a.device.index or 0
    c = _matmul._matmul_call("kgen.matmul", kgen.describe(a), kgen.describe(b), None, 1.0, 0.0)
    fields = {"dtype": dt, "a_layout": "row", "b_layout": "col"}
    # As kgen.matmul chooses (since 0cff263 the deep-k rule follows
    # _default_choice, asking the best spec's built kernel for its occupancy).
    best = _matmul._default_choice(c, fields, {}, dev)
    resident = _kernel.sm_count(dev) * kgen.Kernel(best[0], device=dev, **dict(best[1], **fields)).blocks_per_sm
    path, extra, _ = _matmul._deep_k_choice(best, dt, 256, 256, 32768, lambda: resident)
    assert resident > 0 and best[0].endswith("wgmma_%s.yaml" % dt), (best, resident)
    assert path.endswith("mma_%s.yaml" % dt) and extra == {"schedule": "stream_k"}, (path, extra)
    close(kgen.matmul(a, b), a, b, dt)
    out = c0.clone()
    kgen.matmul(a, b, out=out, alpha=0.75, beta=0.25, epilogue=RELU)
    close(out, a, b, dt, alpha=0.75, beta=0.25, c0=c0, relu=True)


@pytest.mark.parametrize("dt", list(DTYPES))
def test_a_new_result_is_row_major_of_the_inputs_type(dt, gen):
    a, b = operand(127, 63, dt, "col", gen), operand(63, 255, dt, "row", gen)
    c = kgen.matmul(a, b)
    assert c.shape == (127, 255) and c.dtype == DTYPES[dt] and c.is_contiguous() and c.device == a.device
    close(c, a, b, dt)


@pytest.mark.parametrize("dt", list(DTYPES))
@pytest.mark.parametrize("la, lb", [("row", "row"), ("col", "row"), ("row", "col")])
def test_repeated_calls_take_the_fast_path(dt, la, lb, gen):
    # kgen.matmul(a, b) of torch tensors: the second call makes it ready (kgen._fast.matmul's MatmulReady),
    # the later ones take the fast path, each into a new result (poisoned tensors freed between), each right;
    # a b of another alignment (TMA's rule chooses the kernel: mma, not wgmma) is made ready apart.
    if _lib.fast is None:
        pytest.skip("no kgen._fast: %s" % _lib.fast_where)
    a, b = operand(64, 64, dt, la, gen), operand(64, 64, dt, lb, gen)
    got = [kgen.matmul(a, b) for _ in range(4)]
    assert _matmul._ready_key(a, b) in _matmul._ready_matmul
    ready = _matmul._fast_matmul(a, b)
    assert ready is not NotImplemented
    for c in got + [ready]:
        assert c.shape == (64, 64) and c.dtype == DTYPES[dt] and c.is_contiguous()
        close(c, a, b, dt)
    assert len({c.data_ptr() for c in got}) == len(got)
    wide = operand(64, 65, dt, "row", gen)
    skew = wide[:, 1:]  # 64 x 64, its address 1 element past a 16-byte boundary
    for _ in range(3):
        close(kgen.matmul(a, skew), a, skew, dt)
    assert _matmul._ready_key(a, skew) in _matmul._ready_matmul


@pytest.mark.parametrize("m", [16, 64])
def test_a_plans_split_k_entry_takes_the_fast_path_with_scratch(m, gen):
    # M x 1024 x 16384 bf16: the shipped plans' (H100, H200) entry splits k 8 ways through scratch. From the
    # second call on it is made ready for kgen._fast.matmul, which takes a new scratch each call from torch's
    # allocator on the current stream (before, such a call went through Python every time: 68 us against
    # torch's 22.5 at 64 x 1024 x 16384 on an H100): every result right, back to back.
    if _lib.fast is None:
        pytest.skip("no kgen._fast: %s" % _lib.fast_where)
    if _matmul._shipped_plan({"dtype": "bf16", "a_layout": "row", "b_layout": "row"}, {}, 0) is None:
        pytest.skip("no shipped matmul plan for %s" % torch.cuda.get_device_name())
    a, b = operand(m, 16384, "bf16", "row", gen), operand(16384, 1024, "bf16", "row", gen)
    got = [kgen.matmul(a, b) for _ in range(4)]
    ready = _matmul._ready_matmul[_matmul._ready_key(a, b)]
    assert ready.scratch_bytes > 0  # the entry splits k through scratch
    fast = _matmul._fast_matmul(a, b)
    assert fast is not NotImplemented
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):  # the scratch, the result and the launch on the current stream, another one
        on_side = [_matmul._fast_matmul(a, b) for _ in range(3)]
    torch.cuda.current_stream().wait_stream(side)
    for c in got + [fast] + on_side:
        assert c is not NotImplemented
        close(c, a, b, "bf16")


@pytest.mark.parametrize("dt", ["f16", "bf16"])
def test_f32_out_for_16_bit_inputs(dt, gen):
    a, b = operand(127, 63, dt, "row", gen), operand(63, 255, dt, "col", gen)
    c = kgen.matmul(a, b, out_dtype="f32")
    assert c.dtype == torch.float32
    close(c, a, b, dt, out_dt="f32")
    # out= of f32 chooses it too.
    out = torch.empty(127, 255, device="cuda", dtype=torch.float32)
    kgen.matmul(a, b, out=out)
    close(out, a, b, dt, out_dt="f32")


@pytest.mark.parametrize("dt", list(DTYPES))
@pytest.mark.parametrize("m, n, k", SHAPES)
def test_relu_epilogue(dt, m, n, k, gen):
    a, b = operand(m, k, dt, "row", gen), operand(k, n, dt, "col", gen)
    c0 = operand(m, n, dt, "row", gen)
    out = c0.clone()
    kgen.matmul(a, b, out=out, alpha=0.75, beta=0.25, epilogue=RELU)
    close(out, a, b, dt, alpha=0.75, beta=0.25, c0=c0, relu=True)
    assert torch.all(out >= 0)


# kgen's activations as an epilogue, against torch's of the float64 product.
ACTIVATIONS = {
    "gelu": lambda x: torch.nn.functional.gelu(x),
    "gelu_tanh": lambda x: torch.nn.functional.gelu(x, approximate="tanh"),
    "silu": torch.nn.functional.silu,
    "sigmoid": torch.sigmoid,
}


@pytest.mark.parametrize("fn", list(ACTIVATIONS))
@pytest.mark.parametrize("dt", ["f32", "bf16"])
def test_activation_epilogues(fn, dt, gen):
    a, b = operand(127, 63, dt, "row", gen), operand(63, 255, dt, "row", gen)
    got = kgen.matmul(a, b, epilogue="%s(v)" % fn)
    ref, mag = expect(a, b)
    want = ACTIVATIONS[fn](ref)
    # Each activation's slope is at most 1.13: the product's bound carries over, then the
    # activation's own float rounding (a few ulps) and the output's.
    bound = 1.13 * (63 + 2) * UNIT["f32"] * mag + (UNIT[dt] + 8 * UNIT["f32"]) * want.abs() + 1e-6
    err = (got.double() - want).abs()
    assert torch.all(err <= bound), ("worst error over its bound", (err / bound).max().item())


# The kernels an epilogue's operands go through: kgen's best spec for the dtype (wgmma on an H100 or
# H200 for 16-byte rows, mma.sync for others), split-K's second kernel and stream-K's shared tiles.
OPERAND_SPECS = {
    "best": None,
    "simt_split_k": {"kernel": "matmul", "split_k": 3},
    "mma_stream_k": {"kernel": "matmul", "math": "mma", "tile_k": 32, "stages": 3, "schedule": "stream_k"},
    "wgmma_pairs": {"kernel": "matmul", "math": "wgmma", "tile_m": 128, "tile_n": 128, "tile_k": 64,
                    "producer": "warpgroup", "consumers": 2, "store": "pairs"},
    "wgmma_pingpong": {"kernel": "matmul", "math": "wgmma", "tile_m": 64, "tile_n": 256, "tile_k": 64,
                       "producer": "warpgroup", "consumers": 2, "store": "tma", "schedule": "pingpong"},
}
PINGPONG = OPERAND_SPECS["wgmma_pingpong"]


@pytest.mark.parametrize("tiles", [(64, 256), (128, 128)])
@pytest.mark.parametrize("store", ["tma", "pairs"])
@pytest.mark.parametrize("m, n, k", [(64, 256, 64), (200, 520, 136), (1000, 1032, 1000), (4096, 264, 24), (8, 8, 8)])
def test_pingpong_takes_tiles_in_turn(tiles, store, m, n, k, gen):
    # Blocks of one tile, of an odd and an even number of tiles, and of k shorter than one stage; with beta.
    if torch.cuda.get_device_capability() < (9, 0):
        pytest.skip("wgmma needs sm_90")
    spec = dict(PINGPONG, tile_m=tiles[0], tile_n=tiles[1], store=store)
    a, b = operand(m, k, "bf16", "row", gen), operand(k, n, "bf16", "row", gen)
    c0 = operand(m, n, "bf16", "row", gen)
    close(kgen.matmul(a, b, spec=spec), a, b, "bf16")
    out = c0.clone()
    kgen.matmul(a, b, spec=spec, out=out, alpha=0.5, beta=-1.5)
    close(out, a, b, "bf16", alpha=0.5, beta=-1.5, c0=c0)


@pytest.mark.parametrize("split, tiles, store, stages", [(2, (64, 64), "tma", 8), (3, (128, 64), "direct", 4),
                                                          (4, (64, 128), "pairs", 4), (8, (64, 64), "tma", 4)])
@pytest.mark.parametrize("m, n, k", [(64, 1024, 4096), (1000, 1032, 1000), (8, 8, 8), (200, 136, 64), (1, 512, 2048)])
def test_wgmma_split_k_adds_the_blocks_shares(split, tiles, store, stages, m, n, k, gen):
    # A cluster's blocks each their share of k (k of one tile, of fewer tiles than blocks: blocks with none),
    # many tiles a cluster (the persistent loop), deterministic: two calls give the same bits; with beta.
    if torch.cuda.get_device_capability() < (9, 0):
        pytest.skip("wgmma needs sm_90")
    spec = dict(kernel="matmul", dtype="bf16", math="wgmma", producer="warpgroup", tile_m=tiles[0], tile_n=tiles[1],
                consumers=tiles[0] // 64, store=store, stages=stages, split_k=split)
    a, b = operand(m, k, "bf16", "row", gen), operand(k, n, "bf16", "row", gen)
    c0 = operand(m, n, "bf16", "row", gen)
    got = kgen.matmul(a, b, spec=spec)
    close(got, a, b, "bf16")
    assert torch.equal(got, kgen.matmul(a, b, spec=spec))
    out = c0.clone()
    kgen.matmul(a, b, spec=spec, out=out, alpha=0.5, beta=-1.5)
    close(out, a, b, "bf16", alpha=0.5, beta=-1.5, c0=c0)


@pytest.mark.parametrize("split, tiles, stages", [(2, (64, 64), 8), (8, (128, 128), 4), (16, (128, 256), 3),
                                                   (5, (64, 128), 6)])
@pytest.mark.parametrize("m, n, k", [(64, 1024, 4096), (1000, 1032, 1000), (8, 8, 8), (200, 136, 64), (1, 512, 2048),
                                     (256, 1024, 16384)])
def test_wgmma_split_reduce_kernel_adds_the_slices(split, tiles, stages, m, n, k, gen):
    # split_reduce: kernel: blocks (x, 0, z) write their shares' sums to the scratch and NAME_reduce adds them
    # (blocks with no k tiles write zeros; 128 x 256 tiles split 16 ways, past a cluster's 8); deterministic;
    # with beta and an epilogue, applied once, by the second kernel; K = 4097 copied (unaligned: repack) into
    # the buffer after the partials.
    if torch.cuda.get_device_capability() < (9, 0):
        pytest.skip("wgmma needs sm_90")
    spec = dict(kernel="matmul", dtype="bf16", math="wgmma", producer="warpgroup", tile_m=tiles[0], tile_n=tiles[1],
                consumers=tiles[0] // 64, store="direct", stages=stages, split_k=split, split_reduce="kernel")
    a, b = operand(m, k, "bf16", "row", gen), operand(k, n, "bf16", "row", gen)
    c0 = operand(m, n, "bf16", "row", gen)
    got = kgen.matmul(a, b, spec=spec)
    close(got, a, b, "bf16")
    assert torch.equal(got, kgen.matmul(a, b, spec=spec))
    out = c0.clone()
    kgen.matmul(a, b, spec=spec, out=out, alpha=0.5, beta=-1.5)
    close(out, a, b, "bf16", alpha=0.5, beta=-1.5, c0=c0)
    relu = kgen.matmul(a, b, spec=dict(spec, epilogue="v > 0 ? v : 0"))
    torch.testing.assert_close(relu, torch.relu(got), rtol=0, atol=0)
    if m == 64:
        a2, b2 = operand(m, 4097, "bf16", "row", gen), operand(4097, n, "bf16", "row", gen)
        close(kgen.matmul(a2, b2, spec=spec), a2, b2, "bf16")


@pytest.mark.parametrize("which", list(OPERAND_SPECS))
@pytest.mark.parametrize("dt", ["f32", "bf16"])
@pytest.mark.parametrize("bias_kind, with_residual", [("col", False), ("row", False), (None, True), ("col", True)])
@pytest.mark.parametrize("m, n, k", [(127, 255, 63), (256, 512, 128)])
def test_epilogue_operands(which, dt, bias_kind, with_residual, m, n, k, gen):
    spec = OPERAND_SPECS[which]
    if spec is not None and spec.get("math") == "wgmma":  # TMA loads rows of multiples of 16 bytes: still ragged
        n, k = n + -n % 8, k + -k % 8
    if spec is not None and spec.get("math") in ("mma", "wgmma") and dt == "f32":
        pytest.skip("tensor cores multiply 16-bit operands")
    if spec is not None and spec.get("math") == "wgmma" and torch.cuda.get_device_capability() < (9, 0):
        pytest.skip("wgmma needs sm_90")
    a, b = operand(m, k, dt, "row", gen), operand(k, n, dt, "row", gen)
    kw, names = {}, ["v"]
    ref, mag = expect(a, b)
    extra = torch.zeros_like(ref)
    if bias_kind is not None:
        bias = operand(1, n, "f32", "row", gen)[0] if bias_kind == "col" else operand(m, 1, "bf16", "row", gen)
        kw["bias"] = bias
        names.append("bias")
        extra = extra + (bias.double()[None, :] if bias_kind == "col" else bias.double())
    if with_residual:
        wide = operand(m, n + 5, dt, "row", gen)
        kw["residual"] = wide[:, :n]  # rows of n + 5: ldr is not n
        names.append("residual")
        extra = extra + wide[:, :n].double()
    epilogue = "silu(%s)" % " + ".join(names)
    got = kgen.matmul(a, b, spec=spec, epilogue=epilogue, **kw) if spec else kgen.matmul(a, b, epilogue=epilogue, **kw)
    want = torch.nn.functional.silu(ref + extra)
    # silu's slope is at most 1.1: the product's bound carries over; the operands' sum in f32, silu's own
    # rounding and the output's.
    bound = 1.1 * ((k + 2) * UNIT["f32"] * mag + 4 * UNIT["f32"] * (ref.abs() + extra.abs())) + \
        (UNIT[dt] + 8 * UNIT["f32"]) * want.abs() + 1e-6
    err = (got.double() - want).abs()
    assert torch.all(err <= bound), ("worst error over its bound", (err / bound).max().item())


# store: tma reads a residual whose rows TMA can load (16-byte aligned, pitch a multiple of 16 bytes)
# through the buffers C is stored from, chunk by chunk; others element by element.
RESIDUAL_TMA = {"kernel": "matmul", "dtype": "bf16", "math": "wgmma", "tile_m": 128, "tile_n": 256, "tile_k": 64,
                "producer": "warpgroup", "consumers": 2, "stages": 4, "store": "tma"}


@pytest.mark.parametrize("schedule", ["tiles", "pingpong"])
@pytest.mark.parametrize("pad", [0, 8, 5])
@pytest.mark.parametrize("m, n, k", [(4096, 2048, 64), (1000, 1032, 136), (200, 72, 200), (8, 8, 8)])
def test_residual_through_tma(schedule, pad, m, n, k, gen):
    # ldr = n and n + 8 take TMA, n + 5 not; 256 tiles give each block several (the buffers' phases go on
    # across tiles), edge tiles clip, and beta reads C beside the residual, which is C itself at the end.
    if torch.cuda.get_device_capability() < (9, 0):
        pytest.skip("wgmma needs sm_90")
    spec = dict(RESIDUAL_TMA, schedule=schedule, residual="matrix", epilogue="v + residual")
    if schedule == "pingpong":
        spec["tile_m"] = 64
    a, b = operand(m, k, "bf16", "row", gen), operand(k, n, "bf16", "row", gen)
    wide = operand(m, n + pad, "bf16", "row", gen)
    r = wide[:, :n]
    ref, mag = expect(a, b)
    bound = (k + 2) * UNIT["f32"] * mag + 2 * UNIT["f32"] * (ref.abs() + 1)
    want = ref + r.double()
    got = kgen.matmul(a, b, spec=spec, residual=r)
    assert torch.all((got.double() - want).abs() <= bound + UNIT["bf16"] * want.abs() + 1e-6)
    c0 = operand(m, n, "bf16", "row", gen)
    out = c0.clone()
    kgen.matmul(a, b, spec=spec, out=out, beta=0.5, residual=r)
    want = ref + 0.5 * c0.double() + r.double()
    assert torch.all((out.double() - want).abs() <= bound + UNIT["bf16"] * want.abs() + 1e-6)
    out = c0.clone()
    kgen.matmul(a, b, spec=spec, out=out, beta=0.5, residual=out)  # in place: C is the residual
    want = ref + 1.5 * c0.double()
    assert torch.all((out.double() - want).abs() <= bound + UNIT["bf16"] * want.abs() + 1e-6)


@pytest.mark.parametrize("which", ["best", "simt_split_k", "mma_stream_k", "wgmma_pairs", "wgmma_pingpong"])
@pytest.mark.parametrize("m, n, k", [(127, 255, 63), (256, 512, 128)])
def test_aux_output_beside_c(which, m, n, k, gen):
    # gelu(v + bias) to C and v + bias (its input) to aux, every element of both, in each kind of kernel.
    spec = OPERAND_SPECS[which]
    if spec is not None and spec.get("math") == "wgmma":
        if torch.cuda.get_device_capability() < (9, 0):
            pytest.skip("wgmma needs sm_90")
        n, k = n + -n % 8, k + -k % 8
    a, b = operand(m, k, "bf16", "row", gen), operand(k, n, "bf16", "row", gen)
    bias = operand(1, n, "bf16", "row", gen)[0]
    kw = dict(bias=bias, epilogue="gelu(v + bias)", aux="v + bias")
    c, aux = kgen.matmul(a, b, spec=spec, **kw) if spec else kgen.matmul(a, b, **kw)
    ref, mag = expect(a, b)
    pre = ref + bias.double()
    bound = (k + 2) * UNIT["f32"] * mag + 4 * UNIT["f32"] * (ref.abs() + 1)
    assert torch.all((aux.double() - pre).abs() <= bound + UNIT["bf16"] * pre.abs() + 1e-6)
    want = torch.nn.functional.gelu(pre)
    assert torch.all((c.double() - want).abs() <= 1.13 * bound + (UNIT["bf16"] + 8 * UNIT["f32"]) * want.abs() + 1e-6)


ALL_REDUCTIONS = ("sum", "sumsq", "max", "min", "absmax", "logsumexp")


def reduction_bound(name, want, bound, count):
    """A reduction of values each within `bound` of `want` (float64, rows of a matrix reduced along dim 1): the
    sums' bounds add up, with (count + 2) f32 units of the magnitudes for the order the atomics add in; an
    extreme is within the largest, and so is logsumexp (its derivatives are a softmax's weights), with (count + 2)
    units of 1 + its magnitude for the exponentials and logarithms."""
    order = (count + 2) * UNIT["f32"]
    if name == "sum":
        return bound.sum(1) + order * want.abs().sum(1)
    if name == "sumsq":
        return (2 * want.abs() * bound + bound * bound).sum(1) + order * (want * want).sum(1)
    if name == "logsumexp":
        return bound.max(1).values + order * (1 + torch.logsumexp(want, 1).abs())
    return bound.max(1).values


def reference_reduction(name, x):
    return {"sum": lambda: x.sum(1), "sumsq": lambda: (x * x).sum(1), "max": lambda: x.max(1).values,
            "min": lambda: x.min(1).values, "absmax": lambda: x.abs().max(1).values,
            "logsumexp": lambda: torch.logsumexp(x, 1)}[name]()


@pytest.mark.parametrize("which", ["best", "simt_split_k", "mma_stream_k", "wgmma_pairs", "wgmma_pingpong"])
@pytest.mark.parametrize("m, n, k", [(8, 8, 8), (200, 264, 72), (4096, 2048, 64), (300, 1000, 520)])
def test_reductions_of_the_output(which, m, n, k, gen):
    # row_reduce and col_reduce of every reduction beside C, against float64 reductions of the epilogue's values
    # (gelu(v + bias)), in each kind of kernel: store: tma keeps a tile's partials in registers (best, pingpong;
    # 4096 x 2048 gives a block several tiles), the others fold each value in with atomics.  C is checked too.
    spec = OPERAND_SPECS[which]
    if spec is not None and spec.get("math") == "wgmma":
        if torch.cuda.get_device_capability() < (9, 0):
            pytest.skip("wgmma needs sm_90")
        n, k = n + -n % 8, k + -k % 8
    a, b = operand(m, k, "bf16", "row", gen), operand(k, n, "bf16", "row", gen)
    bias = operand(1, n, "bf16", "row", gen)[0]
    kw = dict(bias=bias, epilogue="gelu(v + bias)", row_reduce=ALL_REDUCTIONS, col_reduce=ALL_REDUCTIONS)
    c, got = kgen.matmul(a, b, spec=spec, **kw) if spec else kgen.matmul(a, b, **kw)
    ref, mag = expect(a, b)
    want = torch.nn.functional.gelu(ref + bias.double())
    bound = 1.13 * ((k + 2) * UNIT["f32"] * mag + 4 * UNIT["f32"] * (ref.abs() + bias.double().abs() + 1)) + 1e-6
    assert torch.all((c.double() - want).abs() <= bound + UNIT["bf16"] * want.abs())
    assert sorted(got) == sorted(["row_" + r for r in ALL_REDUCTIONS] + ["col_" + r for r in ALL_REDUCTIONS])
    for line, x, tol, count in (("row", want, bound, n), ("col", want.t(), bound.t(), m)):
        for r in ALL_REDUCTIONS:
            v = got[line + "_" + r]
            assert v.dtype == torch.float32 and tuple(v.shape) == (x.shape[0],)
            err = (v.double() - reference_reduction(r, x)).abs()
            assert torch.all(err <= reduction_bound(r, x, tol, count)), (line, r, err.max().item())


@pytest.mark.parametrize("which", ["best", "mma_stream_k"])
def test_reductions_propagate_nan(which, gen):
    # A NaN in column 5's bias: every row's sum, max, min, absmax and logsumexp is NaN, and column 5's alone among
    # the columns'; the others' as torch reduces them.
    spec = OPERAND_SPECS[which]
    if spec is None and torch.cuda.get_device_capability() < (9, 0):
        pytest.skip("the best spec is wgmma on sm_90")
    a, b = operand(128, 64, "bf16", "row", gen), operand(64, 256, "bf16", "row", gen)
    bias = operand(1, 256, "bf16", "row", gen)[0].clone()
    bias[5] = float("nan")
    kw = dict(bias=bias, row_reduce="sum, max, min, absmax, logsumexp", col_reduce="max, min, logsumexp")
    c, got = kgen.matmul(a, b, spec=spec, **kw) if spec else kgen.matmul(a, b, **kw)
    for r in ("sum", "max", "min", "absmax", "logsumexp"):
        assert torch.all(torch.isnan(got["row_" + r])), r
    for r in ("max", "min", "logsumexp"):
        nan = torch.isnan(got["col_" + r])
        assert nan[5].item() and int(nan.sum()) == 1, r
    finite = c.double().clone()
    finite[:, 5] = 0
    assert torch.allclose(got["col_max"].double()[6:], finite.max(0).values[6:], rtol=1e-2, atol=1e-2)


@pytest.mark.parametrize("which", ["best", "mma_stream_k", "simt_split_k"])
def test_logsumexp_of_infinite_values(which, gen):
    # A bias of -inf but in column 3: each row's logsumexp is its column-3 value, column 3's the logsumexp of
    # those, the other columns' -inf (no exp(-inf - -inf) NaN); then +inf in column 7: every row's is +inf,
    # column 7's too, the others' as before.
    spec = OPERAND_SPECS[which]
    if spec is None and torch.cuda.get_device_capability() < (9, 0):
        pytest.skip("the best spec is wgmma on sm_90")
    a, b = operand(128, 64, "bf16", "row", gen), operand(64, 256, "bf16", "row", gen)
    bias = torch.full((256,), -math.inf, dtype=torch.bfloat16, device="cuda")
    bias[3] = 0.5
    kw = dict(bias=bias, epilogue="v + bias", row_reduce="logsumexp", col_reduce="logsumexp")
    c, got = kgen.matmul(a, b, spec=spec, **kw) if spec else kgen.matmul(a, b, **kw)
    ref, mag = expect(a, b)
    col3 = ref[:, 3] + 0.5
    tol = 1.13 * ((64 + 2) * UNIT["f32"] * mag[:, 3] + 4 * UNIT["f32"] * (col3.abs() + 1)) + 1e-6
    assert torch.all((got["row_logsumexp"].double() - col3).abs() <= tol + 4 * UNIT["f32"] * (1 + col3.abs()))
    assert abs(got["col_logsumexp"][3].item() - torch.logsumexp(col3, 0).item()) <= 1e-3 * (1 + abs(col3).max())
    others = torch.cat([got["col_logsumexp"][:3], got["col_logsumexp"][4:]])
    assert torch.all(torch.isinf(others) & (others < 0))
    bias[7] = math.inf
    c, got = kgen.matmul(a, b, spec=spec, **kw) if spec else kgen.matmul(a, b, **kw)
    assert torch.all(torch.isinf(got["row_logsumexp"]) & (got["row_logsumexp"] > 0))
    col = got["col_logsumexp"]
    assert torch.isinf(col[7]) and col[7] > 0 and not torch.isnan(col).any()
    assert int((torch.isinf(col) & (col < 0)).sum()) == 254


@pytest.mark.parametrize("unaligned", ["repack", "fallback"])
@pytest.mark.parametrize("m, n, k, layouts", [(127, 255, 63, "row row"), (200, 520, 129, "row row"),
                                              (200, 520, 129, "col col"), (64, 1001, 4097, "row col"),
                                              (9, 8, 8, "skew row")])
def test_unaligned_operands_fall_back(m, n, k, layouts, unaligned, gen):
    # A wgmma kernel called with rows TMA cannot load (pitches not multiples of 16 bytes, or A 2 bytes past
    # 16-byte alignment: "skew") runs on aligned copies of them (unaligned: repack, the default) or its
    # mma.sync fallback (unaligned: fallback), epilogue and operands included; unaligned: refuse says why.
    if torch.cuda.get_device_capability() < (9, 0):
        pytest.skip("wgmma needs sm_90")
    la, lb = layouts.split()
    spec = dict(PINGPONG, dtype="bf16", schedule="tiles", tile_m=128, bias="col", epilogue="silu(v + bias)",
                a_layout="col" if la == "col" else "row", b_layout=lb, unaligned=unaligned)
    k_ = kgen.Kernel(spec)
    if la == "skew":  # rows of 8 bf16 (16 bytes) starting 2 bytes into the allocation
        a = operand(1, m * k + 1, "bf16", "row", gen)[0, 1:].view(m, k)
    else:
        a = operand(m, k, "bf16", la, gen)
    b = operand(k, n, "bf16", lb, gen)
    bias = operand(1, n, "bf16", "row", gen)[0]
    got = k_(a, b, bias=bias)
    ref, mag = expect(a, b)
    want = torch.nn.functional.silu(ref + bias.double())
    bound = 1.1 * ((k + 2) * UNIT["f32"] * mag + 4 * UNIT["f32"] * (ref.abs() + 1)) + \
        (UNIT["bf16"] + 8 * UNIT["f32"]) * want.abs() + 1e-6
    assert torch.all((got.double() - want).abs() <= bound)
    with pytest.raises(kgen.KgenError, match="unaligned: refuse forbids aligned copies and the mma.sync fallback"):
        kgen.Kernel(dict(spec, unaligned="refuse"))(a, b, bias=bias)
    c = torch.full((m, n), float("nan"), dtype=torch.bfloat16, device="cuda")  # a second call, C poisoned
    k_(a, b, bias=bias, out=c)
    assert torch.all((c.double() - want).abs() <= bound)


def test_bias_gelu_matches_torchs_addmm(gen):
    # What torch._addmm_activation(bias, a, b, use_gelu=True) computes: gelu(a @ b + bias), bf16.
    a, b = operand(256, 512, "bf16", "row", gen), operand(512, 384, "bf16", "row", gen)
    bias = operand(1, 384, "bf16", "row", gen)[0]
    got = kgen.matmul(a, b, bias=bias, epilogue="gelu(v + bias)")
    ref, mag = expect(a, b)
    want = torch.nn.functional.gelu(ref + bias.double())
    bound = 1.13 * ((512 + 2) * UNIT["f32"] * mag + 4 * UNIT["f32"] * (ref.abs() + 1)) + \
        (UNIT["bf16"] + 8 * UNIT["f32"]) * want.abs() + 1e-6
    assert torch.all((got.double() - want).abs() <= bound)
    # The default epilogue adds what is given; the residual may be out= itself (read, then written).
    res = operand(256, 384, "bf16", "row", gen)
    out = res.clone()
    kgen.matmul(a, b, out=out, residual=out)
    close(out, a, b, "bf16", alpha=1.0, beta=1.0, c0=res)


def test_padded_operands_and_out(gen):
    # Slices of wider matrices: a[:, :63] of 127 x 70, b = y[:, :255] of 63 x 260, out[:, :255] of 127 x 300.
    a = operand(127, 70, "f32", "row", gen)[:, :63]
    b = operand(63, 260, "f32", "row", gen)[:, :255]
    bt = operand(255, 70, "f32", "row", gen)[:, :63].t()  # a column-major view with a padded leading dimension
    wide = torch.full((127, 300), 7.0, device="cuda")
    out = wide[:, :255]
    kgen.matmul(a, b, out=out)
    close(out, a, b, "f32")
    assert torch.all(wide[:, 255:] == 7.0)  # the padding is not written
    close(kgen.matmul(a, bt), a, bt, "f32")


def test_transposed_views_are_not_copied(gen):
    x, y = operand(63, 127, "f32", "row", gen), operand(255, 63, "f32", "row", gen)
    a, b = x.t(), y.t()  # 127 x 63 and 63 x 255, column-major
    assert a.stride() == (1, 127) and b.stride() == (1, 63)
    close(kgen.matmul(a, b), a, b, "f32")


def test_a_kernel_called_directly(gen):
    k = kgen.Kernel({"kernel": "matmul", "dtype": "f32", "a_layout": "row", "b_layout": "col"})
    a, b = operand(127, 63, "f32", "row", gen), operand(63, 255, "f32", "col", gen)
    close(k(a, b, alpha=2.0), a, b, "f32", alpha=2.0)
    with pytest.raises(ValueError, match="the kernel reads b as col-major"):
        k(a, b.contiguous())


def test_another_stream(gen):
    a, b = operand(127, 63, "bf16", "row", gen), operand(63, 255, "bf16", "row", gen)
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        c = kgen.matmul(a, b)
    s.synchronize()
    close(c, a, b, "bf16")
    out = torch.empty(127, 255, device="cuda", dtype=torch.bfloat16)
    kgen.matmul(a, b, out=out, stream=s)
    s.synchronize()
    close(out, a, b, "bf16")


def test_cupy_arrays(gen):
    cupy = pytest.importorskip("cupy")
    a, b = operand(127, 63, "f32", "row", gen), operand(63, 255, "f32", "col", gen)
    ca, cb = cupy.asarray(a), cupy.asarray(b)  # the same memory and strides (b column-major)
    assert cb.strides == (4, 4 * 63)
    c = kgen.matmul(ca, cb)
    assert isinstance(c, cupy.ndarray) and c.shape == (127, 255)
    close(torch.as_tensor(c, device="cuda"), a, b, "f32")


FP8 = {"e4m3": getattr(torch, "float8_e4m3fn", None), "e5m2": getattr(torch, "float8_e5m2", None)}
fp8_hopper = pytest.mark.skipif(torch.cuda.get_device_capability() != (9, 0) or FP8["e4m3"] is None,
                                reason="fp8 wgmma needs an sm_90 GPU (H100, H200) and torch's float8 dtypes")


def fp8_operands(m, n, k, da, db, gen):
    """a (m x k, row-major) and b (k x n, the transposed view of an n x k w) of small integers, exact in fp8
    and their sums exact in any accumulation; and both as float64."""
    a = torch.randint(-2, 3, (m, k), device="cuda", generator=gen).to(FP8[da])
    w = torch.randint(-2, 3, (n, k), device="cuda", generator=gen).to(FP8[db])
    return a, w.t(), a.double(), w.t().double()


@fp8_hopper
@pytest.mark.parametrize("da, db", [("e4m3", "e4m3"), ("e5m2", "e5m2"), ("e4m3", "e5m2")])
@pytest.mark.parametrize("m, n, k", [(7, 5, 3), (300, 200, 384), (128, 256, 4112), (64, 1000, 1000)])
def test_fp8_operands_with_scales(da, db, m, n, k, gen):
    a, b, a64, b64 = fp8_operands(m, n, k, da, db, gen)
    sa = torch.tensor([0.5], device="cuda")
    sb = torch.tensor(0.25, device="cuda")
    c = kgen.matmul(a, b, scale_a=sa, scale_b=sb)
    assert c.dtype == torch.bfloat16 and c.shape == (m, n)
    want = 0.125 * (a64 @ b64)
    torch.testing.assert_close(c.double(), want, rtol=2.0 ** -8, atol=0)
    c = kgen.matmul(a, b)  # no scales: C = a @ b
    torch.testing.assert_close(c.double(), a64 @ b64, rtol=2.0 ** -8, atol=0)


@fp8_hopper
@pytest.mark.parametrize("accum", ["fast", "promote"])
def test_fp8_against_torch_scaled_mm(accum, gen):
    m, n, k = 512, 768, 4096
    a = (torch.rand(m, k, device="cuda", generator=gen) * 2 - 1).to(FP8["e4m3"])
    w = (torch.rand(n, k, device="cuda", generator=gen) * 2 - 1).to(FP8["e4m3"])
    sa, sb = torch.tensor(0.75, device="cuda"), torch.tensor(1.5, device="cuda")
    out = torch.empty(m, n, device="cuda", dtype=torch.float32)
    spec = {"kernel": "matmul", "dtype": "e4m3", "tile_n": 128, "producer": "warpgroup", "fp8_accum": accum}
    kgen.matmul(a, w.t(), out=out, spec=spec, scale_a=sa, scale_b=sb)
    want = 0.75 * 1.5 * (a.double() @ w.t().double())
    ref = torch._scaled_mm(a, w.t(), scale_a=sa, scale_b=sb, out_dtype=torch.float32)
    err, err_torch = (out.double() - want).abs().max().item(), (ref.double() - want).abs().max().item()
    bound = (k + 2) * 2.0 ** -24 * (0.75 * 1.5 * (a.double().abs() @ w.t().double().abs())).max().item()
    assert err <= (bound if accum == "promote" else 4 * bound), (err, err_torch, bound)


def block_scaled(x64, scales, rows_per_scale):
    """x64 (r x k) with each row's 128-element blocks of k multiplied by their scale: scales[r // rows_per_scale,
    kb] (a row's own scale where rows_per_scale is 1, a 128-row block's where it is 128)."""
    r, k = x64.shape
    rows = torch.arange(r, device=x64.device) // rows_per_scale
    cols = torch.arange(k, device=x64.device) // 128
    return x64 * scales.double()[rows][:, cols]


@fp8_hopper
@pytest.mark.parametrize("m, n, k", [(7, 5, 3), (300, 200, 384), (128, 256, 4112), (64, 1000, 1000)])
@pytest.mark.parametrize("transposed", [False, True])
def test_fp8_block_scales(m, n, k, transposed, gen):
    """DeepGEMM's scales (scale: block): A's one a row and 128 of k, as a ceil(k / 128) x m array (or its
    m x ceil(k / 128) view), B's one a 128 x 128 block of the n x k weight; C against float64 of the
    dequantised operands.  Scales of 0.5, 1 and 2, so every product and sum is exact in f32 but C's rounding."""
    a, b, a64, b64 = fp8_operands(m, n, k, "e4m3", "e4m3", gen)
    kb, nb = (k + 127) // 128, (n + 127) // 128
    sa = 2.0 ** torch.randint(-1, 2, (kb, m), device="cuda", generator=gen).float()
    sb = 2.0 ** torch.randint(-1, 2, (nb, kb), device="cuda", generator=gen).float()
    c = kgen.matmul(a, b, scale_a=sa.t() if transposed else sa, scale_b=sb)
    assert c.dtype == torch.bfloat16 and c.shape == (m, n)
    want = block_scaled(a64, sa.t(), 1) @ block_scaled(b64.t(), sb, 128).t()
    torch.testing.assert_close(c.double(), want, rtol=2.0 ** -8, atol=0)


@fp8_hopper
def test_fp8_refusals(gen):
    a, b, _, _ = fp8_operands(64, 64, 128, "e4m3", "e4m3", gen)
    s = torch.tensor(1.0, device="cuda")
    with pytest.raises(ValueError, match="both scale_a= and scale_b=, or neither"):
        kgen.matmul(a, b, scale_a=s)
    with pytest.raises(ValueError, match="scale_a must be float32 on a's device, one value"):
        kgen.matmul(a, b, scale_a=s.double(), scale_b=s)
    sa_blocks, sb_blocks = torch.ones(1, 64, device="cuda"), torch.ones(1, 1, device="cuda")
    with pytest.raises(ValueError, match="scale_b must be float32 on a's device, one value .* or 128 x 128 blocks"):
        kgen.matmul(a, b, scale_a=sa_blocks, scale_b=torch.ones(2, 1, device="cuda"))
    with pytest.raises(ValueError, match="scale_a must be .* 1 x 64 .ceil.k / 128. x m"):
        kgen.matmul(a, b, scale_a=torch.ones(64, 2, device="cuda"), scale_b=sb_blocks)
    a2, b2, _, _ = fp8_operands(64, 256, 256, "e4m3", "e4m3", gen)
    with pytest.raises(ValueError, match="scale_a is blocks and scale_b one value"):
        kgen.matmul(a2, b2, scale_a=torch.ones(2, 64, device="cuda"), scale_b=s)
    spec = {"kernel": "matmul", "dtype": "e4m3", "tile_n": 128, "producer": "warpgroup"}  # scale: tensor
    with pytest.raises(ValueError, match="the scale_a= and scale_b= given are DeepGEMM's blocks"):
        kgen.Kernel(spec)(a2, b2, scale_a=torch.ones(2, 64, device="cuda"), scale_b=torch.ones(2, 2, device="cuda"))
    with pytest.raises(TypeError, match="scale_a= and scale_b= are fp8's"):
        kgen.matmul(a.bfloat16(), b.bfloat16(), scale_a=s, scale_b=s)
    with pytest.raises(kgen.SpecError, match="use b_layout: col"):
        kgen.matmul(a, b.contiguous())  # B row-major: fp8 wgmma reads it K-major only
