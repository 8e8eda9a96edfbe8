# H200 run 1 (issue 23, item 5): a spec of alternative kernels compiled a
# kernel a program, side by side (KGEN_JIT_THREADS): is each kernel the same,
# does every reduce_axis spec still verify with a module a kernel, and what
# does it save against the whole file on this host's CPUs?
top=$PWD; . .gpu/env.sh
R=$OUT
{ nvidia-smi --query-gpu=name,clocks.max.sm,power.limit,driver_version --format=csv; date -u;
  echo "$(nproc) CPUs: $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')"; } > $R/gpu.txt
kgen_build > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "built $(date -u +%T)"
# 1. Every reduce_axis spec verified on the GPU, its kernels apart (the
#    default here: 16 CPUs), f32 and bf16, packed and padded, every kernel
#    of auto rows reached (rows of 1 to 3001 elements).
A=$(find specs/reduce_axis -name '*.yaml' | LC_ALL=C sort)
S="--shape 7x3 --shape 7x17 --shape 4097x12 --shape 4097x24 --shape 4097x40 --shape 5000x32 --shape 33x16 --shape 70000x4 --shape 3000x1000 --shape 1000x3001"
for dt in f32 bf16; do for pad in 0 3; do
  ./kgen run --verify --set dtype=$dt --pad $pad $S $(for f in $A; do ./kgen check --set dtype=$dt $f 2>/dev/null && echo $f; done) >> $R/verify.txt 2>&1
done; done
echo "verify: $(grep -c ' ok ' $R/verify.txt) ok, $(grep -c FAIL $R/verify.txt) FAIL $(date -u +%T)"
grep -B2 -A3 FAIL $R/verify.txt | head -20
# 2. The GPU tests of the runtime and the matrix reductions.
make check TESTS="tests/reduce_axis_test tests/runtime_test tests/gpu_plan_test" > $R/check.log 2>&1
grep -E "^(PASS|FAIL|SKIP|ERROR)" $R/check.log; grep -h "Checks" tests/*.log | head
echo "tests $(date -u +%T)"
# (Step 3 here ran no program: bench/jit/nvrtc_options is not built by
# default; run2.sh builds it and does the timing.)
