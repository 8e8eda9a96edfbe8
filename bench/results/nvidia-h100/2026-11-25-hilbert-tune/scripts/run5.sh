top=$PWD; . .gpu/env.sh
R=$OUT/r; mkdir -p $R
{ nvidia-smi --query-gpu=name,clocks.max.sm,power.limit,driver_version --format=csv; date -u; cat $top/.gpu/commit.txt; } > $R/gpu.txt
( rm -rf /tmp/kc && mkdir -p /tmp/kc && tar -xzf $top/.gpu/c/*.tar.gz -C /tmp/kc --strip-components=1 && cd /tmp/kc && ./configure --quiet && make -s -j16 ) > $R/build.log 2>&1
cd /tmp/kc && ls kgen || { tail -20 $R/build.log; exit 1; }
echo "built $(date -u +%T)"
S=specs/matmul/best/wgmma_bf16.yaml
V="--shape 8x8x8 --shape 136x264x1000 --shape 1000x1000x1000 --shape 2000x3000x300 --shape 1031x515x67 --verify"
{
for g in 8 4 16; do timeout 90 ./kgen run $S --set order=hilbert --set group=$g $V; done
for cl in 2x1 1x2; do timeout 90 ./kgen run $S --set order=hilbert --set cluster=$cl $V; done
timeout 90 ./kgen run $S --set order=hilbert --set a_layout=col --set b_layout=col $V
timeout 90 ./kgen run specs/matmul/best/mma_bf16.yaml --set order=hilbert $V
timeout 90 ./kgen run specs/matmul/best/simt_f32.yaml --set order=hilbert --shape 8x8x8 --shape 136x264x1000 --shape 1031x515x67 --shape 1000x1000x1000 --verify
} > $R/verify.txt 2>&1
echo "verify: $(grep -cE ' ok ' $R/verify.txt) ok, $(grep -c FAIL $R/verify.txt) FAIL $(date -u +%T)"
grep -E "FAIL|rror" $R/verify.txt | head -5
T="--shape 8192x8192x8192 --shape 4096x4096x4096 --shape 8192x8192x1024 --shape 16384x4096x4096 --verify --bench --runs 10"
{
for i in 1 2; do
  echo "== grouped $i"; ./kgen run $S $T
  echo "== hilbert $i"; ./kgen run $S --set order=hilbert $T
done
echo "== hilbert 2x1"; ./kgen run $S --set order=hilbert --set cluster=2x1 $T
} > $R/timing.txt 2>&1
grep -E "^==|kgen/cuBLAS" $R/timing.txt | awk '/^==/{print; next}{match($0,/kgen\/cuBLAS [0-9.]+/); print $2, $4, $5, $10, substr($0,RSTART,RLENGTH)}'
echo "timed $(date -u +%T)"
cd $OUT && tar czf report.tgz r
