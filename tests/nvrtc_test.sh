#!/bin/sh
# nvrtc_test.sh: every spec under $top_srcdir/specs (but the size plans and
# spaces of specs/plans, which tests/cli_test.sh checks) compiles with NVRTC
# (no GPU needed) for sm_90, to a cubin and to PTX, and NVRTC prints
# nothing: kgen compile writes the NVRTC log to stderr, so an empty stderr
# means no warning.
set -u
: "${top_srcdir:=.}" "${top_builddir:=.}"
kgen=$top_builddir/kgen

tmp=$(mktemp -d "${TMPDIR:-/tmp}/kgen-nvrtc.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
specs=$(cd "$top_srcdir" && find specs -name '*.yaml' -not -path 'specs/plans/*' | LC_ALL=C sort)
[ -n "$specs" ] || { echo "no specs under $top_srcdir/specs" >&2; exit 99; }

fail=0
bad() { echo "FAIL: $*" >&2; fail=1; spec_ok=no; }

for spec in $specs; do
	s=$top_srcdir/$spec
	spec_ok=yes
	rm -f "$tmp/k.cubin" "$tmp/k.ptx"

	"$kgen" compile "$s" --arch sm_90 -o "$tmp/k.cubin" 2> "$tmp/err"
	rc=$?
	[ $rc -eq 0 ] || bad "$spec: compile --cubin exited $rc"
	[ -s "$tmp/err" ] && { bad "$spec: compile --cubin wrote to stderr:"; cat "$tmp/err" >&2; }
	magic=$(od -An -c -N4 "$tmp/k.cubin" 2>/dev/null | tr -d ' ')
	[ "$magic" = '177ELF' ] || bad "$spec: the cubin is not an ELF file"

	"$kgen" compile "$s" --arch sm_90 --ptx -o "$tmp/k.ptx" 2> "$tmp/err"
	rc=$?
	[ $rc -eq 0 ] || bad "$spec: compile --ptx exited $rc"
	[ -s "$tmp/err" ] && { bad "$spec: compile --ptx wrote to stderr:"; cat "$tmp/err" >&2; }
	grep -q '^\.target sm_90$' "$tmp/k.ptx" || bad "$spec: the PTX does not target sm_90"
	# One .entry per extern "C" __global__ function of the source.
	"$kgen" "$s" > "$tmp/k.cu" || bad "$spec: kgen failed"
	want=$(grep -c '__global__' "$tmp/k.cu")
	got=$(grep -c '\.entry ' "$tmp/k.ptx")
	[ "$want" -gt 0 ] && [ "$want" -eq "$got" ] || bad "$spec: $want kernels in the source, $got in the PTX"
	[ $spec_ok = yes ] && echo "ok: $spec"
done
exit $fail
