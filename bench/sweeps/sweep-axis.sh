#!/bin/sh
# sweep-axis.sh OUTDIR: verify and time the candidates of the matrix
# reductions (kernel: reduce_axis, f32 sums) in one `kgen run`, to choose
# specs/reduce_axis/best/ and the choices of strategy: auto:
#   rows: warp with lanes 1..32, block, and auto (which picks one of them
#         by the row's length), at 256, 512 and 1024 threads;
#   cols: tile (what auto runs for columns) at 256, 512 and 1024 threads.
# Every candidate runs at every shape of issue 7 and two more (1024 and 2048 columns) (a strategy for rows runs
# on rows only).  Writes OUTDIR/sweep-axis.tsv and OUTDIR/sweep-axis.txt.
set -eu
out=$1
kgen=${KGEN:-./kgen}
dir=$(mktemp -d)
spec() {  # spec FILE AXIS STRATEGY THREADS [KEY: VALUE]
	f=$dir/$1.yaml
	printf 'kernel: reduce_axis\nop: sum\ndtype: f32\naxis: %s\nstrategy: %s\nthreads: %s\nload_width: 16\n' \
		"$2" "$3" "$4" >"$f"
	[ $# -lt 5 ] || printf '%s\n' "$5" >>"$f"
}
for threads in 256 512 1024; do
	for lanes in 1 2 4 8 16 32; do
		spec "rows-warp-t$threads-l$lanes" rows warp $threads "lanes: $lanes"
	done
	spec "rows-block-t$threads" rows block $threads
	spec "rows-auto-t$threads" rows auto $threads
	spec "cols-tile-t$threads" cols tile $threads
done
shapes="--shape 16384x16384 --shape 32768x32768 --shape 1048576x256 --shape 4194304x64 --shape 256x1048576
 --shape 64x4194304 --shape 1000x3001 --shape 1x1000003 --shape 1000003x1 --shape 262144x1024 --shape 131072x2048"
mkdir -p "$out"
echo "# $(date -u '+%Y-%m-%d %H:%M UTC'): $kgen run --bench --verify --runs 10 $shapes (candidates of bench/sweeps/sweep-axis.sh)" >"$out/sweep-axis.txt"
"$kgen" run --bench --verify --runs 10 --tsv "$out/sweep-axis.tsv" $shapes $(ls "$dir"/*.yaml | LC_ALL=C sort) \
	>>"$out/sweep-axis.txt" 2>&1
rm -rf "$dir"
