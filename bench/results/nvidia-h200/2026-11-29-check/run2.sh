# H200 run 2: the reduce specs and a sample of the language verified on the
# GPU (tests/gpu_verify.sh, the first time since the size plans' chain
# entries went in); issue 23's nine matrix-reduction shapes against CUB's
# full sum, one call at a time, two passes (item 1); the transposes each call
# alone, alternating with a copy (item 2, bench/transpose/alternate.py).
# From the project root on the GPU machine: OUT=... sh run2.sh
top=$PWD; . .gpu/env.sh
R=$OUT; { nvidia-smi --query-gpu=name,clocks.max.sm,power.limit,driver_version --format=csv; date -u; } > $R/gpu.txt
kgen_build > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "built $(date -u +%T)"
KGEN_GPU_VERIFY="reduce sample" timeout 280 make check TESTS="tests/gpu_verify.sh" > $R/check.log 2>&1
echo "gpu_verify exit $?: $(grep -E '^(PASS|FAIL|SKIP|ERROR)' $R/check.log | tr '\n' ' ') $(date -u +%T)"
cp tests/gpu_verify.log $R/ 2>/dev/null || cp gpu_verify.log $R/ 2>/dev/null
N="--shape 16384x16384 --shape 32768x32768 --shape 1048576x256 --shape 4194304x64 --shape 256x1048576 --shape 64x4194304 --shape 1000x3001 --shape 1x1000003 --shape 1000003x1"
for p in 1 2; do
	timeout 60 ./kgen run $top/specs/reduce_axis/best/rows.yaml $top/specs/reduce_axis/best/cols.yaml $N --verify --bench \
		--runs 20 > $R/nine-$p.txt 2>&1
	echo "nine pass $p exit $? $(date -u +%T)"
done
KGEN_LIBRARY=$PWD/.libs/libkgen.so timeout 100 python3 bench/transpose/alternate.py --shapes 8192 16384 32768 \
	--spec $top/specs/transpose/best.yaml > $R/alternate.txt 2>&1
echo "alternate exit $? $(date -u +%T)"
for p in 1 2; do grep -oE "/specs/[^ ]+ +[0-9x]+ +(rows|cols) +(ok|FAIL) +[0-9.]+ us.*kgen/CUB [0-9.]+" $R/nine-$p.txt | sed -E 's/ +/ /g; s/.*best\///; s/CUB\/[0-9]+ sum//; s/ [0-9.]+ GB\/s//g'; done
sed "s|$top/||" $R/alternate.txt | tail -5
tail -5 $R/gpu_verify.log 2>/dev/null
cd $R && tar czf ../run2.tgz . && cd .. && rm -rf $R/* && mv run2.tgz $R/
