#!/bin/sh
# host-cost.sh OUT [PLAN]: the host's cost of one reduce call (issue 9, item
# 4), in one run on one GPU: kgen_reduce() with a size plan against
# cub::DeviceReduce::Sum and against a bare launch of an empty kernel
# (runtime and driver), at n = 2^10, 2^12 and 2^16, on the default stream and
# on a stream of its own (bench/host-cost/host_cost.cu, built here with nvcc).  Run
# from the build directory (.libs/libkgen.so) of a configured tree; writes
# OUT/host-cost.txt.
set -u
out=$1
src=${top_srcdir:-.}
plan=${2:-$src/specs/plans/nvidia-h200/sum-f32.yaml}
lib=$(pwd)/.libs
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .)
"${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}" -O2 -std=c++17 -arch=sm_"${arch:-90}" \
	-I"$src/include" -o "$tmp/host_cost" "$src/bench/host-cost/host_cost.cu" -L"$lib" -lkgen -lcuda || exit 1
{
	echo "# $(date -u '+%Y-%m-%d %H:%M UTC') $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1); $0 $*"
	echo "# plan: $plan"
	for n in 1024 4096 65536; do
		LD_LIBRARY_PATH=$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} "$tmp/host_cost" "$plan" $n 1000 15 || exit 1
	done
} | tee "$out/host-cost.txt"
