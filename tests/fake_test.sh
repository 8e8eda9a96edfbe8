#!/bin/sh
# The runtime's host code, and `kgen run`'s, without a GPU: against the fake
# driver tests/fake_cuda/libcuda.so.1 (tests/fake_cuda/fake_cuda.c), put
# first on LD_LIBRARY_PATH.  tests/fake_test checks launch geometry,
# arguments, tensor maps and driver failures; tests/runtime_test runs its
# GPU-only cases (layout errors) against it; `kgen run` verifies nothing
# (kernels do not run) but must report FAIL cleanly, not crash.
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
status=0
"$b/tests/fake_test" || status=1
# rows_launch_test builds auto's row specs case after case: a disk cache of its own
# lets a kernel another case compiled be read back (9 s against 6 s on 2 cores)
rows_cache=$(mktemp -d "${TMPDIR:-/tmp}/kgen-rows-launch.XXXXXX")
(unset KGEN_CACHE; KGEN_CACHE_DIR=$rows_cache "$b/tests/rows_launch_test") || status=1
rm -rf "$rows_cache"
"$b/tests/runtime_test" || status=1
# Four threads building specs and plans in one context, the disk cache off
# (KGEN_CACHE=0 above); make check-tsan runs eight under ThreadSanitizer
# with a disk cache of their own, which they race on too.
"$b/tests/thread_stress" 4 2 || status=1
out=$("$b/kgen" run --n 1000 --shape 3x33x65 --pad 2 "$top_srcdir/specs/reduce_vec4.yaml" \
	"$top_srcdir/specs/transpose/best.yaml" "$top_srcdir/specs/reduce_axis/best/rows.yaml" 2>&1)
rc=$?
echo "$out"
if [ $rc -ne 6 ] || ! echo "$out" | grep -q 'Fake H200'; then
	echo "FAIL: kgen run against the fake driver exited $rc (expected 6: nothing runs, every result is wrong)"
	status=1
fi
# kernel: rows's runner: every output compared (and wrong: nothing runs),
# the poisoned outputs read back, a FAIL line per spec and shape; a batch
# shape refused before the GPU.
out=$("$b/kgen" run --verify --shape 33x65 --pad 2 "$top_srcdir/specs/rows/softmax.yaml" \
	"$top_srcdir/specs/rows/cross_entropy.yaml" 2>&1)
rc=$?
echo "$out"
if [ $rc -ne 6 ] || [ "$(echo "$out" | grep -c ' FAIL ')" -ne 2 ] ||
   ! echo "$out" | grep -q 'rows/softmax.yaml  *33x65  *softmax  *FAIL  *y\[0\]\[0\] = ' ||
   ! echo "$out" | grep -q 'rows/cross_entropy.yaml  *33x65  *cross_entropy FAIL  *row 0: loss '; then
	echo "FAIL: kgen run of specs/rows against the fake driver exited $rc (expected 6 and a FAIL line a spec)"
	status=1
fi
# kernel: scan's runner: every element compared with its prefix's
# reference (and wrong: nothing runs), a FAIL line per spec and n.
out=$("$b/kgen" run --verify --n 5000 --n 1 "$top_srcdir/specs/scan/sum-f32.yaml" \
	"$top_srcdir/specs/scan/exclusive-sum-i32.yaml" 2>&1)
rc=$?
echo "$out"
if [ $rc -ne 6 ] || [ "$(echo "$out" | grep -c ' FAIL ')" -ne 4 ] ||
   ! echo "$out" | grep -q 'scan/sum-f32.yaml  *n=5000  *FAIL  *out\[0\]: got -nan, expected .*; 5000 of 5000 elements wrong' ||
   ! echo "$out" | grep -q 'scan/exclusive-sum-i32.yaml  *n=1  *FAIL  *out\[0\]: got -9187201950435737472, expected 0; 1 of 1 elements wrong'; then
	echo "FAIL: kgen run of specs/scan against the fake driver exited $rc (expected 6 and a FAIL line a spec and n)"
	status=1
fi
# Along rows: --shape ROWSxCOLS scans each row (kgen_scan_rows), the input's
# rows --pad elements longer; a wrong element is named by row and column; a
# batch is refused.
out=$("$b/kgen" run --verify --shape 4x100 --pad 3 "$top_srcdir/specs/scan/exclusive-sum-i32.yaml" 2>&1)
rc=$?
echo "$out"
if [ $rc -ne 6 ] ||
   ! echo "$out" | grep -q 'scan/exclusive-sum-i32.yaml  *4x100  *FAIL  *out\[0\]\[0\]: got -9187201950435737472, expected 0; 400 of 400 elements wrong'; then
	echo "FAIL: kgen run --shape of a scan against the fake driver exited $rc (expected 6 and a 4x100 FAIL line)"
	status=1
fi
# Down the columns (axis: cols, kgen_scan_cols): a wrong element named by
# row and column; --n N is a column of N; kgen tune refuses it.
out=$("$b/kgen" run --verify --shape 300x5 --n 7 "$top_srcdir/specs/scan/cols-sum-f32.yaml" 2>&1)
rc=$?
echo "$out"
if [ $rc -ne 6 ] ||
   ! echo "$out" | grep -q 'scan/cols-sum-f32.yaml  *300x5  *FAIL  *out\[0\]\[0\]: got -nan, expected .*; 1500 of 1500 elements wrong' ||
   ! echo "$out" | grep -q 'scan/cols-sum-f32.yaml  *7x1  *FAIL  *out\[0\]\[0\]: got -nan, expected .*; 7 of 7 elements wrong'; then
	echo "FAIL: kgen run of a column scan against the fake driver exited $rc (expected 6 and FAIL lines 300x5 and 7x1)"
	status=1
fi
tdir=$(mktemp -d) || exit 99  # kgen tune's records and spaces of a scan
out=$("$b/kgen" tune "$top_srcdir/specs/scan/cols-sum-f32.yaml" --n 1000 --records "$tdir/cols.jsonl" 2>&1)
if ! echo "$out" | grep -q 'kgen tune sizes a scan down the columns (axis: cols) by its matrix: give --shape ROWSxCOLS, not --n'; then
	echo "FAIL: kgen tune of a column scan by --n: $out"
	status=1
fi
# kgen tune of a scan by --shape: down the columns (axis: cols) or along the rows, each point checked (here
# every element poisoned: each fails), records keyed by rows and cols; no plan, no CUB.
printf 'kernel: scan\naxis: cols\nop: sum\ndtype: f32\nitems_per_thread: [8, 12]\n' > "$tdir/cols.yaml"
out=$("$b/kgen" tune "$tdir/cols.yaml" --shape 3000x70 --records "$tdir/cols-shape.jsonl" 2>&1)
rc=$?
if [ $rc -ne 6 ] || [ "$(echo "$out" | grep -c 'kgen tune: point [12] (items_per_thread=[0-9]*) at 3000x70: FAIL out\[0\]\[0\]: got -nan.*210000 of 210000 elements wrong')" -ne 2 ] ||
   [ "$(grep -c '"rows":3000,"cols":70,"method":"events","verify":"FAIL"' "$tdir/cols-shape.jsonl")" -ne 2 ]; then
	echo "FAIL: kgen tune of a column scan by --shape exited $rc (expected 6, two FAIL lines, two records): $out"
	status=1
fi
out=$("$b/kgen" tune "$top_srcdir/specs/scan/sum-f32.yaml" --shape 4x5000 --records "$tdir/rows-shape.jsonl" 2>&1)
rc=$?
if [ $rc -ne 6 ] || ! echo "$out" | grep -q 'at 4x5000: FAIL out\[0\]\[0\]'; then
	echo "FAIL: kgen tune of a row scan by --shape exited $rc (expected 6 and a 4x5000 FAIL line): $out"
	status=1
fi
for extra in "--against cub" "--plan $tdir/never.yaml" "--n 100"; do
	out=$("$b/kgen" tune "$tdir/cols.yaml" --shape 3000x70 $extra --records "$tdir/cols-shape.jsonl" 2>&1)
	rc=$?
	if [ $rc -ne 2 ] || ! echo "$out" | grep -Eq 'cub::DeviceScan times a vector|size plans pick by n; kernel: scan is sized by --shape here|--n and --shape: kgen tune sizes kernel: scan by one of them' ||
	   [ -e "$tdir/never.yaml" ]; then
		echo "FAIL: kgen tune of a scan by --shape with $extra exited $rc (expected 2 and why): $out"
		status=1
	fi
done
rm -rf "$tdir"
out=$("$b/kgen" run --shape 2x4x100 "$top_srcdir/specs/scan/sum-f32.yaml" 2>&1)
if ! echo "$out" | grep -q 'a scan runs along each row of a ROWSxCOLS matrix, not a batch of them'; then
	echo "FAIL: kgen run --shape 2x4x100 of a scan: $out"
	status=1
fi
# --bench of a scan: kgen-cub's scan form (a stand-in here that logs its
# arguments) for the spec's mode, op and types, CUB's time on the line and
# in the TSV's cub columns; none for a scan it has not (op: custom).
dir=$(mktemp -d)
printf '#!/bin/sh\necho "$*" >> "%s/calls"\necho "cub scan median_ms=0.1 offsets=32 check=ok"\n' "$dir" > "$dir/kgen-cub"
chmod +x "$dir/kgen-cub"
out=$("$b/kgen" run --bench --runs 3 --n 1000 --cub "$dir/kgen-cub" --tsv "$dir/tsv" \
	"$top_srcdir/specs/scan/exclusive-sum-i32.yaml" "$top_srcdir/specs/scan/custom-bf16.yaml" 2>&1)
rc=$?
echo "$out"
if [ $rc -ne 0 ] || [ "$(echo "$out" | grep -c ' CUB/32 *100.00 us  kgen/CUB ')" -ne 1 ] ||
   ! grep -qx -- '--out=i64 scan exclusive sum i32 1000 3 [0-9]*' "$dir/calls" || [ "$(wc -l < "$dir/calls")" -ne 1 ] ||
   ! awk -F'\t' 'NR == 2 && $10 == "100.000" && $12 > 0 && $13 == "32" { a = 1 }
	NR == 3 && $10 == "-1.000" && $13 == "0" { c = 1 } END { exit !(a && c) }' "$dir/tsv"; then
	echo "FAIL: kgen run --bench of scans with a stand-in kgen-cub: exit $rc; its calls: $(cat "$dir/calls"); TSV:"
	cat "$dir/tsv"
	status=1
fi
rm -rf "$dir"
# --bench of a matmul: a device-to-device copy moving A, B and C's bytes once a
# shape (1024x512x256 bf16: 1835008 bytes), each line's time over it ("of copy"; the
# fake's events read 1 ms for both), and the copy's GB/s and kgen's share of it
# in the TSV's ceiling columns; cuBLAS is a stand-in that says 0.5 ms.
dir=$(mktemp -d)
printf '#!/bin/sh
echo "cublas dtype=bf16 algo=0 algos=1 api=gemmex median_ms=0.5 tflops=1 check=ok maxerr=0.1"
' \
	> "$dir/kgen-cublas"
chmod +x "$dir/kgen-cublas"
out=$("$b/kgen" run --bench --runs 3 --shape 1024x512x256 --cublas "$dir/kgen-cublas" --tsv "$dir/tsv" \
	"$top_srcdir/specs/matmul/best/wgmma_bf16.yaml" "$top_srcdir/specs/matmul/best/wgmma_f16.yaml" 2>&1)
rc=$?
echo "$out"
if [ $rc -ne 0 ] || [ "$(echo "$out" | grep -c '^# device-to-device copy of 0.9 MB (moving A, B and C.s 1.8 MB, read + write): 1000.00 us, 1.8 GB/s$')" -ne 1 ] ||
   [ "$(echo "$out" | grep -c 'kgen/cuBLAS 0.500 by cublasGemmEx  of copy 1.000 ')" -ne 2 ] ||
   ! awk -F'\t' 'NR > 1 && $8 == "1.8" && $9 == "100.0" && $10 == "500.000" { n++ } END { exit n != 2 }' "$dir/tsv"; then
	echo "FAIL: kgen run --bench of matmuls: exit $rc; expected one copy line, of copy 1.000 on both lines; TSV:"
	cat "$dir/tsv"
	status=1
fi
rm -rf "$dir"
# --tsv of every family: each row has the header's cells (transpose,
# reduce_axis and rows once left out method and spread, and kgen plot refused
# the table), the matrix families' method per-call.
dir=$(mktemp -d)
out=$("$b/kgen" run --bench --runs 2 --n 1000 --shape 64x64 --cub '' --cublas '' --tsv "$dir/tsv" \
	"$top_srcdir/specs/reduce_vec4.yaml" "$top_srcdir/specs/transpose/best.yaml" \
	"$top_srcdir/specs/reduce_axis/best/rows.yaml" "$top_srcdir/specs/rows/softmax.yaml" \
	"$top_srcdir/specs/scan/sum-f32.yaml" 2>&1)
rc=$?
if [ $rc -ne 0 ] || ! awk -F'\t' 'NR == 1 { h = NF } NF != h { bad = 1 } $3 ~ /transpose|rows|softmax/ && $14 != "per-call" { bad = 1 }
	END { exit bad || NR != 7 || h != 15 }' "$dir/tsv"; then
	echo "FAIL: kgen run --tsv of every family: exit $rc; rows of other cell counts than the header's, or not 6:"
	cat "$dir/tsv"
	echo "$out"
	status=1
fi
# --tsv - is standard output (after the human table), as --json - is; it made a file named "-".
made=$([ -e ./- ] && echo before)
tsvout=$("$b/kgen" run --bench --runs 2 --n 1000 --cub '' --tsv - "$top_srcdir/specs/reduce_vec4.yaml" 2>/dev/null)
[ -z "$made" ] && [ -e ./- ] && made=now && rm -f ./-
if [ "$made" = now ] || ! printf '%s\n' "$tsvout" | grep -q "^spec	dtype	op	n	" ||
	[ "$(printf '%s\n' "$tsvout" | grep -c "reduce_vec4.yaml	f32	sum	1000	")" -ne 1 ]; then
	echo "FAIL: kgen run --tsv - is not the table on standard output:"
	printf '%s\n' "$tsvout"
	status=1
fi
# A signal (SIGTERM, raised by the fake driver in the third result's
# cuCtxSynchronize) stops kgen run after the result under way: the rows so
# far are written to --tsv and --json, the fourth size never runs, and
# kgen run ends by the signal; with SIGTERM ignored (nohup) it runs on.
out=$(FAKE_CUDA_SIGNAL=cuCtxSynchronize:3 "$b/kgen" run --n 1000 --n 2000 --n 3000 --n 4000 --tsv "$dir/stopped.tsv" \
	--json "$dir/stopped.json" "$top_srcdir/specs/reduce_vec4.yaml" 2>&1)
rc=$?
if [ $rc -ne 143 ] || ! echo "$out" | grep -q 'stopping after the result under way' ||
   ! echo "$out" | grep -q 'stopped by signal 15' || echo "$out" | grep -q 'n=4000' ||
   [ "$(grep -c 'reduce_vec4.yaml	f32	sum	' "$dir/stopped.tsv")" -ne 3 ] ||
   [ "$(grep -c '"n": [123]000,' "$dir/stopped.json")" -ne 3 ]; then
	echo "FAIL: kgen run stopped by SIGTERM: exit $rc (143 wanted), the rows so far in --tsv and --json:"
	echo "$out"
	cat "$dir/stopped.tsv" "$dir/stopped.json"
	status=1
fi
out=$(trap '' TERM; FAKE_CUDA_SIGNAL=cuCtxSynchronize:3 "$b/kgen" run --n 1000 --n 2000 --n 3000 --n 4000 \
	--tsv "$dir/ignored.tsv" "$top_srcdir/specs/reduce_vec4.yaml" 2>&1)
rc=$?
if [ $rc -ne 6 ] || [ "$(grep -c 'reduce_vec4.yaml	f32	sum	' "$dir/ignored.tsv")" -ne 4 ]; then
	echo "FAIL: kgen run with SIGTERM ignored: exit $rc (6 wanted: the fake's results do not verify), 4 rows wanted:"
	echo "$out"
	cat "$dir/ignored.tsv"
	status=1
fi
rm -rf "$dir"
out=$("$b/kgen" run --shape 2x33x65 "$top_srcdir/specs/rows/softmax.yaml" 2>&1)
rc=$?
if [ $rc -ne 2 ] || ! echo "$out" | grep -q 'kernel: rows takes ROWSxCOLS, not a batch'; then
	echo "FAIL: kgen run --shape 2x33x65 of a rows spec: exit $rc, $out"
	status=1
fi
# shipped:OP-DTYPE: the plan for the GPU's model (the fake is an H200), said
# on a line before it runs; an op the model has no plan for is an error,
# and the others still run.
out=$(KGEN_PLANS_DIR="$top_srcdir/specs/plans" "$b/kgen" run --n 1000 shipped:sum-f32 shipped:argmax-f32 2>&1)
rc=$?
echo "$out"
if [ $rc -ne 6 ] || ! echo "$out" | grep -q '^# shipped:sum-f32 on Fake H200: .*/specs/plans/nvidia-h200/sum-f32.yaml$' ||
   ! echo "$out" | grep -q '^kgen: error: shipped:argmax-f32: no plan for argmax-f32 tuned on the Fake H200.s model in ' ||
   ! echo "$out" | grep -q 'nvidia-h200/sum-f32.yaml  *n=1000 '; then
	echo "FAIL: kgen run shipped:sum-f32 shipped:argmax-f32: exit $rc; expected the H200's sum plan run (6), argmax refused"
	status=1
fi
# kgen info names the plans each GPU takes, or says there are none.
out=$(KGEN_PLANS_DIR="$top_srcdir/specs/plans" "$b/kgen" info 2>&1)
echo "$out"
echo "$out" | grep -q '^   plans: .*/specs/plans/nvidia-h200: matmul-bf16 matmul-f16 max-bf16 max-f32 max-i32 min-bf16 min-f32 min-i32 scan_sum-f32 scan_sum-i32 sum-bf16 sum-f32 sum-i32$' ||
	{ echo "FAIL: kgen info did not list the H200's thirteen plans under the Fake H200"; status=1; }
out=$(KGEN_PLANS_DIR=/nonexistent "$b/kgen" info 2>&1)
echo "$out" | grep -qx '   plans: none in /nonexistent (reductions, scans and matmul take their default specs)' ||
	{ echo "FAIL: kgen info with no plans folder: $out"; status=1; }
# --identity fills with the identity of min, max, argmin and argmax only.
out=$("$b/kgen" run --identity --n 1000 "$top_srcdir/specs/reduce/ops/argmax-f32.yaml" "$top_srcdir/specs/reduce_vec4.yaml" 2>&1)
rc=$?
echo "$out"
if [ $rc -ne 2 ] || ! echo "$out" | grep -q 'expected -inf at 0' ||
   ! echo "$out" | grep -q 'kgen: error: --identity needs op min, max, argmin or argmax, not sum'; then
	echo "FAIL: kgen run --identity: exit $rc; expected argmax's reference -inf at 0, then exit 2 at the sum"
	status=1
fi
# --method graph: each vector reduction timed from a CUDA graph (the fake's
# capture refuses what the driver refuses in one), the spread after the time,
# the method and the spread last in the TSV.
tsv=$(mktemp)
out=$("$b/kgen" run --bench --method graph --runs 5 --cub '' --n 1000 --tsv "$tsv" \
	"$top_srcdir/specs/reduce_vec4.yaml" "$top_srcdir/specs/reduce/ops/argmax-f32.yaml" 2>&1)
rc=$?
echo "$out"
if [ $rc -ne 0 ] || [ "$(echo "$out" | grep -c ' us ±0.0% ')" -ne 2 ] ||
   ! awk -F'\t' 'NR == 1 && NF == 15 && $14 == "method" && $15 == "spread" { h = 1 }
	NR > 1 && $14 == "graph" && $15 == "0.0000" { r++ } END { exit !(h && r == 2) }' "$tsv"; then
	echo "FAIL: kgen run --bench --method graph against the fake driver: exit $rc; TSV:"
	cat "$tsv"
	status=1
fi
rm -f "$tsv"
# --json FILE: the same rows as JSON objects, one per line, keyed by the
# TSV's header, numbers as numbers (- : standard output, after the table).
json=$(mktemp)
"$b/kgen" run --bench --method graph --runs 5 --cub '' --n 1000 --json "$json" \
	"$top_srcdir/specs/reduce_vec4.yaml" "$top_srcdir/specs/reduce/ops/argmax-f32.yaml" > /dev/null 2>&1
rc=$?
if [ $rc -ne 0 ] || [ "$(wc -l < "$json")" -ne 2 ] ||
   ! grep -q '^{"spec": ".*reduce_vec4.yaml", "dtype": "f32", "op": "sum", "n": 1000, "verify": "-", "time_us": [0-9.]*,.*"method": "graph", "spread": 0.0000}$' "$json"; then
	echo "FAIL: kgen run --json against the fake driver: exit $rc; JSON:"
	cat "$json"
	status=1
fi
if command -v python3 > /dev/null && ! python3 -c 'import json, sys; [json.loads(l) for l in open(sys.argv[1])]' "$json"; then
	echo "FAIL: kgen run --json wrote lines that are not JSON"
	status=1
fi
"$b/kgen" run --cub '' --n 1000 --json - "$top_srcdir/specs/reduce_vec4.yaml" 2>/dev/null | tail -1 | grep -q '^{"spec": ' ||
	{ echo "FAIL: kgen run --json - did not end standard output with the JSON rows"; status=1; }
rm -f "$json"
# KGEN_NVRTC_OPTIONS with an architecture is refused even where the disk
# cache holds the spec's kernel under kgen's own options, which are all
# that key has (the refused option is not in it): a hit must not hide it.
cache=$(mktemp -d "${TMPDIR:-/tmp}/kgen-fake-options.XXXXXX") && chmod 700 "$cache" || exit 99
KGEN_CACHE=1 KGEN_CACHE_DIR=$cache KGEN_NVRTC_OPTIONS= "$b/kgen" run --n 1000 "$top_srcdir/specs/reduce_vec4.yaml" \
	> /dev/null 2>&1  # under kgen's options alone (not fast_nvrtc.sh's)
out=$(KGEN_CACHE=1 KGEN_CACHE_DIR=$cache KGEN_NVRTC_OPTIONS=-arch=sm_80 "$b/kgen" run --n 1000 \
	"$top_srcdir/specs/reduce_vec4.yaml" 2>&1)
rc=$?
if [ -z "$(ls "$cache")" ] || [ $rc -ne 2 ] || ! echo "$out" | grep -q 'KGEN_NVRTC_OPTIONS: -arch=sm_80: kgen chooses the architecture'; then
	echo "FAIL: a refused KGEN_NVRTC_OPTIONS with the spec in the disk cache: exit $rc; $out"
	status=1
fi
rm -rf "$cache"
# R4-2: kgen run --json is valid JSON whatever the spec paths: names that
# look like numbers ("01", "1.", "1e5") stay strings, a tab or a newline in a
# name stays in its row (the --tsv table escapes them), a Latin-1 byte is
# read as Latin-1; checked by Python's JSON parser, row by row.
# R4-1: --json or --tsv naming a spec (by inode: ./s, a hard link) is
# refused before anything is written; the spec is left whole.
hostile=$(mktemp -d "${TMPDIR:-/tmp}/kgen-hostile.XXXXXX") || exit 99
abs_src=$(cd "$top_srcdir" && pwd) abs_b=$(cd "$b" && pwd) || exit 99
if command -v python3 > /dev/null 2>&1; then
	(
		cd "$hostile" || exit 1
		for name in 01 1. 1e5 "$(printf 'a\tb')" "$(printf 'a\nb')" "$(printf '\351t\351')" 'q"\' '-1'; do
			cp "$abs_src/specs/reduce_vec4.yaml" "./$name" || exit 1
		done
		LD_LIBRARY_PATH=$abs_b/tests/fake_cuda "$abs_b/kgen" run --n 100 --json out.json --tsv out.tsv -- 01 1. 1e5 "$(printf 'a\tb')" "$(printf 'a\nb')" \
			"$(printf '\351t\351')" 'q"\' -1 > /dev/null 2>&1
		python3 - <<'PY' || exit 1
import json
want = ["01", "1.", "1e5", "a\tb", "a\nb", "\u00e9t\u00e9", 'q"\\', "-1"]
rows = [json.loads(line) for line in open("out.json", encoding="utf-8")]
assert [r["spec"] for r in rows] == want, [r["spec"] for r in rows]
assert all(type(r["n"]) is int and r["dtype"] == "f32" and isinstance(r["time_us"], float) for r in rows), rows
tsv = open("out.tsv", "rb").read().split(b"\n")
assert len(tsv) == len(want) + 2 and all(len(l.split(b"\t")) == 15 for l in tsv[:-1]), tsv
PY
	) || { echo "FAIL: kgen run --json with hostile spec paths is not the rows as valid JSON"; status=1; }
else
	echo "SKIP: the --json check of hostile spec paths needs python3"
fi
for args in "--json $hostile/s.yaml" "--tsv $hostile/./s.yaml" "--json $hostile/link.yaml" "--tsv $hostile/t --json $hostile/t" \
	"--tsv $hostile/u --json $hostile/./u"; do
	rm -f "$hostile/s.yaml" "$hostile/link.yaml"
	cp "$top_srcdir/specs/reduce_vec4.yaml" "$hostile/s.yaml" && ln "$hostile/s.yaml" "$hostile/link.yaml" || exit 99
	# shellcheck disable=SC2086
	out=$("$b/kgen" run --n 100 "$hostile/s.yaml" $args 2>&1)
	rc=$?
	if [ $rc -ne 2 ] || ! cmp -s "$top_srcdir/specs/reduce_vec4.yaml" "$hostile/s.yaml" ||
	   ! echo "$out" | grep -Eq 'is the spec .*itself: writing it would destroy the input; choose another file|name one file'; then
		echo "FAIL: kgen run s.yaml $args: exit $rc (expected 2, the spec untouched): $out"
		status=1
	fi
done
rm -rf "$hostile"
exit $status
