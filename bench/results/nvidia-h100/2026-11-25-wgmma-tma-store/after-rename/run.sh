#!/bin/sh
set -u
top=$(pwd)
. .gpu/env.sh && kgen_build > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
b=$(pwd); R=$OUT/r; mkdir -p $R
{ date -u; nvidia-smi --query-gpu=name,clocks.max.sm,power.limit,driver_version --format=csv,noheader; echo "kgen commit $(cat $top/.gpu/commit.txt)"; } | tee $R/gpu.txt
S=specs/matmul/hopper/05-tma-store.yaml
{
for a in row col; do for bl in row col; do
  ./kgen run $S --set a_layout=$a --set b_layout=$bl --shape 8x8x8 --shape 136x264x1000 --shape 2000x3000x520 --shape 1000x264x136 --verify
done; done
./kgen run $S --pad 8 --shape 1000x264x136 --shape 2000x3000x520 --verify
./kgen run $S --set out_dtype=f32 --shape 136x264x1000 --shape 2000x3000x520 --verify
./kgen run specs/matmul/best/wgmma_f16.yaml --shape 1000x264x136 --shape 2000x3000x520 --verify
./kgen run $S --set "epilogue=v > 0 ? v : 0" --shape 1000x264x136 --shape 2000x3000x520 --verify
./kgen run $S --shape 64x64x1048576 --shape 8192x8192x16 --verify
./kgen run $S --set b_layout=col --shape 1000x259x136 --shape 136x1001x264 --shape 5x3x8 --verify
./kgen run $S --set b_layout=col --set out_dtype=f32 --shape 1000x259x136 --shape 136x1001x264 --verify
./kgen run $S --set b_layout=col --set "epilogue=v > 0 ? v : 0" --shape 1000x259x136 --verify
} > $R/tma-verify.txt 2>&1
echo "verify: $(grep -cE ' ok ' $R/tma-verify.txt) ok, $(grep -c FAIL $R/tma-verify.txt) FAIL, $(grep -c 'rejected' $R/tma-verify.txt) rejected, $(grep -c '^specs' $R/tma-verify.txt) results"
./kgen run specs/matmul/best/wgmma_bf16.yaml specs/matmul/best/wgmma_f16.yaml --shape 8192x8192x8192 --shape 4096x4096x4096 --shape 8192x8192x1024 --verify --bench --runs 10 > $R/best.txt 2>&1
grep -oE "^specs/[^ ]+ +[0-9x]+ [bf0-9]+ +(ok|FAIL).*kgen/cuBLAS [0-9.]+" $R/best.txt | sed -E 's/ +/ /g; s/specs\/matmul\///'
(timeout 330 make -j16 check > $R/make-check.log 2>&1; echo "make check rc=$?") ; grep -E "^(PASS|FAIL|SKIP|ERROR|# )" $R/make-check.log | tail -45
tar czf $OUT/report.tgz -C $OUT r
