#!/bin/sh
# session 24 call 4: ncu kernel times (gpu__time_duration) of short-row warp kernels, R rows a group at once
# (.gpu/kgen-wt, env KGEN_PROTO_RPT, branch exp/wtop), against head's auto and torch.compile, 32768 x 256 and 512 bf16.
set -u
T0=$(date +%s); END=${END:-540}
root=$PWD
. $root/.gpu/env.sh
R=$OUT/r; mkdir -p $R/specs $R/n
st() { n=$1; s=$2; shift 2; left=$(( END - ($(date +%s) - T0) )); [ $s -gt $left ] && s=$left
  if [ $s -lt 5 ]; then echo "$n skipped" | tee -a $R/steps.txt; return; fi
  /usr/bin/time -f "%e s wall" -o $R/$n.time timeout $s "$@" > $R/n/$n.txt 2>&1
  echo "$n rc=$? t=$(( $(date +%s) - T0 ))s $(cat $R/$n.time)" >> $R/steps.txt; rm -f $R/$n.time
  tar -czf $OUT/r.tgz -C $OUT r; }
spec() { op=$1; dt=$2; nm=$3; shift 3; f=$R/specs/$op-$dt-$nm.yaml
  printf 'kernel: rows\nop: %s\ndtype: %s\n' $op $dt > $f; for kv in "$@"; do echo "$kv" | sed 's/=/: /' >> $f; done; echo $f; }
NCU="/usr/local/cuda/bin/ncu --metrics gpu__time_duration.sum,launch__registers_per_thread"
for op in layer_norm rms_norm softmax; do
  tcop=$op; [ $op = layer_norm ] && tcop=ln; [ $op = rms_norm ] && tcop=rms
  st tc-$op-256 40 $NCU -k regex:triton --launch-skip 2 --launch-count 1 python3 .gpu/tc_dump.py $tcop 256
  st tc-$op-512 40 $NCU -k regex:triton --launch-skip 2 --launch-count 1 python3 .gpu/tc_dump.py $tcop 512
  st head-$op 20 $NCU -k regex:rows_ ./kgen run specs/rows/$op.yaml --bench --runs 2 --shape 32768x256 --shape 32768x512
  for lv in 16x2 32x1 32x2 16x4; do
    l=${lv%x*}; v=${lv#*x}
    sh="--shape 32768x256"; [ $lv = 32x2 -o $lv = 16x4 ] && sh="--shape 32768x512"
    for t in 128 256; do
      f=$(spec $op bf16 w$l-$v-t$t strategy=warp lanes=$l vectors=$v threads=$t)
      for rp in 1 2 4; do
        KGEN_PROTO_RPT=$rp st wt-$op-$lv-t$t-r$rp 20 $NCU -k regex:rows_ .gpu/kgen-wt run $f --verify --bench --runs 2 $sh
      done
    done
  done
done
tar -czf $OUT/r.tgz -C $OUT r
