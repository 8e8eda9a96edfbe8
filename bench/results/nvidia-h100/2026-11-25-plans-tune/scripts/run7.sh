top=$PWD; . .gpu/env.sh
R=$OUT/r; mkdir -p $R
{ nvidia-smi --query-gpu=name,clocks.max.sm,power.limit,driver_version --format=csv; date -u; cat $top/.gpu/commit.txt; } > $R/gpu.txt
if [ ! -x /tmp/kd/kgen ]; then
  ( rm -rf /tmp/kd && mkdir -p /tmp/kd && tar -xzf $top/.gpu/d/*.tar.gz -C /tmp/kd --strip-components=1 && cd /tmp/kd && ./configure --quiet && make -s -j16 && make -s kgen-cub ) > $R/build.log 2>&1
fi
cd /tmp/kd && ls kgen kgen-cub || { tail -20 $R/build.log; exit 1; }
echo "built $(date -u +%T)"
T=$top/.gpu/tune; mkdir -p $T
timeout ${LIMIT:-470} sh bench/plans/tune.sh $T "$@"
echo "rc=$? $(date -u +%T)"
cp -r $T $R/
cd $OUT && tar czf report.tgz r
