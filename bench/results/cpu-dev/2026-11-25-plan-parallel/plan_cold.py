import sys, time, kgen
t = time.perf_counter()
k = kgen.Kernel(plan=sys.argv[1])
print("%.1f ms" % ((time.perf_counter() - t) * 1e3))
