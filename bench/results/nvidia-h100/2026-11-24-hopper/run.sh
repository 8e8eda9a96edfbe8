#!/bin/sh
# GPU run C: verify the wgmma specs in every layout, time them against cuBLAS, and the matmul extreme shapes.
set -u
O=$OUT
. .gpu/env.sh
kgen_build > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
cd /tmp/kgen-build
date -u > $O/summary.txt
W="specs/matmul/hopper/*.yaml specs/matmul/best/wgmma_bf16.yaml"
for L in "a_layout=row --set b_layout=row" "a_layout=row --set b_layout=col" "a_layout=col --set b_layout=row" "a_layout=col --set b_layout=col"; do
  timeout 60 ./kgen run --verify --set $L --shape 8x8x8 --shape 136x264x1000 --shape 2000x3000x520 $W >> $O/wgmma_verify.txt 2>&1
  echo "layout $L rc=$?" >> $O/summary.txt
done
timeout 40 ./kgen run --verify --pad 5 --shape 3x3x3 --shape 1003x259x131 $W >> $O/wgmma_verify.txt 2>&1; echo "pad5 rc=$?" >> $O/summary.txt
echo "ok=$(grep -c ' ok ' $O/wgmma_verify.txt) FAIL=$(grep -c ' FAIL ' $O/wgmma_verify.txt)" >> $O/summary.txt
timeout 150 ./kgen run $W specs/matmul/best/mma_bf16.yaml --shape 4096x4096x4096 --shape 8192x8192x8192 --verify --bench --runs 10 --cublas ./kgen-cublas --tsv $O/wgmma_bench.tsv > $O/wgmma_bench.txt 2>&1; echo "bench rc=$?" >> $O/summary.txt
grep -o "^specs[^ ]* *[0-9x]* [a-z0-9]* *[a-zA-Z]* *[0-9.]* us *[0-9.]* TFLOPS  cuBLAS[+a-z]* *[0-9.]* us *[0-9.]* TFLOPS  kgen/cuBLAS [0-9.]*" $O/wgmma_bench.txt | sed 's/  */ /g' >> $O/summary.txt
M=$(ls specs/matmul/best/*.yaml specs/matmul/seed-002/0[4-8]*.yaml | grep -v wgmma)
timeout 120 ./kgen run --verify --shape 64x64x1048576 --shape 8192x8192x16 $M > $O/extreme.txt 2>&1; echo "extreme rc=$?" >> $O/summary.txt
timeout 60 ./kgen run --verify --set split_k=16 --shape 64x64x1048576 $(for f in $M; do ./kgen check --set split_k=16 $f 2>/dev/null && echo $f; done) >> $O/extreme.txt 2>&1; echo "extreme split rc=$?" >> $O/summary.txt
echo "extreme ok=$(grep -c ' ok ' $O/extreme.txt) FAIL=$(grep -c ' FAIL ' $O/extreme.txt)" >> $O/summary.txt
cat $O/summary.txt
