# H100: the transpose timed as issue 23 times it (each call alone, alternating with a device-to-device copy) against
# back to back, for best.yaml, best-tma.yaml and neighbours of best.yaml at 8192^2, 16384^2 and 32768^2 (f32).
top=$PWD; . .gpu/env.sh
R=$OUT/r; mkdir -p $R
{ nvidia-smi --query-gpu=name,clocks.max.sm,power.limit,driver_version --format=csv; date -u; cat $top/.gpu/commit.txt; } > $R/gpu.txt
[ -f /tmp/ks/.libs/libkgen.so ] || ( rm -rf /tmp/ks && mkdir -p /tmp/ks && tar -xzf $top/.gpu/d/*.tar.gz -C /tmp/ks --strip-components=1 && cd /tmp/ks && ./configure --quiet && make -s -j16 ) > $R/build.log 2>&1
cd /tmp/ks && ls .libs/libkgen.so > /dev/null || { tail -20 $R/build.log; exit 1; }
echo "built $(date -u +%T)"
cp $top/bench/transpose/alternate.py bench/transpose/alternate.py
printf 'kernel: transpose\ndtype: f32\nmethod: tma\ntile_rows: 64\ntile_cols: 64\nbatch: 8\nswizzle: none\nwalk: diagonal\nbuffers: %s\n' 2 > /tmp/tma2.yaml
printf 'kernel: transpose\ndtype: f32\nmethod: tma\ntile_rows: 64\ntile_cols: 64\nbatch: 8\nswizzle: none\nwalk: diagonal\nbuffers: %s\n' 3 > /tmp/tma3.yaml
B=specs/transpose/best.yaml
export KGEN_LIBRARY=/tmp/ks/.libs/libkgen.so KGEN_CACHE_DIR=/tmp/kc
python3 bench/transpose/alternate.py --runs 10 --spec $B --spec specs/transpose/best-tma.yaml \
  --spec $B:order=rows --spec $B:order=grouped,group=8 --spec $B:store_hint=none --spec $B:store_hint=cs \
  --spec $B:load_hint=nc --spec $B:load_hint=lu --spec $B:tile_rows=32,tile_cols=128 --spec $B:tile_rows=128,tile_cols=32 \
  --spec $B:batch=16 --spec $B:batch=4 --spec $B 2>&1 | tee $R/alternate.txt
