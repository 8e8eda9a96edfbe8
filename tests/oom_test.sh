#!/bin/sh
# The allocation-failure sweep (tests/oom_test.c): every spec under specs/,
# then a fixed-seed sample of what the language accepts (tests/sample_test
# --emit, 100 specs per family), each with its N-th allocation made to fail
# for every N.  Only KGEN_ENOMEM or the unhindered result may come out.
top_srcdir=${top_srcdir:-.}
b=${top_builddir:-.}
"$b/tests/oom_test"
rc=$?
[ $rc -eq 77 ] && exit 77
dir=$(mktemp -d "${TMPDIR:-/tmp}/kgen-oom.XXXXXX") || exit 99
trap 'rm -rf "$dir"' EXIT
"$b/tests/sample_test" --emit "$dir" 100 > /dev/null || exit 1
"$b/tests/oom_test" "$dir"/*.yaml > "$dir/log" 2>&1 || rc=1
grep FAIL "$dir/log"
tail -1 "$dir/log"
exit $rc
