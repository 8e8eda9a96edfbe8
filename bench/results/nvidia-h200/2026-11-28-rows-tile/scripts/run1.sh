# H200 run 1: the rows lab (lab/rows_lab.cu), kgen's rows spec at the two
# tall-thin shapes, then the H200's plans against CUB (bench/plans/plans.sh).
top=$PWD; . .gpu/env.sh
R=$OUT; lab=$top/bench/results/nvidia-h200/2026-11-28-rows-tile/lab
{ nvidia-smi --query-gpu=name,clocks.max.sm,power.limit,driver_version --format=csv; date -u; git -C $top rev-parse HEAD 2>/dev/null; } > $R/gpu.txt
nvcc -O3 -arch=sm_90 -std=c++17 -o /tmp/rows_lab $lab/rows_lab.cu > $R/lab-build.log 2>&1 || { cat $R/lab-build.log; exit 1; }
cuobjdump -sass /tmp/rows_lab > /tmp/lab.sass 2>&1
awk '/Function :/ { f = $3 } /LDG/ { n[f]++ } END { for (f in n) print n[f], f }' /tmp/lab.sass > $R/lab-ldg.txt
/tmp/rows_lab 20 > $R/lab.txt 2>&1; echo "lab rc=$? $(date -u +%T)"
kgen_build > $R/build.log 2>&1 && make -s kgen-cub >> $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "built $(date -u +%T)"
./kgen run specs/reduce_axis/best/rows.yaml specs/reduce_axis/best/cols.yaml --shape 4194304x64 --shape 1048576x256 --verify --bench --runs 20 > $R/axis.txt 2>&1; echo "axis rc=$?"
timeout ${LIMIT:-330} sh bench/plans/plans.sh $R > $R/plans.log 2>&1; echo "plans rc=$? $(date -u +%T)"
cat $R/lab.txt; cut -c1-200 $R/axis.txt | grep -v "^#"; tail -30 $R/plans.log | cut -c1-160
