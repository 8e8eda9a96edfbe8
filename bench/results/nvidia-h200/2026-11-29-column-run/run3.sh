# H200 run 3: the working tree with both changes (one column of pitch 1
# through _block; the tile kernel's tiles narrowed below a warp for tall
# matrices): every reduce_axis spec verified at tall shapes that narrow the
# tiles, in four dtypes, packed and padded, and the other ops; the nine
# shapes twice; more tall and square column shapes once.
top=$PWD; . .gpu/env.sh
R=$OUT/r3; mkdir -p $R; { nvidia-smi --query-gpu=name,clocks.max.sm,power.limit,driver_version --format=csv; date -u; } > $R/gpu.txt
kgen_build > $R/build.log 2>&1 && make -s kgen-cub >> $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "built $(date -u +%T)"
A=$(find specs/reduce_axis -name '*.yaml' | LC_ALL=C sort)
S="--shape 65536x256 --shape 262144x64 --shape 131072x128 --shape 100003x256 --shape 65536x512 --shape 1000003x1 --shape 3000x256"
for dt in f32 bf16 i32 f64; do for pad in 0 3; do
  ./kgen run --verify --set dtype=$dt --pad $pad $S $(for f in $A; do ./kgen check --set dtype=$dt $f 2>/dev/null && echo $f; done) >> $R/verify.txt 2>&1
done; done
for op in argmax argmin max prod; do
  ./kgen run --verify --set op=$op $S $(for f in $A; do ./kgen check --set op=$op $f 2>/dev/null && echo $f; done) >> $R/verify.txt 2>&1
done
echo "verify: $(grep -c ' ok ' $R/verify.txt) ok, $(grep -c FAIL $R/verify.txt) FAIL $(date -u +%T)"
N="--shape 16384x16384 --shape 32768x32768 --shape 1048576x256 --shape 4194304x64 --shape 256x1048576 --shape 64x4194304 --shape 1000x3001 --shape 1x1000003 --shape 1000003x1"
for pass in 1 2; do
  ./kgen run specs/reduce_axis/best/rows.yaml specs/reduce_axis/best/cols.yaml $N --verify --bench --runs 20 > $R/nine-$pass.txt 2>&1
done
echo "nine $(date -u +%T)"
T="--shape 2097152x128 --shape 8388608x32 --shape 16777216x16 --shape 2000000x100 --shape 4096x4096 --shape 100000x1000 --shape 20000x20000"
./kgen run specs/reduce_axis/best/cols.yaml $T --verify --bench --runs 20 > $R/tall.txt 2>&1
./kgen run specs/reduce_axis/best/cols.yaml --set dtype=bf16 --shape 1048576x512 --shape 4194304x128 --shape 16384x16384 --verify --bench --runs 20 >> $R/tall.txt 2>&1
echo "tall $(date -u +%T)"
for f in nine-1 nine-2 tall; do echo "== $f"; grep -oE "^specs/[^ ]+ +[0-9x]+ +(rows|cols) +(ok|FAIL) +[0-9.]+ us.*kgen/CUB [0-9.]+" $R/$f.txt | sed -E 's/ +/ /g; s/specs\/reduce_axis\/best\///; s/CUB\/[0-9]+ sum//; s/GB\/s//'; done
grep -B2 -A3 FAIL $R/verify.txt | head -20
cd $OUT && tar czf r3.tgz r3 && rm -rf r3
