#!/bin/sh
# The report run: kgen's best matmul specs against cuBLAS (best/simt_f32 now schedule: stream_k), the SIMT spec with schedule: tiles beside it, Python
set -u
top=$(pwd)
. .gpu/env.sh && kgen_build > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
b=$(pwd); R=$OUT/r; mkdir -p $R
{ date -u; nvidia-smi --query-gpu=name,clocks.max.sm,power.limit,driver_version --format=csv,noheader; echo "kgen commit $(cat $top/.gpu/commit.txt)"; } | tee $R/gpu.txt
T="--shape 4096x4096x4096 --shape 8192x8192x8192 --verify --bench --runs 10"
./kgen run specs/matmul/best/simt_f32.yaml specs/matmul/best/mma_bf16.yaml specs/matmul/best/mma_f16.yaml specs/matmul/best/wgmma_bf16.yaml specs/matmul/best/wgmma_f16.yaml $T --tsv $R/best.tsv > $R/best.txt 2>&1
./kgen run specs/matmul/best/simt_f32.yaml --set schedule=tiles $T > $R/simt-tiles.txt 2>&1
./kgen run specs/matmul/best/simt_f32.yaml $T > $R/simt-sk-again.txt 2>&1
for f in best simt-tiles simt-sk-again; do grep -oE "^[^ ]+ +[0-9x]+ [bf0-9]+ +(ok|FAIL).*kgen/cuBLAS [0-9.]+" $R/$f.txt | sed -E 's/ +/ /g; s/^[^ ]*\///' | sed "s/^/$f /"; done
{
./kgen run specs/matmul/best/simt_f32.yaml --shape 7x5x3 --shape 127x255x63 --shape 1000x3001x257 --shape 515x1031x67 --shape 64x64x1048576 --shape 2000x2000x2000 --shape 8192x8192x16 --verify
./kgen run specs/matmul/best/simt_f32.yaml --set "epilogue=v > 0 ? v : 0" --shape 1000x3001x257 --shape 64x64x1048576 --pad 3 --verify
} > $R/verify.txt 2>&1
echo "verify: $(grep -cE ' ok ' $R/verify.txt) ok, $(grep -c FAIL $R/verify.txt) FAIL, $(grep -ci 'error' $R/verify.txt) error"
export KGEN_LIBRARY=$b/.libs/libkgen.so KGEN_TOP_SRCDIR=$b PYTHONPATH=$b/python
timeout 150 python3 -m pytest -q -x $b/python/tests/test_gpu_matmul.py > $R/pytest-matmul.log 2>&1; tail -2 $R/pytest-matmul.log
tar czf $OUT/report.tgz -C $OUT r
