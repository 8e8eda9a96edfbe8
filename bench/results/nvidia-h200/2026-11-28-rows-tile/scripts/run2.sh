# H200 run 2 (the device command, one line): lab/rows_lab2.cu.
L=bench/results/nvidia-h200/2026-11-28-rows-tile/lab; nvcc -O3 -arch=sm_90 -std=c++17 -o /tmp/rows_lab2 $L/rows_lab2.cu && /tmp/rows_lab2 20 2>&1 | tee $OUT/lab2.txt; nvidia-smi --query-gpu=name,clocks.max.sm,power.limit,driver_version --format=csv > $OUT/gpu.txt; date -u >> $OUT/gpu.txt
