# H100: the nine plans (max from run 8) against CUB, events and graph (bench/plans/plans.sh), a run apart from their tuning.
top=$PWD; . .gpu/env.sh
R=$OUT/r; mkdir -p $R
{ nvidia-smi --query-gpu=name,clocks.max.sm,power.limit,driver_version --format=csv; date -u; cat $top/.gpu/commit.txt; } > $R/gpu.txt
if [ ! -x /tmp/kd/kgen ]; then
  ( rm -rf /tmp/kd && mkdir -p /tmp/kd && tar -xzf $top/.gpu/d/*.tar.gz -C /tmp/kd --strip-components=1 && cd /tmp/kd && ./configure --quiet && make -s -j16 && make -s kgen-cub ) > $R/build.log 2>&1
fi
cd /tmp/kd && ls kgen kgen-cub || { tail -20 $R/build.log; exit 1; }
cp $top/.gpu/newplans/max-*.yaml specs/plans/nvidia-h100/
echo "built $(date -u +%T)"
timeout ${LIMIT:-500} sh bench/plans/plans.sh $R > $R/plans.log 2>&1; echo "plans rc=$? $(date -u +%T)"
tail -40 $R/plans.log
cd $OUT && tar czf report.tgz r
