#!/bin/sh
# nvrtc_test.sh: every spec under $top_srcdir/specs (but the spaces of
# specs/plans, which tests/cli_test.sh checks), and every entry of the
# shipped size plans (specs/plans/GPU/*.yaml, kgen PLAN --entry N: each
# kernel once, those a spec of specs/ generates too left to that spec),
# compiles with NVRTC (no GPU needed) for sm_90 (sm_90a, the architecture-specific target, for
# the specs whose header says they need it: math: wgmma), to a cubin and to
# PTX, and NVRTC prints nothing: kgen compile writes the NVRTC log to stderr,
# so an empty stderr means no warning.  The cubin of an sm_90a spec is built
# at full optimisation, whose check it needs (only ptxas's optimiser says
# rightly whether it serializes the wgmma; tests/sample_test.c's
# fast_ptxas), the others' and the PTX at -Ofc=max where NVRTC takes it (what
# is checked, NVRTC's silence, the entries and the target, is the same at
# any level); KGEN_SAMPLE_PTXAS=full (`make check-full`) builds every cubin
# at full optimisation.  The specs are checked by one process per core
# (nproc; KGEN_JOBS overrides), each spec by `nvrtc_test.sh --one SPEC`, a
# plan's entry by `nvrtc_test.sh --one PLAN@N`, a spec at another value of a
# key by `nvrtc_test.sh --one SPEC+KEY=VALUE` (kgen --set KEY=VALUE): the
# row specs at their other types, whose strategy: auto lists other kernels
# (f32's blocks to 8192 elements and wide cluster, gen/rows.h).
set -u
: "${top_srcdir:=.}" "${top_builddir:=.}"
kgen=$top_builddir/kgen

# One spec: its checks, in a scratch folder of its own; exit 1 on failure.
if [ "${1:-}" = --one ]; then
	spec=$2
	s=$top_srcdir/${spec%@*}
	entry=  # PLAN@N: the plan's Nth entry; SPEC+KEY=VALUE: the spec with --set KEY=VALUE
	case $spec in
	*@*) entry="--entry ${spec##*@}" ;;
	*+*) s=$top_srcdir/${spec%%+*} entry="--set ${spec#*+}" ;;
	esac
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/kgen-nvrtc.XXXXXX") || exit 99
	trap 'rm -rf "$tmp"' EXIT
	spec_ok=yes
	bad() { echo "FAIL: $*" >&2; spec_ok=no; }

	# shellcheck disable=SC2086
	"$kgen" "$s" $entry > "$tmp/k.cu" || bad "$spec: kgen failed"
	target=sm_90
	grep -q '^// Needs: sm_90a ' "$tmp/k.cu" && target=sm_90a
	cubin_options=$NVRTC_TEST_PTX_OPTIONS
	[ $target = sm_90a ] || [ "${KGEN_SAMPLE_PTXAS:-}" = full ] && cubin_options=
	# shellcheck disable=SC2086
	env ${cubin_options:+"KGEN_NVRTC_OPTIONS=$cubin_options"} \
		"$kgen" compile "$s" $entry --arch sm_90 -o "$tmp/k.cubin" 2> "$tmp/err"
	rc=$?
	[ $rc -eq 0 ] || bad "$spec: compile --cubin exited $rc"
	[ -s "$tmp/err" ] && { bad "$spec: compile --cubin wrote to stderr:"; cat "$tmp/err" >&2; }
	magic=$(od -An -c -N4 "$tmp/k.cubin" 2>/dev/null | tr -d ' ')
	[ "$magic" = '177ELF' ] || bad "$spec: the cubin is not an ELF file"

	# The PTX at NVRTC's fastest level where nvrtc_test.sh found it (what
	# the PTX is checked for, its entries and target, is the same at any).
	# shellcheck disable=SC2086
	env ${NVRTC_TEST_PTX_OPTIONS:+"KGEN_NVRTC_OPTIONS=$NVRTC_TEST_PTX_OPTIONS"} \
		"$kgen" compile "$s" $entry --arch sm_90 --ptx -o "$tmp/k.ptx" 2> "$tmp/err"
	rc=$?
	[ $rc -eq 0 ] || bad "$spec: compile --ptx exited $rc"
	[ -s "$tmp/err" ] && { bad "$spec: compile --ptx wrote to stderr:"; cat "$tmp/err" >&2; }
	# One .entry per extern "C" __global__ function of the source.
	grep -q "^\.target $target\$" "$tmp/k.ptx" || bad "$spec: the PTX does not target $target"
	want=$(grep -c '__global__' "$tmp/k.cu")
	got=$(grep -c '\.entry ' "$tmp/k.ptx")
	[ "$want" -gt 0 ] && [ "$want" -eq "$got" ] || bad "$spec: $want kernels in the source, $got in the PTX"
	[ $spec_ok = yes ] || exit 1
	echo "ok: $spec"
	exit 0
fi

specs=$(cd "$top_srcdir" && find specs -name '*.yaml' -not -path 'specs/plans/*' | LC_ALL=C sort)
[ -n "$specs" ] || { echo "no specs under $top_srcdir/specs" >&2; exit 99; }

# The shipped plans' entries, PLAN@N, each kernel once: its source (but the
# first line, which names the file) is not one a spec above or an earlier
# entry generates.  An entry kgen cannot generate is listed, to fail.
list=$(mktemp -d "${TMPDIR:-/tmp}/kgen-nvrtc-list.XXXXXX") || exit 99
trap 'rm -rf "$list"' EXIT
for spec in $specs; do
	"$kgen" "$top_srcdir/$spec" 2> /dev/null | sed 1d | cksum
done > "$list/seen"
plans=$(cd "$top_srcdir" && find specs/plans -mindepth 2 -name '*.yaml' | LC_ALL=C sort)
nplans=0
for plan in $plans; do
	i=1
	while :; do
		"$kgen" "$top_srcdir/$plan" --entry $i > "$list/k.cu" 2> "$list/err"
		rc=$?
		if [ $rc -ne 0 ]; then
			# past the last entry: "--entry N: PLAN has M entries (1 to M)"
			grep -q "^kgen: error: --entry $i: .* has $((i - 1)) entr.* (1 to $((i - 1)))\$" "$list/err" && [ $i -gt 1 ] ||
				specs="$specs $plan@$i"
			break
		fi
		sum=$(sed 1d "$list/k.cu" | cksum)
		if ! grep -qxF "$sum" "$list/seen"; then
			echo "$sum" >> "$list/seen"
			specs="$specs $plan@$i"
			nplans=$((nplans + 1))
		fi
		i=$((i + 1))
	done
done
echo "the plans' entries: $nplans kernels no spec of specs/ generates"
# The row specs (bf16) at their other types, each file once.
for spec in $(cd "$top_srcdir" && find specs/rows -maxdepth 1 -name '*.yaml' | LC_ALL=C sort); do
	for dt in f32 f16; do
		# one kgen cannot generate is listed, to fail (not taken for another's empty output)
		if "$kgen" "$top_srcdir/$spec" --set dtype=$dt > "$list/k.cu" 2> /dev/null; then
			sum=$(sed 1d "$list/k.cu" | cksum)
			grep -qxF "$sum" "$list/seen" && continue
			echo "$sum" >> "$list/seen"
		fi
		specs="$specs $spec+dtype=$dt"
	done
done

# The PTX compiles at -Ofc=max (tests/fast_nvrtc.sh), a fifth of the time or
# less, unless KGEN_NVRTC_OPTIONS is set (then every compile takes it).
b=$top_builddir fast_nvrtc_only=1
. "$top_srcdir/tests/fast_nvrtc.sh"
NVRTC_TEST_PTX_OPTIONS=$fast_nvrtc
export NVRTC_TEST_PTX_OPTIONS
jobs=${KGEN_JOBS:-$(nproc 2>/dev/null || echo 2)}
n=$(printf '%s\n' $specs | wc -l)
echo "checking $n specs in $jobs processes"
# xargs exits 123 when any spec failed.
printf '%s\n' $specs | xargs -P "$jobs" -n 1 sh "$0" --one
rc=$?
[ $rc -eq 0 ] || { echo "FAIL: some specs did not compile cleanly (xargs exit $rc)" >&2; exit 1; }
exit 0
