#!/bin/sh
# A/B/C: rows reduce_span with four loads in flight (new), plus launch bounds 3 blocks (lb), vs 38e666b (old)
set -u
top=$(pwd)
. .gpu/env.sh
bld() { ( rm -rf /tmp/kgen-$1 && mkdir -p /tmp/kgen-$1 && tar -xzf $2 -C /tmp/kgen-$1 --strip-components=1 && cd /tmp/kgen-$1 && ./configure --quiet && make -s -j6 ) > $OUT/build-$1.log 2>&1; }
bld old $top/.gpu/old/kgen-0.1.0.tar.gz & bld lb $top/.gpu/lb/kgen-0.1.0.tar.gz &
kgen_build > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
wait
R=$OUT/r; mkdir -p $R
{ date -u; nvidia-smi --query-gpu=name,clocks.max.sm,clocks.sm,power.limit,driver_version --format=csv,noheader; echo "kgen commit $(cat $top/.gpu/commit.txt) + working tree"; } | tee $R/gpu.txt
S="--verify --bench --runs 20"
short() { grep -E "kgen/CUB|FAIL|error" | sed -E 's/ +/ /g' | cut -c1-150; }
for sh in 4194304x64 1048576x256 16384x16384 256x1048576 64x4194304 1000x3001 1x1000003 1000003x1; do
 for rep in 1 2; do
  for b in old new lb; do
    K=/tmp/kgen-$b/kgen; [ $b = new ] && K=./kgen
    echo "== $b $sh"; $K run specs/reduce_axis/best/rows.yaml --shape $sh $S > $R/rows-$b-$sh-$rep.txt 2>&1; short < $R/rows-$b-$sh-$rep.txt
  done
 done
done
for b in old new; do K=/tmp/kgen-$b/kgen; [ $b = new ] && K=./kgen
 echo "== $b argmax rows"; $K run specs/reduce_axis/ops/argmax-rows-f32.yaml --shape 4194304x64 --shape 1048576x256 $S > $R/argmax-$b.txt 2>&1; grep -E " ok | FAIL" $R/argmax-$b.txt | sed -E 's/ +/ /g' | cut -c1-120
done
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu --format=csv,noheader >> $R/gpu.txt
tar czf $OUT/report.tgz -C $OUT r
