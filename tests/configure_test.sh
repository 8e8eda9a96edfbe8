#!/bin/sh
# configure_test.sh: ./configure --disable-cub-helper builds no kgen-cub and
# no kgen-cublas
# (and says so), whether or not nvcc is there; --enable-cub-helper without
# nvcc is an error that names nvcc; --with-cuda=DIR that is no toolkit's
# root (no such folder, no include/nvrtc.h) is an error, even where the
# compiler's own paths hold nvrtc.h.  Each configure runs in a scratch copy
# of what configure reads (configure, its inputs and build-aux/), since a
# configured source tree refuses a second, VPATH, configure.
set -u
: "${top_srcdir:=.}"
src=$(cd "$top_srcdir" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kgen-configure.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*" >&2; fail=1; }

for d in off nonvcc nocuda; do
	mkdir -p "$tmp/$d/gen" "$tmp/$d/build-aux"
	cp "$src/configure" "$src/Makefile.in" "$src/config.h.in" "$src/kgen.pc.in" "$tmp/$d/" &&
		cp "$src/gen/spec.c" "$tmp/$d/gen/" && cp "$src"/build-aux/* "$tmp/$d/build-aux/" || exit 99
done
(cd "$tmp/off" && ./configure --disable-cub-helper > out 2>&1) || { cat "$tmp/off/out" >&2; bad "configure --disable-cub-helper failed"; }
grep -q '^HAVE_NVCC_TRUE=.#' "$tmp/off/config.log" || bad "configure --disable-cub-helper still builds kgen-cub"
grep -q '^HAVE_CUBLAS_TRUE=.#' "$tmp/off/config.log" || bad "configure --disable-cub-helper still builds kgen-cublas"
grep -q 'kgen-cub and kgen-cublas not built (--disable-cub-helper)' "$tmp/off/out" ||
	bad "configure --disable-cub-helper does not say that kgen-cublas is skipped too"
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
cuda=$(sed -n "s/^cuda_dir='\(.*\)'$/\1/p" "$tmp/off/config.log" | head -1)
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
(cd "$tmp/nonvcc" && PATH="$path" ./configure --with-cuda="$tmp/cuda" --enable-cub-helper > out 2>&1)
grep -q 'error: --enable-cub-helper: nvcc not found' "$tmp/nonvcc/out" ||
	bad "configure --enable-cub-helper without nvcc: $(tail -3 "$tmp/nonvcc/out")"
[ $fail -eq 0 ] && echo "ok: --disable-cub-helper skips kgen-cub and kgen-cublas; --enable-cub-helper needs nvcc;" \
	"--with-cuda=DIR must be a toolkit's root"
exit $fail
