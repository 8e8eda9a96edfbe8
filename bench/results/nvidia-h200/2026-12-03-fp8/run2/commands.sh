#!/bin/bash
# Session 5, call 2 (lean build): fp8 again after promote releases each stage at once; cuBLASLt's fp8 peer
# (scales 256 bytes apart); the error of each accumulation (--accuracy) at K = 4096 and 65536.
R=$PWD
T0=$(date +%s)
. .gpu/env.sh
t=$(ls $R/.gpu/*.tar.gz | head -1)
rm -rf /tmp/kgen-build && mkdir -p /tmp/kgen-build && tar -xzf "$t" -C /tmp/kgen-build --strip-components=1 && cd /tmp/kgen-build &&
  ./configure --quiet --disable-cub-helper > /tmp/conf.log 2>&1 && make -s -j16 kgen > /tmp/build.log 2>&1 || { tail -30 /tmp/conf.log /tmp/build.log; exit 1; }
export KGEN_CUBLAS=$R/.gpu/kgen-cublas
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem,power.limit --format=csv > $OUT/gpu.txt
echo "build $(( $(date +%s) - T0 )) s"
F=$R/specs/matmul/fp8
V="--shape 7x5x3 --shape 1000x3001x257 --shape 64x1000x4096 --shape 1x512x2048 --shape 200x136x128 --shape 256x512x4112"
( KGEN_CUBLAS= timeout 60 ./kgen run --verify $V $F/e4m3.yaml $F/e4m3_promote.yaml $F/e4m3_e5m2.yaml
  KGEN_CUBLAS= timeout 30 ./kgen run --verify $V --set cluster=2x1 $F/e4m3_promote.yaml $F/e4m3.yaml
  KGEN_CUBLAS= timeout 30 ./kgen run --verify $V --set bias=col --set "epilogue=gelu(v + bias)" $F/e4m3.yaml
  KGEN_CUBLAS= timeout 30 ./kgen run --verify $V --set producer=none --set consumers=1 --set tile_m=64 --set store=direct $F/e4m3_promote.yaml
  KGEN_CUBLAS= timeout 30 ./kgen run --verify $V --set schedule=pingpong --set tile_m=64 --set tile_n=128 $F/e4m3_promote.yaml
  KGEN_CUBLAS= timeout 30 ./kgen run --verify --shape 4096x4096x4096 --shape 2048x2048x16384 $F/e4m3.yaml $F/e4m3_promote.yaml
) > $OUT/verify.log 2>&1
echo "verify t $(( $(date +%s) - T0 )) s: $(grep -c ' ok ' $OUT/verify.log) ok, $(grep -c -E ' (FAIL|rejected) ' $OUT/verify.log) not"
grep -E " (FAIL|rejected) |error" $OUT/verify.log | cut -c1-240 | head -8
( KGEN_CUBLAS= timeout 60 ./kgen run --accuracy --shape 512x512x4096 --shape 128x128x65536 $F/e4m3.yaml $F/e4m3_promote.yaml
  KGEN_CUBLAS= timeout 30 ./kgen run --accuracy --shape 512x512x4096 --shape 128x128x65536 --set dtype=e5m2 $F/e4m3.yaml $F/e4m3_promote.yaml
  KGEN_CUBLAS= timeout 30 ./kgen run --accuracy --shape 512x512x4096 --shape 128x128x65536 --set b_layout=col $R/specs/matmul/best/wgmma_bf16.yaml
) > $OUT/accuracy.log 2>&1
echo "accuracy t $(( $(date +%s) - T0 )) s"
grep -v "^#" $OUT/accuracy.log | sed "s|^[^ ]* *||" | cut -c1-230
B="--shape 8192x8192x8192 --shape 4096x4096x7168 --shape 8192x8192x4096"
timeout 150 ./kgen run --verify --bench --runs 20 $B $F/e4m3.yaml $F/e4m3_promote.yaml > $OUT/bench.log 2>&1
timeout 100 ./kgen run --verify --bench --runs 20 $B --set cluster=2x1 $F/e4m3.yaml $F/e4m3_promote.yaml > $OUT/bench-cluster.log 2>&1
echo "bench t $(( $(date +%s) - T0 )) s"
grep -h -v "^#" $OUT/bench.log $OUT/bench-cluster.log | sed "s|^[^ ]* *||" | cut -c1-175
( KGEN_CUBLAS= timeout 40 ./kgen run --bench --runs 20 $B --set tile_n=128 --set stages=6 $F/e4m3.yaml
  KGEN_CUBLAS= timeout 40 ./kgen run --bench --runs 20 $B --set schedule=pingpong --set tile_m=64 --set tile_n=128 --set stages=8 $F/e4m3_promote.yaml
  KGEN_CUBLAS= timeout 40 ./kgen run --bench --runs 20 $B --set cluster=2x1 --set tile_n=64 --set stages=8 $F/e4m3_promote.yaml
  KGEN_CUBLAS= timeout 40 ./kgen run --bench --runs 20 $B --set cluster=2x1 --set tile_m=256 --set tile_n=128 --set stages=3 $F/e4m3.yaml
) > $OUT/sweep.log 2>&1
echo "sweep t $(( $(date +%s) - T0 )) s"
grep -h -v "^#" $OUT/sweep.log | sed "s|^[^ ]* *||" | cut -c1-150
