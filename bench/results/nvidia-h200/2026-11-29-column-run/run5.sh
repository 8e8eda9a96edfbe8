# H200 run 5 (at 7f53d26): where the columns still lose, with the spec's own
# keys: bf16 columns with 8- and 16-byte loads, and 100-column f32
# matrices with fewer parts of the rows (split) than the launcher's one
# wave, every result verified, CUB's sum of the same bytes in the same process.
top=$PWD; . .gpu/env.sh
R=$OUT/r5; mkdir -p $R; { nvidia-smi --query-gpu=name,clocks.max.sm,power.limit,driver_version --format=csv; date -u; } > $R/gpu.txt
kgen_build > $R/build.log 2>&1 && make -s kgen-cub >> $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "built $(date -u +%T)"
C=specs/reduce_axis/best/cols.yaml
for pass in 1 2; do
  for lw in 16 8 4; do
    echo "== bf16 load_width $lw" >> $R/bf16.txt
    ./kgen run $C --set dtype=bf16 --set load_width=$lw --shape 1048576x512 --shape 4194304x128 --shape 16384x16384 --verify --bench --runs 20 >> $R/bf16.txt 2>&1
  done
  for sp in 0 264 132 66; do
    echo "== f32 split $sp" >> $R/split.txt
    ./kgen run $C --set split=$sp --shape 2000000x100 --shape 1000000x200 --shape 1048576x256 --verify --bench --runs 20 >> $R/split.txt 2>&1
  done
done
echo "done $(date -u +%T)"
for f in bf16 split; do echo "== $f"; grep -E "^==|^specs/" $R/$f.txt | grep -oE "^==.*|^specs/[^ ]+ +[0-9x]+ +(rows|cols) +(ok|FAIL) +[0-9.]+ us.*kgen/CUB [0-9.]+" | sed -E 's/ +/ /g; s/specs\/reduce_axis\/best\///; s/CUB\/[0-9]+ sum//; s/GB\/s//'; done
cd $OUT && tar czf r5.tgz r5 && rm -rf r5
