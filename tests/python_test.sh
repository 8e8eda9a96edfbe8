#!/bin/sh
# The Python package's tests (python/tests) with pytest, against the libkgen
# just built: the CPU tests everywhere, the GPU tests where torch sees a GPU
# (they skip themselves otherwise, and say so); then the test_fake_*.py
# files again against the fake driver, and test_toy.py against the fake
# driver and the toy family's libkgen (tests/toy/libkgen-toy.so).  Skips
# (exit 77) without a Python that has pytest, or without a shared libkgen
# (--disable-shared).
top_srcdir=${top_srcdir:-.}
builddir=${top_builddir:-.}
lib=$builddir/.libs/libkgen.so
py=
for c in ${PYTHON:-} python3 /usr/bin/python3; do
	if command -v "$c" >/dev/null 2>&1 && "$c" -c 'import pytest' 2>/dev/null; then
		py=$c
		break
	fi
done
if [ -z "$py" ]; then
	echo "SKIP: no python3 with pytest (apt-get install python3-pytest, or pip install pytest)"
	exit 77
fi
if [ ! -f "$lib" ]; then
	echo "SKIP: no shared libkgen at $lib"
	exit 77
fi
export KGEN_LIBRARY=$lib KGEN_TOP_SRCDIR=$top_srcdir KGEN=$builddir/kgen PYTHONDONTWRITEBYTECODE=1 \
	PYTHONPATH=$top_srcdir/python${PYTHONPATH:+:$PYTHONPATH}
. "$top_srcdir/tests/asan_preload.sh"
status=0
"$py" -m pytest -q -rs -p no:cacheprovider "$top_srcdir/python/tests" || status=1
# The calls' host side against the fake driver (tests/fake_cuda): what
# reaches the driver, scratch, captures, DLPack, plans (test_fake_*.py; the
# run above skipped them).  No disk cache: kernels compile in a scratch one.
# Four fake GPUs and the fake NCCL (tests/fake_nccl) for the lists of
# arrays on several GPUs (test_fake_multi.py).
fake=$builddir/tests/fake_cuda
if [ -f "$fake/libcuda.so.1" ]; then
	b=$builddir fast_nvrtc_only=1
	. "$top_srcdir/tests/fast_nvrtc.sh"  # -Ofc=max for this run alone: the kernels run nowhere
	cache=$(mktemp -d "${TMPDIR:-/tmp}/kgen-pyfake.XXXXXX") || exit 99
	env ${fast_nvrtc:+"KGEN_NVRTC_OPTIONS=$fast_nvrtc"} \
		LD_LIBRARY_PATH=$fake:$builddir/tests/fake_nccl${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} KGEN_CACHE_DIR=$cache \
		FAKE_CUDA_DEVICES=4 \
		"$py" -m pytest -q -rs -p no:cacheprovider "$top_srcdir"/python/tests/test_fake_*.py || status=1
	# The toy family (tests/toy/) through the package: its libkgen, built
	# with the toy's table rows and kgen_scale() (python/tests/test_toy.py).
	toy=$builddir/tests/toy/.libs/libkgen-toy.so
	if [ -f "$toy" ]; then
		env ${fast_nvrtc:+"KGEN_NVRTC_OPTIONS=$fast_nvrtc"} KGEN_LIBRARY=$toy \
			LD_LIBRARY_PATH=$fake${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} KGEN_CACHE_DIR=$cache \
			"$py" -m pytest -q -rs -p no:cacheprovider "$top_srcdir/python/tests/test_toy.py" || status=1
	else
		echo "SKIP: the toy family's Python test (no $toy built)"
	fi
	rm -rf "$cache"
else
	echo "SKIP: the fake driver tests (no tests/fake_cuda/libcuda.so.1 built)"
fi
exit $status
