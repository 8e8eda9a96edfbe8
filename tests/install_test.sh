#!/bin/sh
# install_test.sh: `make install` (into a scratch DESTDIR) installs the
# program, the library and its header, the man page, bash completion, the docs (README and
# docs/*.md in $(docdir)) and, where configure found python3, the Python
# package (every module, py.typed, the tuned plans and the best matmul
# specs) told where libkgen went (kgen/_installed.py); the installed
# package imports, finds the library and takes its own best matmul specs.
set -u
: "${top_srcdir:=.}" "${top_builddir:=.}"
make=${MAKE:-make}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kgen-install.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*" >&2; fail=1; }

if ! $make -s -C "$top_builddir" install DESTDIR="$tmp" > "$tmp/log" 2>&1; then
	cat "$tmp/log" >&2
	echo "FAIL: make install exited non-zero" >&2
	exit 1
fi
# Where the Makefile puts things (make print-dirs: NAME='value' lines).
$make -s --no-print-directory -C "$top_builddir" print-dirs > "$tmp/dirs" 2>/dev/null || { echo "FAIL: make print-dirs" >&2; exit 99; }
bindir= libdir= docdir= mandir= includedir= pythondir= bashcompletiondir= python_package= plansdir=
. "$tmp/dirs"
[ -n "$bindir" ] && [ -n "$docdir" ] || { echo "FAIL: make print-dirs gave nothing" >&2; exit 99; }

for f in "$bindir/kgen" "$libdir/libkgen.so" "$includedir/kgen.h" "$mandir/man1/kgen.1" \
	"$bashcompletiondir/kgen" "$docdir/README.md" "$docdir/spec.md" "$docdir/api.md" "$docdir/python.md" "$docdir/families.md"; do
	[ -e "$tmp$f" ] || bad "make install did not install $f"
done
# The shipped plans where kgen run shipped:OP-DTYPE and kgen_plan_shipped_path() look.
for f in $(cd "$top_srcdir/specs/plans" && ls -- */*-*.yaml); do
	[ -f "$tmp$plansdir/$f" ] || bad "make install did not install $plansdir/$f"
done
if [ "$python_package" = yes ]; then
	# Every module of the package, py.typed, the tuned plans full reductions
	# take and the best specs kgen.matmul takes.
	for f in $(cd "$top_srcdir/python/kgen" && ls -- *.py) py.typed _installed.py \
		$(cd "$top_srcdir/specs/plans" && ls -- */*-*.yaml | sed 's|^|plans/|') \
		$(cd "$top_srcdir/specs/matmul/best" && ls -- *.yaml | sed 's|^|specs/matmul/|'); do
		[ -f "$tmp$pythondir/kgen/$f" ] || bad "make install did not install $pythondir/kgen/$f"
	done
	grep -qx "libdir = '$libdir'" "$tmp$pythondir/kgen/_installed.py" ||
		bad "kgen/_installed.py does not name $libdir: $(cat "$tmp$pythondir/kgen/_installed.py")"
	# The installed package, pointed at the staged library, imports, and
	# kgen.matmul takes the best specs installed with it.
	if command -v python3 > /dev/null; then
		. "$top_srcdir/tests/asan_preload.sh"
		PYTHONPATH="$tmp$pythondir" KGEN_LIBRARY="$tmp$libdir/libkgen.so" python3 -c '
import kgen, kgen._installed, sys
from kgen import _matmul
if not kgen.__file__.startswith(sys.argv[1]):
    sys.exit("imported " + kgen.__file__)
best = _matmul._default_matmul("f16", (8, 0), "row", "row")[0]
sys.exit(0 if best and best.startswith(sys.argv[1]) else "kgen.matmul takes %s" % best)' "$tmp" ||
			bad "the installed Python package does not import, or does not take its own best matmul specs"
	fi
else
	echo "note: configure found no python3; the Python package is not installed"
fi
[ $fail -eq 0 ] && echo "ok: make install installs the program, library, man page, docs and Python package"
exit $fail
