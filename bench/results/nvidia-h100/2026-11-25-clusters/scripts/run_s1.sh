top=$PWD
. .gpu/env.sh
mkdir -p $OUT/r
{ nvidia-smi --query-gpu=name,clocks.max.sm,power.limit,driver_version --format=csv; date -u; cat .gpu/commit.txt; } > $OUT/r/gpu.txt
kgen_build > $OUT/r/build.log 2>&1 || { tail -30 $OUT/r/build.log; exit 1; }
sh $top/bench/matmul/check_wgmma_streamk.sh
cd $OUT && tar czf report.tgz r
