#!/bin/sh
# session 24 call 2: what torch.compile's LayerNorm/RMSNorm at 32768x256 bf16 is (source, registers, block, grid),
# ncu of it against kgen's; ncu of f32 RMSNorm / LayerNorm 8192x262144 (L2 against DRAM).
set -u
T0=$(date +%s); END=${END:-400}
root=$PWD
. $root/.gpu/env.sh
R=$OUT/r; mkdir -p $R
st() { n=$1; s=$2; shift 2; left=$(( END - ($(date +%s) - T0) )); [ $s -gt $left ] && s=$left
  if [ $s -lt 5 ]; then echo "$n skipped" | tee -a $R/steps.txt; return; fi
  /usr/bin/time -f "%e s wall" -o $R/$n.time timeout $s "$@" > $R/$n.txt 2>&1
  echo "$n rc=$? t=$(( $(date +%s) - T0 ))s $(cat $R/$n.time)" | tee -a $R/steps.txt
  tar -czf $OUT/r.tgz -C $OUT r; }
NCU=/usr/local/cuda/bin/ncu
M=gpu__time_duration.sum,launch__registers_per_thread,launch__block_size,launch__grid_size,launch__shared_mem_per_block_dynamic,launch__shared_mem_per_block_static,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,launch__occupancy_limit_warps,launch__occupancy_limit_blocks,sm__warps_active.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_bytes.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__throughput.avg.pct_of_peak_sustained_elapsed,smsp__inst_executed.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed
export TORCH_LOGS=output_code
st tc-ln 90 python3 .gpu/tc_dump.py ln
st tc-rms 90 python3 .gpu/tc_dump.py rms
unset TORCH_LOGS
st ncu-tc-ln 90 $NCU --metrics $M -k regex:triton --launch-skip 2 --launch-count 1 python3 .gpu/tc_dump.py ln
st ncu-tc-rms 90 $NCU --metrics $M -k regex:triton --launch-skip 2 --launch-count 1 python3 .gpu/tc_dump.py rms
for op in layer_norm rms_norm softmax; do
  st ncu-kg-$op 60 $NCU --metrics $M -k regex:rows_ --launch-skip 3 --launch-count 1 ./kgen run specs/rows/$op.yaml --bench --shape 32768x256
done
for op in layer_norm rms_norm; do
  st ncu-kg32-$op 90 $NCU --metrics $M -k regex:rows_ --launch-skip 3 --launch-count 1 ./kgen run specs/rows/$op.yaml --set dtype=f32 --bench --shape 8192x262144
  st ncu-kg16-$op 90 $NCU --metrics $M -k regex:rows_ --launch-skip 3 --launch-count 1 ./kgen run specs/rows/$op.yaml --bench --shape 8192x262144
done
tar -czf $OUT/r.tgz -C $OUT r
