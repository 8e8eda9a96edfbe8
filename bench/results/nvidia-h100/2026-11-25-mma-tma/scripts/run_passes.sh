# H100: the report's second and third passes (the cp.async and TMA mma specs at 4096^3 and 8192^3 against cuBLAS,
# verified), then loads: tma points at 8192^3 (one pass).
top=$PWD; . .gpu/env.sh
R=$OUT/r; mkdir -p $R
{ nvidia-smi --query-gpu=name,clocks.max.sm,power.limit,driver_version --format=csv; date -u; cat $top/.gpu/commit.txt; } > $R/gpu.txt
cd /tmp/ks && ls kgen kgen-cublas > /dev/null || { ( rm -rf /tmp/ks && mkdir -p /tmp/ks && tar -xzf $top/.gpu/d/*.tar.gz -C /tmp/ks --strip-components=1 && cd /tmp/ks && ./configure --quiet && make -s -j16 && make -s kgen-cublas ) > $R/build.log 2>&1; cd /tmp/ks; }
for pass in 2 3; do echo "pass $pass"; ./kgen run specs/matmul/best/mma_bf16.yaml specs/matmul/best/mma_tma_bf16.yaml specs/matmul/best/mma_f16.yaml specs/matmul/best/mma_tma_f16.yaml --shape 4096x4096x4096 --shape 8192x8192x8192 --verify --bench --runs 10 2>&1 | grep -oE "^[^ ]+ +[0-9x]+ [bf0-9]+ +(ok|FAIL).*kgen/cuBLAS [0-9.]+" | sed 's/  */ /g'; done | tee $R/bench.txt
for set in "--set tile_n=256" "--set tile_n=256 --set stages=4" "--set stages=4" "--set stages=2" "--set group=16"; do echo "points $set"; ./kgen run specs/matmul/best/mma_tma_bf16.yaml $set --shape 8192x8192x8192 --verify --bench --runs 10 2>&1 | grep -oE "^[^ ]+ +[0-9x]+ [bf0-9]+ +(ok|FAIL).*kgen/cuBLAS [0-9.]+" | sed 's/  */ /g'; done | tee $R/points.txt
