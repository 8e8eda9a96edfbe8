#!/bin/sh
# session 17, call 3: the column scan's new default (12 rows a thread in registers, bands side by side) reported
# against kgen-base17 (d05e71d) in one run, verified; through Python against torch and CuPy; verification of
# both stagings and the GPU scan tests; then what time is left for the other Python GPU tests.
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
st base-1 30 .gpu/kgen-base17 run --bench --runs 20 --tsv $R/base-1.tsv $S $C
st new-verified 120 ./kgen run --verify --bench --runs 20 --tsv $R/new-verified.tsv $S $C
st base-2 30 .gpu/kgen-base17 run --bench --runs 20 --tsv $R/base-2.tsv $S $C
st new-2 30 ./kgen run --bench --runs 20 --tsv $R/new-2.tsv $S $C
grep -h "GB/s" $R/base-*.txt $R/new-*.txt | cut -c1-200
st types 60 ./kgen run --verify --bench --runs 20 --tsv $R/types.tsv --shape 1048576x64 --set dtype=i32 --set acc_dtype=i64 $C
st types-bf16 60 ./kgen run --verify --bench --runs 20 --tsv $R/types-bf16.tsv --shape 1048576x64 --set dtype=bf16 $C
grep -h "GB/s" $R/types*.txt | cut -c1-200
st vs-torch 90 python3 bench/scan/vs_torch.py --cols 1048576x64 1048576x1024
cat $R/vs-torch.txt
st cols-verify 170 env ONLY=cols sh bench/scan/gpu_verify.sh ./kgen $R
tail -n 2 $R/cols-verify.txt
st pytest-scan 120 python3 -m pytest -q -x python/tests/test_gpu_scan.py
tail -n 3 $R/pytest-scan.txt
st pytest-other 200 python3 -m pytest -q -x python/tests/test_gpu.py python/tests/test_gpu_ops.py \
   python/tests/test_gpu_rows.py python/tests/test_gpu_graphs.py
tail -n 3 $R/pytest-other.txt
tar -czf $OUT/r.tgz -C $OUT r
