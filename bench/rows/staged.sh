#!/bin/sh
# bench/rows/staged.sh KGEN OUT_DIR [DTYPE...] - kernel: rows's strategy
# auto (which stages rows longer than 2048 bf16 elements on sm_90, and
# spreads rows longer than 32768 over clusters) verified and timed against
# a copy of the same bytes at 32768 x 1024 to 65536 and 8192 x 65536 and
# 262144, softmax, log_softmax, rms_norm and layer_norm.  Writes
# OUT_DIR/staged-DTYPE.tsv and .log.
set -eu
kgen=${1:?usage: staged.sh KGEN OUT_DIR [DTYPE...]}
out=${2:?usage: staged.sh KGEN OUT_DIR [DTYPE...]}
shift 2; dtypes=${*:-bf16 f32}
top=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out"
for dt in $dtypes; do
	"$kgen" run "$top/specs/rows/softmax.yaml" "$top/specs/rows/log_softmax.yaml" "$top/specs/rows/rms_norm.yaml" \
		"$top/specs/rows/layer_norm.yaml" --set dtype="$dt" --verify --bench --shape 32768x1024 \
		--shape 32768x2048 --shape 32768x4096 --shape 32768x8192 --shape 32768x16384 --shape 32768x32768 \
		--shape 32768x65536 --shape 8192x65536 --shape 8192x262144 --tsv "$out/staged-$dt.tsv" > "$out/staged-$dt.log" 2>&1 || true
	awk -F'\t' 'NR > 1 { printf "%-12s %-6s %-12s %-8s %8s us  %s of copy\n", $3, $2, $4, $5, $6, $12 }' \
		"$out/staged-$dt.tsv"
done
