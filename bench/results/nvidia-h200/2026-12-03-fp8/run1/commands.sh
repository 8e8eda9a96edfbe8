#!/bin/bash
# Session 5, call 1 (lean build): fp8 (issue 54): every fp8 spec verified at ragged, tiny and unaligned shapes
# (operands integers -2..2, exact in any accumulation), then timed at the three shapes against
# cuBLASLt's fp8 (per-tensor scales, fast accumulation to match fp8_accum: fast, none for promote).
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
  KGEN_CUBLAS= timeout 30 ./kgen run --verify $V --set dtype=e5m2 $F/e4m3.yaml
  KGEN_CUBLAS= timeout 30 ./kgen run --verify $V --set store=direct --set split_k=3 --set split_reduce=kernel $F/e4m3_promote.yaml
  KGEN_CUBLAS= timeout 30 ./kgen run --verify $V --set split_k=2 --set tile_m=64 --set consumers=1 --set tile_n=128 $F/e4m3_promote.yaml
  KGEN_CUBLAS= timeout 30 ./kgen run --verify $V --set producer=none --set consumers=1 --set tile_m=64 --set store=pairs --set scale=none $F/e4m3.yaml
  KGEN_CUBLAS= timeout 30 ./kgen run --verify $V --set cluster=2x1 --set out_dtype=f32 $F/e4m3.yaml
  KGEN_CUBLAS= timeout 30 ./kgen run --verify --shape 4096x4096x4096 $F/e4m3.yaml $F/e4m3_promote.yaml
) > $OUT/verify.log 2>&1
echo "verify t $(( $(date +%s) - T0 )) s: $(grep -c ' ok ' $OUT/verify.log) ok, $(grep -c -E ' (FAIL|rejected) ' $OUT/verify.log) not"
grep -E " (FAIL|rejected) |error" $OUT/verify.log | cut -c1-240 | head -8
B="--shape 8192x8192x8192 --shape 4096x4096x7168 --shape 8192x8192x4096"
timeout 120 ./kgen run --verify --bench --runs 20 $B $F/e4m3.yaml $F/e4m3_promote.yaml > $OUT/bench.log 2>&1
echo "bench t $(( $(date +%s) - T0 )) s"
grep -h -v "^#" $OUT/bench.log | sed "s|^[^ ]* *||" | cut -c1-170
( for st in 3 4; do KGEN_CUBLAS= timeout 40 ./kgen run --bench --runs 20 $B --set stages=$st --set store=direct $F/e4m3.yaml; done
  KGEN_CUBLAS= timeout 40 ./kgen run --bench --runs 20 $B --set cluster=2x1 $F/e4m3.yaml
  KGEN_CUBLAS= timeout 40 ./kgen run --bench --runs 20 $B --set tile_m=256 --set tile_n=128 --set stages=3 $F/e4m3.yaml
  KGEN_CUBLAS= timeout 40 ./kgen run --bench --runs 20 $B --set schedule=pingpong --set tile_m=64 $F/e4m3.yaml
  KGEN_CUBLAS= timeout 40 ./kgen run --bench --runs 20 $B --set stages=4 $F/e4m3_promote.yaml
) > $OUT/sweep.log 2>&1
echo "sweep t $(( $(date +%s) - T0 )) s"
grep -h -v "^#" $OUT/sweep.log | sed "s|^[^ ]* *||" | cut -c1-150
