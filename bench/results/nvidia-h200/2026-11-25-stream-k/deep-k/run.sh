#!/bin/sh
# Deep k, few tiles: wgmma (persistent, a block a tile) against mma.sync with schedule: tiles and stream_k
set -u
top=$(pwd)
. .gpu/env.sh && kgen_build > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
b=$(pwd); R=$OUT/r; mkdir -p $R
{ date -u; nvidia-smi --query-gpu=name,clocks.max.sm,power.limit,driver_version --format=csv,noheader; echo "kgen commit $(cat $top/.gpu/commit.txt)"; } | tee $R/gpu.txt
S="--shape 1024x1024x65536 --shape 512x512x131072 --shape 2048x2048x16384 --shape 256x4096x32768 --shape 4096x4096x2048 --verify --bench --runs 10"
run() { f=$1; shift; ./kgen run "$@" > $R/$f.txt 2>&1; grep -oE "^[^ ]+ +[0-9x]+ [bf0-9]+ +(ok|FAIL).*kgen/cuBLAS [0-9.]+" $R/$f.txt | sed -E 's/ +/ /g; s/^[^ ]*\///' | sed "s/^/$f /"; }
run wgmma specs/matmul/best/wgmma_bf16.yaml $S
run mma-tiles specs/matmul/best/mma_bf16.yaml $S
run mma-sk specs/matmul/best/mma_bf16.yaml --set schedule=stream_k $S
run simt-sk specs/matmul/best/simt_f32.yaml $S
run simt-tiles specs/matmul/best/simt_f32.yaml --set schedule=tiles $S
tar czf $OUT/report.tgz -C $OUT r
