#!/bin/sh
# bench/axis/axis.sh - the matrix reductions (kernel: reduce_axis) on the GPU, in
# one run: every spec given (default: specs/reduce_axis/best/*.yaml) at the
# shapes of issue 7, verified and timed by `kgen run --bench` against CUB's
# sum of the whole matrix (the same bytes: the bandwidth bar) and, for rows,
# cub::DeviceSegmentedReduce; then torch.sum and cupy.sum along each axis
# (bench/axis/axis_peers.py); then seed 002's three kernels at 16384 x 16384.
#
# Usage, from the build directory:  bench/axis/axis.sh OUTDIR [SPEC...]
# Writes OUTDIR/axis.txt and .tsv, OUTDIR/axis-peers.txt and .tsv,
# OUTDIR/seed-002.txt; each starts with the command, the date and the GPU.
set -u
out=${1:?usage: bench/axis/axis.sh OUTDIR [SPEC...]}
shift
src=$(dirname "$0")/../..
kgen=${KGEN:-./kgen}
[ $# -gt 0 ] || set -- "$src"/specs/reduce_axis/best/*.yaml
shapes="--shape 16384x16384 --shape 32768x32768 --shape 1048576x256 --shape 4194304x64 --shape 256x1048576
 --shape 64x4194304 --shape 1000x3001 --shape 1x1000003 --shape 1000003x1"
mkdir -p "$out"
stamp() { echo "# $(date -u '+%Y-%m-%d %H:%M UTC'): $*"; }
{
	stamp "$kgen run --bench --verify --runs 20 $shapes $*"
	"$kgen" run --bench --verify --runs 20 --tsv "$out/axis.tsv" $shapes "$@"
} >"$out/axis.txt" 2>&1
{
	stamp "python3 bench/axis/axis_peers.py --runs 20"
	python3 "$src/bench/axis/axis_peers.py" --runs 20 --out "$out/axis-peers.tsv"
} >"$out/axis-peers.txt" 2>&1
{
	stamp "$kgen run --bench --verify --runs 10 --shape 16384x16384 specs/reduce_axis/seed-002/*.yaml"
	"$kgen" run --bench --verify --runs 10 --shape 16384x16384 "$src"/specs/reduce_axis/seed-002/*.yaml
} >"$out/seed-002.txt" 2>&1
cat "$out/axis.txt" "$out/seed-002.txt"
grep -v '^#' "$out/axis-peers.txt" | head -80
