"""vs_torch.py [--cols] [N | RxC ...]: kgen.cumsum against torch.cumsum on f32 and
i32 vectors of N elements (int32 scanned into int64, as torch does) and
along the rows of R x C matrices (dim=-1; with --cols down their columns,
dim=-2: the column kernel, kgen's default), cupy.cumsum where CuPy is
installed (on the same memory; it runs on torch's current stream only if
that is the default one, which it is here), and a device-to-device
copy of the same bytes (read + written), in one process on one GPU.  Each
result is checked against torch's first (floats within a sum's bound,
integers exactly).  Times: CUDA events around 20 calls back to back, the
median of 7 such batches, per call (a call over 5 ms: 3 batches of one);
the copy timed twice, the later kept.
Prints one line per dtype and n: the three times in us, kgen's fraction
of the copy's bandwidth, torch's time over kgen's, and CuPy's time and its
over kgen's (-1 without CuPy); with --cols also the time of kgen's other
route down the columns (dim=-2 with axis="rows": a row scan between two
transposes, checked the same way; the default before 2026-12-05) and its
over the column kernel's."""
import sys

import torch

import kgen

try:  # CuPy's cumsum as a second peer, where it is installed
    import cupy
except ImportError:
    cupy = None


def per_call(fn, reps=7, calls=20):
    """The median of `reps` batches of `calls` calls, per call (a call over 5
    ms, as torch.cumsum down a tall matrix's columns: 3 batches of one)."""
    a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    a.record()
    fn()
    b.record()
    b.synchronize()
    if a.elapsed_time(b) > 5:
        reps, calls = 3, 1
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        for _ in range(calls):
            fn()
        b.record()
        b.synchronize()
        times.append(a.elapsed_time(b) / calls * 1e3)
    return sorted(times)[reps // 2]


def main():
    args = [a for a in sys.argv[1:] if a != "--cols"]
    dim = -2 if "--cols" in sys.argv[1:] else -1
    sizes = [tuple(int(eval(d.replace("^", "**"))) for d in a.split("x")) for a in args] or [
        (2 ** 20,), (2 ** 24,), (2 ** 28,)]
    g = torch.Generator(device="cuda").manual_seed(52)
    print("# %s, torch %s, kgen %s, dim %d" % (torch.cuda.get_device_name(), torch.__version__, kgen.__version__, dim))
    print("dtype shape kgen_us torch_us copy_us kgen_of_copy torch_over_kgen cupy_us cupy_over_kgen" +
          (" transposes_us transposes_over_kgen" if dim == -2 else ""))
    for dt in ("f32", "i32"):
        for shape in sizes:
            d = dim if len(shape) > 1 else -1
            n, length = 1, shape[d]
            for e in shape:
                n *= e
            if dt == "f32":
                x = torch.rand(shape, generator=g, device="cuda") * 2 - 1
                got, want = kgen.cumsum(x, dim=d), torch.cumsum(x.double(), d)
                steps = torch.arange(1, length + 1, device="cuda").view((-1, 1) if d == -2 else (-1,))
                bound = 2.0 ** -23 * (22 + steps / 2048) * torch.cumsum(x.double().abs(), d)
                assert torch.all((got.double() - want).abs() <= bound), "kgen.cumsum f32 is wrong"
                ours, theirs = (lambda: kgen.cumsum(x, dim=d)), (lambda: torch.cumsum(x, d))
                moved = n * 8
            else:
                x = torch.randint(-1000, 1000, shape, generator=g, device="cuda", dtype=torch.int32)
                got = kgen.scan(x, dim=d, acc_dtype="i64")
                assert torch.equal(got, torch.cumsum(x, d)), "kgen.scan i32 -> i64 is wrong"
                ours, theirs = (lambda: kgen.scan(x, dim=d, acc_dtype="i64")), (lambda: torch.cumsum(x, d))
                moved = n * 12
            src = torch.empty(moved // 2, dtype=torch.uint8, device="cuda")
            dst = torch.empty_like(src)
            per_call(lambda: dst.copy_(src))
            copy = per_call(lambda: dst.copy_(src))
            k, t = per_call(ours), per_call(theirs)
            c = -1.0
            if cupy is not None:  # the same tensor through DLPack; int32 scanned into int64 as torch's
                cx = cupy.from_dlpack(x)
                cd = cupy.int64 if dt == "i32" else None
                theirs_c = cupy.cumsum(cx, axis=d, dtype=cd)  # a sanity check of the peer: ints exactly
                assert (cupy.array_equal(theirs_c, cupy.from_dlpack(got)) if dt == "i32" else
                        cupy.allclose(theirs_c, cupy.from_dlpack(got), rtol=1e-3, atol=1e-1)), "cupy.cumsum and kgen differ"
                del theirs_c
                c = per_call(lambda: cupy.cumsum(cx, axis=d, dtype=cd))
            tr = ""
            if d == -2:  # kgen's other route down the columns: a row scan between two transposes
                if dt == "f32":
                    other = kgen.cumsum(x, dim=d, axis="rows")
                    assert torch.all((other.double() - want).abs() <= bound), "kgen.cumsum's transposes are wrong"
                    route = lambda: kgen.cumsum(x, dim=d, axis="rows")
                else:
                    other = kgen.scan(x, dim=d, acc_dtype="i64", axis="rows")
                    assert torch.equal(other, torch.cumsum(x, d)), "kgen.scan's transposes are wrong"
                    route = lambda: kgen.scan(x, dim=d, acc_dtype="i64", axis="rows")
                del other
                r = per_call(route)
                tr = " %.2f %.2f" % (r, r / k)
            print("%s %s %.2f %.2f %.2f %.3f %.2f %.2f %.2f%s" % (dt, "x".join(map(str, shape)), k, t, copy, copy / k,
                                                                    t / k, c, c / k if c > 0 else -1, tr))
            sys.stdout.flush()
            del x, got, src, dst


if __name__ == "__main__":
    main()
