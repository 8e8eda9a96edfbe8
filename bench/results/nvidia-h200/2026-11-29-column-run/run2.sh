# H200 run 2: the tile kernel's narrowest column tile (the floor of the
# lanes it halves to while the tiles are fewer than the GPU holds; 32
# today) at 32, 16 and 8, cols f32 at the nine shapes and other tall ones,
# two passes, every result verified (KGEN_EXP_FLOOR, an experiment's switch
# in that tree only).
top=$PWD; . .gpu/env.sh
R=$OUT/r2; mkdir -p $R; { nvidia-smi --query-gpu=name,clocks.max.sm,power.limit,driver_version --format=csv; date -u; } > $R/gpu.txt
kgen_build > $R/build.log 2>&1 && make -s kgen-cub >> $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "built $(date -u +%T)"
C=specs/reduce_axis/best/cols.yaml
N="--shape 16384x16384 --shape 32768x32768 --shape 1048576x256 --shape 4194304x64 --shape 256x1048576 --shape 64x4194304 --shape 1000x3001
 --shape 2097152x128 --shape 8388608x32 --shape 16777216x16 --shape 2000000x100 --shape 4096x4096 --shape 100000x1000 --shape 20000x20000"
for pass in 1 2; do for f in 32 16 8; do
  echo "== floor $f pass $pass" >> $R/floor.txt
  KGEN_EXP_FLOOR=$f ./kgen run $C $N --verify --bench --runs 20 >> $R/floor.txt 2>&1
done; done
echo "floor $(date -u +%T)"
grep -E "^==|^specs/" $R/floor.txt | grep -oE "^==.*|^specs/[^ ]+ +[0-9x]+ +(rows|cols) +(ok|FAIL) +[0-9.]+ us.*kgen/CUB [0-9.]+" | sed -E 's/ +/ /g; s/specs\/reduce_axis\/best\///; s/CUB\/[0-9]+ sum//; s/GB\/s//'
cd $OUT && tar czf r2.tgz r2 && rm -rf r2
