# H100: gpu_verify.sh's TMA matmul lines on the loads: tma specs (every layout, whole pitches and --pad 5), then
# the fused ReLU of mma_tma_bf16 against cuBLASLt's and torch's at small K and 8192^3.
top=$PWD; . .gpu/env.sh
R=$OUT/r; mkdir -p $R
{ nvidia-smi --query-gpu=name,clocks.max.sm,power.limit,driver_version --format=csv; date -u; cat $top/.gpu/commit.txt; } > $R/gpu.txt
( rm -rf /tmp/ks && mkdir -p /tmp/ks && tar -xzf $top/.gpu/d/*.tar.gz -C /tmp/ks --strip-components=1 && cd /tmp/ks && ./configure --quiet && make -s -j16 && make -s kgen-cublas ) > $R/build.log 2>&1
cd /tmp/ks && ls kgen kgen-cublas > /dev/null || { tail -20 $R/build.log; exit 1; }
echo "built $(date -u +%T)"
wspecs="specs/matmul/best/mma_tma_bf16.yaml specs/matmul/best/mma_tma_f16.yaml"
for layouts in "--set a_layout=row --set b_layout=row" "--set a_layout=col --set b_layout=row" \
               "--set a_layout=row --set b_layout=col" "--set a_layout=col --set b_layout=col"; do
  echo "== $layouts"
  ./kgen run --verify $layouts --shape 2000x3000x520 --shape 8x8x8 --shape 136x264x1000 $wspecs 2>&1
  ./kgen run --verify $layouts --pad 5 --shape 1003x259x131 --shape 3x3x3 $wspecs 2>&1
done > $R/verify.txt
echo "verify: $(grep -cE ' ok ' $R/verify.txt) ok, $(grep -cE ' FAIL ' $R/verify.txt) FAIL, $(grep -c ' rejected ' $R/verify.txt) rejected"
grep -E " FAIL | rejected " $R/verify.txt | head -4
./kgen run specs/matmul/best/mma_tma_bf16.yaml specs/matmul/best/mma_bf16.yaml --set "epilogue=v > 0 ? v : 0" --shape 8192x8192x128 --shape 8192x8192x256 --shape 8192x8192x512 --shape 8192x8192x1024 --shape 8192x8192x8192 --verify --bench --runs 10 > $R/relu.txt 2>&1
echo "== relu"; grep -oE "^specs/[^ ]+ +[0-9x]+ [bf0-9]+ +(ok|FAIL).*kgen/cuBLAS [0-9.]+" $R/relu.txt | sed -E 's/ +/ /g; s/specs\/matmul\///'
python3 bench/matmul/torch_peer.py --shapes 8192x8192x128 8192x8192x256 8192x8192x512 8192x8192x1024 8192x8192x8192 --dtypes bf16 --runs 10 > $R/torch.txt 2>&1; grep -v "^#" $R/torch.txt
