#!/bin/sh
# bench/rows/sweep_staged.sh KGEN OUT_DIR [OP] [DTYPE] [SHAPES...] - strategy
# staged over threads, threads per row and loads a thread, timed (kgen run
# --bench, against a copy of the same bytes) at each shape: the data
# strategy: auto's staged table (gen/rows.h) is chosen from.  Writes the
# specs to OUT_DIR/specs/ and the table to OUT_DIR/staged-OP-DTYPE.tsv.
# THREADS (default "256 512 1024") lists the block sizes swept, LANES (default
# "128 256 512 1024") the threads a row, VECTORS (default "1 2 4 8") the loads
# a thread; CLUSTERS (default none, e.g. "2 4 8") adds strategy cluster at
# each cluster size x THREADS x VECTORS (a row over the cluster's blocks).
# EXACT (default none, e.g. 4096) keeps the staged points whose row room
# (lanes x vectors x the elements of a 16-byte load) is EXACT elements:
# the rows a sweep at that many columns is about, held exactly.
# Strategy auto's own kernel (OP-DTYPE-auto.yaml) is timed first, in the
# same run.
set -eu
kgen=${1:?usage: sweep_staged.sh KGEN OUT_DIR [OP] [DTYPE] [SHAPES...]}
out=${2:?usage: sweep_staged.sh KGEN OUT_DIR [OP] [DTYPE] [SHAPES...]}
op=${3:-softmax}
dt=${4:-bf16}
if [ $# -ge 4 ]; then shift 4; else set --; fi  # (dash exits on a shift past the end)
[ $# -gt 0 ] || set -- 32768x4096 32768x16384
mkdir -p "$out/specs"
case $dt in f32) per=4 ;; *) per=8 ;; esac  # elements of a 16-byte load
f="$out/specs/$op-$dt-auto.yaml"
printf 'kernel: rows\nop: %s\ndtype: %s\n' "$op" "$dt" > "$f"
specs=$f
# add NAME YAML: write the spec OUT_DIR/specs/NAME.yaml, swept where kgen check takes it
add() {
	printf '%s\n' "$2" > "$out/specs/$1.yaml"
	if "$kgen" check "$out/specs/$1.yaml" > /dev/null 2>&1; then
		specs="$specs $out/specs/$1.yaml"
	fi
}
for t in ${THREADS:-256 512 1024}; do
	for lanes in ${LANES:-128 256 512 1024}; do
		[ "$lanes" -le "$t" ] || continue
		for v in ${VECTORS:-1 2 4 8}; do
			[ -z "${EXACT:-}" ] || [ $((lanes * v * per)) -eq "$EXACT" ] || continue
			add "$op-$dt-staged$t-$lanes-v$v" "$(printf 'kernel: rows\nop: %s\ndtype: %s\nstrategy: staged\nthreads: %s\nlanes: %s\nvectors: %s\n' \
				"$op" "$dt" "$t" "$lanes" "$v")"
		done
	done
done
for c in ${CLUSTERS:-}; do
	for t in ${THREADS:-256 512 1024}; do
		for v in ${VECTORS:-1 2 4 8}; do
			add "$op-$dt-cluster$c-$t-v$v" "$(printf 'kernel: rows\nop: %s\ndtype: %s\nstrategy: cluster\ncluster_size: %s\nthreads: %s\nvectors: %s\n' \
				"$op" "$dt" "$c" "$t" "$v")"
		done
	done
done
shapes=
for s in "$@"; do shapes="$shapes --shape $s"; done
# shellcheck disable=SC2086
"$kgen" run $specs --bench $shapes --tsv "$out/staged-$op-$dt.tsv" > "$out/staged-$op-$dt.log" 2>&1 || true
# The best spec at each shape, by kgen/copy.
awk -F'\t' 'NR > 1 && $5 != "rejected" && $12 > 0 { if ($12 > best[$4]) { best[$4] = $12; who[$4] = $1 } }
	END { for (s in best) printf "%s\t%.3f\t%s\n", s, best[s], who[s] }' "$out/staged-$op-$dt.tsv" | sort -t x -k2 -n
