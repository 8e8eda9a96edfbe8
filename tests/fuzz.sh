#!/bin/sh
# Run the libFuzzer harnesses (tests/fuzz/): fuzz_spec over the spec loader,
# validator and generators, seeded with every spec under specs/ and the
# language's dictionary (tests/fuzz/fuzz_spec.dict, built from `kgen keys`
# and tests/fuzz/yaml.dict) and, through fuzz_spec, size plans;
# the other harnesses with their own (tests/fuzz/{cache,records}.dict);
# fuzz_cache over disk-cache entries; fuzz_space over spec spaces (seeded
# with specs/plans/*.space.yaml); fuzz_records over kgen tune's record
# lines (tests/fuzz/space-seeds/ holds inputs that once failed: they run
# first, every time).  Each runs FUZZ_SECONDS (default 15: the bounded run of `make
# check`; `make fuzz`: 600), all side by side.  Skips (77) where configure
# found no clang with libFuzzer.  A crash or a broken invariant fails,
# leaving the input in tests/fuzz/crash-*.
top_srcdir=${top_srcdir:-.}
b=${top_builddir:-.}
secs=${FUZZ_SECONDS:-15}
if [ ! -x "$b/tests/fuzz/fuzz_spec" ] || [ ! -x "$b/tests/fuzz/fuzz_cache" ] || [ ! -x "$b/tests/fuzz/fuzz_space" ] ||
	[ ! -x "$b/tests/fuzz/fuzz_records" ]; then
	echo "SKIP: no fuzz harnesses (configure found no clang with libFuzzer; apt-get install clang)"
	exit 77
fi
if [ ! -f "$b/tests/fuzz/fuzz_spec.dict" ]; then
	echo "ERROR: $b/tests/fuzz/fuzz_spec.dict is not built (make tests/fuzz/fuzz_spec.dict)"
	exit 99
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/kgen-fuzz.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
mkdir "$work/spec" "$work/cache" "$work/space" "$work/records"
find "$top_srcdir/specs" -name '*.yaml' -exec cp {} "$work/spec/" \;
cp "$top_srcdir"/specs/plans/*.space.yaml "$top_srcdir"/tests/fuzz/space-seeds/*.yaml "$work/space/"
printf '{"key":"H200|driver 13.0|NVRTC 13.0|kgen 0.1.0|0123456789abcdef|4096|events rotated","verify":"ok","median_us":4.0,"spread":0.01}\n' \
	> "$work/records/ok"
# One harness: 0 when it ran its time without a crash or a broken invariant.
run() {
	h=$1
	# Every harness has a dictionary: a space is a spec with lists, so
	# fuzz_space takes fuzz_spec's (every key and value of every family).
	case $h in
	spec | space) dict=-dict=$b/tests/fuzz/fuzz_spec.dict ;;
	*) dict=-dict=$top_srcdir/tests/fuzz/$h.dict ;;
	esac
	"$b/tests/fuzz/fuzz_$h" $dict -max_total_time="$secs" -print_final_stats=1 \
		-artifact_prefix="$b/tests/fuzz/" "$work/$h" > "$work/$h.log" 2>&1
}
run spec & spec_pid=$!
run cache & cache_pid=$!
run space & space_pid=$!
run records & records_pid=$!
status=0
for h in spec cache space records; do
	eval pid=\$${h}_pid
	if ! wait "$pid"; then
		status=1
		echo "FAIL: fuzz_$h:"
		tail -40 "$work/$h.log"
	fi
	grep -E '^stat::(number_of_executed_units|average_exec_per_sec)' "$work/$h.log" | sed "s/^/fuzz_$h: /"
done
exit $status
