#!/bin/sh
# Run the libFuzzer harnesses (tests/fuzz/): fuzz_spec over the spec loader,
# validator and generators, seeded with every spec under specs/ and the
# language's dictionary; fuzz_cache over disk-cache entries.  Each runs
# FUZZ_SECONDS (default 15: the bounded run of `make check`; `make fuzz`:
# 600).  The two run side by side (one per core).  Skips (77) where configure found no clang with libFuzzer.  A crash
# or a broken invariant fails, leaving the input in tests/fuzz/crash-*.
top_srcdir=${top_srcdir:-.}
b=${top_builddir:-.}
secs=${FUZZ_SECONDS:-15}
if [ ! -x "$b/tests/fuzz/fuzz_spec" ] || [ ! -x "$b/tests/fuzz/fuzz_cache" ]; then
	echo "SKIP: no fuzz harnesses (configure found no clang with libFuzzer; apt-get install clang)"
	exit 77
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/kgen-fuzz.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
mkdir "$work/spec" "$work/cache"
find "$top_srcdir/specs" -name '*.yaml' -exec cp {} "$work/spec/" \;
# One harness: 0 when it ran its time without a crash or a broken invariant.
run() {
	h=$1
	dict=
	[ "$h" = spec ] && dict=-dict=$top_srcdir/tests/fuzz/spec.dict
	"$b/tests/fuzz/fuzz_$h" $dict -max_total_time="$secs" -print_final_stats=1 \
		-artifact_prefix="$b/tests/fuzz/" "$work/$h" > "$work/$h.log" 2>&1
}
run spec & spec_pid=$!
run cache & cache_pid=$!
status=0
for h in spec cache; do
	eval pid=\$${h}_pid
	if ! wait "$pid"; then
		status=1
		echo "FAIL: fuzz_$h:"
		tail -40 "$work/$h.log"
	fi
	grep -E '^stat::(number_of_executed_units|average_exec_per_sec)' "$work/$h.log" | sed "s/^/fuzz_$h: /"
done
exit $status
