#!/bin/sh
# schedule: stream_k: verification, then timing against schedule: tiles
set -u
top=$(pwd)
. .gpu/env.sh && kgen_build > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
b=$(pwd); R=$OUT/r; mkdir -p $R
{ date -u; nvidia-smi --query-gpu=name,clocks.max.sm,power.limit,driver_version --format=csv,noheader; echo "kgen commit $(cat $top/.gpu/commit.txt)"; } | tee $R/gpu.txt
SK="--set schedule=stream_k"
V="--shape 7x5x3 --shape 127x255x63 --shape 1000x3001x257 --shape 515x1031x67 --shape 64x64x1048576 --shape 2000x2000x2000 --verify"
{
for sp in simt_f32 mma_bf16 mma_f16; do for a in row col; do for bl in row col; do
  ./kgen run specs/matmul/best/$sp.yaml $SK --set a_layout=$a --set b_layout=$bl $V
done; done; done
./kgen run specs/matmul/best/mma_bf16.yaml $SK --set out_dtype=f32 $V --pad 4
./kgen run specs/matmul/best/mma_bf16.yaml $SK --set "epilogue=v > 0 ? v : 0" $V
./kgen run specs/matmul/best/mma_bf16.yaml $SK --set store=direct --set stages=1 --set smem_layout=padded $V
./kgen run specs/matmul/best/simt_f32.yaml $SK --set stages=1 $V
./kgen run specs/matmul/seed-002/05-blocktiling-2d.yaml $SK $V
./kgen run specs/matmul/best/simt_f32.yaml $SK --set dtype=f64 --set load_width=8 --shape 300x500x2000 --shape 33x65x4097 --verify
./kgen run specs/matmul/best/mma_bf16.yaml specs/matmul/best/simt_f32.yaml $SK --shape 4096x4096x4096 --shape 8192x8192x1024 --shape 8192x8192x16 --verify
} > $R/verify.txt 2>&1
echo "verify: $(grep -cE ' ok ' $R/verify.txt) ok, $(grep -c FAIL $R/verify.txt) FAIL, $(grep -ci 'error' $R/verify.txt) error"; grep -E "FAIL|rror" $R/verify.txt | head -5
run() { f=$1; shift; ./kgen run "$@" --verify --bench --runs 10 > $R/$f.txt 2>&1; grep -oE "^[^ ]+ +[0-9x]+ [bf0-9]+ +(ok|FAIL).*kgen/cuBLAS [0-9.]+" $R/$f.txt | sed -E 's/ +/ /g; s/^[^ ]*\///' | sed "s/^/$f /"; }
for i in 1 2; do
run simt-tiles specs/matmul/best/simt_f32.yaml --shape 4096x4096x4096 --shape 8192x8192x8192
run simt-sk specs/matmul/best/simt_f32.yaml $SK --shape 4096x4096x4096 --shape 8192x8192x8192
run mma-tiles specs/matmul/best/mma_bf16.yaml --shape 4096x4096x4096 --shape 8192x8192x8192
run mma-sk specs/matmul/best/mma_bf16.yaml $SK --shape 4096x4096x4096 --shape 8192x8192x8192
done
run simt-sk-odd specs/matmul/best/simt_f32.yaml $SK --shape 3968x4096x4096 --shape 4224x4096x4096 --shape 1024x1024x16384
run simt-tiles-odd specs/matmul/best/simt_f32.yaml --shape 3968x4096x4096 --shape 4224x4096x4096 --shape 1024x1024x16384
run mma-sk-odd specs/matmul/best/mma_bf16.yaml $SK --shape 8448x8192x8192 --shape 2048x2048x8192 --shape 1024x1024x65536
run mma-tiles-odd specs/matmul/best/mma_bf16.yaml --shape 8448x8192x8192 --shape 2048x2048x8192 --shape 1024x1024x65536
tar czf $OUT/report.tgz -C $OUT r
