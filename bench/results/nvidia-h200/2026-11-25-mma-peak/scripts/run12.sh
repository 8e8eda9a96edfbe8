# H200: mma.sync's ceiling beside the best mma specs and cuBLAS at 8192^3; the day's plan changes (shipped:, Python) on the H200.
top=$PWD; . .gpu/env.sh
R=$OUT/r; mkdir -p $R
{ nvidia-smi --query-gpu=name,clocks.max.sm,power.limit,driver_version --format=csv; date -u; cat $top/.gpu/commit.txt; } > $R/gpu.txt
( rm -rf /tmp/km && mkdir -p /tmp/km && tar -xzf $top/.gpu/d/*.tar.gz -C /tmp/km --strip-components=1 && cd /tmp/km && ./configure --quiet && make -s -j16 && make -s kgen-cublas kgen-cub ) > $R/build.log 2>&1
cd /tmp/km && ls kgen kgen-cublas kgen-cub > /dev/null || { tail -20 $R/build.log; exit 1; }
nvcc -O3 -arch=sm_90 -o mma_peak bench/matmul/mma_peak.cu > $R/nvcc.log 2>&1 || { cat $R/nvcc.log; exit 1; }
echo "built $(date -u +%T)"
./mma_peak > $R/mma_peak.txt 2>&1; cat $R/mma_peak.txt
for pass in 1 2; do
  ./kgen run specs/matmul/best/mma_bf16.yaml specs/matmul/best/mma_f16.yaml specs/matmul/best/wgmma_bf16.yaml --shape 8192x8192x8192 --verify --bench --runs 10 > $R/kgen-$pass.txt 2>&1
  grep -oE "^[^ ]+ +[0-9x]+ [bf0-9]+ +(ok|FAIL).*kgen/cuBLAS [0-9.]+" $R/kgen-$pass.txt | sed 's/  */ /g'
done
./mma_peak > $R/mma_peak-2.txt 2>&1; head -6 $R/mma_peak-2.txt
export KGEN_PLANS_DIR=$PWD/specs/plans
./kgen run shipped:sum-f32 shipped:max-bf16 shipped:min-i32 shipped:argmax-f32 --n 1000 --n 2^24+3 --verify > $R/shipped.txt 2>&1; echo "shipped rc=$?"; grep -cE " ok " $R/shipped.txt; grep -E "^#|error" $R/shipped.txt
KGEN_LIBRARY=$PWD/.libs/libkgen.so KGEN_TOP_SRCDIR=$PWD PYTHONPATH=$PWD/python timeout 150 python3 -m pytest -q -p no:cacheprovider python/tests/test_gpu_dlpack.py > $R/pytest-dlpack.txt 2>&1; echo "pytest rc=$?"; tail -2 $R/pytest-dlpack.txt
cd $OUT && tar czf report.tgz r
