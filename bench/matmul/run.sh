#!/bin/sh
# shellcheck disable=SC2317 # the steps are called as step_$step
# bench/matmul/run.sh [OUT]: how fast is kgen's matmul against cuBLAS and torch?
# (bench/matmul/README.md).  On the GPU machine, from the build directory
# (kgen, kgen-cublas; top_srcdir as in bench/posts/posts.sh), one run on one GPU:
#   1. kgen run --verify --bench of specs/matmul/seed-002/*.yaml and
#      specs/matmul/best/*.yaml at SHAPES (kgen's time and cuBLAS's, through
#      kgen-cublas, on each line)                        -> OUT/kgen.txt, kgen.tsv
#   2. kgen-cublas alone for every dtype at SHAPES: the heuristic's first
#      algorithm (what a user gets) and the fastest of its first 8, plain and
#      with the fused ReLU epilogue, f16/bf16 also writing f32 -> OUT/cublas.txt
#   3. bench/matmul/torch_peer.py: torch.matmul, torch.relu(torch.matmul) and
#      torch's fused addmm ReLU, f32 (TF32 off), bf16, f16  -> OUT/torch.txt, torch.tsv
#   nvidia-smi's clocks, power and throttle reasons before and after
#   (OUT/env.txt) and every 500 ms throughout (OUT/smi.csv).
# OUT defaults to $top_srcdir/bench/results/<gpu>/<date>-matmul (gpu: nvidia-h100,
# nvidia-h200, ... from nvidia-smi).  Environment: SHAPES (default
# "4096x4096x4096 8192x8192x8192", MxNxK), RUNS (20), STEPS (default "kgen cublas
# torch": the steps to run, e.g. STEPS=torch to run one alone into the same OUT),
# KGEN, KGEN_CUBLAS, PYTHON.
# Each step runs even when one before it failed; the exit status is 1 if any did.
set -u
src=${top_srcdir:-.}
kgen=${KGEN:-./kgen}
cublas=${KGEN_CUBLAS:-./kgen-cublas}
py=${PYTHON:-python3}
runs=${RUNS:-20}
shapes=${SHAPES:-4096x4096x4096 8192x8192x8192}
steps=" ${STEPS:-kgen cublas torch} "
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)
if [ -z "$gpu" ]; then
	echo "run.sh: no GPU (nvidia-smi names none)" >&2
	exit 2
fi
slug=$(echo "$gpu" | tr '[:upper:]' '[:lower:]' | awk '{ print $1 "-" $2 }')
out=${1:-$src/bench/results/$slug/$(date -u +%Y-%m-%d)-matmul}
mkdir -p "$out" || exit 2
status=0
smi_query=timestamp,name,pstate,clocks.sm,clocks.max.sm,clocks.mem,power.draw,power.limit,enforced.power.limit,temperature.gpu,clocks_throttle_reasons.active

# Which steps run: wants NAME.
wants() { case $steps in *" $1 "*) return 0 ;; esac; return 1; }

{
	echo "# $(date -u '+%Y-%m-%d %H:%M UTC') $0 $*; STEPS=$steps SHAPES=$shapes RUNS=$runs"
	echo "# git: $(git -C "$src" rev-parse --short HEAD 2>/dev/null || echo 'not a git tree')"
	nvidia-smi
	nvidia-smi --query-gpu=$smi_query --format=csv
	nvidia-smi -q -d CLOCK,POWER,PERFORMANCE
	"$kgen" info
} >> "$out/env.txt" 2>&1
nvidia-smi --query-gpu=$smi_query --format=csv -lms 500 >> "$out/smi.csv" 2>&1 &
smi_pid=$!
trap 'kill $smi_pid 2>/dev/null' EXIT

# 1. kgen's specs, each against cuBLAS in the same run (kgen run's own lines).
step_kgen() {
	specs=$(ls "$src"/specs/matmul/seed-002/*.yaml "$src"/specs/matmul/best/*.yaml 2>/dev/null)
	if [ -z "$specs" ]; then
		echo "run.sh: no specs/matmul/seed-002/*.yaml or specs/matmul/best/*.yaml under $src" >&2
		return 1
	fi
	shape_args=
	for s in $shapes; do
		shape_args="$shape_args --shape $s"
	done
	echo "# kgen run --verify --bench --runs $runs$shape_args --tsv kgen.tsv SPECS"
	# shellcheck disable=SC2086 # the specs and shapes are words
	KGEN_CUBLAS=$cublas "$kgen" run --verify --bench --runs "$runs" $shape_args --tsv "$out/kgen.tsv" $specs
}

# 2. cuBLAS alone: each dtype, as a user gets it (the heuristic's first
# algorithm) and at its best (the fastest of 8), plain and with the fused ReLU.
step_cublas() {
	rc=0
	echo "# kgen-cublas [--algos=8] [--epilogue=relu] [--out=f32] DTYPE M N K $runs, one line each"
	for s in $shapes; do
		mnk=$(echo "$s" | tr 'x' ' ')
		for dt in f32 bf16 f16 f64; do
			set -- "" "--algos=8" "--epilogue=relu" "--epilogue=relu --algos=8"
			case $dt in f16 | bf16) set -- "$@" "--out=f32" ;; esac
			for flags in "$@"; do
				# shellcheck disable=SC2086 # the flags and the shape are words
				"$cublas" $flags $dt $mnk "$runs" 2>&1
				e=$?
				[ $e -eq 0 ] || echo "# exit $e: kgen-cublas $flags $dt $mnk $runs"
				# 4: cuBLASLt has no algorithm (f64 with an epilogue, perhaps): said, not a failure
				[ $e -eq 0 ] || [ $e -eq 4 ] || rc=1
			done
		done
	done
	return $rc
}

# 3. torch.matmul and friends (torch_peer.py prints its own header).
step_torch() {
	# shellcheck disable=SC2086 # the shapes are words
	"$py" "$src/bench/matmul/torch_peer.py" --shapes $shapes --runs "$runs" --out "$out/torch.tsv"
}

# Each step's output to OUT/NAME.txt as it comes, its exit status last.
for step in kgen cublas torch; do
	wants $step || continue
	{ step_$step 2>&1; echo "# exit $?"; } | tee "$out/$step.txt"
	grep -q '^# exit 0$' "$out/$step.txt" || status=1
done

nvidia-smi --query-gpu=$smi_query --format=csv >> "$out/env.txt" 2>&1
echo "run.sh: results in $out (exit $status)"
exit $status
