#!/bin/sh
# issue 21's report: seed 002's ladder and the best specs against cuBLAS, torch, one run
set -u
top=$(pwd)
. .gpu/env.sh && kgen_build > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
b=$(pwd); R=$OUT/r; mkdir -p $R
{ date -u; nvidia-smi --query-gpu=name,clocks.max.sm,clocks.sm,power.limit,driver_version --format=csv,noheader; echo "kgen commit $(cat $top/.gpu/commit.txt)"; } | tee $R/gpu.txt
./kgen run specs/matmul/seed-002/*.yaml specs/matmul/best/simt_f32.yaml specs/matmul/best/mma_bf16.yaml specs/matmul/best/mma_f16.yaml specs/matmul/best/wgmma_bf16.yaml specs/matmul/best/wgmma_f16.yaml \
  --shape 4096x4096x4096 --shape 8192x8192x8192 --verify --bench --runs 10 --tsv $R/ladder.tsv > $R/ladder.txt 2>&1
grep -oE "^specs/[^ ]+ +[0-9x]+ [bf0-9]+ +(ok|FAIL).*kgen/cuBLAS [0-9.]+" $R/ladder.txt | sed -E 's/ +/ /g; s/specs\/matmul\///'
./kgen run specs/matmul/best/mma_bf16.yaml specs/matmul/best/mma_f16.yaml specs/matmul/best/wgmma_bf16.yaml --shape 8192x8192x1024 --verify --bench --runs 10 > $R/k1024.txt 2>&1
grep -oE "^specs/[^ ]+ +[0-9x]+ [bf0-9]+ +(ok|FAIL).*kgen/cuBLAS [0-9.]+" $R/k1024.txt | sed -E 's/ +/ /g; s/specs\/matmul\///'
./kgen run specs/matmul/best/mma_bf16.yaml specs/matmul/best/wgmma_bf16.yaml --set "epilogue=v > 0 ? v : 0" --shape 8192x8192x8192 --shape 8192x8192x1024 --verify --bench --runs 10 > $R/relu.txt 2>&1
echo "== relu"; grep -oE "^specs/[^ ]+ +[0-9x]+ [bf0-9]+ +(ok|FAIL).*kgen/cuBLAS [0-9.]+" $R/relu.txt | sed -E 's/ +/ /g; s/specs\/matmul\///'
python3 bench/matmul/torch_peer.py --shapes 8192x8192x8192 4096x4096x4096 8192x8192x1024 --dtypes f32 bf16 f16 --runs 10 > $R/torch.txt 2>&1; grep -v "^#" $R/torch.txt
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu --format=csv,noheader >> $R/gpu.txt
tar czf $OUT/report.tgz -C $OUT r
