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
status=0
"$b/tests/multi_test" || status=1
exit $status
