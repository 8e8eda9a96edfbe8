#!/bin/sh
# The header round trip (tests/roundtrip_test.c): every spec under specs/
# and a fixed-seed sample of what the language accepts (tests/sample_test
# --emit, 100 specs per family), each generated; the header's spec block,
# read back as YAML, must load and generate the same file.  No NVRTC.
b=${top_builddir:-.}
rc=0
"$b/tests/roundtrip_test" || rc=1
dir=$(mktemp -d "${TMPDIR:-/tmp}/kgen-roundtrip.XXXXXX") || exit 99
trap 'rm -rf "$dir"' EXIT
"$b/tests/sample_test" --emit "$dir" 100 > /dev/null || exit 99
for family in $("$b/kgen" keys | cut -f 1 | uniq); do
	[ -f "$dir/$family-000.yaml" ] || { echo "FAIL: the sample has no spec of kernel: $family" >&2; rc=1; }
done
"$b/tests/roundtrip_test" "$dir"/*.yaml || rc=1
exit $rc
