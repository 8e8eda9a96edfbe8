"""side_by_side.py SPEC...: each spec's cold build as one NVRTC program
(KGEN_JIT_THREADS=1) against its kernels compiled apart, side by side
(KGEN_JIT_THREADS=2: kgen_contract.side_by_side, a two-pass reduction's pass
and final pass), alternating, RUNS times each (default 5), each build a spec
of a new name so that no in-process hit answers it; run with KGEN_CACHE=0 so
that no disk hit does either.  Prints each spec's medians (ms) and apart /
one.  Needs a CUDA driver: a GPU, or the fake one (tests/fake_cuda), where
the NVRTC times are real and module loads are not."""
import os
import sys
import time

import yaml

import kgen


def main():
    specs = sys.argv[1:]
    if not specs:
        sys.exit("usage: side_by_side.py SPEC...")
    if os.environ.get("KGEN_CACHE") != "0":
        sys.exit("side_by_side.py: set KGEN_CACHE=0 (a disk hit would answer the builds)")
    runs = int(os.environ.get("RUNS", "5"))
    times, built = {}, 0
    for _ in range(runs):
        for path in specs:
            with open(path) as f:
                spec = yaml.safe_load(f)
            for threads in ("1", "2"):
                os.environ["KGEN_JIT_THREADS"] = threads
                built += 1
                t0 = time.perf_counter()
                kgen.Kernel(dict(spec, name="side_by_side_%d" % built))
                times.setdefault((path, threads), []).append((time.perf_counter() - t0) * 1e3)
    print("%-48s %9s %9s %6s" % ("spec (median ms of %d)" % runs, "one", "apart", "ratio"))
    for path in specs:
        one, apart = (sorted(times[(path, t)])[runs // 2] for t in ("1", "2"))
        print("%-48s %9.1f %9.1f %6.3f" % (path, one, apart, apart / one))


if __name__ == "__main__":
    main()
