#!/bin/sh
# bench/multi_gpu/multi.sh OUT [GPUS]: kgen run --devices against torch's
# all_reduce on GPUS GPUs (default: every GPU nvidia-smi lists), for the
# sizes of bench/multi_gpu/README.md.  Writes OUT/kgen.txt and OUT/torch.tsv.
# NVLink multicast stays off (NCCL_NVLS_ENABLE=0) for kgen and torch alike.
set -eu
out=${1:?usage: multi.sh OUT [GPUS]}
gpus=${2:-$(nvidia-smi -L | wc -l)}
KGEN=${KGEN:-./kgen}
top_srcdir=${top_srcdir:-.}
NCCL_NVLS_ENABLE=0
export NCCL_NVLS_ENABLE
mkdir -p "$out"
devices=$(seq -s, 0 $((gpus - 1)))
specs=$top_srcdir/specs
"$KGEN" run --devices "$devices" --bench --n 2^20 --n 2^24 --n 2^28 \
	"$specs/reduce_vec4.yaml" "$specs/reduce/ops/argmax-f32.yaml" "$specs/reduce/ops/mean-f32.yaml" | tee "$out/kgen.txt"
"$KGEN" run --devices "$devices" --bench --shape 65536x4096 "$specs/reduce_axis/best/cols.yaml" | tee -a "$out/kgen.txt"
python3 "$top_srcdir/bench/multi_gpu/torch_peer.py" --gpus "$gpus" --op sum --dtype f32 \
	--n 2^20 --n 2^24 --n 2^28 --shape 65536x4096 | tee "$out/torch.tsv"
