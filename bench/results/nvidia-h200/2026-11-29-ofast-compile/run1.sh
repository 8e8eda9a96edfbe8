# H200 run 1 (issue 23, item 5): does NVRTC's --Ofast-compile=min slow the
# kernels it changes?  bench/jit/options-speed.sh, 3 rounds alternating
# without (A) and with (B), every result verified, for the best specs of
# every family.  From the project root on the
# GPU machine: OUT=... sh run1.sh
top=$PWD; . .gpu/env.sh
R=$OUT; { nvidia-smi --query-gpu=name,clocks.max.sm,power.limit,driver_version --format=csv; date -u; } > $R/gpu.txt
kgen_build > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "built $(date -u +%T)"
S=bench/jit/options-speed.sh O=--Ofast-compile=min
timeout 90 sh $S $R/matmul $O 3 --shape 4096x4096x4096 --shape 8192x8192x8192 --method events \
	$top/specs/matmul/best/simt_f32.yaml $top/specs/matmul/best/mma_bf16.yaml \
	$top/specs/matmul/best/mma_tma_bf16.yaml $top/specs/matmul/best/wgmma_bf16.yaml > /dev/null 2>&1
echo "matmul exit $? $(date -u +%T)"
timeout 80 sh $S $R/transpose $O 3 --shape 8192x8192 --shape 16384x16384 --shape 32768x32768 \
	$top/specs/transpose/best.yaml $top/specs/transpose/best-bf16.yaml > /dev/null 2>&1
echo "transpose exit $? $(date -u +%T)"
timeout 80 sh $S $R/axis $O 3 --shape 16384x16384 --shape 4194304x64 --shape 16777216x16 --shape 64x4194304 \
	--shape 1048576x256 $top/specs/reduce_axis/best/rows.yaml $top/specs/reduce_axis/best/cols.yaml > /dev/null 2>&1
echo "axis exit $? $(date -u +%T)"
timeout 100 sh $S $R/reduce $O 3 --method events --n 2^16 --n 2^20 --n 2^24 --n 2^27 \
	$top/specs/reduce/best/*.yaml $top/specs/reduce/ops/argmax-f32.yaml $top/specs/reduce/ops/norm2-f32.yaml \
	$top/specs/reduce/ops/rms-custom-bf16.yaml > /dev/null 2>&1
echo "reduce exit $? $(date -u +%T)"
for d in matmul transpose axis reduce; do echo "== $d"; tail -n +1 $R/$d/speed.txt 2>/dev/null | awk -F'\t' '{print $1" "$2" "$3" "$4" "$5" "$6" "$7}' | sed "s|$top/||" | tail -40; done
cd $R && tar czf ../run1.tgz . && cd .. && rm -rf $R/* && mv run1.tgz $R/
