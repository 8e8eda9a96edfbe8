#!/bin/sh
# transpose.sh OUTDIR: kgen's best transposes against a device-to-device copy
# of the same bytes, in one run per dtype (issue 10): 8192^2, 16384^2,
# 32768^2, 1000x3000 and a batch of 64 1024x1024 matrices in one launch, in
# f32 (best.yaml, best-tma.yaml), bf16 (best-bf16.yaml, and best.yaml with
# dtype bf16) and f64 (best.yaml with dtype f64); every element verified in
# the same run; the copy timed twice and the later figure kept.
# Writes OUTDIR/transpose-{f32,bf16,f64}.tsv and OUTDIR/transpose.txt.
set -u
out=$1
kgen=${KGEN:-./kgen}
specs=${top_srcdir:-.}/specs/transpose
shapes="--shape 8192x8192 --shape 16384x16384 --shape 32768x32768 --shape 1000x3000 --shape 64x1024x1024"
{
	echo "# $(date -u '+%Y-%m-%d %H:%M UTC'): $0 $*"
	"$kgen" run --verify --bench --runs 20 $shapes --tsv "$out/transpose-f32.tsv" "$specs/best.yaml" "$specs/best-tma.yaml"
	"$kgen" run --verify --bench --runs 20 $shapes --tsv "$out/transpose-bf16.tsv" "$specs/best-bf16.yaml"
	"$kgen" run --verify --bench --runs 20 --set dtype=bf16 $shapes --tsv "$out/transpose-bf16-64x64.tsv" "$specs/best.yaml"
	"$kgen" run --verify --bench --runs 20 --set dtype=f64 $shapes --tsv "$out/transpose-f64.tsv" "$specs/best.yaml"
} 2>&1 | tee "$out/transpose.txt"
