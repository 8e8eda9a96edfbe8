#!/bin/sh
# posts-transpose.sh OUTDIR: seed 004's table on this GPU: the three TMA
# transposes of the post, the padded shared-memory transpose and kgen's best,
# float32 at 32768x32768 and 8192x8192, verified, each against a
# device-to-device copy of the same bytes in the same run.
# Writes OUTDIR/posts-transpose.tsv.
set -eu
out=$1
kgen=${KGEN:-./kgen}
specs=${top_srcdir:-.}/specs/transpose
"$kgen" run --verify --bench --runs 20 --shape 32768x32768 --shape 8192x8192 --tsv "$out/posts-transpose.tsv" \
	"$specs"/tma-post/*.yaml "$specs"/smem-padded.yaml "$specs"/best.yaml "$specs"/best-tma.yaml
