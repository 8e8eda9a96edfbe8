#!/bin/sh
# man_examples_test.sh: every command in kgen.1's EXAMPLES runs as shown.
# Each .EX block's text is un-troffed (\- is -, \e is \, \(aq is '); in a
# block of `$ ` prompts each command's output is compared with the lines
# after it, and in a block without prompts every command must exit 0.
# Commands that need a GPU (kgen run, info, tune) are skipped and counted;
# everything runs in a scratch copy of specs/ with kgen first on PATH.
set -u
: "${top_srcdir:=.}" "${top_builddir:=.}"
kgen=$(cd "$top_builddir" && pwd)/kgen
man=$top_srcdir/kgen.1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kgen-man.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/bin" "$tmp/w"
printf '#!/bin/sh\nexec "%s" "$@"\n' "$kgen" > "$tmp/bin/kgen" && chmod +x "$tmp/bin/kgen"
cp -R "$top_srcdir/specs" "$tmp/w/specs"
chmod -R u+w "$tmp/w"

# The EXAMPLES section's .EX blocks, un-troffed, one file each.
awk -v dir="$tmp" '
	/^\.SH / { in_ex = ($2 == "EXAMPLES") }
	in_ex && /^\.EX/ { n++; f = dir "/block" n; printf "" > f; on = 1; next }
	on && /^\.EE/ { on = 0; close(f); next }
	on {
		gsub(/\\-/, "-"); gsub(/\\\(aq/, "\047"); gsub(/\\e/, "\\");
		print >> f
	}
' "$man"
fail=0 ran=0 skipped=0
bad() { echo "FAIL: $*" >&2; fail=1; }
for b in "$tmp"/block*; do
	[ -e "$b" ] || continue
	if grep -q '^\$ ' "$b"; then
		# Prompted: run each "$ cmd" and compare with the lines up to the next prompt.
		awk -v dir="$tmp" '
			/^\$ / { n++; cmd = dir "/" FILENAME_N "cmd" n; sub(/^\$ /, ""); print > (dir "/p.cmd" n); next }
			{ print > (dir "/p.out" n) }
		' FILENAME_N=x "$b"
		i=1
		while [ -f "$tmp/p.cmd$i" ]; do
			[ -f "$tmp/p.out$i" ] || : > "$tmp/p.out$i"
			c=$(cat "$tmp/p.cmd$i")
			case $c in
			cat\ *) f=${c#cat }; cp "$tmp/p.out$i" "$tmp/w/$f"; ran=$((ran + 1)); i=$((i + 1)); continue ;;
			esac
			(cd "$tmp/w" && PATH="$tmp/bin:$PATH" sh -c "$c; echo \$? > $tmp/rc" > "$tmp/got" 2>&1)
			if [ "$c" = 'echo $?' ]; then
				printf '%s\n' "$last_rc" > "$tmp/got"
			fi
			last_rc=$(cat "$tmp/rc")
			if cmp -s "$tmp/got" "$tmp/p.out$i"; then ran=$((ran + 1)); else
				bad "kgen.1 example '$c':"; diff "$tmp/p.out$i" "$tmp/got" >&2
			fi
			i=$((i + 1))
		done
		rm -f "$tmp"/p.cmd* "$tmp"/p.out*
		continue
	fi
	# Unprompted: each command (with its \ continuations) must exit 0.
	awk '/\\$/ { sub(/\\$/, ""); buf = buf $0 " "; next } { print buf $0; buf = "" }' "$b" > "$b.cmds"
	while IFS= read -r c; do
		case $c in
		"kgen run"*|"kgen info"*|"kgen tune"*) skipped=$((skipped + 1)); continue ;;
		esac
		if (cd "$tmp/w" && PATH="$tmp/bin:$PATH" sh -c "$c" > "$tmp/got" 2>&1); then
			ran=$((ran + 1))
		else
			bad "kgen.1 example '$c' failed: $(head -5 "$tmp/got")"
		fi
	done < "$b.cmds"
done
[ $ran -gt 5 ] || { echo "ERROR: only $ran commands found in kgen.1's EXAMPLES" >&2; exit 99; }
echo "man_examples: $ran commands of kgen.1's EXAMPLES run as shown, $skipped need a GPU"
exit $fail
