#!/bin/sh
# (prepared in session 32) the branch exp/ring (.gpu/kgen-r, built at the branch head: fast paths, cooperative
# launch, partial bands through TMA): verified in full, then timed against main's shipped column scan,
# and its kernel in the harness (.gpu/h-r) beside the prototype (.gpu/colscan-BASE). Carry [".gpu","kgen",".libs"].
set -u
T0=$(date +%s); END=${END:-590}
. ./.gpu/env.sh
R=$OUT/r; mkdir -p $R/ve
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,power.limit --format=csv > $R/gpu.txt
st() { nm=$1; s=$2; shift 2; left=$(( END - ($(date +%s) - T0) )); [ $s -gt $left ] && s=$left
  if [ $s -lt 5 ]; then echo "$nm skipped" | tee -a $R/steps.txt; return; fi
  timeout $s "$@" > $R/$nm.txt 2>&1
  echo "$nm rc=$? t=$(( $(date +%s) - T0 ))s" >> $R/steps.txt; tar -czf $OUT/r.tgz -C $OUT r; }
RING=specs/scan/cols-sum-f32-ring.yaml
SH="--shape 1048576x64 --shape 1048576x1024 --shape 1048576x256 --shape 4194304x64 --shape 16384x16384"
# the branch's specs are not in main's checkout: write the ring spec where kgen-r reads it
[ -f $RING ] || printf 'kernel: scan\nop: sum\ndtype: f32\nmode: inclusive\naxis: cols\nstrategy: lookback\nstaging: ring\n' > $RING
cp .gpu/gpu_verify-r.sh bench/scan/gpu_verify-r.sh
st smoke 40 .gpu/kgen-r run --verify --shape 1048576x64 --shape 3000x130 --shape 129x100000 --shape 20011x64 $RING
st ring-1 40 .gpu/kgen-r run --bench $SH $RING
st base-1 40 ./kgen run --bench $SH specs/scan/cols-sum-f32.yaml
st verify-all 300 sh bench/scan/gpu_verify-r.sh .gpu/kgen-r $R/ve  # every scan: the marks changed for all of them
st ring-graph 30 .gpu/kgen-r run --verify --bench --method graph --shape 65536x64 --shape 4096x1024 $RING
st ring-bf16 30 .gpu/kgen-r run --verify --bench --set dtype=bf16 --shape 1048576x64 --shape 1048576x1024 $RING
st base-bf16 30 ./kgen run --bench --set dtype=bf16 --shape 1048576x64 --shape 1048576x1024 specs/scan/cols-sum-f32.yaml
st h-r-64 25 .gpu/h-r 1048576 64
st h-r-1024 40 .gpu/h-r 1048576 1024
st proto-1024 40 .gpu/colscan-BASE 1048576 1024 bw64_tr128_ns3_b2
st ring-2 40 .gpu/kgen-r run --bench $SH $RING
st base-2 40 ./kgen run --bench $SH specs/scan/cols-sum-f32.yaml
cat $R/gpu.txt $R/steps.txt $R/smoke.txt; grep -h "of copy" $R/ring-*.txt $R/base-*.txt | cut -c1-150
cat $R/h-r-*.txt; grep -h "of copy" $R/proto-*.txt; tail -1 $R/verify-all.txt; grep -E " (FAIL|WRONG|wrong|rejected|error) " $R/ve/*.log | head
