top=$PWD
. .gpu/env.sh
mkdir -p $OUT/r; R=$OUT/r
{ nvidia-smi --query-gpu=name,clocks.max.sm,power.limit,driver_version --format=csv; date -u; cat $top/.gpu/commit.txt; } > $R/gpu.txt
kgen_build > $R/build.log 2>&1 || { tail -30 $R/build.log; exit 1; }
T="--verify --bench --runs 10"
./kgen run specs/matmul/hopper/0*.yaml --shape 8192x8192x8192 $T --tsv $R/ladder.tsv > $R/ladder.txt 2>&1
P="--shape 8192x8192x8192 --shape 4096x4096x4096 $T"
./kgen run specs/matmul/best/wgmma_bf16.yaml $P > $R/best.txt 2>&1
./kgen run specs/matmul/best/wgmma_bf16.yaml --set tile_n=192 $P > $R/n192.txt 2>&1
./kgen run specs/matmul/best/wgmma_bf16.yaml --set group=16 $P > $R/g16.txt 2>&1
./kgen run specs/matmul/best/wgmma_bf16.yaml --set group=4 $P > $R/g4.txt 2>&1
./kgen run specs/matmul/best/wgmma_bf16.yaml $P > $R/best2.txt 2>&1
for f in $R/*.txt; do echo "== $(basename $f)"; grep -oE "^[^ ]+ +[0-9x]+ [bf0-9]+ +(ok|FAIL).*kgen/cuBLAS [0-9.]+" $f | awk '{print $1, $2, $4, $5, $NF}'; done
cd $OUT && tar czf report.tgz r
