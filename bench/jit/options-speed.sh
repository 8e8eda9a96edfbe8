#!/bin/sh
# options-speed.sh OUTDIR "OPTIONS" ROUNDS RUN-ARGUMENTS...: do NVRTC options
# that change the kernels (bench/jit/nvrtc_options says which do) slow them?
# `kgen run --verify --bench RUN-ARGUMENTS` ROUNDS times without and with
# KGEN_NVRTC_OPTIONS=OPTIONS, alternating (A, B, A, B, ...: a GPU or host
# that drifts weighs on both alike), each a process of its own; then, for
# every spec and size, the median of A's and B's times over the rounds and
# B / A.  Every result must verify.  Writes OUTDIR/A-R.tsv, OUTDIR/B-R.tsv
# and OUTDIR/speed.txt (the table, printed too).  Run from the build
# directory on the GPU machine, e.g.
#   bench/jit/options-speed.sh $OUT --Ofast-compile=min 3 --method events \
#       --runs 20 --n 2^20 --n 2^27 specs/reduce/best/*.yaml
set -u
if [ $# -lt 4 ]; then
	echo "usage: options-speed.sh OUTDIR \"OPTIONS\" ROUNDS RUN-ARGUMENTS..." >&2
	exit 2
fi
out=$1 options=$2 rounds=$3
shift 3
case $rounds in
'' | *[!0-9]*) echo "options-speed.sh: ROUNDS must be a positive number, not '$rounds'" >&2; exit 2 ;;
esac
kgen=${KGEN:-./kgen}
mkdir -p "$out" || exit 1
status=0
r=1
while [ "$r" -le "$rounds" ]; do
	env -u KGEN_NVRTC_OPTIONS "$kgen" run --verify --bench --tsv "$out/A-$r.tsv" "$@" > "$out/A-$r.log" 2>&1 || status=1
	KGEN_NVRTC_OPTIONS=$options "$kgen" run --verify --bench --tsv "$out/B-$r.tsv" "$@" > "$out/B-$r.log" 2>&1 || status=1
	r=$((r + 1))
done
python3 - "$out" "$options" "$rounds" <<'EOF' | tee "$out/speed.txt"
import csv, glob, statistics, sys

out, options, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
times, bad = {}, 0
for side in "AB":
    for path in sorted(glob.glob(f"{out}/{side}-*.tsv")):
        for row in csv.DictReader(open(path), delimiter="\t"):
            if row["verify"] not in ("ok", "-"):
                bad += 1
            key = (row["spec"], row["dtype"], row["op"], row["n"])
            if float(row["time_us"]) > 0:
                times.setdefault(key, {"A": [], "B": []})[side].append(float(row["time_us"]))
print(f"# B: KGEN_NVRTC_OPTIONS={options}; A: without; {rounds} rounds, medians of each side's rounds (us)")
print("spec\tdtype\top\tsize\tA_us\tB_us\tB/A")
ratios = []
for key, t in times.items():
    if t["A"] and t["B"]:
        a, b = statistics.median(t["A"]), statistics.median(t["B"])
        ratios.append(b / a)
        print("\t".join(key) + f"\t{a:.3f}\t{b:.3f}\t{b / a:.3f}")
if ratios:
    print(f"# {len(ratios)} results: B/A median {statistics.median(ratios):.3f}, "
          f"least {min(ratios):.3f}, most {max(ratios):.3f}; {bad} did not verify")
else:
    print(f"# no result timed both ways; {bad} did not verify")
EOF
exit $status
