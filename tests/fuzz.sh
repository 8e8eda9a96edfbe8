#!/bin/sh
# Run the libFuzzer harnesses (tests/fuzz/): fuzz_spec over the spec loader,
# validator and generators, seeded with every spec under specs/ and the
# language's dictionary (tests/fuzz/fuzz_spec.dict, built from `kgen keys`
# and tests/fuzz/yaml.dict) and, through fuzz_spec, size plans;
# the other harnesses with their own (tests/fuzz/{cache,records}.dict);
# fuzz_cache over disk-cache entries; fuzz_space over spec spaces (seeded
# with specs/plans/*.space.yaml); fuzz_records over kgen tune's record
# lines (tests/fuzz/space-seeds/ holds inputs that once failed: they run
# first, every time).  All side by side.  `make check` runs each for a
# count of inputs, its own (about 2 s of one core each, below), so that the
# work is the same on a busy machine as on an idle one, only slower; with
# FUZZ_SECONDS set (`make fuzz`: 600; `make check-full`: 60) each runs that
# long instead.  FUZZ_RUNS=N sets one count for all four.  Skips (77) where
# configure found no clang with libFuzzer.  A crash or a broken invariant
# fails, leaving the input in tests/fuzz/crash-*.
top_srcdir=${top_srcdir:-.}
b=${top_builddir:-.}
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
	# The counts of `make check`: a few thousand specs and spaces (the
	# generators behind them are the slow part), cache entries, and records.
	case $h in
	spec) runs=4000 ;;
	cache) runs=4000 ;;
	space) runs=8000 ;;
	records) runs=300000 ;;
	esac
	if [ -n "${FUZZ_SECONDS:-}" ]; then
		bound=-max_total_time=$FUZZ_SECONDS
	else
		bound=-runs=${FUZZ_RUNS:-$runs}
	fi
	"$b/tests/fuzz/fuzz_$h" $dict "$bound" -print_final_stats=1 \
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
