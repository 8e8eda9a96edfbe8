# H200 run 4: tests/gpu_verify.sh's reduce part again, now that op: custom's CPU
# reference is made a chunk at a time on every core like the other ops
# (run 3 stopped in rms-custom-bf16's at 2^30, one thread for 2^30 elements).
# From the project root on the GPU machine: OUT=... sh run4.sh
top=$PWD; . .gpu/env.sh
R=$OUT; { nvidia-smi --query-gpu=name,clocks.max.sm,power.limit,driver_version --format=csv; date -u; } > $R/gpu.txt
kgen_build > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "built $(date -u +%T)"
for p in reduce; do
	KGEN_GPU_VERIFY=$p timeout $([ $p = reduce ] && echo 290 || echo 150) make check TESTS="tests/gpu_verify.sh" > $R/check-$p.log 2>&1
	echo "gpu_verify $p exit $?: $(grep -E '^(PASS|FAIL|SKIP|ERROR)' $R/check-$p.log | tr '\n' ' ') $(date -u +%T)"
	cp tests/gpu_verify.log $R/gpu_verify-$p.log 2>/dev/null || cp gpu_verify.log $R/gpu_verify-$p.log 2>/dev/null
	echo "$(grep -c ' ok ' $R/gpu_verify-$p.log) ok, $(grep -c 'FAIL' $R/gpu_verify-$p.log) FAIL"; tail -3 $R/gpu_verify-$p.log | cut -c1-160
done
cd $R && tar czf ../run4.tgz . && cd .. && rm -rf $R/* && mv run4.tgz $R/
