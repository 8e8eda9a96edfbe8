#!/bin/sh
# session 24, call 1 (prepared in session 23): issue 49's table at main's head on whatever GPU is lent
# (the H200 is the bars' GPU), gpu_verify at head, then two leads: LayerNorm's variance as a select
# (.gpu/kgen-exp, branch exp/ln-select) against head, and LayerNorm's clusters of half the threads.
# Rebuild kgen-exp from exp/ln-select if the tree moved. Carry [".gpu","kgen",".libs"].
set -u
T0=$(date +%s); END=${END:-560}
root=$PWD
. $root/.gpu/env.sh
R=$OUT/r; mkdir -p $R/specs
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,power.limit --format=csv > $R/gpu.txt
st() { n=$1; s=$2; shift 2; left=$(( END - ($(date +%s) - T0) )); [ $s -gt $left ] && s=$left
  if [ $s -lt 5 ]; then echo "$n skipped" | tee -a $R/steps.txt; return; fi
  /usr/bin/time -f "%e s wall" -o $R/$n.time timeout $s "$@" > $R/$n.txt 2>&1
  echo "$n rc=$? t=$(( $(date +%s) - T0 ))s $(cat $R/$n.time)" | tee -a $R/steps.txt
  tar -czf $OUT/r.tgz -C $OUT r; }
spec() { op=$1; dt=$2; nm=$3; shift 3; f=$R/specs/$op-$dt-$nm.yaml
  printf 'kernel: rows\nop: %s\ndtype: %s\n' $op $dt > $f; for kv in "$@"; do echo "$kv" | sed 's/=/: /' >> $f; done; echo $f; }
gcc -std=c11 -O2 $(python3-config --includes) -Iinclude -fPIC -shared -o python/kgen/_fast$(python3-config --extension-suffix) python/kgen/_fast.c
export PYTHONPATH=$root/python KGEN_LIBRARY=$root/.libs/libkgen.so PYTHONUNBUFFERED=1
SH=32768x256,32768x512,32768x1024,32768x4096,32768x16384,32768x65536,8192x262144
st rows-bf16 70 python3 bench/rows/bench_rows.py --shapes $SH --dtypes bf16 --no-compile --rounds 3 --runs 20 \
   --method queued --out $R/rows-queued-bf16.md
st rows-f32 70 python3 bench/rows/bench_rows.py --shapes $SH --dtypes f32 --no-compile --no-small --rounds 3 --runs 20 \
   --method queued --out $R/rows-queued-f32.md
st compile 70 python3 bench/rows/bench_rows.py --shapes 32768x256,32768x4096 --dtypes bf16 --ops softmax,rms_norm,layer_norm \
   --no-small --rounds 3 --runs 20 --method queued --out $R/rows-compile-bf16.md
st gpu-verify 170 sh bench/rows/gpu_verify.sh ./kgen $R
LN="--shape 32768x256 --shape 32768x512 --shape 32768x1024 --shape 32768x4096"
for dt in bf16 f32; do
  st ln-head1-$dt 25 ./kgen run specs/rows/layer_norm.yaml --bench --set dtype=$dt $LN --tsv $R/ln-head1-$dt.tsv
  st ln-exp-$dt 30 .gpu/kgen-exp run specs/rows/layer_norm.yaml --verify --bench --set dtype=$dt $LN --tsv $R/ln-exp-$dt.tsv
  st ln-head2-$dt 25 ./kgen run specs/rows/layer_norm.yaml --bench --set dtype=$dt $LN --tsv $R/ln-head2-$dt.tsv
done
C="$(spec layer_norm bf16 auto) $(spec layer_norm bf16 c2-256x16 strategy=cluster cluster_size=2 threads=256 vectors=16)"
C="$C $(spec layer_norm bf16 c8-256x16 strategy=cluster cluster_size=8 threads=256 vectors=16)"
C="$C $(spec rms_norm bf16 auto) $(spec rms_norm bf16 c8-256x16 strategy=cluster cluster_size=8 threads=256 vectors=16)"
st sw-half 60 ./kgen run $C --bench --shape 32768x65536 --shape 8192x262144 --tsv $R/sw-half.tsv
tar -czf $OUT/r.tgz -C $OUT r
