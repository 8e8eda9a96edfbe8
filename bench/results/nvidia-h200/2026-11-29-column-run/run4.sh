# H200 run 4, the final tree (generation without its quadratic template
# scans and double formatting, the disk cache's word-wise hash): every
# shipped spec's cold build and disk hit on the GPU host (real module
# loads), beside the NVRTC floor; then tests/gpu_verify.sh's random sample
# of the language on the GPU.
top=$PWD; . .gpu/env.sh
R=$OUT/r4; mkdir -p $R; { nvidia-smi --query-gpu=name,clocks.max.sm,power.limit,driver_version --format=csv; date -u; nproc; } > $R/gpu.txt
kgen_build > $R/build.log 2>&1 && make -s bench/jit/jit_phases >> $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "built $(date -u +%T)"
bench/jit/jit-phases.sh --runs 2 > $R/phases.txt 2> $R/phases.err
grep -v '^\[' $R/phases.err | grep -v '^ptxas' | head -5
tail -9 $R/phases.txt
echo "phases $(date -u +%T)"
KGEN_GPU_VERIFY=sample timeout 200 make check TESTS="tests/gpu_verify.sh" > $R/check-sample.log 2>&1
echo "gpu_verify sample exit $?: $(grep -E '^(PASS|FAIL|SKIP|ERROR)' $R/check-sample.log | tr '\n' ' ')"
cp tests/gpu_verify.log $R/gpu_verify-sample.log 2>/dev/null || cp gpu_verify.log $R/gpu_verify-sample.log 2>/dev/null
echo "$(grep -c ' ok ' $R/gpu_verify-sample.log) ok, $(grep -c 'FAIL' $R/gpu_verify-sample.log) FAIL"
echo "done $(date -u +%T)"
cd $OUT && tar czf r4.tgz r4 && rm -rf r4
