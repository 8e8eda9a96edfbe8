#!/bin/sh
# cublas_helper_test.sh: kgen-cublas (bench/matmul/cublas_gemm.cu), the cuBLAS peer.
# Everywhere it is built: --help, and its refusals (exit 2, one
# "kgen-cublas: ..." line each), which need no GPU.  With a GPU: small and
# odd shapes in every dtype, both layouts of each operand, padded leading
# dimensions, alpha and beta, f32 output and the ReLU epilogue, cublasGemmEx
# and cublasLtMatmul each alone and the faster of both (api= names it), each checked
# by the helper at 64 elements against the host (check=ok), so that the
# row-major trick (cuBLAS computes C^T = B^T A^T) is right in every case.
# Skips (77) where it is not built (no nvcc or cuBLASLt, or
# --disable-cub-helper) and, after the refusals, where there is no GPU.
set -u
b=${top_builddir:-.}
h=$b/kgen-cublas
if [ ! -x "$h" ]; then
	echo "SKIP: kgen-cublas not built"
	exit 77
fi
fail=0
bad() { echo "FAIL: $*" >&2; fail=1; }

out=$("$h" --help) && echo "$out" | grep -q -- '--epilogue=none|relu' && echo "$out" | grep -q -- '--api=best|lt|gemmex' && echo "$out" | grep -q 'no TF32' ||
	bad "kgen-cublas --help: $out"
# Each refusal: its arguments, then the message it must print.
while IFS='|' read -r args want; do
	# shellcheck disable=SC2086 # the arguments are words
	msg=$("$h" $args 2>&1)
	rc=$?
	[ $rc -eq 2 ] && [ "$msg" = "kgen-cublas: $want" ] || bad "kgen-cublas $args: exit $rc, '$msg' (want 2, '$want')"
done <<'EOF'
i32 4 4 4 5|DTYPE is f32, f64, f16, bf16, e4m3 or e5m2, not i32
--out=f16 bf16 4 4 4 5|--out is bf16 or f32, not f16
--out=f32 f64 4 4 4 5|--out is f64, not f32
--a=rows f32 4 4 4 5|--a is row or col, not rows
--lda=3 --a=col f32 4 2 3 5|--lda 3 is less than the 4 elements of a column of A
--ldb=2 f32 4 3 5 5|--ldb 2 is less than the 3 elements of a row of B
--ldc=1 f32 4 3 5 5|--ldc 1 is less than the 3 elements of a row of C
--alpha=nan f32 4 4 4 5|--alpha is a finite number, not nan
--epilogue=gelu f32 4 4 4 5|--epilogue is none, relu or gelu_bias, not gelu
--api=fast f32 4 4 4 5|--api is best, lt or gemmex, not fast
--api=gemmex --epilogue=relu f32 4 4 4 5|--api=gemmex has no epilogue (relu is cuBLASLt's): --api=lt or best
--method=fast f32 4 4 4 5|--method is per-call, events, graph or cold, not fast
--algos=0 f32 4 4 4 5|--algos is from 1 to 1000, not 0
--frobnicate f32 4 4 4 5|unknown flag --frobnicate (--help lists them)
f32 0 4 4 5|M, N and K are counts from 1 to 2^31 - 1, not 0 4 4
f32 4 4 4 0|RUNS is from 1 to 100000, not 0
EOF
"$h" f32 4 4 4 > /dev/null 2>&1
[ $? -eq 2 ] || bad "kgen-cublas with four arguments did not exit 2"

# A GPU?  The smallest GEMM says.
if ! line=$("$h" f32 1 1 1 1 2>&1); then
	echo "$line"
	[ $fail -eq 0 ] && echo "SKIP: refusals ok; no GPU for the GEMMs"
	[ $fail -eq 0 ] && exit 77
	exit 1
fi
n=0
for dt in f32 f64 f16 bf16; do
	for shape in "1 1 1" "7 5 3" "127 255 63" "256 128 512"; do
		for a in row col; do
			for bl in row col; do
				n=$((n + 1))
				# shellcheck disable=SC2086
				line=$("$h" --a=$a --b=$bl --alpha=1.5 --beta=-0.5 $dt $shape 2 2>&1)
				echo "$line" | grep -q ' check=ok ' || bad "$dt $shape a=$a b=$bl: $line"
			done
		done
	done
	# Padded leading dimensions, ReLU, f32 out for the 16-bit types.
	# shellcheck disable=SC2086
	for flags in "--a=col --lda=131 --ldb=300 --ldc=260" "--epilogue=relu" "--epilogue=relu --beta=1 --b=col" \
		"--method=events" "--method=graph --algos=3" "--api=gemmex --b=col --ldb=70 --beta=2" "--api=lt --a=col"; do
		n=$((n + 1))
		line=$("$h" $flags $dt 127 255 63 3 2>&1)
		rc=$?
		case $dt.$rc.$flags in
		f64.4.*relu*) echo "note: $line"; continue ;;  # cuBLASLt may have no f64 kernel with an epilogue: said, exit 4
		*) echo "$line" | grep -q ' check=ok ' || bad "$dt 127 255 63 $flags: $line" ;;
		esac
		case $flags in  # the API timed: the one asked for; cuBLASLt alone with an epilogue
		*--api=gemmex*) want=gemmex ;;
		*--api=lt* | *--epilogue*) want=lt ;;
		*) want='\(gemmex\|lt\)' ;;
		esac
		echo "$line" | grep -q " api=$want " || bad "$dt 127 255 63 $flags: not api=$want: $line"
	done
	if [ $dt = f16 ] || [ $dt = bf16 ]; then
		n=$((n + 1))
		line=$("$h" --out=f32 --epilogue=relu --a=col $dt 127 255 63 3 2>&1)
		echo "$line" | grep -q " out=f32 .* check=ok " || bad "$dt --out=f32: $line"
	fi
done
[ $fail -eq 0 ] && echo "ok: kgen-cublas refusals, and $n GEMMs checked against the host"
exit $fail
