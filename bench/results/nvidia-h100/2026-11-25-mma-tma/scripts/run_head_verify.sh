# H100 at the session's head: the wgmma specs (their TMA and mbarrier helpers now in tma_ptx.cu) and the Hopper
# ladder verified, then gpu_verify.sh's random sample of the language (KGEN_GPU_VERIFY=sample).
top=$PWD; . .gpu/env.sh
R=$OUT/r; mkdir -p $R
{ nvidia-smi --query-gpu=name,clocks.max.sm,power.limit,driver_version --format=csv; date -u; cat $top/.gpu/commit.txt; } > $R/gpu.txt
( rm -rf /tmp/ks && mkdir -p /tmp/ks && tar -xzf $top/.gpu/d/*.tar.gz -C /tmp/ks --strip-components=1 && cd /tmp/ks && ./configure --quiet && make -s -j16 && make -s tests/sample_test ) > $R/build.log 2>&1
cd /tmp/ks && ls kgen tests/sample_test > /dev/null || { tail -20 $R/build.log; exit 1; }
echo "built $(date -u +%T)"
./kgen run specs/matmul/best/wgmma_bf16.yaml specs/matmul/best/wgmma_f16.yaml specs/matmul/hopper/*.yaml --shape 8x8x8 --shape 136x264x1000 --shape 2000x3000x520 --shape 4096x4096x4096 --verify > $R/wgmma.txt 2>&1
echo "wgmma: $(grep -cE ' ok ' $R/wgmma.txt) ok, $(grep -cE ' FAIL ' $R/wgmma.txt) FAIL, $(grep -c ' rejected ' $R/wgmma.txt) rejected"
KGEN_GPU_VERIFY=sample top_srcdir=. top_builddir=. sh tests/gpu_verify.sh > $R/gpu_verify-sample.log 2>&1; echo "gpu_verify sample rc=$?"
echo "sample: $(grep -cE ' ok ' $R/gpu_verify-sample.log) ok, $(grep -cE ' FAIL ' $R/gpu_verify-sample.log) FAIL, $(grep -c ' rejected ' $R/gpu_verify-sample.log) rejected"
grep -E "^# .*yaml: kernel: matmul" $R/gpu_verify-sample.log | head -12
