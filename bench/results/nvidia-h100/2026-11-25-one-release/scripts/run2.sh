top=$PWD; . .gpu/env.sh
R=$OUT/r; mkdir -p $R
cd /tmp/kb || exit 1
V="--shape 8x8x8 --shape 136x264x1000 --shape 2000x3000x520 --shape 8192x8192x16 --shape 1000x1000x65536 --verify"
S=specs/matmul/best/wgmma_bf16.yaml
run() { s=$(date +%s.%N); timeout 60 ./kgen run "$@" >> $R/verify.txt 2>&1; rc=$?; echo "rc=$rc $(awk -v a=$s -v b=$(date +%s.%N) "BEGIN{print b-a}") s: $*" | tee -a $R/times.txt; }
for cl in 1x1 2x1 1x2; do for la in row col; do for lb in row col; do
  run $S --set cluster=$cl --set a_layout=$la --set b_layout=$lb $V
done; done
run specs/matmul/best/wgmma_f16.yaml --set cluster=$cl --set "epilogue=v > 0 ? v : 0" --set out_dtype=f32 $V
run $S --set cluster=$cl --set store=pairs --set stages=3 $V
done
run specs/matmul/hopper/0[1-5]*.yaml --shape 136x264x1000 --shape 2000x3000x520 --shape 8x8x8 --verify
echo "verify: $(grep -cE ' ok ' $R/verify.txt) ok, $(grep -c FAIL $R/verify.txt) FAIL $(date -u +%T)"
grep -E "FAIL|rror" $R/verify.txt | head -5
cd $OUT && tar czf report.tgz r
