# H100: today's changes on the GPU (e02c685): the language sample verified, plans through the
# thread pool (gpu_plan_test, tune), kgen run shipped:*, the Python plan tests.
top=$PWD; . .gpu/env.sh
R=$OUT/r; mkdir -p $R
{ nvidia-smi --query-gpu=name,clocks.max.sm,power.limit,driver_version --format=csv; date -u; cat $top/.gpu/commit.txt; } > $R/gpu.txt
( rm -rf /tmp/kv && mkdir -p /tmp/kv && tar -xzf $top/.gpu/d/*.tar.gz -C /tmp/kv --strip-components=1 && cd /tmp/kv && ./configure --quiet && make -s -j16 && make -s -j16 kgen-cub tests/sample_test tests/gpu_plan_test ) > $R/build.log 2>&1
cd /tmp/kv && ls kgen kgen-cub tests/sample_test > /dev/null || { tail -20 $R/build.log; exit 1; }
echo "built $(date -u +%T)"
export KGEN_PLANS_DIR=$PWD/specs/plans
{ for p in sum-f32 min-bf16 max-f32 max-bf16 max-i32; do echo shipped:$p; done | xargs ./kgen run --n 1000 --n 2^20 --n 2^27 --bench --method graph; echo "rc=$?"; } > $R/shipped.txt 2>&1
grep -c " ok " $R/shipped.txt; tail -1 $R/shipped.txt
./tests/gpu_plan_test > $R/gpu_plan_test.txt 2>&1; echo "gpu_plan_test rc=$?"
timeout 120 ./kgen tune specs/plans/reduce.space.yaml --set op=max --set dtype=f32 --n 2^20 --method graph > $R/tune.txt 2>&1; echo "tune rc=$?"; grep -E "built|measured|plan" $R/tune.txt | head -5
KGEN_LIBRARY=$PWD/.libs/libkgen.so KGEN_TOP_SRCDIR=$PWD PYTHONPATH=$PWD/python timeout 150 python3 -m pytest -q -p no:cacheprovider python/tests/test_gpu_dlpack.py > $R/pytest-dlpack.txt 2>&1; echo "pytest rc=$?"; tail -2 $R/pytest-dlpack.txt
KGEN_GPU_VERIFY=sample timeout 200 sh tests/gpu_verify.sh > $R/gpu_verify-sample.txt 2>&1; echo "gpu_verify sample rc=$?"; tail -3 $R/gpu_verify-sample.txt; cp gpu_verify.log $R/ 2>/dev/null
cd $OUT && tar czf report.tgz r
