#!/bin/sh
# tune_test.sh: kgen tune's records against the fake driver
# (tests/fake_cuda), whose kernels never run, so every point fails to
# verify: each measurement is one JSON line keyed by GPU, driver, NVRTC,
# kgen, spec hash, n and method; a rerun measures nothing again and still
# reports the failures; --fresh measures again; a failed point is never
# chosen (no plan).  kernel: reduce_axis is tuned the same way at shapes
# (keyed ROWSxCOLS), and what a family sized by rows and cols cannot do is
# refused by name.  Skips (77) without the fake driver.
b=${top_builddir:-.}
top_srcdir=${top_srcdir:-.}
fake=$b/tests/fake_cuda
if [ ! -f "$fake/libcuda.so.1" ]; then
	echo "SKIP: no fake driver built"
	exit 77
fi
LD_LIBRARY_PATH=$fake${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export LD_LIBRARY_PATH KGEN_CACHE=0
. "$top_srcdir/tests/fast_nvrtc.sh"
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
grep -q "^built 2 of 2 points on [0-9]* thread(s) in [0-9]* s$" "$tmp/out" || bad "first run's builds: $(grep built "$tmp/out")"

# Again: everything is in the records; the failures are still failures.
tune
rc=$?
[ $rc -eq 6 ] || bad "kgen tune rerun exited $rc, expected 6"
[ "$(wc -l < "$tmp/space.records.jsonl")" -eq 4 ] || bad "the rerun measured again"
grep -q "0 measured (4 failed to verify), 4 from the records" "$tmp/out" || bad "rerun counts: $(tail -2 "$tmp/out")"
# ... and no point is built that will not run: not even under a method the
# records lack, where they say the point failed at every size.
grep -q "^built 0 of 0 points on 0 thread(s) in [0-9]* s; 2 found whole in the records, not built$" "$tmp/out" ||
	bad "the rerun built points the records answer: $(grep built "$tmp/out")"
tune --method events,graph
grep -q "^built 0 of 0 points on 0 thread(s) in [0-9]* s; 2 found whole in the records, not built$" "$tmp/out" &&
	grep -q "0 measured (4 failed to verify), 4 from the records" "$tmp/out" &&
	[ "$(wc -l < "$tmp/space.records.jsonl")" -eq 4 ] ||
	bad "a method the records lack, for points they say failed: $(grep 'built\|measured' "$tmp/out")"
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
# Several methods: each is a record of its own; a rerun measures only the method it lacks.
tune --method events,graph --records "$tmp/multi.jsonl"
[ "$(grep -c '|events rotated","' "$tmp/multi.jsonl")" -eq 4 ] && [ "$(grep -c '|graph rotated","' "$tmp/multi.jsonl")" -eq 4 ] ||
	bad "--method events,graph records: $(cat "$tmp/multi.jsonl")"
# A point that failed under one method has failed: it is not measured under another.
tune --method graph,cold,graph --records "$tmp/multi.jsonl"
grep -q "0 measured (4 failed to verify), 4 from the records" "$tmp/out" || bad "--method graph,cold rerun: $(tail -2 "$tmp/out")"

# The plan from records alone (nothing is measured, so the fake driver does):
# under events the 512-thread point is faster (3 us against 4), under graph
# the 256-thread one (1 us against 2).  One method takes its fastest; both
# take the point whose worst ratio to the fastest is least: 256 threads
# (4/3 against 2).
grep '|events rotated",' "$tmp/multi.jsonl" | grep '"label":"threads=256"' | sed 's/"verify":"FAIL"/"verify":"ok","median_us":4.0,"spread":0.01/' > "$tmp/ok.jsonl"
grep '|events rotated",' "$tmp/multi.jsonl" | grep '"label":"threads=512"' | sed 's/"verify":"FAIL"/"verify":"ok","median_us":3.0,"spread":0.01/' >> "$tmp/ok.jsonl"
grep '|graph rotated",' "$tmp/multi.jsonl" | grep '"label":"threads=256"' | sed 's/"verify":"FAIL"/"verify":"ok","median_us":1.0,"spread":0.01/' >> "$tmp/ok.jsonl"
grep '|graph rotated",' "$tmp/multi.jsonl" | grep '"label":"threads=512"' | sed 's/"verify":"FAIL"/"verify":"ok","median_us":2.0,"spread":0.01/' >> "$tmp/ok.jsonl"
[ "$(wc -l < "$tmp/ok.jsonl")" -eq 8 ] || bad "expected 8 records to rewrite: $(cat "$tmp/ok.jsonl")"
chosen() { grep -A8 '^  - ' "$tmp/plan.yaml" | grep -c "threads: $1"; }
for m in events graph events,graph; do
	rm -f "$tmp/plan.yaml"
	tune --method $m --records "$tmp/ok.jsonl"
	rc=$?
	[ $rc -eq 0 ] || bad "kgen tune --method $m from ok records exited $rc: $(cat "$tmp/err")"
	grep -q "^# [0-9]* points x 2 sizes: 0 measured (0 failed to verify)" "$tmp/out" || bad "--method $m measured: $(tail -2 "$tmp/out")"
	case $m in
	events) want=512 ;;
	*) want=256 ;;
	esac
	[ "$(chosen $want)" -eq 1 ] && [ "$(grep -c '^  - ' "$tmp/plan.yaml")" -eq 1 ] ||
		bad "--method $m chose other than threads: $want: $(cat "$tmp/plan.yaml")"
done
grep -q "^n=2^12  *events 4.00 us ±1.0%, graph 1.00 us ±1.0%  threads=256   (next: 2.000 of the fastest, threads=512)$" "$tmp/out" ||
	bad "--method events,graph output: $(cat "$tmp/out")"
grep -q "^# NVIDIA\|times per call (events/graph)" "$tmp/plan.yaml" || bad "the plan does not name both methods: $(head -3 "$tmp/plan.yaml")"
grep -q "# n=1000 4.00/1.00 us, n=2^12 4.00/1.00 us (threads=256)" "$tmp/plan.yaml" || bad "the plan's times: $(cat "$tmp/plan.yaml")"
# --against cub: CUB's times come from kgen-cub (here a stand-in: 3.2 us
# under events, 2.5 under graph), and a size takes the point with the least
# worst ratio to them: 512 threads (3/3.2 = 0.94) over 256 (4/3.2 = 1.25),
# where the fastest-relative choice above took 256.  CUB's times are
# recorded, so a rerun measures nothing.
printf '#!/bin/sh\ncase "$*" in *--method=events*) echo "median_ms=0.0032 offsets=32" ;; *--method=graph*) echo "median_ms=0.0025 offsets=32" ;; *) exit 1 ;; esac\n' > "$tmp/fake-cub"
chmod +x "$tmp/fake-cub"
cp "$tmp/ok.jsonl" "$tmp/against.jsonl"
rm -f "$tmp/plan.yaml"
KGEN_CUB=$tmp/fake-cub tune --method events,graph --against cub --records "$tmp/against.jsonl"
rc=$?
[ $rc -eq 0 ] || bad "--against cub exited $rc: $(cat "$tmp/err")"
grep -q "^# 2 points x 2 sizes: 4 measured (0 failed to verify), 8 from the records" "$tmp/out" || bad "--against cub counts: $(tail -2 "$tmp/out")"
[ "$(chosen 512)" -eq 1 ] || bad "--against cub did not choose threads: 512: $(cat "$tmp/plan.yaml")"
grep -q "threads=512 (0.938 of CUB's time)   (next: 1.250 of CUB's time, threads=256)" "$tmp/out" || bad "--against cub output: $(cat "$tmp/out")"
grep -q "furthest$" "$tmp/plan.yaml" && grep -q "(0.938 of CUB)" "$tmp/plan.yaml" || bad "--against cub plan: $(cat "$tmp/plan.yaml")"
[ "$(grep -c '|cub sum f32|' "$tmp/against.jsonl")" -eq 4 ] || bad "CUB's times not recorded: $(cat "$tmp/against.jsonl")"
KGEN_CUB=/nonexistent tune --method events,graph --against cub --records "$tmp/against.jsonl"
grep -q "^# 2 points x 2 sizes: 0 measured (0 failed to verify), 12 from the records" "$tmp/out" || bad "--against cub rerun: $(tail -2 "$tmp/out")"
# kgen-cub is started with an argument vector, no shell: a quote and a
# command in its directory's name are only a name.
odd="$tmp/kg'\$(touch $tmp/pwned)'"
mkdir -p "$odd" && cp "$tmp/fake-cub" "$odd/fake-cub"
cp "$tmp/ok.jsonl" "$tmp/odd.jsonl"
KGEN_CUB=$odd/fake-cub tune --method events,graph --against cub --records "$tmp/odd.jsonl"
rc=$?
[ $rc -eq 0 ] && [ "$(grep -c '|cub sum f32|' "$tmp/odd.jsonl")" -eq 4 ] || bad "kgen-cub in an odd directory (exit $rc): $(cat "$tmp/err")"
[ -e "$tmp/pwned" ] && bad "a kgen-cub path ran a command"
KGEN_CUB=/nonexistent tune --method events --against cub --records "$tmp/nocub.jsonl"
grep -q "kgen-cub could not time sum f32 at n = 1000 (events)" "$tmp/err" || bad "--against cub without kgen-cub: $(cat "$tmp/err")"
"$b/kgen" tune "$tmp/space.yaml" --against thrust > "$tmp/out" 2>&1 && bad "--against thrust accepted"
# --choose mean.  A stand-in CUB of 5 us under events and 3 under graph:
# threads=256 is 0.800/0.333 of CUB's time, threads=512 0.600/0.667.  The
# least worst ratio takes 512 (0.667 against 0.800); the least geometric
# mean takes 256 (0.516 against 0.632), both being 3% or more ahead of CUB
# under both methods.  --margin 25 leaves 512 alone ahead by that much
# under both, so it is taken; at --margin 40 neither is, and the least worst
# ratio decides (512 again, where the mean would take 256).
printf '#!/bin/sh\ncase "$*" in *--method=events*) echo "median_ms=0.005 offsets=32" ;; *--method=graph*) echo "median_ms=0.003 offsets=32" ;; *) exit 1 ;; esac\n' > "$tmp/cub-mean"
chmod +x "$tmp/cub-mean"
cp "$tmp/ok.jsonl" "$tmp/mean.jsonl"
for choose in worst mean "mean --margin 25" "mean --margin 40"; do
	rm -f "$tmp/plan.yaml"
	KGEN_CUB=$tmp/cub-mean tune --method events,graph --against cub --choose $choose --records "$tmp/mean.jsonl"
	rc=$?
	case $choose in
	mean) want=256 ;;
	*) want=512 ;;
	esac
	[ $rc -eq 0 ] && [ "$(chosen $want)" -eq 1 ] && [ "$(grep -c '^  - ' "$tmp/plan.yaml")" -eq 1 ] ||
		bad "--choose $choose (exit $rc) did not choose threads: $want: $(cat "$tmp/err" "$tmp/plan.yaml")"
done
grep -q "^# 2 points x 2 sizes: 0 measured (0 failed to verify), 12 from the records" "$tmp/out" ||
	bad "--choose mean measured CUB again: $(tail -2 "$tmp/out")"
KGEN_CUB=$tmp/cub-mean tune --method events,graph --against cub --choose worst --records "$tmp/mean.jsonl"
grep -q "threads=512 (0.667 of CUB's time)   (next: 0.800 of CUB's time, threads=256)$" "$tmp/out" ||
	bad "--choose worst output: $(cat "$tmp/out")"
KGEN_CUB=$tmp/cub-mean tune --method events,graph --against cub --choose mean --records "$tmp/mean.jsonl"
grep -q "threads=256 (0.800/0.333 of CUB's time)   (next: 0.600/0.667 of CUB's time, threads=512)$" "$tmp/out" ||
	bad "--choose mean output: $(cat "$tmp/out")"
grep -q "^# A size plan written by kgen tune: at each tuned n, of the verified points at most$" "$tmp/plan.yaml" &&
	grep -q "^# 97% of cub::DeviceReduce's time under every method (events/graph), the one whose$" "$tmp/plan.yaml" &&
	grep -q "# n=1000 4.00/1.00 us (0.800/0.333 of CUB), n=2^12 4.00/1.00 us (0.800/0.333 of CUB) (threads=256)" "$tmp/plan.yaml" ||
	bad "--choose mean plan: $(cat "$tmp/plan.yaml")"
# Without --against, the ratios are to the fastest point's: 256 is
# 1.333/1.000 (mean 1.155), 512 1.000/2.000 (1.414).
tune --method events,graph --choose mean --records "$tmp/mean.jsonl"
[ "$(chosen 256)" -eq 1 ] && grep -q "threads=256   (next: 1.000/2.000 of the fastest, threads=512)$" "$tmp/out" ||
	bad "--choose mean without --against: $(cat "$tmp/out")"
# --choose first, the same stand-in CUB: the least ratio under events among
# the points at most (1 - margin) of CUB's time under graph.  --margin 10:
# both are (0.333 and 0.667), so 512 (0.600 against 0.800 back to back);
# --margin 50: only 256 is; --margin 70: neither, and the least worst ratio
# decides (512).  Without --against, within the margin of the fastest under
# graph: --margin 10 leaves 256 alone (512 is 2.000 of it there); --margin
# 150 is refused (a percentage under 100).
for choose in "10 512" "50 256" "70 512"; do
	rm -f "$tmp/plan.yaml"
	KGEN_CUB=$tmp/cub-mean tune --method events,graph --against cub --choose first --margin ${choose% *} \
		--records "$tmp/mean.jsonl"
	rc=$?
	[ $rc -eq 0 ] && [ "$(chosen ${choose#* })" -eq 1 ] && [ "$(grep -c '^  - ' "$tmp/plan.yaml")" -eq 1 ] ||
		bad "--choose first --margin ${choose% *} (exit $rc) did not choose threads: ${choose#* }: $(cat "$tmp/err" "$tmp/plan.yaml")"
done
KGEN_CUB=$tmp/cub-mean tune --method events,graph --against cub --choose first --margin 10 --records "$tmp/mean.jsonl"
grep -q "threads=512 (0.600/0.667 of CUB's time)   (next: 0.800/0.333 of CUB's time, threads=256)$" "$tmp/out" ||
	bad "--choose first output: $(cat "$tmp/out")"
grep -q "^# A size plan written by kgen tune: at each tuned n, of the verified points at most 90% of$" "$tmp/plan.yaml" &&
	grep -q "^# cub::DeviceReduce's time under every method but the first (events/graph), the one least$" "$tmp/plan.yaml" ||
	bad "--choose first plan: $(cat "$tmp/plan.yaml")"
tune --method events,graph --choose first --margin 10 --records "$tmp/mean.jsonl"
[ "$(chosen 256)" -eq 1 ] && grep -q "threads=256   (next: 1.000/2.000 of the fastest, threads=512)$" "$tmp/out" &&
	grep -q "^# A size plan written by kgen tune: at each tuned n, of the verified points within 10% of$" "$tmp/plan.yaml" ||
	bad "--choose first without --against: $(cat "$tmp/out" "$tmp/plan.yaml")"
for bad_args in "--choose best" "--choose mean --margin 100" "--margin 5" "--choose mean --margin 5" \
	"--choose first --margin 150" "--choose first" "--choose first --method graph"; do
	"$b/kgen" tune "$tmp/space.yaml" $bad_args > "$tmp/out" 2>&1
	rc=$?
	[ $rc -eq 2 ] && grep -q "choose\|margin" "$tmp/out" || bad "kgen tune $bad_args (exit $rc): $(cat "$tmp/out")"
done

# A method the records lack is measured, and only it: cold here, which fails on the fake driver.
tune --method events,graph,cold --records "$tmp/ok.jsonl"
grep -q "4 measured (4 failed to verify), 8 from the records" "$tmp/out" || bad "--method events,graph,cold: $(tail -2 "$tmp/out")"
[ "$(grep -c '|cold rotated","' "$tmp/ok.jsonl")" -eq 4 ] && [ "$(wc -l < "$tmp/ok.jsonl")" -eq 12 ] ||
	bad "--method events,graph,cold did not add cold alone: $(cat "$tmp/ok.jsonl")"
# Hardening: sizes whose bytes wrap, records through a symbolic link or
# writable by others, records that say ok without a time, long lines.
"$b/kgen" tune "$tmp/space.yaml" --n 2^62 > "$tmp/out" 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q -- "--n 4611686018427387904: 4611686018427387904 elements of f32 (4 bytes each) do not fit in memory" "$tmp/out" ||
	bad "kgen tune --n 2^62 (exit $rc): $(cat "$tmp/out")"
printf 'echo keep\n' > "$tmp/victim"
ln -s "$tmp/victim" "$tmp/link.jsonl"
tune --records "$tmp/link.jsonl"
rc=$?
[ $rc -eq 3 ] && grep -q "a symbolic link: kgen tune does not follow one" "$tmp/err" ||
	bad "records through a symbolic link (exit $rc): $(cat "$tmp/err")"
[ "$(cat "$tmp/victim")" = "echo keep" ] || bad "kgen tune wrote through a symbolic link: $(cat "$tmp/victim")"
: > "$tmp/open.jsonl"
chmod 666 "$tmp/open.jsonl"
tune --records "$tmp/open.jsonl"
rc=$?
[ $rc -eq 3 ] && grep -q "refusing the records file .*open.jsonl: writable by others" "$tmp/err" ||
	bad "records writable by others (exit $rc): $(cat "$tmp/err")"
# A planted "ok" without a finite positive time is not a measurement.
for t in 0 NaN inf -1; do
	sed -n 1p "$tmp/space.records.jsonl" | sed 's/"verify":"FAIL"/"verify":"ok","median_us":'"$t"'/' > "$tmp/planted.jsonl"
	tune --records "$tmp/planted.jsonl"
	grep -q "4 measured (4 failed to verify), 0 from the records" "$tmp/out" ||
		bad "a record of ok with median $t was trusted: $(tail -2 "$tmp/out")"
done
# A record line longer than 8 KB is read back whole.
long=$(head -c 9000 /dev/zero | tr '\0' x)
sed 's/"label":"/"label":"'"$long"'/' "$tmp/space.records.jsonl" | tail -4 > "$tmp/long.jsonl"
tune --records "$tmp/long.jsonl"
grep -q "0 measured (4 failed to verify), 4 from the records" "$tmp/out" ||
	bad "records longer than 8 KB were not found again: $(tail -2 "$tmp/out")"

# Families whose runner has no tune hooks (cli/run.h: struct kgen_tuner) are refused by name.
printf 'kernel: transpose\nthreads: [256]\n' > "$tmp/t.space.yaml"
"$b/kgen" tune "$tmp/t.space.yaml" --n 1000 > "$tmp/out" 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q "point 1 ((the one point)): kgen tune takes kernel: reduce, reduce_axis, matmul, rows or scan specs, not kernel: transpose" "$tmp/out" ||
	bad "kgen tune of a transpose space (exit $rc): $(cat "$tmp/out")"

# kernel: matmul through its runner's tune hooks, sized by M, N and K
# (--shape MxNxK): on the fake driver C stays poisoned, so every point
# fails to verify and nothing is timed; the records are keyed MxNxK with
# m, n and k.  Two numbers, or --n, are refused before the GPU is touched.
printf 'kernel: matmul\ntile_m: [32, 64]\ntile_n: 64\ntile_k: 8\n' > "$tmp/mm.yaml"
"$b/kgen" tune "$tmp/mm.yaml" --shape 127x255x63 --shape 64x64x1000 -j 2 > "$tmp/out" 2> "$tmp/err"
rc=$?
[ $rc -eq 6 ] || bad "kgen tune of a matmul space with failing points exited $rc, expected 6: $(cat "$tmp/err")"
grep -q "^# 2 points x 2 sizes: 4 measured (4 failed to verify), 0 from the records" "$tmp/out" ||
	bad "matmul counts: $(tail -1 "$tmp/out")"
grep -q '^127x255x63  no point verified$' "$tmp/out" || bad "matmul size line: $(cat "$tmp/out")"
grep -q "point 1 (tile_m=32) at 127x255x63: FAIL alpha 0.75 beta 0: C\[0\]\[0\] = -nan, want " "$tmp/err" ||
	bad "a matmul failure is not reported: $(cat "$tmp/err")"
grep -q '|64x64x1000|events rotated","spec_hash":"[0-9a-f]\{16\}","m":64,"n":64,"k":1000,"method":"events","verify":"FAIL"' \
	"$tmp/mm.records.jsonl" || bad "a matmul record is not keyed by M, N and K: $(tail -1 "$tmp/mm.records.jsonl")"
# A matmul plan by shape from records alone (planted: tile_m 32 takes 1 us at
# the two small shapes and 2 at the others, tile_m 64 the reverse): an entry
# a tuned shape in rising m n k, the largest unbounded, then the entries
# whose shapes another serves as well dropped: 8x64x64 goes to 16x256x256's
# entry (the same point), 64x64x1024 to the last; two entries stay.
mm_shapes="--shape 8x64x64 --shape 16x256x256 --shape 256x256x256 --shape 64x64x1024"
"$b/kgen" tune "$tmp/mm.yaml" $mm_shapes -j 2 --records "$tmp/mmp.jsonl" > "$tmp/out" 2> "$tmp/err"
[ "$(wc -l < "$tmp/mmp.jsonl")" -eq 8 ] || bad "expected 8 matmul records: $(cat "$tmp/out" "$tmp/err")"
while IFS= read -r line; do
	case $line in
	*'|8x64x64|'* | *'|16x256x256|'*) small=1 ;;
	*) small=0 ;;
	esac
	case $line in
	*'"label":"tile_m=32"'*) us=$((2 - small)) ;;
	*) us=$((1 + small)) ;;
	esac
	printf '%s\n' "$line" | sed "s/\"verify\":\"FAIL\"/\"verify\":\"ok\",\"median_us\":$us.0,\"spread\":0.01/"
done < "$tmp/mmp.jsonl" > "$tmp/mmok.jsonl"
"$b/kgen" tune "$tmp/mm.yaml" $mm_shapes -j 2 --records "$tmp/mmok.jsonl" --plan "$tmp/mm.plan.yaml" > "$tmp/out" 2> "$tmp/err"
rc=$?
[ $rc -eq 0 ] && "$b/kgen" check "$tmp/mm.plan.yaml" ||
	bad "kgen tune --plan of a matmul from ok records (exit $rc): $(cat "$tmp/err" "$tmp/mm.plan.yaml")"
[ "$(grep -c '^  - ' "$tmp/mm.plan.yaml")" -eq 2 ] &&
	grep -q '^  - m_upto: 16$' "$tmp/mm.plan.yaml" && grep -q '^    n_upto: 256$' "$tmp/mm.plan.yaml" &&
	grep -q '^    k_upto: 256$' "$tmp/mm.plan.yaml" &&
	[ "$(grep -A8 'm_upto: 16' "$tmp/mm.plan.yaml" | grep -c 'tile_m: 32')" -eq 1 ] &&
	[ "$(sed -n '/^  - # /,$p' "$tmp/mm.plan.yaml" | grep -c 'tile_m: 64')" -eq 1 ] ||
	bad "the matmul plan by shape: $(cat "$tmp/mm.plan.yaml")"
grep -q '^    # 8x64x64 1.00 us, 16x256x256 1.00 us (tile_m=32)$' "$tmp/mm.plan.yaml" &&
	grep -q '^  - # 64x64x1024 1.00 us, 256x256x256 1.00 us (tile_m=64)$' "$tmp/mm.plan.yaml" &&
	grep -q '^#   kgen tune --shape 8x64x64 ' "$tmp/mm.plan.yaml" ||
	bad "the shapes each entry serves: $(cat "$tmp/mm.plan.yaml")"
# --tolerance 100: tile_m 64 within 100% of the best everywhere: one entry.
"$b/kgen" tune "$tmp/mm.yaml" $mm_shapes -j 2 --records "$tmp/mmok.jsonl" --plan "$tmp/mm.plan.yaml" --tolerance 100 \
	> "$tmp/out" 2> "$tmp/err"
[ "$(grep -c '^  - ' "$tmp/mm.plan.yaml")" -eq 1 ] && grep -q "(2.000 of its best)" "$tmp/mm.plan.yaml" ||
	bad "--tolerance 100 matmul plan: $(cat "$tmp/err" "$tmp/mm.plan.yaml")"
"$b/kgen" tune "$tmp/mm.yaml" --shape 64x64 > "$tmp/out" 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q "shape 64x64: a matmul takes MxNxK (three numbers" "$tmp/out" ||
	bad "kgen tune of a matmul at two numbers (exit $rc): $(cat "$tmp/out")"
"$b/kgen" tune "$tmp/mm.yaml" --n 1000 > "$tmp/out" 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q "\-\-n: kernel: matmul is sized by m, n and k: give --shape MxNxK" "$tmp/out" ||
	bad "kgen tune of a matmul at --n (exit $rc): $(cat "$tmp/out")"

# kernel: reduce_axis through its runner's tune hooks, at three shapes:
# strategy x threads x lanes (lanes applies to strategy: warp alone, so the
# block points are refused by the space).  Every point is verified before it
# is timed: on the fake driver a sum never verifies (its output stays
# poisoned), so nothing is timed and no point is kept.
printf 'kernel: reduce_axis\naxis: rows\nstrategy: [warp, block]\nthreads: [256, 512]\nlanes: [4, 16]\n' > "$tmp/axis.yaml"
shapes="--shape 4096x64 --shape 1024x1024 --shape 64x2^16"
"$b/kgen" tune "$tmp/axis.yaml" $shapes -j 2 > "$tmp/out" 2> "$tmp/err"
rc=$?
[ $rc -eq 6 ] || bad "kgen tune of a reduce_axis space with failing points exited $rc, expected 6: $(cat "$tmp/err")"
grep -q "^$tmp/axis.yaml: 8 points, 4 accepted, 4 refused$" "$tmp/out" || bad "reduce_axis space: $(head -2 "$tmp/out")"
[ "$(grep -c ' no point verified$' "$tmp/out")" -eq 3 ] && grep -q '^64x65536    no point verified$' "$tmp/out" ||
	bad "reduce_axis sizes: $(cat "$tmp/out")"
grep -q "^# 4 points x 3 sizes: 12 measured (12 failed to verify), 0 from the records" "$tmp/out" ||
	bad "reduce_axis counts: $(tail -1 "$tmp/out")"
grep -q "point 3 (strategy=warp threads=512 lanes=4) at 1024x1024: FAIL row 0: got -nan, expected .*; 1024 of 1024 results wrong$" "$tmp/err" ||
	bad "a reduce_axis failure is not reported: $(cat "$tmp/err")"
[ "$(wc -l < "$tmp/axis.records.jsonl")" -eq 12 ] && [ "$(grep -c '"verify":"FAIL","label"' "$tmp/axis.records.jsonl")" -eq 12 ] ||
	bad "reduce_axis records (12, every one FAIL and untimed): $(cat "$tmp/axis.records.jsonl")"
grep -q '^{"key":"Fake H200|driver 13.0|NVRTC 13.0 ([^"]*)|kgen [0-9.]*|[0-9a-f]\{16\}|64x65536|events rotated","spec_hash":"[0-9a-f]\{16\}","rows":64,"cols":65536,"method":"events","verify":"FAIL","label":"strategy=warp threads=256 lanes=16","spec":"kernel: reduce_axis\\naxis: rows\\nstrategy: warp\\nthreads: 256\\nlanes: 16\\n","date":"' \
	"$tmp/axis.records.jsonl" || bad "a reduce_axis record is not keyed by its shape: $(tail -1 "$tmp/axis.records.jsonl")"
"$b/kgen" tune "$tmp/axis.yaml" $shapes -j 2 > "$tmp/out" 2> "$tmp/err"
grep -q "^# 4 points x 3 sizes: 0 measured (12 failed to verify), 12 from the records" "$tmp/out" &&
	grep -q "point 1 (strategy=warp threads=256 lanes=4) at 4096x64: FAIL (in $tmp/axis.records.jsonl)" "$tmp/err" ||
	bad "a reduce_axis rerun: $(tail -1 "$tmp/out") $(head -1 "$tmp/err")"
# A result the fake driver leaves right: every element maps to -1, all ones
# (a custom op of i32 whose and of all ones is the poison itself), so each
# point verifies, and only then is it timed, under each method.
printf 'kernel: reduce_axis\naxis: rows\nop: custom\ndtype: i32\nmap: -1\ncombine: a & b\nidentity: -1\nstrategy: warp\nthreads: [256, 512]\nlanes: [4, 16]\n' > "$tmp/ones.yaml"
tune_ones() { "$b/kgen" tune "$tmp/ones.yaml" $shapes -j 2 "$@" > "$tmp/out" 2> "$tmp/err"; }
tune_ones --method events,graph
rc=$?
[ $rc -eq 0 ] || bad "kgen tune of a reduce_axis space that verifies exited $rc: $(cat "$tmp/err")"
grep -q "^# 4 points x 3 sizes: 24 measured (0 failed to verify), 0 from the records" "$tmp/out" ||
	bad "reduce_axis timed counts: $(tail -1 "$tmp/out")"
[ "$(grep -c '"verify":"ok","median_us":[0-9.]*,.*"samples":7,' "$tmp/ones.records.jsonl")" -eq 24 ] ||
	bad "reduce_axis records of verified points: $(cat "$tmp/ones.records.jsonl")"
grep -q '^4096x64     events [0-9.]* us ±0.0%, graph [0-9.]* us ±0.0%  threads=256 lanes=4   (next: 1.000 of the fastest, threads=256 lanes=16)$' "$tmp/out" ||
	bad "reduce_axis size line: $(cat "$tmp/out")"
# The point chosen at each shape, from the records alone: 512 threads and
# 16 lanes made fastest at 1024x1024, 256 and 4 elsewhere (as measured).
grep '|events rotated"' "$tmp/ones.records.jsonl" | sed '/"rows":1024,"cols":1024,.*"label":"threads=512 lanes=16"/s/"median_us":[0-9.]*/"median_us":10.0/' > "$tmp/chosen.jsonl"
tune_ones --records "$tmp/chosen.jsonl"
rc=$?
[ $rc -eq 0 ] && grep -q "^# 4 points x 3 sizes: 0 measured (0 failed to verify), 12 from the records" "$tmp/out" ||
	bad "reduce_axis from records (exit $rc): $(cat "$tmp/out" "$tmp/err")"
grep -q '^1024x1024       10.00 us ± 0.0%  threads=512 lanes=16   (next: [0-9.]* us, threads=256 lanes=4)$' "$tmp/out" &&
	grep -q '^64x65536   .*  threads=256 lanes=4   (next' "$tmp/out" || bad "reduce_axis choice from records: $(cat "$tmp/out")"
# The same through reduce's hooks: verified, timed, and the plan written.
printf 'kernel: reduce\nop: custom\ndtype: i32\nmap: -1\ncombine: a & b\nidentity: -1\nthreads: [256, 512]\n' > "$tmp/rones.yaml"
"$b/kgen" tune "$tmp/rones.yaml" --n 1000 --n 2^12 -j 2 --plan "$tmp/rones.plan.yaml" > "$tmp/out" 2> "$tmp/err"
rc=$?
[ $rc -eq 0 ] && grep -q "^# 2 points x 2 sizes: 4 measured (0 failed to verify), 0 from the records" "$tmp/out" &&
	"$b/kgen" check "$tmp/rones.plan.yaml" > /dev/null 2>&1 || bad "a reduce space that verifies (exit $rc): $(cat "$tmp/out" "$tmp/err")"
# What a family sized by rows and cols refuses, before the GPU: --n, --plan
# (plans pick by n), --against cub (no peer), a batch; what reduce refuses:
# --shape; every point must reduce one axis.
refused() {
	want=$1
	shift
	"$b/kgen" tune "$@" > "$tmp/out" 2>&1
	rc=$?
	[ $rc -eq 2 ] && grep -qF "kgen: error: $want" "$tmp/out" || bad "kgen tune $* (exit $rc): $(cat "$tmp/out")"
}
refused "--n: kernel: reduce_axis is sized by rows and cols: give --shape ROWSxCOLS" "$tmp/axis.yaml" --n 1000
refused "--shape: kernel: reduce is sized by n elements: give --n N" "$tmp/space.yaml" --shape 64x64
refused "--plan: size plans pick by n; kernel: reduce_axis is sized by rows and cols: write records with --records (here $tmp/axis.records.jsonl)" \
	"$tmp/axis.yaml" --shape 64x64 --plan "$tmp/axis.plan.yaml"
[ ! -e "$tmp/axis.plan.yaml" ] || bad "a plan was written for reduce_axis"
refused "--against cub: kgen tune times CUB for kernel: reduce or scan specs, not kernel: reduce_axis" "$tmp/axis.yaml" --shape 64x64 --against cub
refused "--shape 2x64x64: a batch of matrices is for transposes; a matrix reduction takes ROWSxCOLS" "$tmp/axis.yaml" --shape 2x64x64
printf 'kernel: reduce_axis\naxis: [rows, cols]\n' > "$tmp/axes.yaml"
refused "points 1 and 2 differ in axis (rows, cols): every point of one tuning must compute the same" "$tmp/axes.yaml" --shape 64x64
"$b/kgen" tune "$tmp/axis.yaml" --shape 64 > "$tmp/out" 2>&1 && bad "--shape 64 accepted"
grep -q "bad --shape 64 (ROWSxCOLS" "$tmp/out" || bad "--shape 64: $(cat "$tmp/out")"

# R4-3: a FIFO planted at the records' default path, or given to --records,
# is refused at once (the open is non-blocking, the type checked after it):
# it held kgen tune in open() for ever.
printf 'kernel: reduce\nthreads: 256\n' > "$tmp/fifo.yaml"
mkfifo "$tmp/fifo.records.jsonl" "$tmp/named.fifo" || exit 99
for records in "" "--records $tmp/named.fifo"; do
	# shellcheck disable=SC2086
	timeout 60 "$b/kgen" tune "$tmp/fifo.yaml" --n 1000 $records > "$tmp/out" 2>&1
	rc=$?
	[ $rc -eq 124 ] && bad "kgen tune ${records:-(default records)} blocked on a FIFO"
	[ $rc -eq 3 ] && grep -q "refusing the records file .*: not a regular file (a FIFO); name a file with --records" \
		"$tmp/out" || bad "a FIFO as the records ${records:-(default)}: exit $rc: $(cat "$tmp/out")"
done
# R4-1: neither the records nor the plan may be the space (or each other).
cp "$tmp/fifo.yaml" "$tmp/keep.yaml"
for args in "--records $tmp/fifo.yaml" "--plan $tmp/./fifo.yaml" "--plan $tmp/r.jsonl --records $tmp/r.jsonl" \
	"--plan $tmp/./r2.jsonl --records $tmp/r2.jsonl"; do
	# shellcheck disable=SC2086
	"$b/kgen" tune "$tmp/fifo.yaml" --n 1000 $args > "$tmp/out" 2>&1
	rc=$?
	[ $rc -eq 2 ] && cmp -s "$tmp/fifo.yaml" "$tmp/keep.yaml" &&
		grep -Eq "is the space (.* )?itself: writing it would destroy the input|is the records file: give the plan a file of its own" \
		"$tmp/out" || bad "kgen tune space.yaml $args: exit $rc (expected 2, the space untouched): $(cat "$tmp/out")"
done

# kernel: scan has tune hooks: its points are verified (here they fail,
# every element poisoned) and CUB's DeviceScan is its peer.
printf 'kernel: scan\nop: sum\ndtype: f32\nthreads: [128, 256]\nitems_per_thread: [16, 32]\n' > "$tmp/scan.yaml"
"$b/kgen" tune "$tmp/scan.yaml" --n 1000 --n 2^16 -j 2 --records "$tmp/scan.jsonl" --plan "$tmp/scan-plan.yaml" \
	> "$tmp/out" 2> "$tmp/err"
rc=$?
[ $rc -eq 6 ] || bad "kgen tune of a scan space exited $rc, expected 6: $(cat "$tmp/err")"
[ "$(grep -c '^kgen tune: point [1-4] (threads=.*) at n = .*: FAIL out\[0\]: got' "$tmp/err")" -eq 8 ] ||
	bad "a scan point's failure: $(cat "$tmp/err")"
[ "$(grep -c '"spec":"kernel: scan' "$tmp/scan.jsonl")" -eq 8 ] || bad "scan records: $(cat "$tmp/scan.jsonl")"
[ -e "$tmp/scan-plan.yaml" ] && bad "a plan written for a scan space with no verified point"
KGEN_CUB=/nonexistent "$b/kgen" tune "$tmp/scan.yaml" --n 1000 --against cub --records "$tmp/scan.jsonl" \
	> "$tmp/out" 2>&1
grep -q "kgen-cub could not time sum f32 at n = 1000" "$tmp/out" ||
	bad "kgen tune --against cub of a scan did not ask kgen-cub: $(cat "$tmp/out")"
# CUB's scan times are keyed by what DeviceScan computes, apart from a
# reduction's of the same op and dtype (the stand-in kgen-cub of above).
KGEN_CUB=$tmp/fake-cub "$b/kgen" tune "$tmp/scan.yaml" --n 1000 --against cub --records "$tmp/scan-cub.jsonl" \
	> "$tmp/out" 2>&1
grep -q '|cub scan inclusive sum f32 f32|' "$tmp/scan-cub.jsonl" && ! grep -q '|cub sum f32|' "$tmp/scan-cub.jsonl" ||
	bad "a scan's CUB record key: $(cat "$tmp/scan-cub.jsonl") $(cat "$tmp/out")"

[ $fail -eq 0 ] && echo "ok: kgen tune's records"
exit $fail
