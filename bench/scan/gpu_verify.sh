#!/bin/sh
# bench/scan/gpu_verify.sh KGEN [LOG_DIR] - kernel: scan on a GPU, every
# result against the CPU reference (kgen run --verify: the output poisoned
# first, every element checked): every spec of specs/scan/ and its ladder
# at n = 0, 1, 31-33, the tile sizes +-1 and 2^20 + 7; both look-back block
# scans (segments, warps) at every lookback_group from 1 to 32 and each
# mode, in f32, i32, i32 into i64, i64, f64, f16 and bf16; misaligned starts
# (the threads' loads instead of the TMA copy); rows, padded rows and
# 70000 rows (two launches); an op: custom whose combine does not commute
# (the last non-zero element, forward fill, of mostly zeros); down the
# columns (axis: cols) likewise.  Exit 0 when every result verified.  About
# two minutes on an H200.  ONLY=cols runs the columns' part alone, STAGINGS
# the column scan's stagings named (none smem ring by default).
set -u
kgen=${1:?usage: gpu_verify.sh KGEN [LOG_DIR]}
log=${2:-.}/scan_verify.log
top=$(cd "$(dirname "$0")/../.." && pwd)
sum=$top/specs/scan/sum-f32.yaml
edges="--n 0 --n 1 --n 31 --n 32 --n 33 --n 2047 --n 2048 --n 2049 --n 4095 --n 4096 --n 4097 --n 8191 --n 8192 --n 8193 --n 1048583"
fail=0
: > "$log"
run() { "$kgen" run --verify "$@" >> "$log" 2>&1 || fail=1; }

if [ "${ONLY:-all}" != cols ]; then
run $edges "$top"/specs/scan/*.yaml "$top"/specs/scan/ladder/*.yaml
for bs in segments warps; do
	for g in 1 2 8 16 31 32; do
		for mode in inclusive exclusive; do
			run --set block_scan=$bs --set lookback_group=$g --set items_per_thread=8 --set mode=$mode \
				--n 8193 --n 270341 --n 2097159 "$sum"
		done
	done
	for d in "dtype=i32" "dtype=i32 acc_dtype=i64" "dtype=i64" "dtype=f64" "dtype=f16" "dtype=bf16"; do
		sets=""
		for kv in $d; do sets="$sets --set $kv"; done
		run --set block_scan=$bs --unset items_per_thread $sets --n 33 --n 8193 --n 1048583 --n 33554441 "$sum"
		run --set block_scan=$bs --unset items_per_thread $sets --offset 1 --n 1048583 "$sum"
	done
	run --set block_scan=$bs --offset 3 --n 33554441 "$sum"
	run --set block_scan=$bs --shape 3x5000 --shape 64x100003 --shape 1000x33 --shape 70000x5 --shape 16x262147 "$sum"
	run --set block_scan=$bs --pad 8 --shape 64x8200 --shape 3x100003 "$sum"
	run --set block_scan=$bs --set op=max --set mode=exclusive --n 1048583 "$sum"
	run --set block_scan=$bs --set op=custom --set dtype=i32 --set "map=x % 97 == 0 ? x : 0" \
		--set "combine=b != 0 ? b : a" --set identity=0 --n 8193 --n 1048583 "$sum"
done
fi
# Down the columns (axis: cols), each staging (the threads' rows in
# registers, the tile in shared memory, the ring of persistent blocks): many tiles and groups, partial
# bands and tiles, a column, pitched rows (a pitch that misaligns the rows:
# the threads' loads instead of the TMA copies), every dtype, each group
# size and mode, the ops, a forward fill, and other tiles (lanes, threads,
# items, loads; staging: smem's launch bounds; clusters of 2, 4 and 8 tiles;
# the ring's stages and blocks an SM, and bands enough that each has one block).
cols=$top/specs/scan/cols-sum-f32.yaml
for staging in ${STAGINGS:-none smem ring}; do
	# shellcheck disable=SC2086 # the --set lists are words
	# (the shipped spec's 12 rows a thread of f32 are a tile 48 KB does not hold: staged, 8)
	if [ $staging = smem ]; then c() { run --set staging=smem --set items_per_thread=8 "$@"; }
	elif [ $staging = ring ]; then c() { run --set staging=ring --unset items_per_thread "$@"; }
	else c() { run --set staging=none "$@"; }; fi
	c --shape 1000x33 --shape 100003x70 --shape 4097x64 --shape 129x1000 --shape 5x1 --shape 70000x9 \
		--shape 262147x64 --n 1048583 "$cols"
	c --pad 3 --shape 40000x70 --shape 20011x64 "$cols"
	c --pad 4 --shape 40000x64 "$cols"
	c --offset 1 --shape 20011x64 "$cols"
	for d in "dtype=i32" "dtype=i32 acc_dtype=i64" "dtype=i64" "dtype=f64" "dtype=f16" "dtype=bf16"; do
		sets=""
		for kv in $d; do sets="$sets --set $kv"; done
		c $sets --shape 20011x64 --shape 3000x130 --shape 100003x7 "$cols"
	done
	groups="1 2 8 31 32"
	[ $staging = ring ] && groups="-"  # the ring groups its blocks by how many the GPU holds
	for g in $groups; do
		for mode in inclusive exclusive; do
			if [ "$g" = - ]; then
				c --set mode=$mode --shape 65536x64 --shape 9000x200 --shape 1048576x64 --shape 333x100000 "$cols"
			else
				c --set lookback_group=$g --set mode=$mode --shape 65536x64 --shape 9000x200 "$cols"
			fi
		done
	done
	c --set op=max --set mode=exclusive --shape 100003x33 "$cols"
	c --set op=min --set dtype=i32 --shape 100003x33 "$cols"
	c --set op=custom --set dtype=i32 --set "map=x % 97 == 0 ? x : 0" --set "combine=b != 0 ? b : a" \
		--set identity=0 --shape 100003x33 "$cols"
	tiles="lanes=16 lanes=32 threads=128 threads=512,lanes=32 items_per_thread=4 items_per_thread=16 load_width=4
		load_width=8 load_width=32,lanes=8 cluster_size=2 cluster_size=4 cluster_size=8 cluster_size=4,lookback_group=1"
	[ $staging = smem ] && tiles="lanes=16 lanes=32,items_per_thread=4 threads=128 threads=512,items_per_thread=4
		items_per_thread=4 load_width=4 load_width=8 load_width=32,lanes=8,items_per_thread=4 blocks_per_sm=1 blocks_per_sm=6
		cluster_size=2 cluster_size=8"
	[ $staging = ring ] && tiles="lanes=8 lanes=32 threads=128 threads=512 items_per_thread=4 items_per_thread=16
		load_width=4,lanes=64 load_width=8,lanes=32 stages=2 stages=4 blocks_per_sm=1 blocks_per_sm=3,items_per_thread=4"
	for t in $tiles; do
		sets=""
		for kv in $(echo "$t" | tr , ' '); do sets="$sets --set $kv"; done
		c $sets --shape 100003x70 --shape 20011x64 "$cols"
	done
done
echo "$(grep -c ' ok ' "$log") ok, $(grep -c -E ' (FAIL|WRONG|wrong|rejected) ' "$log") not: $log"
exit $fail
