#!/bin/sh
# bench/rows/ab.sh KGEN_A KGEN_B OUT_DIR [ROUNDS] [DTYPE] [SHAPES...] - two
# builds of kgen (a branch against main) timed on the same GPU in the same
# run: the row family's strategy auto specs (softmax, log_softmax, rms_norm
# and layer_norm; OPS chooses others) under `kgen run --bench` against a
# copy of the same bytes, A then B, ROUNDS times (default 2), so that drift
# over the run shows as a spread between rounds, not as a difference.
# Timings only (no --verify): verify B in the same call (gpu_verify.sh).
# Writes OUT_DIR/ab-{a,b}-DTYPE-ROUND.tsv and .log; prints each spec and
# shape's fraction of a copy, A's rounds then B's.
set -eu
usage='usage: ab.sh KGEN_A KGEN_B OUT_DIR [ROUNDS] [DTYPE] [SHAPES...]'
a=${1:?$usage}
b=${2:?$usage}
out=${3:?$usage}
rounds=${4:-2}
dt=${5:-bf16}
if [ $# -ge 5 ]; then shift 5; else set --; fi  # (dash exits on a shift past the end)
[ $# -gt 0 ] || set -- 32768x1024 32768x4096 32768x16384 8192x262144
top=$(cd "$(dirname "$0")/../.." && pwd)
specs=
for op in ${OPS:-softmax log_softmax rms_norm layer_norm}; do
	specs="$specs $top/specs/rows/$op.yaml"
done
shapes=
for s in "$@"; do shapes="$shapes --shape $s"; done
mkdir -p "$out"
i=1
while [ "$i" -le "$rounds" ]; do
	for k in a b; do
		if [ $k = a ]; then kg=$a; else kg=$b; fi
		# shellcheck disable=SC2086
		"$kg" run $specs --bench --set dtype="$dt" $shapes --tsv "$out/ab-$k-$dt-$i.tsv" \
			> "$out/ab-$k-$dt-$i.log" 2>&1 ||
			echo "ab.sh: $kg failed in round $i (its cells are missing below): $out/ab-$k-$dt-$i.log" >&2
	done
	i=$((i + 1))
done
# spec (its file name), shape, then A's and B's fractions of a copy, round by round
for k in a b; do
	for f in "$out"/ab-$k-"$dt"-*.tsv; do
		[ -f "$f" ] && awk -F'\t' -v k=$k 'NR > 1 && $12 > 0 { n = split($1, p, "/"); print p[n], $4, k, $12 }' "$f"
	done
done | awk '{ key = $1 " " $2; v[key, $3] = v[key, $3] " " $4; keys[key] = 1 }
	END { for (x in keys) printf "%-20s A%s  B%s\n", x, v[x, "a"], v[x, "b"] }' | sort
