#!/bin/sh
# H200 report: the nine axis shapes with peers; matmul: best specs vs cuBLAS at 4096^3 and 8192^3, relu epilogue at small K vs cuBLAS+relu and torch
set -u
top=$(pwd)
. .gpu/env.sh && kgen_build > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
b=$(pwd); R=$OUT/r; mkdir -p $R
export KGEN_LIBRARY=$b/.libs/libkgen.so KGEN_TOP_SRCDIR=$b PYTHONPATH=$b/python
{ date -u; nvidia-smi --query-gpu=name,clocks.max.sm,clocks.sm,power.limit,driver_version --format=csv,noheader; echo "kgen commit $(cat $top/.gpu/commit.txt)"; } | tee $R/gpu.txt
sh bench/axis/axis.sh $R/axis > /dev/null 2>&1; echo "== axis"; grep -oE "(rows|cols).yaml +[0-9x]+ (rows|cols) +(ok|FAIL).*kgen/CUB [0-9.]+" $R/axis/axis.txt | sed -E 's/ +/ /g; s/GB\/s.*kgen\/CUB/ kgen\/CUB/'
M="specs/matmul/best/mma_bf16.yaml specs/matmul/best/mma_f16.yaml"
./kgen run specs/matmul/best/simt_f32.yaml $M specs/matmul/best/wgmma_bf16.yaml --shape 4096x4096x4096 --shape 8192x8192x8192 --verify --bench --runs 10 > $R/mm.txt 2>&1
grep -oE "^specs/[^ ]+ +[0-9x]+ [bf0-9]+ +(ok|FAIL).*kgen/cuBLAS [0-9.]+" $R/mm.txt | sed -E 's/ +/ /g; s/specs\/matmul\///'
./kgen run specs/matmul/best/mma_bf16.yaml specs/matmul/best/wgmma_bf16.yaml --set "epilogue=v > 0 ? v : 0" --shape 8192x8192x128 --shape 8192x8192x256 --shape 8192x8192x512 --shape 8192x8192x8192 --verify --bench --runs 10 > $R/relu.txt 2>&1
echo "== relu"; grep -oE "^specs/[^ ]+ +[0-9x]+ [bf0-9]+ +(ok|FAIL).*kgen/cuBLAS [0-9.]+" $R/relu.txt | sed -E 's/ +/ /g; s/specs\/matmul\///'
python3 bench/matmul/torch_peer.py --shapes 8192x8192x128 8192x8192x256 8192x8192x512 8192x8192x8192 --dtypes bf16 --runs 10 > $R/torch.txt 2>&1; grep -v "^#" $R/torch.txt
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu --format=csv,noheader >> $R/gpu.txt
tar czf $OUT/report.tgz -C $OUT r
