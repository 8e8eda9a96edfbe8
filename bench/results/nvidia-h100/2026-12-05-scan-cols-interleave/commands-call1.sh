#!/bin/sh
# session 17, call 1: the column scan with its bands interleaved in launch order (issue 52): A/B against
# kgen-base17 (HEAD before), verification (ONLY=cols gpu_verify.sh, test_gpu_scan columns), the tile sweep.
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
export PYTHONPATH=$root/python KGEN_LIBRARY=$root/.libs/libkgen.so PYTHONUNBUFFERED=1
C=specs/scan/cols-sum-f32.yaml
S="--shape 1048576x64 --shape 1048576x1024"
st ab-base-1 40 .gpu/kgen-base17 run --bench --runs 20 --tsv $R/ab-base-1.tsv $S $C
st ab-new-1 40 ./kgen run --bench --runs 20 --tsv $R/ab-new-1.tsv $S $C
st ab-base-2 40 .gpu/kgen-base17 run --bench --runs 20 --tsv $R/ab-base-2.tsv $S $C
st ab-new-2 40 ./kgen run --bench --runs 20 --tsv $R/ab-new-2.tsv $S $C
grep -h "GB/s\|copy" $R/ab-*.txt | cut -c1-160
st new-verify-bf16 60 ./kgen run --verify --bench --runs 20 --tsv $R/new-verify-bf16.tsv --shape 1048576x64 --shape 1048576x1024 --set dtype=bf16 $C
st new-verify-1024 150 ./kgen run --verify --bench --runs 20 --tsv $R/new-verify-1024.tsv $S $C
tail -n 4 $R/new-verify-*.txt
st cols-verify 150 env ONLY=cols sh bench/scan/gpu_verify.sh ./kgen $R
tail -n 3 $R/cols-verify.txt
st sweep 150 python3 bench/scan/cols_sweep.py ./kgen
cat $R/sweep.txt
st pytest-cols 60 python3 -m pytest -q -x -k "columns or cols" python/tests/test_gpu_scan.py
tail -n 3 $R/pytest-cols.txt
tar -czf $OUT/r.tgz -C $OUT r
