# H200 run 3: run 2's jit-phases.sh with alternative kernels apart (the
# default), after jit_phases learned that such a spec's disk hit is a hit
# a module (in run 2 it stopped at the first, best/rows.yaml).
top=$PWD; . .gpu/env.sh
R=$OUT
kgen_build > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
make -s bench/jit/jit_phases > $R/make.log 2>&1 || { tail $R/make.log; exit 1; }
bench/jit/jit-phases.sh --runs 1 > $R/phases.txt 2> $R/phases.err
grep -v '^\[' $R/phases.err | grep -v '^ptxas' | head -5
tail -8 $R/phases.txt
echo "phases $(date -u +%T)"
