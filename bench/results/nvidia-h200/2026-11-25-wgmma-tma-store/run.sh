#!/bin/sh
set -u
top=$(pwd)
. .gpu/env.sh && kgen_build > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
b=$(pwd); R=$OUT/r; mkdir -p $R
export KGEN_LIBRARY=$b/.libs/libkgen.so KGEN_TOP_SRCDIR=$b PYTHONPATH=$b/python
{ date -u; nvidia-smi --query-gpu=name,clocks.max.sm,power.limit,driver_version --format=csv,noheader; echo "kgen commit $(cat $top/.gpu/commit.txt)"; } | tee $R/gpu.txt
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader)
S=specs/matmul/hopper/05-tma-store.yaml
{
for a in row col; do for bl in row col; do
  ./kgen run $S --set a_layout=$a --set b_layout=$bl --shape 8x8x8 --shape 136x264x1000 --shape 2000x3000x520 --shape 1003x264x131 --shape 3x3x3 --verify
done; done
./kgen run $S --pad 5 --shape 1003x259x131 --shape 136x264x1000 --verify
./kgen run $S --pad 8 --shape 1003x264x131 --shape 2000x3000x520 --verify
./kgen run $S --set out_dtype=f32 --shape 1003x259x131 --shape 136x264x1000 --shape 2000x3000x520 --verify
./kgen run specs/matmul/best/wgmma_f16.yaml --shape 1003x264x131 --shape 2000x3000x520 --verify
./kgen run $S --set "epilogue=v > 0 ? v : 0" --shape 1003x264x131 --shape 2000x3000x520 --verify
./kgen run $S --shape 64x64x1048576 --shape 8192x8192x16 --verify
# C that TMA cannot take (ldc 259: 518 bytes; f32 1036): c_tma 0, the pairs fallback; A and B TMA-able (B col-major, k 136)
./kgen run $S --set b_layout=col --shape 1000x259x136 --shape 136x1001x264 --shape 5x3x8 --verify
./kgen run $S --set b_layout=col --set out_dtype=f32 --shape 1000x259x136 --shape 136x1001x264 --verify
./kgen run $S --set b_layout=col --set "epilogue=v > 0 ? v : 0" --shape 1000x259x136 --verify
} > $R/tma-verify.txt 2>&1
echo "verify: $(grep -cE ' ok ' $R/tma-verify.txt) ok, $(grep -c FAIL $R/tma-verify.txt) FAIL, $(grep -ci 'error' $R/tma-verify.txt) error, $(grep -c '^specs' $R/tma-verify.txt) results"
T="--shape 8192x8192x8192 --shape 4096x4096x4096 --shape 8192x8192x1024 --verify --bench --runs 10"
./kgen run specs/matmul/hopper/01-tma-wgmma.yaml specs/matmul/hopper/02-larger-tiles.yaml specs/matmul/hopper/03-warp-specialized.yaml specs/matmul/hopper/05-tma-store.yaml specs/matmul/best/wgmma_bf16.yaml $T --tsv $R/ladder.tsv > $R/ladder.txt 2>&1
./kgen run specs/matmul/best/wgmma_f16.yaml $T --tsv $R/f16.tsv > $R/f16.txt 2>&1
./kgen run specs/matmul/best/wgmma_bf16.yaml --set "epilogue=v > 0 ? v : 0" --shape 8192x8192x8192 --shape 8192x8192x1024 --verify --bench --runs 10 > $R/relu.txt 2>&1
python3 bench/matmul/torch_peer.py --shapes 8192x8192x8192 8192x8192x1024 4096x4096x4096 --dtypes bf16 f16 --runs 10 > $R/torch.txt 2>&1
for f in ladder f16 relu; do echo "== $f"; grep -oE "^specs/[^ ]+ +[0-9x]+ [bf0-9]+ +(ok|FAIL).*kgen/cuBLAS [0-9.]+" $R/$f.txt | sed -E 's/ +/ /g; s/specs\/matmul\///'; done
grep -v "^#" $R/torch.txt
case "$gpu" in *H200*)
  for r in 1 2; do (date -u; timeout 120 python3 bench/python-overhead/vs_torch.py 5000 7) > $R/vs-torch-$r.txt 2>&1; echo "== vs torch $r"; cat $R/vs-torch-$r.txt; done
  (unset KGEN_LIBRARY KGEN_TOP_SRCDIR PYTHONPATH; base=/usr/bin/python3; date -u; echo "$base -m venv --system-site-packages kv; kv/bin/python -m pip install --no-build-isolation --no-deps ./python";
   cd /tmp && rm -rf kv && $base -m venv --system-site-packages kv && cd $b && /tmp/kv/bin/python -m pip install --no-build-isolation --no-deps ./python 2>&1 | tail -3;
   cd /tmp && /tmp/kv/bin/python $top/.gpu/venv_check.py) > $R/venv.log 2>&1; echo "== venv"; tail -4 $R/venv.log
  (cd $b && KGEN_PERCALL_RECORD=$R/percall.txt timeout 200 python3 -m pytest -q -rs --tb=short python/tests) > $R/pytest.log 2>&1; echo "== pytest"; tail -2 $R/pytest.log;;
esac
tar czf $OUT/report.tgz -C $OUT r
