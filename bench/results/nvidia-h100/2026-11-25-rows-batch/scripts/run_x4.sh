#!/bin/sh
# report run: rows with four loads in flight, mma serpentine; verify, nine axis shapes with peers, mma vs cuBLAS, relu small K vs torch
set -u
top=$(pwd)
. .gpu/env.sh && kgen_build > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
b=$(pwd); R=$OUT/r; mkdir -p $R
make -s tests/sample_test > $R/build-sample.log 2>&1
export KGEN_LIBRARY=$b/.libs/libkgen.so KGEN_TOP_SRCDIR=$b PYTHONPATH=$b/python
{ date -u; nvidia-smi --query-gpu=name,clocks.max.sm,clocks.sm,power.limit,driver_version --format=csv,noheader; echo "kgen commit $(cat $top/.gpu/commit.txt)"; } | tee $R/gpu.txt
sh bench/axis/axis.sh $R/axis > /dev/null 2>&1; echo "== axis"; grep -oE "^specs/[^ ]+ +[0-9x]+ (rows|cols) +(ok|FAIL).*kgen/CUB [0-9.]+" $R/axis/axis.txt | sed -E 's/ +/ /g; s/specs\/reduce_axis\/best\///; s/GB\/s.*kgen\/CUB/ kgen\/CUB/'
(KGEN_GPU_VERIFY="axis sample" timeout 170 sh tests/gpu_verify.sh) > $R/gpu-verify.txt 2>&1; echo "== gpu_verify axis sample rc=$?"; tail -3 $R/gpu-verify.txt; cp gpu_verify.log $R/gpu_verify.log 2>/dev/null
(timeout 170 python3 -m pytest -q -rs --tb=short python/tests/test_gpu_matmul.py) > $R/pytest-matmul.log 2>&1; echo "== pytest matmul"; tail -3 $R/pytest-matmul.log
M="specs/matmul/best/mma_bf16.yaml specs/matmul/best/mma_f16.yaml"
./kgen run $M --verify --shape 7x5x3 --shape 127x255x63 --shape 1000x3001x257 --set a_layout=col > $R/mma-verify.txt 2>&1
./kgen run $M --verify --shape 515x1031x67 --set b_layout=col --pad 5 >> $R/mma-verify.txt 2>&1
./kgen run $M --verify --shape 64x64x1048576 --shape 8192x8192x16 >> $R/mma-verify.txt 2>&1
echo "== mma verify: $(grep -c ' ok ' $R/mma-verify.txt) ok, $(grep -c FAIL $R/mma-verify.txt) FAIL"
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu --format=csv,noheader >> $R/gpu.txt
tar czf $OUT/report.tgz -C $OUT r
