#!/bin/sh
# bench/rows/sweep.sh KGEN OUT_DIR [OP] [DTYPE] [SHAPES...] - kernel: rows's
# strategies warp and block over threads per row and loads a thread, timed
# (kgen run --bench, against a copy of the same bytes) at each shape, after
# strategy auto's own kernel (OP-DTYPE-auto.yaml): the data strategy: auto's
# table (gen/rows.h) is chosen from.  Writes the specs
# to OUT_DIR/specs/ and the table to OUT_DIR/sweep-OP-DTYPE.tsv.  Strategy
# warp takes WARP_THREADS (default "256") x LANES (default "8 16 32") x
# VECTORS (default "1 2 4"); strategy block BLOCK_THREADS (default "64 128
# 256 512 1024", empty for none) x 1, 2, 4 and 8 loads.
set -eu
kgen=${1:?usage: sweep.sh KGEN OUT_DIR [OP] [DTYPE] [SHAPES...]}
out=${2:?usage: sweep.sh KGEN OUT_DIR [OP] [DTYPE] [SHAPES...]}
op=${3:-softmax}
dt=${4:-bf16}
if [ $# -ge 4 ]; then shift 4; else set --; fi  # (dash exits on a shift past the end)
[ $# -gt 0 ] || set -- 32768x256 32768x512 32768x1024 32768x4096 32768x16384
mkdir -p "$out/specs"
# strategy auto (the op's default) first: the kernel a call takes now, timed in the same run
f="$out/specs/$op-$dt-auto.yaml"
printf 'kernel: rows\nop: %s\ndtype: %s\n' "$op" "$dt" > "$f"
specs=$f
for t in ${WARP_THREADS:-256}; do
	for lanes in ${LANES:-8 16 32}; do
		for v in ${VECTORS:-1 2 4}; do
			f="$out/specs/$op-$dt-warp$t-$lanes-v$v.yaml"
			printf 'kernel: rows\nop: %s\ndtype: %s\nstrategy: warp\nthreads: %s\nlanes: %s\nvectors: %s\n' \
				"$op" "$dt" "$t" "$lanes" "$v" > "$f"
			specs="$specs $f"
		done
	done
done
for t in ${BLOCK_THREADS-64 128 256 512 1024}; do
	for v in 1 2 4 8; do
		f="$out/specs/$op-$dt-block$t-v$v.yaml"
		printf 'kernel: rows\nop: %s\ndtype: %s\nstrategy: block\nthreads: %s\nvectors: %s\n' \
			"$op" "$dt" "$t" "$v" > "$f"
		specs="$specs $f"
	done
done
shapes=
for s in "$@"; do shapes="$shapes --shape $s"; done
# shellcheck disable=SC2086
"$kgen" run $specs --bench $shapes --tsv "$out/sweep-$op-$dt.tsv" > "$out/sweep-$op-$dt.log" 2>&1 || true
# The best spec at each shape, by kgen/copy.
awk -F'\t' 'NR > 1 && $5 != "rejected" && $12 > 0 { if ($12 > best[$4]) { best[$4] = $12; who[$4] = $1 } }
	END { for (s in best) printf "%s\t%.3f\t%s\n", s, best[s], who[s] }' "$out/sweep-$op-$dt.tsv" | sort -t x -k2 -n
