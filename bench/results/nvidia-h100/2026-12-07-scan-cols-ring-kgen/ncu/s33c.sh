#!/bin/sh
set -u
. ./.gpu/env.sh
R=$OUT/r; mkdir -p $R
timeout 90 ncu --section SourceCounters --section WarpStateStats -o $R/ring -k regex:scan_cols --launch-count 1 .gpu/h-r 1048576 1024 > $R/l1.txt 2>&1
timeout 90 ncu --section SourceCounters --section WarpStateStats -o $R/proto -k regex:colscan --launch-count 1 .gpu/colscan-BASE 1048576 1024 bw64_tr128_ns3_b2 > $R/l2.txt 2>&1
ncu -i $R/ring.ncu-rep --page source --csv --print-source sass > $R/ring-src.csv 2>&1
ncu -i $R/proto.ncu-rep --page source --csv --print-source sass > $R/proto-src.csv 2>&1
rm -f $R/*.ncu-rep
tar -czf $OUT/r.tgz -C $OUT r
ls -la $R; head -3 $R/ring-src.csv | cut -c1-600
