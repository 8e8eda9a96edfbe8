#!/bin/sh
# kgen_multi_* and `kgen run --devices` without GPUs: the fake driver
# (tests/fake_cuda/, FAKE_CUDA_DEVICES GPUs) and the fake NCCL
# (tests/fake_nccl/libnccl.so.2) first on LD_LIBRARY_PATH.  tests/multi_test
# checks the library (tests/multi_test.c says what the fakes can and cannot
# show); the CLI must refuse what it cannot split, report a missing NCCL,
# and run (nothing verifies: kernels do not run) without crashing.
b=${top_builddir:-.}
top_srcdir=${top_srcdir:-.}
if [ ! -f "$b/tests/fake_cuda/libcuda.so.1" ] || [ ! -f "$b/tests/fake_nccl/libnccl.so.2" ]; then
	echo "SKIP: no fake driver or NCCL built"
	exit 77
fi
LD_LIBRARY_PATH=$b/tests/fake_cuda:$b/tests/fake_nccl${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
FAKE_CUDA_DEVICES=4
export LD_LIBRARY_PATH FAKE_CUDA_DEVICES KGEN_CACHE=0
. "$top_srcdir/tests/fast_nvrtc.sh"
status=0
"$b/tests/multi_test" || status=1
specs=$top_srcdir/specs
# expect WHAT STATUS TEXT ARGS...: kgen run ARGS exits STATUS and says TEXT.
expect() {
	what=$1 want=$2 text=$3
	shift 3
	out=$("$b/kgen" run "$@" 2>&1)
	rc=$?
	if [ $rc -ne "$want" ] || ! printf '%s\n' "$out" | grep -qF -- "$text"; then
		echo "FAIL: kgen run $what: exit $rc (expected $want and '$text'):"
		echo "$out"
		status=1
	fi
}
# The fakes run no kernel: every result is wrong (exit 6), every line there.
expect "--devices 0,1 (reduce)" 6 " at -1, expected " \
	--devices 0,1 --n 1000 "$specs/reduce_vec4.yaml" "$specs/reduce/ops/argmax-f32.yaml"
expect "--devices 0,1,2 (columns)" 6 "3x(100x33)" --devices 0,1,2 --shape 100x33 "$specs/reduce_axis/best/cols.yaml"
expect "--devices --set op=argmax (columns)" 6 "GPU 0 column 0: got" --devices 0,1 --shape 10x7 --set op=argmax \
	"$specs/reduce_axis/best/cols.yaml"
expect "--devices --bench" 0 "multi/alone" --devices 0,1 --bench --runs 3 --n 1000 "$specs/reduce_vec4.yaml"
expect "--devices with a transpose" 2 \
	"error: --devices: a kernel: transpose spec: only reduce and reduce_axis (axis: cols) kernels run over several GPUs" \
	--devices 0,1 "$specs/transpose/best.yaml"
expect "--devices with axis: rows" 2 \
	"error: --devices: a kernel: reduce_axis spec: a reduce_axis over several GPUs needs axis: cols (each GPU holds a block of rows)" \
	--devices 0,1 "$specs/reduce_axis/best/rows.yaml"
expect "--devices 0,0" 2 "kgen_multi_create: device 0 is listed twice (at 0 and 1)" --devices 0,0 "$specs/reduce_vec4.yaml"
expect "--devices 0,9" 5 "no GPU number 9: this machine has 4" --devices 0,9 "$specs/reduce_vec4.yaml"
expect "--devices 0,x" 2 "--devices 0,x: a list of GPU numbers" --devices 0,x "$specs/reduce_vec4.yaml"
expect "--devices --tsv" 2 "--devices does not take" --devices 0 --tsv /dev/null "$specs/reduce_vec4.yaml"
KGEN_NCCL_LIBRARY=libnccl-missing.so.2 expect "--devices without NCCL" 5 "no NCCL: dlopen(libnccl-missing.so.2)" \
	--devices 0 "$specs/reduce_vec4.yaml"
exit $status
