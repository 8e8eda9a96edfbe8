#!/bin/sh
set -u
top=$(pwd)
. .gpu/env.sh && kgen_build > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
b=$(pwd); R=$OUT/r; mkdir -p $R
{ date -u; nvidia-smi --query-gpu=name,clocks.max.sm,power.limit,driver_version --format=csv,noheader; echo "kgen commit $(cat $top/.gpu/commit.txt)"; } | tee $R/gpu.txt
T="--shape 4096x4096x4096 --shape 8192x8192x8192 --verify --bench --runs 10"
S=specs/matmul/best/simt_f32.yaml
i=0
for v in "" "--set blocks_per_sm=4" "--set blocks_per_sm=4 --set stages=4" "--set blocks_per_sm=4 --set warp_m=64 --set warp_n=32" "--set blocks_per_sm=3"; do
  i=$((i+1)); echo "== simt $i: $v" | tee -a $R/simt.txt
  ./kgen run $S $v $T > $R/simt-$i.txt 2>&1; cat $R/simt-$i.txt >> $R/simt.txt
  grep -oE "[0-9x]+ f32 +(ok|FAIL).*kgen/cuBLAS [0-9.]+" $R/simt-$i.txt | sed -E 's/ +/ /g'
done
M=specs/matmul/best/mma_bf16.yaml
echo "== mma base"; ./kgen run $M $T > $R/mma-1.txt 2>&1; grep -oE "[0-9x]+ bf16 +(ok|FAIL).*kgen/cuBLAS [0-9.]+" $R/mma-1.txt | sed -E 's/ +/ /g'
NS="--section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis --section InstructionStats"
timeout 150 ncu $NS -k regex:matmul -c 1 ./kgen run $M --shape 4096x4096x4096 --bench --runs 1 > $R/ncu-mma.txt 2>&1
timeout 100 ncu $NS -k regex:matmul -c 1 ./kgen run $S --set blocks_per_sm=4 --shape 4096x4096x4096 --bench --runs 1 > $R/ncu-simt4.txt 2>&1
grep -E "Duration|Registers Per|Achieved Occupancy|Theoretical Occupancy|Block Limit|No Eligible|Issued Warp|Stall|Compute \(SM\) Throughput|Memory Throughput|Shared Memory Configuration|Executed Ipc A" $R/ncu-mma.txt | head -40
tar czf $OUT/report.tgz -C $OUT r
