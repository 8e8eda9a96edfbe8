#!/bin/sh
# bench_test.sh: bench/ holds code, bench/results/ holds data.
#
# 1. No .c, .cu, .py or .sh file under bench/results/: a run's scripts and
#    sources live in bench/<topic>/, and a results folder's README names them
#    there (bench/README.md, "Results").
# 2. Every results folder, bench/results/<gpu>/<folder>/, has a README.md
#    (the GPU, the date, the commands, what the files show).
# 3. Every script under bench/ parses: `sh -n` (`bash -n` where its first line
#    names bash) of each .sh, Python's compile() of each .py (nothing is
#    written), and a compile-only pass (cc -fsyntax-only) of the C sources
#    that no make target builds (bench/jit/nvrtc_time.c), where NVRTC's
#    header is found.
# 4. With KGEN_BENCH_BUILD=1 and nvcc on PATH (or in CUDA_HOME, default
#    /usr/local/cuda), `nvcc -c` of each bench/**/*.cu for sm_90; skipped
#    otherwise, saying so, since it costs about 110 s of CPU for the seven
#    files (2026-12-02, with cub_reduce.cu's DeviceScan; the CUB ones most).
#    None of it needs a GPU.
# 5. Every source under bench/ but bench/results/ (.sh, .py, .c, .cu, .md,
#    .yaml) is named in Makefile.am, so that `make dist` (the tarball the
#    GPU machine builds from) carries it: seven bench/rows files and five
#    bench/matmul files were left out until 2026-12-07.
#
# 6. bench/scan/ring_timeline.py finds each of its anchors once in the
#    staging: ring kernel this kgen generates (a template edit that moves
#    one fails here, not on the GPU machine).
#
# 1 and 2 read the source tree; a `make dist` tarball has no bench/results/,
# and they say so and pass there.
set -u
: "${top_srcdir:=.}"
say() { printf '%s\n' "$*"; }

src=$(cd "$top_srcdir" && pwd) || exit 99
if [ ! -d "$src/bench" ]; then
	say "ERROR: no $src/bench" >&2
	exit 99
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kgen-bench.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
trap 'exit 99' HUP INT TERM
fail=0

# ---- 1, 2: the results folders ----
if [ -d "$src/bench/results" ]; then
	(cd "$src" && find bench/results -type f \( -name '*.c' -o -name '*.cu' -o -name '*.py' -o -name '*.sh' \) |
		LC_ALL=C sort) > "$tmp/code" || exit 99
	if [ -s "$tmp/code" ]; then
		say "FAIL: code under bench/results/ (its place is bench/<topic>/):"
		sed 's/^/  /' "$tmp/code"
		fail=1
	else
		say "ok: no .c, .cu, .py or .sh under bench/results/"
	fi
	folders=0
	for d in "$src"/bench/results/*/*/; do
		[ -d "$d" ] || continue
		folders=$((folders + 1))
		rel=bench/results/${d#"$src"/bench/results/}
		if [ ! -f "$d/README.md" ]; then
			say "FAIL: $rel has no README.md"
			fail=1
		fi
	done
	if [ "$folders" -eq 0 ]; then
		say "ERROR: no folder in bench/results/*/: has the layout changed?" >&2
		exit 99
	fi
	[ "$fail" -eq 0 ] && say "ok: each of the $folders results folders has a README.md"
else
	say "skip: no bench/results/ here (a dist tarball): the results folders are not checked"
fi

# ---- 3: the scripts parse ----
(cd "$src" && find bench -path bench/results -prune -o -type f -name '*.sh' -print | LC_ALL=C sort) > "$tmp/sh" || exit 99
(cd "$src" && find bench -path bench/results -prune -o -type f -name '*.py' -print | LC_ALL=C sort) > "$tmp/py" || exit 99
if [ ! -s "$tmp/sh" ]; then
	say "ERROR: no .sh under bench/: has the layout changed?" >&2
	exit 99
fi
n=0 bad=0
while read -r f; do
	n=$((n + 1))
	shell=sh
	head -1 "$src/$f" | grep -q bash && shell=bash
	if ! command -v $shell > /dev/null 2>&1; then
		say "skip: $f: needs $shell"
		continue
	fi
	if ! $shell -n "$src/$f" 2> "$tmp/err"; then
		say "FAIL: $shell -n $f:"
		sed 's/^/  /' "$tmp/err"
		bad=$((bad + 1))
	fi
done < "$tmp/sh"
if [ "$bad" -eq 0 ]; then
	say "ok: the $n .sh under bench/ parse (sh -n, or bash -n where they name bash)"
else
	fail=1
fi

if command -v python3 > /dev/null 2>&1; then
	n=$(wc -l < "$tmp/py")
	if (cd "$src" && xargs python3 -c '
import sys
bad = 0
for f in sys.argv[1:]:
    try:
        compile(open(f, "rb").read(), f, "exec")
    except SyntaxError as e:
        print("FAIL: %s: %s" % (f, e))
        bad = 1
sys.exit(bad)' < "$tmp/py"); then
		say "ok: $n .py under bench/ compile"
	else
		fail=1
	fi
else
	say "skip: no python3: the .py under bench/ are not compiled"
fi

cuda=${CUDA_HOME:-/usr/local/cuda}
cc=$(command -v cc || command -v gcc || command -v clang) || cc=
if [ -z "$cc" ]; then
	say "skip: no C compiler: bench/jit/nvrtc_time.c is not compiled"
elif [ ! -f "$cuda/include/nvrtc.h" ]; then
	say "skip: no $cuda/include/nvrtc.h (CUDA_HOME): bench/jit/nvrtc_time.c is not compiled"
elif "$cc" -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -fsyntax-only -I"$cuda/include" \
	"$src/bench/jit/nvrtc_time.c" > "$tmp/err" 2>&1; then
	say "ok: bench/jit/nvrtc_time.c compiles (cc -fsyntax-only)"
else
	say "FAIL: bench/jit/nvrtc_time.c does not compile:"
	sed 's/^/  /' "$tmp/err"
	fail=1
fi

# ---- 4: the CUDA sources, on request ----
(cd "$src" && find bench -path bench/results -prune -o -type f -name '*.cu' -print | LC_ALL=C sort) > "$tmp/cu" || exit 99
ncu=$(wc -l < "$tmp/cu")
nvcc=$(command -v nvcc || { [ -x "$cuda/bin/nvcc" ] && echo "$cuda/bin/nvcc"; }) || nvcc=
if [ "${KGEN_BENCH_BUILD:-0}" != 1 ]; then
	say "skip: nvcc -c of the $ncu .cu under bench/ (slow: make check KGEN_BENCH_BUILD=1 runs it)"
elif [ -z "$nvcc" ]; then
	say "skip: KGEN_BENCH_BUILD=1 but no nvcc on PATH or in $cuda/bin: the $ncu .cu are not compiled"
else
	while read -r f; do
		if "$nvcc" -c -O1 -std=c++17 -arch=sm_90 -I"$src/include" -o "$tmp/x.o" "$src/$f" > "$tmp/err" 2>&1; then
			say "ok: nvcc -c $f"
		else
			say "FAIL: nvcc -c $f:"
			sed 's/^/  /' "$tmp/err"
			fail=1
		fi
	done < "$tmp/cu"
fi

# ---- 5: every bench source in the dist ----
if [ -f "$src/Makefile.am" ]; then
	(cd "$src" && find bench -path bench/results -prune -o -type f \( -name '*.sh' -o -name '*.py' -o -name '*.c' \
		-o -name '*.cu' -o -name '*.md' -o -name '*.yaml' \) -print | LC_ALL=C sort) > "$tmp/all" || exit 99
	# Makefile.am's words, a line each: a path counts where it stands whole
	tr -s ' \t\\=' '\n\n\n\n' < "$src/Makefile.am" | LC_ALL=C sort -u > "$tmp/words" || exit 99
	LC_ALL=C comm -23 "$tmp/all" "$tmp/words" > "$tmp/left" || exit 99
	if [ -s "$tmp/left" ]; then
		say "FAIL: sources under bench/ that Makefile.am does not name (make dist leaves them out):"
		sed 's/^/  /' "$tmp/left"
		fail=1
	else
		say "ok: the $(wc -l < "$tmp/all") sources under bench/ are named in Makefile.am"
	fi
else
	say "skip: no Makefile.am here: the dist's list of bench sources is not checked"
fi

# ---- 6: the ring's timeline probe against the kernel generated now ----
if [ -x ./kgen ] && command -v python3 > /dev/null 2>&1; then
	if ./kgen "$src/specs/scan/cols-sum-f32-ring.yaml" -o "$tmp/ring.cu" &&
	   python3 "$src/bench/scan/ring_timeline.py" "$tmp/ring.cu" "$tmp/ring_tl.cu" &&
	   [ "$(grep -c 'clock64()' "$tmp/ring_tl.cu")" -eq 4 ]; then
		say "ok: bench/scan/ring_timeline.py stamps the ring kernel at its four points"
	else
		say "FAIL: bench/scan/ring_timeline.py no longer fits the generated ring kernel"
		fail=1
	fi
else
	say "skip: no ./kgen or no python3: ring_timeline.py's anchors are not checked"
fi

exit $fail
