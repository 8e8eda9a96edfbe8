# H200: the nine H200 plans against CUB (bench/plans/plans.sh, which now takes GPU 0's plans from kgen info), events and graph.
top=$PWD; . .gpu/env.sh
R=$OUT/r; mkdir -p $R
{ nvidia-smi --query-gpu=name,clocks.max.sm,power.limit,driver_version --format=csv; date -u; cat $top/.gpu/commit.txt; } > $R/gpu.txt
( rm -rf /tmp/kp && mkdir -p /tmp/kp && tar -xzf $top/.gpu/d/*.tar.gz -C /tmp/kp --strip-components=1 && cd /tmp/kp && ./configure --quiet && make -s -j16 && make -s kgen-cub ) > $R/build.log 2>&1
cd /tmp/kp && ls kgen kgen-cub > /dev/null || { tail -20 $R/build.log; exit 1; }
echo "built $(date -u +%T)"
KGEN_PLANS_DIR=$PWD/specs/plans ./kgen info > $R/info.txt 2>&1; cat $R/info.txt
timeout ${LIMIT:-480} sh bench/plans/plans.sh $R > $R/plans.log 2>&1; echo "plans rc=$? $(date -u +%T)"
tail -18 $R/plans.log
cd $OUT && tar czf report.tgz r
