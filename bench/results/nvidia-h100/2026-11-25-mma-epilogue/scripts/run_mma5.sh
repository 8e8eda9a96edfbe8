#!/bin/sh
set -u
top=$(pwd)
. .gpu/env.sh && kgen_build > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
b=$(pwd); R=$OUT/r; mkdir -p $R
{ date -u; nvidia-smi --query-gpu=name,clocks.max.sm,power.limit,driver_version --format=csv,noheader; echo "kgen commit $(cat $top/.gpu/commit.txt)"; } | tee $R/gpu.txt
T="--shape 4096x4096x4096 --shape 8192x8192x8192 --verify --bench --runs 10"
i=0
for v in "specs/matmul/best/mma_bf16.yaml" "specs/matmul/best/mma_bf16.yaml --set store=pairs" "specs/matmul/best/mma_f16.yaml --set store=pairs" "specs/matmul/best/wgmma_bf16.yaml"; do
  i=$((i+1)); echo "== $i: $v"
  ./kgen run $v $T > $R/time-$i.txt 2>&1
  grep -oE "[0-9x]+ [bf0-9]+ +(ok|FAIL).*kgen/cuBLAS [0-9.]+" $R/time-$i.txt | sed -E 's/ +/ /g'; grep -iE "error|refused" $R/time-$i.txt | head -2
done
V="--shape 7x5x3 --shape 127x255x63 --shape 1000x3001x257 --shape 515x1031x67 --verify"
{
for s in mma_bf16 mma_f16; do for a in row col; do for bl in row col; do
  ./kgen run specs/matmul/best/$s.yaml --set store=pairs --set a_layout=$a --set b_layout=$bl $V
  ./kgen run specs/matmul/best/$s.yaml --set store=pairs --set a_layout=$a --set b_layout=$bl --pad 5 --shape 1003x259x131 --shape 3x3x3 --verify
done; done; done
./kgen run specs/matmul/best/mma_bf16.yaml --set store=pairs --set out_dtype=f32 $V --pad 4
./kgen run specs/matmul/best/mma_bf16.yaml --set store=pairs --set "epilogue=v > 0 ? v : 0" $V
./kgen run specs/matmul/best/mma_bf16.yaml --set store=pairs --set stages=1 --set smem_layout=padded $V
./kgen run specs/matmul/best/mma_bf16.yaml --set store=pairs --shape 64x64x1048576 --shape 8192x8192x16 --verify
./kgen run specs/matmul/best/mma_bf16.yaml specs/matmul/seed-002/08-wmma.yaml $V
for sp in specs/matmul/hopper/*.yaml specs/matmul/best/wgmma_bf16.yaml; do ./kgen run $sp --shape 8x8x8 --shape 136x264x1000 --shape 2000x3000x520 --verify; done
./kgen run specs/matmul/best/wgmma_bf16.yaml --pad 5 --shape 1003x259x131 --verify
} > $R/verify.txt 2>&1
echo "verify: $(grep -cE ' ok ' $R/verify.txt) ok, $(grep -c FAIL $R/verify.txt) FAIL, $(grep -ci 'error' $R/verify.txt) error"; grep -E "FAIL|rror" $R/verify.txt | head -5
tar czf $OUT/report.tgz -C $OUT r
