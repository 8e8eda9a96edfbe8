#!/bin/sh
# replan.sh: choose every shipped size plan again, with --choose mean, from
# the records of the tuning runs that chose it (named on its "#   kgen tune" line),
# measuring nothing.  kgen tune keys a record by GPU, driver and NVRTC, so
# on a machine without that GPU the records are read through a copy whose
# keys name this machine's (the fake driver's "Fake H200" and this NVRTC);
# kgen tune must then say "0 measured", or the script stops.  The plan's
# header is given back the tuning GPU's key and the shipped records' paths.
# Run from the build directory: sh bench/results/cpu-dev/2026-11-28-plans-mean/replan.sh OUT
set -eu
out=${1:?usage: replan.sh OUTDIR}
mkdir -p "$out"
printf 'kernel: reduce\n' > "$out/one.yaml"
here=$(LD_LIBRARY_PATH=tests/fake_cuda KGEN_CACHE=0 ./kgen tune "$out/one.yaml" --n 1 --records "$out/one.jsonl" 2>/dev/null |
	sed -n 's/^# kgen tune on \(.*\)|kgen .*/\1/p')
rm -f "$out/one.yaml" "$out/one.jsonl"
[ -n "$here" ] || { echo "replan.sh: cannot read this machine's key" >&2; exit 1; }
for f in specs/plans/nvidia-h*/*.yaml; do
	gpu=$(basename "$(dirname "$f")") p=$(basename "$f" .yaml)
	op=${p%-*} dtype=${p#*-}
	recs=$(sed -n 's/^#   kgen tune .*--records \(.*\) --plan .*/\1/p' "$f")
	first=${recs%% plus *}
	files=$first
	case $recs in *" plus "*) files="$first $(dirname "$first")/../${recs#* plus }" ;; esac
	real=$(for r in $files; do case $r in *.gz) zcat "$r" ;; *) cat "$r" ;; esac; done | head -1 |
		sed 's/^{"key":"\([^|]*|[^|]*|[^|]*\)|.*/\1/')
	tmp=$out/$gpu-$p.records.jsonl
	for r in $files; do case $r in *.gz) zcat "$r" ;; *) cat "$r" ;; esac; done |
		awk -v real="$real|" -v here="$here|" '{ i = index($0, real); if (i) $0 = substr($0, 1, i - 1) here substr($0, i + length(real)); print }' > "$tmp"
	LD_LIBRARY_PATH=tests/fake_cuda KGEN_CACHE=0 KGEN_CUB=/nonexistent ./kgen tune specs/plans/reduce.space.yaml \
		--set op="$op" --set dtype="$dtype" --set grid=tile --method events,graph --against cub --choose mean \
		--records "$tmp" --plan "$out/$gpu-$p.yaml" > "$out/$gpu-$p.log" 2>&1 || { echo "$f: kgen tune failed" >&2; tail -3 "$out/$gpu-$p.log" >&2; exit 1; }
	grep -q "^# [0-9]* points x 10 sizes: 0 measured (0 failed to verify)" "$out/$gpu-$p.log" ||
		{ echo "$f: something was measured: $(tail -1 "$out/$gpu-$p.log")" >&2; exit 1; }
	rm -f "$tmp"
	awk -v tmp="$tmp" -v recs="$recs" -v plan="$f" -v here="$here" -v real="$real" 'NR <= 5 {
		while ((i = index($0, tmp))) $0 = substr($0, 1, i - 1) recs substr($0, i + length(tmp))
		while ((i = index($0, here))) $0 = substr($0, 1, i - 1) real substr($0, i + length(here))
		if ((i = index($0, "--plan "))) { rest = substr($0, i + 7); $0 = substr($0, 1, i + 6) plan substr(rest, index(rest, " ")) }
	} { print }' "$out/$gpu-$p.yaml" > "$f"
	echo "$f: $(grep "^# [0-9]* points" "$out/$gpu-$p.log")"
done
