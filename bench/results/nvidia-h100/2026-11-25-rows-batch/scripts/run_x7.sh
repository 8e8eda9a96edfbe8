#!/bin/sh
# H200: rows 4194304x64 by lanes/threads; python matmul defaults on the H200
set -u
top=$(pwd)
. .gpu/env.sh && kgen_build > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
b=$(pwd); R=$OUT/r; mkdir -p $R
export KGEN_LIBRARY=$b/.libs/libkgen.so KGEN_TOP_SRCDIR=$b PYTHONPATH=$b/python
{ date -u; nvidia-smi --query-gpu=name,clocks.max.sm,clocks.sm,power.limit,driver_version --format=csv,noheader; echo "kgen commit $(cat $top/.gpu/commit.txt)"; } | tee $R/gpu.txt
short() { grep -E "kgen/CUB|FAIL|error" | sed -E 's/ +/ /g' | cut -c1-150; }
i=0
for v in "" "--set strategy=warp --set lanes=2" "--set strategy=warp --set lanes=8" "--set strategy=warp --set lanes=16" "--set threads=256" "--set threads=1024" "--set strategy=warp --set lanes=8 --set threads=1024" "--set strategy=warp --set lanes=2 --set threads=256" ""; do
  i=$((i+1)); echo "== rows 4194304x64 $v"; ./kgen run specs/reduce_axis/best/rows.yaml --shape 4194304x64 --verify --bench --runs 20 $v > $R/rows-$i.txt 2>&1; short < $R/rows-$i.txt
done
(timeout 170 python3 -m pytest -q -rs --tb=short python/tests/test_gpu_matmul.py) > $R/pytest-matmul.log 2>&1; echo "== pytest matmul"; tail -3 $R/pytest-matmul.log
tar czf $OUT/report.tgz -C $OUT r
