# Sourced by the tests whose kernels go to the fake driver (tests/fake_cuda),
# which loads a module and runs nothing: their kernels' code is never
# executed, so they are compiled at ptxas's fastest level, -Ofc=max, a
# third of the time (the matmuls' an eighth).  The code itself is checked
# at full optimisation by tests/nvrtc_test.sh (every shipped spec) and
# tests/sample_test (the sample's sm_90a specs; the rest at -Ofc=max too),
# and run on a GPU by tests/gpu_verify.sh.  Left alone where the caller set
# KGEN_NVRTC_OPTIONS, or where this NVRTC does not take -Ofc (before 12.8).
# Needs b (the build directory) and top_srcdir.
if [ -z "${KGEN_NVRTC_OPTIONS+set}" ] &&
   KGEN_NVRTC_OPTIONS=-Ofc=max "$b/kgen" compile "$top_srcdir/specs/reduce_vec4.yaml" --arch sm_90 -o /dev/null \
	> /dev/null 2>&1; then
	KGEN_NVRTC_OPTIONS=-Ofc=max
	export KGEN_NVRTC_OPTIONS
fi
