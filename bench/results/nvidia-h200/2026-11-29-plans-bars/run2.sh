# H200 run 2 (issue 23, item 3): report.  The plans with the entries
# choose.py took from run 1's records (specs/plans/nvidia-h200/), timed
# against CUB by bench/plans/plans.sh, back to back (events) then graph
# replay, every result verified, in a run of their own; then verified at
# sizes off the powers of two.  Everything lands in $OUT/2.tgz.
top=$PWD; . .gpu/env.sh
R=$OUT/2; mkdir -p $R
{ nvidia-smi --query-gpu=name,clocks.max.sm,power.limit,driver_version --format=csv; date -u; } > $R/gpu.txt
kgen_build > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "built $(date -u +%T)"
PLANS="$(ls $top/specs/plans/nvidia-h200/*.yaml)" timeout 400 sh bench/plans/plans.sh $R events graph > $R/plans.log 2>&1
echo "plans $(date -u +%T): $(grep -c ' ok ' $R/plans.log) ok, $(grep -c FAIL $R/plans.log) FAIL"
timeout 60 ./kgen run --verify --n 0 --n 1 --n 31 --n 1000003 --n 5000011 --n 16777223 \
	$top/specs/plans/nvidia-h200/*.yaml > $R/plans-verify.txt 2>&1
echo "plans verify exit $?: $(grep -c ' ok ' $R/plans-verify.txt) ok, $(grep -c FAIL $R/plans-verify.txt) FAIL $(date -u +%T)"
cd $OUT && tar czf 2.tgz 2 && rm -rf 2
