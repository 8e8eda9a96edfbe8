#!/bin/sh
# The toy family `kernel: scale` (tests/toy/, docs/families.md) past the
# generator, as a real family's host code is tested (tests/fake_test.sh):
# against the fake driver (tests/fake_cuda), its launcher through the C
# API (tests/toy_launch_test), then `kgen run --verify` with its runner
# (tests/toy/kgen: kgen built with the toy's table rows).  Kernels do not
# run on the fake, so a toy result is wrong (exit 6, the runner's own FAIL
# line) except at n = 0, which launches nothing and verifies; a size the
# runner refuses is refused before the GPU is touched.  On a machine with
# a GPU, first, the toy's kernels run there and every result must verify.
# The Python layer is tests/python_test.sh's (python/tests/test_toy.py).
b=${top_builddir:-.}
top_srcdir=${top_srcdir:-.}
fake=$b/tests/fake_cuda
kgen=$b/tests/toy/kgen
if [ ! -f "$fake/libcuda.so.1" ]; then
	echo "SKIP: no fake driver built"
	exit 77
fi
dir=$(mktemp -d "${TMPDIR:-/tmp}/kgen-toy.XXXXXX") || exit 99
trap 'rm -rf "$dir"' EXIT
printf 'kernel: scale\ndtype: i32\nfactor: -3\n' > "$dir/i32.yaml"
printf 'kernel: scale\ndtype: f64\nstages: 4\n' > "$dir/f64.yaml"
printf 'kernel: scale\ndtype: u32\nfactor: 7\nthreads: 1024\nstages: 8\n' > "$dir/u32.yaml"
printf 'kernel: scale\ndtype: i64\nfactor: -1000\nstages: 1\n' > "$dir/i64.yaml"
printf 'kernel: scale\ndtype: f32\nfactor: 999\nthreads: 96\nstages: 3\n' > "$dir/f32.yaml"
printf 'kernel: reduce\n' > "$dir/sum.yaml"
status=0

# fail WHAT: say what went wrong, with the output.
fail() {
	echo "FAIL: $1"
	echo "$out"
	status=1
}

# A GPU (the real driver, before the fake is put first): every dtype at
# sizes that end inside a thread's stages, a block and a grid, all verified.
if "$kgen" info > /dev/null 2>&1; then
	out=$("$kgen" run --verify --n 0 --n 1 --n 1000003 --n 16777223 "$dir"/[fiu]*.yaml 2>&1)
	rc=$?
	echo "$out"
	[ $rc -eq 0 ] && [ "$(echo "$out" | grep -c '  *ok  *all [0-9]* elements checked$')" -eq 20 ] ||
		fail "kgen run --verify of the toy on the GPU: exit $rc, expected 20 results verified"
else
	echo "# no GPU: the toy's kernels are not run (only the fake driver's part)"
fi

LD_LIBRARY_PATH=$fake${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export LD_LIBRARY_PATH KGEN_CACHE=0
. "$top_srcdir/tests/fast_nvrtc.sh"
"$b/tests/toy_launch_test" || status=1

# The toy's specs beside a reduction: each family's runner gets its own,
# the reduction first (the order of KGEN_FAMILIES), then the toy's at each n.
out=$("$kgen" run --verify --n 1000 --n 3 --tsv "$dir/run.tsv" "$dir/i32.yaml" "$dir/f64.yaml" "$dir/sum.yaml" 2>&1)
rc=$?
echo "$out"
[ $rc -eq 6 ] || fail "kgen run --verify of the toy on the fake driver exited $rc, expected 6 (nothing runs)"
echo "$out" | grep -q '^# kgen .* on Fake H200 ' || fail "no header line naming the fake GPU"
echo "$out" | grep -q "^$dir/i32.yaml  *n=1000  *FAIL  *out\[0\] = 0xffffffff, expected -\{0,1\}[0-9]* (in\[0\] \* -3); 1000 of 1000 elements wrong\$" ||
	fail "no toy FAIL line for i32.yaml at n=1000"
echo "$out" | grep -q "^$dir/f64.yaml  *n=3  *FAIL  *out\[0\] = 0xffffffffffffffff, expected .* (in\[0\] \* 3); 3 of 3 elements wrong\$" ||
	fail "no toy FAIL line for f64.yaml at n=3"
echo "$out" | grep -q 'kgen run: 6 result(s) did not verify' || fail "not 6 results counted wrong (4 toy, 2 reductions)"
first=$(echo "$out" | grep -n 'FAIL' | head -1)
case $first in *sum.yaml*) ;; *) fail "the reduction's runner did not run first: $first" ;; esac
awk -F'\t' 'NR > 1 && $3 == "scale" && NF == 15 && $5 == "FAIL" { n++ } END { exit n != 4 }' "$dir/run.tsv" ||
	{ out=$(cat "$dir/run.tsv"); fail "not four toy rows of 15 columns in the --tsv table"; }

# n = 0: nothing to launch, every one of no elements right.
out=$("$kgen" run --verify --n 0 "$dir/i32.yaml" 2>&1)
rc=$?
[ $rc -eq 0 ] && echo "$out" | grep -q "^$dir/i32.yaml  *n=0  *ok  *all 0 elements checked\$" ||
	fail "kgen run --verify --n 0 of the toy: exit $rc, expected 0 and an ok line"

# The runner's check: sizes refused before the GPU is touched.
out=$("$kgen" run --n 2^62 "$dir/f64.yaml" 2>&1)
rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -q 'two arrays of f64 do not fit in memory' && ! echo "$out" | grep -q '^# kgen' ||
	fail "kgen run --n 2^62 of the toy: exit $rc, expected the runner's refusal (2) before the GPU"

# The table row reaches the other commands: keys, the header, the check.
out=$("$kgen" keys scale 2>&1)
printf '%s\n' "$out" | grep -q "^scale	factor	int	-1000..1000	3\$" || fail "kgen keys scale does not list factor"
out=$("$kgen" "$dir/i32.yaml" 2>&1)
echo "$out" | grep -q '^//   scale_i32(in, out, n)  <<<grid, 256>>>$' || fail "kgen SPEC does not print the toy's launch"
exit $status
