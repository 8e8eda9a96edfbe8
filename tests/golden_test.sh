#!/bin/sh
# golden_test.sh [--update]
#
# For every spec under $top_srcdir/specs (but specs/plans: size plans and
# their spaces, which tests/cli_test.sh checks), generate the kernel with
# $top_builddir/kgen and compare it byte for byte with
# $top_srcdir/tests/golden/<path under specs, '/' as '__', .cu>; also check
# that generating twice gives the same bytes and that no golden file is
# left without its spec.  With --update (`make golden`), rewrite the golden
# files instead of comparing.
set -u
: "${top_srcdir:=.}" "${top_builddir:=.}"
kgen=$top_builddir/kgen
golden=$top_srcdir/tests/golden
update=no
[ "${1-}" = --update ] && update=yes

tmp=$(mktemp -d "${TMPDIR:-/tmp}/kgen-golden.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
specs=$(cd "$top_srcdir" && find specs -name '*.yaml' -not -path 'specs/plans/*' | LC_ALL=C sort)
[ -n "$specs" ] || { echo "no specs under $top_srcdir/specs" >&2; exit 99; }

fail=0
: > "$tmp/expected"
for spec in $specs; do
	name=$(printf '%s\n' "${spec#specs/}" | sed 's|/|__|g; s|\.yaml$|.cu|')
	echo "$name" >> "$tmp/expected"
	if ! "$kgen" "$top_srcdir/$spec" -o "$tmp/$name"; then
		echo "FAIL: $spec: kgen failed" >&2
		fail=1
		continue
	fi
	if ! "$kgen" "$top_srcdir/$spec" > "$tmp/again" || ! cmp -s "$tmp/$name" "$tmp/again"; then
		echo "FAIL: $spec: two runs give different output" >&2
		diff -u "$tmp/$name" "$tmp/again" >&2
		fail=1
	fi
	if [ $update = yes ]; then
		if ! cmp -s "$tmp/$name" "$golden/$name"; then
			mkdir -p "$golden" && cp "$tmp/$name" "$golden/$name" || exit 99
			echo "updated $golden/$name"
		fi
	elif [ ! -f "$golden/$name" ]; then
		echo "FAIL: $spec: no golden file $golden/$name (run 'make golden')" >&2
		fail=1
	elif ! cmp -s "$golden/$name" "$tmp/$name"; then
		echo "FAIL: $spec: output differs from $golden/$name (if intended, run 'make golden'):" >&2
		diff -u "$golden/$name" "$tmp/$name" >&2
		fail=1
	else
		echo "ok: $spec"
	fi
done

# Golden files whose spec is gone.
for f in "$golden"/*.cu; do
	[ -f "$f" ] || continue
	if ! grep -qxF "${f##*/}" "$tmp/expected"; then
		if [ $update = yes ]; then
			rm -f "$f" && echo "removed $f (no spec)"
		else
			echo "FAIL: $f has no spec under specs/" >&2
			fail=1
		fi
	fi
done
exit $fail
