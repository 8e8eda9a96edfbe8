top=$PWD; . .gpu/env.sh
R=$OUT/r; mkdir -p $R
{ nvidia-smi --query-gpu=name,clocks.max.sm,power.limit,driver_version --format=csv; date -u; cat $top/.gpu/commit.txt; } > $R/gpu.txt
for v in a b; do ( rm -rf /tmp/k$v && mkdir -p /tmp/k$v && tar -xzf $top/.gpu/$v/*.tar.gz -C /tmp/k$v --strip-components=1 && cd /tmp/k$v && ./configure --quiet && make -s -j8 ) > $R/build-$v.log 2>&1 & done; wait
ls /tmp/ka/kgen /tmp/kb/kgen || { tail -20 $R/build-*.log; exit 1; }
echo "built $(date -u +%T)"
T="--shape 8192x8192x8192 --shape 4096x4096x4096 --shape 8192x8192x1024 --shape 16384x4096x4096 --verify --bench --runs 10"
S=specs/matmul/best/wgmma_bf16.yaml
{
for i in 1 2; do
  echo "== a bf16 1x1 $i"; (cd /tmp/ka && ./kgen run $S $T)
  echo "== b bf16 1x1 $i"; (cd /tmp/kb && ./kgen run $S $T)
done
echo "== b bf16 2x1"; (cd /tmp/kb && ./kgen run $S --set cluster=2x1 $T)
echo "== a f16 1x1"; (cd /tmp/ka && ./kgen run specs/matmul/best/wgmma_f16.yaml $T)
echo "== b f16 1x1"; (cd /tmp/kb && ./kgen run specs/matmul/best/wgmma_f16.yaml $T)
echo "== b ladder"; (cd /tmp/kb && ./kgen run specs/matmul/hopper/0[1-5]*.yaml --shape 8192x8192x8192 --shape 4096x4096x4096 --verify --bench --runs 10)
} > $R/timing.txt 2>&1
grep -E "^==|kgen/cuBLAS" $R/timing.txt | sed -E 's/ +/ /g' | awk '/^==/{print; next}{print $1, $2, $4, $5, $NF}' | sed 's|specs/matmul/||'
echo "timed $(date -u +%T)"
cd /tmp/kb
V="--shape 8x8x8 --shape 136x264x1000 --shape 2000x3000x520 --shape 8192x8192x16 --verify"
{
for cl in 1x1 2x1 1x2; do for la in row col; do for lb in row col; do
  timeout 60 ./kgen run $S --set cluster=$cl --set a_layout=$la --set b_layout=$lb $V
done; done; done
timeout 60 ./kgen run specs/matmul/hopper/0[1-5]*.yaml --shape 136x264x1000 --shape 2000x3000x520 --shape 8x8x8 --verify
} > $R/verify.txt 2>&1
echo "verify: $(grep -cE ' ok ' $R/verify.txt) ok, $(grep -c FAIL $R/verify.txt) FAIL $(date -u +%T)"
grep -E "FAIL|rror" $R/verify.txt | head -5
cd $OUT && tar czf report.tgz r
