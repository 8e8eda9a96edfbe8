#!/bin/sh
set -u
. .gpu/env.sh && kgen_build > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
b=$(pwd)
{ date -u; nvidia-smi --query-gpu=name,clocks.max.sm,power.limit,driver_version --format=csv,noheader; } | tee $OUT/gpu.txt
S=specs/matmul/hopper/03-warp-specialized.yaml
# 1. store: tma verified: 4 layouts, odd shapes, padded (ldc odd: the fallback; ldc + 8: TMA), f16, f32 out
{
for a in row col; do for bl in row col; do
  ./kgen run $S --set store=tma --set a_layout=$a --set b_layout=$bl --shape 8x8x8 --shape 136x264x1000 --shape 2000x3000x520 --shape 1003x264x131 --shape 3x3x3 --verify
done; done
./kgen run $S --set store=tma --pad 5 --shape 1003x259x131 --shape 136x264x1000 --verify
./kgen run $S --set store=tma --pad 8 --shape 1003x264x131 --shape 2000x3000x520 --verify
./kgen run $S --set store=tma --set out_dtype=f32 --shape 1003x259x131 --shape 136x264x1000 --shape 2000x3000x520 --verify
./kgen run $S --set store=tma --set dtype=f16 --shape 1003x264x131 --shape 2000x3000x520 --verify
./kgen run $S --set store=tma --set "epilogue=v > 0 ? v : 0" --shape 1003x264x131 --shape 2000x3000x520 --verify
./kgen run $S --set store=tma --shape 64x64x1048576 --verify
} > $OUT/tma-verify.txt 2>&1
echo "verify: $(grep -c ' ok ' $OUT/tma-verify.txt) ok, $(grep -c FAIL $OUT/tma-verify.txt) FAIL, $(grep -c 'error' $OUT/tma-verify.txt) error"; grep -E "FAIL|error" $OUT/tma-verify.txt | head -5
# 2. timing, each variant against cuBLAS in its own process
T="--shape 8192x8192x8192 --shape 4096x4096x4096 --shape 8192x8192x1024 --verify --bench --runs 10"
for v in "direct" "pairs" "tma" "tma-s3"; do
  case $v in tma-s3) set -- --set store=tma --set stages=3;; *) set -- --set store=$v;; esac
  ./kgen run $S $T "$@" > $OUT/time-$v.txt 2>&1
  echo "== $v"; grep -oE "[0-9x]+ bf16 (ok|FAIL).*kgen/cuBLAS [0-9.]+" $OUT/time-$v.txt | sed -E 's/ +/ /g'
done
./kgen run $S $T --set store=tma --set dtype=f16 > $OUT/time-tma-f16.txt 2>&1; echo "== tma f16"; grep -oE "[0-9x]+ f16 (ok|FAIL).*kgen/cuBLAS [0-9.]+" $OUT/time-tma-f16.txt | sed -E 's/ +/ /g'
./kgen run $S --shape 8192x8192x8192 --shape 8192x8192x1024 --verify --bench --runs 10 --set store=tma --set "epilogue=v > 0 ? v : 0" > $OUT/time-tma-relu.txt 2>&1; echo "== tma relu"; grep -oE "[0-9x]+ bf16 (ok|FAIL).*kgen/cuBLAS [0-9.]+" $OUT/time-tma-relu.txt | sed -E 's/ +/ /g'
python3 bench/matmul/torch_peer.py --shapes 8192x8192x8192 8192x8192x1024 --dtypes bf16 --runs 10 > $OUT/torch.txt 2>&1; grep -v "^#" $OUT/torch.txt
