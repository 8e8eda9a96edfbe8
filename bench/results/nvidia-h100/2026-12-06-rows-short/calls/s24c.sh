#!/bin/sh
# session 24 call 3: short rows against torch.compile. (1) weight loaded with the row in warp kernels
# (.gpu/kgen-wt, branch exp/wtop) against head, auto, 256..4096, bf16/f32; (2) a sweep of warp shapes
# (lanes x vectors x threads) at 32768 x 256 and 512 bf16; (3) SASS of the LN/RMS 16x2 kernels.
set -u
T0=$(date +%s); END=${END:-540}
root=$PWD
. $root/.gpu/env.sh
R=$OUT/r; mkdir -p $R/specs
st() { n=$1; s=$2; shift 2; left=$(( END - ($(date +%s) - T0) )); [ $s -gt $left ] && s=$left
  if [ $s -lt 5 ]; then echo "$n skipped" | tee -a $R/steps.txt; return; fi
  /usr/bin/time -f "%e s wall" -o $R/$n.time timeout $s "$@" > $R/$n.txt 2>&1
  echo "$n rc=$? t=$(( $(date +%s) - T0 ))s $(cat $R/$n.time)" | tee -a $R/steps.txt
  tar -czf $OUT/r.tgz -C $OUT r; }
spec() { op=$1; dt=$2; nm=$3; shift 3; f=$R/specs/$op-$dt-$nm.yaml
  printf 'kernel: rows\nop: %s\ndtype: %s\n' $op $dt > $f; for kv in "$@"; do echo "$kv" | sed 's/=/: /' >> $f; done; echo $f; }
for c in .gpu/ln-head.cubin .gpu/ln-wt.cubin .gpu/rms-head.cubin; do
  cuobjdump -sass $c > $R/$(basename $c .cubin).sass 2>&1 || /usr/local/cuda/bin/cuobjdump -sass $c > $R/$(basename $c .cubin).sass 2>&1
done
SH="--shape 32768x256 --shape 32768x512 --shape 32768x1024 --shape 32768x4096"
for dt in bf16 f32; do
  for op in layer_norm rms_norm; do
    st h1-$op-$dt 30 ./kgen run specs/rows/$op.yaml --bench --set dtype=$dt $SH --tsv $R/h1-$op-$dt.tsv
    st wt-$op-$dt 40 .gpu/kgen-wt run specs/rows/$op.yaml --verify --bench --set dtype=$dt $SH --tsv $R/wt-$op-$dt.tsv
    st h2-$op-$dt 30 ./kgen run specs/rows/$op.yaml --bench --set dtype=$dt $SH --tsv $R/h2-$op-$dt.tsv
  done
done
for op in layer_norm rms_norm softmax; do
  C="$(spec $op bf16 auto)"
  for lv in 4x8 8x4 16x2 32x1 8x8 16x4 32x2; do
    l=${lv%x*}; v=${lv#*x}
    for t in 128 256 512; do C="$C $(spec $op bf16 w$l-$v-t$t strategy=warp lanes=$l vectors=$v threads=$t)"; done
  done
  st sw-$op 90 ./kgen run $C --bench --shape 32768x256 --shape 32768x512 --tsv $R/sw-$op.tsv
  st swt-$op 90 .gpu/kgen-wt run $C --bench --shape 32768x256 --shape 32768x512 --tsv $R/swt-$op.tsv
done
tar -czf $OUT/r.tgz -C $OUT r
