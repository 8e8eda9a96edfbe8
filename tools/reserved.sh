#!/bin/sh
# reserved.sh OUT FILE... : write OUT, gen/spec.c's tables of the names a
# kernel may not take because kgen's generated code declares or calls them,
# each sorted (strcmp order).  Each FILE is a template (*.cu: its text) or a
# generator source (*.c: the text of its string literals, adjacent ones
# joined, which is the code its emitters write).
#
# reserved_declared[]: the types, constants and functions that text
# declares (a function's own types and constants too, not its variables):
#   #define NAME            typedef ... NAME;       using NAME =
#   struct|class|union|enum [alignas(...)|__align__(...)] NAME {|:|;
#   constexpr TYPE NAME = ..., NAME = ...;
#   ... __device__|__global__ ... NAME(     (the name may be on the next line)
#   template <int NAME, bool NAME>          (template parameters)
# reserved_called[]: the functions the templates call (NAME( or NAME<...>()
# that none of the files declares: helpers whose name the generator fills in
# (matmul's `Acc {{fn}}(...)` as c_to_acc) and CUDA's own.  Left out: member
# calls (.f(, ->f(, ::f(), the templates' lambdas (auto NAME =) and the C++
# keywords written like calls (sizeof(...), static_cast<T>(...)).
#
# A {{placeholder}} or a printf conversion (%s) is no name, so neither is
# {{name}}_init; names that begin with __ or _ and a capital are left out
# (reserved to the compiler, which gen/spec.c refuses by rule).
# tests/reserved_test checks every template's and golden file's
# declarations against kgen's refusal with a scanner of its own.
set -eu
out=$1; shift
tmp=$out.tmp
LC_ALL=C; export LC_ALL

# The text of a C file's string literals, escapes decoded; adjacent literals
# ("a" "b", across lines too) are one text, others end a line.
literals() {
	awk '
	{ src = src $0 "\n" }
	END {
		n = length(src); st = 0; pend = 0; cur = ""
		for (i = 1; i <= n; i++) {
			c = substr(src, i, 1)
			if (st == 0) {
				if (c == "\"") { if (pend) pend = 0; st = 1; continue }
				if (c == "/" && substr(src, i + 1, 1) == "/") { st = 3; continue }
				if (c == "/" && substr(src, i + 1, 1) == "*") { st = 4; i++; continue }
				if (c == "\047") { st = 2; continue }
				if (pend && c !~ /[ \t\n]/) { print cur; cur = ""; pend = 0 }
			} else if (st == 1) {
				if (c == "\\") {
					d = substr(src, ++i, 1)
					cur = cur (d == "n" ? "\n" : d == "t" ? "\t" : d)
				} else if (c == "\"") { st = 0; pend = 1 }
				else cur = cur c
			} else if (st == 2) {
				if (c == "\\") i++
				else if (c == "\047") st = 0
			} else if (st == 3) {
				if (c == "\n") st = 0
			} else if (substr(src, i, 2) == "*/") { st = 0; i++ }
		}
		if (pend) print cur
	}' "$1" | sed 's/%[-+ #0-9.*]*[hlzjt]*[diouxXcsfeEgGp]/@/g'
}

# The declared names of CUDA text on stdin, one a line.
declared() {
	awk '
	function last_id(s) {
		sub(/[ \t]*$/, "", s)
		if (!match(s, /[A-Za-z_][A-Za-z0-9_]*$/)) return ""
		if (RSTART > 1 && substr(s, RSTART - 1, 1) !~ /[ \t*&]/) return ""
		return substr(s, RSTART, RLENGTH)
	}
	function put(name) { if (name != "" && name !~ /^(__|_[A-Z])/) print name }
	function consts(s,   parts, k, j, p) {
		sub(/;.*/, "", s)
		while (gsub(/\{[^{}]*\}/, "", s)) {}
		k = split(s, parts, ",")
		for (j = 1; j <= k; j++) {
			p = parts[j]
			gsub(/==/, "", p)
			if (match(p, /=/)) put(last_id(substr(p, 1, RSTART - 1)))
		}
	}
	{
		line = pending $0; pending = ""
		gsub(/"([^"\\]|\\.)*"/, "\"\"", line)
		sub(/\/\/.*/, "", line)
		gsub(/\{\{[^}]*\}\}/, "@", line)
		while (gsub(/\([^()]*\)/, "\001", line)) {}
		if (match(line, /^[ \t]*#[ \t]*define[ \t]+[A-Za-z_][A-Za-z0-9_]*/)) {
			s = substr(line, RSTART, RLENGTH); put(last_id(s)); next
		}
		if (match(line, /(^|[^A-Za-z0-9_])typedef[ \t][^;]*;/)) {
			s = substr(line, RSTART, RLENGTH - 1); sub(/(\[[^]]*\])+[ \t]*$/, "", s); put(last_id(s))
		}
		if (match(line, /(^|[^A-Za-z0-9_])using[ \t]+[A-Za-z_][A-Za-z0-9_]*[ \t]*=/)) {
			s = substr(line, RSTART, RLENGTH - 1); put(last_id(s))
		}
		if (match(line, /(^|[^A-Za-z0-9_])(struct|class|union|enum)[ \t]+((alignas|__align__)\001[ \t]*)?[A-Za-z_][A-Za-z0-9_]*[ \t]*([{:;]|$)/)) {
			s = substr(line, RSTART, RLENGTH); sub(/[ \t]*[{:;]?$/, "", s); put(last_id(s))
		}
		if (line !~ /(^|[^A-Za-z0-9_])if[ \t]+constexpr/ && match(line, /(^|[^A-Za-z0-9_])constexpr[ \t]/)) consts(substr(line, RSTART + RLENGTH))
		while (match(line, /(^|[^A-Za-z0-9_])template[ \t]*<[^<>]*>/)) {
			s = substr(line, RSTART, RLENGTH); line = substr(line, RSTART + RLENGTH)
			sub(/^.*</, "", s); sub(/>$/, "", s)
			k = split(s, parts, ",")
			for (j = 1; j <= k; j++) { p = parts[j]; sub(/=.*/, "", p); put(last_id(p)) }
		}
		if (line ~ /(^|[^A-Za-z0-9_])__(device|global)__([^A-Za-z0-9_]|$)/ && line !~ /(^|[^A-Za-z0-9_])(typedef|using|struct|class|union|enum)[^A-Za-z0-9_]/) {
			gsub(/(__launch_bounds__|alignas|__align__)\001/, "", line)
			if (match(line, /[(\001]/)) put(last_id(substr(line, 1, RSTART - 1)))
			else pending = line " "
		}
	}'
}

# The functions CUDA text on stdin calls, one a line (candidates: the
# caller takes out the declared ones).
called() {
	sed 's/"\([^"\\]\|\\.\)*"/""/g; s,//.*,,; s/{{[^}]*}}/@/g; s/<[^<>;(){}]*>(/(/g' |
	grep -o '\(^\|[^A-Za-z0-9_.>:@]\)[A-Za-z_][A-Za-z0-9_]*(' | sed 's/^[^A-Za-z_]*//; s/($//' |
	grep -v -x -e '__.*' -e '_[A-Z].*' -e 'sizeof' -e 'alignof' -e 'alignas' -e 'decltype' -e 'static_assert' \
		-e 'noexcept' -e 'typeid' -e '.*_cast' -e 'asm' -e 'volatile' -e 'if' -e 'for' -e 'while' -e 'switch' -e 'return' || :
}

# A table: its comment, its name, the names of file $3, one a line.
table() {
	if [ ! -s "$3" ]; then
		echo "tools/reserved.sh: no names for $2[]: the scanner has lost its way" >&2
		exit 1
	fi
	echo "/* $1 */"
	echo "static const char *const $2[] = {"
	sed 's/.*/\t"&",/' "$3"
	echo "};"
}

for f in "$@"; do
	case $f in
	*.c) literals "$f" ;;
	*) cat "$f" ;;
	esac | declared
done | sort -u > "$tmp.declared"
for f in "$@"; do
	case $f in
	*.cu) sed -n 's/^[ \t]*auto[ \t][ \t]*\([A-Za-z_][A-Za-z0-9_]*\)[ \t]*=.*/\1/p' "$f" ;;
	esac
done | cat - "$tmp.declared" | sort -u > "$tmp.known"
for f in "$@"; do
	case $f in
	*.cu) called < "$f" ;;
	esac
done | sort -u | comm -23 - "$tmp.known" > "$tmp.called"
{
	echo "/* Generated by tools/reserved.sh from the templates and the generator's sources: do not edit. */"
	table "What kgen's generated code declares: the templates' and the emitters' names." reserved_declared \
		"$tmp.declared"
	table "What the templates call that none of them declares: helpers the generator names, CUDA's functions." \
		reserved_called "$tmp.called"
} > "$tmp"
rm -f "$tmp.declared" "$tmp.known" "$tmp.called"
# Replaced only when the tables change, so that an edit of an emitter that
# declares nothing new rebuilds no more than it did.
if cmp -s "$tmp" "$out" 2>/dev/null; then rm -f "$tmp"; else mv "$tmp" "$out"; fi
