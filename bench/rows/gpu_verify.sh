#!/bin/sh
# bench/rows/gpu_verify.sh KGEN [LOG_DIR] - kernel: rows on a GPU: every
# spec of specs/rows/ verified against the fp64 reference at the shapes
# issue 49 names (1x1, 1x1000003, 1000003x1, 37x1000, 1000x37, ragged and
# padded rows), in f32, f16 and bf16, and the edge rows (--extreme: all
# -inf, a NaN, huge values, a constant row).  Exit 0 when every result
# verified.
set -u
kgen=${1:?usage: gpu_verify.sh KGEN [LOG_DIR]}
log=${2:-.}
top=$(cd "$(dirname "$0")/../.." && pwd)
auto="$top/specs/rows/softmax.yaml $top/specs/rows/log_softmax.yaml $top/specs/rows/rms_norm.yaml $top/specs/rows/layer_norm.yaml $top/specs/rows/cross_entropy.yaml"
fail=0
for dt in bf16 f16 f32; do
	"$kgen" run $auto --verify --set dtype=$dt --shape 1x1 --shape 1x1000003 --shape 1000003x1 --shape 37x1000 \
		--shape 1000x37 --shape 513x4097 --shape 64x262147 --shape 1000x5000 --shape 99x30001 \
		>> "$log/rows_verify.log" 2>&1 || fail=1
	"$kgen" run $auto --verify --set dtype=$dt --pad 3 --shape 37x1000 --shape 1000x37 --shape 300x5001 \
		>> "$log/rows_verify.log" 2>&1 || fail=1
	"$kgen" run $auto --verify --extreme both --set dtype=$dt --shape 64x1000 --shape 8x40000 --shape 64x12000 \
		>> "$log/rows_verify.log" 2>&1 || fail=1
	# rows of exactly auto's warp kernels' loads (256 and 512 elements; 128 of f32): their path without
	# bounds, an odd row count, rows whose pitch keeps vectors aligned (--pad 8) or does not (--pad 3), the edge rows
	"$kgen" run $auto --verify --set dtype=$dt --shape 999x128 --shape 999x256 --shape 999x512 \
		>> "$log/rows_verify.log" 2>&1 || fail=1
	"$kgen" run $auto --verify --set dtype=$dt --pad 8 --shape 333x128 --shape 333x256 --shape 333x512 \
		>> "$log/rows_verify.log" 2>&1 || fail=1
	"$kgen" run $auto --verify --set dtype=$dt --pad 3 --shape 333x256 --shape 333x512 >> "$log/rows_verify.log" 2>&1 || fail=1
	"$kgen" run $auto --verify --extreme both --set dtype=$dt --shape 64x128 --shape 64x256 --shape 64x512 \
		>> "$log/rows_verify.log" 2>&1 || fail=1
	# auto's block of 128 threads a row (rows of 513 to 1024 elements; bf16 and f16 LayerNorm's staged): the
	# shortest and the longest it takes, partial vectors, rows the threads load (padded), the edge rows
	"$kgen" run $auto --verify --set dtype=$dt --shape 1000x513 --shape 1000x1024 --shape 3x1023 \
		>> "$log/rows_verify.log" 2>&1 || fail=1
	"$kgen" run $auto --verify --set dtype=$dt --pad 3 --shape 100x1024 >> "$log/rows_verify.log" 2>&1 || fail=1
	"$kgen" run $auto --verify --extreme both --set dtype=$dt --shape 64x1024 >> "$log/rows_verify.log" 2>&1 || fail=1
	# auto's staged kernels of a warp or two a row (sm_90): rows of 513 to 2048 elements, whole and partial
	# vectors, a last block of fewer rows, rows the threads load (padded), the edge rows
	"$kgen" run $auto --verify --set dtype=$dt --shape 1000x600 --shape 333x2000 --shape 17x1024 --shape 1001x1500 \
		>> "$log/rows_verify.log" 2>&1 || fail=1
	"$kgen" run $auto --verify --set dtype=$dt --pad 5 --shape 99x1536 >> "$log/rows_verify.log" 2>&1 || fail=1
	"$kgen" run $auto --verify --extreme both --set dtype=$dt --shape 64x2048 >> "$log/rows_verify.log" 2>&1 || fail=1
	# auto's blocks of 256 and 512 threads a row (1025 to 8192 elements; f32 to 8192, bf16 and f16 RMSNorm to
	# 4096): each range's shortest and longest, partial vectors, padded rows, the edge rows
	"$kgen" run $auto --verify --set dtype=$dt --shape 1000x1025 --shape 100x2048 --shape 100x2049 --shape 7x3001 \
		--shape 100x4096 --shape 100x4097 --shape 30x8192 --shape 30x8193 >> "$log/rows_verify.log" 2>&1 || fail=1
	"$kgen" run $auto --verify --set dtype=$dt --pad 3 --shape 100x2000 --shape 50x6000 >> "$log/rows_verify.log" 2>&1 || fail=1
	"$kgen" run $auto --verify --extreme both --set dtype=$dt --shape 64x4096 --shape 16x8192 \
		>> "$log/rows_verify.log" 2>&1 || fail=1
	# auto's blocks that hold a row exactly (bf16 and f16: 192 x 1 to 1536, 192 x 2 to 3072, 384 x 2 to 6144), and for f32 softmax the wide staged block (16385 to 32768) and wide clusters of 2 and 4 blocks
	# (to 65536, 131072): each range's ends, partial vectors, padded rows, the edge rows
	"$kgen" run $auto --verify --set dtype=$dt --shape 1000x1536 --shape 7x1531 --shape 100x3072 --shape 100x3073 \
		--shape 60x6144 --shape 60x6145 --shape 9x2501 >> "$log/rows_verify.log" 2>&1 || fail=1
	"$kgen" run $auto --verify --set dtype=$dt --shape 100x16385 --shape 100x32768 --shape 50x32769 \
		--shape 50x65536 --shape 20x65537 --shape 20x131072 >> "$log/rows_verify.log" 2>&1 || fail=1
	"$kgen" run $auto --verify --set dtype=$dt --pad 3 --shape 100x3000 --shape 30x50001 >> "$log/rows_verify.log" 2>&1 || fail=1
	"$kgen" run $auto --verify --extreme both --set dtype=$dt --shape 64x1536 --shape 64x3072 --shape 64x6144 \
		--shape 16x32768 --shape 16x100000 >> "$log/rows_verify.log" 2>&1 || fail=1
	# (bf16 and f16 LayerNorm's wide staged blocks of 128 x 2, 128 x 3 and 256 x 2 loads: 1025 to 2048, 2049 to
	# 3072, 3073 to 4096, in the shapes above)
	# auto's clusters (sm_90): rows over 2, 4 and 8 blocks (f32's past 131072 elements of 1024 threads; bf16 and
	# f16 softmax's of half the threads, 16 loads each), a last
	# block with part of a row or none, a
	# row's unaligned tail loaded by the threads, and the edge rows
	"$kgen" run $auto --verify --set dtype=$dt --shape 300x40000 --shape 100x70000 --shape 50x131064 \
		--shape 16x262144 --shape 200x100000 --shape 20x131073 --shape 9x200001 >> "$log/rows_verify.log" 2>&1 || fail=1
	"$kgen" run $auto --verify --set dtype=$dt --pad 7 --shape 300x40001 >> "$log/rows_verify.log" 2>&1 || fail=1
	"$kgen" run $auto --verify --extreme both --set dtype=$dt --shape 64x65536 >> "$log/rows_verify.log" 2>&1 || fail=1
done
for s in "$top"/specs/rows/strategies/*.yaml; do
	"$kgen" run "$s" --verify --shape 37x200 --shape 1000x37 --shape 300x501 >> "$log/rows_verify.log" 2>&1 || fail=1
	"$kgen" run "$s" --verify --pad 5 --extreme both --shape 64x300 >> "$log/rows_verify.log" 2>&1 || fail=1
done
"$kgen" run "$top/specs/rows/strategies/cluster.yaml" --verify --shape 64x262144 --shape 100x100000 >> "$log/rows_verify.log" 2>&1 || fail=1
"$kgen" run "$top/specs/rows/strategies/rms_norm_cluster.yaml" --verify --shape 64x65536 >> "$log/rows_verify.log" 2>&1 || fail=1
grep -c " ok " "$log/rows_verify.log" | sed 's/^/ok results: /'
grep -E " (FAIL|rejected) " "$log/rows_verify.log" | head -20
exit $fail
