# H200 run 1 (issue 23, item 3): launch: chain against the plans as shipped.
# The nine H200 plans and the same plans with every entry's launch: chain
# (plans/, written by chain.py), each verified and timed against CUB in one
# process per method (back to back between events, graph replay) at 2^10 to
# 2^30; then every shipped reduce spec (last-block-chain.yaml and
# two-pass-chain.yaml among them) and a sample of the language verified on
# the GPU.
top=$PWD; . .gpu/env.sh
R=$OUT; { nvidia-smi --query-gpu=name,clocks.max.sm,power.limit,driver_version --format=csv; date -u; } > $R/gpu.txt
kgen_build > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "built $(date -u +%T)"
C=$top/bench/results/nvidia-h200/2026-11-28-chain
PLANS="$(ls $top/specs/plans/nvidia-h200/*.yaml) $(ls $C/plans/*.yaml)" sh bench/plans/plans.sh $R events graph > $R/plans.log 2>&1
grep -c " ok " $R/plans.log; grep -c FAIL $R/plans.log
echo "plans $(date -u +%T)"
python3 $C/compare.py $R/plans-events.tsv $R/plans-graph.tsv
KGEN_GPU_VERIFY="reduce sample" timeout 300 make check TESTS="tests/gpu_verify.sh tests/reduce_test" > $R/check.log 2>&1
grep -E "^(PASS|FAIL|SKIP|ERROR)" $R/check.log; cp tests/gpu_verify.log $R/ 2>/dev/null
grep -c "launch: chain\|chain" $R/gpu_verify.log
echo "verify $(date -u +%T)"
