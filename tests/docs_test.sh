#!/bin/sh
# docs_test.sh: every command printed in README.md, docs/*.md, bench/README.md
# and bench/*/README.md prints what is printed under it.
#
# An example is a fenced code block whose first line starts with "$ ": each
# "$ " line is a command (a line ending in a backslash continues it, and a
# here-document's lines up to its delimiter belong to it), and the lines up
# to the next "$ " line or the end of the block are its output, standard
# output and standard error together, compared exactly after stripping
# trailing whitespace.  The commands of one block run in one shell, in
# order (so "$ echo $?" is the previous command's status), in a scratch
# directory per markdown file that holds a copy of specs/ and of bench/'s
# folders (scripts and sources, not bench/results/); the blocks of one
# file share it, so a block may write a file that a later one reads.
# `kgen` and `./kgen` are $top_builddir/kgen.  HOME is a scratch directory
# too (the disk cache goes there), printed as `~`; XDG_CACHE_HOME,
# KGEN_CACHE_DIR and KGEN_CACHE are unset, LC_ALL is C.
#
# An HTML comment on the line before a block (blank lines between allowed)
# says how to treat it:
#   <!-- docs_test: gpu -->             needs a GPU: not run (counted as skipped)
#   <!-- docs_test: nodriver -->        prints what it prints without a CUDA driver:
#                                       run only where kgen info finds none
#   <!-- docs_test: needs PROG -->      run only where PROG is installed (git: and
#                                       $top_srcdir is a full git clone, whose
#                                       history the commands then read)
#   <!-- docs_test: skip (reason) -->   not run: its output legitimately varies
#   <!-- docs_test: file PATH -->       not a command: the block is PATH's text
#                                       (lines starting with # aside)
# Any other docs_test comment, or one not followed by a code block, is an
# error.  Finding no command at all is an error too (exit 99), so that a
# change of format cannot make this test pass by running nothing.
set -u
: "${top_srcdir:=.}" "${top_builddir:=.}"
say() { printf '%s\n' "$*"; }

srcdir=$(cd "$top_srcdir" && pwd) || exit 99
builddir=$(cd "$top_builddir" && pwd) || exit 99
if [ ! -x "$builddir/kgen" ]; then
	say "ERROR: $builddir/kgen is not built" >&2
	exit 99
fi

for prog in awk cmp diff; do
	if ! command -v $prog > /dev/null 2>&1; then
		say "SKIP: needs $prog"
		exit 77
	fi
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/kgen-docs.XXXXXX") || exit 99
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
trap 'exit 99' HUP INT TERM
cases=$tmp/cases
mkdir "$cases" "$tmp/bin" "$tmp/home" "$tmp/work" || exit 99

# kgen on PATH and as ./kgen in each scratch directory.
printf '#!/bin/sh\nexec "%s" "$@"\n' "$builddir/kgen" > "$tmp/bin/kgen" && chmod +x "$tmp/bin/kgen" || exit 99
PATH=$tmp/bin:$PATH
HOME=$tmp/home
LC_ALL=C
export PATH HOME LC_ALL
unset XDG_CACHE_HOME KGEN_CACHE_DIR KGEN_CACHE GIT_DIR GIT_WORK_TREE

# ---- extract the examples ----
cd "$srcdir" || exit 99
set -- README.md
for f in docs/*.md bench/README.md bench/*/README.md; do
	[ -f "$f" ] && set -- "$@" "$f"
done
cd "$tmp" || exit 99
if [ ! -f "$srcdir/README.md" ]; then
	say "ERROR: no $srcdir/README.md" >&2
	exit 99
fi
(cd "$srcdir" && awk -v cases="$cases" '
function flush_block(    i, j, cmd, line, word, dash, t, expf, b) {
	if (n == 0 || blk[1] !~ /^\$ /) {
		if (directive ~ /^file /) {
			b = ++nblocks
			for (i = 1; i <= n; i++)
				print blk[i] > (cases "/" b ".block")
			printf "" > (cases "/" b ".block")
			close(cases "/" b ".block")
			print "F\t" b "\t" FILENAME "\t" fence "\t" substr(directive, 6) > manifest
		} else if (directive != "")
			print "E\t" FILENAME ":" dline ": docs_test: " directive ": the block after it has no \"$ \" command" > manifest
		return
	}
	if (directive ~ /^file /) {
		print "E\t" FILENAME ":" dline ": docs_test: " directive ": the block after it is a command block" > manifest
		return
	}
	b = ++nblocks
	j = 0
	i = 1
	while (i <= n) {
		j++
		line = fence + i
		cmd = substr(blk[i], 3)
		while (cmd ~ /\\$/ && i < n)
			cmd = cmd "\n" blk[++i]
		if (match(cmd, /<<-?[ \t]*["\047]?[A-Za-z_][A-Za-z0-9_]*["\047]?/)) {
			word = substr(cmd, RSTART + 2, RLENGTH - 2)
			dash = sub(/^-/, "", word)
			gsub(/[ \t"\047]/, "", word)
			t = ""
			while (i < n) {
				t = blk[++i]
				cmd = cmd "\n" t
				if (dash)
					sub(/^\t+/, "", t)
				if (t == word)
					break
			}
			if (t != word)
				print "E\t" FILENAME ":" line ": the here-document has no closing " word > manifest
		}
		i++
		print "{ " cmd > (cases "/" b ".sh")
		print "} > \"$DOCS_OUT/" b "." j ".out\" 2>&1" > (cases "/" b ".sh")
		print cmd > (cases "/" b "." j ".cmd")
		close(cases "/" b "." j ".cmd")
		expf = cases "/" b "." j ".exp"
		printf "" > expf
		while (i <= n && blk[i] !~ /^\$ /)
			print blk[i++] > expf
		close(expf)
		print "C\t" b "\t" j "\t" FILENAME "\t" line > manifest
	}
	close(cases "/" b ".sh")
	print "B\t" b "\t" FILENAME "\t" fence "\t" j "\t" directive > manifest
}
BEGIN { manifest = cases "/manifest"; printf "" > manifest }
FNR == 1 {
	if (NR > 1 && infence)
		print "E\t" prevfile ":" fence ": a code block that is never closed" > manifest
	infence = 0; pending = ""; pline = 0; prevfile = FILENAME
}
{
	if (!infence) {
		if ($0 ~ /^ ? ? ?```/) {
			infence = 1
			fence = FNR
			n = 0
			directive = pending
			dline = pline
			pending = ""
			next
		}
		if ($0 ~ /^[ \t]*$/)
			next
		if ($0 ~ /^[ \t]*<!--[ \t]*docs_test/) {
			if ($0 ~ /^<!-- docs_test: [^ ].* -->[ \t]*$/) {
				if (pending != "")
					print "E\t" FILENAME ":" pline ": docs_test: " pending ": not followed by a code block" > manifest
				pending = $0
				sub(/^<!-- docs_test: /, "", pending)
				sub(/ -->[ \t]*$/, "", pending)
				pline = FNR
				if (pending !~ /^(gpu|nodriver|needs [^ ]+|skip \(.+\)|file [^ ]+)$/)
					print "E\t" FILENAME ":" FNR ": unknown docs_test directive: " pending > manifest
				next
			}
			print "E\t" FILENAME ":" FNR ": a docs_test comment not of the form <!-- docs_test: WHAT -->" > manifest
			next
		}
		if (pending != "") {
			print "E\t" FILENAME ":" pline ": docs_test: " pending ": not followed by a code block" > manifest
			pending = ""
		}
		next
	}
	if ($0 ~ /^ ? ? ?```/) {
		infence = 0
		flush_block()
		next
	}
	blk[++n] = $0
}
END {
	if (infence)
		print "E\t" prevfile ":" fence ": a code block that is never closed" > manifest
}
' "$@" 2> "$tmp/awk.err") || {
	say "ERROR: extracting the examples failed:" >&2
	cat "$tmp/awk.err" >&2
	exit 99
}

if grep -q '^E' "$cases/manifest"; then
	sed -n 's/^E	/ERROR: /p' "$cases/manifest" >&2
	exit 99
fi

# ---- run them ----
fail=0
ran=0 passed=0 skipped=0 skipped_gpu=0 files=0
strip() { sed 's/[[:space:]]*$//' "$1"; }
# Where the scratch HOME is printed, the docs print `~`.
home_re=$(printf '%s\n' "$HOME" | sed 's/[][\\.*^$/]/\\&/g')

have_driver=
driver() {  # 0 if kgen info finds a CUDA driver
	if [ -z "$have_driver" ]; then
		if "$builddir/kgen" info 2>&1 | grep -q 'no CUDA driver: dlopen'; then
			have_driver=no
		else
			have_driver=yes
		fi
	fi
	[ "$have_driver" = yes ]
}
git_dir() {  # the git directory of a full clone around $top_srcdir, or nothing
	command -v git > /dev/null 2>&1 || return 1
	[ "$(git -C "$srcdir" rev-parse --is-shallow-repository 2>/dev/null)" = false ] || return 1
	git -C "$srcdir" rev-parse --absolute-git-dir 2>/dev/null
}
timeout=
command -v timeout > /dev/null 2>&1 && timeout="timeout 300"

# workdir FILE: the scratch directory of a markdown file, made on first use.
workdir() {
	wd=$tmp/work/$(printf '%s' "$1" | tr -c 'A-Za-z0-9.\n' _)
	if [ ! -d "$wd" ]; then
		mkdir "$wd" "$wd/bench" && cp -R "$srcdir/specs" "$wd/specs" || exit 99
		for d in "$srcdir"/bench/*/; do
			d=${d%/}
			[ "${d##*/}" = results ] || cp -R "$d" "$wd/bench/" || exit 99
		done
		chmod -R u+w "$wd" && cp "$tmp/bin/kgen" "$wd/kgen" || exit 99
	fi
}

tab=$(printf '\t')
while IFS=$tab read -r kind b f3 f4 f5 f6; do
	case $kind in
	F)
		# A spec quoted from a file: the same lines, comments aside.
		files=$((files + 1))
		where=$f3:$f4
		if [ ! -f "$srcdir/$f5" ]; then
			say "FAIL: $where: docs_test: file $f5: no such file"
			fail=1
			continue
		fi
		grep -v '^#' "$cases/$b.block" | sed 's/[[:space:]]*$//' > "$cases/$b.exp"
		grep -v '^#' "$srcdir/$f5" | sed 's/[[:space:]]*$//' > "$cases/$b.got"
		if cmp -s "$cases/$b.exp" "$cases/$b.got"; then
			say "ok: $where: the block is $f5"
		else
			say "FAIL: $where: the block is not $f5 (--- the block, +++ the file):"
			diff -u "$cases/$b.exp" "$cases/$b.got" | sed '1,2d'
			fail=1
		fi
		continue
		;;
	C)
		continue
		;;
	B) ;;
	*)
		say "ERROR: bad manifest line: $kind" >&2
		exit 99
		;;
	esac
	md=$f3 line=$f4 ncmd=$f5 directive=$f6
	where=$md:$line
	why=
	gitdir=
	case $directive in
	'') ;;
	gpu)
		why="needs a GPU"
		skipped_gpu=$((skipped_gpu + ncmd))
		;;
	nodriver)
		driver && why="a CUDA driver is installed (the block shows kgen without one)"
		;;
	'needs git')
		gitdir=$(git_dir) || why="needs git and a full git clone of kgen"
		;;
	'needs '*)
		command -v "${directive#needs }" > /dev/null 2>&1 || why="needs ${directive#needs }"
		;;
	'skip ('*')')
		why=${directive#skip }
		;;
	*)
		say "ERROR: $where: unknown docs_test directive '$directive'" >&2
		exit 99
		;;
	esac
	if [ -n "$why" ]; then
		first=$(sed -n '1p' "$cases/$b.1.cmd")
		say "skip: $where: $ncmd command(s) (\$ $first ...): $why"
		skipped=$((skipped + ncmd))
		continue
	fi

	workdir "$md"
	(
		cd "$wd" || exit 99
		if [ -n "$gitdir" ]; then
			GIT_DIR=$gitdir
			export GIT_DIR
		fi
		DOCS_OUT=$cases $timeout sh "$cases/$b.sh"
	) < /dev/null > "$cases/$b.log" 2>&1
	j=1
	while [ "$j" -le "$ncmd" ]; do
		ran=$((ran + 1))
		cl=$(sed -n "s/^C	$b	$j	[^	]*	//p" "$cases/manifest")
		first=$(sed -n '1p' "$cases/$b.$j.cmd")
		[ "$(wc -l < "$cases/$b.$j.cmd")" -gt 1 ] && first="$first ..."
		if [ ! -f "$cases/$b.$j.out" ]; then
			say "FAIL: $md:$cl: \$ $first: did not run (the block stopped before it):"
			sed 's/^/  /' "$cases/$b.log"
			fail=1
		else
			strip "$cases/$b.$j.exp" > "$cases/exp"
			strip "$cases/$b.$j.out" | sed "s/$home_re/~/g" > "$cases/got"
			if cmp -s "$cases/exp" "$cases/got"; then
				say "ok: $md:$cl: \$ $first"
				passed=$((passed + 1))
			else
				say "FAIL: $md:$cl: \$ $first (--- printed in $md, +++ what it prints):"
				diff -u "$cases/exp" "$cases/got" | sed '1,2d'
				fail=1
			fi
		fi
		j=$((j + 1))
	done
done < "$cases/manifest"

total=$((ran + skipped))
say "docs_test: $total commands in README.md, docs/*.md and bench/: $ran run, $passed as printed," \
	"$((ran - passed)) not; $skipped skipped ($skipped_gpu need a GPU); $files quoted files checked"
if [ "$total" -eq 0 ] || [ "$ran" -eq 0 ]; then
	say "ERROR: no command was found or run: has the format of the examples changed?" >&2
	exit 99
fi
exit $fail
