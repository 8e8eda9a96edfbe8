#!/bin/sh
# Verify every spec in specs/ on the GPU: random inputs, the result poisoned
# first and checked against the CPU reference, at N = 0, 1, 31, 1000003,
# 2^24+7 and 2^30, then from an input offset by one element (specs whose
# load width needs alignment must refuse it with a clear error), then at
# falling sizes (scratch reused by a smaller grid).
# Without a GPU it skips (exit 77).  The full log is gpu_verify.log.
set -u
top_srcdir=${top_srcdir:-.}
kgen=${top_builddir:-.}/kgen
log=gpu_verify.log
if ! info=$("$kgen" info 2>&1); then
	echo "SKIP: no GPU: $info"
	exit 77
fi
specs=$(find "$top_srcdir/specs" -name '*.yaml' | LC_ALL=C sort)
status=0
{
	echo "# $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "$info"
	echo "# kgen run --verify --n 0 --n 1 --n 31 --n 1000003 --n 2^24+7 --n 2^30 specs..."
	"$kgen" run --verify --n 0 --n 1 --n 31 --n 1000003 --n '2^24+7' --n '2^30' $specs || status=1
	echo "# kgen run --verify --offset 1 --n 1 --n 31 --n 1000003 specs..."
	"$kgen" run --verify --offset 1 --n 1 --n 31 --n 1000003 $specs || status=1
	# Falling sizes: a kernel's own scratch, sized for a large n, is reused by smaller grids.
	echo "# kgen run --verify --n 2^24+7 --n 1000003 --n 31 --n 1 specs..."
	"$kgen" run --verify --n '2^24+7' --n 1000003 --n 31 --n 1 $specs || status=1
} >"$log" 2>&1
cat "$log"
# An offset input may be refused only for alignment, never verified wrongly.
if grep ' rejected ' "$log" | grep -v 'is not aligned to' >/dev/null; then
	echo "FAIL: a spec refused an input for a reason other than alignment"
	status=1
fi
if grep -E ' FAIL ' "$log" >/dev/null; then
	status=1
fi
exit $status
