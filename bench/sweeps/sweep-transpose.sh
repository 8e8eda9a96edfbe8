#!/bin/sh
# sweep-transpose.sh OUTDIR [SHAPE...]: verify and time transpose candidates
# (method, tile, batch, vector width, padding, swizzle, walk, buffers, block
# order, cache operators) for $DTYPE (default f32) at each shape
# (default 8192x8192 and 32768x32768) against a device-to-device copy of the
# same bytes, in one `kgen run`, to choose specs/transpose/best.yaml.
# Writes OUTDIR/sweep-transpose.tsv and .txt (OUTDIR/sweep-transpose-$TAG.* with TAG set).
set -eu
out=$1
shift
[ $# -gt 0 ] || set -- 8192x8192 32768x32768
kgen=${KGEN:-./kgen}
dir=$(mktemp -d)
dtype=${DTYPE:-f32}
emit() {  # name, then the spec's lines after `kernel: transpose` and `dtype: $DTYPE`
	f=$dir/$1.yaml
	shift
	printf 'kernel: transpose\ndtype: %s\n' "$dtype" >"$f"
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
for sw in none 128B; do
	emit "tma-32x32-b8-$sw-rows" "method: tma" "tile_rows: 32" "tile_cols: 32" "batch: 8" "swizzle: $sw"
done
for tile in 32x32 64x32 32x64 64x64; do
	r=${tile%x*}
	c=${tile#*x}
	for batch in 8 16 32; do
		emit "tma-$tile-b$batch-none-diagonal" "method: tma" "tile_rows: $r" "tile_cols: $c" "batch: $batch" \
			"swizzle: none" "walk: diagonal"
	done
done
for batch in 8 16 32; do
	emit "tma-64x64-b$batch-none-rows" "method: tma" "tile_rows: 64" "tile_cols: 64" "batch: $batch" "swizzle: none"
	emit "tma-64x64-b$batch-none-diagonal-x2" "method: tma" "tile_rows: 64" "tile_cols: 64" "batch: $batch" \
		"swizzle: none" "walk: diagonal" "buffers: 2"
done
for batch in 8 16; do
	for group in 8 32; do
		emit "tma-64x64-b$batch-none-diagonal-g$group" "method: tma" "tile_rows: 64" "tile_cols: 64" \
			"batch: $batch" "swizzle: none" "walk: diagonal" "order: grouped" "group: $group"
	done
done
emit "tma-64x64-b4-none-diagonal" "method: tma" "tile_rows: 64" "tile_cols: 64" "batch: 4" "swizzle: none" \
	"walk: diagonal"
for hint in none evict_first; do
	for promo in none 128B 256B; do
		emit "tma-64x64-b8-none-diagonal-$hint-$promo" "method: tma" "tile_rows: 64" "tile_cols: 64" "batch: 8" \
			"swizzle: none" "walk: diagonal" "cache_hint: $hint" "l2_promotion: $promo"
	done
done
# Tiles over 48 KB (two buffers) take dynamic shared memory.
for tile in 64x128 128x64 128x128; do
	r=${tile%x*}
	c=${tile#*x}
	for batch in 16 32; do
		emit "tma-$tile-b$batch-none-diagonal" "method: tma" "tile_rows: $r" "tile_cols: $c" "batch: $batch" \
			"swizzle: none" "walk: diagonal"
	done
done
emit "smem-64x64-b32-v4-p1-g8" "method: smem" "tile_rows: 64" "tile_cols: 64" "batch: 32" "load_width: 16" "pad: 1" \
	"order: grouped" "group: 8"
# Block order and cache operators (16-byte vectors: 4 f32, 8 bf16).
for order in rows cols; do
	for st in none cs; do
		emit "smem-64x64-b8-v16B-p1-o$order-s$st" "method: smem" "tile_rows: 64" "tile_cols: 64" "batch: 8" \
			"load_width: 16" "pad: 1" "order: $order" "store_hint: $st"
	done
	emit "tma-64x64-b8-none-diagonal-o$order" "method: tma" "tile_rows: 64" "tile_cols: 64" "batch: 8" \
		"swizzle: none" "walk: diagonal" "order: $order"
done
for ld in nc cs lu; do
	emit "smem-64x64-b8-v16B-p1-ocols-scs-l$ld" "method: smem" "tile_rows: 64" "tile_cols: 64" "batch: 8" \
		"load_width: 16" "pad: 1" "order: cols" "store_hint: cs" "load_hint: $ld"
done
for st in cg wt; do
	emit "smem-64x64-b8-v16B-p1-ocols-s$st" "method: smem" "tile_rows: 64" "tile_cols: 64" "batch: 8" \
		"load_width: 16" "pad: 1" "order: cols" "store_hint: $st"
done
emit "smem-64x64-b16-v16B-p1-ocols-scs" "method: smem" "tile_rows: 64" "tile_cols: 64" "batch: 16" \
	"load_width: 16" "pad: 1" "order: cols" "store_hint: cs"
emit "smem-32x32-b8-v16B-p1-ocols-scs" "method: smem" "tile_rows: 32" "tile_cols: 32" "batch: 8" \
	"load_width: 16" "pad: 1" "order: cols" "store_hint: cs"
shapes=
for s in "$@"; do shapes="$shapes --shape $s"; done
specs=
# ONLY=REGEX keeps the candidates whose names match (the whole list is slow at 32768x32768).
for f in $(ls "$dir"/*.yaml | LC_ALL=C sort | grep -E -- "${ONLY:-.}"); do
	if "$kgen" check "$f" 2>/dev/null; then specs="$specs $f"; fi
done
"$kgen" run --verify --bench --runs 20 $shapes --tsv "$out/sweep-transpose${TAG:+-$TAG}.tsv" $specs | tee "$out/sweep-transpose${TAG:+-$TAG}.txt"
rm -rf "$dir"
