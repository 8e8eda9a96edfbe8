# H100: the mma store refactor (store_elements) verified: both store modes, split_k, stream_k, odd shapes, padding, the ReLU; then 8192^3 against cuBLAS.
top=$PWD; . .gpu/env.sh
R=$OUT/r; mkdir -p $R
{ nvidia-smi --query-gpu=name,clocks.max.sm,power.limit,driver_version --format=csv; date -u; cat $top/.gpu/commit.txt; } > $R/gpu.txt
( rm -rf /tmp/ks && mkdir -p /tmp/ks && tar -xzf $top/.gpu/d/*.tar.gz -C /tmp/ks --strip-components=1 && cd /tmp/ks && ./configure --quiet && make -s -j16 && make -s kgen-cublas ) > $R/build.log 2>&1
cd /tmp/ks && ls kgen kgen-cublas > /dev/null || { tail -20 $R/build.log; exit 1; }
echo "built $(date -u +%T)"
S="--shape 7x5x3 --shape 127x255x63 --shape 515x1031x67 --shape 1000x3001x257"
for spec in specs/matmul/best/mma_bf16.yaml specs/matmul/best/mma_f16.yaml; do
  for set in "" "--set store=direct" "--set store=direct --set split_k=3" "--set schedule=stream_k" "--set store=direct --set schedule=stream_k" "--set a_layout=col --set b_layout=col" "--set epilogue=v>0?v:0 --set out_dtype=f32"; do
    echo "== $spec $set"; ./kgen run $spec $set $S --verify 2>&1
    echo "== $spec $set --pad 3"; ./kgen run $spec $set --shape 127x255x63 --pad 3 --verify 2>&1
  done
done > $R/verify.txt
echo "verify: $(grep -cE ' ok ' $R/verify.txt) ok, $(grep -cE 'FAIL|error' $R/verify.txt) FAIL/error"
grep -E "FAIL|error" $R/verify.txt | head -5
for pass in 1 2; do for set in "" "--set store=direct"; do echo "pass $pass $set"; ./kgen run specs/matmul/best/mma_bf16.yaml $set --shape 8192x8192x8192 --verify --bench --runs 10 2>&1 | grep -oE "^[^ ]+ +[0-9x]+ [bf0-9]+ +(ok|FAIL).*kgen/cuBLAS [0-9.]+" | sed 's/  */ /g'; done; done | tee $R/bench.txt
cd $OUT && tar czf report.tgz r
