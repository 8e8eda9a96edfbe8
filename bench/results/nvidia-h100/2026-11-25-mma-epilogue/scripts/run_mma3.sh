#!/bin/sh
set -u
top=$(pwd)
. .gpu/env.sh && kgen_build > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
b=$(pwd); R=$OUT/r; mkdir -p $R
{ date -u; nvidia-smi --query-gpu=name,clocks.max.sm,power.limit,driver_version --format=csv,noheader; echo "kgen commit $(cat $top/.gpu/commit.txt)"; } | tee $R/gpu.txt
# timing first (the question), then verification
T="--shape 4096x4096x4096 --shape 8192x8192x8192 --verify --bench --runs 10"
for s in mma_bf16 mma_f16 simt_f32; do
  ./kgen run specs/matmul/best/$s.yaml $T > $R/time-$s.txt 2>&1
  echo "== $s"; grep -oE "[0-9x]+ [bf0-9]+ +(ok|FAIL).*kgen/cuBLAS [0-9.]+" $R/time-$s.txt | sed -E 's/ +/ /g'
done
V="--shape 7x5x3 --shape 127x255x63 --shape 1000x3001x257 --shape 515x1031x67 --verify"
{
for s in mma_bf16 mma_f16; do for lay in swizzled padded; do for a in row col; do for bl in row col; do
  ./kgen run specs/matmul/best/$s.yaml --set smem_layout=$lay --set a_layout=$a --set b_layout=$bl $V
  ./kgen run specs/matmul/best/$s.yaml --set smem_layout=$lay --set a_layout=$a --set b_layout=$bl --pad 5 --shape 1003x259x131 --shape 3x3x3 --verify
done; done; done; done
for st in 1 2 4; do ./kgen run specs/matmul/best/mma_bf16.yaml --set stages=$st --set tile_k=32 $V; done
./kgen run specs/matmul/best/mma_bf16.yaml --set tile_n=256 $V
for a in row col; do for bl in row col; do ./kgen run specs/matmul/best/simt_f32.yaml --set a_layout=$a --set b_layout=$bl --set stages=1 $V; done; done
./kgen run specs/matmul/best/simt_f32.yaml $V --pad 5 --shape 1003x259x131
./kgen run specs/matmul/seed-002/*.yaml --shape 127x255x63 --shape 515x1031x67 --verify
./kgen run specs/matmul/best/mma_bf16.yaml --set "epilogue=v > 0 ? v : 0" --set split_k=3 $V
./kgen run specs/matmul/best/mma_bf16.yaml --shape 64x64x1048576 --shape 8192x8192x16 --verify
} > $R/verify.txt 2>&1
echo "verify: $(grep -cE ' ok ' $R/verify.txt) ok, $(grep -c FAIL $R/verify.txt) FAIL, $(grep -ci 'error' $R/verify.txt) error"; grep -E "FAIL|rror" $R/verify.txt | head -5
tar czf $OUT/report.tgz -C $OUT r
