#!/bin/sh
# session 17, call 2: the Python GPU tests after session 16's changes; the column scan A/B again on this GPU,
# the new kernel verified at both shapes; the tile sweep with load widths (issue 52).
set -u
T0=$(date +%s); END=${END:-560}
root=$PWD
. $root/.gpu/env.sh
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,power.limit --format=csv > $R/gpu.txt
st() { n=$1; s=$2; shift 2; left=$(( END - ($(date +%s) - T0) )); [ $s -gt $left ] && s=$left
  if [ $s -lt 5 ]; then echo "$n skipped"; return; fi
  timeout $s "$@" > $R/$n.txt 2>&1; echo "$n rc=$? t=$(( $(date +%s) - T0 ))s" | tee -a $R/steps.txt
  tar -czf $OUT/r.tgz -C $OUT r; }
gcc -std=c11 -O2 $(python3-config --includes) -Iinclude -fPIC -shared -o python/kgen/_fast$(python3-config --extension-suffix) python/kgen/_fast.c
export PYTHONPATH=$root/python KGEN_LIBRARY=$root/.libs/libkgen.so PYTHONUNBUFFERED=1 KGEN_CUBLAS=$root/.gpu/kgen-cublas
C=specs/scan/cols-sum-f32.yaml
S="--shape 1048576x64 --shape 1048576x1024"
st ab-base-1 40 .gpu/kgen-base17 run --bench --runs 20 --tsv $R/ab-base-1.tsv $S $C
st ab-new-1 40 ./kgen run --bench --runs 20 --tsv $R/ab-new-1.tsv $S $C
st ab-base-2 40 .gpu/kgen-base17 run --bench --runs 20 --tsv $R/ab-base-2.tsv $S $C
st ab-new-2 40 ./kgen run --bench --runs 20 --tsv $R/ab-new-2.tsv $S $C
grep -h "GB/s" $R/ab-*.txt | cut -c1-150
st sweep 200 python3 bench/scan/cols_sweep.py ./kgen
grep -v True $R/sweep.txt | head; sort -k11 -n $R/sweep.txt | tail -n 12
st sweep-il-small 60 env SWEEP_GROUPS=1,4 python3 bench/scan/cols_sweep.py .gpu/kgen-il
grep -v True $R/sweep-il-small.txt | head -4; sort -k11 -n $R/sweep-il-small.txt | tail -n 6
st cols-verify 170 env ONLY=cols sh bench/scan/gpu_verify.sh ./kgen $R
tail -n 2 $R/cols-verify.txt
st probe 100 env PROBE_SPECS=l8-regs,l8-smem python3 bench/scan/cols_probe.py ./kgen
cat $R/probe.txt
st verify-1024 120 ./kgen run --verify --runs 5 --shape 1048576x1024 --shape 1048576x64 $C
cat $R/verify-1024.txt
tar -czf $OUT/r.tgz -C $OUT r
