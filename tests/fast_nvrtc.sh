# Sourced by the tests whose kernels go to the fake driver (tests/fake_cuda),
# which loads a module and runs nothing: their kernels' code is never
# executed, so they are compiled at NVRTC's fastest level, -Ofc=max, a
# third of the time (the matmuls' an eighth).  The code itself is checked
# at full optimisation by tests/nvrtc_test.sh (every shipped spec's cubin)
# and tests/sample_test (the sample's sm_90a specs; the rest at -Ofc=max
# too), and run on a GPU by tests/gpu_verify.sh.
# Sets fast_nvrtc to -Ofc=max where this NVRTC takes it (12.8 and later)
# and the caller set no KGEN_NVRTC_OPTIONS of their own (then every compile
# takes theirs), else to nothing; then exports KGEN_NVRTC_OPTIONS=$fast_nvrtc,
# unless the caller set fast_nvrtc_only (only asks, to pass it to one command).
# Needs b (the build directory) and top_srcdir.
fast_nvrtc=
if [ -z "${KGEN_NVRTC_OPTIONS+set}" ] &&
   KGEN_NVRTC_OPTIONS=-Ofc=max "$b/kgen" compile "$top_srcdir/specs/reduce_vec4.yaml" --arch sm_90 -o /dev/null \
	> /dev/null 2>&1; then
	fast_nvrtc=-Ofc=max
fi
if [ -n "$fast_nvrtc" ] && [ -z "${fast_nvrtc_only:-}" ]; then
	KGEN_NVRTC_OPTIONS=$fast_nvrtc
	export KGEN_NVRTC_OPTIONS
fi
