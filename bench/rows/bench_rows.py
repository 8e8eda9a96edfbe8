"""bench_rows.py: kgen's row functions (kgen.softmax, kgen.log_softmax,
kgen.rms_norm, kgen.layer_norm, kgen.cross_entropy) from Python against
torch eager, torch.compile and a device-to-device copy of the same bytes,
on one GPU, every kgen result verified in the same run.

    python3 bench/rows/bench_rows.py --out rows.tsv [--ops softmax,rms_norm] [--dtypes bf16]
        [--shapes 32768x4096,8192x262144] [--runs 50] [--rounds 1] [--method events|queued]
        [--no-compile] [--no-small]

For each op, dtype (default bf16 and f32) and rows x cols shape (default
32768 x 256 ... 65536 and 8192 x 262144):
 (a) kgen's output (into an out= poisoned with NaN first) against a
     float64 torch reference on the same data, row chunks at a time: the
     largest absolute error, the largest relative one (|error| / |ref|,
     |ref| floored at 1e-4 for 16-bit outputs, 1e-8 for f32) and the count
     of elements that are NaN where the reference is not (unwritten);
 (b) the time of kgen's Python call (a new result each call, as torch's),
     torch eager (torch.softmax, torch.log_softmax, F.rms_norm,
     F.layer_norm, F.cross_entropy(reduction='none')), torch.compile of
     the same function (skipped, saying why, where it fails) and
     dst.copy_(src) of half the bytes the op moves (x + weight + bias +
     labels + y or the losses, each read or written once; the copy reads
     and writes that half, so moves them all; a first timing of it is
     thrown away, as it can read low; its buffers live beside the op's, so
     the largest shape takes about twice its inputs and outputs in GPU
     memory): each the median of --runs calls timed with CUDA events, after
     warm-up, the inputs rotated among enough copies to exceed twice the
     L2 cache (one copy where a set already does); with --rounds R, kgen,
     torch, torch.compile and the copy take turns R times and each keeps
     the median of its R medians.  --method events (the default) times the
     calls as a program makes them one after another, so where a kernel is
     shorter than the host's call the host's time shows; --method queued
     first puts a sleeping kernel on the stream (torch.cuda._sleep) long
     enough that every timed call is queued before the first one runs, so
     each pair of events times the GPU's work for one call alone (a batch
     the GPU reached before it was all queued is timed again with a longer
     sleep, and named in the note if it still was);
 (c) unless --no-small, small-batch latency: 140 x 4096 bf16 rms_norm and
     1 x 32000 bf16 softmax, per call back to back (host wall time over
     --small-calls calls) and replayed from a CUDA graph of the same calls
     (torch.cuda.CUDAGraph), for kgen and torch eager.

The table (GB/s: bytes moved / time; frac_copy: kgen's GB/s / the copy's;
vs_torch, vs_compile: their time / kgen's, above 1 where kgen is faster)
goes to --out: markdown when the path ends in .md, else TSV; it is printed
as markdown too.  kgen is imported as the tests do: from PYTHONPATH
(python/ of the tree) with KGEN_LIBRARY naming .libs/libkgen.so; without
them, from the tree this script sits in.
"""
import argparse
import math
import os
import statistics
import sys
import time

OPS = ("softmax", "log_softmax", "rms_norm", "layer_norm", "cross_entropy")
DTYPES = ("bf16", "f32")
SHAPES = ((32768, 256), (32768, 512), (32768, 1024), (32768, 4096), (32768, 16384), (32768, 65536), (8192, 262144))
EPS = {"rms_norm": 1e-6, "layer_norm": 1e-5}
IGNORE = -100
REF_CHUNK = 1 << 27  # elements of x a reference chunk takes (1 GiB of float64)
MAX_COPIES = 64

torch = F = kgen = None


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", required=True, help="the table: markdown if it ends in .md, else TSV")
    p.add_argument("--ops", default=",".join(OPS), help="comma-separated, of " + ", ".join(OPS))
    p.add_argument("--dtypes", default=",".join(DTYPES), help="comma-separated: bf16, f16, f32")
    p.add_argument("--shapes", default=",".join("%dx%d" % s for s in SHAPES), help="comma-separated ROWSxCOLS")
    p.add_argument("--runs", type=int, default=50, help="timed calls per measurement (the median is kept)")
    p.add_argument("--warmup", type=int, default=5)
    p.add_argument("--rounds", type=int, default=1, help="turns kgen, torch, torch.compile and the copy take, in that order "
                   "(the median of the rounds' medians)")
    p.add_argument("--method", choices=("events", "queued"), default="events",
                   help="events: calls back to back as a program makes them; queued: the GPU's time a call, "
                   "every timed call queued behind a sleeping kernel first")
    p.add_argument("--no-compile", action="store_true", help="leave torch.compile out")
    p.add_argument("--no-small", action="store_true", help="leave the small-batch latencies out")
    p.add_argument("--small-calls", type=int, default=2000, help="calls per small-batch measurement")
    p.add_argument("--seed", type=int, default=49)
    a = p.parse_args(argv)
    a.ops = [o for o in a.ops.split(",") if o]
    a.dtypes = [d for d in a.dtypes.split(",") if d]
    for o in a.ops:
        if o not in OPS:
            p.error("unknown op %r (%s)" % (o, ", ".join(OPS)))
    for d in a.dtypes:
        if d not in ("bf16", "f16", "f32"):
            p.error("unknown dtype %r (bf16, f16, f32)" % d)
    try:
        a.shapes = [tuple(int(n) for n in s.lower().split("x")) for s in a.shapes.split(",") if s]
    except ValueError:
        p.error("shapes are ROWSxCOLS, comma-separated: %r" % a.shapes)
    if any(len(s) != 2 or min(s) < 1 for s in a.shapes):
        p.error("shapes are ROWSxCOLS of positive sizes: %r" % (a.shapes,))
    if a.runs < 1 or a.rounds < 1 or a.warmup < 0:
        p.error("--runs and --rounds take at least 1, --warmup at least 0")
    return a


def load():
    """torch and kgen, kgen from PYTHONPATH or else this tree's python/."""
    global torch, F, kgen
    import torch as t
    import torch.nn.functional as f
    torch, F = t, f
    try:
        import kgen as k
    except ImportError:
        sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
        import kgen as k
    kgen = k


def tdtype(name):
    return {"bf16": torch.bfloat16, "f16": torch.float16, "f32": torch.float32}[name]


# ---- the data and the calls ----

def make_set(op, rows, cols, dtype, g):
    """One set of inputs: x (logits), weight and bias (norms), labels (cross_entropy, some ignored)."""
    dt = tdtype(dtype)
    s = {"x": torch.randn(rows, cols, device="cuda", dtype=dt, generator=g)}
    if op in ("rms_norm", "layer_norm"):
        s["weight"] = (1 + 0.1 * torch.randn(cols, device="cuda", generator=g)).to(dt)
    if op == "layer_norm":
        s["bias"] = (0.1 * torch.randn(cols, device="cuda", generator=g)).to(dt)
    if op == "cross_entropy":
        lab = torch.randint(0, cols, (rows,), device="cuda", generator=g, dtype=torch.int64)
        lab[::97] = IGNORE
        s["labels"] = lab
    return s


def clone_set(s):
    return {k: v.clone() for k, v in s.items()}


def bytes_moved(op, rows, cols, dtype):
    """x + weight + bias + labels + y or the losses, each once."""
    e = tdtype(dtype).itemsize
    n = rows * cols * e
    if op == "cross_entropy":
        return n + rows * 8 + rows * e
    return 2 * n + (cols * e if op in ("rms_norm", "layer_norm") else 0) + (cols * e if op == "layer_norm" else 0)


def kgen_call(op):
    if op == "softmax":
        return lambda s, out=None: kgen.softmax(s["x"], out=out)
    if op == "log_softmax":
        return lambda s, out=None: kgen.log_softmax(s["x"], out=out)
    if op == "rms_norm":
        return lambda s, out=None: kgen.rms_norm(s["x"], s["weight"], eps=EPS[op], out=out)
    if op == "layer_norm":
        return lambda s, out=None: kgen.layer_norm(s["x"], s["weight"], s["bias"], eps=EPS[op], out=out)
    return lambda s, out=None: kgen.cross_entropy(s["x"], s["labels"], ignore_index=IGNORE, out=out)


def torch_fn(op, cols):
    """The torch function of the op, of (x, weight, bias, labels): eager, and what torch.compile compiles."""
    if op == "softmax":
        return lambda x, w, b, lab: torch.softmax(x, -1)
    if op == "log_softmax":
        return lambda x, w, b, lab: torch.log_softmax(x, -1)
    if op == "rms_norm" and hasattr(F, "rms_norm"):  # torch 2.4 and later
        return lambda x, w, b, lab: F.rms_norm(x, (cols,), w, EPS[op])
    if op == "rms_norm":
        return lambda x, w, b, lab: x * torch.rsqrt((x.float() * x.float()).mean(-1, keepdim=True) + EPS[op]).to(
            x.dtype) * w
    if op == "layer_norm":
        return lambda x, w, b, lab: F.layer_norm(x, (cols,), w, b, EPS[op])
    return lambda x, w, b, lab: F.cross_entropy(x, lab, ignore_index=IGNORE, reduction="none")


def on_set(fn):
    return lambda s: fn(s["x"], s.get("weight"), s.get("bias"), s.get("labels"))


def reference(op, s, r0, r1):
    """The op in float64 on rows r0..r1 of set s."""
    x = s["x"][r0:r1].double()
    if op == "softmax":
        return torch.softmax(x, -1)
    if op == "log_softmax":
        return torch.log_softmax(x, -1)
    if op == "rms_norm":
        return x * torch.rsqrt((x * x).mean(-1, keepdim=True) + EPS[op]) * s["weight"].double()
    if op == "layer_norm":
        return F.layer_norm(x, (x.shape[-1],), s["weight"].double(), s["bias"].double(), EPS[op])
    return F.cross_entropy(x, s["labels"][r0:r1], ignore_index=IGNORE, reduction="none")


def verify(op, s, dtype):
    """(max abs error, max rel error, unwritten) of kgen's output against the float64 reference."""
    x = s["x"]
    rows, cols = x.shape
    shape = (rows,) if op == "cross_entropy" else (rows, cols)
    out = torch.full(shape, float("nan"), device="cuda", dtype=x.dtype)
    kgen_call(op)(s, out=out)
    torch.cuda.synchronize()
    floor = 1e-8 if dtype == "f32" else 1e-4
    worst_abs = worst_rel = 0.0
    bad = 0
    step = max(1, REF_CHUNK // max(cols, 1))
    for r0 in range(0, rows, step):
        r1 = min(rows, r0 + step)
        ref = reference(op, s, r0, r1)
        got = out[r0:r1].double()
        bad += int((torch.isnan(got) & ~torch.isnan(ref)).sum())
        d = (got - ref).abs()
        d = torch.where(torch.isnan(ref) & torch.isnan(got), torch.zeros_like(d), d)
        worst_abs = max(worst_abs, float(d.max()))
        worst_rel = max(worst_rel, float((d / ref.abs().clamp_min(floor)).max()))
        del ref, got, d
    del out
    return worst_abs, worst_rel, bad


# ---- timing ----

# Host time a queued call may take at most, in GPU clock cycles (2 GHz: 100 us), and the sleep's floor.
QUEUE_CYCLES_A_CALL = 200000
QUEUE_CYCLES_FLOOR = 2000000
late_batches = 0  # queued batches the GPU reached before they were all queued, even at the longest sleep


def median_us(call, sets, runs, warmup, method="events"):
    """The median time of `runs` calls, each between two CUDA events, set i % len(sets) for call i.  Queued:
    behind a sleeping kernel long enough that the GPU reaches the first start event only once every call is
    queued (checked: a batch it reached sooner is timed again, sleeping four times as long, twice at most)."""
    global late_batches
    for i in range(warmup):
        call(sets[i % len(sets)])
    torch.cuda.synchronize()
    sleep = QUEUE_CYCLES_FLOOR + QUEUE_CYCLES_A_CALL * runs
    for _ in range(3):
        events = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)) for _ in range(runs)]
        if method == "queued":
            torch.cuda._sleep(sleep)
        for i, (start, end) in enumerate(events):
            s = sets[i % len(sets)]
            start.record()
            call(s)
            end.record()
        reached = method == "queued" and events[0][0].query()
        torch.cuda.synchronize()
        if not reached:
            break
        sleep *= 4
    else:
        late_batches += 1
    return statistics.median(start.elapsed_time(end) * 1e3 for start, end in events)


def copies_for(nbytes):
    """Sets that together exceed twice the L2 cache (1 where one does)."""
    l2 = getattr(torch.cuda.get_device_properties(0), "L2_cache_size", 0) or 50 << 20
    return max(1, min(MAX_COPIES, math.ceil(2 * l2 / max(nbytes, 1))))


def copy_pairs(nbytes, copies):
    """Pairs of buffers for dst.copy_(src) of nbytes / 2 (reads and writes nbytes in all)."""
    half = max(1, nbytes // 2)
    return [(torch.empty(half, dtype=torch.uint8, device="cuda"), torch.empty(half, dtype=torch.uint8, device="cuda"))
            for _ in range(copies)]


def copy_call(p):
    p[1].copy_(p[0])


def compiled_call(op, cols, sets):
    """torch.compile of the op's torch function, called once: (call, None) or (None, why it was skipped)."""
    try:
        torch._dynamo.reset()
        fn = torch.compile(torch_fn(op, cols), dynamic=False)
        call = on_set(fn)
        call(sets[0])
        torch.cuda.synchronize()
        return call, None
    except Exception as e:  # a compile that fails is reported, not fatal
        return None, "%s: %s" % (type(e).__name__, str(e).splitlines()[0][:120] if str(e) else "")


def gbs(nbytes, us):
    return nbytes / (us * 1e-6) / 1e9 if us else float("nan")


def one_case(op, dtype, rows, cols, a, g):
    """Verify kgen at the shape, then time kgen, torch (eager and compiled) and the copy in a.rounds turns."""
    nbytes = bytes_moved(op, rows, cols, dtype)
    first = make_set(op, rows, cols, dtype, g)
    err_abs, err_rel, bad = verify(op, first, dtype)
    copies = copies_for(nbytes)
    sets = [first] + [clone_set(first) for _ in range(copies - 1)]
    pairs = copy_pairs(nbytes, copies)
    compiled, why = (None, "--no-compile") if a.no_compile else compiled_call(op, cols, sets)
    who = [("kgen", kgen_call(op), sets), ("torch", on_set(torch_fn(op, cols)), sets), ("copy", copy_call, pairs)]
    if compiled:
        who.insert(2, ("compile", compiled, sets))
    median_us(copy_call, pairs, a.runs, a.warmup, a.method)  # a copy's first timing can read low: not kept
    late = late_batches
    times = {w: [] for w, _, _ in who}
    for _ in range(a.rounds):
        for w, call, on in who:
            times[w].append(median_us(call, on, a.runs, a.warmup, a.method))
    us = {w: statistics.median(t) for w, t in times.items()}
    k_us, t_us, c_us, cp_us = us["kgen"], us["torch"], us.get("compile"), us["copy"]
    if late_batches > late:
        why = (why + "; " if why else "") + "%d queued batches timed after the GPU reached them" % (late_batches - late)
    del sets, first, pairs
    torch.cuda.empty_cache()
    return {"op": op, "dtype": dtype, "shape": "%dx%d" % (rows, cols), "bytes": nbytes, "copies": copies,
            "kgen_us": k_us, "kgen_GBs": gbs(nbytes, k_us), "copy_us": cp_us, "copy_GBs": gbs(nbytes, cp_us),
            "frac_copy": cp_us / k_us, "torch_us": t_us, "torch_GBs": gbs(nbytes, t_us), "vs_torch": t_us / k_us,
            "compile_us": c_us, "compile_GBs": gbs(nbytes, c_us) if c_us else None,
            "vs_compile": c_us / k_us if c_us else None, "max_abs": err_abs, "max_rel": err_rel, "unwritten": bad,
            "note": why or ""}


# ---- small batches ----

def back_to_back_us(call, n):
    for _ in range(20):
        call()
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(n):
        call()
    torch.cuda.synchronize()
    return (time.perf_counter() - t0) / n * 1e6


def graph_us(call, per_graph=100, replays=20):
    """Per call, replayed from a CUDA graph of per_graph calls (warmed up on a side stream first)."""
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(3):
            call()
    torch.cuda.current_stream().wait_stream(side)
    torch.cuda.synchronize()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for _ in range(per_graph):
            call()
    graph.replay()
    torch.cuda.synchronize()
    times = []
    for _ in range(replays):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        graph.replay()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) * 1e3 / per_graph)
    return statistics.median(times)


def small_cases(a, g):
    out = []
    for op, rows, cols in (("rms_norm", 140, 4096), ("softmax", 1, 32000)):
        s = make_set(op, rows, cols, "bf16", g)
        err_abs, err_rel, bad = verify(op, s, "bf16")
        k, t = kgen_call(op), on_set(torch_fn(op, cols))
        calls = {"kgen": lambda: k(s), "torch": lambda: t(s)}
        row = {"case": "%s %dx%d bf16" % (op, rows, cols), "max_abs": err_abs, "max_rel": err_rel, "unwritten": bad}
        for who, call in calls.items():
            row[who + "_call_us"] = back_to_back_us(call, a.small_calls)
            try:
                row[who + "_graph_us"] = graph_us(call)
            except Exception as e:
                row[who + "_graph_us"] = None
                row["note"] = "%s graph: %s: %s" % (who, type(e).__name__, str(e).splitlines()[0][:100])
        out.append(row)
    return out


# ---- the table ----

COLUMNS = ("op", "dtype", "shape", "bytes", "copies", "kgen_us", "kgen_GBs", "copy_us", "copy_GBs", "frac_copy",
           "torch_us", "torch_GBs", "vs_torch", "compile_us", "compile_GBs", "vs_compile", "max_abs", "max_rel",
           "unwritten", "note")
SMALL = ("case", "kgen_call_us", "torch_call_us", "kgen_graph_us", "torch_graph_us", "max_abs", "max_rel",
         "unwritten", "note")


def cell(v):
    if v is None:
        return "-"
    if isinstance(v, float):
        if v != v:
            return "nan"
        return "%.3g" % v if abs(v) < 0.01 or abs(v) >= 1e5 else "%.3f" % v if abs(v) < 10 else "%.1f" % v
    return str(v)


def table(cols, rows, markdown):
    lines = []
    if markdown:
        lines.append("| " + " | ".join(cols) + " |")
        lines.append("|" + "|".join("---" for _ in cols) + "|")
        lines += ["| " + " | ".join(cell(r.get(c)) for c in cols) + " |" for r in rows]
    else:
        lines.append("\t".join(cols))
        lines += ["\t".join(cell(r.get(c)) for c in cols) for r in rows]
    return "\n".join(lines) + "\n"


def header(a):
    """The run's line: when, the GPU, torch, kgen and its library, and whether the package's calls take its
    fast path in C (kgen._fast) or, without it, the Python path (slower a call: a lean build that made only
    libkgen measured 41.5 us where the fast path takes 19.2, 2026-12-04-rows-wide)."""
    p = torch.cuda.get_device_properties(0)
    from kgen import _lib
    path = "fast path in C: %s" % _lib.fast_where if _lib.fast is not None else "Python path: %s" % _lib.fast_where
    return "# %s UTC: %s; torch %s; kgen %s (%s); %s; --method %s, --rounds %d, --runs %d\n" % (
        time.strftime("%Y-%m-%d %H:%M", time.gmtime()), p.name, torch.__version__, kgen.__version__,
        kgen.library_path, path, a.method, a.rounds, a.runs)


def main(argv=None):
    a = parse_args(sys.argv[1:] if argv is None else argv)
    load()  # torch.compile's cache is reset for each case (compiled_call): no recompile limit is met
    g = torch.Generator(device="cuda").manual_seed(a.seed)
    results = []
    for op in a.ops:
        for dtype in a.dtypes:
            for rows, cols in a.shapes:
                r = one_case(op, dtype, rows, cols, a, g)
                results.append(r)
                print(table(COLUMNS, [r], True).splitlines()[-1], flush=True)
    small = [] if a.no_small else small_cases(a, g)
    md = a.out.endswith(".md")
    text = header(a) + "\n" + table(COLUMNS, results, md)
    if small:
        text += "\n" + table(SMALL, small, md)
    with open(a.out, "w") as f:
        f.write(text)
    print()
    print(header(a) + "\n" + table(COLUMNS, results, True) + ("\n" + table(SMALL, small, True) if small else ""))


if __name__ == "__main__":
    main()
