#!/bin/sh
# bench/scan/report.sh KGEN OUT - issue 52's figures in one GPU machine
# call, every timed result verified in the run that timed it: first
# gpu_verify.sh (every spec, edge sizes, dtypes, rows and columns), then
# kgen run --verify --bench of the default scan (specs/scan/sum-f32.yaml)
# in f32 and i32 against cub::DeviceScan and a device-to-device copy:
# back to back (events) from 2^10 to 2^30, under a CUDA graph's replay up
# to 2^20; the column scan (specs/scan/cols-sum-f32.yaml) at 2^20 x 64 and
# 2^20 x 1024 and the row scan at 64 x 2^20 and 16384 x 16384, against a
# copy; then vs_torch.py (Python's kgen.cumsum against torch.cumsum) where
# torch is installed.  With TUNE=1, last (TUNE=only: alone), kgen tune of
# small.space.yaml for the f32 and i32 sums (events and graph, against
# CUB), its plans and records written to OUT/plans/, the plans to be
# reported from another run.
#
# KGEN is the kgen program of a build directory (its python/ and
# .libs/libkgen.so are used for Python); KGEN_CUB names the CUB helper
# where the build did not make one.  Each step's output goes to OUT
# (tables as TSV, logs as .txt); a failed step is noted in OUT/steps.txt
# and the rest still run.  Exit 0 when every step passed.
set -u
kgen=${1:?usage: report.sh KGEN OUT}
out=${2:?usage: report.sh KGEN OUT}
top=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "$(dirname "$kgen")" && pwd)
sum=$top/specs/scan/sum-f32.yaml
cols=$top/specs/scan/cols-sum-f32.yaml
i32="--set dtype=i32 --set name=scan_sum_i32"
mkdir -p "$out" || exit 2
: > "$out/steps.txt"
status=0

# One step: its name, then the command; its output to OUT/NAME.txt.
step() {
	name=$1
	shift
	if "$@" > "$out/$name.txt" 2>&1; then
		echo "ok   $name" >> "$out/steps.txt"
	else
		echo "FAIL $name (exit $?)" >> "$out/steps.txt"
		status=1
	fi
}

if [ "${TUNE:-0}" != only ]; then
step verify sh "$top/bench/scan/gpu_verify.sh" "$kgen" "$out"

N="--n 2^10 --n 2^12 --n 2^14 --n 2^16 --n 2^18 --n 2^20 --n 2^22 --n 2^24 --n 2^26 --n 2^28 --n 2^30"
G="--n 2^10 --n 2^12 --n 2^14 --n 2^16 --n 2^18 --n 2^20"
# shellcheck disable=SC2086 # the size and --set lists are words
{
	step events-f32 "$kgen" run --verify --bench --method events $N "$sum" --tsv "$out/events-f32.tsv"
	step events-i32 "$kgen" run --verify --bench --method events $N $i32 "$sum" --tsv "$out/events-i32.tsv"
	step graph-f32 "$kgen" run --verify --bench --method graph $G "$sum" --tsv "$out/graph-f32.tsv"
	step graph-i32 "$kgen" run --verify --bench --method graph $G $i32 "$sum" --tsv "$out/graph-i32.tsv"
	step cols "$kgen" run --verify --bench --shape 1048576x64 --shape 1048576x1024 "$cols" --tsv "$out/cols.tsv"
	step rows "$kgen" run --verify --bench --shape 64x1048576 --shape 16384x16384 "$sum" --tsv "$out/rows.tsv"
	step rows-i64 "$kgen" run --verify --bench --set dtype=i32 --set acc_dtype=i64 --set name=scan_sum_i32_i64 \
		--shape 64x1048576 --shape 16384x16384 "$sum" --tsv "$out/rows-i64.tsv"
}

if python3 -c 'import torch' > /dev/null 2>&1; then
	export PYTHONPATH="$build/python${PYTHONPATH:+:$PYTHONPATH}" KGEN_LIBRARY="$build/.libs/libkgen.so"
	step torch-rows python3 "$top/bench/scan/vs_torch.py" 2^20 2^24 2^28 64x2^20 16384x16384
	step torch-cols python3 "$top/bench/scan/vs_torch.py" --cols 1048576x64 1048576x1024
else
	echo "skip torch (no torch in this python3)" >> "$out/steps.txt"
fi
fi

if [ "${TUNE:-0}" = 1 ] || [ "${TUNE:-0}" = only ]; then
	mkdir -p "$out/plans"
	T="--n 2^10 --n 2^12 --n 2^14 --n 2^16 --n 2^18 --n 2^20 --n 2^24 --n 2^28 --method events,graph --against cub"
	for d in f32 i32; do
		# shellcheck disable=SC2086
		step tune-$d "$kgen" tune "$top/bench/scan/small.space.yaml" --set dtype=$d $T \
			--records "$out/plans/scan_sum-$d.records.jsonl" --plan "$out/plans/scan_sum-$d.yaml"
	done
fi
cat "$out/steps.txt"
exit $status
