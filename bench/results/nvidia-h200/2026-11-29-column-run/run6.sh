# H200 run 6 (at cac9481): the Python package's GPU tests of reductions and
# transposes against torch (python/tests/test_gpu.py, test_gpu_ops.py), with
# the 8-byte default for columns of 16-bit elements.
. .gpu/env.sh && kgen_build > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
b=$(pwd)
export KGEN_LIBRARY=$b/.libs/libkgen.so KGEN_TOP_SRCDIR=$b PYTHONPATH=$b/python
{ date -u; nvidia-smi --query-gpu=name,clocks.max.sm,power.limit,driver_version --format=csv,noheader; } > $OUT/gpu.txt 2>&1
(date -u && timeout 230 python3 -m pytest -q -rs --tb=short -p no:cacheprovider python/tests/test_gpu.py python/tests/test_gpu_ops.py) > $OUT/pytest.log 2>&1
echo "pytest rc=$?"; tail -4 $OUT/pytest.log
