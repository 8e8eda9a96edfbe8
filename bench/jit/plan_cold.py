"""plan_cold.py PLAN: the wall time of kgen.Kernel(plan=PLAN) in this
process, in ms: a size plan's build, every entry cold where the disk cache is
off (KGEN_CACHE=0).  Run it in a fresh process per figure, with the kgen
package on PYTHONPATH (bench/results/cpu-dev/2026-11-25-plan-parallel/README.md
gives the environment it ran in).

Moved here on 2026-12-02 from bench/results/cpu-dev/2026-11-25-plan-parallel/,
the run that used it; the code is unchanged."""
import sys, time, kgen
t = time.perf_counter()
k = kgen.Kernel(plan=sys.argv[1])
print("%.1f ms" % ((time.perf_counter() - t) * 1e3))
