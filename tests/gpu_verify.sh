#!/bin/sh
# Verify every spec in specs/ on the GPU: random inputs, the result poisoned
# first and checked against the CPU reference.  Reductions at N = 0, 1, 31,
# 1000003, 2^24+7 and 2^30, then from an input offset by one element (specs
# whose load width needs alignment must refuse it with a clear error), then
# at falling sizes (scratch reused by a smaller grid).
# Transposes, every element compared, at 32768x32768, 8192x8192, 1000x3000,
# 999x3001, 1x1000003 and 1000003x1, in f32 and bf16 (TMA must refuse rows
# that are not multiples of 16 bytes, with a clear error); batches in one
# launch (70000 matrices: a grid of two layers in z), and pitched rows.
# Matrix reductions (kernel: reduce_axis), every result compared, at the
# shapes below in f32, bf16 and i32, then with padded rows (pitch = cols + 3)
# and with the other ops at smaller shapes (4097x12, 4097x24 and 4097x40:
# rows of a few vectors, strategy: auto's _lanes4x4 and _lanes8x4 at the
# first two in f32 and i32, at the last two in bf16; 7x17 and --pad 3 put
# rows off their vectors' boundaries, which _lanes4 takes instead).
# Matrix multiplies (kernel: matmul), at 1x1x1, 7x5x3, 127x255x63,
# 1000x3001x257 (every element against the fp64 CPU reference) and
# 4096x4096x4096 (16 rows and 16 columns), with each operand row- and
# column-major (the specs whose rules allow it), then with padded leading
# dimensions (--pad 3: element loads where vectors would be misaligned) and
# split_k: 3; then K much larger than M and N (64x64x1048576, also with
# split_k: 16) and the reverse (8192x8192x16), seed 002's slow first steps
# left out; and the shipped plans by shape at shapes that reach each entry.
# Then a random sample of the specs `kgen check` accepts, every family
# (tests/sample_test --emit), on small inputs.
# Without a GPU it skips (exit 77).  The full log is gpu_verify.log.
# KGEN_GPU_VERIFY names the parts to run (default: all of them, which takes
# longer than one 10-minute call on the GPU machine): any of reduce,
# transpose, axis, matmul and sample, e.g. KGEN_GPU_VERIFY="matmul sample".
set -u
top_srcdir=${top_srcdir:-.}
kgen=${top_builddir:-.}/kgen
log=gpu_verify.log
parts=${KGEN_GPU_VERIFY:-reduce transpose axis matmul sample}
for p in $parts; do
	case $p in
	reduce | transpose | axis | matmul | sample) ;;
	*) echo "FAIL: KGEN_GPU_VERIFY: unknown part '$p' (reduce, transpose, axis, matmul, sample)"; exit 1 ;;
	esac
done
if ! info=$("$kgen" info 2>&1); then
	echo "SKIP: no GPU: $info"
	exit 77
fi
# The full reductions in the order of their element type and op (then
# path): kgen run keeps an input and its CPU reference while the type, op
# and size stay (the random values depend on the op), so that at 2^30 the
# 36 specs fill 16 inputs, one for each type and op, instead of 19 in path
# order.  A spec kgen cannot generate sorts first ("-"), and kgen run
# reports it.
specs=$(for f in $(find "$top_srcdir/specs" -name '*.yaml' -not -path '*/transpose/*' -not -path '*/reduce_axis/*' \
	-not -path '*/matmul/*' -not -path '*/plans/*'); do
	"$kgen" "$f" 2>/dev/null | f=$f awk '/^\/\/   dtype: /{d=$3} /^\/\/   op: /{o=$3}
		END{print (d == "" ? "-" : d), (o == "" ? "-" : o), ENVIRON["f"]}'
done | LC_ALL=C sort | awk '{print $3}')
mspecs=$(find "$top_srcdir/specs/matmul" -name '*.yaml' | LC_ALL=C sort)
mshapes="--shape 1x1x1 --shape 7x5x3 --shape 127x255x63 --shape 1000x3001x257 --shape 4096x4096x4096"
aspecs=$(find "$top_srcdir/specs/reduce_axis" -name '*.yaml' | LC_ALL=C sort)
ashapes="--shape 16384x16384 --shape 32768x32768 --shape 1048576x256 --shape 4194304x64 --shape 256x1048576
 --shape 64x4194304 --shape 1000x3001 --shape 1x1000003 --shape 1000003x1"
small="--shape 1000x3001 --shape 1x1000003 --shape 1000003x1 --shape 5x1 --shape 33x65 --shape 1x1 --shape 4097x12 --shape 4097x24 --shape 4097x40 --shape 7x17"
tspecs=$(find "$top_srcdir/specs/transpose" -name '*.yaml' | LC_ALL=C sort)
# The same transposes in bf16, where the spec allows it (a swizzled f32 box
# row of 32 elements is too short for bf16), and the bf16 specs as written.
bspecs=
for f in $tspecs; do
	"$kgen" check --set dtype=bf16 "$f" 2>/dev/null && bspecs="$bspecs $f"
done
# The matmul specs that `kgen check` accepts with the given --set options.
mvalid() {
	for f in $mspecs; do
		"$kgen" check $1 "$f" 2>/dev/null && echo "$f"
	done
}
# The reduce_axis specs that `kgen check` accepts with the given --set options.
valid() {
	for f in $aspecs; do
		"$kgen" check $1 "$f" 2>/dev/null && echo "$f"
	done
}
shapes="--shape 32768x32768 --shape 8192x8192 --shape 1000x3000 --shape 999x3001 --shape 1x1000003 --shape 1000003x1"
bshapes="--shape 64x1024x1024 --shape 3x1000x3000 --shape 5x33x65 --shape 70000x4x8"
pshapes="--shape 1000x3000 --shape 2x999x3001 --shape 1x1000 --shape 1000x1"
# Whether part $1 was asked for; says so in the log when it was not.
part() {
	case " $parts " in
	*" $1 "*) return 0 ;;
	esac
	echo "# part $1 not asked for (KGEN_GPU_VERIFY=$parts)"
	return 1
}
status=0
{
	echo "# $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "$info"
	if part reduce; then
		echo "# kgen run --verify --n 0 --n 1 --n 31 --n 1000003 --n 2^24+7 --n 2^30 specs..."
		"$kgen" run --verify --n 0 --n 1 --n 31 --n 1000003 --n '2^24+7' --n '2^30' $specs || status=1
		echo "# kgen run --verify --offset 1 --n 1 --n 31 --n 1000003 specs..."
		"$kgen" run --verify --offset 1 --n 1 --n 31 --n 1000003 $specs || status=1
		# Falling sizes: a kernel's own scratch, sized for a large n, is reused by smaller grids.
		echo "# kgen run --verify --n 2^24+7 --n 1000003 --n 31 --n 1 specs..."
		"$kgen" run --verify --n '2^24+7' --n 1000003 --n 31 --n 1 $specs || status=1
	fi
	if part transpose; then
		echo "# kgen run --verify $shapes transpose specs..."
		"$kgen" run --verify $shapes $tspecs || status=1
		echo "# kgen run --verify --set dtype=bf16 $shapes transpose specs valid in bf16..."
		"$kgen" run --verify --set dtype=bf16 $shapes $bspecs || status=1
		# Batches in one launch, and pitched rows (--pad: the padding must stay
		# untouched; TMA needs pitches of 16 bytes, so it refuses --pad 3).
		echo "# kgen run --verify $bshapes transpose specs..."
		"$kgen" run --verify $bshapes $tspecs || status=1
		echo "# kgen run --verify --set dtype=bf16 $bshapes transpose specs valid in bf16..."
		"$kgen" run --verify --set dtype=bf16 $bshapes $bspecs || status=1
		for pad in 4 3; do
			echo "# kgen run --verify --pad $pad $pshapes transpose specs..."
			"$kgen" run --verify --pad $pad $pshapes $tspecs || status=1
		done
	fi
	if part axis; then
		for dt in f32 bf16 i32; do
			echo "# kgen run --verify --set dtype=$dt $ashapes reduce_axis specs valid in $dt..."
			"$kgen" run --verify --set dtype=$dt $ashapes $(valid "--set dtype=$dt") || status=1
		done
		echo "# kgen run --verify --pad 3 $small reduce_axis specs..."
		"$kgen" run --verify --pad 3 $small $aspecs || status=1
		for op in min max prod; do
			for dt in f32 i32 f64; do
				echo "# kgen run --verify --set op=$op --set dtype=$dt $small reduce_axis specs valid so..."
				"$kgen" run --verify --set op=$op --set dtype=$dt $small $(valid "--set op=$op --set dtype=$dt") || status=1
			done
		done
	fi
	if part matmul; then
		for layouts in "--set a_layout=row --set b_layout=row" "--set a_layout=col --set b_layout=row" \
		               "--set a_layout=row --set b_layout=col" "--set a_layout=col --set b_layout=col"; do
			echo "# kgen run --verify $layouts $mshapes matmul specs valid so..."
			"$kgen" run --verify $layouts $mshapes $(mvalid "$layouts") || status=1
		done
		# math: wgmma, and math: mma with loads: tma, load with TMA, which refuses
		# row pitches that are not 16-byte multiples (most packed shapes above):
		# here shapes ragged against every tile with whole pitches, packed
		# multiples of 8 and odd sizes with --pad 5 (ld = size + 5), in each
		# layout; 2000x3000 has more tiles than an H100 has SMs (the persistent
		# kernels loop), k 520 wraps the stages.
		wspecs=$(grep -l -e '^math: wgmma' -e '^loads: tma' $mspecs)
		for layouts in "--set a_layout=row --set b_layout=row" "--set a_layout=col --set b_layout=row" \
		               "--set a_layout=row --set b_layout=col" "--set a_layout=col --set b_layout=col"; do
			echo "# kgen run --verify $layouts wgmma matmul specs at whole pitches..."
			"$kgen" run --verify $layouts --shape 2000x3000x520 --shape 8x8x8 --shape 136x264x1000 \
				$wspecs || status=1
			"$kgen" run --verify $layouts --pad 5 --shape 1003x259x131 --shape 3x3x3 $wspecs || status=1
		done
		# The shipped plans by shape (specs/plans/*/matmul-*.yaml): shapes ragged against
		# their tiles that reach every entry (split k over 4 and 2, the skinny tiles,
		# 128 x 128, 128 x 64, the best spec), with TMA's whole pitches, then two whose
		# A has rows TMA cannot load (K of 4097 and 521: unaligned: repack's copy).
		echo "# kgen run --verify the shipped matmul plans at shapes of every entry..."
		"$kgen" run --verify --shape 100x2000x1000 --shape 256x1024x8200 --shape 100x4000x520 --shape 1x4096x4096 \
			--shape 63x12000x512 --shape 1x8192x1000 --shape 128x9000x264 --shape 200x5000x1000 \
			--shape 1000x2000x136 --shape 1500x3000x520 --shape 1x4096x4097 --shape 100x4000x521 \
			$(find "$top_srcdir/specs/plans" -name 'matmul-*.yaml' | LC_ALL=C sort) || status=1
		echo "# kgen run --verify --pad 3 matmul specs..."
		"$kgen" run --verify --pad 3 --shape 127x255x63 --shape 1000x3001x257 $mspecs || status=1
		echo "# kgen run --verify --set split_k=3 matmul specs valid so..."
		"$kgen" run --verify --set split_k=3 --shape 7x5x3 --shape 1000x3001x257 $(mvalid "--set split_k=3") || status=1
		echo "# kgen run --verify --set split_k=3 --set split_reduce=kernel (and --set store=direct) matmul specs valid so..."
		"$kgen" run --verify --set split_k=3 --set split_reduce=kernel --set store=direct --shape 7x5x3 \
			--shape 1000x3001x257 --shape 64x1000x4097 \
			$(mvalid "--set split_k=3 --set split_reduce=kernel --set store=direct") || status=1
		# K much larger than M and N, and the reverse (issue 21's shapes), for the
		# specs that are not seed 002's slowest steps: with and without split-K.
		mfast=$(find "$top_srcdir/specs/matmul" -name '*.yaml' -not -name '0[1-3]-*' | LC_ALL=C sort)
		echo "# kgen run --verify --shape 64x64x1048576 --shape 8192x8192x16 matmul specs..."
		"$kgen" run --verify --shape 64x64x1048576 --shape 8192x8192x16 $mfast || status=1
		echo "# kgen run --verify --set split_k=16 --shape 64x64x1048576 matmul specs valid so..."
		"$kgen" run --verify --set split_k=16 --shape 64x64x1048576 $(for f in $mfast; do
			"$kgen" check --set split_k=16 "$f" 2>/dev/null && echo "$f"; done) || status=1
	fi
	if part sample; then
		# A fixed-seed random sample of what the language accepts (tests/sample_test).
		sdir=$(mktemp -d "${TMPDIR:-/tmp}/kgen-sample.XXXXXX")
		if "${top_builddir:-.}/tests/sample_test" --emit "$sdir" 12; then
			for f in "$sdir"/*.yaml; do echo "# $(basename "$f"): $(tr '\n' ';' <"$f")"; done
			mm=$(grep -l '^kernel: matmul' "$sdir"/*.yaml)
			others=$(grep -L '^kernel: matmul' "$sdir"/*.yaml)
			echo "# kgen run --verify --n 31 --n 1000003 --shape 1000x3000 --shape 33x64 sampled specs..."
			"$kgen" run --verify --n 31 --n 1000003 --shape 1000x3000 --shape 33x64 $others || status=1
			if [ -n "$mm" ]; then
				echo "# kgen run --verify --shape 7x5x3 --shape 300x200x100 sampled matmul specs..."
				"$kgen" run --verify --shape 7x5x3 --shape 300x200x100 $mm || status=1
				# TMA refuses those pitches: the TMA specs again at whole ones.
				mt=$(grep -l -e '^math: wgmma' -e '^loads: tma' $mm)
				if [ -n "$mt" ]; then
					echo "# kgen run --verify --shape 8x8x8 --shape 136x264x1000 sampled TMA matmul specs..."
					"$kgen" run --verify --shape 8x8x8 --shape 136x264x1000 $mt || status=1
				fi
			fi
		else
			echo "FAIL: tests/sample_test --emit"; status=1
	fi
	rm -rf "$sdir"
	fi
} >"$log" 2>&1
cat "$log"
# An input may be refused only for alignment, TMA's row pitch or a rows spec's
# stated capacity (a row held in registers: the sample draws strategy: warp and
# cluster specs that hold 128-1024 elements, and the 1000x3000 shape is longer),
# never verified wrongly.
if grep ' rejected ' "$log" | grep -v -e 'is not aligned to' -e 'needs row pitches of a multiple of 16 bytes' \
	-e 'kgen_rows: rows of [0-9]* elements are longer than [a-z0-9_]* holds ([0-9]*): use strategy: online' >/dev/null; then
	echo "FAIL: a spec refused an input for a reason other than alignment or a row's capacity"
	status=1
fi
if grep -E ' FAIL ' "$log" >/dev/null; then
	status=1
fi
exit $status
