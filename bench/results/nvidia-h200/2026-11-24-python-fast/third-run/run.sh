#!/bin/sh
set -u
top=$(pwd)
. .gpu/env.sh && kgen_build > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
b=$(pwd)
export KGEN_LIBRARY=$b/.libs/libkgen.so KGEN_TOP_SRCDIR=$b PYTHONPATH=$b/python
{ date -u; nvidia-smi --query-gpu=name,clocks.max.sm,power.limit,driver_version --format=csv,noheader; echo "kgen commit $(cat $top/.gpu/commit.txt)"; } | tee $OUT/gpu.txt
for r in 1 2 3 4; do (date -u; timeout 100 python3 bench/python-overhead/vs_torch.py 5000 7) > $OUT/vs-torch-$r.txt 2>&1; echo "== $r"; grep -E "^sum-1024 " $OUT/vs-torch-$r.txt; done
