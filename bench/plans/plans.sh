#!/bin/sh
# plans.sh OUTDIR [METHOD...]: issue 9's and 23's bars for the shipped size plans
# of the GPU (specs/plans/nvidia-MODEL/*.yaml), each in one run on one GPU, every result verified in
# the same run: `kgen run --verify --bench --method M` of every plan at n =
# 2^10, 2^12, ..., 2^24, 2^27, 2^30 against cub::DeviceReduce (timed by the
# kgen-cub helper with the same method), for each METHOD (default: events
# graph).  Writes OUTDIR/plans-METHOD.tsv and OUTDIR/plans.txt with the
# ratios.  PLANS="a.yaml b.yaml" times those plans instead.
set -u
out=$1
shift
methods=${*:-events graph}
kgen=${KGEN:-./kgen}
top=${top_srcdir:-.}
# The GPU's own plans, as kgen info lists them under GPU 0 ("   plans: FOLDER: sum-f32 ...").
if [ -z "${PLANS:-}" ]; then
	line=$(KGEN_PLANS_DIR="$top/specs/plans" "$kgen" info | sed -n '/^0: /,/^1: /s/^   plans: //p')
	case $line in
	"") echo "plans.sh: kgen info named no plans for GPU 0" >&2; exit 1 ;;
	"none in "*) echo "plans.sh: kgen ships no plans for this GPU ($line)" >&2; exit 1 ;;
	esac
	folder=${line%%: *}
	plans=$(for p in ${line#*: }; do echo "$folder/$p.yaml"; done)
fi
plans=${PLANS:-$plans}
sizes="--n 2^10 --n 2^12 --n 2^14 --n 2^16 --n 2^18 --n 2^20 --n 2^22 --n 2^24 --n 2^27 --n 2^30"
{
	echo "# $(date -u '+%Y-%m-%d %H:%M UTC'): $0 $out $methods"
	for m in $methods; do
		# shellcheck disable=SC2086
		"$kgen" run --verify --bench --runs 20 --method "$m" $sizes --tsv "$out/plans-$m.tsv" $plans
	done
	# Column 1: plan, 4: n, 6: kgen us, 10: CUB us.  Bars (issue 23): kgen's
	# time at most CUB's at every n; at 2^14-2^22 back to back, at most 0.6 of it.
	for m in $methods; do
		awk -F'\t' -v m="$m" '
			NR > 1 && $6 > 0 && $10 > 0 {
				r = $6 / $10
				if (!($1 in worst) || r > worst[$1]) { worst[$1] = r; at[$1] = $4 }
				if ($4 >= 16384 && $4 <= 4194304 && (!($1 in mid) || r > mid[$1])) mid[$1] = r
			}
			END {
				for (p in worst)
					printf "%s %s: kgen/CUB time at most %.3f (n=%s); at 2^14-2^22 at most %.3f\n", m, p, worst[p], at[p], mid[p]
			}' "$out/plans-$m.tsv"
	done
} 2>&1 | tee "$out/plans.txt"
