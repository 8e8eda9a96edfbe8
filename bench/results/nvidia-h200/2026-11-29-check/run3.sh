# H200 run 3: tests/gpu_verify.sh's reduce part (every full-reduction spec at
# six sizes, offset, falling sizes), its specs now ordered by element type
# and op so that kgen run keeps inputs and references (run 2's, in path
# order, reached 21 of 36 specs at 2^30 in 280 s), then its sample part (a
# random sample of the specs kgen check accepts, every family, on the GPU).
# From the project root on the GPU machine: OUT=... sh run3.sh
top=$PWD; . .gpu/env.sh
R=$OUT; { nvidia-smi --query-gpu=name,clocks.max.sm,power.limit,driver_version --format=csv; date -u; } > $R/gpu.txt
kgen_build > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "built $(date -u +%T)"
for p in reduce sample; do
	KGEN_GPU_VERIFY=$p timeout $([ $p = reduce ] && echo 300 || echo 150) make check TESTS="tests/gpu_verify.sh" > $R/check-$p.log 2>&1
	echo "gpu_verify $p exit $?: $(grep -E '^(PASS|FAIL|SKIP|ERROR)' $R/check-$p.log | tr '\n' ' ') $(date -u +%T)"
	cp tests/gpu_verify.log $R/gpu_verify-$p.log 2>/dev/null || cp gpu_verify.log $R/gpu_verify-$p.log 2>/dev/null
	echo "$(grep -c ' ok ' $R/gpu_verify-$p.log) ok, $(grep -c 'FAIL' $R/gpu_verify-$p.log) FAIL"; tail -3 $R/gpu_verify-$p.log | cut -c1-160
done
cd $R && tar czf ../run3.tgz . && cd .. && rm -rf $R/* && mv run3.tgz $R/
