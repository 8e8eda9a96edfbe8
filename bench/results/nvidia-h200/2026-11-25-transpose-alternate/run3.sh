# H200: transposes at 32768^2 and 16384^2 alternating with the copy: best.yaml's grouped orders (group 16-256) and
# TMA kernels with 2-4 buffers (persistent, pipelined) of small tiles.
top=$PWD; . .gpu/env.sh
R=$OUT/r; mkdir -p $R
{ nvidia-smi --query-gpu=name,clocks.max.sm,power.limit,driver_version --format=csv; date -u; cat $top/.gpu/commit.txt; } > $R/gpu.txt
[ -f /tmp/ks/.libs/libkgen.so ] || ( rm -rf /tmp/ks && mkdir -p /tmp/ks && tar -xzf $top/.gpu/d/*.tar.gz -C /tmp/ks --strip-components=1 && cd /tmp/ks && ./configure --quiet && make -s -j16 ) > $R/build.log 2>&1
cp $top/bench/transpose/alternate.py /tmp/ks/bench/transpose/; cd /tmp/ks && ls .libs/libkgen.so > /dev/null || exit 1
echo "built $(date -u +%T)"
mk() { printf 'kernel: transpose\ndtype: f32\nmethod: tma\ntile_rows: %s\ntile_cols: %s\nbatch: %s\nswizzle: %s\nbuffers: %s\n' "$2" "$3" "$4" "$5" "$6" > /tmp/$1.yaml; }
mk tma32-2 32 32 4 none 2; mk tma32-3 32 32 4 none 3; mk tma32-4 32 32 4 none 4; mk tma6432-2 64 32 8 none 2; mk tma32s-3 32 32 4 128B 3
for f in /tmp/tma*.yaml; do echo "# $f: $(tr '\n' ';' < $f)"; done > $R/specs.txt
B=specs/transpose/best.yaml
export KGEN_LIBRARY=/tmp/ks/.libs/libkgen.so KGEN_CACHE_DIR=/tmp/kc
python3 bench/transpose/alternate.py --runs 10 --shapes 32768 16384 --spec $B --spec $B:order=grouped,group=16 \
  --spec $B:order=grouped,group=32 --spec $B:order=grouped,group=64 --spec $B:order=grouped,group=128 \
  --spec $B:order=grouped,group=256 --spec /tmp/tma32-2.yaml --spec /tmp/tma32-3.yaml --spec /tmp/tma32-4.yaml \
  --spec /tmp/tma6432-2.yaml --spec /tmp/tma32s-3.yaml --spec $B 2>&1 | tee $R/alternate.txt
