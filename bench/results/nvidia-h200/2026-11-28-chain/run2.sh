# H200 run 2 (issue 23, item 3): the report of the plans as now shipped
# (specs/plans/nvidia-h200/, every entry launch: chain, chosen in run 1),
# from a run of its own: bench/plans/plans.sh, events then graph, every
# result verified, CUB timed alike in the same process; then the two new
# launch specs verified at several n.
top=$PWD; . .gpu/env.sh
R=$OUT; { nvidia-smi --query-gpu=name,clocks.max.sm,power.limit,driver_version --format=csv; date -u; } > $R/gpu.txt
kgen_build > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "built $(date -u +%T)"
timeout 420 sh bench/plans/plans.sh $R events graph > $R/plans.log 2>&1
echo "plans $(date -u +%T): $(grep -c ' ok ' $R/plans.log) ok, $(grep -c FAIL $R/plans.log) FAIL"
timeout 60 ./kgen run --verify --n 0 --n 1 --n 31 --n 1000003 --n 16777223 --offset 1 specs/reduce/launch/*.yaml > $R/launch.txt 2>&1
echo "launch specs: $(grep -c ' ok ' $R/launch.txt) ok, $(grep -c FAIL $R/launch.txt) FAIL"
