#!/bin/sh
# tile_order_test.sh: each matmul tile order's generated tile_origin(),
# compiled for the host with a C++ compiler and run over every grid of
# 1..40 x 1..40 tiles, takes each tile exactly once (a persistent block
# walking tiles 0, 1, ... would otherwise skip or repeat some), for the
# indexed kernels (math: wgmma, tile_origin(tile, ...)) and the others
# (tile_origin(...) of blockIdx.x); order: hilbert also steps to a
# neighbouring tile at every step inside a whole strip of squares, and its
# group must be a power of two.  With group 256, a grid of one tile row and
# 2^32 / 256 + 1 tile columns, where GROUP * tiles_n would pass INT_MAX,
# takes each tile once too.  Skips (77) without a C++ compiler.
b=${top_builddir:-.}
cxx=
for c in ${CXX:-} c++ g++ clang++; do
	if command -v "$c" > /dev/null 2>&1; then cxx=$c; break; fi
done
if [ -z "$cxx" ]; then
	echo "SKIP: no C++ compiler (CXX, c++, g++ or clang++) to run tile_origin() on the host"
	exit 77
fi
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*" >&2; fail=1; }

cat > "$tmp/walk.cc" <<'CC'
#include <cstdio>
#include <cstdlib>
#include <vector>
#define __device__
#define __forceinline__ inline
struct { int x; } blockIdx;  // the non-indexed tile_origin() reads blockIdx.x
constexpr int TILE_M = 3, TILE_N = 5;  // not 1, so that a mix-up of the two shows
#ifdef GROUP_VALUE
constexpr int GROUP = GROUP_VALUE;
#endif
#include "origin.inc"
int main(int argc, char **argv)
{
    const int adjacent = argc > 1 && argv[1][0] == 'a';  // every step inside a whole strip to a neighbour
    int bad = 0;
#ifdef GROUP_VALUE
    if (argc > 1 && argv[1][0] == 'w') {  // wide: one tile row, GROUP * tiles_n past INT_MAX
        const int tn = (int)(4294967296ull / GROUP + 1);  // GROUP * tn wraps to GROUP in 32 bits
        std::vector<bool> seen((size_t)tn);
        for (int t = 0; t < tn; t++) {
            int row0, col0;
#ifdef INDEXED
            tile_origin(t, TILE_M - 1, tn * TILE_N - 2, row0, col0);
#else
            blockIdx.x = t;
            tile_origin(TILE_M - 1, tn * TILE_N - 2, row0, col0);
#endif
            if (row0 != 0 || col0 % TILE_N || col0 < 0 || col0 / TILE_N >= tn || seen[col0 / TILE_N]) {
                printf("1 x %d tiles: tile %d at row0 %d, col0 %d\n", tn, t, row0, col0);
                return 1;
            }
            seen[col0 / TILE_N] = true;
        }
        return 0;
    }
#endif
    for (int tm = 1; tm <= 40; tm++)
        for (int tn = 1; tn <= 40; tn++) {
            const int m = tm * TILE_M - 1, n = tn * TILE_N - 2;  // partial edge tiles
            std::vector<int> seen(tm * tn, 0);
            int pr = 0, pc = 0;
            for (int t = 0; t < tm * tn; t++) {
                int row0, col0;
#ifdef INDEXED
                tile_origin(t, m, n, row0, col0);
#else
                blockIdx.x = t;
                tile_origin(m, n, row0, col0);
#endif
                const int r = row0 / TILE_M, c = col0 / TILE_N;
                if (row0 % TILE_M || col0 % TILE_N || r < 0 || r >= tm || c < 0 || c >= tn || seen[r * tn + c]++) {
                    printf("%d x %d tiles: tile %d at row0 %d, col0 %d\n", tm, tn, t, row0, col0);
                    bad = 1;
                    break;
                }
#ifdef GROUP_VALUE
                if (adjacent && tm % GROUP == 0 && tn % GROUP == 0 && t % (GROUP * tn) &&
                    abs(r - pr) + abs(c - pc) != 1 && !bad) {
                    printf("%d x %d tiles: tile %d at (%d, %d) after (%d, %d)\n", tm, tn, t, r, c, pr, pc);
                    bad = 1;
                }
#endif
                pr = r;
                pc = c;
            }
        }
    return bad;
}
CC

# walk SPEC_LINES INDEXED [adjacent]: generate, cut out tile_origin() and run it.
walk() {
	printf '%b' "$1" > "$tmp/spec.yaml"
	if ! "$b/kgen" "$tmp/spec.yaml" -o "$tmp/k.cu" 2> "$tmp/err"; then
		bad "kgen refused $1: $(cat "$tmp/err")"
		return
	fi
	awk '/^static __device__ __forceinline__ void tile_origin\(/,/^}/' "$tmp/k.cu" > "$tmp/origin.inc"
	[ -s "$tmp/origin.inc" ] || { bad "no tile_origin() in the kernel of $1"; return; }
	group=$(sed -n 's/^constexpr int GROUP = \([0-9]*\);.*/-DGROUP_VALUE=\1/p' "$tmp/k.cu")
	def=
	[ "$2" = 1 ] && def=-DINDEXED
	if ! $cxx -std=c++11 -O1 $def $group -I"$tmp" -o "$tmp/walk" "$tmp/walk.cc" 2> "$tmp/cc.err"; then
		bad "$cxx could not compile tile_origin() of $1: $(head -5 "$tmp/cc.err")"
		return
	fi
	"$tmp/walk" $3 > "$tmp/out" || bad "$(echo "$1" | tr '\n' ' '): $(cat "$tmp/out")"
}

for math in "math: wgmma\nproducer: warpgroup" "math: mma"; do
	indexed=0
	case $math in *wgmma*) indexed=1 ;; esac
	walk "kernel: matmul\ndtype: bf16\n$math\norder: rows\n" $indexed
	walk "kernel: matmul\ndtype: bf16\n$math\norder: cols\n" $indexed
	for g in 1 3 8; do
		walk "kernel: matmul\ndtype: bf16\n$math\norder: grouped\ngroup: $g\n" $indexed
	done
	for g in 1 2 4 8 16; do
		walk "kernel: matmul\ndtype: bf16\n$math\norder: hilbert\ngroup: $g\n" $indexed adjacent
	done
done
for order in grouped hilbert; do
	walk "kernel: matmul\ndtype: bf16\nmath: wgmma\nproducer: warpgroup\norder: $order\ngroup: 256\n" 1 wide
	walk "kernel: matmul\ndtype: bf16\nmath: mma\norder: $order\ngroup: 256\n" 0 wide
done
# The stream-K kernels walk tiles by index too.
walk "kernel: matmul\ndtype: f32\nschedule: stream_k\norder: hilbert\ngroup: 4\n" 1 adjacent

printf 'kernel: matmul\ndtype: bf16\norder: hilbert\ngroup: 6\n' > "$tmp/six.yaml"
if "$b/kgen" check "$tmp/six.yaml" > /dev/null 2> "$tmp/err"; then
	bad "order: hilbert with group 6 was accepted"
else
	grep -q "six.yaml:4:8: error: group 6: order: hilbert walks squares of group x group tiles along a Hilbert curve, whose side is a power of two: 4 or 8" "$tmp/err" ||
		bad "group 6's message: $(cat "$tmp/err")"
fi
printf 'kernel: transpose\norder: hilbert\n' > "$tmp/tr.yaml"
if "$b/kgen" check "$tmp/tr.yaml" > /dev/null 2> "$tmp/err"; then
	bad "a transpose took order: hilbert"
else
	grep -q "tr.yaml:2:8: error: order: hilbert is matmul's; a transpose takes rows, cols or grouped" "$tmp/err" ||
		bad "the transpose's message: $(cat "$tmp/err")"
fi
exit $fail
