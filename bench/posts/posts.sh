#!/bin/sh
# posts.sh OUTDIR: the posts' tables on this GPU, each with CUB in the same run.
#   A and B (Mojo and CUDA posts): int32, N = 2^30, the specs as written.
#   C ("Embarrassingly Parallel Reduction"): float32, N = 2^25, at every
#     block size the post swept (64 to 1024 threads).
# Writes OUTDIR/posts-ab.tsv and OUTDIR/posts-c-<threads>.tsv; bench/posts/report.sh
# turns them into bench/results/<gpu>/README.md.
set -eu
out=$1
kgen=${KGEN:-./kgen}
specs=${top_srcdir:-.}/specs
"$kgen" run --bench --runs 20 --n '2^30' --tsv "$out/posts-ab.tsv" \
	"$specs"/reduce/mojo-post/*.yaml "$specs"/reduce/cuda-post/*.yaml "$specs"/reduce/best/*i32*.yaml
for t in 64 128 256 512 1024; do
	"$kgen" run --bench --runs 20 --n '2^25' --set threads=$t --tsv "$out/posts-c-$t.tsv" \
		"$specs"/reduce/parallel-post/*.yaml
done
"$kgen" run --bench --runs 20 --n '2^25' --n '2^30' --tsv "$out/posts-best-f32.tsv" "$specs"/reduce/best/*f32*.yaml
