#!/bin/sh
# Verify the ops of issue 8 on the GPU (specs/reduce/ops, specs/reduce_axis/ops
# and the best sums): every result poisoned first and checked against the
# CPU reference with NumPy's semantics (integers exact, floats within the
# documented tolerance).  Vectors at N = 0, 1, 31, 1000003 and 2^24+7, and
# from input offsets of 1 to 15 elements; argmin and argmax with their
# winning value (ties) and NaNs placed at the start, the end and both, and
# on inputs of nothing but the identity (--identity).
# Matrices at the shapes of gpu_verify.sh, padded rows, offsets, and the
# same placements at each row's and column's ends (the largest shapes for
# argmin, argmax and the mean: the CPU reference of every op at every
# shape would take most of an hour).  Without a GPU it skips (exit 77).
# The full log is gpu_ops.log ($GPU_OPS_LOG), written as it goes.
set -u
top_srcdir=${top_srcdir:-.}
kgen=${top_builddir:-.}/kgen
log=${GPU_OPS_LOG:-gpu_ops.log}
if ! info=$("$kgen" info 2>&1); then
	echo "SKIP: no GPU: $info"
	exit 77
fi
vspecs=$(ls "$top_srcdir"/specs/reduce/ops/*.yaml "$top_srcdir"/specs/reduce/best/*.yaml | LC_ALL=C sort)
varg=$(ls "$top_srcdir"/specs/reduce/ops/arg*.yaml | LC_ALL=C sort)
aspecs=$(ls "$top_srcdir"/specs/reduce_axis/ops/*.yaml | LC_ALL=C sort)
aarg=$(ls "$top_srcdir"/specs/reduce_axis/ops/arg*.yaml | LC_ALL=C sort)
ashapes="--shape 16384x16384 --shape 1048576x256 --shape 4194304x64 --shape 256x1048576 --shape 64x4194304"
mshapes="--shape 1000x3001 --shape 3001x1000 --shape 1x1000003 --shape 1000003x1 --shape 65536x40"
abig=$(ls "$top_srcdir"/specs/reduce_axis/ops/arg*.yaml "$top_srcdir"/specs/reduce_axis/ops/mean-*.yaml | LC_ALL=C sort)
small="--shape 1000x3001 --shape 33x65 --shape 1x1000003 --shape 1000003x1 --shape 1x1"
status=0
{
	echo "# $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "$info"
	echo "# kgen run --verify --n 0 --n 1 --n 31 --n 1000003 --n 2^24+7 vector op specs..."
	"$kgen" run --verify --n 0 --n 1 --n 31 --n 1000003 --n '2^24+7' $vspecs || status=1
	for off in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do
		echo "# kgen run --verify --offset $off --n 1 --n 31 --n 100003 vector op specs..."
		"$kgen" run --verify --offset $off --n 1 --n 31 --n 100003 $vspecs || status=1
	done
	for where in start end both; do
		echo "# kgen run --verify --extreme $where --n 1 --n 31 --n 1000003 --n 2^24+7 argmin/argmax specs..."
		"$kgen" run --verify --extreme $where --n 1 --n 31 --n 1000003 --n '2^24+7' $varg || status=1
		echo "# kgen run --verify --extreme both --nan $where --n 1 --n 31 --n 1000003 argmin/argmax specs..."
		"$kgen" run --verify --extreme both --nan $where --n 1 --n 31 --n 1000003 $varg || status=1
	done
	# Every element the identity (-inf for a float argmax): the chains must still
	# report the first element, or the one placed after.
	for extra in "" "--extreme end" "--nan end" "--extreme both --nan end"; do
		echo "# kgen run --verify --identity $extra --n 1 --n 31 --n 1000003 argmin/argmax specs..."
		"$kgen" run --verify --identity $extra --n 1 --n 31 --n 1000003 $varg || status=1
		echo "# kgen run --verify --identity $extra $small --shape 3001x1000 matrix argmin/argmax specs..."
		"$kgen" run --verify --identity $extra $small --shape 3001x1000 $aarg || status=1
	done
	echo "# kgen run --verify $mshapes matrix op specs..."
	"$kgen" run --verify $mshapes $aspecs || status=1
	echo "# kgen run --verify $ashapes matrix argmin/argmax and mean specs..."
	"$kgen" run --verify $ashapes $abig || status=1
	echo "# kgen run --verify --pad 3 --offset 5 $small matrix op specs..."
	"$kgen" run --verify --pad 3 --offset 5 $small $aspecs || status=1
	for off in 1 3 7 15; do
		echo "# kgen run --verify --offset $off --shape 1000x3001 --shape 3001x1000 matrix op specs..."
		"$kgen" run --verify --offset $off --shape 1000x3001 --shape 3001x1000 $aspecs || status=1
	done
	for where in start end both; do
		echo "# kgen run --verify --extreme $where $small matrix argmin/argmax specs..."
		"$kgen" run --verify --extreme $where $small $aarg || status=1
		echo "# kgen run --verify --extreme both --nan $where $small matrix argmin/argmax specs..."
		"$kgen" run --verify --extreme both --nan $where $small $aarg || status=1
	done
} >"$log" 2>&1
cat "$log"
echo "# done $(date -u '+%H:%M:%S')" >>"$log"
if grep -E ' (FAIL|rejected) ' "$log" >/dev/null; then
	status=1
fi
exit $status
