#!/bin/sh
# sweep-transpose.sh OUTDIR [SHAPE...]: verify and time transpose candidates
# (method, tile, batch, vector width, padding, swizzle) for f32 at each shape
# (default 8192x8192 and 32768x32768) against a device-to-device copy of the
# same bytes, in one `kgen run`, to choose specs/transpose/best.yaml.
# Writes OUTDIR/sweep-transpose.tsv and .txt.
set -eu
out=$1
shift
[ $# -gt 0 ] || set -- 8192x8192 32768x32768
kgen=${KGEN:-./kgen}
dir=$(mktemp -d)
emit() {  # name, then the spec's lines after `kernel: transpose` and `dtype: f32`
	f=$dir/$1.yaml
	shift
	printf 'kernel: transpose\ndtype: f32\n' >"$f"
	for line in "$@"; do printf '%s\n' "$line" >>"$f"; done
}
for tile in 32x32 64x64; do
	r=${tile%x*}
	c=${tile#*x}
	for batch in 8 16 32; do
		emit "smem-$tile-b$batch-v4-p1" "method: smem" "tile_rows: $r" "tile_cols: $c" "batch: $batch" \
			"load_width: 16" "pad: 1"
	done
done
for batch in 4 8 16 32; do
	for sw in none 128B; do
		for buf in 1 2 3; do
			emit "tma-32x32-b$batch-$sw-x$buf" "method: tma" "tile_rows: 32" "tile_cols: 32" "batch: $batch" \
				"swizzle: $sw" "buffers: $buf"
		done
	done
done
for tile in 64x64 32x64 64x32; do
	r=${tile%x*}
	c=${tile#*x}
	for batch in 8 16 32; do
		for buf in 1 2; do
			emit "tma-$tile-b$batch-none-x$buf" "method: tma" "tile_rows: $r" "tile_cols: $c" "batch: $batch" \
				"swizzle: none" "buffers: $buf"
		done
	done
done
shapes=
for s in "$@"; do shapes="$shapes --shape $s"; done
specs=
for f in $(ls "$dir"/*.yaml | LC_ALL=C sort); do
	if "$kgen" check "$f" 2>/dev/null; then specs="$specs $f"; fi
done
"$kgen" run --verify --bench --runs 20 $shapes --tsv "$out/sweep-transpose.tsv" $specs | tee "$out/sweep-transpose.txt"
rm -rf "$dir"
