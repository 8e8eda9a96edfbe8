#!/bin/sh
set -u
top=$(pwd)
. .gpu/env.sh && kgen_build > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
b=$(pwd); R=$OUT/r; mkdir -p $R
{ date -u; nvidia-smi --query-gpu=name,clocks.max.sm,power.limit,driver_version --format=csv,noheader; echo "kgen commit $(cat $top/.gpu/commit.txt)"; } | tee $R/gpu.txt
T="--shape 4096x4096x4096 --shape 8192x8192x8192 --verify --bench --runs 10"
M=specs/matmul/best/mma_bf16.yaml
i=0
for v in "" "--set warp_n=32 --set blocks_per_sm=2" "--set warp_m=32 --set blocks_per_sm=2" "--set tile_n=256 --set warp_n=32 --set tile_k=32 --set stages=4" "--set tile_n=256 --set warp_n=32 --set blocks_per_sm=1" "--set tile_m=256 --set warp_n=32 --set blocks_per_sm=1"; do
  i=$((i+1)); echo "== mma $i: $v"
  ./kgen run $M $v $T > $R/mma-$i.txt 2>&1
  grep -oE "[0-9x]+ bf16 +(ok|FAIL).*kgen/cuBLAS [0-9.]+" $R/mma-$i.txt | sed -E 's/ +/ /g'; grep -iE "error|refused" $R/mma-$i.txt | head -2
done
tar czf $OUT/report.tgz -C $OUT r
