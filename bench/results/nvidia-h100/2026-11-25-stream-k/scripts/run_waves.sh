#!/bin/sh
# Wave quantization: does a last partial wave of tiles cost a whole wave?
set -u
top=$(pwd)
. .gpu/env.sh && kgen_build > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
b=$(pwd); R=$OUT/r; mkdir -p $R
{ date -u; nvidia-smi --query-gpu=name,clocks.max.sm,power.limit,driver_version --format=csv,noheader; echo "kgen commit $(cat $top/.gpu/commit.txt)"; } | tee $R/gpu.txt
run() { f=$1; shift; ./kgen run "$@" --verify --bench --runs 10 > $R/$f.txt 2>&1; grep -oE "^[^ ]+ +[0-9x]+ [bf0-9]+ +(ok|FAIL).*kgen/cuBLAS [0-9.]+" $R/$f.txt | sed -E 's/ +/ /g; s/^[^ ]*\///'; }
run mma specs/matmul/best/mma_bf16.yaml --shape 7936x8192x8192 --shape 8192x8192x8192 --shape 8448x8192x8192
run simt specs/matmul/best/simt_f32.yaml --shape 3968x4096x4096 --shape 4096x4096x4096 --shape 4224x4096x4096 --shape 8192x8192x8192 --shape 8448x8192x8192
run wgmma specs/matmul/best/wgmma_bf16.yaml --shape 7936x8192x8192 --shape 8192x8192x8192 --shape 8448x8192x8192 --shape 4096x4096x4096
tar czf $OUT/report.tgz -C $OUT r
