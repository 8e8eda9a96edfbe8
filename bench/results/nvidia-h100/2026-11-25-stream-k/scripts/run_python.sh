#!/bin/sh
# Python's deep-k choice and the whole GPU matmul suite; the random sample of the language on the GPU
set -u
top=$(pwd)
. .gpu/env.sh && kgen_build > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
b=$(pwd); R=$OUT/r; mkdir -p $R
{ date -u; nvidia-smi --query-gpu=name,clocks.max.sm,power.limit,driver_version --format=csv,noheader; echo "kgen commit $(cat $top/.gpu/commit.txt)"; } | tee $R/gpu.txt
export KGEN_LIBRARY=$b/.libs/libkgen.so KGEN_TOP_SRCDIR=$b PYTHONPATH=$b/python
timeout 200 python3 -m pytest -q $b/python/tests/test_gpu_matmul.py > $R/pytest-matmul.log 2>&1; tail -2 $R/pytest-matmul.log
KGEN_GPU_VERIFY=sample timeout 250 sh tests/gpu_verify.sh > $R/gpu_verify-sample.log 2>&1; echo "gpu_verify sample: exit $?"; tail -3 $R/gpu_verify-sample.log
grep -c "schedule: stream_k" $R/gpu_verify-sample.log
tar czf $OUT/report.tgz -C $OUT r
