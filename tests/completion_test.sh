#!/bin/sh
# completion_test.sh: the bash completion (completions/kgen), sourced in
# bash and called as bash calls it (COMP_WORDS, COMP_CWORD, and COMP_LINE
# where the case needs it): commands, each command's options and
# arguments, spec files, and --set KEY=VALUE / --unset KEY with the keys
# and values of `kgen keys`, split at "=" as bash splits them or whole.
# Skips (77) without bash.
set -u
: "${top_srcdir:=.}" "${top_builddir:=.}"
if ! command -v bash > /dev/null 2>&1; then
	echo "SKIP: no bash"
	exit 77
fi
srcdir=$(cd "$top_srcdir" && pwd) || exit 99
builddir=$(cd "$top_builddir" && pwd) || exit 99
if [ ! -x "$builddir/kgen" ] || [ ! -f "$srcdir/completions/kgen" ]; then
	echo "ERROR: need $builddir/kgen and $srcdir/completions/kgen" >&2
	exit 99
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kgen-completion.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
trap 'exit 99' HUP INT TERM
cd "$tmp" || exit 99
printf 'kernel: reduce\nop: sum\n' > r.yaml
printf 'kernel: transpose  # a comment\n' > t.yaml
: > notes.txt
mkdir sub

kgen=$builddir/kgen completion=$srcdir/completions/kgen bash --norc --noprofile -u <<'EOF'
. "$completion" || exit 99
complete -p kgen > /dev/null 2>&1 || { echo "FAIL: completions/kgen registers no completion for kgen" >&2; exit 1; }
fail=0
bad() { echo "FAIL: $*" >&2; fail=1; }

# comp WORD...: complete the last word of `kgen WORD...` (bash's words,
# "=" a word of its own where bash splits it); the sorted replies in $got.
comp() {
	COMP_WORDS=("$kgen" "$@")
	COMP_CWORD=$#
	COMPREPLY=()
	_kgen 2> /dev/null
	got=$(printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' ')
	got=${got% }
}
# is WANT WORD...: the replies are exactly WANT (sorted, space-separated).
is() {
	local want=$1
	shift
	comp "$@"
	[[ $got == "$want" ]] || bad "kgen $*<TAB>: got '$got', expected '$want'"
}
# has WANT... -- WORD...: the replies include each WANT.
has() {
	local want=() w
	while [[ $1 != -- ]]; do want+=("$1"); shift; done
	shift
	comp "$@"
	for w in "${want[@]}"; do
		[[ " $got " == *" $w "* ]] || bad "kgen $*<TAB>: no '$w' in '$got'"
	done
}
sorted() { printf '%s\n' "$@" | sort | tr '\n' ' ' | sed 's/ $//'; }

# Commands: a prefix, and every command of kgen --help, with the spec files.
is check ch
commands=$("$kgen" --help | awk '/^$/ { exit } { sub(/^usage:/, "") } $1 == "kgen" && $2 ~ /^[a-z]+$/ { print $2 }')
[[ $commands == *keys* ]] || bad "kgen --help lists no keys command: $commands"
has $commands r.yaml t.yaml sub -- ""
[[ " $got " == *" notes.txt "* ]] && bad "kgen <TAB> offers notes.txt, not a spec"
is help he
has keys -- help ""

# Options of a command, from its usage lines.
has --arch --json --set --unset --help -- check --
has --cubin --ptx --time --arch --entry -o -- compile r.yaml -
is "" compile r.yaml --entry ""
is "--emit" space --e
has --against --tolerance --records -- tune --
is "" diff r.yaml t.yaml ""
# kgen plot: its options, its kinds, and any file (a table or records is no spec).
has --kind --at --title -o --help -- plot -
is "ladder line" plot --kind l
has notes.txt r.yaml sub -- plot ""
has notes.txt r.yaml -- plot r.yaml --kind line ""

# Option arguments.
is "cold events graph per-call" run r.yaml --method ""
is "cold events graph" tune s.yaml --method ""
is "both end start" run r.yaml --extreme ""
is "sm_80 sm_86 sm_87 sm_89" compile r.yaml --arch sm_8
is "cub" tune s.yaml --against ""
is "clear list" cache ""
is "matmul reduce reduce_axis rows scan transpose" keys ""

# --set KEY=VALUE and --unset KEY: the spec's family's keys, then values.
keys() { "$kgen" keys "$@" | cut -f 2 | sort | tr '\n' ' ' | sed 's/ $//'; }
is "$(keys reduce | sed 's/\([^ ]*\)/\1=/g')" check r.yaml --set ""
is "$(keys transpose | sed 's/\([^ ]*\)/\1=/g')" t.yaml --set ""
has method= -- check r.yaml --set kernel = transpose --set ""
is "op= order= out_dtype=" check x.yaml --set o
ops=$(sorted $("$kgen" keys reduce | awk -F '\t' '$2 == "op" { print $4 }'))
[[ $ops == *argmax*sum* ]] || bad "kgen keys reduce has no op values: $ops"
is "$ops" check r.yaml --set op =
is "all amax any argmax argmin" check r.yaml --set op = a
is "none reduce_sync shuffle volatile" r.yaml -s warp_tail =
is "" check r.yaml --set threads =
is "threads" check r.yaml --unset thr
is "threads" diff r.yaml r.yaml --unset thr
# kgen diff's one-side overrides: options and keys as for --set.
has --set --set-a --set-b --unset -- diff r.yaml r.yaml --
is "threads=" diff r.yaml r.yaml --set-b thr
is "all amax any argmax argmin" diff r.yaml r.yaml --set-a op = a

# "=" kept in the word (COMP_WORDBREAKS without it): the whole KEY=VALUE.
COMP_WORDBREAKS=$' \t\n"\'><;|&(:'
is "op=max op=mean op=min" check r.yaml --set op=m
COMP_WORDBREAKS=$' \t\n"\'@><=;|&(:'

# COMP_LINE: `--set op= ` ends the value; the next word is a spec.
COMP_LINE="$kgen check r.yaml --set op= "
COMP_POINT=${#COMP_LINE}
is "r.yaml sub t.yaml" check r.yaml --set op = ""
COMP_LINE="$kgen check r.yaml --set op=m"
COMP_POINT=${#COMP_LINE}
is "max mean min" check r.yaml --set op = m
unset COMP_LINE COMP_POINT

exit $fail
EOF
rc=$?
[ $rc -eq 0 ] || [ $rc -eq 1 ] || [ $rc -eq 99 ] || rc=99
exit $rc
