# H200 run 3 (and 4, the same script, after its scalar loops were kept rolled: 54 -> 40 registers): the working tree with rows_by_vector (auto's _lanes4x4 and
# _lanes8x4) and the one-pass grid: every reduce_axis spec verified at short
# rows in four dtypes, packed and padded; then rows timed against CUB at
# tall-thin shapes, auto against strategy: warp, lanes: 4 (rows_by_lanes<4>,
# four waves at those shapes: what auto launched before); then the nine shapes.
top=$PWD; . .gpu/env.sh
R=$OUT; { nvidia-smi --query-gpu=name,clocks.max.sm,power.limit,driver_version --format=csv; date -u; } > $R/gpu.txt
kgen_build > $R/build.log 2>&1 && make -s kgen-cub >> $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "built $(date -u +%T)"
A=$(find specs/reduce_axis -name '*.yaml' | LC_ALL=C sort)
S="--shape 7x17 --shape 33x16 --shape 5000x32 --shape 3000x12 --shape 1000x9 --shape 4097x24 --shape 70000x4 --shape 33x65 --shape 5000x64 --shape 1000x3001"
for dt in f32 bf16 i32 f64; do for pad in 0 3; do
  ./kgen run --verify --set dtype=$dt --pad $pad $S $(for f in $A; do ./kgen check --set dtype=$dt $f 2>/dev/null && echo $f; done) >> $R/verify.txt 2>&1
done; done
echo "verify: $(grep -c ' ok ' $R/verify.txt) ok, $(grep -c FAIL $R/verify.txt) FAIL $(date -u +%T)"
T="--shape 16777216x16 --shape 8388608x32 --shape 4194304x64 --shape 2000000x100 --shape 2097152x128 --shape 1048576x256"
for pass in 1 2; do
  ./kgen run specs/reduce_axis/best/rows.yaml $T --verify --bench --runs 20 >> $R/tall.txt 2>&1
  ./kgen run specs/reduce_axis/best/rows.yaml --set strategy=warp --set lanes=4 $T --verify --bench --runs 20 >> $R/tall-warp4.txt 2>&1
done
N="--shape 16384x16384 --shape 32768x32768 --shape 1048576x256 --shape 4194304x64 --shape 256x1048576 --shape 64x4194304 --shape 1000x3001 --shape 1x1000003 --shape 1000003x1"
./kgen run specs/reduce_axis/best/rows.yaml specs/reduce_axis/best/cols.yaml $N --verify --bench --runs 20 > $R/nine.txt 2>&1
echo "done $(date -u +%T)"
for f in tall tall-warp4 nine; do echo "== $f"; grep -oE "^specs/[^ ]+ +[0-9x]+ +(rows|cols) +(ok|FAIL) +[0-9.]+ us.*kgen/CUB [0-9.]+" $R/$f.txt | sed -E 's/ +/ /g; s/specs\/reduce_axis\/best\///; s/CUB\/[0-9]+ sum//'; done
grep -B2 -A3 FAIL $R/verify.txt | head -20
