# H200: math: mma with loads: tma verified (both dtypes: row and col layouts, edges, store: direct, the ReLU),
# then timed against cuBLAS beside the cp.async specs, two passes.
top=$PWD; . .gpu/env.sh
R=$OUT/r; mkdir -p $R
{ nvidia-smi --query-gpu=name,clocks.max.sm,power.limit,driver_version --format=csv; date -u; cat $top/.gpu/commit.txt; } > $R/gpu.txt
( rm -rf /tmp/ks && mkdir -p /tmp/ks && tar -xzf $top/.gpu/d/*.tar.gz -C /tmp/ks --strip-components=1 && cd /tmp/ks && ./configure --quiet && make -s -j16 && make -s kgen-cublas ) > $R/build.log 2>&1
cd /tmp/ks && ls kgen kgen-cublas > /dev/null || { tail -20 $R/build.log; exit 1; }
echo "built $(date -u +%T)"
ROW="--shape 7x8x8 --shape 127x264x72 --shape 1001x3000x264 --shape 8192x8192x16"
COL="--shape 8x7x8 --shape 128x255x72 --shape 1000x3001x264"
for spec in specs/matmul/best/mma_tma_bf16.yaml specs/matmul/best/mma_tma_f16.yaml; do
  for set in "" "--set store=direct" "--set epilogue=v>0?v:0 --set out_dtype=f32"; do
    echo "== $spec $set"; ./kgen run $spec $set $ROW --verify 2>&1
  done
  echo "== $spec col col"; ./kgen run $spec --set a_layout=col --set b_layout=col $COL --verify 2>&1
done > $R/verify.txt
echo "verify: $(grep -cE ' ok ' $R/verify.txt) ok, $(grep -cE 'FAIL' $R/verify.txt) FAIL, $(grep -ciE 'error' $R/verify.txt) error lines"
for pass in 1 2; do echo "pass $pass"; ./kgen run specs/matmul/best/mma_bf16.yaml specs/matmul/best/mma_tma_bf16.yaml specs/matmul/best/mma_f16.yaml specs/matmul/best/mma_tma_f16.yaml --shape 4096x4096x4096 --shape 8192x8192x8192 --verify --bench --runs 10 2>&1 | grep -oE "^[^ ]+ +[0-9x]+ [bf0-9]+ +(ok|FAIL).*kgen/cuBLAS [0-9.]+" | sed 's/  */ /g'; done | tee $R/bench.txt
