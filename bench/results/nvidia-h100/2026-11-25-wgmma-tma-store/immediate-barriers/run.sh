#!/bin/sh
set -u
top=$(pwd)
. .gpu/env.sh && kgen_build > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
b=$(pwd); R=$OUT/r; mkdir -p $R
{ date -u; nvidia-smi --query-gpu=name,clocks.max.sm,power.limit,driver_version --format=csv,noheader; echo "kgen commit $(cat $top/.gpu/commit.txt)"; } | tee $R/gpu.txt
S=specs/matmul/hopper/05-tma-store.yaml
SH="--shape 8x8x8 --shape 1000x264x136 --shape 2000x3000x520 --verify"
{
./kgen run $S $SH
./kgen run $S --set a_layout=col --set b_layout=col $SH
./kgen run $S --set consumers=1 --set tile_n=128 $SH
./kgen run $S --set consumers=1 --set tile_m=64 --set tile_n=128 $SH
./kgen run $S --set tile_n=64 $SH
./kgen run $S --set tile_n=192 $SH
./kgen run $S --set tile_m=256 --set tile_n=128 $SH
./kgen run $S --set out_dtype=f32 --set tile_m=256 --set tile_n=128 $SH
./kgen run $S --set out_dtype=f64 --set tile_n=128 $SH
./kgen run $S --set b_layout=col --shape 1000x259x136 --shape 5x3x8 --verify
} > $R/verify.txt 2>&1
echo "verify: $(grep -cE ' ok ' $R/verify.txt) ok, $(grep -c FAIL $R/verify.txt) FAIL, $(grep -c 'rejected' $R/verify.txt) rejected, $(grep -c '^specs' $R/verify.txt) results, $(grep -c 'error' $R/verify.txt) errors"
grep -E "FAIL|error" $R/verify.txt | head -5
./kgen run specs/matmul/best/wgmma_bf16.yaml specs/matmul/best/wgmma_f16.yaml --shape 8192x8192x8192 --shape 4096x4096x4096 --shape 8192x8192x1024 --verify --bench --runs 10 > $R/best.txt 2>&1
grep -oE "^specs/[^ ]+ +[0-9x]+ [bf0-9]+ +(ok|FAIL).*kgen/cuBLAS [0-9.]+" $R/best.txt | sed -E 's/ +/ /g; s/specs\/matmul\///'
export KGEN_LIBRARY=$b/.libs/libkgen.so KGEN_TOP_SRCDIR=$b PYTHONPATH=$b/python
(timeout 150 python3 -m pytest -q -rs --tb=short python/tests/test_gpu.py python/tests/test_gpu_ops.py python/tests/test_gpu_percall.py python/tests/test_gpu_matmul.py) > $R/pytest.log 2>&1; tail -1 $R/pytest.log
timeout 60 python3 bench/python-overhead/vs_torch.py 5000 7 > $R/vs-torch.txt 2>&1; grep "^sum-1024 " $R/vs-torch.txt
tar czf $OUT/report.tgz -C $OUT r
