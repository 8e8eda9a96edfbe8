#!/bin/sh
# ops.sh OUTDIR: the bars of issue 8, each in one run on one GPU, every kgen
# result verified in the same run:
#  - argmax of each row against torch.argmax(x, dim=1) on 1048576x256 and
#    4194304x64 f32 (torch timed by bench/ops/ops_peers.py with CUDA events,
#    median of 20, after warm-up; kgen by `kgen run --bench`, median of 20);
#  - argmin and argmax of a 2^30 f32 vector against the best sum spec;
#  - the best f32 sum from an input offset by 4 bytes against its aligned time.
# Writes OUTDIR/ops-*.tsv, OUTDIR/ops-torch.tsv and OUTDIR/ops.txt (with the ratios).
set -u
out=$1
kgen=${KGEN:-./kgen}
top=${top_srcdir:-.}
{
	echo "# $(date -u '+%Y-%m-%d %H:%M UTC'): $0 $*"
	"$kgen" run --verify --bench --runs 20 --shape 1048576x256 --shape 4194304x64 --tsv "$out/ops-rows.tsv" \
		"$top/specs/reduce_axis/ops/argmax-rows-f32.yaml" "$top/specs/reduce_axis/best/rows.yaml"
	python3 "$top/bench/ops/ops_peers.py" "$out/ops-torch.tsv"
	"$kgen" run --verify --bench --runs 20 --n '2^30' --tsv "$out/ops-vector.tsv" \
		"$top/specs/reduce/best/sum-f32.yaml" "$top/specs/reduce/ops/argmax-f32.yaml"
	"$kgen" run --verify --bench --runs 20 --n '2^30' --set op=argmin --tsv "$out/ops-argmin.tsv" \
		"$top/specs/reduce/ops/argmax-f32.yaml"
	"$kgen" run --verify --bench --runs 20 --n '2^30' --offset 1 --tsv "$out/ops-offset.tsv" \
		"$top/specs/reduce/best/sum-f32.yaml"
	# The ratios, from the TSVs (column 6: microseconds per call).
	awk -F'\t' '
		FILENAME ~ /ops-rows/ && $1 ~ /argmax-rows/ { kgen[$4] = $6 }
		FILENAME ~ /ops-torch/ && $1 == "argmax-rows" { torch[$2] = $3 }
		FILENAME ~ /ops-vector/ && $1 ~ /best\/sum-f32/ { sum = $6 }
		FILENAME ~ /ops-vector/ && $1 ~ /argmax-f32/ { amax = $6 }
		FILENAME ~ /ops-argmin/ { amin = $6 }
		FILENAME ~ /ops-offset/ { off = $6 }
		END {
			for (s in kgen) if (s in torch)
				printf "argmax rows %s f32: kgen %.1f us, torch.argmax(dim=1) %.1f us: %.2fx faster (bar 2x)\n", s, kgen[s], torch[s], torch[s] / kgen[s]
			printf "argmax 2^30 f32: %.1f us, argmin %.1f us, best sum %.1f us: %.3f and %.3f of the sum time (bar 1.10)\n", amax, amin, sum, amax / sum, amin / sum
			printf "best sum 2^30 f32 from in + 4 bytes: %.1f us, aligned %.1f us: %.3f (bar 1.02)\n", off, sum, off / sum
		}' "$out/ops-rows.tsv" "$out/ops-torch.tsv" "$out/ops-vector.tsv" "$out/ops-argmin.tsv" "$out/ops-offset.tsv"
} 2>&1 | tee "$out/ops.txt"
