#!/bin/sh
# tune.sh OUTDIR [OP-DTYPE...]: tune the shipped size plans for this GPU, as
# the H200's were (bench/results/nvidia-h200/plans.md, third round): for each
# OP-DTYPE (default: sum, min and max of f32, bf16 and i32), `kgen tune` of
# specs/plans/reduce.space.yaml with op and dtype set and grid: tile, timed
# with events and graph against cub::DeviceReduce, every point verified.
# Writes OUTDIR/OP-DTYPE.yaml (the plan; copy it into
# specs/plans/nvidia-MODEL/, MODEL as kgen.reduce names the GPU's folder),
# OUTDIR/OP-DTYPE.records.jsonl.gz and OUTDIR/tune-OP-DTYPE.log.  Each plan
# takes 1.5-2.5 minutes on an H200: give a device call three of them.
# CHOOSE is kgen tune's --choose rule and its options (default mean, as the
# shipped plans; "first --margin 10" is issue 23's bars: the least time back
# to back among the points at most 0.9 of CUB's under graph replay).
set -u
out=${1:?usage: bench/plans/tune.sh OUTDIR [OP-DTYPE...]}
shift
kgen=${KGEN:-./kgen}
choose=${CHOOSE:-mean}
top=${top_srcdir:-.}
mkdir -p "$out"
[ $# -gt 0 ] || set -- sum-f32 sum-bf16 sum-i32 min-f32 min-bf16 min-i32 max-f32 max-bf16 max-i32
for p in "$@"; do
	case $p in
	sum-f32 | sum-bf16 | sum-i32 | min-f32 | min-bf16 | min-i32 | max-f32 | max-bf16 | max-i32) ;;
	*) echo "tune.sh: $p is not OP-DTYPE (sum, min or max; f32, bf16 or i32)" >&2; exit 2 ;;
	esac
done
status=0
for p in "$@"; do
	op=${p%-*} dtype=${p#*-}
	records=$out/$p.records.jsonl
	[ -f "$records.gz" ] && gunzip -f "$records.gz"  # a rerun measures only what is missing
	start=$(date +%s)
	"$kgen" tune "$top/specs/plans/reduce.space.yaml" --set op="$op" --set dtype="$dtype" --set grid=tile \
		--method events,graph --against cub --choose $choose --records "$records" --plan "$out/$p.yaml" \
		>"$out/tune-$p.log" 2>&1
	rc=$?
	[ $rc -eq 0 ] || status=1
	[ -f "$records" ] && gzip -f "$records"
	echo "$p: kgen tune exited $rc after $(($(date +%s) - start)) s; $(tail -1 "$out/tune-$p.log")"
done
exit $status
