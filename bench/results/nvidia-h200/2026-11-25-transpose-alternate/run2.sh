# H200 (warm): more neighbours of best.yaml at 32768^2 and 16384^2, alternating with the copy.
top=$PWD; . .gpu/env.sh
R=$OUT/r; mkdir -p $R
{ nvidia-smi --query-gpu=name,clocks.max.sm,power.limit,driver_version --format=csv; date -u; cat $top/.gpu/commit.txt; } > $R/gpu.txt
cd /tmp/ks && ls .libs/libkgen.so > /dev/null || exit 1
B=specs/transpose/best.yaml
export KGEN_LIBRARY=/tmp/ks/.libs/libkgen.so KGEN_CACHE_DIR=/tmp/kc
python3 bench/transpose/alternate.py --runs 10 --shapes 32768 16384 --spec $B --spec $B:tile_cols=128,batch=16 \
  --spec $B:tile_rows=128,batch=16 --spec $B:pad=2 --spec $B:pad=4 \
  --spec $B:index=32 --spec $B:order=cols,store_hint=cs,batch=16 --spec $B:tile_rows=32,tile_cols=32,batch=4 \
  --spec $B:tile_rows=32,tile_cols=64,batch=4 --spec $B 2>&1 | tee $R/alternate.txt
