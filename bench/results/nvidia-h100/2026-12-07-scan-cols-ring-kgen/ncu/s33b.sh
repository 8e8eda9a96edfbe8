#!/bin/sh
set -u
. ./.gpu/env.sh
R=$OUT/r; mkdir -p $R
S="--section SpeedOfLight --section WarpStateStats --section InstructionStats --section SchedulerStats --section Occupancy --section LaunchStats --section MemoryWorkloadAnalysis"
timeout 80 ncu $S -k regex:scan_cols --launch-count 1 .gpu/h-r 1048576 1024 > $R/ncu-ring.txt 2>&1
timeout 80 ncu $S -k regex:colscan --launch-count 1 .gpu/colscan-BASE 1048576 1024 bw64_tr128_ns3_b2 > $R/ncu-proto.txt 2>&1
timeout 60 ncu --section SourceCounters -k regex:scan_cols --launch-count 1 .gpu/h-r 1048576 1024 > $R/ncu-ring-src.txt 2>&1
tar -czf $OUT/r.tgz -C $OUT r
for f in $R/ncu-ring.txt $R/ncu-proto.txt; do echo "== $f"; grep -E "Duration|DRAM Throughput|Registers Per|Achieved Occupancy|Warp Cycles Per Issued|Executed Ipc|Executed Instructions |Grid Size|Block Size|Shared Memory Config|Dynamic Shared|No Eligible|Eligible Warps" $f | head -30; done
