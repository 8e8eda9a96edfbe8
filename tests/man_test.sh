#!/bin/sh
# man_test.sh: kgen.1 against the program, so that the man page cannot fall
# behind it again, and `kgen keys`, which this test and bash completion read.
#
# - kgen keys: a family's known keys with type, values and default; every
#   family's lines, in the families' order; an unknown family exits 2 and
#   names the families.
# - SPEC: every key of every family (kgen keys) has a .TP entry in its
#   family's subsection (.SS "kernel: FAMILY"), whose tag names it in bold
#   (.B key, .BR a ", " b, \fBkey\fR); every enum value and every default
#   of a key is in bold in an entry of that key (in any family's subsection:
#   an entry may say "as for kernel: reduce").  Troff's escapes (\- for a
#   hyphen, \& \% \c \~) are read as the text they print.
# - SYNOPSIS: every command of `kgen --help`'s usage lines has a .SY entry,
#   and every option of the command's usage lines (kgen --help and
#   kgen COMMAND --help) is in it.
# - .TH names the version `kgen --version` prints.
# - Every family of the KGEN_FAMILIES table (gen/spec.h, read here, so that
#   a new family's row fails this test until it is documented): kgen keys
#   lists it; kgen.1's DESCRIPTION names it in bold and SPEC has its
#   subsection; README.md's tour ("## A short tour") has `kernel: FAMILY`,
#   its tree ("## The tree") `specs/FAMILY/` and `templates/FAMILY/`, and
#   its C API list (the paragraph "The same from C: ...") the family's
#   launcher `kgen_STEM` (STEM: the table's last column), which
#   include/kgen.h declares.
# - groff -man -Tutf8 -ww (else man --warnings -l) renders the page
#   without a warning; that part is skipped when neither is installed.
#
# Exit 0 pass, 1 fail, 99 a broken setup (no kgen, no page, nothing found).
set -u
: "${top_srcdir:=.}" "${top_builddir:=.}"
kgen=$top_builddir/kgen
page=$top_srcdir/kgen.1
readme=$top_srcdir/README.md
spec_h=$top_srcdir/gen/spec.h
LC_ALL=C
export LC_ALL

if [ ! -x "$kgen" ] || [ ! -f "$page" ]; then
	echo "ERROR: need $kgen and $page" >&2
	exit 99
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kgen-man.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
trap 'exit 99' HUP INT TERM

fail=0
bad() { echo "FAIL: $*" >&2; fail=1; }

# ---- kgen keys ----
"$kgen" keys > "$tmp/keys" 2> "$tmp/err" || { echo "ERROR: kgen keys failed: $(cat "$tmp/err")" >&2; exit 99; }
[ -s "$tmp/keys" ] || { echo "ERROR: kgen keys printed nothing" >&2; exit 99; }
awk -F '\t' 'NF != 5 { print "line " NR " has " NF " fields, not 5: " $0; exit 1 }' "$tmp/keys" > "$tmp/out" ||
	bad "kgen keys: $(cat "$tmp/out")"
families=$(cut -f 1 "$tmp/keys" | uniq)
# The table's rows: X(IDENT, "name", "description", stem), up to the extra families' hook.
sed -n '/^#define KGEN_FAMILIES(X)/,/KGEN_EXTRA_FAMILIES(X)/p' "$spec_h" |
	sed -n 's/^[[:space:]]*X([A-Z_0-9]*, *"\([a-z_0-9]*\)", *".*", *\([a-z_0-9]*\)) *\\$/\1 \2/p' > "$tmp/table"
[ -s "$tmp/table" ] || { echo "ERROR: no row of KGEN_FAMILIES found in $spec_h" >&2; exit 99; }
[ "$(echo "$families" | tr '\n' ' ')" = "$(cut -d ' ' -f 1 "$tmp/table" | tr '\n' ' ')" ] ||
	bad "kgen keys: families $(echo "$families" | tr '\n' ' ')in that order, not the table's: $(cut -d ' ' -f 1 "$tmp/table" | tr '\n' ' ')"
for f in $families; do
	"$kgen" keys "$f"
done > "$tmp/each" 2>&1
cmp -s "$tmp/keys" "$tmp/each" || bad "kgen keys differs from kgen keys FAMILY for each family"

"$kgen" keys transpose > "$tmp/out" 2> "$tmp/err" || bad "kgen keys transpose exited $?"
[ "$(cut -f 1 "$tmp/out" | sort -u)" = transpose ] || bad "kgen keys transpose printed another family's lines"
for k in kernel name dtype threads load_width index method tile_rows tile_cols batch swizzle walk buffers \
	cache_hint l2_promotion order group pad load_hint store_hint; do
	grep -q "^transpose	$k	" "$tmp/out" || bad "kgen keys transpose has no key $k"
done
grep -q "^transpose	op	" "$tmp/out" && bad "kgen keys transpose lists op, a key of the reductions"
grep -qx "transpose	method	enum	smem tma	smem" "$tmp/out" || bad "kgen keys transpose: method: $(grep '	method	' "$tmp/out")"
grep -qx "transpose	group	int	1..256	8" "$tmp/out" || bad "kgen keys transpose: group: $(grep '	group	' "$tmp/out")"
grep -qx "transpose	threads	int	32..1024	" "$tmp/out" ||
	bad "kgen keys transpose: threads (a derived default is empty): $(grep '	threads	' "$tmp/out")"
grep -qx "transpose	name	name	NAME	" "$tmp/out" || bad "kgen keys transpose: name: $(grep '	name	' "$tmp/out")"
grep -qx "transpose	kernel	enum	reduce transpose reduce_axis matmul rows scan	" "$tmp/out" ||
	bad "kgen keys transpose: kernel: $(grep '	kernel	' "$tmp/out")"
"$kgen" keys reduce > "$tmp/out" 2>&1
grep -qx "reduce	launch	enum	stream pdl chain	stream" "$tmp/out" || bad "kgen keys reduce: launch: $(grep '	launch	' "$tmp/out")"
grep -qx "reduce	post	expr	EXPR	a" "$tmp/out" || bad "kgen keys reduce: post: $(grep '	post	' "$tmp/out")"
grep -q "^reduce	op	enum	sum min max .* custom	sum$" "$tmp/out" || bad "kgen keys reduce: op: $(grep '	op	' "$tmp/out")"

"$kgen" keys no_such_family > "$tmp/out" 2> "$tmp/err"
rc=$?
[ $rc -eq 2 ] || bad "kgen keys no_such_family exited $rc, expected 2"
[ -s "$tmp/out" ] && bad "kgen keys no_such_family printed on standard output"
grep -qF "kgen keys: no family 'no_such_family'; the families: reduce, transpose, reduce_axis, matmul" "$tmp/err" ||
	bad "kgen keys no_such_family: $(cat "$tmp/err")"
"$kgen" keys transpos > /dev/null 2> "$tmp/err"
grep -qF "(did you mean 'transpose'?)" "$tmp/err" || bad "kgen keys transpos: $(cat "$tmp/err")"
"$kgen" keys reduce transpose > /dev/null 2>&1
rc=$?
[ $rc -eq 2 ] || bad "kgen keys with two families exited $rc, expected 2"
"$kgen" keys --help > "$tmp/out" 2>&1
rc=$?
[ $rc -eq 0 ] && grep -q '^usage: kgen keys \[FAMILY\]' "$tmp/out" || bad "kgen keys --help (exit $rc): $(cat "$tmp/out")"
"$kgen" help keys > "$tmp/out" 2>&1
rc=$?
[ $rc -eq 0 ] && grep -q '^usage: kgen keys' "$tmp/out" || bad "kgen help keys (exit $rc): $(cat "$tmp/out")"

# ---- the page, read as records ----
#   H <tab> the .TH's fourth argument ("kgen 0.1.0")
#   C <tab> a .SY's command ("kgen check")
#   S <tab> command <tab> a line of its synopsis, as text
#   T <tab> subsection <tab> a bold word of a .TP tag (outside .RS)
#   V <tab> tag word <tab> a bold word of that entry (tag, body, nested lists)
awk '
# A line with the escapes read as what they print (\~ is left to bold()).
function norm(s) {
	gsub(/\\-/, "-", s)
	gsub(/\\[&%c]/, "", s)
	gsub(/\\\(aq/, "\047", s)
	gsub(/\\\(dq/, "\"", s)
	gsub(/\\\(ti/, "~", s)
	gsub(/\\e/, "\\", s)
	return s
}
# A macro line'"'"'s arguments into A[1..n], as troff splits them.
function args(s,    n, i, c, cur, inq, started) {
	n = 0; cur = ""; inq = 0; started = 0
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		if (inq) {
			if (c == "\"" && substr(s, i + 1, 1) == "\"") { cur = cur c; i++ }
			else if (c == "\"") inq = 0
			else cur = cur c
		} else if (c == " " || c == "\t") {
			if (started) { A[++n] = cur; cur = ""; started = 0 }
		} else if (c == "\"" && !started) {
			inq = 1; started = 1
		} else {
			cur = cur c; started = 1
		}
	}
	if (started) A[++n] = cur
	return n
}
# The bold parts of t, which starts in bold when b is 1 (\fB \fI \fR \fP).
function bold(t, b,    out, i, f, base) {
	out = ""; base = b
	while ((i = index(t, "\\f")) > 0) {
		if (b) out = out substr(t, 1, i - 1)
		f = substr(t, i + 2, 1)
		b = f == "B" ? 1 : f == "P" ? base : 0
		out = out " "
		t = substr(t, i + 3)
	}
	if (b) out = out t
	gsub(/\\~/, " ", out)
	return out
}
function plain(t) { gsub(/\\f[BIRP]/, "", t); gsub(/\\~/, " ", t); return t }
# The words of bold text: runs of letters, digits, "_" and "-".
function words(t, W,    n) {
	gsub(/[^A-Za-z0-9_-]+/, " ", t)
	return split(t, W, " ")
}
/^\.\\"/ { next }
{
	line = norm($0)
	b = ""; text = ""; m = ""
	if (line ~ /^\./) {
		m = line; sub(/[ \t].*/, "", m)
		rest = substr(line, length(m) + 1)
		n = args(rest)
		for (i = 1; i <= n; i++) {
			if (m == ".B" || m == ".SY")
				on = 1
			else if (m == ".BR" || m == ".BI")
				on = i % 2
			else if (m == ".RB" || m == ".IB")
				on = 1 - i % 2
			else
				on = 0
			b = b " " bold(A[i], on)
			text = text (m ~ /^\.(B|I|SY|SS|SH|TH)$/ && i > 1 ? " " : "") plain(A[i])
		}
	} else {
		b = bold(line, 0)
		text = plain(line)
	}
	if (m == ".TH") { print "H\t" A[4]; next }
	if (m == ".SH") { section = text; sub_ = ""; ntags = 0; next }
	if (m == ".SS") { sub_ = text; ntags = 0; next }
	if (m == ".RS") { depth++; next }
	if (m == ".RE") { depth--; next }
	if (m == ".SY") { sy = text; print "C\t" sy; next }
	if (m == ".YS") { sy = ""; next }
	if (depth == 0 && m == ".TP") { pending = 1; ntags = 0; next }
	if (depth == 0 && (m == ".PP" || m == ".P" || m == ".LP")) { ntags = 0; next }
	if (sy != "")
		print "S\t" sy "\t" text
	if (pending) {
		ntags = words(b, TAG)
		for (i = 1; i <= ntags; i++)
			print "T\t" sub_ "\t" TAG[i]
		pending = 0
	}
	nw = words(b, W)
	for (i = 1; i <= ntags; i++)
		for (j = 1; j <= nw; j++)
			print "V\t" TAG[i] "\t" W[j]
}' "$page" > "$tmp/page" || exit 99
# A page this reader finds no entry in is read wrongly, not wrong.
grep -q '^T	' "$tmp/page" || { echo "ERROR: no .TP entry found in $page" >&2; exit 99; }

# ---- every key, value and default ----
awk -F '\t' '
	FNR == NR { if ($1 == "T") tag[$2 SUBSEP $3] = 1; else if ($1 == "V") val[$2 SUBSEP $3] = 1; next }
	!((("kernel: " $1) SUBSEP $2) in tag) {
		printf "key %s of kernel: %s has no .TP entry in the SPEC subsection \"kernel: %s\"\n", $2, $1, $1
	}
	$3 == "enum" && !seen[$2]++ {
		n = split($4, v, " ")
		for (i = 1; i <= n; i++)
			if (!(($2 SUBSEP v[i]) in val))
				printf "value %s of key %s is not in bold in an entry of %s\n", v[i], $2, $2
	}
	$5 != "" && !dseen[$2]++ && !(($2 SUBSEP $5) in val) {
		printf "the default of key %s, %s, is not in bold in an entry of %s\n", $2, $5, $2
	}' "$tmp/page" "$tmp/keys" > "$tmp/out"
while IFS= read -r line; do
	bad "kgen.1: $line"
done < "$tmp/out"

# ---- SYNOPSIS: every command and its options ----
# The options of usage lines on standard input: -x, --word.
options() {
	awk '{ gsub(/[][|]/, " "); for (i = 1; i <= NF; i++) if ($i ~ /^--?[a-zA-Z][-a-zA-Z0-9]*$/) print $i }' | sort -u
}
"$kgen" --help > "$tmp/help" 2>&1 || bad "kgen --help exited $?"
awk '/^$/ { exit } { sub(/^usage:/, "") } $1 == "kgen" { print }' "$tmp/help" > "$tmp/usage"
[ -s "$tmp/usage" ] || { echo "ERROR: no usage lines in kgen --help" >&2; exit 99; }
commands=$(awk '$2 ~ /^[a-z][a-z0-9-]*$/ { print $2 }' "$tmp/usage")
for c in "" $commands; do
	cmd=kgen${c:+ $c}
	grep -qx "C	$cmd" "$tmp/page" || { bad "kgen.1: no '$cmd' in SYNOPSIS (a .SY entry)"; continue; }
	{
		if [ -z "$c" ]; then
			head -n 1 "$tmp/usage"
		else
			awk -v c="$c" '$2 == c' "$tmp/usage"
			# The command's own usage lines, where it has a --help.
			"$kgen" "$c" --help 2> /dev/null | awk '/^usage:/ { on = 1; print; next } on && /^[ \t]/ { print; next } { on = 0 }'
		fi
	} | options > "$tmp/want"
	awk -F '\t' -v c="$cmd" '$1 == "S" && $2 == c { print $3 }' "$tmp/page" | options > "$tmp/have"
	for o in $(comm -23 "$tmp/want" "$tmp/have"); do
		bad "kgen.1: SYNOPSIS of '$cmd' lacks $o (in its usage)"
	done
done

# ---- the version ----
version=$("$kgen" --version)
grep -qx "H	$version" "$tmp/page" || bad "kgen.1: .TH says '$(sed -n 's/^H	//p' "$tmp/page")', kgen --version '$version'"

# ---- every family in kgen.1 and README.md ----
# A section of a file: from the line that is $2 to the next line starting with $3.
section() { awk -v head="$2" -v next_="$3" '$0 == head { on = 1; next } on && index($0, next_) == 1 { exit } on' "$1"; }
section "$page" ".SH DESCRIPTION" ".SH " > "$tmp/description"
section "$readme" "## A short tour" "## " > "$tmp/tour"
section "$readme" "## The tree" "## " > "$tmp/tree"
awk '/^The same from C:/ { on = 1 } on && /^$/ { exit } on' "$readme" > "$tmp/capi"
[ -s "$tmp/description" ] && [ -s "$tmp/tour" ] && [ -s "$tmp/tree" ] && [ -s "$tmp/capi" ] ||
	{ echo "ERROR: kgen.1's DESCRIPTION, or README.md's tour, tree or 'The same from C' paragraph, not found" >&2; exit 99; }
while read -r name stem; do
	grep -qF "\\fB$name\\f" "$tmp/description" || grep -qE "^\.BR? $name( |\$)" "$tmp/description" ||
		bad "kgen.1: DESCRIPTION does not name the family $name in bold"
	grep -qx "\.SS \"kernel: $name\"" "$page" || bad "kgen.1: no subsection .SS \"kernel: $name\" under SPEC"
	grep -q "kernel: $name\b" "$tmp/tour" || bad "README.md: the tour (## A short tour) has no kernel: $name"
	for d in specs templates; do
		grep -qF "\`$d/$name/\`" "$tmp/tree" || bad "README.md: the tree (## The tree) does not name \`$d/$name/\`"
	done
	grep -qF "\`kgen_$stem\`" "$tmp/capi" || bad "README.md: the C API list (The same from C: ...) does not name kgen_$stem"
	grep -q "^KGEN_API kgen_status kgen_$stem(" "$top_srcdir/include/kgen.h" ||
		bad "include/kgen.h declares no launcher kgen_$stem() for the family $name"
done < "$tmp/table"

# ---- the commands that need a GPU: one list for kgen --help, kgen.1 and the no-driver message ----
# Each as "run, tune, info": the help's "Only run, tune and info need a GPU";
# the page's DESCRIPTION, "Only .BR run , .B tune and .B info need a GPU";
# the no-driver message's "(kgen run, kgen tune, kgen info) needs".
"$kgen" --help | tr '\n' ' ' | sed -n 's/.*Only \(.*\) need a GPU.*/\1/p' | sed 's/ and /, /' > "$tmp/gpu-help"
awk '/^Only$/ { on = 1; next } on && /need a GPU/ { exit } on { sub(/^\.BR? /, ""); printf "%s ", $0 }' "$page" |
	sed 's/ ,/,/g; s/ and /, /; s/ $//' > "$tmp/gpu-page"
[ -s "$tmp/gpu-help" ] || bad "kgen --help does not say which commands need a GPU"
[ "$(cat "$tmp/gpu-help")" = "$(cat "$tmp/gpu-page")" ] ||
	bad "kgen.1 says $(cat "$tmp/gpu-page") need a GPU, kgen --help $(cat "$tmp/gpu-help")"
LD_LIBRARY_PATH=/nonexistent "$kgen" info > /dev/null 2> "$tmp/err"
if grep -q 'no CUDA driver' "$tmp/err"; then
	sed -n 's/^kgen: running kernels (\(.*\)) needs .*/\1/p' "$tmp/err" | sed 's/kgen //g' > "$tmp/gpu-driver"
	[ "$(cat "$tmp/gpu-help")" = "$(cat "$tmp/gpu-driver")" ] ||
		bad "without a driver kgen says $(cat "$tmp/gpu-driver") need a GPU, kgen --help $(cat "$tmp/gpu-help")"
fi

# ---- rendering ----
if command -v groff > /dev/null 2>&1; then
	groff -man -Tutf8 -ww -z "$page" > "$tmp/render" 2>&1 || bad "groff failed on kgen.1: $(cat "$tmp/render")"
elif command -v man > /dev/null 2>&1; then
	MANWIDTH=80 man --warnings -l "$page" 2>&1 > /dev/null | cat > "$tmp/render"
else
	echo "SKIP: neither groff nor man: kgen.1 not rendered"
	: > "$tmp/render"
fi
if [ -s "$tmp/render" ]; then
	bad "kgen.1 renders with warnings:"
	sed 's/^/  /' "$tmp/render" >&2
fi

exit $fail
