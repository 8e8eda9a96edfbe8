#!/bin/sh
# tune_test.sh: kgen tune's records against the fake driver
# (tests/fake_cuda), whose kernels never run, so every point fails to
# verify: each measurement is one JSON line keyed by GPU, driver, NVRTC,
# kgen, spec hash, n and method; a rerun measures nothing again and still
# reports the failures; --fresh measures again; a failed point is never
# chosen (no plan).  Skips (77) without the fake driver.
b=${top_builddir:-.}
fake=$b/tests/fake_cuda
if [ ! -f "$fake/libcuda.so.1" ]; then
	echo "SKIP: no fake driver built"
	exit 77
fi
LD_LIBRARY_PATH=$fake${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export LD_LIBRARY_PATH KGEN_CACHE=0
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*" >&2; fail=1; }
printf 'kernel: reduce\nthreads: [256, 512]\nstages: last_block\n' > "$tmp/space.yaml"
tune() { "$b/kgen" tune "$tmp/space.yaml" --n 1000 --n 2^12 -j 2 --plan "$tmp/plan.yaml" "$@" > "$tmp/out" 2> "$tmp/err"; }

tune
rc=$?
[ $rc -eq 6 ] || bad "kgen tune with failing points exited $rc, expected 6"
[ "$(wc -l < "$tmp/space.records.jsonl")" -eq 4 ] || bad "expected 4 records: $(cat "$tmp/space.records.jsonl")"
[ "$(grep -c '"verify":"FAIL"' "$tmp/space.records.jsonl")" -eq 4 ] || bad "the records do not say FAIL"
grep -q '^{"key":"Fake H200|driver 13.0|NVRTC 13.0 ([^"]*)|kgen [0-9.]*|[0-9a-f]\{16\}|4096|events rotated","spec_hash":"[0-9a-f]\{16\}","n":4096,"method":"events","verify":"FAIL","label":"threads=512","spec":"kernel: reduce\\nthreads: 512\\nstages: last_block\\n","date":"' \
	"$tmp/space.records.jsonl" || bad "a record is not as documented: $(tail -1 "$tmp/space.records.jsonl")"
grep -q "point 2 (threads=512) at n = 4096: FAIL" "$tmp/err" || bad "the failure is not reported: $(cat "$tmp/err")"
grep -q "no plan written: 2 size(s) without a verified point" "$tmp/err" || bad "a plan from failed points: $(cat "$tmp/err")"
[ ! -e "$tmp/plan.yaml" ] || bad "a plan was written from points that failed"
grep -q "4 measured (4 failed to verify), 0 from the records" "$tmp/out" || bad "counts: $(tail -2 "$tmp/out")"

# Again: everything is in the records; the failures are still failures.
tune
rc=$?
[ $rc -eq 6 ] || bad "kgen tune rerun exited $rc, expected 6"
[ "$(wc -l < "$tmp/space.records.jsonl")" -eq 4 ] || bad "the rerun measured again"
grep -q "0 measured (4 failed to verify), 4 from the records" "$tmp/out" || bad "rerun counts: $(tail -2 "$tmp/out")"
grep -q "point 1 (threads=256) at n = 1000: FAIL (in $tmp/space.records.jsonl)" "$tmp/err" ||
	bad "the rerun does not report the recorded failure: $(cat "$tmp/err")"

# A record cut off by an interrupted run is skipped, and the next ones start a line of their own.
printf '{"key":"Fake H200|cut' >> "$tmp/space.records.jsonl"
tune --fresh
[ "$(wc -l < "$tmp/space.records.jsonl")" -eq 9 ] || bad "--fresh did not measure again: $(wc -l < "$tmp/space.records.jsonl") lines"
[ "$(tail -4 "$tmp/space.records.jsonl" | grep -c '^{"key":.*}$')" -eq 4 ] ||
	bad "records appended after a cut-off line are not whole lines: $(tail -5 "$tmp/space.records.jsonl")"
# Sizes in any order, repeated: tuned once each, rising.
"$b/kgen" tune "$tmp/space.yaml" --n 2^12 --n 1000 --n 2^12 -j 2 --records "$tmp/order.jsonl" > "$tmp/out" 2>&1
[ "$(grep -c '^n=' "$tmp/out")" -eq 2 ] && [ "$(grep '^n=' "$tmp/out" | head -1 | cut -c1-6)" = "n=1000" ] ||
	bad "--n not sorted and deduplicated: $(grep '^n=' "$tmp/out")"
"$b/kgen" tune "$tmp/space.yaml" --n 0 > "$tmp/out" 2>&1 && bad "--n 0 accepted"
# Another method is another measurement.
tune --method cold --records "$tmp/cold.jsonl"
[ "$(grep -c '|cold rotated","' "$tmp/cold.jsonl")" -eq 4 ] || bad "--method cold records: $(cat "$tmp/cold.jsonl")"
tune --method graph --records "$tmp/graph.jsonl"
[ "$(grep -c '|graph rotated","' "$tmp/graph.jsonl")" -eq 4 ] || bad "--method graph records: $(cat "$tmp/graph.jsonl")"
[ $fail -eq 0 ] && echo "ok: kgen tune's records"
exit $fail
