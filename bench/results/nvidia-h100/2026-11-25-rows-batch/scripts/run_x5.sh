#!/bin/sh
# matmul report: best specs vs cuBLAS at 4096^3 and 8192^3, relu epilogue at small K vs cuBLAS+relu and torch
set -u
top=$(pwd)
. .gpu/env.sh && kgen_build > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
b=$(pwd); R=$OUT/r; mkdir -p $R
export KGEN_LIBRARY=$b/.libs/libkgen.so KGEN_TOP_SRCDIR=$b PYTHONPATH=$b/python
{ date -u; nvidia-smi --query-gpu=name,clocks.max.sm,clocks.sm,power.limit,driver_version --format=csv,noheader; echo "kgen commit $(cat $top/.gpu/commit.txt)"; } | tee $R/gpu.txt
make -s tests/sample_test > $R/build-sample.log 2>&1
A=$(find specs/reduce_axis -name '*.yaml' | LC_ALL=C sort)
for dt in f32 bf16 i32; do for pad in 0 3; do
  ./kgen run --verify --set dtype=$dt --pad $pad --shape 33x65 --shape 5000x64 --shape 3000x128 --shape 2000x200 --shape 1000x3001 --shape 7x17 $(for f in $A; do ./kgen check --set dtype=$dt $f 2>/dev/null && echo $f; done) >> $R/axis-verify.txt 2>&1
done; done
echo "== axis verify: $(grep -c ' ok ' $R/axis-verify.txt) ok, $(grep -c FAIL $R/axis-verify.txt) FAIL"
(KGEN_GPU_VERIFY=sample timeout 150 sh tests/gpu_verify.sh) > $R/gpu-verify-sample.txt 2>&1; echo "== gpu_verify sample rc=$?"; tail -2 $R/gpu-verify-sample.txt; cp gpu_verify.log $R/gpu_verify-sample.log 2>/dev/null
M="specs/matmul/best/mma_bf16.yaml specs/matmul/best/mma_f16.yaml"
./kgen run specs/matmul/best/simt_f32.yaml $M specs/matmul/best/wgmma_bf16.yaml --shape 4096x4096x4096 --shape 8192x8192x8192 --verify --bench --runs 10 > $R/mm.txt 2>&1
grep -oE "^specs/[^ ]+ +[0-9x]+ [bf0-9]+ +(ok|FAIL).*kgen/cuBLAS [0-9.]+" $R/mm.txt | sed -E 's/ +/ /g; s/specs\/matmul\///'
./kgen run specs/matmul/best/mma_bf16.yaml specs/matmul/best/wgmma_bf16.yaml --set "epilogue=v > 0 ? v : 0" --shape 8192x8192x128 --shape 8192x8192x256 --shape 8192x8192x512 --shape 8192x8192x8192 --verify --bench --runs 10 > $R/relu.txt 2>&1
echo "== relu"; grep -oE "^specs/[^ ]+ +[0-9x]+ [bf0-9]+ +(ok|FAIL).*kgen/cuBLAS [0-9.]+" $R/relu.txt | sed -E 's/ +/ /g; s/specs\/matmul\///'
python3 bench/matmul/torch_peer.py --shapes 8192x8192x128 8192x8192x256 8192x8192x512 8192x8192x8192 --dtypes bf16 --runs 10 > $R/torch.txt 2>&1; grep -v "^#" $R/torch.txt
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu --format=csv,noheader >> $R/gpu.txt
tar czf $OUT/report.tgz -C $OUT r
