#!/bin/sh
# session 24 call 5: exact-row path (+ weights with the row) in warp kernels (.gpu/kgen-wt, exp/wtop)
# against head: ncu kernel times at 32768 x 256/512/1024, auto and threads 128/256; verification incl. odd and pitched rows.
set -u
T0=$(date +%s); END=${END:-400}
root=$PWD
. $root/.gpu/env.sh
R=$OUT/r; mkdir -p $R/n
st() { n=$1; s=$2; shift 2; left=$(( END - ($(date +%s) - T0) )); [ $s -gt $left ] && s=$left
  if [ $s -lt 5 ]; then echo "$n skipped" | tee -a $R/steps.txt; return; fi
  /usr/bin/time -f "%e s wall" -o $R/$n.time timeout $s "$@" > $R/n/$n.txt 2>&1
  echo "$n rc=$? t=$(( $(date +%s) - T0 ))s $(cat $R/$n.time)" >> $R/steps.txt; rm -f $R/$n.time
  tar -czf $OUT/r.tgz -C $OUT r; }
NCU="/usr/local/cuda/bin/ncu --metrics gpu__time_duration.sum,launch__registers_per_thread,launch__block_size"
SH="--shape 32768x256 --shape 32768x512 --shape 32768x1024"
for op in layer_norm rms_norm softmax log_softmax; do
  for dt in bf16 f32 f16; do
    st v-$op-$dt 30 .gpu/kgen-wt run specs/rows/$op.yaml --verify --set dtype=$dt --shape 32768x256 --shape 1000x256 --shape 37x1000 --shape 1000x37 --shape 1x1000003 --shape 777x512 --shape 333x1024
    st vp-$op-$dt 30 .gpu/kgen-wt run specs/rows/$op.yaml --verify --set dtype=$dt --shape 1000x256 --shape 777x512 --pad 8
    st vq-$op-$dt 30 .gpu/kgen-wt run specs/rows/$op.yaml --verify --set dtype=$dt --shape 1000x256 --shape 777x512 --pad 3
  done
done
for op in layer_norm rms_norm softmax log_softmax; do
  for dt in bf16 f32; do
    st head-$op-$dt 20 $NCU -k regex:rows_ ./kgen run specs/rows/$op.yaml --bench --runs 2 --set dtype=$dt $SH
    st wt-$op-$dt 20 $NCU -k regex:rows_ .gpu/kgen-wt run specs/rows/$op.yaml --bench --runs 2 --set dtype=$dt $SH
    for t in 128 256; do
      st wt$t-$op-$dt 20 $NCU -k regex:rows_ .gpu/kgen-wt run specs/rows/$op.yaml --bench --runs 2 --set dtype=$dt --set threads=$t $SH
    done
  done
done
tar -czf $OUT/r.tgz -C $OUT r
