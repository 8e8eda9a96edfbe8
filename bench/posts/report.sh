#!/bin/sh
# report.sh RESULTS_DIR: turn the TSVs that bench/posts/posts.sh and bench/sweeps/sweep.sh
# wrote into RESULTS_DIR (plus jit.txt from bench/jit/jit_cost and posts.txt, the
# console output of posts.sh) into RESULTS_DIR/README.md and PNG bar charts
# beside it.  The posts' own figures come from the leading comments of the
# spec files.  RESULTS_DIR/findings.md, if present, is written by hand and
# goes in verbatim as the "Findings" section.
#
# POSIX sh + awk; gnuplot for the charts (skipped, and said so, without it).
set -eu

if [ $# -ne 1 ] || [ ! -d "$1" ]; then
	echo "usage: $0 RESULTS_DIR" >&2
	exit 2
fi
dir=$(cd "$1" && pwd)
root=$(cd "$(dirname "$0")/../.." && pwd)
md=$dir/README.md
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

# Links from README.md to the repository root ("../../.." for
# bench/results/<gpu>); none when RESULTS_DIR is outside the tree.
case $dir/ in
"$root"/*)
	up=$(printf '%s\n' "${dir#"$root"/}" | awk -F/ '{ s = ""; for (i = 1; i <= NF; i++) if ($i != "") s = s "../"; print s }')
	;;
*) up= ;;
esac

# ---- all measurements in one stream: file tag, threads, then the TSV row
# with the spec path normalised to specs/... (./specs/..., /tmp/kgen-build/specs/...).
: >"$tmp/rows"
for f in "$dir"/posts*.tsv; do
	[ -f "$f" ] || continue
	b=$(basename "$f" .tsv)
	case $b in
	posts-c-*) t=${b#posts-c-} ;;
	*) t=- ;;
	esac
	awk -F'\t' -v OFS='\t' -v tag="$b" -v t="$t" 'NR > 1 && NF >= 12 {
		p = $1; i = index(p, "specs/"); if (i > 0) p = substr(p, i)
		$1 = p; print tag, t, $0 }' "$f" >>"$tmp/rows"
done

# ---- what the spec files say: title of the post, its figure and GPU.
: >"$tmp/meta"
cut -f3 "$tmp/rows" | awk '!seen[$0]++' | while IFS= read -r s; do
	f=$root/$s
	[ -f "$f" ] || { printf '%s\t\t\t\t\n' "$s" >>"$tmp/meta"; continue; }
	awk -v s="$s" '
	/^#/ {
		if (title == "" && match($0, /"[^"]*"/)) title = substr($0, RSTART + 1, RLENGTH - 2)
		if (fig == "" && match($0, /[0-9][0-9.]*(-[0-9][0-9.]*)? GB\/s on an? /)) {
			m = substr($0, RSTART, RLENGTH); rest = substr($0, RSTART + RLENGTH)
			fig = m; sub(/ GB\/s on an? $/, "", fig)
			gpu = rest; sub(/[,.(].*$/, "", gpu); sub(/ +$/, "", gpu)
			if (match(rest, /\([^)]*: [0-9][0-9.]*\)/)) note = substr(rest, RSTART + 1, RLENGTH - 2)
		}
		next
	}
	{ exit }
	END { printf "%s\t%s\t%s\t%s\t%s\n", s, title, fig, gpu, note }' "$f" >>"$tmp/meta"
done

header=$(grep -m1 '^# kgen ' "$dir/posts.txt" 2>/dev/null || grep -h -m1 '^# kgen ' "$dir"/*.txt 2>/dev/null | head -n 1 || true)
gpu=$(printf '%s\n' "$header" | sed -n 's/^# kgen [^ ]* on \(.*\) (.*$/\1/p')
[ -n "$gpu" ] || gpu=$(basename "$dir")
seed=$(printf '%s\n' "$header" | sed -n 's/.*seed \([0-9]*\).*/\1/p')
# The runs use the date as the seed (YYYYMMDD); otherwise the date of the
# commit that added the results.
date=$(printf '%s\n' "$seed" | sed -n 's/^\(20[0-9][0-9]\)\([01][0-9]\)\([0-3][0-9]\)$/\1-\2-\3/p')
[ -n "$date" ] || date=$(git -C "$dir" log -1 --format=%cs -- . 2>/dev/null || true)
[ -n "$date" ] || date="date unknown"

have_gnuplot=no
command -v gnuplot >/dev/null 2>&1 && have_gnuplot=yes

# ---- the tables (awk writes markdown and the gnuplot data files) ----------
awk -F'\t' -v OFS='\t' -v up="$up" -v tmp="$tmp" '
function num(x) { return x + 0 }
function show(x, fmt) { return (x == "" || x < 0) ? "—" : sprintf(fmt, x) }
function link(s) { return up == "" ? "`" s "`" : "[`" s "`](" up s ")" }
function stepname(s,   b, n) {
	b = s; sub(/.*\//, "", b); sub(/\.yaml$/, "", b)
	n = b; sub(/-.*/, "", n); sub(/^0+/, "", n); if (n == "") n = "0"
	sub(/^[0-9]+-/, "", b); gsub(/-/, " ", b)
	return n " · " b
}
function post(s) {
	if (s ~ /\/mojo-post\//) return "A"
	if (s ~ /\/cuda-post\//) return "B"
	if (s ~ /\/parallel-post\//) return "C"
	if (s ~ /\/best\//) return "best"
	return "other"
}
function figure(s) { return M_fig[s] == "" ? "—" : M_fig[s] " GB/s (" M_gpu[s] ")" }
FILENAME ~ /meta$/ { M_title[$1] = $2; M_fig[$1] = $3; M_gpu[$1] = $4; M_note[$1] = $5; next }
{
	tag = $1; t = $2; s = $3; p = post(s)
	if (p == "A" || p == "B") {
		k = ++na[p]; AS[p, k] = s; AG[p, k] = $9; AP[p, k] = $11; ACG[p, k] = $13; AR[p, k] = $14; AT[p, k] = $6
		if (title[p] == "") title[p] = M_title[s]
		if (M_note[s] != "") note[p] = M_note[s]
	} else if (p == "C") {
		if (!(s in cidx)) { cidx[s] = ++nc; CS[nc] = s }
		CG[s, t] = $9; CT[s, t] = $8; CUB[t] = $13; CUBT[t] = $12; CEIL[t] = $10; ths[t] = 1
		if (title["C"] == "") title["C"] = M_title[s]
		if (M_note[s] != "") note["C"] = M_note[s]
	} else if (p == "best") {
		k = ++nb; B[k] = $0
		if ($10 > 0 && !(($1, $10) in cn_first)) cn_first[$1, $10] = $6
	}
}
function table_ab(p, name,   k, f) {
	if (na[p] == 0) return
	print "## Post " p ": \"" title[p] "\"" > md
	print "" > md
	print "int32, N = " AN[p] ", one `kgen run` (CUB and the read ceiling in the same run)." > md
	print "" > md
	print "| step | spec file | the post'"'"'s figure | kgen GB/s | % of read ceiling | CUB GB/s | kgen/CUB |" > md
	print "|---|---|---|--:|--:|--:|--:|" > md
	f = tmp "/chart-" p ".dat"
	for (k = 1; k <= na[p]; k++) {
		print "| " stepname(AS[p, k]) " | " link(AS[p, k]) " | " figure(AS[p, k]) " | " show(AG[p, k], "%.1f") " | " show(AP[p, k], "%.1f%%") " | " show(ACG[p, k], "%.1f") " | " show(AR[p, k], "%.3f") " |" > md
		print "\"" stepname(AS[p, k]) "\"", AG[p, k], ACG[p, k] > f
	}
	print "" > md
	if (note[p] != "") { print "The post'"'"'s reference: " note[p] " GB/s." > md; print "" > md }
	close(f)
}
END {
	md = tmp "/tables.md"
	split("A B", ps, " ")
	for (i = 1; i <= 2; i++) { p = ps[i]; AN[p] = "2^30"
		for (k = 1; k <= na[p]; k++) if (AT[p, k] != 1073741824) AN[p] = AT[p, k] }
	table_ab("A"); table_ab("B")
	if (na["A"] > 0) print "A" > (tmp "/charts")
	if (na["B"] > 0) print "B" > (tmp "/charts")

	if (nc > 0) {
		nt = split("64 128 256 512 1024", T, " ")
		print "## Post C: \"" title["C"] "\"" > md
		print "" > md
		print "float32, N = 2^25, one `kgen run --set threads=T` per block size T (CUB and the read ceiling in each run)." > md
		print "" > md
		print "kgen GB/s by threads per block:" > md
		print "" > md
		h = "| step | spec file | the post'"'"'s figure |"; sep = "|---|---|---|"
		for (j = 1; j <= nt; j++) { h = h " " T[j] " |"; sep = sep "--:|" }
		print h > md; print sep > md
		f = tmp "/chart-C.dat"
		printf "step" > f
		for (j = 1; j <= nt; j++) printf "\t%s", T[j] > f
		printf "\n" > f
		for (k = 1; k <= nc; k++) {
			s = CS[k]; r = "| " stepname(s) " | " link(s) " | " figure(s) " |"
			printf "\"%s\"", stepname(s) > f
			for (j = 1; j <= nt; j++) {
				r = r " " ((s, T[j]) in CG ? show(CG[s, T[j]], "%.1f") : "—") " |"
				printf "\t%s", ((s, T[j]) in CG ? CG[s, T[j]] : "-") > f
			}
			printf "\n" > f
			print r > md
		}
		close(f)
		r = "| CUB, same run | | |"; r2 = "| read ceiling, same run | | |"
		for (j = 1; j <= nt; j++) { r = r " " (T[j] in CUB ? show(CUB[T[j]], "%.1f") : "—") " |"; r2 = r2 " " (T[j] in CEIL ? show(CEIL[T[j]], "%.1f") : "—") " |" }
		print r > md; print r2 > md
		print "" > md
		if (note["C"] != "") { print "The post'"'"'s reference: " note["C"] " GB/s." > md; print "" > md }
		print "kgen time (µs) by threads per block, and the time per block-level atomicAdd (time / number of blocks) for the steps with one atomic per block:" > md
		print "" > md
		h = "| step |"; sep = "|---|"
		for (j = 1; j <= nt; j++) { h = h " " T[j] " |"; sep = sep "--:|" }
		print h " blocks at 64 / 128 / 256 | ns per block at 64 / 128 / 256 |" > md
		print sep "--:|--:|" > md
		n = 33554432
		for (k = 1; k <= nc; k++) {
			s = CS[k]; r = "| " stepname(s) " |"
			for (j = 1; j <= nt; j++) r = r " " ((s, T[j]) in CT ? show(CT[s, T[j]], "%.2f") : "—") " |"
			# items per thread from the spec name: steps 5 and 6 take two elements per thread,
			# steps 2-4 one; steps 0 and 1 have no per-block atomic.
			per = ""
			if (s ~ /\/0[2-4]-/) per = 1; else if (s ~ /\/0[5-6]-/) per = 2
			if (per != "") {
				bl = ""; ns = ""
				for (j = 1; j <= 3; j++) {
					nb_ = n / (T[j] * per)
					bl = bl (j > 1 ? " / " : "") nb_
					ns = ns (j > 1 ? " / " : "") (((s, T[j]) in CT) ? sprintf("%.2f", CT[s, T[j]] * 1000 / nb_) : "—")
				}
				r = r " " bl " | " ns " |"
			} else r = r " | |"
			print r > md
		}
		r = "| CUB, same run |"
		for (j = 1; j <= nt; j++) r = r " " (T[j] in CUBT ? show(CUBT[T[j]], "%.2f") : "—") " |"
		print r " | |" > md
		print "" > md
		print "C" > (tmp "/charts")
	}

	if (nb > 0) {
		print "## Best specs vs CUB" > md
		print "" > md
		print "| spec file | dtype | N | kgen µs | kgen GB/s | read ceiling GB/s | % of read ceiling | CUB µs | CUB GB/s | kgen/CUB |" > md
		print "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|" > md
		for (k = 1; k <= nb; k++) {
			split(B[k], c, "\t")
			mark = (c[10] > 0 && cn_first[c[1], c[10]] != c[6]) ? " †" : ""; if (mark != "") dag = 1
			e = 0; nn = c[6] + 0; while (nn > 1 && nn % 2 == 0) { nn /= 2; e++ }
			print "| " link(c[3]) " | " c[4] " | 2^" e " | " show(c[8], "%.2f") " | " show(c[9], "%.1f") " | " show(c[10], "%.1f") " | " show(c[11], "%.1f%%") mark " | " show(c[12], "%.2f") " | " show(c[13], "%.1f") " | " show(c[14], "%.3f") " |" > md
		}
		if (dag) { print "" > md; print "† This row has the same read-ceiling figure as a smaller N earlier in the same run: the probe was run once, at that first size, so this percentage compares against a probe of a different size (the console output says which size it measured)." > md }
		print "" > md
	}
}' "$tmp/meta" "$tmp/rows"

# ---- the sweep, fastest first ----------------------------------------------
if [ -f "$dir/sweep.tsv" ]; then
	{
		echo "## Sweep of one-pass candidates (bench/sweeps/sweep.sh), fastest first"
		echo
		awk -F'\t' 'NR > 1 { n = $4 + 0; e = 0; while (n > 1 && n % 2 == 0) { n /= 2; e++ } print e }' "$dir/sweep.tsv" | sort -u |
			awk '{ s = s (NR > 1 ? ", " : "") "2^" $0 } END { printf "N = %s; all candidates: 16-byte loads, warp-shuffle block reduction, one atomicAdd per block; `tile`: one tile per block, `persistent`: a grid-stride loop over a grid sized to the GPU.\n\n", s }'
		echo "| # | candidate (dtype-threads-items per thread-grid) | kgen µs | kgen GB/s | % of read ceiling | CUB µs | kgen/CUB |"
		echo "|--:|---|--:|--:|--:|--:|--:|"
		awk -F'\t' -v OFS='\t' 'NR > 1 { print }' "$dir/sweep.tsv" | LC_ALL=C sort -t "$(printf '\t')" -k6,6g |
			awk -F'\t' '{ b = $1; sub(/.*\//, "", b); sub(/\.yaml$/, "", b)
				printf "| %d | `%s` | %.2f | %.1f | %.1f%% | %.2f | %.3f |\n", NR, b, $6, $7, $9, $10, $12 }'
		awk -F'\t' 'NR > 1 { c[$2] = $10; g = $8 } END { printf "\nCUB in the same run: "; s = ""; for (d in c) s = s (s == "" ? "" : ", ") d " " c[d] " µs"; printf "%s; read ceiling %.1f GB/s.\n\n", s, g }' "$dir/sweep.tsv"
	} >"$tmp/sweep.md"
fi

# ---- transposes: seed 004's table and the sweeps ------------------------------
# posts-transpose.tsv (bench/posts/posts-transpose.sh) and sweep-transpose*.tsv
# (bench/sweeps/sweep-transpose.sh): the cub_* columns hold the device-to-device copy
# of the same bytes, timed in the same run; GB/s counts bytes read + written.
if [ -f "$dir/posts-transpose.tsv" ]; then
	{
		echo "## Seed 004: transposes (bench/posts/posts-transpose.sh)"
		echo
		echo "float32; GB/s counts the bytes read and written (2 x rows x cols x 4); every output element was checked against the input (random bits) in the same run; \"copy\" is a device-to-device copy of the same bytes in the same run (\`cuMemcpyDtoDAsync\`), kgen/copy = copy time / kgen time. The post's figures are from an H100 (Mojo / CUDA)."
		echo
		echo "| spec file | post's figure (H100, Mojo / CUDA) | shape | verified | kgen µs | kgen GB/s | copy GB/s | kgen/copy |"
		echo "|---|---|---|---|--:|--:|--:|--:|"
		awk -F'\t' -v root="$root" -v up="$up" 'NR > 1 {
			f = $1; sub(/^.*specs\//, "specs/", f)
			post = "-"
			while ((getline line < (root "/" f)) > 0)
				if (line ~ /GB\/s/ && line ~ /^#/) { sub(/^# */, "", line); post = line; break }
			close(root "/" f)
			if (post ~ /: [0-9.]+ GB\/s \(Mojo\)/) { m = post; sub(/^[^:]*: /, "", m); sub(/ on an H100.*/, "", m); post = m }
			else if (f !~ /tma-post/) post = "-"
			if (f ~ /tma-post/ && $4 != "32768x32768") post = "(the post ran 32768x32768 only)"
			if (f ~ /smem-padded/ && $4 == "8192x8192") post = "3587 GB/s on an H200, copy 4138 (variants.md E)"
			printf "| [%s](%s%s) | %s | %s | %s | %.2f | %.1f | %.1f | %.3f |\n", f, up, f, post, $4, $5, $6, $7, $11, $12
		}' "$dir/posts-transpose.tsv"
		echo
		for f in "$dir"/sweep-transpose*.tsv; do
			[ -f "$f" ] || continue
			b=$(basename "$f" .tsv)
			echo "### $b (bench/sweeps/sweep-transpose.sh), fastest first per shape"
			echo
			echo "| shape | candidate | verified | kgen µs | kgen GB/s | copy GB/s | kgen/copy |"
			echo "|---|---|---|--:|--:|--:|--:|"
			awk -F'\t' -v OFS='\t' 'NR > 1 { print }' "$f" | LC_ALL=C sort -t "$(printf '\t')" -k4,4 -k6,6g |
				awk -F'\t' '{ c = $1; sub(/.*\//, "", c); sub(/\.yaml$/, "", c)
					printf "| %s | `%s` | %s | %.2f | %.1f | %.1f | %.3f |\n", $4, c, $5, $6, $7, $11, $12 }'
			echo
		done
	} >"$tmp/transpose.md"
fi

# ---- JIT costs ---------------------------------------------------------------
if [ -f "$dir/jit.txt" ]; then
	{
		echo "## JIT costs (bench/jit/jit_cost)"
		echo
		echo '```'
		cat "$dir/jit.txt"
		echo '```'
		echo
		echo "| cost | target | measured (median) | |"
		echo "|---|--:|--:|---|"
		awk '
		function row(what, target, lim, v) {
			printf "| %s | %s | %s | %s |\n", what, target, v == "" ? "—" : v " µs", v == "" ? "not measured" : (v + 0 <= lim ? "met" : "**missed**")
		}
		/^cold/ { sub(/.*: /, ""); cold = $1 }
		/^disk hit/ { sub(/.*: /, ""); disk = $1 }
		/^in-process hit/ { sub(/.*: /, ""); proc = $1 }
		END {
			row("cold (generate + NVRTC + load), once NVRTC is loaded", "≤ 20 ms", 20000, cold)
			row("disk hit (generate + read cubin + load)", "≤ 1 ms", 1000, disk)
			row("in-process hit", "≤ 5 µs", 5, proc)
		}' "$dir/jit.txt"
		echo
	} >"$tmp/jit.md"
fi

# ---- charts --------------------------------------------------------------------
charts=
if [ "$have_gnuplot" = yes ] && [ -f "$tmp/charts" ]; then
	for p in $(cat "$tmp/charts"); do
		png=$dir/chart-post-$(echo "$p" | tr 'ABC' 'abc').png
		dat=$tmp/chart-$p.dat
		case $p in
		A | B)
			cub=$(awk -F'\t' '$3 > 0 { s += $3; n++ } END { if (n) printf "%.1f", s / n }' "$dat")
			cat >"$tmp/plot-$p.gp" <<EOF
set terminal pngcairo size 1000,600 font "sans,11"
set output "$png"
set title "Post $p on the $gpu: kgen per step (int32, N = 2^{30})"
set ylabel "GB/s (bytes read / time)"
set xlabel "step (spec file)"
set style data histograms
set style fill solid 0.85 border -1
set boxwidth 0.6
set yrange [0:*]
set grid ytics lc rgb "#dddddd"
set key below horizontal maxrows 1
set xtics nomirror rotate by 20 right
set datafile separator "\t"
set offsets 0, 0, graph 0.08, 0
plot "$dat" using 2:xtic(1) title "kgen" lc rgb "#3b75af", \
     "" using 0:2:(sprintf("%.0f", \$2)) with labels offset 0,0.7 notitle, \
     $cub with lines dt 2 lw 2 lc rgb "#c0392b" title "CUB, same run ($cub GB/s)"
EOF
			;;
		C)
			cub=$(awk -F'\t' '$1 ~ /^posts-c-/ && $13 > 0 { s += $13; n++ } END { if (n) printf "%.1f", s / n }' "$tmp/rows")
			cat >"$tmp/plot-$p.gp" <<EOF
set terminal pngcairo size 1200,680 font "sans,11"
set output "$png"
set title "Post C on the $gpu: kgen per step and threads per block (float32, N = 2^{25})"
set ylabel "GB/s (bytes read / time), log scale"
set xlabel "step (spec file)"
set style data histograms
set style histogram clustered gap 1.5
set style fill solid 0.85 border -1
set logscale y
set yrange [1:10000]
set grid ytics mytics lc rgb "#dddddd", lc rgb "#f0f0f0"
set key below horizontal maxcols 6 samplen 2 title "threads per block"
set datafile separator "\t"
set xtics nomirror rotate by 20 right
plot for [i=2:6] "$dat" using i:xtic(1) title columnheader(i), \
     $cub with lines dt 2 lw 2 lc rgb "#c0392b" title "CUB (mean $cub GB/s)"
EOF
			;;
		esac
		gnuplot "$tmp/plot-$p.gp"
		charts="$charts $p"
	done
elif [ "$have_gnuplot" = no ]; then
	echo "$0: gnuplot not found: charts skipped" >&2
fi

# ---- README.md ---------------------------------------------------------------------
body() {
	sed -n '/^[^#]/,$p' "$1" | sed '/^set -eu$/d'
}
{
	echo "# kgen on the $gpu, $date"
	echo
	if [ -n "$header" ]; then
		echo "Every run starts with this line:"
		echo
		echo '```'
		echo "$header"
		echo '```'
		echo
	fi
	echo "GB/s is bytes read (N x element size) / time; time is the median of the runs that \`kgen run --bench\` makes (events around the launches); \"read ceiling\" is kgen's read-bandwidth probe (16-byte loads) measured in the same run at the same size; kgen/CUB = CUB time / kgen time (> 1: kgen faster)."
	echo
	if [ -f "$dir/findings.md" ]; then
		echo "## Findings"
		echo
		cat "$dir/findings.md"
		echo
	fi
	echo "## How the data was produced"
	echo
	echo "On the GPU machine, from the root of the built tree (see [bench/README.md](${up}bench/README.md)):"
	echo
	echo '```sh'
	echo "sh bench/posts/posts.sh OUT   # posts-ab.tsv, posts-c-<threads>.tsv, posts-best-f32.tsv; console: posts.txt"
	echo "sh bench/sweeps/sweep.sh OUT   # sweep.tsv, sweep.txt"
	echo "make bench/jit/jit_cost && ./bench/jit/jit_cost specs/...   # jit.txt"
	echo "sh bench/posts/posts-transpose.sh OUT   # posts-transpose.tsv"
	echo "ONLY=REGEX TAG=rN sh bench/sweeps/sweep-transpose.sh OUT SHAPE...   # sweep-transpose-rN.tsv"
	echo '```'
	echo
	if [ -f "$root/bench/posts/posts.sh" ]; then
		echo "bench/posts/posts.sh runs (OUT is \$1, \`\$kgen\` is ./kgen, \`\$specs\` is ./specs):"
		echo
		echo '```sh'
		body "$root/bench/posts/posts.sh"
		echo '```'
		echo
	fi
	if [ -f "$root/bench/sweeps/sweep.sh" ]; then
		echo "bench/sweeps/sweep.sh runs (N defaults to 2^30):"
		echo
		echo '```sh'
		body "$root/bench/sweeps/sweep.sh"
		echo '```'
		echo
	fi
	if [ "$have_gnuplot" = no ]; then
		echo "_Charts skipped: gnuplot was not found when this file was generated._"
		echo
	fi
	if [ -f "$tmp/tables.md" ]; then
		# each post's chart right after its heading
		awk -v charts="$charts" '
		BEGIN { n = split(charts, c, " "); for (i = 1; i <= n; i++) has[c[i]] = 1 }
		{ print }
		/^## Post [ABC]:/ { p = substr($0, 9, 1); pend = has[p] ? p : "" }
		/^$/ && pend != "" { printf "![Post %s: kgen GB/s per step](chart-post-%s.png)\n\n", pend, tolower(pend); pend = "" }
		' "$tmp/tables.md"
	fi
	[ -f "$tmp/sweep.md" ] && cat "$tmp/sweep.md"
	[ -f "$tmp/transpose.md" ] && cat "$tmp/transpose.md"
	[ -f "$tmp/jit.md" ] && cat "$tmp/jit.md"
	echo "---"
	echo "Generated by \`bench/posts/report.sh\` from the files in this folder."
} >"$md"
echo "wrote $md${charts:+ and charts for posts$charts}"
