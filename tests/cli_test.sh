#!/bin/sh
# cli_test.sh: the kgen command line: exit statuses, --help, --version,
# standard input, -o (and that a failure leaves no file behind), kgen diff,
# kgen run's --shape and kgen check.
set -u
: "${top_srcdir:=.}" "${top_builddir:=.}"
kgen=$top_builddir/kgen
specs=$top_srcdir/specs
good=$specs/reduce_vec4.yaml

tmp=$(mktemp -d "${TMPDIR:-/tmp}/kgen-cli.XXXXXX") || exit 99
trap 'chmod -R u+w "$tmp"; rm -rf "$tmp"' EXIT
printf 'kernel: reduce\nthread: 256\n' > "$tmp/bad.yaml"

fail=0
bad() { echo "FAIL: $*" >&2; fail=1; }

# expect STATUS CMD...: run CMD (output in $tmp/out, $tmp/err), check its exit status.
expect() {
	want=$1
	shift
	"$@" > "$tmp/out" 2> "$tmp/err"
	got=$?
	if [ "$got" -ne "$want" ]; then
		bad "'$*' exited $got, expected $want"
		sed 's/^/  stderr: /' "$tmp/err" >&2
	fi
}

# no_output DIR NAME: neither DIR/NAME nor a temporary DIR/NAME.tmp.* exists.
no_output() {
	[ -e "$1/$2" ] && bad "$1/$2 exists after an error"
	for f in "$1/$2".tmp.*; do
		[ -e "$f" ] && bad "temporary $f left after an error"
	done
}

# ---- exit statuses ----
expect 0 "$kgen" "$good"
grep -q '__global__' "$tmp/out" || bad "kgen SPEC printed no kernel"
expect 1 "$kgen" "$tmp/bad.yaml"
grep -qF "bad.yaml:2:1: error: unknown key 'thread' (did you mean 'threads'?)" "$tmp/err" ||
	bad "a bad spec's error has no file:line:column"
[ -s "$tmp/out" ] && bad "a bad spec printed something on stdout"
expect 2 "$kgen"
expect 2 "$kgen" --no-such-option "$good"
expect 2 "$kgen" "$good" "$good"
expect 2 "$kgen" compile "$good"
grep -q -- '-o FILE is required' "$tmp/err" || bad "compile without -o does not say -o is required"
expect 2 "$kgen" "$good" --set threads
grep -qxF -- "kgen: --set needs KEY=VALUE (got 'threads'; KEY= unsets the key)" "$tmp/err" ||
	bad "bad --set syntax is not explained: $(cat "$tmp/err")"
# `--set KEY VALUE`: the value is not taken for a spec; each command says what was meant.
expect 2 "$kgen" "$good" --set threads 256
grep -qxF -- "kgen: --set needs KEY=VALUE (got 'threads'); did you mean --set threads=256?" "$tmp/err" ||
	bad "--set threads 256: $(cat "$tmp/err")"
for c in check compile diff run space tune; do
	expect 2 "$kgen" $c "$good" --set threads 256
	grep -qxF -- "kgen $c: --set needs KEY=VALUE (got 'threads'); did you mean --set threads=256?" "$tmp/err" ||
		bad "kgen $c --set threads 256: $(cat "$tmp/err")"
done
# Another tool's name of a type, through --set as in a spec; a space's key without ':' at its own line.
expect 1 "$kgen" "$good" --set dtype=float16
grep -qF "error: dtype: unknown value 'float16' (did you mean 'f16'?): expected i32, u32, i64, f32, f64, f16 or bf16" \
	"$tmp/err" || bad "--set dtype=float16: $(cat "$tmp/err")"
# --accuracy is a runner's (matmul's): another family's spec is refused before any GPU is asked for.
expect 2 "$kgen" run --accuracy "$good"
grep -qF "error: --accuracy measures a matmul's error, not a reduce's: drop it" "$tmp/err" ||
	bad "--accuracy of a reduction: $(cat "$tmp/err")"
# --tsv and --json are written at the end, through a temporary: a run that stops before any result (a
# missing spec here; no GPU, a bad spec) leaves what the files held, where they were emptied at the start.
echo old > "$tmp/old.tsv"
echo old > "$tmp/old.json"
expect 3 "$kgen" run "$tmp/missing.yaml" --tsv "$tmp/old.tsv" --json "$tmp/old.json"
[ "$(cat "$tmp/old.tsv") $(cat "$tmp/old.json")" = "old old" ] || bad "kgen run --tsv/--json of nothing emptied them"
grep -qF "no results, so --tsv $tmp/old.tsv is left as it was" "$tmp/err" || bad "kgen run --tsv of nothing: $(cat "$tmp/err")"
expect 3 "$kgen" run "$good" --tsv "$tmp"
grep -qF "cannot write --tsv $tmp: it is a directory" "$tmp/err" || bad "kgen run --tsv DIR: $(cat "$tmp/err")"
expect 3 "$kgen" run "$good" --json "$tmp/no/such/folder.json"
expect 2 "$kgen" run "$good" --tsv - --json -
[ -e ./- ] && bad "kgen run --tsv - made a file named -"
printf 'kernel: reduce\nop: sum\nthreads [256, 512]\n' > "$tmp/colon.space.yaml"
expect 1 "$kgen" space "$tmp/colon.space.yaml" --list
grep -qF "colon.space.yaml:3:1: error: 'threads [256, 512]' has no ':' (expected KEY: VALUE)" "$tmp/err" ||
	bad "a space's key without ':': $(cat "$tmp/err")"
# The word after is not offered as the value when it is the spec.
expect 2 "$kgen" check --set threads "$good"
grep -qxF -- "kgen check: --set needs KEY=VALUE (got 'threads'; KEY= unsets the key)" "$tmp/err" ||
	bad "kgen check --set threads SPEC: $(cat "$tmp/err")"
# A usage error is one line and where the help is (as coreutils says it), not the whole help.
for args in "check" "check --bogus $good" "compile $good" "diff $good" "space" "tune" "tune a b" "run" "run --bogus $good" \
	"run --runs 0 $good" "keys a b" "keys --bogus" "cache" "cache list extra" "info extra" "help a b" "$good $good" \
	"--bogus $good" "check -o x $good" "run --runs abc $good" "run --device x $good" "run --offset 3.9 $good" \
	"run --pad abc $good" "run --seed xyz $good" "tune -j abc $good" "tune --runs 3x $good" "space -j 3x $good" \
	"check - -" "run - $good -" "tune --choose x $good" "tune --method foo $good" "tune --margin 5 $good" \
	"cache list --bogus"; do
	expect 2 $kgen $args
	c=$(echo "$args" | awk '$1 ~ /^[a-z]+$/ { print " " $1 }')
	[ "$(wc -l < "$tmp/err")" -eq 2 ] && [ "$(tail -n 1 "$tmp/err")" = "Try 'kgen$c --help' for more information." ] &&
		! grep -q '^usage:' "$tmp/err" || bad "kgen $args: not one line and 'Try kgen$c --help': $(cat "$tmp/err")"
	grep -q "^kgen$c: " "$tmp/err" || bad "kgen $args: the error does not begin 'kgen$c:': $(cat "$tmp/err")"
done
# A numeric option's argument is all a number (atoi() read "abc" as 0, "3x" as 3 and "3.9" as 3), and -s is
# --set for kgen space as for the other commands.
expect 2 "$kgen" run --offset 3.9 "$good"
grep -qxF "kgen run: --offset 3.9: an integer from 0 to 64" "$tmp/err" || bad "run --offset 3.9: $(cat "$tmp/err")"
expect 0 "$kgen" space "$good" -s threads=256
# Decimal, as atoi() read it (010 is ten, 08 is eight, not octal), hex with 0x, and --seed to 2^64 - 1.
for a in "--offset 08" "--device 010" "--runs 0x10" "--seed 18446744073709551615"; do
	"$kgen" run "$good" $a > /dev/null 2> "$tmp/err"
	[ $? -ne 2 ] || bad "kgen run $a is a usage error: $(cat "$tmp/err")"
done
expect 2 "$kgen" run "$good" --seed 18446744073709551616
# kgen space --arch refuses the points whose features the architecture lacks, as kgen check --arch does (they
# were accepted, then failed in ptxas with --compile), and an architecture that is none.
expect 1 "$kgen" space "$specs/transpose/tma-post/01-naive.yaml" --arch sm_80
grep -qF "refused: method: tma needs sm_90 or newer" "$tmp/out" || bad "kgen space --arch sm_80 of TMA: $(cat "$tmp/out")"
expect 2 "$kgen" space "$good" --compile --arch bogus
grep -qF "kgen space: unknown architecture 'bogus'" "$tmp/err" || bad "kgen space --arch bogus: $(cat "$tmp/err")"
# A key no family has is the space file's error, at its place (it was each point's refusal, placeless), and an
# empty space is said as an empty spec is.
printf 'kernel: reduce\nop: sum\nfoo: [1, 2]\n' > "$tmp/foo.space.yaml"
expect 1 "$kgen" space "$tmp/foo.space.yaml"
grep -qF "foo.space.yaml:3:1: error: unknown key 'foo' (did you mean 'op'?)" "$tmp/err" ||
	bad "kgen space of an unknown key: $(cat "$tmp/err")"
: > "$tmp/empty.space.yaml"
expect 1 "$kgen" space "$tmp/empty.space.yaml"
grep -qF "empty.space.yaml:1:1: error: the space is empty" "$tmp/err" || bad "kgen space of nothing: $(cat "$tmp/err")"
# Without a GPU, shipped:OP-DTYPE's error is one spec error line (it was a prefix, then kgen's own line).
"$kgen" run shipped:sum-f32 > "$tmp/out" 2> "$tmp/err"
if [ $? -eq 5 ]; then
	head -n 1 "$tmp/err" | grep -q "^shipped:sum-f32: error: no CUDA driver: .* (a shipped plan is the GPU's)$" ||
		bad "kgen run shipped:sum-f32 without a GPU: $(cat "$tmp/err")"
fi
expect 2 "$kgen" check
expect 2 "$kgen" diff "$good"
expect 3 "$kgen" "$tmp/no-such-file.yaml"
grep -q 'No such file or directory' "$tmp/err" || bad "a missing file's error does not say why"
expect 3 "$kgen" "$tmp"

# ---- --set ----
expect 0 "$kgen" "$good" --set threads=256
grep -q 'constexpr int THREADS = 256;' "$tmp/out" || bad "--set threads=256 had no effect"
expect 1 "$kgen" "$good" --set threads=100
grep -qF -- "$good (--set threads=100): error: threads 100 is not a multiple of the warp size, 32" "$tmp/err" ||
	bad "a --set value's error does not name the --set"
expect 1 "$kgen" "$good" -s thread=256
# R4-1: kgen space --emit DIR does not write a point over the space itself.
mkdir -p "$tmp/emit"
printf 'kernel: reduce\nthreads: [256, 512]\n' > "$tmp/emit/00001.yaml"
cp "$tmp/emit/00001.yaml" "$tmp/space-copy.yaml"
expect 2 "$kgen" space "$tmp/emit/00001.yaml" --emit "$tmp/emit"
cmp -s "$tmp/emit/00001.yaml" "$tmp/space-copy.yaml" || bad "kgen space --emit overwrote the space"
grep -q -- '--emit .*/emit/00001.yaml is the space itself: writing it would destroy the input' "$tmp/err" ||
	bad "kgen space --emit onto the space: $(cat "$tmp/err")"
# R4-6: the --set prefix of an error is escaped: a newline in the argument
# does not split the message, an escape sequence does not reach the terminal,
# a byte of no UTF-8 is shown as \xNN.
expect 1 "$kgen" "$good" --set "$(printf 'threads=1\n\033[31mred\351')"
[ "$(wc -l < "$tmp/err")" -eq 1 ] || bad "a newline in --set split the error: $(cat "$tmp/err")"
grep -q "$(printf '\033')" "$tmp/err" && bad "an escape in --set reached the terminal: $(cat "$tmp/err")"
grep -qF -- '(--set threads=1\x0a\x1b[31mred\xe9): error: threads:' "$tmp/err" ||
	bad "--set's argument is not escaped in the error: $(cat "$tmp/err")"

# ---- --help, --version ----
expect 0 "$kgen" --help
grep -q '^usage: kgen' "$tmp/out" || bad "--help prints no usage on stdout"
grep -q 'Exit status: 0 success; 1 the spec is wrong' "$tmp/out" || bad "--help does not list the exit statuses"
grep -q '2 bad command line; 3 a file could not be read' "$tmp/out" || bad "--help does not list exit statuses 2 and 3"
expect 0 "$kgen" -h
expect 0 "$kgen" --version
version=$(sed -n 's/^#define KGEN_VERSION "\(.*\)"$/\1/p' "$top_srcdir/include/kgen.h")
[ "$(cat "$tmp/out")" = "kgen $version" ] || bad "--version printed '$(cat "$tmp/out")', expected 'kgen $version'"

# ---- standard input ----
expect 0 "$kgen" "$good"
mv "$tmp/out" "$tmp/from-file.cu"
"$kgen" - < "$good" > "$tmp/from-stdin.cu" 2> "$tmp/err" || bad "kgen - < SPEC failed"
sed -n 1p "$tmp/from-stdin.cu" | grep -q 'from <stdin>\.$' || bad "kgen - does not name <stdin> in its header"
# Apart from the header's source name, the same kernel.
sed 1d "$tmp/from-file.cu" > "$tmp/a"
sed 1d "$tmp/from-stdin.cu" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || bad "kgen - < SPEC differs from kgen SPEC"
"$kgen" - < "$tmp/bad.yaml" > /dev/null 2> "$tmp/err"
[ $? -eq 1 ] || bad "a bad spec on stdin does not exit 1"
grep -q '^<stdin>:2:1: error:' "$tmp/err" || bad "a bad spec on stdin is not reported as <stdin>:2:1"

# ---- -o ----
expect 0 "$kgen" "$good" -o "$tmp/k.cu"
[ -s "$tmp/out" ] && bad "kgen -o FILE also wrote to stdout"
cmp -s "$tmp/k.cu" "$tmp/from-file.cu" || bad "kgen -o FILE wrote other than kgen prints"
expect 0 "$kgen" --output "$tmp/k2.cu" "$good"
cmp -s "$tmp/k2.cu" "$tmp/from-file.cu" || bad "--output FILE (before the spec) wrote other than kgen prints"

# ---- no output after an error ----
mkdir "$tmp/o"
expect 1 "$kgen" "$tmp/bad.yaml" -o "$tmp/o/k.cu"
no_output "$tmp/o" k.cu
expect 3 "$kgen" "$tmp/no-such-file.yaml" -o "$tmp/o/k.cu"
no_output "$tmp/o" k.cu
expect 2 "$kgen" "$good" --set threads -o "$tmp/o/k.cu"
no_output "$tmp/o" k.cu
expect 1 "$kgen" compile "$tmp/bad.yaml" -o "$tmp/o/k.cubin"
no_output "$tmp/o" k.cubin
expect 2 "$kgen" compile "$good" --arch sm_x -o "$tmp/o/k.cubin"
no_output "$tmp/o" k.cubin
# The rename onto a directory fails: the temporary file must go.
mkdir "$tmp/o/dir"
expect 3 "$kgen" "$good" -o "$tmp/o/dir"
for f in "$tmp/o/dir".tmp.*; do
	[ -e "$f" ] && bad "temporary $f left after a failed rename"
done
expect 3 "$kgen" "$good" -o "$tmp/o/no-such-dir/k.cu"
[ -e "$tmp/o/no-such-dir" ] && bad "-o into a missing directory created it"
[ "$(ls -A "$tmp/o")" = dir ] || bad "files left in the output directory: $(ls -A "$tmp/o")"

# A target that existed before an error is left as it was.
echo "precious" > "$tmp/o/keep.cu"
cp "$tmp/o/keep.cu" "$tmp/keep.orig"
expect 1 "$kgen" "$tmp/bad.yaml" -o "$tmp/o/keep.cu"
cmp -s "$tmp/o/keep.cu" "$tmp/keep.orig" || bad "a bad spec changed the existing -o target"
expect 1 "$kgen" compile "$tmp/bad.yaml" -o "$tmp/o/keep.cu"
cmp -s "$tmp/o/keep.cu" "$tmp/keep.orig" || bad "compile of a bad spec changed the existing -o target"
expect 2 "$kgen" compile "$good" --arch sm_x -o "$tmp/o/keep.cu"
cmp -s "$tmp/o/keep.cu" "$tmp/keep.orig" || bad "compile for a bad arch changed the existing -o target"
ls "$tmp/o" | grep -q '\.tmp\.' && bad "temporary files left: $(ls "$tmp/o")"

# ---- kgen diff ----
expect 0 "$kgen" diff "$specs/reduce/parallel-post/04-sequential.yaml" \
	"$specs/reduce/parallel-post/05-first-add-during-load.yaml"
[ "$(sed -n 1p "$tmp/out")" = "items_per_thread: 1 -> 2" ] ||
	bad "kgen diff's first line is '$(sed -n 1p "$tmp/out")', expected 'items_per_thread: 1 -> 2'"
grep -q '^+constexpr int ITEMS = 2;$' "$tmp/out" || bad "kgen diff shows no unified diff of the kernels"
expect 0 "$kgen" diff "$good" "$good"
[ "$(sed -n 1p "$tmp/out")" = "(no field differs)" ] || bad "kgen diff of a spec with itself finds a difference"
expect 1 "$kgen" diff "$good" "$tmp/bad.yaml"
# No noise between ladder steps (issue 48): a key that applies on neither
# side (warp_m with math: simt and no warp tiling) is not listed, nor one
# that applies on one side only at a default that side does not write
# (stages: 1 with staging: smem); what the step writes is.
mm=$specs/matmul/seed-002
expect 0 "$kgen" diff "$mm/02-coalesced.yaml" "$mm/03-smem.yaml"
sed '/^$/q' "$tmp/out" > "$tmp/fields"
for k in warp_m warp_n stages split_k schedule a_smem; do
	grep -q "^$k:" "$tmp/fields" && bad "kgen diff of matmul steps 2 and 3 lists $k: $(grep "^$k:" "$tmp/fields")"
done
for l in 'staging: none -> smem' 'tile_k: (none) -> 32' 'thread_m: (none) -> 1' 'thread_map: cols -> (none)'; do
	grep -qxF "$l" "$tmp/fields" || bad "kgen diff of matmul steps 2 and 3 lacks '$l': $(cat "$tmp/fields")"
done
expect 0 "$kgen" diff "$mm/06-vectorized.yaml" "$mm/07-warptiling.yaml"
grep -qx 'warp_m: (none) -> 64' "$tmp/out" || bad "kgen diff of matmul steps 6 and 7: $(sed '/^$/q' "$tmp/out")"
# two families' keys of one name (scan's and rows' op and strategy) are one line each
expect 0 "$kgen" diff "$specs/scan/sum-f32.yaml" "$specs/rows/softmax.yaml"
sed '/^$/q' "$tmp/out" > "$tmp/fields"
for l in 'op: sum -> softmax' 'strategy: lookback -> auto'; do
	grep -qxF "$l" "$tmp/fields" || bad "kgen diff of a scan and a rows spec lacks '$l': $(cat "$tmp/fields")"
done
[ "$(grep -c '^op:' "$tmp/fields")" = 1 ] || bad "kgen diff of a scan and a rows spec lists op twice: $(cat "$tmp/fields")"
expect 0 "$kgen" diff "$mm/05-blocktiling-2d.yaml" "$mm/06-vectorized.yaml"
[ "$(sed '/^$/q' "$tmp/out")" = "a_smem: row -> transposed" ] ||
	bad "kgen diff of matmul steps 5 and 6: $(sed '/^$/q' "$tmp/out")"
# Every ladder: a key shown as (none) on one side is written by the spec on the other.
for dir in "$mm" "$specs/matmul/hopper" "$specs/reduce/parallel-post" "$specs/transpose/tma-post"; do
	prev=
	for f in "$dir"/*.yaml; do
		if [ -n "$prev" ]; then
			"$kgen" diff "$prev" "$f" 2>&1 | sed '/^$/q' | while IFS= read -r line; do
				k=${line%%:*}
				case $line in
				*": (none) -> "*) grep -q "^$k:" "$f" || echo "$prev -> $f: $line" ;;
				*" -> (none)") grep -q "^$k:" "$prev" || echo "$prev -> $f: $line" ;;
				esac
			done
		fi
		prev=$f
	done
done > "$tmp/noise"
[ -s "$tmp/noise" ] && bad "kgen diff lists keys neither spec writes, at their defaults: $(cat "$tmp/noise")"
# --set-a and --set-b change one side; --set both; in the order given.
expect 0 "$kgen" diff "$good" "$good" --set-b threads=256
[ "$(sed '/^$/q' "$tmp/out")" = "threads: 512 -> 256" ] || bad "kgen diff --set-b: $(sed '/^$/q' "$tmp/out")"
grep -q '^+constexpr int THREADS = 256;$' "$tmp/out" || bad "kgen diff --set-b: no change in the kernel"
expect 0 "$kgen" diff "$good" "$good" --set-a op=max --set threads=128
[ "$(sed '/^$/q' "$tmp/out")" = "$(printf 'name: reduce_max_f32 -> reduce_sum_f32\nop: max -> sum')" ] ||
	bad "kgen diff --set-a op=max --set threads=128: $(sed '/^$/q' "$tmp/out")"
expect 0 "$kgen" diff "$good" "$good" --set threads=128 --set-a threads=256
[ "$(sed -n 1p "$tmp/out")" = "threads: 256 -> 128" ] || bad "kgen diff --set, then --set-a: $(sed -n 1p "$tmp/out")"
expect 0 "$kgen" diff "$good" "$good" --set-b threads=256 --set threads=128
[ "$(sed -n 1p "$tmp/out")" = "(no field differs)" ] || bad "kgen diff --set-b, then --set: $(sed -n 1p "$tmp/out")"
expect 0 "$kgen" diff "$good" "$good" --set-b load_width=
[ "$(sed -n 1p "$tmp/out")" = "(no field differs)" ] || bad "kgen diff --set-b KEY= (unset): $(sed -n 1p "$tmp/out")"
expect 1 "$kgen" diff "$good" "$good" --set-b threads=7
grep -q 'threads' "$tmp/err" || bad "kgen diff --set-b threads=7: $(cat "$tmp/err")"
expect 2 "$kgen" check "$good" --set-a threads=256
grep -qF "kgen check: --set-a has no effect here: it is an option of kgen diff" "$tmp/err" ||
	bad "kgen check --set-a: $(cat "$tmp/err")"
expect 2 "$kgen" compile "$good" --set-a threads=256 -o "$tmp/never.cubin"
grep -qF "kgen compile: --set-a has no effect here: it is an option of kgen diff" "$tmp/err" ||
	bad "kgen compile --set-a: $(cat "$tmp/err")"
[ -e "$tmp/never.cubin" ] && bad "kgen compile --set-a wrote a file"
expect 2 "$kgen" "$good" --set-b threads=256
grep -qF "kgen: --set-b has no effect here: it is an option of kgen diff" "$tmp/err" || bad "kgen SPEC --set-b: $(cat "$tmp/err")"
# Standard input is read once: - - is a usage error, one - works.
expect 2 "$kgen" diff - - < "$good"
grep -qF "kgen diff: A and B are both - (standard input), which can be read once" "$tmp/err" ||
	bad "kgen diff - -: $(cat "$tmp/err")"
[ -s "$tmp/out" ] && bad "kgen diff - - printed on standard output"
expect 0 "$kgen" diff - "$good" --set-b op=min < "$good"
[ "$(sed -n 2p "$tmp/out")" = "op: sum -> min" ] || bad "kgen diff - SPEC: $(sed '/^$/q' "$tmp/out")"

# ---- transpose specs: kgen diff, kgen run --shape ----
tpost=$specs/transpose/tma-post
expect 0 "$kgen" diff "$tpost/01-naive.yaml" "$tpost/02-swizzle-128b.yaml"
[ "$(sed -n 1p "$tmp/out")" = "swizzle: none -> 128B" ] ||
	bad "kgen diff of the transposes' first line is '$(sed -n 1p "$tmp/out")', expected 'swizzle: none -> 128B'"
expect 0 "$kgen" check "$tpost/01-naive.yaml" "$tpost/02-swizzle-128b.yaml" "$tpost/03-batched.yaml" \
	"$specs/transpose/smem-padded.yaml"
# Specs of two families: fields by key, "(none)" where a key is not the family's.
expect 0 "$kgen" diff "$specs/reduce/best/sum-f32.yaml" "$specs/transpose/best.yaml"
grep -qx 'kernel: reduce -> transpose' "$tmp/out" && grep -qx 'op: sum -> (none)' "$tmp/out" &&
	grep -qx 'tile_rows: (none) -> 64' "$tmp/out" || bad "kgen diff of two families pairs fields by position"
# A bad --shape is a usage error, found before any GPU is touched.
for shape in abc 8192 x8192 8192x 1x2x3x4 2xx4; do
	expect 2 "$kgen" run "$tpost/01-naive.yaml" --shape "$shape"
	grep -qF "kgen run: bad --shape $shape (ROWSxCOLS or BATCHxROWSxCOLS, e.g. 8192x8192, 1x2^20, 64x1024x1024; MxNxK for a matmul)" \
		"$tmp/err" && grep -qx "Try 'kgen run --help' for more information." "$tmp/err" ||
		bad "kgen run --shape $shape does not explain the bad shape: $(cat "$tmp/err")"
done
# Up to 64 shapes (issue 50's grid of a matmul is 50): the 65th is refused, saying how many a run takes;
# 64 parse and go on to the GPU (where there is none, the driver's absence is the error).
shapes=
i=1
while [ $i -le 64 ]; do shapes="$shapes --shape ${i}x64x64"; i=$((i + 1)); done
# shellcheck disable=SC2086 # the shapes are words
"$kgen" run "$specs/matmul/best/mma_bf16.yaml" $shapes > "$tmp/out" 2> "$tmp/err"
grep -q "bad --shape" "$tmp/err" && bad "kgen run refuses 64 shapes: $(cat "$tmp/err")"
# shellcheck disable=SC2086
expect 2 "$kgen" run "$specs/matmul/best/mma_bf16.yaml" $shapes --shape 65x64x64
grep -qx "kgen run: more than 64 --shape" "$tmp/err" || bad "a 65th --shape: $(cat "$tmp/err")"
# A part 0 is refused in the words of the spec's family: MxNxK for a matmul.
for shape in 0x5 5x0 0x4x4 2x0x4; do
	expect 2 "$kgen" run "$tpost/01-naive.yaml" --shape "$shape"
	grep -qF "01-naive.yaml: error: --shape $shape: each number is at least 1; kernel: transpose is sized by rows and cols: --shape ROWSxCOLS or BATCHxROWSxCOLS, e.g. 8192x8192, 1x2^20, 64x1024x1024" \
		"$tmp/err" || bad "kgen run --shape $shape does not explain the bad shape: $(cat "$tmp/err")"
done
for shape in 100x200x0 0x200 100x0x5; do
	expect 2 "$kgen" run "$specs/matmul/best/mma_bf16.yaml" "$good" --shape "$shape"
	grep -qF "mma_bf16.yaml: error: --shape $shape: each number is at least 1; kernel: matmul is sized by m, n and k: --shape MxNxK (C is M x N, A M x K, B K x N), e.g. 4096x4096x4096" \
		"$tmp/err" || bad "kgen run of a matmul --shape $shape does not speak MxNxK: $(cat "$tmp/err")"
	grep 'mma_bf16' "$tmp/err" | grep -q ROWSxCOLS && bad "a matmul's --shape $shape in ROWSxCOLS terms"
	grep -q 'reduce_vec4.yaml: error: --shape' "$tmp/err" || bad "a --shape with a 0 is not refused for a spec sized by n"
	grep -q 'no CUDA driver' "$tmp/err" && bad "a --shape with a 0 reached the GPU"
done
# A batch is for transposes; its bytes (padded rows too) must not wrap.
expect 2 "$kgen" run "$specs/reduce_axis/best/rows.yaml" --shape 2x64x64
grep -qF 'error: --shape 2x64x64: a batch of matrices is for transposes; a matrix reduction takes ROWSxCOLS' \
	"$tmp/err" || bad "kgen run of a matrix reduction does not refuse a batch"
expect 2 "$kgen" run "$tpost/01-naive.yaml" --shape 2^40x2^20x2^10
grep -qF 'error: --shape 1099511627776x1048576x1024: the matrices of f32 do not fit in memory' "$tmp/err" ||
	bad "kgen run --shape BxRxC whose bytes wrap is not refused"
expect 2 "$kgen" run "$tpost/01-naive.yaml" --shape 2^31x2^31 --pad 4096
grep -q 'do not fit in memory' "$tmp/err" || bad "kgen run --shape with --pad whose bytes wrap is not refused"
# A --n that wraps is a usage error; sizes that cannot fit in memory, a missing
# or a bad spec are found before any GPU is touched too.
for n in 0-1 2^64 2^3-9 -1 ' 5' 18446744073709551615k 1+18446744073709551615; do
	expect 2 "$kgen" run "$good" --n "$n"
	grep -qF "kgen run: bad --n $n" "$tmp/err" || bad "kgen run --n '$n' does not explain the bad size"
done
ns=
i=1
while [ $i -le 65 ]; do ns="$ns --n $i"; i=$((i + 1)); done
# shellcheck disable=SC2086 # the sizes are words
expect 2 "$kgen" run "$good" $ns
grep -qx "kgen run: more than 64 --n" "$tmp/err" || bad "a 65th --n: $(cat "$tmp/err")"
expect 2 "$kgen" run "$good" --n '2^62'
grep -q 'reduce_vec4.yaml: error: --n 4611686018427387904: 4611686018427387904 elements of f32 do not fit in memory' \
	"$tmp/err" || bad "kgen run --n 2^62 (bytes wrap) is not refused before allocating"
expect 2 "$kgen" run "$tpost/01-naive.yaml" --shape 4294967296x4294967296
grep -q 'do not fit in memory' "$tmp/err" || bad "kgen run --shape whose bytes wrap is not refused"
expect 2 "$kgen" run "$specs/reduce_axis/best/rows.yaml" --shape 4294967296x4294967296
grep -q 'does not fit in memory' "$tmp/err" || bad "kgen run --shape (matrix reduction) whose bytes wrap is not refused"
expect 3 "$kgen" run "$tmp/no-such-file.yaml"
expect 1 "$kgen" run "$tmp/bad.yaml"
# A bad spec among good ones is reported and the others go on (here to the
# GPU, which a machine without one refuses: exit 5, the worst status).
"$kgen" info > /dev/null 2>&1
if [ $? -eq 5 ]; then
	expect 5 "$kgen" run "$tmp/bad.yaml" "$good" "$tmp/no-such-file.yaml"
	grep -q 'bad.yaml:' "$tmp/err" && grep -q 'no-such-file.yaml' "$tmp/err" && grep -q 'CUDA' "$tmp/err" ||
		bad "kgen run stops at the first bad spec instead of reporting it and going on"
	# A shipped plan needs the GPU's name, but the specs beside it are checked first.
	expect 5 "$kgen" run shipped:sum-f32 "$tmp/no-such-file.yaml" shipped:max-f32
	grep -q 'no-such-file.yaml' "$tmp/err" && [ "$(grep -c "a shipped plan is the GPU's" "$tmp/err")" -eq 1 ] ||
		bad "kgen run shipped:... without a GPU: the spec beside it unreported, or the GPU's absence said twice"
	expect 3 "$kgen" run "$tmp/no-such-file.yaml" shipped:sum
	grep -q 'no-such-file.yaml' "$tmp/err" && grep -q 'shipped:sum: expected shipped:OP-DTYPE' "$tmp/err" ||
		bad "kgen run shipped:sum: the missing spec or the malformed name unreported"
fi
# A shipped plan runs on one GPU: --devices refuses it before it asks for any.
expect 2 "$kgen" run --devices 0,1 shipped:sum-f32 --n 1000
grep -q 'shipped:sum-f32: --devices takes specs, not size plans' "$tmp/err" ||
	bad "kgen run --devices shipped:sum-f32 did not say why it refused it"
# Without a CUDA driver, a valid shape gets as far as opening the GPU: exit 5.
"$kgen" info > /dev/null 2> "$tmp/info"
if [ $? -eq 5 ]; then
	expect 5 "$kgen" run "$tpost/01-naive.yaml" --shape 8192x8192 --verify
	if grep -q 'no CUDA driver' "$tmp/info"; then
		grep -q '^kgen: error: no CUDA driver' "$tmp/err" || bad "kgen run without a driver does not say so"
	fi
	[ -s "$tmp/out" ] && bad "kgen run without a GPU printed something on stdout"
fi

# ---- kgen check ----
expect 0 "$kgen" check "$good" "$specs/reduce/parallel-post/04-sequential.yaml"
[ -s "$tmp/out" ] || [ -s "$tmp/err" ] && bad "kgen check of good specs printed something"
expect 1 "$kgen" check "$good" "$tmp/bad.yaml" "$specs/reduce/parallel-post/04-sequential.yaml"
grep -q 'bad.yaml:2:1: error:' "$tmp/err" || bad "kgen check does not report the bad spec"
[ "$(grep -c 'error:' "$tmp/err")" -eq 1 ] || bad "kgen check reports errors for good specs"
expect 3 "$kgen" check "$tmp/bad.yaml" "$tmp/no-such-file.yaml"

# ---- a spec file's name never reaches the generated source ----
# A newline in the name would end the header's comment and inject code.
evil="$tmp/x.yaml
#define atomicAdd(p, v) atomicExch(p, v)"
cp "$good" "$evil"
expect 0 "$kgen" "$evil"
grep -q 'atomicExch' "$tmp/out" && bad "a spec file's name injected code into the generated source"
head -1 "$tmp/out" | grep -q 'generated by kgen .* from a spec\.$' || bad "a strange file name is not replaced by 'a spec'"
expect 0 "$kgen" "$good"
head -1 "$tmp/out" | grep -q "from $(basename "$good")\.\$" || bad "a plain file name is not kept in the header"

# ---- -o: links, FIFOs and the input itself ----
w=$tmp/writes
mkdir "$w"
echo old >"$w/target.cu"
ln -s target.cu "$w/link.cu"
expect 0 "$kgen" "$good" -o "$w/link.cu"
[ -L "$w/link.cu" ] || bad "-o replaced a symbolic link instead of its target"
grep -q 'reduce_sum_f32' "$w/target.cu" || bad "-o through a symbolic link did not write its target"
ln -s nowhere.cu "$w/dangling.cu"
expect 3 "$kgen" "$good" -o "$w/dangling.cu"
[ -e "$w/nowhere.cu" ] && bad "-o through a dangling link created its target"
cp "$good" "$w/s.yaml"
expect 2 "$kgen" "$w/s.yaml" -o "$w/s.yaml"
grep -q 'is the spec itself' "$tmp/err" || bad "-o onto the input spec is not refused with a message"
cmp -s "$good" "$w/s.yaml" || bad "-o onto the input spec changed it"
expect 2 "$kgen" compile "$w/s.yaml" -o "$w/../writes/s.yaml"
if mkfifo "$w/fifo" 2>/dev/null; then
	timeout 20 cat "$w/fifo" >"$w/from-fifo" &
	reader=$!
	expect 0 "$kgen" "$good" -o "$w/fifo"
	wait $reader
	[ -p "$w/fifo" ] || bad "-o replaced a FIFO"
	grep -q 'reduce_sum_f32' "$w/from-fifo" || bad "-o did not write into a FIFO"
fi
ls -a "$w" | grep -q '^\.[a-z].*\.[A-Za-z0-9]\{6\}$' && bad "-o left a temporary file behind"

# ---- each command's --help, unknown commands, -o where it means nothing (issue 12, item 8) ----
for c in check compile diff; do
	expect 0 "$kgen" $c --help
	grep -q "^usage: kgen $c " "$tmp/out" || bad "kgen $c --help does not print its own usage"
done
for c in info cache run; do
	expect 0 "$kgen" $c --help
	grep -q "^usage: kgen $c" "$tmp/out" || bad "kgen $c --help does not print its own usage on stdout"
done
expect 2 "$kgen" info extra
expect 2 "$kgen" chek "$good"
grep -qF "kgen: unknown command 'chek' (did you mean 'check'?)" "$tmp/err" || bad "a mistyped command is not named"
expect 2 "$kgen" frobnicate
grep -qF "kgen: unknown command 'frobnicate', and no spec file of that name" "$tmp/err" ||
	bad "an unknown word is read as a spec file"
for c in check diff; do
	expect 2 "$kgen" $c -o "$tmp/never" "$good" "$good"
	grep -qF "kgen $c: -o has no effect: $c writes no file" "$tmp/err" || bad "kgen $c ignores -o silently"
	[ -e "$tmp/never" ] && bad "kgen $c -o wrote a file"
done
[ -e ./- ] && bad "a file named - is in the way of the -o - test"
expect 0 "$kgen" compile "$good" --ptx -o -
grep -q '^.target sm_90' "$tmp/out" || bad "kgen compile -o - does not write to standard output"
expect 0 "$kgen" "$good" -o -
grep -q 'extern "C"' "$tmp/out" || bad "kgen SPEC -o - does not write to standard output"
[ -e ./- ] && { bad "-o - wrote a file named -"; rm -f ./-; }

# ---- kgen compile --time: each phase, NVRTC's own split, the floor; beside -o - on standard error ----
expect 0 "$kgen" compile --time "$good" -o "$tmp/t.cubin"
[ -s "$tmp/t.cubin" ] || bad "kgen compile --time wrote no cubin"
for phase in "load and check" generate NVRTC write total floor; do
	grep -qE "^  $phase +[0-9]+\.[0-9]{2} ms" "$tmp/out" || bad "kgen compile --time has no '$phase' line: $(cat "$tmp/out")"
done
grep -qE "NVRTC +[0-9.]+ ms  \(front end [0-9]+, NVVM [0-9]+, ptxas [0-9]+: NVRTC's --time, whole ms\)" "$tmp/out" ||
	bad "kgen compile --time does not split NVRTC's time: $(cat "$tmp/out")"
grep -qE "floor +[0-9.]+ ms  \(an empty kernel, kgen's options: NVRTC took [0-9.]+x it\)" "$tmp/out" ||
	bad "kgen compile --time has no floor: $(cat "$tmp/out")"
expect 0 "$kgen" compile --time --ptx "$good" -o -
grep -q '^.target sm_90' "$tmp/out" && grep -q "ptxas -: NVRTC's --time" "$tmp/err" ||
	bad "kgen compile --time --ptx -o -: the PTX on standard output and the times (no ptxas) on standard error"
grep -q "kgen compile --time" "$tmp/out" && bad "kgen compile --time -o - mixed its table into the PTX"
expect 2 "$kgen" check --time "$good"
grep -qF "kgen check: --time has no effect here: it is an option of kgen compile" "$tmp/err" ||
	bad "kgen check --time: $(cat "$tmp/err")"

# ---- architectures a spec cannot run on: a located spec error, not ptxas's ----
expect 1 "$kgen" compile "$specs/transpose/best-tma.yaml" --arch sm_80 -o "$tmp/a.cubin"
grep -qF "best-tma.yaml:8:9: error: method: tma needs sm_90 or newer (the TMA unit and cluster barriers), not sm_80" \
	"$tmp/err" || bad "a TMA spec compiled for sm_80 is not a located spec error"
grep -q ptxas "$tmp/err" && bad "ptxas errors reach the user for a TMA spec on sm_80"
expect 1 "$kgen" compile "$specs/reduce/cuda-post/03-int4-reduce-sync.yaml" --arch sm_75 -o "$tmp/a.cubin"
grep -qF "error: warp_tail: reduce_sync needs sm_80 or newer" "$tmp/err" || bad "reduce_sync on sm_75 is not a spec error"
expect 2 "$kgen" compile "$good" --arch sm_60 -o "$tmp/a.cubin"
grep -q "kgen: error: NVRTC [0-9.]* does not compile for sm_60: it supports sm_" "$tmp/err" ||
	bad "an architecture NVRTC dropped is not named as such"
expect 2 "$kgen" compile "$good" --ptx --cubin -o "$tmp/both.cubin"
grep -qF "kgen compile: --cubin and --ptx: one image a compile" "$tmp/err" && [ ! -e "$tmp/both.cubin" ] ||
	bad "kgen compile --ptx --cubin: $(cat "$tmp/err")"
# kgen check --arch takes what compile takes: a malformed one is a usage error, not a pass
for a in sm_xx 90 sm_9 sm_90b compute_; do
	expect 2 "$kgen" check "$specs/transpose/best-tma.yaml" --arch "$a"
	grep -qF "kgen: error: unknown architecture '$a': expected sm_NN, sm_NNa or compute_NN" "$tmp/err" ||
		bad "kgen check --arch $a: $(cat "$tmp/err")"
done
expect 0 "$kgen" check "$specs/transpose/best-tma.yaml" --arch compute_90
expect 0 "$kgen" compile "$specs/transpose/best-tma.yaml" --arch sm_90 -o "$tmp/a.cubin"

# ---- KGEN_NVRTC_OPTIONS: the user's NVRTC options after kgen's ----
expect 0 "$kgen" compile "$specs/reduce/best/sum-f32.yaml" --arch sm_90 -o "$tmp/plain.cubin"
expect 0 env KGEN_NVRTC_OPTIONS=' --Ofast-compile=min ' "$kgen" compile "$specs/reduce/best/sum-f32.yaml" --arch sm_90 \
	-o "$tmp/fast.cubin"
[ -s "$tmp/fast.cubin" ] && ! cmp -s "$tmp/plain.cubin" "$tmp/fast.cubin" ||
	bad "KGEN_NVRTC_OPTIONS=--Ofast-compile=min did not reach NVRTC (the same cubin)"
expect 2 env KGEN_NVRTC_OPTIONS='--no-such-option' "$kgen" compile "$good" --arch sm_90 -o "$tmp/a.cubin"
grep -qF 'NVRTC_ERROR_INVALID_OPTION: see KGEN_NVRTC_OPTIONS (the options: ' "$tmp/err" &&
	grep -qF -- '--no-such-option)' "$tmp/err" || bad "an option NVRTC refuses does not name KGEN_NVRTC_OPTIONS"
expect 2 env KGEN_NVRTC_OPTIONS='--minimal -arch=sm_80' "$kgen" compile "$good" --arch sm_90 -o "$tmp/a.cubin"
grep -qF 'KGEN_NVRTC_OPTIONS: -arch=sm_80: kgen chooses the architecture' "$tmp/err" ||
	bad "an architecture in KGEN_NVRTC_OPTIONS is not refused"
expect 2 env KGEN_NVRTC_OPTIONS='-a -b -c -d -e -f -g -h -i' "$kgen" compile "$good" --arch sm_90 -o "$tmp/a.cubin"
grep -qF 'KGEN_NVRTC_OPTIONS has more than 8 options' "$tmp/err" || bad "nine options in KGEN_NVRTC_OPTIONS are not refused"

# ---- kgen.pc: kgen.h needs no CUDA header, so users' flags carry no CUDA path ----
pc=${top_builddir:-.}/kgen.pc
if [ -f "$pc" ]; then
	grep -qx 'Cflags: -I${includedir}' "$pc" && grep -qx 'Libs: -L${libdir} -lkgen' "$pc" &&
		grep -q '^cudadir=/' "$pc" || bad "kgen.pc hard-codes the CUDA paths into users' flags"
	# nothing a shared link must find besides kgen (libyaml is Libs.private's)
	grep -q '^Requires' "$pc" && bad "kgen.pc requires packages a shared link does not: $(grep '^Requires' "$pc")"
	# libkgen.so finds its NVRTC through its RUNPATH, whatever ld.so.conf names
	so=${top_builddir:-.}/.libs/libkgen.so
	cudadir=$(sed -n 's/^cudadir=//p' "$pc")
	if command -v readelf > /dev/null && [ -f "$so" ]; then
		readelf -d "$so" | grep -q "RUNPATH.*$cudadir/lib" || bad "libkgen.so has no RUNPATH to $cudadir: $(readelf -d "$so" | grep -i path)"
	fi
fi

# ---- kgen space: a spec space expanded, validated, emitted, compiled ----
cat > "$tmp/space.yaml" <<'EOS'
kernel: transpose
dtype: [f32, bf16]
tile_rows: [32, 64]
tile_cols: 32..128*2
batch:
  - 4
  - 8
order: [rows, cols]
EOS
expect 0 "$kgen" space "$tmp/space.yaml" --emit "$tmp/points" --compile -j 2
grep -qx "$tmp/space.yaml: 48 points, 34 accepted, 14 refused" "$tmp/out" ||
	bad "kgen space does not count the points: $(head -1 "$tmp/out")"
grep -q '^ *10 refused: batch 4 is not a multiple of the 8 elements of one 16-byte load$' "$tmp/out" &&
	grep -q '^ *4 refused: threads 2048 (tile 64x128 / batch 4) must be a multiple of 32' "$tmp/out" ||
	bad "kgen space does not group the refusals by reason"
grep -qx 'compiled 34 of 34 for sm_90 on 2 thread(s) in [0-9]* s' "$tmp/out" || bad "kgen space --compile did not compile every point"
[ "$(ls "$tmp/points" | wc -l)" -eq 34 ] || bad "kgen space --emit did not write one spec per accepted point"
expect 0 "$kgen" check "$tmp"/points/*.yaml
expect 0 "$kgen" space "$tmp/space.yaml" --list
[ "$(grep -c '^ *[0-9]*  dtype=' "$tmp/out")" -eq 34 ] || bad "kgen space --list does not list the accepted points"
printf 'kernel: reduce\nthreads: 64..1024*0\n' > "$tmp/badspace.yaml"
expect 1 "$kgen" space "$tmp/badspace.yaml"
grep -qF "threads: the range 64..1024*0 is empty or does not grow" "$tmp/err" || bad "kgen space takes a range that does not grow"
printf 'kernel: reduce\nthreads: {a: 1}\n' > "$tmp/badspace.yaml"
expect 1 "$kgen" space "$tmp/badspace.yaml"
grep -qF "a space's values are scalars or lists of scalars" "$tmp/err" || bad "kgen space takes a nested mapping"
printf 'kernel: reduce\nthreads: 32..1024+32\nitems_per_thread: 1..64\nunroll: 1..16\nload_width: [1, 2, 4, 8, 16]\nwarp_tail: [shuffle, reduce_sync]\n' > "$tmp/badspace.yaml"
expect 2 "$kgen" space "$tmp/badspace.yaml"
grep -qF "has more than 200000 points: narrow it" "$tmp/err" || bad "kgen space expands a space too large to go through"

# ---- the disk cache: a directory others may write to is not used ----
mkdir "$tmp/shared-cache" && chmod 0777 "$tmp/shared-cache"
for verb in list clear; do
	KGEN_CACHE_DIR=$tmp/shared-cache expect 3 "$kgen" cache $verb
	grep -qF "kgen: error: the cache directory $tmp/shared-cache is writable by others (mode 777): not used" \
		"$tmp/err" || bad "kgen cache $verb does not refuse a cache directory writable by others"
done
chmod 0700 "$tmp/shared-cache"
KGEN_CACHE_DIR=$tmp/shared-cache expect 0 "$kgen" cache list

# ---- what NVRTC would refuse in an expression of op: custom is the spec's ----
# `%` of floats and ambiguous overloads are refused by kgen check itself,
# at the operator or the function, with a rewrite that compiles; exit 1,
# no output (gen/expr_type.c; tests/expr_test.c places an NVRTC error too).
printf 'kernel: reduce\nop: custom\ndtype: f32\nmap: x * x\ncombine: a + a %% b\nidentity: 0\n' > "$tmp/expr.yaml"
expect 1 "$kgen" compile "$tmp/expr.yaml" --arch sm_90 -o "$tmp/expr.cubin"
grep -q "expr.yaml:5:16: error: combine: % takes integers, not float: use fmod(a, b)" "$tmp/err" ||
	bad "kgen compile did not refuse % of floats at the operator: $(cat "$tmp/err")"
no_output "$tmp" expr.cubin
expect 1 "$kgen" check "$tmp/expr.yaml"
# Quoted, the column is one further.
printf "kernel: reduce\nop: custom\ndtype: f32\nmap: x * x\ncombine: 'a + a %% b'\nidentity: 0\n" > "$tmp/expr.yaml"
expect 1 "$kgen" check "$tmp/expr.yaml"
grep -q "expr.yaml:5:17: error: combine: % takes integers, not float" "$tmp/err" || bad "quoted expression's error misplaced: $(cat "$tmp/err")"
printf 'kernel: reduce\nop: custom\ndtype: u32\nacc_dtype: f64\nmap: x * 2.0 + cbrt(x)\ncombine: a + b\nidentity: 0\n' > "$tmp/expr.yaml"
expect 1 "$kgen" check "$tmp/expr.yaml"
grep -q 'expr.yaml:5:16: error: map: cbrt(unsigned int) is ambiguous in CUDA: cast it, cbrt((float)x)' "$tmp/err" ||
	bad "ambiguous overload not refused: $(cat "$tmp/err")"
# The rewrites the messages give compile.
printf 'kernel: reduce\nop: custom\ndtype: u32\nacc_dtype: f64\nmap: x * 2.0 + cbrt((float)x)\ncombine: fmod(a, b)\nidentity: 0\n' > "$tmp/expr.yaml"
expect 0 "$kgen" compile "$tmp/expr.yaml" --arch sm_90 -o "$tmp/expr.cubin"

# ---- size plans: kgen check and kgen run take them, generate and compile one entry (--entry N) ----
cat > "$tmp/plan.yaml" <<'EOS'
plan:
  - upto: 2^14
    spec:
      kernel: reduce
      threads: 1024
      stages: last_block
  - spec:
      kernel: reduce
EOS
expect 0 "$kgen" check "$tmp/plan.yaml" "$top_srcdir/specs/reduce_vec4.yaml"
sed 's/threads: 1024/threads: 1000/' "$tmp/plan.yaml" > "$tmp/badplan.yaml"
expect 1 "$kgen" check "$tmp/badplan.yaml"
grep -q "badplan.yaml:5:16: error: threads 1000 is not a multiple of the warp size, 32" "$tmp/err" ||
	bad "kgen check does not place a plan's spec error in the plan: $(cat "$tmp/err")"
expect 2 "$kgen" check --set threads=256 "$tmp/plan.yaml"
grep -q "is a size plan: --set changes one spec, not a plan's" "$tmp/err" || bad "kgen check --set on a plan: $(cat "$tmp/err")"
expect 2 "$kgen" "$tmp/plan.yaml"
grep -q "is a size plan, several specs: generate or compile one of its entries" "$tmp/err" ||
	bad "kgen PLAN does not refuse the plan: $(cat "$tmp/err")"
expect 2 "$kgen" compile "$tmp/plan.yaml" -o "$tmp/plan.cubin"
no_output "$tmp" plan.cubin
expect 1 "$kgen" run --n 1000 "$tmp/badplan.yaml"
# --entry N: one entry's spec (from 1), with --set on it, generated and compiled as a spec of its own
expect 0 "$kgen" "$tmp/plan.yaml" --entry 1
grep -q "^constexpr int THREADS = 1024;$" "$tmp/out" || bad "kgen PLAN --entry 1 is not the first entry's kernel: $(grep "int THREADS" "$tmp/out")"
cp "$tmp/out" "$tmp/entry1.cu"
printf 'kernel: reduce\nthreads: 1024\nstages: last_block\n' > "$tmp/entry1.yaml"
expect 0 "$kgen" "$tmp/entry1.yaml"
sed 1d "$tmp/out" > "$tmp/spec1.cu"
sed 1d "$tmp/entry1.cu" | cmp -s - "$tmp/spec1.cu" || bad "kgen PLAN --entry 1 differs from the same spec in a file of its own"
expect 0 "$kgen" "$tmp/plan.yaml" --entry 2 --set threads=128
grep -q "^constexpr int THREADS = 128;$" "$tmp/out" || bad "kgen PLAN --entry 2 --set threads=128: $(grep "int THREADS" "$tmp/out")"
expect 0 "$kgen" compile "$tmp/plan.yaml" --entry 2 --ptx -o "$tmp/entry2.ptx"
grep -q '\.entry ' "$tmp/entry2.ptx" || bad "kgen compile PLAN --entry 2 wrote no kernel"
expect 2 "$kgen" "$tmp/plan.yaml" --entry 3
grep -qF "plan.yaml has 2 entries (1 to 2)" "$tmp/err" || bad "kgen PLAN --entry 3 of 2: $(cat "$tmp/err")"
expect 2 "$kgen" compile "$tmp/plan.yaml" --entry 0 -o "$tmp/entry0.cubin"
grep -qF -- "--entry 0: expected a plan's entry number, from 1" "$tmp/err" || bad "kgen compile --entry 0: $(cat "$tmp/err")"
no_output "$tmp" entry0.cubin
expect 2 "$kgen" "$top_srcdir/specs/reduce_vec4.yaml" --entry 1
grep -qF "reduce_vec4.yaml is one spec, not a size plan" "$tmp/err" || bad "kgen SPEC --entry 1: $(cat "$tmp/err")"
expect 3 "$kgen" "$tmp/no-such-plan.yaml" --entry 1
expect 2 "$kgen" check "$tmp/plan.yaml" --entry 1
grep -qF -- "--entry has no effect here" "$tmp/err" || bad "kgen check --entry: $(cat "$tmp/err")"
expect 1 "$kgen" "$tmp/badplan.yaml" --entry 2
grep -q "badplan.yaml:5:16: error: threads 1000" "$tmp/err" || bad "kgen BADPLAN --entry 2: $(cat "$tmp/err")"

# ---- the shipped plans (a folder a GPU model) and spaces (specs/plans) are valid ----
for f in "$top_srcdir"/specs/plans/*.yaml "$top_srcdir"/specs/plans/*/*.yaml; do
	case $f in
	*.space.yaml) expect 0 "$kgen" space --list "$f" ;;
	*) expect 0 "$kgen" check "$f" ;;
	esac
done

# ---- kgen tune: --list without a GPU; arguments ----
expect 0 "$kgen" tune "$top_srcdir/specs/plans/reduce.space.yaml" --list
grep -qx "$top_srcdir/specs/plans/reduce.space.yaml: 720 points, 640 accepted, 80 refused" "$tmp/out" ||
	bad "kgen tune --list does not count the points: $(head -1 "$tmp/out")"
grep -q "^   640  threads=1024 items_per_thread=64 load_width=16 grid=persistent stages=two_pass launch=chain$" "$tmp/out" ||
	bad "kgen tune --list does not list the points: $(tail -1 "$tmp/out")"
expect 0 "$kgen" tune "$top_srcdir/specs/plans/reduce.space.yaml" --list --set dtype=bf16 --set op=max
grep -q ": 720 points, 576 accepted, 144 refused" "$tmp/out" || bad "kgen tune --set: $(head -1 "$tmp/out")"
# --list validates as a tuning would: a family kgen tune does not take, a size of another kind
printf 'kernel: transpose\nmethod: [smem, tma]\n' > "$tmp/transpose.space.yaml"
expect 2 "$kgen" tune "$tmp/transpose.space.yaml" --list
grep -q "^     2  method=tma$" "$tmp/out" &&
	grep -qF "point 1 (method=smem): kgen tune takes kernel: reduce, reduce_axis, matmul, rows or scan specs, not kernel: transpose" "$tmp/err" ||
	bad "kgen tune --list of a transpose space: $(cat "$tmp/out" "$tmp/err")"
expect 2 "$kgen" tune "$top_srcdir/specs/plans/reduce.space.yaml" --list --shape 64x64
grep -qF "give --n N" "$tmp/err" || bad "kgen tune --list --shape of a reduce space: $(cat "$tmp/err")"
"$kgen" tune --help | grep -qx "kgen tune takes kernel: reduce, reduce_axis, matmul, rows or scan spaces." ||
	bad "kgen tune --help does not name the families it takes"
# A point refused for a key at its default that has no effect on it is that
# point without the key (atomics: block of two_pass), unless a derived
# default differs (op: mean makes stages default to last_block, not atomic).
printf 'kernel: reduce\nstages: [two_pass, atomic]\natomics: [block, thread]\n' > "$tmp/atomics.space.yaml"
expect 0 "$kgen" tune "$tmp/atomics.space.yaml" --list
grep -qx "$tmp/atomics.space.yaml: 4 points, 3 accepted, 1 refused" "$tmp/out" &&
	grep -q "^     1  stages=two_pass atomics=block$" "$tmp/out" && ! grep -q "stages=two_pass atomics=thread" "$tmp/out" ||
	bad "kgen tune --list of an atomics space: $(cat "$tmp/out")"
expect 0 "$kgen" space "$tmp/atomics.space.yaml" --emit "$tmp/atomics-points"
[ "$(cat "$tmp/atomics-points/00001.yaml")" = "$(printf 'kernel: reduce\nstages: two_pass')" ] ||
	bad "the two_pass point keeps atomics: $(cat "$tmp/atomics-points/00001.yaml")"
# launch applies to every stages but pdl to two kernels: last_block takes
# stream and chain, and refuses pdl.
printf 'kernel: reduce\nstages: [last_block, two_pass, atomic]\nlaunch: [stream, pdl, chain]\n' > "$tmp/launch.space.yaml"
expect 0 "$kgen" tune "$tmp/launch.space.yaml" --list
grep -qx "$tmp/launch.space.yaml: 9 points, 8 accepted, 1 refused" "$tmp/out" &&
	grep -q "stages=last_block launch=chain$" "$tmp/out" && ! grep -q "stages=last_block launch=pdl" "$tmp/out" ||
	bad "kgen tune --list of a launch space: $(cat "$tmp/out")"
printf 'kernel: reduce\nop: [sum, mean]\nstages: [atomic, last_block]\n' > "$tmp/mean.space.yaml"
expect 2 "$kgen" tune "$tmp/mean.space.yaml" --list  # listed, then refused as a tuning of it would be
grep -qx "$tmp/mean.space.yaml: 4 points, 3 accepted, 1 refused" "$tmp/out" || bad "op: mean, stages: atomic accepted: $(cat "$tmp/out")"
grep -qF "points 1 and 3 differ in op (sum, mean): every point of one tuning must compute the same" "$tmp/err" ||
	bad "kgen tune --list of points that compute other things: $(cat "$tmp/err")"
expect 2 "$kgen" tune "$top_srcdir/specs/plans/reduce.space.yaml" --method sometimes
grep -q "bad --method sometimes (events, graph or cold, or a list: events,graph)" "$tmp/err" ||
	bad "kgen tune --method: $(cat "$tmp/err")"
for m in events,sometimes events, ,graph per-call,events; do
	expect 2 "$kgen" tune "$top_srcdir/specs/plans/reduce.space.yaml" --method "$m"
	grep -q "bad --method $m (" "$tmp/err" || bad "kgen tune --method $m: $(cat "$tmp/err")"
done
expect 2 "$kgen" tune "$top_srcdir/specs/plans/reduce.space.yaml" --n lots
expect 2 "$kgen" run --method sometimes "$top_srcdir/specs/reduce_vec4.yaml"
grep -q "bad --method sometimes (per-call, events, graph or cold)" "$tmp/err" || bad "kgen run --method: $(cat "$tmp/err")"
printf 'kernel: reduce\nop: [sum, max]\n' > "$tmp/mixed.yaml"
expect 2 "$kgen" tune "$tmp/mixed.yaml" --n 1000
grep -q "points 1 and 2 differ in op (sum, max): every point of one tuning must compute the same" "$tmp/err" ||
	bad "kgen tune of a space of two ops: $(cat "$tmp/err")"

# ---- help, --unset, --arch, --json, closed outputs (the first hour) ----
expect 0 "$kgen" help
grep -q '^usage: kgen SPEC.yaml' "$tmp/out" || bad "kgen help does not print the help"
expect 0 "$kgen" help check
grep -q '^usage: kgen check' "$tmp/out" || bad "kgen help check: $(cat "$tmp/out")"
expect 0 "$kgen" help space
grep -q '^usage: kgen space' "$tmp/out" || bad "kgen help space: $(cat "$tmp/out")"
expect 2 "$kgen" help chek
grep -q "no command 'chek' (did you mean 'check'?)" "$tmp/err" || bad "kgen help chek: $(cat "$tmp/err")"
grep -q -- '--set KEY=VALUE' "$tmp/err" && bad "kgen help chek printed the whole usage"
for c in check compile diff; do
	"$kgen" --help | grep -q "^ *kgen $c .*--set KEY=VALUE" || bad "kgen --help omits --set for $c"
done
"$kgen" diff --help | grep -q 'Exit 0 whether or not they differ' || bad "kgen diff --help: wrong exit status"
expect 0 "$kgen" diff "$good" "$specs/reduce/best/sum-f32.yaml"
expect 0 "$kgen" diff "$good" "$good"
# a closed standard output: an error, not a silent 0 or 3
if [ -w /dev/full ]; then
	"$kgen" --help > /dev/full 2> "$tmp/err"
	rc=$?
	[ $rc -eq 3 ] && grep -q 'cannot write to standard output' "$tmp/err" || bad "kgen --help > /dev/full exited $rc"
	"$kgen" "$good" > /dev/full 2> "$tmp/err"
	[ $? -eq 3 ] || bad "kgen SPEC > /dev/full did not exit 3"
	[ "$(grep -c 'cannot write to standard output' "$tmp/err")" -eq 1 ] || bad "kgen SPEC > /dev/full: $(cat "$tmp/err")"
	# kgen check --json's diagnostics are its output: losing them is the error (3), not the specs' 1.
	printf 'kernel: reduce\nthreads: 7\n' > "$tmp/threads7.yaml"
	"$kgen" check --json "$tmp/threads7.yaml" > /dev/full 2> "$tmp/err"
	[ $? -eq 3 ] || bad "kgen check --json BAD > /dev/full did not exit 3"
fi
# kgen diff | head: ends by SIGPIPE like any filter, or says why
"$kgen" diff "$good" "$specs/reduce/best/sum-f32.yaml" 2> "$tmp/err" | head -1 > /dev/null
[ -s "$tmp/err" ] && bad "kgen diff | head -1 printed: $(cat "$tmp/err")"
# --unset and --set KEY=
expect 0 "$kgen" "$good" --unset items_per_thread
grep -q 'constexpr int ITEMS = 8;' "$tmp/out" || bad "--unset items_per_thread did not restore the default 8"
grep -q '^// items_per_thread: 16' "$tmp/out" && bad "--unset items_per_thread: the header still says 16"
expect 0 "$kgen" "$good" --set items_per_thread=
grep -q 'constexpr int ITEMS = 8;' "$tmp/out" || bad "--set items_per_thread= did not unset"
expect 0 "$kgen" check "$good" --unset load_width --unset items_per_thread
expect 1 "$kgen" check "$good" --unset kernel
grep -q 'cannot be unset' "$tmp/err" || bad "--unset kernel: $(cat "$tmp/err")"
expect 2 "$kgen" check "$good" --unset threads=1
# did you mean, also for --set and for another case
expect 1 "$kgen" "$good" --set op=summ
grep -q "(did you mean 'sum'?)" "$tmp/err" || bad "--set op=summ: $(cat "$tmp/err")"
printf 'kernel: reduce\ndtype: F32\n' > "$tmp/case.yaml"
expect 1 "$kgen" check "$tmp/case.yaml"
grep -q "(did you mean 'f32'?)" "$tmp/err" || bad "dtype: F32: $(cat "$tmp/err")"
# options of another command are refused, not ignored
expect 2 "$kgen" "$good" --ptx
grep -q -- '--ptx has no effect here' "$tmp/err" || bad "kgen SPEC --ptx: $(cat "$tmp/err")"
expect 2 "$kgen" diff "$good" "$good" --arch sm_80
expect 2 "$kgen" "$good" --json
# check --arch: the GPU a spec needs
tma=$specs/transpose/tma-post/02-swizzle-128b.yaml
expect 0 "$kgen" check "$tma" --arch sm_90
expect 1 "$kgen" check "$tma" --arch sm_80
grep -q "method: tma needs sm_90 or newer (the TMA unit and cluster barriers), not sm_80: use method: smem" "$tmp/err" ||
	bad "kgen check --arch sm_80 of a TMA spec: $(cat "$tmp/err")"
expect 0 "$kgen" check "$good" --arch sm_75
expect 0 "$kgen" "$tma"
grep -qx '// Needs: sm_90 or newer (method: tma).' "$tmp/out" || bad "a TMA spec's header does not say it needs sm_90"
expect 0 "$kgen" "$good"
grep -q '^// Needs:' "$tmp/out" && bad "reduce_vec4's header says it needs a newer GPU"
expect 0 "$kgen" "$specs/reduce/launch/atomic-pdl.yaml"
grep -qx '// Needs: sm_90 or newer (launch: pdl).' "$tmp/out" || bad "a pdl spec's header does not say it needs sm_90"
expect 0 "$kgen" "$specs/reduce/launch/last-block-chain.yaml"
grep -qx '// Needs: sm_90 or newer (launch: chain).' "$tmp/out" || bad "a chain spec's header does not say it needs sm_90"
# a plan checked against an architecture: each entry
expect 1 "$kgen" check "$specs/plans/nvidia-h100/sum-f32.yaml" --arch sm_80
grep -q 'launch: pdl needs sm_90' "$tmp/err" || bad "kgen check --arch sm_80 of a pdl plan: $(cat "$tmp/err")"
expect 1 "$kgen" check "$specs/plans/nvidia-h200/sum-f32.yaml" --arch sm_80
grep -q 'launch: chain needs sm_90' "$tmp/err" || bad "kgen check --arch sm_80 of a chained plan: $(cat "$tmp/err")"
# --json: one object per diagnostic on stdout
expect 1 "$kgen" check --json "$good" "$tmp/bad.yaml" "$tmp/case.yaml"
[ "$(wc -l < "$tmp/out")" -eq 2 ] || bad "kgen check --json: $(cat "$tmp/out")"
[ -s "$tmp/err" ] && bad "kgen check --json wrote to stderr: $(cat "$tmp/err")"
grep -q '^{"file": ".*bad.yaml", "line": 2, "column": 1, "severity": "error", "status": "KGEN_ESPEC", "exit": 1, "message": "unknown key '"'"'thread'"'"' (did you mean '"'"'threads'"'"'?)", "source_line": "thread: 256"}$' "$tmp/out" ||
	bad "kgen check --json: $(cat "$tmp/out")"
if command -v python3 > /dev/null; then
	python3 -c 'import json, sys; [json.loads(l) for l in sys.stdin]' < "$tmp/out" || bad "kgen check --json is not JSON lines"
fi
expect 0 "$kgen" check --json "$good"
[ -s "$tmp/out" ] && bad "kgen check --json of a good spec printed: $(cat "$tmp/out")"
# An override's error: the file stays a path, the overrides a member of their own
expect 1 "$kgen" check --json "$good" --set threadz=3 --unset op
grep -q '^{"file": "[^"]*reduce_vec4.yaml", "overrides": "--set threadz=3 --unset op", "line": 0,' "$tmp/out" ||
	bad "kgen check --json of a bad override: $(cat "$tmp/out")"
expect 1 "$kgen" check "$good" --unset bogus
grep -qF "reduce_vec4.yaml (--unset bogus): error: unknown key 'bogus'" "$tmp/err" ||
	bad "an --unset's error names it as a --set: $(cat "$tmp/err")"
# kgen cache with a wrong action names it
expect 2 "$kgen" cache foo
grep -q "unknown action 'foo': expected list or clear" "$tmp/err" || bad "kgen cache foo: $(cat "$tmp/err")"
# plural: 1 element
printf 'kernel: reduce\nitems_per_thread: 1\nload_width: 4\n' > "$tmp/one.yaml"
expect 0 "$kgen" "$tmp/one.yaml"
grep -q 'each reads 1 element per tile' "$tmp/out" || bad "items_per_thread: 1 is not singular in the header"
# kgen space: --set, --unset, exit 1 when no point is a spec, errors placed
printf 'kernel: reduce\nthreads: [128, 256]\nitems_per_thread: 4..16*2\n' > "$tmp/s.space.yaml"
expect 0 "$kgen" space "$tmp/s.space.yaml" --set threads=512
grep -q ": 3 points, 3 accepted" "$tmp/out" || bad "kgen space --set threads=512: $(cat "$tmp/out")"
expect 0 "$kgen" space "$tmp/s.space.yaml" --unset items_per_thread
grep -q ": 2 points, 2 accepted" "$tmp/out" || bad "kgen space --unset: $(cat "$tmp/out")"
expect 0 "$kgen" space "$tmp/s.space.yaml" --unset items_per_thread --set threads=256
grep -qx "$tmp/s.space.yaml: 1 point, 1 accepted, 0 refused" "$tmp/out" || bad "kgen space of one point: $(cat "$tmp/out")"
printf 'kernel: reduce\nthread: [128, 256]\n' > "$tmp/typo.space.yaml"
expect 1 "$kgen" space "$tmp/typo.space.yaml"
grep -qF "typo.space.yaml:2:1: error: unknown key 'thread' (did you mean 'threads'?)" "$tmp/err" ||
	bad "kgen space of a typo: $(cat "$tmp/err")"
printf 'kernel: reduce\nthreads: 4..6+8888888888888888888\n' > "$tmp/huge.space.yaml"
expect 1 "$kgen" space "$tmp/huge.space.yaml"
grep -q "huge.space.yaml:2:10: error: threads: 4..6+8888888888888888888 is not a range (A..B, A..B\*K or A..B+K, each at most 2^40)" "$tmp/err" ||
	bad "a range past 2^40: $(cat "$tmp/err")"
printf 'kernel: reduce\nthreads: 512..256\n' > "$tmp/range.space.yaml"
expect 1 "$kgen" space "$tmp/range.space.yaml"
grep -q "range.space.yaml:2:10: error: threads: the range 512..256 is empty or does not grow" "$tmp/err" ||
	bad "a space's range error has no line:column: $(cat "$tmp/err")"
# no driver: say what works without one
if ! LD_LIBRARY_PATH=/nonexistent "$kgen" info > /dev/null 2>&1; then
	LD_LIBRARY_PATH=/nonexistent "$kgen" run "$good" > /dev/null 2> "$tmp/err"
	if grep -q 'no CUDA driver' "$tmp/err"; then
		grep -q 'check, compile, diff, space and keys work without one' "$tmp/err" ||
			bad "the no-driver message does not say what works without a GPU: $(cat "$tmp/err")"
	fi
fi

# ---- bounded inputs (hardening round 3) ----
# Spaces: a value is only its key's value (no key injected by a newline,
# nothing cut by '#'); one document; no tags.
printf 'kernel: reduce\nthreads: [256, "512\\nop: max"]\nop: sum\n' > "$tmp/inj.space.yaml"
expect 0 "$kgen" space "$tmp/inj.space.yaml" --list
grep -q ": 2 points, 1 accepted, 1 refused" "$tmp/out" && grep -q "is not a decimal integer" "$tmp/out" ||
	bad "a newline in a space's value added a key: $(cat "$tmp/out")"
grep -q 'threads=512?op: max' "$tmp/out" && bad "the label shows a raw newline"
printf 'kernel: reduce\nop: custom\nmap: ["x # square", "x * x"]\ncombine: a + b\nidentity: "0"\n' > "$tmp/hash.space.yaml"
expect 0 "$kgen" space "$tmp/hash.space.yaml" --emit "$tmp/hash-points"
grep -q ": 2 points, 1 accepted, 1 refused" "$tmp/out" && grep -q "refused: map: '#' would start a preprocessor line" "$tmp/out" ||
	bad "a '#' in a space's value was cut, not refused by the expression checker: $(cat "$tmp/out")"
grep -qx 'map: "x \* x"' "$tmp/hash-points/00001.yaml" || bad "the accepted point: $(cat "$tmp/hash-points/00001.yaml")"
printf 'kernel: reduce\nthreads: [256]\n---\nop: max\n' > "$tmp/two.space.yaml"
expect 1 "$kgen" space "$tmp/two.space.yaml"
grep -q "two.space.yaml:3:1: error: a second YAML document: a space is one document" "$tmp/err" ||
	bad "a space's second document: $(cat "$tmp/err")"
printf 'kernel: reduce\nthreads: !!seq [256]\n' > "$tmp/tag.space.yaml"
expect 1 "$kgen" space "$tmp/tag.space.yaml"
grep -q "YAML tags (tag:yaml.org,2002:seq) are not used in a space" "$tmp/err" || bad "a space's tag: $(cat "$tmp/err")"
# Plans: a second document, even one that is not YAML, is refused.
printf 'plan:\n  - spec: {kernel: reduce}\n---\n@@ not YAML\n' > "$tmp/two.plan.yaml"
expect 1 "$kgen" check "$tmp/two.plan.yaml"
grep -q "a second YAML document: a plan is one document" "$tmp/err" || bad "a plan's second document: $(cat "$tmp/err")"
# Every command bounds its input: deep nesting answers at once, /dev/zero ends.
# Each within 2 s of CPU time (ulimit -t: a wall-clock bound fails on a
# busy machine, not on a slow loader; libyaml alone took 11 s here): one
# over it is killed by SIGXCPU, an exit status other than 1.
head -c 80000 /dev/zero | tr '\0' '[' > "$tmp/deep.yaml"
cpu_bound() { sh -c 'ulimit -t 2 && exec "$@"' sh "$@"; }
expect 1 cpu_bound "$kgen" check "$tmp/deep.yaml"
expect 1 cpu_bound "$kgen" "$tmp/deep.yaml"
expect 1 cpu_bound "$kgen" space "$tmp/deep.yaml"
grep -q "YAML nested more than 2 levels deep" "$tmp/err" || bad "kgen space of deep nesting: $(cat "$tmp/err")"
# An error far along a line prints no caret line as long as the line.
{ printf 'kernel: reduce\nname: '; head -c 300000 /dev/zero | tr '\0' a; printf ' x\n'; } > "$tmp/wide.yaml"
expect 1 "$kgen" check "$tmp/wide.yaml"
[ "$(wc -c < "$tmp/err")" -lt 2000 ] || bad "an error on a wide line printed $(wc -c < "$tmp/err") bytes"
# Over `ulimit -f` a write fails like any other: exit 3, no temporary left.
(ulimit -f 1 && "$kgen" "$good" -o "$tmp/xfsz.cu") > /dev/null 2> "$tmp/err"
rc=$?
[ $rc -eq 3 ] && grep -q "cannot write .*xfsz.cu: File too large" "$tmp/err" || bad "kgen -o over ulimit -f exited $rc: $(cat "$tmp/err")"
no_output "$tmp" xfsz.cu
if [ -r /dev/zero ]; then
	expect 1 "$kgen" check /dev/zero
	grep -q "/dev/zero is larger than 16 MiB" "$tmp/err" || bad "kgen check /dev/zero: $(cat "$tmp/err")"
fi

[ $fail -eq 0 ] && echo "ok: all CLI checks passed"
# ---- tests/gpu_verify.sh refuses an unknown part before it looks for a GPU ----
KGEN_GPU_VERIFY="matmul nonsense" expect 1 sh "$top_srcdir/tests/gpu_verify.sh"
grep -q "unknown part 'nonsense'" "$tmp/out" || bad "gpu_verify.sh did not name the unknown part"

exit $fail
