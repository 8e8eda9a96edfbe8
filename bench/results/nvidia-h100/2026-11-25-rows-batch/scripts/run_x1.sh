#!/bin/sh
# exploration: tall-thin rows/cols strategies; mma fused relu at small K vs torch
set -u
top=$(pwd)
. .gpu/env.sh && kgen_build > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
R=$OUT/r; mkdir -p $R
{ date -u; nvidia-smi --query-gpu=name,clocks.max.sm,clocks.sm,power.limit,driver_version --format=csv,noheader; echo "kgen commit $(cat $top/.gpu/commit.txt)"; } | tee $R/gpu.txt
S="--verify --bench --runs 20"
short() { grep -E "kgen/CUB|FAIL|error" | sed -E 's/ +/ /g' | cut -c1-220; }
i=0
for sh in 4194304x64 1048576x256; do
 for v in "" "--set strategy=warp --set lanes=4" "--set strategy=warp --set lanes=8" "--set strategy=warp --set lanes=16" "--set strategy=warp --set lanes=16 --set threads=256" "--set strategy=warp --set lanes=16 --set threads=1024" "--set strategy=warp --set lanes=32" "--set threads=256" "--set threads=1024"; do
  i=$((i+1)); echo "== rows $sh $v"; ./kgen run specs/reduce_axis/best/rows.yaml --shape $sh $S $v > $R/rows-$i.txt 2>&1; short < $R/rows-$i.txt
 done
done
for sh in 4194304x64 1048576x256; do
 for v in "" "--set threads=256" "--set threads=1024" "--set split=132" "--set split=264" "--set split=528" "--set split=1056" "--set split=2112"; do
  i=$((i+1)); echo "== cols $sh $v"; ./kgen run specs/reduce_axis/best/cols.yaml --shape $sh $S $v > $R/cols-$i.txt 2>&1; short < $R/cols-$i.txt
 done
done
echo "== relu small K"
./kgen run specs/matmul/best/mma_bf16.yaml specs/matmul/best/wgmma_bf16.yaml --set "epilogue=v > 0 ? v : 0" --shape 8192x8192x64 --shape 8192x8192x128 --shape 8192x8192x256 --shape 8192x8192x512 --verify --bench --runs 10 > $R/relu.txt 2>&1
grep -oE "^specs/[^ ]+ +[0-9x]+ [bf0-9]+ +(ok|FAIL).*kgen/cuBLAS [0-9.]+" $R/relu.txt | sed -E 's/ +/ /g; s/specs\/matmul\///'
python3 bench/matmul/torch_peer.py --shapes 8192x8192x64 8192x8192x128 8192x8192x256 8192x8192x512 --dtypes bf16 --runs 10 > $R/torch.txt 2>&1; grep -v "^#" $R/torch.txt
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu --format=csv,noheader >> $R/gpu.txt
tar czf $OUT/report.tgz -C $OUT r
