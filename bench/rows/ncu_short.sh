#!/bin/sh
# bench/rows/ncu_short.sh OUT_DIR KGEN... - the kernel times (Nsight Compute's gpu__time_duration) of
# kgen's row kernels at short rows and of torch.compile's, on one GPU: for each op (softmax, log_softmax,
# rms_norm, layer_norm; OPS to change), dtype (DTYPES, default "bf16 f32") and KGEN binary in turn, the
# shipped spec (specs/rows/OP.yaml, --set dtype) at each of SHAPES (default "32768x256 32768x512"), then
# torch.compile's kernel of the op at the same shapes (bf16 only; COMPILE=0 to leave it out; needs torch).
# Writes OUT_DIR/n/*.txt (ncu's output) and OUT_DIR/times.tsv (bench/rows/ncu_times.py: the shortest of a
# shape's 5 launches, the kernel's registers and block).  Environment: NCU (default
# /usr/local/cuda/bin/ncu), EXTRA (more kgen run arguments, e.g. "--set threads=128").
set -u
out=${1:?usage: ncu_short.sh OUT_DIR KGEN...}
shift
[ $# -gt 0 ] || { echo "ncu_short.sh: name at least one kgen binary" >&2; exit 2; }
top=$(cd "$(dirname "$0")/../.." && pwd)
ncu=${NCU:-/usr/local/cuda/bin/ncu}
ops=${OPS:-softmax log_softmax rms_norm layer_norm}
dtypes=${DTYPES:-bf16 f32}
shapes=${SHAPES:-32768x256 32768x512}
metrics=gpu__time_duration.sum,launch__registers_per_thread,launch__block_size
mkdir -p "$out/n"
sh_args=$(for s in $shapes; do printf ' --shape %s' "$s"; done)
: > "$out/times.tsv.tmp"
i=0
for k in "$@"; do
	i=$((i + 1))
	for op in $ops; do
		for dt in $dtypes; do
			f="$out/n/kgen$i-$op-$dt.txt"
			# --runs 2 after 3 warm-up launches: 5 launches a shape
			"$ncu" --metrics $metrics -k regex:rows_ "$k" run "$top/specs/rows/$op.yaml" --bench --runs 2 \
				--set dtype=$dt $sh_args ${EXTRA:-} > "$f" 2>&1 || echo "ncu_short.sh: $f failed" >&2
			python3 "$top/bench/rows/ncu_times.py" --per 5 --label "$k $op $dt" "$f" | tail -n +2 >> "$out/times.tsv.tmp"
		done
	done
done
if [ "${COMPILE:-1}" != 0 ]; then
	for op in $ops; do
		for s in $shapes; do
			f="$out/n/compile-$op-$s.txt"
			"$ncu" --metrics $metrics -k regex:triton --launch-skip 2 --launch-count 1 python3 \
				"$top/bench/rows/compiled_kernel.py" $op ${s#*x} --rows ${s%x*} > "$f" 2>&1 ||
				echo "ncu_short.sh: $f failed" >&2
			python3 "$top/bench/rows/ncu_times.py" --label "torch.compile $op bf16 $s" "$f" | tail -n +2 >> "$out/times.tsv.tmp"
		done
	done
fi
{ printf 'who\tshape\tkernel\ttime_us\tregisters\tblock\n'; cat "$out/times.tsv.tmp"; } > "$out/times.tsv"
rm -f "$out/times.tsv.tmp"
cat "$out/times.tsv"
