#!/bin/sh
# GPU run E: the wgmma clusters and pairs store verified in every layout and timed; the mma/simt candidates timed; the Python GPU tests.
set -u
O=$OUT
. .gpu/env.sh
kgen_build > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
cd /tmp/kgen-build
date -u > $O/summary.txt
export KGEN_LIBRARY=$PWD/.libs/libkgen.so KGEN_TOP_SRCDIR=$PWD PYTHONPATH=$PWD/python
timeout 100 python3 -m pytest -q -rs python/tests > $O/python-gpu.log 2>&1; echo "pytest rc=$?" >> $O/summary.txt
grep -E "passed|failed|^FAILED" $O/python-gpu.log | tail -8 >> $O/summary.txt
for L in "a_layout=row --set b_layout=row" "a_layout=col --set b_layout=row" "a_layout=row --set b_layout=col" "a_layout=col --set b_layout=col"; do
  for C in 2x1 1x2; do
    timeout 30 ./kgen run --verify --set $L --set cluster=$C --shape 8x8x8 --shape 136x264x1000 --shape 2000x3000x520 specs/matmul/hopper/04-clusters.yaml >> $O/wgmma_verify.txt 2>&1 || echo "FAIL rc $L $C" >> $O/summary.txt
    timeout 20 ./kgen run --verify --set $L --set cluster=$C --pad 5 --shape 1003x259x131 --shape 3x3x3 specs/matmul/hopper/04-clusters.yaml >> $O/wgmma_verify.txt 2>&1 || echo "FAIL rc pad $L $C" >> $O/summary.txt
  done
  timeout 30 ./kgen run --verify --set $L --shape 8x8x8 --shape 2000x3000x520 --set store=pairs specs/matmul/hopper/03-warp-specialized.yaml specs/matmul/best/wgmma_f16.yaml >> $O/wgmma_verify.txt 2>&1 || echo "FAIL rc pairs $L" >> $O/summary.txt
done
for L in a_layout=row a_layout=col; do timeout 20 ./kgen run --verify --set $L --set b_layout=col --pad 5 --shape 1003x258x131 specs/matmul/hopper/04-clusters.yaml specs/matmul/best/wgmma_bf16.yaml >> $O/wgmma_verify.txt 2>&1 || echo "FAIL rc oddldc $L" >> $O/summary.txt; done
echo "wgmma verify ok=$(grep -c ' ok ' $O/wgmma_verify.txt) FAIL=$(grep -c ' FAIL ' $O/wgmma_verify.txt)" >> $O/summary.txt
timeout 120 ./kgen run specs/matmul/hopper/*.yaml specs/matmul/best/wgmma_*.yaml --shape 4096x4096x4096 --shape 8192x8192x8192 --shape 8192x8192x1024 --verify --bench --runs 10 --tsv $O/wgmma_bench.tsv > $O/wgmma_bench.txt 2>&1; echo "wgmma bench rc=$?" >> $O/summary.txt
G='^[^ ]* *[0-9x]* [a-z0-9]* *[a-zA-Z]* *[0-9.]* us *[0-9.]* TFLOPS  cuBLAS[+a-z]* *[0-9.]* us *[0-9.]* TFLOPS  kgen/cuBLAS [0-9.]*'
grep -o "$G" $O/wgmma_bench.txt | sed 's/  */ /g' >> $O/summary.txt
./kgen space bench/matmul/spaces/mma-bf16-pipelined.yaml --emit /tmp/mma > /dev/null
./kgen space bench/matmul/spaces/simt-f32-pipelined.yaml --emit /tmp/simt > /dev/null
M="/tmp/mma/00004.yaml /tmp/mma/00007.yaml /tmp/mma/00015.yaml /tmp/mma/00016.yaml"
S="/tmp/simt/00002.yaml /tmp/simt/00010.yaml /tmp/simt/00012.yaml"
timeout 100 ./kgen run $M $S --shape 7x5x3 --shape 127x255x63 --shape 1000x3001x257 --verify > $O/mma_verify.txt 2>&1; echo "mma verify rc=$? ok=$(grep -c ' ok ' $O/mma_verify.txt) FAIL=$(grep -c ' FAIL ' $O/mma_verify.txt)" >> $O/summary.txt
timeout 110 ./kgen run specs/matmul/best/mma_bf16.yaml $M specs/matmul/best/simt_f32.yaml $S --shape 4096x4096x4096 --shape 8192x8192x8192 --verify --bench --runs 10 --tsv $O/mma_bench.tsv > $O/mma_bench.txt 2>&1; echo "mma bench rc=$?" >> $O/summary.txt
grep -o "$G" $O/mma_bench.txt | sed 's/  */ /g' >> $O/summary.txt
cat $O/summary.txt
