# H200 run 1: strategy: auto on one column of pitch 1 through _block (the
# working tree after afd60da): every reduce_axis spec verified at single
# columns in four dtypes, packed, padded and off the boundary; the nine
# shapes twice; tall columns with the tile's lanes and waves varied
# (KGEN_EXP_LANES / KGEN_EXP_WAVES, an experiment's switches in that tree only).
top=$PWD; . .gpu/env.sh
R=$OUT/r1; mkdir -p $R; { nvidia-smi --query-gpu=name,clocks.max.sm,power.limit,driver_version --format=csv; date -u; } > $R/gpu.txt
kgen_build > $R/build.log 2>&1 && make -s kgen-cub >> $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "built $(date -u +%T)"
A=$(find specs/reduce_axis -name '*.yaml' | LC_ALL=C sort)
S="--shape 1000003x1 --shape 5x1 --shape 1x1 --shape 4097x1 --shape 1000003x2 --shape 33x65"
for dt in f32 bf16 i32 f64; do for o in "--pad 0" "--pad 3" "--offset 1"; do
  ./kgen run --verify --set dtype=$dt $o $S $(for f in $A; do ./kgen check --set dtype=$dt $f 2>/dev/null && echo $f; done) >> $R/verify.txt 2>&1
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
C=specs/reduce_axis/best/cols.yaml
T="--shape 1048576x256 --shape 4194304x64"
for v in "" "KGEN_EXP_WAVES=2" "KGEN_EXP_WAVES=4" "KGEN_EXP_LANES=64" "KGEN_EXP_LANES=8" "KGEN_EXP_LANES=64 KGEN_EXP_WAVES=2"; do
  echo "== $v" >> $R/tall.txt
  env $v ./kgen run $C $T --verify --bench --runs 30 >> $R/tall.txt 2>&1
done
echo "tall $(date -u +%T)"
for f in nine-1 nine-2 tall; do echo "== $f"; grep -E "^==|^specs/" $R/$f.txt | grep -oE "^==.*|^specs/[^ ]+ +[0-9x]+ +(rows|cols) +(ok|FAIL) +[0-9.]+ us.*kgen/CUB [0-9.]+" | sed -E 's/ +/ /g; s/specs\/reduce_axis\/best\///; s/CUB\/[0-9]+ sum//'; done
grep -B2 -A3 FAIL $R/verify.txt | head -20
cd $OUT && tar czf r1.tgz r1 && rm -rf r1
