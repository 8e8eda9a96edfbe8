#!/bin/sh
# jit-phases.sh [--fake] [JIT_PHASES OPTIONS]: bench/jit/jit_phases on every
# shipped spec (specs/**/*.yaml but the spaces, *.space.yaml; a size plan's
# entries one by one), with the NVRTC floor measured in the same process.
# Run from the build directory.  --fake: against the fake CUDA driver
# (tests/fake_cuda/libcuda.so.1, built by `make check`), on a machine
# without a GPU: every NVRTC figure is real, module loads are not.
# NVRTC 12.9 and later, once a CUDA driver is loaded, keeps compiled
# programs in the driver's cache (CUDA_CACHE_PATH, default ~/.nv): unless
# CUDA_CACHE_PATH is set, it is pointed at a new empty directory, so that a
# cold build is one NVRTC has not seen either.  The first lines say when,
# where and with what it ran.
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
fake=
if [ "${1-}" = --fake ]; then
	fake=tests/fake_cuda
	shift
	[ -f "$fake/libcuda.so.1" ] || { echo "jit-phases.sh: no $fake/libcuda.so.1: run make check first" >&2; exit 2; }
	LD_LIBRARY_PATH=$fake${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
	export LD_LIBRARY_PATH
fi
make -s bench/jit/jit_phases >&2 || exit 1
if [ -z "${CUDA_CACHE_PATH-}" ]; then
	CUDA_CACHE_PATH=$(mktemp -d "${TMPDIR:-/tmp}/kgen-jit-phases-nv.XXXXXX") || exit 1
	export CUDA_CACHE_PATH
	trap 'rm -rf "$CUDA_CACHE_PATH"' EXIT
fi
# The specs as paths from here (./specs/... in the source tree).
rel=$(realpath --relative-to=. "$top_srcdir" 2>/dev/null || echo "$top_srcdir")
specs=$(cd "$top_srcdir" && find specs -name '*.yaml' ! -name '*.space.yaml' | LC_ALL=C sort | sed "s|^|$rel/|")
commit=$(git -C "$top_srcdir" rev-parse --short HEAD 2>/dev/null || echo unknown)
dirty=$(git -C "$top_srcdir" status --porcelain --untracked-files=no 2>/dev/null | head -1)
echo "# $(date -u '+%F %H:%M UTC'), commit $commit${dirty:+ (with uncommitted changes)}, $(uname -n)," \
	"$(nproc) cores: $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')${fake:+; fake CUDA driver: module loads are not real}"
echo "# bench/jit/jit-phases.sh${fake:+ --fake} $*; CUDA_CACHE_PATH=$CUDA_CACHE_PATH"
./bench/jit/jit_phases "$@" $specs
