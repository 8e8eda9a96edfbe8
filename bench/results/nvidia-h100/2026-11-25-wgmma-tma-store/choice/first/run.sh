#!/bin/sh
set -u
. .gpu/env.sh && kgen_build > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
b=$(pwd)
{ date -u; nvidia-smi --query-gpu=name,clocks.max.sm,power.limit,driver_version --format=csv,noheader; git log -1 --format=%h 2>/dev/null; } | tee $OUT/gpu.txt
S=specs/matmul/hopper/03-warp-specialized.yaml
sh_=--shape
run() { name=$1; shift; echo "== $name: $*"; timeout 100 ./kgen run $S --shape 8192x8192x8192 --shape 4096x4096x4096 --verify --bench --runs 10 "$@" > $OUT/v-$name.txt 2>&1; tail -6 $OUT/v-$name.txt; }
run base
run pairs --set store=pairs
run c2x1 --set cluster=2x1
run c1x2 --set cluster=1x2
run s3 --set stages=3
run g16 --set group=16
run base2
for v in base c2x1; do
  set --; [ $v = c2x1 ] && set -- --set cluster=2x1
  echo "== ncu $v"; timeout 150 ncu --section SpeedOfLight --section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis --section LaunchStats --section Occupancy --kernel-name regex:matmul --launch-skip 3 --launch-count 1 ./kgen run $S --shape 8192x8192x8192 --bench --runs 3 "$@" > $OUT/ncu-$v.txt 2>&1 || echo "ncu rc=$?"; grep -E "Compute \(SM\) Throughput|Memory Throughput|Duration|Stall|Issue Slots|L2 Hit|DRAM Throughput|No Eligible|Warp Cycles" $OUT/ncu-$v.txt | head -30
done
