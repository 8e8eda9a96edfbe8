#!/bin/sh
# sweep.sh OUTDIR [N]: time one-pass reduction candidates (threads, items per
# thread, grid policy) for i32 and f32 sums at N (default 2^30) against CUB,
# in one `kgen run`, to choose the specs in specs/reduce/best/.
# Writes OUTDIR/sweep.tsv and OUTDIR/sweep.txt.
set -eu
out=$1
n=${2:-2^30}
kgen=${KGEN:-./kgen}
dir=$(mktemp -d)
for dtype in i32 f32; do
	for threads in 256 512 1024; do
		for items in 8 16 32; do
			for grid in tile persistent; do
				f=$dir/$dtype-t$threads-i$items-$grid.yaml
				cat >"$f" <<EOS
kernel: reduce
op: sum
dtype: $dtype
threads: $threads
items_per_thread: $items
load_width: 16
grid: $grid
stages: atomic
block_reduce: warps
warp_tail: shuffle
EOS
			done
		done
	done
done
"$kgen" run --bench --runs 30 --n "$n" --tsv "$out/sweep.tsv" $(ls "$dir"/*.yaml | LC_ALL=C sort) | tee "$out/sweep.txt"
rm -rf "$dir"
