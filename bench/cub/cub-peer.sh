#!/bin/sh
# cub-peer.sh OUT: is kgen's CUB peer the CUB a user gets? (issue 13)
# At 2^24 and 2^30 elements, i32 and f32 sums, in one run on one GPU:
#   kgen-cub --offsets=32 and --offsets=64  (CUB's two offset paths),
#   kgen-cub (the default, the faster of the two: the peer kgen run uses),
#   cub_user (bench/cub/cub_user.cu: a user's own cub::DeviceReduce::Sum with an
#             int count, built here with nvcc),
#   kgen run --bench of specs/reduce/best/sum-<dtype>.yaml (kgen/CUB).
# Writes OUT/cub-peer.txt (everything) and OUT/cub-peer.tsv:
#   dtype n ms32 ms64 peer_ms peer_offsets user_ms peer_vs_user
# where peer_vs_user = peer_ms / user_ms (1.00: the peer is the user's CUB).
# Run from the build directory (kgen, kgen-cub); top_srcdir as in posts.sh.
set -eu
out=$1
src=${top_srcdir:-.}
kgen=${KGEN:-./kgen}
cub=${KGEN_CUB:-./kgen-cub}
runs=${RUNS:-20}
user=$(mktemp -d)/cub_user
trap 'rm -rf "$(dirname "$user")"' EXIT
"${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}" -O3 -std=c++17 ${NVCC_ARCH:--arch=sm_90} -o "$user" "$src/bench/cub/cub_user.cu"
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
{
	echo "# $(date -u +%Y-%m-%dT%H:%MZ) GPU: $gpu; runs=$runs; $0 $*"
	printf 'dtype\tn\tms32\tms64\tpeer_ms\tpeer_offsets\tuser_ms\tpeer_vs_user\n' >"$out/cub-peer.tsv"
	for dt in i32 f32; do
		for e in 24 30; do
			n=$(awk "BEGIN { printf \"%d\", 2^$e }")
			a=$("$cub" --offsets=32 sum $dt $n $runs)
			b=$("$cub" --offsets=64 sum $dt $n $runs)
			p=$("$cub" sum $dt $n $runs)
			u=$("$user" $dt $n $runs)
			echo "$a"; echo "$b"; echo "$p"; echo "$u"
			printf '%s\n%s\n%s\n%s\n' "$a" "$b" "$p" "$u" | awk -v dt=$dt -v n=$n '
				function f(s, k,  i) { i = index(s, k "="); return i ? substr(s, i + length(k) + 1) + 0 : -1 }
				NR == 1 { m32 = f($0, "median_ms") } NR == 2 { m64 = f($0, "median_ms") }
				NR == 3 { pm = f($0, "median_ms"); po = f($0, "offsets") } NR == 4 { um = f($0, "median_ms") }
				END { printf "%s\t%s\t%.4f\t%.4f\t%.4f\t%d\t%.4f\t%.4f\n", dt, n, m32, m64, pm, po, um, pm / um }' \
				>>"$out/cub-peer.tsv"
		done
		"$kgen" run --bench --runs $runs --n '2^24' --n '2^30' "$src/specs/reduce/best/sum-$dt.yaml"
	done
	cat "$out/cub-peer.tsv"
} | tee "$out/cub-peer.txt"
