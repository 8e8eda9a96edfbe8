#!/bin/sh
# py-overhead.sh OUT: the Python package's per-call cost over C (issue 11),
# in one run on one GPU: kgen.reduce() on a 2^10-element f32 torch tensor,
# back to back, against kgen_reduce() with the same spec from C
# (bench/python-overhead/call_cost.cu, built here with nvcc).  Run from the build directory
# (.libs/libkgen.so) of a configured tree; writes OUT/py-overhead.txt.
set -u
out=$1
src=${top_srcdir:-.}
lib=$(pwd)/.libs
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}" -O2 -std=c++17 -I"$src/include" -o "$tmp/call_cost" \
	"$src/bench/python-overhead/call_cost.cu" -L"$lib" -lkgen -lcudart || exit 1
export KGEN_LIBRARY=$lib/libkgen.so PYTHONPATH=$src/python
spec=$(python3 "$src/bench/python-overhead/py_overhead.py" --spec) || exit 1
{
	echo "# $(date -u '+%Y-%m-%d %H:%M UTC') $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); $0 $*"
	echo "# spec (kgen.reduce's own for f32 at an aligned address):"
	printf '%s\n' "$spec" | sed 's/^/#   /'
	for rep in 1 2; do
		LD_LIBRARY_PATH=$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} "$tmp/call_cost" "$spec" 1024 2000 7
		python3 "$src/bench/python-overhead/py_overhead.py" 1024 2000 7
	done
} | tee "$out/py-overhead.txt"
