#!/bin/sh
# configure_test.sh: kgen-cub and kgen-cublas (the peers of kgen run
# --bench, built by nvcc) are built by default only where they can run:
# without an NVIDIA driver (kgen_cv_nvidia_driver=no) configure builds
# neither and says how to ask for them; with one (=yes) and nvcc it builds
# them; --enable-cub-helper builds them without a driver, and without nvcc
# it is an error that names nvcc; --disable-cub-helper builds neither (and
# says so); --with-cuda=DIR that is no toolkit's root (no such folder, no
# include/nvrtc.h) is an error, even where the compiler's own paths hold
# nvrtc.h.  Each configure runs in a scratch copy of what configure reads
# (configure, its inputs and build-aux/), since a configured source tree
# refuses a second, VPATH, configure; they share a cache file (-C), so that
# only the first runs every check, and create no files (--no-create: what
# is checked is in config.log and the output).
set -u
: "${top_srcdir:=.}"
src=$(cd "$top_srcdir" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kgen-configure.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*" >&2; fail=1; }

for d in tree nonvcc nocuda; do
	mkdir -p "$tmp/$d/gen" "$tmp/$d/build-aux"
	cp "$src/configure" "$src/Makefile.in" "$src/config.h.in" "$src/kgen.pc.in" "$tmp/$d/" &&
		cp "$src/gen/spec.c" "$tmp/$d/gen/" && cp "$src"/build-aux/* "$tmp/$d/build-aux/" || exit 99
done
# conf NAME ARGS...: ./configure -C ARGS in the copy, its output in $tmp/NAME.out,
# its config.log in $tmp/NAME.log; 1 when it failed.
conf() {
	name=$1
	shift
	(cd "$tmp/tree" && ./configure -C --no-create "$@" > "$tmp/$name.out" 2>&1)
	st=$?
	cp "$tmp/tree/config.log" "$tmp/$name.log"
	[ $st -eq 0 ] || { cat "$tmp/$name.out" >&2; bad "configure $* failed"; }
}
built() { grep -q "^HAVE_NVCC_TRUE=''" "$tmp/$1.log"; }
conf off --disable-cub-helper
built off && bad "configure --disable-cub-helper still builds kgen-cub"
grep -q '^HAVE_CUBLAS_TRUE=.#' "$tmp/off.log" || bad "configure --disable-cub-helper still builds kgen-cublas"
grep -q 'kgen-cub and kgen-cublas not built (--disable-cub-helper)' "$tmp/off.out" ||
	bad "configure --disable-cub-helper does not say that kgen-cublas is skipped too"
# The default on a machine without a GPU (README's first block on CI).
conf nodriver kgen_cv_nvidia_driver=no
built nodriver && bad "configure without an NVIDIA driver builds kgen-cub"
grep -q '^HAVE_CUBLAS_TRUE=.#' "$tmp/nodriver.log" || bad "configure without an NVIDIA driver builds kgen-cublas"
grep -q 'no NVIDIA driver here: .* not built (./configure --enable-cub-helper builds them with nvcc)' "$tmp/nodriver.out" ||
	bad "configure without an NVIDIA driver does not say how to build the peers: $(cat "$tmp/nodriver.out")"
grep -q 'checking for an NVIDIA GPU driver... (cached) no' "$tmp/nodriver.out" ||
	bad "configure did not take kgen_cv_nvidia_driver=no"
# The cache so far knows no nvcc, for the copy without one (below).
cp "$tmp/tree/config.cache" "$tmp/nonvcc/config.cache" || exit 99
# Where nvcc is: the default with a driver, and --enable-cub-helper without one, build them.
if grep -q "^ac_cv_path_NVCC=/" "$tmp/nodriver.log" || command -v nvcc > /dev/null 2>&1 ||
	[ -x "$(sed -n "s/^cuda_dir='\(.*\)'$/\1/p" "$tmp/off.log" | head -1)/bin/nvcc" ]; then
	conf driver kgen_cv_nvidia_driver=yes
	built driver || bad "configure with an NVIDIA driver and nvcc does not build kgen-cub"
	conf enabled --enable-cub-helper kgen_cv_nvidia_driver=no
	built enabled || bad "configure --enable-cub-helper does not build kgen-cub"
else
	echo "SKIP (in part): no nvcc, so nothing to build the peers with"
fi
# A CUDA root given must be one (nvrtc.h on the compiler's own paths does not
# stand for it): a missing folder, and a folder without include/nvrtc.h.
(cd "$tmp/nocuda" && ./configure --with-cuda="$tmp/nonexistent" --disable-cub-helper > out 2>&1) &&
	bad "configure --with-cuda=NONEXISTENT succeeded"
grep -q "error: --with-cuda=$tmp/nonexistent: no such directory" "$tmp/nocuda/out" ||
	bad "configure --with-cuda=NONEXISTENT: $(tail -3 "$tmp/nocuda/out")"
mkdir -p "$tmp/empty"
(cd "$tmp/nocuda" && ./configure --with-cuda="$tmp/empty" --disable-cub-helper > out 2>&1) &&
	bad "configure --with-cuda=EMPTY succeeded"
grep -q "error: --with-cuda=$tmp/empty: no include/nvrtc.h there" "$tmp/nocuda/out" ||
	bad "configure --with-cuda=EMPTY: $(tail -3 "$tmp/nocuda/out")"
# No nvcc anywhere: a CUDA root of the toolkit's headers and libraries but
# no bin/, and a PATH without nvcc.  Asking for the helper is an error.
cuda=$(sed -n "s/^cuda_dir='\(.*\)'$/\1/p" "$tmp/off.log" | head -1)
[ -d "$cuda/include" ] || { echo "SKIP: no CUDA root in config.log"; exit 77; }
mkdir -p "$tmp/cuda"
for d in include lib64 lib targets; do
	[ -e "$cuda/$d" ] && ln -s "$cuda/$d" "$tmp/cuda/$d"
done
path=
old_ifs=$IFS
IFS=:
for d in $PATH; do
	[ -x "$d/nvcc" ] || path=${path:+$path:}$d
done
IFS=$old_ifs
(cd "$tmp/nonvcc" && PATH="$path" ./configure -C --no-create --with-cuda="$tmp/cuda" --enable-cub-helper > out 2>&1)
grep -q 'error: --enable-cub-helper: nvcc not found' "$tmp/nonvcc/out" ||
	bad "configure --enable-cub-helper without nvcc: $(tail -3 "$tmp/nonvcc/out")"
[ $fail -eq 0 ] && echo "ok: kgen-cub and kgen-cublas built by default only with an NVIDIA driver; --enable-cub-helper builds them and needs nvcc; --disable-cub-helper skips them; --with-cuda=DIR must be a toolkit's root"
exit $fail
