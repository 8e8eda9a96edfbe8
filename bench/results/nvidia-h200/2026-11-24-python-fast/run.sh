#!/bin/sh
set -u
. .gpu/env.sh && kgen_build > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
b=$(pwd)
export KGEN_LIBRARY=$b/.libs/libkgen.so KGEN_TOP_SRCDIR=$b PYTHONPATH=$b/python
{ date -u; nvidia-smi --query-gpu=name,clocks.max.sm,power.limit,driver_version --format=csv,noheader; which python3; python3 --version; grep -E "checking (for )?Python.h|PYTHON_EXT_SUFFIX=|PYTHON_CPPFLAGS=" config.log; ls python/kgen | grep _fast; } 2>&1 | tee $OUT/gpu.txt
for r in 1 2; do
  echo "== vs torch, C path, $r"; (date -u; timeout 120 python3 bench/python-overhead/vs_torch.py 5000 7) > $OUT/vs-torch-fast-$r.txt 2>&1; cat $OUT/vs-torch-fast-$r.txt
  echo "== vs torch, Python path, $r"; (date -u; KGEN_NO_FAST=1 timeout 120 python3 bench/python-overhead/vs_torch.py 5000 7) > $OUT/vs-torch-py-$r.txt 2>&1; cat $OUT/vs-torch-py-$r.txt
done
echo "== pytest"; (date -u && KGEN_PERCALL_RECORD=$OUT/percall.txt timeout 280 python3 -m pytest -q -rs --tb=short python/tests) > $OUT/pytest.log 2>&1; tail -3 $OUT/pytest.log; cat $OUT/percall.txt
echo "== pytest, Python path"; (date -u && KGEN_NO_FAST=1 timeout 150 python3 -m pytest -q -rs --tb=short python/tests/test_gpu.py python/tests/test_gpu_ops.py python/tests/test_gpu_percall.py python/tests/test_cpu.py) > $OUT/pytest-py.log 2>&1; tail -3 $OUT/pytest-py.log
