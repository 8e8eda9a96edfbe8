top=$PWD
. .gpu/env.sh
mkdir -p $OUT/r; R=$OUT/r
{ nvidia-smi --query-gpu=name,clocks.max.sm,power.limit,driver_version --format=csv; date -u; cat $top/.gpu/commit.txt; } > $R/gpu.txt
kgen_build > $R/build.log 2>&1 || { tail -30 $R/build.log; exit 1; }
V="--shape 8x8x8 --shape 136x264x1000 --shape 2000x3000x520 --shape 8192x8192x16 --shape 1000x1000x65536 --verify"
{
for cl in 2x1 1x2; do for la in row col; do for lb in row col; do
  ./kgen run specs/matmul/best/wgmma_bf16.yaml --set cluster=$cl --set a_layout=$la --set b_layout=$lb $V
done; done
./kgen run specs/matmul/best/wgmma_f16.yaml --set cluster=$cl --set "epilogue=v > 0 ? v : 0" --set out_dtype=f32 $V
./kgen run specs/matmul/best/wgmma_bf16.yaml --set cluster=$cl --pad 5 --shape 1000x3000x264 --shape 300x200x64 --verify
done
} > $R/verify.txt 2>&1
echo "verify: $(grep -cE ' ok ' $R/verify.txt) ok, $(grep -c FAIL $R/verify.txt) FAIL"
grep -E "FAIL|rror" $R/verify.txt | head -5
T="--shape 8192x8192x8192 --shape 4096x4096x4096 --shape 8192x8192x1024 --shape 16384x4096x4096 --verify --bench --runs 10"
for i in 1 2; do
  ./kgen run specs/matmul/best/wgmma_bf16.yaml $T > $R/t-1x1-$i.txt 2>&1
  ./kgen run specs/matmul/best/wgmma_bf16.yaml --set cluster=2x1 $T > $R/t-2x1-$i.txt 2>&1
  ./kgen run specs/matmul/best/wgmma_bf16.yaml --set cluster=1x2 $T > $R/t-1x2-$i.txt 2>&1
done
./kgen run specs/matmul/best/wgmma_f16.yaml $T > $R/t-f16-1x1.txt 2>&1
./kgen run specs/matmul/best/wgmma_f16.yaml --set cluster=2x1 $T > $R/t-f16-2x1.txt 2>&1
./kgen run specs/matmul/best/wgmma_f16.yaml --set cluster=1x2 $T > $R/t-f16-1x2.txt 2>&1
for f in $R/t-*.txt; do echo "== $(basename $f)"; grep -oE "^[^ ]+ +[0-9x]+ [bf0-9]+ +(ok|FAIL).*kgen/cuBLAS [0-9.]+" $f | awk '{print $2, $4, $5, $NF}'; done
cd $OUT && tar czf report.tgz r
