# mma.sync's own ceiling on this GPU (bench/matmul/mma_peak.cu) beside kgen's best mma.sync specs and cuBLAS at 8192^3, one call.
top=$PWD; . .gpu/env.sh
R=$OUT/r; mkdir -p $R
{ nvidia-smi --query-gpu=name,clocks.max.sm,power.limit,driver_version --format=csv; date -u; cat $top/.gpu/commit.txt; } > $R/gpu.txt
( rm -rf /tmp/km && mkdir -p /tmp/km && tar -xzf $top/.gpu/d/*.tar.gz -C /tmp/km --strip-components=1 && cd /tmp/km && ./configure --quiet && make -s -j16 && make -s kgen-cublas ) > $R/build.log 2>&1
cd /tmp/km && ls kgen kgen-cublas > /dev/null || { tail -20 $R/build.log; exit 1; }
nvcc -O3 -arch=sm_90 -o mma_peak $top/bench/matmul/mma_peak.cu > $R/nvcc.log 2>&1 || { cat $R/nvcc.log; exit 1; }
echo "built $(date -u +%T)"
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw --format=csv -lms 100 > $R/clocks.csv 2>&1 & smi=$!
./mma_peak > $R/mma_peak.txt 2>&1; cat $R/mma_peak.txt
for pass in 1 2; do
  ./kgen run specs/matmul/best/mma_bf16.yaml specs/matmul/best/mma_f16.yaml specs/matmul/best/wgmma_bf16.yaml --shape 8192x8192x8192 --verify --bench --runs 10 > $R/kgen-$pass.txt 2>&1
  grep -oE "^[^ ]+ +[0-9x]+ [bf0-9]+ +(ok|FAIL).*kgen/cuBLAS [0-9.]+" $R/kgen-$pass.txt | sed 's/  */ /g'
done
./mma_peak > $R/mma_peak-2.txt 2>&1; cat $R/mma_peak-2.txt | head -6
kill $smi
cd $OUT && tar czf report.tgz r
