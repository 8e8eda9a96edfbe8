#!/bin/sh
# bench/matmul/grid.sh OUT [DTYPE...]: issue 50's grid through `kgen run`: the
# shipped plan by shape for each DTYPE (default bf16 f16;
# specs/plans/<gpu>/matmul-<dtype>.yaml) at M in {1, 16, 64, 128, 256, 1024,
# 4096, 8192} x (N, K) in {(4096, 4096), (8192, 8192), (4096, 14336), (14336,
# 4096), (1024, 16384), (16384, 1024)}, then 12288^3 and 16384^3 (SHAPES
# replaces the list, e.g. to split it over calls), each result verified,
# timed against the faster of cublasGemmEx and cublasLtMatmul (kgen-cublas)
# and a device-to-device copy of the same bytes, in one process a dtype.
# Writes OUT/grid-<dtype>.txt (kgen run's lines), OUT/grid-<dtype>.tsv, and
# prints a summary a dtype: the results that verified, the geometric mean
# and the least of kgen over cuBLAS (cuBLAS's time over kgen's), the shapes
# below 1.00, and the least share of the copy's bandwidth at M <= 128.
# From the build directory on the GPU machine (kgen, and kgen-cublas beside it
# or in KGEN_CUBLAS); top_srcdir as in bench/matmul/run.sh; RUNS (default 20),
# KGEN, GPU (the plans' folder, default nvidia-h200); LIMIT: seconds a dtype's
# kgen run may take (timeout(1); the summary then covers the shapes it
# finished, the TSV being written shape by shape).
set -u
if [ $# -lt 1 ]; then
	echo "usage: sh bench/matmul/grid.sh OUT [DTYPE...]" >&2
	exit 2
fi
out=$1
shift
src=${top_srcdir:-.}
kgen=${KGEN:-./kgen}
runs=${RUNS:-20}
gpu=${GPU:-nvidia-h200}
dtypes=${*:-bf16 f16}
if [ -z "${SHAPES:-}" ]; then
	SHAPES=
	for m in 1 16 64 128 256 1024 4096 8192; do
		for nk in 4096x4096 8192x8192 4096x14336 14336x4096 1024x16384 16384x1024; do
			SHAPES="$SHAPES ${m}x$nk"
		done
	done
	SHAPES="$SHAPES 12288x12288x12288 16384x16384x16384"
fi
mkdir -p "$out" || exit 1
status=0
for dt in $dtypes; do
	plan=$src/specs/plans/$gpu/matmul-$dt.yaml
	[ -f "$plan" ] || { echo "grid.sh: no plan $plan" >&2; status=1; continue; }
	args=
	for s in $SHAPES; do
		args="$args --shape $s"
	done
	# shellcheck disable=SC2086 # the shapes are words
	${LIMIT:+timeout "$LIMIT"} "$kgen" run --verify --bench --runs "$runs" $args --tsv "$out/grid-$dt.tsv" "$plan" \
		> "$out/grid-$dt.txt" 2>&1 || status=1
	# TSV: $4 MxNxK, $5 verify, $9 pct_ceiling (kgen's share of the copy, %), $12 kgen_vs_cub.
	awk -F'\t' -v dt="$dt" 'NR > 1 {
		n++
		if ($5 != "ok") { bad++; next }
		ok++
		if ($12 > 0) { r++; lg += log($12); if (least == "" || $12 < least) { least = $12; at = $4 } }
		if ($12 > 0 && $12 < 1) below = below " " $4 "(" sprintf("%.3f", $12) ")"
		split($4, s, "x")
		if (s[1] <= 128 && $9 > 0 && (copy == "" || $9 < copy)) { copy = $9; cat = $4 }
	}
	END {
		printf "%s: %d of %d verified", dt, ok, n
		if (r) printf "; kgen over cuBLAS: geometric mean %.3f over %d, least %.3f (%s)", exp(lg / r), r, least, at
		print ""
		print "  below 1.00:" (below == "" ? " none" : below)
		if (copy != "") printf "  M <= 128: least share of the copy %.1f%% (%s)\n", copy, cat
	}' "$out/grid-$dt.tsv"
done
exit $status
