# H200 run 2 (issue 23, item 5), the build of run 1 on the same machine:
# every shipped spec's file whole against its kernels apart on all CPUs,
# and a cold build of each phase by phase against the NVRTC floor, with
# alternative kernels apart (the default) and, for comparison, with
# KGEN_JIT_THREADS=1 (every file one program, as before).
top=$PWD; . .gpu/env.sh
R=$OUT
if [ -x /tmp/kgen-build/kgen ]; then cd /tmp/kgen-build; else kgen_build > $R/build.log 2>&1 || exit 1; fi
make -s bench/jit/nvrtc_options bench/jit/jit_phases > $R/make.log 2>&1 || { tail $R/make.log; exit 1; }
O="--std=c++17 --device-as-default-execution-space --minimal"
./bench/jit/nvrtc_options --runs 1 --arch sm_90a --steps 0 "$O" \
  $(ls specs/*.yaml specs/*/*.yaml specs/*/*/*.yaml | grep -v space) 2>&1 | grep -v '^ptxas' > $R/steps.txt
tail -1 $R/steps.txt
echo "steps $(date -u +%T)"
bench/jit/jit-phases.sh --runs 1 > $R/phases.txt 2> $R/phases.err
tail -8 $R/phases.txt
echo "phases $(date -u +%T)"
KGEN_JIT_THREADS=1 bench/jit/jit-phases.sh --runs 1 > $R/phases-whole.txt 2> $R/phases-whole.err
tail -8 $R/phases-whole.txt
echo "phases-whole $(date -u +%T)"
