# H200 run 1 (issue 23, item 3): choose.  Every plan's space with launch:
# chain (specs/plans/reduce.space.yaml, op and dtype set, grid: tile) tuned
# at the two sizes where the shipped plans miss 0.6 of CUB back to back,
# 2^18 and 2^22, events and graph against CUB, every point verified; then the
# shipped plans (their atomic entries changed after their report) verified
# at sizes off the powers of two, and the reduce specs and a sample of the
# language (launch: chain among its values) verified on the GPU.
top=$PWD; . .gpu/env.sh
R=$OUT; { nvidia-smi --query-gpu=name,clocks.max.sm,power.limit,driver_version --format=csv; date -u; } > $R/gpu.txt
kgen_build > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "built $(date -u +%T)"
for p in sum-f32 sum-bf16 sum-i32 min-f32 min-bf16 min-i32 max-f32 max-bf16 max-i32; do
	op=${p%-*} dtype=${p#*-}
	timeout 100 ./kgen tune $top/specs/plans/reduce.space.yaml --set op=$op --set dtype=$dtype --set grid=tile \
		--set launch=chain --n 262144 --n 4194304 --method events,graph --against cub \
		--records $R/$p.records.jsonl > $R/tune-$p.log 2>&1
	echo "$p: tune exit $? $(date -u +%T)"
	gzip -f $R/$p.records.jsonl
done
timeout 120 ./kgen run --verify --n 0 --n 1 --n 31 --n 1000003 --n 16777223 --n 134217727 --n 1073741823 \
	$top/specs/plans/nvidia-h200/*.yaml > $R/plans-verify.txt 2>&1
echo "plans verify exit $?: $(grep -c ' ok ' $R/plans-verify.txt) ok, $(grep -c FAIL $R/plans-verify.txt) FAIL $(date -u +%T)"
KGEN_GPU_VERIFY="reduce sample" timeout 200 make check TESTS="tests/gpu_verify.sh" > $R/check.log 2>&1
grep -E "^(PASS|FAIL|SKIP|ERROR)" $R/check.log; cp tests/gpu_verify.log $R/ 2>/dev/null
echo "verify $(date -u +%T)"
