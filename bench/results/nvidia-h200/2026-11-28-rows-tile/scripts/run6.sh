# H200 run 6 (at 4b0f680): short rows of other ops and dtypes, auto against strategy: warp, lanes: 4
# (what auto launched for them before), each verified: argmax f32 and sum bf16.
top=$PWD; . .gpu/env.sh
R=$OUT; { nvidia-smi --query-gpu=name,clocks.max.sm,power.limit,driver_version --format=csv; date -u; } > $R/gpu.txt
kgen_build > $R/build.log 2>&1 && make -s kgen-cub >> $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
T="--shape 16777216x16 --shape 8388608x32"
for s in "--set op=argmax" "--set dtype=bf16"; do
  ./kgen run specs/reduce_axis/best/rows.yaml $s $T --shape 4194304x64 --verify --bench --runs 20 >> $R/auto.txt 2>&1
  ./kgen run specs/reduce_axis/best/rows.yaml $s --set strategy=warp --set lanes=4 $T --shape 4194304x64 --verify --bench --runs 20 >> $R/warp4.txt 2>&1
done
for f in auto warp4; do echo "== $f"; grep -oE "^specs/[^ ]+ +[0-9x]+ +rows +(ok|FAIL) +[0-9.]+ us.*kgen/CUB [0-9.]+" $R/$f.txt | sed -E 's/ +/ /g; s/specs\/reduce_axis\/best\///; s/CUB\/[0-9]+ sum//'; done
