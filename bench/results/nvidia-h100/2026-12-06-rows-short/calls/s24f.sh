#!/bin/sh
# session 24 call 6: main with the exact path and early weights. (1) issue 49's short-row table against torch
# eager, torch.compile and a copy (Python, queued), bf16 with compile and f32; (2) the new GPU tests of the exact
# path (pytest -k exactly, gpu_verify's new lines); (3) ncu kernel times of LayerNorm/RMSNorm bf16 at 256/512.
set -u
T0=$(date +%s); END=${END:-285}
root=$PWD
. $root/.gpu/env.sh
R=$OUT/r; mkdir -p $R
st() { n=$1; s=$2; shift 2; left=$(( END - ($(date +%s) - T0) )); [ $s -gt $left ] && s=$left
  if [ $s -lt 5 ]; then echo "$n skipped" | tee -a $R/steps.txt; return; fi
  /usr/bin/time -f "%e s wall" -o $R/$n.time timeout $s "$@" > $R/$n.txt 2>&1
  echo "$n rc=$? t=$(( $(date +%s) - T0 ))s $(cat $R/$n.time)" | tee -a $R/steps.txt; rm -f $R/$n.time
  tar -czf $OUT/r.tgz -C $OUT r; }
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt
gcc -std=c11 -O2 $(python3-config --includes) -Iinclude -fPIC -shared -o python/kgen/_fast$(python3-config --extension-suffix) python/kgen/_fast.c
export PYTHONPATH=$root/python KGEN_LIBRARY=$root/.libs/libkgen.so PYTHONUNBUFFERED=1
st bf16 90 python3 bench/rows/bench_rows.py --shapes 32768x256,32768x512 --dtypes bf16 --ops softmax,log_softmax,rms_norm,layer_norm \
   --no-small --rounds 3 --runs 20 --method queued --out $R/rows-short-bf16.md
st f32 30 python3 bench/rows/bench_rows.py --shapes 32768x256,32768x512 --dtypes f32 --ops softmax,log_softmax,rms_norm,layer_norm \
   --no-compile --no-small --rounds 3 --runs 20 --method queued --out $R/rows-short-f32.md
st pytest 60 python3 -m pytest -q -rs -p no:cacheprovider python/tests/test_gpu_rows.py -k exactly
auto="specs/rows/softmax.yaml specs/rows/log_softmax.yaml specs/rows/rms_norm.yaml specs/rows/layer_norm.yaml specs/rows/cross_entropy.yaml"
for dt in bf16 f16 f32; do
  st v-$dt 20 sh -c "./kgen run $auto --verify --set dtype=$dt --shape 999x128 --shape 999x256 --shape 999x512 && \
    ./kgen run $auto --verify --set dtype=$dt --pad 8 --shape 333x128 --shape 333x256 --shape 333x512 && \
    ./kgen run $auto --verify --set dtype=$dt --pad 3 --shape 333x256 --shape 333x512 && \
    ./kgen run $auto --verify --extreme both --set dtype=$dt --shape 64x128 --shape 64x256 --shape 64x512"
done
NCU="/usr/local/cuda/bin/ncu --metrics gpu__time_duration.sum,launch__registers_per_thread"
for op in layer_norm rms_norm; do
  st ncu-$op 20 $NCU -k regex:rows_ ./kgen run specs/rows/$op.yaml --bench --runs 2 --shape 32768x256 --shape 32768x512
done
tar -czf $OUT/r.tgz -C $OUT r
