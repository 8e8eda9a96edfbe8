top=$PWD; . .gpu/env.sh
R=$OUT/r; mkdir -p $R
F="specs/matmul/best/wgmma_f16.yaml --set cluster=2x1 --set epilogue=v>0?v:0 --set out_dtype=f32 --shape 1000x1000x65536 --verify"
for v in a b; do s=$(date +%s.%N); (cd /tmp/k$v && timeout 200 ./kgen run $F) > $R/f16relu-$v.txt 2>&1; echo "$v rc=$? $(awk -v a=$s -v b=$(date +%s.%N) 'BEGIN{print b-a}') s" | tee -a $R/f16relu-times.txt; done
T="--shape 8192x8192x8192 --shape 4096x4096x4096 --shape 8192x8192x1024 --shape 16384x4096x4096 --verify --bench --runs 10"
(cd /tmp/ka && ./kgen run specs/matmul/best/wgmma_f16.yaml $T) > $R/t-a-f16-1x1.txt 2>&1
(cd /tmp/kb && ./kgen run specs/matmul/best/wgmma_f16.yaml $T) > $R/t-b-f16-1x1.txt 2>&1
(cd /tmp/kb && ./kgen run specs/matmul/best/wgmma_f16.yaml --set cluster=2x1 $T) > $R/t-b-f16-2x1.txt 2>&1
(cd /tmp/kb && ./kgen run specs/matmul/best/wgmma_bf16.yaml $T) > $R/t-b-bf16-1x1-3.txt 2>&1
(cd /tmp/kb && ./kgen run specs/matmul/best/wgmma_bf16.yaml --set cluster=2x1 $T) > $R/t-b-bf16-2x1-3.txt 2>&1
for f in $R/t-*.txt; do echo "== $(basename $f)"; grep -oE "^[^ ]+ +[0-9x]+ [bf0-9]+ +(ok|FAIL).*kgen/cuBLAS [0-9.]+" $f | awk '{print $2, $4, $5, $NF}'; done
cd $OUT && tar czf report.tgz r
