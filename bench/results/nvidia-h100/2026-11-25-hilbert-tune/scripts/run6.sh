top=$PWD; . .gpu/env.sh
R=$OUT/r; mkdir -p $R
{ nvidia-smi --query-gpu=name,clocks.max.sm,power.limit,driver_version --format=csv; date -u; cat $top/.gpu/commit.txt; } > $R/gpu.txt
cd /tmp/kc || exit 1
cp bench/matmul/spaces/wgmma-bf16.yaml $R/
timeout 540 ./kgen tune $R/wgmma-bf16.yaml --shape 8192x8192x8192 --shape 4096x4096x4096 --shape 8192x8192x1024 --shape 16384x4096x4096 -j 16 > $R/tune.txt 2>&1
echo "rc=$? $(date -u +%T)"
tail -40 $R/tune.txt | cut -c1-160
cd $OUT && tar czf report.tgz r
