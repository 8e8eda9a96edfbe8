#!/bin/sh
# A/B on short rows: old (3db9d4f), new (the last partial batch of loads issued together too)
set -u
top=$(pwd)
. .gpu/env.sh
bld() { ( rm -rf /tmp/kgen-$1 && mkdir -p /tmp/kgen-$1 && tar -xzf $2 -C /tmp/kgen-$1 --strip-components=1 && cd /tmp/kgen-$1 && ./configure --quiet && make -s -j6 ) > $OUT/build-$1.log 2>&1; }
bld old $top/.gpu/old/kgen-0.1.0.tar.gz &
kgen_build > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
wait
R=$OUT/r; mkdir -p $R
{ date -u; nvidia-smi --query-gpu=name,clocks.max.sm,clocks.sm,power.limit,driver_version --format=csv,noheader; echo "kgen commit $(cat $top/.gpu/commit.txt) + working tree"; } | tee $R/gpu.txt
S="--verify --bench --runs 20"
short() { grep -E "kgen/CUB|FAIL|error" | sed -E 's/ +/ /g' | cut -c1-120; }
for sh in 2000000x100 4194304x64 1048576x256 100000x1000 3000000x40; do
 for rep in 1 2; do
  for b in old new; do
    K=/tmp/kgen-$b/kgen; [ $b = new ] && K=./kgen
    echo "== $b $sh"; $K run specs/reduce_axis/best/rows.yaml --shape $sh $S > $R/rows-$b-$sh-$rep.txt 2>&1; short < $R/rows-$b-$sh-$rep.txt
  done
 done
done
for b in old new; do K=/tmp/kgen-$b/kgen; [ $b = new ] && K=./kgen
 echo "== $b argmax rows"; $K run specs/reduce_axis/ops/argmax-rows-f32.yaml --shape 4194304x64 --shape 1048576x256 $S > $R/argmax-$b.txt 2>&1; grep -E " ok | FAIL" $R/argmax-$b.txt | sed -E 's/ +/ /g' | cut -c1-100
done
A=$(find specs/reduce_axis -name '*.yaml' | LC_ALL=C sort)
for dt in f32 bf16; do for pad in 0 3; do
  ./kgen run --verify --set dtype=$dt --pad $pad --shape 33x65 --shape 5000x64 --shape 3000x128 --shape 2000x200 --shape 7x17 $(for f in $A; do ./kgen check --set dtype=$dt $f 2>/dev/null && echo $f; done) >> $R/axis-verify.txt 2>&1
done; done
echo "== axis verify: $(grep -c ' ok ' $R/axis-verify.txt) ok, $(grep -c FAIL $R/axis-verify.txt) FAIL"
tar czf $OUT/report.tgz -C $OUT r
