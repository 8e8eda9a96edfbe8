top=$PWD
. .gpu/env.sh
mkdir -p $OUT/r; R=$OUT/r
{ nvidia-smi --query-gpu=name,clocks.max.sm,power.limit,driver_version --format=csv; date -u; cat $top/.gpu/commit.txt; } > $R/gpu.txt
kgen_build > $R/build.log 2>&1 || { tail -30 $R/build.log; exit 1; }
V="--shape 136x264x1000 --shape 2000x3000x520 --shape 8192x8192x16 --verify"
{
for cl in 2x1 1x2; do for la in row col; do
  ./kgen run specs/matmul/best/wgmma_bf16.yaml --set cluster=$cl --set a_layout=$la --set b_layout=$la $V
done; done
} > $R/verify.txt 2>&1
echo "verify: $(grep -cE ' ok ' $R/verify.txt) ok, $(grep -c FAIL $R/verify.txt) FAIL"
T="--shape 8192x8192x8192 --shape 4096x4096x4096 --shape 8192x8192x1024 --verify --bench --runs 10"
./kgen run specs/matmul/hopper/0*.yaml $T --tsv $R/ladder.tsv > $R/ladder.txt 2>&1
./kgen run specs/matmul/best/wgmma_bf16.yaml specs/matmul/best/wgmma_f16.yaml $T > $R/best.txt 2>&1
./kgen run specs/matmul/best/wgmma_bf16.yaml --set cluster=2x1 $T > $R/cluster-tma.txt 2>&1
for f in $R/ladder.txt $R/best.txt $R/cluster-tma.txt; do echo "== $(basename $f)"; grep -oE "^[^ ]+ +[0-9x]+ [bf0-9]+ +(ok|FAIL).*kgen/cuBLAS [0-9.]+" $f | awk '{print $1, $2, $4, $5, $NF}'; done
cd $OUT && tar czf report.tgz r
