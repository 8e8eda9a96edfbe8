top=$PWD
. .gpu/env.sh
R=$OUT/r; mkdir -p $R
{ nvidia-smi --query-gpu=name,clocks.max.sm,power.limit,driver_version --format=csv; date -u; cat $top/.gpu/commit.txt; } > $R/gpu.txt
for v in a b; do ( rm -rf /tmp/k$v && mkdir -p /tmp/k$v && tar -xzf $top/.gpu/$v/*.tar.gz -C /tmp/k$v --strip-components=1 && cd /tmp/k$v && ./configure --quiet && make -s -j8 ) > $R/build-$v.log 2>&1 & done; wait
ls /tmp/ka/kgen /tmp/kb/kgen || { tail -20 $R/build-*.log; exit 1; }
echo "built $(date -u +%T)"
T="--shape 8192x8192x8192 --shape 4096x4096x4096 --shape 8192x8192x1024 --verify --bench --runs 10"
S=specs/matmul/best/wgmma_bf16.yaml
for i in 1 2; do
  (cd /tmp/ka && ./kgen run $S $T) > $R/t-a-1x1-$i.txt 2>&1
  (cd /tmp/kb && ./kgen run $S $T) > $R/t-b-1x1-$i.txt 2>&1
  (cd /tmp/kb && ./kgen run $S --set cluster=2x1 $T) > $R/t-b-2x1-$i.txt 2>&1
  (cd /tmp/ka && ./kgen run $S --set cluster=2x1 $T) > $R/t-a-2x1-$i.txt 2>&1
done
(cd /tmp/kb && ./kgen run $S --set cluster=1x2 $T) > $R/t-b-1x2-1.txt 2>&1
echo "timed $(date -u +%T)"
for f in $R/t-*.txt; do echo "== $(basename $f)"; grep -oE "^[^ ]+ +[0-9x]+ [bf0-9]+ +(ok|FAIL).*kgen/cuBLAS [0-9.]+" $f | awk '{print $2, $4, $5, $NF}'; done
cd /tmp/kb
(./kgen run specs/matmul/hopper/0[1-5]*.yaml --shape 8192x8192x8192 --verify --bench --runs 10) > $R/ladder.txt 2>&1
grep -oE "^[^ ]+ +[0-9x]+ [bf0-9]+ +(ok|FAIL).*kgen/cuBLAS [0-9.]+" $R/ladder.txt | awk '{print $1, $2, $4, $NF}'
echo "ladder $(date -u +%T)"
V="--shape 8x8x8 --shape 136x264x1000 --shape 2000x3000x520 --shape 8192x8192x16 --shape 1000x1000x65536 --verify"
{
for cl in 1x1 2x1 1x2; do for la in row col; do for lb in row col; do
  ./kgen run $S --set cluster=$cl --set a_layout=$la --set b_layout=$lb $V
done; done
./kgen run specs/matmul/best/wgmma_f16.yaml --set cluster=$cl --set "epilogue=v > 0 ? v : 0" --set out_dtype=f32 $V
./kgen run $S --set cluster=$cl --set store=pairs --set stages=3 $V
done
./kgen run specs/matmul/hopper/0[1-5]*.yaml --shape 136x264x1000 --shape 2000x3000x520 --shape 8x8x8 --verify
} > $R/verify.txt 2>&1
echo "verify: $(grep -cE ' ok ' $R/verify.txt) ok, $(grep -c FAIL $R/verify.txt) FAIL $(date -u +%T)"
grep -E "FAIL|rror" $R/verify.txt | head -5
cd $OUT && tar czf report.tgz r
