# H200 run 5: at 55aa64e (the launcher takes _lanes4x4/_lanes8x4 only for aligned rows):
# every reduce_axis spec verified at short rows, f32 and bf16, packed and padded.
top=$PWD; . .gpu/env.sh
R=$OUT; { nvidia-smi --query-gpu=name,clocks.max.sm,power.limit,driver_version --format=csv; date -u; } > $R/gpu.txt
kgen_build > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "built $(date -u +%T)"
A=$(find specs/reduce_axis -name '*.yaml' | LC_ALL=C sort)
S="--shape 7x17 --shape 4097x12 --shape 4097x24 --shape 4097x40 --shape 5000x32 --shape 33x16 --shape 70000x4 --shape 1000x3001"
for dt in f32 bf16; do for pad in 0 3; do
  ./kgen run --verify --set dtype=$dt --pad $pad $S $(for f in $A; do ./kgen check --set dtype=$dt $f 2>/dev/null && echo $f; done) >> $R/verify.txt 2>&1
done; done
echo "verify: $(grep -c ' ok ' $R/verify.txt) ok, $(grep -c FAIL $R/verify.txt) FAIL $(date -u +%T)"
grep -B2 -A3 FAIL $R/verify.txt | head -20
