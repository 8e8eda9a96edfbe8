#!/bin/sh
set -u
top=$(pwd)
. .gpu/env.sh && kgen_build > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
b=$(pwd); R=$OUT/r; mkdir -p $R
{ date -u; nvidia-smi --query-gpu=name,clocks.max.sm,power.limit,driver_version --format=csv,noheader; echo "kgen commit $(cat $top/.gpu/commit.txt)"; } | tee $R/gpu.txt
T="--shape 4096x4096x4096 --shape 8192x8192x8192 --verify --bench --runs 10"
S=specs/matmul/best/simt_f32.yaml
i=0
for v in "" "--set tile_m=128 --set thread_n=16 --set warp_m=32 --set warp_n=128" "--set tile_m=128 --set thread_m=16 --set warp_m=128 --set warp_n=32" "--set tile_m=128 --set thread_n=16 --set warp_m=64 --set warp_n=64" "--set tile_m=64 --set tile_n=256 --set thread_n=16 --set warp_m=32 --set warp_n=128" "--set tile_m=128 --set thread_n=16 --set warp_m=64 --set warp_n=64 --set tile_k=8 --set stages=4" "--set tile_m=128 --set thread_n=16 --set warp_m=64 --set warp_n=64 --set stages=4" "--set tile_m=128 --set thread_n=16 --set warp_m=64 --set warp_n=64 --set tile_k=32 --set stages=2" "--set tile_m=128 --set thread_m=16 --set warp_m=64 --set warp_n=64"; do
  i=$((i+1)); echo "== simt $i: $v"
  ./kgen run $S $v $T > $R/simt-$i.txt 2>&1
  grep -oE "[0-9x]+ f32 +(ok|FAIL).*kgen/cuBLAS [0-9.]+" $R/simt-$i.txt | sed -E 's/ +/ /g'; grep -iE "error|refused" $R/simt-$i.txt | head -2
done
M=specs/matmul/best/mma_bf16.yaml
timeout 150 ncu --section WarpStateStats --section SourceCounters --print-details all -k regex:matmul -c 1 ./kgen run $M --shape 4096x4096x4096 --bench --runs 1 > $R/ncu-mma-stalls.txt 2>&1
grep -iE "stall|Warp Cycles" $R/ncu-mma-stalls.txt | head -40
tar czf $OUT/report.tgz -C $OUT r
