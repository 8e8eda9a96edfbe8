#!/bin/sh
# Branch wgmma-streamk, before it goes to main: on an H100 or H200, from the
# root of a built tree (. .gpu/env.sh && kgen_build), verify schedule:
# stream_k for math: wgmma and the cluster kernel's plain remote arrive, then
# time both against what main ships.  Writes into $OUT (or ./out).
set -u
R=${OUT:-out}/r; mkdir -p "$R"
V="--shape 8x8x8 --shape 136x264x1000 --shape 2000x3000x520 --shape 64x64x1048576 --shape 8192x8192x16 --shape 1000x1000x65536 --verify"
{
for la in row col; do for lb in row col; do
  ./kgen run specs/matmul/best/wgmma_bf16.yaml --set schedule=stream_k --set a_layout=$la --set b_layout=$lb $V
done; done
./kgen run specs/matmul/best/wgmma_f16.yaml --set schedule=stream_k --set "epilogue=v > 0 ? v : 0" --set out_dtype=f32 $V
./kgen run specs/matmul/hopper/03-warp-specialized.yaml --set schedule=stream_k $V
./kgen run specs/matmul/hopper/04-clusters.yaml specs/matmul/hopper/03-warp-specialized.yaml --set cluster=1x2 $V
} > "$R/verify.txt" 2>&1
echo "verify: $(grep -cE ' ok ' "$R/verify.txt") ok, $(grep -c FAIL "$R/verify.txt") FAIL"
T="--shape 8192x8192x8192 --shape 4096x4096x4096 --shape 8192x8192x1024 --verify --bench --runs 10"
for i in 1 2; do
  ./kgen run specs/matmul/best/wgmma_bf16.yaml --set schedule=stream_k $T > "$R/sk-$i.txt" 2>&1
  ./kgen run specs/matmul/best/wgmma_bf16.yaml $T > "$R/tiles-$i.txt" 2>&1
done
./kgen run specs/matmul/hopper/03-warp-specialized.yaml specs/matmul/hopper/04-clusters.yaml $T > "$R/clusters.txt" 2>&1
grep -hoE "^[^ ]+ +[0-9x]+ [bf0-9]+ +(ok|FAIL).*kgen/cuBLAS [0-9.]+" "$R"/*.txt | sed -E 's/ +/ /g'
