#!/bin/sh
# A/B: rows walk (contiguous runs, waves 1/2/4/8) and mma serpentine, old build (38e666b) vs new
set -u
top=$(pwd)
. .gpu/env.sh
( rm -rf /tmp/kgen-old && mkdir -p /tmp/kgen-old && tar -xzf $top/.gpu/old/kgen-0.1.0.tar.gz -C /tmp/kgen-old --strip-components=1 && cd /tmp/kgen-old && ./configure --quiet && make -s -j8 ) > $OUT/build-old.log 2>&1 &
kgen_build > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
wait
O=/tmp/kgen-old/kgen
R=$OUT/r; mkdir -p $R
{ date -u; nvidia-smi --query-gpu=name,clocks.max.sm,clocks.sm,power.limit,driver_version --format=csv,noheader; echo "kgen commit $(cat $top/.gpu/commit.txt) + working tree"; } | tee $R/gpu.txt
S="--verify --bench --runs 20"
short() { grep -E "kgen/CUB|kgen/cuBLAS|FAIL|error" | sed -E 's/ +/ /g' | cut -c1-200; }
for sh in 4194304x64 1048576x256 1000x3001 16384x16384; do
  echo "== rows $sh old"; $O run specs/reduce_axis/best/rows.yaml --shape $sh $S > $R/rows-old-$sh.txt 2>&1; short < $R/rows-old-$sh.txt
  for w in 1 2 4 8; do
    echo "== rows $sh new waves $w"; KGEN_X_WAVES=$w ./kgen run specs/reduce_axis/best/rows.yaml --shape $sh $S > $R/rows-new$w-$sh.txt 2>&1; short < $R/rows-new$w-$sh.txt
  done
  echo "== rows $sh old again"; $O run specs/reduce_axis/best/rows.yaml --shape $sh $S > $R/rows-old2-$sh.txt 2>&1; short < $R/rows-old2-$sh.txt
done
for sh in 4194304x64; do
  for v in "--set strategy=warp --set lanes=16 --set threads=1024" "--set strategy=warp --set lanes=8" "--set strategy=warp --set lanes=16"; do
    echo "== rows $sh new waves 1 $v"; KGEN_X_WAVES=1 ./kgen run specs/reduce_axis/best/rows.yaml --shape $sh $S $v > $R/rows-v.txt 2>&1; short < $R/rows-v.txt
  done
done
echo "== mma old/new"
for i in 1 2; do
$O run specs/matmul/best/mma_bf16.yaml specs/matmul/best/mma_f16.yaml --shape 4096x4096x4096 --shape 8192x8192x8192 --verify --bench --runs 10 > $R/mma-old$i.txt 2>&1; short < $R/mma-old$i.txt
./kgen run specs/matmul/best/mma_bf16.yaml specs/matmul/best/mma_f16.yaml --shape 4096x4096x4096 --shape 8192x8192x8192 --verify --bench --runs 10 > $R/mma-new$i.txt 2>&1; short < $R/mma-new$i.txt
done
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu --format=csv,noheader >> $R/gpu.txt
tar czf $OUT/report.tgz -C $OUT r
