#!/bin/sh
# pip_install_test.sh: `python3 -m pip install ./python` alone gives a working
# package (issue 24): the wheel's build (python/setup.py) builds libkgen from
# the source tree and ships it inside the package (kgen/libkgen.so) with the
# tuned plans and the best matmul specs (kgen/specs/matmul/, which
# kgen.matmul takes from there), so the installed package imports with no
# KGEN_LIBRARY and no `make install`, its version is configure.ac's AC_INIT, and it generates
# and compiles with NVRTC, with kgen._fast built in where Python.h is; and
# so does the sdist's (which carries the C sources as kgen-src/).  A copy of python/ is built, told where the tree is
# by KGEN_SOURCE_DIR (the tree may be read-only, as under distcheck), in a
# venv that sees the system's setuptools and wheel (--system-site-packages,
# --no-build-isolation: no network).  Both wheels ship the libkgen that
# `make` built ($top_builddir/.libs/libkgen.so, through setup.py's
# KGEN_PREBUILT_LIBKGEN): the packaging is what is tested here, and a build
# of the library is `make`'s.  PIP_TEST_BUILD=yes (`make check-full`, or a
# tree without a shared libkgen) builds libkgen in each instead, as pip
# does for a user: two configure + libkgen builds, with CFLAGS=-O0
# (configure takes the environment's; -O0 builds the library in a third of
# -O2's time).  Skips (77) without a python3 with venv, pip, setuptools >=
# 61 and wheel.
set -u
: "${top_srcdir:=.}" "${top_builddir:=.}"
src=$(cd "$top_srcdir" && pwd) || exit 99
built=$(cd "$top_builddir" && pwd)/.libs/libkgen.so
py=
for c in ${PYTHON:-} python3 /usr/bin/python3; do
	if command -v "$c" > /dev/null 2>&1 && "$c" -c '
import sys, venv, ensurepip, setuptools, wheel
sys.exit(int(setuptools.__version__.split(".")[0]) < 61)' 2> /dev/null; then
		py=$c
		break
	fi
done
if [ -z "$py" ]; then
	echo "SKIP: no python3 with venv, ensurepip, setuptools >= 61 and wheel"
	exit 77
fi
CFLAGS=${PIP_TEST_CFLAGS:--O0}
export CFLAGS
# The sanitizer build's libkgen (make check-sanitize) needs the ASan runtime
# loaded first, which the installed package is not run with: build one there.
if [ "${PIP_TEST_BUILD:-no}" != yes ] && [ -f "$built" ] && [ -z "${KGEN_ASAN_PRELOAD:-}" ]; then
	KGEN_PREBUILT_LIBKGEN=$built
	export KGEN_PREBUILT_LIBKGEN
	how="ships the libkgen make built"
else
	unset KGEN_PREBUILT_LIBKGEN
	how="builds libkgen"
fi
# A venv that sees the system's packages; where the system's python has pip,
# the venv uses it (--without-pip: ensurepip's copy takes 4 s a venv).
venv_opt=
"$py" -c 'import pip' 2> /dev/null && venv_opt=--without-pip
mkvenv() { "$py" -m venv --system-site-packages $venv_opt "$1"; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kgen-pip.XXXXXX") || exit 99
trap 'chmod -R u+w "$tmp" 2> /dev/null; rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*" >&2; fail=1; }
want=$(sed -n 's/^AC_INIT(\[kgen\], *\[\([^]]*\)\].*/\1/p' "$src/configure.ac")

# The installed package, from a directory outside both trees, with no library path set.
check_installed() {
	(cd "$tmp" && env -u KGEN_LIBRARY -u PYTHONPATH "$1/bin/python" -c '
import importlib.metadata, os, sys
import kgen
here = os.path.dirname(kgen.__file__)
assert kgen.library_path == os.path.join(here, "libkgen.so"), kgen.library_path
assert kgen.__version__ == importlib.metadata.version("kgen") == sys.argv[1], (kgen.__version__, sys.argv[1])
assert os.path.isfile(os.path.join(here, "py.typed"))
plans = sorted(g + "/" + f for g in os.listdir(os.path.join(here, "plans")) for f in os.listdir(os.path.join(here, "plans", g)))
assert plans == sorted(sys.argv[2].split()), plans
# The defaults of kgen.matmul, found in the package (no source tree around it).
from kgen import _matmul
best = os.path.join(here, "specs", "matmul")
assert sorted(os.listdir(best)) == sorted(sys.argv[3].split()), os.listdir(best)
assert _matmul._default_matmul("bf16", (9, 0), "row", "row")[0] == os.path.join(best, "wgmma_bf16.yaml")
assert "reduce_argmax_f32" in kgen.generate({"kernel": "reduce", "op": "argmax"})
assert kgen.compile({"kernel": "transpose"})[:4] == b"\x7fELF"
# kgen._fast (kgen/_fast.c) is built into the package where this Python has its headers.
import sysconfig
from kgen import _lib
if sys.version_info >= (3, 9) and os.path.isfile(os.path.join(sysconfig.get_paths()["include"], "Python.h")):
    assert _lib.fast is not None and os.path.dirname(_lib.fast_where) == here, _lib.fast_where
' "$want" "$(cd "$src/specs/plans" && ls -- */*-*.yaml | tr '\n' ' ')" \
		"$(cd "$src/specs/matmul/best" && ls -- *.yaml | tr '\n' ' ')") || bad "$2"
}

mkdir "$tmp/python" && cp -R "$src/python/kgen" "$src/python/setup.py" "$src/python/pyproject.toml" \
	"$src/python/README.md" "$tmp/python/" && chmod -R u+w "$tmp/python" && rm -f "$tmp/python/kgen/libkgen.so" || exit 99
mkvenv "$tmp/venv" || exit 99
if ! KGEN_SOURCE_DIR=$src "$tmp/venv/bin/python" -m pip install -q --no-build-isolation --no-deps "$tmp/python" \
	> "$tmp/log" 2>&1; then
	cat "$tmp/log" >&2
	bad "pip install ./python failed"
else
	check_installed "$tmp/venv" "the package pip installed from ./python does not work on its own"
fi

# The sdist carries the C sources, plans and best matmul specs; its wheel needs no tree around it.
(cd "$tmp/python" && KGEN_SOURCE_DIR=$src "$tmp/venv/bin/python" setup.py -q sdist -d "$tmp/dist" > "$tmp/log" 2>&1) ||
	{ cat "$tmp/log" >&2; bad "setup.py sdist failed"; }
sdist=$(ls "$tmp"/dist/kgen-*.tar.gz 2> /dev/null | head -1)
if [ -n "$sdist" ]; then
	tar -tzf "$sdist" | grep -q '^kgen-[^/]*/kgen-src/configure\.ac$' || bad "the sdist carries no kgen-src/configure.ac"
	mkvenv "$tmp/venv2" || exit 99
	if ! (cd "$tmp" && "$tmp/venv2/bin/python" -m pip install -q --no-build-isolation --no-deps "$sdist" \
		> "$tmp/log" 2>&1); then
		cat "$tmp/log" >&2
		bad "pip install of the sdist failed"
	else
		check_installed "$tmp/venv2" "the package pip installed from the sdist does not work on its own"
	fi
fi
[ $fail -eq 0 ] && echo "ok: pip install ./python (and its sdist) $how into a working package, version $want"
exit $fail
