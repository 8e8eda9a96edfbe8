# H100: tune the max plans of f32, bf16, i32 (issue 23, item 4); kgen run shipped:... on the real GPU.
top=$PWD; . .gpu/env.sh
R=$OUT/r; mkdir -p $R
{ nvidia-smi --query-gpu=name,clocks.max.sm,power.limit,driver_version --format=csv; date -u; cat $top/.gpu/commit.txt; } > $R/gpu.txt
if [ ! -x /tmp/kd/kgen ]; then
  ( rm -rf /tmp/kd && mkdir -p /tmp/kd && tar -xzf $top/.gpu/d/*.tar.gz -C /tmp/kd --strip-components=1 && cd /tmp/kd && ./configure --quiet && make -s -j16 && make -s kgen-cub ) > $R/build.log 2>&1
fi
cd /tmp/kd && ls kgen kgen-cub || { tail -20 $R/build.log; exit 1; }
echo "built $(date -u +%T)"
KGEN_PLANS_DIR=$PWD/specs/plans ./kgen run shipped:sum-f32 shipped:max-f32 --n 2^20 --n 2^27 --bench > $R/shipped.txt 2>&1; echo "shipped rc=$?" >> $R/shipped.txt
cat $R/shipped.txt
T=$top/.gpu/tune8; mkdir -p $T
timeout ${LIMIT:-470} sh bench/plans/tune.sh $T "$@"
echo "rc=$? $(date -u +%T)"
cp -r $T $R/
cd $OUT && tar czf report.tgz r
